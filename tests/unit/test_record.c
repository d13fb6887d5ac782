/*
 * test_record.c - the game record of proto/record.c: pushing, undoing and
 * rebuilding positions, no cap on a game's length, the plain format, SGF and
 * Piskvork's PSQ both ways (with files written by older versions and by
 * other programs), replay onto an engine, and malformed input refused with
 * the right line or byte in the message. The PSQ tests run inside the SGF
 * ones (test_record_sgf_round_trip and test_record_sgf_foreign).
 */
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "record.h"
#include "t.h"

/* ---- A test game without a board or an end in sight ---- */

/* A counter that the players raise by one or two until it reaches
 * RECORD_TEST_END: a game as long as one likes, in decimal move codes. */
#define RECORD_TEST_END 20000

typedef struct record_test_state {
    int count; /* The counter. */
    int ply;   /* Moves played. */
} record_test_state;

static int record_test_setup(void *s, const char *params)
{
    memset(s, 0, sizeof(record_test_state));
    return params && params[0] ? BANYAN_EINVAL : BANYAN_OK;
}

static int record_test_moves(const void *s, banyan_move *out)
{
    const record_test_state *t = s;
    if (t->count >= RECORD_TEST_END)
        return 0;
    out[0] = 1;
    out[1] = 2;
    return 2;
}

static void record_test_play(void *s, banyan_move m)
{
    record_test_state *t = s;
    t->count += (int)m;
    t->ply++;
}

static bool record_test_outcome(const void *s, double *returns)
{
    const record_test_state *t = s;
    if (t->count < RECORD_TEST_END)
        return false;
    returns[0] = t->ply & 1;
    returns[1] = !(t->ply & 1);
    return true;
}

static int record_test_to_move(const void *s)
{
    return ((const record_test_state *)s)->ply & 1;
}

static const banyan_game record_test_game = {
    BANYAN_GAME_INIT,
    .name = "counter",
    .state_size = sizeof(record_test_state),
    .n_players = 2,
    .setup = record_test_setup,
    .moves = record_test_moves,
    .play = record_test_play,
    .outcome = record_test_outcome,
    .to_move = record_test_to_move,
};

/* ---- Helpers ---- */

/* Pushes the moves of list (words in the game's notation) with no time or
 * comment. Returns the first error. */
static int record_test_push(record *r, const char *list)
{
    char word[32];
    for (const char *p = list; *p;) {
        banyan_move m;
        size_t n = strcspn(p, " ");
        memcpy(word, p, n);
        word[n] = 0;
        p += n + (p[n] == ' ');
        int rc = banyan_game_parse(r->g, record_state(r), 0, word, &m);
        if (rc == BANYAN_OK)
            rc = record_push(r, m, -1, NULL);
        if (rc != BANYAN_OK)
            return rc;
    }
    return BANYAN_OK;
}

/* The moves of r in the game's notation, separated by spaces, into out. */
static const char *record_test_moves_text(record *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < r->n_moves && used < len; i++) {
        char buf[32];
        banyan_game_format(r->g, record_before(r, i), r->moves[i].move, 0, buf, sizeof buf);
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", buf);
    }
    return out;
}

/* The record saved in format fmt, as a string to free, or NULL. *rc gets
 * record_save's code. */
static char *record_test_save(const record *r, record_format fmt, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    *rc = record_save(r, f, fmt);
    fclose(f);
    return text;
}

/* Whether a and b hold the same game: parameters, start, players, result
 * and moves with their times and comments. */
static void record_test_same(const record *a, const record *b)
{
    T_TRUE(a->g == b->g);
    T_STR(a->params, b->params);
    T_STR(a->start ? a->start : "(none)", b->start ? b->start : "(none)");
    T_STR(a->players[0], b->players[0]);
    T_STR(a->players[1], b->players[1]);
    T_EQ(a->n_moves, b->n_moves);
    for (int i = 0; i < a->n_moves && i < b->n_moves; i++) {
        T_EQ(a->moves[i].move, b->moves[i].move);
        T_NEAR(a->moves[i].seconds, b->moves[i].seconds, 0.0005);
        T_STR(a->moves[i].comment ? a->moves[i].comment : "(none)",
              b->moves[i].comment ? b->moves[i].comment : "(none)");
    }
    T_TRUE(memcmp(record_state(a), record_state(b), a->g->state_size) == 0);
}

/* Saves r in format fmt, checks the text against want (NULL: any), loads
 * it again as game g (NULL: the game it names) into *back, to be freed, and
 * checks that it holds the same game. */
