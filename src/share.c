/*
 * share.c - the top of the tree shared with other searches of the same
 * position (banyan_engine_share, banyan_engine_absorb): one search on
 * several machines, as in Pachi's cluster mode, each with a tree of its
 * own that takes in the others' statistics.
 *
 * An export lists the most visited nodes of the tree, up to
 * config.share_nodes, each by its parent's entry and its move, so that
 * the receiver finds it by its path from the root, with the statistics
 * of this tree's own simulations there: its visits and value less what it
 * absorbed from the others. Absorbing the latest exports of every other
 * search adds to each node the part of their sum it has not yet taken.
 *
 * No simulation is counted twice. Every node that took statistics from
 * the others has an entry, found by its path key (the root's key mixed
 * with each move down), with what it took so far (applied); the others'
 * own statistics only grow, so the sum of their latest exports at a node
 * (pending) less applied is what is new. Where a sum comes out smaller
 * (a node fell out of some search's top this time), nothing is taken and
 * applied keeps the larger: a search absorbs at most what the others
 * truly ran, and never its own back, since it exports only its own.
 * Exports carry the root's key and the position's hash, so that searches
 * on different positions, or whose trees came by different moves, ignore
 * each other.
 *
 * The table of entries is emptied when the root is set afresh; after a
 * move whose subtree the tree keeps, keys carry on (the root's key mixes
 * in the move) and the entries of nodes dropped with the rest of the
 * tree are swept. An export and an absorb may run while the engine
 * searches, from the progress callback (worker 0's thread, between its
 * simulations): they read the tree with the searching threads' atomics
 * and add statistics with atomic adds. A leaf of this tree that another
 * search expanded is expanded as a simulation would (search_expand, with
 * worker 0's buffers), so that each tree grows into the union of the
 * tops and the proofs found in different trees can meet; nodes below a
 * parent this tree lacks are skipped, and come in later, in full.
 *
 * Proofs travel too (two-player games): an entry carries its node's proof,
 * and an absorb gives a proof to a node of this tree that has none, then
 * lets it climb as a simulation's would (search_prove), so that a search
 * stops visiting a move another has proven lost. A proof is exact
 * whoever found it, so taking it twice changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "search.h"
#include "share.h"
#include "util.h"

/* The export's layout, little-endian: a header of SHARE_HEAD bytes
 * (magic, version, entries, flags, the position's hash, the root's key),
 * then SHARE_ENTRY bytes an entry (parent entry or SHARE_NONE for the root,
 * visits, value in 1/256ths, move, proof: a banyan_proof), and with the flag SHARE_AMAF (a
 * tree with RAVE's statistics) SHARE_ENTRY_AMAF more (AMAF visits, 0, AMAF
 * value in 1/256ths). */
#define SHARE_MAGIC      0x5359424eu /* "NBYS" */
#define SHARE_VERSION    1u
#define SHARE_HEAD       32
#define SHARE_ENTRY      24
#define SHARE_ENTRY_AMAF 16
#define SHARE_AMAF       1u /* Flag: entries carry AMAF statistics. */
#define SHARE_NONE       0xffffffffu
#define SHARE_DEPTH      BANYAN_MAX_DEPTH /* The deepest node an export holds. */
#define SHARE_COLLECT    8 /* An export looks at up to 8 x share_nodes nodes for its top. */
#define SHARE_PHANTOMS   (1u << 16) /* Nodes the phantom walks pass between two take-backs. */

/* A frame of the depth-first walks of an export: a node, the next of its
 * children to look at, and (second walk) its entry and key. */
typedef struct share_frame {
    uint32_t node, next, entry;
    uint32_t first, count; /* Its children, counted once. */
    uint64_t key;
} share_frame;

/* A frame for node xi of tree t, its children counted. */
static share_frame share_frame_of(const tree *t, uint32_t xi, uint32_t entry, uint64_t key)
{
    int n;
    uint32_t first = tree_children(t->nodes, &t->nodes[xi], &n);
    return (share_frame){xi, 0, entry, first, (uint32_t)n, key};
}

