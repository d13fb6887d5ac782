/*
 * test_share.c - sharing one search over several engines
 * (banyan_engine_share, banyan_engine_absorb), without MPI: engines in one
 * process exchanging their exports. The merge is checked against sums
 * computed by hand from each engine's own statistics, absorbing again is
 * checked to take nothing twice, and so is going on after a move.
 */
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "engine.h"
#include "t.h"

#define TEST_SHARE_NODES 256

static banyan_engine *test_share_engine(const banyan_game *g, uint64_t seed)
{
    banyan_engine *e = NULL;
    banyan_config cfg =
        BANYAN_CONFIG(.seed = seed, .share_nodes = TEST_SHARE_NODES, .memory = 8 << 20);
    cfg.memory = t_memory(g, &cfg, cfg.memory);
    T_EQ(banyan_engine_new(g, g == &banyan_game_connect4 ? "book=off" : NULL, &cfg, &e), BANYAN_OK);
    return e;
}

/* An export, read back by its documented layout. */
typedef struct test_export {
    unsigned char *b;
    size_t len;
    uint32_t count;
} test_export;

static uint32_t test_get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t test_get64(const unsigned char *p)
{
    return test_get32(p) | (uint64_t)test_get32(p + 4) << 32;
}

static test_export test_share_export(banyan_engine *e)
{
    test_export x = {malloc(banyan_share_size(TEST_SHARE_NODES)), 0, 0};
    T_TRUE(x.b != NULL);
    T_EQ(banyan_engine_share(e, x.b, banyan_share_size(TEST_SHARE_NODES), &x.len), BANYAN_OK);
    x.count = test_get32(x.b + 8);
    T_EQ(x.len, 32 + (size_t)x.count * (test_get32(x.b + 12) & 1 ? 40 : 24));
    return x;
}

/* Entry i of an export: parent, visits, value (1/256ths), move, and with
 * the header's flag 1, the AMAF visits (RAVE) 24 bytes in; entries of 24
 * bytes, or 40 with the flag. */
static const unsigned char *test_entry(const test_export *x, uint32_t i)
{
    size_t size = test_get32(x->b + 12) & 1 ? 40 : 24;
    return x->b + 32 + (size_t)i * size;
}

static uint32_t test_entry_parent(const test_export *x, uint32_t i)
{
    return test_get32(test_entry(x, i));
}

static uint32_t test_entry_visits(const test_export *x, uint32_t i)
{
    return test_get32(test_entry(x, i) + 4);
}

static uint64_t test_entry_value(const test_export *x, uint32_t i)
{
    return test_get64(test_entry(x, i) + 8);
}

static banyan_move test_entry_move(const test_export *x, uint32_t i)
{
    return test_get32(test_entry(x, i) + 16);
}

static uint32_t test_entry_amaf(const test_export *x, uint32_t i)
{
    return test_get32(test_entry(x, i) + 24);
}

/* The root children's visits and value sums (1/256ths, from the mean) of
 * e, indexed by move code. */
typedef struct test_root {
    uint32_t visits[16];
    double value[16];
} test_root;

static test_root test_share_root(banyan_engine *e)
{
    test_root t;
    banyan_report r = BANYAN_REPORT();
    memset(&t, 0, sizeof t);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    for (int i = 0; i < r.n_moves; i++) {
        T_TRUE(r.moves[i].move < 16);
        t.visits[r.moves[i].move] = r.moves[i].visits;
        t.value[r.moves[i].move] = r.moves[i].value * r.moves[i].visits * 256;
    }
    return t;
}

/* The root children's own statistics in an export (entries whose parent
 * is the root, entry 0). */
static test_root test_export_root(const test_export *x)
{
    test_root t;
    memset(&t, 0, sizeof t);
    for (uint32_t i = 1; i < x->count; i++)
        if (test_entry_parent(x, i) == 0) {
            T_TRUE(test_entry_move(x, i) < 16);
            t.visits[test_entry_move(x, i)] = test_entry_visits(x, i);
            t.value[test_entry_move(x, i)] = (double)test_entry_value(x, i);
        }
    return t;
}

static int test_absorb(banyan_engine *e, const test_export *x)
{
    const void *bufs[1] = {x->b};
    size_t lens[1] = {x->len};
    return banyan_engine_absorb(e, bufs, lens, 1);
}

