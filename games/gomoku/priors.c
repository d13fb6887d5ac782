/*
 * priors.c - Gomoku's priors, the game table's priors: uniform for the
 * textbook player (priors=off); by default (priors=mixed) the geometric
 * mean of two halves, the threat priors and the learned priors, from one
 * pass over the line words (gomoku.h) and their tables; under renju the
 * threat priors alone, from the byte board, since Black's threes and
 * forbidden points need it.
 *
 * The threat priors score each candidate for both players from the shape
 * it makes in each of the four lines through it. The learned priors read
 * the evaluation's pattern codes (eval.c): a softmax of a weight per
 * mover's code, per opponent's code and per distance from the last move,
 * fitted to the moves another engine chose (weights.c).
 */
#include "gomoku.h"

#include <math.h>
#include <stdlib.h>

/* The shape colour col makes by playing at empty p along d. b is restored. */
static int gmk_shape(uint8_t *b, int p, int d, int col, bool exact, bool renju_black)
{
    unsigned own, emp, fp;
    int run = gmk_run(b, p, d, col), best = 0;
    if (run == 5 || (run > 5 && !exact))
        return GMK_SH_FIVE;
    if (run > 5)
        return GMK_SH_OVER;
    gmk_line(b, p, d, col, &own, &emp);
    fp = gmk_fp(own, emp, exact);
    if (fp)
        return gmk_fours(fp) >= 2 || gmk_straight(fp) ? GMK_SH_FOUR2 : GMK_SH_FOUR;
    for (int s = 1; s <= 5; s++) {
        unsigned win = 0x1fu << s;
        int k = gmk_pop5[(own >> s) & 31];
        if (!(win & ~(own | emp)) && k > best)
            best = k;
    }
    if (best >= 3) {
        if (renju_black) {
            b[p] = (uint8_t)col;
            bool three = gmk_renju_three(b, p, d, own, emp, 1);
            b[p] = 0;
            if (three)
                return GMK_SH_OPEN3;
        } else {
            for (int i = 1; i <= 9; i++) {
                unsigned bit = 1u << i;
                if ((emp & bit) && gmk_straight(gmk_fp(own | bit, emp & ~bit, exact)))
                    return GMK_SH_OPEN3;
            }
        }
        return GMK_SH_THREE;
    }
    return best;
}

/* The prior tier (GMK_T_*, or 0) of a point for one colour from the shapes
 * sh[4] it makes in the four lines, and the sum of their weights into *sum. */
static int gmk_tier(const unsigned *sh, float *sum)
{
    static const float weight[] = {0, 1, 6, 30, 120, 150, 600, 0, 0};
    int fours = 0, open3 = 0;
    *sum = 0;
    for (int i = 0; i < 4; i++) {
        if (sh[i] == GMK_SH_FIVE)
            return GMK_T_FIVE;
        fours += sh[i] == GMK_SH_FOUR ? 1 : sh[i] == GMK_SH_FOUR2 ? 2 : 0;
        open3 += sh[i] == GMK_SH_OPEN3;
        *sum += weight[sh[i]];
    }
    if (fours >= 2 || (fours && open3))
        return GMK_T_WIN;
    if (open3 >= 2)
        return GMK_T_33;
    return 0;
}

/* The unnormalised prior of a point from the mover's tier and sum and the
 * opponent's (a tier below 0: a point forbidden to him). */
static float gmk_prior_value(int tm, int tt, float mine, float theirs)
{
    if (tm == GMK_T_FIVE)
        return 1e7f;
    if (tt == GMK_T_FIVE)
        return 1e6f;
    if (tm == GMK_T_WIN)
        return 1e5f + mine;
    if (tt == GMK_T_WIN)
        return 2e3f + theirs;
    if (tm == GMK_T_33)
        return 5e3f + mine;
    return 1.0f + mine + 0.8f * (tt < 0 ? 0 : theirs) + (tt == GMK_T_33 ? 1000.0f : 0);
}

/* Scores p for colour col: a tier (-1 for a point forbidden to renju's
 * Black) and a sum of per-line weights. */
static int gmk_point(uint8_t *b, int p, int col, bool exact, bool renju_black, float *sum)
{
    unsigned sh[4];
    for (int i = 0; i < 4; i++)
        sh[i] = (unsigned)gmk_shape(b, p, gmk_dirs[i], col, exact, renju_black);
    int tier = gmk_tier(sh, sum);
    if (tier != GMK_T_FIVE && renju_black && gmk_forbidden_at(b, p, 0))
        return -1;
    return tier;
}

/* Scales out[0 .. n - 1] to sum to 1. */
static void gmk_priors_normalise(float *out, int n)
{
    float total = 0;
    for (int i = 0; i < n; i++)
        total += out[i];
    for (int i = 0; i < n; i++)
        out[i] /= total;
}

/* Priors in tiers: make five, block five, make a winning shape (straight or
 * double four, four-three), make a double three, stop the opponent's
 * winning shape, then the sum of line weights for the mover plus most of
 * the opponent's. The stop's tier is low enough (2e3, about ten times an
 * ordinary point) that the other defences of an open three, which take no
 * such point, keep a share: at 2e4 the search rarely looked at them (0.2 s
 * a move, 53.0% in 320 games against 2e4;
 * docs/journal/2026-12-03-final-check-stop-prior.md). */
