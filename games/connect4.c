/*
 * connect4.c - Connect Four on the standard board, 7 columns by 6 rows.
 *
 * Each player's discs are a 64-bit bitboard with 7 bits per column: bit
 * 7 * c + r is row r (0 at the bottom) of column c, and bit 7 * c + 6 is a
 * sentinel that is never set. The sentinels keep lines from wrapping from
 * one column into the next, so four in a row in any direction is two shifts
 * and two ANDs, and the landing square of a disc is one addition.
 */
#include <stdio.h>
#include <string.h>

#include "banyan_game.h"
#include "bits.h"
#include "point.h"

#define C4_WIDTH    7
#define C4_HEIGHT   6
#define C4_CELLS    (C4_WIDTH * C4_HEIGHT)
#define C4_BOTTOM   0x0040810204081ULL /* Bit 0 of every column. */
#define C4_BOARD    (C4_BOTTOM * 0x3f) /* Rows 0-5 of every column. */
#define C4_SENTINEL (C4_BOTTOM << 6)   /* Row 6 of every column, always empty. */
#define C4_NOBODY   2                  /* winner while nobody has won. */

enum { C4_P_SOLVER, C4_P_BOOK, C4_N_PARAMS }; /* The entries of c4_params. */
enum { C4_ON, C4_OFF };                       /* Their choices. */

typedef struct c4 {
    uint64_t discs[2]; /* Discs of player 0 (X, moves first) and player 1 (O). */
    uint8_t ply;       /* Discs on the board; its parity is the player to move. */
    uint8_t winner;    /* 0 or 1 once a player has four in a row, else C4_NOBODY. */
    uint8_t solver;    /* Whether the exact solver (c4_solve) answers: parameter solver. */
    uint8_t book;      /* Whether it answers from the opening book first: parameter book. */
} c4;

static inline uint64_t c4_column(int c)
{
    return (uint64_t)0x3f << (7 * c);
}

/* Whether b holds four in a row. For each step d, x marks the starts of
 * pairs, and x & x >> 2d the starts of fours; steps are up (1), across (7)
 * and the two diagonals (6 and 8). */
static inline bool c4_won(uint64_t b)
{
    uint64_t v = b & (b >> 1), h = b & (b >> 7), d1 = b & (b >> 6), d2 = b & (b >> 8);
    return ((v & (v >> 2)) | (h & (h >> 14)) | (d1 & (d1 >> 12)) | (d2 & (d2 >> 16))) != 0;
}

/* Two parameters, solver=on|off and book=on|off (c4_params). */
static int c4_setup(void *s, const char *params)
{
    c4 *t = s;
    banyan_value v[C4_N_PARAMS];
    if (banyan_params_read(banyan_game_connect4.params, params, v) != BANYAN_OK)
        return BANYAN_EINVAL;
    memset(t, 0, sizeof *t);
    t->winner = C4_NOBODY;
    t->solver = v[C4_P_SOLVER].choice == C4_ON;
    t->book = v[C4_P_BOOK].choice == C4_ON;
    return BANYAN_OK;
}

static inline bool c4_is_over(const c4 *t)
{
    return t->winner != C4_NOBODY || t->ply == C4_CELLS;
}

/* Columns whose top square is empty, left to right. */
static int c4_moves(const void *s, banyan_move *out)
{
    const c4 *t = s;
    uint64_t all = t->discs[0] | t->discs[1];
    int n = 0;
    if (c4_is_over(t))
        return 0;
    for (int c = 0; c < C4_WIDTH; c++)
        if (!(all & ((uint64_t)1 << (7 * c + C4_HEIGHT - 1))))
            out[n++] = (banyan_move)c;
    return n;
}

/* Adding a column's bottom bit to the occupied bits carries up to the first
 * empty square of that column. */
