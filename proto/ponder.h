/*
 * ponder.h - pondering: searching on the opponent's time, for every
 * front-end. Start it once the engine has played its move; stop it as soon
 * as the next input arrives, before touching the engine again. The search
 * grows the tree under the current root, and banyan_engine_play() keeps the
 * subtree of the move the opponent then plays, so the thinking done while
 * waiting is not lost. With one thread a search is reproducible only
 * without pondering, which is why front-ends make it optional. Uses only
 * the public API.
 */
#ifndef BANYAN_PONDER_H
#define BANYAN_PONDER_H

#include <pthread.h>
#include <stdbool.h>

#include "banyan.h"

/* A ponder search in progress, or none. Zero-initialised means idle. */
typedef struct ponder {
    banyan_engine *e;  /* The engine being searched; NULL while idle. */
    pthread_t thread;  /* The thread searching it. */
    int rc;            /* The search's status and report, written by the */
    banyan_report rep; /* thread and read after it is joined. */
} ponder;

/* Starts searching e on a thread of its own, without limit, until
 * ponder_stop(). Until then the caller must call no engine function on e
 * but banyan_engine_stop(). Returns false, leaving p idle, when p is
 * already pondering or no thread can be made (the game then simply goes on
 * without pondering). */
bool ponder_start(ponder *p, banyan_engine *e);

/* Stops the search and joins its thread; afterwards the engine is the
 * caller's again, and no stop is left pending for its next search. Does
 * nothing when p is idle. */
void ponder_stop(ponder *p);

/* Whether p is pondering. */
bool ponder_running(const ponder *p);

#endif /* BANYAN_PONDER_H */
