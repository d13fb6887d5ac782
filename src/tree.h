/*
 * tree.h - the search tree: node layout and the node arena.
 *
 * Nodes live in one arena allocated when the engine is created and are
 * addressed by 32-bit index; index 0 is the "none" sentinel. A node's
 * children form one contiguous block taken at expansion, so a node stores
 * only its first child; the last child of a block carries NODE_LAST. A
 * node is 16 bytes, which is also the cost of a child edge, since every
 * child is a node. Statistics are atomics so that threads can share the
 * tree without locks: a block of children is published by a release store
 * of `children`, which readers load with acquire.
 *
 * Visits and value share one 64-bit word, so one load reads them as a
 * consistent pair: the visits in the low NODE_VISIT_BITS bits, the value
 * above them, a fixed-point sum in VALUE_ONE units, always from the point
 * of view of the player who made the move into the node. The search stops
 * before a root (and so any node) reaches NODE_VISITS_MAX visits.
 */
#ifndef BANYAN_TREE_H
#define BANYAN_TREE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "banyan.h"
#include "config.h"

#define VALUE_ONE       256 /* Fixed-point unit of values: 1.0. */
#define NODE_VISIT_BITS 28  /* Low bits of node.stats. */
#define NODE_VISITS_MAX ((UINT32_C(1) << NODE_VISIT_BITS) - 1) /* 268,435,455. */
#define NODE_MOVE_NONE  0xffffu                                /* node.move of BANYAN_MOVE_NONE. */
/* In node.children, with the index of the first child: the block is another
 * node's, of the same position, shared with it (graph search,
 * banyan_config.graph). The arena holds fewer than 2^31 nodes. */
#define NODE_BORROWED 0x80000000u

/* Bits of node.flags. The proof is the exact value for the player who made
 * the move into the node, once known. */
enum {
    NODE_PROOF_MASK = 3u,    /* Two bits holding a banyan_proof. */
    NODE_EXPANDING = 4u,     /* A thread has claimed the expansion. */
    NODE_TERMINAL = 8u,      /* The game is over at this node. */
    NODE_PROVEN_CHILD = 16u, /* Some child is proven: selection must look at proofs. */
    NODE_CANDIDATES = 32u,   /* The children are the game's candidates, which may be fewer
                                than the legal moves. */
    NODE_LAST = 64u,         /* The last child of its block. */
    NODE_MARK = 128u,        /* On a root child: the game's deep prover has seen it
                                (simulate.c). During tree_compact(): the first node of a
                                live block. */
};

typedef struct node {
    _Atomic uint64_t stats;    /* N(s,a), counting simulations still in flight, in the low
                                  NODE_VISIT_BITS bits; W(s,a) above, in VALUE_ONE units,
                                  for the player who moved. */
    _Atomic uint32_t children; /* First child; 0 while unexpanded. Published last. With
                                  NODE_BORROWED: a block another node owns. During
                                  tree_compact(), on a live block's first node: its
                                  parent, until the block is reached. */
    uint16_t move;             /* Move that led here from the parent; NODE_MOVE_NONE. */
    uint8_t prior;             /* P(s,a), the game's prior or uniform, as tree_prior_code(). */
    _Atomic uint8_t flags;     /* NODE_* bits and the proof. */
} node;

_Static_assert(sizeof(node) == 16, "four nodes per cache line");

/* An entry of a tree's transposition table: a position's hash (with its
 * low bit set, so that 0 means empty) and the statistics of every visit
 * to that position wherever it stands in the tree, in node.stats form. */
typedef struct tree_tt_entry {
    _Atomic uint64_t key;
    _Atomic uint64_t stats; /* In a graph (banyan_config.graph): the index of the node
                               that owns the position's block of children. */
} tree_tt_entry;

/* The arena. Index 0 is never handed out, so 0 can mean "none". */
/* The bytes of a cache line, for keeping fields that one thread writes
 * often apart from those others read (false sharing). */
#define TREE_CACHE_LINE 64

