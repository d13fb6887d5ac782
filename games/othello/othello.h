/*
 * othello.h - what the files of the Othello module share, private to
 * games/othello/ (rules.c, solver.c, eval.c), and what it shows the bench
 * programs: the exact solver with its node count (bench/othello_endgame.c)
 * and the evaluation model's inputs (tools/othello_eval.c).
 *
 * Each player's discs are a 64-bit bitboard: bit 8 * row + column, a1 = bit
 * 0, h1 = bit 7, h8 = bit 63, rows counted from the top as in Othello's own
 * notation. Black (X, player 0) moves first. Moves are found for all squares
 * at once by filling runs of the opponent's discs from the mover's discs in
 * each of the eight directions; a move's flips from the first square past
 * the opponent's discs on each side along its four lines (a bit scan). A
 * pass is an ordinary move (code 64), legal exactly when the player to move
 * has no disc to place and the opponent has; the game ends when neither
 * side can move, and the empty squares then go to the winner. The moves and
 * flips are here, inline, for the rules, the solver and the evaluation.
 */
#ifndef BANYAN_OTHELLO_H
#define BANYAN_OTHELLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "banyan_game.h"
#include "bits.h"

/* Inline even where the compiler would not: the flips of a constant
 * square. Hidden: the tables the files share, not exported (a Windows DLL
 * exports what its .def file lists). */
#if defined(__GNUC__) || defined(__clang__)
#define OTH_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define OTH_ALWAYS_INLINE inline
#endif
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define OTH_HIDDEN __attribute__((visibility("hidden")))
#else
#define OTH_HIDDEN
#endif

#define OTH_SIDE    8
#define OTH_CELLS   64
#define OTH_PASS    64                    /* The move code of a pass. */
#define OTH_INNER   0x7e7e7e7e7e7e7e7eULL /* Columns b to g. */
#define OTH_CORNERS 0x8100000000000081ULL /* a1, h1, a8, h8. */
#define OTH_CENTRE  0x0000001818000000ULL /* d4, e4, d5, e5. */

/* The X-square and the two C-squares beside each corner, in the order
 * a1, h1, a8, h8. */
static const uint64_t oth_corner_bit[4] = {1ULL << 0, 1ULL << 7, 1ULL << 56, 1ULL << 63};
static const uint64_t oth_x_square[4] = {1ULL << 9, 1ULL << 14, 1ULL << 49, 1ULL << 54};
static const uint64_t oth_c_squares[4] = {(1ULL << 1) | (1ULL << 8), (1ULL << 6) | (1ULL << 15),
                                          (1ULL << 48) | (1ULL << 57), (1ULL << 55) | (1ULL << 62)};

enum { OTH_RO_CORNERS, OTH_RO_UNIFORM }; /* Rollout policies, in the order of the choices. */
enum { OTH_PR_MOBILITY, OTH_PR_OFF };    /* Priors. */
enum { OTH_SOLVER_ON, OTH_SOLVER_OFF };  /* The solve hook. */
enum { OTH_P_ROLLOUT, OTH_P_PRIORS, OTH_P_SOLVER, OTH_N_PARAMS }; /* oth_params' entries. */

typedef struct oth {
    uint64_t discs[2]; /* Discs of player 0 (Black, X) and player 1 (White, O). */
    uint8_t turn;      /* The player to move. */
    uint8_t rollout;   /* OTH_RO_*: the rollout policy. */
    uint8_t priors;    /* OTH_PR_*: the priors. */
    uint8_t solver;    /* OTH_SOLVER_*: whether solve() works. */
    uint8_t pad[4];    /* Zero, so that equal positions have equal bytes. */
} oth;

/* ---- Moves and flips ---- */

/* The squares of a run of o's discs that starts next to one of p's discs,
 * going in the direction of a left shift by d, filled in 6 steps (the
 * longest run), and the square just past each run. om is o, less the
 * columns a and h for the directions that move sideways (there a run never
 * reaches the edge column), so that no run wraps round the board. */
static inline uint64_t oth_fill_left(uint64_t p, uint64_t om, int d)
{
    uint64_t t = om & (p << d);
    t |= om & (t << d);
    t |= om & (t << d);
    t |= om & (t << d);
    t |= om & (t << d);
    t |= om & (t << d);
    return t << d;
}

