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

#endif /* BANYAN_OTHELLO_H */
