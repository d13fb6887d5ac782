/*
 * go.c - the game of Go on boards from 9x9 to 19x19: area (Tromp-Taylor)
 * scoring with komi, simple ko in the state, suicide illegal, fixed
 * handicap, GTP coordinates, light and heavy playouts, pattern priors.
 *
 * The board is padded: point p = (y + 1) * stride + x + 1 with stride =
 * size + 2, so that every point of the board has four neighbours and a
 * border point answers for the off-board ones. A group is named by one of
 * its stones (its root); its stones form a circular list through next[],
 * and it keeps pseudo-liberties: one per (stone, empty neighbour) pair,
 * with their count, the sum of their points and the sum of their squares.
 * A group is in atari exactly when all its pseudo-liberties are the same
 * point, that is when count * sum2 == sum * sum (Cauchy-Schwarz), and that
 * point is then sum / count: Libego's trick, exact without liberty sets.
 *
 * Move codes are y * size + x, y counted from the top as place() says; a
 * pass is size * size. The state keeps no history, so the search sees
 * simple ko only; positional superko is for the game record
 * (BANYAN_RULE_SUPERKO). Two passes in a row end the game, and so does a
 * cap of 3 * size * size plies, which bounds the cycles a superko would
 * forbid in playouts; the board is then scored as it stands.
 */
#include "go.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"

#define GO_MIN_SIZE 9
#define GO_MAX_SIZE 19
#define GO_CELLS    (GO_MAX_SIZE * GO_MAX_SIZE)
#define GO_POINTS   444 /* (19 + 2)^2 = 441 points, rounded up to a multiple of 4. */

enum { GO_EMPTY, GO_BLACK, GO_WHITE, GO_BORDER }; /* Colours of points; a player is colour - 1. */
enum { GO_LIGHT, GO_HEAVY }; /* Playout policies, in the order of the choices. */

typedef struct go_group {
    uint16_t stones; /* Stones of the group. */
    uint16_t libs;   /* Pseudo-liberties: (stone, empty neighbour) pairs. */
    uint32_t sum;    /* Sum of the pseudo-liberties' points. */
    uint32_t sum2;   /* Sum of their squares: below 4 * 361 * 441^2, so 32 bits do. */
} go_group;

typedef struct go {
    uint64_t hash;                /* Zobrist hash of the stones alone. */
    float komi;                   /* Points added to White's area. */
    uint16_t ply;                 /* Moves played since the start (handicap stones excluded). */
    uint16_t ko;                  /* The point the player to move may not retake, or 0. */
    uint16_t last[2];             /* The last move's point and the one before, 0 for a pass. */
    uint16_t n_empty;             /* Empty points of the board: empties[0 .. n_empty). */
    uint8_t size;                 /* Board side, 9 .. 19. */
    uint8_t stride;               /* size + 2: the step from a row to the next. */
    uint8_t turn;                 /* The player to move: 0 Black, 1 White. */
    uint8_t passes;               /* Passes in a row just played (2 ends the game). */
    uint8_t policy;               /* GO_LIGHT or GO_HEAVY: the playout policy. */
    uint8_t handicap;             /* Handicap stones placed at the start. */
    uint8_t color[GO_POINTS];     /* GO_EMPTY, GO_BLACK, GO_WHITE or GO_BORDER. */
    uint16_t group[GO_POINTS];    /* A stone's group root (meaningless for other points). */
    uint16_t next[GO_POINTS];     /* The next stone of the same group, circularly. */
    uint16_t empty_at[GO_POINTS]; /* Where an empty point sits in empties[]. */
    uint16_t empties[GO_CELLS];   /* The empty points, in no particular order. */
    go_group groups[GO_POINTS];   /* Indexed by the group's root point. */
} go;

/* ---- Keys and small helpers ---- */

/* Zobrist keys are computed, not stored: one mix of the point and colour. */
static inline uint64_t go_key(int p, int c)
{
    return banyan_mix64((uint64_t)(p * 4 + c) + 0x476f5a6f62726973ULL);
}

#define GO_KEY_WHITE  0x9e3779b97f4a7c15ULL /* The side to move, when White. */
#define GO_KEY_KO     0x5851f42d4c957f2dULL /* Mixed with the ko point. */
#define GO_KEY_PASSES 0x2545f4914f6cdd1dULL /* Mixed with the passes in a row. */

static inline int go_point(const go *t, int x, int y)
{
    return (y + 1) * t->stride + x + 1;
}

static inline int go_pass(const go *t)
{
    return t->size * t->size;
}

/* The point of move m (not a pass). */
static inline int go_move_point(const go *t, banyan_move m)
{
    return go_point(t, (int)m % t->size, (int)m / t->size);
}

/* The move code of point p, or of a pass for p == 0. */
static inline banyan_move go_point_move(const go *t, int p)
{
    if (!p)
        return (banyan_move)go_pass(t);
    return (banyan_move)((p / t->stride - 1) * t->size + p % t->stride - 1);
}

static inline bool go_is_atari(const go_group *g)
{
    return (uint64_t)g->libs * g->sum2 == (uint64_t)g->sum * g->sum;
}

/* The only liberty of a group in atari. */
static inline int go_atari_lib(const go_group *g)
{
    return (int)(g->sum / g->libs);
}

static inline void go_lib_add(go_group *g, int p)
{
    g->libs++;
    g->sum += (uint32_t)p;
    g->sum2 += (uint32_t)(p * p);
}

static inline void go_lib_sub(go_group *g, int p)
{
    g->libs--;
    g->sum -= (uint32_t)p;
    g->sum2 -= (uint32_t)(p * p);
}

static inline void go_take_empty(go *t, int p)
{
    int i = t->empty_at[p], last = t->empties[--t->n_empty];
    t->empties[i] = (uint16_t)last;
    t->empty_at[last] = (uint16_t)i;
}

