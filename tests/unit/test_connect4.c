/*
 * test_connect4.c - the Connect Four module: perft, fours in every
 * direction and at the edges, full columns, notation in and out, the
 * reference positions of tests/data, and the fast rollout against plain
 * uniform play through moves() and play().
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "t.h"

#define T(name) void name(void);
#include "list.h"
#undef T

#define G (&banyan_game_connect4)

/* Room for the state, aligned for its words. */
typedef struct c4_test_state {
    uint64_t words[16]; /* 128 bytes, checked against state_size. */
} c4_test_state;

static void c4_test_setup(c4_test_state *s)
{
    T_TRUE(G->state_size <= sizeof *s);
    memset(s, 0x5a, sizeof *s);
    T_EQ(G->setup(s, NULL), BANYAN_OK);
}

/* -1 while the game goes on, else 0 (first player won), 1 or 2 (draw),
 * after checking that moves() and outcome() agree and the state is valid. */
static int c4_test_result(const c4_test_state *s)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[2];
    int n = G->moves(s, moves);
    bool over = G->outcome(s, ret);
    T_TRUE(G->is_valid(s));
    T_EQ(n == 0, over);
    if (!over)
        return -1;
    return ret[0] == 1.0 ? 0 : ret[0] == 0.0 ? 1 : 2;
}

static int c4_test_game(const char *moves)
{
    c4_test_state s;
    c4_test_setup(&s);
    int rc = G->notation->load(&s, moves);
    if (rc != BANYAN_OK) {
        T_FAIL_AT("load(\"%s\") gave %d", moves, rc);
        return -2;
    }
    return c4_test_result(&s);
}

void test_c4_perft(void)
{
    static const uint64_t expected[] = {7, 49, 343, 2401, 16807, 117649, 823536};
    c4_test_state s;
    c4_test_setup(&s);
    for (int d = 1; d <= 7; d++)
        T_EQ(t_perft(G, &s, d), expected[d - 1]);
    /* Column a full: six columns left for every ply. */
    T_EQ(G->notation->load(&s, "111111"), BANYAN_OK);
    T_EQ(t_perft(G, &s, 1), 6);
    T_EQ(t_perft(G, &s, 3), 216);
}

void test_c4_wins(void)
{
    T_EQ(c4_test_game(""), -1);
    T_EQ(c4_test_game("1212121"), 0);      /* Up column a. */
    T_EQ(c4_test_game("7171717"), 0);      /* Up column g. */
    T_EQ(c4_test_game("3212121"), -1);     /* Three up column a. */
    T_EQ(c4_test_game("1122334"), 0);      /* Along the bottom, from a. */
    T_EQ(c4_test_game("7766554"), 0);      /* Along the bottom, to g. */
    T_EQ(c4_test_game("111416223443"), 1); /* Along the second row, by O. */
    T_EQ(c4_test_game("12234334744"), 0);  /* Diagonal a1-d4. */
    T_EQ(c4_test_game("76654554144"), 0);  /* Diagonal g1-d4. */
    T_EQ(c4_test_game("111222333"), -1);   /* Columns alternate: no four. */
    /* Found by random play: a four along the top row, one at the top of
     * column g, and one on the diagonal that ends in the corner g6. */
    T_EQ(c4_test_game("676614462265236742417355557133345732274"), 0);
    T_EQ(c4_test_game("71174461364432247572567562247"), 0);
    T_EQ(c4_test_game("4146756655475516721424634176277"), 0);
    /* A line that would wrap without the sentinel row: the top three of
     * column a and the bottom disc of column b. */
    T_EQ(c4_test_game("21717117161"), -1);
    /* A full board without a four. */
    T_EQ(c4_test_game("442761225377252342545563474175371666631311"), 2);
}

/* Full columns, moves after the end, malformed and off-board digits; the
 * state is unchanged after every failure. */
