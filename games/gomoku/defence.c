/*
 * defence.c - Gomoku's defence: the candidates narrowed to the moves that
 * may stop the opponent's VCF on a null move (gmk_defend, at every
 * expansion), the positions where that VCF failed in full (quiet, so that
 * expand skips the children's prove_win), and the root's deeper defence
 * (the game table's candidates_deep: moves after which the opponent's VCF
 * or VCT still wins are dropped).
 */
#include "prover.h"

#include <string.h>

#define GMK_DEFEND_NODES 300 /* Attacker moves tried by the opponent's VCF in the candidates. */

/*
 * Quiet positions, for the expansions (the game table's expand, rules.c).
 * Where the opponent's VCF on the null move fails in full (gmk_defend's
 * search, not cut short by its budget), it fails at every child as well:
 * there the same player attacks, and the board has one more stone, the
 * defender's, which only takes fours away or gives the defender a five
 * point that binds the attacker, so that every line of the child's search
 * is a line of the search that failed. The child's prove_win need not
 * search then. Not under renju, where a stone may make one of Black's
 * moves forbidden or end a forbidden shape. The positions are kept in the
 * thread's deep memory, after the VCT's workspace: GMK_QUIET keys
 * (gmk_hash with the low bit set, 0 empty), one per slot, the last written
 * staying; a child looks its parent up by its own stones less the last.
 */

/* The quiet table's key of t's position, or of its parent's (t less its
 * last stone) with parent. */
static uint64_t gmk_quiet_key(const gmk *t, bool parent)
{
    if (!parent)
        return gmk_hash(t) | 1;
    gmk p = *t;
    int cell = t->last / t->size * GMK_STRIDE + t->last % t->size;
    p.stones[!(t->ply & 1)][cell / 64] &= ~(1ull << (cell % 64));
    return gmk_hash(&p) | 1;
}

bool gmk_quiet(const gmk *t, const void *mem)
{
    if (!mem || t->rule == GMK_RENJU || t->last == GMK_NO_CELL)
        return false;
    uint64_t key = gmk_quiet_key(t, true);
    return ((const gmk_deep *)mem)->quiet[key % GMK_QUIET] == key;
}

/*
 * Defence. Were the player to move to pass, the opponent might win by
 * continuous fours (a null move). A move can stop that line only by one
 * of:
 *   - taking a cell of the line: one of the attacker's fours, a forced
 *     reply (the four's five point, taken in advance), or a five point of
 *     the final double four;
 *   - making a four of its own, which the attacker must answer first;
 *   - making one of the forced replies a four or a five for the defender,
 *     so that the attacker must stop to answer it: a cell in a window of
 *     five through a reply that, with the reply and the defender's other
 *     stones, holds four of his stones and none of the attacker's.
 * The third kind is found on the board with every reply placed at once and
 * the attacker's moves left out, which can only add cells. After any other
 * move the line is played out as before and wins: such a move is lost, and
 * the candidates are the others. Checking each of those by the opponent's
 * VCF after it would narrow them further, to exactly the moves that leave
 * him none, but it cost more than it saved: it doubled the CPU time of a
 * search of 10,000 playouts on the 44 tactics positions, while a match
 * between the two (0.2 s a move, 40 games) ended even. The root's
 * candidates_deep checks every candidate instead (below).
 */

/* Marks in keep the cells that may break line l of the opponent, the
 * defender being colour col, on board g (restored before returning). */
static void gmk_defend_mark(gmk_board *g, const gmk_vcf_line *l, int col, uint8_t *keep)
{
    for (int i = 0; i < l->n; i++) {
        keep[l->att[i]] = 1;
        if (l->def[i] >= 0) {
            keep[l->def[i]] = 1;
            g->b[l->def[i]] = (uint8_t)col;
        }
    }
    for (int i = 0; i < l->n_fives; i++)
        keep[l->fives[i]] = 1;
    for (int i = 0; i < l->n; i++) {
        int q = l->def[i];
        if (q < 0)
            continue;
        for (int d = 0; d < 4; d++) {
            unsigned own, emp;
            gmk_line(g->b, q, gmk_dirs[d], col, &own, &emp);
            unsigned cells = gmk_four_cells(own, emp);
            for (int k = 0; k < 11; k++)
                if ((cells >> k) & 1)
                    keep[q + (k - 5) * gmk_dirs[d]] = 1;
        }
    }
    for (int i = 0; i < l->n; i++)
        if (l->def[i] >= 0)
            g->b[l->def[i]] = 0;
}

/* See gomoku.h. A five of the mover's own leaves only his fives (they
 * win); else a five point of the opponent's leaves only its blocks (all
 * of them when there are two: every move loses, and these resist
 * longest); else a VCF of the opponent's on the null move, found within
 * GMK_DEFEND_NODES attacker moves, leaves the moves that may stop it
 * (above). Under renju, when the opponent is Black, a White stone may make
 * one of Black's moves forbidden far from the line, so the VCF is not used
 * there. */
