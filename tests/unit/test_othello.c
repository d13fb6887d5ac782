/*
 * test_othello.c - the Othello module: perft, notation in and out, the
 * position form of the data files, passes and games that end with empty
 * squares, illegal moves explained, random games against the invariants,
 * the rollouts against uniform play through moves() and play(), the score,
 * the exact solver on the FForum problems of tests/data, and a search
 * through the engine.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "banyan_game.h"
#include "othello/othello.h"
#include "t.h"

#define T(name) void name(void);
#include "list.h"
#undef T

#define G (&banyan_game_othello)

/* Room for the state, aligned for its words. */
typedef struct oth_test_state {
    uint64_t words[8]; /* 64 bytes, checked against state_size. */
} oth_test_state;

static void oth_test_setup(oth_test_state *s, const char *params)
{
    T_TRUE(G->state_size <= sizeof *s);
    memset(s, 0x5a, sizeof *s);
    T_EQ(G->setup(s, params), BANYAN_OK);
}

static int oth_test_load(oth_test_state *s, const char *text)
{
    oth_test_setup(s, NULL);
    int rc = G->notation->load(s, text);
    if (rc != BANYAN_OK)
        T_FAIL_AT("load(\"%s\") gave %d", text, rc);
    return rc;
}

static banyan_move oth_test_move(const char *text)
{
    oth_test_state s;
    banyan_move m = BANYAN_MOVE_NONE;
    oth_test_setup(&s, NULL);
    T_EQ(G->notation->parse_move(&s, text, &m), BANYAN_OK);
    return m;
}

/* Discs on the board, from piece(). */
static int oth_test_discs(const oth_test_state *s, int who)
{
    int n = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            n += who < 0 ? G->board->piece(s, x, y) >= 0 : G->board->piece(s, x, y) == who;
    return n;
}

void test_oth_perft(void)
{
    static const uint64_t expected[] = {4, 12, 56, 244, 1396, 8200, 55092, 390216};
    oth_test_state s;
    oth_test_setup(&s, NULL);
    for (int d = 1; d <= 8; d++)
        T_EQ(t_perft(G, &s, d), expected[d - 1]);
    /* A game over after 13 plies (one a pass) adds nothing one ply on. */
    oth_test_load(&s, "c4 e3 f2 c6 e6 f3 g3 b3 a2 g2 h1 pass b7");
    T_EQ(t_perft(G, &s, 1), 0);
}