static inline void go_add_empty(go *t, int p)
{
    t->empty_at[p] = t->n_empty;
    t->empties[t->n_empty++] = (uint16_t)p;
}

static inline bool go_is_over(const go *t)
{
    return t->passes >= 2 || t->ply >= 3 * t->size * t->size;
}

/* ---- Rules ---- */

/* Whether the player of colour me may play on point p: empty, not the ko
 * point, and not suicide (an empty neighbour, an own group with another
 * liberty, or an opponent group captured). */
static inline bool go_legal(const go *t, int p, int me)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    if (t->color[p] != GO_EMPTY || p == t->ko)
        return false;
    for (int i = 0; i < 4; i++)
        if (t->color[p + d[i]] == GO_EMPTY)
            return true;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], c = t->color[q];
        if (c == me) {
            if (!go_is_atari(&t->groups[t->group[q]]))
                return true;
        } else if (c == 3 - me && go_is_atari(&t->groups[t->group[q]])) {
            return true;
        }
    }
    return false;
}

/* Whether empty point p is an eye of colour me: its four neighbours are
 * me's stones or the border, and the opponent holds at most one diagonal
 * (none on the edge). Filling one's own eye is what playouts never do. */
static inline bool go_is_eye(const go *t, int p, int me)
{
    const int s = t->stride;
    const uint8_t *c = t->color;
    int opp = 3 - me, bad;
#define GO_OWN(q) (c[q] == me || c[q] == GO_BORDER)
    if (!(GO_OWN(p - s) && GO_OWN(p + s) && GO_OWN(p - 1) && GO_OWN(p + 1)))
        return false;
#undef GO_OWN
    bad = (c[p - s - 1] == opp) + (c[p - s + 1] == opp) + (c[p + s - 1] == opp) +
          (c[p + s + 1] == opp);
    bad += (c[p - s - 1] == GO_BORDER) | (c[p - s + 1] == GO_BORDER) | (c[p + s - 1] == GO_BORDER) |
           (c[p + s + 1] == GO_BORDER);
    return bad < 2;
}

/* Joins group b into group a, or a into b, whichever is smaller; returns
 * the root of the union. */
static int go_merge(go *t, int a, int b)
{
    if (t->groups[a].stones < t->groups[b].stones) {
        int x = a;
        a = b;
        b = x;
    }
    int x = b;
    do {
        t->group[x] = (uint16_t)a;
        x = t->next[x];
    } while (x != b);
    uint16_t na = t->next[a];
    t->next[a] = t->next[b];
    t->next[b] = na;
    go_group *ga = &t->groups[a], *gb = &t->groups[b];
    ga->stones = (uint16_t)(ga->stones + gb->stones);
    ga->libs = (uint16_t)(ga->libs + gb->libs);
    ga->sum += gb->sum;
    ga->sum2 += gb->sum2;
    return a;
}

/* Takes group g off the board, giving its points back as liberties to the
 * neighbouring groups; returns the stones removed. */
static int go_remove(go *t, int g)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    int x = g, c = t->color[g], n = t->groups[g].stones;
    do {
        t->color[x] = GO_EMPTY;
        t->hash ^= go_key(x, c);
        go_add_empty(t, x);
        for (int i = 0; i < 4; i++) {
            int y = x + d[i], cy = t->color[y];
            if ((cy == GO_BLACK || cy == GO_WHITE) && t->group[y] != g)
                go_lib_add(&t->groups[t->group[y]], x);
        }
        x = t->next[x];
    } while (x != g);
    return n;
}

/* Puts a stone of the player to move on point p (legal), captures, sets
 * the ko point, and gives the turn to the other player. */
static void go_place(go *t, int p)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    int me = t->turn + 1, opp = 3 - me, captured = 0, cap_at = 0;
    go_take_empty(t, p);
    t->color[p] = (uint8_t)me;
    t->hash ^= go_key(p, me);
    t->group[p] = (uint16_t)p;
    t->next[p] = (uint16_t)p;
    go_group *g = &t->groups[p];
    g->stones = 1;
    g->libs = 0;
    g->sum = 0;
    g->sum2 = 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], c = t->color[q];
        if (c == GO_EMPTY)
            go_lib_add(g, q);
        else if (c != GO_BORDER)
            go_lib_sub(&t->groups[t->group[q]], p);
    }
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (t->color[q] == me && t->group[q] != t->group[p])
            go_merge(t, t->group[p], t->group[q]);
    }
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (t->color[q] == opp && t->groups[t->group[q]].libs == 0) {
            cap_at = q;
            captured += go_remove(t, t->group[q]);
        }
    }
    /* A lone stone that took a lone stone and has that point as its only
     * liberty may not be taken back at once. */
    const go_group *mine = &t->groups[t->group[p]];
    t->ko = (uint16_t)(captured == 1 && mine->stones == 1 && mine->libs == 1 ? cap_at : 0);
    t->last[1] = t->last[0];
    t->last[0] = (uint16_t)p;
    t->passes = 0;
    t->ply++;
    t->turn ^= 1;
}

static void go_play_pass(go *t)
{
    t->ko = 0;
    t->last[1] = t->last[0];
    t->last[0] = 0;
    t->passes++;
    t->ply++;
    t->turn ^= 1;
}

/* Distinct liberties, up to limit, that the group of point p would have
 * after colour me plays there (p empty and legal): p's empty neighbours,
 * the points of opponent groups it captures next to it, and the
 * liberties of the own groups it joins. */
