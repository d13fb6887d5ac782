/*
 * prover.c - Gomoku's threat provers: the VCF (victory by continuous fours),
 * fast enough for every node the search expands, and the VCT (victory by
 * continuous threats, fours and open threes), which the engine runs on the
 * root and its children. Both search the byte board in place; a win is
 * reported only when certain, so every proof becomes a solver win.
 */
#include "gomoku.h"

#include <string.h>

#define GMK_VCF_NODES  2000  /* Attacker moves tried per VCF call. */
#define GMK_VCF_DEPTH  32    /* Longest VCF, in attacker moves. */
#define GMK_VCT_NODES  10000 /* Positions per VCT call. */
#define GMK_VCT_THREES 4     /* Open threes in a VCT, most. */
#define GMK_VCT_DEPTH  32    /* Longest VCT, in attacker moves. */

/*
 * The VCF solver: victory by continuous fours for the player to move. The
 * attacker plays only moves that make a four; the defender's answer is then
 * forced (the one five point), unless the defender has a five of his own,
 * which ends the line as a failure. Each attacker node keeps the list of the
 * attacker's four-making moves, rebuilt from its parent's: only cells on the
 * lines through the two new stones can change.
 */

/* The solver's workspace. */
typedef struct gmk_vcf {
    gmk_board g;                /* The position, moves played on it in place. */
    uint32_t stamp[GMK_BCELLS]; /* Node that last listed a cell. */
    uint16_t list[GMK_VCF_DEPTH + 1][GMK_MAX * GMK_MAX]; /* Four-making moves per level. */
    uint32_t nodes;                                      /* Attacker moves tried so far. */
    uint32_t budget;                                     /* Bound on nodes. */
    uint32_t node_id;                                    /* Stamp of the current node. */
    int att;                                             /* Attacker: 0 or 1. */
    int first; /* The winning first move, a byte board cell. */
} gmk_vcf;

/* The five points of colour col that its stone at p (on the board) makes,
 * into out; returns their number (distinct cells). */
static int gmk_vcf_fives(const gmk_board *g, int p, int col, int *out)
{
    int n = 0;
    for (int i = 0; i < 4; i++) {
        unsigned own, emp, fp;
        gmk_line(g->b, p, gmk_dirs[i], col, &own, &emp);
        fp = gmk_fp(own, emp, g->exact[col - 1]);
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

/* Whether colour col playing at empty p makes at least one four. */
static bool gmk_vcf_makes_four(const gmk_board *g, int p, int col)
{
    for (int i = 0; i < 4; i++) {
        unsigned own, emp;
        gmk_line(g->b, p, gmk_dirs[i], col, &own, &emp);
        if (gmk_pop5[(own >> 1) & 31] + gmk_pop5[(own >> 6) & 15] >= 4 &&
            gmk_fp(own, emp, g->exact[col - 1]))
            return true;
    }
    return false;
}

/* Whether cells p and q share a line within distance k. */
static inline bool gmk_vcf_aligned(int p, int q, int k)
{
    int dr = (p >> 5) - (q >> 5), dc = (p & 31) - (q & 31);
    int ar = dr < 0 ? -dr : dr, ac = dc < 0 ? -dc : dc;
    return (ar == 0 || ac == 0 || ar == ac) && ar <= k && ac <= k;
}

/* Builds level lv's list from level lv - 1 after the attacker's m and the
 * defender's q. */
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
            !gmk_vcf_makes_four(&v->g, x, col))
            continue;
        v->stamp[x] = id;
        list[n++] = (uint16_t)x;
    }
    for (int i = 0; i < 4; i++)
        for (int k = -4; k <= 4; k++) {
            int x = m + k * gmk_dirs[i];
            if (k == 0 || v->g.b[x] != 0 || v->stamp[x] == id)
                continue;
            if (gmk_vcf_makes_four(&v->g, x, col)) {
                v->stamp[x] = id;
                list[n++] = (uint16_t)x;
            }
        }
    return n;
}

/* The attacker to move at level lv, with n four-making moves listed and the
 * defender's five points dfp[0 .. n_dfp - 1]; the attacker has no five point.
 * Returns whether a VCF is proven. */
static bool gmk_vcf_search(gmk_vcf *v, int lv, int n, const int *dfp, int n_dfp)
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
        b[m] = (uint8_t)col;
        int k = gmk_vcf_fives(&v->g, m, col, fives);
        bool won = false;
        if (k >= 2) {
            won = true;
        } else if (k == 1) {
            int q = fives[0];
            b[q] = (uint8_t)dcol;
            int nd = gmk_vcf_fives(&v->g, q, dcol, dfives);
            int nc = gmk_vcf_relist(v, lv + 1, n, m, q);
            won = gmk_vcf_search(v, lv + 1, nc, dfives, nd);
            b[q] = 0;
        }
        b[m] = 0;
        if (won) {
            if (lv == 0)
                v->first = m;
            return true;
        }
        if (v->nodes > v->budget)
            return false;
    }
    return false;
}

