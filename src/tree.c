/*
 * tree.c - the node arena: a lock-free bump allocator over one block that
 * is reserved when the engine is created. A full arena stops the tree from
 * growing; it never stops the search.
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
