/*
 * test_tree.c - the node layout and the arena, white box: priors as a
 * byte, visits and value in one word, children blocks ending at NODE_LAST,
 * and compaction (promotion and recycling) checked against a description
 * of the tree taken before it, on random trees with garbage between the
 * blocks; the root's visit cap and the solver's budgets seen through the
 * engine; and tree_check(), which passes on the trees searches leave and
 * names each rule broken on purpose.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "engine.h"
#include "t.h"
#include "tree.h"

/* Every prior in (2^-31, 1] comes back within 1/16 of an octave; smaller
 * ones and 0 become the smallest code; codes fall as priors fall. */
void test_tree_prior_code(void)
{
    node x;
    memset(&x, 0, sizeof x);
    T_EQ(tree_prior_code(1.0f), 0);
    T_EQ(tree_prior_code(0.0f), 255);
    T_EQ(tree_prior_code(1e-30f), 255);
    x.prior = 0;
    T_TRUE(tree_prior(&x) == 1.0f);
    int last = 0;
    for (float p = 1.0f; p > 4.7e-10f; p *= 0.97f) {
        x.prior = tree_prior_code(p);
        float back = tree_prior(&x);
        if (!(back / p <= 1.0444f && back / p >= 0.9576f))
            T_FAIL_AT("prior %g came back as %g", (double)p, (double)back);
        T_TRUE(x.prior >= last);
        last = x.prior;
    }
    for (int c = 0; c < 255; c++) {
        node y = x;
        x.prior = (uint8_t)c;
        y.prior = (uint8_t)(c + 1);
        T_TRUE(tree_prior(&y) < tree_prior(&x));
    }
}

/* Visits and value in one word: a visit and a value added separately. */
void test_tree_stats(void)
{
    node x;
    memset(&x, 0, sizeof x);
    atomic_store(&x.stats, (uint64_t)NODE_VISITS_MAX - 1);
    atomic_fetch_add(&x.stats, 1);
    atomic_fetch_add(&x.stats, (uint64_t)((NODE_VISITS_MAX - 1) * (uint64_t)VALUE_ONE)
                                   << NODE_VISIT_BITS);
    T_EQ(tree_visits(&x), NODE_VISITS_MAX);
    T_EQ(tree_stats_value(tree_stats(&x)), (int64_t)(NODE_VISITS_MAX - 1) * VALUE_ONE);
    T_TRUE(fabs(tree_mean(&x) - (double)(NODE_VISITS_MAX - 1) / NODE_VISITS_MAX) < 1e-12);
}

/* A random number below n. */
static uint32_t R(banyan_rng *rng, uint32_t n)
{
    return banyan_rng_below(rng, n);
}

/* A random tree in an arena of cap nodes: blocks of 1 to 5 children under
 * random leaves, with garbage (random bytes, marks and all) between them,
 * as dropped blocks leave. */
static void tree_test_grow(tree *t, banyan_rng *rng, int blocks)
{
    tree_reset(t);
    atomic_store(&t->nodes[1].stats, 1000u);
    for (int b = 0; b < blocks; b++) {
        if (R(rng, 4) == 0) {
            uint32_t n = 1 + (uint32_t)R(rng, 4), g = tree_take(t, n);
            for (uint32_t i = 0; g && i < n * sizeof(node); i++)
                ((unsigned char *)&t->nodes[g])[i] = (unsigned char)R(rng, 256);
        }
        /* A leaf: walk down from the root by random children. */
        uint32_t x = 1;
        for (;;) {
            int n;
            uint32_t first = tree_children(t->nodes, &t->nodes[x], &n);
            if (!first)
                break;
            x = first + R(rng, (uint32_t)n);
        }
        uint32_t n = 1 + (uint32_t)R(rng, 5), first = tree_take(t, n);
        if (!first)
            return;
        for (uint32_t i = 0; i < n; i++) {
            node *c = &t->nodes[first + i];
            uint64_t visits = (uint64_t)(R(rng, 40));
            atomic_store(&c->stats, visits | (uint64_t)(R(rng, 1000)) << NODE_VISIT_BITS);
            atomic_store(&c->children, 0);
            c->move = (uint16_t)(R(rng, 4096));
            c->prior = (uint8_t)R(rng, 256);
            atomic_store(&c->flags, (uint8_t)(R(rng, 4) | (R(rng, 4) == 0 ? NODE_PROVEN_CHILD : 0) |
                                              (i == n - 1 ? NODE_LAST : 0)));
        }
        atomic_store(&t->nodes[x].children, first);
    }
}

