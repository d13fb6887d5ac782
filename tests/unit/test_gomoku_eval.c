/*
 * test_gomoku_eval.c - Gomoku's static evaluation: exact values where fives
 * decide, forced blocks followed, the model's inputs counted alike under the
 * eight symmetries of the board (which checks the line geometry: rows,
 * columns, both diagonals and the edges), and counts on known shapes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "banyan_game.h"
#include "gomoku/gomoku.h"
#include "t.h"

#define G (&banyan_game_gomoku)

typedef struct eval_state {
    uint64_t words[64]; /* Room for a state, aligned. */
} eval_state;

static void eval_load(eval_state *s, const char *params, const char *moves)
{
    T_TRUE(G->state_size <= sizeof *s);
    T_EQ(G->setup(s, params), BANYAN_OK);
    T_EQ(G->load(s, moves), BANYAN_OK);
}

/* The evaluation's value for the player to move. */
static double eval_value(const eval_state *s)
{
    double ret[2];
    T_TRUE(!G->evaluate(s, ret, NULL, 0, NULL));
    T_NEAR(ret[0] + ret[1], 1, 1e-12);
    return ret[G->to_move(s)];
}

void test_gmk_eval_exact(void)
{
    eval_state s, t;
    /* Black to move with four in a row: a five to make. */
    eval_load(&s, "", "h8 a1 h9 a3 h10 a5 h11 a7");
    T_NEAR(eval_value(&s), 1, 0);
    T_EQ(gmk_eval_features(&s, (double[GMK_EVAL_FEATURES]){0}), 1);
    /* White to move against an open four: two fives to stop. */
    eval_load(&s, "", "h8 a1 h9 a3 h10 a5 h11");
    T_NEAR(eval_value(&s), 0, 0);
    T_EQ(gmk_eval_features(&s, (double[GMK_EVAL_FEATURES]){0}), -2);
    /* One five to stop: the value is that of the position after the block,
     * seen from the other side. */
    eval_load(&s, "", "h8 a1 h9 a3 h10 h11 i9");
    T_EQ(gmk_eval_features(&s, (double[GMK_EVAL_FEATURES]){0}), 0);
    eval_load(&s, "", "h8 a1 h9 a3 h10 h11 a5 o15 h7");
    T_EQ(gmk_eval_features(&s, (double[GMK_EVAL_FEATURES]){0}), -1); /* h6 to block. */
    eval_load(&t, "", "h8 a1 h9 a3 h10 h11 a5 o15 h7 h6");
    T_NEAR(eval_value(&s), 1 - eval_value(&t), 1e-12);
    /* Values stay inside (0, 1) otherwise, and the start is near even. */
    eval_load(&s, "", "");
    T_TRUE(fabs(eval_value(&s) - 0.5) < 0.2);
}

/* Known shapes: White to move against Black's open three h8 h9 h10. */
void test_gmk_eval_counts(void)
{
    eval_state s;
    double f[GMK_EVAL_FEATURES];
    eval_load(&s, "", "h8 a1 h9 a3 h10");
    T_EQ(gmk_eval_features(&s, f), 0);
    T_NEAR(f[0], 1, 0);
    T_NEAR(f[2], 2, 0);          /* h7 and h11 make a straight four. */
    T_NEAR(f[6], sqrt(2), 1e-9); /* h6 and h12 make a four. */
    T_NEAR(f[1], 0, 0);          /* White has nothing. */
    T_NEAR(f[5], 0, 0);
    /* h11 would join five and two stones: a five in freestyle, an overline
     * that does not win under the standard rule. */
    eval_load(&s, "", "h8 a1 h9 a3 h10 a5 h12 a7 h13");
    T_EQ(gmk_eval_features(&s, f), -1);
    eval_load(&s, "rule=standard", "h8 a1 h9 a3 h10 a5 h12 a7 h13");
    T_EQ(gmk_eval_features(&s, f), 0);
}

