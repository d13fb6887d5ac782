/*
 * test_mnk.c - the m,n,k-game module: perft against the published numbers
 * and against a naive counter written here, win detection at every edge,
 * notation in and out, setup errors, and the fast rollout against plain
 * uniform play through moves() and play().
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "t.h"

#define T(name) void name(void);
#include "list.h"
#undef T

#define G (&banyan_game_tictactoe)

/* Room for any state of the game, aligned for its words. */
typedef struct mnk_test_state {
    uint64_t words[128]; /* 1 KiB, checked against state_size. */
} mnk_test_state;

static void mnk_test_setup(mnk_test_state *s, const char *params)
{
    T_TRUE(G->state_size <= sizeof *s);
    memset(s, 0xa5, sizeof *s);
    T_EQ(G->setup(s, params), BANYAN_OK);
}

/* -1 while the game goes on, else 0 (X won), 1 (O won) or 2 (draw), after
 * checking that moves() and outcome() agree and the state is valid. */
static int mnk_test_result(const mnk_test_state *s)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[2];
    int n = G->moves(s, moves);
    bool over = G->outcome(s, ret);
    T_TRUE(G->is_valid(s));
    T_EQ(n == 0, over);
    if (!over)
        return -1;
    T_NEAR(ret[0] + ret[1], 1.0, 0);
    return ret[0] == 1.0 ? 0 : ret[0] == 0.0 ? 1 : 2;
}

/* Loads moves on a board of params and returns the result as above. */
static int mnk_test_game(const char *params, const char *moves)
{
    mnk_test_state s;
    mnk_test_setup(&s, params);
    int rc = G->notation->load(&s, moves);
    if (rc != BANYAN_OK) {
        T_FAIL_AT("load(\"%s\") on \"%s\" gave %d", moves, params, rc);
        return -2;
    }
    return mnk_test_result(&s);
}

void test_mnk_perft(void)
{
    static const uint64_t expected[] = {9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    mnk_test_state s;
    mnk_test_setup(&s, NULL);
    for (int d = 1; d <= 9; d++)
        T_EQ(t_perft(G, &s, d), expected[d - 1]);
    T_EQ(t_perft(G, &s, 10), 0);
}

/* Every complete game of tic-tac-toe, by result. */
static void mnk_test_count_games(const mnk_test_state *s, uint64_t *counts)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = G->moves(s, moves);
    if (n == 0) {
        counts[mnk_test_result(s)]++;
        return;
    }
    for (int i = 0; i < n; i++) {
        mnk_test_state child;
        memcpy(&child, s, G->state_size);
        G->play(&child, moves[i]);
        mnk_test_count_games(&child, counts);
    }
}

void test_mnk_game_counts(void)
{
    mnk_test_state s;
    uint64_t counts[3] = {0, 0, 0};
    mnk_test_setup(&s, "");
    mnk_test_count_games(&s, counts);
    T_EQ(counts[0], 131184);
    T_EQ(counts[1], 77904);
    T_EQ(counts[2], 46080);
}

/* A naive m,n,k board for an independent perft: one byte per cell, and a
 * win is found by walking every line from every cell. */
typedef struct mnk_naive {
    int m, n, k;        /* The parameters. */
    signed char b[361]; /* -1 empty, else the player; index r * m + c. */
} mnk_naive;

static bool mnk_naive_won(const mnk_naive *g, int who)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->m; c++)
            for (int d = 0; d < 4; d++) {
                int i = 0;
                while (i < g->k) {
                    int rr = r + i * dr[d], cc = c + i * dc[d];
                    if (rr < 0 || rr >= g->n || cc < 0 || cc >= g->m || g->b[rr * g->m + cc] != who)
                        break;
                    i++;
                }
                if (i == g->k)
                    return true;
            }
    return false;
}

static uint64_t mnk_naive_perft(mnk_naive *g, int who, int depth)
{
    uint64_t total = 0;
    for (int i = 0; i < g->m * g->n; i++) {
        if (g->b[i] >= 0)
            continue;
        if (depth == 1) {
            total++;
            continue;
        }
        g->b[i] = (signed char)who;
        if (!mnk_naive_won(g, who))
            total += mnk_naive_perft(g, !who, depth - 1);
        g->b[i] = -1;
    }
    return total;
}

