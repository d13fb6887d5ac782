/*
 * morpion.c - Morpion Solitaire (Join Five), a one-player game: from the
 * Greek cross of 36 dots, each move adds a dot that completes a line of five
 * dotted points (across, down or on a diagonal) and draws the line; the
 * score is the number of lines. Under 5T two lines of one direction may
 * share an end point but no segment; under 5D they may share no point.
 *
 * The unbounded grid is a 40x40 one with the cross in the middle (points 15
 * to 24); no dot is ever placed within 4 points of its edge, so a move whose
 * new dot would lie there is not generated. That leaves 11 points beyond
 * the cross on every side, more than the record games use (9 at most).
 *
 * The dots are kept four times, once per direction, as bit lines along it
 * (rows, columns and the two diagonals), so the nine points around a dot in
 * any direction are one shift away. Beside them, per direction, the points
 * (5D) or the segments from each point to the next (5T) that its lines take.
 * The legal moves are kept too, updated by each move: only lines through
 * the new dot can become legal, and only lines of its direction, or those
 * that wanted its point, stop being legal.
 */
#include <stdio.h>
#include <string.h>

#include "banyan_game.h"
#include "bits.h"

#define MOR_SIDE  40                      /* Points a side of the grid. */
#define MOR_LO    4                       /* Dots lie in [MOR_LO, MOR_HI] on both axes. */
#define MOR_HI    (MOR_SIDE - 1 - MOR_LO) /* (The last column and row they may take.) */
#define MOR_CROSS 15                      /* Column and row of the cross's first points. */
#define MOR_REF   (MOR_CROSS + 3)         /* The reference point of Pentasol files. */
#define MOR_PSOL  28                      /* Its coordinates there: Pentasol = ours + 10. */
#define MOR_CODES (1 << 15)               /* Move codes are below it (not all are moves). */
#define MOR_LINES 238                     /* Bit lines of the four views (40 + 40 + 79 + 79). */
#define MOR_MAX   BANYAN_MAX_MOVES        /* Room for the legal moves. */
#define MOR_CAP   200                     /* reward_max: a return beyond it counts as it. */
#define MOR_SALT  0x6d6f7270696f6e00ULL   /* "morpion": salt of the hash keys. */

enum { MOR_5T, MOR_5D };           /* The rules, in the order of the parameter's choices. */
enum { MOR_P_RULE, MOR_N_PARAMS }; /* The entries of mor_params. */

/*
 * Directions, in the order of their Pentasol symbols - | / \ : a step along
 * direction d is (mor_dx[d], mor_dy[d]), y counted downwards as in the
 * files, so '/' rises to the right. The bit line of direction d through
 * (x, y) is mor_vc[d] + mor_vx[d] * x + mor_vy[d] * y, and the point is bit
 * x of it (bit y for the columns): one step along d is one bit up.
 */
static const int mor_dx[4] = {1, 0, 1, 1};
static const int mor_dy[4] = {0, 1, -1, 1};
static const int mor_vx[4] = {0, 1, 1, 1};
static const int mor_vy[4] = {1, 0, 1, -1};
static const int mor_vc[4] = {0, 40, 80, 198};
static const char mor_symbols[] = "-|/\\";

/* The cross, a bit per column for each of its ten rows. */
static const uint16_t mor_cross[10] = {0x078, 0x048, 0x048, 0x3cf, 0x201,
                                       0x201, 0x3cf, 0x048, 0x048, 0x078};

/*
 * A move is the new dot, the direction and where the line lies along it, as
 * Pentasol writes it: the line's middle point is the dot plus `off` steps,
 * off in -2..2, so the line covers dot + (off - 2 .. off + 2) steps. Its
 * code packs them in bit fields, (y - 4) << 10 | (x - 4) << 5 | d << 3 |
 * (off + 2), the dot's coordinates counted from the first column and row a
 * dot may take (5 bits each): codes are below 32,768, and those whose low
 * three bits are above 4 are no moves. The moves of a position are listed
 * in ascending codes, so row by row, then by column, direction and offset.
 */