static void c4_play(void *s, banyan_move m)
{
    c4 *t = s;
    int who = t->ply & 1;
    uint64_t all = t->discs[0] | t->discs[1];
    t->discs[who] |= (all + ((uint64_t)1 << (7 * m))) & c4_column((int)m);
    t->ply++;
    if (c4_won(t->discs[who]))
        t->winner = (uint8_t)who;
}

static bool c4_outcome(const void *s, double *returns)
{
    const c4 *t = s;
    if (!c4_is_over(t))
        return false;
    returns[0] = t->winner == 0 ? 1.0 : t->winner == 1 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

static int c4_to_move(const void *s)
{
    return ((const c4 *)s)->ply & 1;
}

/* Uniform random play. next[] holds the landing square of each playable
 * column in no particular order; a column whose landing square climbs into
 * the sentinel row is full and is swapped out. Drawing an index uniformly
 * from next[] is a uniform choice among moves(), as the default would make. */
static void c4_rollout(void *s, banyan_rng *rng)
{
    c4 *t = s;
    int ply = t->ply, winner = C4_NOBODY;
    /* Discs of the player to move and of the one who just moved, swapped
     * every ply so that both stay in registers. */
    uint64_t mover = t->discs[ply & 1], other = t->discs[~ply & 1];
    uint64_t landing = (mover | other) + C4_BOTTOM, next[C4_WIDTH];
    uint32_t n_open = 0;

    if (c4_is_over(t))
        return;
    for (int c = 0; c < C4_WIDTH; c++) {
        next[n_open] = landing & ((uint64_t)0x7f << (7 * c)); /* With its sentinel. */
        n_open += !(next[n_open] & C4_SENTINEL);
    }
    while (n_open) {
        uint32_t i = banyan_rng_below(rng, n_open);
        uint64_t bit = next[i], placed = mover | bit;
        mover = other;
        other = placed;
        if (++ply >= 7 && c4_won(placed)) { /* A first four needs 7 discs. */
            winner = (ply - 1) & 1;
            break;
        }
        next[i] = bit << 1;
        if (next[i] & C4_SENTINEL)
            next[i] = next[--n_open];
    }
    t->discs[ply & 1] = mover;
    t->discs[~ply & 1] = other;
    t->ply = (uint8_t)ply;
    t->winner = (uint8_t)winner;
}

static int c4_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    (void)s;
    if (m >= C4_WIDTH) /* Outside the contract: say so visibly. */
        return snprintf(buf, len, "-");
    return snprintf(buf, len, "%c", 'a' + (int)m);
}

static inline bool c4_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A column as a letter (a-g) or a number (1-7), either case, with spaces
 * around it. Other letters and numbers are well-formed columns off the
 * board; a number of any length is read without overflow. */
static int c4_parse_move(const void *s, const char *str, banyan_move *out)
{
    const char *p = str;
    int col;

    (void)s;
    if (!p)
        return BANYAN_EINVAL;
    while (c4_is_space(*p))
        p++;
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
        col = (*p | 0x20) - 'a';
        p++;
    } else if (*p >= '0' && *p <= '9') {
        if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
            return BANYAN_EINVAL; /* Leading zeros are not a column number. */
        int v = 0;
        for (; *p >= '0' && *p <= '9'; p++)
            v = v > 100 ? v : v * 10 + (*p - '0');
        col = v - 1;
    } else {
        return BANYAN_EINVAL;
    }
    while (c4_is_space(*p))
        p++;
    if (*p)
        return BANYAN_EINVAL;
    if (col < 0 || col >= C4_WIDTH)
        return BANYAN_ERANGE;
    *out = (banyan_move)col;
    return BANYAN_OK;
}

/* Column digits 1-7 from the empty board ("4453"), spaces allowed between
 * them, played on a copy so that *s is untouched by an error. */