/* Boards that take both the one-word path (4x3, 4x4, 1x5, 5x1) and the
 * multi-word path (10x6, 19x4), several k including 1 and 2. */
void test_mnk_perft_naive(void)
{
    static const struct {
        int m, n, k, depth;
    } cases[] = {
        {4, 3, 3, 7}, {3, 4, 3, 7}, {4, 4, 4, 6},  {4, 4, 2, 6},  {1, 5, 2, 5},
        {5, 1, 3, 5}, {3, 3, 1, 3}, {10, 6, 2, 4}, {19, 4, 3, 3}, {2, 2, 2, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char params[64];
        mnk_test_state s;
        snprintf(params, sizeof params, "m=%d n=%d k=%d", cases[i].m, cases[i].n, cases[i].k);
        mnk_test_setup(&s, params);
        for (int d = 1; d <= cases[i].depth; d++) {
            mnk_naive g = {cases[i].m, cases[i].n, cases[i].k, {0}};
            memset(g.b, -1, sizeof g.b);
            uint64_t want = mnk_naive_perft(&g, 0, d), got = t_perft(G, &s, d);
            if (got != want)
                T_FAIL_AT("%s depth %d: perft %llu, naive %llu", params, d, (unsigned long long)got,
                          (unsigned long long)want);
        }
    }
}

void test_mnk_wins_3x3(void)
{
    T_EQ(mnk_test_game("", ""), -1);
    T_EQ(mnk_test_game("", "a1 a2 b1 b2 c1"), 0);    /* Bottom row. */
    T_EQ(mnk_test_game("", "a1 a3 b1 b3 c2 c3"), 1); /* Top row, by O. */
    T_EQ(mnk_test_game("", "a1 b1 a2 b2 a3"), 0);    /* Left column. */
    T_EQ(mnk_test_game("", "c1 a1 c2 b1 c3"), 0);    /* Right column. */
    T_EQ(mnk_test_game("", "a1 b2 b1 a2 a3 c2"), 1); /* Middle row, by O. */
    T_EQ(mnk_test_game("", "a1 b1 b2 c1 c3"), 0);    /* Diagonal a1-c3. */
    T_EQ(mnk_test_game("", "c1 a1 b2 b1 a3"), 0);    /* Diagonal c1-a3. */
    T_EQ(mnk_test_game("", "c1 a1 b2 b1 a2"), -1);
    T_EQ(mnk_test_game("", "a3 b3 c3 b2 a2 c2 b1 a1 c1"), 2); /* A full board, drawn. */
    T_EQ(mnk_test_game("", "a1 b1 c2 c1 b3 a2 c3 a3 b2"), 0); /* Won with the ninth stone. */
    /* Lines that would wrap onto the next row without the padding column. */
    T_EQ(mnk_test_game("", "c1 b2 a2 b3 b1"), -1);
    T_EQ(mnk_test_game("", "c2 b1 b3 a1 a2"), -1);
}

void test_mnk_wins_other_k(void)
{
    /* k = 1: the first stone wins; 1x1 is over at once. */
    T_EQ(mnk_test_game("k=1", "b2"), 0);
    T_EQ(mnk_test_game("m=1 n=1 k=1", "a1"), 0);
    T_EQ(mnk_test_game("m=1 n=2 k=2", "a1 a2"), 2);
    /* k = 4 on 7x6 (one word): edges, corners and both diagonals. */
    T_EQ(mnk_test_game("m=7 n=6 k=4", "d6 a1 e6 a2 f6 a3 g6"), 0);
    T_EQ(mnk_test_game("m=7 n=6 k=4", "g3 a1 g4 a2 g5 a3 g6"), 0);
    T_EQ(mnk_test_game("m=7 n=6 k=4", "a1 g6 b2 g5 c3 g4 d4"), 0);
    T_EQ(mnk_test_game("m=7 n=6 k=4", "g1 a6 f2 a5 e3 a4 d4"), 0);
    T_EQ(mnk_test_game("m=7 n=6 k=4", "a1 g3 b1 f4 c2 e5 c3 d6"), 1);
    T_EQ(mnk_test_game("m=7 n=6 k=4", "e1 d3 f1 d4 g1 d5 a2"), -1); /* No wrap across rows. */
    T_EQ(mnk_test_game("m=7 n=6 k=4", "g1 d3 a3 d4 b4 d5 c5"), -1); /* Nor diagonally. */
    /* k = 5 on 15x15 and 19x19 (several words), at the far edges. */
    T_EQ(mnk_test_game("m=15 n=15 k=5", "k15 a1 l15 a2 m15 a3 n15 a4 o15"), 0);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "o1 a1 o2 a2 o3 a3 o4 b4 h8 o5"), -1);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "h8 a1 h9 a2 h10 a3 h11 a4 b1 a5"), 1);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "k11 a1 l12 a2 m13 a3 n14 a4 o15"), 0);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "o1 a1 n2 a2 m3 a3 l4 a4 k5"), 0);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "a15 o1 b14 o2 c13 o3 d12 o4 e11"), 0);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "l1 h8 m1 h9 n1 h10 o1 h12 a2"), -1);
    T_EQ(mnk_test_game("m=15 n=15 k=5", "o1 h8 a3 h9 b4 h10 c5 h12 d6"), -1);
    T_EQ(mnk_test_game("m=19 n=19 k=5", "o15 a1 p16 a2 q17 a3 r18 a4 s19"), 0);
    T_EQ(mnk_test_game("m=19 n=19 k=5", "s1 a19 s2 b19 s3 c19 j10 d19 s5 e19"), 1);
    T_EQ(mnk_test_game("m=19 n=19 k=6", "a1 s19 b1 s18 c1 s17 d1 s16 e1 s15 f1"), 0);
    /* k larger than one side: only the long direction counts. */
    T_EQ(mnk_test_game("m=5 n=3 k=5", "a1 a2 b1 b2 c1 c2 d1 d2 e1"), 0);
    T_EQ(mnk_test_game("m=3 n=5 k=5", "a1 b1 a2 b2 a3 b3 a4 b4 a5"), 0);
}