typedef struct mor {
    uint64_t dots[MOR_LINES]; /* The dots, in the four views. */
    uint64_t used[MOR_LINES]; /* View d: what lines of direction d take (5T: the segment
                                 from a point to the next; 5D: the points). */
    uint64_t hash;            /* Zobrist keys of the lines drawn, and of the rule. */
    uint16_t n_lines;         /* Moves played: the score. */
    uint16_t n_moves;         /* Legal moves in moves[]. */
    uint8_t rule;             /* MOR_5T or MOR_5D. */
    uint8_t pad[3];           /* Zero. */
    uint16_t moves[MOR_MAX];  /* The legal moves, ascending; zero beyond n_moves. */
} mor;

static inline int mor_view(int d, int x, int y)
{
    return mor_vc[d] + mor_vx[d] * x + mor_vy[d] * y;
}

static inline int mor_pos(int d, int x, int y)
{
    return d == 1 ? y : x;
}

static inline bool mor_inside(int x, int y)
{
    return x >= MOR_LO && x <= MOR_HI && y >= MOR_LO && y <= MOR_HI;
}

static inline bool mor_is_dot(const mor *t, int x, int y)
{
    return t->dots[y] >> x & 1;
}

/* What one line takes in its view: 4 segments (5T) or 5 points (5D). */
static inline uint64_t mor_mask(const mor *t)
{
    return t->rule == MOR_5T ? 0xf : 0x1f;
}

static inline uint64_t mor_key(int view, int start)
{
    return banyan_mix64(((uint64_t)view << 6 | (uint64_t)start) ^ MOR_SALT);
}

static inline banyan_move mor_code(int x, int y, int d, int off)
{
    return (banyan_move)((y - MOR_LO) << 10 | (x - MOR_LO) << 5 | d << 3 | (off + 2));
}

/* Whether m is the code of a move (of this grid, legal or not). */
static inline bool mor_is_code(banyan_move m)
{
    return m < MOR_CODES && (m & 7) <= 4;
}

static inline void mor_decode(banyan_move m, int *x, int *y, int *d, int *off)
{
    *x = (int)(m >> 5 & 31) + MOR_LO;
    *y = (int)(m >> 10) + MOR_LO;
    *d = (int)(m >> 3 & 3);
    *off = (int)(m & 7) - 2;
}

static inline void mor_set_dot(mor *t, int x, int y)
{
    for (int d = 0; d < 4; d++)
        t->dots[mor_view(d, x, y)] |= (uint64_t)1 << mor_pos(d, x, y);
}

/* Whether legal move m of some earlier position is still legal in t: its
 * dot still empty and its line still free. The other four points stay
 * dotted once they are. */
static inline bool mor_still_legal(const mor *t, banyan_move m)
{
    int x, y, d, off;
    mor_decode(m, &x, &y, &d, &off);
    if (mor_is_dot(t, x, y))
        return false;
    int start = mor_pos(d, x, y) + off - 2;
    return !(t->used[mor_view(d, x, y)] >> start & mor_mask(t));
}

/* Writes to out the legal moves whose line passes through the dot (x, y),
 * just placed, and returns their number (at most 20). The nine points
 * around the dot in direction d (the dot is bit 4) fill bits 16 d .. 16 d +
 * 8 of `empty` (the points without a dot) and of `used` (what lines take
 * there), so that the twenty lines through the dot are judged at once: the
 * line from bit s is legal when exactly one of its five points is empty
 * (`one` gets bit s when it has an empty point, `two` when it has two) and
 * none of it is taken. Bits that a shift carries into the top of the lane
 * below lie above its five starts and are masked away. */