typedef struct tree {
    node *nodes;             /* capacity slots, 64-byte aligned. */
    uint32_t capacity;       /* Slots, the sentinel included. */
    uint32_t root;           /* Index of the root node. */
    uint32_t recycle_visits; /* Visits a node needs to keep its children when the arena is
                                recycled; grows each time it fills again, 0 after a reset. */
    _Atomic uint64_t *amaf;  /* With banyan_config.rave: capacity slots, each node's AMAF
                                statistics in node.stats form, beside it; else NULL. */
    _Atomic uint32_t *best;  /* With banyan_config.max_mix: capacity slots, the best return
                                backed up through each node (VALUE_ONE units), beside it;
                                else NULL. */
    tree_tt_entry *tt;       /* With banyan_config.transpositions: tt_mask + 1 entries;
                                else NULL. Kept across moves, cleared for a new game; in
                                a graph, cleared whenever the tree is compacted. */
    bool graph;              /* banyan_config.graph: nodes of one position share a block of
                                children, found through tt. */
    uint64_t tt_mask;
    /* Written by every expansion of every thread: a cache line away from
     * the fields above, which every step of every thread reads (sharing a
     * line with them cost each thread a miss after each expansion of the
     * other's on a shared tree), and from whatever follows the tree. */
    char pad_before[TREE_CACHE_LINE];
    _Atomic uint32_t used; /* Next free slot; may overshoot capacity after a failed take. */
    _Atomic bool full;     /* A take failed: the tree has stopped growing. */
    char pad_after[TREE_CACHE_LINE];
} tree;

/* Empties the tree and makes a fresh, unexpanded root. */
BANYAN_INTERNAL void tree_reset(tree *t);

/* Reserves n contiguous nodes and returns the index of the first, or 0 when
 * the arena is full (and then sets t->full). Never blocks, never allocates. */
BANYAN_INTERNAL uint32_t tree_take(tree *t, uint32_t n);

/* Nodes in use, the sentinel excluded. */
BANYAN_INTERNAL uint32_t tree_size(const tree *t);

/* Makes child, a child of the root, the new root: its subtree is kept and
 * compacted to the front of the arena, everything else reclaimed. Runs
 * between searches, in place, with no memory beyond the arena. Returns the
 * nodes kept. */
BANYAN_INTERNAL uint32_t tree_promote(tree *t, uint32_t child);

/* The two-entry bucket of t's transposition table for hash. */
static inline tree_tt_entry *tree_tt_bucket(const tree *t, uint64_t hash)
{
    return &t->tt[hash & t->tt_mask & ~(uint64_t)1];
}

/* Empties t's transposition table. */
BANYAN_INTERNAL void tree_tt_clear(tree *t);

/* Compacts the tree under child (which becomes the root, in slot 1; child
 * 1 keeps the root) keeping only the children of nodes with at least
 * min_visits visits; the others become leaves with their statistics and
 * proofs, and so does every node that borrowed its block (NODE_BORROWED):
 * each block keeps its owner only. One thread only, between simulations.
 * Clears every NODE_MARK, and in a graph the table (whose node indices
 * move). Returns the nodes kept. */
BANYAN_INTERNAL uint32_t tree_compact(tree *t, uint32_t child, uint32_t min_visits);

/* What tree_check() may assume about how a tree was grown (bits of how). */
#define TREE_CHECK_PROOFS                                                                          \
    1u /* A two-player game: the MCTS-Solver proves nodes. Without                                 \
          it, no node may carry a proof. */
#define TREE_CHECK_PRIVATE                                                                         \
    2u /* One thread grew the tree (no shared-tree races): proofs                                  \
          climbed as far as they can, and nodes were expanded only                                 \
          after expand_visits visits. */
#define TREE_CHECK_GRAPH                                                                           \
    4u /* A graph (banyan_config.graph): a shared block takes the                                  \
          visits and proofs of every node that shares it. */

#define TREE_CHECK_SHARED                                                                          \
    8u /* A tree that takes in other searches' statistics and                                      \
          proofs (banyan_config.share_nodes): a proven node may                                    \
          rest on children that only the other tree holds, and a                                   \
          node the others expanded has children before                                             \
          expand_visits visits. */

/* Checks the invariants of tree t at rest, with no simulation in flight:
 * returns NULL when every one holds, else a static sentence naming the first
 * broken rule, with the node's index in *at (when at is not NULL). The rules
 * are listed above the function in tree.c. Reads the tree only; linear in
 * its nodes, and needs no memory beyond a small stack. */
BANYAN_INTERNAL const char *tree_check(const tree *t, unsigned how, uint32_t expand_visits,
                                       uint32_t *at);

/* A prior in (0, 1] as a byte: -8 log2(p), rounded (a step of 9% at most
 * between neighbours, down to 2^-31); 255 for 0 and anything smaller. Read
 * from the float's bits: the exponent gives whole octaves, and the
 * mantissa m in [1, 2) is rounded to eighths of one by comparing it with
 * 2^((j - 1/2) / 8). */