void test_oth_notation(void)
{
    static const struct {
        const char *text;
        int rc;
        banyan_move m;
    } cases[] = {
        {"a1", BANYAN_OK, 0},        {"h1", BANYAN_OK, 7},       {"a2", BANYAN_OK, 8},
        {"H8", BANYAN_OK, 63},       {" f5 ", BANYAN_OK, 37},    {"pass", BANYAN_OK, 64},
        {"PASS", BANYAN_OK, 64},     {" Pass\n", BANYAN_OK, 64}, {"i9", BANYAN_ERANGE, 0},
        {"a9", BANYAN_ERANGE, 0},    {"i1", BANYAN_ERANGE, 0},   {"a0", BANYAN_ERANGE, 0},
        {"", BANYAN_EINVAL, 0},      {"f", BANYAN_EINVAL, 0},    {"55", BANYAN_EINVAL, 0},
        {"passs", BANYAN_EINVAL, 0}, {"pas", BANYAN_EINVAL, 0},  {"f5 d6", BANYAN_EINVAL, 0},
        {"#", BANYAN_EINVAL, 0},     {"\xe4", BANYAN_EINVAL, 0},
    };
    oth_test_state s;
    oth_test_setup(&s, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        banyan_move m = 12345;
        int rc = G->notation->parse_move(&s, cases[i].text, &m);
        if (rc != cases[i].rc)
            T_FAIL_AT("parse_move(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        T_EQ(m, rc == BANYAN_OK ? cases[i].m : 12345);
    }
    /* Every square and the pass format and parse back; SGF points too. */
    for (banyan_move m = 0; m <= 64; m++) {
        char text[8], sgf[8];
        banyan_move back = 999;
        T_TRUE(G->notation->format_move(&s, m, text, sizeof text) > 0);
        T_EQ(G->notation->parse_move(&s, text, &back), BANYAN_OK);
        T_EQ(back, m);
        T_TRUE(banyan_game_format(G, &s, m, BANYAN_COORDS_SGF, sgf, sizeof sgf) >= 0);
        back = 999;
        T_EQ(banyan_game_parse(G, &s, BANYAN_COORDS_SGF, sgf, &back), BANYAN_OK);
        T_EQ(back, m);
        if (m < 64) { /* Column letter, row from the top, in both systems. */
            T_EQ(text[0], 'a' + (int)m % 8);
            T_EQ(text[1], '1' + (int)m / 8);
            T_EQ(sgf[1], 'a' + (int)m / 8);
        }
    }
    T_EQ(banyan_game_format(G, &s, 0, BANYAN_COORDS_GTP, NULL, 0), BANYAN_EINVAL);
    T_EQ(banyan_game_format(G, &s, 0, BANYAN_COORDS_POINT, NULL, 0), BANYAN_EINVAL);
    banyan_move m = 0;
    T_EQ(G->notation->parse_move(&s, NULL, &m), BANYAN_EINVAL);
}

/* Move lists in every form, the 64-square form, and errors that leave the
 * state as it was. */
void test_oth_load(void)
{
    oth_test_state a, b, before;
    oth_test_load(&a, "f5 d6 c3");
    oth_test_load(&b, "f5,d6,c3");
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    oth_test_load(&b, "F5D6C3");
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    oth_test_load(&b, "  f5 ,  d6\tc3\n");
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    T_EQ(G->to_move(&a), 1);
    T_EQ(oth_test_discs(&a, 0), 5); /* c3 d4 e4 e5 f5. */
    T_EQ(oth_test_discs(&a, 1), 2); /* d5 d6. */
    /* The same position in the 64-square form, with and without answers. */
    const char *board = "------------------X--------XX------OXX-----O-------------------- O";
    oth_test_load(&b, board);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    char line[160];
    snprintf(line, sizeof line, "%s; D3:+2; F4:-4;", board);
    oth_test_load(&b, line);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    T_EQ(G->hash(&a), G->hash(&b));
    /* The parameters of the state survive a load. */
    oth_test_setup(&b, "rollout=uniform");
    T_EQ(G->notation->load(&b, "f5 d6 c3"), BANYAN_OK);
    T_TRUE(memcmp(&a, &b, G->state_size) != 0);
    oth_test_setup(&b, NULL);
    T_EQ(G->notation->load(&b, ""), BANYAN_OK);
    oth_test_setup(&a, NULL);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);

    static const struct {
        const char *text;
        int rc;
    } cases[] = {
        {"f5 f5", BANYAN_EILLEGAL},
        {"a1", BANYAN_EILLEGAL},
        {"pass", BANYAN_EILLEGAL},
        {"f5 i9", BANYAN_ERANGE},
        {"a9", BANYAN_ERANGE},
        {"f5 zz", BANYAN_EINVAL},
        {"f5 #", BANYAN_EINVAL},
        {"f5-d6", BANYAN_EINVAL},
        {"f05", BANYAN_EINVAL},
        {"c4 e3 f2 c6 e6 f3 g3 b3 a2 g2 h1 pass b7 a1", BANYAN_EILLEGAL},
        {"------------------X--------XX------OXX-----O--------------------", BANYAN_EINVAL},
        {"------------------X--------XX------OXX-----O-------------------- Z", BANYAN_EINVAL},
        {"------------------X--------XX------OXX-----O-------------------- O x", BANYAN_EINVAL},
        {"------------------X--------XX------OXX-------O----------------- O", BANYAN_EINVAL},
        {"------------------X--------X-------OXX-------O------------------ O", BANYAN_EINVAL},
        {"------------------X--------XX------OXX-------O--------?--------- O", BANYAN_EINVAL},
    };
    oth_test_load(&a, "f5 d6");
    before = a;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = G->notation->load(&a, cases[i].text);
        if (rc != cases[i].rc)
            T_FAIL_AT("load(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        T_TRUE(memcmp(&a, &before, G->state_size) == 0);
    }
    T_EQ(G->notation->load(&a, NULL), BANYAN_EINVAL);
}

