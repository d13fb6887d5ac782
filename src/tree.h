/*
 * tree.h - the search tree: node layout and the node arena.
 *
 * Nodes live in one arena allocated when the engine is created and are
 * addressed by 32-bit index; index 0 is the "none" sentinel. A node's
 * children form one contiguous block taken at expansion, so a node stores
 * only (first child, count). Statistics are atomics so that threads can
 * share the tree without locks: a block of children is published by a
 * release store of `children`, which readers load with acquire.
 *
 * Values are fixed-point sums in VALUE_ONE units, always from the point of
 * view of the player who made the move into the node.
 */
#ifndef BANYAN_TREE_H
#define BANYAN_TREE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "banyan.h"
#include "config.h"

#define VALUE_ONE (1 << 20) /* Fixed-point unit of node values: 1.0. */

/* Bits of node.flags. The proof is the exact value for the player who made
 * the move into the node, once known. */
enum {
    NODE_PROOF_MASK = 3u,    /* Two bits holding a banyan_proof. */
    NODE_EXPANDING = 4u,     /* A thread has claimed the expansion. */
    NODE_TERMINAL = 8u,      /* The game is over at this node. */
    NODE_PROVEN_CHILD = 16u, /* Some child is proven: selection must look at proofs. */
    NODE_CANDIDATES = 32u,   /* The children are the game's candidates, which may be fewer
                                than the legal moves. */
    NODE_BLOCK = 64u,        /* Compaction only: this node starts a live block, whose size
                                less one is in the bits from NODE_SIZE_SHIFT. */
    NODE_SIZE_SHIFT = 7,     /* 9 bits: blocks of 1 to 512 nodes. */
};

typedef struct node {
    _Atomic uint32_t children; /* First child; 0 while unexpanded. Published last. */
    uint16_t n_children;       /* Children in the block; valid once children != 0. */
    _Atomic uint16_t flags;    /* NODE_* bits and the proof. */
    banyan_move move;          /* Move that led here from the parent. */
    float prior;               /* P(s,a): the game's prior, or uniform. */
    _Atomic uint32_t visits;   /* N(s,a), counting simulations still in flight. */
    _Atomic uint32_t reserved; /* tree_compact() keeps a block's new index here while it
                                  runs; otherwise 0, or 1 on a root child that the game's
                                  deep prover has seen (search.c). */
    _Atomic int64_t value;     /* W(s,a) in VALUE_ONE units, for the player who moved. */
} node;

_Static_assert(sizeof(node) == 32, "two nodes per cache line");

/* The arena. Index 0 is never handed out, so 0 can mean "none". */
typedef struct tree {
    node *nodes;             /* capacity slots, 64-byte aligned. */
    uint32_t capacity;       /* Slots, the sentinel included. */
    _Atomic uint32_t used;   /* Next free slot; may overshoot capacity after a failed take. */
    _Atomic bool full;       /* A take failed: the tree has stopped growing. */
    uint32_t root;           /* Index of the root node. */
    uint32_t recycle_visits; /* Visits a node needs to keep its children when the arena is
                                recycled; grows each time it fills again, 0 after a reset. */
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

/* Compacts the tree under child (which becomes the root, in slot 1; child
 * 1 keeps the root) keeping only the children of nodes with at least
 * min_visits visits; the others become leaves with their statistics and
 * proofs. One thread only, between simulations. Returns the nodes kept. */
BANYAN_INTERNAL uint32_t tree_compact(tree *t, uint32_t child, uint32_t min_visits);

static inline banyan_proof tree_proof(const node *x)
{
    return (banyan_proof)(atomic_load_explicit(&x->flags, memory_order_acquire) & NODE_PROOF_MASK);
}

static inline void tree_set_proof(node *x, banyan_proof p)
{
    atomic_fetch_or_explicit(&x->flags, (uint16_t)p, memory_order_release);
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
    return tree_value_mean(atomic_load_explicit(&x->visits, memory_order_relaxed),
                           atomic_load_explicit(&x->value, memory_order_relaxed));
}

#endif /* BANYAN_TREE_H */