static void test_search(banyan_engine *e, uint64_t playouts)
{
    banyan_limits lim = BANYAN_LIMITS(.playouts = playouts);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
}

/* The layout: the root first, every entry after its parent, visits never
 * above the parent's, at most share_nodes entries, the most visited nodes
 * of the tree; one tree gives the same bytes. */
void test_share_export_layout(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_connect4, 3);
    test_search(a, 3000);
    test_export x = test_share_export(a), y = test_share_export(a);
    T_EQ(x.len, y.len);
    T_TRUE(memcmp(x.b, y.b, x.len) == 0);
    T_EQ(x.count, TEST_SHARE_NODES); /* 3000 simulations grow more nodes than that. */
    T_EQ(test_entry_parent(&x, 0), 0xffffffffu);
    T_TRUE(test_entry_visits(&x, 0) >= 2990); /* The root: every simulation (a few in flight). */
    uint32_t least = UINT32_MAX;
    for (uint32_t i = 1; i < x.count; i++) {
        uint32_t p = test_entry_parent(&x, i);
        T_TRUE(p < i);
        T_TRUE(test_entry_visits(&x, i) <= test_entry_visits(&x, p));
        T_TRUE(test_entry_value(&x, i) <= (uint64_t)test_entry_visits(&x, i) * 256);
        if (test_entry_visits(&x, i) < least)
            least = test_entry_visits(&x, i);
    }
    /* The top: the root's children with visits are all in it, and the
     * least visited node taken has as many visits as any root child left
     * out (none is). */
    test_root own = test_share_root(a), exported = test_export_root(&x);
    for (int m = 0; m < 16; m++)
        T_EQ(exported.visits[m], own.visits[m]);
    T_TRUE(least >= 1);
    free(x.b);
    free(y.b);
    banyan_engine_free(a);
}

/* Two engines, hand-computed: B takes A's own statistics once, however
 * often A's growing export comes back; B exports only its own; after
 * both absorb, both roots hold the sum. */
void test_share_merge_by_hand(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_connect4, 5),
                  *b = test_share_engine(&banyan_game_connect4, 6);
    test_search(a, 800);
    test_search(b, 1200);
    test_root a_own = test_share_root(a), b_own = test_share_root(b);
    test_export xa = test_share_export(a);
    T_EQ(test_absorb(b, &xa), 1);
    test_root b1 = test_share_root(b);
    for (int m = 0; m < 7; m++) {
        T_EQ(b1.visits[m], b_own.visits[m] + a_own.visits[m]);
        T_NEAR(b1.value[m], b_own.value[m] + a_own.value[m], 1e-6 * (b1.visits[m] + 1) * 256);
    }
    /* Again: nothing new. */
    T_EQ(test_absorb(b, &xa), 1);
    test_root b2 = test_share_root(b);
    for (int m = 0; m < 7; m++)
        T_EQ(b2.visits[m], b1.visits[m]);
    /* A searches on: B takes only what is new. */
    test_search(a, 500);
    test_root a_own2 = test_share_root(a);
    test_export xa2 = test_share_export(a);
    T_EQ(test_absorb(b, &xa2), 1);
    test_root b3 = test_share_root(b);
    for (int m = 0; m < 7; m++)
        T_EQ(b3.visits[m], b_own.visits[m] + a_own2.visits[m]);
    /* B's export holds its own simulations only. */
    test_export xb = test_share_export(b);
    test_root b_exp = test_export_root(&xb);
    for (int m = 0; m < 7; m++) {
        T_EQ(b_exp.visits[m], b_own.visits[m]);
        T_NEAR(b_exp.value[m], b_own.value[m], 1e-6 * (b_own.visits[m] + 1) * 256);
    }
    T_EQ(test_absorb(a, &xb), 1);
    test_root a3 = test_share_root(a), b4 = test_share_root(b);
    for (int m = 0; m < 7; m++) {
        T_EQ(a3.visits[m], a_own2.visits[m] + b_own.visits[m]);
        T_EQ(a3.visits[m], b4.visits[m]);
    }
    free(xa.b);
    free(xa2.b);
    free(xb.b);
    banyan_engine_free(a);
    banyan_engine_free(b);
}

/* Rounds of search and exchange, as a distributed search runs them, and
 * then a move both play: afterwards the two trees still agree at the root
 * on the sum of both engines' simulations, which each counts once; and
 * the whole is reproducible. */
