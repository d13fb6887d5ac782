/*
 * test_gomoku.c - the Gomoku module: wins at every edge on every size,
 * overlines under each rule, renju's forbidden points from small diagrams,
 * candidates, notation, rollouts against plain uniform play, priors, the
 * VCF solver checked move by move by a naive referee written here, the VCT
 * refereed against every defence, and the candidates narrowed by threats
 * (at every node, and at the root by candidates_deep), each dropped move
 * refereed as a loss, and expand against prove_win and candidates.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan_game.h"
#include "gomoku/gomoku.h"
#include "t.h"

#define G (&banyan_game_gomoku)

/* Room for any state of the game, aligned for its words. */
typedef struct gmk_test_state {
    uint64_t words[64]; /* 512 bytes, checked against state_size. */
} gmk_test_state;

/* The deep provers' working memory (mem_size bytes): one block for the
 * whole run, the tests being single-threaded. */
static void *gmk_test_deep(void)
{
    static void *mem;
    if (!mem)
        mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    T_TRUE(mem != NULL);
    return mem;
}

static void gmk_test_setup(gmk_test_state *s, const char *params)
{
    T_TRUE(G->state_size <= sizeof *s);
    memset(s, 0xa5, sizeof *s);
    T_EQ(G->setup(s, params), BANYAN_OK);
}

/* -1 while the game goes on, else 0 (Black won), 1 (White won) or 2. */
static int gmk_test_result(const gmk_test_state *s)
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

static int gmk_test_game(const char *params, const char *moves)
{
    gmk_test_state s;
    gmk_test_setup(&s, params);
    int rc = G->notation->load(&s, moves);
    if (rc != BANYAN_OK) {
        T_FAIL_AT("load(\"%s\") on \"%s\" gave %d", moves, params, rc);
        return -2;
    }
    return gmk_test_result(&s);
}

static banyan_move gmk_test_move(const gmk_test_state *s, const char *text)
{
    banyan_move m = BANYAN_MOVE_NONE;
    if (G->notation->parse_move(s, text, &m) != BANYAN_OK)
        T_FAIL_AT("parse_move(\"%s\") failed", text);
    return m;
}

static bool gmk_test_in_moves(const gmk_test_state *s, banyan_move m)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = G->moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* A naive board for the referee: one char per cell, row 0 at the bottom. */
typedef struct gmk_naive {
    int n;          /* Side. */
    int rule;       /* 0 freestyle, 1 standard, 2 renju. */
    char b[22][22]; /* '.', 'X' or 'O'; [row][col]. */
} gmk_naive;

static void gmk_naive_from(gmk_naive *g, const gmk_test_state *s, int n, int rule)
{
    char buf[4096];
    banyan_game_print(G, s, BANYAN_MOVE_NONE, 0, buf, sizeof buf);
    g->n = n;
    g->rule = rule;
    const char *p = buf;
    for (int r = n - 1; r >= 0; r--) {
        p += 2;
        for (int c = 0; c < n; c++) {
            g->b[r][c] = p[1];
            p += 2;
        }
        p++; /* Newline. */
    }
}

/* Whether the stone of who ('X' or 'O') at (r, c) makes a winning five. */
static bool gmk_naive_five(const gmk_naive *g, int r, int c, char who)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    bool exact = g->rule == 1 || (g->rule == 2 && who == 'X');
    for (int d = 0; d < 4; d++) {
        int len = 1;
        for (int k = 1; r + k * dr[d] < g->n && c + k * dc[d] >= 0 && c + k * dc[d] < g->n &&
                        g->b[r + k * dr[d]][c + k * dc[d]] == who;
             k++)
            len++;
        for (int k = 1; r - k * dr[d] >= 0 && c - k * dc[d] >= 0 && c - k * dc[d] < g->n &&
                        g->b[r - k * dr[d]][c - k * dc[d]] == who;
             k++)
            len++;
        if (len == 5 || (len > 5 && !exact))
            return true;
    }
    return false;
}

/* The empty cells where who would make a five, up to max of them. */
static int gmk_naive_fives(gmk_naive *g, char who, int *cells, int max)
{
    int k = 0;
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->n; c++) {
            if (g->b[r][c] != '.')
                continue;
            g->b[r][c] = who;
            if (gmk_naive_five(g, r, c, who) && k < max)
                cells[k++] = r * g->n + c;
            g->b[r][c] = '.';
        }
    return k;
}

/* Referees the solver's win from s, move by move: each attacker move must be
 * legal, make a five or a four, and leave the defender without a five; the
 * defender's reply is the one block. Returns the plies to the five, or -1. */
static int gmk_test_replay(const gmk_test_state *start, int n, int rule)
{
    gmk_test_state s = *start;
    int att = G->to_move(&s);
    char me = att ? 'O' : 'X', you = att ? 'X' : 'O';
    for (int plies = 1; plies < 80; plies += 2) {
        banyan_move m;
        gmk_naive g;
        int cells[8];
        if (!G->tactics->prove_win(&s, &m) || !gmk_test_in_moves(&s, m))
            return -1;
        gmk_naive_from(&g, &s, n, rule);
        int dfives = gmk_naive_fives(&g, you, cells, 8);
        g.b[m / n][m % n] = me;
        if (gmk_naive_five(&g, (int)m / n, (int)m % n, me))
            return plies;
        if (dfives > 1 || (dfives == 1 && cells[0] != (int)m))
            return -1; /* The defender had a five left. */
        int k = gmk_naive_fives(&g, me, cells, 8);
        if (k == 0)
            return -1; /* Not a four. */
        G->play(&s, m);
        if (k >= 2) {
            /* The defender blocks one; the attacker completes another. */
            G->play(&s, (banyan_move)cells[0]);
            if (G->to_move(&s) != att || gmk_test_result(&s) >= 0)
                return -1;
            gmk_naive_from(&g, &s, n, rule);
            return gmk_naive_fives(&g, me, cells, 8) >= 1 ? plies + 2 : -1;
        }
        if (!gmk_test_in_moves(&s, (banyan_move)cells[0]))
            return plies + 2; /* Renju: a block forbidden to Black; White's five next. */
        G->play(&s, (banyan_move)cells[0]);
        if (gmk_test_result(&s) >= 0)
            return -1;
    }
    return -1;
}

/* Builds a 15x15 position from a diagram (row 15 first, X Black, O White),
 * filling with White stones at the far left edge (a1, a3, ...) so that
 * Black is to move. Returns false when the stones cannot be loaded. */
static bool gmk_test_diagram(gmk_test_state *s, const char *params, const char *const *rows)
{
    char xs[100][16], os[100][16], list[2000] = "";
    int nx = 0, no = 0;
    for (int r = 0; r < 15; r++)
        for (int c = 0; c < 15; c++) {
            char ch = rows[r][2 * c];
            if (ch == 'X')
                snprintf(xs[nx++], 16, "%c%d", 'a' + c, 15 - r);
            else if (ch == 'O')
                snprintf(os[no++], 16, "%c%d", 'a' + c, 15 - r);
        }
    for (int k = 1; no < nx; k += 2)
        snprintf(os[no++], 16, "a%d", k);
    for (int i = 0; i < nx; i++) {
        strcat(list, xs[i]);
        strcat(list, " ");
        strcat(list, os[i]);
        strcat(list, " ");
    }
    gmk_test_setup(s, params);
    int rc = G->notation->load(s, list);
    if (rc != BANYAN_OK)
        T_FAIL_AT("diagram load gave %d: %s", rc, list);
    return rc == BANYAN_OK;
}

/* Fives at the edges and corners, in all four directions, for every size:
 * Black wins with the fifth stone, White with his, nobody with four, and no
 * line wraps from one row to the next. */
void test_gmk_wins_all_sizes(void)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    for (int n = 5; n <= 22; n++) {
        char params[32];
        snprintf(params, sizeof params, "size=%d", n);
        for (int d = 0; d < 4; d++)
            for (int corner = 0; corner < 4; corner++)
                for (int winner = 0; winner < 2; winner++) {
                    int r0 = corner & 1 ? n - 1 - 4 * dr[d] : 0;
                    int c0 = corner & 2 ? (dc[d] < 0 ? n - 1 : n - 5) : (dc[d] < 0 ? 4 : 0);
                    if (dc[d] == 0)
                        c0 = corner & 2 ? n - 1 : 0;
                    gmk_naive g = {n, 0, {{0}}};
                    memset(g.b, '.', sizeof g.b);
                    int line[5], filler[6], nf = 0;
                    for (int k = 0; k < 5; k++) {
                        line[k] = (r0 + k * dr[d]) * n + c0 + k * dc[d];
                        g.b[line[k] / n][line[k] % n] = '#';
                    }
                    /* Fillers for the loser: empty cells, no five possible with 4 or 5. */
                    for (int cell = 0; cell < n * n && nf < 6; cell += 2)
                        if (g.b[cell / n][cell % n] == '.')
                            filler[nf++] = cell;
                    char list[400] = "", mv[8];
                    gmk_test_state s;
                    gmk_test_setup(&s, params);
                    /* Black first: the winner's line cells alternate with the
                     * loser's fillers, the winner's fifth stone last. */
                    for (int k = 0; k < 5; k++)
                        for (int who = 0; who < 2; who++) {
                            int cell = who == winner ? line[k] : filler[k];
                            if (k == 4 && who > winner)
                                break;
                            G->notation->format_move(&s, (banyan_move)cell, mv, sizeof mv);
                            strcat(list, mv);
                            strcat(list, " ");
                        }
                    int rc = G->notation->load(&s, list);
                    if (rc != BANYAN_OK) {
                        T_FAIL_AT("size %d: load %s gave %d", n, list, rc);
                        continue;
                    }
                    int res = gmk_test_result(&s);
                    if (res != winner)
                        T_FAIL_AT("size %d dir %d corner %d: %s gave %d", n, d, corner, list, res);
                }
    }
    T_EQ(gmk_test_game("", "h8 a1 i8 a2 j8 a3 k8 a4"), -1);
    T_EQ(gmk_test_game("", "h8 a1 i8 a2 j8 a3 k8 a4 l8"), 0);
    T_EQ(gmk_test_game("", "l1 h8 m1 h9 n1 h10 o1 h12 a2"), -1); /* No wrap. */
    T_EQ(gmk_test_game("size=5", "a1 a2 b1 b2 c1 c2 d1 d2 e1"), 0);
    T_EQ(gmk_test_game("size=22", "v22 a1 u21 a2 t20 a3 s19 a4 r18"), 0);
    T_EQ(gmk_test_game("size=22", "v1 a22 u2 b22 t3 c22 s4 d22 a1 e22"), 1);
}

