/*
 * test_domains.c - domains other than two-player games, defined here through
 * the public game interface: a one-player puzzle with negative rewards (the
 * search maps them onto [0, 1]) and a three-player game in which each player
 * must maximise its own return, which only a correct per-player backup does.
 * Both tables have only what the search needs: no notation, no description.
 */
#include <string.h>

#include "banyan.h"
#include "t.h"

/* Shared plumbing: a state of up to three binary choices. */
typedef struct dom {
    uint8_t depth;      /* Choices made. */
    uint8_t choices[3]; /* 0 or 1 each. */
} dom;

static int dom_setup(void *s, const char *params)
{
    if (params && *params)
        return BANYAN_EINVAL;
    memset(s, 0, sizeof(dom));
    return BANYAN_OK;
}

static void dom_play(void *s, banyan_move m)
{
    dom *d = s;
    d->choices[d->depth++] = (uint8_t)m;
}

/* One player, three choices. The reward is -5 for most sequences, but 1 1 x
 * gives 2 and 0 1 1 gives 10: the first choice that looks better on average
 * (1) is wrong. */
static int puzzle_moves(const void *s, banyan_move *out)
{
    if (((const dom *)s)->depth == 3)
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static bool puzzle_outcome(const void *s, double *returns)
{
    const dom *d = s;
    if (d->depth < 3)
        return false;
    int code = d->choices[0] * 4 + d->choices[1] * 2 + d->choices[2];
    static const double reward[8] = {-5, -5, -5, 10, 2, 2, 2, 2};
    returns[0] = reward[code];
    return true;
}

static int puzzle_to_move(const void *s)
{
    (void)s;
    return 0;
}

static const banyan_game puzzle = {
    BANYAN_GAME_INIT, .name = "puzzle",          .state_size = sizeof(dom), .n_players = 1,
    .reward_min = -5, .reward_max = 10,          .setup = dom_setup,        .moves = puzzle_moves,
    .play = dom_play, .outcome = puzzle_outcome, .to_move = puzzle_to_move,
};

void test_domain_single_player(void)
{
    banyan_engine *e;
    banyan_config cfg = BANYAN_CONFIG(.seed = 3, .c = 0.5);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_new(&puzzle, NULL, &cfg, &e), BANYAN_OK);
    for (int i = 0; i < 3; i++) {
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(r.best, i == 0 ? 0 : 1);
        for (int k = 0; k < r.n_moves; k++)
            T_TRUE(r.moves[k].value >= 0 && r.moves[k].value <= 1);
        T_EQ(r.proof, BANYAN_UNPROVEN); /* No proofs outside two-player games. */
        T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    }
    double ret[1] = {0};
    T_TRUE(puzzle.outcome(banyan_engine_state(e), ret));
    T_NEAR(ret[0], 10, 0);
    /* The best path's mean is the normalised maximum reward: (10+5)/15. */
    banyan_engine_free(e);
}

/* A single-player game longer than a tree grows in a few hundred
 * playouts: twelve binary choices, scored by the length of the prefix that
 * matches a hidden pattern, times ten, and 200 for the whole pattern. Its
 * rollouts are uniform (no rollout()), which the engine records, so it
 * keeps the best whole game found. */
typedef struct needle {
    uint8_t depth;
    uint8_t choices[12];
} needle;

static const uint8_t needle_pattern[12] = {1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0};

static int needle_setup(void *s, const char *params)
{
    if (params && *params)
        return BANYAN_EINVAL;
    memset(s, 0, sizeof(needle));
    return BANYAN_OK;
}

