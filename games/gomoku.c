/*
 * gomoku.c - Gomoku on square boards of 5x5 to 22x22: freestyle (five or
 * more wins), standard (exactly five) and renju (Black may not make 3-3, 4-4
 * or an overline, and wins only with exactly five).
 *
 * The state holds two bitboards of stones (bit r * 23 + c, so 22 rows fit in
 * 8 words) and a third of the empty cells within distance 2 of a stone, the
 * "near" candidates, which play() keeps up to date. Everything that looks at
 * shapes (rollouts, priors, renju's forbidden points, the VCF solver) first
 * copies the stones onto a local byte board with a border of 5 cells, so a
 * line of 11 cells around any point is read without bounds checks, and a
 * line is judged as two 11-bit masks (own stones, empty cells).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "banyan_game.h"
#include "config.h"
#include "point.h"

#define GMK_MIN         5                                  /* Smallest side. */
#define GMK_MAX         22                                 /* Largest side: columns a .. v. */
#define GMK_STRIDE      23                                 /* Bits per bitboard row. */
#define GMK_WORDS       ((GMK_MAX * GMK_STRIDE + 63) / 64) /* 506 bits: 8 words. */
#define GMK_PAD         5                                  /* Border of the byte board. */
#define GMK_BW          32                                 /* Byte board width: 22 + 2 * 5. */
#define GMK_BCELLS      (GMK_BW * GMK_BW)                  /* Byte board cells. */
#define GMK_NOBODY      2                                  /* winner while nobody has won. */
#define GMK_NO_CELL     0xffff                             /* last before the first move. */
#define GMK_EDGE        3                                  /* Byte board value off the board. */
#define GMK_VCF_NODES   2000                               /* Attacker moves tried per VCF call. */
#define GMK_VCF_DEPTH   32                                 /* Longest VCF, in attacker moves. */
#define GMK_VCT_NODES   10000                              /* Positions per VCT call. */
#define GMK_VCT_THREES  4                                  /* Open threes in a VCT, most. */
#define GMK_VCT_DEPTH   32                                 /* Longest VCT, in attacker moves. */
#define GMK_RENJU_DEPTH 6                                  /* Nesting of renju's three checks. */

enum { GMK_FREESTYLE, GMK_STANDARD, GMK_RENJU };         /* rule */
enum { GMK_CAND_NEAR, GMK_CAND_ALL };                    /* cands */
enum { GMK_RO_HEURISTIC, GMK_RO_NEAR, GMK_RO_UNIFORM };  /* rollout */
enum { GMK_PROVER_VCT, GMK_PROVER_VCF, GMK_PROVER_OFF }; /* prover */

/* The state. Only the stones, near, ply, last, winner and stuck change. */
typedef struct gmk {
    uint64_t stones[2][GMK_WORDS]; /* Black (player 0) and White; bit r * 23 + c. */
    uint64_t near[GMK_WORDS];      /* Empty cells within distance 2 of a stone (while not over). */
    uint16_t ply;                  /* Stones placed; its parity is the player to move. */
    uint16_t last;                 /* Cell r * size + c of the last move, or GMK_NO_CELL. */
    uint8_t size;                  /* Side, 5 .. 22. */
    uint8_t rule;                  /* GMK_FREESTYLE, GMK_STANDARD or GMK_RENJU. */
    uint8_t cands;                 /* GMK_CAND_NEAR or GMK_CAND_ALL. */
    uint8_t rollout;               /* GMK_RO_*. */
    uint8_t flat;                  /* priors=off: uniform priors (the textbook baseline). */
    uint8_t winner;                /* 0 or 1 once a player has won, else GMK_NOBODY. */
    uint8_t stuck;                 /* Renju: Black to move has only forbidden points. */
    uint8_t prover;                /* GMK_PROVER_*: the solvers the search may call. */
    uint8_t pad;                   /* Always zero. */
} gmk;

/* A byte board: 0 empty, 1 Black, 2 White, GMK_EDGE off the board; cell
 * (r, c) at (r + 5) * 32 + c + 5. exact[p] says whether player p wins only
 * with exactly five. */
typedef struct gmk_board {
    uint8_t b[GMK_BCELLS]; /* The cells. */
    uint8_t exact[2];      /* Per player: an overline does not win. */
    uint8_t renju;         /* Black has forbidden points. */
    uint8_t size;          /* Side. */
} gmk_board;

/* Byte board steps of the four directions: across, up, and the diagonals. */
static const int gmk_dirs[4] = {1, GMK_BW, GMK_BW + 1, GMK_BW - 1};

/* Byte board steps to the 24 cells within distance 2, nearest first. */
static const int gmk_ring[24] = {
    -GMK_BW - 1,
    -GMK_BW,
    -GMK_BW + 1,
    -1,
    1,
    GMK_BW - 1,
    GMK_BW,
    GMK_BW + 1,
    -2 * GMK_BW - 2,
    -2 * GMK_BW - 1,
    -2 * GMK_BW,
    -2 * GMK_BW + 1,
    -2 * GMK_BW + 2,
    -GMK_BW - 2,
    -GMK_BW + 2,
    -2,
    2,
    GMK_BW - 2,
    GMK_BW + 2,
    2 * GMK_BW - 2,
    2 * GMK_BW - 1,
    2 * GMK_BW,
    2 * GMK_BW + 1,
    2 * GMK_BW + 2,
};