static int c4_load(void *s, const char *text)
{
    c4 t;
    if (!text)
        return BANYAN_EINVAL;
    c4_setup(&t, NULL); /* Zeroes the padding too, which memcpy then carries. */
    t.solver = ((const c4 *)s)->solver;
    t.book = ((const c4 *)s)->book;
    for (const char *p = text; *p; p++) {
        if (c4_is_space(*p))
            continue;
        if (*p < '0' || *p > '9')
            return BANYAN_EINVAL;
        int c = *p - '1';
        if (c < 0 || c >= C4_WIDTH)
            return BANYAN_ERANGE;
        if (c4_is_over(&t) || ((t.discs[0] | t.discs[1]) >> (7 * c + C4_HEIGHT - 1)) & 1)
            return BANYAN_EILLEGAL;
        c4_play(&t, (banyan_move)c);
    }
    memcpy(s, &t, sizeof t);
    return BANYAN_OK;
}

static int c4_win_line(const void *s, int *x, int *y, int max);

/* Top row first, X and O for the players (x and o for the four that won),
 * the top disc of the last move's column in parentheses, letters under the
 * columns:
 *
 *     . . . . . . .
 *     . . .(X). . .
 *     . . . O . . .
 *     a b c d e f g   (above it, four more rows)
 */
static int c4_print(const void *s, banyan_move last, char *buf, size_t len)
{
    const c4 *t = s;
    uint64_t all = t->discs[0] | t->discs[1];
    char text[C4_HEIGHT * 16 + 16 + 1], *q = text;
    int last_r = -1, wx[C4_CELLS], wy[C4_CELLS];
    uint64_t won = 0;
    for (int i = 0, n = c4_win_line(s, wx, wy, C4_CELLS); i < n; i++)
        won |= (uint64_t)1 << (7 * wx[i] + (C4_HEIGHT - 1 - wy[i]));

    if (last < C4_WIDTH)
        for (int r = 0; r < C4_HEIGHT; r++)
            if ((all >> (7 * last + r)) & 1)
                last_r = r;
    for (int r = C4_HEIGHT - 1; r >= 0; r--) {
        for (int c = 0; c <= C4_WIDTH; c++) {
            bool here = r == last_r && c == (int)last, before = r == last_r && c - 1 == (int)last;
            if (here || before || c < C4_WIDTH)
                *q++ = here ? '(' : before ? ')' : ' ';
            if (c == C4_WIDTH)
                break;
            int bit = 7 * c + r;
            char disc = (t->discs[0] >> bit) & 1 ? 'X' : (t->discs[1] >> bit) & 1 ? 'O' : '.';
            *q++ = (char)((won >> bit) & 1 ? disc - 'A' + 'a' : disc);
        }
        *q++ = '\n';
    }
    for (int c = 0; c < C4_WIDTH; c++) {
        *q++ = ' ';
        *q++ = (char)('a' + c);
    }
    *q++ = '\n';
    *q = 0;
    return snprintf(buf, len, "%s", text);
}

/* For a fixed discs[1] the map from discs[0] is a bijection and vice versa,
 * so different positions collide only by chance. */
static uint64_t c4_hash(const void *s)
{
    const c4 *t = s;
    return banyan_mix64(banyan_mix64(t->discs[1] + 0x9e3779b97f4a7c15ULL) ^ t->discs[0]) +
           t->solver + 2u * t->book;
}

/* Discs only on the board, never two on a square, none floating (each
 * column's discs sit in its lowest rows), alternating counts, and a winner
 * exactly when the last mover has four in a row and the other does not. */
static bool c4_is_valid(const void *s)
{
    const c4 *t = s;
    uint64_t all = t->discs[0] | t->discs[1];
    int n0 = bits_count(t->discs[0]), n1 = bits_count(t->discs[1]);
    if ((t->discs[0] & t->discs[1]) || (all & ~C4_BOARD))
        return false;
    for (int c = 0; c < C4_WIDTH; c++) {
        uint64_t col = all >> (7 * c) & 0x3f;
        if (col & (col + 1))
            return false;
    }
    if ((n0 != n1 && n0 != n1 + 1) || t->ply != n0 + n1 || t->solver > 1 || t->book > 1)
        return false;
    bool line[2] = {c4_won(t->discs[0]), c4_won(t->discs[1])};
    if (t->winner == C4_NOBODY)
        return !line[0] && !line[1];
    int mover = (t->ply - 1) & 1;
    return t->ply > 0 && t->winner == mover && line[mover] && !line[!mover];
}

