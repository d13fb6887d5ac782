/*
 * gomocup.h - the Gomocup (Piskvork) brain protocol front-end for Gomoku:
 * what a tournament manager says to a program named pbrain-NAME. It uses
 * only the public API of libbanyan.
 */
#ifndef BANYAN_GOMOCUP_H
#define BANYAN_GOMOCUP_H

#include <stdbool.h>
#include <stdio.h>

#include "banyan.h"
#include "line.h"

typedef struct gomocup gomocup;

/* Creates a session with the engine config cfg and the per-move limits lim
 * (both borrowed; NULL for defaults), writing protocol lines to out. The
 * engine itself is made by START. Returns NULL with a message in
 * err[errlen] when the library has no Gomoku or memory runs out. */
gomocup *gomocup_new(const banyan_config *cfg, const banyan_limits *lim, FILE *out, char *err,
                     size_t errlen);

void gomocup_free(gomocup *ctx);

/* Turns pondering on or off (off by default: Gomocup tournaments forbid
 * thinking on the opponent's time). gomocup_run then searches after each
 * move answered until the next command arrives. */
void gomocup_set_ponder(gomocup *ctx, bool on);

/* Executes one input line (without its line end; modified in place) and
 * writes its answer, if any, timing the move from now. Returns true when
 * the session should end (END). Bad input of any kind is answered with
 * ERROR or UNKNOWN, never fatal. */
bool gomocup_execute(gomocup *ctx, char *line);

/* Runs a session over in on the calling thread (no thread; for tests and
 * fuzzing) until END or the end of input. Returns 0. */
int gomocup_run_sync(gomocup *ctx, line_reader *in);

/* Runs a session over file descriptor fd: a reader thread queues the lines
 * while this thread executes them, so that END stops a search at once.
 * Returns 0. */
int gomocup_run(gomocup *ctx, int fd);

#endif /* BANYAN_GOMOCUP_H */
