/*
 * prover.c - Gomoku's threat provers: the VCF (victory by continuous fours),
 * fast enough for every node the search expands, and the VCT (victory by
 * continuous threats, fours and open threes), which the engine runs on the
 * root and its children. Both search the byte board in place, with its
 * line words beside it (what a move makes is read from them through the
 * line-pattern tables); a win is reported only when certain, so every
 * proof becomes a solver win. The VCT's table and workspace live in the
 * engine's per-thread memory (the game's deep_size), the VCF's on the
 * stack.
 */
#include "gomoku.h"

#include <string.h>
#include <time.h>

#define GMK_VCF_NODES     2000 /* Attacker moves tried per VCF call. */
#define GMK_VCF_DEPTH     32   /* Longest VCF, in attacker moves. */
#define GMK_DEFEND_NODES  300  /* The same, for the opponent's threat in the candidates. */
#define GMK_VCF_TT_BITS   11   /* Log2 of the VCF's table of failed positions. */
#define GMK_VCF_TT_FROM   8    /* Attacker moves tried before a VCF starts its table. */
#define GMK_VCT_THREES    8    /* Open threes in a VCT's line when it is shortened, most. */
#define GMK_VCT_ID_THREES 2    /* The same for the rounds before the proof-number search. */
#define GMK_VCT_DEPTH     32   /* Longest VCT, in attacker moves. */
#define GMK_VCT_CLOCK     1023 /* A VCT with a time bound reads the clock every 1024 positions. */

/* Sets cell x to value val (0 .. 3) in the line words. */
static inline void gmk_lines_set(gmk_lines *L, int x, int val)
{
    for (int i = 0; i < 4; i++) {
        int pos;
        uint32_t *w = gmk_lines_at(L, x, i, &pos), bit = 1u << pos;
        w[0] = (w[0] & ~bit) | (val == 1 ? bit : 0);
        w[1] = (w[1] & ~bit) | (val == 2 ? bit : 0);
        w[2] = (w[2] & ~bit) | (val == 0 ? bit : 0);
    }
}

/* gmk_line's masks (own with x counted as own, emp without x) of colour
 * col along gmk_dirs[i] through x, from the line words. */
static inline void gmk_lines_masks(gmk_lines *L, int x, int i, int col, unsigned *own,
                                   unsigned *emp)
{
    int pos;
    const uint32_t *w = gmk_lines_at(L, x, i, &pos);
    unsigned sh = (unsigned)pos - 5;
    *own = ((w[col - 1] >> sh) & 0x7ff) | 1u << 5;
    *emp = (w[2] >> sh) & 0x7ff & ~(1u << 5);
}

/* The GMK_LS_ bits of both colours (colour 1's in the low nibble) for the
 * empty cell at position pos of line w, from the tables gen_tables.c
 * writes; exact[] as gmk_board's. */
static inline unsigned gmk_lines_rate(const uint32_t *w, int pos, const uint8_t *exact)
{
    unsigned sh = (unsigned)pos - 5, emp = 2u * gmk_ls_base3[(w[2] >> sh) & 0x7ff];
    unsigned c1 = gmk_ls_table[gmk_ls_base3[(w[0] >> sh) & 0x7ff] + emp];
    unsigned c2 = gmk_ls_table[gmk_ls_base3[(w[1] >> sh) & 0x7ff] + emp];
    return ((c1 >> (exact[0] ? 4 : 0)) & 15) | ((c2 >> (exact[1] ? 4 : 0)) & 15) << 4;
}

/* The empty cells (bits of the 11-cell masks own and emp, centre bit 5
 * counted as own) that would complete a four through the centre: those of
 * each window of five holding the centre, three or more own stones and no
 * other. A stone there makes the centre's stone a four. */
static inline unsigned gmk_four_cells(unsigned own, unsigned emp)
{
    unsigned cells = 0;
    for (int s = 1; s <= 5; s++) {
        unsigned w = 0x1fu << s;
        if (!(w & ~(own | emp)) && gmk_pop5[(own >> s) & 31] >= 3)
            cells |= w & emp;
    }
    return cells;
}

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

/* A VCF's winning line, in byte board cells. */
typedef struct gmk_vcf_line {
    int n;                  /* Attacker moves: 0 when a five is there to make. */
    int att[GMK_VCF_DEPTH]; /* The attacker's moves, in order. */
    int def[GMK_VCF_DEPTH]; /* The defender's forced reply to each; -1 after the last. */
    int n_fives;            /* The five points the last move leaves (or those on the board). */
    int fives[8];
} gmk_vcf_line;

