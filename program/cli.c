/*
 * cli.c - what the subcommands share (see cli.h): the command-line parser,
 * whose engine options come from the shared table of options.h and whose
 * own options are the few below; engine creation with every failure
 * explained from the game's description; move and board printing.
 */
#include "cli.h"
#include "dist.h"
#include "dsearch.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Which of the subcommands' own options a subcommand takes (cli_own_options
 * in that order, one bit each). */
#define CLI_GAME   0x01u /* --game, --param, --position. */
#define CLI_HUMAN  0x02u
#define CLI_JSON   0x04u                         /* --json, --tree-dump, --depth, --min-visits. */
#define CLI_REUSE  0x08u                         /* --reuse-test. */
#define CLI_ENGINE 0x10u                         /* The engine options of options.h. */
#define CLI_INDENT "                           " /* Help text under a long syntax. */

/* The subcommands that cli_parse serves: synopsis, what it does, the
 * options it takes and how strong it plays when no option says. */
static const struct cli_command {
    const char *name;
    const char *synopsis;
    const char *about;
    unsigned takes;
    const char *strength;
} cli_commands[] = {
    {"play", "banyan play <game> [options]",
     "A person against the engine in the terminal; type help at the prompt for the commands.",
     CLI_GAME | CLI_HUMAN | CLI_ENGINE,
     "200000 playouts a move, times 81 / cells on larger boards (44,875 on 19x19)"},
    {"gtp", "banyan gtp --game G [options]",
     "GTP version 2 on standard input and output, for GUIs and referees.", CLI_GAME | CLI_ENGINE,
     "50000 playouts a move, times 81 / cells on larger boards (11,218 on 19x19), or the "
     "controller's clock"},
    {"gomocup", "banyan gomocup [--game G] [options]   (also run as pbrain-banyan)",
     "A Gomocup (Piskvork) brain on standard input and output.", CLI_GAME | CLI_ENGINE,
     "the manager's clock: timeout_turn, else 5 s a move"},
    {"analyze", "banyan analyze --game G [--position P] [options]",
     "Searches one position and prints each move's statistics, best first.",
     CLI_GAME | CLI_JSON | CLI_ENGINE, "10000 playouts"},
    {"bench", "banyan bench [--threads T] | banyan bench --game G [--position P] [options]",
     "Without --game: every game's fixed searches (the node-count signature, one thread unless "
     "--threads says) and speeds. With --game: one timed search of a position (or, with "
     "--reuse-test, a game measuring tree reuse).",
     CLI_GAME | CLI_REUSE | CLI_ENGINE, "the fixed list's own; with --game 1000000 playouts"},
    {"perft", "banyan perft --game G [--param k=v] [--position P] DEPTH",
     "Counts the positions 1 to DEPTH plies ahead.", CLI_GAME, NULL},
    {"solo",
     "banyan solo [--game G] [--param k=v] [--position P] [--time S | --playouts N] [--runs K] "
     "[--follow line|visits] [--share even|front] [--save F] [--export F] [--load F] [--algorithm "
     "mcts|nrpa|nmcs] [--level L] [--iterations N] [--alpha A] [--temperature T] [--bias B] "
     "[--policy-memory MB] [options]",
     "The highest-scoring game of a single-player game (Morpion Solitaire by default) within a "
     "total budget: each run plays a game, a search before each move, following the best whole "
     "game found; --runs K restarts K times with new seeds, sharing the budget; --follow "
     "visits plays the most visited move instead; --share front gives earlier moves more of "
     "the budget (shares falling in step with the moves left) instead of even shares; --save F "
     "writes the best game (a record) at "
     "each improvement, --export F in the game's own file format (Morpion: Pentasol's), "
     "which --position reads; --load F checks and shows a saved game, and with a budget searches "
     "for "
     "a better one. --algorithm nrpa (Nested Rollout Policy Adaptation) or nmcs (Nested Monte "
     "Carlo Search) instead of the search before each move: --level L (NRPA 3, NMCS 2; at "
     "most 8), --iterations N a level (NRPA, 100), --alpha A the adaptation step (1), "
     "--temperature T and --bias B GNRPA's temperature (1) and weight of the game's priors "
     "(0), --policy-memory MB the policies' bound (64); --threads spreads NRPA's top level; "
     "without a budget --runs K whole runs (1), with one runs until it is spent; every better "
     "game is printed and saved, and --load F gives the game the runs start from.",
     CLI_GAME | CLI_ENGINE, "20 seconds in all (nested algorithms: whole runs)"},
    {"show", "banyan show --game G [--param k=v] [--position P]",
     "Prints a position: diagram, hash, side to move and legal moves, or the result.", CLI_GAME,
     NULL},
};