static inline uint64_t oth_fill_right(uint64_t p, uint64_t om, int d)
{
    uint64_t t = om & (p >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    return t >> d;
}

/* The empty squares where the player with discs p may move against o. */
static inline uint64_t oth_mobility(uint64_t p, uint64_t o)
{
    uint64_t oi = o & OTH_INNER;
    uint64_t m = oth_fill_left(p, oi, 1) | oth_fill_right(p, oi, 1) | oth_fill_left(p, o, 8) |
                 oth_fill_right(p, o, 8) | oth_fill_left(p, oi, 7) | oth_fill_right(p, oi, 7) |
                 oth_fill_left(p, oi, 9) | oth_fill_right(p, oi, 9);
    return m & ~(p | o);
}

/* The discs of o that a disc of p on square sq turns over along line (a
 * row, column or diagonal through sq): on each side of sq, the first
 * square that is not o's (the lowest above sq, the highest below) closes
 * the run when it is p's. */
static OTH_ALWAYS_INLINE uint64_t oth_flips_line(uint64_t p, uint64_t o, uint64_t m, uint64_t line)
{
    uint64_t up = line & ~((m << 1) - 1), down = line & (m - 1);
    uint64_t x = up & ~o, first = x & (0 - x);
    uint64_t f = (0 - (uint64_t)((first & p) != 0)) & up & (first - 1);
    first = bits_high_bit(down & ~o);
    return f | ((0 - (uint64_t)((first & p) != 0)) & down & ~((first << 1) - 1));
}

/* The a1-h8 diagonal (or the h1-a8 anti-diagonal) shifted by k whole rows,
 * towards row 8 for k > 0: the bits shifted off the board are the squares
 * the shorter diagonal does not reach. */
static OTH_ALWAYS_INLINE uint64_t oth_diagonal(int k)
{
    const uint64_t diag = 0x8040201008040201ULL;
    return k >= 0 ? diag << 8 * k : diag >> -8 * k;
}

static OTH_ALWAYS_INLINE uint64_t oth_anti_diagonal(int k)
{
    const uint64_t anti = 0x0102040810204080ULL;
    return k >= 0 ? anti << 8 * k : anti >> -8 * k;
}

/* The discs of o that a disc of p on square sq turns over (0: none, so the
 * move is illegal): the row, the column and the two diagonals through sq,
 * each cut at the first square past a run of o's discs on either side.
 * Always inline, so that a constant sq folds the lines' masks: oth_flips
 * calls it once for each square. */
static OTH_ALWAYS_INLINE uint64_t oth_flips_at(uint64_t p, uint64_t o, int sq)
{
    uint64_t m = (uint64_t)1 << sq;
    int r = sq >> 3, c = sq & 7;
    return oth_flips_line(p, o, m, 0xffULL << (sq & 56)) |
           oth_flips_line(p, o, m, 0x0101010101010101ULL << c) |
           oth_flips_line(p, o, m, oth_diagonal(r - c)) |
           oth_flips_line(p, o, m, oth_anti_diagonal(r + c - 7));
}

/* oth_flips_at with the square's masks as constants (rules.c), for the
 * solver. */
uint64_t oth_flips(uint64_t p, uint64_t o, int sq);

/* The discs a disc at position x of a line of 8 squares turns over when
 * every other square of the line is filled: b holds the mover's discs on
 * the line, bit i for position i, and the others are the opponent's or off
 * the board, where no run is closed (rules.c). */
extern OTH_HIDDEN const uint8_t oth_last_count[8][256];

/* The number of discs a disc of p on square sq turns over when sq is the
 * board's last empty square (the opponent holds every other square): each
 * line through sq gathered into a byte of p's discs, the counts looked up,
 * without a branch. */
static inline int oth_last_flips(uint64_t p, int sq)
{
    int r = sq >> 3, c = sq & 7;
    uint64_t row = (p >> (sq & 56)) & 0xff;
    uint64_t col = (((p >> c) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
    uint64_t diag = ((p & oth_diagonal(r - c)) * 0x0101010101010101ULL) >> 56;
    uint64_t anti = ((p & oth_anti_diagonal(r + c - 7)) * 0x0101010101010101ULL) >> 56;
    return oth_last_count[c][row] + oth_last_count[r][col] + oth_last_count[c][diag] +
           oth_last_count[c][anti];
}

/* The final disc difference for p when neither side can move: the empty
 * squares go to the winner (the World Othello Federation's rule). */
static inline int oth_final(uint64_t p, uint64_t o)
{
    int np = bits_count(p), no = bits_count(o), empty = OTH_CELLS - np - no;
    return np > no ? np - no + empty : np < no ? np - no - empty : 0;
}

/* X- and C-squares beside the empty corners of a board whose empty squares
 * are empty. */
static inline uint64_t oth_danger(uint64_t empty)
{
    uint64_t d = 0;
    for (int c = 0; c < 4; c++)
        if (empty & oth_corner_bit[c])
            d |= oth_x_square[c] | oth_c_squares[c];
    return d;
}

/* One side's discs that can never be turned over, approximated from below:
 * a disc is stable when, along each of its four lines, the line is full or
 * a neighbour on that line is the board's edge or a stable disc of its own
 * colour. full[0..3]: the squares whose row, column, diagonal (a1-h8
 * direction) and anti-diagonal are full. */
static inline uint64_t oth_stable(uint64_t p, const uint64_t *full)
{
    /* The edges' neighbours off the board count as stable; so a shift
     * that wraps round a row lands on an edge square, already counted. */
    const uint64_t sides = 0x8181818181818181ULL, ends = 0xff000000000000ffULL;
    const uint64_t edge = sides | ends;
    uint64_t s = 0, last;
    do {
        last = s;
        uint64_t h = full[0] | s << 1 | s >> 1 | sides;
        uint64_t v = full[1] | s << 8 | s >> 8 | ends;
        uint64_t d = full[2] | s << 9 | s >> 9 | edge;
        uint64_t a = full[3] | s << 7 | s >> 7 | edge;
        s = p & h & v & d & a;
    } while (s != last);
    return s;
}

/* The squares of filled whose line in each direction (row, column,
 * diagonal, anti-diagonal) is full, into full[0..3]. */
static inline void oth_full_lines(uint64_t filled, uint64_t *full)
{
    full[0] = full[1] = full[2] = full[3] = 0;
    for (int k = 0; k < OTH_SIDE; k++) {
        uint64_t row = 0xffULL << 8 * k, col = 0x0101010101010101ULL << k;
        full[0] |= (filled & row) == row ? row : 0;
        full[1] |= (filled & col) == col ? col : 0;
    }
    for (int k = -7; k <= 7; k++) {
        uint64_t d = oth_diagonal(k), a = oth_anti_diagonal(k);
        full[2] |= (filled & d) == d ? d : 0;
        full[3] |= (filled & a) == a ? a : 0;
    }
}

/* The squares next to any of x (the eight neighbours). */
static inline uint64_t oth_neighbours(uint64_t x)
{
    uint64_t w = x >> 1 & ~0x8080808080808080ULL, e = x << 1 & ~0x0101010101010101ULL;
    uint64_t row = x | w | e;
    return (row | row << 8 | row >> 8) & ~x;
}

/* ---- Between the files ---- */

/* The solver's table of score bounds: 2^OTH_TT_BITS entries of 24 bytes
 * (6 MiB), the game's mem_size. */
#define OTH_TT_BITS     18
#define OTH_SOLVER_SIZE ((size_t)24 << OTH_TT_BITS)

/* The solve hook (solver.c). */
int oth_solve(const void *s, uint64_t budget, const _Atomic int *stop, void *mem, banyan_move *best,
              int *score);

/* banyan_game_othello.tactics->solve, which also writes to *nodes the positions it
 * visited (also when it returns BANYAN_SOLVE_UNKNOWN), with a table of
 * 2^table_bits entries in mem (24 << table_bits bytes; the hook's is
 * OTH_TT_BITS, in the game's mem_size). s and stop as for solve. */
int oth_solve_count(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                    int table_bits, banyan_move *best, int *score, uint64_t *nodes);

/* The evaluate hook (eval.c): the model's chance for each player. */
bool oth_evaluate(const void *s, double *returns, const banyan_move *moves, int n, float *priors);

/* The model's logit of p's chance to win, p to move against o (eval.c):
 * the solver orders its moves by it where many squares are empty. */
double oth_eval_logit(uint64_t p, uint64_t o);

/* The evaluation model's inputs for the player to move in s (a game that
 * goes on): OTH_EVAL_TERMS terms, each twice (as it is, then times the
 * share of empty squares), into f[0 .. OTH_EVAL_FEATURES-1]. Returns
 * OTH_EVAL_FEATURES. For tools/othello_eval.c, which fits the weights. */
#define OTH_EVAL_TERMS    12
#define OTH_EVAL_FEATURES (2 * OTH_EVAL_TERMS)
int oth_eval_features(const void *s, double *f);

#endif /* BANYAN_OTHELLO_H */