void test_c4_load_errors(void)
{
    static const struct {
        const char *text;
        int rc;
    } cases[] = {
        {"1111111", BANYAN_EILLEGAL},
        {"12121212", BANYAN_EILLEGAL},
        {"8", BANYAN_ERANGE},
        {"0", BANYAN_ERANGE},
        {"4459", BANYAN_ERANGE},
        {"44a", BANYAN_EINVAL},
        {"4,4", BANYAN_EINVAL},
        {"4-4", BANYAN_EINVAL},
        {"442761225377252342545563474175371666631311 1", BANYAN_EILLEGAL},
    };
    c4_test_state s, before;
    c4_test_setup(&s);
    T_EQ(G->notation->load(&s, "4453"), BANYAN_OK);
    before = s;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        T_EQ(G->notation->load(&s, cases[i].text), cases[i].rc);
        T_TRUE(memcmp(&s, &before, G->state_size) == 0);
    }
    T_EQ(G->notation->load(&s, NULL), BANYAN_EINVAL);
    T_TRUE(memcmp(&s, &before, G->state_size) == 0);
}

void test_c4_load_print(void)
{
    c4_test_state a, b, start;
    char buf[256];
    banyan_move m;
    c4_test_setup(&a);
    c4_test_setup(&b);
    c4_test_setup(&start);
    T_EQ(G->notation->load(&a, "4453"), BANYAN_OK);
    T_EQ(G->notation->load(&b, " 4 4\t5 3 \n"), BANYAN_OK);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    T_EQ(G->to_move(&a), 0);
    T_EQ(G->notation->parse_move(&a, "c", &m), BANYAN_OK);
    const char *want = " . . . . . . .\n"
                       " . . . . . . .\n"
                       " . . . . . . .\n"
                       " . . . . . . .\n"
                       " . . . O . . .\n"
                       " . .(O)X X . .\n"
                       " a b c d e f g\n";
    T_EQ(banyan_game_print(G, &a, m, 0, buf, sizeof buf), strlen(want));
    T_STR(buf, want);
    T_EQ(banyan_game_print(G, &a, m, 0, NULL, 0), strlen(want));
    T_EQ(banyan_game_print(G, &a, m, 0, buf, 4), strlen(want));
    T_STR(buf, " . ");
    /* The marked disc is the top one of the column; g at the right edge. */
    T_EQ(G->notation->load(&a, "77"), BANYAN_OK);
    banyan_game_print(G, &a, 6, 0, buf, sizeof buf);
    T_TRUE(strstr(buf, " . . . . . .(O)\n . . . . . . X\n a b") != NULL);
    /* Load replaces the position rather than adding to it. */
    T_EQ(G->notation->load(&a, ""), BANYAN_OK);
    T_TRUE(memcmp(&a, &start, G->state_size) == 0);
    banyan_game_print(G, &a, BANYAN_MOVE_NONE, 0, buf, sizeof buf);
    T_TRUE(strchr(buf, 'X') == NULL && strchr(buf, '(') == NULL);
}

