/*
 * threads.c - the workers: each runs simulations while the stop rules
 * allow (the limits, a proof, the early stop, the extension of unclear
 * positions), claiming them from the budget, recycling a full private
 * tree; search_threads_run() starts one thread per worker beyond the
 * caller's.
 */
#include "search.h"

#include <pthread.h>

#include "util.h"

/* How often (in simulations) a worker looks at the clock and the limits. */
#define SEARCH_CHECK_EVERY 16

/* The most and second most visited children of the root, and whether the
 * best by mean value (among children with at least a quarter of the best's
 * visits) is another one. */
static void search_leaders(const banyan_engine *e, uint32_t *v1, uint32_t *v2, bool *split)
{
    root_child *c = e->report.children;
    int n = search_root_children(e, c), best = -1;
    *v1 = *v2 = 0;
    *split = false;
    for (int i = 0; i < n; i++) {
        if (c[i].visits > *v1) {
            *v2 = *v1;
            *v1 = c[i].visits;
            best = i;
        } else if (c[i].visits > *v2) {
            *v2 = c[i].visits;
        }
    }
    for (int i = 0; best >= 0 && i < n; i++)
        if (i != best && c[i].visits >= *v1 / 4 &&
            search_child_mean(&c[i]) > search_child_mean(&c[best]))
            *split = true;
}

/* Whether every child of t's root is proven although the root is not
 * (its children are the game's candidates, fewer than its legal moves):
 * simulations could not change anything then. */
bool search_all_proven(const tree *t)
{
    const node *root = &t->nodes[t->root];
    if (!(atomic_load_explicit(&root->flags, memory_order_acquire) & NODE_PROVEN_CHILD))
        return false;
    int n;
    uint32_t first = search_root_block(t, &n);
    for (int i = 0; i < n; i++)
        if (tree_proof(&t->nodes[first + (uint32_t)i]) == BANYAN_UNPROVEN)
            return false;
    return n > 0;
}

/* Whether the search must stop now. Worker 0 also serves the progress
 * callback, the extension of unclear positions and the early stop. The
 * clock is read only every SEARCH_CHECK_EVERY simulations. */
static bool search_should_stop(worker *w, limits *L)
{
    banyan_engine *e = w->e;
    const node *root = &w->t->nodes[w->t->root];
    if (atomic_load_explicit(&L->halt, memory_order_relaxed) ||
        atomic_load_explicit(&e->stop, memory_order_relaxed) ||
        tree_proof(root) != BANYAN_UNPROVEN || tree_visits(root) >= SEARCH_VISITS_MAX)
        return true;
    if (L->max_nodes && search_nodes(e) >= L->max_nodes)
        return true;
    if (w->playouts % SEARCH_CHECK_EVERY != 0)
        return false;
    if (search_all_proven(w->t))
        return true;
    bool timed = L->deadline > 0 || L->user->progress;
    double now = timed ? util_now() : 0;
    if (L->deadline > 0 && now >= L->deadline) {
        /* Time is up: only an unclear position may go on, to the hard
         * limit (checked by worker 0 only, which then halts the rest). */
        if (now >= L->hard_deadline)
            return true;
        if (w->index != 0)
            return false; /* Worker 0 decides, and halts the others. */
        uint32_t v1, v2;
        bool split;
        search_leaders(e, &v1, &v2, &split);
        if (!split && (uint64_t)v2 * 10 <= (uint64_t)v1 * 6)
            return true;
    }
    if (w->index == 0 && L->user->progress && now >= L->next_progress) {
        banyan_report rep;
        if (w->line)
            search_merge_line(e, w); /* Its own: the others' are merged at the end. */
        search_report(e, &rep);
        rep.playouts = atomic_load_explicit(&e->started, memory_order_relaxed);
        rep.seconds = now - L->start;
        L->user->progress(L->user->progress_ud, &rep);
        L->next_progress =
            now + (L->user->progress_interval > 0 ? L->user->progress_interval : 0.25);
    }
    if (w->index == 0 && L->user->stop_early && w->playouts > 0 &&
        w->playouts % (16 * SEARCH_CHECK_EVERY) == 0) {
        /* Simulations still to come: by the budget, and by the rate so far
         * over the time left (to the hard limit: the stop must be safe).
         * The rate is measured from the first simulation, once there has
         * been one: the root's provers before it are no measure of it, and
         * with none yet a kept tree's leader looked unbeatable at once (a
         * Gomocup brain then answered every move after its first with no
         * simulation at all). */
        uint64_t started = atomic_load_explicit(&e->started, memory_order_relaxed);
        double left = e->budget > started ? (double)(e->budget - started) : 0;
        /* Other threads run their claimed chunks too. */
        left += e->cfg.threads > 1 ? (double)SEARCH_CHUNK * e->cfg.threads : 0;
        if (L->deadline > 0) {
            double t = now > 0 ? now : util_now(), elapsed = t - L->sims_start;
            double end = L->hard_deadline > L->deadline ? L->hard_deadline : L->deadline;
            double by_time = elapsed > 0 ? (double)started / elapsed * (end - t) : left;
            left = by_time < left ? by_time : left;
        }
        /* Other searches sharing this one (config.share_searches) run as
         * many, which the leaders' visits count once absorbed. */
        left *= e->cfg.share_searches > 1 ? e->cfg.share_searches : 1;
        uint32_t v1, v2;
        bool split;
        search_leaders(e, &v1, &v2, &split);
        if (!split && v1 > v2 && (double)(v1 - v2) > left)
            return true;
    }
    return false;
}