/* Appends node x's description and its subtree's to buf: children only
 * under nodes with at least min_visits visits (as compaction keeps them),
 * the root's move and prior left out. */
static void tree_test_describe(const tree *t, uint32_t xi, uint32_t min_visits, int depth,
                               char *buf, size_t len)
{
    const node *x = &t->nodes[xi];
    size_t at = strlen(buf);
    int n;
    uint32_t first = tree_children(t->nodes, x, &n);
    if (first && tree_visits(x) < min_visits)
        n = 0;
    snprintf(buf + at, len - at, "(%u %llu %u %u %d", depth ? x->move : 0u,
             (unsigned long long)tree_stats(x), depth ? x->prior : 0u,
             (unsigned)(atomic_load(&x->flags) & NODE_PROOF_MASK), n);
    for (int i = 0; i < n; i++)
        tree_test_describe(t, first + (uint32_t)i, min_visits, depth + 1, buf, len);
    at = strlen(buf);
    snprintf(buf + at, len - at, ")");
}

/* After compaction the arena holds exactly the kept blocks, back to back
 * from slot 2, with no mark left. */
static void tree_test_packed(const tree *t)
{
    uint32_t used = atomic_load(&t->used), seen = 2;
    for (uint32_t i = 1; i < used; i++)
        if (atomic_load(&t->nodes[i].flags) & NODE_MARK)
            T_FAIL_AT("node %u keeps a mark", i);
    /* Count the nodes reachable from the root: they must fill [2, used). */
    uint32_t stack[4096], top = 0;
    stack[top++] = 1;
    while (top) {
        int n;
        uint32_t first = tree_children(t->nodes, &t->nodes[stack[--top]], &n);
        for (int i = 0; first && i < n && top < 4096; i++)
            stack[top++] = first + (uint32_t)i;
        seen += first ? (uint32_t)n : 0;
        if (first && (first < 2 || first + (uint32_t)n > used))
            T_FAIL_AT("a block at %u outside the arena", first);
    }
    T_EQ(seen, used);
}

/* Promotion and recycling keep exactly the subtree described before, on
 * random trees, and the arena can grow again after. */
void test_tree_compact(void)
{
    enum { CAP = 2048 };
    static char before[1 << 17], after[1 << 17];
    node *nodes = aligned_alloc(64, CAP * sizeof(node));
    T_TRUE(nodes != NULL);
    if (!nodes)
        return;
    tree t = {.nodes = nodes, .capacity = CAP};
    banyan_rng rng_, *rng = &rng_;
    banyan_rng_seed(rng, 17, 0);
    for (int it = 0; it < 300; it++) {
        tree_test_grow(&t, rng, 5 + it % 200);
        uint32_t min_visits = it % 3 == 0 ? 0 : (uint32_t)R(rng, 30);
        int n;
        uint32_t first = tree_children(nodes, &nodes[1], &n), child = 1;
        if (it % 2 && first)
            child = first + R(rng, (uint32_t)n); /* Promote a root child. */
        before[0] = after[0] = 0;
        tree_test_describe(&t, child, min_visits, 0, before, sizeof before);
        uint32_t kept = tree_compact(&t, child, min_visits);
        tree_test_describe(&t, 1, 0, 0, after, sizeof after);
        T_EQ(kept + 1, atomic_load(&t.used));
        T_EQ(t.root, 1);
        T_TRUE(tree_move(&nodes[1]) == BANYAN_MOVE_NONE);
        T_TRUE(!(atomic_load(&nodes[1].flags) & NODE_LAST));
        if (strcmp(before, after) != 0) {
            T_FAIL_AT("tree %d: compaction changed the tree", it);
            break;
        }
        tree_test_packed(&t);
        T_TRUE(tree_take(&t, 1) == kept + 1);
    }
    free(nodes);
}

