/*
 * nrpa_ref.c - a tight NRPA of its own for the Travelling Salesman Problem
 * with Time Windows, the yardstick of the library's inner loop: one
 * thread, no game table, no hash table, no allocation. The instance sits in
 * fixed arrays, a policy is two dense arrays indexed by the arc (weights
 * and their exponentials), a playout keeps its tour in registers and a
 * bit set, and the levels copy only the n x n arcs in use.
 *
 * It is the same algorithm as the library's (src/nested.c; Rosin's, with
 * the random stream of each top-level iteration seeded as the library
 * seeds it, and the same arithmetic in the same order), on the same
 * problem as examples/tsptw.c (moves in increasing order, the arc as the
 * code, the same penalty), so that for a seed it finds the same tour: a
 * check that the library's NRPA is that algorithm, beside the measure of
 * what the generic interface costs. bench/nrpa_speed.sh runs the two in
 * turn.
 *
 *   nrpa-ref [--level L] [--seed S] FILE     (make build/release/nrpa-ref)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan_game.h" /* The library's random streams, for the same draws. */

#define REF_MAX       64  /* Nodes, the depot included: a visited set in one word. */
#define REF_LEVELS    8   /* The deepest level. */
#define REF_ITERS     100 /* Iterations a level. */
#define REF_PENALTY   1e6 /* A missed window, as examples/tsptw.c. */
#define REF_SEED_STEP 7919

static int n;
static double dist[REF_MAX][REF_MAX], ready[REF_MAX], due[REF_MAX];

/* A policy: a weight and its exponential for each arc i * n + j. */
typedef struct policy {
    double w[REF_MAX * REF_MAX], e[REF_MAX * REF_MAX];
} policy;

/* A tour's customers in order. */
typedef struct line {
    int at[REF_MAX];
    double score, cost;
    int violations;
} line;

static policy pols[REF_LEVELS + 1], top;
static line best_at[REF_LEVELS + 1];
static banyan_rng rng;
static unsigned long long playouts;

static void ref_copy(policy *p, const policy *q)
{
    size_t k = (size_t)n * (size_t)n;
    memcpy(p->w, q->w, k * sizeof *p->w);
    memcpy(p->e, q->e, k * sizeof *p->e);
}

/* A tour drawn from p into *out. */
static void ref_playout(const policy *p, line *out)
{
    uint64_t visited = 1;
    double time = 0, cost = 0, pr[REF_MAX];
    int cur = 0, violations = 0, mv[REF_MAX];
    for (int step = 0; step < n - 1; step++) {
        int m = 0;
        double sum = 0;
        const double *e = p->e + cur * n;
        for (int j = 1; j < n; j++)
            if (!(visited >> j & 1)) {
                mv[m] = j;
                sum += pr[m++] = e[j];
            }
        double r = (double)(banyan_rng_next(&rng) >> 11) * 0x1p-53 * sum;
        int i = 0;
        while (i < m - 1 && (r -= pr[i]) >= 0)
            i++;
        int j = mv[i];
        double arrive = time + dist[cur][j];
        if (arrive < ready[j])
            arrive = ready[j];
        violations += arrive > due[j];
        cost += dist[cur][j];
        time = arrive;
        cur = j;
        visited |= 1ull << j;
        out->at[step] = j;
    }
    double back = time + dist[cur][0];
    violations += back > due[0];
    cost += dist[cur][0];
    out->score = -(cost + REF_PENALTY * violations);
    out->cost = cost;
    out->violations = violations;
    playouts++;
}

/* p adapted towards the tour b: the changes worked out from p as it is,
 * then made in the same order as the library makes them. */
static void ref_adapt(policy *p, const line *b)
{
    static int code[REF_MAX * REF_MAX];
    static double change[REF_MAX * REF_MAX];
    uint64_t visited = 1;
    int cur = 0, k = 0;
    for (int step = 0; step < n - 1; step++) {
        int mv[REF_MAX], m = 0;
        double sum = 0, pr[REF_MAX];
        for (int j = 1; j < n; j++)
            if (!(visited >> j & 1)) {
                mv[m] = j;
                sum += pr[m++] = p->e[cur * n + j];
            }
        for (int i = 0; i < m; i++) {
            code[k] = cur * n + mv[i];
            change[k++] = 1.0 * ((mv[i] == b->at[step]) - pr[i] / sum);
        }
        cur = b->at[step];
        visited |= 1ull << cur;
    }
    for (int i = 0; i < k; i++) {
        p->w[code[i]] += change[i];
        p->e[code[i]] = exp(p->w[code[i]] / 1.0);
    }
}

/* A level from parent: its best tour into best_at[level]. */
static void ref_level(int level, const policy *parent)
{
    if (level == 0) {
        ref_playout(parent, &best_at[0]);
        return;
    }
    policy *p = &pols[level];
    ref_copy(p, parent);
    for (int i = 0; i < REF_ITERS; i++) {
        ref_level(level - 1, p);
        if (i == 0 || best_at[level - 1].score >= best_at[level].score)
            best_at[level] = best_at[level - 1];
        ref_adapt(p, &best_at[level]);
    }
}

/* The top level: each iteration with its own random stream, as the
 * library's. */
static line ref_run(int level, uint64_t seed)
{
    line best = {.score = -HUGE_VAL};
    for (int k = 0; k < n * n; k++) {
        top.w[k] = 0;
        top.e[k] = 1;
    }
    for (int it = 0; it < REF_ITERS; it++) {
        banyan_rng_seed(&rng, seed, (uint64_t)it + 1);
        ref_level(level - 1, &top);
        if (it == 0 || best_at[level - 1].score >= best.score)
            best = best_at[level - 1];
        ref_adapt(&top, &best);
    }
    return best;
}

static bool ref_read(const char *path)
{
    FILE *f = fopen(path, "r");
    bool ok = f && fscanf(f, "%d", &n) == 1 && n >= 2 && n <= REF_MAX;
    for (int i = 0; ok && i < n; i++)
        for (int j = 0; ok && j < n; j++)
            ok = fscanf(f, "%lf", &dist[i][j]) == 1;
    for (int i = 0; ok && i < n; i++)
        ok = fscanf(f, "%lf %lf", &ready[i], &due[i]) == 2;
    if (f)
        fclose(f);
    return ok;
}

int main(int argc, char **argv)
{
    int level = 3;
    uint64_t seed = 1;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc)
            level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else
            path = argv[i];
    }
    if (!path || level < 1 || level > REF_LEVELS || !ref_read(path)) {
        fprintf(stderr, "usage: nrpa-ref [--level 1..%d] [--seed S] FILE (at most %d nodes)\n",
                REF_LEVELS, REF_MAX);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    line best = ref_run(level, seed);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("best: %.4f %s (violations %d)\n", best.cost,
           best.violations ? "infeasible" : "feasible", best.violations);
    printf("tour: 0");
    for (int i = 0; i < n - 1; i++)
        printf(" %d", best.at[i]);
    printf(" 0\nplayouts: %llu seconds: %.3f\n", playouts, seconds);
    return 0;
}