static int go_libs_after(const go *t, int p, int me, int limit)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    int libs[8], n = 0;
#define GO_ADD_LIB(q)                                                                              \
    do {                                                                                           \
        int q_ = (q), k_ = 0;                                                                      \
        while (k_ < n && libs[k_] != q_)                                                           \
            k_++;                                                                                  \
        if (k_ == n && q_ != p) {                                                                  \
            libs[n++] = q_;                                                                        \
            if (n >= limit)                                                                        \
                return n;                                                                          \
        }                                                                                          \
    } while (0)
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], c = t->color[q];
        if (c == GO_EMPTY || (c == 3 - me && go_is_atari(&t->groups[t->group[q]])))
            GO_ADD_LIB(q);
    }
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], g;
        if (t->color[q] != me)
            continue;
        g = t->group[q];
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= t->color[p + d[j]] == me && t->group[p + d[j]] == g;
        if (seen)
            continue;
        int x = g;
        do {
            for (int j = 0; j < 4; j++)
                if (t->color[x + d[j]] == GO_EMPTY)
                    GO_ADD_LIB(x + d[j]);
            x = t->next[x];
        } while (x != g);
    }
#undef GO_ADD_LIB
    return n;
}

/* The stones of the group colour me would make by playing p: one, plus
 * the distinct own groups next to it. */
static int go_stones_after(const go *t, int p, int me)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    int n = 1;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (t->color[q] != me)
            continue;
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= t->color[p + d[j]] == me && t->group[p + d[j]] == t->group[q];
        if (!seen)
            n += t->groups[t->group[q]].stones;
    }
    return n;
}

/* Whether playing p (legal) puts a group of at least min_stones of colour
 * me in atari, captures or not. Cheap when p has two empty neighbours. */
static bool go_is_self_atari(const go *t, int p, int me, int min_stones)
{
    const int s = t->stride;
    int empty = (t->color[p - s] == GO_EMPTY) + (t->color[p + s] == GO_EMPTY) +
                (t->color[p - 1] == GO_EMPTY) + (t->color[p + 1] == GO_EMPTY);
    if (empty >= 2 || go_stones_after(t, p, me) < min_stones)
        return false;
    return go_libs_after(t, p, me, 2) < 2;
}

/* Tromp-Taylor area: stones, and empty regions that reach one colour
 * only. */
static void go_area(const go *t, int *area)
{
    uint8_t seen[GO_POINTS];
    uint16_t stack[GO_CELLS];
    const int d[4] = {-t->stride, -1, 1, t->stride};
    memset(seen, 0, sizeof seen);
    area[0] = area[1] = 0;
    for (int y = 0; y < t->size; y++)
        for (int x = 0; x < t->size; x++) {
            int p = go_point(t, x, y), c = t->color[p];
            if (c != GO_EMPTY) {
                area[c - 1]++;
                continue;
            }
            if (seen[p])
                continue;
            int n = 0, top = 0, reach = 0;
            seen[p] = 1;
            stack[top++] = (uint16_t)p;
            while (top) {
                int q = stack[--top];
                n++;
                for (int i = 0; i < 4; i++) {
                    int r = q + d[i], cr = t->color[r];
                    if (cr == GO_EMPTY && !seen[r]) {
                        seen[r] = 1;
                        stack[top++] = (uint16_t)r;
                    } else {
                        reach |= 1 << cr;
                    }
                }
            }
            if ((reach & 6) == 2)
                area[0] += n;
            else if ((reach & 6) == 4)
                area[1] += n;
        }
}

/* Black's area less White's, less komi. */
static double go_score(const void *s)
{
    const go *t = s;
    int area[2];
    go_area(t, area);
    return (double)(area[0] - area[1]) - (double)t->komi;
}

/* ---- 3x3 patterns ----
 *
 * The eight neighbours of a point, in the order NW N NE W E SW S SE, two
 * bits each (0 empty, 1 Black, 2 White, 3 off the board), make a 16-bit
 * code. A pattern is a mask and a value over the code: the point matches
 * when (code & mask) == value. Each pattern below (MoGo's hane, cut and
 * edge patterns, as Pachi writes them) is expanded at compile time into
 * its 8 rotations and reflections, each with both colourings, so the
 * match is one pass over a constant table. Letters: X and O stones, '.'
 * empty, '#' off the board, '?' anything, 'x' not X (empty or O), 'o' not
 * O (empty or X). */
#define GO_PV(c) ((c) == 'X' ? 1u : (c) == 'O' ? 2u : (c) == '#' ? 3u : 0u)
#define GO_PM(c) ((c) == '?' ? 0u : (c) == 'x' ? 1u : (c) == 'o' ? 2u : 3u)
#define GO_CODE(F, a, b, c, d, e, f, g, h)                                                         \
    (F(a) | F(b) << 2 | F(c) << 4 | F(d) << 6 | F(e) << 8 | F(f) << 10 | F(g) << 12 | F(h) << 14)
/* The colour swap: the two bits of every field exchanged. */
#define GO_SWAP(x) ((((x)&0x5555u) << 1) | (((x) >> 1) & 0x5555u))
#define GO_ENTRY(a, b, c, d, e, f, g, h)                                                           \
    {GO_CODE(GO_PM, a, b, c, d, e, f, g, h), GO_CODE(GO_PV, a, b, c, d, e, f, g, h)},              \
        {GO_SWAP(GO_CODE(GO_PM, a, b, c, d, e, f, g, h)),                                          \
         GO_SWAP(GO_CODE(GO_PV, a, b, c, d, e, f, g, h))},
/* The eight symmetries of the square, as the neighbour each place takes
 * its letter from: identity, the mirrors, the half turn, the transpose and
 * the transpose after each of the others. */
#define GO_PATTERN(a, b, c, d, e, f, g, h)                                                         \
    GO_ENTRY(a, b, c, d, e, f, g, h)                                                               \
    GO_ENTRY(c, b, a, e, d, h, g, f)                                                               \
    GO_ENTRY(f, g, h, d, e, a, b, c)                                                               \
    GO_ENTRY(h, g, f, e, d, c, b, a)                                                               \
    GO_ENTRY(a, d, f, b, g, c, e, h)                                                               \
    GO_ENTRY(f, d, a, g, b, h, e, c)                                                               \
    GO_ENTRY(c, e, h, b, g, a, d, f)                                                               \
    GO_ENTRY(h, e, c, g, b, f, d, a)