/* A kept root with more than half the visits a tree can count starts
 * afresh, so that every search has room to count; one with fewer is kept. */
void test_tree_visits_cap(void)
{
    for (int full = 0; full <= 1; full++) {
        banyan_config cfg = BANYAN_CONFIG(.seed = 3, .memory = 4 << 20);
        cfg.memory = t_memory(&banyan_game_connect4, &cfg, cfg.memory);
        banyan_engine *e = NULL;
        banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off", &cfg, &e), BANYAN_OK);
        if (!e)
            return;
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
        node *root = &e->trees[0].nodes[e->trees[0].root];
        uint64_t visits = full ? NODE_VISITS_MAX / 2 + 1 : NODE_VISITS_MAX / 2;
        atomic_store(&root->stats, visits | (visits * VALUE_ONE / 2) << NODE_VISIT_BITS);
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(r.playouts, 2000);
        T_TRUE(full ? r.start_nodes <= 1 : r.start_nodes > 100);
        banyan_engine_free(e);
    }
}

/* The first node at least min_depth plies below the root of t, in a walk
 * from the root, for which want(t, node, depth) holds; 0 when none does. */
static uint32_t tree_test_find(const tree *t, uint32_t xi, int depth, int min_depth,
                               bool (*want)(const tree *, uint32_t, int))
{
    int n;
    if (depth >= min_depth && want(t, xi, depth))
        return xi;
    uint32_t first = tree_children(t->nodes, &t->nodes[xi], &n);
    for (int i = 0; first && i < n; i++) {
        uint32_t found = tree_test_find(t, first + (uint32_t)i, depth + 1, min_depth, want);
        if (found)
            return found;
    }
    return 0;
}

static uint8_t tree_test_flags(const tree *t, uint32_t xi)
{
    return atomic_load(&t->nodes[xi].flags);
}

static bool tree_test_parent(const tree *t, uint32_t xi, int depth)
{
    (void)depth;
    return atomic_load(&t->nodes[xi].children) != 0;
}

static bool tree_test_leaf(const tree *t, uint32_t xi, int depth)
{
    (void)depth;
    return !atomic_load(&t->nodes[xi].children) && tree_proof(&t->nodes[xi]) == BANYAN_UNPROVEN;
}

/* A node with children none of which is proven, itself unproven. */
static bool tree_test_open(const tree *t, uint32_t xi, int depth)
{
    (void)depth;
    return tree_test_parent(t, xi, depth) && tree_proof(&t->nodes[xi]) == BANYAN_UNPROVEN &&
           !(tree_test_flags(t, xi) & NODE_PROVEN_CHILD);
}

static bool tree_test_proven_child(const tree *t, uint32_t xi, int depth)
{
    (void)depth;
    return tree_test_flags(t, xi) & NODE_PROVEN_CHILD;
}

/* The node whose block of children ends the used part of the arena. */
static bool tree_test_last_block(const tree *t, uint32_t xi, int depth)
{
    int n;
    uint32_t first = tree_children(t->nodes, &t->nodes[xi], &n);
    (void)depth;
    return first && first + (uint32_t)n == atomic_load(&t->used);
}

/* Runs tree_check on t after a corruption: it must name the rule (a part
 * of its sentence) at node want_at; then the tree is restored from saved and
 * must pass again. */
static void tree_test_broken(tree *t, const node *saved, const char *rule, uint32_t want_at,
                             const char *what)
{
    uint32_t at = 12345;
    const char *why = tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1, &at);
    if (!why || !strstr(why, rule) || at != want_at)
        T_FAIL_AT("%s: tree_check said \"%s\" at %u, not \"%s\" at %u", what,
                  why ? why : "(nothing)", at, rule, want_at);
    memcpy(t->nodes, saved, atomic_load(&t->used) * sizeof(node));
    T_TRUE(tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1, NULL) == NULL);
}

