/*
 * net.h - a network (nn.h) put to work on a game: positions as input
 * planes, moves as policy outputs, the symmetries of the board, and the
 * evaluator the engine calls (banyan_config.evaluator) with its cache.
 *
 * Everything here is read from the game's description (board_size, place,
 * place_move, piece, to_move), so any two-player game with a board can
 * learn: no game is named. The planes of a position, from the point of view
 * of the player to move:
 *   0  the mover's pieces           1  the opponent's pieces
 *   2  all ones when player 0 moves 3  all ones (the board's extent, for the
 *                                       zero padding of the convolutions)
 *   4 ...  the game's own planes, where it has them (banyan_learning.planes)
 * Policy outputs: one per cell (y * width + x), or one per column in a game
 * whose moves are columns; then one for the pass where the game has one.
 */
#ifndef BANYAN_NET_H
#define BANYAN_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "banyan.h"
#include "banyan_game.h"
#include "nn.h"

#define NET_PLANES 4 /* Every game's; a game's own (banyan_learning.planes) come after. */

/* What a game looks like to a network: the shape's board, planes and
 * policy fields from the game's description at position s (channels,
 * blocks and value_hidden left 0). Returns NULL, or a static sentence
 * saying why the game cannot learn ("the game has no board", "... is not a
 * two-player game"). */
const char *net_game_shape(const banyan_game *g, const void *s, nn_shape *out);

/* The planes of s (a game that net_game_shape accepted), the shape's planes
 * x height x width floats, plane-major, into out. */
void net_encode(const banyan_game *g, const void *s, float *out);

/* The policy output of move m in s, or -1 for a move without a place. */
int net_policy_index(const banyan_game *g, const void *s, banyan_move m);

/* The symmetries of a board (net_game_shape's), as maps of cells: 8 for a
 * square board of cells, 4 for another board of cells, 2 for columns (the
 * mirror). net_symmetries says how many; net_transform applies symmetry k
 * (0 is the identity) to planes (the shape's planes x cells) and to a policy
 * vector, out of place. */
int net_symmetries(const banyan_game *g, const void *s);
void net_transform(const banyan_game *g, const void *s, int k, const float *planes,
                   const float *policy, float *planes_out, float *policy_out);

/* A network loaded for a game, with a cache and scratch for each search
 * thread: the engine's evaluator. */
typedef struct net_evaluator net_evaluator;

/* Loads the network file path for game g with parameters params (the
 * engine's), checking that the file was made for that game and board;
 * threads is the engine's search threads, cache_entries the positions each
 * thread's cache holds (0: as many as 16 MiB hold). Returns 0, or -1 with a sentence in
 * why[len]. */
int net_evaluator_open(const char *path, const banyan_game *g, const char *params, int threads,
                       int cache_entries, net_evaluator **out, char *why, size_t len);

/* The same over a network already in memory (borrowed: it must outlive the
 * evaluator; the trainer's, say). */
int net_evaluator_new(const nn_net *net, const banyan_game *g, const char *params, int threads,
                      int cache_entries, net_evaluator **out, char *why, size_t len);

/* The hook to put in banyan_config.evaluator. */
const banyan_evaluator *net_evaluator_hook(net_evaluator *ev);

/* The network behind it, and the file's description (empty for _new). */
const nn_net *net_evaluator_net(const net_evaluator *ev);
const nn_meta *net_evaluator_meta(const net_evaluator *ev);

/* Forgets every cached evaluation (after the network changed). */
void net_evaluator_clear(net_evaluator *ev);

/* What the evaluator did, over every thread, since it was made (read
 * between searches). */
typedef struct net_counts {
    uint64_t asked;     /* positions asked for */
    uint64_t cached;    /* of them answered by the cache */
    uint64_t forwards;  /* forward passes */
    uint64_t evaluated; /* positions in them */
    double seconds;     /* thread-seconds in forward passes */
} net_counts;
void net_evaluator_counts(const net_evaluator *ev, net_counts *out);

void net_evaluator_free(net_evaluator *ev);

/* The rule parameters of params for game g (those with no plain value:
 * board size, rule set, k), each with its value or default, as
 * "key=value,key=value" into out[len] ("" for a game without any): what a
 * network file records. Returns BANYAN_OK, or BANYAN_ERANGE when out is too
 * small or BANYAN_EINVAL when params is malformed. */
int net_rule_params(const banyan_game *g, const char *params, char *out, size_t len);

/* Checks that meta (a network file's) was made for game g with parameters
 * params: the same game and the same value for each rule parameter.
 * NULL, or a sentence in why[len] (returned). */
const char *net_check_game(const nn_meta *meta, const banyan_game *g, const char *params, char *why,
                           size_t len);

#endif