static void test_share_rounds(const banyan_game *g, uint64_t out[2])
{
    banyan_engine *e[2] = {test_share_engine(g, 11), test_share_engine(g, 12)};
    uint32_t owned = 0; /* The simulations under the root, each counted once. */
    for (int phase = 0; phase < 2; phase++) {
        for (int round = 0; round < 6; round++) {
            test_export x[2];
            for (int k = 0; k < 2; k++) {
                test_search(e[k], 300);
                x[k] = test_share_export(e[k]);
            }
            for (int k = 0; k < 2; k++) {
                T_EQ(test_absorb(e[k], &x[1 - k]), 1);
                free(x[1 - k].b);
            }
        }
        test_root r0 = test_share_root(e[0]), r1 = test_share_root(e[1]);
        uint32_t total = 0;
        for (int m = 0; m < 16; m++) {
            T_EQ(r0.visits[m], r1.visits[m]);
            total += r0.visits[m];
        }
        /* Every simulation passes through one root child: the sum is the
         * simulations of both engines, none twice. */
        T_EQ(total, owned + 2 * 6 * 300);
        out[phase] = total;
        if (phase == 0) {
            banyan_report r = BANYAN_REPORT();
            T_EQ(banyan_engine_report(e[0], &r), BANYAN_OK);
            banyan_move m = r.best;
            /* e[0]'s own statistics below m, by its export before the move. */
            test_export pre = test_share_export(e[0]);
            test_root mine;
            memset(&mine, 0, sizeof mine);
            uint32_t at = 0;
            for (uint32_t i = 1; i < pre.count; i++)
                if (test_entry_parent(&pre, i) == 0 && test_entry_move(&pre, i) == m)
                    at = i;
            T_TRUE(at > 0);
            for (uint32_t i = 1; i < pre.count; i++)
                if (test_entry_parent(&pre, i) == at)
                    mine.visits[test_entry_move(&pre, i)] = test_entry_visits(&pre, i);
            free(pre.b);
            T_EQ(banyan_engine_play(e[0], m), BANYAN_OK);
            T_EQ(banyan_engine_play(e[1], m), BANYAN_OK);
            /* After the move, the export still holds e[0]'s own only, though
             * the tree below holds the other's too. */
            test_export post = test_share_export(e[0]);
            test_root exported = test_export_root(&post), merged = test_share_root(e[0]);
            bool took = false;
            for (int c = 0; c < 16; c++) {
                T_EQ(exported.visits[c], mine.visits[c]);
                took = took || merged.visits[c] > mine.visits[c];
            }
            T_TRUE(took);
            free(post.b);
            /* What each kept below the move, of its own simulations (the
             * rest it absorbed): the subtree's root children start from
             * their sum. */
            for (int k = 0; k < 2; k++) {
                test_export x = test_share_export(e[k]);
                test_root own = test_export_root(&x);
                for (int c = 0; c < 16; c++)
                    owned += own.visits[c];
                free(x.b);
            }
        }
    }
    banyan_engine_free(e[0]);
    banyan_engine_free(e[1]);
}

void test_share_rounds_and_move(void)
{
    uint64_t one[2], two[2];
    test_share_rounds(&banyan_game_connect4, one);
    test_share_rounds(&banyan_game_connect4, two);
    T_EQ(one[0], two[0]);
    T_EQ(one[1], two[1]);
    test_share_rounds(&banyan_game_tictactoe, one);
}

/* Exports of another position, or of the same position reached by other
 * moves, are skipped; bad buffers are refused whole; sharing off, a short
 * buffer and configurations that cannot share are refused. */