static int mor_moves_through(const mor *t, int x, int y, uint16_t *out)
{
    uint64_t empty = 0, used = 0, one = 0, two = 0, taken = 0;
    int n = 0, reach = t->rule == MOR_5T ? 4 : 5; /* Bits a line takes. */
    for (int d = 0; d < 4; d++) {
        int v = mor_view(d, x, y), base = mor_pos(d, x, y) - 4;
        empty |= (~t->dots[v] >> base & 0x1ff) << 16 * d;
        used |= (t->used[v] >> base & 0x1ff) << 16 * d;
    }
    for (int k = 0; k < 5; k++) {
        two |= one & empty >> k;
        one |= empty >> k;
        taken |= k < reach ? used >> k : 0;
    }
    uint64_t ok = one & ~two & ~taken & 0x001f001f001f001fULL;
    for (int d = 0; ok; d++, ok >>= 16)
        for (uint64_t lane = ok & 0x1f; lane;) {
            int s = bits_pop(&lane);
            /* The one empty point of the line: bit j of its five. */
            int j = bits_low(empty >> (16 * d + s) & 0x1f), step = s + j - 4;
            int ex = x + step * mor_dx[d], ey = y + step * mor_dy[d];
            if (mor_inside(ex, ey))
                out[n++] = (uint16_t)mor_code(ex, ey, d, 2 - j);
        }
    return n;
}

/* Every legal move of t, in ascending codes, into out; their number. */
static int mor_moves_all(const mor *t, uint16_t *out)
{
    uint64_t mask = mor_mask(t);
    int n = 0;
    for (int y = MOR_LO; y <= MOR_HI; y++)
        for (int x = MOR_LO; x <= MOR_HI; x++) {
            if (mor_is_dot(t, x, y))
                continue;
            for (int d = 0; d < 4; d++) {
                int v = mor_view(d, x, y), base = mor_pos(d, x, y) - 4;
                uint32_t dots = (uint32_t)(t->dots[v] >> base) & 0x1ff;
                for (int s = 0; s < 5; s++)
                    if ((dots >> s & 0x1f) == (0x1fu & ~(1u << (4 - s))) &&
                        !(t->used[v] >> (base + s) & mask) && n < MOR_MAX)
                        out[n++] = (uint16_t)mor_code(x, y, d, s - 2);
            }
        }
    return n;
}

/* Draws legal move m: its dot, what its line takes, its hash key. */
static inline void mor_draw(mor *t, banyan_move m, int *x, int *y)
{
    int d, off;
    mor_decode(m, x, y, &d, &off);
    int v = mor_view(d, *x, *y), start = mor_pos(d, *x, *y) + off - 2;
    mor_set_dot(t, *x, *y);
    t->used[v] |= mor_mask(t) << start;
    t->hash ^= mor_key(v, start);
    t->n_lines++;
}

static void mor_start(mor *t, int rule)
{
    memset(t, 0, sizeof *t);
    t->rule = (uint8_t)rule;
    for (int r = 0; r < 10; r++)
        for (int c = 0; c < 10; c++)
            if (mor_cross[r] >> c & 1)
                mor_set_dot(t, MOR_CROSS + c, MOR_CROSS + r);
    t->hash = banyan_mix64(MOR_SALT + (uint64_t)rule);
    t->n_moves = (uint16_t)mor_moves_all(t, t->moves);
}

/* One parameter, rule=5t|5d (mor_params). */
static int mor_setup(void *s, const char *params)
{
    banyan_value v[MOR_N_PARAMS];
    if (banyan_params_read(banyan_game_morpion.params, params, v) != BANYAN_OK)
        return BANYAN_EINVAL;
    mor_start(s, v[MOR_P_RULE].choice);
    return BANYAN_OK;
}

static int mor_moves(const void *s, banyan_move *out)
{
    const mor *t = s;
    for (int i = 0; i < t->n_moves; i++)
        out[i] = t->moves[i];
    return t->n_moves;
}

/* Keeps the moves that stay legal, in order, then merges in those through
 * the new dot. The list never comes near its room (games from the cross
 * have well under a hundred legal moves); if it did, the largest new codes
 * would be dropped and is_valid would say so. */