/* The solver's workspace. */
typedef struct gmk_vcf {
    gmk_board g;                /* The position, moves played on it in place. */
    gmk_lines L;                /* Its line words, kept with it. */
    uint32_t stamp[GMK_BCELLS]; /* Node that last listed a cell. */
    uint16_t list[GMK_VCF_DEPTH + 1][GMK_MAX * GMK_MAX]; /* Four-making moves per level. */
    uint32_t nodes;                                      /* Attacker moves tried so far. */
    uint32_t budget;                                     /* Bound on nodes. */
    uint32_t node_id;                                    /* Stamp of the current node. */
    uint64_t key;                      /* The stones placed so far, hashed (0 at the start). */
    bool tt_on;                        /* Whether tt is in use in this call (used cleared). */
    uint64_t tt[1 << GMK_VCF_TT_BITS]; /* Keys of failed positions, where used says. */
    uint64_t used[(1 << GMK_VCF_TT_BITS) / 64]; /* tt's slots written in this call. */
    int att;                                    /* Attacker: 0 or 1. */
    int first;                                  /* The winning first move, a byte board cell. */
    gmk_vcf_line line;                          /* The winning line, written on the way back up. */
} gmk_vcf;

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
static bool gmk_vcf_makes_four(gmk_vcf *v, int p, int col)
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
        gmk_vcf_put(v, m, col);
        int k = gmk_vcf_fives(v, m, col, fives), q = -1;
        bool won = false;
        if (k >= 2) {
            won = true;
            v->line.n = lv + 1;
            v->line.n_fives = k;
            memcpy(v->line.fives, fives, (size_t)k * sizeof *fives);
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
static int gmk_vcf_init(gmk_vcf *v, const gmk *t, int att, int *afp, int *n_afp, int *dfp,
                        int *n_dfp)
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
            int cell = wi * 64 + gmk_low_bit(bits),
                p = gmk_bidx(cell / GMK_STRIDE, cell % GMK_STRIDE);
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
 * five of his own fails. (The defender is always assumed able to block,
 * even on a point forbidden to Black, which can only hide wins, never
 * invent one.) */
static bool gmk_vcf_for(const gmk *t, int att, banyan_move *out)
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

/*
 * The VCT solver: victory by continuous threats, fours and open threes,
 * for the player to move; slower than the VCF, so the engine runs it only
 * on the root and on the root's children. An AND/OR search on the byte
 * board:
 *   - attacker to move: a five wins; the defender's five point, if any,
 *     must be blocked (two lose); a move making two five points (a
 *     straight or double four) wins; otherwise each move making a four or
 *     an open three is tried, and on the first move also the quiet
 *     threats: moves that make neither but leave a four-three point
 *     (gmk_vct_quiet);
 *   - defender to move: a five of his fails the line; two five points of
 *     the attacker win; one must be blocked; otherwise the attacker must
 *     threaten a winning four, and every answer is tried: each point that
 *     leaves the attacker no winning four (on the lines through those
 *     moves, found by trying them) and each move making a four of the
 *     defender's own, which the attacker must then block; failing that he
 *     must threaten a four-three, whose answers gmk_vct_answers_43 lists.
 * Sound by construction: threats are recognised by playing them out rather
 * than by shape, every defence is tried, and "no threat" fails. Moves are
 * looked for only among cells within distance 2 of a stone, the region in
 * which every five point, four and open three lies; limiting the
 * attacker's choices can only hide wins. Not used under renju, whose
 * forbidden points would have to enter every threat.
 *
 * Quiet threats enter only as the first move (a line's other quiet moves
 * would widen every failing branch): wins that begin with one, as many of
 * those Rapfi found against Banyan did, are found, and the positions where
 * threes and fours alone win cost about as much as before (on 15,936
 * positions of self-play games at 30,000 positions a call, 53 wins more
 * and 49 fewer, the table being shared; with quiet threats at every
 * depth, 76 more and 114 fewer).
 *
 * Iterative deepening on the number of threes allowed (up to
 * GMK_VCT_ID_THREES; a quiet threat counts as one) finds the wins with
 * fewest threes first, the cheapest to find; each round costs some ten
 * times the one before, so the rest of the effort goes to a proof-number
 * search of the same threats (gmk_pn_search), which follows the narrowest
 * defences however many threes they take. The first win found need not
 * be the shortest (a long run of
 * fours may come before a short line with a three), so prove_win_deep then
 * looks for a shorter one (gmk_vct_shorten). A table of solved positions
 * (GMK_VCT_TT) saves the transpositions of threat sequences, the most
 * promising threats are tried first (gmk_vct_order), and the five points
 * are kept in a list rather than looked for across the region at every
 * position.
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

/* Positions already solved, attacker to move: positions recur, a threat
 * sequence being found in many orders. An entry holds a position's full
 * 64-bit hash and either GMK_VCT_WON or what was left when the attacker
 * found no win there (moves in the high byte, threes in the low one): no
 * win with fewer left either. Wins rest on the hash alone: two positions
 * of one call sharing 64 bits is a chance of about 2^-64 a probe. The
 * table lives in the engine's per-thread memory (deep_size) and is never
 * cleared: an entry counts only in the call that wrote it (its gen). On
 * the positions where Rapfi won against Banyan, 2^18 entries found a
 * fifth more wins at 10^5 to 10^6 positions than 2^12 did, in the same
 * time. */
#define GMK_VCT_TT  (1u << 18) /* Entries: 6 MiB. */
#define GMK_VCT_WON 0xffff     /* An entry's left: a proven win. */

typedef struct gmk_vct_entry {
    uint64_t hash; /* The position's hash. */
    uint32_t left; /* GMK_VCT_WON, or the moves and threes left at a failure;
                    * in the proof-number search, the proof number. */
    uint32_t dn;   /* The proof-number search's disproof number. */
    uint32_t gen;  /* The call that wrote it (gmk_vct.gen); 0: empty. */
} gmk_vct_entry;

/* The solver's workspace. */
typedef struct gmk_vct {
    gmk_vct_entry tt[GMK_VCT_TT];      /* Solved positions, by hash (see GMK_VCT_TT). */
    uint64_t hash;                     /* Zobrist hash of the stones placed since the root. */
    gmk_board g;                       /* The position, moves played on it in place. */
    uint16_t cells[GMK_MAX * GMK_MAX]; /* The region: cells within distance 2 of a stone. */
    uint8_t in_region[GMK_BCELLS];     /* Whether a cell is listed. */
    uint32_t stamp[GMK_BCELLS];        /* Defence candidates already listed. */
    uint32_t st[GMK_BCELLS];           /* GMK_VS_ bits of each empty cell in the region. */
    gmk_lines L;                       /* The board's line words. */
    uint32_t undo_st[GMK_VCT_UNDO];    /* Saved st[] values, for gmk_vct_unplace. */
    uint16_t undo_at[GMK_VCT_UNDO];    /* Their cells. */
    uint16_t fives[GMK_MAX * GMK_MAX + GMK_VCT_UNDO]; /* Every five point, and some old ones. */
    int n_fives;
    int n_undo;
    int n_cells;
    uint32_t nodes;  /* Positions visited so far. */
    uint32_t budget; /* Bound on nodes. */
    uint32_t cap;    /* Bound on budget: the call's effort, or nodes once out of time. */
    double deadline; /* gmk_clock() time at which the call stops; 0: none. */
    uint32_t stamp_id;
    uint32_t gen;   /* This call's number, never 0; the table's entries of others are void. */
    int att;        /* Attacker: 0 or 1. */
    int first;      /* The winning first move, a byte board cell. */
    int max_threes; /* Open threes allowed on a line of play. */
    int max_depth;  /* Attacker moves allowed on a line, at most GMK_VCT_DEPTH. */
} gmk_vct;

/* Seconds of CLOCK_MONOTONIC, for the VCT's time bound. */
static double gmk_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether deadline (a gmk_clock() time; 0: none) has passed. */
static bool gmk_past(double deadline)
{
    return deadline > 0 && gmk_clock() > deadline;
}

/* Sets the VCT's budget to n positions, within its cap. */
static void gmk_vct_budget(gmk_vct *v, uint32_t n)
{
    v->budget = n < v->cap ? n : v->cap;
}

/* Counts one more position; true when the budget is spent. Past the
 * deadline the cap and the budget fall to the positions visited before
 * this one, so that every bound the search checks is spent at once. */
static inline bool gmk_vct_spent(gmk_vct *v)
{
    if (++v->nodes > v->budget)
        return true;
    if ((v->nodes & GMK_VCT_CLOCK) == 0 && gmk_past(v->deadline)) {
        v->cap = v->budget = v->nodes - 1;
        return true;
    }
    return false;
}

/* The Zobrist key of byte board cell x holding val: 0 for an empty cell. */
static inline uint64_t gmk_vct_key(int x, int val)
{
    return val == 1 || val == 2 ? banyan_mix64((uint64_t)(x * 4 + val)) : 0;
}

/* Sets byte board cell x to value val (0 .. 3) in the board and the lines. */
static void gmk_vct_set(gmk_vct *v, int x, int val)
{
    v->g.b[x] = (uint8_t)val;
    gmk_lines_set(&v->L, x, val);
}

/* The GMK_VS_ bits of empty cell x in every direction. */
static uint32_t gmk_vct_rate_cell(gmk_vct *v, int x)
{
    uint32_t st = 0;
    for (int i = 0; i < 4; i++) {
        int pos;
        const uint32_t *w = gmk_lines_at(&v->L, x, i, &pos);
        st |= gmk_lines_rate(w, pos, v->g.exact) << (8 * i);
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

/* What gmk_vct_unplace needs to take a stone back. */
typedef struct gmk_vct_mark {
    int n_cells; /* The region's size before. */
    int n_undo;  /* Saved st[] values before. */
    int n_fives; /* Listed five points before. */
} gmk_vct_mark;

/* Plays colour col at p, rates again the region's empty cells on its lines
 * and widens the region around it; returns what gmk_vct_unplace needs.
 * Only cells in the region are rated: every five point, four and open
 * three lies within distance 2 of a stone. A cell that becomes a five
 * point of either colour joins the list of five points, which therefore
 * holds every one (a cell entering the region is never one: its window of
 * five would hold a stone within distance 2 of it). */
static gmk_vct_mark gmk_vct_place(gmk_vct *v, int p, int col)
{
    gmk_vct_mark old = {v->n_cells, v->n_undo, v->n_fives};
    const uint8_t *b = v->g.b;
    const uint32_t five = GMK_VS_ANY(GMK_VS(GMK_LS_FIVE, 1) | GMK_VS(GMK_LS_FIVE, 2));
    gmk_vct_set(v, p, col);
    v->hash ^= gmk_vct_key(p, col);
    for (int i = 0; i < 4; i++) {
        int pos;
        const uint32_t *w = gmk_lines_at(&v->L, p, i, &pos);
        for (int k = -5; k <= 5; k++) {
            int x = p + k * gmk_dirs[i];
            if (b[x] != 0 || !v->in_region[x])
                continue;
            uint32_t was = v->st[x];
            v->undo_at[v->n_undo] = (uint16_t)x;
            v->undo_st[v->n_undo++] = was;
            v->st[x] = (was & ~(0xffu << (8 * i))) | gmk_lines_rate(w, pos + k, v->g.exact)
                                                         << (8 * i);
            if ((v->st[x] & five) && !(was & five))
                v->fives[v->n_fives++] = (uint16_t)x;
        }
    }
    for (int i = 0; i < 24; i++) {
        int q = p + gmk_ring[i];
        if (b[q] == 0 && !v->in_region[q])
            gmk_vct_enter(v, q);
    }
    return old;
}

static void gmk_vct_unplace(gmk_vct *v, int p, gmk_vct_mark old)
{
    while (v->n_cells > old.n_cells)
        v->in_region[v->cells[--v->n_cells]] = 0;
    while (v->n_undo > old.n_undo) {
        v->n_undo--;
        v->st[v->undo_at[v->n_undo]] = v->undo_st[v->n_undo];
    }
    v->n_fives = old.n_fives;
    v->hash ^= gmk_vct_key(p, v->g.b[p]);
    gmk_vct_set(v, p, 0);
}

/* Up to max (at most 2) distinct empty cells where colour col makes a
 * five, into out, from the list of five points. */
static int gmk_vct_fives(const gmk_vct *v, int col, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < v->n_fives && n < max; i++) {
        int p = v->fives[i];
        if (v->g.b[p] == 0 && (v->st[p] & GMK_VS_ANY(GMK_VS(GMK_LS_FIVE, col))) &&
            (n == 0 || out[0] != p))
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

/* Sorts the attacker's threats moves[0 .. n - 1] (stable), most promising
 * first: by the lines in which they threaten (a four with an open three,
 * two open threes), a four before a three, and then those that also take
 * a cell where the defender would threaten. The order decides which win
 * is found and how soon, never whether one is sound. */
static void gmk_vct_order(const gmk_vct *v, uint16_t *moves, int n)
{
    uint8_t score[GMK_MAX * GMK_MAX];
    int col = v->att + 1, dcol = 2 - v->att;
    for (int i = 0; i < n; i++) {
        uint32_t st = v->st[moves[i]];
        uint32_t mine = st & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR | GMK_LS_THREE, col));
        uint32_t theirs = st & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR | GMK_LS_THREE, dcol));
        int k = 0, sc;
        for (int d = 0; d < 4; d++)
            k += ((mine >> (8 * d)) & 0xff) != 0;
        sc = 4 * k + (theirs != 0) + 2 * ((mine & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col))) != 0);
        uint16_t m = moves[i];
        int j = i;
        for (; j > 0 && score[j - 1] < sc; j--) {
            moves[j] = moves[j - 1];
            score[j] = score[j - 1];
        }
        moves[j] = m;
        score[j] = (uint8_t)sc;
    }
}