static void share_put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void share_put64(unsigned char *p, uint64_t v)
{
    share_put32(p, (uint32_t)v);
    share_put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t share_get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t share_get64(const unsigned char *p)
{
    return share_get32(p) | (uint64_t)share_get32(p + 4) << 32;
}

/* The key of the child by move m of the node whose key is parent; never 0. */
static uint64_t share_key(uint64_t parent, banyan_move m)
{
    uint64_t k = banyan_mix64(parent ^ (0x9e3779b97f4a7c15u * ((uint64_t)m + 1)));
    return k ? k : 1;
}

/* Table entries for n nodes: a power of two, at least 8 n (the others'
 * tops overlap most of this one's; what is left over holds the entries of
 * earlier positions until the next sweep). */
static uint64_t share_slots(int n)
{
    uint64_t slots = 16;
    while (slots < 8 * (uint64_t)n)
        slots *= 2;
    return slots;
}

/* The bytes of each of the sharing buffers for n nodes, in share_alloc()'s
 * order: the table, its spare, the walks' marks, the heap, the touched
 * marks, the frames, the keys, the map, a position, the phantom walks
 * (with several searches only). */
enum { SHARE_BUFFERS = 10 };
static void share_sizes(int n, size_t state_size, int searches, size_t size[SHARE_BUFFERS])
{
    const share_state *S = NULL; /* For the sizes of its members' targets only. */
    size_t slots = (size_t)share_slots(n);
    size[0] = slots * sizeof *S->table;
    size[1] = slots * sizeof *S->spare;
    size[2] = slots * sizeof *S->walk;
    size[3] = (size_t)n * SHARE_COLLECT * sizeof *S->heap;
    size[4] = slots * sizeof *S->touched;
    size[5] = SHARE_DEPTH * sizeof *S->frames;
    size[6] = (size_t)n * sizeof *S->keys;
    size[7] = (size_t)n * sizeof *S->map;
    size[8] = state_size;
    size[9] = searches > 1 ? SHARE_PHANTOMS * sizeof *S->phantom : 0;
}

size_t share_bytes(int n, size_t state_size, int searches)
{
    size_t size[SHARE_BUFFERS], sum = 0;
    share_sizes(n, state_size, searches, size);
    for (int i = 0; i < SHARE_BUFFERS; i++)
        sum += size[i];
    return sum;
}

bool share_alloc(banyan_engine *e, int n)
{
    share_state *S = &e->share;
    size_t size[SHARE_BUFFERS];
    share_sizes(n, e->game->state_size, e->cfg.share_searches, size);
    S->nodes = n;
    S->mask = share_slots(n) - 1;
    void *p[SHARE_BUFFERS] = {0};
    bool ok = true;
    for (int i = 0; i < SHARE_BUFFERS; i++)
        ok = ok && (!size[i] || (p[i] = e->cfg.alloc(e->cfg.alloc_ud, NULL, size[i])) != NULL);
    S->table = p[0];
    S->spare = p[1];
    S->walk = p[2];
    S->heap = p[3];
    S->touched = p[4];
    S->frames = p[5];
    S->keys = p[6];
    S->map = p[7];
    S->state = p[8];
    S->phantom = p[9];
    S->phantom_cap = S->phantom ? SHARE_PHANTOMS : 0;
    return ok;
}

void share_free(banyan_engine *e)
{
    share_state *S = &e->share;
    void *owned[] = {S->table, S->spare, S->walk,    S->heap,  S->frames,
                     S->keys,  S->map,   S->touched, S->state, S->phantom};
    for (size_t i = 0; i < sizeof owned / sizeof *owned; i++)
        if (owned[i])
            e->cfg.alloc(e->cfg.alloc_ud, owned[i], 0);
    memset(S, 0, sizeof *S);
}

void share_reset(banyan_engine *e)
{
    share_state *S = &e->share;
    if (!S->nodes)
        return;
    S->position = banyan_game_hash(e->game, e->root_state);
    S->root_key = S->position ? S->position : 1;
    S->need = 0;
    S->phantoms = 0; /* The tree starts afresh. */
    S->synced = false;
    memset(S->table, 0, (size_t)(S->mask + 1) * sizeof *S->table);
}

/*
 * Phantom walks (config.share_searches > 1). Between two absorbs a search
 * does not see the simulations the others run meanwhile: with no more,
 * every search would walk the way the merged statistics point, each the
 * same, and evaluate the same leaves (a game's evaluation gives each the
 * same value: the same work done P times, and counted so). So each leaf is
 * given to one search, by a hash of its path of moves from the root (the
 * same on every search: the names of the nodes in an export), and before
 * each simulation of its first thread a search walks down the tree as a
 * simulation does, to a node with no children: where the node is another
 * search's, the walk stands for that search's simulation there and adds to
 * each node it passed a visit at the node's mean (share_unvisited's where
 * it has none), which lowers its exploration bonus as a thread's
 * simulation in flight does, without changing its value; then it walks
 * again. Where the node is this search's, the walk's visits are taken back
 * and the simulation follows the same path (the selection is
 * deterministic) to evaluate it. Walks that stand for the others' are
 * taken back at the next export or absorb (before the others' true
 * statistics come in) and at the search's end. Over the searches a
 * simulation is preceded by P - 1 walks on average, and no two searches
 * evaluate the same leaf while their trees agree above it (an earlier
 * scheme, walks in the order of the searches' indices, modelled the
 * others' simulations and still evaluated 28% of a Gomoku search's leaves
 * twice or more, as its model drifted from what the others did).
 * Proven nodes and the tree's depth limit end a walk as the search's own,
 * and so does the root, and a leaf this search's tree grew since its last
 * export or absorb (a node taken from the arena since then: its parent
 * was a leaf of this search's, and no other has it yet; without that, a
 * line could grow only a ply an exchange on most of its nodes).
 */

/* A walk's visit to a node with none of its own: at the value the first-
 * play rule gave it when selecting it (PUCT's, below the parent's value),
 * which keeps it no more attractive to the next walk than it was to this
 * one; a draw under UCT's rule, where an unvisited child is taken at once
 * anyway. */
static uint64_t share_unvisited(const banyan_engine *e, const tree *t, const node *x, int player)
{
    if (e->cfg.fpu == BANYAN_FPU_INFINITE)
        return VALUE_ONE / 2;
    double f = search_fpu(e, t, x, player);
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return (uint64_t)(f * VALUE_ONE + 0.5);
}

/* A node's mean in value units, a draw where it has no visits. */
static uint64_t share_mean(const node *x)
{
    uint64_t st = tree_stats(x);
    uint32_t n = tree_stats_visits(st);
    return n ? ((uint64_t)tree_stats_value(st) + n / 2) / n : VALUE_ONE / 2;
}

/* Adds a phantom visit at value v to node xi, remembered to take back. */
static void share_phantom_visit(banyan_engine *e, tree *t, uint32_t xi, uint64_t v)
{
    share_state *S = &e->share;
    search_add_stats(e, &t->nodes[xi], (v << NODE_VISIT_BITS) + 1);
    S->phantom[S->phantoms++] = (v << 32) | xi;
}

/* Takes back the phantom visits from the from-th on. */
static void share_unphantom_from(banyan_engine *e, uint32_t from)
{
    share_state *S = &e->share;
    node *nodes = e->trees[0].nodes;
    for (uint32_t i = from; i < S->phantoms; i++)
        atomic_fetch_sub_explicit(&nodes[(uint32_t)S->phantom[i]].stats,
                                  ((S->phantom[i] >> 32) << NODE_VISIT_BITS) + 1,
                                  memory_order_relaxed);
    S->phantoms = from;
}

void share_synced(banyan_engine *e)
{
    share_state *S = &e->share;
    S->known = atomic_load_explicit(&e->trees[0].used, memory_order_relaxed);
    S->synced = true;
}

/* The walks a search makes before a simulation of its first thread: at
 * most SHARE_WALKS_PER_SEARCH per search sharing, after which the
 * simulation runs wherever it goes. */
#define SHARE_WALKS_PER_SEARCH 8

void share_phantoms(worker *w)
{
    banyan_engine *e = w->e;
    share_state *S = &e->share;
    const banyan_game *g = e->game;
    tree *t = w->t;
    int P = e->cfg.share_searches;
    if (!S->synced && atomic_load_explicit(&t->nodes[t->root].children, memory_order_acquire))
        share_synced(e); /* A search's start, its root expanded. */
    for (int walk = 0; walk < SHARE_WALKS_PER_SEARCH * P; walk++) {
        uint32_t start = S->phantoms;
        /* Room for a whole walk, the root included. */
        if (S->phantom_cap - start < BANYAN_MAX_DEPTH + 1)
            return;
        memcpy(S->state, e->root_state, g->state_size);
        uint32_t xi = t->root;
        uint64_t path = 0x243f6a8885a308d3u; /* The same on every search. */
        bool ours = false;
        share_phantom_visit(e, t, xi, share_mean(&t->nodes[xi]));
        for (int depth = 0;; depth++) {
            node *x = &t->nodes[xi];
            if (tree_proof(x) != BANYAN_UNPROVEN || depth >= BANYAN_MAX_DEPTH) {
                ours = true; /* No evaluation there: any search's. */
                break;
            }
            if (!atomic_load_explicit(&x->children, memory_order_acquire)) {
                ours = xi >= S->known || xi == t->root ||
                       (int)((path >> 32) % (uint64_t)P) == e->cfg.share_index;
                break;
            }
            int player = g->to_move(S->state);
            xi = e->policy(e, t, x, player);
            banyan_move m = tree_move(&t->nodes[xi]);
            g->play(S->state, m);
            path = banyan_mix64(path ^ (uint64_t)(uint32_t)m);
            share_phantom_visit(e, t, xi,
                                tree_visits(&t->nodes[xi]) ? share_mean(&t->nodes[xi])
                                                           : share_unvisited(e, t, x, player));
        }
        if (ours) {
            share_unphantom_from(e, start); /* The simulation walks it itself. */
            return;
        }
    }
}

void share_unphantom(banyan_engine *e)
{
    if (e->share.phantoms)
        share_unphantom_from(e, 0);
}

/* The entry of key in table t, or the empty slot where it would go; NULL
 * when the table is full. */
static share_entry *share_find(share_entry *t, uint64_t mask, uint64_t key)
{
    for (uint64_t i = 0, h = key & mask; i <= mask; i++, h = (h + 1) & mask)
        if (t[h].key == key || t[h].key == 0)
            return &t[h];
    return NULL;
}

/* The entry of key, or NULL for none. */
static const share_entry *share_get(const share_state *S, uint64_t key)
{
    const share_entry *x = share_find(S->table, S->mask, key);
    return x && x->key == key ? x : NULL;
}

/* The child of node xi of tree t by move m, or 0. */
static uint32_t share_child(const tree *t, uint32_t xi, banyan_move m)
{
    int n;
    uint32_t first = tree_children(t->nodes, &t->nodes[xi], &n);
    for (int i = 0; i < n; i++)
        if (tree_move(&t->nodes[first + (uint32_t)i]) == m)
            return first + (uint32_t)i;
    return 0;
}

void share_played(banyan_engine *e, banyan_move m, bool kept)
{
    share_state *S = &e->share;
    if (!S->nodes)
        return;
    S->root_key = share_key(S->root_key, m);
    S->position = banyan_game_hash(e->game, e->root_state);
    if (!kept) {
        memset(S->table, 0, (size_t)(S->mask + 1) * sizeof *S->table);
        return;
    }
    /* Keep the entries of the nodes under the new root. They are reached
     * from the root through nodes that have entries too (an absorb takes a
     * node only below its parent), depth first: the stack never holds more
     * nodes than there are entries, which fit the table. */
    const tree *t = &e->trees[0];
    share_entry *to = S->spare;
    memset(to, 0, (size_t)(S->mask + 1) * sizeof *to);
    const share_entry *root = share_get(S, S->root_key);
    size_t top = 0;
    if (root) {
        *share_find(to, S->mask, root->key) = *root;
        S->walk[top++] = (share_step){S->root_key, t->root};
    }
    while (top > 0) {
        share_step at = S->walk[--top];
        int n;
        uint32_t first = tree_children(t->nodes, &t->nodes[at.node], &n);
        for (int i = 0; i < n; i++) {
            uint32_t ci = first + (uint32_t)i;
            uint64_t ck = share_key(at.key, tree_move(&t->nodes[ci]));
            const share_entry *x = share_get(S, ck);
            if (!x)
                continue;
            *share_find(to, S->mask, ck) = *x;
            S->walk[top++] = (share_step){ck, ci};
        }
    }
    S->spare = S->table;
    S->table = to;
}

BANYAN_API size_t banyan_share_size(int nodes)
{
    return SHARE_HEAD + (nodes > 0 ? (size_t)nodes * (SHARE_ENTRY + SHARE_ENTRY_AMAF) : 0);
}

/* The k-th largest (k from 1) of v[0 .. n), n >= k, by selection in
 * place (Hoare's, the middle element as pivot). */
static uint32_t share_select(uint32_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1, want = k - 1; /* In descending order. */
    while (lo < hi) {
        uint32_t pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] > pivot)
                i++;
            while (v[j] < pivot)
                j--;
            if (i <= j) {
                uint32_t x = v[i];
                v[i] = v[j];
                v[j] = x;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            break;
    }
    return v[want];
}

