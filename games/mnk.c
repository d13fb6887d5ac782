/*
 * mnk.c - m,n,k-games: players take turns to place a stone on an m-by-n
 * board, and the first to get k in a row (across, up or diagonally) wins.
 * Tic-tac-toe is 3,3,3, the default.
 *
 * Each player's stones are a bitboard in which cell (row r, column c) is bit
 * r * (m + 1) + c. The spare column m is always empty, so a line that runs off
 * one edge meets an empty bit instead of wrapping onto the next row. Boards
 * that fit in one 64-bit word find k in a row with a few shifts over the whole
 * board; larger ones (up to 19x19) scan the four lines through the last stone.
 */
#include <stdio.h>
#include <string.h>

#include "banyan_game.h"
#include "bits.h"
#include "point.h"

#define MNK_MAX_SIDE 19                                              /* Largest m and n. */
#define MNK_WORDS    ((MNK_MAX_SIDE * (MNK_MAX_SIDE + 1) + 63) / 64) /* 380 bits: 6 words. */
#define MNK_NOBODY   2 /* winner while nobody has won. */

/* The state. Everything but the stones and the counters is fixed by setup. */
enum { MNK_P_M, MNK_P_N, MNK_P_K, MNK_N_PARAMS }; /* The entries of mnk_params. */

typedef struct mnk {
    uint64_t stones[2][MNK_WORDS]; /* Stones of X (player 0) and O; bit r * stride + c. */
    uint64_t small_board;          /* Every on-board bit when n * stride <= 64, else 0. */
    uint16_t ply;                  /* Stones placed; its parity is the player to move. */
    uint8_t m;                     /* Columns, 1 .. 19. */
    uint8_t n;                     /* Rows, 1 .. 19. */
    uint8_t k;                     /* Stones in a row that win, 1 .. max(m, n). */
    uint8_t stride;                /* m + 1: bits per row, the last one padding. */
    uint8_t winner;                /* 0 or 1 once a player has k in a row, else MNK_NOBODY. */
    uint8_t n_dirs;                /* Directions in which k in a row fits on the board. */
    uint8_t dirs[4];               /* Their bit steps, from 1, stride, stride + 1, stride - 1. */
} mnk;

static inline bool mnk_bit(const uint64_t *b, int i)
{
    return (b[i >> 6] >> (i & 63)) & 1;
}

static inline int mnk_to_move(const void *s)
{
    return ((const mnk *)s)->ply & 1;
}

/* Whether a one-word board b holds k in a row. Runs are found by doubling: x
 * keeps the bits that start a run of len stones along step d, and x & x >> j*d
 * (j <= len) keeps those that start a run of len + j. The directions are
 * merged before the one test, which branches less in rollouts. */
static inline bool mnk_small_won(uint64_t b, int k, const uint8_t *dirs, int n_dirs)
{
    uint64_t any = 0;
    for (int i = 0; i < n_dirs; i++) {
        int d = dirs[i], len = 1;
        uint64_t x = b;
        for (; 2 * len <= k; len *= 2)
            x &= x >> (len * d);
        any |= x & (x >> ((k - len) * d));
    }
    return any != 0;
}

/* Whether the stones b of a multi-word board make k in a row through bit p.
 * The padding column and the bounds on the bit index end every line. */
static bool mnk_big_won(const mnk *t, const uint64_t *b, int p)
{
    int end = t->n * t->stride;
    for (int i = 0; i < t->n_dirs; i++) {
        int d = t->dirs[i];
        int run = 1;
        for (int q = p + d; q < end && mnk_bit(b, q) && run < t->k; q += d)
            run++;
        for (int q = p - d; q >= 0 && mnk_bit(b, q) && run < t->k; q -= d)
            run++;
        if (run >= t->k)
            return true;
    }
    return false;
}

/* Empties the board of t, whose m, n and k are already set, and works out
 * what depends on them. */
static void mnk_reset(mnk *t)
{
    int m = t->m, n = t->n, k = t->k, stride = m + 1;
    memset(t->stones, 0, sizeof t->stones);
    t->ply = 0;
    t->stride = (uint8_t)stride;
    t->winner = MNK_NOBODY;
    t->small_board = 0;
    if (n * stride <= 64)
        for (int r = 0; r < n; r++)
            t->small_board |= (((uint64_t)1 << m) - 1) << (r * stride);
    /* Only directions with room for k stones: this also keeps the shifts of
     * mnk_small_won below 64 bits. */
    t->n_dirs = 0;
    memset(t->dirs, 0, sizeof t->dirs);
    if (k <= m)
        t->dirs[t->n_dirs++] = 1;
    if (k <= n)
        t->dirs[t->n_dirs++] = (uint8_t)stride;
    if (k <= m && k <= n) {
        t->dirs[t->n_dirs++] = (uint8_t)(stride + 1);
        t->dirs[t->n_dirs++] = (uint8_t)(stride - 1);
    }
}

