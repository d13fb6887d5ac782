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
    if (t->graph) /* Its entries name nodes of the old tree. */
        tree_tt_clear(t);
}

void tree_tt_clear(tree *t)
{
    memset(t->tt, 0, (t->tt_mask + 1) * sizeof *t->tt);
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

/* Pass 1 for live node xi: its children's block, if kept (xi owns it and
 * has at least min_visits visits), is marked live and threaded: xi takes
 * over the block's first child pointer and that node points back to xi, so
 * that when the scan reaches the block it knows whose pointer to set. A
 * node that borrowed its block (a graph) becomes a leaf: the block keeps
 * only its owner, and so at most one pointer to set. */
static void tree_thread(node *nodes, uint32_t xi, uint32_t min_visits)
{
    node *x = &nodes[xi];
    uint32_t first = atomic_load_explicit(&x->children, memory_order_relaxed);
    if (!first || (first & NODE_BORROWED) || tree_visits(x) < min_visits) {
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
    if (t->amaf)
        atomic_store_explicit(&t->amaf[1], 0, memory_order_relaxed);
    if (t->best)
        atomic_store_explicit(&t->best[1],
                              atomic_load_explicit(&t->best[child], memory_order_relaxed),
                              memory_order_relaxed);

    /* Pass 2. */
    uint32_t to = 2;
    for (uint32_t i = tree_next_block(nodes, 2, used), n; i < used;
         i = tree_next_block(nodes, i + n, used)) {
        n = tree_block_size(nodes, i);
        atomic_fetch_and_explicit(&nodes[i].flags, (uint8_t)~NODE_MARK, memory_order_relaxed);
        memmove(&nodes[to], &nodes[i], n * sizeof(node));
        if (t->amaf) /* A node's AMAF statistics move with it. */
            memmove((void *)&t->amaf[to], (void *)&t->amaf[i], n * sizeof *t->amaf);
        if (t->best) /* And its best return. */
            memmove((void *)&t->best[to], (void *)&t->best[i], n * sizeof *t->best);
        to += n;
    }
    t->root = 1;
    atomic_store_explicit(&t->used, next, memory_order_relaxed);
    atomic_store_explicit(&t->full, false, memory_order_relaxed);
    if (t->graph) /* Its entries name nodes by their old index. */
        tree_tt_clear(t);
    return next - 1;
}

/*
 * tree_check: the invariants of a tree between searches, checked in one
 * walk from the root, node by node with its block of children.
 *  1. Shape. The root is slot 1, with no move and no NODE_LAST. Every block
 *     of children lies after its owner (tree_compact() relies on it) and
 *     inside the used part of the arena, ends at its only NODE_LAST and
 *     holds moves. Nodes BANYAN_MAX_DEPTH plies deep have no children. The
 *     blocks fill the used part [2, used) exactly, every slot reached once
 *     from the root (when a take lost a race for the last nodes and left
 *     used past the capacity, they fill at most the capacity).
 *  2. Statistics. A node's value is between 0 and VALUE_ONE a visit: every
 *     visit counted on the way down (the virtual loss) has brought its value
 *     back. Its visits are at least the sum of its children's: the rest are
 *     the simulations that ended at it (as a leaf, proven or over, or when
 *     its expansion failed). This holds at the root too, whose statistics
 *     threads sharing a tree gather and add in chunks, since every chunk is
 *     added when a search ends; it is also what shows a count that ran past
 *     the root's cap (NODE_VISITS_MAX) into the value bits. In a private
 *     tree a node below the root had expand_visits visits before it had
 *     children, so its visits are at least the sum plus expand_visits;
 *     not in a tree that takes in other searches' statistics
 *     (TREE_CHECK_SHARED), which expands the nodes they expanded.
 *  3. Flags. A node with children has claimed its expansion
 *     (NODE_EXPANDING); a claim without children is a node proven instead of
 *     expanded, or an expansion that the full arena refused (t->full).
 *     NODE_CANDIDATES only on a node with children, NODE_TERMINAL only on
 *     one without, NODE_MARK only on the root's children (the deep prover's;
 *     compaction clears it), and NODE_PROVEN_CHILD exactly on the nodes with
 *     a proven child: selection looks at proofs only where it is set.
 *  4. Proofs (search_prove(); two-player games only, elsewhere no node is
 *     proven). A proven node with children rests on them: a child proven to
 *     win (for the player to move at the node), or every child proven. It
 *     is a draw exactly when no child wins and the best child is a draw;
 *     otherwise a child wins or every child loses. (Whether the node itself
 *     is then won or lost depends on who moved into it, which the tree does
 *     not record.) The root and its children are exempt: the game's provers
 *     prove them whatever their children hold (search_prove_root(),
 *     search_prove_deep()), and the root may be such a child promoted. So
 *     is every node of a tree that takes in other searches' proofs
 *     (TREE_CHECK_SHARED): such a proof rests on the other tree's children. In a
 *     private tree the converse holds at every node, since every new proof
 *     is followed by an attempt on its parent: a node with a child proven to
 *     win, or with every child proven when its children are all its legal
 *     moves (no NODE_CANDIDATES), is proven. On a shared tree two threads may
 *     each prove a child and each see the other's child still unproven.
 *  5. Graphs (t->graph, TREE_CHECK_GRAPH). A node that borrowed a block
 *     (NODE_BORROWED) lies below the root, has claimed its expansion, is no
 *     finished game, and points into the used arena; its block is walked
 *     from its owner, once. A shared block takes the visits and proofs of
 *     every node that shares it, so neither the counts of rule 2 nor
 *     NODE_PROVEN_CHILD and the converse of rule 4 bind its owner. Outside
 *     a graph no node borrows.
 */

/* The siblings still to walk at one depth: [next, end). */
typedef struct tree_span {
    uint32_t next, end;
} tree_span;

/* A proof's rank for the player it belongs to: loss 0, draw 1, win 2. */
static int tree_proof_rank(banyan_proof p)
{
    return p == BANYAN_PROVEN_WIN ? 2 : p == BANYAN_PROVEN_DRAW ? 1 : 0;
}

/* The rules that node xi, depth plies below the root, and its block of
 * children can show; *first and *n receive the block (0 for none). size is
 * the used part of the arena, at most the capacity. */
static const char *tree_check_node(const tree *t, uint32_t xi, int depth, unsigned how,
                                   uint32_t expand_visits, uint32_t size, uint32_t *first,
                                   uint32_t *n)
{
    const node *nodes = t->nodes, *x = &nodes[xi];
    uint8_t flags = atomic_load_explicit(&x->flags, memory_order_relaxed);
    banyan_proof proof = (banyan_proof)(flags & NODE_PROOF_MASK);
    uint64_t st = tree_stats(x), sum = 0;
    uint32_t visits = tree_stats_visits(st);
    uint32_t f = atomic_load_explicit(&x->children, memory_order_relaxed);
    bool win = false, all = true, any = false;
    int best = 0;

    *first = *n = 0;
    if (tree_stats_value(st) > (int64_t)visits * VALUE_ONE)
        return "a node's value exceeds VALUE_ONE a visit: a visit never brought its value";
    if ((flags & NODE_MARK) && depth != 1)
        return "NODE_MARK on a node that is not a child of the root";
    if (proof != BANYAN_UNPROVEN && !(how & TREE_CHECK_PROOFS))
        return "a proof in a game without the solver (not two players)";
    if (f & NODE_BORROWED) {
        /* Walked from its owner: here only its place is checked. */
        f &= ~NODE_BORROWED;
        if (!t->graph || depth == 0 || f < 2 || f >= size)
            return "a borrowed block outside a graph, at the root or outside the used arena";
        if (!(flags & NODE_EXPANDING) || (flags & NODE_TERMINAL))
            return "a borrowed block without an expansion claim or under a finished game";
        return NULL;
    }
    if (!f) {
        if (flags & (NODE_CANDIDATES | NODE_PROVEN_CHILD))
            return "NODE_CANDIDATES or NODE_PROVEN_CHILD on a node without children";
        if ((flags & NODE_EXPANDING) && proof == BANYAN_UNPROVEN &&
            !atomic_load_explicit(&t->full, memory_order_relaxed))
            return "an expansion claimed, but not done, not proven and not refused by a full arena";
        return NULL;
    }

    /* The block: after its owner, inside the used arena, up to NODE_LAST. */
    if (f <= xi || f >= size)
        return "a block of children not after its owner inside the used part of the arena";
    uint32_t k = 0;
    do {
        if (f + k >= size)
            return "a block of children runs past the used part of the arena";
    } while (!(atomic_load_explicit(&nodes[f + k++].flags, memory_order_relaxed) & NODE_LAST));
    if (depth >= BANYAN_MAX_DEPTH)
        return "children BANYAN_MAX_DEPTH plies below the root";
    if (!(flags & NODE_EXPANDING))
        return "children without an expansion claim (NODE_EXPANDING)";
    if (flags & NODE_TERMINAL)
        return "children under a finished game (NODE_TERMINAL)";

    for (uint32_t i = f; i < f + k; i++) {
        banyan_proof p = tree_proof(&nodes[i]);
        if (nodes[i].move == NODE_MOVE_NONE)
            return "a child without a move";
        sum += tree_visits(&nodes[i]);
        all = all && p != BANYAN_UNPROVEN;
        any = any || p != BANYAN_UNPROVEN;
        win = win || p == BANYAN_PROVEN_WIN;
        if (p != BANYAN_UNPROVEN && tree_proof_rank(p) > best)
            best = tree_proof_rank(p);
    }
    if (proof != BANYAN_UNPROVEN && depth > 1 && !(how & TREE_CHECK_SHARED) &&
        (proof == BANYAN_PROVEN_DRAW ? win || !all || best != 1 : !win && !(all && best == 0)))
        return "a proven node whose children do not prove it";
    *first = f;
    *n = k;
    /* In a graph a block takes the visits and proofs of every node that
     * shares it, which the owner's own counts and flags do not bound. */
    if (how & TREE_CHECK_GRAPH)
        return NULL;
    if (sum > visits)
        return "a node has fewer visits than its children together";
    if ((how & TREE_CHECK_PRIVATE) && !(how & TREE_CHECK_SHARED) && depth > 0 &&
        visits - sum < expand_visits)
        return "a node below the root has children before expand_visits visits of its own";
    if (any != !!(flags & NODE_PROVEN_CHILD))
        return "NODE_PROVEN_CHILD set without a proven child, or missing with one";
    if ((how & TREE_CHECK_PRIVATE) && proof == BANYAN_UNPROVEN &&
        (win || (all && !(flags & NODE_CANDIDATES))))
        return "an unproven node whose children prove it";
    return NULL;
}

const char *tree_check(const tree *t, unsigned how, uint32_t expand_visits, uint32_t *at)
{
    tree_span stack[BANYAN_MAX_DEPTH]; /* stack[i]: the nodes i + 1 plies deep still to walk. */
    uint32_t used = atomic_load_explicit(&t->used, memory_order_relaxed);
    uint32_t size = used < t->capacity ? used : t->capacity, xi = t->root, first, n;
    uint64_t reached = 0;
    int top = 0;
    const char *why = NULL;

    if (at)
        *at = xi;
    if (xi != 1 || size < 2)
        return "the root is not slot 1 of a reset arena";
    if (t->nodes[1].move != NODE_MOVE_NONE ||
        (atomic_load_explicit(&t->nodes[1].flags, memory_order_relaxed) & NODE_LAST))
        return "the root has a move or ends a block";
    for (;;) {
        /* xi is top plies deep: the stack holds its ancestors' blocks. */
        if ((why = tree_check_node(t, xi, top, how, expand_visits, size, &first, &n))) {
            if (at)
                *at = xi;
            return why;
        }
        if (first) {
            stack[top++] = (tree_span){first, first + n};
            reached += n;
        }
        while (top > 0 && stack[top - 1].next == stack[top - 1].end)
            top--;
        if (top == 0)
            break;
        xi = stack[top - 1].next++;
    }
    if (at)
        *at = 0;
    if (used <= t->capacity ? reached != used - 2 : reached > size - 2)
        return "the blocks reached from the root do not fill the used part of the arena";
    return NULL;
}
