/*
 * go.h - what the files of the Go module share, private to games/go/
 * (board.c, playout.c, patterns.c, ladder.c), and what it shows its tests: the game
 * of Go on boards from 9x9 to 19x19: area (Tromp-Taylor) scoring with komi,
 * simple ko in the state, suicide illegal, fixed handicap, GTP coordinates,
 * light and heavy playouts, pattern priors.
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
#ifndef BANYAN_GO_H
#define BANYAN_GO_H

#include <stdbool.h>
#include <stdint.h>

#include "banyan_game.h"

#define GO_MIN_SIZE 9
#define GO_MAX_SIZE 19
#define GO_CELLS    (GO_MAX_SIZE * GO_MAX_SIZE)
#define GO_POINTS   444 /* (19 + 2)^2 = 441 points, rounded up to a multiple of 4. */

enum { GO_EMPTY, GO_BLACK, GO_WHITE, GO_BORDER }; /* Colours of points; a player is colour - 1. */
enum { GO_LIGHT, GO_HEAVY }; /* Playout policies, in the order of the choices. */
enum { GO_P_SIZE, GO_P_KOMI, GO_P_HANDICAP, GO_P_PLAYOUTS, GO_N_PARAMS }; /* go_params' entries. */

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

/* The 3x3 code of point p (see patterns.c). */
static inline unsigned go_code(const go *t, int p)
{
    const int s = t->stride;
    const uint8_t *c = t->color;
    return (unsigned)c[p - s - 1] | (unsigned)c[p - s] << 2 | (unsigned)c[p - s + 1] << 4 |
           (unsigned)c[p - 1] << 6 | (unsigned)c[p + 1] << 8 | (unsigned)c[p + s - 1] << 10 |
           (unsigned)c[p + s] << 12 | (unsigned)c[p + s + 1] << 14;
}

/* ---- Between the files ---- */

/* Puts a stone of the player to move on point p (legal), captures, sets
 * the ko point, and gives the turn to the other player (board.c). */
void go_place(go *t, int p);

/* A pass of the player to move (board.c). */
void go_play_pass(go *t);

/* Distinct liberties, up to limit, that the group of point p would have
 * after colour me plays there (playout.c). */
int go_libs_after(const go *t, int p, int me, int limit);

/* Whether playing p (legal) puts a group of at least min_stones of colour
 * me in atari (playout.c). */
bool go_is_self_atari(const go *t, int p, int me, int min_stones);

/* Ladders (ladder.c). go_ladder_caught: whether the group of stone g, in
 * atari with its colour to move, is caught however it runs (a ladder that
 * works). go_ladder_after: whether the player to move, playing p (legal),
 * puts the opponent's group of stone g in atari and catches it so. A
 * reading too long to finish counts as an escape. */
bool go_ladder_caught(const go *t, int g);
bool go_ladder_after(const go *t, int p, int g);

/* The rollout and playout hooks (playout.c) and the priors (patterns.c). */
void go_rollout(void *s, banyan_rng *rng);
int go_playout(void *s, banyan_rng *rng, banyan_move *moves, int max);
void go_priors(const void *s, const banyan_move *moves, int n, float *out);

/* Whether a 3x3 pattern of the heavy playouts matches the neighbourhood
 * code (go_code): the eight neighbours in the order NW N NE W E SW S SE,
 * two bits each (0 empty, 1 Black, 2 White, 3 off the board), NW in the
 * low bits. One bit a code in go_pattern_bits, which gen_patterns.c writes
 * at build time from the pattern list. */
#define GO_CODES 65536
extern const uint64_t go_pattern_bits[GO_CODES / 64];

static inline bool go_pattern_matches(unsigned code)
{
    return (go_pattern_bits[(code >> 6) & (GO_CODES / 64 - 1)] >> (code & 63)) & 1;
}

#endif /* BANYAN_GO_H */