/* Six in a row: a win in freestyle, for nobody in standard; under renju an
 * overline is forbidden to Black and wins for White. */
void test_gmk_overline(void)
{
    const char *black6 = "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8";
    const char *white6 = "a1 c8 a3 d8 a5 e8 a7 g8 a9 h8 o15 f8";
    T_EQ(gmk_test_game("", black6), 0);
    T_EQ(gmk_test_game("", white6), 1);
    T_EQ(gmk_test_game("rule=standard", black6), -1);
    T_EQ(gmk_test_game("rule=standard", white6), -1);
    T_EQ(gmk_test_game("rule=renju", white6), 1);
    gmk_test_state s;
    gmk_test_setup(&s, "rule=renju");
    T_EQ(G->notation->load(&s, black6), BANYAN_EILLEGAL);
    T_EQ(G->notation->load(&s, "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9"), BANYAN_OK);
    T_TRUE(!gmk_test_in_moves(&s, gmk_test_move(&s, "f8")));
    T_TRUE(gmk_test_in_moves(&s, gmk_test_move(&s, "i8"))); /* Not a five, not forbidden. */
    /* Exactly five wins under every rule, for both. */
    T_EQ(gmk_test_game("rule=standard", "c8 a1 d8 a3 e8 a5 f8 a7 g8"), 0);
    T_EQ(gmk_test_game("rule=renju", "c8 a1 d8 a3 e8 a5 f8 a7 g8"), 0);
    T_EQ(gmk_test_game("rule=renju", "a1 c8 a3 d8 a5 e8 a7 f8 o15 g8"), 1);
    /* Five in one line and six in another: the five wins in standard. */
    T_EQ(gmk_test_game("rule=standard", "h4 a1 h5 a3 h6 a5 h7 a7 d8 a9 e8 a11 f8 a13 g8 o1 i8 o3 "
                                        "h8"),
         0);
}

/* The five-in-a-row detectors agree on dense random boards of every size
 * and rule, overlines included: the bitboard walk of play (the state's
 * winner) and the rollouts' line words (gmk_ro_lines_five, with the stone
 * placed and with its cell still empty), against a naive count. (They
 * agreed with the byte board's gmk_five_at too, which the rollouts' line
 * words replaced.) */
void test_gmk_five_detectors(void)
{
    static const char *const rules[] = {"freestyle", "standard", "renju"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 13, 0);
    int fives = 0, overlines = 0;
    for (int iter = 0; iter < 30000; iter++) {
        int rule = (int)banyan_rng_below(&rng, 3), n = GMK_MIN + (int)banyan_rng_below(&rng, 18);
        int who = (int)banyan_rng_below(&rng, 2), r = (int)banyan_rng_below(&rng, (uint32_t)n);
        int c = (int)banyan_rng_below(&rng, (uint32_t)n), count = 0;
        char params[64];
        gmk_test_state s;
        gmk_ro_lines lines;
        memset(&lines, 0, sizeof lines);
        snprintf(params, sizeof params, "size=%d rule=%s", n, rules[rule]);
        gmk_test_setup(&s, params);
        gmk *t = (gmk *)s.words;
        /* Stones of the mover's colour on half the cells, the other
         * colour's on a sixth: long runs are common. */
        for (int rr = 0; rr < n; rr++)
            for (int cc = 0; cc < n; cc++) {
                uint32_t x = banyan_rng_below(&rng, 6);
                if ((rr == r && cc == c) || x >= 4)
                    continue;
                gmk_set(t->stones[x < 3 ? who : !who], rr * GMK_STRIDE + cc);
                if (x < 3)
                    gmk_ro_lines_set(&lines, rr, cc);
                count++;
            }
        t->ply = (uint16_t)(2 * (count / 2) + who);
        bool exact = gmk_exact(rule, who);
        bool empty = gmk_ro_lines_five(&lines, r, c, exact);
        G->play(&s, (banyan_move)(r * n + c));
        gmk_ro_lines_set(&lines, r, c);
        bool placed = gmk_ro_lines_five(&lines, r, c, exact), play = t->winner == who;
        gmk_naive nv = {n, rule, {{0}}};
        for (int rr = 0; rr < n; rr++)
            for (int cc = 0; cc < n; cc++)
                nv.b[rr][cc] = gmk_bit(t->stones[0], rr * GMK_STRIDE + cc)   ? 'X'
                               : gmk_bit(t->stones[1], rr * GMK_STRIDE + cc) ? 'O'
                                                                             : '.';
        bool naive = gmk_naive_five(&nv, r, c, who ? 'O' : 'X');
        if (play != naive || placed != naive || empty != naive)
            T_FAIL_AT("%s, (%d, %d): naive %d, play %d, line words %d (%d empty)", params, r, c,
                      naive, play, placed, empty);
        nv.rule = 0;
        fives += naive;
        overlines += !naive && gmk_naive_five(&nv, r, c, who ? 'O' : 'X');
    }
    T_TRUE(fives > 1000 && overlines > 1000);
}

