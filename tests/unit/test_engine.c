/*
 * test_engine.c - the engine API: bad input of every kind returns an error
 * and leaves the engine usable; allocation failures are clean; limits,
 * stop requests, determinism, tiny memory budgets, final-move rules, tree
 * dumps (their scratch taken through the allocation hook), and domains with
 * one and three players.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "t.h"

/* Connect Four without its opening book, which answers the empty board (and
 * the first player's positions to 10 discs) before any simulation: these
 * tests need searches from it. */
#define C4_SEARCHED "book=off"

/* An engine of game g; a memory cfg names is its arena's (t_memory). */
static banyan_engine *test_engine(const banyan_game *g, const char *params,
                                  const banyan_config *cfg)
{
    banyan_engine *e = NULL;
    banyan_config c = cfg ? *cfg : BANYAN_CONFIG();
    if (c.memory)
        c.memory = t_memory(g, &c, c.memory);
    T_EQ(banyan_engine_new(g, params, &c, &e), BANYAN_OK);
    return e;
}

/* Whether m is legal in the engine's root. */
static int test_is_legal(banyan_engine *e, banyan_move m)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    const banyan_game *g = banyan_engine_game(e);
    int n = g->moves(banyan_engine_state(e), moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return 1;
    return 0;
}

/* A search must still work: a legal best move from the current root. */
static void test_still_usable(banyan_engine *e)
{
    banyan_limits lim = BANYAN_LIMITS(.playouts = 500);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(test_is_legal(e, r.best));
}

void test_engine_bad_config(void)
{
    banyan_engine *e = (banyan_engine *)&e;
    const banyan_game *c4 = &banyan_game_connect4;
    banyan_game broken = banyan_game_connect4;

    T_EQ(banyan_engine_new(NULL, NULL, NULL, &e), BANYAN_EINVAL);
    T_TRUE(e == NULL);
    T_EQ(banyan_engine_new(c4, NULL, NULL, NULL), BANYAN_EINVAL);
    broken.moves = NULL;
    T_EQ(banyan_engine_new(&broken, NULL, NULL, &e), BANYAN_EINVAL);
    T_TRUE(strstr(banyan_game_check(&broken), "moves()") != NULL); /* Why, for front-ends. */
    broken = banyan_game_connect4;
    broken.n_players = 0;
    T_EQ(banyan_engine_new(&broken, NULL, NULL, &e), BANYAN_EINVAL);
    broken.n_players = BANYAN_MAX_PLAYERS + 1;
    T_EQ(banyan_engine_new(&broken, NULL, NULL, &e), BANYAN_EINVAL);
    broken = banyan_game_connect4;
    broken.reward_min = 1;
    broken.reward_max = 0;
    T_EQ(banyan_engine_new(&broken, NULL, NULL, &e), BANYAN_EINVAL);

    const banyan_config bad[] = {
        BANYAN_CONFIG(.memory = 100),
        BANYAN_CONFIG(.threads = -1),
        BANYAN_CONFIG(.threads = BANYAN_MAX_THREADS + 1),
        BANYAN_CONFIG(.c = -1),
        BANYAN_CONFIG(.c = NAN),
        BANYAN_CONFIG(.c = INFINITY),
        BANYAN_CONFIG(.select = (banyan_select)7),
        BANYAN_CONFIG(.fpu = (banyan_fpu)9),
        BANYAN_CONFIG(.fpu = BANYAN_FPU_ABSOLUTE, .fpu_value = NAN),
        BANYAN_CONFIG(.final = (banyan_final)-3),
        BANYAN_CONFIG(.parallel = (banyan_parallel)3),
        BANYAN_CONFIG(.threads = 4, .parallel = BANYAN_PARALLEL_ROOT,
                      .memory = 64 << 10), /* 16K a tree */
        BANYAN_CONFIG(.leaf = (banyan_leaf)4),
        BANYAN_CONFIG(.leaf = BANYAN_LEAF_EVAL), /* Connect Four has no evaluation. */
        BANYAN_CONFIG(.leaf = BANYAN_LEAF_CUTOFF),
        BANYAN_CONFIG(.cutoff = -2),
        BANYAN_CONFIG(.widening = NAN),
        BANYAN_CONFIG(.widening_opponent = -INFINITY),
        BANYAN_CONFIG(.widening_opponent = 1e9),
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e = (banyan_engine *)&e;
        T_EQ(banyan_engine_new(c4, NULL, &bad[i], &e), BANYAN_EINVAL);
        T_TRUE(e == NULL);
        T_TRUE(banyan_config_check(c4, &bad[i]) != NULL); /* Each says why. */
    }
    T_TRUE(banyan_config_check(c4, NULL) == NULL);
    T_TRUE(strstr(banyan_config_check(c4, &bad[13]), "evaluation") != NULL);
    T_TRUE(banyan_config_check(&banyan_game_gomoku, &bad[13]) == NULL);
    T_TRUE(banyan_config_check(&broken, NULL) != NULL);
    /* The most threads an engine takes is accepted. */
    T_EQ(banyan_engine_new(c4, NULL, &BANYAN_CONFIG(.threads = BANYAN_MAX_THREADS), &e), BANYAN_OK);
    banyan_engine_free(e);
    T_EQ(banyan_engine_new(c4, "rows=9", NULL, &e), BANYAN_EINVAL);
    T_EQ(banyan_engine_new(&banyan_game_tictactoe, "m=0", NULL, &e), BANYAN_EINVAL);
    T_EQ(banyan_engine_new(&banyan_game_tictactoe, "m=3 n=3 k=9", NULL, &e), BANYAN_EINVAL);
    T_EQ(banyan_engine_new(&banyan_game_tictactoe, "garbage", NULL, &e), BANYAN_EINVAL);
    T_TRUE(strcmp(banyan_strerror(BANYAN_EINVAL), "invalid argument") == 0);
    T_TRUE(strlen(banyan_strerror(12345)) > 0);
    T_TRUE(strlen(banyan_errmsg(NULL)) > 0);
}

/* The progress callback of test_engine_struct_size: the size of the
 * report it gets. */
static void test_progress_size(void *ud, const banyan_report *rep)
{
    *(size_t *)ud = rep->size;
}

/* The structs' sizes (banyan.h, "Binary compatibility"): none, too small
 * or larger than the library's is refused with a sentence, a refused report
 * is not written, and a report is written within its size only. */
void test_engine_struct_size(void)
{
    const banyan_game *c4 = &banyan_game_connect4;
    banyan_engine *e = NULL;
    banyan_config cfg = BANYAN_CONFIG(.seed = 3);
    static const size_t bad_sizes[] = {0, 1, offsetof(banyan_config, widening_opponent),
                                       sizeof(banyan_config) + 8};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        cfg.size = bad_sizes[i];
        T_EQ(banyan_engine_new(c4, NULL, &cfg, &e), BANYAN_EINVAL);
        T_TRUE(e == NULL);
        T_TRUE(strstr(banyan_config_check(c4, &cfg), "config") != NULL);
    }
    cfg.size = 0;
    T_TRUE(strstr(banyan_config_check(c4, &cfg), "BANYAN_CONFIG()") != NULL);
    cfg.size = sizeof(banyan_config) + 8;
    T_TRUE(strstr(banyan_config_check(c4, &cfg), "newer") != NULL);

    e = test_engine(c4, "book=off", NULL);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 200);
    struct {
        banyan_report r;
        unsigned char guard[64];
    } out;
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        memset(&out, 0x5a, sizeof out);
        out.r.size = bad_sizes[i];
        T_EQ(banyan_engine_search(e, &lim, &out.r), BANYAN_EINVAL);
        T_TRUE(strstr(banyan_errmsg(e), "report") != NULL);
        T_EQ(banyan_engine_report(e, &out.r), BANYAN_EINVAL);
        T_EQ(out.r.best, 0x5a5a5a5au); /* Untouched. */
        lim.size = bad_sizes[i];
        T_EQ(banyan_engine_search(e, &lim, &BANYAN_REPORT()), BANYAN_EINVAL);
        T_TRUE(strstr(banyan_errmsg(e), "limits") != NULL);
        lim.size = sizeof lim;
    }
    memset(&out, 0x5a, sizeof out);
    out.r.size = sizeof out.r;
    size_t seen = 0;
    lim = BANYAN_LIMITS(.playouts = 2000, .progress = test_progress_size, .progress_ud = &seen,
                        .progress_interval = 1e-9);
    T_EQ(banyan_engine_search(e, &lim, &out.r), BANYAN_OK);
    T_EQ(out.r.size, sizeof out.r);
    T_EQ(out.r.playouts, 2000);
    T_EQ(seen, sizeof(banyan_report));
    for (size_t i = 0; i < sizeof out.guard; i++)
        T_EQ(out.guard[i], 0x5a);
    T_EQ(banyan_engine_report(e, &out.r), BANYAN_OK);
    T_EQ(out.r.size, sizeof out.r);
    banyan_engine_free(e);
}