/* Graph search (config.graph): a node whose position another node reached
 * first by another order of moves borrows that node's block (every child a
 * legal move of its own position), so the tree takes fewer nodes for the
 * same simulations, and report.transposed counts the borrowers. One thread
 * and a seed reproduce it. Playing a move compacts the graph into a tree
 * (no borrowed block left) and empties the table, whose indices moved; so
 * does recycling. */
void test_tree_graph(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 5, .graph = true, .memory = 8u << 20);
    banyan_config off = BANYAN_CONFIG(.seed = 5, .memory = 8u << 20);
    cfg.memory = t_memory(&banyan_game_connect4, &cfg, cfg.memory);
    off.memory = t_memory(&banyan_game_connect4, &off, off.memory);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
    banyan_report r1 = BANYAN_REPORT(), r2 = BANYAN_REPORT(), r3 = BANYAN_REPORT();
    banyan_engine *a = NULL, *b = NULL, *c = NULL;
    banyan_game nohash = banyan_game_connect4;
    nohash.hash = NULL;
    T_TRUE(banyan_config_check(&nohash, &cfg) != NULL);
    T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off", &cfg, &a), BANYAN_OK);
    T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off", &cfg, &b), BANYAN_OK);
    T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off", &off, &c), BANYAN_OK);
    if (!a || !b || !c)
        return;
    T_EQ(banyan_engine_search(a, &lim, &r1), BANYAN_OK);
    T_EQ(banyan_engine_search(b, &lim, &r2), BANYAN_OK);
    T_EQ(banyan_engine_search(c, &lim, &r3), BANYAN_OK);
    T_TRUE(r1.transposed > lim.playouts / 50);
    T_EQ(r3.transposed, 0);
    T_TRUE(r1.nodes < r3.nodes);
    T_EQ(r1.nodes, r2.nodes);
    T_EQ(r1.transposed, r2.transposed);
    T_EQ(r1.best, r2.best);
    for (int i = 0; i < r1.n_moves && i < r2.n_moves; i++)
        T_EQ(r1.moves[i].visits, r2.moves[i].visits);

    /* Every borrowed block holds legal moves of the borrower's position:
     * walk the tree with the positions, borrowed links included. */
    const banyan_game *g = &banyan_game_connect4;
    tree *t = &a->trees[0];
    static struct {
        uint64_t s[32]; /* A position, aligned for the game's words. */
        uint32_t x;
    } stack[1024];
    int top = 0, borrowed = 0;
    T_TRUE(g->state_size <= sizeof stack[0].s);
    stack[top].x = t->root;
    memcpy(stack[top++].s, banyan_engine_state(a), g->state_size);
    while (top > 0) {
        top--;
        uint32_t x = stack[top].x, raw = atomic_load(&t->nodes[x].children);
        uint64_t s[32];
        memcpy(s, stack[top].s, g->state_size);
        int n;
        uint32_t first = tree_children(t->nodes, &t->nodes[x], &n);
        borrowed += (raw & NODE_BORROWED) != 0;
        for (int k = 0; k < n; k++) {
            banyan_move m = tree_move(&t->nodes[first + (uint32_t)k]);
            T_TRUE(banyan_game_is_legal(g, s, m));
            /* Below a borrowed link the walk goes one level, to bound it. */
            if (top < 1023 && !(raw & NODE_BORROWED)) {
                stack[top].x = first + (uint32_t)k;
                memcpy(stack[top].s, s, g->state_size);
                g->play(stack[top++].s, m);
            }
        }
    }
    T_TRUE(borrowed > 0);

    /* A move played: no borrowed block, an empty table. */
    T_EQ(banyan_engine_play(a, r1.best), BANYAN_OK);
    int left = 0, entries = 0;
    for (uint32_t i = 1; i < atomic_load(&t->used); i++)
        left += (atomic_load(&t->nodes[i].children) & NODE_BORROWED) != 0;
    for (uint64_t i = 0; i <= t->tt_mask; i++)
        entries += atomic_load(&t->tt[i].key) != 0;
    T_EQ(left, 0);
    T_EQ(entries, 0);
    T_TRUE(search_check(a) == NULL);
    T_EQ(banyan_engine_search(a, &lim, &r1), BANYAN_OK);
    T_TRUE(r1.transposed > 0);
    T_TRUE(search_check(a) == NULL);
    banyan_engine_free(a);
    banyan_engine_free(b);
    banyan_engine_free(c);
}