/* Bits set in each 5-bit value. */
static const uint8_t gmk_pop5[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                     1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

static inline bool gmk_bit(const uint64_t *b, int i)
{
    return (b[i >> 6] >> (i & 63)) & 1;
}

static inline void gmk_set(uint64_t *b, int i)
{
    b[i >> 6] |= (uint64_t)1 << (i & 63);
}

static inline void gmk_clear(uint64_t *b, int i)
{
    b[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

static inline int gmk_popcount(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static inline int gmk_bidx(int r, int c)
{
    return (r + GMK_PAD) * GMK_BW + c + GMK_PAD;
}

/* Move (r * size + c) of byte board cell p. */
static inline banyan_move gmk_b2move(int size, int p)
{
    return (banyan_move)(((p >> 5) - GMK_PAD) * size + (p & 31) - GMK_PAD);
}

static inline int gmk_to_move(const void *s)
{
    return ((const gmk *)s)->ply & 1;
}

/* Whether player who wins only with exactly five under the rule. */
static inline bool gmk_exact(int rule, int who)
{
    return rule == GMK_STANDARD || (rule == GMK_RENJU && who == 0);
}

/* Copies the stones of t onto a byte board. */
static void gmk_board_load(const gmk *t, gmk_board *g)
{
    int n = t->size;
    memset(g->b, GMK_EDGE, sizeof g->b);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int i = r * GMK_STRIDE + c;
            g->b[gmk_bidx(r, c)] = (uint8_t)(gmk_bit(t->stones[0], i)   ? 1
                                             : gmk_bit(t->stones[1], i) ? 2
                                                                        : 0);
        }
    g->exact[0] = gmk_exact(t->rule, 0);
    g->exact[1] = gmk_exact(t->rule, 1);
    g->renju = t->rule == GMK_RENJU;
    g->size = (uint8_t)n;
}

/* Stones of colour col in a row through p along d, counting p itself. The
 * border stops every walk. */
static inline int gmk_run(const uint8_t *b, int p, int d, int col)
{
    int n = 1;
    for (int q = p + d; b[q] == col; q += d)
        n++;
    for (int q = p - d; b[q] == col; q -= d)
        n++;
    return n;
}

/* Whether colour col playing at p makes a winning five. */
static inline bool gmk_five_at(const uint8_t *b, int p, int col, bool exact)
{
    for (int i = 0; i < 4; i++) {
        int n = gmk_run(b, p, gmk_dirs[i], col);
        if (n == 5 || (n > 5 && !exact))
            return true;
    }
    return false;
}

/* The 11 cells p - 5d .. p + 5d as masks of colour col's stones (*own, with
 * p itself counted as own) and of empty cells (*emp, without p); bit 5 is p. */
static inline void gmk_line(const uint8_t *b, int p, int d, int col, unsigned *own, unsigned *emp)
{
    unsigned o = 0, e = 0;
    const uint8_t *q = b + p - 5 * d;
    for (int i = 0; i < 11; i++, q += d) {
        o |= (unsigned)(*q == col) << i;
        e |= (unsigned)(*q == 0) << i;
    }
    *own = o | 1u << 5;
    *emp = e & ~(1u << 5);
}

/* The five points of a line: the empty cells that complete a five (exactly
 * five when exact) together with the centre, bit 5 of own. Each candidate
 * five is a window of 5 cells holding the centre, 4 stones and 1 empty cell;
 * for an exact five the cells just outside the window must not be own. */
static inline unsigned gmk_fp(unsigned own, unsigned emp, bool exact)
{
    unsigned fp = 0;
    for (int s = 1; s <= 5; s++) {
        unsigned w = 0x1fu << s;
        if ((w & ~(own | emp)) || gmk_pop5[(own >> s) & 31] != 4)
            continue;
        if (exact && (((own >> (s - 1)) & 1) || ((own >> (s + 5)) & 1)))
            continue;
        fp |= w & emp;
    }
    return fp;
}

/* Fours that five points fp make in one line: a straight four (two points
 * five apart around four stones) is one four, two separate points are two
 * (the same-line double four, as X X X . X . X X X). */
static inline int gmk_fours(unsigned fp)
{
    if (!fp)
        return 0;
    if (fp & (fp >> 5))
        return 1;
    return gmk_popcount(fp);
}

static inline bool gmk_straight(unsigned fp)
{
    return (fp & (fp >> 5)) != 0;
}

static bool gmk_forbidden_at(uint8_t *b, int p, int depth);

/* Whether Black's stone at p (already on the board) makes a true three
 * along d: one more black stone e turns it into a straight four that holds
 * p, and e is itself not a forbidden point. */
static bool gmk_renju_three(uint8_t *b, int p, int d, unsigned own, unsigned emp, int depth)
{
    for (int i = 1; i <= 9; i++) {
        unsigned bit = 1u << i;
        if (!(emp & bit) || !gmk_straight(gmk_fp(own | bit, emp & ~bit, true)))
            continue;
        if (depth >= GMK_RENJU_DEPTH || !gmk_forbidden_at(b, p + (i - 5) * d, depth + 1))
            return true;
    }
    return false;
}

/* Renju: whether Black playing on the empty point p is forbidden. An exact
 * five comes first and is always allowed; then an overline, two or more
 * fours (a straight four counts once, two fours in one line twice), or two
 * or more true threes are forbidden. Threes are checked recursively, each
 * level with one more stone, down to GMK_RENJU_DEPTH (deeper points are
 * taken as allowed). b is restored before returning. */
static bool gmk_forbidden_at(uint8_t *b, int p, int depth)
{
    int runs[4], fours = 0, threes = 0;
    bool over = false, result;
    unsigned own[4], emp[4];

    for (int i = 0; i < 4; i++) {
        runs[i] = gmk_run(b, p, gmk_dirs[i], 1);
        if (runs[i] == 5)
            return false;
        over |= runs[i] > 5;
    }
    if (over)
        return true;
    for (int i = 0; i < 4; i++) {
        gmk_line(b, p, gmk_dirs[i], 1, &own[i], &emp[i]);
        fours += gmk_fours(gmk_fp(own[i], emp[i], true));
    }
    if (fours >= 2)
        return true;
    b[p] = 1;
    for (int i = 0; i < 4 && threes < 2; i++)
        if (!gmk_fp(own[i], emp[i], true) &&
            gmk_pop5[(own[i] >> 1) & 31] + gmk_pop5[(own[i] >> 6) & 15] >= 3 &&
            gmk_renju_three(b, p, gmk_dirs[i], own[i], emp[i], depth))
            threes++;
    b[p] = 0;
    result = threes >= 2;
    return result;
}

/* Runs of player who's stones through (r, c) on the bitboard, along (dr, dc). */
static int gmk_count(const gmk *t, int who, int r, int c, int dr, int dc)
{
    int n = 1, size = t->size;
    const uint64_t *b = t->stones[who];
    for (int rr = r + dr, cc = c + dc;
         rr >= 0 && rr < size && cc >= 0 && cc < size && gmk_bit(b, rr * GMK_STRIDE + cc);
         rr += dr, cc += dc)
        n++;
    for (int rr = r - dr, cc = c - dc;
         rr >= 0 && rr < size && cc >= 0 && cc < size && gmk_bit(b, rr * GMK_STRIDE + cc);
         rr -= dr, cc -= dc)
        n++;
    return n;
}

/* Whether player who's stone at (r, c) makes a winning five. */
static bool gmk_won_at(const gmk *t, int who, int r, int c)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    bool exact = gmk_exact(t->rule, who);
    for (int i = 0; i < 4; i++) {
        int n = gmk_count(t, who, r, c, dr[i], dc[i]);
        if (n == 5 || (n > 5 && !exact))
            return true;
    }
    return false;
}

static inline bool gmk_is_over(const gmk *t)
{
    return t->winner != GMK_NOBODY || t->stuck || t->ply == t->size * t->size;
}

/* Renju: whether Black, to move in t, has no point that is not forbidden. */
static bool gmk_black_stuck(const gmk *t)
{
    gmk_board g;
    gmk_board_load(t, &g);
    for (int r = 0; r < t->size; r++)
        for (int c = 0; c < t->size; c++) {
            int p = gmk_bidx(r, c);
            if (g.b[p] == 0 && !gmk_forbidden_at(g.b, p, 0))
                return false;
        }
    return true;
}

/* Places player who's stone on (r, c) and brings near, ply, last, winner and
 * stuck up to date. Any empty cell may be played. */
static void gmk_where(gmk *t, int r, int c)
{
    int who = t->ply & 1, size = t->size;
    int i = r * GMK_STRIDE + c;
    gmk_set(t->stones[who], i);
    gmk_clear(t->near, i);
    for (int rr = r - 2; rr <= r + 2; rr++)
        for (int cc = c - 2; cc <= c + 2; cc++) {
            if (rr < 0 || rr >= size || cc < 0 || cc >= size)
                continue;
            int j = rr * GMK_STRIDE + cc;
            if (!gmk_bit(t->stones[0], j) && !gmk_bit(t->stones[1], j))
                gmk_set(t->near, j);
        }
    t->ply++;
    t->last = (uint16_t)(r * size + c);
    if (gmk_won_at(t, who, r, c))
        t->winner = (uint8_t)who;
    else if (t->rule == GMK_RENJU && who == 1 && t->ply >= 8 && t->ply < size * size)
        t->stuck = gmk_black_stuck(t);
}

static void gmk_play(void *s, banyan_move m)
{
    gmk *t = s;
    gmk_where(t, (int)m / t->size, (int)m % t->size);
}

/* Empties the board of t, whose parameters are set. */
static void gmk_reset(gmk *t)
{
    memset(t->stones, 0, sizeof t->stones);
    memset(t->near, 0, sizeof t->near);
    t->ply = 0;
    t->last = GMK_NO_CELL;
    t->winner = GMK_NOBODY;
    t->stuck = 0;
}

/* Parameters size, rule, candidates, rollout, priors and prover, in any
 * order; the last of a repeated key counts. */
/* The index of val in the NULL-terminated names, or -1. */
static int gmk_choice(const char *val, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(val, names[i]))
            return i;
    return -1;
}

static int gmk_setup(void *s, const char *params)
{
    gmk *t = s;
    long size = 15;
    int rule = GMK_FREESTYLE, cands = GMK_CAND_NEAR, rollout = GMK_RO_HEURISTIC, flat = 0, rc;
    int prover = GMK_PROVER_VCT;
    const char *cursor = params;
    char key[16], val[16];

    while ((rc = banyan_params_next(&cursor, key, sizeof key, val, sizeof val)) == 1) {
        /* Each keyword parameter's values, in the order of its enum. */
        static const char *const rules[] = {"freestyle", "standard", "renju", NULL};
        static const char *const candidates[] = {"near", "all", NULL};
        static const char *const rollouts[] = {"heuristic", "near", "uniform", NULL};
        static const char *const priors[] = {"threats", "off", NULL};
        static const char *const provers[] = {"vct", "vcf", "off", NULL};
        int ok = !strcmp(key, "size") ? banyan_parse_int(val, GMK_MIN, GMK_MAX, &size) == BANYAN_OK
                 : !strcmp(key, "rule")       ? (rule = gmk_choice(val, rules)) >= 0
                 : !strcmp(key, "candidates") ? (cands = gmk_choice(val, candidates)) >= 0
                 : !strcmp(key, "rollout")    ? (rollout = gmk_choice(val, rollouts)) >= 0
                 : !strcmp(key, "priors")     ? (flat = gmk_choice(val, priors)) >= 0
                 : !strcmp(key, "prover")     ? (prover = gmk_choice(val, provers)) >= 0
                                              : 0;
        if (!ok)
            return BANYAN_EINVAL;
    }
    if (rc != 0)
        return BANYAN_EINVAL;
    memset(t, 0, sizeof *t); /* Also the padding, so equal positions have equal bytes. */
    t->size = (uint8_t)size;
    t->rule = (uint8_t)rule;
    t->cands = (uint8_t)cands;
    t->rollout = (uint8_t)rollout;
    t->flat = (uint8_t)flat;
    t->prover = (uint8_t)prover;
    gmk_reset(t);
    return BANYAN_OK;
}

/* Lists in ascending cell order the empty cells that Black may take (under
 * renju, not the forbidden points) among every empty cell, or with near_only
 * among the cells within distance 2 of a stone (the centre on an empty
 * board), falling back to every empty cell when all near ones are
 * forbidden. */
static int gmk_list(const gmk *t, banyan_move *out, bool near_only)
{
    int n = 0, size = t->size;
    bool all = !near_only || t->ply == 0;
    bool check = t->rule == GMK_RENJU && (t->ply & 1) == 0 && t->ply >= 8;
    gmk_board g;

    if (gmk_is_over(t))
        return 0;
    if (t->ply == 0 && near_only) {
        out[0] = (banyan_move)((size / 2) * size + size / 2);
        return 1;
    }
    if (check)
        gmk_board_load(t, &g);
    for (int pass = 0; pass < 2 && n == 0; pass++) {
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int i = r * GMK_STRIDE + c;
                if (all ? gmk_bit(t->stones[0], i) || gmk_bit(t->stones[1], i)
                        : !gmk_bit(t->near, i))
                    continue;
                if (check && gmk_forbidden_at(g.b, gmk_bidx(r, c), 0))
                    continue;
                out[n++] = (banyan_move)(r * size + c);
            }
        all = true;
    }
    return n;
}

