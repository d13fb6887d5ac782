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
 * each of the eight directions; a move's flips by walking out from it. A
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

/* The run of om's discs (o's, less the edge columns for the directions
 * that move sideways, so that no run wraps round the board) that starts
 * next to move bit m in the direction of a left (or right) shift by d,
 * filled in 6 steps like the moves, kept only when p's disc closes it. */
static inline uint64_t oth_run_left(uint64_t m, uint64_t p, uint64_t om, int d)
{
    uint64_t end = oth_fill_left(m, om, d); /* The run moved one step on. */
    return (end >> d) & (0 - (uint64_t)((p & end) != 0));
}

static inline uint64_t oth_run_right(uint64_t m, uint64_t p, uint64_t om, int d)
{
    uint64_t end = oth_fill_right(m, om, d);
    return (end << d) & (0 - (uint64_t)((p & end) != 0));
}

/* The discs of o that a disc of p on square sq turns over (0: none, so the
 * move is illegal): the eight runs, without a branch. */
static inline uint64_t oth_flips(uint64_t p, uint64_t o, int sq)
{
    uint64_t m = (uint64_t)1 << sq, oi = o & OTH_INNER;
    return oth_run_left(m, p, oi, 1) | oth_run_right(m, p, oi, 1) | oth_run_left(m, p, o, 8) |
           oth_run_right(m, p, o, 8) | oth_run_left(m, p, oi, 7) | oth_run_right(m, p, oi, 7) |
           oth_run_left(m, p, oi, 9) | oth_run_right(m, p, oi, 9);
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
/* ---- Between the files ---- */

/* The solver's table of score bounds: 2^OTH_TT_BITS entries of 24 bytes
 * (6 MiB), the game's mem_size. */
#define OTH_TT_BITS     18
#define OTH_SOLVER_SIZE ((size_t)24 << OTH_TT_BITS)

/* The solve hook (solver.c). */
int oth_solve(const void *s, uint64_t budget, const _Atomic int *stop, void *mem, banyan_move *best,
              int *score);

/* banyan_game_othello.tactics->solve, which also writes to *nodes the positions it
 * visited (also when it returns BANYAN_SOLVE_UNKNOWN). s, stop and mem as
 * for solve. */
int oth_solve_count(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                    banyan_move *best, int *score, uint64_t *nodes);

/* The evaluate hook (eval.c): the model's chance for each player. */
bool oth_evaluate(const void *s, double *returns, const banyan_move *moves, int n, float *priors);

/* The evaluation model's inputs for the player to move in s (a game that
 * goes on): OTH_EVAL_TERMS terms, each twice (as it is, then times the
 * share of empty squares), into f[0 .. OTH_EVAL_FEATURES-1]. Returns
 * OTH_EVAL_FEATURES. For tools/othello_eval.c, which fits the weights. */
#define OTH_EVAL_TERMS    12
#define OTH_EVAL_FEATURES (2 * OTH_EVAL_TERMS)
int oth_eval_features(const void *s, double *f);

#endif /* BANYAN_OTHELLO_H */
