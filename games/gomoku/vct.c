/*
 * vct.c - Gomoku's VCT (victory by continuous threats, fours and open
 * threes), the game table's prove_win_deep, which the engine runs on the
 * root and its children, and which the root's deeper defence (defence.c)
 * runs for the opponent. Its table and workspace live in the engine's
 * per-thread memory (the game's mem_size, prover.h).
 */
#include "prover.h"

#include <string.h>
#include <time.h>

#define GMK_VCT_THREES    8    /* Open threes in a VCT's line when it is shortened, most. */
#define GMK_VCT_ID_THREES 2    /* The same for the rounds before the proof-number search. */
#define GMK_VCT_CLOCK     1023 /* A VCT with a time bound reads the clock every 1024 positions. */

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
 * attacker's choices can only hide wins.
 *
 * Renju. White attacking: Black's fives are exact (the rule's per-colour
 * fives); a four whose one five point is forbidden to Black wins, as he
 * cannot block it; any other defence that would be forbidden to Black is
 * still tried, which can only hide wins. Black attacking plays no
 * forbidden point (his threats, a forced block, the winning straight
 * four), and a threat of his counts only when no White stone can take it
 * away but by occupying or blocking it: a White stone anywhere can change
 * which of Black's points are forbidden (a three is true only when its
 * straight four is allowed, checked recursively), so a point whose shapes
 * alone could make it a three-three or a four-four after such a stone is
 * no threat (gmk_vct_firm). A threat so left out only widens the White
 * answers that must be refuted.
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

/* Seconds of CLOCK_MONOTONIC, for the VCT's time bound. */
static double gmk_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether deadline (a gmk_clock() time; 0: none) has passed. */
bool gmk_past(double deadline)
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

/* Whether the attacker is renju's Black, who has forbidden points. */
static inline bool gmk_vct_barred_side(const gmk_vct *v)
{
    return v->g.renju && v->att == 0;
}

/* Whether the attacker may play at empty cell p now: not a point
 * forbidden to renju's Black. */
static inline bool gmk_vct_legal(gmk_vct *v, int p)
{
    return !gmk_vct_barred_side(v) || !gmk_forbidden_at(v->g.b, p, 0);
}

/* Whether the defender, renju's Black, may not block the attacker's one
 * five point p: it is forbidden to him, and White makes five next. */
static inline bool gmk_vct_block_barred(gmk_vct *v, int p)
{
    return v->g.renju && v->att == 1 && gmk_forbidden_at(v->g.b, p, 0);
}

/* Renju's Black: whether his empty region cell p is allowed now and stays
 * allowed whatever White stones are added, so long as they leave line d
 * (p's straight four or four) as it is: no four in another line and an
 * open three in at most one other (a White stone takes shapes away, but
 * may make a three true by allowing its straight four). */
static bool gmk_vct_firm(gmk_vct *v, int p, int d)
{
    int threes = 0;
    for (int i = 0; i < 4; i++) {
        unsigned ls = (v->st[p] >> (8 * i)) & 0xfu; /* Black's, the low nibble. */
        if (i == d)
            continue;
        if (ls & (GMK_LS_FOUR | GMK_LS_FOUR2))
            return false;
        threes += (ls & GMK_LS_THREE) != 0;
    }
    return threes <= 1 && !gmk_forbidden_at(v->g.b, p, 0);
}

/* Renju's Black: the line of a straight four that empty region cell p makes
 * (one line with two five points and no other four), or -1. */
static int gmk_vct_straight_line(const gmk_vct *v, int p)
{
    int d = -1;
    for (int i = 0; i < 4; i++) {
        unsigned ls = (v->st[p] >> (8 * i)) & 0xfu;
        if (ls & GMK_LS_FOUR2) {
            if (d >= 0)
                return -1;
            d = i;
        } else if (ls & GMK_LS_FOUR)
            return -1;
    }
    return d;
}

/* A winning threat of the attacker's at empty region cell p, for the
 * defender's answers: two five points (gmk_vct_double), and for renju's
 * Black a straight four that is firm (gmk_vct_firm). */