/* An immediate five, else a VCF found within GMK_VCF_NODES attacker moves.
 * Sound under every rule: fives and five points follow the rule per colour,
 * Black's forbidden points are never attacker moves, and any line where the
 * defender has a five of his own fails. (The defender is always assumed
 * able to block, even on a point forbidden to Black, which can only hide
 * wins, never invent one.) */
bool gmk_prove_win(const void *s, banyan_move *out)
{
    const gmk *t = s;
    gmk_vcf *v;
    int att = t->ply & 1, size = t->size, dfp[8], n_dfp = 0, n = 0;
    bool found = false;
    gmk_vcf work; /* About 37 KiB of stack. */

    if (gmk_is_over(t) || t->ply < 5 || t->prover == GMK_PROVER_OFF)
        return false; /* (The attacker needs 3 stones for a four.) */
    v = &work;
    gmk_board_load(t, &v->g);
    memset(v->stamp, 0, sizeof v->stamp);
    v->nodes = 0;
    v->budget = GMK_VCF_NODES;
    v->node_id = 1;
    v->att = att;
    v->first = -1;
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++) {
            int p = gmk_bidx(r, c);
            if (!gmk_bit(t->near, r * GMK_STRIDE + c))
                continue;
            if (gmk_five_at(v->g.b, p, att + 1, v->g.exact[att])) {
                *out = (banyan_move)(r * size + c);
                return true;
            }
            if (gmk_five_at(v->g.b, p, 2 - att, v->g.exact[!att]) && n_dfp < 8)
                dfp[n_dfp++] = p;
            if (gmk_vcf_makes_four(&v->g, p, att + 1)) {
                v->stamp[p] = 1;
                v->list[0][n++] = (uint16_t)p;
            }
        }
    found = gmk_vcf_search(v, 0, n, dfp, n_dfp);
    if (found)
        *out = gmk_b2move(size, v->first);
    return found;
}

/*
 * The VCT solver: victory by continuous threats, fours and open threes,
 * for the player to move; slower than the VCF, so the engine runs it only
 * on the root and on the root's children. An AND/OR search on the byte
 * board:
 *   - attacker to move: a five wins; the defender's five point, if any,
 *     must be blocked (two lose); a move making two five points (a
 *     straight or double four) wins; otherwise each move making a four or
 *     an open three is tried;
 *   - defender to move: a five of his fails the line; two five points of
 *     the attacker win; one must be blocked; otherwise the attacker must
 *     threaten a winning four, and every answer is tried: each point that
 *     leaves the attacker no winning four (on the lines through those
 *     moves, found by trying them) and each move making a four of the
 *     defender's own, which the attacker must then block.
 * Sound by construction: threats are recognised by playing them out rather
 * than by shape, every defence is tried, and "no threat" fails. Moves are
 * looked for only among cells within distance 2 of a stone, the region in
 * which every five point, four and open three lies; limiting the
 * attacker's choices can only hide wins. Not used under renju, whose
 * forbidden points would have to enter every threat.
 */

/* What an empty cell makes, one byte per direction (byte i for gmk_dirs[i])
 * holding GMK_LS_ bits, colour 1's in the low nibble and colour 2's in the
 * high; kept up to date as stones come and go: a stone changes only the
 * cells within 5 of it on its four lines, and only in that line's byte. */
#define GMK_VS(ls, col)  ((ls) << (4 * ((col)-1)))
#define GMK_VS_ANY(bits) ((bits)*0x01010101u) /* In any direction. */
/* Saved cells: 40 a stone, and at most 2 * GMK_VCT_DEPTH stones are on the
 * board at once (an attacker's and a defender's move per level). */
#define GMK_VCT_UNDO ((2 * GMK_VCT_DEPTH + 2) * 40)