static void mor_play(void *s, banyan_move m)
{
    mor *t = s;
    uint16_t fresh[20];
    int x, y, n = 0;
    mor_draw(t, m, &x, &y);
    for (int i = 0; i < t->n_moves; i++)
        if (mor_still_legal(t, t->moves[i]))
            t->moves[n++] = t->moves[i];
    int k = mor_moves_through(t, x, y, fresh);
    for (int i = 1; i < k; i++) /* Insertion sort of at most 20. */
        for (int j = i; j > 0 && fresh[j - 1] > fresh[j]; j--) {
            uint16_t c = fresh[j];
            fresh[j] = fresh[j - 1];
            fresh[j - 1] = c;
        }
    if (n + k > MOR_MAX)
        k = MOR_MAX - n;
    memset(t->moves + n, 0, (size_t)(t->n_moves - n) * sizeof t->moves[0]);
    for (int i = n - 1, j = k - 1, w = n + k - 1; j >= 0; w--) /* Merge from the top. */
        t->moves[w] = i >= 0 && t->moves[i] > fresh[j] ? t->moves[i--] : fresh[j--];
    t->n_moves = (uint16_t)(n + k);
}

/* The return is the number of lines drawn, capped at reward_max, 200: no
 * game of either rule is known to reach it (the records are 178 in 5T and
 * 82 in 5D), and a longer one would count as 200 to the search. The search
 * maps [0, 200] onto [0, 1]: random games (54 moves in 5T, 43 in 5D on
 * average) land near a quarter, good ones above a half, so values stay
 * spread where the search compares them; score() has the plain count. */
static bool mor_outcome(const void *s, double *returns)
{
    const mor *t = s;
    if (t->n_moves)
        return false;
    returns[0] = t->n_lines < MOR_CAP ? t->n_lines : MOR_CAP;
    return true;
}

static int mor_to_move(const void *s)
{
    (void)s;
    return 0;
}

static double mor_score(const void *s)
{
    return ((const mor *)s)->n_lines;
}

/*
 * Uniformly random moves to the end, writing the first max of them to out.
 * The list is kept lazily: a move drawn from it is checked, and one that is
 * no longer legal is dropped and another drawn, which leaves every legal
 * move equally likely; the moves through each new dot are appended. So a
 * move costs about one check and the moves it creates, not a pass over the
 * list. When the list is about to run out of room, the stale moves go
 * first.
 */
static int mor_run(mor *t, banyan_rng *rng, banyan_move *out, int max)
{
    int n = t->n_moves, high = n, written = 0;
    uint16_t *list = t->moves;
    while (n > 0) {
        uint32_t i = banyan_rng_below(rng, (uint32_t)n);
        uint16_t m = list[i];
        int x, y;
        list[i] = list[--n];
        if (!mor_still_legal(t, m))
            continue;
        mor_draw(t, m, &x, &y);
        if (written < max)
            out[written++] = m;
        if (n + 20 <= MOR_MAX) {
            n += mor_moves_through(t, x, y, list + n);
        } else {
            uint16_t fresh[20];
            int k = 0, n_fresh = mor_moves_through(t, x, y, fresh);
            for (int j = 0; j < n; j++)
                if (mor_still_legal(t, list[j]))
                    list[k++] = list[j];
            for (int j = 0; j < n_fresh && k < MOR_MAX; j++)
                list[k++] = fresh[j];
            n = k;
        }
        high = n > high ? n : high;
    }
    memset(list, 0, (size_t)high * sizeof list[0]);
    t->n_moves = 0;
    return written;
}

static void mor_rollout(void *s, banyan_rng *rng)
{
    mor_run(s, rng, NULL, 0);
}

static int mor_playout(void *s, banyan_rng *rng, banyan_move *moves, int max)
{
    return mor_run(s, rng, moves, max);
}

static uint64_t mor_hash(const void *s)
{
    return ((const mor *)s)->hash;
}

/* ---- Notation: Pentasol's ---- */

/*
 * Moves are written as in the files of the Pentasol program, which
 * Christian Boyer's morpionsolitaire.com uses for its record grids (and
 * papers their appendices): "(x,y) d o", the new dot's column and row (y
 * downwards), the direction's symbol (- | / \) and the offset from the dot
 * to the middle of the line along the direction (-2 to +2; "+2" means the
 * dot is the line's left end, or its top end for '|', its lower left end
 * for '/' and its upper left one for '\'). The cross occupies columns and
 * rows 25 to 34, and a file's first line "(28,28)" names the reference
 * point, the inner corner of the cross's north-west arm, so that a file
 * whose reference lies elsewhere shifts all its points by the difference.
 */

