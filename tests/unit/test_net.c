/*
 * test_net.c - a network put to work on games (net/net.c) and the engine's
 * evaluator hook: input planes and policy outputs read from each game's
 * description, the board's symmetries against positions played with the
 * moves mapped, the check of a network's game, the evaluator's answers and
 * cache, and the engine taking its values and priors, with Dirichlet noise
 * at the root reproduced by the seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "net.h"
#include "nn.h"
#include "t.h"

static unsigned char test_state[1 << 16];

/* The start position of g with params into test_state. */
static void *test_setup(const banyan_game *g, const char *params)
{
    T_TRUE(g->state_size <= sizeof test_state);
    T_EQ(g->setup(test_state, params), BANYAN_OK);
    return test_state;
}

void test_net_shapes(void)
{
    nn_shape s;
    T_TRUE(net_game_shape(&banyan_game_tictactoe, test_setup(&banyan_game_tictactoe, ""), &s) ==
           NULL);
    T_EQ(s.width, 3);
    T_EQ(s.height, 3);
    T_EQ(s.policy, 9);
    T_EQ(s.planes, NET_PLANES);
    T_TRUE(net_game_shape(&banyan_game_connect4, test_setup(&banyan_game_connect4, ""), &s) ==
           NULL);
    T_EQ(s.width, 7);
    T_EQ(s.height, 6);
    T_EQ(s.policy, 7); /* one output a column */
    T_TRUE(net_game_shape(&banyan_game_othello, test_setup(&banyan_game_othello, ""), &s) == NULL);
    T_EQ(s.policy, 65); /* 64 squares and the pass */
    T_TRUE(net_game_shape(&banyan_game_gomoku, test_setup(&banyan_game_gomoku, "size=9"), &s) ==
           NULL);
    T_EQ(s.policy, 81);
    T_EQ(net_symmetries(&banyan_game_gomoku, test_state), 8);
    T_EQ(net_symmetries(&banyan_game_connect4, test_setup(&banyan_game_connect4, "")), 2);
    T_EQ(net_symmetries(&banyan_game_tictactoe, test_setup(&banyan_game_tictactoe, "m=4,n=3")), 4);
    /* A game without a board, or with three players, cannot learn. */
    banyan_game noboard = banyan_game_tictactoe;
    noboard.board = NULL;
    T_TRUE(net_game_shape(&noboard, test_setup(&noboard, ""), &s) != NULL);
    banyan_game three = banyan_game_tictactoe;
    three.n_players = 3;
    T_TRUE(net_game_shape(&three, test_setup(&three, ""), &s) != NULL);
}

void test_net_encode(void)
{
    const banyan_game *g = &banyan_game_tictactoe;
    float p[NET_PLANES * 9];
    void *s = test_setup(g, "");
    T_EQ(g->notation->load(s, "a1 b2 c3"), BANYAN_OK); /* X a1 c3, O b2; O to move */
    net_encode(g, s, p);
    int own = 0, opp = 0;
    for (int i = 0; i < 9; i++) {
        own += p[i] == 1.0f;
        opp += p[9 + i] == 1.0f;
        T_TRUE(p[9 + i] == 0.0f || p[i] == 0.0f);
        T_TRUE(p[2 * 9 + i] == 0.0f); /* player 1 moves */
        T_TRUE(p[3 * 9 + i] == 1.0f);
    }
    T_EQ(own, 1); /* O's b2 */
    T_EQ(opp, 2);
    int x, y;
    banyan_move b2;
    T_EQ(banyan_game_parse(g, s, 0, "b2", &b2), BANYAN_OK);
    T_EQ(g->board->place(s, b2, &x, &y), BANYAN_PLACE_CELL);
    T_TRUE(p[y * 3 + x] == 1.0f);
    T_EQ(net_policy_index(g, s, b2), y * 3 + x);

    /* Connect Four: columns. */
    g = &banyan_game_connect4;
    s = test_setup(g, "");
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = g->moves(s, moves);
    for (int i = 0; i < n; i++) {
        g->board->place(s, moves[i], &x, &y);
        T_EQ(net_policy_index(g, s, moves[i]), x);
    }
    /* Othello: the pass is the last output. */
    g = &banyan_game_othello;
    s = test_setup(g, "");
    banyan_move pass;
    T_EQ(g->board->place_move(s, BANYAN_PLACE_PASS, 0, 0, &pass), BANYAN_OK);
    T_EQ(net_policy_index(g, s, pass), 64);
}