/* The subcommands' own options, beside the engine options of options.h:
 * name, value syntax (NULL for a switch), the range of a whole number
 * (when hi > lo) and meaning, for --help. */
static const struct cli_own {
    const char *name;
    const char *arg;
    unsigned group; /* CLI_* */
    long lo, hi;    /* A number's range, when hi > lo. */
    const char *help;
} cli_own_options[] = {
    {"game", "G", CLI_GAME, 0, 0, "the game (banyan games lists them)"},
    {"param", "k=v", CLI_GAME, 0, 0,
     "game parameter, repeatable (banyan games --params lists them)"},
    {"position", "P", CLI_GAME, 0, 0, "a position in the game's notation (default: the start)"},
    {"human", "first|second|both|none", CLI_HUMAN, 0, 0, "who the person plays (default: first)"},
    {"json", NULL, CLI_JSON, 0, 0, "JSON lines instead of a table"},
    {"tree-dump", "F", CLI_JSON, 0, 0, "write the tree to F (.json, or .dot for Graphviz)"},
    {"depth", "D", CLI_JSON, 0, 10000,
     "plies below the root in the dump, 0 for all (default: all in JSON, 3 in DOT)"},
    {"min-visits", "N", CLI_JSON, 0, 2000000000, "leave out nodes with fewer visits"},
    {"reuse-test", "PLIES", CLI_REUSE, 1, 1000, "measure tree reuse over a game of PLIES moves"},
};

/* The subcommand cli_parse serves under name, or NULL. */
static const struct cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; i < sizeof cli_commands / sizeof cli_commands[0]; i++)
        if (!strcmp(cli_commands[i].name, name))
            return &cli_commands[i];
    return NULL;
}

/* Prints the options of the groups in takes; of the engine options, those
 * that apply in front-end front. */
static void cli_help_groups(FILE *f, unsigned takes, unsigned front)
{
    for (size_t i = 0; i < sizeof cli_own_options / sizeof cli_own_options[0]; i++) {
        char syntax[64];
        if (!(cli_own_options[i].group & takes))
            continue;
        snprintf(syntax, sizeof syntax, "--%s%s%s", cli_own_options[i].name,
                 cli_own_options[i].arg ? " " : "",
                 cli_own_options[i].arg ? cli_own_options[i].arg : "");
        fprintf(f, "  %-24s%s%s\n", syntax, strlen(syntax) < 24 ? " " : "\n" CLI_INDENT,
                cli_own_options[i].help);
    }
    if (takes & CLI_ENGINE)
        options_help(f, OPTIONS_CLI, front, "--");
}

/* The --help of subcommand c. */
static void cli_help_command(FILE *f, const struct cli_command *c)
{
    fprintf(f, "usage: %s\n\n%s\n", c->synopsis, c->about);
    if (c->strength)
        fprintf(f, "Strength without --playouts, --time or --nodes: %s.\n", c->strength);
    fprintf(f, "\noptions:\n");
    cli_help_groups(f, c->takes, options_front(c->name));
    fprintf(f, "  %-24s %s\n", "--help", "this text");
}

bool cli_wants_help(int argc, char **argv, int first)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i], *name = a + (a[1] == '-' ? 2 : 1);
        if (a[0] == '-' && (!strcmp(name, "help") || !strcmp(name, "h")))
            return true;
    }
    return false;
}

static const struct cli_own *cli_find_own(const char *name)
{
    for (size_t i = 0; i < sizeof cli_own_options / sizeof cli_own_options[0]; i++)
        if (!strcmp(cli_own_options[i].name, name))
            return &cli_own_options[i];
    return NULL;
}

