/*
 * test_timeman.c - time management on a simulated clock. Hundreds of games
 * per kind of clock, of random lengths, with the player's estimate of the
 * moves left off by up to half: every move spends anything between the
 * plan's soft and hard figures plus a random lag up to the margin, and the
 * clock must never fall. Then the search's own use of the plan: it stops
 * at the soft time unless the position is unclear, never after the hard
 * time, and stops early once the best move cannot be overtaken.
 */
#include <math.h>
#include <stdlib.h>

#include "banyan.h"
#include "t.h"

enum { TM_ABSOLUTE, TM_FISCHER, TM_JAPANESE, TM_CANADIAN };

typedef struct tm_clock {
    double main;   /* Main time left. */
    double period; /* Japanese: the period; Canadian: time left in it. */
    int periods;   /* Japanese periods left. */
    int stones;    /* Canadian stones left in the period. */
} tm_clock;

/* Plays one simulated game of `moves` moves; returns the move at which the
 * clock fell, or 0. */
static int tm_game(int kind, int moves, banyan_rng *rng, double *spent_total)
{
    const double inc = kind == TM_FISCHER ? 0.2 : 0, byo = 1.0, canadian = 5.0;
    const int canadian_stones = 10;
    tm_clock c = {kind == TM_FISCHER ? 5.0 : 20.0, kind == TM_CANADIAN ? canadian : byo,
                  kind == TM_JAPANESE ? 3 : 0, kind == TM_CANADIAN ? canadian_stones : 0};
    /* The player's guess of the game's length, off by up to half. */
    int guess = moves / 2 + (int)banyan_rng_below(rng, (uint32_t)moves + 1);
    for (int k = 0; k < moves; k++) {
        banyan_clock bc = {.main_time = c.main, .increment = inc};
        if (kind == TM_JAPANESE) {
            bc.period_time = c.period;
            bc.periods = c.periods;
        } else if (kind == TM_CANADIAN) {
            bc.period_time = c.period;
            bc.period_stones = c.stones;
        }
        double soft, hard;
        int left = guess - k > 10 ? guess - k : 10;
        if (banyan_time_plan(&bc, left, &soft, &hard) != BANYAN_OK)
            return k + 1;
        if (!(soft > 0 && soft <= hard))
            return k + 1;
        /* Anything from soft to hard, and lag up to 10 ms (inside the
         * margin's fixed 20 ms). */
        double u = (double)banyan_rng_below(rng, 1000) / 1000;
        double spent = soft + u * (hard - soft) + 0.01 * (double)banyan_rng_below(rng, 1000) / 1000;
        *spent_total += spent;
        if (c.main > 0) {
            c.main -= spent;
            if (c.main >= 0) {
                c.main += inc;
                continue;
            }
            spent = -c.main; /* The rest runs into overtime. */
            c.main = 0;
            if (kind == TM_ABSOLUTE || kind == TM_FISCHER)
                return k + 1;
        } else if (kind == TM_FISCHER) {
            return k + 1;
        }
        if (kind == TM_JAPANESE) {
            while (spent > byo && c.periods > 0) {
                c.periods--;
                spent -= byo;
            }
            if (c.periods == 0)
                return k + 1;
        } else if (kind == TM_CANADIAN) {
            c.period -= spent;
            if (c.period < 0)
                return k + 1;
            if (--c.stones == 0) {
                c.period = canadian;
                c.stones = canadian_stones;
            }
        }
    }
    return 0;
}

void test_timeman_simulated_clock(void)
{
    static const char *names[] = {"absolute 20 s", "Fischer 5 s + 0.2 s", "20 s + Japanese 3 x 1 s",
                                  "20 s + Canadian 5 s / 10"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 2026, 0);
    for (int kind = TM_ABSOLUTE; kind <= TM_CANADIAN; kind++) {
        int fallen = 0;
        double spent = 0;
        for (int game = 0; game < 500; game++) {
            int moves = 10 + (int)banyan_rng_below(&rng, 141); /* 10 to 150 moves. */
            int at = tm_game(kind, moves, &rng, &spent);
            if (at && fallen++ < 3)
                fprintf(stderr, "timeman: %s: the clock fell at move %d of %d\n", names[kind], at,
                        moves);
        }
        T_EQ(fallen, 0);
        T_TRUE(spent > 0);
    }
}

