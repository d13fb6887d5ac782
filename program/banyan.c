/*
 * banyan.c - the banyan program: one binary with subcommands (play, analyze,
 * bench, perft, show), the shared command-line parser, and the analyze,
 * perft and show commands. Uses only the public API of libbanyan.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "cli.h"
#include "gtp.h"
#include "line.h"

static void banyan_usage(FILE *f)
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
               "  show               print a position: diagram, side to move, legal moves\n"
               "  games              list the games\n"
               "\n"
               "options:\n"
               "  --game G           tictactoe (m,n,k-games), connect4 or gomoku\n"
               "  --param k=v        game parameter, repeatable (README lists each game's)\n"
               "  --position P       a position in the game's notation (default: start)\n"
               "  --playouts N       simulations per search\n"
               "  --time S           seconds per search\n"
               "  --nodes N          stop when the tree holds N nodes\n"
               "  --seed S           random seed (default: a fixed seed)\n"
               "  --threads T        search threads (default 1)\n"
               "  --parallel tree|root   threads share one tree (default) or own one each\n"
               "  --memory B         node arena, bytes with optional K, M or G (default 256M)\n"
               "  --c X              exploration constant\n"
               "  --select uct|puct  selection formula\n"
               "  --final visits|value|lcb   rule for the move to play\n"
               "  --human first|second|both|none   play: who the human plays\n"
               "  --json             analyze: JSON lines instead of a table\n"
               "  --tree-dump F      analyze: write the tree to F (.json, or .dot for Graphviz)\n"
               "  --depth D          analyze: plies below the root in the dump (default all)\n"
               "  --min-visits N     analyze: leave out nodes with fewer visits\n"
               "  --ponder, --no-ponder   think on the opponent's time (default: on in play,\n"
               "                     off in gtp and gomocup)\n"
               "  --help, --version\n");
}

/* Parses a byte count with an optional K, M or G suffix. */
static bool banyan_parse_size(const char *s, size_t *out)
{
    char *end;
    double v = strtod(s, &end);
    double mult = 1;
    if (end == s || !(v >= 0))
        return false;
    switch (toupper((unsigned char)*end)) {
    case 'K':
        mult = 1024.0;
        end++;
        break;
    case 'M':
        mult = 1024.0 * 1024;
        end++;
        break;
    case 'G':
        mult = 1024.0 * 1024 * 1024;
        end++;
        break;
    default:
        break;
    }
    if (toupper((unsigned char)*end) == 'B' || toupper((unsigned char)*end) == 'I')
        end += strlen(end) <= 3 ? strlen(end) : 0;
    if (*end || v * mult > 1e15)
        return false;
    *out = (size_t)(v * mult);
    return true;
}

static bool banyan_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)*s))
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end)
        return false;
    *out = v;
    return true;
}

static bool banyan_parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