/* Applies one of the subcommands' own options. Returns false for a bad
 * value (cli_bad_own says why). */
static bool cli_apply_own(cli_opts *o, const struct cli_own *own, const char *v)
{
    const char *name = own->name;
    long n = 0;
    if (own->hi > own->lo && banyan_parse_int(v, own->lo, own->hi, &n) != BANYAN_OK)
        return false;
    if (!strcmp(name, "json")) {
        o->json = true;
    } else if (!strcmp(name, "game")) {
        o->game = banyan_game_find(v);
        return o->game != NULL;
    } else if (!strcmp(name, "param")) {
        size_t len = strlen(o->params);
        if (!strchr(v, '=') || len + strlen(v) + 2 >= sizeof o->params)
            return false;
        snprintf(o->params + len, sizeof o->params - len, "%s%s", len ? " " : "", v);
    } else if (!strcmp(name, "position")) {
        o->position = v;
    } else if (!strcmp(name, "human")) {
        o->human = v;
        return !strcmp(v, "first") || !strcmp(v, "second") || !strcmp(v, "both") ||
               !strcmp(v, "none");
    } else if (!strcmp(name, "tree-dump")) {
        o->tree_dump = v;
    } else if (!strcmp(name, "depth")) {
        o->depth = (int)n;
        o->depth_given = true;
    } else if (!strcmp(name, "min-visits")) {
        o->min_visits = (uint32_t)n;
    } else if (!strcmp(name, "reuse-test")) {
        o->reuse_plies = (int)n;
    }
    return true;
}

/* Says why value v of own option a is refused: what is expected. */
static void cli_bad_own(const struct cli_own *own, const char *a, const char *v)
{
    char want[96] = "";
    if (own->hi > own->lo)
        snprintf(want, sizeof want, " (a whole number from %ld to %ld expected)", own->lo, own->hi);
    else if (!strcmp(own->name, "game"))
        snprintf(want, sizeof want, " (banyan games lists the games)");
    else if (!strcmp(own->name, "param"))
        snprintf(want, sizeof want, " (key=value expected, %d bytes in all at most)",
                 (int)sizeof((cli_opts *)0)->params - 1);
    else if (own->arg && strchr(own->arg, '|'))
        snprintf(want, sizeof want, " (one of %s expected)", own->arg);
    fprintf(stderr, "banyan: bad value for %s: \"%s\"%s\n", a, v, want);
}

bool cli_parse(int argc, char **argv, int first, cli_opts *o)
{
    char err[256];
    const char *command = first == 2 ? argv[1] : "gomocup";
    const struct cli_command *c = cli_find_command(command);
    memset(o, 0, sizeof *o);
    options_init(&o->eng);
    if (c && cli_wants_help(argc, argv, first)) {
        /* The subcommand's own help, then done: the program may exit. */
        cli_help_command(stdout, c);
        exit(0);
    }
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == 0) {
            if (o->n_args == CLI_MAX_ARGS) {
                fprintf(stderr, "banyan: too many arguments\n");
                return false;
            }
            o->args[o->n_args++] = a;
            continue;
        }
        const char *name = a + (a[1] == '-' ? 2 : 1);
        const struct cli_own *own = cli_find_own(name);
        bool engine = options_known(name, OPTIONS_CLI);
        bool takes = own ? own->arg != NULL : engine && !options_is_switch(name);
        const char *v = takes && i + 1 < argc ? argv[i + 1] : NULL;
        if (!own && !engine) {
            fprintf(stderr, "banyan: unknown option %s (see banyan %s --help)\n", a, command);
            return false;
        }
        if (c && !((own ? own->group : CLI_ENGINE) & c->takes)) {
            fprintf(stderr, "banyan: %s does nothing in %s (see banyan %s --help)\n", a, command,
                    command);
            return false;
        }
        if (takes && !v) {
            fprintf(stderr, "banyan: %s needs a value (see banyan %s --help)\n", a, command);
            return false;
        }
        if (own && !cli_apply_own(o, own, v)) {
            cli_bad_own(own, a, v);
            return false;
        }
        if (!own && options_set_in(&o->eng, name, v, options_front(command), err, sizeof err) !=
                        BANYAN_OK) {
            fprintf(stderr, "banyan: %s\n", err);
            return false;
        }
        i += takes;
    }
    if (dist_ranks() > 1 && !dsearch_setup(&o->eng, err, sizeof err)) {
        fprintf(stderr, "banyan: %s\n", err);
        return false;
    }
    return true;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const banyan_game *cli_game(cli_opts *o, const char *usage)
{
    if (!o->game && o->n_args > 0) {
        o->game = banyan_game_find(o->args[0]);
        if (!o->game) {
            fprintf(stderr, "banyan: unknown game \"%s\" (banyan games lists them)\n", o->args[0]);
            return NULL;
        }
        memmove(o->args, o->args + 1, (size_t)--o->n_args * sizeof o->args[0]);
    }
    if (!o->game)
        fprintf(stderr, "%s\n", usage);
    return o->game;
}

