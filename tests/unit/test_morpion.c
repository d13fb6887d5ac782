/*
 * test_morpion.c - Morpion Solitaire: the moves from the cross, the 5T and
 * 5D rules on hand-made cases, perft and whole random games refereed by a
 * naive checker written here (a grid of dots and a plain list of lines),
 * Pentasol's notation in and out, positions and bad text, the record games
 * replayed, rollouts and playouts against the invariants and against
 * uniform play, hashes of transposed positions, diagrams, explanations and
 * a search through the engine.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "banyan_game.h"
#include "t.h"

#define G (&banyan_game_morpion)

/* Room for the state, aligned for its words. */
typedef struct mor_test_state {
    uint64_t words[1024]; /* 8 KiB, checked against state_size. */
} mor_test_state;

static void mor_test_setup(mor_test_state *s, const char *params)
{
    T_TRUE(G->state_size <= sizeof *s);
    memset(s, 0x5a, sizeof *s);
    T_EQ(G->setup(s, params), BANYAN_OK);
}

/* The number of legal moves, or -1 when m is not one of them. */
static int mor_test_has(const mor_test_state *s, const char *move)
{
    banyan_move m, moves[BANYAN_MAX_MOVES];
    int n = G->moves(s, moves);
    if (G->notation->parse_move(s, move, &m) != BANYAN_OK) {
        T_FAIL_AT("\"%s\" does not parse", move);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return n;
    return -1;
}

static void mor_test_play(mor_test_state *s, const char *move)
{
    banyan_move m;
    T_EQ(G->notation->parse_move(s, move, &m), BANYAN_OK);
    if (mor_test_has(s, move) < 0) {
        T_FAIL_AT("\"%s\" is not legal", move);
        return;
    }
    G->play(s, m);
    T_TRUE(G->is_valid(s));
}

static int mor_test_score(const mor_test_state *s)
{
    return (int)G->score(s);
}

/* ---- The naive checker ----
 *
 * Points in Pentasol's frame (the cross at 25..34, y downwards) on a
 * 64x64 grid of booleans, and the lines drawn as a list. A move puts a dot
 * at (x, y) and draws the line whose middle point is off steps from it
 * along the direction: - (1,0), | (0,1), / (1,-1), \ (1,1). It is legal
 * when the dot is new, the other four points are dots, and no line of the
 * same direction shares two points with it (5T) or one (5D). */

#define NV_SIDE 64

typedef struct nv_move {
    int x, y, d, off;
} nv_move;

typedef struct nv {
    bool dot[NV_SIDE][NV_SIDE]; /* [y][x]. */
    nv_move lines[512];         /* The moves played. */
    int n_lines;
    bool disjoint; /* 5D. */
} nv;

static const int nv_dx[4] = {1, 0, 1, 1}, nv_dy[4] = {0, 1, -1, 1};
static const char nv_symbols[] = "-|/\\";

static void nv_setup(nv *v, bool disjoint)
{
    static const char *const cross[10] = {"...XXXX...", "...X..X...", "...X..X...", "XXXX..XXXX",
                                          "X........X", "X........X", "XXXX..XXXX", "...X..X...",
                                          "...X..X...", "...XXXX..."};
    memset(v, 0, sizeof *v);
    v->disjoint = disjoint;
    for (int r = 0; r < 10; r++)
        for (int c = 0; c < 10; c++)
            v->dot[25 + r][25 + c] = cross[r][c] == 'X';
}

/* Point k (-2 .. 2 from the middle) of the line of move m. */
static void nv_point(const nv_move *m, int k, int *x, int *y)
{
    *x = m->x + (m->off + k) * nv_dx[m->d];
    *y = m->y + (m->off + k) * nv_dy[m->d];
}

static bool nv_legal(const nv *v, const nv_move *m)
{
    int dots = 0;
    for (int k = -2; k <= 2; k++) {
        int x, y;
        nv_point(m, k, &x, &y);
        if (x < 0 || y < 0 || x >= NV_SIDE || y >= NV_SIDE)
            return false;
        dots += v->dot[y][x];
    }
    if (v->dot[m->y][m->x] || dots != 4)
        return false;
    for (int i = 0; i < v->n_lines; i++) {
        const nv_move *l = &v->lines[i];
        int shared = 0;
        if (l->d != m->d)
            continue;
        for (int a = -2; a <= 2; a++)
            for (int b = -2; b <= 2; b++) {
                int ax, ay, bx, by;
                nv_point(m, a, &ax, &ay);
                nv_point(l, b, &bx, &by);
                shared += ax == bx && ay == by;
            }
        if (shared >= (v->disjoint ? 1 : 2))
            return false;
    }
    return true;
}

/* The legal moves by row, column, direction and offset. */
static int nv_moves(const nv *v, nv_move *out)
{
    int n = 0;
    for (int y = 0; y < NV_SIDE; y++)
        for (int x = 0; x < NV_SIDE; x++)
            for (int d = 0; d < 4; d++)
                for (int off = -2; off <= 2; off++) {
                    nv_move m = {x, y, d, off};
                    if (!v->dot[y][x] && nv_legal(v, &m))
                        out[n++] = m;
                }
    return n;
}

static void nv_play(nv *v, const nv_move *m)
{
    v->dot[m->y][m->x] = true;
    v->lines[v->n_lines++] = *m;
}

static uint64_t nv_perft(const nv *v, int depth)
{
    nv_move moves[512];
    int n = nv_moves(v, moves);
    uint64_t total = 0;
    if (depth == 1)
        return (uint64_t)n;
    nv *child = malloc(sizeof *child);
    for (int i = 0; child && i < n; i++) {
        memcpy(child, v, sizeof *v);
        nv_play(child, &moves[i]);
        total += nv_perft(child, depth - 1);
    }
    free(child);
    return total;
}

/* Reads the game's text for a move back, with sscanf: the checker's own
 * reading of the notation. */
static bool nv_from_text(const char *text, nv_move *m)
{
    char sym;
    if (sscanf(text, "(%d,%d) %c %d", &m->x, &m->y, &sym, &m->off) != 4)
        return false;
    const char *p = sym ? strchr(nv_symbols, sym) : NULL;
    m->d = p ? (int)(p - nv_symbols) : -1;
    return m->d >= 0;
}

/* ---- The tests ---- */

void test_morpion_start(void)
{
    mor_test_state s;
    banyan_move moves[BANYAN_MAX_MOVES];
    nv_move naive[512];
    nv *v = malloc(sizeof *v);
    double r[1];
    char why[256];
    T_TRUE(banyan_game_check(G) == NULL);
    T_TRUE(banyan_game_find("morpion") == G);
    T_TRUE(banyan_game_find("JoinFive") == G);
    T_EQ(G->n_players, 1);
    T_NEAR(G->reward_min, 0, 0);
    T_NEAR(G->reward_max, 200, 0);
    T_TRUE(G->state_size <= 8192);
    for (int rule = 0; rule < 2; rule++) {
        mor_test_setup(&s, rule ? "rule=5d" : NULL);
        T_TRUE(G->is_valid(&s));
        T_EQ(G->moves(&s, moves), 28);
        T_EQ(G->to_move(&s), 0);
        T_EQ(mor_test_score(&s), 0);
        T_TRUE(!G->outcome(&s, r));
        /* No line is drawn yet, so 5D starts as 5T does: the naive checker agrees. */
        nv_setup(v, rule);
        T_EQ(nv_moves(v, naive), 28);
    }
    /* Parameters: the defaults, a bad rule, an unknown key. */
    mor_test_setup(&s, "rule=5t");
    T_EQ(G->setup(&s, "rule=5x"), BANYAN_EINVAL);
    T_EQ(G->setup(&s, "rule=5T"), BANYAN_EINVAL);
    T_EQ(G->setup(&s, "size=9"), BANYAN_EINVAL);
    T_EQ(G->setup(&s, "rule"), BANYAN_EINVAL);
    T_EQ(banyan_params_check(G, "rule=5d", why, sizeof why), BANYAN_OK);
    T_EQ(banyan_params_check(G, "rule=4t", why, sizeof why), BANYAN_EINVAL);
    free(v);
}

/* Lines of one direction: overlapping is refused in both rules, touching at
 * an end point only in 5T; lines of two directions cross in both. */
void test_morpion_rules(void)
{
    mor_test_state s;
    char why[128];
    banyan_move m;
    for (int rule = 0; rule < 2; rule++) {
        /* Overlap: two vertical lines on column 28 sharing four points. */
        mor_test_setup(&s, rule ? "rule=5d" : "");
        T_TRUE(mor_test_has(&s, "(28,29) | -2") > 0);
        mor_test_play(&s, "(28,24) | +2");
        T_EQ(mor_test_has(&s, "(28,29) | -2"), -1);
        T_EQ(G->notation->parse_move(&s, "(28,29) | -2", &m), BANYAN_OK);
        T_TRUE(G->explain(&s, m, why, sizeof why) > 0);
        T_STR(why, rule ? "touches a line of the same direction (5D)"
                        : "overlaps a line of the same direction");

        /* Touching: (28,25)..(28,29), then (28,29)..(28,33) sharing (28,29). */
        mor_test_setup(&s, rule ? "rule=5d" : "");
        mor_test_play(&s, "(28,29) | -2");
        T_EQ(mor_test_has(&s, "(28,30) | +1") > 0, !rule);
        /* Next to it without a common point: legal in both. */
        T_TRUE(mor_test_has(&s, "(28,30) | +2") > 0);

        /* Crossing: a diagonal through (28,26), then the column through it. */
        mor_test_setup(&s, rule ? "rule=5d" : "");
        mor_test_play(&s, "(27,27) / 0");
        T_TRUE(mor_test_has(&s, "(28,24) | +2") > 0);
        mor_test_play(&s, "(28,24) | +2");
        T_EQ(mor_test_score(&s), 2);
    }
    /* Under 5T the touching line is played, and the run of 9 points is
     * two lines. */
    mor_test_setup(&s, "");
    mor_test_play(&s, "(28,29) | -2");
    mor_test_play(&s, "(28,30) | +1");
    T_EQ(mor_test_score(&s), 2);
    T_EQ(mor_test_has(&s, "(28,30) | +2"), -1);
}

void test_morpion_perft(void)
{
    static const uint64_t expected[2][3] = {{28, 748, 18992}, {28, 740, 18416}};
    mor_test_state s;
    nv *v = malloc(sizeof *v);
    for (int rule = 0; rule < 2; rule++) {
        mor_test_setup(&s, rule ? "rule=5d" : "rule=5t");
        nv_setup(v, rule);
        for (int d = 1; d <= 3; d++) {
            uint64_t naive = nv_perft(v, d);
            T_EQ(t_perft(G, &s, d), naive);
            T_EQ(naive, expected[rule][d - 1]);
        }
    }
    free(v);
}

/* Whole random games, the game's moves compared with the checker's at every
 * ply (the same order: row, column, direction, offset). */
void test_morpion_naive_games(void)
{
    mor_test_state s;
    nv *v = malloc(sizeof *v);
    nv_move naive[512];
    banyan_move moves[BANYAN_MAX_MOVES];
    banyan_rng rng;
    banyan_rng_seed(&rng, 11, 0);
    for (int game = 0; game < 24; game++) {
        int rule = game & 1, n;
        mor_test_setup(&s, rule ? "rule=5d" : "");
        nv_setup(v, rule);
        do {
            n = G->moves(&s, moves);
            int n_naive = nv_moves(v, naive);
            T_EQ(n, n_naive);
            for (int i = 0; i < n && i < n_naive; i++) {
                char text[64];
                nv_move m;
                G->notation->format_move(&s, moves[i], text, sizeof text);
                if (!nv_from_text(text, &m) || m.x != naive[i].x || m.y != naive[i].y ||
                    m.d != naive[i].d || m.off != naive[i].off) {
                    T_FAIL_AT("game %d, ply %d: move %d is %s", game, v->n_lines, i, text);
                    break;
                }
            }
            if (n != n_naive || t_failed)
                break;
            if (n) {
                int i = (int)banyan_rng_below(&rng, (uint32_t)n);
                G->play(&s, moves[i]);
                nv_play(v, &naive[i]);
                T_TRUE(G->is_valid(&s));
            }
        } while (n);
        T_EQ(mor_test_score(&s), v->n_lines);
        if (t_failed)
            break;
    }
    free(v);
}

void test_morpion_notation(void)
{
    static const struct {
        const char *text;
        int rc;
    } cases[] = {
        {"(27,27) / 0", BANYAN_OK},
        {"  (27,27)/0\n", BANYAN_OK},
        {"( 27 , 27 ) / +0", BANYAN_OK},
        {"(28,24) | 2", BANYAN_OK},
        {"(28,24) | +2", BANYAN_OK},
        {"(30,28) - -2", BANYAN_OK},
        {"(32,27) \\ 0", BANYAN_OK},
        {"(14,14) - 0", BANYAN_OK}, /* The grid's corners. */
        {"(45,45) - 0", BANYAN_OK},
        {"(13,20) - 0", BANYAN_ERANGE},
        {"(20,46) - 0", BANYAN_ERANGE},
        {"(-5,20) | 0", BANYAN_ERANGE},
        {"(999999,20) | 0", BANYAN_ERANGE},
        {"(1000000,20) | 0", BANYAN_EINVAL},
        {"", BANYAN_EINVAL},
        {"(28,28)", BANYAN_EINVAL},
        {"(28,28) x 0", BANYAN_EINVAL},
        {"(28,28) - 3", BANYAN_EINVAL},
        {"(28,28) - +", BANYAN_EINVAL},
        {"(28,28) -", BANYAN_EINVAL},
        {"(a,b) - 0", BANYAN_EINVAL},
        {"(28;28) - 0", BANYAN_EINVAL},
        {"(28,28 - 0", BANYAN_EINVAL},
        {"28,28 - 0", BANYAN_EINVAL},
        {"(27,27) / 0 (28,24) | 2", BANYAN_EINVAL},
        {"(27,27) / 0 #", BANYAN_EINVAL},
        {"h8", BANYAN_EINVAL},
    };
    mor_test_state s;
    mor_test_setup(&s, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        banyan_move m = 12345;
        int rc = G->notation->parse_move(&s, cases[i].text, &m);
        if (rc != cases[i].rc)
            T_FAIL_AT("parse_move(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        if (rc != BANYAN_OK)
            T_EQ(m, 12345);
    }
    /* Every code formats and parses back; the others write "?". There are
     * 32 x 32 dots, 4 directions and 5 offsets. */
    int n_codes = 0;
    for (banyan_move m = 0; m < 65536; m++) {
        char text[64];
        banyan_move back = BANYAN_MOVE_NONE;
        int len = G->notation->format_move(&s, m, text, sizeof text);
        T_EQ(len, (int)strlen(text));
        if (!strcmp(text, "?"))
            continue;
        n_codes++;
        T_EQ(G->notation->parse_move(&s, text, &back), BANYAN_OK);
        if (back != m) {
            T_FAIL_AT("%u formats as \"%s\", which parses as %u", m, text, back);
            break;
        }
    }
    T_EQ(n_codes, 32 * 32 * 4 * 5);
    /* The moves from the cross, as the record files write them. */
    banyan_move moves[BANYAN_MAX_MOVES];
    char text[64];
    int n = G->moves(&s, moves);
    T_EQ(n, 28);
    G->notation->format_move(&s, moves[0], text, sizeof text);
    T_STR(text, "(28,24) | +2");
    G->notation->format_move(&s, moves[5], text, sizeof text);
    T_STR(text, "(27,27) / 0");
    G->notation->format_move(&s, moves[n - 1], text, sizeof text);
    T_STR(text, "(31,35) | -2");
    /* snprintf-style: truncated, with the length it needs. */
    T_EQ(G->notation->format_move(&s, moves[0], text, 5), 12);
    T_STR(text, "(28,");
    T_EQ(G->notation->format_move(&s, moves[0], NULL, 0), 12);
}

/* The text of a file of tests/data, or NULL. */
static char *mor_test_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", t_data_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        T_FAIL_AT("cannot read %s", path);
        return NULL;
    }
    char *text = calloc(1, 1 << 16);
    size_t n = text ? fread(text, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    (void)n;
    return text;
}

/* The record games: every move legal, the final score, no move left. */
void test_morpion_records(void)
{
    static const struct {
        const char *file, *params;
        int moves;
        int rc_other; /* Load under the other rule. */
    } records[] = {
        {"morpion_5t_178.psol", "rule=5t", 178, BANYAN_EILLEGAL},
        {"morpion_5d_82.psol", "rule=5d", 82, BANYAN_OK}, /* 5D games are 5T games. */
    };
    mor_test_state s, t;
    banyan_move moves[BANYAN_MAX_MOVES];
    double r[1];
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        char *text = mor_test_file(records[i].file);
        if (!text)
            continue;
        mor_test_setup(&s, records[i].params);
        T_EQ(G->notation->load(&s, text), BANYAN_OK);
        T_TRUE(G->is_valid(&s));
        T_EQ(mor_test_score(&s), records[i].moves);
        T_EQ(G->moves(&s, moves), 0);
        T_TRUE(G->outcome(&s, r));
        T_NEAR(r[0], records[i].moves, 0);
        mor_test_setup(&t, !strcmp(records[i].params, "rule=5t") ? "rule=5d" : "rule=5t");
        memcpy(&s, &t, sizeof s);
        T_EQ(G->notation->load(&t, text), records[i].rc_other);
        if (records[i].rc_other != BANYAN_OK)
            T_TRUE(!memcmp(&s, &t, G->state_size));
        else
            T_EQ(mor_test_score(&t), records[i].moves);
        free(text);
    }
}