void test_share_refusals(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_connect4, 1),
                  *b = test_share_engine(&banyan_game_connect4, 2);
    test_search(a, 500);
    test_search(b, 500);
    test_root before = test_share_root(b);
    T_EQ(banyan_engine_load(a, "4"), BANYAN_OK);
    test_search(a, 500);
    test_export xa = test_share_export(a);
    T_EQ(test_absorb(b, &xa), 0); /* Another position. */
    free(xa.b);
    /* The same position by other moves: 1 2 3 and 3 2 1. */
    T_EQ(banyan_engine_load(a, "123"), BANYAN_OK);
    T_EQ(banyan_engine_load(b, "3"), BANYAN_OK);
    banyan_move m;
    T_EQ(banyan_engine_parse_move(b, "b", &m), BANYAN_OK);
    T_EQ(banyan_engine_play(b, m), BANYAN_OK);
    T_EQ(banyan_engine_parse_move(b, "a", &m), BANYAN_OK);
    T_EQ(banyan_engine_play(b, m), BANYAN_OK);
    T_TRUE(memcmp(banyan_engine_state(a), banyan_engine_state(b),
                  banyan_engine_game(a)->state_size) == 0);
    test_search(a, 300);
    xa = test_share_export(a);
    T_EQ(test_absorb(b, &xa), 0);
    /* Bad buffers: nothing taken. */
    T_EQ(banyan_engine_load(b, "123"), BANYAN_OK); /* Now the same as a's. */
    test_search(b, 300);
    before = test_share_root(b);
    unsigned char *bad = malloc(xa.len);
    T_TRUE(bad != NULL);
    test_export y = {bad, xa.len, xa.count};
    memcpy(bad, xa.b, xa.len);
    y.len = xa.len - 1;
    T_EQ(test_absorb(b, &y), BANYAN_EINVAL);
    T_TRUE(strstr(banyan_errmsg(b), "length") != NULL);
    y.len = xa.len;
    bad[0] ^= 1;
    T_EQ(test_absorb(b, &y), BANYAN_EINVAL);
    bad[0] ^= 1;
    bad[32 + 24 * 2] = 5; /* Entry 2's parent after it. */
    T_EQ(test_absorb(b, &y), BANYAN_EINVAL);
    memcpy(bad, xa.b, xa.len);
    bad[32 + 24 + 7] = 0x7f; /* Entry 1's visits out of range. */
    T_EQ(test_absorb(b, &y), BANYAN_EINVAL);
    memcpy(bad, xa.b, xa.len);
    bad[32 + 24 + 20] = 4; /* Entry 1's proof: no banyan_proof. */
    T_EQ(test_absorb(b, &y), BANYAN_EINVAL);
    T_TRUE(strstr(banyan_errmsg(b), "proof") != NULL);
    test_root after = test_share_root(b);
    for (int k = 0; k < 7; k++)
        T_EQ(after.visits[k], before.visits[k]);
    T_EQ(test_absorb(b, &xa), 1); /* The good one is taken. */
    T_EQ(banyan_engine_absorb(b, NULL, NULL, 0), 0);
    T_EQ(banyan_engine_absorb(b, NULL, NULL, 1), BANYAN_EINVAL);
    size_t len;
    T_EQ(banyan_engine_share(b, bad, 31, &len), BANYAN_ERANGE);
    free(bad);
    free(xa.b);
    banyan_engine_free(a);
    banyan_engine_free(b);

    banyan_engine *off = NULL;
    T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, NULL, &off), BANYAN_OK);
    unsigned char small[64];
    T_EQ(banyan_engine_share(off, small, sizeof small, &len), BANYAN_EINVAL);
    T_TRUE(strstr(banyan_errmsg(off), "share_nodes") != NULL);
    banyan_engine_free(off);
    banyan_config root =
        BANYAN_CONFIG(.share_nodes = 100, .threads = 2, .parallel = BANYAN_PARALLEL_ROOT);
    T_TRUE(strstr(banyan_config_check(&banyan_game_connect4, &root), "one tree") != NULL);
    banyan_config graph = BANYAN_CONFIG(.share_nodes = 100, .graph = true);
    T_TRUE(strstr(banyan_config_check(&banyan_game_connect4, &graph), "graph") != NULL);
    banyan_config many = BANYAN_CONFIG(.share_nodes = BANYAN_SHARE_NODES_MAX + 1);
    T_TRUE(banyan_config_check(&banyan_game_connect4, &many) != NULL);
}

/* Proofs travel: in Connect Four after 4 4 3 3 5 the side to move has
 * lost (two threats). A proves it; B, which searched too little to, takes
 * A's proofs in: every node both trees hold has A's proof in B, the
 * proofs climb to B's root, whose report then says lost, and B's tree
 * keeps its rules (the proven nodes' parents marked, every node whose
 * children prove it proven). */