/* Moves after the end, occupied cells and off-board cells are rejected,
 * and a failed load leaves the state exactly as it was. */
void test_mnk_load_errors(void)
{
    static const struct {
        const char *text;
        int rc;
    } cases[] = {
        {"a1 a1", BANYAN_EILLEGAL},    {"a1 a2 b1 b2 c1 c2", BANYAN_EILLEGAL},
        {"a1 d1", BANYAN_ERANGE},      {"a1 a4", BANYAN_ERANGE},
        {"a1 zz", BANYAN_EINVAL},      {"a1b2", BANYAN_EINVAL},
        {"a 1", BANYAN_EINVAL},        {"a1;b2", BANYAN_EINVAL},
        {"b2 a1 c3 ?", BANYAN_EINVAL}, {"a1 b2 c3 b1 b3 a3 c1 c2 a2 a2", BANYAN_EILLEGAL},
    };
    mnk_test_state s, before;
    mnk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, "c3 b2"), BANYAN_OK);
    before = s;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        T_EQ(G->notation->load(&s, cases[i].text), cases[i].rc);
        T_TRUE(memcmp(&s, &before, G->state_size) == 0);
    }
    T_EQ(G->notation->load(&s, NULL), BANYAN_EINVAL);
    T_TRUE(memcmp(&s, &before, G->state_size) == 0);
}

/* Separators, replacing rather than appending, and equal bytes for equal
 * move lists written differently. */
void test_mnk_load(void)
{
    mnk_test_state a, b, start;
    mnk_test_setup(&a, "");
    mnk_test_setup(&b, "");
    mnk_test_setup(&start, "");
    T_EQ(G->notation->load(&a, "b2 a1 c3"), BANYAN_OK);
    T_EQ(G->notation->load(&b, " ,B2,,1a , C3,\t"), BANYAN_OK);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    T_EQ(G->to_move(&a), 1);
    T_EQ(G->notation->load(&a, ""), BANYAN_OK);
    T_TRUE(memcmp(&a, &start, G->state_size) == 0);
    T_EQ(G->notation->load(&a, "c3"), BANYAN_OK);
    T_EQ(G->notation->load(&a, "c3"), BANYAN_OK); /* From the start again, so legal. */
    T_EQ(G->to_move(&a), 1);
    /* A larger board keeps its size through load. */
    mnk_test_setup(&a, "m=19 n=19 k=5");
    T_EQ(G->notation->load(&a, "s19 a1 j10"), BANYAN_OK);
    T_EQ(mnk_test_result(&a), -1);
    banyan_move moves[BANYAN_MAX_MOVES];
    T_EQ(G->moves(&a, moves), 361 - 3);
}

