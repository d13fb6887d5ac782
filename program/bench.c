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
    unsigned char *scratch = malloc(g->state_size);
    banyan_rng_seed(&rng, 1, 0);
    double t0 = cli_now();
    int rc = banyan_random_games(g, banyan_engine_state(e), n, &rng, scratch, NULL);
    double dt = cli_now() - t0;
    free(scratch);
    banyan_engine_free(e);
    if (rc != BANYAN_OK)
        return 0;
    return dt > 0 ? (double)n / dt : 0;
}

/* One timed search, for --game: search rate beside raw rollout rate. */
static int bench_one(const cli_opts *o)
{
    uint64_t allocs = 0;
    cli_opts c = *o;
    c.eng.cfg.alloc = bench_alloc;
    c.eng.cfg.alloc_ud = &allocs;
    if (!c.eng.cfg.seed)
        c.eng.cfg.seed = 1;
    if (!c.eng.lim.playouts && c.eng.lim.time <= 0)
        c.eng.lim.playouts = 1000000;
    banyan_engine *e = cli_engine(&c);
    if (!e)
        return 1;
    banyan_report r = BANYAN_REPORT();
    uint64_t before = allocs;
    banyan_engine_search(e, &c.eng.lim, &r);
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
    if (cli_engine_evaluator()) {
        net_counts k;
        net_evaluator_counts(cli_engine_evaluator(), &k);
        printf("network         : %" PRIu64 " positions asked, %" PRIu64 " from the cache, %" PRIu64
               " evaluated in %" PRIu64 " passes (%.1f a pass)\n",
               k.asked, k.cached, k.evaluated, k.forwards,
               k.forwards ? (double)k.evaluated / (double)k.forwards : 0.0);
        printf("network evals/s : %.0f in the network's time, %.0f in the search's\n",
               k.seconds > 0 ? (double)k.evaluated / k.seconds : 0.0,
               r.seconds > 0 ? (double)k.evaluated / r.seconds : 0.0);
        printf("network share   : %.1f%% of the search's time in forward passes\n",
               r.seconds > 0
                   ? 100 * k.seconds / (r.seconds * (c.eng.cfg.threads > 1 ? c.eng.cfg.threads : 1))
                   : 0.0);
    }
    cli_engine_free(e);
    return 0;
}

/* Tree reuse over a game (--reuse-test PLIES): the engine plays both sides; after
 * each move, the nodes kept for the next search against those the last
 * search left, and the time banyan_engine_play() took to reclaim the rest. */
