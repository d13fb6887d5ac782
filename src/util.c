/*
 * util.c - assertion failure, the clock, FNV-1a, random seeding, parameter
 * strings, the default allocation hook and the generic game helpers (perft,
 * random games, the default rollout) that work through any game's table.
 */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void banyan_fail(const char *what, const char *file, int line)
{
    /* The one place the library prints: a broken invariant, before abort. */
    fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, what);
    abort();
}

double util_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t util_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* One step of splitmix64: a Weyl sequence through its finaliser. */
static uint64_t util_splitmix64(uint64_t *x)
{
    return banyan_mix64(*x += 0x9e3779b97f4a7c15ULL);
}

BANYAN_API void banyan_rng_seed(banyan_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ util_splitmix64(&stream);
    for (int i = 0; i < 4; i++)
        r->s[i] = util_splitmix64(&x);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1; /* xoshiro's one forbidden state. */
}

BANYAN_API int banyan_params_next(const char **cursor, char *key, size_t klen, char *val,
                                  size_t vlen)
{
    const char *p = *cursor;
    if (!p)
        return 0;
    while (*p == ' ' || *p == ',' || *p == '\t')
        p++;
    if (!*p) {
        *cursor = p;
        return 0;
    }
    const char *k = p;
    while (*p && *p != '=' && *p != ' ' && *p != ',' && *p != '\t')
        p++;
    size_t kn = (size_t)(p - k);
    if (*p != '=' || kn == 0 || kn >= klen)
        return BANYAN_EINVAL;
    const char *v = ++p;
    while (*p && *p != ' ' && *p != ',' && *p != '\t')
        p++;
    size_t vn = (size_t)(p - v);
    if (vn == 0 || vn >= vlen)
        return BANYAN_EINVAL;
    memcpy(key, k, kn);
    key[kn] = 0;
    memcpy(val, v, vn);
    val[vn] = 0;
    *cursor = p;
    return 1;
}

BANYAN_API int banyan_parse_int(const char *text, long lo, long hi, long *out)
{
    char *end;
    if (!text || !(isdigit((unsigned char)text[0]) || text[0] == '-' || text[0] == '+'))
        return BANYAN_EINVAL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return BANYAN_EINVAL;
    *out = v;
    return BANYAN_OK;
}

/* stack[0 .. state_size) holds the position; deeper plies use the slots that
 * follow it. Bulk-counts at depth 1: the leaves are not played. */
static uint64_t util_perft(const banyan_game *g, unsigned char *stack, int depth)
{
    unsigned char *s = stack, *child = stack + g->state_size;
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = g->moves(s, moves);

    GAME_CHECK(g, s);
    BANYAN_ASSERT((n == 0) == g->outcome(s, (double[BANYAN_MAX_PLAYERS]){0}));
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        memcpy(child, s, g->state_size);
        g->play(child, moves[i]);
        total += util_perft(g, child, depth - 1);
    }
    return total;
}

void *util_realloc(void *ud, void *ptr, size_t nsize)
{
    (void)ud;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

BANYAN_API int banyan_perft(const banyan_game *g, const void *s, int depth, banyan_alloc_fn *alloc,
                            void *ud, uint64_t *count)
{
    if (!g || !s || !count || depth <= 0 || depth > 64 || !g->moves || !g->play)
        return BANYAN_EINVAL;
    if (!alloc)
        alloc = util_realloc;
    unsigned char *stack = alloc(ud, NULL, g->state_size * (size_t)(depth + 1));
    if (!stack)
        return BANYAN_ENOMEM;
    memcpy(stack, s, g->state_size);
    *count = util_perft(g, stack, depth);
    alloc(ud, stack, 0);
    return BANYAN_OK;
}

/* The rollout of games that bring none of their own. */
void util_default_rollout(const banyan_game *g, void *s, banyan_rng *rng)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n;
    while ((n = g->moves(s, moves)) > 0)
        g->play(s, moves[banyan_rng_below(rng, (uint32_t)n)]);
}

BANYAN_API int banyan_random_games(const banyan_game *g, const void *s, uint64_t n, banyan_rng *rng,
                                   void *scratch, double *sums)
{
    double ret[BANYAN_MAX_PLAYERS];
    if (!g || !s || !rng || !scratch)
        return BANYAN_EINVAL;
    if (sums)
        for (int p = 0; p < g->n_players; p++)
            sums[p] = 0;
    for (uint64_t i = 0; i < n; i++) {
        memcpy(scratch, s, g->state_size);
        if (g->rollout)
            g->rollout(scratch, rng);
        else
            util_default_rollout(g, scratch, rng);
        if (g->outcome(scratch, ret) && sums)
            for (int p = 0; p < g->n_players; p++)
                sums[p] += ret[p];
    }
    return BANYAN_OK;
}
