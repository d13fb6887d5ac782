/*
 * rules.c - Othello (Reversi) on the 8x8 board: setup and its parameters,
 * moves, rollouts and priors, the notation and the position forms, and the
 * game's table, which takes its exact endgame solver from solver.c and its
 * evaluation at the leaves from eval.c. The board and the moves are
 * described in othello.h.
 */
#include "othello.h"

#include <stdio.h>
#include <string.h>

#include "point.h"

/* ---- Bit helpers ---- */

/* A uniformly chosen set bit of x (nonzero), as a one-bit word. */
static inline uint64_t oth_random_bit(uint64_t x, banyan_rng *rng)
{
    uint32_t r = banyan_rng_below(rng, (uint32_t)bits_count(x));
    for (; r; r--)
        x &= x - 1;
    return x & (0 - x);
}

/* ---- The game ---- */

static void oth_start(oth *t)
{
    t->discs[0] = (1ULL << 28) | (1ULL << 35); /* e4 and d5: Black. */
    t->discs[1] = (1ULL << 27) | (1ULL << 36); /* d4 and e5: White. */
    t->turn = 0;
}

/* Three parameters, rollout, priors and solver (oth_params), whose
 * choices are in the order of their enums. */
static int oth_setup(void *s, const char *params)
{
    oth *t = s;
    banyan_value v[OTH_N_PARAMS];
    if (banyan_params_read(banyan_game_othello.params, params, v) != BANYAN_OK)
        return BANYAN_EINVAL;
    memset(t, 0, sizeof *t);
    oth_start(t);
    t->rollout = (uint8_t)v[OTH_P_ROLLOUT].choice;
    t->priors = (uint8_t)v[OTH_P_PRIORS].choice;
    t->solver = (uint8_t)v[OTH_P_SOLVER].choice;
    return BANYAN_OK;
}

/* Disc moves in ascending square order; a pass alone when the player to
 * move has none and the opponent has some; nothing when neither has. */
static int oth_moves(const void *s, banyan_move *out)
{
    const oth *t = s;
    uint64_t p = t->discs[t->turn], o = t->discs[!t->turn];
    uint64_t mob = oth_mobility(p, o);
    int n = 0;
    if (!mob) {
        if (!oth_mobility(o, p))
            return 0;
        out[0] = OTH_PASS;
        return 1;
    }
    for (; mob; mob &= mob - 1)
        out[n++] = (banyan_move)bits_low(mob);
    return n;
}

/* The solver's flips: each case oth_flips_at with its square constant. The
 * rules below call oth_flips_at itself, inline, where a mispredicted jump
 * through the switch would cost more than the masks it saves (raw rollouts,
 * `banyan bench --game othello`). */