void test_c4_notation(void)
{
    static const struct {
        const char *text;
        int rc;
        banyan_move m;
    } cases[] = {
        {"a", BANYAN_OK, 0},
        {"G", BANYAN_OK, 6},
        {"1", BANYAN_OK, 0},
        {"7", BANYAN_OK, 6},
        {" d ", BANYAN_OK, 3},
        {"\t4\n", BANYAN_OK, 3},
        {"h", BANYAN_ERANGE, 0},
        {"H", BANYAN_ERANGE, 0},
        {"z", BANYAN_ERANGE, 0},
        {"8", BANYAN_ERANGE, 0},
        {"0", BANYAN_ERANGE, 0},
        {"10", BANYAN_ERANGE, 0},
        {"99999999999999999999", BANYAN_ERANGE, 0},
        {"", BANYAN_EINVAL, 0},
        {"  ", BANYAN_EINVAL, 0},
        {"ab", BANYAN_EINVAL, 0},
        {"a1", BANYAN_EINVAL, 0},
        {"1a", BANYAN_EINVAL, 0},
        {"-1", BANYAN_EINVAL, 0},
        {"+1", BANYAN_EINVAL, 0},
        {"04", BANYAN_EINVAL, 0},
        {"#", BANYAN_EINVAL, 0},
        {"d d", BANYAN_EINVAL, 0},
        {"a1b2", BANYAN_EINVAL, 0},
        {"aa1", BANYAN_EINVAL, 0},
        {"\xe4", BANYAN_EINVAL, 0},
    };
    c4_test_state s;
    c4_test_setup(&s);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        banyan_move m = 12345;
        int rc = G->notation->parse_move(&s, cases[i].text, &m);
        if (rc != cases[i].rc)
            T_FAIL_AT("parse_move(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        T_EQ(m, rc == BANYAN_OK ? cases[i].m : 12345);
    }
    banyan_move m = 12345;
    T_EQ(G->notation->parse_move(&s, NULL, &m), BANYAN_EINVAL);
    static char big[10001];
    memset(big, '4', sizeof big - 1);
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_ERANGE);
    memset(big, 'd', sizeof big - 1);
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_EINVAL);
    memset(big, ' ', sizeof big - 1);
    big[5000] = 'e';
    T_EQ(G->notation->parse_move(&s, big, &m), BANYAN_OK);
    T_EQ(m, 4);
    /* Every column formats to its letter and parses back, also full ones. */
    T_EQ(G->notation->load(&s, "444444"), BANYAN_OK);
    for (banyan_move c = 0; c < 7; c++) {
        char text[8], digit[4];
        T_EQ(G->notation->format_move(&s, c, text, sizeof text), 1);
        T_EQ(text[0], 'a' + (int)c);
        T_EQ(G->notation->parse_move(&s, text, &m), BANYAN_OK);
        T_EQ(m, c);
        snprintf(digit, sizeof digit, "%d", (int)c + 1);
        T_EQ(G->notation->parse_move(&s, digit, &m), BANYAN_OK);
        T_EQ(m, c);
    }
    char one[1];
    T_EQ(G->notation->format_move(&s, 2, one, sizeof one), 1);
    T_EQ(one[0], 0);
    /* moves() lists playable columns in order; the full column d is gone. */
    banyan_move moves[BANYAN_MAX_MOVES];
    T_EQ(G->moves(&s, moves), 6);
    T_EQ(moves[2], 2);
    T_EQ(moves[3], 4);
}

void test_c4_setup(void)
{
    static const char *const bad[] = {"w=7", "x", "=3", "a=", "width=8 height=7", "4"};
    c4_test_state s;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (G->setup(&s, bad[i]) != BANYAN_EINVAL)
            T_FAIL_AT("setup(\"%s\") accepted", bad[i]);
    T_EQ(G->setup(&s, NULL), BANYAN_OK);
    T_EQ(G->setup(&s, ""), BANYAN_OK);
    T_EQ(G->setup(&s, " , "), BANYAN_OK);
    T_TRUE(G->is_valid(&s));
    T_EQ(G->to_move(&s), 0);
}

/* Plays n random games from s with the rollout or with a uniform choice
 * among moves(), counting first-player wins, second-player wins and draws
 * as fractions, and the mean number of discs at the end. */
static void c4_test_random(const c4_test_state *s, int n, bool fast, uint64_t seed, double *results,
                           double *len)
{
    banyan_rng rng;
    banyan_move moves[BANYAN_MAX_MOVES];
    char buf[256];
    banyan_rng_seed(&rng, seed, 0);
    results[0] = results[1] = results[2] = *len = 0;
    for (int i = 0; i < n; i++) {
        c4_test_state t = *s;
        int n_moves;
        if (fast)
            G->rollout(&t, &rng);
        else
            while ((n_moves = G->moves(&t, moves)) > 0)
                G->play(&t, moves[banyan_rng_below(&rng, (uint32_t)n_moves)]);
        int r = c4_test_result(&t);
        if (r < 0) {
            T_FAIL_AT("a random game did not end");
            break;
        }
        results[r] += 1.0 / n;
        if (i % 16 == 0) { /* Lengths from a sample: printing costs more than playing. */
            banyan_game_print(G, &t, BANYAN_MOVE_NONE, 0, buf, sizeof buf);
            for (const char *p = buf; *p; p++)
                *len +=
                    (*p == 'X' || *p == 'O' || *p == 'x' || *p == 'o') / (double)((n + 15) / 16);
        }
    }
}

/* The rollout against the published random-play figures (first player
 * about 55.6%, draws about 0.25%, 21.3 discs) and against the generic
 * default from the start and from a middle position. Five standard errors,
 * plus the rounding of the published figure. */
