/*
 * gomoku.h - what the files of the Gomoku module share, private to
 * games/gomoku/: the state, the byte board, the line masks, and the
 * functions one file calls in another.
 *
 * The state holds two bitboards of stones (bit r * 23 + c, so 22 rows fit in
 * 8 words) and a third of the empty cells within distance 2 of a stone, the
 * "near" candidates. Whatever looks at shapes first copies the stones onto a
 * byte board with a border of 5 cells, so the 11 cells of a line around any
 * point are read without bounds checks, as two masks (own stones, empty).
 *
 * Four layouts of the stones, each for the hot path it serves (said at
 * each definition): the state's bitboards (gmk), the byte board
 * (gmk_board), the line words of the provers and the evaluation
 * (gmk_lines) and the rollouts' line words (gmk_ro_lines). A five is
 * recognised by a walk on the bitboards when a move is played (rules.c,
 * gmk_won_at), by shifts of the rollouts' line words in a rollout
 * (gmk_ro_lines_five), and in the line-pattern tables by the provers and
 * the evaluation (gen_tables.c); test_gmk_five_detectors checks the first
 * two against a naive count.
 */
#ifndef BANYAN_GOMOKU_H
#define BANYAN_GOMOKU_H

#include <stdbool.h>
#include <stdint.h>

#include "banyan_game.h"
#include "bits.h"

#define GMK_MIN     5                                  /* Smallest side. */
#define GMK_MAX     22                                 /* Largest side: columns a .. v. */
#define GMK_STRIDE  23                                 /* Bits per bitboard row. */
#define GMK_WORDS   ((GMK_MAX * GMK_STRIDE + 63) / 64) /* 506 bits: 8 words. */
#define GMK_PAD     5                                  /* Border of the byte board. */
#define GMK_BW      32                                 /* Byte board width: 22 + 2 * 5. */
#define GMK_BCELLS  (GMK_BW * GMK_BW)                  /* Byte board cells. */
#define GMK_NOBODY  2                                  /* winner while nobody has won. */
#define GMK_NO_CELL 0xffff                             /* last before the first move. */
#define GMK_EDGE    3                                  /* Byte board value off the board. */

/* The parameters. Each search aid has the engine's choice first, then the
 * plain textbook one (banyan_param.plain: --plain and the bench). */
enum { GMK_FREESTYLE, GMK_STANDARD, GMK_RENJU }; /* rule */
enum { GMK_CAND_NEAR, GMK_CAND_ALL };            /* cands */
enum { GMK_RO_HEURISTIC, GMK_RO_UNIFORM };       /* rollout */
enum { GMK_PROVER_VCT, GMK_PROVER_OFF };         /* prover */
enum { GMK_PRIORS_MIXED, GMK_PRIORS_OFF };       /* priors */
/* The entries of the parameter table (rules.c, gmk_params), in order. */
enum {
    GMK_P_SIZE,
    GMK_P_RULE,
    GMK_P_CANDIDATES,
    GMK_P_ROLLOUT,
    GMK_P_PRIORS,
    GMK_P_PROVER,
    GMK_N_PARAMS
};

/* The state. Only the stones, near, ply, last, winner and stuck change.
 * Bitboards keep it small (200 bytes), since the search copies a state for
 * every simulation, and give the hash and the near cells a word at a time. */
typedef struct gmk {
    uint64_t stones[2][GMK_WORDS]; /* Black (player 0) and White; bit r * 23 + c. */
    uint64_t near[GMK_WORDS];      /* Empty cells within distance 2 of a stone (while not over). */
    uint16_t ply;                  /* Stones placed; its parity is the player to move. */
    uint16_t last;                 /* Cell r * size + c of the last move, or GMK_NO_CELL. */
    uint8_t size;                  /* Side, 5 .. 22. */
    uint8_t rule;                  /* GMK_FREESTYLE, GMK_STANDARD or GMK_RENJU. */
    uint8_t cands;                 /* GMK_CAND_NEAR or GMK_CAND_ALL. */
    uint8_t rollout;               /* GMK_RO_*. */
    uint8_t priors;                /* GMK_PRIORS_* (off: uniform, the textbook baseline). */
    uint8_t winner;                /* 0 or 1 once a player has won, else GMK_NOBODY. */
    uint8_t stuck;                 /* Renju: Black to move has only forbidden points. */
    uint8_t prover;                /* GMK_PROVER_*: the solvers the search may call. */
    uint8_t pad;                   /* Always zero. */
} gmk;

