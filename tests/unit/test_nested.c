/*
 * test_nested.c - the nested algorithms of banyan_solo_run() (NRPA and
 * NMCS): the best game of a bit-string problem whose optimum is known
 * found; a seed (and a thread count) giving the same run; the playout
 * budget spent exactly, runs following each other; a saved game to start
 * from; GNRPA's bias steering the playouts and a temperature far below 1
 * handled; the policies' memory bound; the states told to keep_states();
 * bad arguments refused and everything allocated freed.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "t.h"

#define NEST_ROOM 512 /* Moves kept of a game (Morpion's are far shorter). */
#define BITS_N    16  /* The bit string's length. */

/* ---- A bit string: BITS_N moves of 0 or 1, scored by the bits equal to
 * a fixed target; the target alone scores BITS_N. ---- */

typedef struct bits {
    uint8_t n;           /* Bits chosen. */
    uint8_t bit[BITS_N]; /* The bits, in order. */
} bits;

static int bits_target(int i)
{
    return (int)(banyan_mix64((uint64_t)i + 11) & 1);
}

static int bits_setup(void *s, const char *params)
{
    memset(s, 0, sizeof(bits));
    return params && *params ? BANYAN_EINVAL : BANYAN_OK;
}

static int bits_moves(const void *s, banyan_move *out)
{
    const bits *b = s;
    if (b->n == BITS_N)
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static void bits_play(void *s, banyan_move m)
{
    bits *b = s;
    b->bit[b->n++] = (uint8_t)m;
}

static bool bits_outcome(const void *s, double *ret)
{
    const bits *b = s;
    if (b->n < BITS_N)
        return false;
    ret[0] = 0;
    for (int i = 0; i < BITS_N; i++)
        ret[0] += b->bit[i] == bits_target(i);
    return true;
}

static int bits_to_move(const void *s)
{
    (void)s;
    return 0;
}

/* The bit at a place: what the policy must learn to tell apart. */
static uint64_t bits_code(const void *s, banyan_move m)
{
    return 2 * (uint64_t)((const bits *)s)->n + m;
}

/* Priors that know the target: the right bit almost surely. */
static void bits_priors(const void *s, const banyan_move *moves, int n, float *out)
{
    const bits *b = s;
    for (int i = 0; i < n; i++)
        out[i] = (int)moves[i] == bits_target(b->n) ? 1.0f : 0.0f;
}

static const banyan_game bits_game = {
    BANYAN_GAME_INIT,        .name = "bits",          .state_size = sizeof(bits),
    .n_players = 1,          .reward_min = 0,         .reward_max = BITS_N,
    .setup = bits_setup,     .moves = bits_moves,     .play = bits_play,
    .outcome = bits_outcome, .to_move = bits_to_move, .priors = bits_priors,
    .move_code = bits_code};

/* ---- What the tests share ---- */

static _Atomic long nest_live; /* Blocks the hook holds (threads call it too). */

static void *nest_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        nest_live -= p != NULL;
        free(p);
        return NULL;
    }
    nest_live += p == NULL;
    return realloc(p, n);
}

static banyan_config nest_cfg(uint64_t seed, int threads)
{
    return BANYAN_CONFIG(.seed = seed, .threads = threads, .alloc = nest_alloc);
}

/* The return of the game moves[0 .. n) of g from its start (params). */
static double nest_replay(const banyan_game *g, const char *params, const banyan_move *moves, int n)
{
    unsigned char s[1 << 16];
    double ret[BANYAN_MAX_PLAYERS];
    T_TRUE(g->state_size <= sizeof s);
    T_EQ(g->setup(s, params), BANYAN_OK);
    for (int i = 0; i < n; i++) {
        T_TRUE(banyan_game_is_legal(g, s, moves[i]));
        g->play(s, moves[i]);
    }
    T_TRUE(g->outcome(s, ret));
    return ret[0];
}

/* What the progress callback saw. */
typedef struct nest_seen {
    int lines, runs;
    double last;
    const banyan_game *g;
    const char *params;
} nest_seen;

static int nest_progress(void *ud, const banyan_solo_event *ev)
{
    nest_seen *s = ud;
    T_TRUE(ev->n_moves > 0 && ev->moves);
    if (ev->kind == BANYAN_SOLO_LINE) {
        T_TRUE(s->lines == 0 || ev->score > s->last); /* Better each time. */
        T_NEAR(nest_replay(s->g, s->params, ev->moves, ev->n_moves), ev->score, 0);
        s->last = ev->score;
        s->lines++;
    } else {
        T_EQ(ev->run, s->runs);
        T_TRUE(ev->best >= ev->score);
        s->runs++;
    }
    return 0;
}

