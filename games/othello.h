/*
 * othello.h - what the Othello module offers beside its table: the exact
 * solver with its node count, for the endgame bench (bench/othello_endgame.c).
 */
#ifndef BANYAN_OTHELLO_H
#define BANYAN_OTHELLO_H

#include <stdint.h>

#include "banyan_game.h"

/* banyan_game_othello.solve, which also writes to *nodes the positions it
 * visited (also when it returns BANYAN_SOLVE_UNKNOWN). s, stop and mem as
 * for solve. */
int oth_solve_count(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                    banyan_move *best, int *score, uint64_t *nodes);

/* The evaluation model's inputs for the player to move in s (a game that
 * goes on): OTH_EVAL_TERMS terms, each twice (as it is, then times the
 * share of empty squares), into f[0 .. OTH_EVAL_FEATURES-1]. Returns
 * OTH_EVAL_FEATURES. For bench/othello_eval.c, which fits the weights. */
#define OTH_EVAL_TERMS    12
#define OTH_EVAL_FEATURES (2 * OTH_EVAL_TERMS)
int oth_eval_features(const void *s, double *f);

#endif /* BANYAN_OTHELLO_H */