static inline uint8_t tree_prior_code(float p)
{
    static const float half[8] = {1.044273782f, 1.138788635f, 1.241857812f, 1.354255547f,
                                  1.476826146f, 1.610490332f, 1.756252160f, 1.915206561f};
    union {
        float f;
        uint32_t u;
    } b = {p};
    if (!(p > 0))
        return 255;
    if (p >= 1)
        return 0;
    int octaves = 127 - (int)(b.u >> 23);  /* p = 2^-octaves m; octaves >= 1 */
    b.u = (b.u & 0x7fffffu) | 0x3f800000u; /* m */
    int code = 8 * octaves;
    for (int j = 0; j < 8 && b.f >= half[j]; j++)
        code--;
    return code >= 255 ? 255 : (uint8_t)code;
}

/* The prior of node x: 2^(-code / 8). */
static inline float tree_prior(const node *x)
{
    static const float eighth[8] = {1.0f,         0.917004043f, 0.840896415f, 0.771105413f,
                                    0.707106781f, 0.648419777f, 0.594603558f, 0.545253866f};
    union {
        uint32_t u;
        float f;
    } scale = {(uint32_t)(127 - (x->prior >> 3)) << 23}; /* 2^-(code / 8), a normal float. */
    return scale.f * eighth[x->prior & 7];
}

static inline banyan_move tree_move(const node *x)
{
    return x->move == NODE_MOVE_NONE ? BANYAN_MOVE_NONE : x->move;
}

static inline uint32_t tree_stats_visits(uint64_t stats)
{
    return (uint32_t)(stats & NODE_VISITS_MAX);
}

static inline int64_t tree_stats_value(uint64_t stats)
{
    return (int64_t)(stats >> NODE_VISIT_BITS);
}

static inline uint64_t tree_stats(const node *x)
{
    return atomic_load_explicit(&x->stats, memory_order_relaxed);
}

static inline uint32_t tree_visits(const node *x)
{
    return tree_stats_visits(tree_stats(x));
}

/* The index of x's first child, owned or borrowed; 0 for none. */
static inline uint32_t tree_first(const node *x)
{
    return atomic_load_explicit(&x->children, memory_order_acquire) & ~NODE_BORROWED;
}

/* The children of x: the first one's index, 0 for none, and how many. */
static inline uint32_t tree_children(const node *nodes, const node *x, int *n)
{
    uint32_t first = tree_first(x);
    int k = 0;
    if (first)
        while (!(atomic_load_explicit(&nodes[first + (uint32_t)k++].flags, memory_order_relaxed) &
                 NODE_LAST))
            ;
    *n = k;
    return first;
}

static inline banyan_proof tree_proof(const node *x)
{
    return (banyan_proof)(atomic_load_explicit(&x->flags, memory_order_acquire) & NODE_PROOF_MASK);
}

static inline void tree_set_proof(node *x, banyan_proof p)
{
    atomic_fetch_or_explicit(&x->flags, (uint8_t)p, memory_order_release);
}

/* Takes x's proof off (before any thread searches below it). */
static inline void tree_clear_proof(node *x)
{
    atomic_fetch_and_explicit(&x->flags, (uint8_t)~NODE_PROOF_MASK, memory_order_release);
}

/* Exact value in [0, 1] of a proof, for the player it belongs to. */
static inline double tree_proof_value(banyan_proof p)
{
    return p == BANYAN_PROVEN_WIN ? 1.0 : p == BANYAN_PROVEN_LOSS ? 0.0 : 0.5;
}

/* The proof of value v (exactly 0, 0.5 or 1), or BANYAN_UNPROVEN for any
 * other value. */
static inline banyan_proof tree_proof_of(double v)
{
    return v == 1.0   ? BANYAN_PROVEN_WIN
           : v == 0.0 ? BANYAN_PROVEN_LOSS
           : v == 0.5 ? BANYAN_PROVEN_DRAW
                      : BANYAN_UNPROVEN;
}

/* The same proof seen by the opponent in a two-player zero-sum game. */
static inline banyan_proof tree_proof_flip(banyan_proof p)
{
    return p == BANYAN_PROVEN_WIN    ? BANYAN_PROVEN_LOSS
           : p == BANYAN_PROVEN_LOSS ? BANYAN_PROVEN_WIN
                                     : p;
}

/* The mean in [0, 1] of n visits worth w VALUE_ONE units; 0.5 for none. */
static inline double tree_value_mean(uint64_t n, int64_t w)
{
    return n ? (double)w / ((double)n * VALUE_ONE) : 0.5;
}

/* Mean value of x in [0, 1] for the player who moved into it; 0.5 when it
 * has no visits. */
static inline double tree_mean(const node *x)
{
    uint64_t s = tree_stats(x);
    return tree_value_mean(tree_stats_visits(s), tree_stats_value(s));
}

#endif /* BANYAN_TREE_H */
