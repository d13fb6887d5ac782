/*
 * tt.c - transpositions (banyan_config.transpositions): the table of
 * statistics by position hash that values a leaf another order of moves
 * reached already, and in a graph (banyan_config.graph) the same table
 * holding the node that owns each position's block of children.
 */
#include "search.h"

/* The entry of tree t's transposition table for the position whose hash
 * is hash, a two-way bucket: the slot that holds the position, else NULL
 * (look) or the slot with fewer visits, emptied for it (take). The key
 * and the statistics are two words: a thread that reads them while
 * another takes the slot over may pair the new key with the old numbers,
 * which misleads one leaf at worst. */
static tree_tt_entry *search_tt_slot(const tree *t, uint64_t hash, bool take)
{
    uint64_t key = hash | 1;
    tree_tt_entry *b = tree_tt_bucket(t, hash);
    for (int i = 0; i < 2; i++)
        if (atomic_load_explicit(&b[i].key, memory_order_relaxed) == key)
            return &b[i];
    if (!take)
        return NULL;
    tree_tt_entry *x =
        &b[tree_stats_visits(atomic_load_explicit(&b[1].stats, memory_order_relaxed)) <
           tree_stats_visits(atomic_load_explicit(&b[0].stats, memory_order_relaxed))];
    atomic_store_explicit(&x->key, key, memory_order_relaxed);
    atomic_store_explicit(&x->stats, 0, memory_order_relaxed);
    return x;
}

/* The mean value of the position whose hash is hash, for the player who
 * moved into it, into *v, when the table has at least own visits of it
 * (own: the visits of the leaf, this one included, so that some came by
 * another path). */
bool search_tt_mean(const tree *t, uint64_t hash, uint32_t own, double *v)
{
    tree_tt_entry *x = search_tt_slot(t, hash, false);
    if (!x)
        return false;
    uint64_t s = atomic_load_explicit(&x->stats, memory_order_relaxed);
    if (tree_stats_visits(s) < own)
        return false;
    *v = tree_value_mean(tree_stats_visits(s), tree_stats_value(s));
    return true;
}

/* Adds a visit worth units VALUE_ONE units to the position whose hash is
 * hash. */
void search_tt_add(const banyan_engine *e, const tree *t, uint64_t hash, uint32_t units)
{
    tree_tt_entry *x = search_tt_slot(t, hash, true);
    uint64_t add = (uint64_t)units << NODE_VISIT_BITS | 1;
    uint64_t s = atomic_load_explicit(&x->stats, memory_order_relaxed);
    if (tree_stats_visits(s) >= SEARCH_TT_VISITS_MAX)
        return;
    if (e->shared)
        atomic_fetch_add_explicit(&x->stats, add, memory_order_relaxed);
    else
        atomic_store_explicit(&x->stats, s + add, memory_order_relaxed);
}

/* In a graph (banyan_config.graph) the table maps a position's hash to the
 * node that owns its block of children. An entry is a key and a node
 * index, written as a sequence lock would be: a writer takes the entry by
 * swapping its key for SEARCH_GRAPH_BUSY (another writer there, it gives
 * up), writes the index, and sets the key; a reader takes the index only
 * when the key is the one it looks for before and after it. So no thread
 * pairs one position's key with another's node. The owner of the position
 * whose hash is hash, or 0. */
#define SEARCH_GRAPH_BUSY 2u /* An entry being written: no key (keys are odd). */
uint32_t search_graph_find(const tree *t, uint64_t hash)
{
    uint64_t key = hash | 1;
    tree_tt_entry *b = tree_tt_bucket(t, hash);
    for (int i = 0; i < 2; i++) {
        if (atomic_load_explicit(&b[i].key, memory_order_acquire) != key)
            continue;
        /* Acquire: a writer's index seen here brings its key's change with it. */
        uint64_t owner = atomic_load_explicit(&b[i].stats, memory_order_acquire);
        if (atomic_load_explicit(&b[i].key, memory_order_relaxed) == key && owner < t->capacity)
            return (uint32_t)owner;
    }
    return 0;
}

/* Makes node xi the owner of the position whose hash is hash: in its
 * bucket, the slot of that position, else an empty one, else the one whose
 * owner has fewer visits. */
void search_graph_put(const tree *t, uint64_t hash, uint32_t xi)
{
    uint64_t key = hash | 1;
    tree_tt_entry *b = tree_tt_bucket(t, hash), *x = NULL;
    uint32_t visits[2];
    for (int i = 0; i < 2 && !x; i++) {
        uint64_t k = atomic_load_explicit(&b[i].key, memory_order_relaxed);
        uint64_t owner = atomic_load_explicit(&b[i].stats, memory_order_relaxed);
        visits[i] = owner < t->capacity ? tree_visits(&t->nodes[owner]) : 0;
        if (k == key || k == 0)
            x = &b[i];
    }
    if (!x)
        x = &b[visits[1] < visits[0]];
    uint64_t old = atomic_load_explicit(&x->key, memory_order_relaxed);
    if (old == SEARCH_GRAPH_BUSY ||
        !atomic_compare_exchange_strong_explicit(&x->key, &old, SEARCH_GRAPH_BUSY,
                                                 memory_order_relaxed, memory_order_relaxed))
        return; /* Another thread writes it: this position goes unshared. */
    atomic_store_explicit(&x->stats, xi, memory_order_release); /* After the key's BUSY. */
    atomic_store_explicit(&x->key, key, memory_order_release);
}
