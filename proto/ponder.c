/*
 * ponder.c - searching on the opponent's time (see ponder.h).
 *
 * The thread runs one search with a time limit no game reaches, no other
 * limit and no progress output; only banyan_engine_stop() or a proven root
 * ends it. The stop needs care: a stop that reaches an engine with no
 * search running stops the next search at once. When the ponder search
 * ends by itself (the root is proven) just before the stop is sent, the
 * stop would be left pending and cut the front-end's next real search
 * short; so once the thread is joined, ponder_stop() clears any stop that
 * no search used (banyan_engine_clear_stop).
 */
#include "ponder.h"

#define PONDER_TIME 1e6 /* Seconds: longer than anyone thinks. */

static void *ponder_main(void *arg)
{
    ponder *p = arg;
    banyan_limits lim = BANYAN_LIMITS(.time = PONDER_TIME);
    p->rep = BANYAN_REPORT();
    p->rc = banyan_engine_search(p->e, &lim, &p->rep);
    return NULL;
}

bool ponder_start(ponder *p, banyan_engine *e)
{
    if (p->e || !e)
        return false;
    p->e = e;
    if (pthread_create(&p->thread, NULL, ponder_main, p) != 0) {
        p->e = NULL;
        return false;
    }
    return true;
}

void ponder_stop(ponder *p)
{
    if (!p->e)
        return;
    banyan_engine_stop(p->e);
    pthread_join(p->thread, NULL);
    banyan_engine_clear_stop(p->e); /* Unused if the search ended by itself. */
    p->e = NULL;
}

bool ponder_running(const ponder *p)
{
    return p->e != NULL;
}