/* Collects into S->heap the visits of the nodes with at least least
 * visits, walking from the root only through them (a node's visits are
 * never more than its parent's); returns how many, or SIZE_MAX when more
 * than the array holds. */
static size_t share_collect(const share_state *S, const tree *t, uint32_t least)
{
    size_t n = 0, cap = (size_t)S->nodes * SHARE_COLLECT, depth = 0;
    share_frame *stack = S->frames;
    if (tree_visits(&t->nodes[t->root]) < least)
        return 0;
    stack[depth++] = share_frame_of(t, t->root, 0, 0);
    S->heap[n++] = tree_visits(&t->nodes[t->root]);
    while (depth > 0) {
        share_frame *f = &stack[depth - 1];
        if (f->next >= f->count || depth == SHARE_DEPTH) {
            depth--;
            continue;
        }
        uint32_t ci = f->first + f->next++, v = tree_visits(&t->nodes[ci]);
        if (v < least)
            continue;
        if (n == cap)
            return SIZE_MAX;
        S->heap[n++] = v;
        stack[depth++] = share_frame_of(t, ci, 0, 0);
    }
    return n;
}

/* The visits a node needs to be among the share_nodes most visited (at
 * least 1), and in *ties how many of those with just that many fit. The walk looks only at the
 * nodes above a guess, the last export's need (the top's least only grows while the tree does),
 * moved down while too few nodes reach it and up while too many. */