/* The GMK_LS_ bits of both colours (as gmk_lines_rate) of empty cell c
 * along gmk_dirs[d], were value val (1 or 2) put at the empty cell k
 * steps away on that line. */
static unsigned gmk_vct_rate_with(gmk_vct *v, int c, int d, int k, int val)
{
    int pos;
    const uint32_t *w = gmk_lines_at(&v->L, c, d, &pos);
    uint32_t t[3] = {w[0], w[1], w[2]}, bit = 1u << (pos + k);
    t[val - 1] |= bit;
    t[2] &= ~bit;
    return gmk_lines_rate(t, pos, v->g.exact);
}

/* Appends to moves[0 .. n - 1] (the attacker's fours and threes) his quiet
 * threats: the empty region cells after which some cell c would make him
 * a four and, in another line, an open three or a second four, which it
 * did not before. Such a threat wins unless answered (gmk_vct_answers_43).
 * Only cells within 4 of c on the line that changes are looked at: the
 * line words with the stone put in, no move played. Returns the new n. */
static int gmk_vct_quiet(gmk_vct *v, uint16_t *moves, int n)
{
    int col = v->att + 1, sh = 4 * v->att;
    uint32_t fours = GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col));
    uint32_t threes = GMK_VS_ANY(GMK_VS(GMK_LS_THREE, col));
    uint32_t id = ++v->stamp_id;
    for (int i = 0; i < n; i++)
        v->stamp[moves[i]] = id;
    for (int i = 0; i < v->n_cells; i++) {
        int c = v->cells[i];
        uint32_t st = v->st[c];
        if (v->g.b[c] != 0 || !(st & (fours | threes)))
            continue;
        for (int d = 0; d < 4; d++) {
            uint32_t others = st & ~(0xffu << (8 * d));
            unsigned need = (others & fours)    ? GMK_LS_FOUR | GMK_LS_THREE
                            : (others & threes) ? GMK_LS_FOUR
                                                : 0;
            if (!need || ((st >> (8 * d + sh)) & need))
                continue;
            for (int k = -4; k <= 4; k++) {
                int m = c + k * gmk_dirs[d];
                if (k == 0 || v->g.b[m] != 0 || !v->in_region[m] || v->stamp[m] == id ||
                    !((gmk_vct_rate_with(v, c, d, k, col) >> sh) & need))
                    continue;
                v->stamp[m] = id;
                moves[n++] = (uint16_t)m;
            }
        }
    }
    return n;
}