void test_nested_bits_optimum(void)
{
    const banyan_game *g = &bits_game;
    banyan_move m[NEST_ROOM];
    for (int algorithm = BANYAN_SOLO_NRPA; algorithm <= BANYAN_SOLO_NMCS; algorithm++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            banyan_config cfg = nest_cfg(seed, 1);
            banyan_solo_options o =
                BANYAN_SOLO_OPTIONS(.algorithm = algorithm,
                                    .level = algorithm == BANYAN_SOLO_NRPA ? 2 : 3);
            banyan_solo_result r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
            T_EQ(banyan_solo_run(g, NULL, NULL, &cfg, &o, &r), BANYAN_OK);
            T_TRUE(r.found);
            T_NEAR(r.score, BITS_N, 0);
            T_EQ(r.n_moves, BITS_N);
            for (int i = 0; i < BITS_N; i++)
                T_EQ((int)m[i], bits_target(i));
            T_EQ(r.runs, 1);
            /* NRPA level 2: 100 x 100 playouts. NMCS: level 1 from r bits to
             * choose plays 2 r playouts, level 2 the sum of 2 level 1 over
             * its steps, 2 r (r - 1), and level 3 from 16 the sum of 2
             * level 2 from 15, 14, ... 0: 4 (1240 - 120). */
            T_EQ(r.playouts, algorithm == BANYAN_SOLO_NRPA ? 10000 : 4480);
        }
    T_EQ(nest_live, 0);
}

/* Morpion 5D: the same seed and thread count, the same run; the budget
 * spent to the playout; the game kept is the one its score says. */
void test_nested_reproducible(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_move a[NEST_ROOM], b[NEST_ROOM];
    for (int threads = 1; threads <= 3; threads++) {
        banyan_config cfg = nest_cfg(9, threads);
        nest_seen s1 = {.g = g, .params = "rule=5d"}, s2 = s1;
        banyan_solo_options o1 =
            BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 2, .iterations = 20,
                                .progress = nest_progress, .progress_ud = &s1);
        banyan_solo_options o2 = o1;
        o2.progress_ud = &s2;
        banyan_solo_result r1 = BANYAN_SOLO_RESULT(a, NEST_ROOM),
                           r2 = BANYAN_SOLO_RESULT(b, NEST_ROOM);
        T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o1, &r1), BANYAN_OK);
        T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o2, &r2), BANYAN_OK);
        T_TRUE(r1.found);
        T_EQ(r1.playouts, 400);
        T_EQ(r1.n_moves, r2.n_moves);
        T_NEAR(r1.score, r2.score, 0);
        T_TRUE(memcmp(a, b, (size_t)r1.n_moves * sizeof *a) == 0);
        T_NEAR(nest_replay(g, "rule=5d", a, r1.n_moves), r1.score, 0);
        T_NEAR(s1.last, r1.score, 0); /* The last better game is the one kept. */
        if (threads == 1)             /* Which thread reports a score first is the clock's. */
            T_EQ(s1.lines, s2.lines);
        T_EQ(s1.runs, 1);
        T_TRUE(r1.score >= 40); /* Random 5D games average about 43 lines... */
    }
    /* A playout budget that ends a run inside a batch of iterations: each
     * thread stops on its own share of what is left, so threads reproduce
     * the run too (a run of 400 playouts cut at 155, inside a batch). */
    for (int threads = 2; threads <= 3; threads++) {
        banyan_config cfg = nest_cfg(5, threads);
        banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 2,
                                                    .iterations = 20, .playouts = 155);
        banyan_solo_result r1 = BANYAN_SOLO_RESULT(a, NEST_ROOM);
        T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r1), BANYAN_OK);
        T_EQ(r1.playouts, 155);
        for (int k = 0; k < 4; k++) {
            banyan_solo_result r2 = BANYAN_SOLO_RESULT(b, NEST_ROOM);
            T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r2), BANYAN_OK);
            T_EQ(r2.playouts, 155);
            T_NEAR(r1.score, r2.score, 0);
            T_EQ(r1.n_moves, r2.n_moves);
            T_TRUE(memcmp(a, b, (size_t)r1.n_moves * sizeof *a) == 0);
        }
    }
    /* ...and NMCS: the same too. */
    banyan_config cfg = nest_cfg(4, 1);
    banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NMCS, .level = 1);
    banyan_solo_result r1 = BANYAN_SOLO_RESULT(a, NEST_ROOM), r2 = BANYAN_SOLO_RESULT(b, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r1), BANYAN_OK);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r2), BANYAN_OK);
    T_EQ(r1.playouts, r2.playouts);
    T_EQ(r1.n_moves, r2.n_moves);
    T_TRUE(memcmp(a, b, (size_t)r1.n_moves * sizeof *a) == 0);
    T_NEAR(nest_replay(g, "rule=5d", a, r1.n_moves), r1.score, 0);
    T_EQ(nest_live, 0);
}