void test_share_proofs(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_connect4, 41),
                  *b = test_share_engine(&banyan_game_connect4, 42);
    T_EQ(banyan_engine_load(a, "44335"), BANYAN_OK);
    T_EQ(banyan_engine_load(b, "44335"), BANYAN_OK);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 5000);
    banyan_report ra = BANYAN_REPORT(), rb = BANYAN_REPORT();
    T_EQ(banyan_engine_search(a, &lim, &ra), BANYAN_OK);
    T_EQ(ra.proof, BANYAN_PROVEN_LOSS);
    test_search(b, 12);
    T_EQ(banyan_engine_report(b, &rb), BANYAN_OK);
    T_EQ(rb.proof, BANYAN_UNPROVEN);
    test_export xa = test_share_export(a);
    uint32_t proven = 0;
    for (uint32_t i = 1; i < xa.count; i++)
        proven += test_get32(test_entry(&xa, i) + 20) != BANYAN_UNPROVEN;
    T_TRUE(proven >= 7); /* Every root child at least. */
    T_EQ(test_absorb(b, &xa), 1);
    T_EQ(banyan_engine_report(b, &rb), BANYAN_OK);
    T_EQ(rb.proof, BANYAN_PROVEN_LOSS);
    for (int i = 0; i < rb.n_moves; i++)
        T_EQ(rb.moves[i].proof, BANYAN_PROVEN_LOSS);
    T_TRUE(search_check(b) == NULL);
    /* Absorbing again changes nothing, and B's own export carries them. */
    T_EQ(test_absorb(b, &xa), 1);
    T_TRUE(search_check(b) == NULL);
    test_export xb = test_share_export(b);
    for (uint32_t i = 1; i < xb.count; i++)
        if (test_entry_parent(&xb, i) == 0)
            T_EQ(test_get32(test_entry(&xb, i) + 20), (uint32_t)BANYAN_PROVEN_LOSS);
    free(xa.b);
    free(xb.b);
    banyan_engine_free(a);
    banyan_engine_free(b);
}

/* The nodes another engine expanded come in whole: B, which searched
 * little, takes A's top, and afterwards holds every node of it (expanded
 * where B had a leaf) with at least A's visits there; B's tree keeps its
 * rules. White box: each entry is looked up by its path in B's tree. */
void test_share_expands(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_connect4, 51),
                  *b = test_share_engine(&banyan_game_connect4, 52);
    test_search(a, 3000);
    test_search(b, 20);
    uint32_t before = tree_size(&b->trees[0]);
    test_export xa = test_share_export(a);
    T_EQ(test_absorb(b, &xa), 1);
    T_TRUE(tree_size(&b->trees[0]) > before);
    const tree *t = &b->trees[0];
    uint32_t *at = malloc(xa.count * sizeof *at), deep = 0;
    T_TRUE(at != NULL);
    at[0] = t->root;
    for (uint32_t i = 1; i < xa.count; i++) {
        int n;
        uint32_t p = at[test_entry_parent(&xa, i)],
                 first = tree_children(t->nodes, &t->nodes[p], &n);
        at[i] = 0;
        for (int k = 0; k < n; k++)
            if (tree_move(&t->nodes[first + (uint32_t)k]) == test_entry_move(&xa, i))
                at[i] = first + (uint32_t)k;
        T_TRUE(at[i] != 0);
        if (!at[i])
            break;
        T_TRUE(tree_visits(&t->nodes[at[i]]) >= test_entry_visits(&xa, i));
        deep += test_entry_parent(&xa, i) != 0 &&
                test_entry_parent(&xa, test_entry_parent(&xa, i)) != 0;
    }
    T_TRUE(deep > 100); /* Nodes two plies down and more, which B's 20 simulations did not grow. */
    T_TRUE(search_check(b) == NULL);
    test_search(b, 500); /* And it searches on. */
    T_TRUE(search_check(b) == NULL);
    free(at);
    free(xa.b);
    banyan_engine_free(a);
    banyan_engine_free(b);
}

/* RAVE's statistics (Go): shared as the nodes' are, white box. B's root
 * children's AMAF statistics become B's own plus A's, once; B's export
 * still holds its own only. */