/* Renju's forbidden points, each from a diagram with the point marked '*'. */
void test_gmk_renju_forbidden(void)
{
    static const struct {
        const char *name;
        const char *rows[15];
        bool forbidden;
    } cases[] = {
        {"double three",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . X X * . . . . . . .",
          ". . . . . . . X . . . . . . .", ". . . . . . . X . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         true},
        {"double four",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . O X X X * . . . . . .",
          ". . . . . . . . X . . . . . .", ". . . . . . . . X . . . . . .",
          ". . . . . . . . X . . . . . .", ". . . . . . . . O . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         true},
        {"double four in one line",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . X X X . * . X X X . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         true},
        {"double four in one line, two and two",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . X X . * X . X X . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         true},
        {"overline",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . X X X * X X . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         true},
        {"five beats a double three",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . X . . . .", ". . . . . . . . . X . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . X X X X * . . . . . .",
          ". . . . . . . . X . . . . . .", ". . . . . . . . X . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         false},
        {"false three: both straight fours would be overlines",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . X . . X X * . . X . . . .",
          ". . . . . . . X . . . . . . .", ". . . . . . . X . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         false},
        {"three blocked at one end is no three",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . O X X * . . . . . . .",
          ". . . . . . . X . . . . . . .", ". . . . . . . X . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         false},
        {"four and three is allowed",
         {". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . X X * . . . . . . .",
          ". . . . . . . X . . . . . . .", ". . . . . . . X . . . . . . .",
          ". . . . . . . X . . . . . . .", ". . . . . . . O . . . . . . .",
          ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
          ". . . . . . . . . . . . . . ."},
         false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_test_state s;
        banyan_move point = BANYAN_MOVE_NONE;
        for (int r = 0; r < 15; r++)
            for (int c = 0; c < 15; c++)
                if (cases[i].rows[r][2 * c] == '*')
                    point = (banyan_move)((14 - r) * 15 + c);
        if (!gmk_test_diagram(&s, "rule=renju", cases[i].rows))
            continue;
        T_EQ(G->to_move(&s), 0);
        if (gmk_test_in_moves(&s, point) == cases[i].forbidden)
            T_FAIL_AT("renju: %s: the point is %s", cases[i].name,
                      cases[i].forbidden ? "listed" : "not listed");
        /* Freestyle has no forbidden points. */
        gmk_test_diagram(&s, "", cases[i].rows);
        T_TRUE(gmk_test_in_moves(&s, point));
    }
}

void test_gmk_candidates(void)
{
    gmk_test_state s;
    banyan_move moves[BANYAN_MAX_MOVES];
    /* The search's candidates: the centre, then cells within distance 2. */
    gmk_test_setup(&s, "");
    T_EQ(G->tactics->candidates(&s, moves), 1);
    T_EQ(moves[0], gmk_test_move(&s, "h8"));
    T_EQ(G->notation->load(&s, "h8"), BANYAN_OK);
    T_EQ(G->tactics->candidates(&s, moves), 24);
    T_EQ(G->notation->load(&s, "h8 h9"), BANYAN_OK);
    T_EQ(G->tactics->candidates(&s, moves), 5 * 6 - 2);
    T_EQ(G->notation->load(&s, "a1"), BANYAN_OK);
    T_EQ(G->tactics->candidates(&s, moves), 8);
    T_EQ(G->notation->load(&s, "a1 o15"), BANYAN_OK);
    T_EQ(G->tactics->candidates(&s, moves), 16);
    /* The legal moves are every empty point, whatever the candidates. */
    T_EQ(G->moves(&s, moves), 223);
    gmk_test_setup(&s, "");
    T_EQ(G->moves(&s, moves), 225);
    gmk_test_setup(&s, "candidates=all");
    T_EQ(G->tactics->candidates(&s, moves), 225);
    T_EQ(G->notation->load(&s, "a1 o15"), BANYAN_OK);
    T_EQ(G->tactics->candidates(&s, moves), 223);
    gmk_test_setup(&s, "size=7 candidates=all");
    T_EQ(G->moves(&s, moves), 49);
    /* Random games keep near equal to its definition (is_valid checks it). */
    banyan_rng rng;
    banyan_rng_seed(&rng, 11, 0);
    for (int game = 0; game < 20; game++) {
        gmk_test_setup(&s, game & 1 ? "size=9" : "size=19 candidates=all");
        int n;
        while ((n = G->moves(&s, moves)) > 0) {
            G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)n)]);
            T_TRUE(G->is_valid(&s));
        }
    }
}

void test_gmk_notation(void)
{
    static const char *const sizes[] = {"", "size=5", "size=22", "size=19"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        gmk_test_state s;
        banyan_move moves[BANYAN_MAX_MOVES];
        char params[48];
        snprintf(params, sizeof params, "%s candidates=all", sizes[i]);
        gmk_test_setup(&s, params);
        int n = G->moves(&s, moves);
        for (int j = 0; j < n; j++) {
            char text[16], alt[40];
            banyan_move m = BANYAN_MOVE_NONE;
            T_EQ(moves[j], (banyan_move)j);
            T_EQ(G->notation->format_move(&s, moves[j], text, sizeof text), strlen(text));
            T_EQ(G->notation->parse_move(&s, text, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
            snprintf(alt, sizeof alt, " %c %s ", text[0] - 'a' + 'A', text + 1);
            T_EQ(G->notation->parse_move(&s, alt, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
            snprintf(alt, sizeof alt, "%s%c", text + 1, text[0]);
            T_EQ(G->notation->parse_move(&s, alt, &m), BANYAN_OK);
            T_EQ(m, moves[j]);
        }
    }
    static const struct {
        const char *text;
        int rc;
    } cases[] = {
        {"p1", BANYAN_ERANGE},  {"h16", BANYAN_ERANGE},   {"h0", BANYAN_ERANGE},
        {"z9", BANYAN_ERANGE},  {"16a", BANYAN_ERANGE},   {"", BANYAN_EINVAL},
        {"h", BANYAN_EINVAL},   {"8", BANYAN_EINVAL},     {"hh8", BANYAN_EINVAL},
        {"h8h", BANYAN_EINVAL}, {"h08", BANYAN_EINVAL},   {"h8,", BANYAN_EINVAL},
        {"h-8", BANYAN_EINVAL}, {"h8 i9", BANYAN_EINVAL}, {"\xc3\xa9", BANYAN_EINVAL},
    };
    gmk_test_state s;
    gmk_test_setup(&s, "");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        banyan_move m = 12345;
        int rc = G->notation->parse_move(&s, cases[i].text, &m);
        if (rc != cases[i].rc)
            T_FAIL_AT("parse_move(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        T_EQ(m, 12345);
    }
    banyan_move m;
    T_EQ(G->notation->parse_move(&s, NULL, &m), BANYAN_EINVAL);
    T_EQ(G->notation->parse_move(&s, "h8", &m), BANYAN_OK);
    T_EQ(m, 7 * 15 + 7);
    gmk_test_setup(&s, "size=22");
    T_EQ(G->notation->parse_move(&s, "v22", &m), BANYAN_OK);
    T_EQ(G->notation->parse_move(&s, "w1", &m), BANYAN_ERANGE);
    /* Fuzz: only the three codes, and successes format back. */
    static const char alphabet[] = "ahovwAH0189 ,\t-";
    banyan_rng rng;
    banyan_rng_seed(&rng, 9, 0);
    for (int i = 0; i < 20000; i++) {
        char text[10], back[16];
        uint32_t len = banyan_rng_below(&rng, sizeof text);
        for (uint32_t j = 0; j < len; j++)
            text[j] = alphabet[banyan_rng_below(&rng, sizeof alphabet - 1)];
        text[len] = 0;
        banyan_move a = BANYAN_MOVE_NONE, b = BANYAN_MOVE_NONE;
        int rc = G->notation->parse_move(&s, text, &a);
        T_TRUE(rc == BANYAN_OK || rc == BANYAN_EINVAL || rc == BANYAN_ERANGE);
        if (rc == BANYAN_OK) {
            G->notation->format_move(&s, a, back, sizeof back);
            T_EQ(G->notation->parse_move(&s, back, &b), BANYAN_OK);
            T_EQ(a, b);
        }
        gmk_test_state copy = s;
        rc = G->notation->load(&copy, text);
        if (rc != BANYAN_OK)
            T_TRUE(memcmp(&copy, &s, G->state_size) == 0);
        else
            T_TRUE(G->is_valid(&copy));
    }
}

void test_gmk_load_print(void)
{
    gmk_test_state s, before;
    char buf[4096];
    gmk_test_setup(&s, "size=5");
    T_EQ(G->notation->load(&s, "c3, b2 ,D4"), BANYAN_OK);
    const char *want = " 5 . . . . .\n 4 . . .(X).\n 3 . . X . .\n 2 . O . . .\n 1 . . . . .\n"
                       "   a b c d e\n";
    T_EQ(banyan_game_print(G, &s, gmk_test_move(&s, "d4"), 0, buf, sizeof buf), strlen(want));
    T_STR(buf, want);
    T_EQ(banyan_game_print(G, &s, BANYAN_MOVE_NONE, 0, buf, 4), strlen(want));
    T_STR(buf, " 5 ");
    T_EQ(G->to_move(&s), 1);
    before = s;
    static const struct {
        const char *text;
        int rc;
    } bad[] = {
        {"c3 c3", BANYAN_EILLEGAL},
        {"a1 f1", BANYAN_ERANGE},
        {"a1 zz", BANYAN_EINVAL},
        {"a1b2", BANYAN_EINVAL},
        {"a 1", BANYAN_EINVAL},
        {"a1;b2", BANYAN_EINVAL},
        {"a1 b1 a2 b2 a3 b3 a4 b4 a5 b5", BANYAN_EILLEGAL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        T_EQ(G->notation->load(&s, bad[i].text), bad[i].rc);
        T_TRUE(memcmp(&s, &before, G->state_size) == 0);
    }
    T_EQ(G->notation->load(&s, NULL), BANYAN_EINVAL);
    /* 22x22 prints two-digit rows and the letters a .. v. */
    gmk_test_setup(&s, "size=22");
    T_EQ(G->notation->load(&s, "v22 a1"), BANYAN_OK);
    int n = banyan_game_print(G, &s, gmk_test_move(&s, "a1"), 0, buf, sizeof buf);
    T_EQ(n, strlen(buf));
    T_TRUE(strstr(buf, "22 . . . . . . . . . . . . . . . . . . . . . X\n") == buf);
    T_TRUE(strstr(buf, "\n 1(O). .") != NULL);
    T_TRUE(strstr(buf, "   a b c d e f g h i j k l m n o p q r s t u v\n") != NULL);
    /* Transpositions: equal hashes. */
    gmk_test_state a, b;
    gmk_test_setup(&a, "");
    gmk_test_setup(&b, "");
    T_EQ(G->notation->load(&a, "h8 i9 h9 i10"), BANYAN_OK);
    T_EQ(G->notation->load(&b, "h9 i10 h8 i9"), BANYAN_OK);
    T_EQ(G->hash(&a), G->hash(&b));
    T_EQ(G->notation->load(&b, "h8 i9 i10 h9"), BANYAN_OK);
    T_TRUE(G->hash(&a) != G->hash(&b));
}

void test_gmk_setup_errors(void)
{
    static const char *const bad[] = {
        "size=4",
        "size=23",
        "size=",
        "size=15x",
        "rule=gomoku",
        "rule=Renju",
        "candidates=2",
        "rollout=fast",
        "x=1",
        "size",
        "size=15;rule=renju",
        "size=-15",
        "candidates=",
        "size=99999999999999999999",
        /* Choices measured and not kept. */
        "rollout=near",
        "prover=vcf",
        "priors=threats",
        "priors=patterns",
    };
    static const char *const good[] = {
        NULL,
        "",
        " , ",
        "size=5",
        "size=22 rule=renju",
        "rule=standard,candidates=all",
        "rollout=uniform",
        "rollout=heuristic size=20",
        "prover=off priors=off rollout=uniform candidates=all",
        "prover=vct priors=mixed",
    };
    gmk_test_state s;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (G->setup(&s, bad[i]) != BANYAN_EINVAL)
            T_FAIL_AT("setup(\"%s\") accepted", bad[i]);
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (G->setup(&s, good[i]) != BANYAN_OK)
            T_FAIL_AT("setup(\"%s\") refused", good[i] ? good[i] : "NULL");
        T_TRUE(G->is_valid(&s));
    }
    T_TRUE(banyan_game_find("gomoku") == G);
    T_TRUE(banyan_game_find("GOMOKU") == G);
    /* The plain choices keep the hashes they had when other choices stood
     * between them (a search's table keeps its layout). */
    gmk_test_setup(&s, "prover=off rollout=uniform");
    T_EQ(G->notation->load(&s, "e5 d4 e4"), BANYAN_OK);
    T_EQ(G->hash(&s), 0x646172e909736131ULL);
    gmk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, "e5 d4 e4"), BANYAN_OK);
    T_EQ(G->hash(&s), 0x9d38dd26c76e218bULL);
    /* A priors code out of range is not a valid state. */
    gmk *t = (gmk *)s.words;
    t->priors = GMK_PRIORS_OFF + 1;
    T_TRUE(!G->is_valid(&s));
}

/* Black's share of wins (draws count half) in n random games. */
static double gmk_test_black(const char *params, int n, bool fast, uint64_t seed)
{
    gmk_test_state s, t;
    banyan_rng rng;
    banyan_move moves[BANYAN_MAX_MOVES];
    double ret[2], sum = 0;
    gmk_test_setup(&s, params);
    banyan_rng_seed(&rng, seed, 0);
    for (int i = 0; i < n; i++) {
        int k;
        t = s;
        if (fast)
            G->rollout(&t, &rng);
        else
            while ((k = G->moves(&t, moves)) > 0)
                G->play(&t, moves[banyan_rng_below(&rng, (uint32_t)k)]);
        if (!G->outcome(&t, ret)) {
            T_FAIL_AT("a random game did not end");
            return 0;
        }
        sum += ret[0];
    }
    return sum / n;
}

/* The uniform rollout against plain uniform play over moves(), within 5
 * standard errors; the heuristic rollout ends every game and favours
 * neither side absurdly. */
void test_gmk_rollout_distribution(void)
{
    const int n = 3000;
    double se = sqrt(0.25 * 2 / n);
    double a = gmk_test_black("rollout=uniform", n, true, 1);
    double b = gmk_test_black("rollout=uniform candidates=all", n, false, 2);
    if (fabs(a - b) > 5 * se)
        T_FAIL_AT("uniform: rollout %.4f, moves() %.4f", a, b);
    a = gmk_test_black("", n, true, 5);
    T_TRUE(a > 0.3 && a < 0.8);
    a = gmk_test_black("rule=renju size=9", 500, true, 6);
    T_TRUE(a >= 0 && a <= 1);
    /* After h8 i9 h9 i10 h10 i11 h11 Black has a five at once. */
    T_NEAR(gmk_test_black("rollout=heuristic", 100, true, 7) >= 0, 1, 0);
    gmk_test_state s;
    gmk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, "h8 i9 h9 i10 h10 i11 h11 a1"), BANYAN_OK);
    double sums[2];
    banyan_rng rng;
    gmk_test_state scratch;
    banyan_rng_seed(&rng, 8, 0);
    banyan_random_games(G, &s, 200, &rng, &scratch, sums);
    T_NEAR(sums[0], 200, 0); /* Heuristic: Black takes h12 or h7 every time. */
}

void test_gmk_priors(void)
{
    gmk_test_state s;
    banyan_move moves[BANYAN_MAX_MOVES];
    float pr[BANYAN_MAX_MOVES];
    gmk_test_setup(&s, "");
    /* Black to move: g8..j8 is Black's four (five at f8/k8 for... k8 only,
     * f8 blocked); White's h9..h12 four has h13 free, h8 taken. */
    T_EQ(G->notation->load(&s, "g8 h9 h8 h10 i8 h11 j8 h12 e8 f8"), BANYAN_OK);
    int n = G->moves(&s, moves);
    G->priors(&s, moves, n, pr);
    int best = 0, second = -1;
    float sum = 0;
    for (int i = 0; i < n; i++) {
        sum += pr[i];
        if (pr[i] > pr[best])
            best = i;
    }
    for (int i = 0; i < n; i++)
        if (i != best && (second < 0 || pr[i] > pr[second]))
            second = i;
    T_NEAR(sum, 1, 1e-3);
    T_EQ(moves[best], gmk_test_move(&s, "k8"));
    T_EQ(moves[second], gmk_test_move(&s, "h13"));
    /* An open three of the opponent ranks its blocks first when there is
     * nothing bigger: White to move after Black's open three. */
    T_EQ(G->notation->load(&s, "h8 a1 i8 a3 j8"), BANYAN_OK);
    n = G->moves(&s, moves);
    G->priors(&s, moves, n, pr);
    best = 0;
    for (int i = 0; i < n; i++)
        if (pr[i] > pr[best])
            best = i;
    T_TRUE(moves[best] == gmk_test_move(&s, "g8") || moves[best] == gmk_test_move(&s, "k8"));
}

/* Positions with a VCF for the player to move, found by the solver and each
 * refereed move by move by the naive checker: every attacking move a legal
 * four, every reply forced, the defender never with a five, ending in a
 * five within the given plies. */
void test_gmk_vcf_wins(void)
{
    static const struct {
        const char *params, *moves;
        int plies;
    } cases[] = {
        {"", "h8 a1 i8 a3 j8 a5 k8 a7", 1},
        {"", "h8 j10 i8 l9 n7 g8 h12 g9 j7 f6 h5 f14 n11 j9 e15 o5 l5 h10 e14 n6 h3 f13 c14 l11",
         3},
        {"", "h8 i6 j9 j6 l9 k6 j7 g4 m6 l4 n4 f3 h2", 5},
        {"",
         "h8 h10 h11 f9 i8 f8 j7 i6 k5 l9 f12 h5 d10 h3 n11 l4 l12 m12 j1 j3 o14 m5 o10 "
         "i10 l3 o6 e13 n15 e11 h7 d11",
         7},
        {"",
         "h8 i9 i7 g5 k6 j11 i3 l9 f8 m7 j10 g8 o7 m4 o2 i8 k1 d8 k9 j12 f3 k13 n11 o11 "
         "m12 h10 m1",
         9},
        {"",
         "h8 i6 k7 j8 g9 m8 f6 m7 m5 e10 e4 g2 d12 f2 j7 k3 l9 e3 l5 e2 l11 m6 d5 c14 g8 "
         "b7 i4 f8 c11 o3 b5 h1",
         11},
        {"",
         "h8 j7 i8 k5 j10 i11 k6 k10 j11 m7 h6 l3 h7 j1 f7 i3 g12 o9 o8 n2 i13 m8 f14 o3 "
         "n1 l1 o7 d6 o4 k1 h3 j8 g9 n6 h15 d15 l9 j12 k2",
         13},
        {"",
         "h8 j10 i7 g8 k8 l11 m10 l6 l12 g10 i8 f6 h12 i9 g7 n12 o14 m15 o10 h14 j6 h7 i4 "
         "l15 i13 h6 h3 j1 k12 e11 n10 d9 i11 o13 f5 e13 g1 g9 j11 g5",
         15},
        /* From a game: found within the budget only because the orders of
         * the same fours that fail are searched once (the VCF's table). */
        {"", "g10 f7 f8 g7 f9 e8 d9 h7 e7 g9 h8 g6 j7 i8 f5 g5 g8 h6 h5 i6 j6 i7 i9", 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_test_state s;
        gmk_test_setup(&s, cases[i].params);
        T_EQ(G->notation->load(&s, cases[i].moves), BANYAN_OK);
        clock_t t0 = clock();
        banyan_move m;
        T_TRUE(G->tactics->prove_win(&s, &m));
        double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
        if (ms > 50)
            T_FAIL_AT("VCF case %zu took %.1f ms", i, ms);
        int plies = gmk_test_replay(&s, 15, 0);
        if (plies < 1 || plies > cases[i].plies)
            T_FAIL_AT("VCF case %zu: referee gave %d plies, expected at most %d", i, plies,
                      cases[i].plies);
    }
}

/* Whether the attacker (to move) has a VCF of at most depth attacker moves,
 * by plain search on the naive board, the defender's five checked first. */
static bool gmk_naive_vcf(gmk_naive *g, char me, char you, int depth, const gmk_test_state *s)
{
    int cells[8], dfive = gmk_naive_fives(g, you, cells, 8), blocks[8];
    if (gmk_naive_fives(g, me, blocks, 8) > 0)
        return true;
    if (depth == 0 || dfive > 1)
        return false;
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->n; c++) {
            if (g->b[r][c] != '.' || (dfive == 1 && cells[0] != r * g->n + c))
                continue;
            if (g->rule == 2 && me == 'X' && !gmk_test_in_moves(s, (banyan_move)(r * g->n + c)))
                continue;
            g->b[r][c] = me;
            int k = gmk_naive_fives(g, me, blocks, 8);
            bool win = k >= 2;
            if (k == 1) {
                gmk_test_state t = *s;
                G->play(&t, (banyan_move)(r * g->n + c));
                G->play(&t, (banyan_move)blocks[0]);
                g->b[blocks[0] / g->n][blocks[0] % g->n] = you;
                win = !gmk_naive_five(g, blocks[0] / g->n, blocks[0] % g->n, you) &&
                      gmk_naive_vcf(g, me, you, depth - 1, &t);
                g->b[blocks[0] / g->n][blocks[0] % g->n] = '.';
            }
            g->b[r][c] = '.';
            if (win)
                return true;
        }
    return false;
}

/* A random position under params: up to stones moves drawn from list (the
 * legal moves or the candidates), stopping before any move that ends the
 * game. */
static void gmk_test_random(gmk_test_state *s, const char *params, banyan_rng *rng, int stones,
                            int (*list)(const void *, banyan_move *))
{
    banyan_move moves[BANYAN_MAX_MOVES];
    gmk_test_setup(s, params);
    for (int k = 0; k < stones; k++) {
        int n = list(s, moves);
        if (!n)
            break;
        gmk_test_state t = *s;
        G->play(&t, moves[banyan_rng_below(rng, (uint32_t)n)]);
        if (gmk_test_result(&t) >= 0)
            break;
        *s = t;
    }
}

/* Positions without a VCF: the defender's four must be answered, the
 * defender's forced block makes a five, renju's forbidden double four, and
 * random positions where the solver and a naive 3-move search agree. */
void test_gmk_vcf_none(void)
{
    static const struct {
        const char *params, *moves;
    } cases[] = {
        /* Black's open three f8 g8 h8 would give an open four, but White's
         * c3..c6 four (c2 taken) must be blocked at c7, which is no four. */
        {"", "f8 c3 g8 c4 h8 c5 c2 c6"},
        /* Black's four g8..i8 (j8 White) has one five point, f8, where
         * White completes f5 f6 f7 f9; so Black must first block f8, which
         * makes the four f8..i8 open on e8 only: White blocks e8; no more. */
        {"", "g8 j8 h8 f5 i8 f6 a1 f7 a15 f9"},
        /* Renju: h8 would be a double four (e8 f8 g8 with d8 White, h5 h6
         * h7 with h4 White), forbidden to Black. */
        {"rule=renju", "e8 d8 f8 h4 g8 a1 h5 a3 h6 a5 h7 a7"},
        {"", "h8 i9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_test_state s;
        gmk_naive g;
        banyan_move m;
        int rule = strstr(cases[i].params, "renju") ? 2 : 0;
        gmk_test_setup(&s, cases[i].params);
        if (G->notation->load(&s, cases[i].moves) != BANYAN_OK) {
            T_FAIL_AT("case %zu does not load", i);
            continue;
        }
        if (G->tactics->prove_win(&s, &m))
            T_FAIL_AT("case %zu: a VCF claimed", i);
        gmk_naive_from(&g, &s, 15, rule);
        char me = G->to_move(&s) ? 'O' : 'X';
        T_TRUE(!gmk_naive_vcf(&g, me, me == 'X' ? 'O' : 'X', 3, &s));
    }
    /* The renju double four wins in freestyle. */
    gmk_test_state s;
    banyan_move m;
    gmk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, "e8 d8 f8 h4 g8 a1 h5 a3 h6 a5 h7 a7"), BANYAN_OK);
    T_TRUE(G->tactics->prove_win(&s, &m));
    T_EQ(gmk_test_replay(&s, 15, 0), 3);
    /* Random positions under each rule: a claim is always refereed sound;
     * a naive VCF of up to 3 attacker moves is always found. */
    static const char *const rules[] = {"", "rule=standard", "rule=renju"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 21, 0);
    for (int it = 0; it < 60; it++) {
        int rule = it % 3;
        gmk_test_random(&s, rules[rule], &rng, 14 + (int)banyan_rng_below(&rng, 20), G->moves);
        gmk_naive g;
        gmk_naive_from(&g, &s, 15, rule);
        char me = G->to_move(&s) ? 'O' : 'X';
        bool naive = gmk_naive_vcf(&g, me, me == 'X' ? 'O' : 'X', 3, &s);
        bool fast = G->tactics->prove_win(&s, &m);
        if (fast && gmk_test_replay(&s, 15, rule) < 0)
            T_FAIL_AT("random %d: an unsound VCF", it);
        if (naive && !fast)
            T_FAIL_AT("random %d: a short VCF missed", it);
    }
}

/* Referees a VCT claimed for the player to move in s, one attacker move
 * deep: the claimed move is legal, and after every reply of the defender
 * (any empty point at all, not only those the solver thought of) the
 * defender has not won and the attacker either has a five or still has a
 * proven win (VCF or VCT). At depth > 1, the same again after every reply.
 * Returns false at the first hole. */
static bool gmk_test_vct_holds(const gmk_test_state *s, int depth)
{
    banyan_move m, replies[BANYAN_MAX_MOVES];
    if (!G->tactics->prove_win_deep(s, 10000, 0, gmk_test_deep(), &m) || !gmk_test_in_moves(s, m))
        return false;
    gmk_test_state a = *s;
    G->play(&a, m);
    if (gmk_test_result(&a) >= 0)
        return true; /* A five. */
    int n = G->moves(&a, replies);
    for (int i = 0; i < n; i++) {
        gmk_test_state d = a;
        banyan_move w;
        G->play(&d, replies[i]);
        if (gmk_test_result(&d) >= 0)
            return false; /* The defender made five. */
        if (depth > 1 ? !gmk_test_vct_holds(&d, depth - 1)
                      : !G->tactics->prove_win(&d, &w) &&
                            !G->tactics->prove_win_deep(&d, 10000, 0, gmk_test_deep(), &w))
            return false;
    }
    return true;
}

/* The VCT solver (the deep prover): wins that need open threes, which the
 * VCF cannot see, refereed against every defence; positions without one,
 * among them threats the defender's own four or five refutes (renju:
 * test_gmk_vct_renju). */
void test_gmk_vct(void)
{
    static const char *const wins[] = {
        /* A double open three for Black at j8 (h8 i8, j9 j10). */
        "h8 a1 i8 o1 j9 a15 j10 o15",
        /* From a game: White wins by threats starting at i8. */
        "c8 b8 d5 f5 a11 g8 h6 e8 j5 f8 h8 f7 f6 h9 i10 g6 h5 h7 e4",
        /* An open three on the board: its straight four wins (the VCF
         * finds that too). */
        "h8 a1 i8 a3 j8 a5 h10 o15 h11 o13",
    };
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
        gmk_test_state s;
        banyan_move m;
        gmk_test_setup(&s, "");
        T_EQ(G->notation->load(&s, wins[i]), BANYAN_OK);
        if (i == 0 && G->tactics->prove_win(&s, &m))
            T_FAIL_AT("case %zu: a VCF where there is none", i);
        if (!G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m))
            T_FAIL_AT("VCT case %zu not found", i);
        else if (!gmk_test_vct_holds(&s, i == 0 ? 2 : 1))
            T_FAIL_AT("VCT case %zu: a defence the solver missed", i);
    }
    static const struct {
        const char *params, *moves;
    } none[] = {
        /* The double three, but White has an open four (c3..c6). */
        {"", "h8 c3 i8 c4 j9 c5 j10 c6"},
        /* The double three, but White's open three c3 c4 c5 answers it
         * with an open four. */
        {"", "h8 c3 i8 c4 j9 c5 j10 o15"},
        {"", "h8 i9 h9"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        gmk_test_state s;
        banyan_move m;
        gmk_test_setup(&s, none[i].params);
        T_EQ(G->notation->load(&s, none[i].moves), BANYAN_OK);
        if (G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m))
            T_FAIL_AT("case %zu: a VCT claimed", i);
    }
    /* Random positions: every claim holds against every defence. */
    banyan_rng rng;
    banyan_rng_seed(&rng, 7, 0);
    int claims = 0;
    for (int it = 0; it < 40; it++) {
        gmk_test_state s;
        banyan_move m;
        gmk_test_random(&s, it % 2 ? "rule=standard" : "", &rng,
                        16 + (int)banyan_rng_below(&rng, 24), G->tactics->candidates);
        if (!G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m))
            continue;
        claims++;
        if (!gmk_test_vct_holds(&s, 1))
            T_FAIL_AT("random %d: an unsound VCT", it);
    }
    T_TRUE(claims >= 5);
}