static uint32_t share_threshold(share_state *S, const tree *t, uint32_t *ties)
{
    uint32_t least = S->need > 0 ? S->need : 1;
    for (;;) {
        size_t n = share_collect(S, t, least);
        if (n == SIZE_MAX) {
            least *= 2; /* Too many: a higher bar. */
            continue;
        }
        if (n < (size_t)S->nodes && least > 1) {
            least = least / 4 > 1 ? least / 4 : 1; /* Too few: a lower one. */
            continue;
        }
        S->need = n >= (size_t)S->nodes ? share_select(S->heap, n, (size_t)S->nodes) : least;
        /* Room for the nodes with as many visits as the least of the top,
         * besides those with more. */
        size_t more = 0;
        for (size_t i = 0; i < n; i++)
            more += S->heap[i] > S->need;
        *ties = (uint32_t)((size_t)S->nodes > more ? (size_t)S->nodes - more : 0);
        return S->need;
    }
}

/* Writes at p the statistics stats (node.stats form) less what took holds
 * of them (its [k]; took may be NULL): visits (4 bytes), then, with k 0,
 * the value (8 bytes); with k 1 (AMAF), 4 bytes of 0 before the value. */
static void share_put_own(unsigned char *p, uint64_t stats, const share_entry *took, int k)
{
    uint32_t n = tree_stats_visits(stats);
    uint64_t w = (uint64_t)tree_stats_value(stats);
    if (took) {
        n = n > took->applied_n[k] ? n - took->applied_n[k] : 0;
        w = w > took->applied_w[k] ? w - took->applied_w[k] : 0;
    }
    share_put32(p, n);
    if (k == 0) {
        share_put64(p + 4, w);
    } else {
        share_put32(p + 4, 0);
        share_put64(p + 8, w);
    }
}