void test_oth_print(void)
{
    oth_test_state s;
    char buf[512];
    oth_test_load(&s, "f5 d6 c3");
    const char *want = " 1 . . . . . . . .\n"
                       " 2 . . . . . . . .\n"
                       " 3 . .(X). . . . .\n"
                       " 4 . . . X X . . .\n"
                       " 5 . . . O X X . .\n"
                       " 6 . . . O . . . .\n"
                       " 7 . . . . . . . .\n"
                       " 8 . . . . . . . .\n"
                       "   a b c d e f g h\n";
    T_EQ(banyan_game_print(G, &s, oth_test_move("c3"), 0, buf, sizeof buf), strlen(want));
    T_STR(buf, want);
    T_EQ(banyan_game_print(G, &s, oth_test_move("c3"), 0, buf, 5), strlen(want));
    T_STR(buf, " 1 .");
    /* The last move at the right edge, and a pass marks nothing. */
    oth_test_load(&s, "f5 f6 f7 g5 g6 e7 h5"); /* Black's h5 last. */
    banyan_game_print(G, &s, oth_test_move("h5"), 0, buf, sizeof buf);
    T_TRUE(strstr(buf, "(X)\n 6 . ") != NULL); /* Not ")" before a6. */
    banyan_game_print(G, &s, 64, 0, buf, sizeof buf);
    T_TRUE(strchr(buf, '(') == NULL);
    /* piece() and place() count rows from the top, as the notation does. */
    int x = -1, y = -1;
    T_EQ(G->board->place(&s, oth_test_move("c3"), &x, &y), BANYAN_PLACE_CELL);
    T_EQ(x, 2);
    T_EQ(y, 2);
    T_EQ(G->board->place(&s, 64, &x, &y), BANYAN_PLACE_PASS);
    T_EQ(G->board->place(&s, 65, &x, &y), BANYAN_PLACE_NONE);
    banyan_move m = 0;
    T_EQ(G->board->place_move(&s, BANYAN_PLACE_CELL, 7, 3, &m), BANYAN_OK);
    T_EQ(m, oth_test_move("h4"));
    T_EQ(G->board->place_move(&s, BANYAN_PLACE_CELL, 8, 3, &m), BANYAN_ERANGE);
    T_EQ(G->board->place_move(&s, BANYAN_PLACE_PASS, 0, 0, &m), BANYAN_OK);
    T_EQ(m, 64);
    T_EQ(G->board->place_move(&s, BANYAN_PLACE_COLUMN, 0, 0, &m), BANYAN_EINVAL);
    oth_test_load(&s, "f5 d6 c3");
    T_EQ(G->board->piece(&s, 3, 3), 0); /* d4 is Black's after c3. */
    T_EQ(G->board->piece(&s, 8, 0), -1);
    T_STR(G->title, "Othello");
    T_EQ((G->board ? G->board->sgf_game : 0), 2);
    T_TRUE(banyan_game_find("reversi") == G && banyan_game_find("Othello") == G);
}

/* A position where White must pass, a pass, and a game that ends with
 * empty squares (the empties go to the winner in the score). */
void test_oth_passes(void)
{
    oth_test_state s;
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[2];
    char buf[128];
    /* Found by random play: after h1, White has no move but Black has. */
    oth_test_load(&s, "c4 e3 f2 c6 e6 f3 g3 b3 a2 g2 h1");
    T_EQ(G->to_move(&s), 1);
    T_EQ(G->moves(&s, moves), 1);
    T_EQ(moves[0], 64);
    T_TRUE(!G->outcome(&s, ret));
    T_TRUE(!banyan_game_is_legal(G, &s, oth_test_move("b7")));
    oth_test_state after = s;
    G->play(&after, 64);
    T_EQ(G->to_move(&after), 0);
    T_TRUE(G->moves(&after, moves) > 0 && moves[0] != 64);
    T_TRUE(G->is_valid(&after));
    /* Black's b7 then takes White's last disc: over with 48 empties. */
    G->play(&after, oth_test_move("b7"));
    T_EQ(G->moves(&after, moves), 0);
    T_TRUE(G->outcome(&after, ret));
    T_EQ(ret[0], 1.0);
    T_EQ(ret[1], 0.0);
    T_EQ(oth_test_discs(&after, 0), 16);
    T_EQ(oth_test_discs(&after, 1), 0);
    T_EQ(G->score(&after), 64);
    T_EQ(banyan_game_explain(G, &after, 0, buf, sizeof buf), (int)strlen(buf));
    T_TRUE(strstr(buf, "over") != NULL);
    /* A game that goes on scores the discs as they stand. */
    oth_test_load(&s, "f5 d6 c3");
    T_EQ(G->score(&s), 5 - 2);
}

void test_oth_explain(void)
{
    oth_test_state s;
    char buf[128];
    oth_test_setup(&s, NULL);
    T_TRUE(banyan_game_explain(G, &s, oth_test_move("d4"), buf, sizeof buf) > 0);
    T_STR(buf, "is occupied");
    banyan_game_explain(G, &s, oth_test_move("a1"), buf, sizeof buf);
    T_STR(buf, "flips nothing");
    banyan_game_explain(G, &s, 64, buf, sizeof buf);
    T_STR(buf, "is not allowed: you have moves");
    T_TRUE(!banyan_game_is_legal(G, &s, 64));
    T_TRUE(banyan_game_is_legal(G, &s, oth_test_move("f5")));
}