/* Parameters m, n and k (mnk_params) in any order, each at most once or the
 * last one counting. k is checked once all are known, since it depends on
 * m and n. */
static int mnk_setup(void *s, const char *params)
{
    mnk *t = s;
    banyan_value v[MNK_N_PARAMS];
    if (banyan_params_read(banyan_game_tictactoe.params, params, v) != BANYAN_OK)
        return BANYAN_EINVAL;
    long m = v[MNK_P_M].i, n = v[MNK_P_N].i, k = v[MNK_P_K].i;
    if (k > (m > n ? m : n))
        return BANYAN_EINVAL;
    memset(t, 0, sizeof *t); /* Also the padding, so equal positions have equal bytes. */
    t->m = (uint8_t)m;
    t->n = (uint8_t)n;
    t->k = (uint8_t)k;
    mnk_reset(t);
    return BANYAN_OK;
}

static inline bool mnk_is_over(const mnk *t)
{
    return t->winner != MNK_NOBODY || t->ply == t->m * t->n;
}

/* Empty cells in ascending cell index, row by row from a1. */
static int mnk_moves(const void *s, banyan_move *out)
{
    const mnk *t = s;
    int n_moves = 0;
    if (mnk_is_over(t))
        return 0;
    for (int r = 0; r < t->n; r++)
        for (int c = 0; c < t->m; c++) {
            int p = r * t->stride + c;
            if (!mnk_bit(t->stones[0], p) && !mnk_bit(t->stones[1], p))
                out[n_moves++] = (banyan_move)(r * t->m + c);
        }
    return n_moves;
}

/* Places the stone of the player to move on bit p and records a win. The
 * player's k-th stone is the first that can win. */
static inline void mnk_where(mnk *t, int p)
{
    int who = t->ply & 1;
    uint64_t *b = t->stones[who];
    b[p >> 6] |= (uint64_t)1 << (p & 63);
    t->ply++;
    if ((t->ply + 1) / 2 < t->k)
        return;
    if (t->small_board ? mnk_small_won(b[0], t->k, t->dirs, t->n_dirs) : mnk_big_won(t, b, p))
        t->winner = (uint8_t)who;
}

/* Moves are cell indices r * m + c; the bitboards use r * (m + 1) + c. */
static void mnk_play(void *s, banyan_move m)
{
    mnk *t = s;
    int cell = (int)m;
    mnk_where(t, cell + cell / t->m);
}

static bool mnk_outcome(const void *s, double *returns)
{
    const mnk *t = s;
    if (!mnk_is_over(t))
        return false;
    returns[0] = t->winner == 0 ? 1.0 : t->winner == 1 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

/* The rollout for one-word boards: the empty cells are listed once, then
 * drawn without replacement (pick, swap with the last, pop), which is the
 * same distribution as a uniform choice among moves() at every ply. */
static void mnk_rollout_small(mnk *t, banyan_rng *rng)
{
    int ply = t->ply, winner = MNK_NOBODY, k = t->k, n_dirs = t->n_dirs;
    int first_win = 2 * k - 1; /* No win is possible before this ply. */
    /* The two players' stones live in registers as "to move" and "just
     * moved", swapped every ply, rather than in an array indexed by colour. */
    uint64_t mover = t->stones[ply & 1][0], other = t->stones[~ply & 1][0];
    uint64_t empty = t->small_board & ~(mover | other);
    uint8_t cells[64], dirs[4];
    uint32_t n_empty = 0;

    memcpy(dirs, t->dirs, sizeof dirs);
    /* Branch-free listing: every bit is written, only empty ones are kept. */
    for (int p = 0, end = t->n * t->stride; p < end; p++) {
        cells[n_empty] = (uint8_t)p;
        n_empty += (uint32_t)((empty >> p) & 1);
    }
    while (n_empty) {
        uint32_t i = banyan_rng_below(rng, n_empty);
        uint64_t placed = mover | (uint64_t)1 << cells[i];
        cells[i] = cells[--n_empty];
        mover = other;
        other = placed;
        if (++ply >= first_win && mnk_small_won(other, k, dirs, n_dirs)) {
            winner = (ply - 1) & 1;
            break;
        }
    }
    t->stones[ply & 1][0] = mover;
    t->stones[~ply & 1][0] = other;
    t->ply = (uint16_t)ply;
    t->winner = (uint8_t)winner;
}

/* The rollout for larger boards, by the same draw without replacement. */
static void mnk_rollout_big(mnk *t, banyan_rng *rng)
{
    uint16_t cells[MNK_MAX_SIDE * MNK_MAX_SIDE];
    uint32_t n_empty = 0;
    int first_win = 2 * t->k - 1;

    for (int r = 0; r < t->n; r++)
        for (int c = 0; c < t->m; c++) {
            int p = r * t->stride + c;
            cells[n_empty] = (uint16_t)p;
            n_empty += !mnk_bit(t->stones[0], p) && !mnk_bit(t->stones[1], p);
        }
    while (n_empty) {
        uint32_t i = banyan_rng_below(rng, n_empty);
        int p = cells[i], who = t->ply & 1;
        t->stones[who][p >> 6] |= (uint64_t)1 << (p & 63);
        cells[i] = cells[--n_empty];
        if (++t->ply >= first_win && mnk_big_won(t, t->stones[who], p)) {
            t->winner = (uint8_t)who;
            break;
        }
    }
}

static void mnk_rollout(void *s, banyan_rng *rng)
{
    mnk *t = s;
    if (mnk_is_over(t))
        return;
    if (t->small_board)
        mnk_rollout_small(t, rng);
    else
        mnk_rollout_big(t, rng);
}

static int mnk_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    const mnk *t = s;
    return point_format(m, t->m, t->n, buf, len);
}