void test_morpion_load(void)
{
    static const struct {
        const char *text;
        int rc;
        int score;
    } cases[] = {
        {"", BANYAN_OK, 0},
        {"  \n", BANYAN_OK, 0},
        {"(28,28)", BANYAN_OK, 0},
        {"# a comment\n(28,28)\n(27,27) / 0\n", BANYAN_OK, 1},
        {"(27,27) / 0, (28,24) | +2", BANYAN_OK, 2},
        {"(27,27)/0(28,24)|+2", BANYAN_OK, 2},
        {"(27,27) / 0 # the diagonal\n(28,24) | +2 # the column", BANYAN_OK, 2},
        /* The same two moves from a reference 5 columns right and 3 rows up. */
        {"(33,25)\n(32,24) / 0\n(33,21) | +2", BANYAN_OK, 2},
        {"(27,27) / 0 (27,27) / 0", BANYAN_EILLEGAL, 0},
        {"(28,29) | -2 (28,24) | +2", BANYAN_EILLEGAL, 0},
        {"(20,20) - 0", BANYAN_EILLEGAL, 0},
        {"(0,0) - 0", BANYAN_ERANGE, 0},
        {"(0,0)\n(27,27) / 0", BANYAN_ERANGE, 0},
        {"(28,28) (28,28)", BANYAN_EINVAL, 0},
        {"(27,27) / 0 (28,28)", BANYAN_EINVAL, 0},
        {"(27,27) / 9", BANYAN_EINVAL, 0},
        {"(27,27) / 0x", BANYAN_EINVAL, 0},
        {"(27,27) / 0 garbage", BANYAN_EINVAL, 0},
        {"(27,27", BANYAN_EINVAL, 0},
        {"f5", BANYAN_EINVAL, 0},
        {"(27,27) / 0 ;", BANYAN_EINVAL, 0},
    };
    mor_test_state s, before, want;
    mor_test_setup(&want, NULL);
    mor_test_play(&want, "(27,27) / 0");
    mor_test_play(&want, "(28,24) | +2");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mor_test_setup(&s, NULL);
        mor_test_play(&s, "(32,27) \\ 0"); /* Replaced by a good load, kept by a bad one. */
        memcpy(&before, &s, sizeof s);
        int rc = G->notation->load(&s, cases[i].text);
        if (rc != cases[i].rc)
            T_FAIL_AT("load(\"%s\") gave %d, not %d", cases[i].text, rc, cases[i].rc);
        if (rc != BANYAN_OK) {
            T_TRUE(!memcmp(&s, &before, G->state_size));
            continue;
        }
        T_TRUE(G->is_valid(&s));
        T_EQ(mor_test_score(&s), cases[i].score);
        if (cases[i].score == 2)
            T_TRUE(!memcmp(&s, &want, G->state_size));
    }
    /* The rule of *s is kept. */
    mor_test_setup(&s, "rule=5d");
    T_EQ(G->notation->load(&s, "(28,29) | -2 (28,30) | +1"), BANYAN_EILLEGAL);
    T_EQ(G->notation->load(&s, "(28,29) | -2 (28,30) | +2"), BANYAN_OK);
    mor_test_setup(&s, "rule=5t");
    T_EQ(G->notation->load(&s, "(28,29) | -2 (28,30) | +1"), BANYAN_OK);
    T_EQ(G->notation->load(&s, NULL), BANYAN_EINVAL);
}