void test_c4_rollout_distribution(void)
{
    const int n = 200000;
    double a[3], b[3], len_a, len_b;
    c4_test_state s;
    c4_test_setup(&s);
    c4_test_random(&s, n, true, 1, a, &len_a);
    c4_test_random(&s, n, false, 2, b, &len_b);
    T_NEAR(a[0], 0.556, 5 * 0.0011 + 0.001);
    T_NEAR(a[2], 0.0025, 5 * 0.00011 + 0.0003);
    T_NEAR(len_a, 21.3, 0.15);
    for (int r = 0; r < 3; r++) {
        double p = (a[r] + b[r]) / 2;
        T_NEAR(a[r], b[r], 5 * sqrt(p * (1 - p) * 2 / n) + 1e-12);
    }
    T_NEAR(len_a, len_b, 0.15);

    double sums[2];
    banyan_rng rng;
    unsigned char scratch[sizeof s];
    banyan_rng_seed(&rng, 3, 0);
    banyan_random_games(G, &s, (uint64_t)n, &rng, scratch, sums);
    T_NEAR(sums[0] / n, 0.556 + 0.0025 / 2, 5 * 0.0011 + 0.001);

    /* From a crowded middle game, where full columns matter. */
    T_EQ(G->notation->load(&s, "4444441111113333"), BANYAN_OK);
    c4_test_random(&s, 100000, true, 4, a, &len_a);
    c4_test_random(&s, 100000, false, 5, b, &len_b);
    for (int r = 0; r < 3; r++) {
        double p = (a[r] + b[r]) / 2;
        T_NEAR(a[r], b[r], 5 * sqrt(p * (1 - p) * 2 / 100000) + 1e-12);
    }
    T_NEAR(len_a, len_b, 0.3);
}

/* One hashed position with its diagram, for comparing hashes and
 * positions by sorting. */
typedef struct c4_test_seen {
    uint64_t hash;   /* G->hash of the position. */
    char board[128]; /* Its diagram, which names the position. */
} c4_test_seen;

static int c4_test_by_hash(const void *a, const void *b)
{
    const c4_test_seen *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return strcmp(x->board, y->board);
}

static void c4_test_collect(const c4_test_state *s, int depth, c4_test_seen *out, int *n)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    out[*n].hash = G->hash(s);
    banyan_game_print(G, s, BANYAN_MOVE_NONE, 0, out[*n].board, sizeof out[*n].board);
    (*n)++;
    if (depth == 0)
        return;
    int n_moves = G->moves(s, moves);
    for (int i = 0; i < n_moves; i++) {
        c4_test_state child = *s;
        G->play(&child, moves[i]);
        c4_test_collect(&child, depth - 1, out, n);
    }
}

/* Transpositions hash alike and every distinct position up to five plies
 * hashes differently. */
void test_c4_hash(void)
{
    c4_test_state a, b;
    c4_test_setup(&a);
    c4_test_setup(&b);
    T_EQ(G->notation->load(&a, "4453"), BANYAN_OK);
    T_EQ(G->notation->load(&b, "4354"), BANYAN_OK);
    T_TRUE(memcmp(&a, &b, G->state_size) == 0);
    T_EQ(G->hash(&a), G->hash(&b));
    T_EQ(G->notation->load(&b, "5443"), BANYAN_OK); /* Same squares, colours swapped on d. */
    T_TRUE(G->hash(&a) != G->hash(&b));
    T_EQ(G->notation->load(&b, "4435"), BANYAN_OK);
    T_TRUE(G->hash(&a) != G->hash(&b));

    int n = 0, total = 1 + 7 + 49 + 343 + 2401 + 16807;
    c4_test_seen *seen = malloc(sizeof *seen * (size_t)total);
    T_TRUE(seen != NULL);
    if (!seen)
        return;
    c4_test_setup(&a);
    c4_test_collect(&a, 5, seen, &n);
    T_EQ(n, total);
    qsort(seen, (size_t)n, sizeof *seen, c4_test_by_hash);
    for (int i = 1; i < n; i++) {
        bool same_hash = seen[i].hash == seen[i - 1].hash;
        bool same_board = strcmp(seen[i].board, seen[i - 1].board) == 0;
        if (same_hash != same_board)
            T_FAIL_AT("hash %llx: boards differ, or a board has two hashes",
                      (unsigned long long)seen[i].hash);
    }
    /* Equal boards must be adjacent after sorting by hash: check the
     * number of distinct boards sorted by text agrees. */
    int distinct_by_hash = 1;
    for (int i = 1; i < n; i++)
        distinct_by_hash += seen[i].hash != seen[i - 1].hash;
    T_EQ(distinct_by_hash, 1 + 7 + 49 + 238 + 1120 + 4263);
    free(seen);
}

