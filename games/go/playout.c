/*
 * playout.c - Go's playouts, light (uniform without own-eye fills) and
 * heavy (captures, atari escapes, 3x3 patterns, no big self-atari), and the
 * tactical reading they share with the priors: the liberties and stones a
 * move would leave.
 */
#include "go.h"

/* ---- Tactics ---- */

/* Distinct liberties, up to limit, that the group of point p would have
 * after colour me plays there (p empty and legal): p's empty neighbours,
 * the points of opponent groups it captures next to it, and the
 * liberties of the own groups it joins. */
int go_libs_after(const go *t, int p, int me, int limit)
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
bool go_is_self_atari(const go *t, int p, int me, int min_stones)
{
    const int s = t->stride;
    int empty = (t->color[p - s] == GO_EMPTY) + (t->color[p + s] == GO_EMPTY) +
                (t->color[p - 1] == GO_EMPTY) + (t->color[p + 1] == GO_EMPTY);
    if (empty >= 2 || go_stones_after(t, p, me) < min_stones)
        return false;
    return go_libs_after(t, p, me, 2) < 2;
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

void go_rollout(void *s, banyan_rng *rng)
{
    go_run(s, rng, NULL, 0);
}

int go_playout(void *s, banyan_rng *rng, banyan_move *moves, int max)
{
    return go_run(s, rng, moves, max);
}