/* The character at column col of line `line` of a diagram (a space past
 * the end of the line, 0 past the end of the text). */
static char mor_test_at(const char *text, int line, int col)
{
    for (; line > 0 && *text; text++)
        line -= *text == '\n';
    for (int c = 0; c < col; c++)
        if (!text[c] || text[c] == '\n')
            return text[c] ? ' ' : 0;
    return text[col] == '\n' ? ' ' : text[col];
}

/* Diagram lines and columns of the points around the cross: the first
 * lines are the summary and the column labels; the box begins one point
 * before the dots (column and row 24), and a point is two characters
 * right of the previous one and two lines below, after a 4-character row
 * label. */
#define MOR_LINE(y)           (3 + 2 * ((y)-24))
#define MOR_COLUMN(x)         (4 + 2 * ((x)-24))
#define MOR_AT(text, x, y)    mor_test_at(text, MOR_LINE(y), MOR_COLUMN(x))
#define MOR_BELOW(text, x, y) mor_test_at(text, MOR_LINE(y) + 1, MOR_COLUMN(x))

void test_morpion_print(void)
{
    mor_test_state s;
    char text[8192];
    banyan_move m;
    mor_test_setup(&s, NULL);
    int len = G->notation->print(&s, BANYAN_MOVE_NONE, text, sizeof text);
    T_EQ(len, (int)strlen(text));
    T_TRUE(strstr(text, "5T, 0 moves played, 28 legal\n"
                        "    2 2 2 2 2 2 3 3 3 3 3 3\n"
                        "    4 5 6 7 8 9 0 1 2 3 4 5\n"
                        " 24 . . . . . . . . . . . .\n"
                        "\n"
                        " 25 . . . . o o o o . . . .\n") == text);
    T_TRUE(strstr(text, " 28 . o o o o . . o o o o .\n"));
    T_TRUE(!strstr(text, " \n")); /* No line ends in a space. */
    T_EQ(MOR_AT(text, 28, 28), 'o');
    T_EQ(MOR_AT(text, 35, 35), '.');
    T_EQ(mor_test_at(text, MOR_LINE(35) + 1, 0), 0);
    /* snprintf-style. */
    T_EQ(G->notation->print(&s, BANYAN_MOVE_NONE, NULL, 0), len);
    char small[10];
    T_EQ(G->notation->print(&s, BANYAN_MOVE_NONE, small, sizeof small), len);
    T_EQ(strlen(small), 9);

    /* 5T: touching lines on column 28, 25..29 and 29..33, are one unbroken
     * run; the last move's dot is '@'. */
    mor_test_play(&s, "(28,29) | -2");
    T_EQ(G->notation->parse_move(&s, "(28,30) | +1", &m), BANYAN_OK);
    G->play(&s, m);
    G->notation->print(&s, m, text, sizeof text);
    T_EQ(MOR_AT(text, 28, 29), '*');
    T_EQ(MOR_AT(text, 28, 30), '@');
    for (int y = 25; y < 33; y++)
        T_EQ(MOR_BELOW(text, 28, y), '|');
    T_EQ(MOR_BELOW(text, 28, 33), ' ');
    T_EQ(MOR_BELOW(text, 31, 28), ' ');

    /* 5D: lines end to end, 25..29 and 30..34, have no segment between. */
    mor_test_setup(&s, "rule=5d");
    mor_test_play(&s, "(28,29) | -2");
    mor_test_play(&s, "(28,30) | +2");
    G->notation->print(&s, BANYAN_MOVE_NONE, text, sizeof text);
    T_TRUE(strstr(text, "5D, 2 moves played") == text);
    for (int y = 25; y < 34; y++)
        T_EQ(MOR_BELOW(text, 28, y), y == 29 ? ' ' : '|');

    /* Diagonals: (25,29)..(29,25) drawn as '/' between the points, and
     * (30,25)..(34,29) as '\'. */
    mor_test_setup(&s, NULL);
    mor_test_play(&s, "(27,27) / 0");
    mor_test_play(&s, "(32,27) \\ 0");
    G->notation->print(&s, BANYAN_MOVE_NONE, text, sizeof text);
    for (int x = 25; x < 29; x++)
        T_EQ(mor_test_at(text, MOR_LINE(29 - (x - 25)) - 1, MOR_COLUMN(x) + 1), '/');
    for (int x = 30; x < 34; x++)
        T_EQ(mor_test_at(text, MOR_LINE(25 + (x - 30)) + 1, MOR_COLUMN(x) + 1), '\\');
}