void gmk_priors_board(const gmk *t, const banyan_move *moves, int n, float *out)
{
    gmk_board g;
    int me = t->ply & 1, size = t->size;
    gmk_board_load(t, &g);
    for (int i = 0; i < n; i++) {
        int p = gmk_bidx((int)moves[i] / size, (int)moves[i] % size);
        float mine, theirs;
        int tm = gmk_point(g.b, p, me + 1, g.exact[me], g.renju && me == 0, &mine);
        int tt = gmk_point(g.b, p, 2 - me, g.exact[!me], g.renju && me == 1, &theirs);
        out[i] = gmk_prior_value(tm, tt, mine, theirs);
    }
    gmk_priors_normalise(out, n);
}

/* One pass over moves[0 .. n - 1] of t for the priors: with tv, each
 * move's threat-tier value (gmk_prior_value, unnormalised); with codes,
 * its GMK_POLICY_CODES policy inputs (gmk_policy_codes). */
static void gmk_priors_scan(const gmk *t, const banyan_move *moves, int n, float *tv,
                            uint16_t *codes)
{
    gmk_eval_lines L;
    int me = t->ply & 1, size = t->size;
    gmk_eval_build(t, &L);
    for (int i = 0; i < n; i++) {
        unsigned e[2][4];
        int r = (int)moves[i] / size, c = (int)moves[i] % size;
        gmk_eval_at(&L, r, c, e);
        if (tv) {
            unsigned sh[2][4];
            float score[2];
            int tier[2];
            for (int col = 0; col < 2; col++) {
                for (int k = 0; k < 4; k++)
                    sh[col][k] = GMK_LINE_SH(e[col][k]);
                tier[col] = gmk_tier(sh[col], &score[col]);
            }
            tv[i] = gmk_prior_value(tier[me], tier[!me], score[me], score[!me]);
        }
        if (codes) {
            uint16_t *code = codes + GMK_POLICY_CODES * i;
            for (int k = 0; k < 2; k++)
                code[k] = (uint16_t)(k * GMK_PC_N + gmk_eval_code(e[k ? !me : me]));
            int dist = 4; /* The distance from the last move, 1 .. 3, else 4. */
            if (t->last != GMK_NO_CELL) {
                int dr = abs(r - t->last / size), dc = abs(c - t->last % size);
                dist = dr > dc ? dr : dc;
                dist = dist < 1 ? 1 : dist > 4 ? 4 : dist;
            }
            code[2] = (uint16_t)(2 * GMK_PC_N + dist - 1);
        }
    }
}

void gmk_priors_lines(const gmk *t, const banyan_move *moves, int n, float *out)
{
    gmk_priors_scan(t, moves, n, out, NULL);
    gmk_priors_normalise(out, n);
}

void gmk_policy_codes(const gmk *t, const banyan_move *moves, int n, uint16_t *codes)
{
    gmk_priors_scan(t, moves, n, NULL, codes);
}

/* The policy's logits of n moves from their codes into out; returns the
 * largest. Fives first, as the threat priors have them: the fit never
 * sees them, since the candidates then hold nothing else to choose. */
static float gmk_policy_logits(const uint16_t *codes, int n, float *out)
{
    float top = -1e30f;
    for (int i = 0; i < n; i++) {
        const uint16_t *c = codes + GMK_POLICY_CODES * i;
        out[i] = gmk_policy_weights[c[0]] + gmk_policy_weights[c[1]] + gmk_policy_weights[c[2]];
        out[i] += c[0] >= GMK_PC_FIVE ? 40.0f : c[1] >= GMK_PC_N + GMK_PC_FIVE ? 20.0f : 0.0f;
        top = out[i] > top ? out[i] : top;
    }
    return top;
}

void gmk_priors_patterns(const gmk *t, const banyan_move *moves, int n, float *out)
{
    uint16_t codes[GMK_POLICY_CODES * BANYAN_MAX_MOVES];
    gmk_policy_codes(t, moves, n, codes);
    float top = gmk_policy_logits(codes, n, out);
    for (int i = 0; i < n; i++)
        out[i] = expf(out[i] - top);
    gmk_priors_normalise(out, n);
}

void gmk_priors_mixed(const gmk *t, const banyan_move *moves, int n, float *out)
{
    uint16_t codes[GMK_POLICY_CODES * BANYAN_MAX_MOVES];
    float tv[BANYAN_MAX_MOVES];
    gmk_priors_scan(t, moves, n, tv, codes);
    float top = gmk_policy_logits(codes, n, out);
    /* The geometric mean of the two (normalising either first would only
     * scale every move alike). */
    for (int i = 0; i < n; i++)
        out[i] = sqrtf(tv[i]) * expf(0.5f * (out[i] - top));
    gmk_priors_normalise(out, n);
}

/* Uniform for the textbook player; under renju the threat priors from the
 * board (Black's threes and forbidden points need it); otherwise the mixed
 * priors, from the line tables, which give the same shapes several times
 * faster. */
void gmk_priors(const void *s, const banyan_move *moves, int n, float *out)
{
    const gmk *t = s;
    if (t->priors == GMK_PRIORS_OFF) {
        for (int i = 0; i < n; i++)
            out[i] = 1.0f / (float)n;
    } else if (t->rule == GMK_RENJU) {
        gmk_priors_board(t, moves, n, out);
    } else {
        gmk_priors_mixed(t, moves, n, out);
    }
}
