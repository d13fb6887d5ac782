/*
 * test_solo.c - banyan_solo_run(): whole games of Morpion Solitaire played
 * by searches. A run with a fixed seed and a playout budget is reproducible,
 * its score is the played game's, the callback sees each run's game, the
 * best game is kept across runs, the structures' sizes are checked, bad
 * arguments are refused and everything allocated is freed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "t.h"

#define SOLO_ROOM 512 /* Moves the tests keep of a game (Morpion's are far shorter). */

/* What the callback saw. */
typedef struct seen {
    int lines, runs, stop_at; /* stop_at: the run whose end stops the call (-1: none). */
    double last_line, best_run;
    int n_best;
    banyan_move best[SOLO_ROOM];
} seen;

static int solo_seen(void *ud, const banyan_solo_event *ev)
{
    seen *s = ud;
    if (ev->kind == BANYAN_SOLO_LINE) {
        T_TRUE(ev->score > s->last_line);
        T_TRUE(ev->move >= 1);
        s->last_line = ev->score;
        s->lines++;
        return 0;
    }
    T_EQ(ev->kind, BANYAN_SOLO_RUN);
    T_EQ(ev->run, s->runs);
    T_TRUE(ev->n_moves > 0 && ev->n_moves <= SOLO_ROOM);
    T_TRUE(ev->best >= ev->score);
    if (ev->improved) {
        T_TRUE(s->runs == 0 || ev->score > s->best_run);
        s->best_run = ev->score;
        s->n_best = ev->n_moves;
        memcpy(s->best, ev->moves, (size_t)ev->n_moves * sizeof *ev->moves);
    }
    return s->runs++ == s->stop_at ? 77 : 0;
}

/* The allocation hook that counts what is live. */
static long solo_live;

static void *solo_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        solo_live -= p != NULL;
        free(p);
        return NULL;
    }
    solo_live += p == NULL;
    return realloc(p, n);
}

static const banyan_config solo_cfg = {
    .size = sizeof(banyan_config), .memory = 1 << 22, .threads = 1, .seed = 5, .alloc = solo_alloc};

/* The return of the game g reaches by moves from its start (rule=5d). */
static double solo_replay(const banyan_game *g, const banyan_move *moves, int n)
{
    unsigned char s[1 << 16];
    double ret[BANYAN_MAX_PLAYERS];
    T_TRUE(g->state_size <= sizeof s);
    T_EQ(g->setup(s, "rule=5d"), BANYAN_OK);
    for (int i = 0; i < n; i++) {
        T_TRUE(banyan_game_is_legal(g, s, moves[i]));
        g->play(s, moves[i]);
    }
    T_TRUE(g->outcome(s, ret));
    return ret[0];
}

void test_solo_run(void)
{
    const banyan_game *g = banyan_game_find("morpion");
    banyan_move a[SOLO_ROOM], b[SOLO_ROOM];
    seen s = {.stop_at = -1, .last_line = -HUGE_VAL};
    banyan_solo_options opt =
        BANYAN_SOLO_OPTIONS(.playouts = 3000, .progress = solo_seen, .progress_ud = &s);
    banyan_solo_result r1 = BANYAN_SOLO_RESULT(a, SOLO_ROOM), r2 = BANYAN_SOLO_RESULT(b, SOLO_ROOM);
    T_TRUE(g != NULL);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &solo_cfg, &opt, &r1), BANYAN_OK);
    T_EQ(solo_live, 0);
    T_TRUE(r1.found);
    T_EQ(r1.runs, 1);
    T_TRUE(r1.playouts > 2000 && r1.playouts <= 3000); /* The game may end first. */
    T_TRUE(r1.n_moves > 20 && r1.n_moves <= SOLO_ROOM);
    T_NEAR(r1.score, solo_replay(g, a, r1.n_moves), 0);
    T_TRUE(s.lines > 0 && s.runs == 1);
    T_NEAR(s.last_line, r1.score, 0); /* The run ends as well as the best line it saw. */
    T_EQ(s.n_best, r1.n_moves);
    T_TRUE(!memcmp(s.best, a, (size_t)r1.n_moves * sizeof *a));
    /* The same seed and budget: the same game. */
    opt.progress = NULL;
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &solo_cfg, &opt, &r2), BANYAN_OK);
    T_EQ(r2.n_moves, r1.n_moves);
    T_NEAR(r2.score, r1.score, 0);
    T_TRUE(!memcmp(a, b, (size_t)r1.n_moves * sizeof *a));
    /* A short buffer gets the game's first moves and its whole length. */
    banyan_move c[4];
    banyan_solo_result r3 = BANYAN_SOLO_RESULT(c, 4);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &solo_cfg, &opt, &r3), BANYAN_OK);
    T_EQ(r3.n_moves, r1.n_moves);
    T_TRUE(!memcmp(a, c, sizeof c));
    T_EQ(solo_live, 0);
}