/* Rollouts and playouts end in a position with no move, valid, whose
 * return is its number of moves; the moves a playout writes replay through
 * moves() and play() to the same bytes. */
void test_morpion_rollouts(void)
{
    mor_test_state s, start, replay;
    banyan_move moves[BANYAN_MAX_MOVES], played[400];
    banyan_rng rng;
    double r[1];
    int most = 0;
    banyan_rng_seed(&rng, 5, 1);
    for (int game = 0; game < 400; game++) {
        mor_test_setup(&start, game & 1 ? "rule=5d" : "rule=5t");
        if (game % 4 >= 2)
            T_EQ(G->notation->load(&start, "(27,27) / 0 (28,24) | +2"), BANYAN_OK);
        memcpy(&s, &start, sizeof s);
        int n;
        if (game % 8 < 4) {
            n = G->playout(&s, &rng, played, 400);
        } else {
            G->rollout(&s, &rng);
            n = -1;
        }
        T_TRUE(G->is_valid(&s));
        T_EQ(G->moves(&s, moves), 0);
        T_TRUE(G->outcome(&s, r));
        T_NEAR(r[0], mor_test_score(&s), 0);
        if (n < 0)
            continue;
        T_EQ(n, mor_test_score(&s) - mor_test_score(&start));
        memcpy(&replay, &start, sizeof replay);
        for (int i = 0; i < n; i++) {
            int k = G->moves(&replay, moves), found = 0;
            most = k > most ? k : most;
            for (int j = 0; j < k; j++)
                found |= moves[j] == played[i];
            if (!found) {
                T_FAIL_AT("game %d: playout move %d is not legal", game, i);
                break;
            }
            G->play(&replay, played[i]);
        }
        T_TRUE(!memcmp(&replay, &s, G->state_size));
        if (t_failed)
            break;
    }
    T_TRUE(most > 28 && most < 200);
    /* A playout with less room plays to the end all the same. */
    mor_test_setup(&s, NULL);
    int n = G->playout(&s, &rng, played, 3);
    T_EQ(n, 3);
    T_EQ(G->moves(&s, moves), 0);
    T_TRUE(mor_test_score(&s) >= 20);
}

