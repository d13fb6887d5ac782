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
               "  match A B          play two engines against each other (banyan match --help)\n"
               "  perft <depth>      count the positions <depth> plies ahead\n"
               "  selfplay           games of a network against itself, recorded for training\n"
               "  train              fit a network to selfplay's records (or make a random one)\n"
               "  serve              the web board: play and analyse in a browser\n"
               "  show               print a position: diagram, side to move, legal moves\n"
               "  solo               the best game of a single-player game (Morpion Solitaire)\n"
               "  games [--params]   list the games (and each one's parameters)\n"
               "\n"
               "options:\n");
    cli_help_options(f);
    fprintf(f, "  --help, --version\n");
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
    {"analyze", cli_analyze}, {"bench", cli_bench},       {"games", cli_games},
    {"gtp", cli_gtp},         {"match", cli_match},       {"perft", cli_perft},
    {"play", cli_play},       {"selfplay", cli_selfplay}, {"serve", cli_serve},
    {"show", cli_show},       {"solo", cli_solo},         {"train", cli_train},
};

int main(int argc, char **argv)
{
    const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
    if (argc > 0 && !strncmp(base ? base + 1 : argv[0], "pbrain-", 7))
        return cli_gomocup(argc, argv, 1); /* Installed as a Gomocup brain. */
    if (argc < 2) {
        main_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        main_usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("banyan %s (%s, %s)\n", banyan_version(), BANYAN_COMPILER, __DATE__);
        printf("networks: %s\n", nn_have_blas() ? "OpenBLAS" : "plain C (built without BLAS)");
        printf("web board: %s\n", web_about());
        return 0;
    }
    if (!strcmp(cmd, "gomocup"))
        return cli_gomocup(argc, argv, 2);
    for (size_t i = 0; i < sizeof main_commands / sizeof main_commands[0]; i++)
        if (!strcmp(cmd, main_commands[i].name))
            return main_commands[i].run(argc, argv);
    fprintf(stderr, "banyan: unknown command \"%s\"\n", cmd);
    main_usage(stderr);
    return 2;
}