static inline bool mor_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void mor_skip_space(const char **p)
{
    while (mor_is_space(**p))
        (*p)++;
}

/* Reads an optionally signed decimal number of at most 6 digits. */
static bool mor_read_int(const char **p, int *out)
{
    const char *q = *p;
    int sign = 1, v = 0, digits = 0;
    if (*q == '-' || *q == '+')
        sign = *q++ == '-' ? -1 : 1;
    for (; *q >= '0' && *q <= '9'; q++) {
        if (++digits > 6)
            return false;
        v = v * 10 + (*q - '0');
    }
    if (!digits)
        return false;
    *out = sign * v;
    *p = q;
    return true;
}

/* Reads "(x,y)" with optional spaces inside, or returns false. */
static bool mor_read_point(const char **p, int *x, int *y)
{
    const char *q = *p;
    if (*q++ != '(')
        return false;
    mor_skip_space(&q);
    if (!mor_read_int(&q, x))
        return false;
    mor_skip_space(&q);
    if (*q++ != ',')
        return false;
    mor_skip_space(&q);
    if (!mor_read_int(&q, y))
        return false;
    mor_skip_space(&q);
    if (*q++ != ')')
        return false;
    *p = q;
    return true;
}

/* Reads the direction and offset after a point: " - +2". Returns false when
 * there is none (a bare point: a reference); *bad is set when the text
 * starts like one but is not. */
static bool mor_read_line(const char **p, int *d, int *off, bool *bad)
{
    const char *q = *p;
    const char *sym;
    *bad = false;
    mor_skip_space(&q);
    if (!*q || !(sym = strchr(mor_symbols, *q)))
        return false;
    q++;
    mor_skip_space(&q);
    if (!mor_read_int(&q, off) || *off < -2 || *off > 2) {
        *bad = true;
        return false;
    }
    *d = (int)(sym - mor_symbols);
    *p = q;
    return true;
}

/* The code of the move with its dot at Pentasol (px, py), from a reference
 * at (rx, ry): BANYAN_OK, or BANYAN_ERANGE for a dot off the grid. */
static int mor_from_text(int px, int py, int rx, int ry, int d, int off, banyan_move *out)
{
    long x = (long)px - rx + MOR_REF, y = (long)py - ry + MOR_REF;
    if (x < MOR_LO || x > MOR_HI || y < MOR_LO || y > MOR_HI)
        return BANYAN_ERANGE;
    *out = mor_code((int)x, (int)y, d, off);
    return BANYAN_OK;
}

static int mor_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    int x, y, d, off;
    (void)s;
    if (!mor_is_code(m))
        return snprintf(buf, len, "?");
    mor_decode(m, &x, &y, &d, &off);
    return snprintf(buf, len, off ? "(%d,%d) %c %+d" : "(%d,%d) %c %d", x - MOR_REF + MOR_PSOL,
                    y - MOR_REF + MOR_PSOL, mor_symbols[d], off);
}

static int mor_parse_move(const void *s, const char *str, banyan_move *out)
{
    const char *p = str;
    int x, y, d, off;
    bool bad;
    (void)s;
    if (!p)
        return BANYAN_EINVAL;
    mor_skip_space(&p);
    if (!mor_read_point(&p, &x, &y) || !mor_read_line(&p, &d, &off, &bad))
        return BANYAN_EINVAL;
    mor_skip_space(&p);
    if (*p)
        return BANYAN_EINVAL;
    return mor_from_text(x, y, MOR_PSOL, MOR_PSOL, d, off, out);
}

static bool mor_is_legal(const mor *t, banyan_move m)
{
    int lo = 0, hi = t->n_moves; /* Binary search of the ascending list. */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->moves[mid] < m)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_moves && t->moves[lo] == m;
}