/* A full referee of a win claimed for the player to move: at each of the
 * attacker's turns a five if he has one (on the naive board), else the
 * move the provers give (prove_win, else prove_win_deep with effort); at
 * each of the defender's turns, a five of his fails the claim, two five
 * points of the attacker's win, one must be blocked, and otherwise every
 * legal reply is tried. So the attacker's moves come from the solvers but
 * every defence is played out to a five: nothing rests on the solvers'
 * word. The longest line (plies to the five) and the number of the
 * attacker's moves that did not threaten a five (threes and other quiet
 * threats) along the proof are gathered. */
typedef struct gmk_test_win {
    int att;         /* The attacker: 0 or 1. */
    uint32_t effort; /* prove_win_deep's effort. */
    int plies;       /* The longest line found so far. */
    int quiet;       /* Defender's turns without a five point to block. */
    long turns;      /* Defender's turns visited, bounded by max_turns. */
    long max_turns;
    int rule; /* As gmk_naive's: 0 freestyle, 1 standard, 2 renju. */
} gmk_test_win;

static bool gmk_test_proof_defend(gmk_test_win *p, const gmk_test_state *a, int ply);

static bool gmk_test_proof_attack(gmk_test_win *p, const gmk_test_state *s, int ply)
{
    gmk_naive g;
    int cells[8];
    banyan_move m;
    char me = p->att ? 'O' : 'X';
    gmk_naive_from(&g, s, 15, p->rule);
    if (gmk_naive_fives(&g, me, cells, 8) > 0) {
        p->plies = ply + 1 > p->plies ? ply + 1 : p->plies;
        return true;
    }
    if (!G->tactics->prove_win(s, &m) &&
        !G->tactics->prove_win_deep(s, p->effort, 0, gmk_test_deep(), &m))
        return false;
    if (!gmk_test_in_moves(s, m))
        return false;
    gmk_test_state a = *s;
    G->play(&a, m);
    if (gmk_test_result(&a) >= 0)
        return gmk_test_result(&a) == p->att;
    return gmk_test_proof_defend(p, &a, ply + 1);
}

