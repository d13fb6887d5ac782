/*
 * bench.c - `banyan bench`: fixed searches from every game with one thread,
 * a fixed seed and fixed playouts. The total node count is the signature
 * that tests/bench.sig holds and every behaviour-changing commit quotes.
 * It also measures raw rollouts (no tree) and full searches side by side,
 * so the cost of the tree is always visible, and counts the allocations
 * made during the searches through the engine's allocation hook.
 *
 * With --game (and --position, --playouts) it times one search instead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan.h"
#include "cli.h"

/* Append only: any change to this list changes the signature. */
static const struct bench_pos {
    const char *game;
    const char *params;
    const char *position;
    uint64_t playouts;
} bench_positions[] = {
    {"tictactoe", "", "", 20000},
    {"tictactoe", "", "b2 a1", 20000},
    {"tictactoe", "m=4 n=4 k=3", "", 20000},
    {"tictactoe", "m=7 n=6 k=4", "d1 d2", 20000},
    {"connect4", "", "", 50000},
    {"connect4", "", "4453", 50000},
    {"connect4", "", "2252576253462244111563365343671351441", 20000},
    {"connect4", "", "44444326", 50000},
    {"gomoku", "", "", 3000},
    {"gomoku", "", "h8 i9 h9 i10 h10", 3000},
    {"gomoku", "rule=renju", "h8 i9 j8 j9 i8 k10", 3000},
    {"gomoku", "size=19 rule=standard", "k10 l11 j9", 3000},
};

/* Raw rollouts per game for the speed lines; searches are compared with
 * the first line of their game (its default rollout). */
static const struct bench_raw {
    const char *game;
    const char *params;
    uint64_t playouts;
} bench_raw[] = {
    {"tictactoe", "", 4000000},
    {"connect4", "", 2000000},
    {"gomoku", "", 40000},
    {"gomoku", "rollout=near", 100000},
    {"gomoku", "rollout=uniform candidates=all", 200000},
};

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The allocation hook of the bench engines: realloc/free plus a count, to
 * show that a search allocates nothing. */
static void *bench_alloc(void *ud, void *ptr, size_t nsize)
{
    uint64_t *count = ud;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    (*count)++;
    return realloc(ptr, nsize);
}

/* Raw rollouts from the start position of g: playouts per second. */
static double bench_rollouts(const banyan_game *g, const char *params, const char *position,
                             uint64_t n)
{
    banyan_engine *e;
    banyan_rng rng;
    if (banyan_engine_new(g, params, NULL, &e) != BANYAN_OK)
        return 0;
    if (position && banyan_engine_load(e, position) != BANYAN_OK) {
        banyan_engine_free(e);
        return 0;
    }
    banyan_rng_seed(&rng, 1, 0);
    double t0 = bench_now();
    banyan_random_games(g, banyan_engine_state(e), n, &rng, NULL);
    double dt = bench_now() - t0;
    banyan_engine_free(e);
    return dt > 0 ? (double)n / dt : 0;
}

/* One timed search, for --game: search rate beside raw rollout rate. */
static int bench_one(const cli_opts *o)
{
    uint64_t allocs = 0;
    cli_opts c = *o;
    c.cfg.alloc = bench_alloc;
    c.cfg.alloc_ud = &allocs;
    if (!c.cfg.seed)
        c.cfg.seed = 1;
    if (!c.limits.playouts && c.limits.time <= 0)
        c.limits.playouts = 1000000;
    banyan_engine *e = cli_engine(&c);
    if (!e)
        return 1;
    banyan_report r;
    uint64_t before = allocs;
    banyan_engine_search(e, &c.limits, &r);
    uint64_t during = allocs - before;
    double search_pps = r.seconds > 0 ? (double)r.playouts / r.seconds : 0;
    double raw_pps = bench_rollouts(c.game, c.params, c.position, r.playouts);
    printf("game            : %s %s\n", c.game->name, c.params);
    printf("position        : \"%s\"\n", c.position ? c.position : "");
    printf("best move       : %s\n", cli_move(c.game, banyan_engine_state(e), r.best));
    printf("playouts        : %" PRIu64 "\n", r.playouts);
    printf("nodes           : %" PRIu64 " of %" PRIu64 "%s\n", r.nodes, r.node_capacity,
           r.tree_full ? " (tree full)" : "");
    printf("search time (s) : %.3f\n", r.seconds);
    printf("search pps      : %.0f\n", search_pps);
    printf("raw rollout pps : %.0f\n", raw_pps);
    printf("search / raw    : %.3f\n", raw_pps > 0 ? search_pps / raw_pps : 0);
    printf("bytes per node  : %zu (every child is a node)\n", banyan_node_size());
    printf("arena bytes used: %" PRIu64 "\n", r.nodes * (uint64_t)banyan_node_size());
    printf("allocations during search: %" PRIu64 "\n", during);
    banyan_engine_free(e);
    return 0;
}

