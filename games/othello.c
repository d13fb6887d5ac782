/*
 * othello.c - Othello (Reversi) on the 8x8 board, with an exact endgame
 * solver.
 *
 * Each player's discs are a 64-bit bitboard: bit 8 * row + column, a1 = bit
 * 0, h1 = bit 7, h8 = bit 63, rows counted from the top as in Othello's own
 * notation. Black (X, player 0) moves first. Moves are found for all squares
 * at once by filling runs of the opponent's discs from the mover's discs in
 * each of the eight directions; a move's flips by walking out from it. A
 * pass is an ordinary move (code 64), legal exactly when the player to move
 * has no disc to place and the opponent has; the game ends when neither
 * side can move, and the empty squares then go to the winner.
 *
 * The solver is a negamax alpha-beta to the end of the game on the two
 * bitboards, with a table of score bounds in the caller's memory.
 */
#include "othello.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "point.h"

#define OTH_SIDE    8
#define OTH_CELLS   64
#define OTH_PASS    64                    /* The move code of a pass. */
#define OTH_INNER   0x7e7e7e7e7e7e7e7eULL /* Columns b to g. */
#define OTH_CORNERS 0x8100000000000081ULL /* a1, h1, a8, h8. */
#define OTH_CENTRE  0x0000001818000000ULL /* d4, e4, d5, e5. */

/* The X-square and the two C-squares beside each corner, in the order
 * a1, h1, a8, h8. */
static const uint64_t oth_corner_bit[4] = {1ULL << 0, 1ULL << 7, 1ULL << 56, 1ULL << 63};
static const uint64_t oth_x_square[4] = {1ULL << 9, 1ULL << 14, 1ULL << 49, 1ULL << 54};
static const uint64_t oth_c_squares[4] = {(1ULL << 1) | (1ULL << 8), (1ULL << 6) | (1ULL << 15),
                                          (1ULL << 48) | (1ULL << 57), (1ULL << 55) | (1ULL << 62)};

enum { OTH_RO_CORNERS, OTH_RO_UNIFORM }; /* Rollout policies, in the order of the choices. */
enum { OTH_PR_MOBILITY, OTH_PR_OFF };    /* Priors. */
enum { OTH_SOLVER_ON, OTH_SOLVER_OFF };  /* The solve hook. */

typedef struct oth {
    uint64_t discs[2]; /* Discs of player 0 (Black, X) and player 1 (White, O). */
    uint8_t turn;      /* The player to move. */
    uint8_t rollout;   /* OTH_RO_*: the rollout policy. */
    uint8_t priors;    /* OTH_PR_*: the priors. */
    uint8_t solver;    /* OTH_SOLVER_*: whether solve() works. */
    uint8_t pad[4];    /* Zero, so that equal positions have equal bytes. */
} oth;

/* ---- Bit helpers ---- */

/* A uniformly chosen set bit of x (nonzero), as a one-bit word. */
static inline uint64_t oth_random_bit(uint64_t x, banyan_rng *rng)
{
    uint32_t r = banyan_rng_below(rng, (uint32_t)bits_count(x));
    for (; r; r--)
        x &= x - 1;
    return x & (0 - x);
}

/* ---- Moves and flips ---- */

/* The squares of a run of o's discs that starts next to one of p's discs,
 * going in the direction of a left shift by d, filled in 6 steps (the
 * longest run), and the square just past each run. om is o, less the
 * columns a and h for the directions that move sideways (there a run never
 * reaches the edge column), so that no run wraps round the board. */
static inline uint64_t oth_fill_left(uint64_t p, uint64_t om, int d)
{
    uint64_t t = om & (p << d);
    t |= om & (t << d);
    t |= om & (t << d);
    t |= om & (t << d);
    t |= om & (t << d);
    t |= om & (t << d);
    return t << d;
}

