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
    T_EQ(G->notation->load(s, moves), BANYAN_OK);
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

/* Known shapes: White to move against Black's open three h8 h9 h10; an
 * overline; renju's forbidden double three. */
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
    /* Two twos, h8 i8 and j9 j10, of the player to move: j8 makes a double
     * three, counted in freestyle (f[3], the mover's); under renju Black's
     * is a forbidden point that counts for nothing, White's still counts. */
    static const struct {
        const char *moves;
        double renju;
    } twos[] = {{"h8 a1 i8 o1 j9 a15 j10 o15", 0}, {"a1 h8 o1 i8 a15 j9 o15 j10 b3", 1}};
    for (size_t i = 0; i < sizeof twos / sizeof twos[0]; i++) {
        eval_load(&s, "", twos[i].moves);
        T_EQ(gmk_eval_features(&s, f), 0);
        T_NEAR(f[3], 1, 0);
        eval_load(&s, "rule=renju", twos[i].moves);
        T_EQ(gmk_eval_features(&s, f), 0);
        T_NEAR(f[3], twos[i].renju, 0);
    }
}

/* The model of gomoku.h computed here from its inputs and weights.c, in
 * double: the evaluation's value of every undecided position of random
 * games, and the hidden layer in use (it moves some value by 0.01). */
void test_gmk_eval_model(void)
{
    enum { H = GMK_EVAL_HIDDEN };
    const float *E = gmk_eval_hidden, *F = E + GMK_EVAL_PATTERNS * H,
                *b1 = F + GMK_EVAL_FEATURES * H;
    banyan_rng rng;
    int checked = 0, moved = 0;
    banyan_rng_seed(&rng, 21, 0);
    for (int game = 0; game < 40; game++) {
        eval_state s;
        double ret[2];
        T_EQ(G->setup(&s, ""), BANYAN_OK);
        for (int ply = 0; ply < 40 && !G->outcome(&s, ret); ply++) {
            double f[GMK_EVAL_FEATURES], a[H], z = 0, lin;
            uint16_t idx[2 * GMK_MAX * GMK_MAX + 1];
            banyan_move moves[BANYAN_MAX_MOVES];
            if (gmk_eval_features(&s, f) == 0) {
                int n = gmk_eval_patterns(&s, idx);
                for (int h = 0; h < H; h++)
                    a[h] = b1[h];
                for (int k = 0; k < GMK_EVAL_FEATURES; k++) {
                    z += gmk_eval_weights[k] * f[k];
                    for (int h = 0; h < H; h++)
                        a[h] += F[k * H + h] * f[k];
                }
                for (int i = 0; i < n; i++) {
                    z += gmk_eval_weights[GMK_EVAL_FEATURES + idx[i]];
                    for (int h = 0; h < H; h++)
                        a[h] += E[idx[i] * H + h];
                }
                lin = 1 / (1 + exp(-z));
                for (int h = 0; h < H; h++)
                    z += a[h] > 0 ? b1[H + h] * a[h] : 0;
                z += b1[2 * H];
                double v = eval_value(&s);
                if (fabs(v - 1 / (1 + exp(-z))) > 1e-4)
                    T_FAIL_AT("game %d, ply %d: value %g, the model %g", game, ply, v,
                              1 / (1 + exp(-z)));
                checked++;
                moved += fabs(v - lin) > 0.01;
            }
            int k = G->tactics->candidates(&s, moves);
            G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)k)]);
        }
    }
    T_TRUE(checked > 400);
    T_TRUE(moved > checked / 10);
}

/* The pattern table's entry for a line of 11 cells (the centre, 5, empty):
 * 'x' own, 'o' the opponent's or off the board, '.' empty. */
static unsigned eval_pattern(const char *line, bool exact)
{
    unsigned idx = 0;
    for (int k = 10; k >= 0; k--)
        if (k != 5)
            idx = idx * 3 + (line[k] == 'x' ? 1u : line[k] == '.' ? 2u : 0u);
    return GMK_LINE_PT(gmk_line_table[(exact ? 59049 : 0) + idx]);
}