/* Every legal move: any empty point, but a forbidden one for renju's Black. */
static int gmk_moves(const void *s, banyan_move *out)
{
    return gmk_list(s, out, false);
}

/* The moves the search considers: the near cells unless candidates=all. */
static int gmk_candidates(const void *s, banyan_move *out)
{
    const gmk *t = s;
    return gmk_list(t, out, t->cands == GMK_CAND_NEAR);
}

/* A draw on a full board; under renju, Black to move with only forbidden
 * points loses (playing one would lose). */
static bool gmk_outcome(const void *s, double *returns)
{
    const gmk *t = s;
    if (!gmk_is_over(t))
        return false;
    int winner = t->stuck ? 1 : t->winner;
    returns[0] = winner == 0 ? 1.0 : winner == 1 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

/*
 * Rollouts. Each copies the stones onto a local byte board and keeps a list
 * of the cells it may draw from. The state gets the stones, ply, last move
 * and result back; near is left stale, since the game is over.
 */

/* The stones of one colour as lines: bit c of row r, bit r of column c, bit
 * c of diagonal r - c + 22 and of anti-diagonal r + c. A five through a
 * stone is a few shifts of one word per direction. */
typedef struct gmk_lines {
    uint32_t row[GMK_MAX];    /* Bit c. */
    uint32_t col[GMK_MAX];    /* Bit r. */
    uint32_t dg[2 * GMK_MAX]; /* Bit c, index r - c + 22. */
    uint32_t ad[2 * GMK_MAX]; /* Bit c, index r + c. */
} gmk_lines;

static inline void gmk_lines_set(gmk_lines *l, int r, int c)
{
    l->row[r] |= 1u << c;
    l->col[c] |= 1u << r;
    l->dg[r - c + GMK_MAX] |= 1u << c;
    l->ad[r + c] |= 1u << c;
}

/* Whether line word w has a winning five through bit i. After the shift by
 * 5, x marks the starts of runs of five and y those of runs of six; the runs
 * that hold bit i + 5 start at i + 1 .. i + 5 (five) or i .. i + 5 (six). */
static inline bool gmk_word_five(uint32_t w32, int i, bool exact)
{
    uint64_t w = (uint64_t)w32 << 5;
    uint64_t x = w & (w >> 1) & (w >> 2) & (w >> 3) & (w >> 4);
    bool five = ((x >> (i + 1)) & 0x1f) != 0;
    if (!exact || !five)
        return five;
    return ((x & (w >> 5)) >> i & 0x3f) == 0;
}

static inline bool gmk_lines_five(const gmk_lines *l, int r, int c, bool exact)
{
    return gmk_word_five(l->row[r], c, exact) || gmk_word_five(l->col[c], r, exact) ||
           gmk_word_five(l->dg[r - c + GMK_MAX], c, exact) || gmk_word_five(l->ad[r + c], c, exact);
}

/* Workspace of a rollout. */
typedef struct gmk_ro {
    gmk_board g;                      /* The stones. */
    gmk_lines lines[2];               /* The stones again, as lines per colour. */
    uint64_t seen[GMK_BCELLS / 64];   /* Bit p: cell p is off the board, taken or listed. */
    uint16_t pos[GMK_BCELLS];         /* Index of a listed cell in list. */
    uint16_t list[GMK_MAX * GMK_MAX]; /* Cells that may be drawn. */
    uint16_t threat[2][2][64];        /* Per player: five points, open-four points. */
    uint8_t n_threat[2][2];           /* Their numbers. */
    int n;                            /* Cells in list. */
} gmk_ro;

static inline void gmk_ro_add(gmk_ro *w, int p)
{
    w->seen[p >> 6] |= (uint64_t)1 << (p & 63);
    w->pos[p] = (uint16_t)w->n;
    w->list[w->n++] = (uint16_t)p;
}

/* Removes the listed cell p by moving the last one into its place. */
static inline void gmk_ro_remove(gmk_ro *w, int p)
{
    int i = w->pos[p], q = w->list[--w->n];
    w->list[i] = (uint16_t)q;
    w->pos[q] = (uint16_t)i;
}

/* Index of the lowest set bit of x (nonzero), by a de Bruijn multiply. */
static inline int gmk_low_bit(uint64_t x)
{
    static const uint8_t index[64] = {
        0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,  62, 55, 59, 36, 53, 51,
        43, 22, 45, 39, 33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21,
        44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
    return index[((x & (~x + 1)) * 0x03f79d71b4cb0a89ULL) >> 58];
}

/* Lists the empty cells within distance 2 of p that are not listed yet. The
 * seen bits (byte board cell p is bit p) cover the edge, the stones and the
 * listed cells, so each of the 5 rows of the square around p is one mask
 * operation, and only new cells cost a loop turn. */
static inline void gmk_ro_grow(gmk_ro *w, int p)
{
    for (int row = (p >> 5) - 2; row <= (p >> 5) + 2; row++) {
        int i = row >> 1, shift = (row & 1) * 32 + (p & 31) - 2;
        uint64_t box = (uint64_t)0x1f << shift, fresh = box & ~w->seen[i];
        w->seen[i] |= box;
        for (; fresh; fresh &= fresh - 1) {
            int q = i * 64 + gmk_low_bit(fresh);
            w->pos[q] = (uint16_t)w->n;
            w->list[w->n++] = (uint16_t)q;
        }
    }
}

/* Adds cell p to a threat list; a full list replaces its newest entry. */
static inline void gmk_ro_note(gmk_ro *w, int who, int kind, int p)
{
    int n = w->n_threat[who][kind];
    w->threat[who][kind][n < 64 ? n : 63] = (uint16_t)p;
    w->n_threat[who][kind] = (uint8_t)(n < 64 ? n + 1 : 64);
}

/* Records the threats that player who's stone at p makes: five points (cells
 * that now complete a five) and open-four points (cells that would make a
 * straight four), in lines holding three stones or more. */
static void gmk_ro_threats(gmk_ro *w, int p, int who)
{
    const uint8_t *b = w->g.b;
    bool exact = w->g.exact[who];
    for (int i = 0; i < 4; i++) {
        int d = gmk_dirs[i];
        unsigned own, emp, fp;
        gmk_line(b, p, d, who + 1, &own, &emp);
        if (gmk_pop5[(own >> 1) & 31] + gmk_pop5[(own >> 6) & 15] < 3)
            continue;
        fp = gmk_fp(own, emp, exact);
        for (int k = 1; k <= 9; k++)
            if ((fp >> k) & 1)
                gmk_ro_note(w, who, 0, p + (k - 5) * d);
        if (fp)
            continue;
        for (int k = 1; k <= 9; k++) {
            unsigned bit = 1u << k;
            if ((emp & bit) && gmk_straight(gmk_fp(own | bit, emp & ~bit, exact)))
                gmk_ro_note(w, who, 1, p + (k - 5) * d);
        }
    }
}

/* Whether colour col playing at empty p makes a straight four somewhere. */
static bool gmk_ro_straight_at(const uint8_t *b, int p, int col, bool exact)
{
    for (int i = 0; i < 4; i++) {
        unsigned own, emp;
        gmk_line(b, p, gmk_dirs[i], col, &own, &emp);
        if (gmk_straight(gmk_fp(own, emp, exact)))
            return true;
    }
    return false;
}

/* The newest still valid threat of list kind (0 five points, 1 open-four
 * points) of player who, or -1; stale ones on top are dropped. */
static int gmk_ro_find(gmk_ro *w, int who, int kind)
{
    int n = w->n_threat[who][kind], found = -1;
    const uint16_t *list = w->threat[who][kind];
    bool exact = w->g.exact[who];
    while (n > 0) {
        int p = list[n - 1];
        if (w->g.b[p] == 0 && (kind == 0 ? gmk_five_at(w->g.b, p, who + 1, exact)
                                         : gmk_ro_straight_at(w->g.b, p, who + 1, exact))) {
            found = p;
            break;
        }
        n--;
    }
    w->n_threat[who][kind] = (uint8_t)n;
    return found;
}

/* Plays t to the end. GMK_RO_UNIFORM draws from every empty cell,
 * GMK_RO_NEAR from the near candidates, and GMK_RO_HEURISTIC from the near
 * candidates after threats: win with a five, block the opponent's five, make
 * a straight four, stop the opponent's straight four (answer an open three),
 * and otherwise, half the time, play within distance 2 of one of the last two
 * moves. Each drawn cell leaves the list (the last one takes its place). */
static void gmk_rollout_run(gmk *t, gmk_ro *w, banyan_rng *rng, int mode)
{
    uint8_t *b = w->g.b;
    int ply = t->ply, size = t->size, cells = size * size, last = -1, prev = -1;
    int winner = GMK_NOBODY;

    if (t->last != GMK_NO_CELL)
        last = gmk_bidx(t->last / size, t->last % size);
    memset(w->lines, 0, sizeof w->lines);
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++) {
            int p = gmk_bidx(r, c);
            if (b[p] == 1 || b[p] == 2)
                gmk_lines_set(&w->lines[b[p] - 1], r, c);
        }
    w->n = 0;
    if (mode == GMK_RO_UNIFORM) {
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int p = gmk_bidx(r, c);
                w->list[w->n] = (uint16_t)p;
                w->n += b[p] == 0;
            }
    } else {
        memset(w->seen, 0xff, sizeof w->seen);
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int p = gmk_bidx(r, c);
                w->seen[p >> 6] &= ~((uint64_t)(b[p] == 0) << (p & 63));
            }
        if (t->ply == 0)
            gmk_ro_add(w, gmk_bidx(size / 2, size / 2));
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++)
                if (gmk_bit(t->near, r * GMK_STRIDE + c))
                    gmk_ro_add(w, gmk_bidx(r, c));
    }
    memset(w->n_threat, 0, sizeof w->n_threat);
    if (mode == GMK_RO_HEURISTIC)
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int p = gmk_bidx(r, c);
                if (b[p] == 1 || b[p] == 2)
                    gmk_ro_threats(w, p, b[p] - 1);
            }
    while (w->n > 0 && ply < cells) {
        int who = ply & 1, col = who + 1, p = -1;
        if (mode == GMK_RO_UNIFORM) {
            uint32_t i = banyan_rng_below(rng, (uint32_t)w->n);
            p = w->list[i];
            w->list[i] = w->list[--w->n];
        } else if (mode == GMK_RO_NEAR) {
            uint32_t i = banyan_rng_below(rng, (uint32_t)w->n);
            p = w->list[i];
            w->list[i] = w->list[--w->n];
        } else {
            if ((p = gmk_ro_find(w, who, 0)) < 0 && (p = gmk_ro_find(w, !who, 0)) < 0 &&
                (p = gmk_ro_find(w, who, 1)) < 0 && (p = gmk_ro_find(w, !who, 1)) < 0) {
                uint64_t x = banyan_rng_next(rng);
                int near = (x & 1) ? last : prev;
                if ((x & 2) && near >= 0 && b[near + gmk_ring[(x >> 8) % 24]] == 0)
                    p = near + gmk_ring[(x >> 8) % 24];
            }
            if (p < 0)
                p = w->list[banyan_rng_below(rng, (uint32_t)w->n)];
            gmk_ro_remove(w, p);
        }
        int r = (p >> 5) - GMK_PAD, c = (p & 31) - GMK_PAD;
        b[p] = (uint8_t)col;
        gmk_lines_set(&w->lines[who], r, c);
        gmk_set(t->stones[who], r * GMK_STRIDE + c);
        ply++;
        prev = last;
        last = p;
        if (gmk_lines_five(&w->lines[who], r, c, w->g.exact[who])) {
            winner = who;
            break;
        }
        if (mode != GMK_RO_UNIFORM)
            gmk_ro_grow(w, p);
        if (mode == GMK_RO_HEURISTIC)
            gmk_ro_threats(w, p, who);
    }
    t->ply = (uint16_t)ply;
    if (last >= 0)
        t->last = (uint16_t)gmk_b2move(size, last);
    t->winner = (uint8_t)winner;
}