/* A game as a Pentasol file: the reference point, then a move a line. */
static int mor_write(const void *s, const banyan_move *moves, int n, char *buf, size_t len)
{
    int k = snprintf(buf, len, "(%d,%d)\n", MOR_PSOL, MOR_PSOL);
    size_t at = k > 0 ? (size_t)k : 0;
    for (int i = 0; i < n; i++) {
        at += (size_t)mor_format_move(s, moves[i], at < len ? buf + at : NULL,
                                      at < len ? len - at : 0);
        at += (size_t)snprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, "\n");
    }
    return (int)at;
}

/* Skips spaces, commas and '#' comments up to the end of their line. */
static void mor_skip_separators(const char **p)
{
    for (;;) {
        while (mor_is_space(**p) || **p == ',')
            (*p)++;
        if (**p != '#')
            return;
        while (**p && **p != '\n')
            (*p)++;
    }
}

/* A position is the moves from the cross, a Pentasol file as it is: an
 * optional reference point first, then moves, separated by white space or
 * commas, with '#' comments. The rule is kept from *s. */
static int mor_load(void *s, const char *text)
{
    mor t;
    const char *p = text;
    int rx = MOR_PSOL, ry = MOR_PSOL;
    bool first = true;
    if (!p)
        return BANYAN_EINVAL;
    mor_start(&t, ((const mor *)s)->rule);
    for (mor_skip_separators(&p); *p; mor_skip_separators(&p), first = false) {
        int x, y, d, off, rc;
        bool bad;
        banyan_move m;
        if (!mor_read_point(&p, &x, &y))
            return BANYAN_EINVAL;
        if (!mor_read_line(&p, &d, &off, &bad)) {
            if (bad || !first)
                return BANYAN_EINVAL;
            rx = x; /* The reference point, first alone. */
            ry = y;
            continue;
        }
        if (*p && !mor_is_space(*p) && *p != ',' && *p != '#' && *p != '(')
            return BANYAN_EINVAL;
        if ((rc = mor_from_text(x, y, rx, ry, d, off, &m)) != BANYAN_OK)
            return rc;
        if (!mor_is_legal(&t, m))
            return BANYAN_EILLEGAL;
        mor_play(&t, m);
    }
    memcpy(s, &t, sizeof t);
    return BANYAN_OK;
}

/* Whether the segment from (x, y) one step along d is drawn. Under 5D a run
 * of taken points holds whole lines end to end, so a segment is drawn
 * unless it joins two of them. */
static bool mor_drawn(const mor *t, int d, int x, int y)
{
    uint64_t line = t->used[mor_view(d, x, y)];
    int pos = mor_pos(d, x, y), start = pos;
    if (t->rule == MOR_5T)
        return line >> pos & 1;
    if (!(line >> pos & 1) || !(line >> (pos + 1) & 1))
        return false;
    while (start > 0 && line >> (start - 1) & 1)
        start--;
    return (pos - start) % 5 != 4;
}

/* Text written snprintf-style: what fits, and the length it needs. Spaces
 * wait until something follows them on their line, so that no line ends in
 * spaces. */
typedef struct mor_text {
    char *buf;     /* The caller's buffer. */
    size_t len;    /* Its size. */
    size_t n;      /* Characters written so far, or that would have been. */
    size_t spaces; /* Spaces not written yet. */
} mor_text;

static void mor_put_char(mor_text *o, char c)
{
    if (o->n + 1 < o->len)
        o->buf[o->n] = c;
    o->n++;
}

static void mor_put(mor_text *o, char c)
{
    if (c == ' ') {
        o->spaces++;
        return;
    }
    if (c != '\n')
        for (; o->spaces; o->spaces--)
            mor_put_char(o, ' ');
    o->spaces = 0;
    mor_put_char(o, c);
}

static bool mor_in_cross(int x, int y)
{
    int c = x - MOR_CROSS, r = y - MOR_CROSS;
    return c >= 0 && c < 10 && r >= 0 && r < 10 && mor_cross[r] >> c & 1;
}

/*
 * The dots that are drawn, a point every other column and row with the
 * segments between: 'o' a dot of the cross, '*' a dot played, '@' the last
 * move's dot, '.' an empty point; '-', '|', '/' and '\' the lines ('X'
 * where two diagonals cross). The columns are labelled with their Pentasol
 * x down two rows (tens, then units), the rows with y, around the dots.
 */