static bool gmk_vct_threat_at(gmk_vct *v, int p)
{
    if (!gmk_vct_double(v, p))
        return false;
    if (!gmk_vct_barred_side(v))
        return true;
    int d = gmk_vct_straight_line(v, p);
    return d >= 0 && gmk_vct_firm(v, p, d);
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
        if (v->g.b[p] == 0 && (v->st[p] & GMK_VS_ANY(GMK_VS(GMK_LS_FOUR, col))) &&
            gmk_vct_legal(v, p))
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
            (st & GMK_VS_ANY(GMK_VS(GMK_LS_THREE, col))) && gmk_vct_legal(v, p))
            moves[n++] = (uint16_t)p;
    }
    if (depth == 0 && threes) {
        int k = n;
        n = gmk_vct_quiet(v, moves, n);
        for (int i = k; i < n; i++) /* (A quiet threat may be forbidden to Black.) */
            if (gmk_vct_legal(v, moves[i]))
                moves[k++] = moves[i];
        n = k;
    }
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
        if (!gmk_vct_legal(v, block))
            return false; /* Renju: Black cannot block there. */
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

/* Renju's Black: whether his four-three at c (the four along gmk_dirs[d1],
 * blocked at f, the open three along gmk_dirs[d2]) holds whatever other
 * White stones come first: c is firm (gmk_vct_firm), and once c and f are
 * played, every point of the three's line making a straight four is firm,
 * and there is one. */
static bool gmk_vct_firm_43(gmk_vct *v, int c, int d1, int d2, int f)
{
    if (!gmk_vct_firm(v, c, d1))
        return false;
    int straight = 0;
    bool firm = true;
    gmk_vct_mark mc = gmk_vct_place(v, c, 1);
    gmk_vct_mark mf = gmk_vct_place(v, f, 2);
    for (int k = -4; k <= 4 && firm; k++) {
        int s = c + k * gmk_dirs[d2];
        if (k == 0 || v->g.b[s] != 0 || !v->in_region[s] ||
            !((v->st[s] >> (8 * d2)) & GMK_LS_FOUR2))
            continue;
        straight++;
        firm = gmk_vct_straight_line(v, s) == d2 && gmk_vct_firm(v, s, d2);
    }
    gmk_vct_unplace(v, f, mf);
    gmk_vct_unplace(v, c, mc);
    return firm && straight > 0;
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
            int q = c + (bits_low(fp) - 5) * gmk_dirs[a];
            if ((v->in_region[q] ? v->st[q] : gmk_vct_rate_cell(v, q)) & counter)
                continue;
            if (gmk_vct_barred_side(v) && !gmk_vct_firm_43(v, c, a, b, q))
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
        if (gmk_vct_threat_at(v, p))
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
    if (na >= 2 || (na == 1 && gmk_vct_block_barred(v, x[0])))
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
            return gmk_vct_legal(v, x[0]) ? 1 : GMK_PN_LOST;
        }
        int n = gmk_vct_threat_moves(v, depth, true, moves, &win);
        if (n < 0)
            v->first = depth == 0 ? win : v->first;
        return n < 0 ? GMK_PN_WON : n == 0 ? GMK_PN_LOST : n;
    }
    if (gmk_vct_fives(v, dcol, x, 1))
        return GMK_PN_LOST;
    int na = gmk_vct_fives(v, col, x, 2);
    if (na >= 2 || (na == 1 && gmk_vct_block_barred(v, x[0])))
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
 * time bound), with the positions visited in *used; under every rule. v
 * is the thread's deep memory (mem_size). With shortest, a win found is
 * shortened (gmk_vct_shorten). */
bool gmk_vct_for(const gmk *t, int att, uint32_t effort, double deadline, bool shortest, gmk_vct *v,
                 uint32_t *used, banyan_move *out)
{
    int size = t->size;
    *used = 0;
    if (gmk_is_over(t) || t->ply < 4 || !v)
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
double gmk_deadline(double seconds)
{
    return seconds > 0 ? gmk_clock() + seconds : 0;
}

/* The game table's prove_win_deep: a VCT for the player to move. */
bool gmk_prove_win_deep(const void *s, uint32_t effort, double seconds, void *mem, banyan_move *out)
{
    const gmk *t = s;
    uint32_t used;
    return t->prover == GMK_PROVER_VCT && gmk_vct_for(t, t->ply & 1, effort, gmk_deadline(seconds),
                                                      true, &((gmk_deep *)mem)->vct, &used, out);
}