static int bench_reuse(const cli_opts *o)
{
    cli_opts c = *o;
    if (!c.eng.lim.playouts && c.eng.lim.time <= 0)
        c.eng.lim.playouts = 100000;
    banyan_engine *e = cli_engine(&c);
    if (!e)
        return 1;
    printf("%4s %5s %10s %10s %7s %9s\n", "ply", "move", "nodes", "kept", "share", "play ms");
    double shares = 0, ms_total = 0, ms_max = 0;
    int n = 0;
    for (int ply = 0; ply < c.reuse_plies; ply++) {
        banyan_report r = BANYAN_REPORT();
        banyan_engine_search(e, &c.eng.lim, &r);
        if (r.best == BANYAN_MOVE_NONE)
            break;
        uint64_t before = r.nodes;
        char move[64];
        snprintf(move, sizeof move, "%s", cli_move(c.game, banyan_engine_state(e), r.best));
        double t0 = cli_now();
        banyan_engine_play(e, r.best);
        double ms = (cli_now() - t0) * 1000;
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
    cli_engine_free(e);
    return 0;
}

/* The provers of g (prove_win, and prove_win_deep where it has one) on
 * BENCH_PROVER_POSITIONS fixed positions of 8 to 57 moves, played from the
 * start mostly by the game's best prior (a tenth of the moves random, a
 * fifth uniform among the candidates): time per call of each, the longest
 * deep call, and how many wins each found. */
#define BENCH_PROVER_POSITIONS 400
#define BENCH_DEEP_EFFORT      10000 /* The effort the search gives the deep prover on a root child. */
static void bench_provers(const banyan_game *g)
{
    unsigned char *s = malloc(g->state_size), *t = malloc(g->state_size);
    void *deep = (g->tactics ? g->tactics->mem_size : 0)
                     ? calloc(1, (g->tactics ? g->tactics->mem_size : 0))
                     : NULL;
    banyan_move moves[BANYAN_MAX_MOVES], m;
    float priors[BANYAN_MAX_MOVES];
    double ret[BANYAN_MAX_PLAYERS], fast_s = 0, deep_s = 0, deep_max = 0;
    int fast_won = 0, deep_won = 0;
    banyan_rng rng;
    banyan_rng_seed(&rng, 12345, 0);
    for (int it = 0; s && t && it < BENCH_PROVER_POSITIONS; it++) {
        g->setup(s, "");
        int plies = 8 + (int)banyan_rng_below(&rng, 50);
        for (int k = 0; k < plies; k++) {
            int n = (g->tactics && g->tactics->candidates) ? g->tactics->candidates(s, moves)
                                                           : g->moves(s, moves),
                pick = 0;
            uint32_t roll = banyan_rng_below(&rng, 10);
            if (n == 0)
                break;
            if (roll < 8 && g->priors) {
                g->priors(s, moves, n, priors);
                for (int j = 1; j < n; j++)
                    pick = priors[j] > priors[pick] ? j : pick;
            }
            if (roll >= 8 || !g->priors || banyan_rng_below(&rng, 4) == 0)
                pick = (int)banyan_rng_below(&rng, (uint32_t)n);
            memcpy(t, s, g->state_size);
            g->play(t, moves[pick]);
            if (g->outcome(t, ret))
                break;
            memcpy(s, t, g->state_size);
        }
        double t0 = cli_now();
        fast_won += g->tactics->prove_win(s, &m);
        double t1 = cli_now();
        deep_won += (g->tactics && g->tactics->prove_win_deep) &&
                    g->tactics->prove_win_deep(s, BENCH_DEEP_EFFORT, 0, deep, &m);
        double t2 = cli_now();
        fast_s += t1 - t0;
        deep_s += t2 - t1;
        deep_max = t2 - t1 > deep_max ? t2 - t1 : deep_max;
    }
    printf("%-10s provers     : %d positions; fast %.3f ms a call (%d wins)", g->name,
           BENCH_PROVER_POSITIONS, fast_s * 1000 / BENCH_PROVER_POSITIONS, fast_won);
    if ((g->tactics && g->tactics->prove_win_deep))
        printf(", deep %.3f ms a call, longest %.1f ms (%d wins)",
               deep_s * 1000 / BENCH_PROVER_POSITIONS, deep_max * 1000, deep_won);
    printf("\n");
    free(s);
    free(t);
    free(deep);
}

#define BENCH_MAX_GAMES 64

/* The larger of a column's width and a text's length. */
static int bench_max(int width, size_t len)
{
    return len > (size_t)width ? (int)len : width;
}

/* The fixed searches of every game's bench list (banyan_game_bench()), one
 * thread and seed 1: the node counts sum to the signature. Then raw
 * rollouts beside the searches of the same game, and the provers. */
static int bench_all(int threads)
{
    uint64_t nodes = 0, allocs = 0, allocs_during = 0;
    uint64_t sig = 0xcbf29ce484222325ULL;
    int n_games, k = 0;
    const banyan_game *const *games = banyan_game_list(&n_games);
    uint64_t game_playouts[BENCH_MAX_GAMES] = {0}; /* Search playouts and seconds per game, */
    double game_time[BENCH_MAX_GAMES] = {0};       /* for the ratios to raw rollouts. */
    if (n_games > BENCH_MAX_GAMES)
        n_games = BENCH_MAX_GAMES;
    /* The columns as wide as their longest entry, known before any search;
     * the best move, known only after its search, comes last. */
    int w_name = 0, w_params = 1, w_position = 7; /* "-", "(start)". */
    for (int gi = 0; gi < n_games; gi++)
        for (const banyan_bench *b = banyan_game_bench(games[gi]);
             b && (b->playouts || b->rollouts); b++) {
            if (!b->playouts)
                continue; /* Raw rollouts only: no row of the table. */
            w_name = bench_max(w_name, strlen(games[gi]->name));
            w_params = bench_max(w_params, strlen(b->params));
            w_position = bench_max(w_position, strlen(b->position));
        }
    for (int gi = 0; gi < n_games; gi++) {
        const banyan_game *g = games[gi];
        for (const banyan_bench *b = banyan_game_bench(g); b && (b->playouts || b->rollouts); b++) {
            banyan_config cfg = BANYAN_CONFIG(.seed = 1, .threads = threads, .alloc = bench_alloc,
                                              .alloc_ud = &allocs);
            banyan_limits lim = BANYAN_LIMITS(.playouts = b->playouts);
            banyan_engine *e;
            banyan_report r = BANYAN_REPORT();
            if (!b->playouts)
                continue;
            k++;
            if (banyan_engine_new(g, b->params, &cfg, &e) != BANYAN_OK ||
                banyan_engine_load(e, b->position) != BANYAN_OK) {
                fprintf(stderr, "bench: position %d (%s) does not load\n", k, g->name);
                return 1;
            }
            uint64_t before = allocs;
            banyan_engine_search(e, &lim, &r);
            allocs_during += allocs - before;
            const char *best = cli_move(g, banyan_engine_state(e), r.best);
            printf("position %2d %-*s %-*s %-*s nodes %8" PRIu64 " %6.0f kpps  best %s\n", k,
                   w_name, g->name, w_params, b->params[0] ? b->params : "-", w_position,
                   b->position[0] ? b->position : "(start)", r.nodes,
                   r.seconds > 0 ? (double)r.playouts / r.seconds / 1000 : 0.0, best);
            nodes += r.nodes;
            game_playouts[gi] += r.playouts;
            game_time[gi] += r.seconds;
            for (const char *c = best; *c; c++)
                sig = (sig ^ (unsigned char)*c) * 0x100000001b3ULL;
            banyan_engine_free(e);
        }
    }
    printf("\n");
    /* Raw rollouts beside the searches of the same game (whose positions
     * vary), with the game's first rollout entry: the cost of the tree. */
    for (int gi = 0; gi < n_games; gi++) {
        const banyan_game *g = games[gi];
        double playouts = (double)game_playouts[gi], time = game_time[gi];
        bool first = true;
        for (const banyan_bench *b = banyan_game_bench(g); b && (b->playouts || b->rollouts); b++) {
            if (!b->rollouts)
                continue;
            double raw = bench_rollouts(g, b->params, b->position, b->rollouts);
            if (first && time > 0)
                printf("%-10s raw rollouts: %10.0f playouts/s, searches: %9.0f playouts/s, "
                       "ratio %.3f\n",
                       g->name, raw, (double)playouts / time,
                       raw > 0 ? playouts / time / raw : 0.0);
            else
                printf("%-10s raw rollouts: %10.0f playouts/s (%s)\n", g->name, raw,
                       b->params[0] ? b->params : "defaults");
            first = false;
        }
    }
    for (int gi = 0; gi < n_games; gi++)
        if (games[gi]->tactics && games[gi]->tactics->prove_win)
            bench_provers(games[gi]);
    printf("bytes per node         : %zu; per child edge: %zu\n", banyan_node_size(),
           banyan_node_size());
    printf("allocations in searches: %" PRIu64 "\n", allocs_during);
    printf("Best-move hash         : %016" PRIx64 "\n", sig);
    printf("Nodes searched         : %" PRIu64 "\n", nodes);
    return 0;
}

int cli_bench(int argc, char **argv)
{
    cli_opts o;
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (o.game && o.reuse_plies)
        return bench_reuse(&o);
    if (o.game)
        return bench_one(&o);
    /* The fixed list takes a thread count and nothing else: its searches
     * are what the signature measures. */
    options plain;
    options_init(&plain);
    plain.cfg.threads = o.eng.cfg.threads;
    if (o.n_args || o.params[0] || o.position || o.reuse_plies ||
        memcmp(&plain.cfg, &o.eng.cfg, sizeof plain.cfg) != 0 ||
        memcmp(&plain.lim, &o.eng.lim, sizeof plain.lim) != 0) {
        fprintf(stderr, "banyan bench: without --game only --threads applies (the fixed list "
                        "sets its own searches); see banyan bench --help\n");
        return 2;
    }
    if (o.eng.cfg.threads > 1)
        printf("%d threads: the node counts are not reproducible, the signature holds for one "
               "thread only\n",
               o.eng.cfg.threads);
    return bench_all(o.eng.cfg.threads ? o.eng.cfg.threads : 1);
}
