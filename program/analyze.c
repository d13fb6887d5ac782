/*
 * analyze.c - the subcommands that look at one position: analyze (search it
 * and print the statistics), perft (count the positions ahead), show (the
 * diagram, side to move and legal moves) and games (the games and their
 * parameters, from each game's description).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "cli.h"
#include "dist.h"

/* Prints the principal variation of m, formatting each move in the position
 * where it is played, since notation may depend on the position. */
static void analyze_print_pv(const banyan_game *g, const void *s, const banyan_move_stats *m,
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

static int analyze_write_file(void *ud, const char *data, size_t len)
{
    return fwrite(data, 1, len, ud) == len ? 0 : 1;
}

#define ANALYZE_DOT_DEPTH 3 /* Plies of a DOT dump without --depth. */

/* Writes the engine's tree to path, as DOT when it ends in .dot and as JSON
 * otherwise. Returns 0, or 1 after printing why. */
static int analyze_tree_dump(banyan_engine *e, const cli_opts *o)
{
    size_t n = strlen(o->tree_dump);
    banyan_dump_format f =
        n > 4 && !strcmp(o->tree_dump + n - 4, ".dot") ? BANYAN_DUMP_DOT : BANYAN_DUMP_JSON;
    FILE *out = fopen(o->tree_dump, "w");
    if (!out) {
        fprintf(stderr, "banyan: cannot write %s\n", o->tree_dump);
        return 1;
    }
    /* A whole tree in DOT is more than Graphviz can draw: three plies
     * unless --depth says otherwise, and said. */
    int depth = o->depth;
    if (f == BANYAN_DUMP_DOT && !o->depth_given) {
        depth = ANALYZE_DOT_DEPTH;
        fprintf(stderr, "banyan: the DOT dump has %d plies below the root (--depth 0 for all)\n",
                depth);
    }
    int rc = banyan_engine_dump(e, f, depth, o->min_visits, analyze_write_file, out);
    if (fclose(out) != 0 || rc != 0) {
        fprintf(stderr, "banyan: writing %s failed\n", o->tree_dump);
        return 1;
    }
    return 0;
}

/* A proof in JSON, as the tree dump writes it. */
static const char *analyze_json_proof(banyan_proof p)
{
    return p == BANYAN_UNPROVEN ? "none" : cli_proof(p);
}

/* analyze: search one position and print the statistics, best first. */
int cli_analyze(int argc, char **argv)
{
    cli_opts o;
    int status;
    banyan_engine *e = cli_start(
        argc, argv, &o, "banyan analyze: name a game with --game (see banyan games)", &status);
    if (!e)
        return status;
    const banyan_game *g = o.game;
    const void *s = banyan_engine_state(e);
    banyan_report r = BANYAN_REPORT();
    o.eng.lim.analyse = true; /* Every move valued, past a proof of the root. */
    options_search(&o.eng, e, &o.eng.lim, &r);
    /* Under mpirun rank 0 writes the dump (every rank holds the merged
     * tree's top; the others' output goes nowhere). */
    if (o.tree_dump && dist_rank() == 0 && analyze_tree_dump(e, &o) != 0) {
        cli_engine_free(e);
        return 1;
    }
    /* The dump reads the tree only: the report stays valid. */

    if (o.json) {
        /* The words of the tree dump: "value", and "none" for no proof. */
        for (int i = 0; i < r.n_moves; i++) {
            const banyan_move_stats *m = &r.moves[i];
            /* A move neither searched nor proven has no value: null. */
            char value[16] = "null";
            if (m->visits || m->proof)
                snprintf(value, sizeof value, "%.4f", m->value);
            printf("{\"move\":\"%s\",\"visits\":%u,\"value\":%s,\"prior\":%.4f,"
                   "\"proof\":\"%s\",\"plies\":%d,",
                   cli_move(g, s, m->move), m->visits, value, m->prior,
                   analyze_json_proof(m->proof), m->proof_plies);
            if (m->exact)
                printf("\"score\":%d,", m->score);
            printf("\"pv\":[");
            analyze_print_pv(g, s, m, true);
            printf("]}\n");
        }
        printf("{\"bestmove\":\"%s\",\"playouts\":%llu,\"seconds\":%.3f,\"nodes\":%llu,"
               "\"tree_full\":%s,\"recycles\":%u,\"transposed\":%llu,\"proof\":\"%s\"}\n",
               cli_move(g, s, r.best), (unsigned long long)r.playouts, r.seconds,
               (unsigned long long)r.nodes, r.tree_full ? "true" : "false", r.recycles,
               (unsigned long long)r.transposed, analyze_json_proof(r.proof));
        cli_engine_free(e);
        return 0;
    }

    printf("bestmove %s\n", cli_move(g, s, r.best));
    printf("%-6s %9s %8s %7s %-10s %s\n", "move", "visits", "winrate", "prior", "proof", "pv");
    for (int i = 0; i < r.n_moves; i++) {
        const banyan_move_stats *m = &r.moves[i];
        char value[16] = "-"; /* Neither searched nor proven: no value to show. */
        if (m->visits || m->proof)
            snprintf(value, sizeof value, "%.2f%%", 100 * m->value);
        printf("%-6s %9u %8s %7.4f %-10s", cli_move(g, s, m->move), m->visits, value, m->prior,
               cli_proof_plies(m));
        analyze_print_pv(g, s, m, false);
        printf("\n");
    }
    printf("playouts %llu, %.3f s, %.0f playouts/s, nodes %llu of %llu%s, depth %d, root %s",
           (unsigned long long)r.playouts, r.seconds,
           r.seconds > 0 ? (double)r.playouts / r.seconds : 0.0, (unsigned long long)r.nodes,
           (unsigned long long)r.node_capacity, r.tree_full ? " (tree full: stopped growing)" : "",
           r.max_depth, cli_proof(r.proof));
    if (r.recycles)
        printf(", arena recycled %u times", r.recycles);
    if (r.transposed)
        printf(", %llu leaves transposed", (unsigned long long)r.transposed);
    printf("\n");
    cli_engine_free(e);
    return 0;
}

#define ANALYZE_PERFT_MAX 64 /* The deepest perft. */

/* perft: count positions a number of plies ahead. */
int cli_perft(int argc, char **argv)
{
    cli_opts o;
    long depth;
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (!o.game && o.n_args == 2 && !cli_game(&o, ""))
        return 2; /* "banyan perft connect4 5", as show and analyze take it. */
    if (!o.game || o.n_args != 1) {
        fprintf(stderr, "usage: banyan perft --game G [--param k=v] [--position P] DEPTH\n");
        return 2;
    }
    if (banyan_parse_int(o.args[0], 1, ANALYZE_PERFT_MAX, &depth) != BANYAN_OK) {
        fprintf(stderr, "banyan perft: the depth must be a whole number from 1 to %d, not \"%s\"\n",
                ANALYZE_PERFT_MAX, o.args[0]);
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
            cli_engine_free(e);
            return 1;
        }
        printf("perft %d %llu\n", d, (unsigned long long)n);
    }
    cli_engine_free(e);
    return 0;
}

