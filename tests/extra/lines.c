/*
 * lines.c - a game that lives only in the tests: four in a row on a 5x5
 * board, where a player may also pass; two passes in a row, or a full
 * board, end the game in a draw. It exists to show that a game is one file
 * plus one registry line (tests/extra/registry.c): it names no front-end
 * and no front-end names it, yet GTP, the referee and game records play it
 * from its description alone. It brings no notation of its own, so the
 * library's defaults (decimal move codes, a move list as a position, a
 * diagram drawn from piece()) are exercised too.
 *
 * Moves: 0 .. 24 are the cells, row by row from the top-left; 25 passes.
 */
#include <string.h>

#include "banyan_game.h"

#define LINES_SIDE  5
#define LINES_CELLS (LINES_SIDE * LINES_SIDE)
#define LINES_PASS  LINES_CELLS
#define LINES_RUN   4

typedef struct lines {
    uint32_t stones[2]; /* Bit y * 5 + x: the stones of each player. */
    uint8_t ply;        /* Moves played, passes included: its parity is the mover. */
    uint8_t passes;     /* Passes in a row. */
    int8_t winner;      /* 0 or 1, or -1 while nobody has four in a row. */
} lines;

static int lines_setup(void *s, const char *params)
{
    const char *cur = params;
    char k[8], v[8];
    if (banyan_params_next(&cur, k, sizeof k, v, sizeof v) != 0)
        return BANYAN_EINVAL; /* No parameters. */
    memset(s, 0, sizeof(lines));
    ((lines *)s)->winner = -1;
    return BANYAN_OK;
}

static bool lines_over(const lines *t)
{
    return t->winner >= 0 || t->passes >= 2 ||
           (t->stones[0] | t->stones[1]) == (1u << LINES_CELLS) - 1;
}

static int lines_moves(const void *s, banyan_move *out)
{
    const lines *t = s;
    int n = 0;
    if (lines_over(t))
        return 0;
    for (int c = 0; c < LINES_CELLS; c++)
        if (!((t->stones[0] | t->stones[1]) >> c & 1))
            out[n++] = (banyan_move)c;
    out[n++] = LINES_PASS;
    return n;
}

/* Whether the stones b hold four in a row through cell c. */
static bool lines_won(uint32_t b, int c)
{
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int sign = -1; sign <= 1; sign += 2)
            for (int k = 1; k < LINES_RUN; k++) {
                int x = c % LINES_SIDE + sign * k * dirs[d][0];
                int y = c / LINES_SIDE + sign * k * dirs[d][1];
                if (x < 0 || y < 0 || x >= LINES_SIDE || y >= LINES_SIDE ||
                    !(b >> (y * LINES_SIDE + x) & 1))
                    break;
                run++;
            }
        if (run >= LINES_RUN)
            return true;
    }
    return false;
}

static void lines_play(void *s, banyan_move m)
{
    lines *t = s;
    int p = t->ply & 1;
    t->ply++;
    if (m == LINES_PASS) {
        t->passes++;
        return;
    }
    t->passes = 0;
    t->stones[p] |= 1u << m;
    if (lines_won(t->stones[p], (int)m))
        t->winner = (int8_t)p;
}

static bool lines_outcome(const void *s, double *returns)
{
    const lines *t = s;
    if (!lines_over(t))
        return false;
    returns[0] = t->winner < 0 ? 0.5 : t->winner == 0;
    returns[1] = 1 - returns[0];
    return true;
}

static int lines_to_move(const void *s)
{
    return ((const lines *)s)->ply & 1;
}

static void lines_board_size(const void *s, int *width, int *height)
{
    (void)s;
    *width = *height = LINES_SIDE;
}

static int lines_place(const void *s, banyan_move m, int *x, int *y)
{
    (void)s;
    if (m == LINES_PASS)
        return BANYAN_PLACE_PASS;
    if (m > LINES_PASS)
        return BANYAN_PLACE_NONE;
    *x = (int)m % LINES_SIDE;
    *y = (int)m / LINES_SIDE;
    return BANYAN_PLACE_CELL;
}

static int lines_place_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    (void)s;
    if (kind == BANYAN_PLACE_PASS) {
        *out = LINES_PASS;
        return BANYAN_OK;
    }
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || y < 0 || x >= LINES_SIDE || y >= LINES_SIDE)
        return BANYAN_ERANGE;
    *out = (banyan_move)(y * LINES_SIDE + x);
    return BANYAN_OK;
}

static int lines_piece(const void *s, int x, int y)
{
    const lines *t = s;
    if (x < 0 || y < 0 || x >= LINES_SIDE || y >= LINES_SIDE)
        return -1;
    int c = y * LINES_SIDE + x;
    return t->stones[0] >> c & 1 ? 0 : t->stones[1] >> c & 1 ? 1 : -1;
}

const banyan_bench games_bench_lines[] = {
    {"", "", 2000, 0},
    {NULL, NULL, 0, 0},
};

static const banyan_board lines_board = {
    BANYAN_BOARD_INIT,
    .coords = BANYAN_COORDS_POINT | BANYAN_COORDS_GTP | BANYAN_COORDS_XY | BANYAN_COORDS_SGF,
    .board_size = lines_board_size,
    .place = lines_place,
    .place_move = lines_place_move,
    .piece = lines_piece,
};

const banyan_game test_game_lines = {
    BANYAN_GAME_INIT,
    .name = "lines",
    .state_size = sizeof(lines),
    .n_players = 2,
    .setup = lines_setup,
    .moves = lines_moves,
    .play = lines_play,
    .outcome = lines_outcome,
    .to_move = lines_to_move,
    .title = "Four in a row on 5x5, with passes (a test game)",
    .board = &lines_board,
};