static int mor_print(const void *s, banyan_move last, char *buf, size_t len)
{
    const mor *t = s;
    mor_text o = {buf, len, 0, 0};
    int x0 = MOR_SIDE, x1 = 0, y0 = MOR_SIDE, y1 = 0, lx = -1, ly = -1, d, off;
    char head[64];
    if (mor_is_code(last))
        mor_decode(last, &lx, &ly, &d, &off);
    for (int y = 0; y < MOR_SIDE; y++)
        for (int x = 0; x < MOR_SIDE; x++)
            if (mor_is_dot(t, x, y)) {
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0;
                y1 = y > y1 ? y : y1;
            }
    x0--, x1++, y0--, y1++; /* A ring of empty points; dots never touch the edge. */
    snprintf(head, sizeof head, "%s, %d moves played, %d legal\n", t->rule == MOR_5T ? "5T" : "5D",
             t->n_lines, t->n_moves);
    for (const char *c = head; *c; c++)
        mor_put(&o, *c);
    for (int digit = 10; digit >= 1; digit /= 10) {
        for (int i = 0; i < 4; i++)
            mor_put(&o, ' ');
        for (int x = x0; x <= x1; x++) {
            mor_put(&o, (char)('0' + (x - MOR_REF + MOR_PSOL) / digit % 10));
            if (x < x1)
                mor_put(&o, ' ');
        }
        mor_put(&o, '\n');
    }
    for (int y = y0; y <= y1; y++) {
        char label[16];
        snprintf(label, sizeof label, "%3d ", y - MOR_REF + MOR_PSOL);
        for (const char *c = label; *c; c++)
            mor_put(&o, *c);
        for (int x = x0; x <= x1; x++) {
            char c = !mor_is_dot(t, x, y) ? '.'
                     : x == lx && y == ly ? '@'
                     : mor_in_cross(x, y) ? 'o'
                                          : '*';
            mor_put(&o, c);
            if (x < x1)
                mor_put(&o, mor_drawn(t, 0, x, y) ? '-' : ' ');
        }
        mor_put(&o, '\n');
        if (y == y1)
            break;
        for (int i = 0; i < 4; i++)
            mor_put(&o, ' ');
        for (int x = x0; x <= x1; x++) {
            mor_put(&o, mor_drawn(t, 1, x, y) ? '|' : ' ');
            if (x == x1)
                break;
            bool down = mor_drawn(t, 3, x, y), up = mor_drawn(t, 2, x, y + 1);
            mor_put(&o, down && up ? 'X' : down ? '\\' : up ? '/' : ' ');
        }
        mor_put(&o, '\n');
    }
    if (len)
        buf[o.n < len ? o.n : len - 1] = 0;
    return (int)o.n;
}

/* Why m is not legal, for people. */
static int mor_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    const mor *t = s;
    int x, y, d, off, dots = 0;
    if (!mor_is_code(m))
        return 0;
    mor_decode(m, &x, &y, &d, &off);
    if (mor_is_dot(t, x, y))
        return snprintf(buf, len, "puts a dot on a dot");
    for (int k = off - 2; k <= off + 2; k++)
        dots += mor_is_dot(t, x + k * mor_dx[d], y + k * mor_dy[d]);
    if (dots < 4)
        return snprintf(buf, len, "does not complete a line of five dots");
    if (!mor_still_legal(t, m))
        return snprintf(buf, len,
                        t->rule == MOR_5T ? "overlaps a line of the same direction"
                                          : "touches a line of the same direction (5D)");
    return 0;
}

/*
 * The invariants, rebuilt from the lines: the lines are recovered from what
 * they take (under 5T runs of taken segments are whole lines end to end,
 * 4 segments each; under 5D runs of taken points, 5 each). Each line's
 * points are dots; the dots are the cross and the lines' points, one dot a
 * line beyond the cross, in the four views alike and off the edge; the
 * hash and the legal moves are those of the lines.
 */