size_t share_export(banyan_engine *e, void *buf)
{
    share_state *S = &e->share;
    share_unphantom(e);
    share_synced(e); /* What the tree holds now, the others will have. */
    const tree *t = &e->trees[0];
    unsigned char *out = buf;
    uint32_t ties, need = share_threshold(S, t, &ties), count = 0, depth = 0;
    size_t size = SHARE_ENTRY + (t->amaf ? SHARE_ENTRY_AMAF : 0);
    /* Depth first from the root, each node after its parent: the nodes
     * with more visits than the least of the top, and those with as many
     * while there is room for them (the first met). */
    share_frame *stack = S->frames;
    stack[depth++] = share_frame_of(t, t->root, SHARE_NONE, S->root_key);
    bool fresh = true; /* The frame on top was just pushed. */
    while (depth > 0) {
        share_frame *f = &stack[depth - 1];
        const node *x = &t->nodes[f->node];
        if (fresh) {
            fresh = false;
            const share_entry *took = share_get(S, f->key);
            unsigned char *p = out + SHARE_HEAD + (size_t)count * size;
            share_put32(p, f->entry);
            share_put_own(p + 4, tree_stats(x), took, 0);
            share_put32(p + 16, f->entry == SHARE_NONE ? 0 : (uint32_t)tree_move(x));
            share_put32(p + 20, (uint32_t)tree_proof(x));
            if (t->amaf)
                share_put_own(p + SHARE_ENTRY,
                              atomic_load_explicit(&t->amaf[f->node], memory_order_relaxed), took,
                              1);
            f->entry = count++; /* Now its own entry, for its children. */
        }
        if (f->next >= f->count || depth == SHARE_DEPTH || count == (uint32_t)S->nodes) {
            depth--;
            continue;
        }
        uint32_t ci = f->first + f->next++;
        const node *c = &t->nodes[ci];
        uint32_t v = tree_visits(c);
        if (v > need || (v == need && ties > 0)) {
            ties -= v == need;
            stack[depth++] = share_frame_of(t, ci, f->entry, share_key(f->key, tree_move(c)));
            fresh = true;
        }
    }
    share_put32(out, SHARE_MAGIC);
    share_put32(out + 4, SHARE_VERSION);
    share_put32(out + 8, count);
    share_put32(out + 12, t->amaf ? SHARE_AMAF : 0);
    share_put64(out + 16, S->position);
    share_put64(out + 24, S->root_key);
    return SHARE_HEAD + (size_t)count * size;
}