/* Options by name (banyan_config_set): each option of the library's table
 * sets its field, and each refusal leaves the config unchanged. */
void test_engine_config_set(void)
{
    static const struct {
        const char *name, *value;
        banyan_config want; /* The config it gives, from the defaults. */
    } good[] = {
        {"seed", "18446744073709551615", {.seed = UINT64_MAX}},
        {"seed", "0", {.seed = 0}},
        {"threads", "64", {.threads = 64}},
        {"memory", "1.5K", {.memory = 1536}},
        {"memory", "64MiB", {.memory = 64 << 20}},
        {"memory", "1g", {.memory = 1 << 30}},
        {"parallel", "tree", {.parallel = BANYAN_PARALLEL_TREE}},
        {"parallel", "root", {.parallel = BANYAN_PARALLEL_ROOT}},
        {"c", "1.2", {.c = 1.2}},
        {"select", "uct", {.select = BANYAN_SELECT_UCT}},
        {"select", "puct", {.select = BANYAN_SELECT_PUCT}},
        {"final", "visits", {.final = BANYAN_FINAL_VISITS}},
        {"final", "value", {.final = BANYAN_FINAL_VALUE}},
        {"final", "lcb", {.final = BANYAN_FINAL_LCB}},
        {"fpu", "0.25", {.fpu = BANYAN_FPU_PARENT, .fpu_value = 0.25}},
        {"fpu", "infinite", {.fpu = BANYAN_FPU_INFINITE}},
        {"widening", "3", {.widening = 3}},
        {"widening", "off", {.widening = -1}},
        {"opponent-widening", "0.5", {.widening_opponent = 0.5}},
        {"opponent-widening", "off", {.widening_opponent = -1}},
        {"expand", "999999", {.expand_visits = 999999}},
        {"leaf", "rollout", {.leaf = BANYAN_LEAF_ROLLOUT}},
        {"leaf", "eval", {.leaf = BANYAN_LEAF_EVAL}},
        {"leaf", "cutoff", {.leaf = BANYAN_LEAF_CUTOFF}},
        {"cutoff", "1000", {.cutoff = 1000}},
        {"solve", "1", {.solve_budget = 1}},
        {"reuse", "off", {.fresh_tree = true}},
        {"reuse", "on", {.fresh_tree = false}},
        {"recycle", "off", {.no_recycle = true}},
        {"transpositions", "on", {.transpositions = true}},
        {"transpositions", "graph", {.transpositions = true, .graph = true}},
        {"transpositions", "off", {.transpositions = false}},
        {"rave", "3000", {.rave = 3000}},
        {"rave", "off", {.rave = -1}},
        {"max-mix", "1", {.max_mix = 1}},
        {"adaptive", "on", {.adaptive = 1}},
        {"adaptive", "off", {.adaptive = -1}},
        {"batch", "256", {.batch = 256}},
        {"share-nodes", "10000", {.share_nodes = 10000}},
    };
    static const struct {
        const char *name, *value;
    } bad[] = {
        {"seed", "-1"},
        {"seed", "18446744073709551616"},
        {"seed", "0x10"},
        {"threads", "0"},
        {"threads", "65"},
        {"memory", "0"},
        {"memory", "2e15"},
        {"memory", "0x10M"},
        {"memory", "5T"},
        {"parallel", "both"},
        {"c", "0"},
        {"c", "nan"},
        {"c", "1e7"},
        {"c", " 1"},
        {"select", "rave"},
        {"final", ""},
        {"fpu", "1.5"},
        {"fpu", "R"},
        {"widening", "0"},
        {"widening", "W"},
        {"opponent-widening", "1001"},
        {"expand", "0"},
        {"expand", "1000000"},
        {"leaf", "Eval"},
        {"cutoff", "1001"},
        {"solve", "0"},
        {"reuse", "yes"},
        {"recycle", "1"},
        {"transpositions", "gr"},
        {"rave", "0.5"},
        {"rave", "inf"},
        {"max-mix", "-0.1"},
        {"adaptive", "2"},
        {"batch", "257"},
        {"share-nodes", "1048577"},
        {"share-nodes", "-1"},
        {"bogus", "1"},
        {"", "1"},
        {"C", "1"},
    };
    int names = 0;
    while (banyan_config_option(names))
        names++;
    T_EQ(names, 22);
    T_TRUE(banyan_config_option(-1) == NULL);
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        banyan_config cfg = BANYAN_CONFIG(), want = good[i].want;
        want.size = sizeof want;
        T_EQ(banyan_config_set(&cfg, good[i].name, good[i].value), BANYAN_OK);
        if (memcmp(&cfg, &want, sizeof cfg) != 0)
            T_FAIL_AT("%s=%s does not set its field", good[i].name, good[i].value);
        T_TRUE(banyan_config_expects(good[i].name) != NULL);
    }
    /* Every option of the table is among those set above. */
    for (int k = 0; k < names; k++) {
        bool seen = false;
        for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
            seen = seen || !strcmp(good[i].name, banyan_config_option(k));
        if (!seen)
            T_FAIL_AT("option %s is not tested", banyan_config_option(k));
    }
    /* A refusal leaves every byte as it was, and a value set before stays. */
    banyan_config before = BANYAN_CONFIG(.seed = 9, .threads = 3, .c = 0.7, .fpu_value = 0.3,
                                         .widening = 5, .rave = 10, .transpositions = true);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        banyan_config cfg = before;
        T_EQ(banyan_config_set(&cfg, bad[i].name, bad[i].value), BANYAN_EINVAL);
        if (memcmp(&cfg, &before, sizeof cfg) != 0)
            T_FAIL_AT("%s=%s changed the config", bad[i].name, bad[i].value);
    }
    banyan_config cfg = before;
    T_EQ(banyan_config_set(&cfg, NULL, "1"), BANYAN_EINVAL);
    T_EQ(banyan_config_set(&cfg, "seed", NULL), BANYAN_EINVAL);
    T_EQ(banyan_config_set(NULL, "seed", "1"), BANYAN_EINVAL);
    cfg.size = 0; /* Not made by BANYAN_CONFIG(). */
    T_EQ(banyan_config_set(&cfg, "seed", "1"), BANYAN_EINVAL);
    cfg.size = sizeof cfg + 8; /* A newer header's. */
    T_EQ(banyan_config_set(&cfg, "seed", "1"), BANYAN_EINVAL);
    T_EQ(cfg.seed, 9);
    /* What each value must be, as the command line says it. */
    T_STR(banyan_config_expects("threads"), "a whole number from 1 to 64");
    T_STR(banyan_config_expects("parallel"), "one of tree|root");
    T_STR(banyan_config_expects("fpu"), "a number from 0 to 1, or infinite");
    T_TRUE(banyan_config_expects("bogus") == NULL);
    T_TRUE(banyan_config_expects(NULL) == NULL);
    /* A config set by name makes an engine like one set by field. */
    cfg = BANYAN_CONFIG();
    T_EQ(banyan_config_set(&cfg, "leaf", "eval"), BANYAN_OK);
    T_TRUE(banyan_config_check(&banyan_game_connect4, &cfg) != NULL); /* No evaluation. */
    T_EQ(banyan_config_set(&cfg, "leaf", "rollout"), BANYAN_OK);
    T_TRUE(banyan_config_check(&banyan_game_connect4, &cfg) == NULL);
}