bool cli_parse(int argc, char **argv, int first, cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->ponder = -1;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true, takes = true;
        uint64_t u;
        if (a[0] != '-' || a[1] == 0) {
            if (o->n_args == CLI_MAX_ARGS) {
                fprintf(stderr, "banyan: too many arguments\n");
                return false;
            }
            o->args[o->n_args++] = a;
            continue;
        }
        if (!strcmp(a, "--json")) {
            o->json = true;
            continue;
        }
        if (!strcmp(a, "--ponder") || !strcmp(a, "--no-ponder")) {
            o->ponder = a[2] == 'p';
            continue;
        }
        if (!v) {
            fprintf(stderr, "banyan: %s needs a value (see banyan --help)\n", a);
            return false;
        }
        if (!strcmp(a, "--game")) {
            o->game = banyan_game_find(v);
            ok = o->game != NULL;
        } else if (!strcmp(a, "--param")) {
            size_t len = strlen(o->params);
            ok = strchr(v, '=') && len + strlen(v) + 2 < sizeof o->params;
            if (ok)
                snprintf(o->params + len, sizeof o->params - len, "%s%s", len ? " " : "", v);
        } else if (!strcmp(a, "--position")) {
            o->position = v;
        } else if (!strcmp(a, "--playouts")) {
            ok = banyan_parse_u64(v, &o->limits.playouts) && o->limits.playouts > 0;
        } else if (!strcmp(a, "--nodes")) {
            ok = banyan_parse_u64(v, &o->limits.nodes) && o->limits.nodes > 0;
        } else if (!strcmp(a, "--time")) {
            ok = banyan_parse_double(v, 0.001, 1e7, &o->limits.time);
        } else if (!strcmp(a, "--seed")) {
            ok = banyan_parse_u64(v, &o->cfg.seed);
        } else if (!strcmp(a, "--threads")) {
            ok = banyan_parse_u64(v, &u) && u >= 1 && u <= 64;
            o->cfg.threads = (int)u;
        } else if (!strcmp(a, "--parallel")) {
            o->cfg.parallel = !strcmp(v, "tree")   ? BANYAN_PARALLEL_TREE
                              : !strcmp(v, "root") ? BANYAN_PARALLEL_ROOT
                                                   : BANYAN_PARALLEL_DEFAULT;
            ok = o->cfg.parallel != BANYAN_PARALLEL_DEFAULT;
        } else if (!strcmp(a, "--memory")) {
            ok = banyan_parse_size(v, &o->cfg.memory) && o->cfg.memory > 0;
        } else if (!strcmp(a, "--c")) {
            ok = banyan_parse_double(v, 1e-6, 1e6, &o->cfg.c);
        } else if (!strcmp(a, "--expand")) {
            ok = banyan_parse_u64(v, &u) && u >= 1 && u < 1000000;
            o->cfg.expand_visits = (uint32_t)u;
        } else if (!strcmp(a, "--select")) {
            o->cfg.select = !strcmp(v, "uct")    ? BANYAN_SELECT_UCT
                            : !strcmp(v, "puct") ? BANYAN_SELECT_PUCT
                                                 : BANYAN_SELECT_DEFAULT;
            ok = o->cfg.select != BANYAN_SELECT_DEFAULT;
        } else if (!strcmp(a, "--final")) {
            o->cfg.final = !strcmp(v, "visits")  ? BANYAN_FINAL_VISITS
                           : !strcmp(v, "value") ? BANYAN_FINAL_VALUE
                           : !strcmp(v, "lcb")   ? BANYAN_FINAL_LCB
                                                 : BANYAN_FINAL_DEFAULT;
            ok = o->cfg.final != BANYAN_FINAL_DEFAULT;
        } else if (!strcmp(a, "--reuse")) {
            ok = banyan_parse_u64(v, &u) && u >= 1 && u <= 1000;
            o->reuse = (int)u;
        } else if (!strcmp(a, "--tree-dump")) {
            o->tree_dump = v;
        } else if (!strcmp(a, "--depth")) {
            ok = banyan_parse_u64(v, &u) && u <= 10000;
            o->depth = (int)u;
        } else if (!strcmp(a, "--min-visits")) {
            ok = banyan_parse_u64(v, &u) && u <= UINT32_MAX;
            o->min_visits = (uint32_t)u;
        } else if (!strcmp(a, "--human")) {
            o->human = v;
            ok = !strcmp(v, "first") || !strcmp(v, "second") || !strcmp(v, "both") ||
                 !strcmp(v, "none");
        } else {
            takes = false;
            ok = false;
        }
        if (!ok) {
            if (takes)
                fprintf(stderr, "banyan: bad value for %s: \"%s\"\n", a, v);
            else
                fprintf(stderr, "banyan: unknown option %s (see banyan --help)\n", a);
            return false;
        }
        i++;
    }
    return true;
}

banyan_engine *cli_engine(const cli_opts *o)
{
    banyan_engine *e;
    int rc = banyan_engine_new(o->game, o->params, &o->cfg, &e);
    if (rc != BANYAN_OK) {
        if (rc == BANYAN_EINVAL)
            fprintf(stderr, "banyan: bad parameters \"%s\" or options for %s\n", o->params,
                    o->game->name);
        else
            fprintf(stderr, "banyan: cannot create the engine: %s\n", banyan_strerror(rc));
        return NULL;
    }
    if (o->position && banyan_engine_load(e, o->position) != BANYAN_OK) {
        fprintf(stderr, "banyan: %s\n", banyan_errmsg(e));
        banyan_engine_free(e);
        return NULL;
    }
    return e;
}

const char *cli_move(const banyan_game *g, const void *s, banyan_move m)
{
    static char buf[64];
    if (m == BANYAN_MOVE_NONE)
        return "none";
    g->format_move(s, m, buf, sizeof buf);
    return buf;
}