/* ---- The exact solver ----
 *
 * Negamax with alpha-beta over the same bitboards, seen from the player to
 * move: `own` holds the mover's discs and `all` every disc. Scores follow
 * the reference data: a win with one's k-th from last disc scores k (the
 * quicker the win, the higher), a loss the opposite, a draw 0. The search
 * keeps the invariant that the player to move cannot win at once (the root
 * checks it, and every move searched leaves the opponent no immediate win),
 * tries the moves that make the most new threats first, centre first among
 * equals, and narrows the window with null-window probes, as Pascal Pons'
 * solver does. A transposition table of bounds, in the caller's memory,
 * keeps what earlier calls learnt: its bounds are exact facts about a
 * position, so they hold in any later search.
 */

#define C4_MIN_SCORE (-(C4_CELLS / 2) + 3) /* Lowest score below a first move. */
#ifndef C4_TT_BITS /* Bench tools that include this file may give a larger table. */
#define C4_TT_BITS 20
#endif
#define C4_TT_SIZE   ((size_t)1 << C4_TT_BITS)
#define C4_TT_USED   ((uint64_t)1 << 63) /* Marks an entry in use (zeroed memory is empty). */
#define C4_SCORE_OFF 64                  /* Scores are stored as score + 64, in 7 bits. */

/* A table entry: C4_TT_USED, the key (49 bits: own + all is unique, the
 * layout's sentinel row taking the carries), the upper bound and the lower
 * bound, 7 bits each. */
typedef struct c4_solver {
    uint64_t *tt;            /* C4_TT_SIZE entries in the caller's memory. */
    uint64_t nodes;          /* Positions visited. */
    uint64_t budget;         /* Most positions to visit. */
    bool out;                /* The budget ran out: every value since is void. */
    const _Atomic int *stop; /* The caller's stop flag, or NULL. */
} c4_solver;

/* Empty squares where `own` would complete four in a row: for each
 * direction d, three discs in line with the square (at -3d..-d, -2d..d,
 * -d..2d or d..3d). */
static uint64_t c4_threats(uint64_t own, uint64_t all)
{
    uint64_t r = (own << 1) & (own << 2) & (own << 3); /* Vertical: discs below only. */
    static const int step[3] = {7, 6, 8};
    for (int i = 0; i < 3; i++) {
        int d = step[i];
        uint64_t pair = (own << d) & (own << 2 * d);
        r |= pair & (own << 3 * d);
        r |= pair & (own >> d);
        pair = (own >> d) & (own >> 2 * d);
        r |= pair & (own << d);
        r |= pair & (own >> 3 * d);
    }
    return r & (C4_BOARD ^ all);
}

/* Landing squares of the columns that are not full. */
static inline uint64_t c4_landing(uint64_t all)
{
    return (all + C4_BOTTOM) & C4_BOARD;
}

/* The mover's landing squares that do not hand the opponent a win: a
 * square the opponent must be kept from, if there is one (two of them: 0,
 * the game is lost), and never the square under an opponent's threat. */
static uint64_t c4_safe_moves(uint64_t own, uint64_t all)
{
    uint64_t land = c4_landing(all), theirs = c4_threats(own ^ all, all);
    uint64_t forced = land & theirs;
    if (forced) {
        if (forced & (forced - 1))
            return 0;
        land = forced;
    }
    return land & ~(theirs >> 1);
}

/* Starts loading a table entry into the cache: the children's entries are
 * asked for while the moves are ordered, long before the children read
 * them (the table is far larger than the caches). */