void test_mnk_print(void)
{
    mnk_test_state s;
    banyan_move m;
    char buf[1024];
    mnk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, "b2 a1 c3"), BANYAN_OK);
    T_EQ(G->notation->parse_move(&s, "c3", &m), BANYAN_OK);
    const char *want = " 3 . .(X)\n 2 . X .\n 1 O . .\n   a b c\n";
    T_EQ(banyan_game_print(G, &s, m, 0, buf, sizeof buf), strlen(want));
    T_STR(buf, want);
    const char *plain = " 3 . . X\n 2 . X .\n 1 O . .\n   a b c\n";
    T_EQ(banyan_game_print(G, &s, BANYAN_MOVE_NONE, 0, buf, sizeof buf), strlen(plain));
    T_STR(buf, plain);
    T_EQ(G->notation->parse_move(&s, "a1", &m), BANYAN_OK);
    const char *corner = " 3 . . X\n 2 . X .\n 1(O). .\n   a b c\n";
    banyan_game_print(G, &s, m, 0, buf, sizeof buf);
    T_STR(buf, corner);
    /* snprintf-style: the needed length, a truncated but terminated text. */
    T_EQ(banyan_game_print(G, &s, m, 0, NULL, 0), strlen(corner));
    T_EQ(banyan_game_print(G, &s, m, 0, buf, 5), strlen(corner));
    T_STR(buf, " 3 .");
    /* Two-digit rows and the 19th column letter. */
    mnk_test_setup(&s, "m=19 n=19 k=5");
    T_EQ(G->notation->load(&s, "s19 a1"), BANYAN_OK);
    T_EQ(G->notation->parse_move(&s, "s19", &m), BANYAN_OK);
    int n = banyan_game_print(G, &s, m, 0, buf, sizeof buf);
    T_EQ(n, strlen(buf));
    T_TRUE(strncmp(buf, "19 . . . . . . . . . . . . . . . . . .(X)\n", 42) == 0);
    T_TRUE(strstr(buf, "\n 1 O . .") != NULL);
    T_TRUE(strstr(buf, "   a b c d e f g h i j k l m n o p q r s\n") != NULL);
    T_EQ(buf[n - 1], '\n');
    /* A board wider than high, and a last move that is no cell of it. */
    mnk_test_setup(&s, "m=4 n=2 k=3");
    T_EQ(G->notation->load(&s, "d2 a1 b2"), BANYAN_OK);
    T_EQ(G->notation->parse_move(&s, "d2", &m), BANYAN_OK);
    banyan_game_print(G, &s, m, 0, buf, sizeof buf);
    T_STR(buf, " 2 . X .(X)\n 1 O . . .\n   a b c d\n");
    banyan_game_print(G, &s, 8, 0, buf, sizeof buf);
    T_STR(buf, " 2 . X . X\n 1 O . . .\n   a b c d\n");
}

/* format then parse gives back every cell, in several spellings, on
 * boards of several shapes. */