/* The patterns of a line on known shapes, and pattern codes as multisets. */
void test_gmk_eval_patterns(void)
{
    T_EQ(eval_pattern("...........", false), GMK_PT_F1);
    T_EQ(eval_pattern("......x....", false), GMK_PT_F2);
    T_EQ(eval_pattern("......xx...", false), GMK_PT_F3);
    T_EQ(eval_pattern("....o.xx...", false), GMK_PT_B3);
    T_EQ(eval_pattern("......xxx..", false), GMK_PT_F4);
    T_EQ(eval_pattern("....o.xxx..", false), GMK_PT_B4);
    T_EQ(eval_pattern("...x..xx.x.", false), GMK_PT_F4); /* x.xxx.x: two fours. */
    T_EQ(eval_pattern("......xxxx.", false), GMK_PT_F5);
    T_EQ(eval_pattern("..o...x.o..", false), GMK_PT_B2); /* Room for one five. */
    T_EQ(eval_pattern("...oo.xoo..", false), GMK_PT_DEAD);
    /* Six in a row: a five in freestyle, nothing where overlines lose; a
     * four whose five point would make six is no four there. */
    T_EQ(eval_pattern(".xxxx.x....", false), GMK_PT_F5);
    T_EQ(eval_pattern(".xxxx.x....", true), GMK_PT_DEAD);
    T_EQ(eval_pattern("xxxx.......", false), GMK_PT_B4);
    T_TRUE(eval_pattern("xxxx.......", true) < GMK_PT_B3);
    /* Codes: the same multiset in any order, different multisets apart. */
    T_EQ(gmk_pc_table[6321], gmk_pc_table[1236]);
    T_EQ(gmk_pc_table[6321], gmk_pc_table[3612]);
    T_TRUE(gmk_pc_table[6321] != gmk_pc_table[6311]);
    T_EQ(gmk_pc_table[0], 0);
    T_EQ(gmk_pc_table[9999], GMK_PC_N - 1);
    T_EQ(gmk_pc_table[9000], GMK_PC_FIVE);
    T_EQ(gmk_pc_table[8888], GMK_PC_FIVE - 1);
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
        G->board->board_size(&s, &w, &h);
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
                T_EQ(G->board->place(&s, m, &xs[n], &ys[n]), BANYAN_PLACE_CELL);
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
                int k = G->tactics->candidates(&s, moves);
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

/* The learned priors (the pattern half of the mixed priors): a
 * distribution over the candidates, the same for a move and its image
 * under the eight symmetries, and the fitted weights put a five to make
 * first, then a five to stop. */
void test_gmk_priors_patterns(void)
{
    banyan_rng rng;
    banyan_rng_seed(&rng, 5, 0);
    for (int game = 0; game < 30; game++) {
        eval_state s;
        int xs[64], ys[64], n = 0, plies = 3 + (int)banyan_rng_below(&rng, 30);
        T_EQ(G->setup(&s, ""), BANYAN_OK);
        for (; n < plies; n++) {
            banyan_move moves[BANYAN_MAX_MOVES];
            int k = G->tactics->candidates(&s, moves);
            eval_state t = s;
            double ret[2];
            banyan_move m = moves[banyan_rng_below(&rng, (uint32_t)k)];
            G->play(&t, m);
            if (G->outcome(&t, ret))
                break;
            T_EQ(G->board->place(&s, m, &xs[n], &ys[n]), BANYAN_PLACE_CELL);
            s = t;
        }
        float p0[BANYAN_MAX_MOVES];
        banyan_move m0[BANYAN_MAX_MOVES];
        int k0 = 0;
        for (int k = 0; k < 8; k++) {
            char text[512] = "", cell[16];
            size_t used = 0;
            for (int i = 0; i < n; i++) {
                eval_map(k, 15, xs[i], 14 - ys[i], cell, sizeof cell);
                used += (size_t)snprintf(text + used, sizeof text - used, "%s ", cell);
            }
            eval_state t;
            banyan_move m[BANYAN_MAX_MOVES];
            float p[BANYAN_MAX_MOVES], sum = 0;
            eval_load(&t, "", text);
            int nm = G->moves(&t, m); /* Not candidates: their threat defence
                                       * may differ in order and budget. */
            gmk_priors_patterns((const gmk *)&t, m, nm, p);
            for (int i = 0; i < nm; i++)
                sum += p[i];
            T_NEAR(sum, 1, 1e-5);
            if (k == 0) {
                memcpy(p0, p, sizeof p);
                memcpy(m0, m, sizeof m);
                k0 = nm;
                continue;
            }
            T_EQ(nm, k0);
            for (int i = 0; i < k0; i++) { /* m0[i]'s image among m[]. */
                int x, y, j = 0;
                banyan_move mi;
                T_EQ(G->board->place(&s, m0[i], &x, &y), BANYAN_PLACE_CELL);
                eval_map(k, 15, x, 14 - y, cell, sizeof cell);
                T_EQ(G->notation->parse_move(&t, cell, &mi), BANYAN_OK);
                while (j < nm && m[j] != mi)
                    j++;
                T_TRUE(j < nm);
                if (j < nm && fabsf(p[j] - p0[i]) > 1e-5f)
                    T_FAIL_AT("game %d, symmetry %d: prior %g of %s, %g of its image", game, k,
                              p0[i], cell, p[j]);
            }
        }
    }
    /* Black's four h8 h9 h10 h11: Black to move fives at h7 or h12 rather
     * than stop White's four a1 .. a4; White to move stops one of them. */
    static const char *const tests[][2] = {{"h8 a1 h9 a2 h10 a3 h11 a4", "h7 h12"},
                                           {"h8 a1 h9 a3 h10 a5 h11", "h7 h12"}};
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        eval_state t;
        banyan_move m[BANYAN_MAX_MOVES];
        float p[BANYAN_MAX_MOVES];
        char buf[16];
        eval_load(&t, "candidates=all", tests[i][0]);
        int nm = G->moves(&t, m), best = 0;
        gmk_priors_patterns((const gmk *)&t, m, nm, p);
        for (int j = 1; j < nm; j++)
            best = p[j] > p[best] ? j : best;
        T_TRUE(G->notation->format_move(&t, m[best], buf, sizeof buf) > 0);
        if (!strstr(tests[i][1], buf))
            T_FAIL_AT("%s: largest prior %s (%g), not one of %s", tests[i][0], buf, p[best],
                      tests[i][1]);
    }
}