/* Renju in rollouts: Black's forbidden points are not checked (Black may
 * play them), but Black wins only with exactly five, so no overline wins and
 * a forbidden point never wins at once. */
static void gmk_rollout(void *s, banyan_rng *rng)
{
    gmk *t = s;
    gmk_ro w;
    if (gmk_is_over(t))
        return;
    gmk_board_load(t, &w.g);
    gmk_rollout_run(t, &w, rng, t->rollout);
}

/*
 * Priors. Each candidate is scored for both players from the shape it makes
 * in each of the four lines through it.
 */

/* Shapes of one line, weakest first. */
enum {
    GMK_SH_NONE,
    GMK_SH_ONE,   /* One stone in a free window of five. */
    GMK_SH_TWO,   /* Two stones in a free window of five. */
    GMK_SH_THREE, /* Three stones: a four next move, not a straight one. */
    GMK_SH_OPEN3, /* A straight four next move (renju: by an allowed point). */
    GMK_SH_FOUR,  /* One five point. */
    GMK_SH_FOUR2, /* A straight four or two fours in the line. */
    GMK_SH_FIVE,  /* A winning five. */
    GMK_SH_OVER   /* An overline that does not win. */
};

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

/* Tiers of a point for one player. */
#define GMK_T_FIVE 4 /* Makes five. */
#define GMK_T_WIN  3 /* Straight four, double four, or four and open three. */
#define GMK_T_33   2 /* Two open threes. */