/* A playout budget is spent exactly: a run cut by it keeps its best game,
 * and runs smaller than it follow each other with their own seeds. */
void test_nested_budget(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_move m[NEST_ROOM];
    banyan_config cfg = nest_cfg(2, 1);
    nest_seen s = {.g = g, .params = "rule=5d"};
    banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .playouts = 777,
                                                .progress = nest_progress, .progress_ud = &s);
    banyan_solo_result r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(r.playouts, 777); /* Level 3 would take 1,000,000. */
    T_EQ(r.runs, 1);
    T_TRUE(r.found);
    T_NEAR(nest_replay(g, "rule=5d", m, r.n_moves), r.score, 0);
    /* Level 1 of 10 iterations: 10 playouts a run. */
    s = (nest_seen){.g = g, .params = "rule=5d"};
    o.level = 1;
    o.iterations = 10;
    r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(r.playouts, 777);
    T_EQ(r.runs, 78); /* 77 whole runs and the one the budget cut. */
    T_EQ(s.runs, 78);
    /* runs caps them. */
    s = (nest_seen){.g = g, .params = "rule=5d"};
    o.runs = 5;
    r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(r.playouts, 50);
    T_EQ(r.runs, 5);
    T_EQ(nest_live, 0);
}

/* A saved game to start from: the runs must beat it, NRPA's policy starts
 * adapted to it, and NMCS follows it where nothing better shows. */
void test_nested_start(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_move saved[NEST_ROOM], m[NEST_ROOM];
    banyan_config cfg = nest_cfg(3, 1);
    banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 1);
    banyan_solo_result r = BANYAN_SOLO_RESULT(saved, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    int n_saved = r.n_moves;
    double score = r.score;
    for (int algorithm = BANYAN_SOLO_NRPA; algorithm <= BANYAN_SOLO_NMCS; algorithm++) {
        o = BANYAN_SOLO_OPTIONS(.algorithm = algorithm, .level = 1, .start_moves = saved,
                                .n_start_moves = n_saved);
        r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
        T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
        if (r.found) /* Only a better game is kept. */
            T_TRUE(r.score > score);
        else
            T_EQ(r.n_moves, 0);
    }
    /* An illegal move, or a game not over, is no start. */
    banyan_move bad[NEST_ROOM];
    memcpy(bad, saved, (size_t)n_saved * sizeof *bad);
    bad[3] = bad[2];
    o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 1, .start_moves = bad,
                            .n_start_moves = n_saved);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_EINVAL);
    o.start_moves = saved;
    o.n_start_moves = n_saved - 1;
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_EINVAL);
    T_EQ(nest_live, 0);
}

/* GNRPA: a bias from priors that know the answer makes the first playout
 * the optimum; a temperature far below 1 (weights beyond exp's range)
 * still draws moves. */
void test_nested_bias_temperature(void)
{
    const banyan_game *g = &bits_game;
    banyan_move m[NEST_ROOM];
    banyan_config cfg = nest_cfg(1, 1);
    banyan_solo_options o =
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .playouts = 1, .bias = 1);
    banyan_solo_result r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, NULL, NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(r.playouts, 1);
    T_NEAR(r.score, BITS_N, 0);
    o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 2, .temperature = 0.001);
    r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, NULL, NULL, &cfg, &o, &r), BANYAN_OK);
    T_TRUE(r.found && isfinite(r.score));
    T_NEAR(nest_replay(g, NULL, m, r.n_moves), r.score, 0);
    T_EQ(nest_live, 0);
}

/* The policies' bound: past it weights stay 0, counted, and the run goes
 * on. */
void test_nested_policy_full(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_move m[NEST_ROOM];
    banyan_config cfg = nest_cfg(1, 1);
    banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 2,
                                                .iterations = 30, .policy_memory = 1);
    banyan_solo_result r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5t", NULL, &cfg, &o, &r), BANYAN_OK);
    T_TRUE(r.found);
    T_TRUE(r.policy_full > 0);
    T_NEAR(nest_replay(g, "rule=5t", m, r.n_moves), r.score, 0);
    o.policy_memory = 0; /* 64 MiB: room for all. */
    r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5t", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(r.policy_full, 0);
    T_EQ(nest_live, 0);
}

/* keep_states: told the root and the states in use between playouts; a
 * non-zero answer stops the call with it. */
typedef struct nest_kept {
    int calls, stop_at;
    const void *root;
} nest_kept;

static int nest_keep(void *ud, const void *const *states, int n)
{
    nest_kept *k = ud;
    T_TRUE(n >= 2 && n <= BANYAN_SOLO_MAX_LEVEL + 2);
    if (!k->root)
        k->root = states[0];
    T_TRUE(states[0] == k->root);
    return ++k->calls == k->stop_at ? 42 : 0;
}