#if defined(__GNUC__) || defined(__clang__)
#define C4_PREFETCH(p) __builtin_prefetch(p)
#else
#define C4_PREFETCH(p) ((void)(p))
#endif

static inline size_t c4_tt_index(uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - C4_TT_BITS));
}

/* The stored bounds of the position with key, if any. */
static bool c4_tt_get(const c4_solver *v, uint64_t key, int *lo, int *hi)
{
    uint64_t e = v->tt[c4_tt_index(key)];
    if (!(e & C4_TT_USED) || ((e >> 14) & (((uint64_t)1 << 49) - 1)) != key)
        return false;
    *hi = (int)((e >> 7) & 0x7f) - C4_SCORE_OFF;
    *lo = (int)(e & 0x7f) - C4_SCORE_OFF;
    return true;
}

/* Narrows the stored bounds of key to [lo, hi] (a new key replaces the
 * entry). Never called with void values. */
static void c4_tt_put(c4_solver *v, uint64_t key, int lo, int hi)
{
    int old_lo, old_hi;
    if (c4_tt_get(v, key, &old_lo, &old_hi)) {
        lo = lo > old_lo ? lo : old_lo;
        hi = hi < old_hi ? hi : old_hi;
    }
    v->tt[c4_tt_index(key)] =
        C4_TT_USED | key << 14 | (uint64_t)(hi + C4_SCORE_OFF) << 7 | (uint64_t)(lo + C4_SCORE_OFF);
}

static const int c4_order[C4_WIDTH] = {3, 2, 4, 1, 5, 0, 6}; /* Centre first. */

/* The value of the position for the mover, who cannot win at once, with
 * ply discs on the board, inside the window (alpha, beta): exact when
 * inside, else a bound on the side it falls. Void once v->out is set. */
static int c4_negamax(c4_solver *v, uint64_t own, uint64_t all, int ply, int alpha, int beta)
{
    if (banyan_solve_halted(++v->nodes, v->budget, v->stop)) {
        v->out = true;
        return 0;
    }
    uint64_t safe = c4_safe_moves(own, all);
    if (!safe)
        return -(C4_CELLS - ply) / 2; /* The opponent wins with its next disc. */
    if (ply >= C4_CELLS - 2)
        return 0; /* Neither side can make four any more. */
    int lo = -(C4_CELLS - 2 - ply) / 2, hi = (C4_CELLS - 1 - ply) / 2;
    uint64_t key = own + all;
    int tlo, thi;
    if (c4_tt_get(v, key, &tlo, &thi)) {
        lo = tlo > lo ? tlo : lo;
        hi = thi < hi ? thi : hi;
    }
    if (alpha < lo && (alpha = lo) >= beta)
        return alpha;
    if (beta > hi && alpha >= (beta = hi))
        return beta;

    /* Moves by the threats they make, most first, centre first among
     * equals (insertion keeps the order of c4_order for ties). */
    uint64_t moves[C4_WIDTH];
    int rank[C4_WIDTH], n = 0;
    for (int i = 0; i < C4_WIDTH; i++) {
        uint64_t m = safe & c4_column(c4_order[i]);
        if (!m)
            continue;
        C4_PREFETCH(&v->tt[c4_tt_index((own ^ all) + (all | m))]);
        int r = bits_count(c4_threats(own | m, all));
        int j = n++;
        for (; j > 0 && rank[j - 1] < r; j--) {
            moves[j] = moves[j - 1];
            rank[j] = rank[j - 1];
        }
        moves[j] = m;
        rank[j] = r;
    }
    int a0 = alpha;
    for (int i = 0; i < n; i++) {
        int score = -c4_negamax(v, own ^ all, all | moves[i], ply + 1, -beta, -alpha);
        if (v->out)
            return 0;
        if (score >= beta) {
            c4_tt_put(v, key, score, C4_CELLS);
            return score;
        }
        if (score > alpha)
            alpha = score;
    }
    c4_tt_put(v, key, a0 < alpha ? alpha : -C4_CELLS, alpha);
    return alpha;
}