/* The solver's workspace. */
typedef struct gmk_vct {
    gmk_board g;                          /* The position, moves played on it in place. */
    uint16_t cells[GMK_MAX * GMK_MAX];    /* The region: cells within distance 2 of a stone. */
    uint8_t in_region[GMK_BCELLS];        /* Whether a cell is listed. */
    uint32_t stamp[GMK_BCELLS];           /* Defence candidates already listed. */
    uint32_t st[GMK_BCELLS];              /* GMK_VS_ bits of each empty cell in the region. */
    uint32_t lines[4][2 * GMK_BW - 1][3]; /* Per direction and line, by position along
                                           * it: colour 1's stones, colour 2's, empty cells. */
    uint32_t undo_st[GMK_VCT_UNDO];       /* Saved st[] values, for gmk_vct_unplace. */
    uint16_t undo_at[GMK_VCT_UNDO];       /* Their cells. */
    int n_undo;
    int n_cells;
    uint32_t nodes;  /* Positions visited so far. */
    uint32_t budget; /* Bound on nodes. */
    uint32_t stamp_id;
    int att;        /* Attacker: 0 or 1. */
    int first;      /* The winning first move, a byte board cell. */
    int max_threes; /* Open threes allowed on a line of play. */
} gmk_vct;

/* The line through byte board cell x along gmk_dirs[i], and x's position
 * on it (its row, or its column for rows). */
static inline uint32_t *gmk_vct_line(gmk_vct *v, int x, int i, int *pos)
{
    int r = x >> 5, c = x & 31;
    *pos = i == 0 ? c : r;
    /* Rows by row, columns by column, diagonals by c - r (shifted to be
     * non-negative) and anti-diagonals by c + r. */
    return v->lines[i][i == 0 ? r : i == 1 ? c : i == 2 ? c - r + GMK_BW - 1 : c + r];
}

/* Sets byte board cell x to value val (0 .. 3) in the board and the lines. */
static void gmk_vct_set(gmk_vct *v, int x, int val)
{
    v->g.b[x] = (uint8_t)val;
    for (int i = 0; i < 4; i++) {
        int pos;
        uint32_t *w = gmk_vct_line(v, x, i, &pos), bit = 1u << pos;
        w[0] = (w[0] & ~bit) | (val == 1 ? bit : 0);
        w[1] = (w[1] & ~bit) | (val == 2 ? bit : 0);
        w[2] = (w[2] & ~bit) | (val == 0 ? bit : 0);
    }
}

/* The 11-cell mask m without its centre, bit 5: 10 bits. */
static inline unsigned gmk_ls_pack(unsigned m)
{
    return (m & 0x1f) | ((m >> 6) & 0x1f) << 5;
}

/* The GMK_VS_ byte of the empty cell at position pos of line w, from the
 * tables gen_tables.c writes. */
static inline unsigned gmk_vct_rate(const gmk_vct *v, const uint32_t *w, int pos)
{
    unsigned sh = (unsigned)pos - 5, emp = 2u * gmk_ls_base3[gmk_ls_pack(w[2] >> sh)];
    unsigned c1 = gmk_ls_table[gmk_ls_base3[gmk_ls_pack(w[0] >> sh)] + emp];
    unsigned c2 = gmk_ls_table[gmk_ls_base3[gmk_ls_pack(w[1] >> sh)] + emp];
    return ((c1 >> (v->g.exact[0] ? 4 : 0)) & 15) | ((c2 >> (v->g.exact[1] ? 4 : 0)) & 15) << 4;
}

/* The GMK_VS_ bits of empty cell x in every direction. */
static uint32_t gmk_vct_rate_cell(gmk_vct *v, int x)
{
    uint32_t st = 0;
    for (int i = 0; i < 4; i++) {
        int pos;
        const uint32_t *w = gmk_vct_line(v, x, i, &pos);
        st |= gmk_vct_rate(v, w, pos) << (8 * i);
    }
    return st;
}

/* Adds empty cell x to the region, rated in every direction. */
static void gmk_vct_enter(gmk_vct *v, int x)
{
    v->st[x] = gmk_vct_rate_cell(v, x);
    v->in_region[x] = 1;
    v->cells[v->n_cells++] = (uint16_t)x;
}

/* Plays colour col at p, rates again the region's empty cells on its lines
 * and widens the region around it; returns what gmk_vct_unplace needs.
 * Only cells in the region are rated: every five point, four and open
 * three lies within distance 2 of a stone. */
static int gmk_vct_place(gmk_vct *v, int p, int col)
{
    int old = v->n_cells | v->n_undo << 16;
    const uint8_t *b = v->g.b;
    gmk_vct_set(v, p, col);
    for (int i = 0; i < 4; i++) {
        int pos;
        const uint32_t *w = gmk_vct_line(v, p, i, &pos);
        for (int k = -5; k <= 5; k++) {
            int x = p + k * gmk_dirs[i];
            if (b[x] != 0 || !v->in_region[x])
                continue;
            v->undo_at[v->n_undo] = (uint16_t)x;
            v->undo_st[v->n_undo++] = v->st[x];
            v->st[x] = (v->st[x] & ~(0xffu << (8 * i))) | gmk_vct_rate(v, w, pos + k) << (8 * i);
        }
    }
    for (int i = 0; i < 24; i++) {
        int q = p + gmk_ring[i];
        if (b[q] == 0 && !v->in_region[q])
            gmk_vct_enter(v, q);
    }
    return old;
}

