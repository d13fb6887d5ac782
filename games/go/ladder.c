/*
 * ladder.c - Go's ladder reading, for the priors: whether a group in atari
 * that runs is caught all the same (shicho), chased by ataris from either
 * side until it reaches the edge or a wall, or escapes because a stone of
 * its own ("a ladder breaker") lies in the way or a chasing stone can be
 * captured.
 *
 * The reading plays on a copy of the colours alone (444 bytes a position,
 * against the state's 9 KiB), with liberties counted by a flood fill: a
 * ladder's groups are few and its reading deep (up to twice the board's
 * side), so that a position a level keeps the stack small. The defender
 * escapes when he can capture a chasing group in atari, or when running
 * gives three liberties or more; he is caught when running leaves one; with
 * two, the attacker tries an atari on each of them and the defender must
 * escape both. Ko is ignored (a ladder through a ko is rare); a reading
 * that passes GO_LADDER_NODES positions or GO_LADDER_DEPTH runs counts as
 * an escape, so that the priors never claim a ladder they have not read.
 */
#include "go.h"

#include <string.h>

#define GO_LADDER_NODES 200 /* Positions one reading may visit. */
#define GO_LADDER_DEPTH 60  /* Runs one reading may follow (a 19x19 diagonal is 18). */

/* The colours of a position being read, with its stride. */
typedef struct go_lboard {
    uint8_t c[GO_POINTS];
    int stride;
} go_lboard;

/* The distinct points of colour want next to the group at p (its
 * liberties for GO_EMPTY), up to limit of them into out[] (may be NULL);
 * returns their number (at most limit). A flood fill of the group. */
static int go_lgroup_next(const go_lboard *b, int p, int want, int *out, int limit)
{
    const int d[4] = {-b->stride, -1, 1, b->stride};
    uint8_t seen[GO_POINTS];
    int stack[GO_POINTS], top = 0, n = 0, col = b->c[p];
    memset(seen, 0, sizeof seen);
    seen[p] = 1;
    stack[top++] = p;
    while (top) {
        int x = stack[--top];
        for (int i = 0; i < 4; i++) {
            int y = x + d[i];
            if (seen[y])
                continue;
            seen[y] = 1;
            if (b->c[y] == want) {
                if (out)
                    out[n] = y;
                if (++n >= limit)
                    return n;
            } else if (b->c[y] == col) {
                stack[top++] = y;
            }
        }
    }
    return n;
}

/* The distinct liberties of the group at p, up to limit of them into
 * libs[] (may be NULL); returns their number. */
static int go_lgroup_libs(const go_lboard *b, int p, int *libs, int limit)
{
    return go_lgroup_next(b, p, GO_EMPTY, libs, limit);
}

/* Removes the group at p from the board. */
static void go_lgroup_remove(go_lboard *b, int p)
{
    const int d[4] = {-b->stride, -1, 1, b->stride};
    int stack[GO_POINTS], top = 0, col = b->c[p];
    b->c[p] = GO_EMPTY;
    stack[top++] = p;
    while (top) {
        int x = stack[--top];
        for (int i = 0; i < 4; i++)
            if (b->c[x + d[i]] == col) {
                b->c[x + d[i]] = GO_EMPTY;
                stack[top++] = x + d[i];
            }
    }
}

/* Puts a stone of colour col on the empty point p and takes the opposing
 * groups it leaves without liberties. Returns false (the board then
 * undefined) for a suicide. */
static bool go_lplace(go_lboard *b, int p, int col)
{
    const int d[4] = {-b->stride, -1, 1, b->stride};
    b->c[p] = (uint8_t)col;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (b->c[q] == 3 - col && go_lgroup_libs(b, q, NULL, 1) == 0)
            go_lgroup_remove(b, q);
    }
    return go_lgroup_libs(b, p, NULL, 1) > 0;
}

/* Whether some group of the attacker's next to the defender's group at g
 * is in atari: the defender takes it and escapes. */
static bool go_ladder_counter(const go_lboard *b, int g)
{
    int next[GO_POINTS];
    int n = go_lgroup_next(b, g, 3 - b->c[g], next, GO_POINTS);
    for (int i = 0; i < n; i++)
        if (go_lgroup_libs(b, next[i], NULL, 2) == 1)
            return true;
    return false;
}

/* Whether the defender's group at g, in atari with the defender to move on
 * b, escapes (see the file's comment). */
static bool go_ladder_escapes(const go_lboard *b, int g, int depth, int *budget)
{
    int col = b->c[g], lib, libs[3];
    if (--*budget < 0 || depth > GO_LADDER_DEPTH || go_ladder_counter(b, g))
        return true;
    if (go_lgroup_libs(b, g, &lib, 1) != 1)
        return true; /* Not in atari: nothing to read. */
    go_lboard run = *b;
    if (!go_lplace(&run, lib, col))
        return false;
    int n = go_lgroup_libs(&run, g, libs, 3);
    if (n != 2)
        return n >= 3;
    for (int i = 0; i < 2; i++) {
        go_lboard chase = run;
        if (!go_lplace(&chase, libs[i], 3 - col) || chase.c[g] != col ||
            go_lgroup_libs(&chase, g, NULL, 2) != 1)
            continue; /* No atari from there. */
        if (!go_ladder_escapes(&chase, g, depth + 1, budget))
            return false;
    }
    return true;
}

static void go_lboard_load(go_lboard *b, const go *t)
{
    b->stride = t->stride;
    memcpy(b->c, t->color, sizeof b->c);
}

bool go_ladder_caught(const go *t, int g)
{
    go_lboard b;
    int budget = GO_LADDER_NODES;
    go_lboard_load(&b, t);
    return !go_ladder_escapes(&b, g, 0, &budget);
}

bool go_ladder_after(const go *t, int p, int g)
{
    go_lboard b;
    int budget = GO_LADDER_NODES, me = t->turn + 1;
    go_lboard_load(&b, t);
    if (!go_lplace(&b, p, me) || b.c[g] != 3 - me || go_lgroup_libs(&b, g, NULL, 2) != 1)
        return false;
    return !go_ladder_escapes(&b, g, 0, &budget);
}