/* Scores p for colour col: a tier and a sum of per-line weights. */
static int gmk_point(uint8_t *b, int p, int col, bool exact, bool renju_black, float *sum)
{
    static const float weight[] = {0, 1, 6, 30, 120, 150, 600, 0, 0};
    int fours = 0, open3 = 0;
    *sum = 0;
    for (int i = 0; i < 4; i++) {
        int sh = gmk_shape(b, p, gmk_dirs[i], col, exact, renju_black);
        if (sh == GMK_SH_FIVE)
            return GMK_T_FIVE;
        fours += sh == GMK_SH_FOUR ? 1 : sh == GMK_SH_FOUR2 ? 2 : 0;
        open3 += sh == GMK_SH_OPEN3;
        *sum += weight[sh];
    }
    if (renju_black && gmk_forbidden_at(b, p, 0))
        return -1;
    if (fours >= 2 || (fours && open3))
        return GMK_T_WIN;
    if (open3 >= 2)
        return GMK_T_33;
    return 0;
}

/* Priors in tiers: make five, block five, make a winning shape (straight or
 * double four, four-three), stop the opponent's winning shape, double three,
 * then the sum of line weights for the mover plus most of the opponent's. */
static void gmk_priors(const void *s, const banyan_move *moves, int n, float *out)
{
    const gmk *t = s;
    gmk_board g;
    if (t->flat) {
        for (int i = 0; i < n; i++)
            out[i] = 1.0f / (float)n;
        return;
    }
    int me = t->ply & 1, size = t->size;
    float total = 0;
    gmk_board_load(t, &g);
    for (int i = 0; i < n; i++) {
        int p = gmk_bidx((int)moves[i] / size, (int)moves[i] % size);
        float mine, theirs, v;
        int tm = gmk_point(g.b, p, me + 1, g.exact[me], g.renju && me == 0, &mine);
        int tt = gmk_point(g.b, p, 2 - me, g.exact[!me], g.renju && me == 1, &theirs);
        if (tm == GMK_T_FIVE)
            v = 1e7f;
        else if (tt == GMK_T_FIVE)
            v = 1e6f;
        else if (tm == GMK_T_WIN)
            v = 1e5f + mine;
        else if (tt == GMK_T_WIN)
            v = 2e4f + theirs;
        else if (tm == GMK_T_33)
            v = 5e3f + mine;
        else
            v = 1.0f + mine + 0.8f * (tt < 0 ? 0 : theirs) + (tt == GMK_T_33 ? 1000.0f : 0);
        out[i] = v;
        total += v;
    }
    for (int i = 0; i < n; i++)
        out[i] /= total;
}

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
static bool gmk_prove_win(const void *s, banyan_move *out)
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