void test_engine_bad_input(void)
{
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, NULL);
    const banyan_game *g = banyan_engine_game(e);
    unsigned char before[1024];
    banyan_move m = 12345;
    banyan_report r = BANYAN_REPORT();

    T_EQ(banyan_engine_load(e, "4453"), BANYAN_OK);
    T_TRUE(g->state_size <= sizeof before);
    memcpy(before, banyan_engine_state(e), g->state_size);

    /* Moves: not a move, off the board, illegal. */
    static const char *not_moves[] = {"", "   ", "zz", "d4x", "-1", "?", "\x01", "dd"};
    for (size_t i = 0; i < sizeof not_moves / sizeof not_moves[0]; i++) {
        T_EQ(banyan_engine_parse_move(e, not_moves[i], &m), BANYAN_EINVAL);
        T_TRUE(strlen(banyan_errmsg(e)) > 0);
    }
    T_EQ(m, 12345); /* Never written on failure. */
    T_EQ(banyan_engine_parse_move(e, "h", &m), BANYAN_ERANGE);
    T_EQ(banyan_engine_parse_move(e, "9", &m), BANYAN_ERANGE);
    T_EQ(banyan_engine_parse_move(e, NULL, &m), BANYAN_EINVAL);
    T_EQ(banyan_engine_parse_move(e, "d", NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_play(e, 7), BANYAN_EILLEGAL);
    T_EQ(banyan_engine_play(e, BANYAN_MOVE_NONE), BANYAN_EILLEGAL);

    /* A full column is illegal. */
    T_EQ(banyan_engine_load(e, "444444"), BANYAN_OK);
    T_EQ(banyan_engine_parse_move(e, "d", &m), BANYAN_EILLEGAL);
    T_EQ(banyan_engine_load(e, "4453"), BANYAN_OK);

    /* Positions: malformed, off the board, illegal; the root is unchanged. */
    static const char *bad_positions[] = {"44x", "4444444", "8", "0", "4453 ?", "abc!"};
    for (size_t i = 0; i < sizeof bad_positions / sizeof bad_positions[0]; i++) {
        T_TRUE(banyan_engine_load(e, bad_positions[i]) < 0);
        T_TRUE(memcmp(before, banyan_engine_state(e), g->state_size) == 0);
    }
    T_EQ(banyan_engine_load(e, NULL), BANYAN_EINVAL);
    T_TRUE(memcmp(before, banyan_engine_state(e), g->state_size) == 0);

    /* Parameters and limits. */
    T_EQ(banyan_engine_setup(e, "width=9"), BANYAN_EINVAL);
    T_TRUE(memcmp(before, banyan_engine_state(e), g->state_size) == 0);
    banyan_limits bad_time = BANYAN_LIMITS(.time = NAN);
    banyan_limits neg_time = BANYAN_LIMITS(.time = -1);
    banyan_limits bad_interval = BANYAN_LIMITS(.progress_interval = -2);
    T_EQ(banyan_engine_search(e, &bad_time, &r), BANYAN_EINVAL);
    T_EQ(banyan_engine_search(e, &neg_time, &r), BANYAN_EINVAL);
    T_EQ(banyan_engine_search(e, &bad_interval, &r), BANYAN_EINVAL);
    T_EQ(banyan_engine_search(e, NULL, NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_set_state(e, NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_report(e, NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 0, 0, NULL, NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_dump(e, (banyan_dump_format)5, 0, 0, NULL, NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, -1, 0, NULL, NULL), BANYAN_EINVAL);

    /* NULL engines. */
    T_EQ(banyan_engine_setup(NULL, NULL), BANYAN_EINVAL);
    T_EQ(banyan_engine_load(NULL, ""), BANYAN_EINVAL);
    T_EQ(banyan_engine_play(NULL, 0), BANYAN_EINVAL);
    T_EQ(banyan_engine_search(NULL, NULL, &r), BANYAN_EINVAL);
    T_EQ(banyan_engine_parse_move(NULL, "d", &m), BANYAN_EINVAL);
    T_EQ(banyan_engine_set_state(NULL, before), BANYAN_EINVAL);
    T_EQ(banyan_engine_report(NULL, &r), BANYAN_EINVAL);
    T_TRUE(banyan_engine_state(NULL) == NULL);
    banyan_engine_stop(NULL);
    banyan_engine_free(NULL);

    T_TRUE(memcmp(before, banyan_engine_state(e), g->state_size) == 0);
    test_still_usable(e);
    T_STR(banyan_errmsg(e), "not an error");
    banyan_engine_free(e);
}

/* Allocation failures: the N-th allocation fails, for every N until the
 * engine is created; each failure returns BANYAN_ENOMEM and leaks nothing
 * (the sanitizer pass checks the leaks). */
typedef struct test_allocs {
    int count;   /* Allocations so far. */
    int fail_at; /* The allocation that fails (1-based). */
    int live;    /* Blocks not yet freed. */
} test_allocs;

static void *test_failing_alloc(void *ud, void *ptr, size_t nsize)
{
    test_allocs *a = ud;
    if (nsize == 0) {
        if (ptr)
            a->live--;
        free(ptr);
        return NULL;
    }
    if (++a->count == a->fail_at)
        return NULL;
    if (!ptr)
        a->live++;
    return realloc(ptr, nsize);
}

void test_engine_out_of_memory(void)
{
    int n;
    for (n = 1; n < 100; n++) {
        test_allocs a = {0, n, 0};
        banyan_config cfg = BANYAN_CONFIG(.memory = 1 << 20, .threads = 2,
                                          .alloc = test_failing_alloc, .alloc_ud = &a);
        banyan_engine *e;
        int rc = banyan_engine_new(&banyan_game_tictactoe, NULL, &cfg, &e);
        if (rc == BANYAN_OK) {
            test_still_usable(e);
            banyan_engine_free(e);
            T_EQ(a.live, 0);
            break;
        }
        T_EQ(rc, BANYAN_ENOMEM);
        T_TRUE(e == NULL);
        T_EQ(a.live, 0);
    }
    T_TRUE(n > 3 && n < 100); /* Several allocations were each made to fail. */
}

void test_engine_determinism(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 99);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
    banyan_report r1 = BANYAN_REPORT(), r2 = BANYAN_REPORT();
    banyan_engine *a = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    banyan_engine *b = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    T_EQ(banyan_engine_load(a, "44"), BANYAN_OK);
    T_EQ(banyan_engine_load(b, "44"), BANYAN_OK);
    banyan_engine_search(a, &lim, &r1);
    banyan_engine_search(b, &lim, &r2);
    T_EQ(r1.best, r2.best);
    T_EQ(r1.nodes, r2.nodes);
    T_EQ(r1.playouts, 20000);
    T_EQ(r1.n_moves, r2.n_moves);
    for (int i = 0; i < r1.n_moves && i < r2.n_moves; i++) {
        T_EQ(r1.moves[i].move, r2.moves[i].move);
        T_EQ(r1.moves[i].visits, r2.moves[i].visits);
        T_TRUE(r1.moves[i].value == r2.moves[i].value);
    }
    /* A second search from the same root grows the same tree. */
    banyan_engine_search(a, &lim, &r1);
    T_TRUE(r1.nodes > r2.nodes);
    banyan_engine_free(a);
    banyan_engine_free(b);
}

void test_engine_limits(void)
{
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, NULL);
    banyan_report r = BANYAN_REPORT();
    banyan_limits by_nodes = BANYAN_LIMITS(.nodes = 1000);
    /* A clock of 0.05 s, and a number of playouts no machine reaches in it. */
    banyan_limits by_time = BANYAN_LIMITS(.time = 0.05, .playouts = 1000000000000);
    banyan_limits by_default = BANYAN_LIMITS();

    T_EQ(banyan_engine_search(e, &by_nodes, &r), BANYAN_OK);
    T_TRUE(r.nodes >= 1000 && r.nodes < 1000 + 2 * 7 + 1);
    banyan_engine_setup(e, C4_SEARCHED);
    T_EQ(banyan_engine_search(e, &by_time, &r), BANYAN_OK);
    /* Stopped by its clock: neither the playouts nor a proof ended it. */
    T_TRUE(r.playouts > 0 && r.playouts < by_time.playouts);
    T_EQ(r.proof, BANYAN_UNPROVEN);
    banyan_engine_setup(e, C4_SEARCHED);
    T_EQ(banyan_engine_search(e, &by_default, &r), BANYAN_OK);
    T_EQ(r.playouts, 10000);
    T_EQ(banyan_engine_search(e, NULL, &r), BANYAN_OK);
    T_EQ(r.playouts, 10000);
    banyan_engine_free(e);
}

/* The progress callback asks for a stop: the search ends early. */
static void test_stop_from_progress(void *ud, const banyan_report *rep)
{
    int *calls = ud;
    (*calls)++;
    T_TRUE(rep->playouts > 0);
    T_TRUE(rep->n_moves > 0);
    banyan_engine *e = *(banyan_engine **)(calls + 2);
    if (*calls == 2)
        banyan_engine_stop(e);
}

static void *test_stopper(void *arg)
{
    banyan_engine_stop(arg);
    return NULL;
}

void test_engine_stop(void)
{
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, NULL);
    struct {
        int calls;
        int pad;
        banyan_engine *e;
    } ctx = {0, 0, e};
    banyan_limits lim = BANYAN_LIMITS(.time = 30, .progress = test_stop_from_progress,
                                      .progress_ud = &ctx, .progress_interval = 0.01);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    /* Stopped at the second call, not by its clock: a search that ran on
     * would have called every 0.01 s until its 30 s were up. */
    T_EQ(ctx.calls, 2);
    T_TRUE(test_is_legal(e, r.best));

    /* A stop from another thread before the search starts stops it at once. */
    pthread_t t;
    T_EQ(pthread_create(&t, NULL, test_stopper, e), 0);
    pthread_join(t, NULL);
    banyan_limits many = BANYAN_LIMITS(.playouts = 100000000);
    T_EQ(banyan_engine_search(e, &many, &r), BANYAN_OK);
    T_EQ(r.playouts, 0);
    T_TRUE(test_is_legal(e, r.best));
    /* The stop was used up: the next search runs. */
    banyan_limits few = BANYAN_LIMITS(.playouts = 100);
    T_EQ(banyan_engine_search(e, &few, &r), BANYAN_OK);
    T_EQ(r.playouts, 100);
    banyan_engine_free(e);
}