/* Symmetry k applied to planes and policy equals the encoding of the
 * position played with every move mapped by k (for the games with cells,
 * through place and place_move). */
static void test_net_symmetry_game(const banyan_game *g, const char *params, int plies)
{
    static unsigned char a[1 << 16], b[1 << 16];
    banyan_rng rng;
    banyan_rng_seed(&rng, 11, 0);
    nn_shape sh;
    T_TRUE(g->state_size <= sizeof a);
    T_EQ(g->setup(a, params), BANYAN_OK);
    T_TRUE(net_game_shape(g, a, &sh) == NULL);
    int cells = sh.width * sh.height, syms = net_symmetries(g, a);
    size_t bytes = (size_t)sh.planes * (size_t)cells * sizeof(float);
    float *pa = malloc(bytes);
    float *pb = malloc(bytes);
    float *pt = malloc(bytes);
    float *pol = calloc((size_t)sh.policy, sizeof(float));
    float *polt = calloc((size_t)sh.policy, sizeof(float));
    int tested = 0;
    for (int trial = 0; trial < 20; trial++)
        for (int k = 0; k < syms; k++) {
            /* Only the symmetries of the start position map games onto
             * games (Othello's four central discs have four). */
            T_EQ(g->setup(a, params), BANYAN_OK);
            net_encode(g, a, pa);
            net_transform(g, a, k, pa, pol, pt, polt);
            if (memcmp(pa, pt, bytes) != 0)
                continue;
            tested++;
            banyan_move moves[BANYAN_MAX_MOVES];
            T_EQ(g->setup(a, params), BANYAN_OK);
            T_EQ(g->setup(b, params), BANYAN_OK);
            bool ok = true;
            for (int ply = 0; ply < plies && ok; ply++) {
                int n = g->moves(a, moves);
                if (n == 0)
                    break;
                banyan_move m = moves[banyan_rng_below(&rng, (uint32_t)n)], mb;
                int x, y, kind = g->board->place(a, m, &x, &y);
                /* Map (x, y) by the one-hot policy's transform. */
                memset(pol, 0, (size_t)sh.policy * sizeof(float));
                pol[net_policy_index(g, a, m)] = 1;
                net_encode(g, a, pa);
                net_transform(g, a, k, pa, pol, pt, polt);
                int to = -1;
                for (int i = 0; i < sh.policy; i++)
                    if (polt[i] == 1.0f)
                        to = i;
                T_TRUE(to >= 0);
                if (kind == BANYAN_PLACE_COLUMN)
                    T_EQ(g->board->place_move(b, kind, to, 0, &mb), BANYAN_OK);
                else
                    T_EQ(g->board->place_move(b, kind, to % sh.width, to / sh.width, &mb),
                         BANYAN_OK);
                g->play(a, m);
                g->play(b, mb);
            }
            net_encode(g, a, pa);
            net_encode(g, b, pb);
            net_transform(g, a, k, pa, pol, pt, polt);
            T_TRUE(memcmp(pt, pb, bytes) == 0);
        }
    if (tested < 2 * 20) /* the identity and one more at least */
        T_FAIL_AT("%s: %d positions under a symmetry", g->name, tested);
    free(pa);
    free(pb);
    free(pt);
    free(pol);
    free(polt);
}

void test_net_symmetries(void)
{
    test_net_symmetry_game(&banyan_game_tictactoe, "", 5);
    test_net_symmetry_game(&banyan_game_tictactoe, "m=5,n=3,k=3", 6);
    test_net_symmetry_game(&banyan_game_connect4, "", 12);
    test_net_symmetry_game(&banyan_game_gomoku, "size=9", 12);
    test_net_symmetry_game(&banyan_game_othello, "", 12);
}

/* A game's own planes: Othello's fifth is where the mover may play. */
void test_net_game_planes(void)
{
    const banyan_game *g = &banyan_game_othello;
    nn_shape sh;
    float p[5 * 64];
    banyan_move moves[BANYAN_MAX_MOVES];
    void *s = test_setup(g, "");
    T_TRUE(net_game_shape(g, s, &sh) == NULL);
    T_EQ(sh.planes, NET_PLANES + 1);
    T_EQ(g->notation->load(s, "f5 d6 c3"), BANYAN_OK);
    net_encode(g, s, p);
    int n = g->moves(s, moves), marked = 0;
    for (int i = 0; i < 64; i++)
        marked += p[4 * 64 + i] == 1.0f;
    T_EQ(marked, n);
    for (int i = 0; i < n; i++) {
        int x, y;
        T_EQ(g->board->place(s, moves[i], &x, &y), BANYAN_PLACE_CELL);
        T_TRUE(p[4 * 64 + y * 8 + x] == 1.0f);
        T_TRUE(p[y * 8 + x] == 0.0f && p[64 + y * 8 + x] == 0.0f); /* an empty square */
    }
    /* planes() needs a board. */
    banyan_game bad = banyan_game_othello;
    bad.board = NULL;
    T_TRUE(banyan_game_check(&bad) != NULL);
    bad.learning = NULL;
    T_TRUE(banyan_game_check(&bad) == NULL);
}

