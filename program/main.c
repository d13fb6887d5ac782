/*
 * main.c - the banyan program's entry: it finds the subcommand (or the
 * Gomocup brain, when run as pbrain-*) and hands over to it. Every
 * subcommand lives in a file of its own (cli.h lists them).
 */
#include <stdio.h>
#include <string.h>

#include "banyan.h"
#include "cli.h"
#include "nn.h"
#include "dist.h"
#include "os.h"
#include "web.h"

static void main_usage(FILE *f)
{
    fprintf(f, "usage: banyan <command> [options]\n"
               "\n"
               "commands:\n"
               "  play <game>        play against the engine in the terminal\n"
               "  gtp --game G       speak GTP version 2 on stdin/stdout (GUIs, referees)\n"
               "  gomocup            a Gomocup brain (also run as pbrain-banyan)\n"
               "  analyze            search one position and print the statistics\n"
               "  bench              fixed searches: the node-count signature and speeds\n"
               "  match A B          play two engines against each other\n"
               "  perft <depth>      count the positions <depth> plies ahead\n"
               "  selfplay           games of a network against itself, recorded for training\n"
               "  train              fit a network to selfplay's records (or make a random one)\n"
               "  learn              generations of selfplay, training and a gate (resumable)\n"
               "  serve              the web board: play and analyse in a browser\n"
               "  show               print a position: diagram, side to move, legal moves\n"
               "  solo               the best game of a single-player game (Morpion Solitaire)\n"
               "  games [--params]   list the games (and each one's parameters)\n"
               "  help [COMMAND]     this text, or a command's options (as COMMAND --help)\n"
               "  help options       every engine option, with where it applies\n"
               "\n"
               "Each command's options: banyan COMMAND --help. Also: banyan --version.\n");
}

/* The compiler that built the program, for --version: the first line of
 * its --version, given by the Makefile (no conditionals in the program). */
#ifndef BANYAN_COMPILER
#define BANYAN_COMPILER "an unknown compiler"
#endif

static const struct main_command {
    const char *name;
    int (*run)(int argc, char **argv);
} main_commands[] = {
    {"analyze", cli_analyze},   {"bench", cli_bench}, {"games", cli_games}, {"gtp", cli_gtp},
    {"learn", cli_learn},       {"match", cli_match}, {"perft", cli_perft}, {"play", cli_play},
    {"selfplay", cli_selfplay}, {"serve", cli_serve}, {"show", cli_show},   {"solo", cli_solo},
    {"train", cli_train},
};

#define MAIN_N_COMMANDS (sizeof main_commands / sizeof main_commands[0])

/* The optimal string alignment distance between a and b (edits of one
 * character, and swaps of two neighbours: "plya" is one from "play"), for
 * words shorter than 32 characters; 99 for longer ones. */
static int main_distance(const char *a, const char *b)
{
    int d[32][32];
    size_t n = strlen(a), m = strlen(b);
    if (n >= 32 || m >= 32)
        return 99;
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            if (i == 0 || j == 0) {
                d[i][j] = (int)(i + j);
                continue;
            }
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* The command closest to the mistyped cmd, within two edits, or NULL. */
static const char *main_suggest(const char *cmd)
{
    static const char *const extra[] = {"gomocup", "help"};
    const char *best = NULL;
    int best_d = 3;
    for (size_t i = 0; i < MAIN_N_COMMANDS + 2; i++) {
        const char *name = i < MAIN_N_COMMANDS ? main_commands[i].name : extra[i - MAIN_N_COMMANDS];
        int d = main_distance(cmd, name);
        if (d < best_d && d < (int)strlen(name)) {
            best = name;
            best_d = d;
        }
    }
    return best;
}

/* banyan help [COMMAND | options]. */
static int main_help(int argc, char **argv)
{
    if (argc < 3) {
        main_usage(stdout);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[2], "options")) {
        options_help_all(stdout);
        return 0;
    }
    char help[] = "--help";
    char *args[] = {argv[0], argv[2], help, NULL};
    if (argc == 3 && !strcmp(argv[2], "gomocup"))
        return cli_gomocup(3, args, 2);
    for (size_t i = 0; argc == 3 && i < MAIN_N_COMMANDS; i++)
        if (!strcmp(argv[2], main_commands[i].name))
            return main_commands[i].run(3, args);
    fprintf(stderr,
            "banyan help: no help on \"%s\": name a command, or options (banyan --help "
            "lists the commands)\n",
            argv[2]);
    return 2;
}

/* Under mpirun, whether command cmd runs over the ranks: one search over
 * all of them (analyze, gtp, gomocup; serve, a session's search at a
 * time), games spread over them (match, learn), or NRPA's runs sharing
 * their best games (solo). Others say so, on rank 0. */
static bool main_distributed(const char *cmd)
{
    static const char *const spread[] = {"analyze", "gtp",   "gomocup", "serve",
                                         "match",   "learn", "solo"};
    for (size_t i = 0; i < sizeof spread / sizeof *spread; i++)
        if (!strcmp(cmd, spread[i]))
            return true;
    if (dist_rank() == 0)
        fprintf(stderr,
                "banyan %s: runs on one machine; under mpirun, run analyze, gtp, gomocup, "
                "serve, match, learn or solo --algorithm nrpa\n",
                cmd);
    return false;
}

static int main_run(int argc, char **argv)
{
    if (argc > 0 && !strncmp(os_basename(argv[0]), "pbrain-", 7))
        return cli_gomocup(argc, argv, 1); /* Installed as a Gomocup brain. */
    if (argc < 2) {
        main_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        return main_help(2, argv);
    if (!strcmp(cmd, "help"))
        return main_help(argc, argv);
    if (!strcmp(cmd, "--version")) {
        printf("banyan %s (%s)\n", banyan_version(), BANYAN_COMPILER);
        printf("networks: %s\n", nn_have_blas() ? "OpenBLAS" : "plain C (built without BLAS)");
        printf("web board: %s\n", web_about());
        printf("distributed: %s\n", dist_about());
        return 0;
    }
    if (dist_ranks() > 1 && !main_distributed(cmd))
        return 2;
    if (!strcmp(cmd, "gomocup"))
        return cli_gomocup(argc, argv, 2);
    for (size_t i = 0; i < MAIN_N_COMMANDS; i++)
        if (!strcmp(cmd, main_commands[i].name))
            return main_commands[i].run(argc, argv);
    /* A mistyped command: one line, and the likely command. */
    const char *near = main_suggest(cmd);
    fprintf(stderr, "banyan: unknown command \"%s\"", cmd);
    if (near)
        fprintf(stderr, "; did you mean \"%s\"?", near);
    fprintf(stderr, " (banyan --help lists the commands)\n");
    return 2;
}

int main(int argc, char **argv)
{
    os_init();
    if (!dist_start(&argc, &argv))
        return 1;
    int rc = main_run(argc, argv);
    dist_end();
    return rc;
}