static bool gmk_vct_defend(gmk_vct *v, int depth, int threes);
static bool gmk_vct_threats(gmk_vct *v, int depth, int threes, int block);

/* The attacker to move, with threes open threes played on the way here.
 * Returns whether a win is proven. */
static bool gmk_vct_attack(gmk_vct *v, int depth, int threes)
{
    int col = v->att + 1, dcol = 2 - v->att, x[2];
    if (gmk_vct_spent(v))
        return false;
    if (gmk_vct_fives(v, col, x, 1)) {
        v->first = depth == 0 ? x[0] : v->first;
        return true;
    }
    int nd = gmk_vct_fives(v, dcol, x, 2);
    if (nd >= 2 || depth >= v->max_depth)
        return false;
    /* A position solved before: a win, or a failure with as much left. */
    uint32_t left = (uint32_t)(v->max_depth - depth) << 8 | (uint32_t)(v->max_threes - threes);
    gmk_vct_entry *e = &v->tt[v->hash % GMK_VCT_TT];
    if (e->hash == v->hash && e->gen == v->gen && depth > 0 &&
        (e->left == GMK_VCT_WON ||
         ((e->left >> 8) >= (left >> 8) && (e->left & 0xff) >= (left & 0xff))))
        return e->left == GMK_VCT_WON;
    bool won = gmk_vct_threats(v, depth, threes, nd ? x[0] : -1);
    if (won || v->nodes <= v->budget) {
        e->hash = v->hash;
        e->gen = v->gen;
        e->left = won ? GMK_VCT_WON : left;
    }
    return won;
}

/* The attacker's threats, into moves[], most promising first: every four
 * and, with threes, every open three (and on the first move the quiet
 * threats). Returns their number, or -1 when a four makes two five points,
 * a win at once, whose cell goes to *win. */
static int gmk_vct_threat_moves(gmk_vct *v, int depth, bool threes, uint16_t *moves, int *win)
{
    int col = v->att + 1, n = 0;
    for (int i = 0; i < v->n_cells; i++) {
        int p = v->cells[i];
        if (v->g.b[p] == 0 && (v->st[p] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col))))
            moves[n++] = (uint16_t)p;
    }
    for (int i = 0; i < n; i++)
        if (gmk_vct_double(v, moves[i])) {
            *win = moves[i];
            return -1;
        }
    for (int i = 0; i < v->n_cells && threes; i++) {
        int p = v->cells[i];
        uint32_t st = v->st[p];
        /* The threes that are no fours (those are listed already). */
        if (v->g.b[p] == 0 && !(st & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col))) &&
            (st & GMK_VS_ANY(GMK_VS(GMK_LS_THREE, col))))
            moves[n++] = (uint16_t)p;
    }
    if (depth == 0 && threes)
        n = gmk_vct_quiet(v, moves, n);
    gmk_vct_order(v, moves, n);
    return n;
}