/* The value of a position for the mover, who cannot win at once, by
 * null-window probes that halve the range of possible scores, leaning
 * towards 0 where quick results are likelier (void once v->out is set). */
static int c4_value(c4_solver *v, uint64_t own, uint64_t all, int ply)
{
    int lo = -(C4_CELLS - ply) / 2, hi = (C4_CELLS + 1 - ply) / 2;
    while (lo < hi && !v->out) {
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && lo / 2 < med)
            med = lo / 2;
        else if (med >= 0 && hi / 2 > med)
            med = hi / 2;
        int r = c4_negamax(v, own, all, ply, med, med + 1);
        if (r <= med)
            hi = r;
        else
            lo = r;
    }
    return lo;
}

/* The largest number of empty squares the solver scores exactly with a
 * budget of positions. Measured on the reference sets
 * (docs/journal/2026-12-02-connect4-solver.md),
 * the hardest solve with e empty squares visits about 10^((e + 3) / 5)
 * positions (3,200 at 14, 31,000 at 20, a million at 27): beyond that the
 * budget would likely run out. Telling a win from a draw from a loss, with
 * two null windows around 0, is tried C4_CLASS_REACH squares further: on
 * random positions its median cost is 65,000 positions at 30 empty
 * squares, 320,000 at 32 and 1.5 million at 34
 * (docs/journal/2026-12-02-connect4-book.md), about
 * the budget that reaches 29 squares exactly. */
#define C4_CLASS_REACH 5
static int c4_reach(uint64_t budget)
{
    int e = -3;
    for (double n = 1.5849; n <= (double)budget && e < C4_CELLS; n *= 1.5849) /* 10^(1/5) */
        e++;
    return e;
}

/* Whether the move into landing square m scores at least x for the mover
 * (void once v->out is set). */
static bool c4_at_least(c4_solver *v, uint64_t own, uint64_t all, int ply, uint64_t m, int x)
{
    uint64_t mine = own | m, both = all | m;
    if (c4_won(mine))
        return (C4_CELLS + 1 - ply) / 2 >= x;
    if (ply + 1 == C4_CELLS)
        return 0 >= x;
    if (c4_threats(both ^ mine, both) & c4_landing(both))
        return -(C4_CELLS - ply) / 2 >= x; /* The opponent wins at once. */
    return c4_negamax(v, both ^ mine, both, ply + 1, -x, -x + 1) <= -x;
}

/* The first column (moves() order) whose move scores at least x, or -1. */
static int c4_first_at_least(c4_solver *v, uint64_t own, uint64_t all, int ply, int x)
{
    uint64_t land = c4_landing(all);
    for (int c = 0; c < C4_WIDTH && !v->out; c++)
        if ((land & c4_column(c)) && c4_at_least(v, own, all, ply, land & c4_column(c), x))
            return v->out ? -1 : c;
    return -1;
}

/* The opening book (connect4_book.h): for each position the first player
 * reaches by following it, whatever the second player answers, up to
 * C4_BOOK_PLIES discs, a winning move. An entry is a key (own + all, as in
 * the table) shifted left by 3 over the column, for the position or its
 * mirror image, whichever key is smaller; the entries are sorted. */
#include "connect4_book.h"

static uint64_t c4_mirror(uint64_t b)
{
    uint64_t r = 0;
    for (int c = 0; c < C4_WIDTH; c++)
        r |= (b >> (7 * c) & 0x7f) << (7 * (C4_WIDTH - 1 - c));
    return r;
}

/* The move of book (n sorted entries) for the mover (own) in the position,
 * if it has one: its index in *at. */
static bool c4_book_find(const uint64_t *book, size_t n, uint64_t own, uint64_t all,
                         banyan_move *best, size_t *at)
{
    uint64_t key = own + all, mirror = c4_mirror(key);
    bool flip = mirror < key;
    key = flip ? mirror : key;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (book[mid] >> 3 < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == n || book[lo] >> 3 != key)
        return false;
    int c = (int)(book[lo] & 7);
    *best = (banyan_move)(flip ? C4_WIDTH - 1 - c : c);
    *at = lo;
    return true;
}