/* Tree reuse over a game (--reuse PLIES): the engine plays both sides; after
 * each move, the nodes kept for the next search against those the last
 * search left, and the time banyan_engine_play() took to reclaim the rest. */
static int bench_reuse(const cli_opts *o)
{
    cli_opts c = *o;
    if (!c.limits.playouts && c.limits.time <= 0)
        c.limits.playouts = 100000;
    banyan_engine *e = cli_engine(&c);
    if (!e)
        return 1;
    printf("%4s %5s %10s %10s %7s %9s\n", "ply", "move", "nodes", "kept", "share", "play ms");
    double shares = 0, ms_total = 0, ms_max = 0;
    int n = 0;
    for (int ply = 0; ply < c.reuse; ply++) {
        banyan_report r;
        banyan_engine_search(e, &c.limits, &r);
        if (r.best == BANYAN_MOVE_NONE)
            break;
        uint64_t before = r.nodes;
        char move[64];
        snprintf(move, sizeof move, "%s", cli_move(c.game, banyan_engine_state(e), r.best));
        double t0 = bench_now();
        banyan_engine_play(e, r.best);
        double ms = (bench_now() - t0) * 1000;
        banyan_engine_report(e, &r);
        double share = before ? (double)r.nodes / (double)before : 0;
        printf("%4d %5s %10" PRIu64 " %10" PRIu64 " %6.1f%% %9.3f\n", ply + 1, move, before,
               r.nodes, 100 * share, ms);
        shares += share;
        ms_total += ms;
        ms_max = ms > ms_max ? ms : ms_max;
        n++;
    }
    if (n)
        printf("mean share kept %.1f%%, mean reclaim %.3f ms, longest %.3f ms\n", 100 * shares / n,
               ms_total / n, ms_max);
    banyan_engine_free(e);
    return 0;
}

/* Gomoku's provers on BENCH_PROVER_POSITIONS fixed positions of 8 to 57
 * stones, played from the empty board mostly by the game's best prior (a
 * tenth of the moves random, a fifth uniform among the candidates): time
 * per call of the VCF (prove_win) and of the VCT (prove_win_deep), the
 * longest VCT call, and how many wins each found. */
#define BENCH_PROVER_POSITIONS 400
static void bench_provers(void)
{
    const banyan_game *g = banyan_game_find("gomoku");
    unsigned char *s = malloc(g->state_size), *t = malloc(g->state_size);
    banyan_move moves[BANYAN_MAX_MOVES], m;
    float priors[BANYAN_MAX_MOVES];
    double ret[BANYAN_MAX_PLAYERS], vcf_s = 0, vct_s = 0, vct_max = 0;
    int vcf_won = 0, vct_won = 0;
    banyan_rng rng;
    banyan_rng_seed(&rng, 12345, 0);
    for (int it = 0; s && t && it < BENCH_PROVER_POSITIONS; it++) {
        g->setup(s, "");
        int stones = 8 + (int)banyan_rng_below(&rng, 50);
        for (int k = 0; k < stones; k++) {
            int n = g->candidates(s, moves), pick = 0;
            uint32_t roll = banyan_rng_below(&rng, 10);
            if (roll < 8) {
                g->priors(s, moves, n, priors);
                for (int j = 1; j < n; j++)
                    pick = priors[j] > priors[pick] ? j : pick;
            }
            if (roll >= 8 || banyan_rng_below(&rng, 4) == 0)
                pick = (int)banyan_rng_below(&rng, (uint32_t)n);
            memcpy(t, s, g->state_size);
            g->play(t, moves[pick]);
            if (g->outcome(t, ret))
                break;
            memcpy(s, t, g->state_size);
        }
        double t0 = bench_now();
        vcf_won += g->prove_win(s, &m);
        double t1 = bench_now();
        vct_won += g->prove_win_deep(s, &m);
        double t2 = bench_now();
        vcf_s += t1 - t0;
        vct_s += t2 - t1;
        vct_max = t2 - t1 > vct_max ? t2 - t1 : vct_max;
    }
    printf("gomoku provers         : %d positions; VCF %.3f ms a call (%d wins), VCT %.3f ms a "
           "call, longest %.1f ms (%d wins)\n",
           BENCH_PROVER_POSITIONS, vcf_s * 1000 / BENCH_PROVER_POSITIONS, vcf_won,
           vct_s * 1000 / BENCH_PROVER_POSITIONS, vct_max * 1000, vct_won);
    free(s);
    free(t);
}