void cli_params(const cli_opts *o, char *out, size_t len)
{
    options_game_params(&o->eng, o->game, o->params, out, len);
}

void cli_explain_new(const char *who, const banyan_game *g, const char *params,
                     const banyan_config *cfg, int rc)
{
    char why[1024];
    options_explain_new(g, params, cfg, rc, why, sizeof why);
    fprintf(stderr, "%s: %s\n", who, why);
}

/* The evaluator of the engine cli_engine made (a subcommand makes one),
 * freed with it by cli_engine_free. */
static net_evaluator *cli_evaluator;

banyan_engine *cli_engine(const cli_opts *o)
{
    banyan_engine *e;
    char params[512], why[512];
    cli_params(o, params, sizeof params);
    int rc = options_engine_new(&o->eng, &o->eng.cfg, o->game, params, &e, &cli_evaluator, why,
                                sizeof why);
    if (rc != BANYAN_OK) {
        if (why[0])
            fprintf(stderr, "banyan: %s\n", why);
        else
            cli_explain_new("banyan", o->game, params, &o->eng.cfg, rc);
        return NULL;
    }
    if (o->position && banyan_engine_load(e, o->position) != BANYAN_OK) {
        fprintf(stderr, "banyan: %s\n", banyan_errmsg(e));
        cli_engine_free(e);
        return NULL;
    }
    return e;
}

const net_evaluator *cli_engine_evaluator(void)
{
    return cli_evaluator;
}

void cli_engine_free(banyan_engine *e)
{
    banyan_engine_free(e);
    net_evaluator_free(cli_evaluator);
    cli_evaluator = NULL;
}

banyan_engine *cli_start(int argc, char **argv, cli_opts *o, const char *usage, int *status)
{
    banyan_engine *e = NULL;
    *status = 2;
    if (cli_parse(argc, argv, 2, o) && cli_game(o, usage)) {
        *status = 1;
        e = cli_engine(o);
    }
    return e;
}

const char *cli_move(const banyan_game *g, const void *s, banyan_move m)
{
    static char buf[64];
    if (m == BANYAN_MOVE_NONE)
        return "none";
    banyan_game_format(g, s, m, 0, buf, sizeof buf);
    return buf;
}

void cli_print_board(FILE *f, const banyan_game *g, const void *s, banyan_move last)
{
    char buf[16384];
    banyan_game_print(g, s, last, 0, buf, sizeof buf);
    fputs(buf, f);
}

const char *cli_proof_plies(const banyan_move_stats *m)
{
    static char buf[32];
    if (m->exact && m->proof != BANYAN_UNPROVEN) {
        snprintf(buf, sizeof buf, "%s %+d", cli_proof(m->proof), m->score);
        return buf;
    }
    if (!m->proof_plies || (m->proof != BANYAN_PROVEN_WIN && m->proof != BANYAN_PROVEN_LOSS))
        return cli_proof(m->proof);
    snprintf(buf, sizeof buf, "%s in %d", cli_proof(m->proof), m->proof_plies);
    return buf;
}

const char *cli_proof(banyan_proof p)
{
    switch (p) {
    case BANYAN_PROVEN_WIN:
        return "win";
    case BANYAN_PROVEN_LOSS:
        return "loss";
    case BANYAN_PROVEN_DRAW:
        return "draw";
    default:
        return "-";
    }
}