/* gmk_vct_attack past the quick checks: the defender's one five point
 * block (or -1) blocked, or else the attacker's threats tried. */
static bool gmk_vct_threats(gmk_vct *v, int depth, int threes, int block)
{
    int col = v->att + 1;
    if (block >= 0) {
        /* Forced: block, and the defender must answer whatever threat is left. */
        gmk_vct_mark old = gmk_vct_place(v, block, col);
        bool won = gmk_vct_defend(v, depth + 1, threes);
        gmk_vct_unplace(v, block, old);
        v->first = won && depth == 0 ? block : v->first;
        return won;
    }
    /* Threats: a four that makes two five points wins at once; otherwise
     * every four and (while threes are left) every open three is tried,
     * most promising first. */
    uint16_t moves[GMK_MAX * GMK_MAX];
    int win, n = gmk_vct_threat_moves(v, depth, threes < v->max_threes, moves, &win);
    if (n < 0) {
        v->first = depth == 0 ? win : v->first;
        return true;
    }
    for (int i = 0; i < n; i++) {
        bool three = !(v->st[moves[i]] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col)));
        gmk_vct_mark old = gmk_vct_place(v, moves[i], col);
        bool won = gmk_vct_defend(v, depth + 1, threes + three);
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
 * his winning fours w[0 .. n - 1]. Only the line through r of each is
 * rated again, with the stone put in its line words (a winning four not in
 * line with r within 5 stays one), so that most answers are refuted
 * without being played out. */
static bool gmk_vct_stops(gmk_vct *v, int r, const int *w, int n)
{
    int dirs[64], offs[64];
    for (int i = 0; i < n; i++) {
        int dr = (r >> 5) - (w[i] >> 5), dc = (r & 31) - (w[i] & 31);
        int ar = dr < 0 ? -dr : dr, ac = dc < 0 ? -dc : dc;
        if (ar > 5 || ac > 5)
            return false;
        dirs[i] = dr == 0 ? 0 : dc == 0 ? 1 : dr == dc ? 2 : dr == -dc ? 3 : -1;
        if (dirs[i] < 0 && w[i] != r)
            return false;
        offs[i] = dr == 0 ? dc : dr; /* r's place on the line, from w[i]'s. */
    }
    for (int i = 0; i < n; i++) {
        if (w[i] == r)
            continue;
        int d = dirs[i];
        uint32_t st = (v->st[w[i]] & ~(0xffu << (8 * d))) |
                      gmk_vct_rate_with(v, w[i], d, offs[i], 2 - v->att) << (8 * d);
        if (gmk_vct_double_st(v, st))
            return false;
    }
    return true;
}

/* Appends to cand[0 .. n - 1] the defender's moves that make a four, the
 * counters to any threat, less those stamped id (and stamps them); returns
 * the new n. */
static int gmk_vct_counters(gmk_vct *v, uint16_t *cand, int n, uint32_t id)
{
    for (int i = 0; i < v->n_cells; i++) {
        int q = v->cells[i];
        if (v->g.b[q] == 0 && v->stamp[q] != id &&
            (v->st[q] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, 2 - v->att)))) {
            v->stamp[q] = id;
            cand[n++] = (uint16_t)q;
        }
    }
    return n;
}

/* A four-three point of the attacker's that blocking its four does not
 * answer: an empty region cell c where he makes a four along gmk_dirs[*d1]
 * and an open three along gmk_dirs[*d2], the four's one five point *f
 * being no cell where the defender would make a four or a five himself.
 * Returns c, or -1 when there is none. */
static int gmk_vct_find_43(gmk_vct *v, int *d1, int *d2, int *f)
{
    int col = v->att + 1, dcol = 2 - v->att, sh = 4 * v->att;
    const uint32_t counter = GMK_VS_ANY(GMK_VS(GMK_LS_FOUR | GMK_LS_FIVE, dcol));
    for (int i = 0; i < v->n_cells; i++) {
        int c = v->cells[i];
        uint32_t st = v->st[c];
        if (v->g.b[c] != 0 || !(st & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col))) ||
            !(st & GMK_VS_ANY(GMK_VS(GMK_LS_THREE, col))))
            continue;
        for (int a = 0; a < 4; a++) {
            int b = 0;
            while (b < 4 && (b == a || !((st >> (8 * b + sh)) & GMK_LS_THREE)))
                b++;
            if (!((st >> (8 * a + sh)) & GMK_LS_FOUR) || b == 4)
                continue;
            unsigned own, emp, fp;
            gmk_lines_masks(&v->L, c, a, col, &own, &emp);
            fp = gmk_fp(own, emp, v->g.exact[col - 1]);
            if (!fp || (fp & (fp - 1)))
                continue; /* (Two five points would make c a double.) */
            int q = c + (gmk_low_bit(fp) - 5) * gmk_dirs[a];
            if ((v->in_region[q] ? v->st[q] : gmk_vct_rate_cell(v, q)) & counter)
                continue;
            *d1 = a;
            *d2 = b;
            *f = q;
            return c;
        }
    }
    return -1;
}

