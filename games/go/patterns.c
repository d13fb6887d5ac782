/*
 * patterns.c - the priors of Go's search: what the game knows of a move
 * before the search has tried it (its 3x3 pattern from go_pattern_bits,
 * which gen_patterns.c writes at build time).
 */
#include "go.h"

#include <stdlib.h>

/* ---- Priors ---- */

/* Whether the group rooted at g has exactly two distinct liberties (its
 * pseudo-liberties, at most 8 for two points, read first). */
static bool go_two_libs(const go *t, int g)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    if (t->groups[g].libs > 8)
        return false;
    int libs[2], n = 0, x = g;
    do {
        for (int j = 0; j < 4; j++) {
            int y = x + d[j];
            if (t->color[y] != GO_EMPTY || (n > 0 && libs[0] == y) || (n > 1 && libs[1] == y))
                continue;
            if (n == 2)
                return false;
            libs[n++] = y;
        }
        x = t->next[x];
    } while (x != g);
    return n == 2;
}

/* Priors for the moves of s: 1 for a plain move, more for a capture (by
 * the stones taken, and a group caught in a ladder by the atari counts as
 * taken), an escape from atari that gains liberties (unless a ladder
 * catches it all the same: then much less), a 3x3
 * pattern (more next to the last move), and nearness to the last two
 * moves; less for a self-atari, for the first and second lines while the
 * board is mostly empty, and for an own eye; a pass is low unless few
 * moves remain. Normalised to sum to 1. */
void go_priors(const void *s, const banyan_move *moves, int n, float *out)
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
        bool dead_run = false;
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
            if (!go_is_atari(g)) {
                if (c == opp && go_two_libs(t, t->group[q]) && go_ladder_after(t, p, q))
                    w += 3.0f + (float)g->stones;
                continue;
            }
            if (c == opp)
                w += 3.0f + (float)g->stones;
            else if (go_libs_after(t, p, me, 2) >= 2) {
                if (go_ladder_caught(t, q))
                    dead_run = true;
                else
                    w += 2.0f + (float)g->stones;
            }
        }
        if (go_is_self_atari(t, p, me, 2) || dead_run)
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