uint64_t oth_flips(uint64_t p, uint64_t o, int sq)
{
#define OTH_FLIPS_CASE(s)                                                                          \
    case s:                                                                                        \
        return oth_flips_at(p, o, s);
    switch (sq) {
        OTH_FLIPS_CASE(0)
        OTH_FLIPS_CASE(1)
        OTH_FLIPS_CASE(2)
        OTH_FLIPS_CASE(3)
        OTH_FLIPS_CASE(4)
        OTH_FLIPS_CASE(5)
        OTH_FLIPS_CASE(6)
        OTH_FLIPS_CASE(7)
        OTH_FLIPS_CASE(8)
        OTH_FLIPS_CASE(9)
        OTH_FLIPS_CASE(10)
        OTH_FLIPS_CASE(11)
        OTH_FLIPS_CASE(12)
        OTH_FLIPS_CASE(13)
        OTH_FLIPS_CASE(14)
        OTH_FLIPS_CASE(15)
        OTH_FLIPS_CASE(16)
        OTH_FLIPS_CASE(17)
        OTH_FLIPS_CASE(18)
        OTH_FLIPS_CASE(19)
        OTH_FLIPS_CASE(20)
        OTH_FLIPS_CASE(21)
        OTH_FLIPS_CASE(22)
        OTH_FLIPS_CASE(23)
        OTH_FLIPS_CASE(24)
        OTH_FLIPS_CASE(25)
        OTH_FLIPS_CASE(26)
        OTH_FLIPS_CASE(27)
        OTH_FLIPS_CASE(28)
        OTH_FLIPS_CASE(29)
        OTH_FLIPS_CASE(30)
        OTH_FLIPS_CASE(31)
        OTH_FLIPS_CASE(32)
        OTH_FLIPS_CASE(33)
        OTH_FLIPS_CASE(34)
        OTH_FLIPS_CASE(35)
        OTH_FLIPS_CASE(36)
        OTH_FLIPS_CASE(37)
        OTH_FLIPS_CASE(38)
        OTH_FLIPS_CASE(39)
        OTH_FLIPS_CASE(40)
        OTH_FLIPS_CASE(41)
        OTH_FLIPS_CASE(42)
        OTH_FLIPS_CASE(43)
        OTH_FLIPS_CASE(44)
        OTH_FLIPS_CASE(45)
        OTH_FLIPS_CASE(46)
        OTH_FLIPS_CASE(47)
        OTH_FLIPS_CASE(48)
        OTH_FLIPS_CASE(49)
        OTH_FLIPS_CASE(50)
        OTH_FLIPS_CASE(51)
        OTH_FLIPS_CASE(52)
        OTH_FLIPS_CASE(53)
        OTH_FLIPS_CASE(54)
        OTH_FLIPS_CASE(55)
        OTH_FLIPS_CASE(56)
        OTH_FLIPS_CASE(57)
        OTH_FLIPS_CASE(58)
        OTH_FLIPS_CASE(59)
        OTH_FLIPS_CASE(60)
        OTH_FLIPS_CASE(61)
        OTH_FLIPS_CASE(62)
        OTH_FLIPS_CASE(63)
    }
#undef OTH_FLIPS_CASE
    return 0;
}

/* oth_last_count from constant expressions: the run above position x
 * closed by the mover's disc at x + 1 + k turns k over, as does the run
 * below closed at x - 1 - k; a run that reaches the end turns none. */
#define OTH_MINE(b, i) ((i) >= 0 && (i) <= 7 && ((b) >> ((i)&7) & 1))
#define OTH_RUN(b, x, d)                                                                           \
    (OTH_MINE(b, (x) + (d))       ? 0                                                              \
     : OTH_MINE(b, (x) + 2 * (d)) ? 1                                                              \
     : OTH_MINE(b, (x) + 3 * (d)) ? 2                                                              \
     : OTH_MINE(b, (x) + 4 * (d)) ? 3                                                              \
     : OTH_MINE(b, (x) + 5 * (d)) ? 4                                                              \
     : OTH_MINE(b, (x) + 6 * (d)) ? 5                                                              \
     : OTH_MINE(b, (x) + 7 * (d)) ? 6                                                              \
                                  : 0)
#define OTH_COUNT(x, b) (OTH_RUN(b, x, 1) + OTH_RUN(b, x, -1))
#define OTH_COUNT4(x, b)                                                                           \
    OTH_COUNT(x, b), OTH_COUNT(x, b + 1), OTH_COUNT(x, b + 2), OTH_COUNT(x, b + 3)
#define OTH_COUNT16(x, b)                                                                          \
    OTH_COUNT4(x, b), OTH_COUNT4(x, b + 4), OTH_COUNT4(x, b + 8), OTH_COUNT4(x, b + 12)
#define OTH_COUNT64(x, b)                                                                          \
    OTH_COUNT16(x, b), OTH_COUNT16(x, b + 16), OTH_COUNT16(x, b + 32), OTH_COUNT16(x, b + 48)
#define OTH_COUNT256(x)                                                                            \
    {                                                                                              \
        OTH_COUNT64(x, 0), OTH_COUNT64(x, 64), OTH_COUNT64(x, 128), OTH_COUNT64(x, 192)            \
    }

const uint8_t oth_last_count[8][256] = {OTH_COUNT256(0), OTH_COUNT256(1), OTH_COUNT256(2),
                                        OTH_COUNT256(3), OTH_COUNT256(4), OTH_COUNT256(5),
                                        OTH_COUNT256(6), OTH_COUNT256(7)};