/* The rollout draws uniformly among the legal moves: its mean game length
 * matches uniform play through moves() and play(). */
void test_morpion_rollout_distribution(void)
{
    mor_test_state s;
    banyan_move moves[BANYAN_MAX_MOVES];
    banyan_rng rng;
    banyan_rng_seed(&rng, 7, 2);
    for (int rule = 0; rule < 2; rule++) {
        double sum_fast = 0, sum_slow = 0, sq = 0;
        const int games = 3000;
        for (int g = 0; g < games; g++) {
            mor_test_setup(&s, rule ? "rule=5d" : NULL);
            G->rollout(&s, &rng);
            sum_fast += mor_test_score(&s);
            sq += (double)mor_test_score(&s) * mor_test_score(&s);
            mor_test_setup(&s, rule ? "rule=5d" : NULL);
            for (int n; (n = G->moves(&s, moves)) > 0;)
                G->play(&s, moves[banyan_rng_below(&rng, (uint32_t)n)]);
            sum_slow += mor_test_score(&s);
        }
        double mean = sum_fast / games, var = sq / games - mean * mean;
        /* Four standard errors of the difference of two means. */
        T_NEAR(mean, sum_slow / games, 4 * sqrt(2 * var / games));
        T_TRUE(mean > (rule ? 30 : 40) && mean < (rule ? 60 : 70));
    }
}