/* The defender to move, the attacker having no five point and no double
 * but a four-three point c (gmk_vct_find_43): he threatens c, a four
 * whose one forced block f leaves him the open three, and then a straight
 * four. A move can stop that only by one of:
 *   - taking c or f (another cell of the four's line leaves the window of
 *     c, its three stones and f as it is);
 *   - taking a cell of the three's line that leaves c no open three there
 *     (found by rating c's line with the stone put in);
 *   - making a four of the defender's own, which must be answered first;
 *   - making f a four for the defender: a cell in a window of five
 *     through f, off the four's line, holding two of his stones and none
 *     of the attacker's, so that the forced block gains him the tempo
 *     (f already such a point is excluded by gmk_vct_find_43).
 * After any other move c, f and the straight four follow, the defender
 * having no five and no four on the way: the move loses. Puts these into
 * cand[] and returns their number; -1 when there is no such threat. */
static int gmk_vct_answers_43(gmk_vct *v, uint16_t *cand)
{
    int dcol = 2 - v->att, d1, d2, f, n = 0;
    int c = gmk_vct_find_43(v, &d1, &d2, &f);
    if (c < 0)
        return -1;
    uint32_t id = ++v->stamp_id;
    v->stamp[c] = v->stamp[f] = id;
    cand[n++] = (uint16_t)c;
    cand[n++] = (uint16_t)f;
    for (int d = 0; d < 4; d++) {
        unsigned own, emp;
        if (d == d1)
            continue;
        gmk_lines_masks(&v->L, f, d, dcol, &own, &emp);
        unsigned cells = gmk_four_cells(own, emp);
        for (int k = 0; k < 11; k++) {
            int q = f + (k - 5) * gmk_dirs[d];
            if (((cells >> k) & 1) && v->stamp[q] != id) {
                v->stamp[q] = id;
                cand[n++] = (uint16_t)q;
            }
        }
    }
    n = gmk_vct_counters(v, cand, n, id);
    for (int k = -5; k <= 5; k++) {
        int q = c + k * gmk_dirs[d2];
        if (v->g.b[q] == 0 && v->stamp[q] != id &&
            !((gmk_vct_rate_with(v, c, d2, k, dcol) >> (4 * v->att)) & GMK_LS_THREE)) {
            v->stamp[q] = id;
            cand[n++] = (uint16_t)q;
        }
    }
    return n;
}

/* The defender's answers, into cand[], the attacker having no five point
 * (and the defender none): those that may stop the attacker's winning
 * fours (points on their lines that leave him none, gmk_vct_stops) and the
 * defender's own fours; without a winning four, gmk_vct_answers_43's.
 * Every other move loses. Returns their number, or -1 when the attacker
 * threatens nothing (or more than can be listed): the line fails. */
static int gmk_vct_answers(gmk_vct *v, uint16_t *cand)
{
    int dcol = 2 - v->att, w[64], nw = 0, n = 0, k = 0, nf = 0;
    const uint32_t dfour = GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, dcol));
    uint16_t fours[GMK_MAX * GMK_MAX];
    /* One pass over the region: the attacker's doubles (up to 64) and the
     * defender's fours (as gmk_vct_counters lists them). */
    for (int i = 0; i < v->n_cells && nw < 64; i++) {
        int p = v->cells[i];
        if (v->g.b[p] != 0)
            continue;
        if (gmk_vct_double(v, p))
            w[nw++] = p;
        if (v->st[p] & dfour)
            fours[nf++] = (uint16_t)p;
    }
    if (nw == 64)
        return -1; /* Too many threats to list: give up, soundly. */
    if (nw == 0)
        return gmk_vct_answers_43(v, cand);
    uint32_t id = ++v->stamp_id;
    for (int i = 0; i < nw; i++)
        for (int d = 0; d < 4; d++)
            for (int j = -5; j <= 5; j++) {
                int q = w[i] + j * gmk_dirs[d];
                if (v->g.b[q] == 0 && v->stamp[q] != id) {
                    v->stamp[q] = id;
                    cand[n++] = (uint16_t)q;
                }
            }
    int n_line = n; /* The rest are fours of the defender's. */
    for (int i = 0; i < nf; i++)
        if (v->stamp[fours[i]] != id) {
            v->stamp[fours[i]] = id;
            cand[n++] = fours[i];
        }
    for (int i = 0; i < n; i++) {
        int r = cand[i];
        bool counter =
            i >= n_line || (v->in_region[r] && (v->st[r] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, dcol))));
        if (counter || gmk_vct_stops(v, r, w, nw))
            cand[k++] = (uint16_t)r;
    }
    return k;
}

/* The defender to move. Returns whether every answer loses. */
static bool gmk_vct_defend(gmk_vct *v, int depth, int threes)
{
    int col = v->att + 1, dcol = 2 - v->att, x[2];
    if (gmk_vct_spent(v))
        return false;
    if (gmk_vct_fives(v, dcol, x, 1))
        return false;
    int na = gmk_vct_fives(v, col, x, 2);
    if (na >= 2)
        return true;
    if (na == 1) {
        gmk_vct_mark old = gmk_vct_place(v, x[0], dcol);
        bool won = gmk_vct_attack(v, depth, threes);
        gmk_vct_unplace(v, x[0], old);
        return won;
    }
    uint16_t cand[GMK_MAX * GMK_MAX];
    int n = gmk_vct_answers(v, cand);
    for (int i = 0; i < n; i++) {
        gmk_vct_mark old = gmk_vct_place(v, cand[i], dcol);
        bool lost = gmk_vct_attack(v, depth, threes);
        gmk_vct_unplace(v, cand[i], old);
        if (!lost)
            return false;
    }
    return n >= 0;
}

/*
 * The same threats searched by proof numbers (df-pn: depth-first
 * proof-number search, with thresholds): the attacker's node is won when
 * one of its moves wins, the defender's when all of his lose, and the
 * search always goes where the fewest positions remain to be settled to
 * prove the root, or to disprove it: the proof number of an attacker's
 * node is the least of its moves', of a defender's the sum of his
 * answers'; the disproof numbers the other way round. A position not yet
 * visited counts 1 and 1. Iterative deepening on the threes (above) finds
 * short wins cheaply but spends ten times more for each three a win needs;
 * the proof numbers follow the narrowest lines of defence, however many
 * threes they take. The numbers live in the VCT's table (left and dn) by
 * the position's hash; a position decided is 0 and GMK_PN_INF. Every move
 * is generated by the functions above, so a win is as sound as theirs.
 */
