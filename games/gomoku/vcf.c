/*
 * vcf.c - Gomoku's VCF (victory by continuous fours), fast enough for
 * every node the search expands: the game table's prove_win, and the
 * search that the defence behind the candidates (defence.c) runs for the
 * opponent. Its workspace lives on the stack.
 */
#include "prover.h"

#include <string.h>

#define GMK_VCF_NODES   2000 /* Attacker moves tried per VCF call. */
#define GMK_VCF_TT_FROM 8    /* Attacker moves tried before a VCF starts its table. */

/*
 * The VCF solver: victory by continuous fours for the player to move. The
 * attacker plays only moves that make a four; the defender's answer is then
 * forced (the one five point), unless the defender has a five of his own,
 * which ends the line as a failure. Each attacker node keeps the list of the
 * attacker's four-making moves, rebuilt from its parent's: only cells on the
 * lines through the two new stones can change.
 *
 * The same position comes back by other orders of the same fours, and a
 * search that fails tries them all: once a call has tried GMK_VCF_TT_FROM
 * moves (most calls end sooner, and never clear the table), the positions
 * proven to fail are kept in a small table, keyed by the stones the VCF
 * placed, and not searched again. A position's outcome does not depend on
 * the order that reached it (its list is all four-making moves, its depth
 * the number of fours played), and a search cut short by the budget is
 * never kept.
 */

/* The stones of an 11-cell mask m (centre bit 5) within 4 of its centre. */
static inline int gmk_near_stones(unsigned m)
{
    return gmk_pop5[(m >> 1) & 31] + gmk_pop5[(m >> 6) & 15];
}

/* The five points of colour col that its stone at p (on the board) makes,
 * into out; returns their number (distinct cells). */
static int gmk_vcf_fives(gmk_vcf *v, int p, int col, int *out)
{
    int n = 0;
    for (int i = 0; i < 4; i++) {
        unsigned own, emp, fp;
        gmk_lines_masks(&v->L, p, i, col, &own, &emp);
        if (gmk_near_stones(own) < 4)
            continue; /* A five point needs four stones within 4 of it, p's among them. */
        fp = gmk_fp(own, emp, v->g.exact[col - 1]);
        for (int k = 0; k < 11; k++) {
            if (!((fp >> k) & 1))
                continue;
            int q = p + (k - 5) * gmk_dirs[i], j = 0;
            while (j < n && out[j] != q)
                j++;
            if (j == n && n < 8)
                out[n++] = q;
        }
    }
    return n;
}

/* Whether colour col playing at empty p has a five point along
 * gmk_dirs[i]. */
static bool gmk_vcf_fp(gmk_vcf *v, int p, int i, int col)
{
    unsigned own, emp;
    gmk_lines_masks(&v->L, p, i, col, &own, &emp);
    return gmk_fp(own, emp, v->g.exact[col - 1]) != 0;
}

/* Whether colour col playing at empty p makes a four (a five point) along
 * gmk_dirs[i]: the tables' four, or where they see a five, the five points
 * that come with it. */
static inline bool gmk_vcf_four_along(gmk_vcf *v, int p, int i, int col)
{
    int pos;
    const uint32_t *w = gmk_lines_at(&v->L, p, i, &pos);
    unsigned sh = (unsigned)pos - 5, mine = w[col - 1] >> sh;
    if (gmk_near_stones(mine) < 3)
        return false; /* A four needs three stones within 4 of p. */
    unsigned ls =
        gmk_ls_table[gmk_ls_base3[mine & 0x7ff] + 2u * gmk_ls_base3[(w[2] >> sh) & 0x7ff]] >>
        (v->g.exact[col - 1] ? 4 : 0);
    return ls & GMK_LS_FOUR || (ls & GMK_LS_FIVE && gmk_vcf_fp(v, p, i, col));
}

/* Whether colour col playing at empty p makes at least one four. */
bool gmk_vcf_makes_four(gmk_vcf *v, int p, int col)
{
    for (int i = 0; i < 4; i++)
        if (gmk_vcf_four_along(v, p, i, col))
            return true;
    return false;
}

/* Puts val (0, 1 or 2) on cell p of the VCF's board and line words. */
static inline void gmk_vcf_put(gmk_vcf *v, int p, int val)
{
    v->g.b[p] = (uint8_t)val;
    gmk_lines_set(&v->L, p, val);
}