void cli_print_board(FILE *f, const banyan_game *g, const void *s, banyan_move last)
{
    char buf[8192];
    g->print(s, last, buf, sizeof buf);
    fputs(buf, f);
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

/* Prints the principal variation of m, formatting each move in the position
 * where it is played, since notation may depend on the position. */
static void banyan_print_pv(const banyan_game *g, const void *s, const banyan_move_stats *m,
                            bool json)
{
    unsigned char *t = malloc(g->state_size);
    if (!t)
        return;
    memcpy(t, s, g->state_size);
    for (int k = 0; k < m->pv_len; k++) {
        if (json)
            printf("%s\"%s\"", k ? "," : "", cli_move(g, t, m->pv[k]));
        else
            printf(" %s", cli_move(g, t, m->pv[k]));
        g->play(t, m->pv[k]);
    }
    free(t);
}

static int banyan_write_file(void *ud, const char *data, size_t len)
{
    return fwrite(data, 1, len, ud) == len ? 0 : 1;
}

/* Writes the engine's tree to path, as DOT when it ends in .dot and as JSON
 * otherwise. Returns 0, or 1 after printing why. */
static int banyan_tree_dump(banyan_engine *e, const cli_opts *o)
{
    size_t n = strlen(o->tree_dump);
    banyan_dump_format f =
        n > 4 && !strcmp(o->tree_dump + n - 4, ".dot") ? BANYAN_DUMP_DOT : BANYAN_DUMP_JSON;
    FILE *out = fopen(o->tree_dump, "w");
    if (!out) {
        fprintf(stderr, "banyan: cannot write %s\n", o->tree_dump);
        return 1;
    }
    int rc = banyan_engine_dump(e, f, o->depth, o->min_visits, banyan_write_file, out);
    if (fclose(out) != 0 || rc != 0) {
        fprintf(stderr, "banyan: writing %s failed\n", o->tree_dump);
        return 1;
    }
    return 0;
}

/* analyze: search one position and print the statistics, best first. */
static int banyan_analyze(int argc, char **argv)
{
    cli_opts o;
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (!o.game && o.n_args > 0)
        o.game = banyan_game_find(o.args[0]);
    if (!o.game) {
        fprintf(stderr, "banyan analyze: name a game with --game (see banyan games)\n");
        return 2;
    }
    banyan_engine *e = cli_engine(&o);
    if (!e)
        return 1;
    const banyan_game *g = o.game;
    const void *s = banyan_engine_state(e);
    banyan_report r;
    banyan_engine_search(e, &o.limits, &r);
    if (o.tree_dump && banyan_tree_dump(e, &o) != 0) {
        banyan_engine_free(e);
        return 1;
    }
    /* The dump reads the tree only: the report stays valid. */

    if (o.json) {
        for (int i = 0; i < r.n_moves; i++) {
            const banyan_move_stats *m = &r.moves[i];
            printf("{\"move\":\"%s\",\"visits\":%u,\"winrate\":%.4f,\"prior\":%.4f,"
                   "\"proof\":\"%s\",\"pv\":[",
                   cli_move(g, s, m->move), m->visits, m->value, m->prior, cli_proof(m->proof));
            banyan_print_pv(g, s, m, true);
            printf("]}\n");
        }
        printf("{\"bestmove\":\"%s\",\"playouts\":%llu,\"seconds\":%.3f,\"nodes\":%llu,"
               "\"tree_full\":%s,\"recycles\":%u,\"proof\":\"%s\"}\n",
               cli_move(g, s, r.best), (unsigned long long)r.playouts, r.seconds,
               (unsigned long long)r.nodes, r.tree_full ? "true" : "false", r.recycles,
               cli_proof(r.proof));
        banyan_engine_free(e);
        return 0;
    }

    printf("bestmove %s\n", cli_move(g, s, r.best));
    printf("%-6s %9s %8s %7s %6s  %s\n", "move", "visits", "winrate", "prior", "proof", "pv");
    for (int i = 0; i < r.n_moves; i++) {
        const banyan_move_stats *m = &r.moves[i];
        printf("%-6s %9u %7.2f%% %7.4f %6s ", cli_move(g, s, m->move), m->visits, 100 * m->value,
               m->prior, cli_proof(m->proof));
        banyan_print_pv(g, s, m, false);
        printf("\n");
    }
    printf("playouts %llu, %.3f s, %.0f playouts/s, nodes %llu of %llu%s, depth %d, root %s",
           (unsigned long long)r.playouts, r.seconds,
           r.seconds > 0 ? (double)r.playouts / r.seconds : 0.0, (unsigned long long)r.nodes,
           (unsigned long long)r.node_capacity, r.tree_full ? " (tree full: stopped growing)" : "",
           r.max_depth, cli_proof(r.proof));
    if (r.recycles)
        printf(", arena recycled %u times", r.recycles);
    printf("\n");
    banyan_engine_free(e);
    return 0;
}

/* perft: count positions a number of plies ahead. */
static int banyan_perft_cmd(int argc, char **argv)
{
    cli_opts o;
    long depth;
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (!o.game || o.n_args != 1 || banyan_parse_int(o.args[0], 1, 64, &depth) != BANYAN_OK) {
        fprintf(stderr, "usage: banyan perft --game G [--param k=v] [--position P] DEPTH\n");
        return 2;
    }
    banyan_engine *e = cli_engine(&o);
    if (!e)
        return 1;
    for (int d = 1; d <= depth; d++) {
        uint64_t n;
        int rc = banyan_perft(o.game, banyan_engine_state(e), d, NULL, NULL, &n);
        if (rc != BANYAN_OK) {
            fprintf(stderr, "banyan perft: %s\n", banyan_strerror(rc));
            banyan_engine_free(e);
            return 1;
        }
        printf("perft %d %llu\n", d, (unsigned long long)n);
    }
    banyan_engine_free(e);
    return 0;
}

/* show: the diagram, side to move, legal moves and result of a position. */
static int banyan_show(int argc, char **argv)
{
    cli_opts o;
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (!o.game && o.n_args > 0)
        o.game = banyan_game_find(o.args[0]);
    if (!o.game) {
        fprintf(stderr, "usage: banyan show --game G [--param k=v] [--position P]\n");
        return 2;
    }
    banyan_engine *e = cli_engine(&o);
    if (!e)
        return 1;
    const banyan_game *g = o.game;
    const void *s = banyan_engine_state(e);
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[BANYAN_MAX_PLAYERS];
    cli_print_board(stdout, g, s, BANYAN_MOVE_NONE);
    printf("hash %016llx\n", (unsigned long long)(g->hash ? g->hash(s) : 0));
    if (g->outcome(s, ret)) {
        printf("game over:");
        for (int p = 0; p < g->n_players; p++)
            printf(" player %d gets %g", p + 1, ret[p]);
        printf("\n");
    } else {
        int n = g->moves(s, moves);
        printf("to move: player %d\nmoves (%d):", g->to_move(s) + 1, n);
        for (int i = 0; i < n; i++)
            printf(" %s", cli_move(g, s, moves[i]));
        printf("\n");
    }
    banyan_engine_free(e);
    return 0;
}

/* gtp: a GTP session on standard input and output. */
static int banyan_gtp(int argc, char **argv)
{
    cli_opts o;
    line_reader in;
    char err[256];
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (!o.game && o.n_args > 0)
        o.game = banyan_game_find(o.args[0]);
    if (!o.game)
        o.game = &banyan_game_connect4;
    line_init_fd(&in, 0);
    gtp *ctx = gtp_new(o.game, o.params, &o.cfg, &o.limits, stdout, &in, err, sizeof err);
    if (!ctx) {
        fprintf(stderr, "banyan gtp: %s\n", err);
        return 1;
    }
    gtp_set_ponder(ctx, o.ponder == 1);
    gtp_run(ctx, &in);
    gtp_free(ctx);
    return 0;
}

static int banyan_games(void)
{
    int n;
    const banyan_game *const *all = banyan_game_list(&n);
    for (int i = 0; i < n; i++)
        printf("%s\n", all[i]->name);
    return 0;
}

int main(int argc, char **argv)
{
    const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
    if (argc > 0 && !strncmp(base ? base + 1 : argv[0], "pbrain-", 7))
        return cli_gomocup(argc, argv, 1); /* Installed as a Gomocup brain. */
    if (argc < 2) {
        banyan_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        banyan_usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("banyan %s (%s, %s)\n", banyan_version(),
#ifdef __clang__
               "clang " __clang_version__,
#elif defined(__GNUC__)
               "gcc " __VERSION__,
#else
               "unknown compiler",
#endif
               __DATE__);
        return 0;
    }
    if (!strcmp(cmd, "play"))
        return cli_play(argc, argv);
    if (!strcmp(cmd, "gtp"))
        return banyan_gtp(argc, argv);
    if (!strcmp(cmd, "gomocup"))
        return cli_gomocup(argc, argv, 2);
    if (!strcmp(cmd, "analyze"))
        return banyan_analyze(argc, argv);
    if (!strcmp(cmd, "bench"))
        return cli_bench(argc, argv);
    if (!strcmp(cmd, "match"))
        return cli_match(argc, argv);
    if (!strcmp(cmd, "perft"))
        return banyan_perft_cmd(argc, argv);
    if (!strcmp(cmd, "show"))
        return banyan_show(argc, argv);
    if (!strcmp(cmd, "games"))
        return banyan_games();
    fprintf(stderr, "banyan: unknown command \"%s\"\n", cmd);
    banyan_usage(stderr);
    return 2;
}
