/*
 * search.h - what the files of the search share (internal): search.c (the
 * orchestration, search_run), select.c (the selection policies),
 * simulate.c (the simulation loop), tt.c (transpositions and the graph),
 * threads.c (the workers and the stop rules), root.c (the root's provers,
 * solver, noise and final check) and report.c (the report).
 */
#ifndef BANYAN_SEARCH_H
#define BANYAN_SEARCH_H

#include "engine.h"

/* One ply of the path: a node and the player who moved into it. */
typedef struct step {
    uint32_t node;
    int mover;
} step;

/* Transpositions (banyan_config.transpositions): the table holds the
 * positions SEARCH_TT_DEPTH plies or more below the root, the fewest at
 * which two orders of moves can meet in a game where players alternate,
 * and stops counting a position's visits at SEARCH_TT_VISITS_MAX so that
 * they never overflow, whatever the number of searches. */
#define SEARCH_TT_DEPTH      3
#define SEARCH_TT_VISITS_MAX (NODE_VISITS_MAX / 2)

/* Simulations a thread takes from the budget at once, when several search. */
#define SEARCH_CHUNK 32

/* A search stops when its root has this many visits, so that no node's
 * count overflows (each thread may start one more simulation, and owe the
 * root a chunk's visits). */
#define SEARCH_VISITS_MAX (NODE_VISITS_MAX - BANYAN_MAX_THREADS * (SEARCH_CHUNK + 1))

/* Deadline and limits of the running search, shared read-only by workers. */
typedef struct limits {
    double start;         /* util_now() when the search began. */
    double sims_start;    /* util_now() when the simulations began, after the root's provers. */
    double deadline;      /* Absolute stop time; 0 = none. */
    double hard_deadline; /* Absolute end of the extension for unclear positions. */
    uint64_t max_nodes;   /* Tree size limit; 0 = none. */
    const banyan_limits *user;
    double next_progress; /* Worker 0 only: when to call progress next. */
    _Atomic int halt;     /* A limit was reached: every worker stops. */
} limits;

/* The player who moved into the root: whoever moved last. Only the root's
 * own statistics depend on it, and nothing reads those for decisions. */
static inline int search_root_mover(const banyan_engine *e)
{
    int n = e->game->n_players;
    return n == 1 ? 0 : (e->root_player + n - 1) % n;
}

/* Maps a raw return onto [0, 1] with the game's declared bounds. */
static inline double search_norm(const banyan_engine *e, double r)
{
    double v = (r - e->reward_lo) * e->reward_scale;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Adds to a node's statistics. Shared trees need atomic read-modify-write
 * instructions; with one thread a relaxed load and store do the same job
 * without the locked instruction (a full barrier on x86), which would
 * otherwise cost more than the rest of a tree level. */
static inline uint64_t search_add_stats(const banyan_engine *e, node *x, uint64_t add)
{
    if (e->shared)
        return atomic_fetch_add_explicit(&x->stats, add, memory_order_relaxed) + add;
    uint64_t s = atomic_load_explicit(&x->stats, memory_order_relaxed) + add;
    atomic_store_explicit(&x->stats, s, memory_order_relaxed);
    return s;
}

/* Adds a visit; returns the visits now. */
static inline uint32_t search_add_visit(const banyan_engine *e, node *x)
{
    return tree_stats_visits(search_add_stats(e, x, 1));
}

/* Adds v VALUE_ONE units of value. */
static inline void search_add_value(const banyan_engine *e, node *x, uint32_t v)
{
    search_add_stats(e, x, (uint64_t)v << NODE_VISIT_BITS);
}

/* The root's children block of tree t, or 0 while it is unexpanded. */
static inline uint32_t search_root_block(const tree *t, int *n)
{
    return tree_children(t->nodes, &t->nodes[t->root], n);
}

/* A root child's mean value over the trees. */
static inline double search_child_mean(const root_child *c)
{
    return tree_value_mean(c->visits, c->value);
}

/* select.c: the policy of e's configuration (RAVE, single-player, UCT or
 * PUCT), which search_run() stores in e->policy, with its tables made. */
BANYAN_INTERNAL search_policy search_policy_of(banyan_engine *e);
/* select.c: where PUCT's first-play rule (config.fpu other than infinite)
 * puts the value of an unvisited child of x, player to move at x. */
BANYAN_INTERNAL double search_fpu(const banyan_engine *e, const tree *t, const node *x, int player);

/* tt.c: the transposition table (search_tt_*) and the graph's table of
 * owners (search_graph_*). */
BANYAN_INTERNAL bool search_tt_mean(const tree *t, uint64_t hash, uint32_t own, double *v);
BANYAN_INTERNAL void search_tt_add(const banyan_engine *e, const tree *t, uint64_t hash,
                                   uint32_t units);
BANYAN_INTERNAL uint32_t search_graph_find(const tree *t, uint64_t hash);
BANYAN_INTERNAL void search_graph_put(const tree *t, uint64_t hash, uint32_t xi);

/* simulate.c: the simulation loop and the steps the root's work shares. */
typedef enum expansion {
    EXPAND_NONE = 0, /* Another thread holds the claim, or the arena is full. */
    EXPAND_DONE,     /* The children are there. */
    EXPAND_PROVEN    /* The game's prover found a win for the player to move. */
} expansion;
BANYAN_INTERNAL bool search_priors(const banyan_engine *e, int thread, const void *s,
                                   const banyan_move *moves, int n, float *priors);
BANYAN_INTERNAL expansion search_expand(worker *w, uint32_t xi, int mover, int depth,
                                        uint64_t hash);
BANYAN_INTERNAL bool search_prove(worker *w, const step *path, int i, int mover, int p);
BANYAN_INTERNAL void search_simulate(worker *w);
BANYAN_INTERNAL void search_batch_descend(worker *w, int i);
BANYAN_INTERNAL void search_batch_end(worker *w, int n);
BANYAN_INTERNAL void search_merge_line(banyan_engine *e, const worker *w);

/* threads.c: the workers, the claims on the budget and the stop rules. */
BANYAN_INTERNAL bool search_all_proven(const tree *t);
BANYAN_INTERNAL void search_threads_run(banyan_engine *e, limits *L);

/* root.c: the root's work before and after the simulations. */
BANYAN_INTERNAL bool search_root_explained(const tree *t);
BANYAN_INTERNAL uint32_t search_expand_root(banyan_engine *e, int k, int *n);
BANYAN_INTERNAL banyan_proof search_root_before(banyan_engine *e, const banyan_limits *u,
                                                double start);
BANYAN_INTERNAL void search_verify_best(banyan_engine *e, const banyan_limits *u, const limits *L);
BANYAN_INTERNAL void search_ownership(banyan_engine *e);

/* report.c: the root merged over the trees, and the nodes they hold. */
BANYAN_INTERNAL int search_root_children(const banyan_engine *e, root_child *out);
BANYAN_INTERNAL uint64_t search_nodes(const banyan_engine *e);

#endif /* BANYAN_SEARCH_H */