static void gmk_vct_unplace(gmk_vct *v, int p, int old)
{
    while (v->n_cells > (old & 0xffff))
        v->in_region[v->cells[--v->n_cells]] = 0;
    while (v->n_undo > old >> 16) {
        v->n_undo--;
        v->st[v->undo_at[v->n_undo]] = v->undo_st[v->n_undo];
    }
    gmk_vct_set(v, p, 0);
}

/* Up to max empty cells where colour col makes a five, into out. */
static int gmk_vct_fives(const gmk_vct *v, int col, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < v->n_cells && n < max; i++) {
        int p = v->cells[i];
        if (v->g.b[p] == 0 && (v->st[p] & GMK_VS_ANY(GMK_VS(GMK_LS_FIVE, col))))
            out[n++] = p;
    }
    return n;
}

/* Whether GMK_VS_ bits st say that the attacker makes two five points or
 * more: two in one line, or fours in two lines (whose five points are
 * different cells). */
static bool gmk_vct_double_st(const gmk_vct *v, uint32_t st)
{
    uint32_t four = st & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, v->att + 1));
    return (st & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR2, v->att + 1))) || (four & (four - 1));
}

/* The same for the attacker playing at empty region cell p. */
static bool gmk_vct_double(const gmk_vct *v, int p)
{
    return gmk_vct_double_st(v, v->st[p]);
}

/* Up to max empty cells where the attacker makes two five points, into out. */
static int gmk_vct_doubles(const gmk_vct *v, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < v->n_cells && n < max; i++) {
        int p = v->cells[i];
        if (v->g.b[p] == 0 && gmk_vct_double(v, p))
            out[n++] = p;
    }
    return n;
}

static bool gmk_vct_defend(gmk_vct *v, int depth, int threes);

/* The attacker to move, with threes open threes played on the way here.
 * Returns whether a win is proven. */
static bool gmk_vct_attack(gmk_vct *v, int depth, int threes)
{
    int col = v->att + 1, dcol = 2 - v->att, x[2];
    if (++v->nodes > v->budget)
        return false;
    if (gmk_vct_fives(v, col, x, 1)) {
        v->first = depth == 0 ? x[0] : v->first;
        return true;
    }
    int nd = gmk_vct_fives(v, dcol, x, 2);
    if (nd >= 2 || depth >= GMK_VCT_DEPTH)
        return false;
    if (nd == 1) {
        /* Forced: block, and the defender must answer whatever threat is left. */
        int old = gmk_vct_place(v, x[0], col);
        bool won = gmk_vct_defend(v, depth + 1, threes);
        gmk_vct_unplace(v, x[0], old);
        v->first = won && depth == 0 ? x[0] : v->first;
        return won;
    }
    /* Threats: fours first (a move making two five points wins at once),
     * then open threes. */
    uint16_t moves[GMK_MAX * GMK_MAX];
    int n = 0, n_fours = 0;
    for (int i = 0; i < v->n_cells; i++) {
        int p = v->cells[i];
        if (v->g.b[p] == 0 && (v->st[p] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col))))
            moves[n++] = (uint16_t)p;
    }
    for (int i = 0; i < n; i++)
        if (gmk_vct_double(v, moves[i])) {
            v->first = depth == 0 ? moves[i] : v->first;
            return true;
        }
    n_fours = n;
    for (int i = 0; i < v->n_cells && threes < v->max_threes; i++) {
        int p = v->cells[i];
        if (v->g.b[p] != 0)
            continue;
        bool four = false;
        for (int k = 0; k < n_fours && !four; k++)
            four = moves[k] == p;
        if (!four && (v->st[p] & GMK_VS_ANY(GMK_VS(GMK_LS_THREE, col))))
            moves[n++] = (uint16_t)p;
    }
    for (int i = 0; i < n; i++) {
        int old = gmk_vct_place(v, moves[i], col);
        bool won = gmk_vct_defend(v, depth + 1, threes + (i >= n_fours));
        gmk_vct_unplace(v, moves[i], old);
        if (won) {
            v->first = depth == 0 ? moves[i] : v->first;
            return true;
        }
        if (v->nodes > v->budget)
            return false;
    }
    return false;
}