#define GMK_PN_INF  0x3fffffffu
#define GMK_PN_WON  (-1)
#define GMK_PN_LOST (-2)

/* The moves of the attacker to move (of the defender, with def) into
 * moves[]: his threats (or the one block he must play), or the defender's
 * answers (or the block); or GMK_PN_WON / GMK_PN_LOST when the position
 * is decided without a move (an attacker's win at once at depth 0 goes to
 * v->first). */
static int gmk_pn_moves(gmk_vct *v, bool def, int depth, uint16_t *moves)
{
    int col = v->att + 1, dcol = 2 - v->att, x[2], win;
    if (!def) {
        if (gmk_vct_fives(v, col, x, 1)) {
            v->first = depth == 0 ? x[0] : v->first;
            return GMK_PN_WON;
        }
        int nd = gmk_vct_fives(v, dcol, x, 2);
        if (nd >= 2 || depth >= v->max_depth)
            return GMK_PN_LOST;
        if (nd == 1) {
            moves[0] = (uint16_t)x[0];
            return 1;
        }
        int n = gmk_vct_threat_moves(v, depth, true, moves, &win);
        if (n < 0)
            v->first = depth == 0 ? win : v->first;
        return n < 0 ? GMK_PN_WON : n == 0 ? GMK_PN_LOST : n;
    }
    if (gmk_vct_fives(v, dcol, x, 1))
        return GMK_PN_LOST;
    int na = gmk_vct_fives(v, col, x, 2);
    if (na >= 2)
        return GMK_PN_WON;
    if (na == 1) {
        moves[0] = (uint16_t)x[0];
        return 1;
    }
    int n = gmk_vct_answers(v, moves);
    return n < 0 ? GMK_PN_LOST : n == 0 ? GMK_PN_WON : n;
}

/* The proof and disproof numbers of v's position in the table (1 and 1
 * when it has none), with x played by col first when x >= 0. */
static void gmk_pn_get(const gmk_vct *v, int x, int col, uint32_t *pn, uint32_t *dn)
{
    uint64_t h = x >= 0 ? v->hash ^ gmk_vct_key(x, col) : v->hash;
    const gmk_vct_entry *e = &v->tt[h % GMK_VCT_TT];
    bool hit = e->hash == h && e->gen == v->gen;
    *pn = hit ? e->left : 1;
    *dn = hit ? e->dn : 1;
}

static void gmk_pn_put(gmk_vct *v, uint32_t pn, uint32_t dn)
{
    gmk_vct_entry *e = &v->tt[v->hash % GMK_VCT_TT];
    e->hash = v->hash;
    e->gen = v->gen;
    e->left = pn;
    e->dn = dn;
}

/* Searches v's position (the defender to move with def; depth attacker
 * moves played) until its proof number reaches thpn or its disproof
 * number thdn, or the budget is spent; leaves its numbers in the table. */
static void gmk_pn_search(gmk_vct *v, bool def, int depth, uint32_t thpn, uint32_t thdn)
{
    uint16_t moves[GMK_MAX * GMK_MAX];
    if (gmk_vct_spent(v))
        return;
    int n = gmk_pn_moves(v, def, depth, moves);
    if (n < 0) {
        gmk_pn_put(v, n == GMK_PN_WON ? 0 : GMK_PN_INF, n == GMK_PN_WON ? GMK_PN_INF : 0);
        return;
    }
    int col = def ? 2 - v->att : v->att + 1, best = 0;
    /* The moves' numbers, read from the table once, and again for the
     * move searched after each search (another line may reach one of the
     * others meanwhile: it is seen when this node is entered again). */
    uint32_t cpn[GMK_MAX * GMK_MAX], cdn[GMK_MAX * GMK_MAX];
    for (int i = 0; i < n; i++)
        gmk_pn_get(v, moves[i], col, &cpn[i], &cdn[i]);
    for (;;) {
        /* The mover's own number (the attacker's proof number, the
         * defender's disproof number) is the least of his moves'; the
         * other, their sum. */
        uint32_t least = GMK_PN_INF + 1, second = GMK_PN_INF, sum = 0, other = 0;
        for (int i = 0; i < n; i++) {
            uint32_t own = def ? cdn[i] : cpn[i], oth = def ? cpn[i] : cdn[i];
            if (own < least) {
                second = least;
                least = own, best = i, other = oth;
            } else if (own < second)
                second = own;
            sum = sum + oth < GMK_PN_INF ? sum + oth : GMK_PN_INF;
        }
        second = second < GMK_PN_INF ? second : GMK_PN_INF;
        uint32_t pn = def ? sum : least, dn = def ? least : sum;
        gmk_pn_put(v, pn, dn);
        if (depth == 0 && !def && pn == 0)
            v->first = moves[best];
        if (pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || v->nodes > v->budget)
            return;
        /* The best move gets thresholds that send the search back here
         * once another move would be better by half again (the 1 + epsilon
         * of Pawlewicz and Lew: fewer returns to the same node). */
        uint32_t sec = second < GMK_PN_INF ? second + second / 2 + 1 : GMK_PN_INF;
        uint32_t th_own = (def ? thdn : thpn) < sec ? (def ? thdn : thpn) : sec;
        uint64_t th_oth = (uint64_t)(def ? thpn : thdn) - sum + other;
        th_oth = th_oth < GMK_PN_INF ? th_oth : GMK_PN_INF;
        gmk_vct_mark old = gmk_vct_place(v, moves[best], col);
        gmk_pn_search(v, !def, def ? depth : depth + 1, def ? (uint32_t)th_oth : th_own,
                      def ? th_own : (uint32_t)th_oth);
        gmk_pn_get(v, -1, 0, &cpn[best], &cdn[best]);
        gmk_vct_unplace(v, moves[best], old);
    }
}