static void oth_play(void *s, banyan_move m)
{
    oth *t = s;
    int me = t->turn;
    if (m < OTH_CELLS) {
        uint64_t flips = oth_flips_at(t->discs[me], t->discs[!me], (int)m);
        t->discs[me] |= flips | ((uint64_t)1 << m);
        t->discs[!me] &= ~flips;
    }
    t->turn = (uint8_t)!me;
}

static bool oth_is_over(const oth *t)
{
    return !oth_mobility(t->discs[0], t->discs[1]) && !oth_mobility(t->discs[1], t->discs[0]);
}

static bool oth_outcome(const void *s, double *returns)
{
    const oth *t = s;
    if (!oth_is_over(t))
        return false;
    int d = bits_count(t->discs[0]) - bits_count(t->discs[1]);
    returns[0] = d > 0 ? 1.0 : d < 0 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

static int oth_to_move(const void *s)
{
    return ((const oth *)s)->turn;
}

/* Disc difference for Black: as it stands while the game goes on, with the
 * empty squares to the winner once it is over. */
static double oth_score(const void *s)
{
    const oth *t = s;
    if (oth_is_over(t))
        return oth_final(t->discs[0], t->discs[1]);
    return bits_count(t->discs[0]) - bits_count(t->discs[1]);
}

/* Plays to the end with the mover's and the other's discs in registers.
 * The uniform policy draws uniformly among the legal moves, as the default
 * rollout through moves() would. The corners policy takes a corner when it
 * can, and otherwise avoids the X- and C-squares beside empty corners when
 * another move exists; the choice within each class is uniform. */
static void oth_rollout(void *s, banyan_rng *rng)
{
    oth *t = s;
    uint64_t p = t->discs[t->turn], o = t->discs[!t->turn];
    int turn = t->turn, passes = 0;
    bool corners = t->rollout == OTH_RO_CORNERS;
    while (passes < 2) {
        uint64_t mob = oth_mobility(p, o), pick;
        if (!mob) {
            passes++;
        } else {
            passes = 0;
            if (corners) {
                uint64_t good = mob & OTH_CORNERS;
                if (!good)
                    good = mob & ~oth_danger(~(p | o));
                if (good)
                    mob = good;
            }
            pick = oth_random_bit(mob, rng);
            uint64_t flips = oth_flips_at(p, o, bits_low(pick));
            p |= flips | pick;
            o &= ~flips;
        }
        uint64_t x = p;
        p = o;
        o = x;
        turn ^= 1;
    }
    /* Two passes in a row: the game is over with the same player to move
     * as before them; the state holds no pass count, so the turn is where
     * the two passes left it. */
    t->discs[turn] = p;
    t->discs[!turn] = o;
    t->turn = (uint8_t)turn;
}

/* Mobility priors: a move is worth more the fewer replies it leaves the
 * opponent, a corner four times as much, an X-square beside an empty corner
 * a fifth and a C-square there a half. */
static void oth_priors(const void *s, const banyan_move *moves, int n, float *out)
{
    const oth *t = s;
    uint64_t p = t->discs[t->turn], o = t->discs[!t->turn];
    uint64_t empty = ~(p | o), danger_x = 0, danger_c = 0;
    float sum = 0;
    for (int c = 0; c < 4; c++)
        if (empty & oth_corner_bit[c]) {
            danger_x |= oth_x_square[c];
            danger_c |= oth_c_squares[c];
        }
    for (int i = 0; i < n; i++) {
        out[i] = 1.0f;
        if (t->priors == OTH_PR_OFF || moves[i] >= OTH_CELLS)
            continue;
        uint64_t bit = (uint64_t)1 << moves[i];
        uint64_t flips = oth_flips_at(p, o, (int)moves[i]);
        int replies = bits_count(oth_mobility(o & ~flips, p | flips | bit));
        float w = bit & OTH_CORNERS ? 4.0f : bit & danger_x ? 0.2f : bit & danger_c ? 0.5f : 1.0f;
        out[i] = w / (float)(2 + replies);
    }
    for (int i = 0; i < n; i++)
        sum += out[i];
    for (int i = 0; i < n; i++)
        out[i] /= sum;
}

/* ---- Notation ---- */

static inline bool oth_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether text starts with "pass" in any case; *end is set past it. */
static bool oth_is_pass(const char *text, const char **end)
{
    static const char word[] = "pass";
    for (int i = 0; i < 4; i++)
        if ((text[i] | 0x20) != word[i])
            return false;
    *end = text + 4;
    return true;
}

static int oth_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    (void)s;
    if (m == OTH_PASS)
        return snprintf(buf, len, "pass");
    /* Move r * 8 + c is column c of row r + 1, so the "a1" form fits. */
    return point_format(m, OTH_SIDE, OTH_SIDE, buf, len);
}