static int mnk_parse_move(const void *s, const char *str, banyan_move *out)
{
    const mnk *t = s;
    return point_parse_move(str, t->m, t->n, out);
}

/* A move list such as "b2 a1 c3" or "b2,a1,c3", played on a copy from the
 * start position, so that *s is untouched by an error. Within the list a
 * space ends a move, so "a 1" is two malformed moves there. */
static int mnk_load(void *s, const char *text)
{
    mnk t;
    const char *p = text;
    int cell, rc;

    if (!text)
        return BANYAN_EINVAL;
    memcpy(&t, s, sizeof t); /* Bytewise, padding too, so equal positions stay equal bytes. */
    mnk_reset(&t);
    while ((rc = point_next(&p, t.m, t.n, &cell)) == 1) {
        int bit = cell + cell / t.m;
        if (mnk_is_over(&t) || mnk_bit(t.stones[0], bit) || mnk_bit(t.stones[1], bit))
            return BANYAN_EILLEGAL;
        mnk_where(&t, bit);
    }
    if (rc < 0)
        return rc;
    memcpy(s, &t, sizeof t);
    return BANYAN_OK;
}

/* Mixes the words the board uses; the rest of the state follows from them
 * (ply and winner) or is fixed by the parameters, which are mixed in too. */
static uint64_t mnk_hash(const void *s)
{
    const mnk *t = s;
    int n_words = (t->n * t->stride + 63) / 64;
    uint64_t h = banyan_mix64((uint64_t)t->m | (uint64_t)t->n << 8 | (uint64_t)t->k << 16);
    for (int i = 0; i < n_words; i++) {
        h = banyan_mix64(h ^ t->stones[0][i]);
        h = banyan_mix64(h ^ t->stones[1][i] ^ 0x9e3779b97f4a7c15ULL);
    }
    return h;
}

/* Whether the stones b hold k in a row anywhere, by a scan from every stone:
 * slow and independent of the fast paths, for is_valid. */
static bool mnk_has_line(const mnk *t, const uint64_t *b)
{
    for (int p = 0; p < t->n * t->stride; p++)
        if (mnk_bit(b, p) && mnk_big_won(t, b, p))
            return true;
    return false;
}

/* Parameters in range, stones only on the board and never on one cell
 * twice, alternating counts, and a winner exactly when the last mover has k
 * in a row (the loser never has a line of their own). */
static bool mnk_is_valid(const void *s)
{
    const mnk *t = s;
    int count[2] = {0, 0};
    if (t->m < 1 || t->m > MNK_MAX_SIDE || t->n < 1 || t->n > MNK_MAX_SIDE || t->k < 1 ||
        t->k > (t->m > t->n ? t->m : t->n) || t->stride != t->m + 1)
        return false;
    for (int i = 0; i < MNK_WORDS; i++) {
        if (t->stones[0][i] & t->stones[1][i])
            return false;
        for (int who = 0; who < 2; who++)
            count[who] += bits_count(t->stones[who][i]);
    }
    for (int who = 0; who < 2; who++) {
        int on_board = 0;
        for (int r = 0; r < t->n; r++)
            for (int c = 0; c < t->m; c++)
                on_board += mnk_bit(t->stones[who], r * t->stride + c);
        if (on_board != count[who])
            return false;
    }
    if (count[0] != count[1] && count[0] != count[1] + 1)
        return false;
    if (t->ply != count[0] + count[1])
        return false;
    bool line[2] = {mnk_has_line(t, t->stones[0]), mnk_has_line(t, t->stones[1])};
    if (t->winner == MNK_NOBODY)
        return !line[0] && !line[1];
    int mover = (t->ply - 1) & 1;
    return t->ply > 0 && t->winner == mover && line[mover] && !line[!mover];
}