/* tree_check passes on the trees that searches of every kind leave
 * (private, shared, one per thread, recycled, with the game's candidates
 * and provers, a proven root, reused after a move), and names the rule
 * broken by each corruption made on purpose. */
void test_tree_check(void)
{
    static const struct {
        const banyan_game *g;
        const char *position;
        banyan_config cfg;
        uint64_t playouts;
    } healthy[] = {
        {&banyan_game_connect4, "", {.seed = 2, .memory = 8 << 20}, 20000},
        {&banyan_game_connect4, "445566", {.seed = 2, .memory = 8 << 20}, 20000},
        {&banyan_game_connect4, "41516", {.seed = 2, .memory = 8 << 20}, 20000},
        {&banyan_game_connect4, "", {.memory = 32 << 10}, 20000},
        {&banyan_game_connect4, "", {.threads = 2, .memory = 8 << 20}, 20000},
        {&banyan_game_connect4,
         "",
         {.threads = 2, .memory = 256 << 10, .parallel = BANYAN_PARALLEL_ROOT},
         30000},
        {&banyan_game_connect4, "", {.expand_visits = 5, .memory = 8 << 20}, 20000},
        {&banyan_game_tictactoe, "", {.seed = 4, .memory = 8 << 20}, 30000},
        {&banyan_game_gomoku, "h8 h9 i8", {.seed = 1, .memory = 8 << 20}, 3000},
        /* Graphs: shared blocks, recycled, on a shared tree. */
        {&banyan_game_connect4, "", {.seed = 2, .graph = true, .memory = 8 << 20}, 20000},
        {&banyan_game_connect4, "", {.graph = true, .memory = 64 << 10}, 20000},
        {&banyan_game_connect4, "", {.threads = 2, .graph = true, .memory = 8 << 20}, 20000},
        {&banyan_game_othello, "", {.seed = 3, .graph = true, .memory = 8 << 20}, 20000},
        {&banyan_game_gomoku, "h8 h9 i8", {.seed = 1, .graph = true, .memory = 8 << 20}, 3000},
    };
    for (size_t i = 0; i < sizeof healthy / sizeof healthy[0]; i++) {
        banyan_engine *e = NULL;
        banyan_report r = BANYAN_REPORT();
        banyan_limits lim = BANYAN_LIMITS(.playouts = healthy[i].playouts);
        banyan_config cfg = healthy[i].cfg;
        cfg.size = sizeof cfg; /* The table's configs give only their fields, */
        cfg.memory = t_memory(healthy[i].g, &cfg, cfg.memory); /* and arenas. */
        T_EQ(banyan_engine_new(healthy[i].g, NULL, &cfg, &e), BANYAN_OK);
        if (!e)
            return;
        T_EQ(banyan_engine_load(e, healthy[i].position), BANYAN_OK);
        for (int move = 0; move < 2; move++) {
            T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
            const char *why = search_check(e);
            if (why)
                T_FAIL_AT("case %zu, move %d: %s", i, move, why);
            if (r.best == BANYAN_MOVE_NONE || banyan_engine_play(e, r.best) != BANYAN_OK)
                break;
            if ((why = search_check(e)))
                T_FAIL_AT("case %zu, after move %d: %s", i, move, why);
        }
        banyan_engine_free(e);
    }

    /* Corruptions, each on a healthy Connect Four tree with proofs deep
     * down, then undone. */
    static node saved[1 << 18];
    banyan_config cfg = BANYAN_CONFIG(.seed = 2);
    cfg.memory = t_memory(&banyan_game_connect4, &cfg, sizeof saved / 2);
    banyan_engine *e = NULL;
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, &cfg, &e), BANYAN_OK);
    if (!e)
        return;
    T_EQ(banyan_engine_load(e, "4453"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 20000), &r), BANYAN_OK);
    tree *t = &e->trees[0];
    node *nodes = t->nodes;
    uint32_t used = atomic_load(&t->used), x, c;
    T_TRUE(used < sizeof saved / sizeof saved[0] && !atomic_load(&t->full));
    memcpy(saved, nodes, used * sizeof(node));
    T_TRUE(tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1, NULL) == NULL);

    /* Statistics: a child with more visits than its parent; a value above
     * VALUE_ONE a visit (a visit whose value never came back); fewer than
     * expand_visits visits before expansion. */
    x = tree_test_find(t, 1, 0, 1, tree_test_parent);
    c = atomic_load(&nodes[x].children);
    atomic_fetch_add(&nodes[c].stats, (uint64_t)tree_visits(&nodes[x]));
    tree_test_broken(t, saved, "fewer visits than its children", x, "visits");
    uint64_t v = tree_visits(&nodes[x]);
    atomic_store(&nodes[x].stats, v | (v * VALUE_ONE + 1) << NODE_VISIT_BITS);
    tree_test_broken(t, saved, "exceeds VALUE_ONE a visit", x, "value");
    uint32_t at = 0;
    const char *why = tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1000, &at);
    T_TRUE(why && strstr(why, "expand_visits") && at > 1);

    /* Shape: a block before its owner; a block with no NODE_LAST; a slot of
     * the used arena in no block; the root moved. */
    atomic_store(&nodes[x].children, x);
    tree_test_broken(t, saved, "not after its owner", x, "block before its owner");
    x = tree_test_find(t, 1, 0, 0, tree_test_last_block);
    T_TRUE(x != 0);
    atomic_fetch_and(&nodes[used - 1].flags, (uint8_t)~NODE_LAST);
    tree_test_broken(t, saved, "runs past the used part", x, "no NODE_LAST");
    atomic_fetch_add(&t->used, 1);
    why = tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1, &at);
    T_TRUE(why && strstr(why, "do not fill the used part") && at == 0);
    atomic_fetch_sub(&t->used, 1);
    t->root = 2;
    why = tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1, &at);
    T_TRUE(why && strstr(why, "slot 1") && at == 2);
    t->root = 1;
    T_TRUE(tree_check(t, TREE_CHECK_PROOFS | TREE_CHECK_PRIVATE, 1, NULL) == NULL);

    /* Flags: an expansion claimed and never done; NODE_MARK below the
     * root's children; NODE_PROVEN_CHILD missing. */
    x = tree_test_find(t, 1, 0, 1, tree_test_leaf);
    atomic_fetch_or(&nodes[x].flags, NODE_EXPANDING);
    tree_test_broken(t, saved, "expansion claimed", x, "stale claim");
    atomic_fetch_or(&nodes[x].flags, NODE_EXPANDING);
    atomic_store(&nodes[x].children, 2 | NODE_BORROWED);
    tree_test_broken(t, saved, "borrowed block outside a graph", x, "borrowed in a tree");
    x = tree_test_find(t, 1, 0, 2, tree_test_parent);
    atomic_fetch_or(&nodes[x].flags, NODE_MARK);
    tree_test_broken(t, saved, "NODE_MARK", x, "mark");
    x = tree_test_find(t, 1, 0, 0, tree_test_proven_child);
    T_TRUE(x != 0);
    atomic_fetch_and(&nodes[x].flags, (uint8_t)~NODE_PROVEN_CHILD);
    tree_test_broken(t, saved, "NODE_PROVEN_CHILD", x, "proven child unflagged");

    /* Proofs: a node two plies down proven lost with no child proven (its
     * parent flagged, as a backup would); a proof in a game without the
     * solver. */
    x = tree_test_find(t, 1, 0, 2, tree_test_open);
    T_TRUE(x != 0);
    tree_set_proof(&nodes[x], BANYAN_PROVEN_LOSS);
    for (uint32_t p = 1; p < used; p++) {
        int n;
        uint32_t first = tree_children(nodes, &nodes[p], &n);
        if (first && x >= first && x < first + (uint32_t)n)
            atomic_fetch_or(&nodes[p].flags, NODE_PROVEN_CHILD);
    }
    tree_test_broken(t, saved, "children do not prove it", x, "unfounded proof");
    why = tree_check(t, TREE_CHECK_PRIVATE, 1, &at);
    T_TRUE(why && strstr(why, "without the solver"));
    banyan_engine_free(e);

    /* The converse, on a root proven by a win in one: unproven, its
     * winning child proves it. */
    T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, &cfg, &e), BANYAN_OK);
    if (!e)
        return;
    T_EQ(banyan_engine_load(e, "445566"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 4000), &r), BANYAN_OK);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    t = &e->trees[0];
    memcpy(saved, t->nodes, atomic_load(&t->used) * sizeof(node));
    atomic_fetch_and(&t->nodes[1].flags, (uint8_t)~NODE_PROOF_MASK);
    tree_test_broken(t, saved, "unproven node whose children prove it", 1, "lost proof");
    banyan_engine_free(e);
}

