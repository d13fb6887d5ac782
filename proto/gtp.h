/*
 * gtp.h - the Go Text Protocol (version 2) front-end, for every game. It
 * uses only the public API of libbanyan.
 */
#ifndef BANYAN_GTP_H
#define BANYAN_GTP_H

#include <stdbool.h>
#include <stdio.h>

#include "banyan.h"
#include "line.h"
#include "options.h"

typedef struct gtp gtp;

/* Creates a GTP session for game g with params (NULL for defaults) and the
 * engine options opt (config and per-move limits; borrowed), writing
 * responses to out. in, when not NULL, is polled during lz-analyze so that
 * the next command stops the analysis; without it, lz-analyze sends one
 * update and stops. Returns NULL with a message in err[errlen] on failure. */
gtp *gtp_new(const banyan_game *g, const char *params, const options *opt, FILE *out,
             line_reader *in, char *err, size_t errlen);

void gtp_free(gtp *ctx);

/* Turns pondering on or off (off by default): gtp_run then searches on the
 * opponent's time after each genmove, until the next line arrives. */
void gtp_set_ponder(gtp *ctx, bool on);

/* Allows or forbids the commands that read and write files named by the
 * controller (loadsgf, printsgf FILE); allowed by default. Fuzzing forbids
 * them. */
void gtp_set_files(gtp *ctx, bool on);

/* A follower of a session another process leads (a rank of an MPI job but
 * rank 0, which reads the same commands): it plays along, and printsgf
 * FILE writes no file, which the leader writes. */
void gtp_set_follower(gtp *ctx, bool on);

/* Executes one input line (modified in place) and writes its response.
 * Returns true when the session should end (quit). Bad input of any kind
 * becomes a "?" response. */
bool gtp_execute(gtp *ctx, char *line);

/* Runs a session over in until quit or the end of input, pondering while
 * it waits for a line when that is on. Returns 0. */
int gtp_run(gtp *ctx, line_reader *in);

/* The coordinate system GTP uses for game g, read from its description:
 * GTP's vertices (letters without I) for games played on cells, a column
 * letter for dropping games, else 0 (the game's own notation). */
unsigned gtp_coords(const banyan_game *g);

#endif /* BANYAN_GTP_H */