/* Every line of the solver's test set is "<moves> <score>"; the moves must
 * load as a legal, unfinished position with as many discs as digits. */
void test_c4_reference_positions(void)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/connect4_L3_R1.txt", t_data_dir);
    FILE *f = fopen(path, "r");
    T_TRUE(f != NULL);
    if (!f)
        return;
    int n_lines = 0;
    while (fgets(line, sizeof line, f)) {
        char *space = strchr(line, ' ');
        T_TRUE(space != NULL);
        if (!space)
            continue;
        *space = 0;
        c4_test_state s;
        c4_test_setup(&s);
        int rc = G->notation->load(&s, line);
        if (rc != BANYAN_OK)
            T_FAIL_AT("line %d: load(\"%s\") gave %d", n_lines + 1, line, rc);
        T_EQ(c4_test_result(&s), -1);
        T_EQ(G->to_move(&s), (int)strlen(line) % 2);
        n_lines++;
    }
    fclose(f);
    T_EQ(n_lines, 1000);
}

/* The four that won: its cells, in lower case in the diagram. */
void test_c4_win_line(void)
{
    c4_test_state a;
    int x[8], y[8];
    char buf[256];
    c4_test_setup(&a);
    T_EQ(G->notation->load(&a, "121212"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &a, x, y, 8), 0);
    T_EQ(G->notation->load(&a, "1212121"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &a, x, y, 8), 4);
    for (int i = 0; i < 4; i++)
        T_TRUE(x[i] == 0 && y[i] == 2 + i);
    const char *want = " . . . . . . .\n"
                       " . . . . . . .\n"
                       "(x). . . . . .\n"
                       " x O . . . . .\n"
                       " x O . . . . .\n"
                       " x O . . . . .\n"
                       " a b c d e f g\n";
    T_EQ(banyan_game_print(G, &a, 0, 0, buf, sizeof buf), strlen(want));
    T_STR(buf, want);
}

/* ---- The exact solver ---- */

/* One solve of s with the given budget in mem; *best and *score as solve()
 * gives them. */
static int c4_test_solve(const c4_test_state *s, uint64_t budget, void *mem, banyan_move *best,
                         int *score)
{
    *best = BANYAN_MOVE_NONE;
    *score = 99;
    return G->tactics->solve(s, budget, NULL, mem, best, score);
}

/* Every position of one reference file (tests/data/connect4_NAME.txt),
 * or every step-th: the solver's score is the reference's, its result says
 * the same, and its best move keeps the score (the position after it is
 * over with that result, or solves to minus that score for the opponent). */
static void c4_test_solve_file(const char *name, int size, int step)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/connect4_%s.txt", t_data_dir, name);
    FILE *f = fopen(path, "r");
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    T_TRUE(f != NULL && mem != NULL);
    int n = 0, checked = 0, wrong = 0;
    while (f && mem && fgets(line, sizeof line, f)) {
        char moves[128];
        int want, score, after;
        banyan_move best, reply;
        c4_test_state s, t;
        if (n++ % step != 0 || sscanf(line, "%127s %d", moves, &want) != 2)
            continue;
        c4_test_setup(&s);
        T_EQ(G->notation->load(&s, moves), BANYAN_OK);
        int r = c4_test_solve(&s, UINT64_MAX, mem, &best, &score);
        int want_r = want > 0 ? BANYAN_SOLVE_WIN : want < 0 ? BANYAN_SOLVE_LOSS : BANYAN_SOLVE_DRAW;
        bool ok = r == want_r && score == want && banyan_game_is_legal(G, &s, best);
        if (ok) {
            double ret[2];
            memcpy(&t, &s, sizeof t);
            G->play(&t, best);
            if (G->outcome(&t, ret))
                ok = ret[G->to_move(&s)] == (want > 0 ? 1.0 : 0.5);
            else
                ok = c4_test_solve(&t, UINT64_MAX, mem, &reply, &after) != BANYAN_SOLVE_UNKNOWN &&
                     after == -want;
        }
        if (!ok && wrong++ < 5)
            T_FAIL_AT("%s %s: want %d, solve gave %d (result %d, move %u)", name, moves, want,
                      score, r, best);
        checked++;
    }
    if (f)
        fclose(f);
    free(mem);
    T_EQ(checked, (size + step - 1) / step);
    T_EQ(wrong, 0);
}