/* The bytes of an entry of export b (its header read). */
static size_t share_entry_size(const unsigned char *b)
{
    return SHARE_ENTRY + (share_get32(b + 12) & SHARE_AMAF ? SHARE_ENTRY_AMAF : 0);
}

const char *share_check(const void *buf, size_t len)
{
    const unsigned char *b = buf;
    if (!b || len < SHARE_HEAD || share_get32(b) != SHARE_MAGIC)
        return "is not an export of banyan_engine_share()";
    if (share_get32(b + 4) != SHARE_VERSION)
        return "is of another version";
    uint32_t count = share_get32(b + 8), flags = share_get32(b + 12);
    if (flags & ~SHARE_AMAF)
        return "has flags of another version";
    size_t size = share_entry_size(b);
    if (count == 0 || (len - SHARE_HEAD) / size != count || (len - SHARE_HEAD) % size)
        return "has a length that is not that of its entries";
    for (uint32_t i = 0; i < count; i++) {
        const unsigned char *p = b + SHARE_HEAD + (size_t)i * size;
        uint32_t parent = share_get32(p), n = share_get32(p + 4), move = share_get32(p + 16);
        uint64_t w = share_get64(p + 8);
        if ((i == 0) != (parent == SHARE_NONE) || (i > 0 && parent >= i))
            return "has an entry whose parent does not come before it";
        if (n > NODE_VISITS_MAX || w > (uint64_t)n * VALUE_ONE)
            return "has statistics out of range";
        if (flags & SHARE_AMAF) {
            uint32_t an = share_get32(p + SHARE_ENTRY);
            uint64_t aw = share_get64(p + SHARE_ENTRY + 8);
            if (an > NODE_VISITS_MAX || aw > (uint64_t)an * VALUE_ONE ||
                share_get32(p + SHARE_ENTRY + 4))
                return "has AMAF statistics out of range";
        }
        if (move >= BANYAN_MOVE_LIMIT)
            return "has a move code out of range";
        if (share_get32(p + 20) > BANYAN_PROVEN_DRAW)
            return "has a proof out of range";
    }
    return NULL;
}