/* What a colour makes in one line by playing an empty cell. */
#define GMK_LS_FIVE  0x1u /* A five (an exact five where overlines do not win). */
#define GMK_LS_FOUR  0x2u /* At least one five point. */
#define GMK_LS_FOUR2 0x4u /* Two five points or more (straight or double four). */
#define GMK_LS_THREE 0x8u /* An open three: one more stone makes a straight four. */

/* What an empty cell makes, one byte per direction (byte i for gmk_dirs[i])
 * holding GMK_LS_ bits, colour 1's in the low nibble and colour 2's in the
 * high; kept up to date as stones come and go: a stone changes only the
 * cells within 5 of it on its four lines, and only in that line's byte. */
#define GMK_VS(ls, col)  ((ls) << (4 * ((col)-1)))
#define GMK_VS_ANY(bits) ((bits)*0x01010101u) /* In any direction. */
/* Saved cells: 40 a stone, and at most 2 * GMK_VCT_DEPTH stones are on the
 * board at once (an attacker's and a defender's move per level). */
#define GMK_VCT_UNDO ((2 * GMK_VCT_DEPTH + 2) * 40)

/* GMK_LS_ bits of every line around an empty centre, indexed by the 10 cells
 * x - 5d .. x + 5d other than x in base 3 (0 blocked, 1 own, 2 empty);
 * the low nibble where overlines win, the high nibble where they do not. */
static uint8_t gmk_ls_table[59049];
static uint16_t gmk_ls_base3[1024]; /* A 10-cell mask in base 3, digits 0 or 1. */
static pthread_once_t gmk_ls_once = PTHREAD_ONCE_INIT;

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

/* The GMK_LS_ bits of a line for one colour: own stones o (the centre,
 * bit 5, included) and empty cells emp of the 11 cells x - 5d .. x + 5d.
 * They agree with gmk_five_at, gmk_vcf_makes_four, gmk_vcf_fives and
 * gmk_shape's open three for that line. (A run through x that reaches 5
 * cells out is longer than 5 whatever lies beyond, so the window decides
 * fives and overlines alike.) */