static bool gmk_test_proof_defend(gmk_test_win *p, const gmk_test_state *a, int ply)
{
    gmk_naive g;
    int cells[8];
    banyan_move replies[BANYAN_MAX_MOVES];
    char me = p->att ? 'O' : 'X', you = p->att ? 'X' : 'O';
    if (++p->turns > p->max_turns)
        return false;
    gmk_naive_from(&g, a, 15, p->rule);
    if (gmk_naive_fives(&g, you, cells, 8) > 0)
        return false;
    int k = gmk_naive_fives(&g, me, cells, 8);
    /* (Renju: a block forbidden to Black is no block.) */
    if (k >= 2 || (k == 1 && !gmk_test_in_moves(a, (banyan_move)cells[0]))) {
        p->plies = ply + 2 > p->plies ? ply + 2 : p->plies;
        return true;
    }
    if (k == 1) {
        gmk_test_state d = *a;
        G->play(&d, (banyan_move)cells[0]);
        return gmk_test_proof_attack(p, &d, ply + 1);
    }
    p->quiet++;
    int n = G->moves(a, replies);
    for (int i = 0; i < n; i++) {
        gmk_test_state d = *a;
        G->play(&d, replies[i]);
        if (gmk_test_result(&d) >= 0 || !gmk_test_proof_attack(p, &d, ply + 1))
            return false;
    }
    return true;
}

/* Whether the player to move in s wins, refereed in full (above) under rule
 * (as gmk_naive's, s's own) within max_turns of the defender's; *out gets
 * the figures. */
static bool gmk_test_proof_rule(const gmk_test_state *s, int rule, uint32_t effort, long max_turns,
                                gmk_test_win *out)
{
    *out = (gmk_test_win){G->to_move(s), effort, 0, 0, 0, max_turns, rule};
    return gmk_test_proof_attack(out, s, 0);
}

/* The same in freestyle. */
static bool gmk_test_proof(const gmk_test_state *s, uint32_t effort, long max_turns,
                           gmk_test_win *out)
{
    return gmk_test_proof_rule(s, 0, effort, max_turns, out);
}

/* Renju's provers: White's double three wins where Black's is forbidden,
 * and so does White's four that Black may not block; on
 * random renju positions no win claimed for either colour is refuted when
 * refereed in full (every legal defence played out to a five, a block
 * forbidden to Black being none), and wins of both colours are refereed
 * sound. */
void test_gmk_vct_renju(void)
{
    gmk_test_state s;
    gmk_test_win p;
    banyan_move m;
    /* White's two twos h8 i8, j9 j10: j8 makes the double three. */
    gmk_test_setup(&s, "rule=renju");
    T_EQ(G->notation->load(&s, "a1 h8 o1 i8 a15 j9 o15 j10 b3"), BANYAN_OK);
    T_TRUE(!G->tactics->prove_win(&s, &m));
    T_TRUE(G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m));
    T_TRUE(gmk_test_proof_rule(&s, 2, 10000, 20000, &p));
    /* The same stones with Black to move: j8 would be a double three,
     * forbidden; the win is another. */
    gmk_test_setup(&s, "rule=renju");
    T_EQ(G->notation->load(&s, "h8 a1 i8 o1 j9 a15 j10 o15"), BANYAN_OK);
    T_TRUE(G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m));
    T_TRUE(m != gmk_test_move(&s, "j8"));
    T_TRUE(gmk_test_proof_rule(&s, 2, 10000, 20000, &p));
    /* Black's h8 would be a double four (e8 f8 g8, h5 h6 h7), forbidden:
     * no threat for White to answer, yet his fours are real (a five at h8
     * is allowed). The win claimed is refereed in full. */
    gmk_test_setup(&s, "rule=renju");
    T_EQ(G->notation->load(&s, "e8 d8 f8 h4 g8 a1 h5 o1 h6 a15 h7 o15 l12 a8 m12 o8"), BANYAN_OK);
    T_TRUE(G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m));
    T_TRUE(gmk_test_proof_rule(&s, 2, 10000, 20000, &p));
    /* A position of a random game where a VCT that took every straight
     * four of Black's for a threat (not only the firm ones) claimed j6,
     * and White's defence refutes it: no claim, or one that holds. */
    gmk_test_setup(&s, "rule=renju");
    T_EQ(G->notation->load(&s, "g10 h10 k10 m10 j9 l9 g8 i8 h8 j7 k8 i6 h7 l6 g6 j5 k6 l5 g4 "
                               "j4 k4 m4 l3 i2"),
         BANYAN_OK);
    if (G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m) &&
        !gmk_test_proof_rule(&s, 2, 10000, 20000, &p))
        T_FAIL_AT("renju: a VCT on a threat that is not firm, refuted");
    /* White's l8 makes a four whose one five point, h8, is Black's double
     * three: he may not block it, so the VCF wins (in freestyle he blocks,
     * and White has no more fours). */
    static const char *const trap = "h6 i8 h7 j8 f6 k8 g7 a1 g8 a3 m8";
    gmk_test_setup(&s, "rule=renju");
    T_EQ(G->notation->load(&s, trap), BANYAN_OK);
    T_TRUE(G->tactics->prove_win(&s, &m) && m == gmk_test_move(&s, "l8"));
    T_EQ(gmk_test_replay(&s, 15, 2), 3);
    T_TRUE(gmk_test_proof_rule(&s, 2, 10000, 20000, &p));
    gmk_test_setup(&s, "");
    T_EQ(G->notation->load(&s, trap), BANYAN_OK);
    T_TRUE(!G->tactics->prove_win(&s, &m));
    /* Random positions under renju: every claim holds one move deep
     * against every legal reply (gmk_test_vct_holds). */
    banyan_rng rng;
    banyan_rng_seed(&rng, 11, 0);
    int claims[2] = {0, 0};
    for (int it = 0; it < 150; it++) {
        gmk_test_random(&s, "rule=renju", &rng, 16 + (int)banyan_rng_below(&rng, 30),
                        G->tactics->candidates);
        if (G->tactics->prove_win(&s, &m) ||
            !G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m))
            continue;
        claims[G->to_move(&s)]++;
        if (!gmk_test_vct_holds(&s, 1))
            T_FAIL_AT("random %d: a VCT for %s that does not hold", it,
                      G->to_move(&s) ? "White" : "Black");
    }
    T_TRUE(claims[0] >= 3 && claims[1] >= 3);
}