void test_nested_keep_states(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_config cfg = nest_cfg(1, 1);
    for (int algorithm = BANYAN_SOLO_NRPA; algorithm <= BANYAN_SOLO_NMCS; algorithm++) {
        nest_kept k = {.stop_at = 50};
        banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = algorithm, .level = 2,
                                                    .keep_states = nest_keep, .progress_ud = &k);
        banyan_solo_result r = BANYAN_SOLO_RESULT(NULL, 0);
        T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), 42);
        T_EQ(k.calls, 50);
        T_TRUE(r.playouts > 0 && r.playouts <= 51);
    }
    T_EQ(nest_live, 0);
}

/* share_best: a game from elsewhere, better than the run's, becomes the
 * run's (and the result); the callback's 1 stops, another value fails; a
 * game that is not what it says is refused. */
typedef struct nest_share {
    int calls, answer_at, answer;
    double score;
    int n;
    banyan_move moves[NEST_ROOM];
} nest_share;

static int nest_shared(void *ud, banyan_solo_shared *game, bool stopping)
{
    nest_share *s = ud;
    T_TRUE(!stopping);
    T_EQ(game->room, BANYAN_SOLO_SHARED_ROOM);
    if (!game->have || game->score < s->score) {
        game->have = true;
        game->score = s->score;
        game->n_moves = s->n;
        memcpy(game->moves, s->moves, (size_t)s->n * sizeof *s->moves);
    }
    return ++s->calls == s->answer_at ? s->answer : 0;
}

void test_nested_share_best(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_move m[NEST_ROOM];
    banyan_config cfg = nest_cfg(6, 1);
    nest_share s = {.answer_at = -1};
    /* The other process's game: a level-2 run's. */
    banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 2);
    banyan_solo_result r = BANYAN_SOLO_RESULT(s.moves, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    s.score = r.score;
    s.n = r.n_moves;
    /* A short run of level 2 with 3 iterations gets it. */
    cfg.seed = 99;
    o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 2, .iterations = 3,
                            .share_best = nest_shared, .progress_ud = &s);
    r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(s.calls, 3); /* A batch an iteration, one thread. */
    T_TRUE(r.score >= s.score);
    T_NEAR(nest_replay(g, "rule=5d", m, r.n_moves), r.score, 0);
    /* 1 stops after that batch; 7 fails the call with 7. */
    s.calls = 0;
    s.answer_at = 2;
    s.answer = 1;
    r = BANYAN_SOLO_RESULT(m, NEST_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(s.calls, 2);
    T_EQ(r.playouts, 6);
    s.calls = 0;
    s.answer = 7;
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), 7);
    T_EQ(s.calls, 2);
    /* A game that is not what it claims (its score, or a move) is refused. */
    s.calls = 0;
    s.answer_at = -1;
    s.score += 1;
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_EINVAL);
    s.score -= 1;
    s.moves[1] = s.moves[0];
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_EINVAL);
    T_EQ(nest_live, 0);
}

void test_nested_errors(void)
{
    const banyan_game *g = &banyan_game_morpion;
    banyan_config cfg = nest_cfg(1, 1);
    banyan_solo_result r = BANYAN_SOLO_RESULT(NULL, 0);
    banyan_solo_options bad[] = {
        BANYAN_SOLO_OPTIONS(.algorithm = 3),
        BANYAN_SOLO_OPTIONS(.algorithm = -1),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = BANYAN_SOLO_MAX_LEVEL + 1),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = -1),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .iterations = -5),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .alpha = NAN),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .alpha = -1),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .temperature = INFINITY),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .bias = NAN),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NMCS, .n_start_moves = 3),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NMCS, .n_start_moves = -1),
        BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NMCS, .time = -1),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &bad[i], &r), BANYAN_EINVAL);
    banyan_solo_options o = BANYAN_SOLO_OPTIONS(.algorithm = BANYAN_SOLO_NRPA, .level = 1);
    T_EQ(banyan_solo_run(g, "rule=5x", NULL, &cfg, &o, &r), BANYAN_EINVAL);
    T_EQ(banyan_solo_run(g, "rule=5d", "(1,2) nonsense", &cfg, &o, &r), BANYAN_EINVAL);
    T_EQ(banyan_solo_run(&banyan_game_connect4, NULL, NULL, &cfg, &o, &r), BANYAN_EINVAL);
    /* An older options struct (without the nested fields) is the search. */
    o.size = offsetof(banyan_solo_options, progress_ud) + sizeof(void *);
    o.playouts = 200;
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &cfg, &o, &r), BANYAN_OK);
    T_EQ(nest_live, 0);
}