void test_share_amaf(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_go, 21),
                  *b = test_share_engine(&banyan_game_go, 22);
    T_EQ(banyan_engine_setup(a, "size=9"), BANYAN_OK);
    T_EQ(banyan_engine_setup(b, "size=9"), BANYAN_OK);
    T_TRUE(a->trees[0].amaf != NULL); /* RAVE is on in Go by default. */
    test_search(a, 400);
    test_search(b, 600);
    uint32_t own_a[BANYAN_MOVE_LIMIT / 256] = {0}, own_b[BANYAN_MOVE_LIMIT / 256] = {0};
    const banyan_engine *e[2] = {a, b};
    uint32_t *own[2] = {own_a, own_b};
    for (int k = 0; k < 2; k++) {
        const tree *t = &e[k]->trees[0];
        int n;
        uint32_t first = tree_children(t->nodes, &t->nodes[t->root], &n);
        T_TRUE(n > 0);
        for (int i = 0; i < n; i++) {
            uint32_t ci = first + (uint32_t)i;
            T_TRUE(tree_move(&t->nodes[ci]) < BANYAN_MOVE_LIMIT / 256);
            own[k][tree_move(&t->nodes[ci])] = tree_stats_visits(t->amaf[ci]);
        }
    }
    test_export xa = test_share_export(a);
    T_EQ(test_get32(xa.b + 12) & 1, 1u);
    for (int round = 0; round < 2; round++) /* The second takes nothing. */
        T_EQ(test_absorb(b, &xa), 1);
    /* The root children in A's top (the least visited may not be). */
    bool sent[BANYAN_MOVE_LIMIT / 256] = {false};
    for (uint32_t i = 1; i < xa.count; i++)
        if (test_entry_parent(&xa, i) == 0)
            sent[test_entry_move(&xa, i)] = true;
    const tree *t = &b->trees[0];
    int n;
    uint32_t first = tree_children(t->nodes, &t->nodes[t->root], &n), more = 0;
    for (int i = 0; i < n; i++) {
        uint32_t ci = first + (uint32_t)i;
        banyan_move m = tree_move(&t->nodes[ci]);
        T_EQ(tree_stats_visits(t->amaf[ci]), own_b[m] + (sent[m] ? own_a[m] : 0));
        more += sent[m];
    }
    T_TRUE(more >= 5); /* 400 playouts at Go's widening of 0.5 try 10 root children. */
    test_export xb = test_share_export(b);
    for (uint32_t i = 1; i < xb.count; i++)
        if (test_entry_parent(&xb, i) == 0)
            T_EQ(test_entry_amaf(&xb, i), own_b[test_entry_move(&xb, i)]);
    free(xa.b);
    free(xb.b);
    banyan_engine_free(a);
    banyan_engine_free(b);
}

/* The finish callback runs once, when the simulations have stopped, and
 * the search's report counts what it absorbed: a shared search takes the
 * others' last statistics in before the move is checked and reported. */
typedef struct test_finish {
    banyan_engine *e;
    test_export *x;
    int calls;
    uint64_t playouts;
} test_finish;

static void test_finish_absorb(void *ud, const banyan_report *rep)
{
    test_finish *f = ud;
    f->calls++;
    f->playouts = rep->playouts;
    T_EQ(test_absorb(f->e, f->x), 1);
}

void test_share_finish_callback(void)
{
    banyan_engine *a = test_share_engine(&banyan_game_connect4, 31),
                  *b = test_share_engine(&banyan_game_connect4, 32);
    test_search(b, 700);
    test_root b_own = test_share_root(b);
    test_export xb = test_share_export(b);
    test_finish f = {a, &xb, 0, 0};
    banyan_limits lim =
        BANYAN_LIMITS(.playouts = 500, .finish = test_finish_absorb, .finish_ud = &f);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(a, &lim, &r), BANYAN_OK);
    T_EQ(f.calls, 1);
    T_EQ(f.playouts, 500);
    T_EQ(r.playouts, 500);
    uint32_t total = 0, b_total = 0;
    for (int i = 0; i < r.n_moves; i++)
        total += r.moves[i].visits;
    for (int m = 0; m < 7; m++)
        b_total += b_own.visits[m];
    T_EQ(total, 500 + b_total); /* The report saw the absorb. */
    free(xb.b);
    banyan_engine_free(a);
    banyan_engine_free(b);
}

/* The phantom walks (config.share_searches): during a search the root's
 * children count visits beyond the simulations (the walks standing for the
 * other searches'); after it, and in an export, none is left. */
typedef struct test_phantom {
    banyan_engine *e;
    int64_t most; /* The most visits beyond the simulations seen. */
    int calls;
} test_phantom;

static void test_phantom_progress(void *ud, const banyan_report *rep)
{
    test_phantom *p = ud;
    int64_t sum = 0;
    for (int i = 0; i < rep->n_moves; i++)
        sum += rep->moves[i].visits;
    if (sum - (int64_t)rep->playouts > p->most)
        p->most = sum - (int64_t)rep->playouts;
    p->calls++;
}