/* Whether cells p and q share a line within distance k. */
static inline bool gmk_vcf_aligned(int p, int q, int k)
{
    int dr = (p >> 5) - (q >> 5), dc = (p & 31) - (q & 31);
    int ar = dr < 0 ? -dr : dr, ac = dc < 0 ? -dc : dc;
    return (ar == 0 || ac == 0 || ar == ac) && ar <= k && ac <= k;
}

/* The key of a stone of colour col on cell p in the VCF's table; a
 * position's key is the exclusive or of its placed stones'. Two positions
 * share a key only by chance, which can hide a proof, never make one. */
static inline uint64_t gmk_vcf_hash(int p, int col)
{
    return banyan_mix64((uint64_t)(p * 4 + col) + 0x9e3779b97f4a7c15ULL);
}

/* Builds level lv's list from level lv - 1 after the attacker's m and the
 * defender's q. The parent's list holds every cell that made a four there;
 * a cell outside it can make one now only along the line it shares with m
 * (q, the defender's stone, takes fours away), so only that line is read. */
static int gmk_vcf_relist(gmk_vcf *v, int lv, int n_parent, int m, int q)
{
    const uint16_t *parent = v->list[lv - 1];
    uint16_t *list = v->list[lv];
    int n = 0, col = v->att + 1;
    uint32_t id = ++v->node_id;
    for (int i = 0; i < n_parent; i++) {
        int x = parent[i];
        if (v->g.b[x] != 0)
            continue;
        if ((gmk_vcf_aligned(x, m, 5) || gmk_vcf_aligned(x, q, 5)) &&
            !gmk_vcf_makes_four(v, x, col))
            continue;
        v->stamp[x] = id;
        list[n++] = (uint16_t)x;
    }
    for (int i = 0; i < 4; i++)
        for (int k = -4; k <= 4; k++) {
            int x = m + k * gmk_dirs[i];
            if (k == 0 || v->g.b[x] != 0 || v->stamp[x] == id)
                continue;
            if (gmk_vcf_four_along(v, x, i, col)) {
                v->stamp[x] = id;
                list[n++] = (uint16_t)x;
            }
        }
    return n;
}

/* The attacker to move at level lv, with n four-making moves listed and the
 * defender's five points dfp[0 .. n_dfp - 1]; the attacker has no five point.
 * Returns whether a VCF is proven. */
bool gmk_vcf_search(gmk_vcf *v, int lv, int n, const int *dfp, int n_dfp)
{
    uint8_t *b = v->g.b;
    int col = v->att + 1, dcol = 2 - v->att;
    bool black_forbidden = v->g.renju && v->att == 0;

    if (n_dfp >= 2 || lv >= GMK_VCF_DEPTH)
        return false;
    for (int i = 0; i < n; i++) {
        int m = v->list[lv][i], fives[8], dfives[8];
        if (n_dfp == 1 && m != dfp[0])
            continue;
        if (b[m] != 0)
            continue;
        if (++v->nodes > v->budget)
            return false;
        if (black_forbidden && gmk_forbidden_at(b, m, 0))
            continue;
        gmk_vcf_put(v, m, col);
        int k = gmk_vcf_fives(v, m, col, fives), q = -1;
        bool won = false;
        if (k >= 2) {
            won = true;
            v->line.n = lv + 1;
            v->line.n_fives = k;
            memcpy(v->line.fives, fives, (size_t)k * sizeof *fives);
        } else if (k == 1 && v->g.renju && v->att == 1 && gmk_forbidden_at(b, fives[0], 0)) {
            won = true; /* Renju: Black may not block there. */
            v->line.n = lv + 1;
            v->line.n_fives = 1;
            v->line.fives[0] = fives[0];
        } else if (k == 1) {
            q = fives[0];
            uint64_t key = v->key, child = key ^ gmk_vcf_hash(m, col) ^ gmk_vcf_hash(q, dcol);
            unsigned slot = (unsigned)(child >> (64 - GMK_VCF_TT_BITS));
            uint64_t bit = 1ull << (slot & 63), *used = &v->used[slot >> 6];
            if (!v->tt_on && v->nodes >= GMK_VCF_TT_FROM) {
                memset(v->used, 0, sizeof v->used);
                v->tt_on = true;
            }
            if (!v->tt_on || !(*used & bit) || v->tt[slot] != child) {
                gmk_vcf_put(v, q, dcol);
                int nd = gmk_vcf_fives(v, q, dcol, dfives);
                int nc = gmk_vcf_relist(v, lv + 1, n, m, q);
                v->key = child;
                won = gmk_vcf_search(v, lv + 1, nc, dfives, nd);
                v->key = key;
                gmk_vcf_put(v, q, 0);
                if (!won && v->tt_on && v->nodes <= v->budget) {
                    v->tt[slot] = child;
                    *used |= bit;
                }
            }
        }
        gmk_vcf_put(v, m, 0);
        if (won) {
            /* Deeper levels wrote theirs already; a failed branch never
             * writes, so the line is the one that won. */
            v->line.att[lv] = m;
            v->line.def[lv] = q;
            if (lv == 0)
                v->first = m;
            return true;
        }
        if (v->nodes > v->budget)
            return false;
    }
    return false;
}