static int needle_moves(const void *s, banyan_move *out)
{
    if (((const needle *)s)->depth == 12)
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static void needle_play(void *s, banyan_move m)
{
    needle *d = s;
    d->choices[d->depth++] = (uint8_t)m;
}

static bool needle_outcome(const void *s, double *returns)
{
    const needle *d = s;
    int k = 0;
    if (d->depth < 12)
        return false;
    while (k < 12 && d->choices[k] == needle_pattern[k])
        k++;
    returns[0] = k == 12 ? 200 : 10 * k;
    return true;
}

static const banyan_game needle_game = {
    BANYAN_GAME_INIT,
    .name = "needle",
    .state_size = sizeof(needle),
    .n_players = 1,
    .reward_min = 0,
    .reward_max = 200,
    .setup = needle_setup,
    .moves = needle_moves,
    .play = needle_play,
    .outcome = needle_outcome,
    .to_move = puzzle_to_move,
};

/* The return of line from the start, or -1 when a move is illegal or the
 * game is not over at its end. */
static double needle_replay(const banyan_move *line, int n)
{
    needle d;
    double ret[1];
    needle_setup(&d, NULL);
    for (int i = 0; i < n; i++) {
        if (d.depth == 12 || line[i] > 1)
            return -1;
        needle_play(&d, line[i]);
    }
    return needle_outcome(&d, ret) ? ret[0] : -1;
}

static void needle_rollout(void *s, banyan_rng *rng)
{
    while (((needle *)s)->depth < 12)
        needle_play(s, banyan_rng_below(rng, 2));
}

/* The best line: a whole game whose return is the one reported, at least
 * as good as any move's mean; the same from the same seed; kept along its
 * moves and dropped by another; merged over threads; absent where the
 * rollouts cannot be recorded and in two-player games. */
void test_domain_best_line(void)
{
    banyan_engine *e;
    banyan_config cfg = BANYAN_CONFIG(.seed = 5);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report r = BANYAN_REPORT();
    banyan_move first[12];
    T_EQ(banyan_engine_new(&needle_game, NULL, &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_EQ(r.line_len, 0);
    T_TRUE(r.line == NULL);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.line_len, 12);
    T_NEAR(needle_replay(r.line, r.line_len), r.line_return, 0);
    T_TRUE(r.line_return >= 60); /* 3,000 tries at a 1-in-64 prefix of six. */
    for (int i = 0; i < r.n_moves; i++)
        T_TRUE(r.moves[i].value <= r.line_return / 200 + 1e-9);
    memcpy(first, r.line, sizeof first);
    double best = r.line_return;

    /* Another search of the same root keeps the line unless it finds better. */
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_TRUE(r.line_return >= best);
    T_NEAR(needle_replay(r.line, r.line_len), r.line_return, 0);
    memcpy(first, r.line, sizeof first);
    best = r.line_return;

    /* Played along, the rest of the line stays; another move drops it. */
    T_EQ(banyan_engine_play(e, first[0]), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_EQ(r.line_len, 11);
    T_TRUE(r.line_len == 11 && !memcmp(r.line, first + 1, 11 * sizeof *first));
    T_NEAR(r.line_return, best, 0);
    T_EQ(banyan_engine_play(e, 1 - first[1]), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_EQ(r.line_len, 0);
    T_EQ(banyan_engine_setup(e, NULL), BANYAN_OK);
    T_EQ(banyan_engine_report(e, &r), BANYAN_OK);
    T_EQ(r.line_len, 0);

    /* One thread and a seed reproduce the line. */
    banyan_engine *e2;
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    memcpy(first, r.line, sizeof first);
    T_EQ(banyan_engine_new(&needle_game, NULL, &cfg, &e2), BANYAN_OK);
    T_EQ(banyan_engine_search(e2, &lim, &r), BANYAN_OK);
    T_TRUE(r.line_len == 12 && !memcmp(r.line, first, sizeof first));
    banyan_engine_free(e2);
    banyan_engine_free(e);

    /* Two threads: the better of their lines. */
    cfg.threads = 2;
    T_EQ(banyan_engine_new(&needle_game, NULL, &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.line_len, 12);
    T_NEAR(needle_replay(r.line, r.line_len), r.line_return, 0);
    banyan_engine_free(e);

    /* A rollout the engine cannot record, and a two-player game: no line. */
    banyan_game g = needle_game;
    g.rollout = needle_rollout;
    cfg.threads = 1;
    T_EQ(banyan_engine_new(&g, NULL, &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.line_len, 0);
    banyan_engine_free(e);
    T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 200), &r), BANYAN_OK);
    T_EQ(r.line_len, 0);
    banyan_engine_free(e);
}

/* The single-player aids: a mean mixed with the best return through each
 * child (whose array moves with the nodes when a move keeps a subtree),
 * and exploration scaled by the spread
 * of the returns; each still finds the deceptive puzzle's best plan, and
 * bad values are refused. */
void test_domain_single_player_aids(void)
{
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_config bad = BANYAN_CONFIG(.max_mix = 1.5);
    T_TRUE(banyan_config_check(&needle_game, &bad) != NULL);
    bad = BANYAN_CONFIG(.adaptive = 2);
    T_TRUE(banyan_config_check(&needle_game, &bad) != NULL);
    T_EQ(banyan_engine_new(&needle_game, NULL, &BANYAN_CONFIG(.max_mix = -0.1), &e), BANYAN_EINVAL);
    static const banyan_config aids[] = {
        {.size = sizeof(banyan_config), .seed = 3, .max_mix = 0.5, .memory = 32 << 10},
        {.size = sizeof(banyan_config), .seed = 3, .max_mix = 1, .memory = 32 << 10},
        {.size = sizeof(banyan_config), .seed = 3, .adaptive = 1, .memory = 32 << 10},
        {.size = sizeof(banyan_config),
         .seed = 3,
         .adaptive = 1,
         .max_mix = 0.3,
         .memory = 32 << 10,
         .threads = 2},
    };
    for (size_t k = 0; k < sizeof aids / sizeof aids[0]; k++) {
        banyan_config cfg = aids[k]; /* An arena of 32 KiB. */
        cfg.memory = t_memory(&needle_game, &cfg, cfg.memory);
        T_EQ(banyan_engine_new(&needle_game, NULL, &cfg, &e), BANYAN_OK);
        for (int i = 0; i < 12; i++) {
            T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 4000), &r), BANYAN_OK);
            T_TRUE(r.line_len == 12 - i);
            T_EQ(banyan_engine_play(e, r.line[0]), BANYAN_OK);
        }
        double ret[1] = {0};
        T_TRUE(needle_outcome(banyan_engine_state(e), ret));
        T_TRUE(ret[0] >= 60);
        banyan_engine_free(e);
        /* The puzzle, whose first choice that looks better is wrong: the
         * mix with the best return finds the right one. */
        cfg = aids[k];
        cfg.c = 0.5;
        cfg.memory = t_memory(&puzzle, &cfg, cfg.memory);
        T_EQ(banyan_engine_new(&puzzle, NULL, &cfg, &e), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 2000), &r), BANYAN_OK);
        T_EQ(r.line_len, 3);
        if (k == 0) {
            T_TRUE(r.line_len == 3 && r.line[0] == 0 && r.line[1] == 1 && r.line[2] == 1);
            T_NEAR(r.line_return, 10, 0);
            T_EQ(r.best, 0);
        }
        banyan_engine_free(e);
    }
    /* A two-player game ignores them. */
    T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, &BANYAN_CONFIG(.max_mix = 0.5), &e),
         BANYAN_OK);
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 500), &r), BANYAN_OK);
    banyan_engine_free(e);
}