void test_oth_setup(void)
{
    static const char *const bad[] = {"rollout=x", "size=8",     "x",
                                      "priors=",   "solver=yes", "rollout=uniform,q=1"};
    oth_test_state s;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (G->setup(&s, bad[i]) != BANYAN_EINVAL)
            T_FAIL_AT("setup(\"%s\") accepted", bad[i]);
    T_EQ(G->setup(&s, "rollout=uniform priors=off solver=off"), BANYAN_OK);
    T_TRUE(G->is_valid(&s));
    T_EQ(G->setup(&s, ""), BANYAN_OK);
    T_TRUE(G->is_valid(&s));
    T_EQ(G->to_move(&s), 0);
    T_EQ(oth_test_discs(&s, 0), 2);
    T_EQ(G->board->piece(&s, 3, 4), 0); /* d5 Black. */
    T_EQ(G->board->piece(&s, 3, 3), 1); /* d4 White. */
    char why[128];
    T_EQ(banyan_params_check(G, "rollout=corners,priors=mobility", why, sizeof why), BANYAN_OK);
    T_EQ(banyan_params_check(G, "rollout=near", why, sizeof why), BANYAN_EINVAL);
}

/* Positions that differ in the side to move and in a few discs of the
 * first row have different hashes (an older hash made many such pairs
 * collide, which a graph search turned into illegal moves). */
void test_oth_hash_turn(void)
{
    banyan_rng rng;
    char a[80], b[80];
    int same = 0;
    banyan_rng_seed(&rng, 5, 0);
    for (int trial = 0; trial < 2000; trial++) {
        for (int i = 0; i < 64; i++)
            a[i] = "XO-"[banyan_rng_below(&rng, 3)];
        a[27] = a[36] = 'X'; /* The centre occupied. */
        a[28] = a[35] = 'O';
        memcpy(a + 64, " X", 3);
        memcpy(b, a, sizeof a);
        b[65] = 'O';
        for (int i = 0; i < 3; i++) /* a1 .. c1: X against empty. */
            if (banyan_rng_below(&rng, 2))
                b[i] = b[i] == 'X' ? '-' : b[i] == '-' ? 'X' : b[i];
        oth_test_state x, y;
        if (oth_test_load(&x, a) != BANYAN_OK || oth_test_load(&y, b) != BANYAN_OK)
            return;
        same += G->hash(&x) == G->hash(&y);
    }
    T_EQ(same, 0);
}

/* Random games through moves() and play(): the state stays valid, moves()
 * and outcome() agree, a pass is the only move when it is legal, the hash
 * follows the position, and the disc counts add up. */
void test_oth_random_games(void)
{
    banyan_rng rng;
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[2];
    int passes = 0, early = 0;
    banyan_rng_seed(&rng, 11, 0);
    for (int game = 0; game < 2000; game++) {
        oth_test_state s;
        int n, ply = 0;
        oth_test_setup(&s, NULL);
        while ((n = G->moves(&s, moves)) > 0) {
            T_TRUE(G->is_valid(&s));
            T_TRUE(!G->outcome(&s, ret));
            for (int i = 0; i < n; i++)
                T_TRUE(moves[i] < 64 || n == 1);
            banyan_move m = moves[banyan_rng_below(&rng, (uint32_t)n)];
            int discs = oth_test_discs(&s, -1), mine = oth_test_discs(&s, G->to_move(&s));
            oth_test_state before = s;
            G->play(&s, m);
            T_TRUE(G->hash(&s) != G->hash(&before));
            passes += m == 64;
            T_EQ(oth_test_discs(&s, -1), discs + (m < 64));
            if (m < 64)
                T_TRUE(oth_test_discs(&s, G->to_move(&before)) >= mine + 2);
            if (++ply > 200) {
                T_FAIL_AT("a game did not end");
                break;
            }
        }
        T_TRUE(G->outcome(&s, ret));
        int d = oth_test_discs(&s, 0) - oth_test_discs(&s, 1), e = 64 - oth_test_discs(&s, -1);
        T_EQ(ret[0], d > 0 ? 1.0 : d < 0 ? 0.0 : 0.5);
        T_EQ(G->score(&s), d > 0 ? d + e : d < 0 ? d - e : 0);
        early += e > 0;
    }
    T_TRUE(passes > 0);
    T_TRUE(early > 0);
}

/* n games from s by the rollout or by uniform choices through moves():
 * Black's wins, draws and the mean discs placed. */
static void oth_test_random(const oth_test_state *s, int n, bool fast, uint64_t seed,
                            double *results, double *placed)
{
    banyan_rng rng;
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[2];
    banyan_rng_seed(&rng, seed, 0);
    results[0] = results[1] = *placed = 0;
    for (int i = 0; i < n; i++) {
        oth_test_state t = *s;
        int n_moves;
        if (fast)
            G->rollout(&t, &rng);
        else
            while ((n_moves = G->moves(&t, moves)) > 0)
                G->play(&t, moves[banyan_rng_below(&rng, (uint32_t)n_moves)]);
        T_TRUE(G->is_valid(&t));
        if (!G->outcome(&t, ret) || G->moves(&t, moves) != 0) {
            T_FAIL_AT("a random game did not end");
            break;
        }
        results[0] += (ret[0] == 1.0) / (double)n;
        results[1] += (ret[0] == 0.5) / (double)n;
        *placed += (oth_test_discs(&t, -1) - 4) / (double)n;
    }
}