typedef struct go_pat {
    uint16_t mask, value;
} go_pat;

/* Each pattern as its three rows, the centre (the move) left out. */
static const go_pat go_patterns[] = {
    /* Hane: enclosing, non-cutting, magari, and the diagonal attachment. */
    GO_PATTERN('X', 'O', 'X', '.', '.', '?', '?', '?')
        GO_PATTERN('X', 'O', '.', '.', '.', '?', '.', '?')
            GO_PATTERN('X', 'O', '?', 'X', '.', 'x', '.', '?')
                GO_PATTERN('.', 'O', '.', 'X', '.', '.', '.', '.')
    /* Cuts: the unprotected cut, the peeping cut, the de, the keima cut. */
    GO_PATTERN('X', 'O', '?', 'O', 'o', '?', 'o', '?')
        GO_PATTERN('X', 'O', '?', 'O', 'X', '?', '?', '?')
            GO_PATTERN('?', 'X', '?', 'O', 'O', 'o', 'o', 'o')
                GO_PATTERN('O', 'X', '?', 'o', 'O', '?', '?', '?')
    /* The edge: chase, block a side cut, block a connection, sagari, cut. */
    GO_PATTERN('X', '.', '?', 'O', '?', '#', '#', '#')
        GO_PATTERN('O', 'X', '?', 'X', 'O', '#', '#', '#')
            GO_PATTERN('?', 'X', '?', 'x', 'O', '#', '#', '#')
                GO_PATTERN('?', 'X', 'O', 'x', 'x', '#', '#', '#')
                    GO_PATTERN('?', 'O', 'X', 'X', 'O', '#', '#', '#')};

#define GO_N_PATTERNS (sizeof go_patterns / sizeof go_patterns[0])

/* The 3x3 code of point p. */
static inline unsigned go_code(const go *t, int p)
{
    const int s = t->stride;
    const uint8_t *c = t->color;
    return (unsigned)c[p - s - 1] | (unsigned)c[p - s] << 2 | (unsigned)c[p - s + 1] << 4 |
           (unsigned)c[p - 1] << 6 | (unsigned)c[p + 1] << 8 | (unsigned)c[p + s - 1] << 10 |
           (unsigned)c[p + s] << 12 | (unsigned)c[p + s + 1] << 14;
}

/* Whether a pattern matches the code; one pass without an early exit, so
 * that the compiler may vectorise it. */
bool go_pattern_matches(unsigned code)
{
    unsigned hit = 0;
    for (size_t i = 0; i < GO_N_PATTERNS; i++)
        hit |= (code & go_patterns[i].mask) == go_patterns[i].value;
    return hit != 0;
}

/* ---- Setup ---- */

/* GTP's fixed handicap points, as (x, y from the bottom) lines: the four
 * corners on the 4th line (3rd below 13x13), then the centre for an odd
 * count, then the sides. */
static int go_handicap_points(int size, int n, int *xs, int *ys)
{
    int a = size >= 13 ? 3 : 2, b = size - 1 - a, mid = size / 2, k = 0;
    if (n < 2 || n > 9 || (n > 4 && size % 2 == 0))
        return n == 0 ? 0 : -1;
#define GO_AT(x, y) (xs[k] = (x), ys[k] = (y), k++)
    GO_AT(a, a);
    GO_AT(b, b);
    if (n >= 3)
        GO_AT(a, b);
    if (n >= 4)
        GO_AT(b, a);
    if (n >= 5 && n % 2) {
        GO_AT(mid, mid);
        n--;
    }
    if (n >= 6) {
        GO_AT(a, mid);
        GO_AT(b, mid);
    }
    if (n >= 8) {
        GO_AT(mid, a);
        GO_AT(mid, b);
    }
#undef GO_AT
    return k;
}

/* An empty board of the given side, komi and playout policy, Black to
 * move. */
static void go_empty_board(go *t, int size, float komi, int policy)
{
    memset(t, 0, sizeof *t);
    t->size = (uint8_t)size;
    t->stride = (uint8_t)(size + 2);
    t->komi = komi;
    t->policy = (uint8_t)policy;
    memset(t->color, GO_BORDER, sizeof t->color);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = go_point(t, x, y);
            t->color[p] = GO_EMPTY;
            go_add_empty(t, p);
        }
}

static int go_setup(void *s, const char *params)
{
    go *t = s;
    long size = GO_MAX_SIZE, handicap = 0;
    double komi = 7.5;
    int policy = GO_HEAVY, rc;
    const char *cursor = params;
    char key[16], val[32];
    while ((rc = banyan_params_next(&cursor, key, sizeof key, val, sizeof val)) == 1) {
        if (!strcmp(key, "size")) {
            if (banyan_parse_int(val, GO_MIN_SIZE, GO_MAX_SIZE, &size) != BANYAN_OK)
                return BANYAN_EINVAL;
        } else if (!strcmp(key, "handicap")) {
            if (banyan_parse_int(val, 0, 9, &handicap) != BANYAN_OK)
                return BANYAN_EINVAL;
        } else if (!strcmp(key, "komi")) {
            char *end;
            komi = strtod(val, &end);
            if (end == val || *end || !(komi >= -150 && komi <= 150))
                return BANYAN_EINVAL;
        } else if (!strcmp(key, "playouts")) {
            if (!strcmp(val, "light"))
                policy = GO_LIGHT;
            else if (!strcmp(val, "heavy"))
                policy = GO_HEAVY;
            else
                return BANYAN_EINVAL;
        } else {
            return BANYAN_EINVAL;
        }
    }
    if (rc != 0)
        return BANYAN_EINVAL;
    int xs[9], ys[9], n_handicap = go_handicap_points((int)size, (int)handicap, xs, ys);
    if (n_handicap < 0)
        return BANYAN_EINVAL;
    go_empty_board(t, (int)size, (float)komi, policy);
    t->handicap = (uint8_t)handicap;
    for (int i = 0; i < n_handicap; i++) {
        go_place(t, go_point(t, xs[i], (int)size - 1 - ys[i]));
        t->turn = 0;
    }
    t->turn = n_handicap ? 1 : 0;
    t->ply = 0;
    t->last[0] = t->last[1] = 0;
    return BANYAN_OK;
}