/* Sets v up for a VCF of player att on t: the byte board, the attacker's
 * four-making moves as level 0's list (returns their number), his five
 * points into afp (*n_afp of them) and the other player's into dfp
 * (*n_dfp), at most 8 of each. Only near cells are looked at: every five
 * point and four-making move lies within distance 2 of a stone. */
int gmk_vcf_init(gmk_vcf *v, const gmk *t, int att, int *afp, int *n_afp, int *dfp, int *n_dfp)
{
    int n = 0;
    gmk_board_load(t, &v->g);
    gmk_lines_load(&v->L, t);
    memset(v->stamp, 0, sizeof v->stamp);
    v->nodes = 0;
    v->budget = GMK_VCF_NODES;
    v->node_id = 1;
    v->key = 0;
    v->tt_on = false;
    v->att = att;
    v->first = -1;
    v->line.n = 0;
    v->line.n_fives = 0;
    *n_afp = *n_dfp = 0;
    for (int wi = 0; wi < GMK_WORDS; wi++)
        for (uint64_t bits = t->near[wi]; bits; bits &= bits - 1) {
            int cell = wi * 64 + bits_low(bits), p = gmk_bidx(cell / GMK_STRIDE, cell % GMK_STRIDE);
            unsigned all = 0, four = 0;
            for (int i = 0; i < 4; i++) {
                int pos;
                const uint32_t *w = gmk_lines_at(&v->L, p, i, &pos);
                /* A four needs three of the attacker's stones within 4 of
                 * p, a five point four of either colour's. */
                if (gmk_near_stones(w[att] >> (pos - 5)) < 3 &&
                    gmk_near_stones(w[!att] >> (pos - 5)) < 4)
                    continue;
                unsigned rate = gmk_lines_rate(w, pos, v->g.exact), mine = rate >> (4 * att);
                all |= rate;
                /* As gmk_vcf_makes_four: a four, or the five points that
                 * come with a five. */
                if (!four &&
                    (mine & GMK_LS_FOUR || (mine & GMK_LS_FIVE && gmk_vcf_fp(v, p, i, att + 1))))
                    four = 1;
            }
            if ((all >> (4 * att)) & GMK_LS_FIVE && *n_afp < 8)
                afp[(*n_afp)++] = p;
            if ((all >> (4 * !att)) & GMK_LS_FIVE && *n_dfp < 8)
                dfp[(*n_dfp)++] = p;
            if (four) {
                v->stamp[p] = 1;
                v->list[0][n++] = (uint16_t)p;
            }
        }
    return n;
}

/* An immediate five, else a VCF found within GMK_VCF_NODES attacker moves,
 * for player att; the other player, when he is to move, is taken to pass
 * (a null move: what att would do if given a free move). Sound under every
 * rule: fives and five points follow the rule per colour, Black's forbidden
 * points are never attacker moves, and any line where the defender has a
 * five of his own fails. White's four whose five point is forbidden to
 * Black wins: Black cannot block it, and has no five (he would have had to
 * be blocked first). */
bool gmk_vcf_for(const gmk *t, int att, banyan_move *out)
{
    int afp[8], n_afp, dfp[8], n_dfp;
    gmk_vcf work; /* About 56 KiB of stack. */
    gmk_vcf *v = &work;

    if (gmk_is_over(t) || t->ply < 5)
        return false; /* (The attacker needs 3 stones for a four.) */
    int n = gmk_vcf_init(v, t, att, afp, &n_afp, dfp, &n_dfp);
    if (n_afp)
        v->first = afp[0];
    else if (!gmk_vcf_search(v, 0, n, dfp, n_dfp))
        return false;
    *out = gmk_b2move(t->size, v->first);
    return true;
}

/* The game table's prove_win: a VCF for the player to move. */
bool gmk_prove_win(const void *s, banyan_move *out)
{
    const gmk *t = s;
    return t->prover != GMK_PROVER_OFF && gmk_vcf_for(t, t->ply & 1, out);
}
