/*
 * data.h - self-play records: the games self-play writes and training
 * reads, with the search's visit distribution at every move and the result.
 *
 * A file is a header (magic, schema version, game and rule parameters) and
 * then games, each a block with its own checksum, so that a file cut short
 * by a killed run keeps every game written before the cut (the reader
 * reports the damaged tail and stops there). The byte layout is described
 * in data.c.
 */
#ifndef BANYAN_DATA_H
#define BANYAN_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DATA_VERSION     1
#define DATA_MAX_PLIES   4096 /* Plies a game may hold. */
#define DATA_MAX_ENTRIES 1024 /* Visit entries a ply may hold. */

/* One move of a game: the move played, and the root's visits when it was
 * chosen by a search whose distribution is a training target. */
typedef struct data_ply {
    uint16_t move;
    bool target;     /* The visits are a policy target (a full search). */
    uint16_t n;      /* Entries in visits. */
    uint32_t offset; /* Index of the first entry in the game's entry arrays. */
} data_ply;

/* One game. */
typedef struct data_game {
    float result; /* Player 0's return on the [0, 1] scale (1 win, 0.5 draw). */
    int n_plies;
    data_ply *plies;  /* n_plies */
    uint16_t *moves;  /* entries: the root's moves ... */
    uint32_t *visits; /* ... and their visits */
    uint32_t n_entries;
    uint32_t cap_plies, cap_entries; /* Allocated room (the writer's side). */
} data_game;

/* A game being recorded: data_game_begin, data_game_ply per move, then
 * data_write_game. data_game_free frees its arrays (the struct itself is the
 * caller's). Return 0, or -1 when out of memory or over the limits above. */
void data_game_begin(data_game *gm);
int data_game_ply(data_game *gm, uint16_t move, bool target, const uint16_t *moves,
                  const uint32_t *visits, int n);
void data_game_free(data_game *gm);

/* Writes the header of a new records file for the game and its rule
 * parameters (each at most 31 and 127 bytes). Returns 0, or -1 with a
 * sentence in why[len]. */
int data_write_header(FILE *f, const char *game, const char *params, char *why, size_t len);

/* Appends one game (its block and checksum) and flushes. Returns 0, or -1
 * with a sentence in why[len]. */
int data_write_game(FILE *f, const data_game *gm, char *why, size_t len);

/* A records file read whole. */
typedef struct data_file {
    char game[32], params[128];
    data_game *games; /* n_games, each with its own arrays */
    int n_games;
    bool damaged; /* A damaged or cut block ended the reading early: the games before
                     it are kept, and why holds the reason. */
} data_file;

/* Reads buf (a whole records file) into *out. Returns 0 when the header is
 * sound (out->damaged tells whether every game block was), or -1 with a
 * sentence in why[len] when it is not a records file this build reads.
 * Never reads outside buf, and allocates no more than its bytes justify. */
int data_read_mem(const void *buf, size_t size, data_file *out, char *why, size_t len);

/* The same from a file, read whole. */
int data_read(const char *path, data_file *out, char *why, size_t len);

void data_file_free(data_file *f);

#endif
