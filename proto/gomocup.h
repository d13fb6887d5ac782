/*
 * gomocup.h - the Gomocup (Piskvork) brain protocol front-end: what a
 * tournament manager says to a program named pbrain-NAME. It plays any game
 * whose description has X,Y coordinates and a board-size parameter
 * (Gomoku). It uses only the public API of libbanyan.
 */
#ifndef BANYAN_GOMOCUP_H
#define BANYAN_GOMOCUP_H

#include <stdbool.h>
#include <stdio.h>

#include "banyan.h"
#include "line.h"
#include "options.h"

typedef struct gomocup gomocup;

/* The Gomocup rule names (the choices of a game parameter of role
 * BANYAN_ROLE_RULE) and INFO rule's bits: freestyle 0, standard (exactly
 * five) 1, renju 4, caro 8. gomocup_rule_code returns -1 for a name that
 * is none of them; gomocup_rule_name reads the bits as the protocol says
 * (renju before exactly five, caro alone, else freestyle). */
int gomocup_rule_code(const char *name);
const char *gomocup_rule_name(long bits);

/* Whether game g can be played over Gomocup: X,Y coordinates, a parameter
 * of role width and height (a square board). Else false with why. */
bool gomocup_game_ok(const banyan_game *g, char *why, size_t len);

/* The first built-in game gomocup_game_ok accepts, or NULL. */
const banyan_game *gomocup_default_game(void);

/* Creates a session for game g (NULL: gomocup_default_game()) with the
 * engine options opt (borrowed; NULL for defaults), writing protocol lines
 * to out. The engine itself is made by START. Returns NULL with a message
 * in err[errlen] for a game Gomocup cannot play or when memory runs out. */
gomocup *gomocup_new(const banyan_game *g, const options *opt, FILE *out, char *err, size_t errlen);

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