/* ---- The search's functions ---- */

/* Every legal point in move order, then the pass; nothing once over. */
static int go_moves(const void *s, banyan_move *out)
{
    const go *t = s;
    int n = 0, me = t->turn + 1, m = 0;
    if (go_is_over(t))
        return 0;
    for (int y = 0; y < t->size; y++)
        for (int x = 0; x < t->size; x++, m++)
            if (go_legal(t, go_point(t, x, y), me))
                out[n++] = (banyan_move)m;
    out[n++] = (banyan_move)go_pass(t);
    return n;
}

/* The legal moves less those that fill one of the mover's own eyes. */
static int go_candidates(const void *s, banyan_move *out)
{
    const go *t = s;
    int n = 0, me = t->turn + 1, m = 0;
    if (go_is_over(t))
        return 0;
    for (int y = 0; y < t->size; y++)
        for (int x = 0; x < t->size; x++, m++) {
            int p = go_point(t, x, y);
            if (go_legal(t, p, me) && !go_is_eye(t, p, me))
                out[n++] = (banyan_move)m;
        }
    out[n++] = (banyan_move)go_pass(t);
    return n;
}

static void go_play(void *s, banyan_move m)
{
    go *t = s;
    if ((int)m == go_pass(t))
        go_play_pass(t);
    else
        go_place(t, go_move_point(t, m));
}