/* The uniform rollout against uniform play through moves() and play(), from
 * the start (about 60 discs placed, PROTOCOLS.md) and from a middle game
 * with passes near; five standard errors. The corners policy plays valid
 * games to the end, other ones. */
void test_oth_rollout_distribution(void)
{
    const int n = 20000;
    double a[2], b[2], placed_a, placed_b;
    oth_test_state s;
    oth_test_setup(&s, "rollout=uniform");
    oth_test_random(&s, n, true, 1, a, &placed_a);
    oth_test_random(&s, n, false, 2, b, &placed_b);
    T_NEAR(placed_a, 60, 0.3);
    T_NEAR(placed_a, placed_b, 0.15);
    for (int r = 0; r < 2; r++) {
        double p = (a[r] + b[r]) / 2;
        T_NEAR(a[r], b[r], 5 * sqrt(p * (1 - p) * 2 / n) + 1e-12);
    }
    /* White wins random games more often (about 50% to 45%, 4% drawn). */
    T_TRUE(a[0] + 0.03 < 1 - a[0] - a[1]);
    T_NEAR(a[1], 0.04, 0.01);

    /* From a middle game, where passes come sooner. */
    oth_test_setup(&s, "rollout=uniform");
    T_EQ(G->notation->load(&s, "c4 e3 f2 c6 e6 f3 g3 b3 a2 g2"), BANYAN_OK);
    oth_test_random(&s, n, true, 3, a, &placed_a);
    oth_test_random(&s, n, false, 4, b, &placed_b);
    for (int r = 0; r < 2; r++) {
        double p = (a[r] + b[r]) / 2;
        T_NEAR(a[r], b[r], 5 * sqrt(p * (1 - p) * 2 / n) + 1e-12);
    }
    T_NEAR(placed_a, placed_b, 0.4);

    /* The corners policy plays valid games to the end, other ones. */
    oth_test_setup(&s, "rollout=corners");
    oth_test_random(&s, n, true, 1, b, &placed_b);
    T_TRUE(fabs(b[0] - a[0]) > 1e-9 || fabs(placed_b - placed_a) > 1e-9);
    T_NEAR(placed_b, 60, 1.0);
}

/* The priors favour corners and moves that leave few replies, and are a
 * distribution; off, they are uniform. */
void test_oth_priors(void)
{
    oth_test_state s;
    banyan_move moves[BANYAN_MAX_MOVES];
    float pr[BANYAN_MAX_MOVES];
    /* fforum 1: Black may take the corner h1 (and g8, the best). */
    oth_test_load(&s, "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
    int n = G->moves(&s, moves);
    G->priors(&s, moves, n, pr);
    double sum = 0;
    int corner = -1, x_square = -1;
    for (int i = 0; i < n; i++) {
        sum += pr[i];
        T_TRUE(pr[i] > 0);
        if (moves[i] == oth_test_move("h1"))
            corner = i;
        if (moves[i] == oth_test_move("g2"))
            x_square = i;
    }
    T_NEAR(sum, 1.0, 1e-5);
    T_TRUE(corner >= 0 && x_square >= 0);
    if (corner >= 0 && x_square >= 0)
        T_TRUE(pr[corner] > 4 * pr[x_square]);
    oth_test_setup(&s, "priors=off");
    n = G->moves(&s, moves);
    G->priors(&s, moves, n, pr);
    for (int i = 0; i < n; i++)
        T_NEAR(pr[i], 1.0 / n, 1e-6);
}

/* Reads the .obf file name of tests/data into lines[] (at most max), one
 * position with its answers each; returns their number. */
static int oth_test_read(const char *name, char (*lines)[256], int max)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", t_data_dir, name);
    FILE *f = fopen(path, "r");
    int n = 0;
    if (!f) {
        T_FAIL_AT("cannot open %s", path);
        return 0;
    }
    while (n < max && fgets(lines[n], sizeof lines[n], f))
        n++;
    fclose(f);
    return n;
}

/* The score the line lists for move, or -999 when it lists none. */
static int oth_test_listed(const oth_test_state *s, const char *line, banyan_move move)
{
    for (const char *p = strchr(line, ';'); p; p = strchr(p + 1, ';')) {
        char name[8];
        int score;
        banyan_move m;
        if (sscanf(p + 1, " %7[A-Za-z0-9]:%d", name, &score) == 2 &&
            G->notation->parse_move(s, name, &m) == BANYAN_OK && m == move)
            return score;
    }
    return -999;
}

