/*
 * search.c - one search: search_run() sets the limits, has the root's work
 * done before the simulations (root.c), runs the workers (threads.c, each
 * running the simulation loop of simulate.c with the policy of select.c),
 * checks the move to play and fills the report (report.c).
 *
 * Every simulation starts from a private copy of the root position and walks
 * down the tree by the selection policy, adding a visit to each node on the
 * way (a virtual loss: the value arrives only on the way back). At the leaf
 * it expands all children at once, plays one of them, finishes the game
 * with the game's rollout and backs the returns up, each node taking the
 * return of the player who moved into it (simulate.c, with MCTS-Solver's
 * proofs).
 */
#include "search.h"

#include <string.h>

#include "util.h"

void search_run(banyan_engine *e, const banyan_limits *lim, banyan_report *out)
{
    static const banyan_limits none = {0};
    limits L;
    const banyan_limits *u = lim ? lim : &none;
    banyan_proof analysing = BANYAN_UNPROVEN;

    L.start = L.sims_start = util_now();
    /* A game with a deep prover keeps budgets.verify_share of a timed
     * search for the check of the move to play (search_verify_best). */
    double keep =
        e->budgets.prove_win_deep && e->game->n_players == 2 ? e->budgets.verify_share : 0;
    L.deadline = u->time > 0 ? L.start + u->time * (1 - keep) : 0;
    L.hard_deadline =
        u->time > 0 && u->time_max > u->time ? L.start + u->time_max * (1 - keep) : L.deadline;
    L.max_nodes = u->nodes;
    L.user = u;
    L.next_progress = L.start + (u->progress_interval > 0 ? u->progress_interval : 0.25);
    atomic_init(&L.halt, 0);
    e->budget = u->playouts                 ? u->playouts
                : (u->time > 0 || u->nodes) ? UINT64_MAX
                                            : BANYAN_DEFAULT_PLAYOUTS;
    atomic_store_explicit(&e->started, 0, memory_order_relaxed);
    for (int i = 0; i < e->cfg.threads; i++) {
        worker *w = &e->workers[i];
        w->playouts = 0;
        w->max_depth = 0;
        w->root_top = 0;
        w->root_stats = 0;
        w->recycles = 0;
        w->transposed = 0;
        w->claimed = 0;
        w->line_len = 0;
        if (w->owned) {
            memset(w->owned, 0, 2 * BANYAN_OWNER_CELLS * sizeof *w->owned);
            w->owned_n = 0;
        }
        /* Root parallelism: an even share each, the first ones taking the
         * remainder. */
        w->budget =
            e->budget / (uint64_t)e->n_trees + ((uint64_t)i < e->budget % (uint64_t)e->n_trees);
    }

    /* A finished game needs no search, nor does a root the game proves. A
     * kept root proven without its reason, or with half the visits a tree
     * can count (so that every search has room), starts afresh first. */
    bool playing = e->game->moves(e->root_state, (banyan_move[BANYAN_MAX_MOVES]){0}) > 0;
    if (playing)
        for (int k = 0; k < e->n_trees; k++)
            if (!search_root_explained(&e->trees[k]) ||
                tree_visits(&e->trees[k].nodes[e->trees[k].root]) > NODE_VISITS_MAX / 2) {
                tree_reset(&e->trees[k]);
                e->root_noised = false;
            }
    uint64_t start_nodes = search_nodes(e);
    e->policy = search_policy_of(e);
    if (playing) {
        analysing = search_root_before(e, u, L.start);
        L.sims_start = util_now();
        search_threads_run(e, &L);
        share_unphantom(e);
        e->share.synced = false; /* The next search notes its own start. */
        if (u->finish) {
            banyan_report rep;
            search_report(e, &rep);
            rep.playouts = 0;
            for (int i = 0; i < e->cfg.threads; i++)
                rep.playouts += e->workers[i].playouts;
            rep.seconds = util_now() - L.start;
            u->finish(u->finish_ud, &rep);
        }
    }
    if (analysing) /* The proof holds: the other moves were only valued. */
        for (int k = 0; k < e->n_trees; k++)
            tree_set_proof(&e->trees[k].nodes[e->trees[k].root], analysing);
    e->analysing = false;
    if (playing)
        search_verify_best(e, u, &L);
    for (int i = 0; e->solo.line && i < e->cfg.threads; i++)
        search_merge_line(e, &e->workers[i]);
    atomic_store_explicit(&e->stop, 0, memory_order_relaxed);
    if (e->owner.cells)
        search_ownership(e);

    search_report(e, out);
    out->playouts = 0;
    out->recycles = 0;
    out->transposed = 0;
    for (int i = 0; i < e->cfg.threads; i++) {
        out->playouts += e->workers[i].playouts;
        out->recycles += e->workers[i].recycles;
        out->transposed += e->workers[i].transposed;
        if (e->workers[i].max_depth > out->max_depth)
            out->max_depth = e->workers[i].max_depth;
    }
    out->seconds = util_now() - L.start;
    out->start_nodes = start_nodes;
    DEBUG_CHECK(search_check(e));
}

const char *search_check(const banyan_engine *e)
{
    unsigned how = (e->game->n_players == 2 ? TREE_CHECK_PROOFS : 0u) |
                   (e->shared ? 0u : TREE_CHECK_PRIVATE) | (e->cfg.graph ? TREE_CHECK_GRAPH : 0u) |
                   (e->share.nodes ? TREE_CHECK_SHARED : 0u);
    for (int k = 0; k < e->n_trees; k++) {
        const char *why = tree_check(&e->trees[k], how, e->cfg.expand_visits, NULL);
        if (why)
            return why;
    }
    return NULL;
}