/* Starts a new generation of v's table: the entries written before are
 * void (cleared outright once every 2^32 generations). */
static void gmk_vct_new_gen(gmk_vct *v)
{
    if (++v->gen == 0) {
        memset(v->tt, 0, sizeof v->tt);
        v->gen = 1;
    }
}

/* After a win is found (v->first), looks for one in fewer attacker moves:
 * rounds allowed 1, 2, ... attacker moves and every three, each with a
 * table of its own (a win that a longer round stored may not fit), until
 * one wins, or as many positions again as the first win took are spent
 * (within effort). v->first ends as the shortest win found. So of the
 * wins within the VCT's threats the shortest is played, when it is found
 * as cheaply as the first (a long win usually is not shortened). */
static void gmk_vct_shorten(gmk_vct *v, uint32_t effort)
{
    int first = v->first;
    uint32_t stop = (uint64_t)2 * v->nodes < effort ? 2 * v->nodes : effort;
    v->max_threes = GMK_VCT_THREES;
    for (v->max_depth = 1; v->max_depth < GMK_VCT_DEPTH && v->nodes < stop; v->max_depth++) {
        gmk_vct_new_gen(v);
        gmk_vct_budget(v, stop);
        v->first = -1;
        if (gmk_vct_attack(v, 0, 0) && v->first >= 0) {
            first = v->first;
            break;
        }
    }
    v->first = first;
}

/* A VCT within effort positions for player att (the other player, when to
 * move, taken to pass), and before gmk_clock() reaches deadline (0: no
 * time bound), with the positions visited in *used; freestyle and standard
 * rules only. v is the thread's deep memory (deep_size). With shortest, a
 * win found is shortened (gmk_vct_shorten). */
static bool gmk_vct_for(const gmk *t, int att, uint32_t effort, double deadline, bool shortest,
                        gmk_vct *v, uint32_t *used, banyan_move *out)
{
    int size = t->size;
    *used = 0;
    if (gmk_is_over(t) || t->rule == GMK_RENJU || t->ply < 4 || !v)
        return false;
    gmk_board_load(t, &v->g);
    memset(v->in_region, 0, sizeof v->in_region);
    memset(v->stamp, 0, sizeof v->stamp);
    v->n_cells = 0;
    v->nodes = 0;
    v->cap = v->budget = effort;
    v->deadline = deadline;
    v->stamp_id = 0;
    v->att = att;
    v->first = -1;
    v->n_undo = 0;
    v->hash = 0x9e3779b97f4a7c15ull; /* Not 0, which marks an empty entry. */
    v->max_depth = GMK_VCT_DEPTH;
    gmk_vct_new_gen(v);
    gmk_lines_load(&v->L, t);
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++)
            if (gmk_bit(t->near, r * GMK_STRIDE + c))
                gmk_vct_enter(v, gmk_bidx(r, c));
    v->n_fives = 0;
    for (int i = 0; i < v->n_cells; i++)
        if (v->st[v->cells[i]] & GMK_VS_ANY(GMK_VS(GMK_LS_FIVE, 1) | GMK_VS(GMK_LS_FIVE, 2)))
            v->fives[v->n_fives++] = v->cells[i];
    /* First the wins with fewest threes, the cheapest to find, by
     * iterative deepening on the threes (up to GMK_VCT_ID_THREES, within a
     * quarter of the effort); then the proof-number search with the rest. */
    bool found = false;
    gmk_vct_budget(v, effort / 4);
    for (v->max_threes = 0; !found && v->max_threes <= GMK_VCT_ID_THREES && v->nodes < v->budget;
         v->max_threes++)
        found = gmk_vct_attack(v, 0, 0) && v->first >= 0;
    gmk_vct_budget(v, effort);
    if (!found && v->nodes < v->budget) {
        uint32_t pn, dn;
        gmk_vct_new_gen(v);
        gmk_pn_search(v, false, 0, GMK_PN_INF, GMK_PN_INF);
        gmk_pn_get(v, -1, 0, &pn, &dn);
        found = pn == 0 && v->first >= 0;
    }
    if (found && shortest)
        gmk_vct_shorten(v, effort);
    *used = v->nodes;
    if (found)
        *out = gmk_b2move(size, v->first);
    return found;
}

/* The deadline of a call given seconds (0: none). */
static double gmk_deadline(double seconds)
{
    return seconds > 0 ? gmk_clock() + seconds : 0;
}

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
#define GMK_QUIET (1u << 12)

typedef struct gmk_deep {
    gmk_vct vct;               /* prove_win_deep's and candidates_deep's. */
    uint64_t quiet[GMK_QUIET]; /* Quiet positions. */
} gmk_deep;

_Static_assert(sizeof(gmk_deep) <= GMK_DEEP_SIZE, "GMK_DEEP_SIZE holds the deep memory");

/* The game table's prove_win_deep: a VCT for the player to move. */
bool gmk_prove_win_deep(const void *s, uint32_t effort, double seconds, void *mem, banyan_move *out)
{
    const gmk *t = s;
    uint32_t used;
    return t->prover == GMK_PROVER_VCT && gmk_vct_for(t, t->ply & 1, effort, gmk_deadline(seconds),
                                                      true, &((gmk_deep *)mem)->vct, &used, out);
}

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
    int n = banyan_game_gomoku.candidates(s, out), me = t->ply & 1, size = t->size, n_keep = 0;
    int far[BANYAN_MAX_MOVES];
    bool lost[BANYAN_MAX_MOVES];
    banyan_move w;
    uint32_t used = 0, total = 0;

    if (n <= 1 || t->rule == GMK_RENJU || t->prover != GMK_PROVER_VCT)
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