static bool go_outcome(const void *s, double *returns)
{
    const go *t = s;
    if (!go_is_over(t))
        return false;
    double score = go_score(t);
    returns[0] = score > 0 ? 1.0 : score < 0 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

static int go_to_move(const void *s)
{
    return ((const go *)s)->turn;
}

/* ---- Playouts ---- */

/* A uniformly random legal point of the player to move that fills none of
 * its eyes, and, when avoid is set, puts no group of 3 or more of its
 * stones in atari; 0 when there is none. Draws without replacement from
 * the empty points: a rejected point is swapped past the end of the part
 * still to draw from, which only reorders empties[]. */
static inline int go_random_point(go *t, banyan_rng *rng, bool avoid)
{
    int me = t->turn + 1;
    for (int k = t->n_empty; k > 0; k--) {
        int i = (int)banyan_rng_below(rng, (uint32_t)k), p = t->empties[i];
        if (go_legal(t, p, me) && !go_is_eye(t, p, me) && !(avoid && go_is_self_atari(t, p, me, 3)))
            return p;
        int q = t->empties[k - 1];
        t->empties[i] = (uint16_t)q;
        t->empty_at[q] = (uint16_t)i;
        t->empties[k - 1] = (uint16_t)p;
        t->empty_at[p] = (uint16_t)(k - 1);
    }
    return 0;
}

/* One of the n points of cands, at random, or 0 when n is 0. */
static inline int go_pick(const int *cands, int n, banyan_rng *rng)
{
    return n ? cands[banyan_rng_below(rng, (uint32_t)n)] : 0;
}

/* Adds p to cands[*n] unless it is there already. */
static inline void go_cand_add(int *cands, int *n, int p)
{
    for (int i = 0; i < *n; i++)
        if (cands[i] == p)
            return;
    cands[(*n)++] = p;
}

/* The heavy policy's answers to the last move: captures of groups in
 * atari next to it, then escapes of the mover's groups it put in atari
 * (capturing a neighbour in atari, or extending where that gains
 * liberties), then the 3x3 patterns around it; 0 when none applies. */
static int go_heavy_point(const go *t, banyan_rng *rng)
{
    const int s = t->stride, d[4] = {-s, -1, 1, s};
    const int d8[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    int me = t->turn + 1, opp = 3 - me, last = t->last[0];
    int cands[32], n = 0;
    if (!last || t->color[last] != opp)
        return 0;
    /* 1. Captures: the opponent's groups at and next to the last move. */
    int around[5] = {last, last + d[0], last + d[1], last + d[2], last + d[3]};
    for (int i = 0; i < 5; i++) {
        int q = around[i];
        if (t->color[q] != opp)
            continue;
        const go_group *g = &t->groups[t->group[q]];
        if (go_is_atari(g)) {
            int lib = go_atari_lib(g);
            if (go_legal(t, lib, me))
                go_cand_add(cands, &n, lib);
        }
    }
    if (n)
        return go_pick(cands, n, rng);
    /* 2. Escapes of the mover's groups next to the last move. */
    for (int i = 1; i < 5; i++) {
        int q = around[i];
        if (t->color[q] != me || !go_is_atari(&t->groups[t->group[q]]))
            continue;
        int g = t->group[q], x = g;
        do { /* Capture a neighbour in atari. */
            for (int j = 0; j < 4; j++) {
                int y = x + d[j];
                if (t->color[y] == opp && go_is_atari(&t->groups[t->group[y]])) {
                    int lib = go_atari_lib(&t->groups[t->group[y]]);
                    if (go_legal(t, lib, me) && n < 28)
                        go_cand_add(cands, &n, lib);
                }
            }
            x = t->next[x];
        } while (x != g);
        int lib = go_atari_lib(&t->groups[g]);
        if (go_legal(t, lib, me) && go_libs_after(t, lib, me, 2) >= 2)
            go_cand_add(cands, &n, lib);
    }
    if (n)
        return go_pick(cands, n, rng);
    /* 3. Patterns around the last move. */
    for (int i = 0; i < 8; i++) {
        int q = last + d8[i];
        if (t->color[q] == GO_EMPTY && go_pattern_matches(go_code(t, q)) && go_legal(t, q, me) &&
            !go_is_self_atari(t, q, me, 2))
            cands[n++] = q;
    }
    return go_pick(cands, n, rng);
}

/* Plays s to the end with its policy, writing the moves played to
 * moves[0 .. max) when moves is not NULL; returns how many it wrote. */
static int go_run(go *t, banyan_rng *rng, banyan_move *moves, int max)
{
    int n = 0;
    bool heavy = t->policy == GO_HEAVY;
    while (!go_is_over(t)) {
        int p = heavy ? go_heavy_point(t, rng) : 0;
        if (!p)
            p = go_random_point(t, rng, heavy);
        if (moves && n < max)
            moves[n++] = go_point_move(t, p);
        if (p)
            go_place(t, p);
        else
            go_play_pass(t);
    }
    return n;
}

static void go_rollout(void *s, banyan_rng *rng)
{
    go_run(s, rng, NULL, 0);
}

static int go_playout(void *s, banyan_rng *rng, banyan_move *moves, int max)
{
    return go_run(s, rng, moves, max);
}

/* ---- Priors ---- */

/* Priors for the moves of s: 1 for a plain move, more for a capture (by
 * the stones taken), an escape from atari that gains liberties, a 3x3
 * pattern (more next to the last move), and nearness to the last two
 * moves; less for a self-atari, for the first and second lines while the
 * board is mostly empty, and for an own eye; a pass is low unless few
 * moves remain. Normalised to sum to 1. */
static void go_priors(const void *s, const banyan_move *moves, int n, float *out)
{
    const go *t = s;
    const int st = t->stride, d[4] = {-st, -1, 1, st};
    int me = t->turn + 1, opp = 3 - me, pass = go_pass(t);
    int stones = t->size * t->size - t->n_empty;
    bool early = stones < t->size * t->size / 4;
    float sum = 0;
    for (int i = 0; i < n; i++) {
        if ((int)moves[i] == pass) {
            out[i] = n <= t->size ? 1.0f : 0.02f;
            sum += out[i];
            continue;
        }
        int p = go_move_point(t, moves[i]);
        int x = (int)moves[i] % t->size, y = (int)moves[i] / t->size;
        float w = 1.0f;
        if (go_is_eye(t, p, me)) {
            out[i] = 0.01f;
            sum += out[i];
            continue;
        }
        for (int k = 0; k < 4; k++) {
            int q = p + d[k], c = t->color[q];
            if (c != GO_BLACK && c != GO_WHITE)
                continue;
            const go_group *g = &t->groups[t->group[q]];
            if (!go_is_atari(g))
                continue;
            if (c == opp)
                w += 3.0f + (float)g->stones;
            else if (go_libs_after(t, p, me, 2) >= 2)
                w += 2.0f + (float)g->stones;
        }
        if (go_is_self_atari(t, p, me, 2))
            w *= 0.1f;
        bool near_last = false;
        for (int k = 0; k < 2; k++) {
            int l = t->last[k];
            if (!l)
                continue;
            int dx = abs(l % st - p % st), dy = abs(l / st - p / st);
            int dist = dx + dy + (dx > dy ? dx : dy);
            if (k == 0 && dx <= 1 && dy <= 1)
                near_last = true;
            if (dist <= 3)
                w *= k == 0 ? 2.0f : 1.5f;
            else if (dist <= 6)
                w *= 1.25f;
        }
        if (go_pattern_matches(go_code(t, p)))
            w *= near_last ? 3.0f : 1.5f;
        if (early) {
            int edge = x < y ? x : y;
            int far = t->size - 1 - (x > y ? x : y);
            edge = edge < far ? edge : far;
            if (edge == 0)
                w *= 0.1f;
            else if (edge == 1)
                w *= 0.4f;
        }
        out[i] = w;
        sum += w;
    }
    for (int i = 0; i < n; i++)
        out[i] /= sum;
}

/* ---- Hash and checks ---- */

static uint64_t go_hash(const void *s)
{
    const go *t = s;
    uint64_t h = t->hash;
    if (t->turn)
        h ^= GO_KEY_WHITE;
    if (t->ko)
        h ^= banyan_mix64(GO_KEY_KO + t->ko);
    if (t->passes)
        h ^= banyan_mix64(GO_KEY_PASSES + t->passes);
    return h;
}

/* Recounts everything the state keeps incrementally: the border, the
 * empty list, each group's stones, list and pseudo-liberties, that no
 * group is without liberties, the ko point and the hash. */
static bool go_is_valid(const void *s)
{
    const go *t = s;
    const int st = t->stride, d[4] = {-st, -1, 1, st};
    uint64_t h = 0;
    int empties = 0;
    if (t->size < GO_MIN_SIZE || t->size > GO_MAX_SIZE || t->stride != t->size + 2 || t->turn > 1 ||
        t->policy > GO_HEAVY || t->passes > 2)
        return false;
    for (int p = 0; p < GO_POINTS; p++) {
        int x = p % st - 1, y = p / st - 1;
        bool on = p < st * st && x >= 0 && y >= 0 && x < t->size && y < t->size;
        int c = t->color[p];
        if (!on) {
            if (c != GO_BORDER)
                return false;
            continue;
        }
        if (c == GO_BORDER)
            return false;
        if (c == GO_EMPTY) {
            empties++;
            if (t->empty_at[p] >= t->n_empty || t->empties[t->empty_at[p]] != p)
                return false;
            continue;
        }
        h ^= go_key(p, c);
        int g = t->group[p];
        if (t->color[g] != c || t->group[g] != g)
            return false;
        if (g == p) {
            /* Walk the root's list: every stone of the group, once. */
            go_group r = {0, 0, 0, 0};
            int x2 = p, k = 0;
            do {
                if (t->color[x2] != c || t->group[x2] != g || ++k > GO_CELLS)
                    return false;
                for (int i = 0; i < 4; i++)
                    if (t->color[x2 + d[i]] == GO_EMPTY)
                        go_lib_add(&r, x2 + d[i]);
                x2 = t->next[x2];
            } while (x2 != p);
            const go_group *gg = &t->groups[g];
            if (k != gg->stones || r.libs != gg->libs || r.sum != gg->sum || r.sum2 != gg->sum2 ||
                gg->libs == 0)
                return false;
        }
        for (int i = 0; i < 4; i++) /* Neighbours of one colour share a group. */
            if (t->color[p + d[i]] == c && t->group[p + d[i]] != g)
                return false;
    }
    if (empties != t->n_empty || h != t->hash)
        return false;
    if (t->ko && t->color[t->ko] != GO_EMPTY)
        return false;
    return true;
}

/* ---- Notation ---- */

static int go_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    const go *t = s;
    if ((int)m == go_pass(t))
        return snprintf(buf, len, "pass");
    if ((int)m > go_pass(t))
        return snprintf(buf, len, "%lu", (unsigned long)m);
    int x = (int)m % t->size, y = (int)m / t->size;
    return snprintf(buf, len, "%c%d", 'A' + x + (x >= 8), t->size - y);
}

/* GTP vertices in any case ("D4", "j9", "pass"), spaces around ignored:
 * a letter A..Z without I, then a row number from the bottom. The one
 * parser is the library's GTP system, so that every front-end refuses the
 * same texts (banyan_game_parse_why says why "I5" is no move). */
static int go_parse_move(const void *s, const char *str, banyan_move *out)
{
    return banyan_game_parse(&banyan_game_go, s, BANYAN_COORDS_GTP, str, out);
}

/* The board form of a position: its size * size points as one word, row
 * by row from the top-left (A19 first on 19x19), 'X' for Black, 'O' for
 * White and '-' or '.' for an empty point, then the player to move, 'X' or
 * 'O' (Othello's form, which the game record writes for SGF's setup
 * stones): the stones are set up, not played, on an empty board of the
 * parameters of *t, with no ko and no move played. Returns 1 when text is
 * no board form (a move list), else BANYAN_OK, BANYAN_EINVAL for a
 * malformed one or BANYAN_EILLEGAL for a group without liberties. */
static int go_load_board(go *t, const char *text)
{
    int n = t->size * t->size, stones[2] = {0, 0};
    const char *p = text + strspn(text, " \t\r\n");
    size_t word = strcspn(p, " \t\r\n");
    if ((word != (size_t)n && word != (size_t)n + 1) || strspn(p, "XxOo.-") < (size_t)n)
        return 1; /* A move list: its words are at most 4 letters long. */
    go_empty_board(t, t->size, t->komi, t->policy);
    for (int i = 0; i < n; i++, p++) {
        int c = (*p | 0x20) == 'x' ? GO_BLACK : (*p | 0x20) == 'o' ? GO_WHITE : GO_EMPTY;
        if (c == GO_EMPTY)
            continue;
        t->turn = (uint8_t)(c - 1);
        go_place(t, go_point(t, i % t->size, i / t->size));
        stones[c - 1]++;
    }
    p += strspn(p, " \t\r\n");
    char side = (char)(*p | 0x20);
    if (side != 'x' && side != 'o')
        return BANYAN_EINVAL;
    p++;
    if (p[strspn(p, " \t\r\n")])
        return BANYAN_EINVAL;
    /* A stone set up without a liberty, or that took one away from the
     * last liberty of another group, captured: no position of Go. */
    int left[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        int c = t->color[go_point(t, i % t->size, i / t->size)];
        if (c == GO_BLACK || c == GO_WHITE)
            left[c - 1]++;
    }
    t->turn = side == 'o';
    t->ko = 0;
    t->ply = 0;
    t->passes = 0;
    t->last[0] = t->last[1] = 0;
    return left[0] == stones[0] && left[1] == stones[1] && go_is_valid(t) ? BANYAN_OK
                                                                          : BANYAN_EILLEGAL;
}

/* A position: the board form (go_load_board), or else the library's move
 * list from *s (GTP vertices separated by spaces or commas, through a copy
 * of the table without this load), so that *s is unchanged by an error. */
static int go_load(void *s, const char *text)
{
    go t;
    if (!text)
        return BANYAN_EINVAL;
    memcpy(&t, s, sizeof t);
    int rc = go_load_board(&t, text);
    if (rc == 1) {
        banyan_game moves = banyan_game_go;
        moves.load = NULL;
        return banyan_game_load(&moves, s, text);
    }
    if (rc == BANYAN_OK)
        memcpy(s, &t, sizeof t);
    return rc;
}

/* Whether (x, y) is a star point: the corners on the 4th line (3rd below
 * 13x13), the centre of an odd board, and the sides of odd boards from
 * 15x15. */
static bool go_is_star(int size, int x, int y)
{
    int a = size >= 13 ? 3 : 2, b = size - 1 - a, mid = size / 2;
    bool odd = size % 2;
    bool xs = x == a || x == b || (odd && x == mid && (size >= 15 || y == mid));
    bool ys = y == a || y == b || (odd && y == mid && (size >= 15 || x == mid));
    return xs && ys;
}

/* The board with GTP labels, row 1 at the bottom, X Black, O White, '+'
 * on empty star points, the last move in parentheses. */
static int go_print(const void *s, banyan_move last, char *buf, size_t len)
{
    const go *t = s;
    char text[(GO_MAX_SIZE + 2) * (2 * GO_MAX_SIZE + 12)], *q = text;
    int lx = -1, ly = -1;
    if (last < (banyan_move)go_pass(t)) { /* Not a pass, nor BANYAN_MOVE_NONE. */
        lx = (int)last % t->size;
        ly = (int)last / t->size;
    }
    q += sprintf(q, "   ");
    for (int x = 0; x < t->size; x++)
        q += sprintf(q, " %c", 'A' + x + (x >= 8));
    *q++ = '\n';
    for (int y = 0; y < t->size; y++) {
        q += sprintf(q, "%2d ", t->size - y);
        for (int x = 0; x <= t->size; x++) {
            bool here = y == ly && x == lx, after = y == ly && x == lx + 1;
            if (x == t->size) {
                *q++ = after ? ')' : ' ';
                break;
            }
            *q++ = here ? '(' : after ? ')' : ' ';
            int c = t->color[go_point(t, x, y)];
            *q++ = c == GO_BLACK               ? 'X'
                   : c == GO_WHITE             ? 'O'
                   : go_is_star(t->size, x, y) ? '+'
                                               : '.';
        }
        q += sprintf(q, "%d\n", t->size - y);
    }
    q += sprintf(q, "   ");
    for (int x = 0; x < t->size; x++)
        q += sprintf(q, " %c", 'A' + x + (x >= 8));
    *q++ = '\n';
    *q = 0;
    return snprintf(buf, len, "%s", text);
}

/* ---- The description ---- */

static const banyan_param go_params[] = {
    {"size", BANYAN_PARAM_INT, GO_MIN_SIZE, GO_MAX_SIZE, NULL, "19",
     BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT, "the board's side", NULL},
    {"komi", BANYAN_PARAM_NUMBER, -150, 150, NULL, "7.5", BANYAN_ROLE_KOMI,
     "points added to White's area", NULL},
    {"handicap", BANYAN_PARAM_INT, 0, 9, NULL, "0", 0,
     "Black's stones on GTP's fixed handicap points (2 to 9, 4 at most on even boards); "
     "White then moves first",
     NULL},
    {"playouts", BANYAN_PARAM_CHOICE, 0, 0, "light|heavy", "heavy", 0,
     "playout policy: heavy (captures, atari escapes, 3x3 patterns, no big self-atari; "
     "measured stronger at equal time), or light (random moves that fill no own eye)",
     "light"},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};

/* Append only: any change to this list changes the bench signature. */
static const banyan_bench go_bench[] = {
    {"size=9 playouts=light", "", 0, 100000},
    {"size=9 playouts=heavy", "", 0, 20000},
    {"size=19 playouts=light", "", 0, 10000},
    {"size=9", "E5 C4 G4 D6 E3 F6", 10000, 0},
    {NULL, NULL, 0, 0},
};

static void go_board_size(const void *s, int *width, int *height)
{
    const go *t = s;
    *width = t->size;
    *height = t->size;
}

static int go_place_of(const void *s, banyan_move m, int *x, int *y)
{
    const go *t = s;
    if ((int)m == go_pass(t))
        return BANYAN_PLACE_PASS;
    if ((int)m > go_pass(t))
        return BANYAN_PLACE_NONE;
    *x = (int)m % t->size;
    *y = (int)m / t->size;
    return BANYAN_PLACE_CELL;
}

static int go_place_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    const go *t = s;
    if (kind == BANYAN_PLACE_PASS) {
        *out = (banyan_move)go_pass(t);
        return BANYAN_OK;
    }
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return BANYAN_ERANGE;
    *out = (banyan_move)(y * t->size + x);
    return BANYAN_OK;
}

