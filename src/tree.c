/*
 * tree.c - the node arena: a lock-free bump allocator over one block that
 * is reserved when the engine is created. A full arena stops the tree from
 * growing; it never stops the search. When a move is played, the subtree
 * under it is kept and compacted, and the rest of the arena reclaimed.
 */
#include "tree.h"

#include <string.h>

void tree_reset(tree *t)
{
    /* Slot 0 is the sentinel and slot 1 the root; only the root needs
     * clearing, since every later block is initialised when it is taken. */
    memset(&t->nodes[1], 0, sizeof(node));
    t->nodes[1].move = BANYAN_MOVE_NONE;
    t->nodes[1].prior = 1.0f;
    t->root = 1;
    t->recycle_visits = 0;
    atomic_store_explicit(&t->used, 2, memory_order_relaxed);
    atomic_store_explicit(&t->full, false, memory_order_relaxed);
}

uint32_t tree_take(tree *t, uint32_t n)
{
    /* The cheap early exit keeps failed callers from pushing 'used' ever
     * further past the end. */
    if (atomic_load_explicit(&t->used, memory_order_relaxed) + (uint64_t)n > t->capacity) {
        atomic_store_explicit(&t->full, true, memory_order_relaxed);
        return 0;
    }
    uint32_t first = atomic_fetch_add_explicit(&t->used, n, memory_order_relaxed);
    if ((uint64_t)first + n > t->capacity) {
        atomic_store_explicit(&t->full, true, memory_order_relaxed);
        return 0; /* Lost a race for the last nodes; 'used' stays high. */
    }
    return first;
}

uint32_t tree_size(const tree *t)
{
    uint32_t used = atomic_load_explicit(&t->used, memory_order_relaxed);
    return (used > t->capacity ? t->capacity : used) - 1;
}

/* Marks the children block of node x (if any) as live, with its size,
 * unless x has fewer than min_visits visits (its children are dropped). */
static void tree_mark(node *nodes, const node *x, uint32_t min_visits)
{
    uint32_t first = atomic_load_explicit(&x->children, memory_order_relaxed);
    if (!first || atomic_load_explicit(&x->visits, memory_order_relaxed) < min_visits)
        return;
    node *b = &nodes[first];
    uint16_t f = atomic_load_explicit(&b->flags, memory_order_relaxed);
    f = (uint16_t)(f | NODE_BLOCK | ((x->n_children - 1u) << NODE_SIZE_SHIFT));
    atomic_store_explicit(&b->flags, f, memory_order_relaxed);
}

static uint32_t tree_block_size(const node *b)
{
    return (atomic_load_explicit(&b->flags, memory_order_relaxed) >> NODE_SIZE_SHIFT) + 1u;
}

/* The first node at or after i, before used, that starts a live block;
 * used when there is none. Nodes between live blocks are garbage. */
static uint32_t tree_next_block(const node *nodes, uint32_t i, uint32_t used)
{
    while (i < used && !(atomic_load_explicit(&nodes[i].flags, memory_order_relaxed) & NODE_BLOCK))
        i++;
    return i;
}

/*
 * tree_compact: sliding compaction in three linear passes, using two facts: the bump
 * allocator places every block after the node that owns it, so one upward
 * scan can find every live block by marking the children of each live block
 * it meets; and blocks only ever move down, in address order, so moving
 * them in that order never overwrites a block not yet moved.
 *   1. Mark and forward: a live block's first node gets NODE_BLOCK and its
 *      size; its new index (the running total) goes into its `reserved`.
 *   2. Fix: every live node's child index becomes its block's new index; a
 *      leaf, or a node whose block is dropped, becomes a leaf again (a
 *      full arena may have left a stale expansion claim on it).
 *   3. Move: each live block slides down to its new index.
 * The new root is copied to slot 1 between passes 2 and 3.
 */
uint32_t tree_promote(tree *t, uint32_t child)
{
    return tree_compact(t, child, 0);
}

/* Pass 2's treatment of a node whose block is dropped, or a leaf: it is a
 * leaf again (its statistics and proof stay), free to be expanded. */
static void tree_make_leaf(node *x)
{
    atomic_store_explicit(&x->children, 0, memory_order_relaxed);
    x->n_children = 0;
    atomic_fetch_and_explicit(&x->flags,
                              (uint16_t) ~(NODE_EXPANDING | NODE_CANDIDATES | NODE_PROVEN_CHILD),
                              memory_order_relaxed);
}

/* Pass 2 for one live node: its child index becomes its block's new
 * index, or, with no live block, it becomes a leaf. */
static void tree_fix(node *nodes, node *x)
{
    uint32_t first = atomic_load_explicit(&x->children, memory_order_relaxed);
    if (first && (atomic_load_explicit(&nodes[first].flags, memory_order_relaxed) & NODE_BLOCK))
        atomic_store_explicit(&x->children,
                              atomic_load_explicit(&nodes[first].reserved, memory_order_relaxed),
                              memory_order_relaxed);
    else
        tree_make_leaf(x);
}

uint32_t tree_compact(tree *t, uint32_t child, uint32_t min_visits)
{
    node *nodes = t->nodes;
    uint32_t used = atomic_load_explicit(&t->used, memory_order_relaxed);
    if (used > t->capacity)
        used = t->capacity;

    /* Pass 1. */
    tree_mark(nodes, &nodes[child], min_visits);
    uint32_t next = 2;
    for (uint32_t i = tree_next_block(nodes, 2, used), n; i < used;
         i = tree_next_block(nodes, i + n, used)) {
        n = tree_block_size(&nodes[i]);
        atomic_store_explicit(&nodes[i].reserved, next, memory_order_relaxed);
        next += n;
        for (uint32_t j = i; j < i + n; j++)
            tree_mark(nodes, &nodes[j], min_visits);
    }

    /* Pass 2. */
    node root = nodes[child];
    for (uint32_t i = tree_next_block(nodes, 2, used), n; i < used;
         i = tree_next_block(nodes, i + n, used)) {
        n = tree_block_size(&nodes[i]);
        for (uint32_t j = i; j < i + n; j++)
            tree_fix(nodes, &nodes[j]);
    }
    tree_fix(nodes, &root);
    root.move = BANYAN_MOVE_NONE;
    root.prior = 1.0f;
    nodes[1] = root;

    /* Pass 3: the size is read before the flags that hold it are cleared. */
    for (uint32_t i = tree_next_block(nodes, 2, used), n; i < used;
         i = tree_next_block(nodes, i + n, used)) {
        node *b = &nodes[i];
        uint16_t f = atomic_load_explicit(&b->flags, memory_order_relaxed);
        uint32_t to = atomic_load_explicit(&b->reserved, memory_order_relaxed);
        n = tree_block_size(b);
        atomic_store_explicit(&b->flags, (uint16_t)(f & (NODE_BLOCK - 1u)), memory_order_relaxed);
        atomic_store_explicit(&b->reserved, 0, memory_order_relaxed);
        memmove(&nodes[to], &nodes[i], n * sizeof(node));
    }
    t->root = 1;
    atomic_store_explicit(&t->used, next, memory_order_relaxed);
    atomic_store_explicit(&t->full, false, memory_order_relaxed);
    return next - 1;
}