/* The puzzle with an evaluation: the best reward still reachable (an
 * oracle), and priors that favour choice 1. Calls are counted (tests only:
 * a game keeps no global state). */
static int puzzle_evals, puzzle_prior_calls;

static bool puzzle_evaluate(const void *s, double *returns, const banyan_move *moves, int n,
                            float *priors)
{
    static const double reward[8] = {-5, -5, -5, 10, 2, 2, 2, 2};
    const dom *d = s;
    int lo = 0, span = 8;
    for (int i = 0; i < d->depth; i++) {
        span /= 2;
        lo += d->choices[i] * span;
    }
    for (int i = lo; returns && i < lo + span; i++)
        returns[0] = i == lo || reward[i] > returns[0] ? reward[i] : returns[0];
    if (!priors) {
        puzzle_evals++;
        return false;
    }
    puzzle_prior_calls++;
    for (int i = 0; i < n; i++)
        priors[i] = moves[i] == 1 ? 0.8f : 0.2f;
    return true;
}

/* Leaves by evaluation, by a short rollout and then the evaluation, or by
 * rollouts alone: each as configured, with the evaluation's priors. */
void test_domain_leaf_evaluation(void)
{
    banyan_game g = puzzle;
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_limits lim = BANYAN_LIMITS(.playouts = 200);
    g.evaluate = puzzle_evaluate;
    static const banyan_leaf modes[] = {BANYAN_LEAF_DEFAULT, BANYAN_LEAF_EVAL, BANYAN_LEAF_CUTOFF,
                                        BANYAN_LEAF_ROLLOUT};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        banyan_config cfg = BANYAN_CONFIG(.seed = 3, .c = 0.5, .leaf = modes[i], .cutoff = 1);
        puzzle_evals = puzzle_prior_calls = 0;
        T_EQ(banyan_engine_new(&g, NULL, &cfg, &e), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        if (modes[i] == BANYAN_LEAF_ROLLOUT) {
            T_EQ(puzzle_evals + puzzle_prior_calls, 0);
        } else {
            /* The oracle (or a ply of rollout and then the oracle) finds the
             * hidden 10; its priors order the children. */
            if (r.best != 0)
                T_FAIL_AT("leaf mode %d plays %u", (int)modes[i], (unsigned)r.best);
            T_TRUE(puzzle_evals > 0);
            T_TRUE(puzzle_prior_calls > 0);
            for (int k = 0; k < r.n_moves; k++)
                T_NEAR(r.moves[k].prior, r.moves[k].move == 1 ? 0.8 : 0.2, 0.02);
        }
        banyan_report again = BANYAN_REPORT();
        banyan_engine_free(e);
        T_EQ(banyan_engine_new(&g, NULL, &cfg, &e), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &lim, &again), BANYAN_OK);
        T_EQ(again.best, r.best); /* Reproducible. */
        T_EQ(again.moves[0].visits, r.moves[0].visits);
        banyan_engine_free(e);
    }
}