void test_timeman_plans(void)
{
    double soft, hard;
    /* 60 s of sudden death: planned over at least 40 moves, their lag set
     * aside: (60 - 40 * 0.02) / 40 = 1.48 s a move, more when unclear. */
    banyan_clock abs60 = {.main_time = 60};
    T_EQ(banyan_time_plan(&abs60, 30, &soft, &hard), BANYAN_OK);
    T_NEAR(soft, 1.48, 0.01);
    T_TRUE(hard > soft && hard <= 60 * 0.1);
    /* The default estimate is 30 moves. */
    double soft0, hard0;
    T_EQ(banyan_time_plan(&abs60, 0, &soft0, &hard0), BANYAN_OK);
    T_NEAR(soft0, soft, 1e-12);
    /* Japanese byo-yomi, main time spent: well inside one period. */
    banyan_clock byo = {.period_time = 10, .periods = 3};
    T_EQ(banyan_time_plan(&byo, 30, &soft, &hard), BANYAN_OK);
    T_TRUE(soft >= 5 && hard < 10);
    /* Canadian overtime: 60 s for 20 stones, about 3 s a stone. */
    banyan_clock can = {.period_time = 60, .period_stones = 20};
    T_EQ(banyan_time_plan(&can, 30, &soft, &hard), BANYAN_OK);
    T_NEAR(soft, 3, 0.01);
    T_TRUE(hard < 60);
    /* moves_to_go: the last move before the top-up may use what is left. */
    banyan_clock last = {.main_time = 10, .moves_to_go = 1};
    T_EQ(banyan_time_plan(&last, 30, &soft, &hard), BANYAN_OK);
    T_TRUE(hard > 5 && hard < 10);
    /* Bad clocks. */
    banyan_clock none = {0};
    banyan_clock neg = {.main_time = -1};
    banyan_clock nan_inc = {.main_time = 10, .increment = NAN};
    T_EQ(banyan_time_plan(&none, 30, &soft, &hard), BANYAN_EINVAL);
    T_EQ(banyan_time_plan(&neg, 30, &soft, &hard), BANYAN_EINVAL);
    T_EQ(banyan_time_plan(&nan_inc, 30, &soft, &hard), BANYAN_EINVAL);
    T_EQ(banyan_time_plan(NULL, 30, &soft, &hard), BANYAN_EINVAL);
    T_EQ(banyan_time_plan(&abs60, -1, &soft, &hard), BANYAN_EINVAL);
}

/* The search keeps to the plan: a search with a soft and a hard time is
 * stopped by its clock, and a clear position stops before its budget when
 * the best move cannot be overtaken. No check reads the clock: how soon a
 * search stops depends on the machine; the plans themselves are checked on
 * simulated clocks above. */
void test_timeman_search(void)
{
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_config cfg = BANYAN_CONFIG(.seed = 3);
    /* Without the opening book, which would answer the empty board at once. */
    T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off", &cfg, &e), BANYAN_OK);

    /* With playouts out of reach in the time, the clock stops it. */
    banyan_limits soft_hard =
        BANYAN_LIMITS(.time = 0.1, .time_max = 0.4, .playouts = 1000000000000);
    T_EQ(banyan_engine_search(e, &soft_hard, &r), BANYAN_OK);
    T_TRUE(r.playouts > 0 && r.playouts < soft_hard.playouts);
    T_EQ(r.proof, BANYAN_UNPROVEN);

    /* Stopping early: O must block at g (its only move that does not
     * lose); with a big budget the search stops long before it. */
    T_EQ(banyan_engine_load(e, "43516"), BANYAN_OK);
    banyan_limits early = BANYAN_LIMITS(.playouts = 2000000, .stop_early = true);
    T_EQ(banyan_engine_search(e, &early, &r), BANYAN_OK);
    T_TRUE(r.playouts < 2000000);
    char buf[8];
    banyan_game_connect4.notation->format_move(banyan_engine_state(e), r.best, buf, sizeof buf);
    T_STR(buf, "g");
    /* Early stopping with playouts alone is deterministic. */
    uint64_t n = r.playouts;
    T_EQ(banyan_engine_load(e, "43516"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &early, &r), BANYAN_OK);
    T_EQ(r.playouts, n);
    /* Without it, the whole budget is used (no proof ends this one). */
    T_EQ(banyan_engine_setup(e, "book=off"), BANYAN_OK);
    banyan_limits full = BANYAN_LIMITS(.playouts = 30000);
    T_EQ(banyan_engine_search(e, &full, &r), BANYAN_OK);
    T_EQ(r.playouts, 30000);
    banyan_limits bad = BANYAN_LIMITS(.time = 1, .time_max = NAN);
    T_EQ(banyan_engine_search(e, &bad, &r), BANYAN_EINVAL);
    banyan_engine_free(e);
}