/* Adds visits vn and value vw of one export to the sum [k] of entry x. */
static void share_sum(share_entry *x, int k, uint32_t vn, uint64_t vw)
{
    x->pending_n[k] = x->pending_n[k] + vn < x->pending_n[k] ? UINT32_MAX : x->pending_n[k] + vn;
    x->pending_w[k] += vw;
}

/* Adds to statistics *stats (node.stats form: a node's, or its AMAF's) what
 * the sum [k] of entry x holds beyond what was taken, as far as they hold
 * it (a search stops short of the most visits a node counts), and counts
 * it taken. */
static void share_apply(share_entry *x, int k, _Atomic uint64_t *stats)
{
    uint32_t dn = x->pending_n[k] > x->applied_n[k] ? x->pending_n[k] - x->applied_n[k] : 0;
    uint64_t dw = x->pending_w[k] > x->applied_w[k] ? x->pending_w[k] - x->applied_w[k] : 0;
    if (!dn && !dw)
        return;
    uint64_t now = atomic_load_explicit(stats, memory_order_relaxed);
    uint32_t n = tree_stats_visits(now);
    uint32_t room = n < SEARCH_VISITS_MAX ? SEARCH_VISITS_MAX - n : 0;
    if (dn > room)
        dn = room;
    uint64_t w = (uint64_t)tree_stats_value(now), w_room = (uint64_t)(n + dn) * VALUE_ONE;
    w_room = w_room > w ? w_room - w : 0;
    if (dw > w_room)
        dw = w_room;
    atomic_fetch_add_explicit(stats, (dw << NODE_VISIT_BITS) + dn, memory_order_relaxed);
    x->applied_n[k] += dn;
    x->applied_w[k] += dw;
}

/* The path from the root to the node of entry i of export b (entries of
 * size bytes, mapped to this tree by S->map), with who moved into each
 * node, into path[0 .. depth], and its position into S->state. Returns
 * depth, or -1 for a path deeper than a search goes. */
static int share_path(banyan_engine *e, const unsigned char *b, size_t size, uint32_t i, step *path)
{
    share_state *S = &e->share;
    const banyan_game *g = e->game;
    const node *nodes = e->trees[0].nodes;
    uint32_t chain[BANYAN_MAX_DEPTH];
    int depth = 0;
    for (uint32_t j = i; j != 0; j = share_get32(b + SHARE_HEAD + (size_t)j * size)) {
        if (depth == BANYAN_MAX_DEPTH)
            return -1;
        chain[depth++] = j;
    }
    memcpy(S->state, e->root_state, g->state_size);
    path[0] = (step){e->trees[0].root, search_root_mover(e)};
    for (int k = 1; k <= depth; k++) {
        uint32_t xi = S->map[chain[depth - k]];
        path[k] = (step){xi, g->to_move(S->state)};
        g->play(S->state, tree_move(&nodes[xi]));
    }
    return depth;
}

/* Lets the proof path[depth] just took climb: each node above is proven
 * while its children prove it, as after a simulation (search_prove). */
static void share_climb(banyan_engine *e, const step *path, int depth)
{
    node *nodes = e->trees[0].nodes;
    for (int k = depth - 1; k >= 0; k--) {
        atomic_fetch_or_explicit(&nodes[path[k].node].flags, NODE_PROVEN_CHILD,
                                 memory_order_release);
        if (tree_proof(&nodes[path[k].node]) != BANYAN_UNPROVEN ||
            !search_prove(&e->workers[0], path, k, path[k].mover, path[k + 1].mover))
            break;
    }
}

/* Gives the node of entry i of export b the proof another search found
 * there, where it has none, and lets it climb. */
static void share_prove(banyan_engine *e, const unsigned char *b, size_t size, uint32_t i,
                        banyan_proof proof)
{
    step path[BANYAN_MAX_DEPTH + 1];
    node *x = &e->trees[0].nodes[e->share.map[i]];
    int depth;
    if (tree_proof(x) != BANYAN_UNPROVEN || (depth = share_path(e, b, size, i, path)) < 0)
        return;
    tree_set_proof(x, proof);
    share_climb(e, path, depth);
}

/* Expands the node of entry i of export b, a leaf of this tree that
 * another search has expanded, as a simulation would (search_expand, on
 * worker 0, whose thread this is): the others' statistics below it then
 * come in, and the proofs there can combine with this tree's. Returns
 * whether it has children now. */