/* priors=mixed, the default: the normalised geometric mean of the threat
 * priors and the learned priors on random positions of freestyle and
 * standard, and the threat priors from the board under renju. */
void test_gmk_priors_mixed(void)
{
    static const char *const rules[] = {"", "rule=standard", "rule=renju"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 11, 0);
    for (size_t ri = 0; ri < sizeof rules / sizeof rules[0]; ri++)
        for (int game = 0; game < 20; game++) {
            eval_state s;
            T_EQ(G->setup(&s, rules[ri]), BANYAN_OK);
            int plies = 1 + (int)banyan_rng_below(&rng, 40);
            for (int n = 0; n < plies; n++) {
                banyan_move moves[BANYAN_MAX_MOVES];
                float p[3][BANYAN_MAX_MOVES], sum = 0;
                double ret[2];
                const gmk *t = (const gmk *)&s;
                int k = G->tactics->candidates(&s, moves);
                if (k == 0)
                    break;
                G->priors(&s, moves, k, p[0]);
                if (ri == 2)
                    gmk_priors_board(t, moves, k, p[1]);
                else
                    gmk_priors_lines(t, moves, k, p[1]);
                gmk_priors_patterns(t, moves, k, p[2]);
                for (int i = 0; i < k; i++)
                    sum += p[0][i];
                T_NEAR(sum, 1, 1e-5);
                double z = 0;
                for (int i = 0; i < k; i++)
                    z += sqrt((double)p[1][i] * p[2][i]);
                for (int i = 0; i < k; i++) {
                    double want = ri == 2 ? p[1][i] : sqrt((double)p[1][i] * p[2][i]) / z;
                    if (fabs(p[0][i] - want) > 1e-4 * want + 1e-9)
                        T_FAIL_AT("%s, ply %d, move %u: prior %g, want %g", rules[ri], n,
                                  (unsigned)moves[i], p[0][i], want);
                }
                G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)k)]);
                if (G->outcome(&s, ret))
                    break;
            }
        }
}