/* The root's solver takes its effort from the engine's budgets (budgets.h):
 * with the defaults it solves a lost Connect Four ending before any
 * simulation; with one position a call it cannot, and the simulations
 * find the loss. */
void test_engine_budgets(void)
{
    for (int small = 0; small <= 1; small++) {
        banyan_config cfg = BANYAN_CONFIG(.seed = 3, .memory = 4 << 20);
        cfg.memory = t_memory(&banyan_game_connect4, &cfg, cfg.memory);
        banyan_engine *e = NULL;
        banyan_limits lim = BANYAN_LIMITS(.playouts = 1000);
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off", &cfg, &e), BANYAN_OK);
        if (!e)
            return;
        T_EQ(banyan_engine_load(e, "2252576253462244111563365343671351441"), BANYAN_OK);
        if (small) {
            search_budgets *b = &e->budgets;
            b->solve_root = b->solve_root_min = b->solve_root_max = b->solve_slice = 1;
        }
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(r.proof, BANYAN_PROVEN_LOSS); /* Every move loses, found either way. */
        T_TRUE(small ? r.playouts > 0 : r.playouts == 0);
        banyan_engine_free(e);
    }
}

/* The budgets come from the game's tactics part: each one it sets, and
 * the default for each it leaves 0. A root solver given one position a
 * call no longer proves the loss of test_engine_budgets before the search. */