static unsigned gmk_ls_rate(unsigned o, unsigned emp, bool exact)
{
    int run = 1;
    for (int k = 6; k < 11 && ((o >> k) & 1); k++)
        run++;
    for (int k = 4; k >= 0 && ((o >> k) & 1); k--)
        run++;
    if (run == 5 || (run > 5 && !exact))
        return GMK_LS_FIVE; /* No five point besides: fp is empty. */
    unsigned fp = 0;
    if (gmk_pop5[(o >> 1) & 31] + gmk_pop5[(o >> 6) & 15] >= 4)
        fp = gmk_fp(o, emp, exact);
    if (fp)
        return GMK_LS_FOUR | ((fp & (fp - 1)) ? GMK_LS_FOUR2 : 0);
    if (run > 5)
        return 0;
    /* An open three: a window of 5 free of the opponent holding 3 stones,
     * and a point that then makes a straight four. */
    int best = 0;
    for (int s = 1; s <= 5; s++)
        if (!((0x1fu << s) & ~(o | emp)) && gmk_pop5[(o >> s) & 31] > best)
            best = gmk_pop5[(o >> s) & 31];
    for (int k = 1; k <= 9 && best >= 3; k++) {
        unsigned bit = 1u << k;
        if ((emp & bit) && gmk_straight(gmk_fp(o | bit, emp & ~bit, exact)))
            return GMK_LS_THREE;
    }
    return 0;
}

/* The 11-cell mask m without its centre, bit 5: 10 bits. */
static inline unsigned gmk_ls_pack(unsigned m)
{
    return (m & 0x1f) | ((m >> 6) & 0x1f) << 5;
}

static void gmk_ls_init(void)
{
    for (unsigned m = 0; m < 1024; m++) {
        unsigned v = 0;
        for (int k = 9; k >= 0; k--)
            v = v * 3 + ((m >> k) & 1);
        gmk_ls_base3[m] = (uint16_t)v;
    }
    for (unsigned idx = 0; idx < 59049; idx++) {
        unsigned own = 0, emp = 0, x = idx;
        for (int k = 0; k < 10; k++, x /= 3) {
            unsigned bit = 1u << (k < 5 ? k : k + 1);
            own |= x % 3 == 1 ? bit : 0;
            emp |= x % 3 == 2 ? bit : 0;
        }
        own |= 1u << 5;
        gmk_ls_table[idx] =
            (uint8_t)(gmk_ls_rate(own, emp, false) | gmk_ls_rate(own, emp, true) << 4);
    }
}

/* The GMK_VS_ byte of the empty cell at position pos of line w. */
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
static bool gmk_prove_win_deep(const void *s, banyan_move *out)
{
    const gmk *t = s;
    int size = t->size;
    if (gmk_is_over(t) || t->rule == GMK_RENJU || t->ply < 4 || t->prover != GMK_PROVER_VCT)
        return false;
    gmk_vct work; /* About 30 KiB of stack, and 2 KiB a level below. */
    gmk_vct *v = &work;
    pthread_once(&gmk_ls_once, gmk_ls_init);
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

/*
 * Notation: a column letter (a .. v) and a row number from the bottom.
 */

static int gmk_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    const gmk *t = s;
    return point_format(m, t->size, t->size, buf, len);
}

/* Parses the move at *str and advances *str past it (see point.h). */
static int gmk_parse_at(const gmk *t, const char **str, bool in_list, int *cell)
{
    return point_parse(str, in_list, t->size, t->size, cell);
}

static int gmk_parse_move(const void *s, const char *str, banyan_move *out)
{
    const gmk *t = s;
    return point_parse_move(str, t->size, t->size, out);
}

/* A move list such as "h8 i9 h9" or "h8,i9,h9", Black first, played on a
 * copy from the empty board. Any empty point may be played (the candidate
 * restriction is the search's, not a rule), except a point forbidden to
 * Black under renju. */
static int gmk_load(void *s, const char *text)
{
    gmk t;
    const char *p = text;

    if (!text)
        return BANYAN_EINVAL;
    memcpy(&t, s, sizeof t);
    gmk_reset(&t);
    for (;;) {
        int cell, rc;
        while (point_is_space(*p) || *p == ',')
            p++;
        if (!*p)
            break;
        if ((rc = gmk_parse_at(&t, &p, true, &cell)) != BANYAN_OK)
            return rc;
        int r = cell / t.size, c = cell % t.size, i = r * GMK_STRIDE + c;
        if (gmk_is_over(&t) || gmk_bit(t.stones[0], i) || gmk_bit(t.stones[1], i))
            return BANYAN_EILLEGAL;
        if (t.rule == GMK_RENJU && (t.ply & 1) == 0) {
            gmk_board g;
            gmk_board_load(&t, &g);
            if (gmk_forbidden_at(g.b, gmk_bidx(r, c), 0))
                return BANYAN_EILLEGAL;
        }
        gmk_where(&t, r, c);
    }
    memcpy(s, &t, sizeof t);
    return BANYAN_OK;
}

/* The diagram of point.c, from the stones. */
static int gmk_print(const void *s, banyan_move last, char *buf, size_t len)
{
    const gmk *t = s;
    char cells[GMK_MAX * GMK_MAX];
    for (int r = 0; r < t->size; r++)
        for (int c = 0; c < t->size; c++) {
            int p = r * GMK_STRIDE + c;
            cells[r * t->size + c] = gmk_bit(t->stones[0], p)   ? 'X'
                                     : gmk_bit(t->stones[1], p) ? 'O'
                                                                : '.';
        }
    return point_print(t->size, t->size, cells, last, buf, len);
}

/* splitmix64's finaliser: a bijection that spreads every input bit. */
static inline uint64_t gmk_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The stones and the parameters; the rest follows from them (last move
 * aside, which does not change the position). */
static uint64_t gmk_hash(const void *s)
{
    const gmk *t = s;
    uint64_t h = gmk_mix((uint64_t)t->size | (uint64_t)t->rule << 8 | (uint64_t)t->cands << 16 |
                         (uint64_t)t->rollout << 24 | (uint64_t)t->prover << 32);
    for (int i = 0; i < GMK_WORDS; i++) {
        h = gmk_mix(h ^ t->stones[0][i]);
        h = gmk_mix(h ^ t->stones[1][i] ^ 0x9e3779b97f4a7c15ULL);
    }
    return h;
}

/* Whether player who has a winning five anywhere, by a slow full scan. */
static bool gmk_has_five(const gmk *t, int who)
{
    for (int r = 0; r < t->size; r++)
        for (int c = 0; c < t->size; c++)
            if (gmk_bit(t->stones[who], r * GMK_STRIDE + c) && gmk_won_at(t, who, r, c))
                return true;
    return false;
}

/* Parameters in range, stones on the board and never twice, alternating
 * counts, a winner exactly when the last mover has a five (and the loser
 * none), and, while the game goes on, near exactly the empty cells within
 * distance 2 of a stone. */