static bool mor_is_valid(const void *s)
{
    static const int bases[4] = {0, 40, 80, 159}, counts[4] = {40, 40, 79, 79};
    const mor *t = s;
    mor r;
    uint16_t all[MOR_MAX];
    int n_lines = 0, per = t->rule == MOR_5T ? 4 : 5;
    if (t->rule > MOR_5D || t->pad[0] || t->pad[1] || t->pad[2] || t->n_moves > MOR_MAX)
        return false;
    for (int i = t->n_moves; i < MOR_MAX; i++)
        if (t->moves[i])
            return false;
    memset(&r, 0, sizeof r);
    r.rule = t->rule;
    r.hash = banyan_mix64(MOR_SALT + (uint64_t)t->rule);
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 10; x++)
            if (mor_cross[y] >> x & 1)
                mor_set_dot(&r, MOR_CROSS + x, MOR_CROSS + y);
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < counts[d]; i++) {
            int view = bases[d] + i;
            uint64_t bits = t->used[view];
            for (int pos = 0; pos < 64;) {
                if (!(bits >> pos & 1)) {
                    pos++;
                    continue;
                }
                int run = 0;
                while (pos + run < 64 && bits >> (pos + run) & 1)
                    run++;
                if (run % per)
                    return false;
                for (int start = pos; start < pos + run; start += per) {
                    /* The line's first point, from its view and place. */
                    int x = d == 1 ? view - 40 : start;
                    int y = d == 0   ? view
                            : d == 1 ? start
                            : d == 2 ? view - 80 - start
                                     : start + 198 - view;
                    for (int k = 0; k < 5; k++) {
                        int px = x + k * mor_dx[d], py = y + k * mor_dy[d];
                        if (!mor_inside(px, py) || !mor_is_dot(t, px, py))
                            return false;
                        mor_set_dot(&r, px, py);
                    }
                    r.hash ^= mor_key(view, start);
                    n_lines++;
                }
                pos += run;
            }
        }
    if (n_lines != t->n_lines || memcmp(r.dots, t->dots, sizeof r.dots) || r.hash != t->hash)
        return false;
    int dots = 0;
    for (int y = 0; y < MOR_SIDE; y++)
        dots += bits_count(t->dots[y]);
    if (dots != 36 + n_lines)
        return false;
    memcpy(r.used, t->used, sizeof r.used);
    int n = mor_moves_all(&r, all);
    return n == t->n_moves && !memcmp(all, t->moves, (size_t)n * sizeof all[0]);
}

/* ---- The description ---- */

static const banyan_param mor_params[] = {
    {"rule", BANYAN_PARAM_CHOICE, 0, 0, "5t|5d", "5t", BANYAN_ROLE_RULE,
     "5t: lines of one direction may share an end point (touching); 5d: no point (disjoint)", NULL},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};
_Static_assert(sizeof mor_params / sizeof mor_params[0] == MOR_N_PARAMS + 1,
               "one value a parameter");

/* Append only: any change to this list changes the bench signature. */
const banyan_bench games_bench_morpion[] = {
    {"", "", 20000, 200000},
    {"rule=5d", "", 0, 200000},
    {NULL, NULL, 0, 0},
};

static const banyan_notation morpion_notation = {
    BANYAN_NOTATION_INIT,         .format_move = mor_format_move,
    .parse_move = mor_parse_move, .load = mor_load,
    .print = mor_print,           .write = mor_write,
};

const banyan_game banyan_game_morpion = {
    BANYAN_GAME_INIT,
    .name = "morpion",
    .state_size = sizeof(mor),
    .n_players = 1,
    .reward_min = 0,
    .reward_max = MOR_CAP,
    .setup = mor_setup,
    .moves = mor_moves,
    .play = mor_play,
    .outcome = mor_outcome,
    .to_move = mor_to_move,
    .rollout = mor_rollout,
    .hash = mor_hash,
    .is_valid = mor_is_valid,
    .score = mor_score,
    .title = "Morpion Solitaire",
    .params = mor_params,
    .playout = mor_playout,
    .notation = &morpion_notation,
    .score_unit = "moves",
    .explain = mor_explain,
};