/* The cell of (x, y) under symmetry k of an n x n board, in "a1" text. */
static void eval_map(int k, int n, int x, int y, char *buf, size_t len)
{
    int a = x, b = y;
    if (k & 1)
        a = n - 1 - a;
    if (k & 2)
        b = n - 1 - b;
    if (k & 4) {
        int c = a;
        a = b;
        b = c;
    }
    snprintf(buf, len, "%c%d", 'a' + a, b + 1);
}

/* Random positions, each in its eight symmetric forms, on a 15 and an odd
 * 9 board and under every rule: the same inputs and the same value. */
void test_gmk_eval_symmetry(void)
{
    static const char *const params[] = {"", "size=9", "rule=standard", "size=19 rule=standard"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 99, 0);
    for (size_t pi = 0; pi < sizeof params / sizeof params[0]; pi++) {
        eval_state s;
        T_EQ(G->setup(&s, params[pi]), BANYAN_OK);
        int w, h;
        G->board_size(&s, &w, &h);
        for (int game = 0; game < 40; game++) {
            int xs[64], ys[64], n = 0, plies = 4 + (int)banyan_rng_below(&rng, 40);
            T_EQ(G->setup(&s, params[pi]), BANYAN_OK);
            for (; n < plies; n++) {
                banyan_move moves[BANYAN_MAX_MOVES];
                int k = G->moves(&s, moves);
                if (k == 0)
                    break;
                banyan_move m = moves[banyan_rng_below(&rng, (uint32_t)k)];
                eval_state t = s;
                G->play(&t, m);
                double ret[2];
                if (G->outcome(&t, ret))
                    break;
                T_EQ(G->place(&s, m, &xs[n], &ys[n]), BANYAN_PLACE_CELL);
                s = t;
            }
            double f0[GMK_EVAL_FEATURES], v0 = 0;
            for (int k = 0; k < 8; k++) {
                char text[512] = "", cell[16];
                size_t used = 0;
                for (int i = 0; i < n; i++) {
                    /* y from the top: row number w - y from the bottom. */
                    eval_map(k, w, xs[i], w - 1 - ys[i], cell, sizeof cell);
                    used += (size_t)snprintf(text + used, sizeof text - used, "%s ", cell);
                }
                eval_state t;
                eval_load(&t, params[pi], text);
                double f[GMK_EVAL_FEATURES];
                int rc = gmk_eval_features(&t, f), rc0 = 0;
                double v = eval_value(&t);
                if (k == 0) {
                    memcpy(f0, f, sizeof f);
                    v0 = v;
                    rc0 = rc;
                    continue;
                }
                (void)rc0;
                for (int i = 0; i < GMK_EVAL_FEATURES; i++)
                    if (f[i] != f0[i])
                        T_FAIL_AT("%s: input %d differs under symmetry %d: %g, %g", params[pi], i,
                                  k, f0[i], f[i]);
                T_NEAR(v, v0, 1e-12);
            }
        }
    }
}

/* The priors from the line tables equal those from the board, on random
 * positions of every size and rule but renju (which keeps the board). */
void test_gmk_priors_lines(void)
{
    static const char *const params[] = {"", "size=9", "rule=standard", "size=22",
                                         "size=19 rule=standard"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 7, 0);
    for (size_t pi = 0; pi < sizeof params / sizeof params[0]; pi++)
        for (int game = 0; game < 30; game++) {
            eval_state s;
            T_EQ(G->setup(&s, params[pi]), BANYAN_OK);
            int plies = (int)banyan_rng_below(&rng, 60);
            for (int n = 0; n < plies; n++) {
                banyan_move moves[BANYAN_MAX_MOVES];
                float a[BANYAN_MAX_MOVES], b[BANYAN_MAX_MOVES];
                int k = G->candidates(&s, moves);
                if (k == 0)
                    break;
                gmk_priors_board((const gmk *)&s, moves, k, a);
                gmk_priors_lines((const gmk *)&s, moves, k, b);
                for (int i = 0; i < k; i++)
                    if (fabsf(a[i] - b[i]) > 1e-6f * a[i])
                        T_FAIL_AT("%s, ply %d, move %u: prior %g from the board, %g from lines",
                                  params[pi], n, (unsigned)moves[i], a[i], b[i]);
                G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)k)]);
            }
        }
}