void test_mnk_notation_round_trip(void)
{
    static const char *const sizes[] = {"", "m=19 n=19 k=5", "m=5 n=7 k=4", "m=1 n=1 k=1"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        mnk_test_state s;
        banyan_move moves[BANYAN_MAX_MOVES];
        mnk_test_setup(&s, sizes[i]);
        int n = G->moves(&s, moves);
        for (int j = 0; j < n; j++) {
            char text[16], alt[40];
            banyan_move m = BANYAN_MOVE_NONE;
            T_EQ(moves[j], (banyan_move)j); /* Ascending cell index from a1. */
            int len = G->notation->format_move(&s, moves[j], text, sizeof text);
            T_EQ(len, strlen(text));
            T_EQ(G->notation->parse_move(&s, text, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
            /* Upper case, digits first, inner and outer spaces. */
            snprintf(alt, sizeof alt, " \t%c%s ", text[0] - 'a' + 'A', text + 1);
            m = BANYAN_MOVE_NONE;
            T_EQ(G->notation->parse_move(&s, alt, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
            snprintf(alt, sizeof alt, "%s%c", text + 1, text[0]);
            m = BANYAN_MOVE_NONE;
            T_EQ(G->notation->parse_move(&s, alt, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
            snprintf(alt, sizeof alt, "%c  %s", text[0], text + 1);
            m = BANYAN_MOVE_NONE;
            T_EQ(G->notation->parse_move(&s, alt, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
        }
    }
}

void test_mnk_notation_errors(void)
{
    static const struct {
        const char *text;
        int rc;
    } cases[] = {
        {"d1", BANYAN_ERANGE},
        {"a4", BANYAN_ERANGE},
        {"D3", BANYAN_ERANGE},
        {"z1", BANYAN_ERANGE},
        {"a0", BANYAN_ERANGE},
        {"4a", BANYAN_ERANGE},
        {"s19", BANYAN_ERANGE},
        {"a 99", BANYAN_ERANGE},
        {"a99999999999999999999999", BANYAN_ERANGE},
        {"", BANYAN_EINVAL},
        {"   ", BANYAN_EINVAL},
        {"1", BANYAN_EINVAL},
        {"a", BANYAN_EINVAL},
        {"aa1", BANYAN_EINVAL},
        {"a1b2", BANYAN_EINVAL},
        {"a1a", BANYAN_EINVAL},
        {"1a1", BANYAN_EINVAL},
        {"a01", BANYAN_EINVAL},
        {"a-1", BANYAN_EINVAL},
        {"a+1", BANYAN_EINVAL},
        {"a1.", BANYAN_EINVAL},
        {"#", BANYAN_EINVAL},
        {"a1,", BANYAN_EINVAL},
        {"a 1 b", BANYAN_EINVAL},
        {"\2001", BANYAN_EINVAL}, /* Octal 200, then a digit. */
        {"pass", BANYAN_EINVAL},
        {"a1 b2", BANYAN_EINVAL},
    };
    mnk_test_state s;
    mnk_test_setup(&s, "");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        banyan_move m = 12345;
        int rc = G->notation->parse_move(&s, cases[i].text, &m);
        if (rc != cases[i].rc)
            T_FAIL_AT("parse_move(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        T_EQ(m, 12345); /* Written only on success. */
    }
    banyan_move m = 12345;
    T_EQ(G->notation->parse_move(&s, NULL, &m), BANYAN_EINVAL);
    /* Very long texts: letters, digits, spaces. */
    static char big[20001];
    memset(big, 'a', sizeof big - 1);
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_EINVAL);
    memset(big + 1, '9', sizeof big - 2);
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_ERANGE);
    memset(big, ' ', sizeof big - 1);
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_EINVAL);
    big[sizeof big / 2] = 'b';
    big[sizeof big / 2 + 1] = '2';
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_OK);
    T_EQ(m, 4);
    T_EQ(G->notation->load(&s, big), BANYAN_OK);
    /* format_move is snprintf-style too. */
    char text[4];
    T_EQ(G->notation->format_move(&s, 8, text, 2), 2);
    T_STR(text, "c");
    T_EQ(G->notation->format_move(&s, 8, NULL, 0), 2);
}

/* Random short texts over the characters the parser cares about: the
 * answer is always one of the three codes, and a success names a cell that
 * formats back to the same move. */
void test_mnk_notation_fuzz(void)
{
    static const char alphabet[] = "aAcdsz019 ,\t-";
    mnk_test_state s;
    banyan_rng rng;
    mnk_test_setup(&s, "m=4 n=12 k=3");
    banyan_rng_seed(&rng, 7, 0);
    for (int i = 0; i < 20000; i++) {
        char text[12], back[16];
        uint32_t len = banyan_rng_below(&rng, sizeof text);
        for (uint32_t j = 0; j < len; j++)
            text[j] = alphabet[banyan_rng_below(&rng, sizeof alphabet - 1)];
        text[len] = 0;
        banyan_move m = BANYAN_MOVE_NONE, again = BANYAN_MOVE_NONE;
        int rc = G->notation->parse_move(&s, text, &m);
        T_TRUE(rc == BANYAN_OK || rc == BANYAN_EINVAL || rc == BANYAN_ERANGE);
        if (rc == BANYAN_OK) {
            T_TRUE(m < 48);
            G->notation->format_move(&s, m, back, sizeof back);
            T_EQ(G->notation->parse_move(&s, back, &again), BANYAN_OK);
            T_EQ(again, m);
        } else {
            T_EQ(m, BANYAN_MOVE_NONE);
        }
        mnk_test_state copy = s;
        rc = G->notation->load(&copy, text);
        T_TRUE(rc == BANYAN_OK || rc == BANYAN_EINVAL || rc == BANYAN_ERANGE ||
               rc == BANYAN_EILLEGAL);
        if (rc != BANYAN_OK)
            T_TRUE(memcmp(&copy, &s, G->state_size) == 0);
        else
            T_TRUE(G->is_valid(&copy));
    }
}

void test_mnk_setup_errors(void)
{
    static const char *const bad[] = {
        "x=3",
        "m=0",
        "m=20",
        "n=0",
        "n=20",
        "k=0",
        "k=4",
        "m=3x",
        "m=",
        "=3",
        "m",
        "m=3 n",
        "m=-3",
        "m=3.0",
        "m=4 n=4 k=5",
        "m=1 n=1 k=2",
        "M=3",
        "m=3;n=3",
        "m=99999999999999999999",
        "m=3 k=3 x",
    };
    static const char *const good[] = {
        NULL, "", " , ", "m=4", " m=4 , n=4 ,k=4 ", "m=5 n=3 k=5", "m=19,n=19,k=19", "k=1",
    };
    mnk_test_state s;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (G->setup(&s, bad[i]) != BANYAN_EINVAL)
            T_FAIL_AT("setup(\"%s\") accepted", bad[i]);
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (G->setup(&s, good[i]) != BANYAN_OK)
            T_FAIL_AT("setup(\"%s\") refused", good[i] ? good[i] : "NULL");
        T_TRUE(G->is_valid(&s));
    }
    /* The defaults are 3,3,3. */
    banyan_move moves[BANYAN_MAX_MOVES];
    T_EQ(G->setup(&s, NULL), BANYAN_OK);
    T_EQ(G->moves(&s, moves), 9);
    T_EQ(G->setup(&s, "m=4 n=5"), BANYAN_OK);
    T_EQ(G->moves(&s, moves), 20);
}

/* What a batch of random games came to. */
typedef struct mnk_test_stats {
    double results[3]; /* Fractions of X wins, O wins and draws. */
    double len;        /* Mean number of stones at the end. */
    double len_var;    /* Their variance. */
} mnk_test_stats;

/* Plays n random games from s, with the game's rollout or with a uniform
 * choice among moves() (the engine's generic default). */
static mnk_test_stats mnk_test_random(const mnk_test_state *s, int n, bool fast, uint64_t seed)
{
    mnk_test_stats st = {{0, 0, 0}, 0, 0};
    banyan_rng rng;
    banyan_move moves[BANYAN_MAX_MOVES];
    double sum = 0, sum2 = 0;
    banyan_rng_seed(&rng, seed, 0);
    for (int i = 0; i < n; i++) {
        mnk_test_state t;
        int n_moves, len = 0;
        memcpy(&t, s, G->state_size);
        if (fast)
            G->rollout(&t, &rng);
        else
            while ((n_moves = G->moves(&t, moves)) > 0)
                G->play(&t, moves[banyan_rng_below(&rng, (uint32_t)n_moves)]);
        int r = mnk_test_result(&t);
        if (r < 0) {
            T_FAIL_AT("a random game did not end");
            break;
        }
        st.results[r] += 1.0 / n;
        int w, h;
        G->board->board_size(&t, &w, &h);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                len += G->board->piece(&t, x, y) >= 0;
        sum += len;
        sum2 += (double)len * len;
    }
    st.len = sum / n;
    st.len_var = sum2 / n - st.len * st.len;
    return st;
}

/* Whether two estimates of one quantity lie within 5 standard errors. */
static bool mnk_test_close(double a, double b, double se)
{
    return fabs(a - b) <= 5 * se + 1e-12;
}

/* Tic-tac-toe from the start against the exact frequencies of random play
 * (737/1260, 121/420, 8/63), and the rollout against the generic default
 * from other positions and boards. Tolerances are five standard errors: a
 * rollout that favours some cells or misses a line fails by far more. */
void test_mnk_rollout_distribution(void)
{
    static const double exact[3] = {737.0 / 1260, 121.0 / 420, 8.0 / 63};
    const int n = 200000;
    mnk_test_state s;
    mnk_test_setup(&s, "");
    for (int fast = 1; fast >= 0; fast--) {
        mnk_test_stats st = mnk_test_random(&s, n, fast, (uint64_t)fast + 1);
        for (int r = 0; r < 3; r++)
            if (!mnk_test_close(st.results[r], exact[r], sqrt(exact[r] * (1 - exact[r]) / n)))
                T_FAIL_AT("%s result %d: %.5f, exact %.5f", fast ? "rollout" : "default", r,
                          st.results[r], exact[r]);
        T_NEAR(st.len, 7.63, 0.02);
    }

    /* banyan_random_games goes through the rollout and sums the returns. */
    double sums[2];
    banyan_rng rng;
    unsigned char scratch[sizeof s];
    banyan_rng_seed(&rng, 3, 0);
    banyan_random_games(G, &s, (uint64_t)n, &rng, scratch, sums);
    T_NEAR(sums[0] / n, exact[0] + exact[2] / 2, 5 * 0.001);
    T_NEAR(sums[0] + sums[1], n, 1e-6);

    static const struct {
        const char *params, *moves;
        int n;
    } cases[] = {
        {"", "b2", 100000},         {"", "a1 b2 c3", 100000},      {"m=5 n=5 k=4", "", 40000},
        {"m=8 n=8 k=4", "", 20000}, {"m=15 n=15 k=5", "h8", 4000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mnk_test_setup(&s, cases[i].params);
        T_EQ(G->notation->load(&s, cases[i].moves), BANYAN_OK);
        int m = cases[i].n;
        mnk_test_stats a = mnk_test_random(&s, m, true, 10 + i);
        mnk_test_stats b = mnk_test_random(&s, m, false, 20 + i);
        for (int r = 0; r < 3; r++) {
            double p = (a.results[r] + b.results[r]) / 2;
            if (!mnk_test_close(a.results[r], b.results[r], sqrt(p * (1 - p) * 2 / m)))
                T_FAIL_AT("%s / %s result %d: rollout %.4f, default %.4f", cases[i].params,
                          cases[i].moves, r, a.results[r], b.results[r]);
        }
        if (!mnk_test_close(a.len, b.len, sqrt((a.len_var + b.len_var) / m)))
            T_FAIL_AT("%s / %s length: rollout %.3f, default %.3f", cases[i].params, cases[i].moves,
                      a.len, b.len);
    }
}

/* Transposed move orders give equal states and hashes; every distinct
 * tic-tac-toe position has its own hash. */
void test_mnk_hash(void)
{
    mnk_test_state a, b;
    mnk_test_setup(&a, "");
    mnk_test_setup(&b, "");
    T_EQ(G->notation->load(&a, "a1 b2 c3 a2"), BANYAN_OK);
    T_EQ(G->notation->load(&b, "c3 a2 a1 b2"), BANYAN_OK);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    T_EQ(G->hash(&a), G->hash(&b));
    T_EQ(G->notation->load(&b, "c3 b2 a1 a2"), BANYAN_OK);
    T_TRUE(G->hash(&a) == G->hash(&b));
    T_EQ(G->notation->load(&b, "a2 b2 c3 a1"), BANYAN_OK); /* Colours swapped on a1, a2. */
    T_TRUE(G->hash(&a) != G->hash(&b));
    T_EQ(G->notation->load(&b, "a1 b2 c3"), BANYAN_OK);
    T_TRUE(G->hash(&a) != G->hash(&b));

    mnk_test_setup(&a, "m=19 n=19 k=5");
    mnk_test_setup(&b, "m=19 n=19 k=5");
    T_EQ(G->notation->load(&a, "s19 a1 j10 k10"), BANYAN_OK);
    T_EQ(G->notation->load(&b, "j10 k10 s19 a1"), BANYAN_OK);
    T_EQ(G->hash(&a), G->hash(&b));
    T_EQ(G->notation->load(&b, "j10 k10 s18 a1"), BANYAN_OK);
    T_TRUE(G->hash(&a) != G->hash(&b));

    /* Every reachable position: the diagram is the key. Positions reached
     * twice must hash alike, and different ones differently. */
    static uint64_t by_key[19683];
    static bool seen[19683];
    static uint64_t hashes[19683];
    memset(seen, 0, sizeof seen);
    mnk_test_state stack[10];
    banyan_move moves[10][BANYAN_MAX_MOVES];
    int n_moves[10], next[10], depth = 0, n_positions = 0;
    mnk_test_setup(&stack[0], "");
    n_moves[0] = G->moves(&stack[0], moves[0]);
    next[0] = 0;
    for (;;) {
        char buf[128];
        int key = 0;
        banyan_game_print(G, &stack[depth], BANYAN_MOVE_NONE, 0, buf, sizeof buf);
        for (const char *p = buf; *p && *p != 'a'; p++)
            if (*p == '.' || *p == 'X' || *p == 'O' || *p == 'x' || *p == 'o')
                key = key * 3 + (*p == 'X' || *p == 'x' ? 1 : *p == 'O' || *p == 'o' ? 2 : 0);
        uint64_t h = G->hash(&stack[depth]);
        if (seen[key]) {
            T_EQ(by_key[key], h);
        } else {
            seen[key] = true;
            by_key[key] = h;
            hashes[n_positions++] = h;
        }
        while (depth >= 0 && next[depth] == n_moves[depth])
            depth--;
        if (depth < 0)
            break;
        stack[depth + 1] = stack[depth];
        G->play(&stack[depth + 1], moves[depth][next[depth]++]);
        depth++;
        n_moves[depth] = G->moves(&stack[depth], moves[depth]);
        next[depth] = 0;
    }
    T_EQ(n_positions, 5478);
    for (int i = 0; i < n_positions; i++)
        for (int j = i + 1; j < n_positions; j++)
            if (hashes[i] == hashes[j])
                T_FAIL_AT("positions %d and %d share hash %llx", i, j,
                          (unsigned long long)hashes[i]);
}

/* The winning line: its cells, drawn in lower case; none before the end. */
void test_mnk_win_line(void)
{
    mnk_test_state s;
    int x[16], y[16];
    char buf[256];
    mnk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, "a1 b1 b2 c1"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &s, x, y, 16), 0);
    T_EQ(G->notation->load(&s, "a1 b1 b2 c1 c3"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &s, x, y, 16), 3);
    /* Scanned by direction, then from the top: c3, b2, a1 is the diagonal up. */
    T_EQ(x[0] + y[0] + x[1] + y[1] + x[2] + y[2], 6);
    T_EQ(banyan_game_win_line(G, &s, x, y, 2), 2); /* Room for two: two. */
    const char *want = " 3 . . x\n 2 . x .\n 1 x O O\n   a b c\n";
    T_EQ(banyan_game_print(G, &s, BANYAN_MOVE_NONE, 0, buf, sizeof buf), strlen(want));
    T_STR(buf, want);
    /* An overline of a 5,5,3-game counts whole; both lines of a double win. */
    mnk_test_setup(&s, "m=5 n=5 k=3");
    T_EQ(G->notation->load(&s, "a1 a5 b1 b5 d1 d5 e1 e5 c1"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &s, x, y, 16), 5);
    for (int i = 0; i < 5; i++)
        T_EQ(y[i], 4);
    T_EQ(banyan_game_win_line(NULL, &s, x, y, 16), 0);
    T_EQ(banyan_game_win_line(G, &s, x, y, 0), 0);
}