/* Every FForum problem 1-19 solved exactly: the best score listed, and the
 * first move in the order of moves() that the line lists with it. The
 * table is kept from one problem to the next, as the engine keeps it. */
/* The flips of a disc of p on sq by the rules' definition, square by square
 * in each of the eight directions. */
static uint64_t oth_test_flips(uint64_t p, uint64_t o, int sq)
{
    static const int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    uint64_t all = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t run = 0;
        int r = sq / 8 + dr[d], c = sq % 8 + dc[d];
        for (; r >= 0 && r < 8 && c >= 0 && c < 8; r += dr[d], c += dc[d]) {
            uint64_t b = (uint64_t)1 << (8 * r + c);
            if (o & b) {
                run |= b;
                continue;
            }
            if (p & b)
                all |= run;
            break;
        }
    }
    return all;
}

/* oth_flips (bit scans along the four lines) against the walk, on every
 * empty square of random positions and of crowded ones, and the mobility
 * (fills) against the squares that flip something. */
void test_oth_flips(void)
{
    banyan_rng rng;
    banyan_rng_seed(&rng, 17, 0);
    for (int i = 0; i < 20000; i++) {
        uint64_t a = banyan_rng_next(&rng), b = banyan_rng_next(&rng);
        uint64_t p = a & b, o = a & ~b; /* Some squares empty, */
        if (i & 1)
            o |= ~(p | o) & banyan_rng_next(&rng); /* or fewer. */
        uint64_t moves = 0;
        for (int sq = 0; sq < 64; sq++) {
            if ((p | o) >> sq & 1)
                continue;
            uint64_t want = oth_test_flips(p, o, sq), got = oth_flips(p, o, sq);
            if (got != want) {
                T_FAIL_AT("p %016llx o %016llx square %d: flips %016llx, want %016llx\n",
                          (unsigned long long)p, (unsigned long long)o, sq, (unsigned long long)got,
                          (unsigned long long)want);
                return;
            }
            moves |= want ? (uint64_t)1 << sq : 0;
        }
        T_EQ(oth_mobility(p, o), moves);
    }
}

/* The count of the last move's flips from the gathered lines against the
 * walk, on boards full but for one square, for both sides. */
void test_oth_last_flips(void)
{
    banyan_rng rng;
    banyan_rng_seed(&rng, 23, 0);
    int counted = 0;
    for (int i = 0; i < 5000; i++) {
        uint64_t discs = banyan_rng_next(&rng);
        if (i & 1)
            discs &= banyan_rng_next(&rng); /* Fewer of the mover's discs, */
        else if (i & 2)
            discs |= banyan_rng_next(&rng); /* or more. */
        for (int sq = 0; sq < 64; sq++) {
            uint64_t bit = (uint64_t)1 << sq, p = discs & ~bit, o = ~discs & ~bit;
            int want = bits_count(oth_test_flips(p, o, sq)), got = oth_last_flips(p, sq);
            int want_o = bits_count(oth_test_flips(o, p, sq)), got_o = oth_last_flips(o, sq);
            if (got != want || got_o != want_o) {
                T_FAIL_AT("p %016llx square %d: %d and %d flips, want %d and %d\n",
                          (unsigned long long)p, sq, got, got_o, want, want_o);
                return;
            }
            counted += want > 0;
        }
    }
    T_TRUE(counted > 100000); /* Most squares flip something. */
}

void test_oth_solver_fforum(void)
{
    static char lines[24][256];
    int n_lines = oth_test_read("fforum-1-19.obf", lines, 24);
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    banyan_move moves[BANYAN_MAX_MOVES];
    T_EQ(n_lines, 19);
    T_TRUE(mem != NULL);
    for (int i = 0; mem && i < n_lines; i++) {
        oth_test_state s;
        oth_test_load(&s, lines[i]);
        int n = G->moves(&s, moves), best_score = -999;
        banyan_move best = BANYAN_MOVE_NONE;
        for (int k = 0; k < n; k++) {
            int v = oth_test_listed(&s, lines[i], moves[k]);
            T_TRUE(v != -999); /* The line lists every legal move. */
            best_score = v > best_score ? v : best_score;
        }
        /* The score is the best listed, and the move one that reaches it
         * (any of equals: the one the solver's last test proved). */
        int score = -999;
        int rc = G->tactics->solve(&s, UINT64_MAX, NULL, mem, &best, &score);
        T_EQ(rc, best_score > 0   ? BANYAN_SOLVE_WIN
                 : best_score < 0 ? BANYAN_SOLVE_LOSS
                                  : BANYAN_SOLVE_DRAW);
        if (score != best_score || oth_test_listed(&s, lines[i], best) != best_score)
            T_FAIL_AT("fforum %d: solved %d with move %u, want %d", i + 1, score, (unsigned)best,
                      best_score);
        /* Without a table the score is the same. */
        if (i < 4) {
            T_EQ(G->tactics->solve(&s, UINT64_MAX, NULL, NULL, &best, &score), rc);
            T_EQ(score, best_score);
            T_EQ(oth_test_listed(&s, lines[i], best), best_score);
        }
    }
    free(mem);
}