/* The opening book's move for the mover in the position, if it has one. */
static bool c4_book_move(uint64_t own, uint64_t all, int ply, banyan_move *best)
{
    size_t at;
    return !(ply & 1) && ply <= C4_BOOK_PLIES &&
           c4_book_find(c4_book, sizeof c4_book / sizeof c4_book[0], own, all, best, &at);
}

/* The book first; then, within reach, the result (win, draw or loss) and a
 * move that keeps it; then, within the exact reach and what is left of the
 * budget, the exact score and the first move that keeps it. A result
 * without its score answers with BANYAN_SOLVE_NO_SCORE. */
static int c4_solve(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                    banyan_move *best, int *score)
{
    const c4 *t = s;
    int ply = t->ply, empties = C4_CELLS - ply, reach = c4_reach(budget);
    if (!t->solver || c4_is_over(t))
        return BANYAN_SOLVE_UNKNOWN;
    uint64_t own = t->discs[ply & 1], all = t->discs[0] | t->discs[1];
    if (t->book && c4_book_move(own, all, ply, best)) {
        *score = BANYAN_SOLVE_NO_SCORE;
        return BANYAN_SOLVE_WIN;
    }
    if (empties > reach + C4_CLASS_REACH)
        return BANYAN_SOLVE_UNKNOWN;
    c4_solver v = {mem, 0, budget, false, stop};
    int value = (C4_CELLS + 1 - ply) / 2, found;
    if (c4_threats(own, all) & c4_landing(all)) { /* The first column that wins at once. */
        for (found = 0; !c4_won(own | (c4_landing(all) & c4_column(found))); found++)
            ;
        *best = (banyan_move)found;
        *score = value;
        return BANYAN_SOLVE_WIN;
    }
    /* The result, then a move that keeps it (in a loss, the first). */
    value = c4_negamax(&v, own, all, ply, 0, 1) > 0    ? 1
            : c4_negamax(&v, own, all, ply, -1, 0) < 0 ? -1
                                                       : 0;
    found = c4_first_at_least(&v, own, all, ply, value < 0 ? -C4_CELLS : value);
    if (v.out || found < 0)
        return BANYAN_SOLVE_UNKNOWN;
    int r = value > 0 ? BANYAN_SOLVE_WIN : value < 0 ? BANYAN_SOLVE_LOSS : BANYAN_SOLVE_DRAW;
    *best = (banyan_move)found;
    *score = value ? BANYAN_SOLVE_NO_SCORE : 0; /* A draw scores 0: exact already. */
    if (!value || empties > reach)
        return r;
    /* The score, then the first column whose move keeps it (each tested
     * with one null-window probe, cheap once the table is warm), within
     * what the result left of the budget: v.nodes goes on counting. */
    value = c4_value(&v, own, all, ply);
    found = v.out ? -1 : c4_first_at_least(&v, own, all, ply, value);
    if (found >= 0) {
        *best = (banyan_move)found;
        *score = value;
    }
    return r;
}

/* ---- The description ---- */

static const banyan_param c4_params[] = {
    {"solver", BANYAN_PARAM_CHOICE, 0, 0, "on|off", "on", 0,
     "the exact solver near the end of the game (alpha-beta), or none", "off"},
    {"book", BANYAN_PARAM_CHOICE, 0, 0, "on|off", "on", 0,
     "the solver's opening book: a winning move for the first player to 10 discs", "off"},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};
_Static_assert(sizeof c4_params / sizeof c4_params[0] == C4_N_PARAMS + 1, "one value a parameter");

/* Append only: any change to this list changes the bench signature. The
 * empty board is searched without the book, which would answer at once. */