/* Three players. Player 0 picks A (0) or B (1). After A, player 1 picks
 * between returns {0.2, 0.8, 0} and {0.9, 0.1, 0}; after B, player 2 picks
 * between {0.5, 0, 0.5} and {0, 0, 1}. Each takes what is best for itself,
 * so A gives player 0 0.2 and B gives it 0: A is right. A backup that
 * treated the game as two-player (1 - v) would get player 1's and player
 * 2's choices wrong. */
static int three_moves(const void *s, banyan_move *out)
{
    if (((const dom *)s)->depth == 2)
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static bool three_outcome(const void *s, double *returns)
{
    const dom *d = s;
    static const double table[4][3] = {{0.2, 0.8, 0}, {0.9, 0.1, 0}, {0.5, 0, 0.5}, {0, 0, 1}};
    if (d->depth < 2)
        return false;
    memcpy(returns, table[d->choices[0] * 2 + d->choices[1]], sizeof table[0]);
    return true;
}

static int three_to_move(const void *s)
{
    const dom *d = s;
    return d->depth == 0 ? 0 : d->choices[0] == 0 ? 1 : 2;
}

static const banyan_game three = {
    BANYAN_GAME_INIT, .name = "three",          .state_size = sizeof(dom),
    .n_players = 3,   .setup = dom_setup,       .moves = three_moves,
    .play = dom_play, .outcome = three_outcome, .to_move = three_to_move,
};

void test_domain_three_players(void)
{
    banyan_engine *e;
    banyan_limits lim = BANYAN_LIMITS(.playouts = 4000);
    banyan_report r = BANYAN_REPORT();
    T_EQ(banyan_engine_new(&three, NULL, NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.best, 0);
    T_NEAR(r.moves[0].value, 0.2, 0.05);
    T_EQ(banyan_engine_play(e, 0), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.best, 0); /* Player 1 takes 0.8 for itself (in units of 1/256, rounded
                      * at random: the mean is exact up to noise). */
    T_NEAR(r.value, 0.8, 1e-3);
    T_EQ(banyan_engine_load(e, ""), BANYAN_OK);
    T_EQ(banyan_engine_play(e, 1), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.best, 1); /* Player 2 takes 1.0 for itself. */
    banyan_engine_free(e);
}

/* Collects a dump's text. */
static int dom_write(void *ud, const char *data, size_t len)
{
    char *buf = ud;
    size_t at = strlen(buf);
    if (at + len >= 4096)
        return 1;
    memcpy(buf + at, data, len);
    buf[at + len] = 0;
    return 0;
}

/* The engine needs only the search's part of a table: without notation it
 * searches, plays, loads a move list and parses moves through the default
 * (decimal codes), and dumps and formats moves as decimal codes. A table
 * without moves() is refused, and banyan_game_check() says why. */
void test_domain_no_notation(void)
{
    banyan_engine *e = NULL;
    banyan_report r = BANYAN_REPORT();
    banyan_move m = 7;
    char buf[4096];
    banyan_game broken = three;
    broken.moves = NULL;
    T_EQ(banyan_engine_new(&broken, NULL, NULL, &e), BANYAN_EINVAL);
    T_TRUE(e == NULL);
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "moves()"));
    T_TRUE(banyan_game_check(&three) == NULL);
    broken = three;
    banyan_tactics tactics = {BANYAN_TACTICS_INIT, .mem_size = 64}; /* Memory for deep provers
                                                                       it does not have. */
    broken.tactics = &tactics;
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "mem_size"));
    broken = banyan_game_gomoku;
    tactics = *banyan_game_gomoku.tactics;
    tactics.prove_win = NULL; /* expand() stands for it and candidates() together. */
    broken.tactics = &tactics;
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "expand()"));
    T_TRUE(banyan_game_check(&banyan_game_gomoku) == NULL);
    /* Sizes: a table or part not made with its macro (0), or made against a
     * newer header (larger), is refused with a sentence. */
    broken = three;
    broken.size = 0;
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "BANYAN_GAME_INIT"));
    T_EQ(banyan_engine_new(&broken, NULL, NULL, &e), BANYAN_EINVAL);
    broken.size = sizeof broken + 8;
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "newer"));
    broken = banyan_game_gomoku;
    tactics = *banyan_game_gomoku.tactics;
    tactics.size = 0;
    broken.tactics = &tactics;
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "BANYAN_TACTICS_INIT"));
    /* A board part needs its four functions. */
    banyan_board board = *banyan_game_gomoku.board;
    broken = banyan_game_gomoku;
    board.piece = NULL;
    broken.board = &board;
    T_TRUE(banyan_game_check(&broken) && strstr(banyan_game_check(&broken), "piece()"));

    T_EQ(banyan_engine_new(&three, NULL, NULL, &e), BANYAN_OK);
    if (!e)
        return;
    T_EQ(banyan_engine_load(e, "1"), BANYAN_OK);
    T_EQ(((const dom *)banyan_engine_state(e))->depth, 1);
    T_EQ(banyan_engine_search(e, &BANYAN_LIMITS(.playouts = 2000), &r), BANYAN_OK);
    T_EQ(r.best, 1); /* Player 2 takes 1.0 for itself. */
    T_EQ(banyan_engine_parse_move(e, " 1 ", &m), BANYAN_OK);
    T_EQ(m, 1);
    T_EQ(banyan_engine_parse_move(e, "2", &m), BANYAN_EILLEGAL);
    T_EQ(banyan_engine_parse_move(e, "b", &m), BANYAN_EINVAL);
    T_EQ(banyan_game_format(&three, banyan_engine_state(e), 1, 0, buf, sizeof buf), 1);
    T_STR(buf, "1");
    buf[0] = 0;
    T_EQ(banyan_engine_dump(e, BANYAN_DUMP_JSON, 1, 0, dom_write, buf), 0);
    T_TRUE(strstr(buf, "{\"move\":\"root\",") == buf);
    T_TRUE(strstr(buf, "{\"move\":\"0\",") && strstr(buf, "{\"move\":\"1\","));
    T_EQ(banyan_engine_play(e, r.best), BANYAN_OK);
    T_EQ(banyan_engine_search(e, NULL, &r), BANYAN_OK);
    T_EQ(r.best, BANYAN_MOVE_NONE); /* Over. */
    T_EQ(banyan_engine_load(e, "0 1 0"), BANYAN_EILLEGAL);
    T_EQ(banyan_engine_load(e, "0 x"), BANYAN_EINVAL);
    T_EQ(banyan_engine_load(e, "0, 1"), BANYAN_OK);
    T_TRUE(banyan_game_print(&three, banyan_engine_state(e), BANYAN_MOVE_NONE, 0, buf, sizeof buf) >
           0);
    banyan_engine_free(e);
}