/* Pons' three reference sets: all 1,000 positions of each in a release
 * build, every fifth of the hardest (L2_R2, 14 to 27 moves left) where the
 * build checks (debug and sanitizer builds run it five to ten times
 * slower); and the 500 positions of Begin-Easy made by his definition
 * (bench/connect4_sets.py: 8 to 14 discs, under 14 moves left), labelled
 * by the solver's score alone and checked by his solver. */
void test_c4_solve_reference(void)
{
#ifdef BANYAN_DEBUG
    int hard_step = 5;
#else
    int hard_step = 1;
#endif
    c4_test_solve_file("L3_R1", 1000, 1);
    c4_test_solve_file("L2_R1", 1000, 1);
    c4_test_solve_file("L2_R2", 1000, hard_step);
    c4_test_solve_file("L1_R1", 500, 1);
}

/* The budget: a position beyond the reach of a budget is refused at once,
 * a budget that runs out gives UNKNOWN, and the table that an aborted solve
 * leaves behind misleads no later one. A game that is over is not solved. */
void test_c4_solve_budget(void)
{
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    c4_test_state s;
    banyan_move best;
    int score;
    T_TRUE(mem != NULL);
    if (!mem)
        return;
    T_EQ(G->setup(&s, "book=off"), BANYAN_OK);
    T_EQ(c4_test_solve(&s, 1000000, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    T_EQ(best, BANYAN_MOVE_NONE);
    /* 23 empty squares, about 150,000 positions for a first solve. */
    T_EQ(G->notation->load(&s, "4444443222222115"), BANYAN_OK);
    _Atomic int stop = 1; /* A stop flag already set: given up whatever the budget. */
    T_EQ(G->tactics->solve(&s, UINT64_MAX, &stop, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    T_EQ(best, BANYAN_MOVE_NONE);
    int tries = 0;
    for (uint64_t budget = 1000; budget <= 64000; budget *= 2)
        tries += c4_test_solve(&s, budget, mem, &best, &score) == BANYAN_SOLVE_UNKNOWN;
    T_TRUE(tries > 0);
    int r = c4_test_solve(&s, UINT64_MAX, mem, &best, &score);
    void *fresh = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    banyan_move best2;
    int score2;
    T_TRUE(fresh != NULL);
    if (fresh) {
        T_EQ(c4_test_solve(&s, UINT64_MAX, fresh, &best2, &score2), r);
        T_EQ(score2, score);
        T_EQ(best2, best);
        free(fresh);
    }
    T_TRUE(r != BANYAN_SOLVE_UNKNOWN);
    T_EQ(G->notation->load(&s, "1212121"), BANYAN_OK);
    T_EQ(c4_test_solve(&s, UINT64_MAX, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    free(mem);
}

/* Whether the player to move in s can win with one disc. */
static bool c4_test_wins_at_once(const c4_test_state *s)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = G->moves(s, moves);
    for (int i = 0; i < n; i++) {
        c4_test_state t = *s;
        double ret[2];
        G->play(&t, moves[i]);
        if (G->outcome(&t, ret) && ret[G->to_move(s)] == 1.0)
            return true;
    }
    return false;
}

#define C4_TEST_BOOK_PLIES 10 /* The book's depth, as docs/SEARCH.md gives it. */

/* The book from s (moves from the empty board, the first player to move):
 * every position up to C4_TEST_BOOK_PLIES discs where the first player
 * cannot win at once is answered, whatever the budget, as a win without a
 * score, with a legal move; every second player's reply is followed. Every
 * `step`-th position with the most discs is checked without the book: the
 * second player, after the book's move, is proved lost by the solver with
 * at most 10 million positions. Returns the positions seen. */
static int c4_test_book_walk(const char *moves, void *mem, int step, int *deepest, int *failed)
{
    c4_test_state s;
    banyan_move best, replies[BANYAN_MAX_MOVES];
    int score, seen = 1;
    c4_test_setup(&s);
    T_EQ(G->notation->load(&s, moves), BANYAN_OK);
    size_t len = strlen(moves);
    if (len > C4_TEST_BOOK_PLIES || c4_test_wins_at_once(&s))
        return 0;
    int r = c4_test_solve(&s, 1, mem, &best, &score);
    if (r != BANYAN_SOLVE_WIN || score != BANYAN_SOLVE_NO_SCORE ||
        !banyan_game_is_legal(G, &s, best)) {
        if ((*failed)++ < 5)
            T_FAIL_AT("book at \"%s\": result %d, score %d, move %u", moves, r, score, best);
        return seen;
    }
    if (len == C4_TEST_BOOK_PLIES && (*deepest)++ % step == 0) {
        c4_test_state t;
        banyan_move reply;
        int after;
        T_EQ(G->setup(&t, "book=off"), BANYAN_OK);
        T_EQ(G->notation->load(&t, moves), BANYAN_OK);
        G->play(&t, best);
        int rt = c4_test_solve(&t, 10000000, mem, &reply, &after);
        if (rt != BANYAN_SOLVE_LOSS && (*failed)++ < 5)
            T_FAIL_AT("book at \"%s\": column %u, the reply solves to %d", moves, best + 1, rt);
    }
    G->play(&s, best);
    int n = G->moves(&s, replies);
    for (int i = 0; i < n; i++) {
        char next[64];
        snprintf(next, sizeof next, "%s%u%u", moves, best + 1, replies[i] + 1);
        seen += c4_test_book_walk(next, mem, step, deepest, failed);
    }
    return seen;
}

/* The opening book: answered wherever the first player's play following it
 * leads (no second player's reply escapes it), and a sample of its deepest
 * moves proved by the solver without it. The whole book is checked by
 * tools/connect4_book.sh. With book=off the solver does not use it. */
void test_c4_book(void)
{
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    int deepest = 0, failed = 0;
    T_TRUE(mem != NULL);
    if (!mem)
        return;
#ifdef BANYAN_DEBUG
    int step = 2500;
#else
    int step = 800;
#endif
    int seen = c4_test_book_walk("", mem, step, &deepest, &failed);
    T_EQ(failed, 0);
    T_TRUE(seen > 5000); /* 6,359 positions, 4,965 of them with 10 discs. */
    T_TRUE(deepest > 4000);
    c4_test_state s;
    banyan_move best;
    int score;
    T_EQ(G->setup(&s, "book=off"), BANYAN_OK);
    T_EQ(c4_test_solve(&s, 1, mem, &best, &score), BANYAN_SOLVE_UNKNOWN);
    free(mem);
}

/* A position beyond the exact score's reach but within the result's: a win
 * without its score, and a move that keeps it; with a larger budget the
 * same position gets its exact score, and the result agrees. */
void test_c4_solve_result_only(void)
{
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    c4_test_state s, t;
    banyan_move best, reply;
    int score, after;
    T_TRUE(mem != NULL);
    if (!mem)
        return;
    T_EQ(G->setup(&s, "book=off"), BANYAN_OK);
    T_EQ(G->notation->load(&s, "3447112143"), BANYAN_OK); /* 32 empty squares, a win by 3. */
    T_EQ(c4_test_solve(&s, 4000000, mem, &best, &score), BANYAN_SOLVE_WIN);
    T_EQ(score, BANYAN_SOLVE_NO_SCORE);
    T_TRUE(banyan_game_is_legal(G, &s, best));
    memset(mem, 0, (G->tactics ? G->tactics->mem_size : 0));
    T_EQ(c4_test_solve(&s, UINT64_MAX, mem, &reply, &after), BANYAN_SOLVE_WIN);
    T_EQ(after, 3);
    /* The move given keeps the win: the opponent loses after it. */
    t = s;
    G->play(&t, best);
    T_EQ(c4_test_solve(&t, UINT64_MAX, mem, &reply, &after), BANYAN_SOLVE_LOSS);
    T_TRUE(after < 0 && after != BANYAN_SOLVE_NO_SCORE);
    free(mem);
}