static int oth_parse_move(const void *s, const char *str, banyan_move *out)
{
    const char *p = str, *end;
    (void)s;
    if (!p)
        return BANYAN_EINVAL;
    while (oth_is_space(*p))
        p++;
    if (oth_is_pass(p, &end)) {
        while (oth_is_space(*end))
            end++;
        if (*end)
            return BANYAN_EINVAL;
        *out = OTH_PASS;
        return BANYAN_OK;
    }
    return point_parse_move(str, OTH_SIDE, OTH_SIDE, out);
}

/* Reads one move of a move list at *p ("f5", "pass"), ended by a separator,
 * the end, or the letter of the next move ("f5d6c3"). Returns 1 with *m,
 * 0 at the end of the text, or a negative code. */
static int oth_next_move(const char **p, banyan_move *m)
{
    const char *q = *p;
    while (oth_is_space(*q) || *q == ',')
        q++;
    if (!*q)
        return 0;
    if (oth_is_pass(q, &q)) {
        *m = OTH_PASS;
    } else {
        int col = (*q | 0x20) - 'a', row = 0;
        if (col < 0 || col >= 26)
            return BANYAN_EINVAL;
        q++;
        if (*q < '0' || *q > '9' || (q[0] == '0' && q[1] >= '0' && q[1] <= '9'))
            return BANYAN_EINVAL;
        for (; *q >= '0' && *q <= '9'; q++)
            row = row > 100 ? row : row * 10 + (*q - '0');
        if (col >= OTH_SIDE || row < 1 || row > OTH_SIDE)
            return BANYAN_ERANGE;
        *m = (banyan_move)((row - 1) * OTH_SIDE + col);
    }
    if (*q && !oth_is_space(*q) && *q != ',' && !((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z'))
        return BANYAN_EINVAL;
    *p = q;
    return 1;
}

static bool oth_legal(const oth *t, banyan_move m)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = oth_moves(t, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* The 64-character form of the data files: X, O and - (or .) for a1 .. h8
 * row by row, then X or O to move, then optionally ';' and anything.
 * Returns BANYAN_OK, BANYAN_EINVAL, or 1 when text is not in that form. */
static int oth_load_board(oth *t, const char *text)
{
    const char *p = text;
    uint64_t d[2] = {0, 0};
    while (oth_is_space(*p))
        p++;
    for (int i = 0; i < OTH_CELLS; i++, p++) {
        char c = (char)(*p | 0x20);
        if (c == 'x')
            d[0] |= (uint64_t)1 << i;
        else if (c == 'o')
            d[1] |= (uint64_t)1 << i;
        else if (*p != '-' && *p != '.')
            return i < 2 ? 1 : BANYAN_EINVAL; /* "f5": a move list. */
    }
    while (oth_is_space(*p))
        p++;
    char side = (char)(*p | 0x20);
    if (side != 'x' && side != 'o')
        return BANYAN_EINVAL;
    p++;
    while (oth_is_space(*p))
        p++;
    if (*p && *p != ';')
        return BANYAN_EINVAL;
    if (((d[0] | d[1]) & OTH_CENTRE) != OTH_CENTRE)
        return BANYAN_EINVAL; /* The four centre squares are never empty. */
    t->discs[0] = d[0];
    t->discs[1] = d[1];
    t->turn = side == 'o';
    return BANYAN_OK;
}

/* A move list from the start ("f5 d6 c3", "f5,d6", "f5d6c3", passes where
 * legal) or the 64-character form, on a copy so that *s is untouched by an
 * error; the parameters of *s are kept. */
static int oth_load(void *s, const char *text)
{
    oth t;
    banyan_move m;
    int rc;
    if (!text)
        return BANYAN_EINVAL;
    memcpy(&t, s, sizeof t);
    oth_start(&t);
    rc = oth_load_board(&t, text);
    if (rc == 1) {
        const char *p = text;
        oth_start(&t);
        while ((rc = oth_next_move(&p, &m)) == 1) {
            if (!oth_legal(&t, m))
                return BANYAN_EILLEGAL;
            oth_play(&t, m);
        }
    }
    if (rc != BANYAN_OK)
        return rc;
    memcpy(s, &t, sizeof t);
    return BANYAN_OK;
}

/* Row 1 at the top, as Othello counts, X and O for the players, the last
 * move in parentheses:
 *
 *     1 . . . . . . . .
 *     ...
 *     4 . . . O(X). . .
 *     ...
 *       a b c d e f g h
 */
static int oth_print(const void *s, banyan_move last, char *buf, size_t len)
{
    const oth *t = s;
    char text[OTH_SIDE * 24 + 24], *q = text;
    for (int r = 0; r < OTH_SIDE; r++) {
        q += snprintf(q, 4, "%2d", r + 1);
        for (int c = 0; c <= OTH_SIDE; c++) {
            int sq = r * OTH_SIDE + c;
            bool here = last < OTH_CELLS && (int)last == sq && c < OTH_SIDE;
            bool after = last < OTH_CELLS && c > 0 && (int)last == sq - 1;
            if (here || after || c < OTH_SIDE)
                *q++ = here ? '(' : after ? ')' : ' ';
            if (c == OTH_SIDE)
                break;
            uint64_t bit = (uint64_t)1 << sq;
            *q++ = t->discs[0] & bit ? 'X' : t->discs[1] & bit ? 'O' : '.';
        }
        *q++ = '\n';
    }
    *q++ = ' ';
    *q++ = ' ';
    for (int c = 0; c < OTH_SIDE; c++) {
        *q++ = ' ';
        *q++ = (char)('a' + c);
    }
    *q++ = '\n';
    *q = 0;
    return snprintf(buf, len, "%s", text);
}

/* For a fixed discs[1] the map from discs[0] is a bijection and vice
 * versa. The side to move enters after one more mix: added to the bare
 * xor, it made positions whose discs[0] differ in a few low bits collide
 * with the other side to move (h + 1 against h with turn 0 and 1). */
static uint64_t oth_hash(const void *s)
{
    const oth *t = s;
    uint64_t h = banyan_mix64(banyan_mix64(t->discs[1] + 0x9e3779b97f4a7c15ULL) ^ t->discs[0]);
    return banyan_mix64(h + t->turn);
}

/* Discs on distinct squares, the centre occupied, a player to move, the
 * parameters in range and the padding zero. */
static bool oth_is_valid(const void *s)
{
    const oth *t = s;
    if (t->discs[0] & t->discs[1])
        return false;
    if (((t->discs[0] | t->discs[1]) & OTH_CENTRE) != OTH_CENTRE)
        return false;
    if (t->turn > 1 || t->rollout > OTH_RO_UNIFORM || t->priors > OTH_PR_OFF ||
        t->solver > OTH_SOLVER_OFF)
        return false;
    for (size_t i = 0; i < sizeof t->pad; i++)
        if (t->pad[i])
            return false;
    return true;
}

/* ---- The description ---- */

static const banyan_param oth_params[] = {
    {"rollout", BANYAN_PARAM_CHOICE, 0, 0, "corners|uniform", "corners", 0,
     "rollout policy: corners first and no X- or C-square beside an empty corner, or uniform",
     "uniform"},
    {"priors", BANYAN_PARAM_CHOICE, 0, 0, "mobility|off", "mobility", 0,
     "priors from the opponent's replies and the square, or uniform", "off"},
    {"solver", BANYAN_PARAM_CHOICE, 0, 0, "on|off", "on", 0,
     "the exact endgame solver the search may call, or none", "off"},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};
_Static_assert(sizeof oth_params / sizeof oth_params[0] == OTH_N_PARAMS + 1,
               "one value a parameter");

/* Append only: any change to this list changes the bench signature. */
const banyan_bench games_bench_othello[] = {
    {"", "", 10000, 100000},
    {"rollout=uniform", "", 0, 100000},
    {"", "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7", 10000, 0},
    {NULL, NULL, 0, 0},
};

static void oth_board_size(const void *s, int *width, int *height)
{
    (void)s;
    *width = OTH_SIDE;
    *height = OTH_SIDE;
}

/* One extra plane for a network: the squares of the mover's legal disc
 * moves (a1 = bit 0 is the top left cell, as place() says), which the
 * pieces show a network only through many flanking lines. */
static int oth_planes(const void *s, float *out)
{
    const oth *t = s;
    if (out) {
        uint64_t mob = oth_mobility(t->discs[t->turn], t->discs[!t->turn]);
        for (int i = 0; i < OTH_CELLS; i++)
            out[i] = (float)((mob >> i) & 1);
    }
    return 1;
}

static int oth_place(const void *s, banyan_move m, int *x, int *y)
{
    (void)s;
    if (m == OTH_PASS)
        return BANYAN_PLACE_PASS;
    if (m >= OTH_CELLS)
        return BANYAN_PLACE_NONE;
    *x = (int)m % OTH_SIDE;
    *y = (int)m / OTH_SIDE;
    return BANYAN_PLACE_CELL;
}

static int oth_place_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    (void)s;
    if (kind == BANYAN_PLACE_PASS) {
        *out = OTH_PASS;
        return BANYAN_OK;
    }
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || y < 0 || x >= OTH_SIDE || y >= OTH_SIDE)
        return BANYAN_ERANGE;
    *out = (banyan_move)(y * OTH_SIDE + x);
    return BANYAN_OK;
}

static int oth_piece(const void *s, int x, int y)
{
    const oth *t = s;
    if (x < 0 || y < 0 || x >= OTH_SIDE || y >= OTH_SIDE)
        return -1;
    uint64_t bit = (uint64_t)1 << (y * OTH_SIDE + x);
    return t->discs[0] & bit ? 0 : t->discs[1] & bit ? 1 : -1;
}

static int oth_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    const oth *t = s;
    uint64_t p = t->discs[t->turn], o = t->discs[!t->turn];
    if (m == OTH_PASS)
        return oth_mobility(p, o) ? snprintf(buf, len, "is not allowed: you have moves") : 0;
    if (m >= OTH_CELLS)
        return 0;
    if ((p | o) >> m & 1)
        return snprintf(buf, len, "is occupied");
    if (!oth_flips(p, o, (int)m))
        return snprintf(buf, len, "flips nothing");
    return 0;
}

static const banyan_tactics othello_tactics = {
    BANYAN_TACTICS_INIT,
    .solve = oth_solve,
    .mem_size = OTH_SOLVER_SIZE,
    /* On a node being expanded, 300 positions (about 9 empty squares); with
     * 2,000 (11) the calls cost more than they proved, -64 Elo against none
     * at 0.3 s a move (docs/journal/2026-12-02-othello-grhino.md). */
    .solve_node = 300,
};

static const banyan_notation othello_notation = {
    BANYAN_NOTATION_INIT,         .format_move = oth_format_move,
    .parse_move = oth_parse_move, .load = oth_load,
    .print = oth_print,
};

static const banyan_board othello_board = {
    BANYAN_BOARD_INIT,  .coords = BANYAN_COORDS_SGF,
    .sgf_game = 2,      .board_size = oth_board_size,
    .place = oth_place, .place_move = oth_place_move,
    .piece = oth_piece,
};

static const banyan_learning othello_learning = {
    BANYAN_LEARNING_INIT,
    .planes = oth_planes,
};

const banyan_game banyan_game_othello = {
    BANYAN_GAME_INIT,
    .name = "othello",
    .state_size = sizeof(oth),
    .n_players = 2,
    .setup = oth_setup,
    .moves = oth_moves,
    .play = oth_play,
    .outcome = oth_outcome,
    .to_move = oth_to_move,
    .rollout = oth_rollout,
    .priors = oth_priors,
    .hash = oth_hash,
    .is_valid = oth_is_valid,
    .evaluate = oth_evaluate,
    .score = oth_score,
    .title = "Othello",
    .params = oth_params,
    .tactics = &othello_tactics,
    .notation = &othello_notation,
    .player_names = (const char *const[]){"Black", "White"},
    .score_unit = "discs",
    .explain = oth_explain,
    .board = &othello_board,
    .learning = &othello_learning,
};