/* Loads moves under params into s. */
static bool gmk_test_load(gmk_test_state *s, const char *params, const char *moves)
{
    gmk_test_setup(s, params);
    int rc = G->notation->load(s, moves);
    if (rc != BANYAN_OK)
        T_FAIL_AT("load(\"%s\") on \"%s\" gave %d", moves, params, rc);
    return rc == BANYAN_OK;
}

/* Whether moves a[0 .. na - 1] are b[0 .. nb - 1] less some, in b's order. */
static bool gmk_test_subsequence(const banyan_move *a, int na, const banyan_move *b, int nb)
{
    int j = 0;
    for (int i = 0; i < na; i++) {
        while (j < nb && b[j] != a[i])
            j++;
        if (j++ == nb)
            return false;
    }
    return true;
}

/* Whether text (moves separated by spaces) names exactly moves[0 .. n - 1],
 * in that order. */
static bool gmk_test_list_is(const gmk_test_state *s, const banyan_move *moves, int n,
                             const char *text)
{
    char buf[256];
    int k = 0;
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (k >= n || moves[k++] != gmk_test_move(s, tok))
            return false;
    return k == n;
}

/* Checks the candidates of moves under params (which do not turn the
 * prover off) against their contract, from the plain candidates of the
 * same position under prover=off, and returns how many were dropped:
 *   - when the mover has a five to make: exactly those fives;
 *   - else, when the opponent has one: exactly the blocks;
 *   - else a subsequence of the plain candidates that keeps every move
 *     after which the opponent's prove_win finds no VCF, and drops only
 *     moves after which he has one, refereed move by move.
 * (Renju: the plain list when every block is forbidden to Black.) */
static int gmk_test_defence(const char *params, const char *moves)
{
    gmk_test_state s, off;
    banyan_move c[BANYAN_MAX_MOVES], plain[BANYAN_MAX_MOVES], ref[BANYAN_MAX_MOVES], m;
    char off_params[64];
    snprintf(off_params, sizeof off_params, "%s prover=off", params);
    if (!gmk_test_load(&s, params, moves) || !gmk_test_load(&off, off_params, moves))
        return 0;
    int nc = G->tactics->candidates(&s, c), np = G->tactics->candidates(&off, plain), nr = 0,
        cells[8];
    int rule = strstr(params, "renju") ? 2 : strstr(params, "standard") ? 1 : 0;
    char mine = G->to_move(&s) ? 'O' : 'X', theirs = G->to_move(&s) ? 'X' : 'O';
    gmk_naive g;
    gmk_naive_from(&g, &s, 15, rule);
    char who = gmk_naive_fives(&g, mine, cells, 8)     ? mine
               : gmk_naive_fives(&g, theirs, cells, 8) ? theirs
                                                       : 0;
    T_TRUE(nc > 0 && gmk_test_subsequence(c, nc, plain, np));
    if (who) {
        for (int i = 0; i < np; i++) {
            int r = (int)plain[i] / 15, col = (int)plain[i] % 15;
            g.b[r][col] = who;
            if (gmk_naive_five(&g, r, col, who))
                ref[nr++] = plain[i];
            g.b[r][col] = '.';
        }
        if (nr == 0)
            nr = np, memcpy(ref, plain, sizeof plain);
        T_EQ(nc, nr);
        for (int i = 0; i < nc && i < nr; i++)
            T_EQ(c[i], ref[i]);
        return np - nc;
    }
    for (int i = 0, j = 0; i < np; i++) {
        gmk_test_state t = s;
        G->play(&t, plain[i]);
        bool kept = j < nc && c[j] == plain[i];
        j += kept;
        if (!G->tactics->prove_win(&t, &m)) {
            if (!kept)
                T_FAIL_AT("%s: a move without a VCF against it was dropped", moves);
        } else if (!kept && gmk_test_replay(&t, 15, rule) < 0) {
            T_FAIL_AT("%s: a dropped move's VCF does not hold", moves);
        }
    }
    return np - nc;
}

/* A random position under params as a move list in buf: up to stones
 * moves, each the best by the priors or, one time in three, any
 * candidate, stopping before a move that ends the game. */
static void gmk_test_random_text(const char *params, banyan_rng *rng, int stones, char *buf,
                                 size_t len)
{
    gmk_test_state s, t;
    banyan_move moves[BANYAN_MAX_MOVES];
    float pr[BANYAN_MAX_MOVES];
    size_t used = 0;
    gmk_test_setup(&s, params);
    buf[0] = 0;
    for (int k = 0; k < stones; k++) {
        int n = G->tactics->candidates(&s, moves), pick = 0;
        if (!n)
            break;
        G->priors(&s, moves, n, pr);
        for (int j = 1; j < n; j++)
            pick = pr[j] > pr[pick] ? j : pick;
        if (banyan_rng_below(rng, 3) == 0)
            pick = (int)banyan_rng_below(rng, (uint32_t)n);
        t = s;
        G->play(&t, moves[pick]);
        if (gmk_test_result(&t) >= 0)
            break;
        s = t;
        used += (size_t)G->notation->format_move(&s, moves[pick], buf + used, len - used);
        used += (size_t)snprintf(buf + used, len - used, " ");
    }
}

/* expand() answers as prove_win() and candidates() do, on the positions
 * of random games under each rule and on every child of each, the
 * children expanded after their parent as in a search, so that the quiet
 * positions the parents leave in the deep memory decide many children's
 * answers (counted: the test fails if none did). */
void test_gmk_expand(void)
{
    static const char *const rules[] = {"", "rule=standard", "rule=renju", "size=11"};
    void *mem = calloc(1, (G->tactics ? G->tactics->mem_size : 0));
    banyan_rng rng;
    int quiet = 0, proven = 0, checked = 0;
    T_TRUE(mem != NULL);
    if (!mem)
        return;
    banyan_rng_seed(&rng, 5, 0);
    for (int game = 0; game < 8; game++) {
        gmk_test_state s, c;
        banyan_move moves[BANYAN_MAX_MOVES];
        double r[2];
        gmk_test_setup(&s, rules[game % 4]);
        for (int ply = 0; ply < 60 && !G->outcome(&s, r); ply++) {
            banyan_move win;
            int n = G->tactics->expand(&s, mem, &win, moves);
            if (n < 0)
                break;
            for (int i = 0; i <= n; i++) {
                banyan_move w1, w2, a[BANYAN_MAX_MOVES], b[BANYAN_MAX_MOVES];
                memcpy(&c, &s, sizeof c);
                if (i < n)
                    G->play(&c, moves[i]); /* The children, then the position itself. */
                if (G->outcome(&c, r))
                    continue;
                quiet += gmk_quiet((const gmk *)&c, mem);
                int ne = G->tactics->expand(&c, mem, &w1, a), nc = 0;
                bool won = G->tactics->prove_win(&c, &w2);
                if (!won)
                    nc = G->tactics->candidates(&c, b);
                T_EQ(ne < 0, won);
                if (won && ne < 0)
                    T_EQ(w1, w2);
                if (!won && ne == nc)
                    T_TRUE(memcmp(a, b, (size_t)nc * sizeof *a) == 0);
                else if (!won)
                    T_EQ(ne, nc);
                proven += won;
                checked++;
            }
            G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)n)]);
        }
    }
    T_TRUE(quiet > checked / 10);
    T_TRUE(proven > 0);
    free(mem);
}

/* The candidates under a threat (candidates through gmk_defend): a five
 * to make, else the opponent's five points to block, else, when the
 * opponent would win by continuous fours were the mover to pass, the
 * moves that may stop him; unchanged without a threat, and under
 * prover=off. */
void test_gmk_defence_candidates(void)
{
    gmk_test_state s;
    banyan_move c[BANYAN_MAX_MOVES];
    int n;
    /* White's double four at h8 (h5 h6 h7 over Black's h4; e8 f8 g8 beside
     * Black's d8): Black must take h8 or one of its five points. */
    const char *vcf = "h4 h5 d8 h6 l12 h7 n14 e8 b2 f8 m3 g8";
    T_TRUE(gmk_test_defence("", vcf) > 50);
    gmk_test_load(&s, "", vcf);
    n = G->tactics->candidates(&s, c);
    T_TRUE(gmk_test_list_is(&s, c, n, "h8 i8 h9"));
    gmk_test_load(&s, "candidates=all", vcf);
    n = G->tactics->candidates(&s, c);
    T_TRUE(gmk_test_list_is(&s, c, n, "h8 i8 h9"));
    T_TRUE(gmk_test_defence("rule=standard", vcf) > 50);
    T_TRUE(gmk_test_defence("rule=renju", vcf) > 50);
    /* prover=off, the textbook baseline: every near cell. */
    gmk_test_load(&s, "prover=off", vcf);
    T_TRUE(G->tactics->candidates(&s, c) > 50);
    /* Black's fours (m10, n10 beside j10 k10 l10; k11, m13 on the
     * diagonal j10 .. n14) gain tempo: kept; White's fillers a1 a3. */
    const char *tempo = "h4 h5 d8 h6 l12 h7 n14 e8 b2 f8 m3 g8 j10 i10 k10 a1 l10 a3";
    T_TRUE(gmk_test_defence("", tempo) > 50);
    gmk_test_load(&s, "", tempo);
    n = G->tactics->candidates(&s, c);
    T_TRUE(n < 10);
    T_TRUE(gmk_test_subsequence((banyan_move[]){gmk_test_move(&s, "h8"), gmk_test_move(&s, "m10")},
                                2, c, n));
    /* A four on the board: its block; an open four: both ends, though
     * both lose; a five of one's own comes first. */
    gmk_test_load(&s, "", "h4 h5 a1 h6 a3 h7 o15 h8");
    n = G->tactics->candidates(&s, c);
    T_TRUE(gmk_test_list_is(&s, c, n, "h9"));
    gmk_test_load(&s, "", "a1 h5 a3 h6 o15 h7 o13 h8");
    n = G->tactics->candidates(&s, c);
    T_TRUE(gmk_test_list_is(&s, c, n, "h4 h9"));
    gmk_test_load(&s, "", "h5 a1 h6 a2 h7 a3 h8 a4");
    n = G->tactics->candidates(&s, c);
    T_TRUE(gmk_test_list_is(&s, c, n, "h4 h9"));
    T_TRUE(gmk_test_defence("", "h4 h5 a1 h6 a3 h7 o15 h8") > 0);
    T_TRUE(gmk_test_defence("", "a1 h5 a3 h6 o15 h7 o13 h8") > 0);
    T_TRUE(gmk_test_defence("", "h5 a1 h6 a2 h7 a3 h8 a4") > 0);
    /* No threat: unchanged. */
    T_EQ(gmk_test_defence("", "h8 i9 h10 j12 c3 m4"), 0);
    /* Random positions under each rule hold to the contract; some have a
     * threat. */
    static const char *const rules[] = {"", "rule=standard", "rule=renju"};
    banyan_rng rng;
    banyan_rng_seed(&rng, 31, 0);
    int narrowed = 0;
    for (int it = 0; it < 90; it++) {
        char text[1024];
        gmk_test_random_text(rules[it % 3], &rng, 10 + (int)banyan_rng_below(&rng, 40), text,
                             sizeof text);
        narrowed += gmk_test_defence(rules[it % 3], text) > 0;
    }
    T_TRUE(narrowed >= 20);
}