/* Whether the engine's best move is one of the columns in cols ("cg"). */
static int test_best_in(banyan_engine *e, banyan_move best, const char *cols)
{
    char buf[8];
    banyan_engine_game(e)->notation->format_move(banyan_engine_state(e), best, buf, sizeof buf);
    return buf[0] && buf[1] == 0 && strchr(cols, buf[0]) != NULL;
}

/* An allocation hook that counts the bytes the engine holds, and the most
 * it held at once, from a header before each block. */
typedef struct test_bytes {
    size_t live, peak;
} test_bytes;

static void *test_bytes_alloc(void *ud, void *ptr, size_t nsize)
{
    test_bytes *b = ud;
    size_t *p = ptr ? (size_t *)ptr - 2 : NULL; /* Two words keep 16-byte alignment. */
    size_t old = p ? p[0] : 0;
    if (!nsize) {
        b->live -= old;
        free(p);
        return NULL;
    }
    size_t *q = realloc(p, nsize + 2 * sizeof(size_t));
    if (!q)
        return NULL;
    q[0] = nsize;
    b->live += nsize - old;
    b->peak = b->live > b->peak ? b->live : b->peak;
    return q + 2;
}

/* config.memory bounds everything the engine allocates, for every game,
 * with threads on one tree and a tree each, transpositions, RAVE (Go),
 * sharing and batches: the hook never holds more, and the arena takes
 * the rest, so the engine holds all but a few bytes of it (which checks
 * that the engine's sum of its fixed part, engine_fixed_bytes, matches
 * what it allocates, both ways). The search allocates nothing. Below
 * banyan_memory_least() the config is refused. */
void test_engine_memory_bound(void)
{
    static const struct {
        const banyan_game *g;
        const char *params;
        banyan_config cfg;
    } cases[] = {
        {&banyan_game_tictactoe, NULL, {.threads = 1}},
        {&banyan_game_connect4, "book=off", {.threads = 1}},
        {&banyan_game_connect4, "book=off", {.threads = 2}},
        {&banyan_game_connect4, "book=off", {.threads = 3, .parallel = BANYAN_PARALLEL_ROOT}},
        {&banyan_game_connect4, "book=off", {.threads = 2, .transpositions = true}},
        {&banyan_game_connect4, "book=off", {.threads = 1, .share_nodes = 64}},
        {&banyan_game_gomoku, NULL, {.threads = 2}},
        {&banyan_game_othello, NULL, {.threads = 2}},
        {&banyan_game_go, "size=9", {.threads = 2}},
        {&banyan_game_go, "size=9", {.threads = 1, .ownership = true}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_bytes b = {0, 0};
        banyan_config cfg = cases[i].cfg;
        cfg.size = sizeof cfg;
        cfg.seed = 7;
        cfg.alloc = test_bytes_alloc;
        cfg.alloc_ud = &b;
        size_t least = banyan_memory_least(cases[i].g, &cfg);
        T_TRUE(least > 0);
        cfg.memory = least - 1;
        banyan_engine *e = NULL;
        T_EQ(banyan_engine_new(cases[i].g, cases[i].params, &cfg, &e), BANYAN_EINVAL);
        T_TRUE(banyan_config_check(cases[i].g, &cfg) != NULL);
        cfg.memory = least + (1u << 20);
        T_EQ(banyan_engine_new(cases[i].g, cases[i].params, &cfg, &e), BANYAN_OK);
        if (!e)
            continue;
        size_t held = b.live;
        if (!(held <= cfg.memory && cfg.memory - held < 1024))
            T_FAIL_AT("case %zu (%s): the engine holds %zu bytes of memory %zu\n", i,
                      cases[i].g->name, held, cfg.memory);
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 3000), &r), BANYAN_OK);
        T_EQ(b.live, held);
        T_TRUE(b.peak <= cfg.memory);
        banyan_engine_free(e);
        T_EQ(b.live, 0);
    }
}

void test_engine_tiny_memory(void)
{
    /* 32 KiB: about a thousand nodes. The tree stops growing, the search
     * goes on and still finds the win in one (X: d1 e1 f1; c1 or g1 wins). */
    banyan_config cfg = BANYAN_CONFIG(.memory = 32 << 10);
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_load(e, "445566"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(test_best_in(e, r.best, "cg"));

    /* From the empty board the arena fills again and again: the least
     * visited subtrees are recycled, the report says how often, and the
     * move is still sensible (a central column). */
    banyan_engine_setup(e, C4_SEARCHED);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.recycles > 0);
    T_EQ(r.playouts, 20000);
    T_TRUE(r.nodes <= r.node_capacity);
    T_TRUE(r.nodes > 200);
    T_TRUE(test_best_in(e, r.best, "cde"));
    banyan_engine_free(e);

    /* Without recycling the tree stops growing and the search goes on. */
    cfg.no_recycle = true;
    e = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.tree_full);
    T_EQ(r.recycles, 0);
    T_EQ(r.playouts, 20000);
    T_TRUE(r.nodes <= r.node_capacity && r.nodes > 500);
    T_TRUE(test_best_in(e, r.best, "cde"));
    banyan_engine_free(e);
}

void test_engine_solver(void)
{
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, NULL);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 1000000);
    banyan_report r = BANYAN_REPORT();

    /* X to move wins at once with c or g: the root is proven, which ends the
     * search long before its budget, and the win is played. */
    T_EQ(banyan_engine_load(e, "445566"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    T_TRUE(r.playouts < 1000);
    T_EQ(r.moves[0].proof, BANYAN_PROVEN_WIN);
    T_TRUE(test_best_in(e, r.best, "cg"));
    T_TRUE(r.value == 1.0);

    /* O to move faces X's d1 e1 f1 with c1 and g1 both open: every move
     * loses, the root is proven lost, and every move is reported lost. */
    T_EQ(banyan_engine_load(e, "41516"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.proof, BANYAN_PROVEN_LOSS);
    T_TRUE(r.playouts < 10000);
    for (int i = 0; i < r.n_moves; i++)
        T_EQ(r.moves[i].proof, BANYAN_PROVEN_LOSS);
    T_TRUE(test_is_legal(e, r.best));

    /* O to move must block g (c1 is O's): the losing moves are proven and
     * avoided, and the block is played. */
    T_EQ(banyan_engine_load(e, "43516"), BANYAN_OK);
    banyan_limits few = BANYAN_LIMITS(.playouts = 20000);
    T_EQ(banyan_engine_search(e, &few, &r), BANYAN_OK);
    T_TRUE(test_best_in(e, r.best, "g"));
    T_TRUE(r.moves[0].proof != BANYAN_PROVEN_LOSS);
    int lost = 0;
    for (int i = 0; i < r.n_moves; i++)
        lost += r.moves[i].proof == BANYAN_PROVEN_LOSS;
    T_EQ(lost, 6);
    banyan_engine_free(e);
}

/* Dumps are collected into a growing buffer. */
typedef struct test_buf {
    char data[1 << 16];
    size_t len;
    int calls;
} test_buf;

static int test_write(void *ud, const char *data, size_t len)
{
    test_buf *b = ud;
    b->calls++;
    if (b->len + len >= sizeof b->data)
        return 7; /* Abort: too large for the test buffer. */
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = 0;
    return 0;
}

static int test_count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

void test_engine_dump(void)
{
    banyan_engine *e = test_engine(&banyan_game_tictactoe, NULL, NULL);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report r = BANYAN_REPORT();
    static test_buf b;
    banyan_engine_search(e, &lim, &r);

    /* Depth 1: the root and its nine children, nothing deeper. */
    b.len = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 1, 0, test_write, &b), 0);
    T_EQ(test_count(b.data, "\"move\""), 10);
    T_EQ(test_count(b.data, "{"), test_count(b.data, "}"));
    T_EQ(test_count(b.data, "["), test_count(b.data, "]"));
    T_TRUE(strncmp(b.data, "{\"move\":\"root\",\"visits\":3000,", 29) == 0);
    T_TRUE(strstr(b.data, "\"move\":\"b2\"") != NULL);

    /* Depth 2 with a visit cut-off keeps fewer nodes than without it. */
    b.len = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 2, 0, test_write, &b), 0);
    int all = test_count(b.data, "\"move\"");
    b.len = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 2, 100, test_write, &b), 0);
    int cut = test_count(b.data, "\"move\"");
    T_TRUE(all > 10 && cut < all && cut >= 2);

    /* DOT: one edge per node but the root. */
    b.len = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_DOT, 2, 0, test_write, &b), 0);
    T_TRUE(strncmp(b.data, "digraph banyan {", 16) == 0);
    T_EQ(test_count(b.data, "->"), test_count(b.data, "[label=") - 1);
    T_EQ(test_count(b.data, "->") + 1, all);

    /* A write function that fails aborts the dump with its code. */
    b.len = sizeof b.data - 10;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 0, 0, test_write, &b), 7);
    banyan_engine_free(e);
}