static int go_piece(const void *s, int x, int y)
{
    const go *t = s;
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return -1;
    int c = t->color[go_point(t, x, y)];
    return c == GO_BLACK ? 0 : c == GO_WHITE ? 1 : -1;
}

/* The colour of a stone, or of an empty point whose region reaches only
 * that colour's stones; -1 otherwise. */
static int go_owner(const void *s, int x, int y)
{
    const go *t = s;
    const int d[4] = {-t->stride, -1, 1, t->stride};
    uint8_t seen[GO_POINTS];
    uint16_t stack[GO_CELLS];
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return -1;
    int p = go_point(t, x, y), top = 0, reach = 0;
    if (t->color[p] != GO_EMPTY)
        return t->color[p] - 1;
    memset(seen, 0, sizeof seen);
    seen[p] = 1;
    stack[top++] = (uint16_t)p;
    while (top && (reach & 6) != 6) {
        int q = stack[--top];
        for (int i = 0; i < 4; i++) {
            int r = q + d[i], c = t->color[r];
            if (c == GO_EMPTY && !seen[r]) {
                seen[r] = 1;
                stack[top++] = (uint16_t)r;
            } else {
                reach |= 1 << c;
            }
        }
    }
    return (reach & 6) == 2 ? 0 : (reach & 6) == 4 ? 1 : -1;
}