static bool gmk_is_valid(const void *s)
{
    const gmk *t = s;
    int n = t->size, count[2] = {0, 0};
    if (n < GMK_MIN || n > GMK_MAX || t->rule > GMK_RENJU || t->cands > GMK_CAND_ALL ||
        t->rollout > GMK_RO_UNIFORM || t->prover > GMK_PROVER_OFF || t->winner > GMK_NOBODY ||
        t->stuck > 1 || t->pad)
        return false;
    for (int i = 0; i < GMK_WORDS; i++) {
        if (t->stones[0][i] & t->stones[1][i])
            return false;
        count[0] += gmk_popcount(t->stones[0][i]);
        count[1] += gmk_popcount(t->stones[1][i]);
    }
    int on_board[2] = {0, 0};
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int who = 0; who < 2; who++)
                on_board[who] += gmk_bit(t->stones[who], r * GMK_STRIDE + c);
    if (on_board[0] != count[0] || on_board[1] != count[1])
        return false;
    if ((count[0] != count[1] && count[0] != count[1] + 1) || t->ply != count[0] + count[1])
        return false;
    bool five[2] = {gmk_has_five(t, 0), gmk_has_five(t, 1)};
    if (t->winner == GMK_NOBODY) {
        if (five[0] || five[1])
            return false;
    } else {
        int mover = (t->ply - 1) & 1;
        if (t->ply == 0 || t->winner != mover || !five[mover] || five[!mover])
            return false;
    }
    if (gmk_is_over(t))
        return true;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int i = r * GMK_STRIDE + c;
            bool empty = !gmk_bit(t->stones[0], i) && !gmk_bit(t->stones[1], i), close = false;
            for (int rr = r - 2; rr <= r + 2; rr++)
                for (int cc = c - 2; cc <= c + 2; cc++)
                    if (rr >= 0 && rr < n && cc >= 0 && cc < n &&
                        (gmk_bit(t->stones[0], rr * GMK_STRIDE + cc) ||
                         gmk_bit(t->stones[1], rr * GMK_STRIDE + cc)))
                        close = true;
            if (gmk_bit(t->near, i) != (empty && close))
                return false;
        }
    for (int i = 0; i < GMK_WORDS; i++)
        for (int b = 0; b < 64; b++) {
            int cell = i * 64 + b;
            if (((t->near[i] >> b) & 1) && (cell % GMK_STRIDE >= n || cell / GMK_STRIDE >= n))
                return false;
        }
    return true;
}

/* ---- The description ---- */

static const banyan_param gmk_params[] = {
    {"size", BANYAN_PARAM_INT, GMK_MIN, GMK_MAX, NULL, "15", BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT,
     "side of the square board"},
    {"rule", BANYAN_PARAM_CHOICE, 0, 0, "freestyle|standard|renju", "freestyle", BANYAN_ROLE_RULE,
     "five or more wins; exactly five; renju (Black: exactly five, no 3-3, 4-4, overline)"},
    {"candidates", BANYAN_PARAM_CHOICE, 0, 0, "near|all", "near", 0,
     "moves the search considers: within 2 of a stone, or every empty point"},
    {"rollout", BANYAN_PARAM_CHOICE, 0, 0, "heuristic|near|uniform", "heuristic", 0,
     "rollout policy: threat-aware, near stones, or uniform"},
    {"priors", BANYAN_PARAM_CHOICE, 0, 0, "threats|off", "threats", 0,
     "priors from threats, or uniform"},
    {"prover", BANYAN_PARAM_CHOICE, 0, 0, "vct|vcf|off", "vct", 0,
     "solvers the search calls: threats with open threes, fours only, none"},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL},
};

/* Append only: any change to this list changes the bench signature. */
static const banyan_bench gmk_bench[] = {
    {"", "", 3000, 40000},
    {"", "h8 i9 h9 i10 h10", 3000, 0},
    {"rule=renju", "h8 i9 j8 j9 i8 k10", 3000, 0},
    {"size=19 rule=standard", "k10 l11 j9", 3000, 0},
    {"rollout=near", "", 0, 100000},
    {"rollout=uniform candidates=all", "", 0, 200000},
    {NULL, NULL, 0, 0},
};

static void gmk_board_size(const void *s, int *width, int *height)
{
    const gmk *t = s;
    *width = *height = t->size;
}

/* Move r * size + c is column c of row r, rows counted from the bottom. */
static int gmk_move_place(const void *s, banyan_move m, int *x, int *y)
{
    const gmk *t = s;
    if (m >= (banyan_move)(t->size * t->size))
        return BANYAN_PLACE_NONE;
    *x = (int)(m % t->size);
    *y = t->size - 1 - (int)(m / t->size);
    return BANYAN_PLACE_CELL;
}

static int gmk_place_to_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    const gmk *t = s;
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return BANYAN_ERANGE;
    *out = (banyan_move)((t->size - 1 - y) * t->size + x);
    return BANYAN_OK;
}

static int gmk_piece(const void *s, int x, int y)
{
    const gmk *t = s;
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return -1;
    int i = (t->size - 1 - y) * GMK_STRIDE + x;
    return gmk_bit(t->stones[0], i) ? 0 : gmk_bit(t->stones[1], i) ? 1 : -1;
}

BANYAN_API const banyan_game banyan_game_gomoku = {
    .name = "gomoku",
    .state_size = sizeof(gmk),
    .n_players = 2,
    .setup = gmk_setup,
    .moves = gmk_moves,
    .play = gmk_play,
    .outcome = gmk_outcome,
    .to_move = gmk_to_move,
    .format_move = gmk_format_move,
    .parse_move = gmk_parse_move,
    .load = gmk_load,
    .print = gmk_print,
    .rollout = gmk_rollout,
    .priors = gmk_priors,
    .hash = gmk_hash,
    .is_valid = gmk_is_valid,
    .prove_win = gmk_prove_win,
    .candidates = gmk_candidates,
    .prove_win_deep = gmk_prove_win_deep,
    .title = "Gomoku",
    .params = gmk_params,
    .bench = gmk_bench,
    .coords = BANYAN_COORDS_POINT | BANYAN_COORDS_GTP | BANYAN_COORDS_XY | BANYAN_COORDS_SGF,
    .sgf_game = 4,
    .board_size = gmk_board_size,
    .place = gmk_move_place,
    .place_move = gmk_place_to_move,
    .piece = gmk_piece,
};