static bool share_expand(banyan_engine *e, const unsigned char *b, size_t size, uint32_t i)
{
    worker *w = &e->workers[0];
    node *x = &e->trees[0].nodes[e->share.map[i]];
    step path[BANYAN_MAX_DEPTH + 1];
    double ret[BANYAN_MAX_PLAYERS];
    int depth;
    if (tree_first(x) || tree_proof(x) != BANYAN_UNPROVEN ||
        (atomic_load_explicit(&x->flags, memory_order_relaxed) & (NODE_EXPANDING | NODE_TERMINAL)))
        return false;
    depth = share_path(e, b, size, i, path);
    if (depth < 1 || depth >= BANYAN_MAX_DEPTH || e->game->outcome(e->share.state, ret))
        return false;
    void *own = w->state;
    w->state = e->share.state;
    expansion grown = search_expand(w, path[depth].node, path[depth].mover, depth, 0);
    w->state = own;
    if (grown == EXPAND_PROVEN)
        share_climb(e, path, depth);
    return grown == EXPAND_DONE;
}

int share_absorb(banyan_engine *e, const void *const *bufs, const size_t *lens, int n)
{
    share_state *S = &e->share;
    share_unphantom(e);
    (void)lens;
    if (++S->stamp == 0) {
        for (uint64_t i = 0; i <= S->mask; i++)
            S->table[i].stamp = 0;
        S->stamp = 1;
    }
    tree *t = &e->trees[0];
    bool proofs = e->game->n_players == 2; /* Where the search proves nodes. */
    int taken = 0;
    size_t n_touched = 0;
    for (int k = 0; k < n; k++) {
        const unsigned char *b = bufs[k];
        if (share_get64(b + 16) != S->position || share_get64(b + 24) != S->root_key)
            continue; /* Another position, or one reached by other moves. */
        taken++;
        uint32_t count = share_get32(b + 8);
        size_t size = share_entry_size(b);
        bool amaf = t->amaf && size > SHARE_ENTRY; /* Both keep them: they are shared. */
        if (count > (uint32_t)S->nodes)
            count = (uint32_t)S->nodes; /* Parents come first: a prefix is a top. */
        for (uint32_t i = 0; i < count; i++) {
            const unsigned char *p = b + SHARE_HEAD + (size_t)i * size;
            uint32_t parent = share_get32(p), xi;
            banyan_move m = share_get32(p + 16);
            uint64_t key;
            S->map[i] = 0;
            if (i == 0) {
                xi = t->root;
                key = S->root_key;
            } else {
                if (!S->map[parent])
                    continue; /* Not in this tree. */
                xi = share_child(t, S->map[parent], m);
                if (!xi && parent > 0 && share_expand(e, b, size, parent))
                    xi = share_child(t, S->map[parent], m);
                if (!xi)
                    continue; /* The arena is full, or the others' trees went elsewhere. */
                key = share_key(S->keys[parent], m);
            }
            share_entry *x = share_find(S->table, S->mask, key);
            if (!x)
                continue; /* The table is full: nothing taken below. */
            if (x->key != key)
                *x = (share_entry){.key = key};
            if (x->stamp != S->stamp) {
                x->stamp = S->stamp;
                memset(x->pending_n, 0, sizeof x->pending_n);
                memset(x->pending_w, 0, sizeof x->pending_w);
                S->touched[n_touched++] = (uint32_t)(x - S->table);
            }
            x->node = xi;
            share_sum(x, 0, share_get32(p + 4), share_get64(p + 8));
            if (amaf)
                share_sum(x, 1, share_get32(p + SHARE_ENTRY), share_get64(p + SHARE_ENTRY + 8));
            S->map[i] = xi;
            S->keys[i] = key;
            banyan_proof proof = (banyan_proof)share_get32(p + 20);
            if (proofs && i > 0 && proof != BANYAN_UNPROVEN)
                share_prove(e, b, size, i, proof);
        }
    }
    for (size_t i = 0; i < n_touched; i++) {
        share_entry *x = &S->table[S->touched[i]];
        share_apply(x, 0, &t->nodes[x->node].stats);
        if (t->amaf)
            share_apply(x, 1, &t->amaf[x->node]);
    }
    share_synced(e);
    return taken;
}