/* ---- The description ---- */

static const banyan_param mnk_params[] = {
    {"m", BANYAN_PARAM_INT, 1, MNK_MAX_SIDE, NULL, "3", BANYAN_ROLE_WIDTH, "columns", NULL},
    {"n", BANYAN_PARAM_INT, 1, MNK_MAX_SIDE, NULL, "3", BANYAN_ROLE_HEIGHT, "rows", NULL},
    {"k", BANYAN_PARAM_INT, 1, MNK_MAX_SIDE, NULL, "3", 0,
     "stones in a row that win, at most the larger side", NULL},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};
_Static_assert(sizeof mnk_params / sizeof mnk_params[0] == MNK_N_PARAMS + 1,
               "one value a parameter");

/* Append only: any change to this list changes the bench signature. */
const banyan_bench games_bench_tictactoe[] = {
    {"", "", 20000, 4000000},           {"", "b2 a1", 20000, 0}, {"m=4 n=4 k=3", "", 20000, 0},
    {"m=7 n=6 k=4", "d1 d2", 20000, 0}, {NULL, NULL, 0, 0},
};

static void mnk_board_size(const void *s, int *width, int *height)
{
    const mnk *t = s;
    *width = t->m;
    *height = t->n;
}

/* Move r * m + c is column c of row r, rows counted from the bottom. */
static int mnk_move_place(const void *s, banyan_move m, int *x, int *y)
{
    const mnk *t = s;
    return point_place(m, t->m, t->n, x, y);
}

static int mnk_place_to_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    const mnk *t = s;
    return point_place_move(kind, x, y, t->m, t->n, out);
}

static int mnk_piece(const void *s, int x, int y)
{
    const mnk *t = s;
    banyan_move m;
    if (point_place_move(BANYAN_PLACE_CELL, x, y, t->m, t->n, &m) != BANYAN_OK)
        return -1;
    int i = (int)(m + m / t->m); /* The bit of cell m. */
    return mnk_bit(t->stones[0], i) ? 0 : mnk_bit(t->stones[1], i) ? 1 : -1;
}

/* The k or more in a row of the winner. */
static int mnk_win_line(const void *s, int *x, int *y, int max)
{
    const mnk *t = s;
    if (t->winner == MNK_NOBODY)
        return 0;
    return point_win_line(s, mnk_piece, t->m, t->n, t->winner, t->k, false, x, y, max);
}

/* The only illegal move on the board of a game that goes on: an occupied
 * cell. */
static int mnk_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    const mnk *t = s;
    return m < (banyan_move)(t->m * t->n) ? snprintf(buf, len, "is occupied") : 0;
}

static const banyan_notation tictactoe_notation = {
    BANYAN_NOTATION_INIT,
    .format_move = mnk_format_move,
    .parse_move = mnk_parse_move,
    .load = mnk_load,
    .print = NULL, /* The library draws the board from piece(). */
};

static const banyan_board tictactoe_board = {
    BANYAN_BOARD_INIT,
    .coords = BANYAN_COORDS_POINT | BANYAN_COORDS_GTP | BANYAN_COORDS_XY | BANYAN_COORDS_SGF,
    .board_size = mnk_board_size,
    .place = mnk_move_place,
    .place_move = mnk_place_to_move,
    .piece = mnk_piece,
    .win_line = mnk_win_line,
};

const banyan_game banyan_game_tictactoe = {
    BANYAN_GAME_INIT,
    .name = "tictactoe",
    .state_size = sizeof(mnk),
    .n_players = 2,
    .setup = mnk_setup,
    .moves = mnk_moves,
    .play = mnk_play,
    .outcome = mnk_outcome,
    .to_move = mnk_to_move,
    .rollout = mnk_rollout,
    .hash = mnk_hash,
    .is_valid = mnk_is_valid,
    .title = "Tic-tac-toe (m,n,k-games)",
    .params = mnk_params,
    .notation = &tictactoe_notation,
    .explain = mnk_explain,
    .board = &tictactoe_board,
};