/* The solver against a plain minimax through moves() and play() on
 * positions a few empties from the end, passes included. */
static int oth_test_minimax(const oth_test_state *s)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = G->moves(s, moves), best = -999;
    if (n == 0) {
        double d = G->score(s);
        return G->to_move(s) == 0 ? (int)d : -(int)d;
    }
    for (int i = 0; i < n; i++) {
        oth_test_state t = *s;
        G->play(&t, moves[i]);
        int v = -oth_test_minimax(&t);
        best = v > best ? v : best;
    }
    return best;
}

void test_oth_solver_minimax(void)
{
    banyan_rng rng;
    banyan_move moves[BANYAN_MAX_MOVES];
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    int checked = 0;
    banyan_rng_seed(&rng, 5, 0);
    T_TRUE(mem != NULL);
    for (int game = 0; mem && game < 300; game++) {
        oth_test_state s;
        int n, empties = 5 + (int)banyan_rng_below(&rng, 5);
        oth_test_setup(&s, NULL);
        while ((n = G->moves(&s, moves)) > 0 && 64 - oth_test_discs(&s, -1) > empties)
            G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)n)]);
        if (n == 0)
            continue;
        banyan_move best = BANYAN_MOVE_NONE;
        int score = -999, want = oth_test_minimax(&s);
        T_TRUE(G->tactics->solve(&s, UINT64_MAX, NULL, mem, &best, &score) != BANYAN_SOLVE_UNKNOWN);
        T_EQ(score, want);
        /* The move is legal and reaches the score, which no move passes. */
        bool found = false;
        for (int i = 0; i < n; i++) {
            oth_test_state t = s;
            G->play(&t, moves[i]);
            int v = -oth_test_minimax(&t);
            T_TRUE(v <= want);
            if (moves[i] == best) {
                T_EQ(v, want);
                found = true;
            }
        }
        T_TRUE(found);
        checked++;
    }
    T_TRUE(checked > 250);
    free(mem);
}

/* Out of reach at once (too many empties), and out of budget; the aborted
 * search leaves nothing wrong in the table, and the solver off never
 * answers. */