void test_net_check_game(void)
{
    nn_meta m;
    char why[256], rules[128];
    memset(&m, 0, sizeof m);
    strcpy(m.game, "gomoku");
    T_EQ(net_rule_params(&banyan_game_gomoku, "size=9,prover=off", rules, sizeof rules), BANYAN_OK);
    T_STR(rules, "size=9,rule=freestyle");
    strcpy(m.params, rules);
    T_TRUE(net_check_game(&m, &banyan_game_gomoku, "size=9", why, sizeof why) == NULL);
    /* Search aids are not rules. */
    T_TRUE(net_check_game(&m, &banyan_game_gomoku, "size=9,prover=off", why, sizeof why) == NULL);
    T_TRUE(net_check_game(&m, &banyan_game_gomoku, "", why, sizeof why) != NULL);
    T_TRUE(strstr(why, "size=9") != NULL);
    T_TRUE(net_check_game(&m, &banyan_game_gomoku, "size=9,rule=renju", why, sizeof why) != NULL);
    T_TRUE(net_check_game(&m, &banyan_game_connect4, "", why, sizeof why) != NULL);
    T_TRUE(strstr(why, "made for gomoku, not connect4") != NULL);
    T_EQ(net_rule_params(&banyan_game_connect4, "", rules, sizeof rules), BANYAN_OK);
    T_STR(rules, "");
    T_EQ(net_rule_params(&banyan_game_gomoku, "", rules, 8), BANYAN_ERANGE);
}

void test_net_evaluator(void)
{
    const banyan_game *g = &banyan_game_connect4;
    nn_shape sh;
    nn_net net;
    net_evaluator *ev;
    char why[256];
    void *s = test_setup(g, "");
    T_TRUE(net_game_shape(g, s, &sh) == NULL);
    sh.channels = 8;
    sh.blocks = 1;
    sh.value_hidden = 8;
    T_EQ(nn_init(&net, &sh, 3), 0);
    T_EQ(net_evaluator_new(&net, g, "", 1, 64, &ev, why, sizeof why), 0);
    /* A network of another board is refused. */
    net_evaluator *bad;
    T_EQ(net_evaluator_new(&net, &banyan_game_tictactoe, "", 1, 0, &bad, why, sizeof why), -1);
    T_TRUE(strstr(why, "7x6") != NULL);

    T_EQ(g->notation->load(s, "4453"), BANYAN_OK);
    banyan_move moves[BANYAN_MAX_MOVES];
    float priors[BANYAN_MAX_MOVES], again[BANYAN_MAX_MOVES];
    double ret[2];
    int n = g->moves(s, moves);
    banyan_eval_request req = {s, moves, n, priors, ret};
    const banyan_evaluator *hook = net_evaluator_hook(ev);
    hook->evaluate(hook->ud, 0, &req, 1);
    float sum = 0;
    for (int i = 0; i < n; i++) {
        T_TRUE(priors[i] > 0);
        sum += priors[i];
    }
    T_NEAR(sum, 1, 1e-5);
    T_NEAR(ret[0] + ret[1], 1, 1e-9);
    /* The value is the network's, for the player to move. */
    float in[NET_PLANES * 42], logits[7], v;
    nn_work *w = nn_work_new(&sh, 1, false);
    net_encode(g, s, in);
    nn_forward(&net, w, in, 1, logits, &v);
    T_NEAR(ret[g->to_move(s)], 0.5 + 0.5 * v, 1e-6);
    nn_work_free(w);
    /* Asked again (priors alone), the cache answers the same. */
    banyan_eval_request only = {s, moves, n, again, NULL};
    hook->evaluate(hook->ud, 0, &only, 1);
    net_counts k;
    net_evaluator_counts(ev, &k);
    T_EQ(k.asked, 2);
    T_EQ(k.cached, 1);
    T_EQ(k.forwards, 1);
    T_EQ(k.evaluated, 1);
    for (int i = 0; i < n; i++)
        T_TRUE(again[i] == priors[i]);
    /* A batch of positions in one call: one forward pass for the misses. */
    static unsigned char st[3][1 << 12];
    banyan_eval_request many[3];
    double rets[3][2];
    const char *pos[3] = {"1", "12", "123"};
    for (int i = 0; i < 3; i++) {
        T_EQ(g->setup(st[i], ""), BANYAN_OK);
        T_EQ(g->notation->load(st[i], pos[i]), BANYAN_OK);
        many[i] = (banyan_eval_request){st[i], NULL, 0, NULL, rets[i]};
    }
    hook->evaluate(hook->ud, 0, many, 3);
    net_evaluator_counts(ev, &k);
    T_EQ(k.forwards, 2);
    T_EQ(k.evaluated, 4);
    for (int i = 0; i < 3; i++)
        T_NEAR(rets[i][0] + rets[i][1], 1, 1e-9);
    net_evaluator_free(ev);
    nn_free(&net);
}