/*
 * The worker's tree is full and private: drop the children of the
 * nodes with fewer than recycle_visits visits (they become leaves, keeping
 * their statistics and proofs) so that the tree can grow again where the
 * search now goes. The threshold starts at eight times the expansion
 * threshold and doubles until at most three quarters of the arena are
 * kept; it carries over to the next filling. Each pass is linear in the
 * arena (tree_compact).
 */
static void search_recycle(worker *w)
{
    if (w->index == 0) {
        share_unphantom(w->e); /* The walks' nodes are about to move (worker 0 walks). */
        w->e->share.synced = false;
    }
    tree *t = w->t;
    uint32_t limit = t->capacity / 4 * 3;
    if (!t->recycle_visits)
        t->recycle_visits = 8 * (w->e->cfg.expand_visits + 1);
    while (tree_compact(t, t->root, t->recycle_visits) > limit && t->recycle_visits < (1u << 30))
        t->recycle_visits *= 2;
    w->recycles++;
}

/*
 * Takes the right to run one more simulation. One thread counts them one
 * by one. Several threads take them in chunks, so that the shared counter
 * costs one atomic instruction per chunk rather than per simulation: from
 * the common budget with one tree, from the worker's own share with one
 * tree each (so that a playout limit gives a reproducible search).
 */
static bool search_claim(worker *w)
{
    banyan_engine *e = w->e;
    if (w->claimed) {
        w->claimed--;
        return true;
    }
    if (e->cfg.threads == 1) {
        uint64_t k = atomic_load_explicit(&e->started, memory_order_relaxed);
        atomic_store_explicit(&e->started, k + 1, memory_order_relaxed);
        return k < e->budget;
    }
    uint64_t c = SEARCH_CHUNK;
    if (e->n_trees > 1) {
        c = w->budget < c ? w->budget : c;
        w->budget -= c;
        atomic_fetch_add_explicit(&e->started, c, memory_order_relaxed);
    } else {
        uint64_t k = atomic_fetch_add_explicit(&e->started, c, memory_order_relaxed);
        c = k >= e->budget ? 0 : e->budget - k < c ? e->budget - k : c;
    }
    if (!c)
        return false;
    w->claimed = (uint32_t)c - 1;
    return true;
}

/* Up to config.batch simulations at once, for an evaluator: each descends
 * in turn (search_batch_descend), then the evaluator takes every pending
 * leaf in one call and each simulation backs up (search_batch_end).
 * Returns the simulations run (0: none was claimed). */
static int search_simulate_batch(worker *w, limits *L)
{
    int n = 0;
    while (n < w->e->cfg.batch && (n == 0 || !search_should_stop(w, L)) && search_claim(w)) {
        w->playouts++; /* Counted as they start, for the stop checks. */
        search_batch_descend(w, n++);
    }
    search_batch_end(w, n);
    return n;
}

/* Adds what worker w owes the root of its shared tree. */
static void search_root_flush(worker *w)
{
    if (w->root_stats)
        atomic_fetch_add_explicit(&w->t->nodes[w->t->root].stats, w->root_stats,
                                  memory_order_relaxed);
    w->root_stats = 0;
}

/* A worker's loop: simulations until a limit, a stop or a proof, which
 * halt every worker, or until the budget is spent. */
static void search_work(worker *w, limits *L)
{
    banyan_engine *e = w->e;
    bool batched = e->cfg.batch > 1 && e->cfg.evaluator && e->cfg.leaf == BANYAN_LEAF_EVAL;
    while (!search_should_stop(w, L)) {
        int ran = 1;
        if (batched) {
            ran = search_simulate_batch(w, L);
        } else if (search_claim(w)) {
            if (w->index == 0 && e->share.phantom_cap)
                share_phantoms(w);
            search_simulate(w);
        } else {
            ran = 0;
        }
        if (!ran) {
            search_root_flush(w);
            return; /* The budget is spent; the others finish what they took. */
        }
        w->playouts += !batched;
        if (tree_stats_visits(w->root_stats) >= SEARCH_CHUNK)
            search_root_flush(w);
        if (!e->shared && !e->cfg.no_recycle &&
            atomic_load_explicit(&w->t->full, memory_order_relaxed))
            search_recycle(w);
    }
    search_root_flush(w);
    atomic_store_explicit(&L->halt, 1, memory_order_relaxed);
}

typedef struct search_thread {
    worker *w;
    limits *L;
} search_thread;

static void *search_thread_main(void *arg)
{
    search_thread *t = arg;
    search_work(t->w, t->L);
    return NULL;
}

void search_threads_run(banyan_engine *e, limits *L)
{
    pthread_t threads[BANYAN_MAX_THREADS];
    search_thread args[BANYAN_MAX_THREADS];
    int spawned = 0;
    for (int i = 1; i < e->cfg.threads && i < BANYAN_MAX_THREADS; i++) {
        args[i] = (search_thread){&e->workers[i], L};
        if (pthread_create(&threads[i], NULL, search_thread_main, &args[i]) != 0)
            break; /* Fewer threads, same search. */
        spawned = i;
    }
    search_work(&e->workers[0], L);
    for (int i = 1; i <= spawned; i++)
        pthread_join(threads[i], NULL);
    /* Threads that could not start leave their trees to this one. */
    for (int i = spawned + 1; i < e->n_trees; i++)
        search_work(&e->workers[i], L);
}