int cli_bench(int argc, char **argv)
{
    cli_opts o;
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (o.game && o.reuse)
        return bench_reuse(&o);
    if (o.game)
        return bench_one(&o);

    uint64_t nodes = 0, allocs = 0, allocs_during = 0;
    uint64_t sig = 0xcbf29ce484222325ULL;
    /* Search playouts and seconds per game of bench_raw, for the ratios. */
    uint64_t game_playouts[sizeof bench_raw / sizeof bench_raw[0]] = {0};
    double game_time[sizeof bench_raw / sizeof bench_raw[0]] = {0};
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0]; i++) {
        const struct bench_pos *b = &bench_positions[i];
        const banyan_game *g = banyan_game_find(b->game);
        banyan_config cfg = {.seed = 1, .threads = 1, .alloc = bench_alloc, .alloc_ud = &allocs};
        banyan_limits lim = {.playouts = b->playouts};
        banyan_engine *e;
        banyan_report r;
        if (!g || banyan_engine_new(g, b->params, &cfg, &e) != BANYAN_OK ||
            banyan_engine_load(e, b->position) != BANYAN_OK) {
            fprintf(stderr, "bench: position %zu does not load\n", i + 1);
            return 1;
        }
        uint64_t before = allocs;
        banyan_engine_search(e, &lim, &r);
        allocs_during += allocs - before;
        const char *best = cli_move(g, banyan_engine_state(e), r.best);
        printf("position %2zu %-9s %-12s %-38s best %-3s nodes %8" PRIu64 " %6.0f kpps\n", i + 1,
               b->game, b->params[0] ? b->params : "-", b->position[0] ? b->position : "(start)",
               best, r.nodes, r.seconds > 0 ? (double)r.playouts / r.seconds / 1000 : 0.0);
        nodes += r.nodes;
        for (size_t k = 0; k < sizeof bench_raw / sizeof bench_raw[0]; k++)
            if (!strcmp(bench_raw[k].game, b->game)) {
                game_playouts[k] += r.playouts;
                game_time[k] += r.seconds;
                break;
            }
        for (const char *c = best; *c; c++)
            sig = (sig ^ (unsigned char)*c) * 0x100000001b3ULL;
        banyan_engine_free(e);
    }
    printf("\n");
    /* Raw rollouts from the start position beside the searches of the same
     * game (whose positions vary): the cost of the tree, per game. */
    for (size_t i = 0; i < sizeof bench_raw / sizeof bench_raw[0]; i++) {
        const banyan_game *g = banyan_game_find(bench_raw[i].game);
        double raw = bench_rollouts(g, bench_raw[i].params, "", bench_raw[i].playouts);
        double search = game_time[i] > 0 ? (double)game_playouts[i] / game_time[i] : 0;
        if (game_time[i] > 0)
            printf("%-10s raw rollouts: %10.0f playouts/s, searches: %9.0f playouts/s, "
                   "ratio %.3f\n",
                   g->name, raw, search, raw > 0 ? search / raw : 0.0);
        else
            printf("%-10s raw rollouts: %10.0f playouts/s (%s)\n", g->name, raw,
                   bench_raw[i].params);
    }
    bench_provers();
    printf("bytes per node         : %zu; per child edge: %zu\n", banyan_node_size(),
           banyan_node_size());
    printf("allocations in searches: %" PRIu64 "\n", allocs_during);
    printf("Best-move hash         : %016" PRIx64 "\n", sig);
    printf("Nodes searched         : %" PRIu64 "\n", nodes);
    return 0;
}