void test_share_phantoms(void)
{
    const banyan_game *g = &banyan_game_connect4;
    banyan_engine *e = NULL;
    banyan_config cfg = BANYAN_CONFIG(.seed = 41, .share_nodes = TEST_SHARE_NODES,
                                      .memory = 8 << 20, .share_searches = 4, .share_index = 1);
    cfg.memory = t_memory(g, &cfg, cfg.memory);
    T_EQ(banyan_engine_new(g, "book=off", &cfg, &e), BANYAN_OK);
    test_phantom p = {e, 0, 0};
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000, .progress = test_phantom_progress,
                                      .progress_ud = &p, .progress_interval = 1e-9);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(p.calls > 10);
    T_TRUE(p.most >= 3); /* Walks stand for three other searches' simulations. */
    uint32_t total = 0;
    for (int i = 0; i < r.n_moves; i++)
        total += r.moves[i].visits;
    T_EQ(total, 2000);
    T_TRUE(search_check(e) == NULL);
    test_export x = test_share_export(e);
    test_root own = test_export_root(&x), rep = test_share_root(e);
    /* A child with too few visits for the export's top is left out. */
    for (int m = 0; m < 7; m++)
        T_TRUE(own.visits[m] == rep.visits[m] || (own.visits[m] == 0 && rep.visits[m] <= 2));
    free(x.b);
    banyan_engine_free(e);

    /* The index must be one of the searches'. */
    cfg.share_index = 4;
    T_EQ(banyan_engine_new(g, "book=off", &cfg, &e), BANYAN_EINVAL);
    cfg.share_searches = 0, cfg.share_index = 1;
    T_EQ(banyan_engine_new(g, "book=off", &cfg, &e), BANYAN_EINVAL);
}

/* Counts the nodes with visits in a tree's JSON dump. */
static int test_count_visited(void *ud, const char *data, size_t len)
{
    uint32_t *n = ud;
    for (size_t i = 0; i + 10 < len; i++)
        if (!memcmp(data + i, "\"visits\":", 9) && data[i + 9] != '0')
            (*n)++;
    return 0;
}

/* Two Gomoku searches exchanging in step, every 16 simulations of each
 * (as --share-every does over MPI). A Gomoku leaf's value is the game's
 * evaluation, the same wherever it is computed: with the walks each leaf
 * is one search's, and nearly every simulation of the two reaches a node
 * no other did; without them the two walk the same way after each absorb,
 * and most simulations repeat the other search's. Returns the nodes
 * visited in the first search's tree, of the 640 simulations. */
static uint32_t test_share_distinct(int searches)
{
    banyan_engine *e[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        banyan_config cfg =
            BANYAN_CONFIG(.seed = 47 + (uint64_t)k, .share_nodes = 4096, .memory = 16 << 20,
                          .share_searches = searches, .share_index = searches ? k : 0);
        cfg.memory = t_memory(&banyan_game_gomoku, &cfg, cfg.memory);
        T_EQ(banyan_engine_new(&banyan_game_gomoku, NULL, &cfg, &e[k]), BANYAN_OK);
        T_EQ(banyan_engine_load(e[k], "h8 h9 g8"), BANYAN_OK);
    }
    size_t cap = banyan_share_size(4096);
    unsigned char *b[2] = {malloc(cap), malloc(cap)};
    T_TRUE(b[0] && b[1]);
    for (int round = 0; round < 20; round++) {
        size_t len[2];
        for (int k = 0; k < 2; k++) {
            banyan_limits lim = BANYAN_LIMITS(.playouts = 16);
            banyan_report r = BANYAN_REPORT();
            T_EQ(banyan_engine_search(e[k], &lim, &r), BANYAN_OK);
        }
        for (int k = 0; k < 2; k++)
            T_EQ(banyan_engine_share(e[k], b[k], cap, &len[k]), BANYAN_OK);
        for (int k = 0; k < 2; k++) {
            const void *bufs[1] = {b[!k]};
            T_EQ(banyan_engine_absorb(e[k], bufs, &len[!k], 1), 1);
        }
    }
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_report(e[0], &r), BANYAN_OK);
    uint32_t total = 0, visited = 0;
    for (int i = 0; i < r.n_moves; i++)
        total += r.moves[i].visits;
    T_EQ(total, 640);
    T_EQ(banyan_engine_dump(e[0], BANYAN_DUMP_JSON, 0, 1, test_count_visited, &visited), 0);
    for (int k = 0; k < 2; k++) {
        free(b[k]);
        banyan_engine_free(e[k]);
    }
    return visited;
}