void test_solo_runs(void)
{
    const banyan_game *g = banyan_game_find("morpion");
    banyan_move a[SOLO_ROOM];
    seen s = {.stop_at = -1, .last_line = -HUGE_VAL};
    banyan_solo_options opt = BANYAN_SOLO_OPTIONS(.playouts = 4000, .runs = 4, .share_front = true,
                                                  .progress = solo_seen, .progress_ud = &s);
    banyan_solo_result r = BANYAN_SOLO_RESULT(a, SOLO_ROOM);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &solo_cfg, &opt, &r), BANYAN_OK);
    T_EQ(r.runs, 4);
    T_EQ(s.runs, 4);
    T_TRUE(r.playouts > 3000 && r.playouts <= 4000);
    T_NEAR(r.score, s.best_run, 0); /* The best of the runs is kept. */
    T_EQ(r.n_moves, s.n_best);
    T_TRUE(!memcmp(a, s.best, (size_t)r.n_moves * sizeof *a));
    T_NEAR(r.score, solo_replay(g, a, r.n_moves), 0);
    /* A score to beat that no run reaches: nothing kept, nothing reported
     * as better. */
    seen q = {.stop_at = -1, .last_line = -HUGE_VAL};
    opt = BANYAN_SOLO_OPTIONS(.playouts = 1000, .follow_visits = true, .beat = true,
                              .to_beat = 1000, .progress = solo_seen, .progress_ud = &q);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &solo_cfg, &opt, &r), BANYAN_OK);
    T_TRUE(!r.found);
    T_EQ(r.n_moves, 0);
    T_EQ(r.runs, 1);
    T_EQ(q.lines, 0);
    T_EQ(q.n_best, 0);
    /* The callback stops the call after the second run, which returns its
     * value with the best of the runs so far. */
    seen t = {.stop_at = 1, .last_line = -HUGE_VAL};
    opt =
        BANYAN_SOLO_OPTIONS(.playouts = 3000, .runs = 3, .progress = solo_seen, .progress_ud = &t);
    T_EQ(banyan_solo_run(g, "rule=5d", NULL, &solo_cfg, &opt, &r), 77);
    T_EQ(r.runs, 2);
    T_TRUE(r.found);
    T_NEAR(r.score, t.best_run, 0);
    T_EQ(solo_live, 0);
}

void test_solo_errors(void)
{
    const banyan_game *g = banyan_game_find("morpion");
    banyan_move a[SOLO_ROOM];
    banyan_solo_options opt = BANYAN_SOLO_OPTIONS(.playouts = 200);
    banyan_solo_result r = BANYAN_SOLO_RESULT(a, SOLO_ROOM);
    T_EQ(banyan_solo_run(banyan_game_find("connect4"), NULL, NULL, &solo_cfg, &opt, &r),
         BANYAN_EINVAL);
    T_EQ(banyan_solo_run(NULL, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, NULL), BANYAN_EINVAL);
    T_EQ(banyan_solo_run(g, "rule=9", NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    T_EQ(banyan_solo_run(g, NULL, "no position", &solo_cfg, &opt, &r), BANYAN_EINVAL);
    T_TRUE(!r.found && r.runs == 0);
    banyan_config bad = solo_cfg;
    bad.threads = BANYAN_MAX_THREADS + 1;
    T_EQ(banyan_solo_run(g, NULL, NULL, &bad, &opt, &r), BANYAN_EINVAL);
    bad = solo_cfg;
    bad.size = 0; /* A config not made by BANYAN_CONFIG(). */
    T_EQ(banyan_solo_run(g, NULL, NULL, &bad, &opt, &r), BANYAN_EINVAL);
    /* No config: the defaults. */
    T_EQ(banyan_solo_run(g, NULL, NULL, NULL, &opt, &r), BANYAN_OK);
    T_TRUE(r.found);
    opt.runs = -1;
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    opt = BANYAN_SOLO_OPTIONS(.time = -1);
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    opt = BANYAN_SOLO_OPTIONS(.time = INFINITY);
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    /* Sizes: none, too small, or larger than this library's (a caller built
     * against a newer header), whatever the newer fields hold. */
    opt = BANYAN_SOLO_OPTIONS(.playouts = 200);
    opt.size = 0;
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    opt.size = sizeof(size_t) + sizeof(uint64_t);
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    r.size = 0;
    opt.size = sizeof opt;
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    r = BANYAN_SOLO_RESULT(NULL, 5);
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &opt, &r), BANYAN_EINVAL);
    struct {
        banyan_solo_options o;
        uint64_t later; /* A field a newer header appended. */
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.o = BANYAN_SOLO_OPTIONS(.playouts = 200);
    newer.o.size = sizeof newer;
    r = BANYAN_SOLO_RESULT(a, SOLO_ROOM);
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &newer.o, &r), BANYAN_EINVAL);
    newer.later = 1;
    T_EQ(banyan_solo_run(g, NULL, NULL, &solo_cfg, &newer.o, &r), BANYAN_EINVAL);
    /* NULL options: the defaults (10,000 playouts). */
    banyan_config small = solo_cfg;
    T_EQ(banyan_solo_run(g, NULL, NULL, &small, NULL, &r), BANYAN_OK);
    T_TRUE(r.playouts > 5000 && r.playouts <= 10000);
    T_EQ(solo_live, 0);
}