/* show: the diagram, side to move, legal moves and result of a position. */
int cli_show(int argc, char **argv)
{
    cli_opts o;
    int status;
    banyan_engine *e = cli_start(
        argc, argv, &o, "usage: banyan show --game G [--param k=v] [--position P]", &status);
    if (!e)
        return status;
    const banyan_game *g = o.game;
    const void *s = banyan_engine_state(e);
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[BANYAN_MAX_PLAYERS];
    cli_print_board(stdout, g, s, BANYAN_MOVE_NONE);
    printf("hash %016llx\n", (unsigned long long)banyan_game_hash(g, s));
    if (g->outcome(s, ret)) {
        printf("game over:");
        for (int p = 0; p < g->n_players; p++)
            printf(" %s gets %g", banyan_game_player(g, p), ret[p]);
        printf("\n");
    } else {
        int n = g->moves(s, moves);
        printf("to move: %s\nmoves (%d):", banyan_game_player(g, g->to_move(s)), n);
        for (int i = 0; i < n; i++)
            printf(" %s", cli_move(g, s, moves[i]));
        printf("\n");
    }
    cli_engine_free(e);
    return 0;
}

/* games: the games, and with --params each one's parameters from its table. */
int cli_games(int argc, char **argv)
{
    int n;
    bool params = argc > 2 && !strcmp(argv[2], "--params");
    if (cli_wants_help(argc, argv, 2)) {
        printf("usage: banyan games [--params]\n\nLists the games; with --params, each one's "
               "parameters (--param k=v), their values and defaults.\n");
        return 0;
    }
    if (argc > 2 + params) {
        fprintf(stderr, "usage: banyan games [--params]\n");
        return 2;
    }
    const banyan_game *const *all = banyan_game_list(&n);
    for (int i = 0; i < n; i++) {
        const banyan_game *g = all[i];
        printf("%-10s %s\n", g->name, g->title ? g->title : "");
        for (const banyan_param *p = g->params; params && p && p->name; p++) {
            char syntax[128];
            if (p->type != BANYAN_PARAM_CHOICE)
                snprintf(syntax, sizeof syntax, "%s=%ld..%ld", p->name, p->min, p->max);
            else
                snprintf(syntax, sizeof syntax, "%s=%s", p->name, p->choices);
            printf("    %-34s %s (default %s)\n", syntax, p->help, p->def);
        }
    }
    return 0;
}
