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
    t->nodes[1].move = NODE_MOVE_NONE;
    t->nodes[1].prior = 0; /* 1.0 */
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

/* Nodes in the block that starts at i: up to its NODE_LAST. */
static uint32_t tree_block_size(const node *nodes, uint32_t i)
{
    uint32_t n = 1;
    while (!(atomic_load_explicit(&nodes[i + n - 1].flags, memory_order_relaxed) & NODE_LAST))
        n++;
    return n;
}

/* The first node at or after i, before used, that starts a live block
 * (NODE_MARK); used when there is none. Nodes between live blocks are
 * garbage. */
static uint32_t tree_next_block(const node *nodes, uint32_t i, uint32_t used)
{
    while (i < used && !(atomic_load_explicit(&nodes[i].flags, memory_order_relaxed) & NODE_MARK))
        i++;
    return i;
}

/* A node whose block is dropped, or a leaf: it is a leaf again (its
 * statistics and proof stay), free to be expanded (a full arena may have
 * left a stale expansion claim on it). */
static void tree_make_leaf(node *x)
{
    atomic_store_explicit(&x->children, 0, memory_order_relaxed);
    atomic_fetch_and_explicit(&x->flags,
                              (uint8_t) ~(NODE_EXPANDING | NODE_CANDIDATES | NODE_PROVEN_CHILD),
                              memory_order_relaxed);
}

/* Pass 1 for live node xi: its children's block, if kept (xi has at least
 * min_visits visits), is marked live and threaded: xi takes over the
 * block's first child pointer and that node points back to xi, so that
 * when the scan reaches the block it knows whose pointer to set. */
static void tree_thread(node *nodes, uint32_t xi, uint32_t min_visits)
{
    node *x = &nodes[xi];
    uint32_t first = atomic_load_explicit(&x->children, memory_order_relaxed);
    if (!first || tree_visits(x) < min_visits) {
        tree_make_leaf(x);
        return;
    }
    node *b = &nodes[first];
    atomic_store_explicit(&x->children, atomic_load_explicit(&b->children, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&b->children, xi, memory_order_relaxed);
    atomic_fetch_or_explicit(&b->flags, NODE_MARK, memory_order_relaxed);
}

/*
 * tree_compact: sliding compaction in place, with no memory beyond the
 * arena, using two facts: the bump allocator places every block after the
 * node that owns it, so one upward scan meets every live block after its
 * owner; and blocks only ever move down, in address order, so moving them
 * in that order never overwrites a block not yet moved.
 *   0. Clear: no node carries NODE_MARK.
 *   1. Mark and forward: starting from the new root, each live node's
 *      block is marked and threaded (tree_thread); the scan up the arena
 *      meets each marked block after its owner, gives it the next free
 *      index, sets the owner's child pointer to that index and restores
 *      its own first node's pointer, then threads the block's nodes.
 *   2. Move: each marked block slides down to its new index, met in the
 *      same order as in pass 1.
 * The new root is copied to slot 1 between passes 1 and 2.
 */
uint32_t tree_promote(tree *t, uint32_t child)
{
    return tree_compact(t, child, 0);
}

uint32_t tree_compact(tree *t, uint32_t child, uint32_t min_visits)
{
    node *nodes = t->nodes;
    uint32_t used = atomic_load_explicit(&t->used, memory_order_relaxed);
    if (used > t->capacity)
        used = t->capacity;

    /* Pass 0. */
    for (uint32_t i = 1; i < used; i++)
        atomic_fetch_and_explicit(&nodes[i].flags, (uint8_t)~NODE_MARK, memory_order_relaxed);

    /* Pass 1. */
    tree_thread(nodes, child, min_visits);
    uint32_t next = 2;
    for (uint32_t i = tree_next_block(nodes, 2, used), n; i < used;
         i = tree_next_block(nodes, i + n, used)) {
        node *b = &nodes[i];
        uint32_t owner = atomic_load_explicit(&b->children, memory_order_relaxed);
        atomic_store_explicit(&b->children,
                              atomic_load_explicit(&nodes[owner].children, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&nodes[owner].children, next, memory_order_relaxed);
        n = tree_block_size(nodes, i);
        next += n;
        for (uint32_t j = i; j < i + n; j++)
            tree_thread(nodes, j, min_visits);
    }

    node root = nodes[child];
    root.move = NODE_MOVE_NONE;
    root.prior = 0;
    atomic_store_explicit(&root.flags,
                          (uint8_t)(atomic_load_explicit(&root.flags, memory_order_relaxed) &
                                    ~(NODE_LAST | NODE_MARK)),
                          memory_order_relaxed);
    nodes[1] = root;

    /* Pass 2. */
    uint32_t to = 2;
    for (uint32_t i = tree_next_block(nodes, 2, used), n; i < used;
         i = tree_next_block(nodes, i + n, used)) {
        n = tree_block_size(nodes, i);
        atomic_fetch_and_explicit(&nodes[i].flags, (uint8_t)~NODE_MARK, memory_order_relaxed);
        memmove(&nodes[to], &nodes[i], n * sizeof(node));
        to += n;
    }
    t->root = 1;
    atomic_store_explicit(&t->used, next, memory_order_relaxed);
    atomic_store_explicit(&t->full, false, memory_order_relaxed);
    return next - 1;
}