/* The nodes the dump of a Gomoku search of 3000 playouts after three
 * moves shows two plies deep, with at least one visit, under cfg. */
static int test_widening_nodes(const banyan_config *cfg)
{
    banyan_engine *e = test_engine(&banyan_game_gomoku, NULL, cfg);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report r = BANYAN_REPORT();
    static test_buf b;
    T_EQ(banyan_engine_load(e, "h8 i9 j8"), BANYAN_OK);
    banyan_engine_search(e, &lim, &r);
    b.len = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 2, 1, test_write, &b), 0);
    banyan_engine_free(e);
    return test_count(b.data, "\"move\"");
}

/* widening_opponent widens the nodes where the root's opponent is to
 * move, apart from the root player's own: with the root player's widening
 * alike, the opponent's replies visited two plies deep are more without
 * widening there than with the same widening, fewer with a narrower one;
 * 0 is the same as widening's; the root (the root player's) keeps its own. */
void test_engine_widening_opponent(void)
{
    banyan_config same = BANYAN_CONFIG(.widening = 1),
                  off = BANYAN_CONFIG(.widening = 1, .widening_opponent = -1);
    banyan_config as = BANYAN_CONFIG(.widening = 1, .widening_opponent = 1);
    banyan_config narrow = BANYAN_CONFIG(.widening = 1, .widening_opponent = 0.01);
    int n_same = test_widening_nodes(&same), n_off = test_widening_nodes(&off);
    T_EQ(test_widening_nodes(&as), n_same);
    T_TRUE(n_off > n_same + 20);
    T_TRUE(test_widening_nodes(&narrow) < n_same);
    banyan_config all = BANYAN_CONFIG(.widening = -1),
                  all_narrow = BANYAN_CONFIG(.widening = -1, .widening_opponent = 0.01);
    if (test_widening_nodes(&all_narrow) >= test_widening_nodes(&all))
        T_FAIL_AT("a narrow opponent's widening did not narrow the search");
}

/* A dump takes its scratch through the engine's allocation hook and gives
 * it back before it returns; when the hook fails, the dump returns
 * BANYAN_ENOMEM and the engine goes on. */
void test_engine_dump_alloc(void)
{
    test_allocs a = {0, 0, 0}; /* fail_at 0: no allocation fails. */
    banyan_config cfg =
        BANYAN_CONFIG(.memory = 1 << 20, .alloc = test_failing_alloc, .alloc_ud = &a);
    banyan_engine *e = test_engine(&banyan_game_tictactoe, NULL, &cfg);
    static test_buf b;
    banyan_report r = BANYAN_REPORT();
    if (!e)
        return;
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 500), &r), BANYAN_OK);
    int count = a.count, live = a.live;
    b.len = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 2, 0, test_write, &b), 0);
    T_TRUE(a.count > count); /* Through the hook... */
    T_EQ(a.live, live);      /* ...and back. */
    T_TRUE(test_count(b.data, "\"move\"") > 10);
    for (int k = 1, made = a.count - count; k <= made; k++) {
        a.fail_at = a.count + k;
        T_EQ(banyan_engine_dump(e, BANYAN_DUMP_DOT, 0, 0, test_write, &b), BANYAN_ENOMEM);
        T_EQ(a.live, live);
    }
    a.fail_at = 0;
    test_still_usable(e);
    banyan_engine_free(e);
    T_EQ(a.live, 0);
}

void test_engine_final_rules(void)
{
    static const banyan_final rules[] = {BANYAN_FINAL_VISITS, BANYAN_FINAL_VALUE, BANYAN_FINAL_LCB};
    static const banyan_select selects[] = {BANYAN_SELECT_UCT, BANYAN_SELECT_PUCT};
    for (size_t s = 0; s < 2; s++)
        for (size_t i = 0; i < 3; i++) {
            banyan_config cfg = BANYAN_CONFIG(.final = rules[i], .select = selects[s]);
            banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
            banyan_limits lim = BANYAN_LIMITS(.playouts = 30000);
            banyan_report r = BANYAN_REPORT();
            /* O must block g; every rule under every formula finds it, and
             * proven losses are sorted last. */
            T_EQ(banyan_engine_load(e, "43516"), BANYAN_OK);
            banyan_engine_search(e, &lim, &r);
            T_TRUE(test_best_in(e, r.best, "g"));
            for (int k = 1; k < r.n_moves; k++)
                T_TRUE(r.moves[k - 1].proof != BANYAN_PROVEN_LOSS ||
                       r.moves[k].proof == BANYAN_PROVEN_LOSS);
            /* From the start, a sensible central move. */
            banyan_engine_setup(e, C4_SEARCHED);
            banyan_engine_search(e, &lim, &r);
            T_TRUE(test_best_in(e, r.best, "cde"));
            banyan_engine_free(e);
        }
}

/* The lower confidence bound ranks only the children with a tenth of the
 * most visited one's visits: in these Gomoku searches (PUCT, rollouts at
 * the leaves), a child of low prior seen once or twice, its rollouts all
 * won, had a bound of 1 under the normal approximation (no variance seen)
 * and would otherwise have been played.
 * Each child with fewer visits comes after every one with enough, and
 * those with enough come in the order of their bounds. */
void test_engine_final_lcb_floor(void)
{
    static const struct {
        const char *moves;
        uint64_t playouts;
    } cases[] = {
        {"h8", 100}, {"h8 i9", 50}, {"h8 i9 g7", 50}, {"h8 i9 g7", 400}, {"h8 i8 g8", 200}};
    banyan_config cfg = BANYAN_CONFIG(.final = BANYAN_FINAL_LCB, .select = BANYAN_SELECT_PUCT,
                                      .leaf = BANYAN_LEAF_ROLLOUT);
    banyan_engine *e = test_engine(&banyan_game_gomoku, NULL, &cfg);
    for (size_t p = 0; p < sizeof cases / sizeof *cases; p++) {
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_load(e, cases[p].moves), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = cases[p].playouts), &r), BANYAN_OK);
        uint32_t most = 0;
        for (int k = 0; k < r.n_moves; k++)
            if (!r.moves[k].proof && r.moves[k].visits > most)
                most = r.moves[k].visits;
        double last = 2;
        bool few = false;
        for (int k = 0; k < r.n_moves && !r.moves[k].proof && r.moves[k].visits; k++) {
            const banyan_move_stats *m = &r.moves[k];
            double v = m->value, n = m->visits; /* Wilson's bound at two sigma. */
            double lcb = (v + 2 / n - 2 * sqrt(v * (1 - v) / n + 1 / (n * n))) / (1 + 4 / n);
            if (m->visits < most / 10)
                few = true;
            else {
                T_TRUE(!few && lcb <= last + 1e-12);
                last = lcb;
            }
        }
    }
    banyan_engine_free(e);
}

/* Visits of the root's children in r, summed. */
static uint64_t test_children_visits(const banyan_report *r)
{
    uint64_t sum = 0;
    for (int i = 0; i < r->n_moves; i++)
        sum += r->moves[i].visits;
    return sum;
}

/* The solver proves Connect Four's win in one (445566: c or g) on e. */
static void test_proves_win_in_one(banyan_engine *e, const banyan_limits *lim)
{
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_load(e, "445566"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, lim, &r), BANYAN_OK);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    T_TRUE(test_best_in(e, r.best, "cg"));
}

/* Tree parallelism: several threads share one tree. The playout budget is
 * exact, the statistics add up (every simulation passes through a root
 * child, except those that found the root's expansion claimed by another
 * thread and rolled out from the root itself), and the answer is sensible. */
