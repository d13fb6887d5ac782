/*
 * game.h - a game table as the library reads it: the table and each of
 * its parts copied to this library's sizes, the members a table made
 * against an older header lacks read as NULL or 0 (banyan_game.h, "A game
 * table and each of its parts begin with their size").
 */
#ifndef BANYAN_GAME_INTERNAL_H
#define BANYAN_GAME_INTERNAL_H

#include <stddef.h>

#include "banyan_game.h"
#include "config.h"

/* The smallest size of each table and part: that of its first sized
 * version. Members appended later lie beyond it. */
#define GAME_FIRST          (offsetof(banyan_game, learning) + sizeof(void *))
#define GAME_TACTICS_FIRST  (offsetof(banyan_tactics, verify_per_second) + sizeof(double))
#define GAME_NOTATION_FIRST (offsetof(banyan_notation, print) + sizeof(void *))
#define GAME_BOARD_FIRST    (offsetof(banyan_board, owner) + sizeof(void *))
#define GAME_LEARNING_FIRST (offsetof(banyan_learning, planes) + sizeof(void *))

/* Room for a normalised table and its parts. */
typedef struct game_norm {
    banyan_game game;
    banyan_tactics tactics;
    banyan_notation notation;
    banyan_board board;
    banyan_learning learning;
} game_norm;

/* NULL when this library can read the sizes of g and of its parts; else a
 * sentence naming the first it cannot (0: not made with its macro; larger
 * than this library's: made against a newer header). */
BANYAN_INTERNAL const char *game_sizes_check(const banyan_game *g);

/* g as this library reads it: g itself where it and each of its parts have
 * this library's sizes (nothing to copy), else a copy in *n, zero-filled
 * past what g gave, whose part pointers point into *n. NULL for a NULL g
 * or one whose sizes game_sizes_check() refuses. */
BANYAN_INTERNAL const banyan_game *game_normal(const banyan_game *g, game_norm *n);

/* Replaces g, a function's argument, by game_normal(g), in room on the
 * function's stack: the first statement of each public function of game.c
 * that takes a game. */
#define GAME_NORMAL(g)                                                                             \
    game_norm g##_norm;                                                                            \
    g = game_normal(g, &g##_norm)

#endif /* BANYAN_GAME_INTERNAL_H */