void test_engine_game_budgets(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 3, .memory = 4 << 20);
    banyan_tactics tactics = *banyan_game_connect4.tactics;
    banyan_game g = banyan_game_connect4;
    banyan_engine *e = NULL;
    banyan_limits lim = BANYAN_LIMITS(.playouts = 1000);
    banyan_report r = BANYAN_REPORT();
    search_budgets d = SEARCH_BUDGETS_DEFAULT;
    tactics.solve_root = tactics.solve_root_min = tactics.solve_root_max = tactics.solve_slice = 1;
    tactics.solve_per_second = 0; /* Left to the engine. */
    g.tactics = &tactics;
    cfg.memory = t_memory(&g, &cfg, cfg.memory);
    T_EQ(banyan_engine_new(&g, "book=off", &cfg, &e), BANYAN_OK);
    if (!e)
        return;
    T_EQ(e->budgets.solve_root, 1);
    T_EQ(e->budgets.solve_slice, 1);
    T_TRUE(e->budgets.solve_per_second == d.solve_per_second);
    T_EQ(e->budgets.deep_effort, d.deep_effort); /* Connect Four leaves it 0. */
    T_EQ(banyan_engine_load(e, "2252576253462244111563365343671351441"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.playouts > 0);
    banyan_engine_free(e);
}