/* Whether a defender's stone at empty r would leave the attacker none of
 * his winning fours w[0 .. n - 1]. Only those cells are rated again, so
 * that most answers are refuted without being played out. */
static bool gmk_vct_stops(gmk_vct *v, int r, const int *w, int n)
{
    bool stops = true;
    gmk_vct_set(v, r, 2 - v->att);
    for (int i = 0; i < n && stops; i++)
        stops = w[i] == r || !gmk_vct_double_st(v, gmk_vct_rate_cell(v, w[i]));
    gmk_vct_set(v, r, 0);
    return stops;
}

/* The defender to move. Returns whether every answer loses. */
static bool gmk_vct_defend(gmk_vct *v, int depth, int threes)
{
    int col = v->att + 1, dcol = 2 - v->att, x[2], w[64];
    if (++v->nodes > v->budget)
        return false;
    if (gmk_vct_fives(v, dcol, x, 1))
        return false;
    int na = gmk_vct_fives(v, col, x, 2);
    if (na >= 2)
        return true;
    if (na == 1) {
        int old = gmk_vct_place(v, x[0], dcol);
        bool won = gmk_vct_attack(v, depth, threes);
        gmk_vct_unplace(v, x[0], old);
        return won;
    }
    int nw = gmk_vct_doubles(v, w, 64);
    if (nw == 0 || nw == 64)
        return false; /* No threat (or too many to list: give up, soundly). */
    /* Answers: points on the lines through the winning fours, and the
     * defender's own fours anywhere. */
    uint16_t cand[GMK_MAX * GMK_MAX];
    int n = 0;
    uint32_t id = ++v->stamp_id;
    for (int i = 0; i < nw; i++)
        for (int d = 0; d < 4; d++)
            for (int k = -5; k <= 5; k++) {
                int q = w[i] + k * gmk_dirs[d];
                if (v->g.b[q] == 0 && v->stamp[q] != id) {
                    v->stamp[q] = id;
                    cand[n++] = (uint16_t)q;
                }
            }
    int n_line = n; /* The rest are fours of the defender's. */
    for (int i = 0; i < v->n_cells; i++) {
        int q = v->cells[i];
        if (v->g.b[q] == 0 && v->stamp[q] != id &&
            (v->st[q] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, dcol)))) {
            v->stamp[q] = id;
            cand[n++] = (uint16_t)q;
        }
    }
    for (int i = 0; i < n; i++) {
        int r = cand[i];
        bool counter =
            i >= n_line || (v->in_region[r] && (v->st[r] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, dcol))));
        if (!counter && !gmk_vct_stops(v, r, w, nw))
            continue;
        int old = gmk_vct_place(v, r, dcol);
        bool lost = gmk_vct_attack(v, depth, threes);
        gmk_vct_unplace(v, r, old);
        if (!lost)
            return false;
    }
    return true;
}

/* A VCT within GMK_VCT_NODES positions, for the player to move; freestyle
 * and standard rules only. */
bool gmk_prove_win_deep(const void *s, banyan_move *out)
{
    const gmk *t = s;
    int size = t->size;
    if (gmk_is_over(t) || t->rule == GMK_RENJU || t->ply < 4 || t->prover != GMK_PROVER_VCT)
        return false;
    gmk_vct work; /* About 30 KiB of stack, and 2 KiB a level below. */
    gmk_vct *v = &work;
    gmk_board_load(t, &v->g);
    memset(v->in_region, 0, sizeof v->in_region);
    memset(v->stamp, 0, sizeof v->stamp);
    v->n_cells = 0;
    v->nodes = 0;
    v->budget = GMK_VCT_NODES;
    v->stamp_id = 0;
    v->att = t->ply & 1;
    v->first = -1;
    v->n_undo = 0;
    memset(v->lines, 0, sizeof v->lines);
    for (int p = 0; p < GMK_BCELLS; p++)
        if (v->g.b[p] != GMK_EDGE)
            gmk_vct_set(v, p, v->g.b[p]);
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++)
            if (gmk_bit(t->near, r * GMK_STRIDE + c))
                gmk_vct_enter(v, gmk_bidx(r, c));
    /* Iterative deepening on the threes: the wins with fewest threes, which
     * are the cheapest to find, are found first. */
    bool found = false;
    for (v->max_threes = 0; !found && v->max_threes <= GMK_VCT_THREES && v->nodes < v->budget;
         v->max_threes++)
        found = gmk_vct_attack(v, 0, 0) && v->first >= 0;
    if (found)
        *out = gmk_b2move(size, v->first);
    return found;
}