static void record_test_round_trip(const record *r, record_format fmt, const banyan_game *g,
                                   const char *want, record *back)
{
    char err[256];
    int rc = BANYAN_EINVAL;
    char *text = record_test_save(r, fmt, &rc);
    memset(back, 0, sizeof *back);
    T_EQ(rc, BANYAN_OK);
    if (!text)
        return;
    if (want)
        T_STR(text, want);
    T_EQ(record_load(back, g, text, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    if (back->state)
        record_test_same(r, back);
    free(text);
}

/* Loads text, which must fail with code rc and message want and leave the
 * record zeroed. */
static void record_test_refused(const banyan_game *g, const char *text, int rc, const char *want)
{
    record r;
    char err[256];
    int got = record_load(&r, g, text, err, sizeof err);
    if (got != rc || strcmp(err, want))
        T_FAIL_AT("\"%.60s\": got %d \"%s\", want %d \"%s\"", text, got, err, rc, want);
    T_TRUE(r.moves == NULL && r.state == NULL && r.n_moves == 0);
}

/* Malformed records, each with the code and the message that refuse it. */
static const struct record_test_bad {
    const banyan_game *g; /* The game record_load is given, or NULL. */
    const char *text;     /* The record. */
    int rc;               /* What record_load returns. */
    const char *why;      /* And says. */
} record_test_bad[] = {
    /* The plain format names the line. */
    {NULL, "# banyan game gomoku\n# params size=9\nh8\n\nz9\n", BANYAN_ERANGE,
     "line 5: \"z9\" is off the board"},
    {NULL, "# banyan game gomoku\nh8\nh8 2.5s\n", BANYAN_EILLEGAL,
     "line 3: \"h8\" is not legal here"},
    {&banyan_game_gomoku, "h8\nzz # what?\n", BANYAN_EINVAL, "line 2: \"zz\" is not a move"},
    {&banyan_game_gomoku, "h8\nh9 1.5 s\n", BANYAN_EINVAL, "line 2: \"h9 1.5 s\" is not a move"},
    {&banyan_game_tictactoe, "a1\nb1\na2\nb2\na3\nc3\n", BANYAN_EILLEGAL,
     "line 6: \"c3\" comes after the end of the game"},
    {NULL, "# banyan game chess\ne4\n", BANYAN_EINVAL, "line 1: unknown game \"chess\""},
    {NULL, "\n# banyan game\n", BANYAN_EINVAL, "line 2: no game is named"},
    {&banyan_game_gomoku, "# banyan game connect4\nd\n", BANYAN_EINVAL,
     "line 1: a record of connect4, not gomoku"},
    {NULL, "# a game\nh8\n", BANYAN_EINVAL,
     "line 2: no \"# banyan game\" line names the game before the first move"},
    {NULL, "", BANYAN_EINVAL, "no \"# banyan game\" line names the game before the first move"},
    {NULL, "# banyan game gomoku\n# first x\n# params size=99\nh8\n", BANYAN_EINVAL,
     "line 3: size must be a whole number from 5 to 22, not \"99\""},
    {NULL, "# banyan game gomoku\n# params size=9\n\n# position e5 e5\n", BANYAN_EILLEGAL,
     "line 4: bad start position \"e5 e5\": a move is not legal there"},
    /* SGF names the byte, from 0. */
    {NULL, "(;GM[4]SZ[15];B[hh];W[ii]C[oops)", BANYAN_EINVAL,
     "SGF: missing ']' for the '[' at byte 26"},
    {NULL, "(;GM[4]SZ[15];B[hh];W[ii]", BANYAN_EINVAL, "SGF: missing ')' at the end (byte 25)"},
    {NULL, "(;GM[4];B[hh];B[ii])", BANYAN_EILLEGAL,
     "SGF: B[ii] at byte 14 is a move of Black, but White is to move"},
    {NULL, "(;GM[4];W[hh])", BANYAN_EILLEGAL,
     "SGF: W[hh] at byte 8 is a move of White, but Black is to move"},
    {NULL, "(;GM[4];B[hh];W[hh])", BANYAN_EILLEGAL, "SGF: W[hh] at byte 14 is not legal here"},
    {NULL, "(;GM[4]SZ[9];B[jj])", BANYAN_ERANGE, "SGF: B[jj] at byte 13 is off the board"},
    {NULL, "(;GM[4];B[])", BANYAN_EINVAL, "SGF: B[] at byte 8 is not a move"},
    /* Setup stones: in the root only, on the board, in a position the game
     * can start from. */
    {NULL, "(;GM[4]AB[aa][bb];W[cc])", BANYAN_EINVAL,
     "SGF: the setup at byte 7: no position that can start gomoku"},
    {NULL, "(;GM[1]SZ[9];B[ee]AB[aa])", BANYAN_EINVAL,
     "SGF: AB at byte 18: setup stones are read in the first node only, not after a move"},
    {NULL, "(;GM[1]SZ[9];B[ee];W[dd]AE[ee])", BANYAN_EINVAL,
     "SGF: AE at byte 24: setup stones are read in the first node only, not after a move"},
    {NULL, "(;GM[1]SZ[9]AB[jj])", BANYAN_EINVAL,
     "SGF: the setup at byte 12: a point is off the 9x9 board"},
    {NULL, "(;GM[1]SZ[9]AB[aa:jb])", BANYAN_EINVAL,
     "SGF: the setup at byte 12: a point is off the 9x9 board"},
    {NULL, "(;GM[1]SZ[9]AW[a])", BANYAN_EINVAL, "SGF: AW[a] at byte 12 is not a point"},
    {NULL, "(;GM[1]SZ[9]AW[aA])", BANYAN_EINVAL, "SGF: AW[aA] at byte 12 is not a point"},
    {NULL, "(;GM[1]SZ[9]AB[aa]AW[ba][ab])", BANYAN_EILLEGAL,
     "SGF: the setup at byte 12: an illegal position of go"},
    {NULL, "(;GM[1]SZ[9]PL[X])", BANYAN_EINVAL, "SGF: PL[X] at byte 12 is not B or W"},
    {NULL, "(;GM[1]SZ[9]KM[lots])", BANYAN_EINVAL,
     "SGF: KM[lots]: komi must be a number from -150 to 150, not \"lots\""},
    {NULL, "(;GM[1]SZ[9]KM[375])", BANYAN_EINVAL,
     "SGF: KM[375]: komi must be a number from -150 to 150, not \"375\""},
    {NULL, "(;GM[1]SZ[9]AB[ee]PL[W];B[dd])", BANYAN_EILLEGAL,
     "SGF: B[dd] at byte 24 is a move of Black, but White is to move"},
    {NULL, "(;GM[3]SZ[8];B[pd])", BANYAN_EINVAL, "SGF: GM[3] is no game Banyan knows"},
    {&banyan_game_gomoku, "(;GM[2])", BANYAN_EINVAL, "SGF: GM[2] is not gomoku"},
    {NULL, "(;SZ[15];B[hh])", BANYAN_EINVAL, "SGF: neither GM[] nor XG[] names the game"},
    {NULL, "(;XG[chess])", BANYAN_EINVAL, "SGF: XG[chess] is no game Banyan knows"},
    {NULL, "(;GM[4]SZ[15:13])", BANYAN_EINVAL,
     "SGF: SZ[15:13] is not square, and gomoku's boards are"},
    {NULL, "(;GM[4]SZ[99])", BANYAN_EINVAL,
     "SGF: SZ[99]: size must be a whole number from 5 to 22, not \"99\""},
    {NULL, "(;GM[4]SZ[0])", BANYAN_EINVAL, "SGF: SZ[0] at byte 7 is not a board size"},
    {NULL, "(;GM[99999999999999999999])", BANYAN_EINVAL,
     "SGF: GM[99999999999999999999] at byte 2 is not a game number"},
    {NULL, "(;GM[4]XS[h8 h8])", BANYAN_EILLEGAL,
     "SGF: XS: bad start position \"h8 h8\": a move is not legal there"},
    {NULL, "(;GM[4];B[hh]XT[-1])", BANYAN_EINVAL,
     "SGF: XT[-1] at byte 13 is not a number of seconds"},
    {NULL, "(;GM[4];B[hh]W[ii])", BANYAN_EINVAL, "SGF: a node with two moves at byte 13"},
    {NULL, "(;GM[4];B[hh]C[a]C[b])", BANYAN_EINVAL, "SGF: a second C in one node at byte 17"},
    {NULL, "(;GM[4];B[hh][ii])", BANYAN_EINVAL, "SGF: B at byte 8 takes one value"},
    {NULL, "(;GM[4];B)", BANYAN_EINVAL, "SGF: property B at byte 8 has no value"},
    {NULL, "(;GM[4];b[hh])", BANYAN_EINVAL, "SGF: unexpected 'b' at byte 8"},
    {NULL, "(;GM[4](;B[hh]);W[ii])", BANYAN_EINVAL,
     "SGF: the node at byte 15 comes after a variation"},
    {NULL, "((;GM[4]))", BANYAN_EINVAL, "SGF: the game tree at byte 1 does not begin with a node"},
    {NULL, "(;GM[4])x", BANYAN_EINVAL, "SGF: unexpected 'x' at byte 8"},
    {NULL, "(;GM[4]))", BANYAN_EINVAL, "SGF: ')' at byte 8 closes no game tree"},
    {&banyan_game_gomoku, "(", BANYAN_EINVAL, "SGF: missing ')' at the end (byte 1)"},
    {&banyan_game_gomoku, "(;GM[4];ABCDEFGHIJKLMNOPQ[x])", BANYAN_EINVAL,
     "SGF: the property name at byte 8 is too long"},
    /* PSQ names the line, from 1; its coordinates count from 1. */
    {NULL, "Piskvorky\n8,8,0\n", BANYAN_EINVAL,
     "PSQ: line 1: \"Piskvorky\" is not \"Piskvorky WIDTHxHEIGHT, ...\""},
    {NULL, "\n\nPiskvorky 15*15, 0:0, 0\n", BANYAN_EINVAL,
     "PSQ: line 3: \"Piskvorky 15*15, 0:0, 0\" is not \"Piskvorky WIDTHxHEIGHT, ...\""},
    {NULL, "Piskvorky 15x15x, 0:0, 0\n", BANYAN_EINVAL,
     "PSQ: line 1: \"Piskvorky 15x15x, 0:0, 0\" is not \"Piskvorky WIDTHxHEIGHT, ...\""},
    {NULL, "Piskvorky 20x15, 0:0, 0\n", BANYAN_EINVAL,
     "PSQ: line 1: the board 20x15 is not square, and gomoku's boards are"},
    {NULL, "Piskvorky 30x30, 0:0, 0\n", BANYAN_EINVAL,
     "PSQ: line 1: size must be a whole number from 5 to 22, not \"30\""},
    {&banyan_game_connect4, "Piskvorky 7x6, 0:0, 0\n", BANYAN_EINVAL,
     "PSQ: connect4 has no X,Y coordinates"},
    {NULL, "Piskvorky 15x15, 0:0, 0\r\n8,8,10\r\n16,1,250\r\n-1\r\n", BANYAN_ERANGE,
     "PSQ: line 3: \"16,1,250\" is off the board"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n0,5\n", BANYAN_ERANGE,
     "PSQ: line 2: \"0,5\" is off the board"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n99999999999,5\n", BANYAN_ERANGE,
     "PSQ: line 2: \"99999999999,5\" is off the board"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n8,8\n\n8,8,5\n", BANYAN_EILLEGAL,
     "PSQ: line 4: \"8,8,5\" is not legal here"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n8,8\n9,x\n", BANYAN_EINVAL,
     "PSQ: line 3: \"9,x\" is not a move"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n8,8,1,2\n", BANYAN_EINVAL,
     "PSQ: line 2: \"8,8,1,2\" is not a move"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n8,8,\n", BANYAN_EINVAL, "PSQ: line 2: \"8,8,\" is not a move"},
    {NULL, "Piskvorky 15x15, 0:0, 0\n8 8\n", BANYAN_EINVAL, "PSQ: line 2: \"8 8\" is not a move"},
    {&banyan_game_tictactoe, "Piskvorky 3x3, 0:0, 0\n1,1\n1,2\n2,1\n2,2\n3,1\n3,3\n",
     BANYAN_EILLEGAL, "PSQ: line 7: \"3,3\" comes after the end of the game"},
};

/* ---- Tests ---- */

void test_record_push_undo(void)
{
    const banyan_game *g = &banyan_game_tictactoe;
    record r;
    char err[256], text[256];
    unsigned char s[1024], t[1024];
    T_TRUE(g->state_size <= sizeof s);
    T_EQ(record_init(&r, g, NULL, NULL, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    T_EQ(r.n_moves, 0);
    T_EQ(record_test_push(&r, "b2 a1 c3"), BANYAN_OK);
    T_EQ(r.n_moves, 3);
    T_STR(record_test_moves_text(&r, text, sizeof text), "b2 a1 c3");

    /* The positions after 0, 1, 2 and 3 moves, rebuilt from the start. */
    g->setup(t, "");
    T_EQ(record_state_at(&r, 0, s), BANYAN_OK);
    T_TRUE(memcmp(s, t, g->state_size) == 0);
    T_EQ(g->notation->load(t, "b2"), BANYAN_OK);
    T_EQ(record_state_at(&r, 1, s), BANYAN_OK);
    T_TRUE(memcmp(s, t, g->state_size) == 0);
    T_TRUE(memcmp(record_before(&r, 1), t, g->state_size) == 0);
    T_EQ(g->notation->load(t, "b2 a1 c3"), BANYAN_OK);
    T_TRUE(memcmp(record_state(&r), t, g->state_size) == 0);
    T_EQ(record_state_at(&r, 3, s), BANYAN_OK);
    T_TRUE(memcmp(s, t, g->state_size) == 0);
    T_EQ(record_state_at(&r, 4, s), BANYAN_EINVAL);
    T_EQ(record_state_at(&r, -1, s), BANYAN_EINVAL);
    T_TRUE(record_before(&r, 4) == NULL);

    /* Undo drops moves and their comments, and rebuilds the position. */
    T_EQ(record_push(&r, 4, 2.5, "the centre"), BANYAN_EILLEGAL); /* b2 (4) is taken. */
    T_EQ(record_test_push(&r, "a2"), BANYAN_OK);
    T_EQ(record_undo(&r, 0), 0);
    T_EQ(record_undo(&r, -3), 0);
    T_EQ(record_undo(&r, 2), 2);
    T_EQ(r.n_moves, 2);
    T_EQ(g->notation->load(t, "b2 a1"), BANYAN_OK);
    T_TRUE(memcmp(record_state(&r), t, g->state_size) == 0);
    T_EQ(record_undo(&r, 10), 2);
    T_EQ(r.n_moves, 0);
    g->setup(t, "");
    T_TRUE(memcmp(record_state(&r), t, g->state_size) == 0);

    /* Clear keeps the game, parameters and start; drops players and result. */
    T_EQ(record_test_push(&r, "a1 b1"), BANYAN_OK);
    strcpy(r.players[0], "me");
    strcpy(r.result, "1-0");
    record_clear(&r);
    T_EQ(r.n_moves, 0);
    T_STR(r.players[0], "");
    T_STR(r.result, "");
    T_TRUE(memcmp(record_state(&r), t, g->state_size) == 0);
    record_free(&r);
    record_free(&r); /* A freed record is zeroed: freeing again is safe. */

    /* A record with a start position: state_at(0) is the start. */
    T_EQ(record_init(&r, g, "m=4 n=4 k=3", " b2 c3 ", err, sizeof err), BANYAN_OK);
    T_STR(r.start, "b2 c3");
    T_STR(r.params, "m=4 n=4 k=3");
    g->setup(t, "m=4 n=4 k=3");
    T_EQ(g->notation->load(t, "b2 c3"), BANYAN_OK);
    T_EQ(record_state_at(&r, 0, s), BANYAN_OK);
    T_TRUE(memcmp(s, t, g->state_size) == 0);
    T_EQ(record_test_push(&r, "d4"), BANYAN_OK);
    T_EQ(record_undo(&r, 1), 1);
    T_TRUE(memcmp(record_state(&r), t, g->state_size) == 0);
    record_free(&r);
}

void test_record_illegal(void)
{
    const banyan_game *g = &banyan_game_tictactoe;
    record r;
    char err[256];
    unsigned char before[1024];

    /* Bad parameters and start positions are refused with a sentence. */
    T_EQ(record_init(&r, g, "m=99", NULL, err, sizeof err), BANYAN_EINVAL);
    T_STR(err, "m must be a whole number from 1 to 19, not \"99\"");
    T_EQ(record_init(&r, g, "size=9\nm=3", NULL, err, sizeof err), BANYAN_EINVAL);
    T_STR(err, "the parameters hold a line break");
    T_EQ(record_init(&r, g, NULL, "a1 a1", err, sizeof err), BANYAN_EILLEGAL);
    T_STR(err, "bad start position \"a1 a1\": a move is not legal there");
    T_EQ(record_init(&r, g, NULL, "a1 z9", err, sizeof err), BANYAN_ERANGE);
    T_STR(err, "bad start position \"a1 z9\": a move is off the board");
    T_EQ(record_init(&r, &banyan_game_connect4, "m=3", NULL, err, sizeof err), BANYAN_EINVAL);
    T_STR(err, "connect4 has no parameter \"m\"");
    /* A game without a parameter table checks parameters in setup(). */
    T_EQ(record_init(&r, &record_test_game, "m=3", NULL, err, sizeof err), BANYAN_EINVAL);
    T_STR(err, "counter refuses the parameters \"m=3\"");

    /* An illegal move leaves the record exactly as it was. */
    T_EQ(record_init(&r, g, "", "", err, sizeof err), BANYAN_OK);
    T_TRUE(r.start == NULL);
    T_EQ(record_test_push(&r, "a1 b1 a2 b2"), BANYAN_OK);
    memcpy(before, record_state(&r), g->state_size);
    T_EQ(record_push(&r, 0, 1.0, "a1 again"), BANYAN_EILLEGAL); /* a1 is move 0. */
    T_EQ(record_push(&r, 9, -1, NULL), BANYAN_EILLEGAL);        /* Off the board. */
    T_EQ(record_push(&r, BANYAN_MOVE_NONE, -1, NULL), BANYAN_EILLEGAL);
    T_EQ(r.n_moves, 4);
    T_TRUE(memcmp(before, record_state(&r), g->state_size) == 0);

    /* After the end of the game every move is illegal. */
    T_EQ(record_test_push(&r, "a3"), BANYAN_OK); /* X wins. */
    memcpy(before, record_state(&r), g->state_size);
    for (banyan_move m = 0; m < 9; m++)
        T_EQ(record_push(&r, m, -1, NULL), BANYAN_EILLEGAL);
    T_EQ(r.n_moves, 5);
    T_TRUE(memcmp(before, record_state(&r), g->state_size) == 0);

    /* Times that are not finite and non-negative are unknown. */
    record_undo(&r, 1);
    T_EQ(record_push(&r, 8, -0.5, NULL), BANYAN_OK);
    T_NEAR(r.moves[4].seconds, -1, 0);
    record_undo(&r, 1);
    T_EQ(record_push(&r, 8, strtod("inf", NULL), NULL), BANYAN_OK);
    T_NEAR(r.moves[4].seconds, -1, 0);
    record_free(&r);
}

void test_record_long_games(void)
{
    record r, back;
    char err[256];
    int rc = 0;

    /* 6000 moves and more of a game without an end nearby: no cap. */
    T_EQ(record_init(&r, &record_test_game, NULL, NULL, err, sizeof err), BANYAN_OK);
    for (int i = 0; i < 12000; i++)
        T_EQ(record_push(&r, 1 + (banyan_move)(i % 3 == 0), i % 7 ? -1 : 0.25 * i,
                         i % 1000 ? NULL : "a milestone"),
             BANYAN_OK);
    T_EQ(r.n_moves, 12000);
    T_EQ(r.cap, 16384); /* Doubled from 16. */
    T_EQ(((const record_test_state *)record_state(&r))->count, 16000);
    T_EQ(record_undo(&r, 5000), 5000);
    T_EQ(((const record_test_state *)record_state(&r))->ply, 7000);
    T_EQ(r.cap, 16384);

    /* Its plain text (decimal move codes) loads back as the same game. */
    char *text = record_test_save(&r, RECORD_TEXT, &rc);
    const char *head = "# banyan game counter\n2 0.000s # a milestone\n1\n";
    T_TRUE(text && !strncmp(text, head, strlen(head)));
    record_test_round_trip(&r, RECORD_TEXT, &record_test_game, NULL, &back);
    record_free(&back);
    /* Without the game table, the name is unknown. */
    T_EQ(record_load(&back, NULL, text, err, sizeof err), BANYAN_EINVAL);
    T_STR(err, "line 1: unknown game \"counter\"");
    free(text);
    /* The game has no SGF number. */
    text = record_test_save(&r, RECORD_SGF, &rc);
    T_EQ(rc, BANYAN_EINVAL);
    T_STR(text, "");
    free(text);
    record_free(&r);

    /* A 22x22 Gomoku board filled in a fixed legal order until the game
     * ends: hundreds of moves, each checked, saved and loaded again. */
    const banyan_game *g = &banyan_game_gomoku;
    T_EQ(record_init(&r, g, "size=22", NULL, err, sizeof err), BANYAN_OK);
    banyan_move moves[BANYAN_MAX_MOVES];
    int n;
    while ((n = g->moves(record_state(&r), moves)) > 0)
        T_EQ(record_push(&r, moves[(r.n_moves * 7) % n], -1, NULL), BANYAN_OK);
    T_TRUE(r.n_moves >= 9);
    T_TRUE(r.cap >= r.n_moves);
    double returns[2];
    T_TRUE(g->outcome(record_state(&r), returns));
    record_test_round_trip(&r, RECORD_TEXT, NULL, NULL, &back);
    record_free(&back);
    record_test_round_trip(&r, RECORD_SGF, NULL, NULL, &back);
    record_free(&back);
    record_free(&r);
}

void test_record_text_round_trip(void)
{
    record r, back;
    char err[256];
    int rc = 0;

    /* Tic-tac-toe with players, a result, times and comments: the exact text. */
    T_EQ(record_init(&r, &banyan_game_tictactoe, NULL, NULL, err, sizeof err), BANYAN_OK);
    strcpy(r.players[0], "banyan:playouts=2000");
    strcpy(r.players[1], "gtp:gnugo --mode gtp");
    strcpy(r.result, "1-0 (three in a row)");
    T_EQ(record_push(&r, 4, 1.25, NULL), BANYAN_OK);              /* b2 */
    T_EQ(record_push(&r, 1, -1, "the only defence?"), BANYAN_OK); /* b1 */
    T_EQ(record_push(&r, 0, 0.0314, "a comment # with a hash"), BANYAN_OK);
    record_test_round_trip(&r, RECORD_TEXT, NULL,
                           "# banyan game tictactoe\n"
                           "# first banyan:playouts=2000\n"
                           "# second gtp:gnugo --mode gtp\n"
                           "# result 1-0 (three in a row)\n"
                           "b2 1.250s\n"
                           "b1 # the only defence?\n"
                           "a1 0.031s # a comment # with a hash\n",
                           &back);
    T_STR(back.result, "1-0 (three in a row)");
    record_free(&back);
    /* A comment's line breaks become spaces. */
    r.moves[0].comment = strdup("two\r\nlines");
    char *text = record_test_save(&r, RECORD_TEXT, &rc);
    T_TRUE(text && strstr(text, "\nb2 1.250s # two  lines\n"));
    free(text);
    record_free(&r);

    /* Connect Four. */
    T_EQ(record_init(&r, &banyan_game_connect4, NULL, NULL, err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "d d c e b a e"), BANYAN_OK);
    r.moves[3].seconds = 12.5;
    record_test_round_trip(&r, RECORD_TEXT, &banyan_game_connect4,
                           "# banyan game connect4\nd\nd\nc\ne 12.500s\nb\na\ne\n", &back);
    record_free(&back);
    record_free(&r);

    /* Gomoku with parameters and a start position. */
    const banyan_game *g = &banyan_game_gomoku;
    T_EQ(record_init(&r, g, "size=9 rule=renju", "e5 d4", err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "f6 g7 d6"), BANYAN_OK);
    r.moves[0].seconds = 3;
    record_test_round_trip(&r, RECORD_TEXT, g,
                           "# banyan game gomoku\n# params size=9 rule=renju\n# position e5 d4\n"
                           "f6 3.000s\ng7\nd6\n",
                           &back);
    record_free(&back);
    /* The same with CR LF line ends, blank lines and comment lines. */
    const char *crlf = "\r\n# banyan game gomoku\r\n# params size=9 rule=renju\r\n\r\n"
                       "# position e5 d4\r\n# a note\r\nf6   3s \r\n  g7\r\n# banyan game x\r\nd6";
    T_EQ(record_load(&back, NULL, crlf, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    record_test_same(&r, &back);
    record_free(&back);
    record_free(&r);
}

void test_record_old_format(void)
{
    record r;
    char err[256], moves[256];
    /* As `banyan play` saves: a header, then a move a line. */
    const char *play = "# banyan game gomoku\n# params size=15\n# position h8 i9\nh10\ni10\n";
    T_EQ(record_load(&r, NULL, play, err, sizeof err), BANYAN_OK);
    T_TRUE(r.g == &banyan_game_gomoku);
    T_STR(r.params, "size=15");
    T_STR(r.start, "h8 i9");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "h10 i10");
    T_NEAR(r.moves[0].seconds, -1, 0);
    T_TRUE(r.moves[1].comment == NULL);
    record_free(&r);

    /* As `banyan match --records` writes: players and a result with a reason. */
    const char *match = "# banyan game connect4\n# first banyan:playouts=2000\n"
                        "# second gtp:./other --level 3\n# result 0-1 (four in a row)\n"
                        "a\nb\na\nb\na\nb\nc\nb\n";
    T_EQ(record_load(&r, NULL, match, err, sizeof err), BANYAN_OK);
    T_TRUE(r.g == &banyan_game_connect4);
    T_STR(r.players[0], "banyan:playouts=2000");
    T_STR(r.players[1], "gtp:./other --level 3");
    T_STR(r.result, "0-1 (four in a row)");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "a b a b a b c b");
    T_STR(r.params, "");
    T_TRUE(r.start == NULL);
    record_free(&r);

    /* A bare move list, for a game the caller names; any case. */
    T_EQ(record_load(&r, &banyan_game_tictactoe, "B2\nA1\n", err, sizeof err), BANYAN_OK);
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "b2 a1");
    record_free(&r);
    /* An empty text is an empty record of the caller's game. */
    T_EQ(record_load(&r, &banyan_game_tictactoe, "", err, sizeof err), BANYAN_OK);
    T_EQ(r.n_moves, 0);
    record_free(&r);
}

void test_record_malformed(void)
{
    for (size_t i = 0; i < sizeof record_test_bad / sizeof record_test_bad[0]; i++) {
        const struct record_test_bad *t = &record_test_bad[i];
        record_test_refused(t->g, t->text, t->rc, t->why);
    }
}

/* Piskvork's PSQ both ways: the exact text, times in milliseconds, what
 * the format cannot hold refused with nothing written. */
void test_record_psq_round_trip(void)
{
    const banyan_game *g = &banyan_game_gomoku;
    record r, back;
    char err[256], moves[256];
    int rc = 0;
    /* x from the left and y from the top, both from 1: h8 is 8,8 on 15x15,
     * a15 the top left corner 1,1 and o1 the bottom right 15,15. */
    T_EQ(record_init(&r, g, "size=15", NULL, err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "h8 i9 a15 o1"), BANYAN_OK);
    r.moves[0].seconds = 1.5;
    r.moves[1].seconds = 0.2314;
    r.moves[2].seconds = 0;
    r.moves[3].seconds = 0.012;
    record_test_round_trip(&r, RECORD_PSQ, NULL,
                           "Piskvorky 15x15, 0:0, 0\n8,8,1500\n9,7,231\n1,1,0\n15,15,12\n-1\n",
                           &back);
    record_free(&back);
    /* Unknown times are written as 0, times past Piskvork's int clamped;
     * players, result and comments are not written. */
    r.moves[0].seconds = -1;
    r.moves[1].seconds = 1e10;
    r.moves[2].comment = strdup("not kept");
    strcpy(r.players[0], "Banyan");
    strcpy(r.result, "1-0 (five)");
    char *text = record_test_save(&r, RECORD_PSQ, &rc);
    T_EQ(rc, BANYAN_OK);
    T_STR(text ? text : "",
          "Piskvorky 15x15, 0:0, 0\n8,8,0\n9,7,2147483647\n1,1,0\n15,15,12\n-1\n");
    T_EQ(record_load(&back, g, text, err, sizeof err), BANYAN_OK);
    T_STR(record_test_moves_text(&back, moves, sizeof moves), "h8 i9 a15 o1");
    T_NEAR(back.moves[0].seconds, 0, 0);
    T_STR(back.players[0], "");
    T_TRUE(back.moves[2].comment == NULL);
    record_free(&back);
    free(text);
    record_free(&r);

    /* Another size, and the rule, which PSQ cannot hold, is lost. */
    T_EQ(record_init(&r, g, "size=20 rule=renju", NULL, err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "k10 l11 t20"), BANYAN_OK);
    text = record_test_save(&r, RECORD_PSQ, &rc);
    T_EQ(rc, BANYAN_OK);
    T_STR(text ? text : "", "Piskvorky 20x20, 0:0, 0\n11,11,0\n12,10,0\n20,1,0\n-1\n");
    T_EQ(record_load(&back, NULL, text, err, sizeof err), BANYAN_OK);
    T_TRUE(back.g == g);
    T_STR(back.params, "size=20");
    T_STR(record_test_moves_text(&back, moves, sizeof moves), "k10 l11 t20");
    record_free(&back);
    free(text);
    record_free(&r);

    /* A game without X,Y coordinates, a start position, a game without a
     * board: refused, and nothing is written. */
    const struct {
        const banyan_game *g;
        const char *start;
    } refused[] = {{&banyan_game_connect4, NULL}, {g, "h8 i9"}, {&record_test_game, NULL}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        T_EQ(record_init(&r, refused[i].g, NULL, refused[i].start, err, sizeof err), BANYAN_OK);
        text = record_test_save(&r, RECORD_PSQ, &rc);
        T_EQ(rc, BANYAN_EINVAL);
        T_STR(text ? text : "(none)", "");
        free(text);
        record_free(&r);
    }
}

/* Files as Piskvork writes them, and what readers of PSQ must cope with. */
void test_record_psq_foreign(void)
{
    record r;
    char err[256], moves[256];
    /* A Gomocup tournament's record: CR LF, the players' levels, the
     * brains' names after the moves, then the error code and more. */
    const char *psq = "Piskvorky 20x20, 11:11, 0\r\n"
                      "10,10,1500\r\n"
                      "11,11,230\r\n"
                      "10,11,0\r\n"
                      "9,12,17\r\n"
                      "pbrain-embryo21_s.exe\r\n"
                      "pbrain-rapfi21.exe\r\n"
                      "-1\r\n"
                      "12,12,5\r\n";
    T_EQ(record_load(&r, NULL, psq, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    T_TRUE(r.g == &banyan_game_gomoku);
    T_STR(r.params, "size=20");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "j11 k10 j10 i9");
    T_NEAR(r.moves[0].seconds, 1.5, 1e-9);
    T_NEAR(r.moves[1].seconds, 0.23, 1e-9);
    T_NEAR(r.moves[3].seconds, 0.017, 1e-9);
    T_STR(r.players[0], "");
    record_free(&r);

    /* A byte order mark, blank lines, spaces, moves without a time (unknown),
     * the end of the text without "-1", and the game named by the caller. */
    psq = "\xef\xbb\xbf\n  Piskvorky 15x15, 0:0, 1  \n\n 8 , 8 \n9,9\n\n7,9,40";
    T_EQ(record_load(&r, &banyan_game_gomoku, psq, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "h8 i7 g7");
    T_NEAR(r.moves[0].seconds, -1, 0);
    T_NEAR(r.moves[2].seconds, 0.04, 1e-9);
    record_free(&r);

    /* Only the first line: no moves. */
    T_EQ(record_load(&r, NULL, "Piskvorky 9x9, 0:0, 0", err, sizeof err), BANYAN_OK);
    T_STR(r.params, "size=9");
    T_EQ(r.n_moves, 0);
    record_free(&r);

    /* A rectangular board sets each parameter of role width or height. */
    T_EQ(record_load(&r, &banyan_game_tictactoe, "Piskvorky 4x3, 0:0, 0\n4,1,5\n1,3,5\n-1\n", err,
                     sizeof err),
         BANYAN_OK);
    T_STR(err, "");
    T_STR(r.params, "m=4 n=3");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "d3 a1");
    record_free(&r);
}

void test_record_sgf_round_trip(void)
{
    const banyan_game *g = &banyan_game_gomoku;
    record r, back;
    char err[256], want[512];
    int rc = 0;
    T_EQ(record_init(&r, g, "size=15 rule=standard", "h8", err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "i9 a1 o15"), BANYAN_OK);
    strcpy(r.players[0], "Banyan [strong]");
    strcpy(r.players[1], "back\\slash");
    strcpy(r.date, "2024-05-06");
    r.moves[0].seconds = 0.5;
    r.moves[1].comment = strdup("a ] bracket");
    /* The start, a move list, is XS for Banyan, and AB and PL for others. */
    snprintf(want, sizeof want,
             "(;GM[4]FF[4]CA[UTF-8]AP[Banyan:%s]SZ[15]PB[Banyan [strong\\]]PW[back\\\\slash]"
             "DT[2024-05-06]XG[gomoku]XP[size=15 rule=standard]XS[h8]AB[hh]PL[W]\n"
             ";W[ig]XT[0.500]\n;B[ao]C[a \\] bracket]\n;W[oa]\n)\n",
             banyan_version());
    record_test_round_trip(&r, RECORD_SGF, NULL, want, &back);
    record_free(&back);

    /* Results map to RE and back: R for a resignation, T for a loss on
     * time, an SGF result kept as the reason as it was read, else the
     * winner alone (a game that ended on the board gives its own result). */
    const char *results[][3] = {{"1-0 (five)", "RE[B+]", "1-0"},
                                {"0-1 (time forfeit)", "RE[W+T]", "0-1 (W+T)"},
                                {"1/2-1/2", "RE[0]", "1/2-1/2"},
                                {"0-1 (resignation)", "RE[W+R]", "0-1 (W+R)"},
                                {"1-0 (O resigned)", "RE[B+R]", "1-0 (B+R)"},
                                {"0-1 (W+12.5)", "RE[W+12.5]", "0-1 (W+12.5)"},
                                {"?", NULL, ""}};
    for (int i = 0; i < 7; i++) {
        strcpy(r.result, results[i][0]);
        char *text = record_test_save(&r, RECORD_SGF, &rc);
        const char *re = text ? strstr(text, "RE[") : NULL;
        T_TRUE(results[i][1] ? re && !strncmp(re, results[i][1], strlen(results[i][1])) : !re);
        T_EQ(record_load(&back, g, text, err, sizeof err), BANYAN_OK);
        T_STR(back.result, results[i][2]);
        record_free(&back);
        free(text);
    }
    record_free(&r);

    /* Games without an SGF number are refused, and nothing is written. */
    T_EQ(record_init(&r, &banyan_game_tictactoe, NULL, NULL, err, sizeof err), BANYAN_OK);
    char *text = record_test_save(&r, RECORD_SGF, &rc);
    T_EQ(rc, BANYAN_EINVAL);
    T_STR(text, "");
    free(text);
    record_free(&r);

    /* Piskvork's PSQ, the other format other programs write. */
}

/* The piece at SGF point pt ("dp") of r's position after n moves. */
static int record_test_piece(const record *r, int n, const char *pt)
{
    unsigned char s[1 << 14];
    T_TRUE(r->g->state_size <= sizeof s);
    T_EQ(record_state_at(r, n, s), BANYAN_OK);
    return r->g->board->piece(s, pt[0] - 'a', pt[1] - 'a');
}

/* Setup stones: AB, AW, AE and PL of the root make the start (a board form
 * for a game whose notation reads one, see record.h), which undo, replay
 * and every format keep; KM sets the komi, DT is kept; a file of Banyan's
 * writes them for other programs (and HA), and XS only where they cannot
 * say the whole start. */
void test_record_sgf_setup(void)
{
    const banyan_game *go = &banyan_game_go;
    record r, back;
    char err[256], moves[256];
    int rc = 0;

    /* A handicap game as KGS writes it: Black's stones, White first. */
    const char *kgs = "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]RU[Japanese]SZ[19]HA[2]KM[0.50]\n"
                      "PW[whitey]PB[blacky]WR[3d]BR[5k]DT[2023-11-04]RE[W+Resign]\n"
                      "AB[dp][pd]\n;W[qp]WL[299.5];B[dd]BL[298.1];W[fq])";
    T_EQ(record_load(&r, NULL, kgs, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    T_TRUE(r.g == go);
    T_STR(r.params, "size=19 komi=0.50");
    T_TRUE(r.start != NULL);
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "R4 D16 F3");
    T_EQ(record_test_piece(&r, 0, "dp"), 0);
    T_EQ(record_test_piece(&r, 0, "pd"), 0);
    T_EQ(record_test_piece(&r, 0, "dd"), -1);
    T_STR(r.date, "2023-11-04");
    T_STR(r.result, "0-1 (W+Resign)");
    /* Undo back to the setup, and replay onto an engine: White to move. */
    T_EQ(record_undo(&r, 3), 3);
    T_EQ(go->to_move(record_state(&r)), 1);
    banyan_engine *e;
    T_EQ(banyan_engine_new(go, r.params, NULL, &e), BANYAN_OK);
    T_EQ(record_replay(&r, e, 0), BANYAN_OK);
    T_TRUE(memcmp(banyan_engine_state(e), record_state(&r), go->state_size) == 0);
    banyan_engine_free(e);
    T_EQ(record_test_push(&r, "R4 D16"), BANYAN_OK);
    /* Written back: the standard properties, the stones as AB, no XS. */
    char *text = record_test_save(&r, RECORD_SGF, &rc);
    T_EQ(rc, BANYAN_OK);
    const char *props[] = {"SZ[19]KM[0.50]PB[blacky]PW[whitey]DT[2023-11-04]RE[W+Resign]",
                           "XP[size=19 komi=0.50]HA[2]AB[pd][dp]PL[W]\n;W[qp]\n;B[dd]\n)"};
    for (int i = 0; i < 2; i++)
        if (!text || !strstr(text, props[i]))
            T_FAIL_AT("no %s in %s", props[i], text ? text : "(nothing)");
    T_TRUE(text && !strstr(text, "XS["));
    free(text);
    record_test_round_trip(&r, RECORD_SGF, NULL, NULL, &back);
    record_free(&back);
    record_test_round_trip(&r, RECORD_TEXT, NULL, NULL, &back);
    record_free(&back);
    record_free(&r);

    /* Without PL, the first move says who moves first after stones of both
     * colours; PL alone; a compressed list; AE over the parameters' own
     * handicap stones (C3 and G7 on 9x9). */
    static const struct {
        const char *sgf, *board;
    } cases[] = {
        {"(;GM[1]SZ[9]AB[cc][gg]AW[ee];W[dd])",
         "--------------------X-------------------O-------------------X-------------------- O"},
        {"(;GM[1]SZ[9]AB[cc]AW[ee][gg];B[dd])",
         "--------------------X-------------------O-------------------O-------------------- X"},
        {"(;GM[1]SZ[9]PL[W];W[ee])",
         "--------------------------------------------------------------------------------- O"},
        {"(;GM[1]SZ[9]AB[aa:ca])",
         "XXX------------------------------------------------------------------------------ O"},
        {"(;GM[1]SZ[9]XP[size=9 handicap=2]AE[cg])",
         "------------------------X-------------------------------------------------------- O"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (record_load(&r, NULL, cases[i].sgf, err, sizeof err) != BANYAN_OK) {
            T_FAIL_AT("%s: %s", cases[i].sgf, err);
            continue;
        }
        T_STR(r.start ? r.start : "(none)", cases[i].board);
        record_test_round_trip(&r, RECORD_SGF, NULL, NULL, &back);
        record_free(&back);
        record_free(&r);
    }

    /* The parameters' own handicap: AB, PL and HA for other programs, and
     * no start read back (the parameters make it). */
    T_EQ(record_init(&r, go, "size=9 handicap=2", NULL, err, sizeof err), BANYAN_OK);
    text = record_test_save(&r, RECORD_SGF, &rc);
    T_TRUE(text && strstr(text, "KM[7.5]") && strstr(text, "HA[2]AB[gc][cg]PL[W]\n"));
    free(text);
    record_test_round_trip(&r, RECORD_SGF, NULL, NULL, &back);
    T_TRUE(back.start == NULL);
    record_free(&back);
    record_free(&r);
    /* A game ended on the board: its result with the margin. */
    T_EQ(record_init(&r, go, "size=9", NULL, err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "E5 pass pass"), BANYAN_OK);
    text = record_test_save(&r, RECORD_SGF, &rc);
    T_TRUE(text && strstr(text, "RE[B+73.5]"));
    free(text);
    record_free(&r);

    /* Othello's own start is no setup: nothing written; today's date. */
    T_EQ(record_init(&r, &banyan_game_othello, NULL, NULL, err, sizeof err), BANYAN_OK);
    text = record_test_save(&r, RECORD_SGF, &rc);
    T_TRUE(text && !strstr(text, "AB[") && !strstr(text, "PL[") && !strstr(text, "XS["));
    const char *dt = text ? strstr(text, "DT[") : NULL;
    T_TRUE(dt && strlen(dt) > 14 && dt[7] == '-' && dt[10] == '-' && dt[13] == ']');
    free(text);
    record_free(&r);
}

void test_record_sgf_foreign(void)
{
    record r;
    char err[256], moves[256];

    /* Another program's file: the game from GM, the board from SZ. SGF's
     * "hh" is x 7 from the left, y 7 from the top: h8 on 15x15. */
    T_EQ(record_load(&r, NULL, "(;GM[4]FF[4]SZ[15];B[hh];W[ii];B[hi])", err, sizeof err),
         BANYAN_OK);
    T_STR(err, "");
    T_TRUE(r.g == &banyan_game_gomoku);
    T_STR(r.params, "size=15");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "h8 i7 h7");
    record_free(&r);

    /* White space, a collection, variations (the first is the main line),
     * unknown properties with several values, escapes and a soft line break
     * in a comment, times, players and a result. */
    const char *sgf = " \r\n(;FF[4]GM[4]SZ[9]PB[ Black\n player ]PW[White]RE[B+R]DT[2024-01-01]\n"
                      "  ;B[ee] C[centre \\] \\\\ \\\nhere] XT[1.5]\n"
                      "  ( ;W[dd] TR[aa][bb] ;B[ff] (;W[gg]) (;W[hh]) )\n"
                      "  ( ;W[aa] ;B[bb] )\n"
                      ")\n(;GM[4];B[aa])\n";
    T_EQ(record_load(&r, &banyan_game_gomoku, sgf, err, sizeof err), BANYAN_OK);
    T_STR(err, "");
    T_STR(r.params, "size=9");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "e5 d6 f4 g3");
    T_STR(r.players[0], "Black  player");
    T_STR(r.players[1], "White");
    T_STR(r.result, "1-0 (B+R)");
    T_STR(r.date, "2024-01-01");
    T_STR(r.moves[0].comment, "centre ] \\ here");
    T_NEAR(r.moves[0].seconds, 1.5, 0);
    T_NEAR(r.moves[1].seconds, -1, 0);
    record_free(&r);

    /* Moves in the root node, and an old-style pass "tt" where the game
     * has no pass. */
    T_EQ(record_load(&r, NULL, "(;GM[4]B[aa];W[bb])", err, sizeof err), BANYAN_OK);
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "a15 b14");
    record_free(&r);
    T_EQ(record_load(&r, NULL, "(;GM[4];B[tt])", err, sizeof err), BANYAN_EINVAL);
    T_STR(err, "SGF: B[tt] at byte 8 is not a move");

    /* A game without an SGF number, named by XG; SZ sets the parameters
     * of role width and height (m and n of tic-tac-toe). */
    T_EQ(record_load(&r, NULL, "(;XG[tictactoe]SZ[4:3];B[aa];W[dc])", err, sizeof err), BANYAN_OK);
    T_TRUE(r.g == &banyan_game_tictactoe);
    T_STR(r.params, "m=4 n=3");
    T_STR(record_test_moves_text(&r, moves, sizeof moves), "a3 d1");
    record_free(&r);
    /* XP wins over SZ, which must then agree with the board. */
    T_EQ(record_load(&r, NULL, "(;XG[tictactoe]XP[m=4 n=3 k=3]SZ[4:3])", err, sizeof err),
         BANYAN_OK);
    T_STR(r.params, "m=4 n=3 k=3");
    record_free(&r);
    T_EQ(record_load(&r, NULL, "(;XG[tictactoe]XP[m=4 n=4]SZ[4:3])", err, sizeof err),
         BANYAN_EINVAL);
    T_STR(err, "SGF: SZ[4:3] does not fit tictactoe's 4x4 board");

    /* Piskvork's PSQ, the other format other programs write. */
}

void test_record_bounds(void)
{
    /* Parameters too long for the record. */
    char params[600];
    snprintf(params, sizeof params, "# banyan game gomoku\n# params rule=%0300d\n", 0);
    record_test_refused(NULL, params, BANYAN_EINVAL,
                        "line 2: the parameters are longer than 255 bytes");

    /* Names too long are cut at a character boundary of UTF-8: 127 of the
     * 150 two-byte characters fit in 255 bytes. */
    char names[800] = "# banyan game gomoku\n# first ";
    for (int i = 0; i < 150; i++)
        strcat(names, "\xc3\xa9");
    strcat(names, "\n");
    record r;
    char err[256];
    T_EQ(record_load(&r, NULL, names, err, sizeof err), BANYAN_OK);
    T_EQ(strlen(r.players[0]), 254);
    T_TRUE(!strncmp(r.players[0], names + 29, 254));
    record_free(&r);

    /* An SGF value over 64 KiB, more than 100000 nodes. */
    size_t big = 70000;
    char *text = malloc(2 * big);
    T_TRUE(text != NULL);
    if (!text)
        return;
    strcpy(text, "(;GM[4]C[");
    memset(text + 9, 'x', big);
    strcpy(text + 9 + big, "])");
    record_test_refused(NULL, text, BANYAN_EINVAL,
                        "SGF: the value at byte 8 is longer than 65536 bytes");
    strcpy(text, "(;GM[4]");
    memset(text + 7, ';', 100000);
    strcpy(text + 7 + 100000, ")");
    record_test_refused(NULL, text, BANYAN_EINVAL, "SGF: more than 100000 nodes");
    text[7 + 99999] = ')'; /* 100000 nodes, the root included, are fine. */
    text[7 + 100000] = 0;
    T_EQ(record_load(&r, &banyan_game_gomoku, text, err, sizeof err), BANYAN_OK);
    T_EQ(r.n_moves, 0);
    record_free(&r);
    free(text);
}

void test_record_replay(void)
{
    const banyan_game *g = &banyan_game_gomoku;
    record r;
    char err[256];
    banyan_engine *e = NULL, *other = NULL;
    banyan_config cfg = BANYAN_CONFIG(.memory = 1 << 20);
    unsigned char *s = malloc(g->state_size);
    T_EQ(record_init(&r, g, "size=9 rule=renju", "e5", err, sizeof err), BANYAN_OK);
    T_EQ(record_test_push(&r, "d4 f6 c3 g7"), BANYAN_OK);
    cfg.memory = t_memory(&banyan_game_connect4, &cfg, cfg.memory); /* The larger need. */
    T_EQ(banyan_engine_new(g, NULL, &cfg, &e), BANYAN_OK);
    T_EQ(banyan_engine_new(&banyan_game_connect4, NULL, &cfg, &other), BANYAN_OK);
    if (!e || !other || !s)
        goto done;
    T_EQ(record_replay(&r, e, r.n_moves), BANYAN_OK);
    T_TRUE(memcmp(banyan_engine_state(e), record_state(&r), g->state_size) == 0);
    for (int n = 0; n <= r.n_moves; n++) {
        T_EQ(record_replay(&r, e, n), BANYAN_OK);
        T_EQ(record_state_at(&r, n, s), BANYAN_OK);
        T_TRUE(memcmp(banyan_engine_state(e), s, g->state_size) == 0);
    }
    T_EQ(record_replay(&r, e, r.n_moves + 1), BANYAN_EINVAL);
    T_EQ(record_replay(&r, e, -1), BANYAN_EINVAL);
    T_EQ(record_replay(&r, other, 0), BANYAN_EINVAL); /* Another game. */
done:
    banyan_engine_free(e);
    banyan_engine_free(other);
    free(s);
    record_free(&r);
}

void test_record_file(void)
{
    record r;
    char err[256], path[] = "/tmp/banyan-record-XXXXXX";
    int fd = mkstemp(path);
    T_TRUE(fd >= 0);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    fputs("\xef\xbb\xbf(;GM[4];B[hh])", f); /* With a byte order mark. */
    fclose(f);
    T_EQ(record_load_file(&r, NULL, path, err, sizeof err), BANYAN_OK);
    T_EQ(r.n_moves, 1);
    record_free(&r);
    f = fopen(path, "w");
    fputs("# banyan game gomoku\nh8\0i9\n", f); /* Cut at the NUL by fputs. */
    fwrite("h8\n\0", 1, 4, f);
    fclose(f);
    T_EQ(record_load_file(&r, NULL, path, err, sizeof err), BANYAN_EINVAL);
    char want[128];
    snprintf(want, sizeof want, "\"%s\" is no game record: it holds a NUL byte", path);
    T_STR(err, want);
    remove(path);
    T_EQ(record_load_file(&r, NULL, path, err, sizeof err), BANYAN_EINVAL);
    snprintf(want, sizeof want, "cannot read \"%s\": No such file or directory", path);
    T_STR(err, want);
}

/* ---- Superko: a board of two cells that moves toggle ---- */

/* Move 0 or 1 toggles that cell (empty: the mover's piece; taken: empty
 * again), move 2 passes; the game ends after 12 moves. */
typedef struct toggle_state {
    signed char cell[2];
    int ply;
} toggle_state;

static int toggle_setup(void *s, const char *params)
{
    toggle_state *t = s;
    memset(t, 0, sizeof *t);
    t->cell[0] = t->cell[1] = -1;
    return params && params[0] ? BANYAN_EINVAL : BANYAN_OK;
}

static int toggle_moves(const void *s, banyan_move *out)
{
    const toggle_state *t = s;
    if (t->ply >= 12)
        return 0;
    for (int i = 0; i < 3; i++)
        out[i] = (banyan_move)i;
    return 3;
}

static void toggle_play(void *s, banyan_move m)
{
    toggle_state *t = s;
    if (m < 2)
        t->cell[m] = t->cell[m] < 0 ? (signed char)(t->ply & 1) : -1;
    t->ply++;
}

static bool toggle_outcome(const void *s, double *ret)
{
    const toggle_state *t = s;
    if (t->ply < 12)
        return false;
    ret[0] = ret[1] = 0.5;
    return true;
}

static int toggle_to_move(const void *s)
{
    return ((const toggle_state *)s)->ply & 1;
}

static void toggle_board_size(const void *s, int *w, int *h)
{
    (void)s;
    *w = 2;
    *h = 1;
}

static int toggle_place(const void *s, banyan_move m, int *x, int *y)
{
    (void)s;
    *x = (int)m;
    *y = 0;
    return m < 2 ? BANYAN_PLACE_CELL : m == 2 ? BANYAN_PLACE_PASS : BANYAN_PLACE_NONE;
}

static int toggle_place_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    (void)s, (void)y;
    if (kind == BANYAN_PLACE_PASS)
        return *out = 2, BANYAN_OK;
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || x > 1)
        return BANYAN_ERANGE;
    *out = (banyan_move)x;
    return BANYAN_OK;
}

static int toggle_piece(const void *s, int x, int y)
{
    const toggle_state *t = s;
    return x >= 0 && x < 2 && y == 0 ? t->cell[x] : -1;
}

static const banyan_board toggle_board = {
    BANYAN_BOARD_INIT,     .board_size = toggle_board_size,
    .place = toggle_place, .place_move = toggle_place_move,
    .piece = toggle_piece,
};

static const banyan_game toggle_game = {
    BANYAN_GAME_INIT,
    .name = "toggle",
    .state_size = sizeof(toggle_state),
    .n_players = 2,
    .setup = toggle_setup,
    .moves = toggle_moves,
    .play = toggle_play,
    .outcome = toggle_outcome,
    .to_move = toggle_to_move,
    .rules = BANYAN_RULE_SUPERKO,
    .board = &toggle_board,
};

void test_record_superko(void)
{
    record r;
    char err[256];
    T_EQ(record_init(&r, &toggle_game, NULL, NULL, err, sizeof err), BANYAN_OK);
    T_EQ(record_push(&r, 0, -1, NULL), BANYAN_OK); /* X on cell 0. */
    T_TRUE(record_repeats(&r, 0));                 /* O would empty it: the start again. */
    T_EQ(record_push(&r, 0, -1, NULL), BANYAN_EILLEGAL);
    T_EQ(r.n_moves, 1);
    T_TRUE(!record_repeats(&r, 2)); /* A pass leaves the board as it is. */
    T_EQ(record_push(&r, 2, -1, NULL), BANYAN_OK);
    T_EQ(record_push(&r, 1, -1, NULL), BANYAN_OK); /* X on cell 1: X X, new. */
    T_TRUE(record_repeats(&r, 1));                 /* O empties it: X - again. */
    T_TRUE(!record_repeats(&r, 0));                /* O empties cell 0: - X, new. */
    /* The engine's choice: its best unless that repeats, then the next. */
    banyan_move_stats st[2] = {{.move = 1}, {.move = 0}};
    banyan_report rep = BANYAN_REPORT(.best = 1, .n_moves = 2, .moves = st);
    T_EQ(record_pick(&r, &rep), 0);
    rep.best = 0;
    T_EQ(record_pick(&r, &rep), 0);
    /* After an undo the earlier boards are forgotten as they should be. */
    T_EQ(record_undo(&r, 2), 2);
    T_EQ(record_push(&r, 2, -1, NULL), BANYAN_OK);
    T_TRUE(record_repeats(&r, 0)); /* X would empty cell 0: the start. */
    /* A game without the rule repeats freely. */
    banyan_game free_game = toggle_game;
    free_game.rules = 0;
    record f;
    T_EQ(record_init(&f, &free_game, NULL, NULL, err, sizeof err), BANYAN_OK);
    T_EQ(record_push(&f, 0, -1, NULL), BANYAN_OK);
    T_TRUE(!record_repeats(&f, 0));
    T_EQ(record_push(&f, 0, -1, NULL), BANYAN_OK);
    record_free(&f);
    record_free(&r);
}
