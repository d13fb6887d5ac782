/*
 * eval.c - Othello's evaluation at the leaves of the search.
 */
#include "othello.h"

#include <math.h>

/* ---- The evaluation ----
 *
 * A logistic model of the mover's chance to win: each feature compares the
 * mover's side of the board with the opponent's (mobility, potential
 * mobility, frontier, corners, the X- and C-squares beside empty corners,
 * edges, stable discs, discs, parity), and each has two weights, one that
 * holds all game long and one that fades as the board fills (multiplied by
 * the share of the squares still empty), so that the mix moves from the
 * opening's to the endgame's. The weights are fitted to the results of
 * self-play games by tools/othello_eval.sh (tools/othello_eval.c). */

/* The model's inputs for p to move against o, into f (see othello.h). */
static void oth_eval_inputs(uint64_t p, uint64_t o, double *f)
{
    uint64_t filled = p | o, empty = ~filled;
    uint64_t danger_x = 0, danger_c = 0, full[4];
    for (int c = 0; c < 4; c++)
        if (empty & oth_corner_bit[c]) {
            danger_x |= oth_x_square[c];
            danger_c |= oth_c_squares[c];
        }
    const uint64_t edges = 0xff818181818181ffULL & ~OTH_CORNERS;
    oth_full_lines(filled, full);
    int empties = bits_count(empty);
    int mp = bits_count(oth_mobility(p, o)), mo = bits_count(oth_mobility(o, p));
    double x[OTH_EVAL_TERMS];
    x[0] = 1;
    x[1] = (mp - mo) / 8.0;
    x[2] = (double)(mp - mo) / (mp + mo + 2);
    x[3] = (bits_count(oth_neighbours(o) & empty) - bits_count(oth_neighbours(p) & empty)) / 8.0;
    x[4] = (bits_count(o & oth_neighbours(empty)) - bits_count(p & oth_neighbours(empty))) / 8.0;
    x[5] = bits_count(p & OTH_CORNERS) - bits_count(o & OTH_CORNERS);
    x[6] = bits_count(p & danger_x) - bits_count(o & danger_x);
    x[7] = bits_count(p & danger_c) - bits_count(o & danger_c);
    x[8] = (bits_count(p & edges & ~danger_c) - bits_count(o & edges & ~danger_c)) / 4.0;
    x[9] = (bits_count(oth_stable(p, full)) - bits_count(oth_stable(o, full))) / 4.0;
    x[10] = (bits_count(p) - bits_count(o)) / 8.0;
    x[11] = empties & 1 ? 1 : -1;
    double phase = empties / 60.0;
    for (int i = 0; i < OTH_EVAL_TERMS; i++) {
        f[2 * i] = x[i];
        f[2 * i + 1] = x[i] * phase;
    }
}

int oth_eval_features(const void *s, double *f)
{
    const oth *t = s;
    oth_eval_inputs(t->discs[t->turn], t->discs[!t->turn], f);
    return OTH_EVAL_FEATURES;
}

/* The model's weights, in the order of oth_eval_features (each term, then
 * the term times the share of empty squares). Fitted by
 * tools/othello_eval.sh (which prints them as this initialiser); see
 * docs/journal/2026-12-02-othello-evaluation.md. */
static const double oth_eval_w[OTH_EVAL_FEATURES] = {
    -0.302, 0.091,  0.750, -2.443, 4.905,  -3.051, -1.136, 2.188,  2.489, -3.638, 0.043, 1.643,
    -0.339, -0.774, 0.011, -0.097, -0.028, 0.652,  0.915,  -0.563, 0.484, -1.289, 0.654, -0.839,
};

/* The model's log-odds that p, to move against o, wins. */
double oth_eval_logit(uint64_t p, uint64_t o)
{
    double f[OTH_EVAL_FEATURES], z = 0;
    oth_eval_inputs(p, o, f);
    for (int i = 0; i < OTH_EVAL_FEATURES; i++)
        z += oth_eval_w[i] * f[i];
    return z;
}

/* The value of the leaf for each player; the priors come from priors(). */
bool oth_evaluate(const void *s, double *returns, const banyan_move *moves, int n, float *priors)
{
    const oth *t = s;
    (void)moves;
    (void)n;
    (void)priors;
    if (!returns)
        return false;
    double v = 1 / (1 + exp(-oth_eval_logit(t->discs[t->turn], t->discs[!t->turn])));
    returns[t->turn] = v;
    returns[!t->turn] = 1 - v;
    return false;
}
