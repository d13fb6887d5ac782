/*
 * eval.c - Gomoku's static evaluation: the value of a position for the
 * player to move, from the threats each side can make in one move.
 *
 * Every empty cell near the stones is rated for both colours from the four
 * lines through it, one lookup a line in gmk_line_table (the line bits the
 * VCT uses: a five, a four, two five points, an open three; the shape the
 * priors read; the pattern), and falls into
 * one class per colour: a five; a winning shape (a straight or double four,
 * or a four with an open three); a double three; a four; an open three.
 * Below those classes the line shapes give four quieter counts per colour: a three (open or not)
 * with another three or two in a second line; two twos in two lines; a three that is not open (a
 * four next); a single two. Each cell also gets a pattern code per colour: the multiset of its four
 * line patterns (what a stone there makes of each line, from a dead line
 * to a five), one of GMK_PC_N.
 * Under renju a cell where Black's winning shape or double three is a
 * forbidden point counts for nothing.
 * Forced moves are followed exactly: a five to make wins, two fives to
 * stop lose, one five to stop is blocked and the position after the block
 * is evaluated for the opponent. Otherwise a logistic model gives the
 * value: a weight per class count and quiet count of both sides, per
 * pattern code of each near cell (the mover's and the opponent's apart),
 * and per threat mask (which classes each side has), plus a hidden layer
 * of 16 units over the same inputs (gomoku.h), fitted to another
 * engine's evaluations of positions (tools/fit_patterns.c writes
 * weights.c; docs/journal/2026-12-05-deviated-positions.md has the data
 * and the fit).
 *
 * The priors (priors.c) read the same line words and tables.
 */
#include "gomoku.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Classes of a cell for one colour, strongest first. */
enum { GMK_C_FIVE, GMK_C_WIN, GMK_C_33, GMK_C_FOUR, GMK_C_THREE, GMK_C_N };

/* Forced blocks followed before the model decides. */
#define GMK_EVAL_FORCED 8

/* The class of a cell for one colour from the sum of its gmk_line_table
 * counts (its lines with a five, its fours, its threes). GMK_C_N: nothing
 * worth counting. */
static int gmk_eval_class(unsigned sum)
{
    unsigned fours = GMK_LINE_LANE(sum, 1), threes = GMK_LINE_LANE(sum, 2);
    if (GMK_LINE_LANE(sum, 0))
        return GMK_C_FIVE;
    if (fours >= 2 || (fours == 1 && threes >= 1))
        return GMK_C_WIN;
    if (threes >= 2)
        return GMK_C_33;
    return fours ? GMK_C_FOUR : threes ? GMK_C_THREE : GMK_C_N;
}

/* The quieter shapes of a cell for one colour, below the classes: counted
 * for the cells of class GMK_C_THREE or none, from the sum of its
 * gmk_line_table counts (its lines of each shape). */
enum { GMK_Q_32, GMK_Q_22, GMK_Q_3, GMK_Q_2, GMK_Q_N };

static void gmk_eval_quiet(unsigned sum, int k, int *q)
{
    unsigned n3 = GMK_LINE_LANE(sum, 3), n2 = GMK_LINE_LANE(sum, 4);
    if (n3 && n3 + n2 >= 2)
        q[GMK_Q_32]++; /* A three (open or not) and another line. */
    if (k == GMK_C_THREE)
        return;
    if (!n3 && n2 >= 2)
        q[GMK_Q_22]++; /* Two twos: a double three next. */
    if (n3)
        q[GMK_Q_3]++; /* A three that is not open: a four next. */
    else if (n2 == 1)
        q[GMK_Q_2]++;
}

/* Counts the classes of every empty cell within distance 2 of a stone, per
 * colour (n[0] Black's, n[1] White's), and notes one five point of each
 * colour in five[] (BANYAN_MOVE_NONE: none), as a move. With pc, appends
 * each cell's pattern codes there, the mover's then the opponent's plus
 * GMK_PC_N, counted in *npc. */