void test_engine_threads(void)
{
    for (int threads = 2; threads <= 4; threads += 2) {
        banyan_config cfg = BANYAN_CONFIG(.threads = threads, .memory = 8 << 20);
        banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
        banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(r.playouts, 20000);
        uint64_t sum = test_children_visits(&r);
        if (!(sum >= 19800 && sum <= 20000))
            fprintf(stderr, "threads %d: children visits %llu\n", threads, (unsigned long long)sum);
        T_TRUE(sum >= 19800 && sum <= 20000);
        T_TRUE(test_best_in(e, r.best, "cde"));
        /* The solver still proves a win in one with threads. */
        test_proves_win_in_one(e, &lim);
        banyan_engine_free(e);
    }
}

/* Root parallelism: a tree per thread. The budget is split evenly, so a
 * playout limit gives the same search every time; the report sums the
 * trees (its nodes and capacity too); the solver proves wins through any
 * tree; reuse and recycling work on each tree; and a tree share too small
 * for a root is refused (test_engine_bad_config). */
void test_engine_threads_root(void)
{
    for (int threads = 2; threads <= 3; threads++) {
        banyan_config cfg =
            BANYAN_CONFIG(.threads = threads, .memory = 3 << 20, .parallel = BANYAN_PARALLEL_ROOT);
        banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
        banyan_limits lim = BANYAN_LIMITS(.playouts = 20001);
        banyan_report r = BANYAN_REPORT();
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(r.playouts, 20001);
        /* No thread finds the root claimed: its tree is its own. */
        T_EQ(test_children_visits(&r), 20001);
        /* The arena: 3 MiB and the smallest one, 32 KiB, a tree (t_memory). */
        unsigned arena = (3u << 20) + (32u << 10) * (unsigned)threads;
        T_TRUE(r.node_capacity <= arena / banyan_node_size() &&
               r.node_capacity >= arena / banyan_node_size() - 4 * (unsigned)threads - 4);
        T_TRUE(test_best_in(e, r.best, "cde"));
        banyan_move best = r.best;
        uint32_t visits = r.moves[0].visits;
        /* The same search by a second engine: the same statistics. */
        banyan_engine *twin = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
        T_EQ(banyan_engine_search(twin, &lim, &r), BANYAN_OK);
        T_EQ(r.best, best);
        T_EQ(r.moves[0].visits, visits);
        banyan_engine_free(twin);
        /* Each tree keeps its subtree of the move played. */
        T_EQ(banyan_engine_play(e, best), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 100), &r), BANYAN_OK);
        T_TRUE(r.start_nodes > 1000);
        test_proves_win_in_one(e, &lim);
        banyan_engine_free(e);
    }
    /* A small arena: each tree fills and recycles on its own. */
    banyan_config small =
        BANYAN_CONFIG(.threads = 2, .memory = 128 << 10, .parallel = BANYAN_PARALLEL_ROOT);
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, &small);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 50000), &r), BANYAN_OK);
    T_EQ(r.playouts, 50000);
    T_TRUE(r.recycles >= 2);
    T_TRUE(test_best_in(e, r.best, "cde"));
    banyan_engine_free(e);
}

/* A growing buffer for whole-tree dumps. */
typedef struct test_dump {
    char *data;
    size_t len, cap;
} test_dump;

static int test_dump_write(void *ud, const char *data, size_t len)
{
    test_dump *d = ud;
    if (d->len + len + 1 > d->cap) {
        size_t cap = (d->len + len + 1) * 2;
        char *p = realloc(d->data, cap);
        if (!p)
            return 1;
        d->data = p;
        d->cap = cap;
    }
    memcpy(d->data + d->len, data, len);
    d->len += len;
    d->data[d->len] = 0;
    return 0;
}

/* The JSON object that starts at p, up to its matching brace. */
static size_t test_json_object(const char *p)
{
    int depth = 0;
    for (size_t i = 0;; i++) {
        if (p[i] == '{')
            depth++;
        else if (p[i] == '}' && --depth == 0)
            return i + 1;
        else if (!p[i])
            return 0;
    }
}

/* Tree reuse: after a move, the tree is exactly the old subtree under that
 * move (compared through whole-tree dumps), compacted; searching goes on
 * from it; and an unknown or unexpanded move falls back to a fresh tree. */
void test_engine_reuse(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 5, .memory = 16 << 20);
    banyan_engine *e = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
    banyan_report r = BANYAN_REPORT();
    test_dump before = {0}, after = {0};
    banyan_move d;
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 0, 0, test_dump_write, &before), 0);
    T_EQ(banyan_engine_parse_move(e, "d", &d), BANYAN_OK);
    uint64_t total = r.nodes;

    /* The root's child d in the old dump: walk the root's children array. */
    char *sub = before.data ? strstr(before.data, ",\"children\":[") : NULL;
    if (sub)
        for (sub += strlen(",\"children\":["); *sub == '{'; sub += test_json_object(sub) + 1)
            if (!strncmp(sub, "{\"move\":\"d\",", 12))
                break;
    T_TRUE(sub && !strncmp(sub, "{\"move\":\"d\",", 12));
    T_EQ(banyan_engine_play(e, d), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_TRUE(r.nodes > 1000 && r.nodes < total); /* Part kept, the rest reclaimed. */
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 0, 0, test_dump_write, &after), 0);
    if (sub && after.data) {
        /* The root's own fields differ (its move and prior); its children
         * must be the old ones, byte for byte, all the way down. */
        size_t n = test_json_object(sub), m = test_json_object(after.data);
        const char *a = strstr(sub, ",\"children\":["), *b = strstr(after.data, ",\"children\":[");
        T_TRUE(n > 0 && m > 0 && a && b);
        if (n > 0 && m > 0 && a && b) {
            size_t la = n - (size_t)(a - sub), lb = m - (size_t)(b - after.data);
            T_EQ(la, lb);
            T_TRUE(la == lb && memcmp(a, b, la) == 0);
            T_TRUE(la > 1000);
        }
    }
    /* The search goes on from the kept tree, and says how much it kept. */
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.start_nodes > 1000);
    T_TRUE(test_is_legal(e, r.best));

    /* A move the tree never expanded: a fresh tree. */
    banyan_engine_setup(e, C4_SEARCHED);
    banyan_limits one = BANYAN_LIMITS(.playouts = 1);
    T_EQ(banyan_engine_search(e, &one, &r), BANYAN_OK);
    T_EQ(banyan_engine_play(e, d), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.start_nodes <= 1);
    free(before.data);
    free(after.data);
    banyan_engine_free(e);
}

/* A kept tree whose new root was proven by the game's prover when it was
 * expanded (so it has no children): the search must still play the win,
 * not stop at once and play the first legal move. In this Gomoku opening,
 * White to move, d8 lets Black win by fours from d12: the prover proves d8
 * when the search expands it (plain UCT and rollouts over every legal
 * move, so that each is tried twice), and d8 is then played into the kept
 * tree. */