/* The same lines in another order: the same bytes and hash. Transposed
 * games are made by swapping neighbouring moves of random games wherever
 * both orders are legal. */
void test_morpion_hash(void)
{
    mor_test_state a, b, start;
    banyan_move moves[BANYAN_MAX_MOVES], game[400];
    banyan_rng rng;
    uint64_t seen[28];
    banyan_rng_seed(&rng, 3, 3);
    mor_test_setup(&a, NULL);
    mor_test_setup(&b, NULL);
    mor_test_play(&a, "(27,27) / 0");
    mor_test_play(&a, "(28,24) | +2");
    mor_test_play(&b, "(28,24) | +2");
    mor_test_play(&b, "(27,27) / 0");
    T_TRUE(!memcmp(&a, &b, G->state_size));
    T_EQ(G->hash(&a), G->hash(&b));
    T_EQ(banyan_game_hash(G, &a), G->hash(&a));
    /* The rule is part of the position. */
    mor_test_setup(&a, "rule=5t");
    mor_test_setup(&b, "rule=5d");
    T_TRUE(G->hash(&a) != G->hash(&b));
    /* The 28 first moves give 28 hashes. */
    int n = G->moves(&a, moves);
    for (int i = 0; i < n; i++) {
        memcpy(&b, &a, sizeof b);
        G->play(&b, moves[i]);
        seen[i] = G->hash(&b);
        for (int j = 0; j < i; j++)
            T_TRUE(seen[j] != seen[i]);
    }
    for (int round = 0; round < 40; round++) {
        int swaps = 0;
        mor_test_setup(&start, round & 1 ? "rule=5d" : NULL);
        memcpy(&a, &start, sizeof a);
        n = G->playout(&a, &rng, game, 400);
        for (int i = 0; i + 1 < n; i++) {
            /* Swap moves i and i + 1 when i + 1 is legal before i. */
            memcpy(&b, &start, sizeof b);
            for (int j = 0; j < i; j++)
                G->play(&b, game[j]);
            int k = G->moves(&b, moves), legal = 0;
            for (int j = 0; j < k; j++)
                legal |= moves[j] == game[i + 1];
            if (!legal || banyan_rng_below(&rng, 2))
                continue;
            banyan_move m = game[i];
            game[i] = game[i + 1];
            game[i + 1] = m;
            swaps++;
            i++;
        }
        memcpy(&b, &start, sizeof b);
        for (int i = 0; i < n; i++) {
            int k = G->moves(&b, moves), legal = 0;
            for (int j = 0; j < k; j++)
                legal |= moves[j] == game[i];
            if (!legal)
                break;
            G->play(&b, game[i]);
        }
        T_TRUE(swaps > 0);
        T_TRUE(G->is_valid(&b));
        T_EQ(G->hash(&b), G->hash(&a));
        T_TRUE(!memcmp(&a, &b, G->state_size));
    }
}