static int go_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    const go *t = s;
    if (go_is_over(t))
        return snprintf(buf, len, "comes after the end of the game");
    if ((int)m >= go_pass(t))
        return 0;
    int p = go_move_point(t, m);
    if (t->color[p] != GO_EMPTY)
        return snprintf(buf, len, "is occupied");
    if (p == t->ko)
        return snprintf(buf, len, "retakes a ko");
    if (!go_legal(t, p, t->turn + 1))
        return snprintf(buf, len, "is suicide");
    return 0;
}

const banyan_game banyan_game_go = {
    .name = "go",
    .state_size = sizeof(go),
    .n_players = 2,
    .setup = go_setup,
    .moves = go_moves,
    .play = go_play,
    .outcome = go_outcome,
    .to_move = go_to_move,
    .format_move = go_format_move,
    .parse_move = go_parse_move,
    .load = go_load,
    .print = go_print,
    .rollout = go_rollout,
    .priors = go_priors,
    .hash = go_hash,
    .is_valid = go_is_valid,
    .candidates = go_candidates,
    .score = go_score,
    .title = "Go",
    .player_names = (const char *const[]){"Black", "White"},
    .score_unit = "points",
    .params = go_params,
    .bench = go_bench,
    .coords = BANYAN_COORDS_GTP | BANYAN_COORDS_SGF,
    .sgf_game = 1,
    .board_size = go_board_size,
    .place = go_place_of,
    .place_move = go_place_move,
    .piece = go_piece,
    .explain = go_explain,
    .playout = go_playout,
    .owner = go_owner,
    .rules = BANYAN_RULE_SUPERKO,
};