/* A byte board: 0 empty, 1 Black, 2 White, GMK_EDGE off the board; cell
 * (r, c) at (r + 5) * 32 + c + 5. exact[p] says whether player p wins only
 * with exactly five. Built from the state wherever shapes are read cell by
 * cell (renju's forbidden points, the rollouts' threats, the priors under
 * renju, the provers' boards): with its border, a walk along a line needs
 * no bounds checks. */
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

static inline int gmk_bidx(int r, int c)
{
    return (r + GMK_PAD) * GMK_BW + c + GMK_PAD;
}

/* Move (r * size + c) of byte board cell p. */
static inline banyan_move gmk_b2move(int size, int p)
{
    return (banyan_move)(((p >> 5) - GMK_PAD) * size + (p & 31) - GMK_PAD);
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

/* The stones of one colour as line words, for the rollouts: bit c of row
 * r, bit r of column c, bit c of diagonal r - c + 22 and of anti-diagonal
 * r + c. The rollouts check for a five after every move they play: a few
 * shifts of one word per direction. Walking the byte board from the stone
 * (gmk_run) instead made them slower: from the bench's position h8 i9 h9
 * i10 h10, 46,000 threat-aware rollouts a second of CPU time against
 * 64,000, and 349,000 uniform ones against 444,000 (medians of five). They
 * are lighter than gmk_lines (one colour's stones, no empty cells, set by
 * four ORs without a table lookup), which a rollout would have to load and
 * keep up besides. The threat lists' check of an empty cell uses them too
 * (0.3% more instructions in all than with the byte board's walk). */
typedef struct gmk_ro_lines {
    uint32_t row[GMK_MAX];    /* Bit c. */
    uint32_t col[GMK_MAX];    /* Bit r. */
    uint32_t dg[2 * GMK_MAX]; /* Bit c, index r - c + 22. */
    uint32_t ad[2 * GMK_MAX]; /* Bit c, index r + c. */
} gmk_ro_lines;

static inline void gmk_ro_lines_set(gmk_ro_lines *l, int r, int c)
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

/* Whether the colour of l makes a winning five with a stone at (r, c),
 * whether the stone is there already or (r, c) is empty. */
static inline bool gmk_ro_lines_five(const gmk_ro_lines *l, int r, int c, bool exact)
{
    return gmk_word_five(l->row[r] | 1u << c, c, exact) ||
           gmk_word_five(l->col[c] | 1u << r, r, exact) ||
           gmk_word_five(l->dg[r - c + GMK_MAX] | 1u << c, c, exact) ||
           gmk_word_five(l->ad[r + c] | 1u << c, c, exact);
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
    return bits_count(fp);
}

static inline bool gmk_straight(unsigned fp)
{
    return (fp & (fp >> 5)) != 0;
}

static inline bool gmk_is_over(const gmk *t)
{
    return t->winner != GMK_NOBODY || t->stuck || t->ply == t->size * t->size;
}

/* Whether player who wins only with exactly five under the rule. */
static inline bool gmk_exact(int rule, int who)
{
    return rule == GMK_STANDARD || (rule == GMK_RENJU && who == 0);
}

/* ---- rules.c ---- */

/* Copies the stones of t onto a byte board. */
void gmk_board_load(const gmk *t, gmk_board *g);

/* Renju: why Black may not play on the empty point p of byte board b, with
 * depth levels of three checks already open (0 at the top): GMK_ALLOWED, or
 * the first rule it breaks. b is restored before returning. */
enum { GMK_ALLOWED, GMK_OVERLINE, GMK_FOUR_FOUR, GMK_THREE_THREE };
int gmk_forbidden_kind(uint8_t *b, int p, int depth);

/* Renju: whether Black playing on the empty point p is forbidden. */
static inline bool gmk_forbidden_at(uint8_t *b, int p, int depth)
{
    return gmk_forbidden_kind(b, p, depth) != GMK_ALLOWED;
}

/* Whether Black's stone at p (already on b) makes a true three along d,
 * whose line masks are own and emp (see gmk_line). */
bool gmk_renju_three(uint8_t *b, int p, int d, unsigned own, unsigned emp, int depth);

/* ---- rollout.c: the game table's rollout ---- */

void gmk_rollout(void *s, banyan_rng *rng);

/* ---- priors.c: the game table's priors ---- */

void gmk_priors(const void *s, const banyan_move *moves, int n, float *out);

/* The threat priors two ways, for the tests that check they agree: from
 * the byte board (any rule: renju's priors), and from the line words and
 * gmk_line_table (not renju: the threat half of the mixed priors). */
void gmk_priors_board(const gmk *t, const banyan_move *moves, int n, float *out);
void gmk_priors_lines(const gmk *t, const banyan_move *moves, int n, float *out);

/* ---- vcf.c, vct.c, defence.c (their shared workspaces: prover.h): the game
 * table's prove_win (VCF), prove_win_deep (VCT) and candidates_deep, and
 * the threat defence that candidates applies ---- */

bool gmk_prove_win(const void *s, banyan_move *out);
bool gmk_prove_win_deep(const void *s, uint32_t effort, double seconds, void *mem,
                        banyan_move *out);
int gmk_candidates_deep(const void *s, uint32_t effort, double seconds, void *mem,
                        banyan_move *out);
/* The game table's mem_size: the VCT's table (6 MiB) and workspace. */
#define GMK_DEEP_SIZE ((size_t)6250 << 10)

/* Narrows moves[0 .. n - 1], candidates of t, in place and in order, to
 * the mover's fives, else the blocks of the opponent's five, else the
 * moves that may stop the opponent's VCF on a null move (every move
 * dropped then loses to that VCF); returns their number: n when there is
 * no threat, or under prover=off. mem, the thread's deep memory or NULL,
 * keeps the position when that VCF failed in full (quiet, below). */
int gmk_defend(const gmk *t, banyan_move *moves, int n, void *mem);

/* Whether the deep memory mem (or NULL) shows that the player to move in
 * t has no VCF, his opponent's VCF on the null move having failed in full
 * before the last move (defence.c says why that holds). */
bool gmk_quiet(const gmk *t, const void *mem);

/* The game table's hash (rules.c): the parameters and the stones. */
uint64_t gmk_hash(const void *s);

/* Patterns of one line for one colour, weakest first, as the evaluation
 * reads them: what a stone on an empty cell makes of the line. F: free
 * (a straight four two moves on for a three), B: blocked (a four). */
enum {
    GMK_PT_DEAD, /* No five possible through the cell. */
    GMK_PT_B1,   /* A two next that can become a blocked three. */
    GMK_PT_F1,   /* A two next that can become a free three. */
    GMK_PT_B2,   /* A three next (then a four). */
    GMK_PT_F2,   /* A free three next. */
    GMK_PT_B3,   /* A four next. */
    GMK_PT_F3,   /* A straight four next: an open three. */
    GMK_PT_B4,   /* One five point. */
    GMK_PT_F4,   /* A straight four, or two fours in the line. */
    GMK_PT_F5,   /* A winning five. */
    GMK_PT_N
};

/* Multisets of four patterns, a cell's pattern code; those that hold a
 * five come last (numbered by their sorted patterns, strongest first). */
#define GMK_PC_N    715
#define GMK_PC_FIVE (GMK_PC_N - 220)

/* ---- eval.c: the game table's evaluate ---- */

bool gmk_evaluate(const void *s, double *returns, const banyan_move *moves, int n, float *priors);

/* The inputs of the evaluation's model for the player to move in s, into
 * f[GMK_EVAL_FEATURES] (f[0] is 1); returns 1 when the mover has a five
 * to make, -1 when it must stop one five, -2 for two or more, else 0. For
 * the fit, tools/fit_patterns.c. */
#define GMK_EVAL_FEATURES 17
int gmk_eval_features(const void *s, double *f);

/* The pattern inputs of s, each worth 1, into idx[] (room for 2 *
 * GMK_MAX * GMK_MAX + 1): per cell near the stones the mover's pattern
 * code, then the opponent's plus GMK_PC_N, and last the threat mask (which
 * classes each side has) plus 2 * GMK_PC_N; returns their number. */
#define GMK_EVAL_PATTERNS (2 * GMK_PC_N + 256)
int gmk_eval_patterns(const void *s, uint16_t *idx);

/* ---- priors.c: the learned priors ---- */

/* The policy's inputs of moves[0 .. n - 1] of t, GMK_POLICY_CODES a move:
 * codes[3i] the mover's pattern code of moves[i], codes[3i + 1] the
 * opponent's plus GMK_PC_N, codes[3i + 2] its distance from the last move
 * (1 .. 3, else 4) less 1 plus 2 * GMK_PC_N. For the priors and the fit,
 * tools/fit_patterns.c. */
#define GMK_POLICY_CODES   3
#define GMK_POLICY_WEIGHTS (2 * GMK_PC_N + 4)
void gmk_policy_codes(const gmk *t, const banyan_move *moves, int n, uint16_t *codes);

/* The learned priors alone, the pattern half of the mixed priors: a
 * softmax of the policy weights of each move's codes. */
void gmk_priors_patterns(const gmk *t, const banyan_move *moves, int n, float *out);

/* The mixed priors (priors=mixed, the default but under renju): the
 * geometric mean of the threat priors and the learned priors, normalised. */
void gmk_priors_mixed(const gmk *t, const banyan_move *moves, int n, float *out);

/* ---- weights.c: the evaluation's weights, written by tools/fit_patterns.c ---- */

/* The value of a position the model decides is 1 / (1 + exp(-z)), z the
 * sum of a linear part and a hidden layer. The linear part: the weights of
 * gmk_eval_features' inputs times the inputs and the weights of
 * gmk_eval_patterns' inputs (after GMK_EVAL_FEATURES). The hidden layer of
 * GMK_EVAL_HIDDEN units: unit h sums a[h] = b1[h] + E[i][h] over the
 * pattern inputs i + F[k][h] times input k of gmk_eval_features, and adds
 * w2[h] * max(0, a[h]) to z, with b2; gmk_eval_hidden holds E, F, b1, w2
 * and b2 in that order. */
#define GMK_EVAL_WEIGHTS        (GMK_EVAL_FEATURES + GMK_EVAL_PATTERNS)
#define GMK_EVAL_HIDDEN         16
#define GMK_EVAL_HIDDEN_WEIGHTS ((GMK_EVAL_PATTERNS + GMK_EVAL_FEATURES + 2) * GMK_EVAL_HIDDEN + 1)
extern const float gmk_eval_weights[GMK_EVAL_WEIGHTS];
extern const float gmk_eval_hidden[GMK_EVAL_HIDDEN_WEIGHTS];

/* The policy's weights, indexed by gmk_policy_codes' inputs. */
extern const float gmk_policy_weights[GMK_POLICY_WEIGHTS];

/* What a colour makes in one line by playing an empty cell. */
#define GMK_LS_FIVE  0x1u /* A five (an exact five where overlines do not win). */
#define GMK_LS_FOUR  0x2u /* At least one five point. */
#define GMK_LS_FOUR2 0x4u /* Two five points or more (straight or double four). */
#define GMK_LS_THREE 0x8u /* An open three: one more stone makes a straight four. */

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

/* Tiers of a point for one player, in the priors. */
#define GMK_T_FIVE 4 /* Makes five. */
#define GMK_T_WIN  3 /* Straight four, double four, or four and open three. */
#define GMK_T_33   2 /* Two open threes. */

/* ---- tables.c, written at build time by gen_tables.c ---- */

/* GMK_LS_ bits of every line around an empty centre, indexed by the 10 cells
 * x - 5d .. x + 5d other than x in base 3 (0 blocked, 1 own, 2 empty);
 * the low nibble where overlines win, the high nibble where they do not. */
extern const uint8_t gmk_ls_table[59049];

/* An 11-cell mask's cells other than the centre (bit 5) in base 3, digits
 * 0 or 1: bit k is digit k below the centre, digit k - 1 above it. */
extern const uint16_t gmk_ls_base3[2048];

/* The pattern code (0 .. GMK_PC_N - 1) of four patterns p0..p3 at index
 * ((p0 * 10 + p1) * 10 + p2) * 10 + p3, in any order. */
extern const uint16_t gmk_pc_table[10000];

/* What a line around an empty centre makes, for the evaluation's scan and
 * the priors, indexed as gmk_ls_table at e * 59049 + index, for e 0 where
 * overlines win and 1 where they do not: the GMK_LS_ bits | the GMK_SH_
 * shape << 4 (renju's Black needs the board besides, since its open
 * threes must be made by allowed points: not from this table) | the
 * GMK_PT_ pattern << 8, and above them (GMK_LINE_COUNTS) counts in 4-bit lanes,
 * so that the sum of a cell's four counts counts its lines: a five (lane
 * 0), the fours (1: 2 for a straight or double four), an open three
 * without a four (2), a shape GMK_SH_THREE or OPEN3 (3), a shape
 * GMK_SH_TWO (4). No lane's sum passes 8. */
#define GMK_LINE_LS(v)      ((v)&15u)
#define GMK_LINE_SH(v)      (((v) >> 4) & 15u)
#define GMK_LINE_PT(v)      (((v) >> 8) & 15u)
#define GMK_LINE_COUNTS(v)  ((v) >> 12)
#define GMK_LINE_LANE(c, k) (((c) >> (4 * (k))) & 15u)
extern const uint32_t gmk_line_table[2 * 59049];

/* The line through byte board cell x along gmk_dirs[i], at i * GMK_BCELLS
 * + x: its row (i 0), its column (1), its column less its row plus 31 (2)
 * or its column plus its row (3). */
extern const uint8_t gmk_line_of[4 * GMK_BCELLS];

/*
 * Line words: a byte board's cells again as bits, per direction and line,
 * one word for each colour's stones and one for the empty cells (a cell
 * off the board is in none), so that the 11 cells around a cell along a
 * direction are one shift away, an index into the line-pattern tables. Both provers keep them next
 * to the byte board and read what a move makes from them (from the masks gmk_line would build, or
 * from the line-pattern tables of gen_tables.c), and the evaluation reads every near cell's lines
 * from them.
 */
typedef struct gmk_lines {
    uint32_t w[4][2 * GMK_BW - 1][3]; /* Per direction and line, by position along
                                       * it: colour 1's stones, colour 2's, empty cells. */
} gmk_lines;

/* The line through byte board cell x along gmk_dirs[i], and x's position
 * on it (its row, or its column for rows). */
static inline uint32_t *gmk_lines_at(gmk_lines *L, int x, int i, int *pos)
{
    /* Rows by row, columns by column, diagonals by c - r (shifted to be
     * non-negative) and anti-diagonals by c + r: one table lookup. */
    *pos = i == 0 ? x & 31 : x >> 5;
    return L->w[i][gmk_line_of[i * GMK_BCELLS + x]];
}

/* The line words of t's stones (rules.c). */
void gmk_lines_load(gmk_lines *L, const gmk *t);

/* ---- eval.c and priors.c: a cell's lines, read through gmk_line_table ---- */

/* The board's line words (gmk_lines, above) and, per colour, the half
 * of gmk_line_table its rule reads (overlines win or not). */
typedef struct gmk_eval_lines {
    gmk_lines L;
    const uint32_t *table[2];
} gmk_eval_lines;

static inline void gmk_eval_build(const gmk *t, gmk_eval_lines *E)
{
    gmk_lines_load(&E->L, t);
    for (int col = 0; col < 2; col++)
        E->table[col] = gmk_line_table + (gmk_exact(t->rule, col) ? 59049 : 0);
}

/* The gmk_line_table entries of empty cell (r, c) in each direction, per
 * colour, indexed by the 11 cells c - 5 .. c + 5 of the line less the
 * centre, in base 3. */
static inline void gmk_eval_at(gmk_eval_lines *E, int r, int c, unsigned v[2][4])
{
    int x = gmk_bidx(r, c);
    for (int i = 0; i < 4; i++) {
        int pos;
        const uint32_t *w = gmk_lines_at(&E->L, x, i, &pos);
        unsigned sh = (unsigned)pos - 5, emp = 2u * gmk_ls_base3[(w[2] >> sh) & 0x7ff];
        v[0][i] = E->table[0][gmk_ls_base3[(w[0] >> sh) & 0x7ff] + emp];
        v[1][i] = E->table[1][gmk_ls_base3[(w[1] >> sh) & 0x7ff] + emp];
    }
}

/* The pattern code of a cell for one colour from its table entries v[4]
 * (gmk_eval_at's, for that colour). */
static inline unsigned gmk_eval_code(const unsigned *v)
{
    return gmk_pc_table[((GMK_LINE_PT(v[0]) * 10 + GMK_LINE_PT(v[1])) * 10 + GMK_LINE_PT(v[2])) *
                            10 +
                        GMK_LINE_PT(v[3])];
}

#endif /* BANYAN_GOMOKU_H */