/* Move codes that do not fit the tree (BANYAN_MOVE_LIMIT): a Nim-like
 * coding, heap * 100000 + take, once gave BANYAN_OK, value 0.5 and always
 * the first move. Here the root's codes are too large for one table, and
 * only the codes below the root for the other. */
static int big_moves(const void *s, banyan_move *out, bool at_root)
{
    const dom *d = s;
    if (d->depth == 3)
        return 0;
    bool big = at_root ? d->depth == 0 : d->depth > 0;
    out[0] = 1;
    out[1] = big ? 100000 + 1 : 2;
    return 2;
}

static int big_root_moves(const void *s, banyan_move *out)
{
    return big_moves(s, out, true);
}

static int big_deep_moves(const void *s, banyan_move *out)
{
    return big_moves(s, out, false);
}

static void big_play(void *s, banyan_move m)
{
    dom *d = s;
    d->choices[d->depth++] = m != 1;
}

void test_domain_move_limit(void)
{
    banyan_game root = puzzle, deep = puzzle;
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_limits lim = BANYAN_LIMITS(.playouts = 200);
    root.moves = big_root_moves;
    root.play = big_play;
    deep.moves = big_deep_moves;
    deep.play = big_play;

    T_EQ(banyan_engine_new(&root, NULL, NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_EINVAL);
    T_TRUE(strstr(banyan_errmsg(e), "code 100001") != NULL);
    T_TRUE(strstr(banyan_errmsg(e), "below 65535") != NULL);
    T_EQ(r.best, BANYAN_MOVE_NONE);
    banyan_engine_free(e);

    T_EQ(banyan_engine_new(&deep, NULL, NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_EINVAL);
    T_TRUE(strstr(banyan_errmsg(e), "code 100001 below the root") != NULL);
    banyan_engine_free(e);

    /* Codes just below the limit work. */
    T_TRUE(BANYAN_MOVE_LIMIT == 65535);
}

/* Proven results and their distance. Player 0 picks a path at the root:
 * in the race it wins by path 1 at once (and by path 0 in three plies,
 * which the search, stopped by the proven root, need not prove); in the
 * rout it loses either way, by path 0 after two more plies or by path 1
 * after four. The engine reports each distance and, all moves lost, plays
 * the one that holds out longest. choices[0] is the path; depth counts
 * plies. */
static int path_moves(const void *s, banyan_move *out)
{
    const dom *d = s;
    int length = d->choices[0] == 0 ? 2 : 4; /* Rout: plies after the root's. */
    if (d->depth == 0) {
        out[0] = 0;
        out[1] = 1;
        return 2;
    }
    if (d->choices[2] == 1 || d->depth >= 1 + length)
        return 0;
    out[0] = 2;
    return 1;
}

static int race_moves(const void *s, banyan_move *out)
{
    const dom *d = s;
    if (d->depth == 0) {
        out[0] = 0;
        out[1] = 1;
        return 2;
    }
    if (d->choices[0] == 1 || d->depth >= 3)
        return 0;
    out[0] = 2;
    return 1;
}

static void path_play(void *s, banyan_move m)
{
    dom *d = s;
    if (d->depth == 0)
        d->choices[0] = (uint8_t)m;
    d->depth++;
}

static bool race_outcome(const void *s, double *returns)
{
    if (race_moves(s, (banyan_move[BANYAN_MAX_MOVES]){0}) > 0)
        return false;
    returns[0] = 1;
    returns[1] = 0;
    return true;
}

static bool rout_outcome(const void *s, double *returns)
{
    if (path_moves(s, (banyan_move[BANYAN_MAX_MOVES]){0}) > 0)
        return false;
    returns[0] = 0;
    returns[1] = 1;
    return true;
}

static int path_to_move(const void *s)
{
    return ((const dom *)s)->depth & 1;
}

void test_domain_proof_distance(void)
{
    banyan_game race = {BANYAN_GAME_INIT,  .name = "race",          .state_size = sizeof(dom),
                        .n_players = 2,    .setup = dom_setup,      .moves = race_moves,
                        .play = path_play, .outcome = race_outcome, .to_move = path_to_move};
    banyan_game rout = race;
    rout.name = "rout";
    rout.moves = path_moves;
    rout.outcome = rout_outcome;
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_limits lim = BANYAN_LIMITS(.playouts = 500);

    T_EQ(banyan_engine_new(&race, NULL, NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.proof, BANYAN_PROVEN_WIN);
    T_EQ(r.best, 1);
    T_EQ(r.n_moves, 2);
    T_EQ(r.moves[0].proof_plies, 1);
    T_EQ(r.moves[1].move, 0); /* The proven root ended the search before path 0's proof. */
    T_EQ(r.moves[1].proof_plies, 0);
    banyan_engine_free(e);

    T_EQ(banyan_engine_new(&rout, NULL, NULL, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    T_EQ(r.proof, BANYAN_PROVEN_LOSS);
    T_EQ(r.best, 1);
    T_EQ(r.moves[0].proof_plies, 5);
    T_EQ(r.moves[1].proof_plies, 3);
    banyan_engine_free(e);
}