void test_morpion_explain(void)
{
    static const struct {
        const char *load, *move, *why;
    } cases[] = {
        {"", "(28,25) - 0", "puts a dot on a dot"},
        {"", "(20,20) - 0", "does not complete a line of five dots"},
        {"", "(28,29) | +2", "does not complete a line of five dots"},
        {"(28,24) | +2", "(28,29) | -2", "overlaps a line of the same direction"},
        {"(27,27) / 0", "(27,27) / +1", "puts a dot on a dot"},
    };
    mor_test_state s;
    char why[256];
    banyan_move m;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mor_test_setup(&s, NULL);
        T_EQ(G->notation->load(&s, cases[i].load), BANYAN_OK);
        T_EQ(G->notation->parse_move(&s, cases[i].move, &m), BANYAN_OK);
        T_TRUE(!banyan_game_is_legal(G, &s, m));
        T_TRUE(banyan_game_explain(G, &s, m, why, sizeof why) > 0);
        T_STR(why, cases[i].why);
    }
    /* A game that is over. */
    char *text = mor_test_file("morpion_5d_82.psol");
    if (text) {
        mor_test_setup(&s, "rule=5d");
        T_EQ(G->notation->load(&s, text), BANYAN_OK);
        T_EQ(G->notation->parse_move(&s, "(20,20) - 0", &m), BANYAN_OK);
        T_TRUE(banyan_game_explain(G, &s, m, why, sizeof why) > 0);
        T_STR(why, "cannot be played: the game is over");
        free(text);
    }
}