const banyan_bench games_bench_connect4[] = {
    {"book=off", "", 50000, 2000000},
    {"", "4453", 50000, 0},
    {"", "2252576253462244111563365343671351441", 20000, 0},
    {"", "44444326", 50000, 0},
    {NULL, NULL, 0, 0},
};

static void c4_board_size(const void *s, int *width, int *height)
{
    (void)s;
    *width = C4_WIDTH;
    *height = C4_HEIGHT;
}

/* Move c is a drop into column c. */
static int c4_place(const void *s, banyan_move m, int *x, int *y)
{
    (void)s;
    if (m >= C4_WIDTH)
        return BANYAN_PLACE_NONE;
    *x = (int)m;
    *y = 0;
    return BANYAN_PLACE_COLUMN;
}

static int c4_place_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    (void)s, (void)y;
    if (kind != BANYAN_PLACE_COLUMN)
        return BANYAN_EINVAL;
    if (x < 0 || x >= C4_WIDTH)
        return BANYAN_ERANGE;
    *out = (banyan_move)x;
    return BANYAN_OK;
}

/* Bit 7 * column + row holds a disc, rows counted from the bottom. */
static int c4_piece(const void *s, int x, int y)
{
    const c4 *t = s;
    if (x < 0 || y < 0 || x >= C4_WIDTH || y >= C4_HEIGHT)
        return -1;
    uint64_t bit = (uint64_t)1 << (7 * x + (C4_HEIGHT - 1 - y));
    return t->discs[0] & bit ? 0 : t->discs[1] & bit ? 1 : -1;
}

/* The winner's four (or more) in a row. */
static int c4_win_line(const void *s, int *x, int *y, int max)
{
    const c4 *t = s;
    if (t->winner == C4_NOBODY)
        return 0;
    return point_win_line(s, c4_piece, C4_WIDTH, C4_HEIGHT, t->winner, 4, false, x, y, max);
}

/* The only illegal drop into a column of the board: a full column. */
static int c4_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    (void)s;
    return m < C4_WIDTH ? snprintf(buf, len, "is full") : 0;
}

static const banyan_tactics connect4_tactics = {
    BANYAN_TACTICS_INIT,
    .solve = c4_solve,
    .mem_size = C4_TT_SIZE * sizeof(uint64_t),
    /* The solver's budgets, measured on this solver (src/budgets.h): 300
     * positions on a node reach about 9 empty squares; on the root, the
     * solver visits about 10 million positions a second, so a quarter of a
     * timed search's time, in slices of 250,000. */
    .solve_node = 300,
    .solve_root = 4000000,
    .solve_root_min = 100000,
    .solve_root_max = 40000000,
    .solve_per_second = 2500000.0,
    .solve_slice = 250000,
    .solve_time_share = 0.5,
};

static const banyan_notation connect4_notation = {
    BANYAN_NOTATION_INIT,        .format_move = c4_format_move,
    .parse_move = c4_parse_move, .load = c4_load,
    .print = c4_print,
};

static const banyan_board connect4_board = {
    BANYAN_BOARD_INIT,       .coords = BANYAN_COORDS_COLUMN, .board_size = c4_board_size,
    .place = c4_place,       .place_move = c4_place_move,    .piece = c4_piece,
    .win_line = c4_win_line,
};

const banyan_game banyan_game_connect4 = {
    BANYAN_GAME_INIT,
    .name = "connect4",
    .state_size = sizeof(c4),
    .n_players = 2,
    .setup = c4_setup,
    .moves = c4_moves,
    .play = c4_play,
    .outcome = c4_outcome,
    .to_move = c4_to_move,
    .rollout = c4_rollout,
    .hash = c4_hash,
    .is_valid = c4_is_valid,
    .title = "Connect Four",
    .params = c4_params,
    .tactics = &connect4_tactics,
    .notation = &connect4_notation,
    .player_names = (const char *const[]){"Red", "Yellow"},
    .explain = c4_explain,
    .board = &connect4_board,
};