void test_share_phantoms_distinct(void)
{
    uint32_t with = test_share_distinct(2), without = test_share_distinct(0);
    T_TRUE(with >= 600);   /* The root and nearly every simulation's leaf. */
    T_TRUE(without < 400); /* Most of the other's leaves taken in again. */
}

/* The early stop of a search shared with others (config.share_searches)
 * counts their simulations to come with its own: a lead its own budget
 * could not overturn may still be overturned by all of theirs. */
void test_share_early_stop(void)
{
    const banyan_game *g = &banyan_game_connect4;
    uint64_t ran[2];
    for (int k = 0; k < 2; k++) {
        banyan_engine *e = NULL;
        banyan_config cfg = BANYAN_CONFIG(.seed = 43, .share_nodes = TEST_SHARE_NODES,
                                          .memory = 8 << 20, .share_searches = k ? 4 : 0);
        cfg.memory = t_memory(g, &cfg, cfg.memory);
        T_EQ(banyan_engine_new(g, "book=off", &cfg, &e), BANYAN_OK);
        banyan_limits lim = BANYAN_LIMITS(.playouts = 20000, .stop_early = true);
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        ran[k] = r.playouts;
        banyan_engine_free(e);
    }
    T_TRUE(ran[0] < 20000);  /* Alone, it stops early, */
    T_TRUE(ran[1] > ran[0]); /* and later where three others share its search. */
}

/* Phantom walks on a tree two threads search, the absorbs made from the
 * progress callback meanwhile (as the MPI layer does): the other thread's
 * simulations run beside the walks and their taking back (ThreadSanitizer
 * runs this test), and what is left is the simulations, each once. */
typedef struct test_phantom_absorb {
    banyan_engine *e;
    const test_export *x;
    int calls;
} test_phantom_absorb;

static void test_phantom_absorb_progress(void *ud, const banyan_report *rep)
{
    test_phantom_absorb *p = ud;
    (void)rep;
    T_EQ(test_absorb(p->e, p->x), 1);
    p->calls++;
}

static void test_phantom_absorb_finish(void *ud, const banyan_report *rep)
{
    test_phantom_absorb_progress(ud, rep);
}

void test_share_phantoms_threads(void)
{
    const banyan_game *g = &banyan_game_connect4;
    banyan_engine *a = NULL, *b = NULL;
    banyan_config ca = BANYAN_CONFIG(.seed = 45, .share_nodes = TEST_SHARE_NODES, .threads = 2,
                                     .memory = 8 << 20, .share_searches = 2, .share_index = 0),
                  cb = BANYAN_CONFIG(.seed = 46, .share_nodes = TEST_SHARE_NODES, .memory = 8 << 20,
                                     .share_searches = 2, .share_index = 1);
    ca.memory = t_memory(g, &ca, ca.memory);
    cb.memory = t_memory(g, &cb, cb.memory);
    T_EQ(banyan_engine_new(g, "book=off", &ca, &a), BANYAN_OK);
    T_EQ(banyan_engine_new(g, "book=off", &cb, &b), BANYAN_OK);
    test_search(b, 600);
    test_root b_own = test_share_root(b);
    test_export xb = test_share_export(b);
    test_phantom_absorb p = {a, &xb, 0};
    /* The finish callback absorbs too, so that the sum below holds however
     * few simulations the first thread made on a busy machine. */
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000, .progress = test_phantom_absorb_progress,
                                      .progress_ud = &p, .progress_interval = 1e-9,
                                      .finish = test_phantom_absorb_finish, .finish_ud = &p);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(a, &lim, &r), BANYAN_OK);
    T_TRUE(p.calls >= 1);
    uint32_t total = 0, b_total = 0;
    for (int i = 0; i < r.n_moves; i++)
        total += r.moves[i].visits;
    for (int m = 0; m < 7; m++)
        b_total += b_own.visits[m];
    T_EQ(total, r.playouts + b_total);
    T_TRUE(search_check(a) == NULL);
    free(xb.b);
    banyan_engine_free(a);
    banyan_engine_free(b);
}