/* The engine plays a whole game: legal moves, a valid end, the return. */
void test_morpion_engine(void)
{
    banyan_engine *e;
    banyan_config cfg = BANYAN_CONFIG(.memory = 16 << 20, .seed = 3);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 300);
    banyan_report rep = BANYAN_REPORT();
    banyan_move moves[BANYAN_MAX_MOVES];
    double r[1];
    int plies = 0;
    if (banyan_engine_new(G, "rule=5t", &cfg, &e) != BANYAN_OK) {
        T_FAIL_AT("no engine");
        return;
    }
    for (;;) {
        const void *s = banyan_engine_state(e);
        int n = G->moves(s, moves);
        if (!n)
            break;
        T_EQ(banyan_engine_search(e, &lim, &rep), BANYAN_OK);
        T_TRUE(banyan_game_is_legal(G, s, rep.best));
        T_EQ(banyan_engine_play(e, rep.best), BANYAN_OK);
        plies++;
    }
    const void *s = banyan_engine_state(e);
    T_TRUE(G->is_valid(s));
    T_TRUE(G->outcome(s, r));
    T_NEAR(r[0], plies, 0);
    T_TRUE(plies >= 20);
    banyan_engine_free(e);
}

/* A game written as a Pentasol file (banyan_game_write) loads back to the
 * same position; the text starts with the reference point and is cut
 * snprintf-style; a game without write() is written a move a line. */
void test_morpion_write(void)
{
    static const char *const rules[] = {"rule=5d", "rule=5t"};
    for (int k = 0; k < 2; k++) {
        mor_test_state s, start, back;
        banyan_move moves[256], legal[BANYAN_MAX_MOVES];
        banyan_rng rng;
        int n = 0, l;
        char text[1 << 14];
        banyan_rng_seed(&rng, 17, (uint64_t)k);
        mor_test_setup(&s, rules[k]);
        start = s;
        while ((l = G->moves(&s, legal)) > 0 && n < 256) {
            moves[n] = legal[banyan_rng_below(&rng, (uint32_t)l)];
            G->play(&s, moves[n++]);
        }
        int len = banyan_game_write(G, &start, moves, n, text, sizeof text);
        T_TRUE(len > 0 && (size_t)len < sizeof text && (int)strlen(text) == len);
        T_TRUE(!strncmp(text, "(28,28)\n", 8));
        T_EQ(banyan_game_write(G, &start, moves, n, NULL, 0), len);
        char cut[20];
        T_EQ(banyan_game_write(G, &start, moves, n, cut, sizeof cut), len);
        T_EQ((int)strlen(cut), (int)sizeof cut - 1);
        back = start;
        T_EQ(banyan_game_load(G, &back, text), BANYAN_OK);
        T_TRUE(G->hash(&back) == G->hash(&s));
    }
    /* The default: Connect Four's moves in its notation, a line each. */
    const banyan_game *c4 = &banyan_game_connect4;
    unsigned char s[4096];
    banyan_move m[3] = {3, 3, 4};
    char text[64];
    T_TRUE(c4->state_size <= sizeof s);
    T_EQ(c4->setup(s, NULL), BANYAN_OK);
    T_EQ(banyan_game_write(c4, s, m, 3, text, sizeof text), 6);
    T_STR(text, "d\nd\ne\n");
    T_EQ(banyan_game_write(c4, s, m, 3, text, 4), 6);
    T_STR(text, "d\nd");
    T_EQ(banyan_game_write(c4, s, NULL, 1, text, sizeof text), BANYAN_EINVAL);
    T_EQ(banyan_game_write(c4, s, m, -1, text, sizeof text), BANYAN_EINVAL);
}