static void gmk_eval_count(const gmk *t, int n[2][GMK_C_N], banyan_move five[2], int q[2][GMK_Q_N],
                           uint16_t *pc, int *npc)
{
    gmk_eval_lines L;
    gmk_board g; /* Renju: loaded when a Black cell needs the forbidden check. */
    bool loaded = false;
    int size = t->size, me = t->ply & 1;
    gmk_eval_build(t, &L);
    memset(n, 0, sizeof(int) * 2 * GMK_C_N);
    memset(q, 0, sizeof(int) * 2 * GMK_Q_N);
    five[0] = five[1] = BANYAN_MOVE_NONE;
    for (int wi = 0; wi < GMK_WORDS; wi++)
        for (uint64_t bits = t->near[wi]; bits; bits &= bits - 1) {
            int cell = wi * 64 + bits_low(bits), r = cell / GMK_STRIDE, c = cell % GMK_STRIDE;
            unsigned v[2][4];
            gmk_eval_at(&L, r, c, v);
            for (int col = 0; pc && col < 2; col++)
                pc[(*npc)++] = (uint16_t)((col != me) * GMK_PC_N + gmk_eval_code(v[col]));
            for (int col = 0; col < 2; col++) {
                unsigned sum = GMK_LINE_COUNTS(v[col][0]) + GMK_LINE_COUNTS(v[col][1]) +
                               GMK_LINE_COUNTS(v[col][2]) + GMK_LINE_COUNTS(v[col][3]);
                int k = gmk_eval_class(sum);
                if (col == 0 && t->rule == GMK_RENJU && (k == GMK_C_WIN || k == GMK_C_33)) {
                    /* A double four or three forbidden to Black is none. */
                    if (!loaded)
                        gmk_board_load(t, &g);
                    loaded = true;
                    if (gmk_forbidden_at(g.b, gmk_bidx(r, c), 0))
                        continue;
                }
                if (k != GMK_C_N)
                    n[col][k]++;
                if (k == GMK_C_FIVE)
                    five[col] = (banyan_move)(r * size + c);
                if (k != GMK_C_N && k != GMK_C_THREE)
                    continue;
                gmk_eval_quiet(sum, k, q[col]);
            }
        }
}

/* Appends to the np pattern inputs of idx[] (gmk_eval_count's codes) the
 * threat mask for the player to move (me): which classes from WIN to THREE
 * each side has; returns their number. */
static int gmk_eval_mask(int n[2][GMK_C_N], int me, uint16_t *idx, int np)
{
    unsigned mask = 0;
    for (int r = 0; r < 2; r++)
        for (int k = GMK_C_WIN; k <= GMK_C_THREE; k++)
            mask |= (n[r ? !me : me][k] > 0 ? 1u : 0u) << (r * 4 + k - GMK_C_WIN);
    idx[np++] = (uint16_t)(2 * GMK_PC_N + mask);
    return np;
}

/* The model's inputs for the player to move (me) from the class counts. */
static void gmk_eval_inputs(int n[2][GMK_C_N], int q[2][GMK_Q_N], int me, double *f)
{
    int op = !me;
    f[0] = 1;
    f[1] = n[me][GMK_C_WIN] < 3 ? n[me][GMK_C_WIN] : 3;
    f[2] = n[op][GMK_C_WIN] < 3 ? n[op][GMK_C_WIN] : 3;
    f[3] = n[me][GMK_C_33] < 4 ? n[me][GMK_C_33] : 4;
    f[4] = n[op][GMK_C_33] < 4 ? n[op][GMK_C_33] : 4;
    f[5] = sqrt(n[me][GMK_C_FOUR]);
    f[6] = sqrt(n[op][GMK_C_FOUR]);
    f[7] = sqrt(n[me][GMK_C_THREE]);
    f[8] = sqrt(n[op][GMK_C_THREE]);
    for (int i = 0; i < GMK_Q_N; i++) {
        f[9 + 2 * i] = sqrt(q[me][i]);
        f[10 + 2 * i] = sqrt(q[op][i]);
    }
}