void test_engine_reuse_proven_root(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 1, .memory = 16 << 20, .select = BANYAN_SELECT_UCT,
                                      .leaf = BANYAN_LEAF_ROLLOUT);
    banyan_game g = banyan_game_gomoku; /* Every legal move a child: none dropped as lost. */
    banyan_tactics tactics = *g.tactics;
    tactics.candidates = NULL;
    tactics.candidates_deep = NULL;
    tactics.expand = NULL; /* It stands for candidates() too. */
    g.tactics = &tactics;
    banyan_engine *e = test_engine(&g, NULL, &cfg);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report r = BANYAN_REPORT();
    banyan_move m;
    T_EQ(banyan_engine_load(e, "b12 c10 b9 b10 e12 e7 c12"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(banyan_engine_parse_move(e, "d8", &m), BANYAN_OK);
    bool proven = false;
    for (int i = 0; i < r.n_moves; i++)
        proven |= r.moves[i].move == m && r.moves[i].proof == BANYAN_PROVEN_LOSS;
    T_TRUE(proven);
    T_EQ(banyan_engine_play(e, m), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.start_nodes >= 1);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    T_EQ(banyan_engine_parse_move(e, "d12", &m), BANYAN_OK);
    T_EQ(r.best, m);
    banyan_engine_free(e);
}

/* A whole game, each side searching and playing in turn on one engine, in
 * a tiny arena: reuse keeps it going move after move, the tree never holds
 * more than the arena, and the game ends normally. With fresh_tree the
 * same game is played without reuse. */
void test_engine_reuse_long_game(void)
{
    for (int fresh = 0; fresh <= 1; fresh++) {
        banyan_config cfg = BANYAN_CONFIG(.seed = 9, .memory = 64 << 10, .fresh_tree = fresh != 0);
        banyan_engine *e = test_engine(&banyan_game_gomoku, "size=9", &cfg);
        banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
        banyan_report r = BANYAN_REPORT();
        int plies = 0, kept = 0;
        double ret[2];
        while (!banyan_game_gomoku.outcome(banyan_engine_state(e), ret) && plies < 81) {
            T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
            T_TRUE(r.nodes <= r.node_capacity);
            kept += r.start_nodes > 1;
            T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
            plies++;
        }
        T_TRUE(banyan_game_gomoku.outcome(banyan_engine_state(e), ret));
        T_TRUE(fresh ? kept == 0 : kept > plies / 2);
        banyan_engine_free(e);
    }
}

/* The deep provers' memory (mem_size): every call gets a block, each
 * block is zeroed when first seen, each search thread has its own, and the
 * same blocks come back in the next search. deep_probe wraps Gomoku's VCT,
 * expand_probe its expansions, and deep_see records the blocks they are
 * given. */
#define DEEP_SLOTS 4
static _Atomic uintptr_t deep_seen[DEEP_SLOTS];
static atomic_int deep_bad, deep_calls;

static void deep_see(void *mem)
{
    uintptr_t p = (uintptr_t)mem;
    int i = 0;
    for (; mem && i < DEEP_SLOTS; i++) {
        uintptr_t cur = 0;
        if (atomic_compare_exchange_strong(&deep_seen[i], &cur, p)) {
            const unsigned char *b = mem; /* First seen: must be zeroed. */
            for (size_t k = 0;
                 k < (banyan_game_gomoku.tactics ? banyan_game_gomoku.tactics->mem_size : 0); k++)
                if (b[k]) {
                    atomic_store(&deep_bad, 1);
                    break;
                }
            break;
        }
        if (cur == p)
            break;
    }
    if (!mem || i == DEEP_SLOTS)
        atomic_store(&deep_bad, 1);
}

static bool deep_probe(const void *s, uint32_t effort, double seconds, void *mem, banyan_move *out)
{
    atomic_fetch_add(&deep_calls, 1);
    deep_see(mem);
    return banyan_game_gomoku.tactics->prove_win_deep(s, effort, seconds, mem, out);
}

static int expand_probe(const void *s, void *mem, banyan_move *win, banyan_move *out)
{
    deep_see(mem);
    return banyan_game_gomoku.tactics->expand(s, mem, win, out);
}

void test_engine_deep_memory(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 3, .memory = 16 << 20, .threads = 2);
    banyan_game g = banyan_game_gomoku;
    banyan_tactics tactics = *g.tactics;
    tactics.prove_win_deep = deep_probe;
    tactics.expand = expand_probe;
    g.tactics = &tactics;
    T_TRUE(g.tactics->mem_size > 0);
    banyan_engine *e = test_engine(&g, NULL, &cfg);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 4000);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_load(e, "h8 i9 h10 h9 g9 j9"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    int used = 0;
    for (int i = 0; i < DEEP_SLOTS; i++)
        used += atomic_load(&deep_seen[i]) != 0;
    T_TRUE(atomic_load(&deep_calls) >= 2); /* The roots, at least. */
    T_EQ(atomic_load(&deep_bad), 0);
    T_TRUE(used >= 1 && used <= 2); /* One block per thread, kept across searches. */
    banyan_engine_free(e);
}

/* A principal variation ends where visits become too few to mean
 * anything: a root move seen twice has one child seen once, picked by a
 * tie among untried moves, which the line leaves out. */
void test_engine_pv_cut(void)
{
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_limits lim = BANYAN_LIMITS(.playouts = 60);
    int twice = 0;
    T_EQ(banyan_engine_new(&banyan_game_tictactoe, "m=5 n=5 k=4", NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    for (int i = 0; i < r.n_moves; i++) {
        T_TRUE(r.moves[i].pv_len >= 1 && r.moves[i].pv[0] == r.moves[i].move);
        if (r.moves[i].visits == 2) {
            twice++;
            T_EQ(r.moves[i].pv_len, 1);
        }
    }
    T_TRUE(twice > 0);
    banyan_engine_free(e);
}

/* A timed search that may stop early, from a kept tree whose leader looks
 * far ahead: it still simulates (the rate of simulations is measured from
 * the first one, and the root's provers before it do not count). Once it
 * stopped before its first simulation, so that a Gomocup brain answered
 * every move after its first from the kept tree alone. */
void test_engine_stop_early_kept_tree(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 1, .memory = 64 << 20);
    banyan_engine *e = test_engine(&banyan_game_gomoku, NULL, &cfg);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_load(e, "h8 i9 h10 g9 j9"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    /* Timed (the rule then weighs the rate of simulations), with a clock
     * that no build runs out of before its first simulation, however slow
     * its provers: the playouts end it. */
    banyan_limits timed = BANYAN_LIMITS(.time = 30, .playouts = 3000, .stop_early = true);
    T_EQ(banyan_engine_search(e, &timed, &r), BANYAN_OK);
    T_TRUE(r.start_nodes > 1000); /* The kept tree. */
    T_TRUE(r.playouts > 0);       /* Stopping at once was the fault. */
    banyan_engine_free(e);
}

/* Transpositions: only for two-player games with a hash; a table out of
 * the memory (fewer nodes); leaves taken from it in Connect Four, where
 * orders of moves meet, and none without it; one thread and a seed
 * reproduce the search; a new game clears the table (the same search
 * again); playing on keeps it. */
void test_engine_transpositions(void)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 5, .transpositions = true, .memory = 8u << 20);
    banyan_config off = BANYAN_CONFIG(.seed = 5, .memory = 8u << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 20000);
    banyan_report r1 = BANYAN_REPORT(), r2 = BANYAN_REPORT(), r3 = BANYAN_REPORT();
    banyan_game nohash = banyan_game_connect4;
    nohash.hash = NULL;
    banyan_config any = cfg, any_off = off; /* Memory aside (test_engine adds the least). */
    any.memory = any_off.memory = 0;
    T_TRUE(banyan_config_check(&nohash, &any) != NULL);
    T_TRUE(banyan_config_check(&nohash, &any_off) == NULL);
    T_TRUE(banyan_config_check(&banyan_game_connect4, &any) == NULL);

    banyan_engine *a = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    banyan_engine *b = test_engine(&banyan_game_connect4, C4_SEARCHED, &cfg);
    banyan_engine *c = test_engine(&banyan_game_connect4, C4_SEARCHED, &off);
    T_EQ(banyan_engine_search(a, &lim, &r1), BANYAN_OK);
    T_EQ(banyan_engine_search(b, &lim, &r2), BANYAN_OK);
    T_EQ(banyan_engine_search(c, &lim, &r3), BANYAN_OK);
    T_TRUE(r1.node_capacity < r3.node_capacity);
    T_TRUE(r1.node_capacity >= r3.node_capacity / 8 * 6);
    T_TRUE(r1.transposed > lim.playouts / 10);
    T_EQ(r3.transposed, 0);
    T_EQ(r1.transposed, r2.transposed);
    T_EQ(r1.nodes, r2.nodes);
    T_EQ(r1.n_moves, r2.n_moves);
    for (int i = 0; i < r1.n_moves && i < r2.n_moves; i++) {
        T_EQ(r1.moves[i].move, r2.moves[i].move);
        T_EQ(r1.moves[i].visits, r2.moves[i].visits);
        T_TRUE(r1.moves[i].value == r2.moves[i].value);
    }
    /* A new game empties the table: after it, a short search of the
     * reply meets far fewer stored positions than one that kept the
     * table (its tree cleared by fresh_tree). */
    banyan_config fresh = cfg;
    fresh.fresh_tree = true;
    banyan_engine *d = test_engine(&banyan_game_connect4, C4_SEARCHED, &fresh);
    banyan_limits few = BANYAN_LIMITS(.playouts = 300);
    T_EQ(banyan_engine_search(d, &lim, &r2), BANYAN_OK);
    T_EQ(banyan_engine_play(d, 3), BANYAN_OK);
    T_EQ(banyan_engine_search(d, &few, &r2), BANYAN_OK);
    T_EQ(banyan_engine_setup(b, C4_SEARCHED), BANYAN_OK);
    T_EQ(banyan_engine_play(b, 3), BANYAN_OK);
    T_EQ(banyan_engine_search(b, &few, &r3), BANYAN_OK);
    T_TRUE(r2.transposed > 2 * r3.transposed + 20);
    banyan_engine_free(d);
    /* Playing on keeps the table: a search of the reply meets positions
     * the first one stored. */
    T_EQ(banyan_engine_play(a, r1.best), BANYAN_OK);
    T_EQ(banyan_engine_search(a, &lim, &r1), BANYAN_OK);
    T_TRUE(r1.transposed > 0);
    T_TRUE(banyan_game_is_legal(&banyan_game_connect4, banyan_engine_state(a), r1.best));
    banyan_engine_free(a);
    banyan_engine_free(b);
    banyan_engine_free(c);
}