int gmk_defend(const gmk *t, banyan_move *moves, int n, void *mem)
{
    int me = t->ply & 1, size = t->size, afp[8], n_afp, dfp[8], n_dfp, n_keep = 0;
    uint8_t keep[GMK_BCELLS];
    gmk_vcf work; /* About 56 KiB of stack. */
    gmk_vcf *v = &work;

    if (t->prover == GMK_PROVER_OFF || n <= 1 || gmk_is_over(t) || t->ply < 5)
        return n;
    memset(keep, 0, sizeof keep);
    int nl = gmk_vcf_init(v, t, !me, afp, &n_afp, dfp, &n_dfp);
    v->budget = GMK_DEFEND_NODES;
    if (n_dfp) {
        for (int i = 0; i < n_dfp; i++)
            keep[dfp[i]] = 1;
    } else if (n_afp) {
        for (int i = 0; i < n_afp; i++)
            keep[afp[i]] = 1;
    } else if (nl == 0 || (v->g.renju && me == 1) || !gmk_vcf_search(v, 0, nl, dfp, 0)) {
        if (mem && !v->g.renju && v->nodes <= v->budget) {
            uint64_t key = gmk_quiet_key(t, false);
            ((gmk_deep *)mem)->quiet[key % GMK_QUIET] = key;
        }
        return n;
    } else if (v->line.n_fives < 2) {
        return n; /* Renju: White's four that Black may not block; another
                   * Black stone may make the point allowed. */
    } else {
        gmk_defend_mark(&v->g, &v->line, me + 1, keep);
        for (int i = 0; i < n; i++) {
            int p = gmk_bidx((int)moves[i] / size, (int)moves[i] % size);
            keep[p] |= gmk_vcf_makes_four(v, p, me + 1);
        }
    }
    for (int i = 0; i < n; i++)
        if (keep[gmk_bidx((int)moves[i] / size, (int)moves[i] % size)])
            moves[n_keep++] = moves[i];
    return n_keep ? n_keep : n; /* (Renju: none when every block is forbidden to Black.) */
}

/*
 * The root's deeper defence (candidates_deep): when the opponent, given a
 * free move, would win by a VCF or a VCT, each candidate is played and the
 * opponent's VCF and VCT are run after it; a move after which he wins is
 * proven lost and dropped. A check that runs out of effort proves nothing
 * and keeps its move. The moves farthest from the threat's first move are
 * checked first: there the threat usually still wins, and its proof is
 * found again in about the positions it took on the free move (so each
 * check gets twice those, within bounds); the nearest, among which the
 * defences are, come last. The engine's effort (the root's VCT's, which
 * scales with a move's time) bounds the call: an eighth of it for the
 * threat, and once the checks together have spent half of it the
 * remaining moves are kept unchecked, so that the call stays within a
 * fraction of a move's time; the engine's seconds bound it too (the
 * moves not checked in time are kept).
 */
#define GMK_DEEP_THREAT 8    /* The threat on a free move gets 1 / GMK_DEEP_THREAT of the effort. */
#define GMK_DEEP_CHECK  2000 /* VCT positions after a candidate, at least ... */
#define GMK_DEEP_CHECK2 20000 /* ... and at most. */
#define GMK_DEEP_TOTAL  2     /* The checks together get 1 / GMK_DEEP_TOTAL of the effort. */

/* The distance between moves a and b on a board of side size: the larger
 * of the differences of their rows and of their columns. */
static int gmk_deep_distance(int size, banyan_move a, banyan_move b)
{
    int dr = (int)(a / (banyan_move)size) - (int)(b / (banyan_move)size);
    int dc = (int)(a % (banyan_move)size) - (int)(b % (banyan_move)size);
    dr = dr < 0 ? -dr : dr;
    dc = dc < 0 ? -dc : dc;
    return dr > dc ? dr : dc;
}

int gmk_candidates_deep(const void *s, uint32_t effort, double seconds, void *mem, banyan_move *out)
{
    const gmk *t = s;
    gmk_vct *vct = &((gmk_deep *)mem)->vct;
    int n = banyan_game_gomoku.tactics->candidates(s, out), me = t->ply & 1, size = t->size,
        n_keep = 0;
    int far[BANYAN_MAX_MOVES];
    bool lost[BANYAN_MAX_MOVES];
    banyan_move w;
    uint32_t used = 0, total = 0;

    if (n <= 1 || t->prover != GMK_PROVER_VCT)
        return n;
    double deadline = gmk_deadline(seconds);
    if (!gmk_vcf_for(t, !me, &w) &&
        !gmk_vct_for(t, !me, effort / GMK_DEEP_THREAT, deadline, false, vct, &used, &w))
        return n;
    uint32_t all = effort / GMK_DEEP_TOTAL;
    effort = 2 * used < GMK_DEEP_CHECK    ? GMK_DEEP_CHECK
             : 2 * used > GMK_DEEP_CHECK2 ? GMK_DEEP_CHECK2
                                          : 2 * used;
    /* far[] lists the candidates by distance from w, farthest first
     * (stable: equal distances keep the order of candidates). */
    for (int i = 0; i < n; i++) {
        int d = gmk_deep_distance(size, out[i], w), j = i;
        for (; j > 0 && gmk_deep_distance(size, out[far[j - 1]], w) < d; j--)
            far[j] = far[j - 1];
        far[j] = i;
        lost[i] = false;
    }
    for (int k = 0; k < n && total < all && !gmk_past(deadline); k++) {
        gmk child = *t;
        int i = far[k];
        used = 0;
        banyan_game_gomoku.play(&child, out[i]);
        lost[i] = gmk_vcf_for(&child, !me, &w) ||
                  gmk_vct_for(&child, !me, effort, deadline, false, vct, &used, &w);
        total += used;
    }
    for (int i = 0; i < n; i++)
        n_keep += !lost[i];
    if (n_keep == 0)
        return n; /* Every move loses: the search chooses among them all. */
    n_keep = 0;
    for (int i = 0; i < n; i++)
        if (!lost[i])
            out[n_keep++] = out[i];
    return n_keep;
}