/* candidates_deep, the root's defence: when the opponent would win by a
 * VCF or a VCT were the mover to pass, the candidates after which he
 * still wins are dropped. Each dropped move is refereed in full (the
 * opponent's win played out against every defence), the moves that do not
 * lose (from tests/data/gomoku_defence.txt) are kept, and the result keeps
 * the order of candidates. */
void test_gmk_candidates_deep(void)
{
    static const struct {
        const char *moves, *answers;
        int step; /* Referee every step-th dropped move (all: 5 s for the third). */
    } cases[] = {
        {"d3 f3 h5 f7 g6 i6 g5 f5 f4 g4 e6 h6 d6 f6 f8 e7 g9 g7 h7 i9 h8 i8 i7", "c7 f10", 1},
        {"d3 f3 h5 f7 g6 e5 h6 f6 g7 f8 f5 h7 j5", "f10 f9", 1},
        {"d3 f3 h5 f7 g6 f5 f6 e6 g8 d7 g4 g7 e7 d8 d9 c8 b9 f9", "c6 e8", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_test_state s;
        banyan_move c[BANYAN_MAX_MOVES], d[BANYAN_MAX_MOVES];
        char answers[64];
        if (!gmk_test_load(&s, "", cases[i].moves))
            continue;
        int nc = G->tactics->candidates(&s, c),
            nd = G->tactics->candidates_deep(&s, 200000, 0, gmk_test_deep(), d), dropped = 0;
        T_TRUE(nd > 0 && nd < nc && gmk_test_subsequence(d, nd, c, nc));
        snprintf(answers, sizeof answers, "%s", cases[i].answers);
        for (char *save = NULL, *tok = strtok_r(answers, " ", &save); tok;
             tok = strtok_r(NULL, " ", &save)) {
            banyan_move m = gmk_test_move(&s, tok);
            if (!gmk_test_subsequence(&m, 1, d, nd))
                T_FAIL_AT("case %zu: %s, which does not lose, was dropped", i, tok);
        }
        for (int j = 0, k = 0; j < nc; j++) {
            if (k < nd && d[k] == c[j]) {
                k++;
                continue;
            }
            if (dropped++ % cases[i].step)
                continue;
            gmk_test_state t = s;
            gmk_test_win p;
            G->play(&t, c[j]);
            if (!gmk_test_proof(&t, 20000, 20000, &p))
                T_FAIL_AT("case %zu: dropped move %d not refereed a loss", i, (int)c[j]);
        }
    }
    gmk_test_state s;
    banyan_move c[BANYAN_MAX_MOVES], d[BANYAN_MAX_MOVES];
    /* No threat: unchanged; an open four against: every move loses, all
     * kept; prover=off: no VCT, unchanged. */
    static const struct {
        const char *params, *moves;
    } same[] = {
        {"", "h8 i9 h10 j12 c3 m4"},
        {"", "a1 h5 a3 h6 o15 h7 o13 h8"},
        {"prover=off", "d3 f3 h5 f7 g6 e5 h6 f6 g7 f8 f5 h7 j5"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        if (!gmk_test_load(&s, same[i].params, same[i].moves))
            continue;
        int nc = G->tactics->candidates(&s, c),
            nd = G->tactics->candidates_deep(&s, 200000, 0, gmk_test_deep(), d);
        T_EQ(nd, nc);
        T_TRUE(memcmp(c, d, (size_t)nc * sizeof *c) == 0);
    }
    /* White's two twos win, in freestyle and under renju (White's double
     * three is no forbidden point): Black's moves after which White still
     * wins are dropped, each refereed under the rule. */
    for (int rule = 0; rule <= 2; rule += 2) {
        gmk_test_load(&s, rule ? "rule=renju" : "", "b2 h5 m3 h6 l12 e8 n14 f8");
        int nc = G->tactics->candidates(&s, c),
            nd = G->tactics->candidates_deep(&s, 200000, 0, gmk_test_deep(), d);
        T_TRUE(nd > 0 && nd < nc && gmk_test_subsequence(d, nd, c, nc));
        for (int j = 0, k = 0, dropped = 0; j < nc && rule; j++) {
            if (k < nd && d[k] == c[j]) {
                k++;
                continue;
            }
            if (dropped++ % 40)
                continue; /* (Three of the 114.) */
            gmk_test_state t = s;
            gmk_test_win p;
            G->play(&t, c[j]);
            if (!gmk_test_proof_rule(&t, 2, 20000, 20000, &p))
                T_FAIL_AT("renju: dropped move %d not refereed a loss", (int)c[j]);
        }
    }
    /* Out of time before the first check: nothing proven, all kept. */
    T_EQ(G->tactics->candidates_deep(&s, 200000, 1e-9, gmk_test_deep(), d),
         G->tactics->candidates(&s, c));
}

/* The deep prover at the root's effort (200,000 positions) finds wins that
 * mix fours and threes over 21 plies and more, with no VCF: each refereed
 * in full against every defence (from tests/data/gomoku_attack.txt). */
void test_gmk_vct_long(void)
{
    static const struct {
        const char *moves, *win;
    } cases[] = {
        {"g15 f15 j15 j14 h13 j12 j11 h12 i12 k10 i11 k11", "i13"},
        {"m8 i8 h10 j10 m6 k6 m7 m5 j7 m9", "l7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_test_state s;
        banyan_move m;
        gmk_test_win p;
        if (!gmk_test_load(&s, "", cases[i].moves))
            continue;
        T_TRUE(!G->tactics->prove_win(&s, &m));
        T_TRUE(G->tactics->prove_win_deep(&s, 200000, 0, gmk_test_deep(), &m));
        T_EQ(m, gmk_test_move(&s, cases[i].win));
        if (!gmk_test_proof(&s, 200000, 100000, &p))
            T_FAIL_AT("case %zu: the win does not hold", i);
        if (p.plies < 21 || p.quiet < 2)
            T_FAIL_AT("case %zu: %d plies, %d quiet threats", i, p.plies, p.quiet);
    }
}

/* Wins whose first move is a quiet threat, neither a four nor an open
 * three: a stone after which the attacker has a four-three point the
 * defender must answer (gmk_vct_quiet, gmk_vct_defend_43). The first is
 * att-d05 of tests/data/gomoku_attack.txt (Rapfi: h6 alone wins, in 11
 * plies): White's h6 makes h8 a four (h6 h7 h8 . h10) and an open three
 * (h8 i8 j8). Each is refereed in full against every defence; the others
 * come from self-play games, where the VCT with threes alone found no
 * win within 30,000 positions, and are refereed two attacker moves deep. */
void test_gmk_vct_quiet(void)
{
    gmk_test_state s;
    banyan_move m;
    gmk_test_win p;
    if (gmk_test_load(&s, "", "j7 h10 g7 i6 l10 h7 j5 j8 j3 i8 i5")) {
        T_TRUE(!G->tactics->prove_win(&s, &m));
        /* Found in about 10,000 positions: not within a time bound
         * shorter than the first thousand take. */
        T_TRUE(!G->tactics->prove_win_deep(&s, 200000, 1e-9, gmk_test_deep(), &m));
        T_TRUE(G->tactics->prove_win_deep(&s, 200000, 0, gmk_test_deep(), &m));
        T_EQ(m, gmk_test_move(&s, "h6"));
        if (!gmk_test_proof(&s, 200000, 100000, &p))
            T_FAIL_AT("att-d05: the win does not hold");
        T_TRUE(p.plies >= 11 && p.quiet >= 1);
    }
    static const char *const games[] = {
        "j15 e15 n15 d13 l6 n4 l5 l4 k5 m5 k4 m6 m4 k6 k3 l7 j5 n5 k8 n7 n3 m8",
        "g9 g5 g10 g8 d4 n12 m2 f6 e7 f8 f9 e9 g7 f7 e8 d7 e6 d8 f10 d9 d6 e10 f11 e11 f4 e12 e13 "
        "d10 d11 c11",
        "h8 l5 l6 h7 k5 j8 o3 h6 h13 i11 j4 i3 m7 n8 j6 i7 k9 g5 f4 j7 k7 k6 m5 n4 m4 i8 h9 i9 i10 "
        "i5 i6 m6 f7",
        "h12 g9 k7 e14 d9 h11 k5 g12 f13 g10 g11 f9 i12 d7 e8 h9 e9 f10 k8 k6 f7 i8 j7",
        "i5 k5 l5 j4 k6 k1 o7 j7 m11 n2 g3 l4 j6 h4 k4 o1 m3 m7 i3 l6 n8 k7 l7 m5 j8 o3 n4 k3",
        "f4 e4 c3 e3 g5 d5 e5 d6 d4 f6 c6 e7 g6 g7 f8 e8 h5 h8 i5 f5 i4 f7 h7 d7 c7 e6 c4 c5 c8 c9 "
        "d8 e9 e10 a3 b4 f9 j5 k5 j3 k2 g9 g8 h9 h10 i9 d9 b9 g10 h11 b11 c10 h3",
        "l6 k6 o6 n5 n3 k2 k5 i5 l4 l3 m5 k3 k7 j8 j4 m4 j1 i3 j3 j7 l5 l8 k4 i2 i4 h4 o5 o4 j2 j5 "
        "j6 i7 k1 m3 l1 i1 m7 n8 n7 m6 k8 g5 o7 l7 o9 o8 h6 f5 h5 f6 e7 f7 f8 i8 m1",
        "d10 d12 h14 f12 c13 c12 e12 e10 d11 f13 f11 g11 h10 e13 g9 d13 h9 c11 f14 e14 b11 h11 g10 "
        "i8 i10 g13 h13 g12 d15 j10 e9 f9 g7 g14 g15 c15 d14 b10",
        "c14 e12 f14 f15 g10 e15 g11 d15 g15 g12 h11 f11 f9 i12 e10 c15 b15 h13 e9 i14 j15 j11 g14 "
        "l9 k10 h12",
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        if (!gmk_test_load(&s, "", games[i]))
            continue;
        T_TRUE(G->tactics->prove_win_deep(&s, 30000, 0, gmk_test_deep(), &m));
        if (!gmk_test_vct_holds(&s, 2))
            T_FAIL_AT("game position %zu: a defence the solver missed", i);
    }
    /* Positions from self-play games where a solver without one kind of
     * answer to a four-three point (a cell making its forced block a four
     * of the defender's; the point itself; the cells of its three) claims a
     * win that a defence of that kind refutes: any claim here must hold. */
    static const char *const refuted[] = {
        "i11 i10 f10 g12 j13 k12 b12 j11 l13 h9 g8 j9 k8 f13 h11 k9 i9 j10 j8 h10 k10 f11",
        "k7 k8 m10 l6 l7 k15 a9 m7 l8 j6 k6 j5 j7 k5 j4 m4 i5 h7 i7",
        "j13 k10 l12 l10 k13 m11 h1 f1 j10 k11 k12 i12 i11 m8 l13 j11 l9 h13 g14",
        "b1 d5 f5 b3 e1 d2 b5 e8 l12 n12 d1 c1 g3 c4 e6 d7 e9 f9 g10 d4 d6",
        "j15 e15 n15 d13 l6 n4 l5 l4 k5 m5 k4 m6 m4 k6 k3 l7",
        "i5 j5 j2 j6 i2 i4 e8 b6 j4 h6 k6 h5",
        "k11 l12 i10 n12 n15 k8 g8 o12 h3 l9 l10 m9 m10 n10",
        "d6 e6 f3 i6 f7 i7 e1 a8 m9 b4 f9 i8 i5 i9 i10 f8 i3 h8 g8",
    };
    for (size_t i = 0; i < sizeof refuted / sizeof refuted[0]; i++)
        if (gmk_test_load(&s, "", refuted[i]) &&
            G->tactics->prove_win_deep(&s, 10000, 0, gmk_test_deep(), &m) &&
            !gmk_test_vct_holds(&s, 2))
            T_FAIL_AT("refuted position %zu: an unsound VCT", i);
}

/* The shortest win: in this position of a self-play game the VCT's first
 * win (in the round without threes: continuous fours from d7) is not its
 * shortest, which begins with b5 (gmk_vct_shorten). Both are refereed as
 * wins against every defence. */
void test_gmk_vct_shortest(void)
{
    gmk_test_state s;
    banyan_move m;
    gmk_test_win p;
    if (!gmk_test_load(&s, "", "f4 e4 c3 e3 g5 d5 j9 e2 e5 d4 c5 c6 f3 d6 d3"))
        return;
    T_TRUE(!G->tactics->prove_win(&s, &m));
    T_TRUE(G->tactics->prove_win_deep(&s, 30000, 0, gmk_test_deep(), &m));
    T_EQ(m, gmk_test_move(&s, "b5"));
    T_TRUE(gmk_test_proof(&s, 30000, 10000, &p));
    gmk_test_state a = s;
    G->play(&a, gmk_test_move(&s, "d7"));
    p = (gmk_test_win){G->to_move(&s), 30000, 0, 0, 0, 10000, 0};
    T_TRUE(gmk_test_proof_defend(&p, &a, 1));
}

/* Every line of tests/positions/gomoku.txt parses: params, a legal move
 * list, expected answers that are legal moves there. */
void test_gmk_positions_file(void)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/../positions/gomoku.txt", t_data_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        T_FAIL_AT("cannot open %s", path);
        return;
    }
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *field[4];
        field[0] = line;
        for (int k = 1; k < 4; k++) {
            field[k] = field[k - 1] ? strchr(field[k - 1], '|') : NULL;
            if (field[k])
                *field[k]++ = 0;
        }
        if (!field[3]) {
            T_FAIL_AT("line %d: fewer than 4 fields", count + 1);
            continue;
        }
        gmk_test_state s;
        if (G->setup(&s, field[0]) != BANYAN_OK || G->notation->load(&s, field[1]) != BANYAN_OK) {
            T_FAIL_AT("line %d: %s | %s does not load", count + 1, field[0], field[1]);
            continue;
        }
        char *save = NULL;
        int answers = 0;
        for (char *tok = strtok_r(field[2], " \t", &save); tok;
             tok = strtok_r(NULL, " \t", &save)) {
            banyan_move m;
            answers++;
            if (G->notation->parse_move(&s, tok, &m) != BANYAN_OK || !gmk_test_in_moves(&s, m))
                T_FAIL_AT("line %d: answer %s is not a legal move", count + 1, tok);
        }
        T_TRUE(answers > 0);
        count++;
    }
    fclose(f);
    T_TRUE(count >= 8);
}