/* ---- RAVE and ownership, on an m,n,k-game given the two hooks ---- */

/* Uniform playouts that tell their moves (banyan_game.playout). */
static int test_playout(void *s, banyan_rng *rng, banyan_move *out, int max)
{
    const banyan_game *g = &banyan_game_tictactoe;
    banyan_move moves[BANYAN_MAX_MOVES];
    int n, k = 0;
    while ((n = g->moves(s, moves)) > 0) {
        banyan_move m = moves[banyan_rng_below(rng, (uint32_t)n)];
        if (k < max)
            out[k++] = m;
        g->play(s, m);
    }
    return k;
}

/* A cell belongs to whoever has a piece on it. */
static int test_owner(const void *s, int x, int y)
{
    return banyan_game_tictactoe.board->piece(s, x, y);
}

static banyan_game test_rave_game(void)
{
    static banyan_board board; /* The game's board, with owner(). */
    banyan_game g = banyan_game_tictactoe;
    board = *g.board;
    board.owner = test_owner;
    g.playout = test_playout;
    g.board = &board;
    return g;
}

void test_engine_rave(void)
{
    banyan_game g = test_rave_game();
    banyan_config on = BANYAN_CONFIG(.seed = 3, .memory = 4u << 20),
                  off = BANYAN_CONFIG(.seed = 3, .memory = 4u << 20, .rave = -1);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report r1 = BANYAN_REPORT(), r2 = BANYAN_REPORT(), r3 = BANYAN_REPORT();
    /* 5x5, four in a row: X to move wins with d1 (a1 b1 c1 d1). */
    const char *pos = "a1 a2 b1 b2 c1 c2";
    banyan_engine *a = test_engine(&g, "m=5 n=5 k=4", &on);
    banyan_engine *b = test_engine(&g, "m=5 n=5 k=4", &on);
    banyan_engine *c = test_engine(&g, "m=5 n=5 k=4", &off);
    T_EQ(banyan_engine_load(a, pos), BANYAN_OK);
    T_EQ(banyan_engine_load(b, pos), BANYAN_OK);
    T_EQ(banyan_engine_load(c, pos), BANYAN_OK);
    T_EQ(banyan_engine_search(a, &lim, &r1), BANYAN_OK);
    T_EQ(banyan_engine_search(b, &lim, &r2), BANYAN_OK);
    T_EQ(banyan_engine_search(c, &lim, &r3), BANYAN_OK);
    banyan_move win;
    T_EQ(banyan_engine_parse_move(a, "d1", &win), BANYAN_OK);
    T_EQ(r1.best, win);
    T_EQ(r3.best, win);
    /* The AMAF statistics take a third of the memory. */
    T_TRUE(r1.node_capacity < r3.node_capacity * 3 / 4);
    /* One thread and a seed reproduce a RAVE search. */
    T_EQ(r1.nodes, r2.nodes);
    for (int i = 0; i < r1.n_moves && i < r2.n_moves; i++) {
        T_EQ(r1.moves[i].move, r2.moves[i].move);
        T_EQ(r1.moves[i].visits, r2.moves[i].visits);
    }
    T_EQ(banyan_engine_play(a, win), BANYAN_OK); /* The game is over. */
    T_EQ(banyan_engine_search(a, &lim, &r1), BANYAN_OK);
    T_EQ(r1.best, BANYAN_MOVE_NONE);
    /* A tree kept across a move, its AMAF statistics moved with its nodes
     * (debug builds check the tree after every search). */
    banyan_engine *d = test_engine(&g, "m=6 n=6 k=4", &on);
    T_EQ(banyan_engine_load(d, "c3 d4"), BANYAN_OK);
    T_EQ(banyan_engine_search(d, &lim, &r1), BANYAN_OK);
    /* RAVE steers the search: the visits spread otherwise than without. */
    banyan_engine *f = test_engine(&g, "m=6 n=6 k=4", &off);
    T_EQ(banyan_engine_load(f, "c3 d4"), BANYAN_OK);
    T_EQ(banyan_engine_search(f, &lim, &r3), BANYAN_OK);
    bool differ = r1.nodes != r3.nodes;
    for (int i = 0; i < r1.n_moves && i < r3.n_moves; i++)
        differ = differ || r1.moves[i].move != r3.moves[i].move ||
                 r1.moves[i].visits != r3.moves[i].visits;
    T_TRUE(differ);
    banyan_engine_free(f);
    T_EQ(banyan_engine_play(d, r1.best), BANYAN_OK);
    T_EQ(banyan_engine_search(d, &lim, &r2), BANYAN_OK);
    T_TRUE(r2.start_nodes > 1);
    T_TRUE(r2.best != BANYAN_MOVE_NONE);
    banyan_config bad = BANYAN_CONFIG(.rave = NAN);
    T_TRUE(banyan_config_check(&g, &bad) != NULL);
    banyan_engine_free(a);
    banyan_engine_free(b);
    banyan_engine_free(c);
    banyan_engine_free(d);
}

void test_engine_ownership(void)
{
    banyan_game g = test_rave_game();
    banyan_config cfg = BANYAN_CONFIG(.seed = 3, .memory = 4u << 20, .ownership = true);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
    banyan_report r = BANYAN_REPORT();
    banyan_game plain = banyan_game_tictactoe;
    T_TRUE(banyan_config_check(&plain, &cfg) != NULL); /* No owner(). */
    banyan_engine *e = test_engine(&g, "m=4 n=3 k=3", &cfg);
    T_EQ(banyan_engine_load(e, "a1 d3"), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_TRUE(r.ownership == NULL); /* Nothing searched yet. */
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.ownership != NULL);
    T_EQ(r.owner_width, 4);
    T_EQ(r.owner_height, 3);
    for (int i = 0; r.ownership && i < 12; i++)
        T_TRUE(r.ownership[i] >= -1.0f && r.ownership[i] <= 1.0f);
    /* a1 (bottom left: x 0, y 2) stays X's, d3 (top right) O's, in every
     * finished game; an empty cell is filled by either. */
    if (r.ownership) {
        T_TRUE(r.ownership[2 * 4 + 0] == 1.0f);
        T_TRUE(r.ownership[0 * 4 + 3] == -1.0f);
        T_TRUE(r.ownership[1 * 4 + 1] > -1.0f && r.ownership[1 * 4 + 1] < 1.0f);
    }
    /* A move makes the old root's ownership stale: none until a search. */
    T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_TRUE(r.ownership == NULL);
    banyan_engine_free(e);
}

/* An analysis (limits.analyse) values every move of a root the game proves
 * at once: Connect Four's book proves d on the empty board, and the other
 * six moves are searched to the budget, d staying the best and the root
 * staying proven. Without analyse the proof ends the search. */
void test_engine_analyse_proven_root(void)
{
    banyan_engine *e = test_engine(&banyan_game_connect4, NULL, NULL);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report r = BANYAN_REPORT();
    banyan_move d;
    T_EQ(banyan_engine_parse_move(e, "d", &d), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.playouts, 0);
    T_EQ(r.best, d);
    lim.analyse = true;
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.playouts, 3000);
    T_EQ(r.best, d);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    T_EQ(r.n_moves, 7);
    for (int i = 0; i < r.n_moves; i++) {
        if (r.moves[i].move == d)
            T_EQ(r.moves[i].proof, BANYAN_PROVEN_WIN);
        else
            T_TRUE(r.moves[i].visits > 100);
    }
    /* The kept tree, searched again for play, still plays the proof. */
    lim.analyse = false;
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.best, d);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    banyan_engine_free(e);
}

/* A kept subtree whose root a proof from above calls lost (the book proved
 * the first player's move, d after d d) holds no proof of each reply: the
 * next search must search them (here after a search of the opponent's turn,
 * as pondering leaves it), not stop at once on the proof. */
void test_engine_reuse_lost_root_searched(void)
{
    banyan_engine *e = test_engine(&banyan_game_connect4, NULL, NULL);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
    banyan_report r = BANYAN_REPORT();
    banyan_move m;
    T_EQ(banyan_engine_load(e, "4"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK); /* Second player's reply: searched. */
    T_EQ(banyan_engine_parse_move(e, "d", &m), BANYAN_OK);
    T_EQ(banyan_engine_play(e, m), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK); /* The book's turn: proven at once. */
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.playouts, 2000);
    banyan_engine_free(e);
}