static inline uint64_t oth_fill_right(uint64_t p, uint64_t om, int d)
{
    uint64_t t = om & (p >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    t |= om & (t >> d);
    return t >> d;
}

/* The empty squares where the player with discs p may move against o. */
static inline uint64_t oth_mobility(uint64_t p, uint64_t o)
{
    uint64_t oi = o & OTH_INNER;
    uint64_t m = oth_fill_left(p, oi, 1) | oth_fill_right(p, oi, 1) | oth_fill_left(p, o, 8) |
                 oth_fill_right(p, o, 8) | oth_fill_left(p, oi, 7) | oth_fill_right(p, oi, 7) |
                 oth_fill_left(p, oi, 9) | oth_fill_right(p, oi, 9);
    return m & ~(p | o);
}

/* The run of om's discs (o's, less the edge columns for the directions
 * that move sideways, so that no run wraps round the board) that starts
 * next to move bit m in the direction of a left (or right) shift by d,
 * filled in 6 steps like the moves, kept only when p's disc closes it. */
static inline uint64_t oth_run_left(uint64_t m, uint64_t p, uint64_t om, int d)
{
    uint64_t end = oth_fill_left(m, om, d); /* The run moved one step on. */
    return (end >> d) & (0 - (uint64_t)((p & end) != 0));
}

static inline uint64_t oth_run_right(uint64_t m, uint64_t p, uint64_t om, int d)
{
    uint64_t end = oth_fill_right(m, om, d);
    return (end << d) & (0 - (uint64_t)((p & end) != 0));
}

/* The discs of o that a disc of p on square sq turns over (0: none, so the
 * move is illegal): the eight runs, without a branch. */
static inline uint64_t oth_flips(uint64_t p, uint64_t o, int sq)
{
    uint64_t m = (uint64_t)1 << sq, oi = o & OTH_INNER;
    return oth_run_left(m, p, oi, 1) | oth_run_right(m, p, oi, 1) | oth_run_left(m, p, o, 8) |
           oth_run_right(m, p, o, 8) | oth_run_left(m, p, oi, 7) | oth_run_right(m, p, oi, 7) |
           oth_run_left(m, p, oi, 9) | oth_run_right(m, p, oi, 9);
}

/* The final disc difference for p when neither side can move: the empty
 * squares go to the winner (the World Othello Federation's rule). */
static inline int oth_final(uint64_t p, uint64_t o)
{
    int np = bits_count(p), no = bits_count(o), empty = OTH_CELLS - np - no;
    return np > no ? np - no + empty : np < no ? np - no - empty : 0;
}

/* X- and C-squares beside the empty corners of a board whose empty squares
 * are empty. */
static inline uint64_t oth_danger(uint64_t empty)
{
    uint64_t d = 0;
    for (int c = 0; c < 4; c++)
        if (empty & oth_corner_bit[c])
            d |= oth_x_square[c] | oth_c_squares[c];
    return d;
}

/* ---- The game ---- */

static int oth_choice(const char *val, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (!strcmp(val, words[i]))
            return i;
    return -1;
}

static void oth_start(oth *t)
{
    t->discs[0] = (1ULL << 28) | (1ULL << 35); /* e4 and d5: Black. */
    t->discs[1] = (1ULL << 27) | (1ULL << 36); /* d4 and e5: White. */
    t->turn = 0;
}

static int oth_setup(void *s, const char *params)
{
    oth *t = s;
    int rollout = OTH_RO_CORNERS, priors = OTH_PR_MOBILITY, solver = OTH_SOLVER_ON, rc;
    const char *cursor = params;
    char key[16], val[16];
    while ((rc = banyan_params_next(&cursor, key, sizeof key, val, sizeof val)) == 1) {
        /* Each parameter's values, in the order of its enum. */
        static const char *const rollouts[] = {"corners", "uniform", NULL};
        static const char *const priorss[] = {"mobility", "off", NULL};
        static const char *const solvers[] = {"on", "off", NULL};
        int ok = !strcmp(key, "rollout")  ? (rollout = oth_choice(val, rollouts)) >= 0
                 : !strcmp(key, "priors") ? (priors = oth_choice(val, priorss)) >= 0
                 : !strcmp(key, "solver") ? (solver = oth_choice(val, solvers)) >= 0
                                          : 0;
        if (!ok)
            return BANYAN_EINVAL;
    }
    if (rc != 0)
        return BANYAN_EINVAL;
    memset(t, 0, sizeof *t);
    oth_start(t);
    t->rollout = (uint8_t)rollout;
    t->priors = (uint8_t)priors;
    t->solver = (uint8_t)solver;
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

static void oth_play(void *s, banyan_move m)
{
    oth *t = s;
    int me = t->turn;
    if (m < OTH_CELLS) {
        uint64_t flips = oth_flips(t->discs[me], t->discs[!me], (int)m);
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
            uint64_t flips = oth_flips(p, o, bits_low(pick));
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
        uint64_t flips = oth_flips(p, o, (int)moves[i]);
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

/* ---- The exact solver ----
 *
 * Negamax alpha-beta with fail-soft values, the principal variation search
 * (the first move with the full window, the others with a null window,
 * searched again when one beats it), a table of score bounds, moves ordered
 * fastest first (fewest replies for the opponent) down to OTH_SOLVE_FASTEST
 * empties and by region parity below, and a loop over the empty squares
 * without move generation for the last OTH_SOLVE_SMALL. Scores are final
 * disc differences for the player to move, empties to the winner. */

#define OTH_SOLVE_SMALL   4  /* Empties solved by the plain loop over the empty squares. */
#define OTH_SOLVE_TT      7  /* Fewest empties at which the table is used. */
#define OTH_SOLVE_FASTEST 8  /* Fewest empties ordered fastest first. */
#define OTH_SOLVE_ETC     12 /* Fewest empties with enhanced transposition cutoffs. */
#define OTH_TT_BITS       18 /* 2^18 entries of 24 bytes: 6 MiB. */
#define OTH_INF           127

/* One position's bounds on its exact score: lo <= score <= hi. The key is
 * the whole position, so an entry of another position never matches; an
 * all-zero entry (the memory as it comes) matches no position. */
typedef struct oth_tt_entry {
    uint64_t p, o;   /* The mover's and the opponent's discs. */
    int8_t lo, hi;   /* Bounds on the score for the mover. */
    uint8_t move;    /* The best move found, or 0xff. */
    uint8_t empties; /* Empty squares of the position: the deeper are kept. */
    uint8_t unused[4];
} oth_tt_entry;

typedef struct oth_solver {
    oth_tt_entry *tt;        /* 2^OTH_TT_BITS entries, or NULL. */
    uint64_t nodes;          /* Positions visited. */
    uint64_t budget;         /* The most nodes allowed. */
    bool aborted;            /* The budget ran out: every value since is meaningless. */
    const _Atomic int *stop; /* The caller's stop flag, or NULL. */
} oth_solver;

/* The quadrant of each square, for parity: 0 a1-d4, 1 e1-h4, 2 a5-d8, 3 e5-h8. */
static inline int oth_quadrant(int sq)
{
    return ((sq >> 5) << 1) | ((sq >> 2) & 1);
}

/* The exact score with one empty square left: the mover plays it, else the
 * opponent does, else it goes to the winner. */
static int oth_solve_1(oth_solver *sv, uint64_t p, uint64_t o, int sq)
{
    int np = bits_count(p), n;
    sv->nodes++;
    if ((n = bits_count(oth_flips(p, o, sq))) > 0)
        return 2 * (np + 1 + n) - OTH_CELLS;
    if ((n = bits_count(oth_flips(o, p, sq))) > 0)
        return 2 * (np - n) - OTH_CELLS;
    return oth_final(p, o);
}

/* The last few empties (sq[0 .. n-1], ordered by parity): every empty
 * square tried, a pass when none flips. passed says the opponent just
 * passed. */
static int oth_solve_small(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta,
                           const int *sq, int n, bool passed)
{
    int best = -OTH_INF, rest[OTH_SOLVE_SMALL];
    if (n == 1)
        return oth_solve_1(sv, p, o, sq[0]);
    sv->nodes++;
    for (int i = 0; i < n; i++) {
        uint64_t flips = oth_flips(p, o, sq[i]);
        if (!flips)
            continue;
        for (int j = 0, k = 0; j < n; j++)
            if (j != i)
                rest[k++] = sq[j];
        uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
        int v = -oth_solve_small(sv, no, np, -beta, -alpha, rest, n - 1, false);
        if (v > best) {
            best = v;
            if (v > alpha && (alpha = v) >= beta)
                return best;
        }
    }
    if (best > -OTH_INF)
        return best;
    if (passed)
        return oth_final(p, o);
    return -oth_solve_small(sv, o, p, -beta, -alpha, sq, n, true);
}

/* The empty squares of empty into sq[], those of regions with an odd
 * number of empties first (the last move of a region tends to be the
 * mover's), each group in square order. Returns their number. */
static int oth_parity_order(uint64_t empty, int *sq)
{
    int count[4] = {0, 0, 0, 0}, n = 0;
    for (uint64_t e = empty; e; e &= e - 1)
        count[oth_quadrant(bits_low(e))]++;
    for (int odd = 1; odd >= 0; odd--)
        for (uint64_t e = empty; e; e &= e - 1) {
            int s = bits_low(e);
            if ((count[oth_quadrant(s)] & 1) == odd)
                sq[n++] = s;
        }
    return n;
}

/* A static order of squares for the middle empties: corners, then the
 * edges away from the corners, the centre, and X- and C-squares last. */
static const int8_t oth_square_rank[64] = {
    0, 5, 2, 3, 3, 2, 5, 0, 5, 6, 4, 4, 4, 4, 6, 5, 2, 4, 1, 1, 1, 1, 4, 2, 3, 4, 1, 1, 1, 1, 4, 3,
    3, 4, 1, 1, 1, 1, 4, 3, 2, 4, 1, 1, 1, 1, 4, 2, 5, 6, 4, 4, 4, 4, 6, 5, 0, 5, 2, 3, 3, 2, 5, 0};

static int oth_solve_node(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta, int empties);

/* The slot of position (p, o) in the table: the one of its pair of
 * entries that holds it, else the one to replace (the fewer empties, so
 * that the costlier results stay). */
static inline oth_tt_entry *oth_tt_slot(oth_tt_entry *tt, uint64_t p, uint64_t o)
{
    uint64_t i = (banyan_mix64(p ^ banyan_mix64(o)) >> (64 - OTH_TT_BITS)) & ~(uint64_t)1;
    oth_tt_entry *e = &tt[i];
    if (e[0].p == p && e[0].o == o)
        return &e[0];
    if (e[1].p == p && e[1].o == o)
        return &e[1];
    return e[0].empties <= e[1].empties ? &e[0] : &e[1];
}

/* Orders the moves mob of p against o into sq[] and returns their number:
 * the table's move first, then fastest first (the fewest replies, corners
 * favoured) with many empties, or by region parity and square rank with
 * few. */
static int oth_order(uint64_t p, uint64_t o, uint64_t mob, int empties, int tt_move, int *sq)
{
    int key[64], n = 0;
    int parity[4] = {0, 0, 0, 0};
    for (uint64_t e = ~(p | o); e; e &= e - 1)
        parity[oth_quadrant(bits_low(e))] ^= 1;
    for (; mob; mob &= mob - 1) {
        int s = bits_low(mob), k;
        uint64_t bit = mob & (0 - mob);
        if (empties >= OTH_SOLVE_FASTEST) {
            uint64_t flips = oth_flips(p, o, s);
            uint64_t reply = oth_mobility(o & ~flips, p | flips | bit);
            k = 64 * bits_count(reply) + 32 * bits_count(reply & OTH_CORNERS) -
                (bit & OTH_CORNERS ? 96 : 0) + 4 * !parity[oth_quadrant(s)] +
                oth_square_rank[s] / 2;
        } else {
            k = 16 * !parity[oth_quadrant(s)] + oth_square_rank[s];
        }
        if (s == tt_move)
            k = -1000;
        /* Insertion by key; equal keys keep square order. */
        int j = n++;
        for (; j > 0 && key[j - 1] > k; j--) {
            key[j] = key[j - 1];
            sq[j] = sq[j - 1];
        }
        key[j] = k;
        sq[j] = s;
    }
    return n;
}

/* The exact score for p to move against o with empties empty squares, or a
 * bound: at most the result when it is <= alpha, at least when >= beta.
 * Returns 0 with sv->aborted set when the budget runs out; nothing is then
 * stored. */
static int oth_solve_node(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta, int empties)
{
    if (empties <= OTH_SOLVE_SMALL) {
        int sq[OTH_SOLVE_SMALL];
        int n = oth_parity_order(~(p | o), sq);
        return oth_solve_small(sv, p, o, alpha, beta, sq, n, false);
    }
    if (banyan_solve_halted(++sv->nodes, sv->budget, sv->stop)) {
        sv->aborted = true;
        return 0;
    }
    uint64_t mob = oth_mobility(p, o);
    if (!mob) {
        if (!oth_mobility(o, p))
            return oth_final(p, o);
        return -oth_solve_node(sv, o, p, -beta, -alpha, empties);
    }
    oth_tt_entry *e = NULL;
    int tt_move = -1;
    if (sv->tt && empties >= OTH_SOLVE_TT) {
        e = oth_tt_slot(sv->tt, p, o);
        if (e->p == p && e->o == o) {
            if (e->lo >= beta || e->lo == e->hi)
                return e->lo;
            if (e->hi <= alpha)
                return e->hi;
            alpha = alpha > e->lo ? alpha : e->lo;
            beta = beta < e->hi ? beta : e->hi;
            tt_move = e->move;
        }
    }
    int sq[64], n = oth_order(p, o, mob, empties, tt_move, sq);
    int best = -OTH_INF, best_move = 0xff, a = alpha;
    if (e && empties >= OTH_SOLVE_ETC)
        for (int i = 0; i < n; i++) {
            /* Enhanced transposition cutoff: a child whose bound in the
             * table already refutes the window. */
            uint64_t flips = oth_flips(p, o, sq[i]);
            uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
            const oth_tt_entry *c = oth_tt_slot(sv->tt, no, np);
            if (c->p == no && c->o == np && -c->hi >= beta)
                return -c->hi;
        }
    for (int i = 0; i < n; i++) {
        uint64_t flips = oth_flips(p, o, sq[i]);
        uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
        int v;
        if (i == 0) {
            v = -oth_solve_node(sv, no, np, -beta, -a, empties - 1);
        } else {
            v = -oth_solve_node(sv, no, np, -a - 1, -a, empties - 1);
            if (v > a && v < beta && !sv->aborted)
                v = -oth_solve_node(sv, no, np, -beta, -v + 1, empties - 1);
        }
        if (sv->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = sq[i];
            if (v > a && (a = v) >= beta)
                break;
        }
    }
    if (e) {
        e = oth_tt_slot(sv->tt, p, o); /* Again: the children may have filled it. */
        if (e->p != p || e->o != o) {
            e->p = p;
            e->o = o;
            e->lo = -OTH_CELLS;
            e->hi = OTH_CELLS;
            e->empties = (uint8_t)empties;
        }
        if (best > alpha && best < beta)
            e->lo = e->hi = (int8_t)best;
        else if (best <= alpha)
            e->hi = (int8_t)(best < e->hi ? best : e->hi);
        else
            e->lo = (int8_t)(best > e->lo ? best : e->lo);
        e->move = (uint8_t)best_move;
    }
    return best;
}

/* How many empties a budget of positions reaches: the solver visits about
 * 30000 * 3^(E - 14) positions for E empties (near the median of the
 * FForum problems 1-39 of tests/data, bench/othello_endgame.sh). */
static int oth_solve_reach(uint64_t budget)
{
    int empties = 14;
    uint64_t need = 30000;
    for (; empties > 0 && need > budget; need /= 3)
        empties--;
    for (; empties < OTH_CELLS && need <= budget / 3; need *= 3)
        empties++;
    return empties;
}

/* Whether some move of sq[0 .. n-1] gives p a score of at least v against
 * o (a null-window test for each): the index of the first such, or -1. */
static int oth_solve_at_least(oth_solver *sv, uint64_t p, uint64_t o, int v, const int *sq, int n,
                              int empties)
{
    for (int i = 0; i < n && !sv->aborted; i++) {
        uint64_t flips = oth_flips(p, o, sq[i]);
        uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
        if (-oth_solve_node(sv, no, np, -v, -v + 1, empties - 1) >= v && !sv->aborted)
            return i;
    }
    return -1;
}

/* The solve hook: the exact score, found by bisection with null-window
 * tests of the root's moves (fastest first), and the first move in the
 * order of moves() that reaches it. */
int oth_solve_count(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                    banyan_move *best, int *score, uint64_t *nodes)
{
    const oth *t = s;
    uint64_t p = t->discs[t->turn], o = t->discs[!t->turn];
    int empties = OTH_CELLS - bits_count(p | o);
    oth_solver sv = {mem, 0, budget, false, stop};
    *nodes = 0;
    if (t->solver == OTH_SOLVER_OFF || empties > oth_solve_reach(budget))
        return BANYAN_SOLVE_UNKNOWN;
    uint64_t mob = oth_mobility(p, o);
    int v, move;
    if (!mob) {
        if (!oth_mobility(o, p))
            return BANYAN_SOLVE_UNKNOWN; /* The game is over: nothing to solve. */
        v = -oth_solve_node(&sv, o, p, -OTH_CELLS, OTH_CELLS, empties);
        move = OTH_PASS;
    } else {
        /* Bisection on the score by null-window tests, which cost far
         * less than wide windows; every final score is even. */
        int sq[64], n = oth_order(p, o, mob, OTH_CELLS, -1, sq), lo = -OTH_CELLS, hi = OTH_CELLS;
        while (lo < hi && !sv.aborted) {
            int mid = (lo + hi) / 4 * 2 + 2; /* Even, in (lo, hi]. */
            if (mid > hi)
                mid = hi;
            int first = oth_solve_at_least(&sv, p, o, mid, sq, n, empties);
            if (first >= 0) {
                lo = mid;
                int x = sq[first]; /* Tried first in the next test. */
                sq[first] = sq[0];
                sq[0] = x;
            } else {
                hi = mid - 2;
            }
        }
        v = lo;
        /* The first move in square order that reaches v. */
        move = -1;
        for (uint64_t m = mob; m && !sv.aborted && move < 0; m &= m - 1) {
            int s2 = bits_low(m);
            if (oth_solve_at_least(&sv, p, o, v, &s2, 1, empties) == 0)
                move = s2;
        }
    }
    *nodes = sv.nodes;
    if (sv.aborted)
        return BANYAN_SOLVE_UNKNOWN;
    *best = (banyan_move)move;
    *score = v;
    return v > 0 ? BANYAN_SOLVE_WIN : v < 0 ? BANYAN_SOLVE_LOSS : BANYAN_SOLVE_DRAW;
}

static int oth_solve(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                     banyan_move *best, int *score)
{
    uint64_t nodes;
    return oth_solve_count(s, budget, stop, mem, best, score, &nodes);
}

/* ---- The evaluation ----
 *
 * A logistic model of the mover's chance to win: each feature compares the
 * mover's side of the board with the opponent's (mobility, potential
 * mobility, frontier, corners, the X- and C-squares beside empty corners,
 * edges, stable discs, discs, parity), and each has two weights, one that
 * holds all game long and one that fades as the board fills (multiplied by
 * the share of the squares still empty), so that the mix moves from the
 * opening's to the endgame's. The weights are fitted to the results of
 * self-play games by bench/othello_eval.sh (bench/othello_eval.c). */

/* One side's discs that can never be turned over, approximated from below:
 * a disc is stable when, along each of its four lines, the line is full or
 * a neighbour on that line is the board's edge or a stable disc of its own
 * colour. full[0..3]: the squares whose row, column, diagonal (a1-h8
 * direction) and anti-diagonal are full. */
static uint64_t oth_stable(uint64_t p, const uint64_t *full)
{
    /* The edges' neighbours off the board count as stable; so a shift
     * that wraps round a row lands on an edge square, already counted. */
    const uint64_t sides = 0x8181818181818181ULL, ends = 0xff000000000000ffULL;
    const uint64_t edge = sides | ends;
    uint64_t s = 0, last;
    do {
        last = s;
        uint64_t h = full[0] | s << 1 | s >> 1 | sides;
        uint64_t v = full[1] | s << 8 | s >> 8 | ends;
        uint64_t d = full[2] | s << 9 | s >> 9 | edge;
        uint64_t a = full[3] | s << 7 | s >> 7 | edge;
        s = p & h & v & d & a;
    } while (s != last);
    return s;
}

/* The squares of filled whose line in each direction (row, column,
 * diagonal, anti-diagonal) is full, into full[0..3]. A diagonal is the
 * a1-h8 one shifted by whole rows, an anti-diagonal the h1-a8 one. */
static void oth_full_lines(uint64_t filled, uint64_t *full)
{
    const uint64_t diag = 0x8040201008040201ULL, anti = 0x0102040810204080ULL;
    full[0] = full[1] = full[2] = full[3] = 0;
    for (int k = 0; k < OTH_SIDE; k++) {
        uint64_t row = 0xffULL << 8 * k, col = 0x0101010101010101ULL << k;
        full[0] |= (filled & row) == row ? row : 0;
        full[1] |= (filled & col) == col ? col : 0;
    }
    for (int k = -7; k <= 7; k++) {
        uint64_t d = k >= 0 ? diag << 8 * k : diag >> -8 * k;
        uint64_t a = k >= 0 ? anti << 8 * k : anti >> -8 * k;
        full[2] |= (filled & d) == d ? d : 0;
        full[3] |= (filled & a) == a ? a : 0;
    }
}

/* The squares next to any of x (the eight neighbours). */
static inline uint64_t oth_neighbours(uint64_t x)
{
    uint64_t w = x >> 1 & ~0x8080808080808080ULL, e = x << 1 & ~0x0101010101010101ULL;
    uint64_t row = x | w | e;
    return (row | row << 8 | row >> 8) & ~x;
}

/* The model's inputs for p to move against o, into f (see othello.h). */
static void oth_eval_inputs(uint64_t p, uint64_t o, double *f)
{
    uint64_t filled = p | o, empty = ~filled;
    uint64_t danger_x = 0, danger_c = 0, full[4];
    for (int c = 0; c < 4; c++)
        if (empty & oth_corner_bit[c]) {
            danger_x |= oth_x_square[c];
            danger_c |= oth_c_squares[c];
        }
    const uint64_t edges = 0xff818181818181ffULL & ~OTH_CORNERS;
    oth_full_lines(filled, full);
    int empties = bits_count(empty);
    int mp = bits_count(oth_mobility(p, o)), mo = bits_count(oth_mobility(o, p));
    double x[OTH_EVAL_TERMS];
    x[0] = 1;
    x[1] = (mp - mo) / 8.0;
    x[2] = (double)(mp - mo) / (mp + mo + 2);
    x[3] = (bits_count(oth_neighbours(o) & empty) - bits_count(oth_neighbours(p) & empty)) / 8.0;
    x[4] = (bits_count(o & oth_neighbours(empty)) - bits_count(p & oth_neighbours(empty))) / 8.0;
    x[5] = bits_count(p & OTH_CORNERS) - bits_count(o & OTH_CORNERS);
    x[6] = bits_count(p & danger_x) - bits_count(o & danger_x);
    x[7] = bits_count(p & danger_c) - bits_count(o & danger_c);
    x[8] = (bits_count(p & edges & ~danger_c) - bits_count(o & edges & ~danger_c)) / 4.0;
    x[9] = (bits_count(oth_stable(p, full)) - bits_count(oth_stable(o, full))) / 4.0;
    x[10] = (bits_count(p) - bits_count(o)) / 8.0;
    x[11] = empties & 1 ? 1 : -1;
    double phase = empties / 60.0;
    for (int i = 0; i < OTH_EVAL_TERMS; i++) {
        f[2 * i] = x[i];
        f[2 * i + 1] = x[i] * phase;
    }
}

int oth_eval_features(const void *s, double *f)
{
    const oth *t = s;
    oth_eval_inputs(t->discs[t->turn], t->discs[!t->turn], f);
    return OTH_EVAL_FEATURES;
}

/* The model's weights, in the order of oth_eval_features (each term, then
 * the term times the share of empty squares). Fitted by
 * bench/othello_eval.sh; see docs/STRENGTH.md. */
static const double oth_eval_w[OTH_EVAL_FEATURES] = {
    -0.302, 0.091,  0.750, -2.443, 4.905,  -3.051, -1.136, 2.188,  2.489, -3.638, 0.043, 1.643,
    -0.339, -0.774, 0.011, -0.097, -0.028, 0.652,  0.915,  -0.563, 0.484, -1.289, 0.654, -0.839,
};

/* The model's log-odds that p, to move against o, wins. */
static double oth_eval_logit(uint64_t p, uint64_t o)
{
    double f[OTH_EVAL_FEATURES], z = 0;
    oth_eval_inputs(p, o, f);
    for (int i = 0; i < OTH_EVAL_FEATURES; i++)
        z += oth_eval_w[i] * f[i];
    return z;
}

/* The value of the leaf for each player; the priors come from priors(). */
static bool oth_evaluate(const void *s, double *returns, const banyan_move *moves, int n,
                         float *priors)
{
    const oth *t = s;
    (void)moves;
    (void)n;
    (void)priors;
    if (!returns)
        return false;
    double v = 1 / (1 + exp(-oth_eval_logit(t->discs[t->turn], t->discs[!t->turn])));
    returns[t->turn] = v;
    returns[!t->turn] = 1 - v;
    return false;
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

/* Append only: any change to this list changes the bench signature. */
static const banyan_bench oth_bench[] = {
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

const banyan_game banyan_game_othello = {
    .name = "othello",
    .state_size = sizeof(oth),
    .n_players = 2,
    .setup = oth_setup,
    .moves = oth_moves,
    .play = oth_play,
    .outcome = oth_outcome,
    .to_move = oth_to_move,
    .format_move = oth_format_move,
    .parse_move = oth_parse_move,
    .load = oth_load,
    .print = oth_print,
    .rollout = oth_rollout,
    .priors = oth_priors,
    .hash = oth_hash,
    .is_valid = oth_is_valid,
    .solve = oth_solve,
    .deep_size = sizeof(oth_tt_entry) << OTH_TT_BITS,
    .evaluate = oth_evaluate,
    .score = oth_score,
    .title = "Othello",
    .player_names = (const char *const[]){"Black", "White"},
    .score_unit = "discs",
    .params = oth_params,
    .bench = oth_bench,
    .coords = BANYAN_COORDS_SGF,
    .sgf_game = 2,
    .board_size = oth_board_size,
    .place = oth_place,
    .place_move = oth_place_move,
    .piece = oth_piece,
    .planes = oth_planes,
    .explain = oth_explain,
};