/* Perft on 7x7 with candidates=all against a naive count written here. */
static uint64_t gmk_naive_perft(gmk_naive *g, char who, int depth)
{
    uint64_t total = 0;
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->n; c++) {
            if (g->b[r][c] != '.')
                continue;
            if (depth == 1) {
                total++;
                continue;
            }
            g->b[r][c] = who;
            if (!gmk_naive_five(g, r, c, who))
                total += gmk_naive_perft(g, who == 'X' ? 'O' : 'X', depth - 1);
            g->b[r][c] = '.';
        }
    return total;
}

void test_gmk_perft(void)
{
    static const struct {
        const char *params, *moves;
        int depth;
    } cases[] = {
        {"size=7 candidates=all", "", 3},
        {"size=7 candidates=all", "a1 b1 a2 b2 a3 b3 a4", 3},
        {"size=7 candidates=all rule=standard", "a1 b1 a2 b2 a3 b3 a5 b5 a6 b6", 3},
        {"size=5 candidates=all", "a1 b1 a2 b2 a3 b3", 4},
    };
    T_EQ(t_perft(G, NULL, 1), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_test_state s;
        gmk_naive g;
        int n = strstr(cases[i].params, "size=5") ? 5 : 7;
        gmk_test_setup(&s, cases[i].params);
        T_EQ(G->notation->load(&s, cases[i].moves), BANYAN_OK);
        gmk_naive_from(&g, &s, n, strstr(cases[i].params, "standard") ? 1 : 0);
        for (int d = 1; d <= cases[i].depth; d++) {
            uint64_t want = gmk_naive_perft(&g, G->to_move(&s) ? 'O' : 'X', d);
            uint64_t got = t_perft(G, &s, d);
            if (want != got)
                T_FAIL_AT("case %zu depth %d: perft %llu, naive %llu", i, d,
                          (unsigned long long)got, (unsigned long long)want);
        }
    }
    gmk_test_state s;
    gmk_test_setup(&s, "size=7 candidates=all");
    T_EQ(t_perft(G, &s, 2), 49 * 48);
}

/* The five that won, and only a five where the rule wants exactly five:
 * Black's overline elsewhere is no part of a standard-rule win. */
void test_gmk_win_line(void)
{
    gmk_test_state s;
    int x[32], y[32];
    gmk_test_setup(&s, "size=9");
    T_EQ(G->notation->load(&s, "a1 a9 b1 b9 c1 c9 d1 d9"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &s, x, y, 32), 0);
    T_EQ(G->notation->load(&s, "a1 a9 b1 b9 c1 c9 d1 d9 e1"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &s, x, y, 32), 5);
    for (int i = 0; i < 5; i++)
        T_TRUE(x[i] == i && y[i] == 8);
    /* Freestyle: an overline wins, all six cells. */
    T_EQ(G->notation->load(&s, "a1 a9 b1 b9 c1 c9 e1 e9 f1 f9 d1"), BANYAN_OK);
    T_EQ(banyan_game_win_line(G, &s, x, y, 32), 6);
    /* Standard: White's five wins, Black's overline stones are not shown. */
    gmk_test_setup(&s, "size=9 rule=standard");
    T_EQ(G->notation->load(&s, "a1 a9 b1 b9 c1 c9 e1 d9 f1 i5 d1 e9"), BANYAN_OK);
    T_EQ(G->to_move(&s), 0);
    int n = banyan_game_win_line(G, &s, x, y, 32);
    T_EQ(n, 5);
    for (int i = 0; i < n; i++)
        T_EQ(y[i], 0);
}

/* The winning first moves of the attack positions that Rapfi's labels
 * lack (tests/data/gomoku_attack_wins.txt, which bench/tactics.sh counts
 * as answers apart from the labels): each refereed in full, every defence
 * played out to a five. */
void test_gmk_attack_wins(void)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/gomoku_attack_wins.txt", t_data_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        T_FAIL_AT("cannot open %s", path);
        return;
    }
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char *save = NULL, *name = strtok_r(line, "|", &save), *moves = strtok_r(NULL, "|", &save);
        char *wins = strtok_r(NULL, "\n", &save);
        gmk_test_state s;
        if (!name || name[0] == '#' || !wins || !gmk_test_load(&s, "", moves))
            continue;
        name[strcspn(name, " ")] = 0;
        for (char *tok = strtok_r(wins, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            banyan_move m = gmk_test_move(&s, tok);
            gmk_test_state a = s;
            gmk_test_win p = {G->to_move(&s), 200000, 0, 0, 0, 100000, 0};
            T_TRUE(gmk_test_in_moves(&s, m));
            G->play(&a, m);
            if (!gmk_test_proof_defend(&p, &a, 1))
                T_FAIL_AT("%s: %s does not win", name, tok);
            count++;
        }
    }
    fclose(f);
    T_EQ(count, 4);
}
