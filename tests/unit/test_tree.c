/*
 * test_tree.c - the node layout and the arena, white box: priors as a
 * byte, visits and value in one word, children blocks ending at NODE_LAST,
 * and compaction (promotion and recycling) checked against a description
 * of the tree taken before it, on random trees with garbage between the
 * blocks; and the root's visit cap seen through the engine.
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
        banyan_config cfg = {.seed = 3, .memory = 4 << 20};
        banyan_engine *e = NULL;
        banyan_limits lim = {.playouts = 2000};
        banyan_report r;
        T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, &cfg, &e), BANYAN_OK);
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