/* The model's z (gomoku.h, weights.c) from the class inputs f and the np
 * pattern inputs pc[]. */
static double gmk_eval_z(const double *f, const uint16_t *pc, int np)
{
    enum { H = GMK_EVAL_HIDDEN };
    const float *F = gmk_eval_hidden + GMK_EVAL_PATTERNS * H, *b1 = F + GMK_EVAL_FEATURES * H;
    const float *w2 = b1 + H, b2 = w2[H];
    double a[H], z = 0; /* Sums in double: the same under symmetry. */
    for (int i = 0; i < GMK_EVAL_FEATURES; i++)
        z += gmk_eval_weights[i] * f[i];
    for (int h = 0; h < H; h++)
        a[h] = b1[h];
    for (int i = 0; i < np; i++) {
        const float *e = gmk_eval_hidden + pc[i] * H;
        z += gmk_eval_weights[GMK_EVAL_FEATURES + pc[i]];
        for (int h = 0; h < H; h++)
            a[h] += e[h];
    }
    for (int k = 0; k < GMK_EVAL_FEATURES; k++)
        for (int h = 0; h < H; h++)
            a[h] += F[k * H + h] * f[k];
    for (int h = 0; h < H; h++)
        z += a[h] > 0 ? w2[h] * a[h] : 0;
    return z + b2;
}

/* The value of t for the player to move. A position decided by fives is
 * exact (0 or 1); forced blocks are played on a copy, at most depth more. */
static double gmk_eval_value(const gmk *t, int depth)
{
    int n[2][GMK_C_N], q[2][GMK_Q_N], me = t->ply & 1, np = 0;
    banyan_move five[2];
    uint16_t pc[2 * GMK_MAX * GMK_MAX + 1];
    double f[GMK_EVAL_FEATURES];
    gmk_eval_count(t, n, five, q, pc, &np);
    if (n[me][GMK_C_FIVE])
        return 1;
    if (n[!me][GMK_C_FIVE] >= 2)
        return 0;
    if (n[!me][GMK_C_FIVE] == 1 && depth > 0) {
        gmk copy = *t;
        banyan_game_gomoku.play(&copy, five[!me]);
        if (gmk_is_over(&copy)) /* Renju: a forbidden block loses for Black. */
            return copy.winner == me ? 1 : 0;
        return 1 - gmk_eval_value(&copy, depth - 1);
    }
    gmk_eval_inputs(n, q, me, f);
    np = gmk_eval_mask(n, me, pc, np);
    return 1 / (1 + exp(-gmk_eval_z(f, pc, np)));
}

bool gmk_evaluate(const void *s, double *returns, const banyan_move *moves, int n, float *priors)
{
    const gmk *t = s;
    int me = t->ply & 1;
    (void)moves, (void)n, (void)priors;
    if (!returns)
        return false; /* The priors are gmk_priors', from the same line shapes. */
    double v = gmk_eval_value(t, GMK_EVAL_FORCED);
    returns[me] = v;
    returns[!me] = 1 - v;
    return false; /* The priors are gmk_priors', from the same line shapes. */
}

int gmk_eval_features(const void *s, double *f)
{
    const gmk *t = s;
    int n[2][GMK_C_N], q[2][GMK_Q_N], me = t->ply & 1;
    banyan_move five[2];
    gmk_eval_count(t, n, five, q, NULL, NULL);
    gmk_eval_inputs(n, q, me, f);
    return n[me][GMK_C_FIVE] ? 1 : n[!me][GMK_C_FIVE] ? -1 - (n[!me][GMK_C_FIVE] >= 2) : 0;
}

int gmk_eval_patterns(const void *s, uint16_t *idx)
{
    const gmk *t = s;
    int n[2][GMK_C_N], q[2][GMK_Q_N], np = 0;
    banyan_move five[2];
    gmk_eval_count(t, n, five, q, idx, &np);
    return gmk_eval_mask(n, t->ply & 1, idx, np);
}