void test_oth_solver_unknown(void)
{
    static char lines[24][256];
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    banyan_move best = 12345;
    int score = 12345;
    oth_test_state s;
    oth_test_setup(&s, NULL);
    T_TRUE(mem != NULL);
    T_EQ(G->tactics->solve(&s, 1000000, NULL, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    T_EQ(G->tactics->solve(&s, UINT64_MAX / 2, NULL, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    T_EQ(best, 12345);
    T_EQ(score, 12345);
    int n = oth_test_read("fforum-1-19.obf", lines, 24);
    T_TRUE(n >= 16);
    if (n < 16 || !mem) {
        free(mem);
        return;
    }
    oth_test_load(&s, lines[15]); /* 16 empties: beyond a budget of 5000. */
    T_EQ(G->tactics->solve(&s, 5000, NULL, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    /* 15 empties, +8 by e1, in reach of 200000 but with more nodes than
     * that: the budget runs out. */
    oth_test_load(&s, lines[7]);
    T_EQ(G->tactics->solve(&s, 200000, NULL, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    T_EQ(best, 12345);
    T_EQ(score, 12345);
    /* A stop flag already set: given up whatever the budget. */
    _Atomic int stop = 1;
    T_EQ(G->tactics->solve(&s, UINT64_MAX, &stop, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    T_EQ(best, 12345);
    for (uint64_t budget = 1000; budget < 200000; budget *= 2)
        G->tactics->solve(&s, budget, NULL, mem, &best,
                          &score); /* Leaves partial work in the table. */
    T_EQ(G->tactics->solve(&s, UINT64_MAX, NULL, mem, &best, &score), BANYAN_SOLVE_WIN);
    T_EQ(score, 8);
    T_EQ(best, oth_test_move("e1"));
    oth_test_setup(&s, "solver=off");
    T_EQ(G->notation->load(&s, lines[7]), BANYAN_OK);
    T_EQ(G->tactics->solve(&s, UINT64_MAX, NULL, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    free(mem);
}

/* A search through the engine plays a legal move, also a forced pass. */
void test_oth_engine(void)
{
    banyan_engine *e;
    banyan_config cfg = BANYAN_CONFIG(.seed = 3);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 3000);
    banyan_report rep = BANYAN_REPORT();
    banyan_move moves[BANYAN_MAX_MOVES];
    T_EQ(banyan_engine_new(G, NULL, &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_load(e, "f5 d6 c3"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &rep), BANYAN_OK);
    T_TRUE(banyan_game_is_legal(G, banyan_engine_state(e), rep.best));
    T_EQ(banyan_engine_play(e, rep.best), BANYAN_OK);
    T_EQ(banyan_engine_load(e, "c4 e3 f2 c6 e6 f3 g3 b3 a2 g2 h1"), BANYAN_OK);
    T_EQ(banyan_engine_search(e, &lim, &rep), BANYAN_OK);
    T_EQ(rep.best, 64);
    T_EQ(G->moves(banyan_engine_state(e), moves), 1);
    banyan_engine_free(e);
}

/* Loads the board of s seen through symmetry k (0..7) of the square, with
 * the side to move (flipped when flip is true), into out. */
static void oth_test_transform(const oth_test_state *s, int k, bool flip, oth_test_state *out)
{
    char text[80];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int a = k & 1 ? 7 - x : x, b = k & 2 ? 7 - y : y;
            int sx = k & 4 ? b : a, sy = k & 4 ? a : b;
            int who = G->board->piece(s, sx, sy);
            text[8 * y + x] = who == 0 ? 'X' : who == 1 ? 'O' : '-';
        }
    snprintf(text + 64, sizeof text - 64, " %c", (G->to_move(s) == 0) != flip ? 'X' : 'O');
    oth_test_load(out, text);
}

/* The evaluation: its inputs do not change under the eight symmetries of
 * the board, each term but the bias and the parity changes sign with the
 * side to move, stable discs are counted as the rule says on positions
 * worked by hand, and the value is a probability for the mover. */
void test_oth_eval(void)
{
    double f[OTH_EVAL_FEATURES], g[OTH_EVAL_FEATURES], ret[2];
    banyan_move moves[BANYAN_MAX_MOVES];
    banyan_rng rng;
    oth_test_state s, t;
    banyan_rng_seed(&rng, 5, 0);
    T_TRUE(G->evaluate != NULL);
    for (int game = 0; game < 20; game++) {
        oth_test_setup(&s, NULL);
        for (int ply = 0; ply < 60; ply++) {
            int n = G->moves(&s, moves);
            if (n == 0)
                break;
            G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)n)]);
            if (G->outcome(&s, ret))
                break;
            T_EQ(oth_eval_features(&s, f), OTH_EVAL_FEATURES);
            for (int k = 1; k < 8; k++) {
                oth_test_transform(&s, k, false, &t);
                oth_eval_features(&t, g);
                for (int i = 0; i < OTH_EVAL_FEATURES; i++)
                    T_NEAR(g[i], f[i], 1e-12);
            }
            oth_test_transform(&s, 0, true, &t);
            oth_eval_features(&t, g);
            for (int i = 0; i < OTH_EVAL_TERMS; i++) {
                double sign = i == 0 || i == OTH_EVAL_TERMS - 1 ? 1 : -1;
                T_NEAR(g[2 * i], sign * f[2 * i], 1e-12);
                T_NEAR(g[2 * i + 1], sign * f[2 * i + 1], 1e-12);
            }
            ret[0] = ret[1] = -1;
            float pr[BANYAN_MAX_MOVES];
            T_TRUE(!G->evaluate(&s, ret, moves, G->moves(&s, moves), pr));
            T_TRUE(ret[0] > 0 && ret[0] < 1);
            T_NEAR(ret[0] + ret[1], 1.0, 1e-12);
        }
    }
    /* Stable discs, term 9 (a quarter of the difference): a full first row
     * is stable; a1, b1 and c1 are, and b2 beside them is not (row 2 and
     * the b column are open); b1 alone is not. */
    static const struct {
        const char *pos;
        double stable;
    } cases[] = {
        {"XXXXXXXX-------------------OO------OO--------------------------- X", 8},
        {"XXX------X-----------------XO------OX--------------------------- X", 3},
        {"-X-------------------------XO------OX--------------------------- X", 0},
        {"-X-------------------------XO------OX--------------------------- O", 0},
        {"XXX------X-----------------XO------OX--------------------------- O", -3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        oth_test_load(&s, cases[i].pos);
        oth_eval_features(&s, f);
        T_NEAR(f[18] * 4, cases[i].stable, 1e-12);
    }
}