/* An evaluator that rates every position a draw and puts most of the prior
 * on the move with the highest code; counts its calls. */
typedef struct test_eval {
    int values, priors, calls, most;
} test_eval;

static void test_eval_fn(void *ud, int thread, banyan_eval_request *req, int n)
{
    test_eval *t = ud;
    T_EQ(thread, 0);
    t->calls++;
    t->most = n > t->most ? n : t->most;
    for (int i = 0; i < n; i++) {
        if (req[i].returns) {
            req[i].returns[0] = req[i].returns[1] = 0.5;
            t->values++;
        }
        if (req[i].moves) {
            banyan_move top = 0;
            for (int k = 0; k < req[i].n_moves; k++)
                top = req[i].moves[k] > top ? req[i].moves[k] : top;
            for (int k = 0; k < req[i].n_moves; k++)
                req[i].priors[k] = req[i].moves[k] == top ? 0.9f : 0.1f / 8;
            t->priors++;
        }
    }
}

void test_engine_evaluator(void)
{
    test_eval t = {0, 0, 0, 0};
    banyan_evaluator hook = {test_eval_fn, &t};
    banyan_config cfg = BANYAN_CONFIG(.seed = 3, .evaluator = &hook, .memory = 4u << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
    banyan_report r = BANYAN_REPORT();
    const banyan_game *g = &banyan_game_connect4;
    banyan_engine *e = NULL;
    cfg.memory = t_memory(g, &cfg, cfg.memory);
    T_EQ(banyan_engine_new(g, "book=off,solver=off", &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    /* Every leaf that was not a finished game or a proven win took the
     * evaluator's value (1474 of the 2000), and every expansion its priors. */
    if (t.values <= 1200)
        T_FAIL_AT("%d values for 2000 playouts", t.values);
    T_TRUE(t.priors > 10);
    T_EQ(r.n_moves, 7);
    for (int i = 0; i < r.n_moves; i++)
        T_NEAR(r.moves[i].prior, r.moves[i].move == 6 ? 0.9 : 0.0125, 0.001);
    banyan_engine_free(e);

    /* A hook without a function, and noise out of range, are refused. */
    banyan_evaluator empty = {NULL, NULL};
    banyan_config bad = BANYAN_CONFIG(.evaluator = &empty);
    T_TRUE(banyan_config_check(g, &bad) != NULL);
    bad = BANYAN_CONFIG(.noise_alpha = -1);
    T_TRUE(banyan_config_check(g, &bad) != NULL);
    bad = BANYAN_CONFIG(.noise_alpha = 0.3, .noise_share = 1.5);
    T_TRUE(banyan_config_check(g, &bad) != NULL);
    bad = BANYAN_CONFIG(.noise_alpha = NAN);
    T_TRUE(banyan_config_check(g, &bad) != NULL);
    /* leaf=eval needs an evaluation: the game's or the hook's. */
    bad = BANYAN_CONFIG(.leaf = BANYAN_LEAF_EVAL);
    T_TRUE(banyan_config_check(g, &bad) != NULL);
    bad.evaluator = &hook;
    T_TRUE(banyan_config_check(g, &bad) == NULL);
}

/* The root's visits of a 400-playout search with noise and the seed. */
static void test_noise_search(uint64_t seed, double alpha, uint32_t *visits)
{
    test_eval t = {0, 0, 0, 0};
    banyan_evaluator hook = {test_eval_fn, &t};
    banyan_config cfg = BANYAN_CONFIG(.seed = seed, .evaluator = &hook, .memory = 4u << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 400);
    banyan_report r = BANYAN_REPORT();
    banyan_engine *e = NULL;
    cfg.noise_alpha = alpha;
    cfg.memory = t_memory(&banyan_game_connect4, &cfg, cfg.memory);
    T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off,solver=off", &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
    memset(visits, 0, 7 * sizeof *visits);
    for (int i = 0; i < r.n_moves; i++)
        visits[r.moves[i].move] = r.moves[i].visits;
    banyan_engine_free(e);
}

void test_engine_root_noise(void)
{
    uint32_t plain[7], a[7], b[7], c[7];
    test_noise_search(1, 0, plain);
    test_noise_search(1, 0.3, a);
    test_noise_search(1, 0.3, b);
    test_noise_search(2, 0.3, c);
    T_TRUE(memcmp(a, b, sizeof a) == 0);     /* the seed reproduces it */
    T_TRUE(memcmp(a, plain, sizeof a) != 0); /* the noise changes the search */
    T_TRUE(memcmp(a, c, sizeof a) != 0);     /* and another seed another way */
    /* Without noise, the prior of 0.9 on the last column takes most visits;
     * with it, the others get more. */
    T_TRUE(plain[6] > a[6] || plain[6] > c[6]);
}

/* Leaves in batches: the evaluator gets up to config.batch positions a
 * call, every simulation still counts, and the search is reproducible. */
void test_engine_batch(void)
{
    banyan_report r = BANYAN_REPORT();
    uint32_t v[2][7];
    for (int run = 0; run < 2; run++) {
        test_eval t = {0, 0, 0, 0};
        banyan_evaluator hook = {test_eval_fn, &t};
        banyan_config cfg =
            BANYAN_CONFIG(.seed = 3, .evaluator = &hook, .memory = 4u << 20, .batch = 8);
        banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
        banyan_engine *e = NULL;
        cfg.memory = t_memory(&banyan_game_connect4, &cfg, cfg.memory);
        T_EQ(banyan_engine_new(&banyan_game_connect4, "book=off,solver=off", &cfg, &e), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_EQ(r.playouts, 3000);
        T_EQ(t.most, 8);
        /* Values come in batches of up to 8 (the priors one by one). */
        T_TRUE(t.calls - t.priors < t.values / 4);
        uint64_t sum = 0;
        memset(v[run], 0, sizeof v[run]);
        for (int i = 0; i < r.n_moves; i++) {
            sum += r.moves[i].visits;
            v[run][r.moves[i].move] = r.moves[i].visits;
        }
        T_EQ(sum, 3000); /* every simulation backed up through a root move */
        banyan_engine_free(e);
    }
    T_TRUE(memcmp(v[0], v[1], sizeof v[0]) == 0);
    banyan_config big = BANYAN_CONFIG(.batch = BANYAN_MAX_BATCH + 1);
    T_TRUE(banyan_config_check(&banyan_game_connect4, &big) != NULL);
}

/* A network's evaluator under threads: tree and root parallelism, with
 * batches, each thread with its own cache and scratch (ThreadSanitizer
 * runs this test). */
void test_net_threads(void)
{
    const banyan_game *g = &banyan_game_connect4;
    nn_shape sh;
    nn_net net;
    net_evaluator *ev;
    char why[256];
    T_TRUE(net_game_shape(g, test_setup(g, ""), &sh) == NULL);
    sh.channels = 8;
    sh.blocks = 1;
    sh.value_hidden = 8;
    T_EQ(nn_init(&net, &sh, 4), 0);
    for (int p = 0; p < 2; p++) {
        T_EQ(net_evaluator_new(&net, g, "", 3, 256, &ev, why, sizeof why), 0);
        banyan_config cfg =
            BANYAN_CONFIG(.threads = 3, .evaluator = net_evaluator_hook(ev), .batch = 4,
                          .memory = 8u << 20,
                          .parallel = p ? BANYAN_PARALLEL_ROOT : BANYAN_PARALLEL_TREE);
        banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
        banyan_report r = BANYAN_REPORT();
        banyan_engine *e = NULL;
        cfg.memory = t_memory(g, &cfg, cfg.memory);
        T_EQ(banyan_engine_new(g, "book=off,solver=off", &cfg, &e), BANYAN_OK);
        T_EQ(banyan_engine_search(e, &lim, &r), BANYAN_OK);
        T_TRUE(r.playouts >= 3000);
        net_counts k;
        net_evaluator_counts(ev, &k);
        T_TRUE(k.evaluated > 500);
        banyan_engine_free(e);
        net_evaluator_free(ev);
    }
    nn_free(&net);
}
