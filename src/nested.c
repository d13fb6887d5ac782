/*
 * nested.c - the nested algorithms of banyan_solo_run(): Nested Rollout
 * Policy Adaptation (Rosin 2011) with the temperature and bias of GNRPA
 * (Cazenave 2020), and Nested Monte Carlo Search (Cazenave 2009), on any
 * single-player game through its table.
 *
 * NRPA. A policy gives each move code (the game's move_code(), else the
 * move) a weight w; a playout draws each move with a probability in
 * proportion to exp(w / tau) (times prior^bias under GNRPA's bias). Level
 * 0 is a playout; level n copies its parent's policy and runs `iterations`
 * times: a level n - 1 from its policy, the best game so far kept (a tie
 * replaces it), then the policy adapted towards that game: along it, every
 * legal move's weight falls by alpha / tau times its probability, and the
 * move played rises by alpha / tau (the gradient of the game's
 * log-likelihood, all probabilities taken before the step). A policy keeps
 * (w, exp(w / tau)) a code: codes below 65,536 in a dense array, others in
 * an open-addressing hash table; a code without one weighs 0. Both grow by
 * doubling up to their share of policy_memory; past it, a weight that
 * finds no room stays 0.
 *
 * Threads. The top level's iterations run in batches of config.threads:
 * every iteration of a batch starts from the same top policy, with a
 * random stream of its own (the run's seed and the iteration's number),
 * and their games adapt the policy in the batch's order. One thread is
 * Rosin's algorithm; a thread count gives the same run every time.
 *
 * NMCS. At level n every legal move is played and followed by a level
 * n - 1 search (level 0: a uniform playout); the move that starts the best
 * game found so far (from this level's start) is played, until the game
 * ends. Best games are whole games, so a search cut by the budget ends
 * with the best one it saw.
 *
 * Everything here is allocated through the config's hook and freed before
 * nested_run() returns.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "banyan.h"
#include "nested.h"
#include "util.h"

#define NESTED_SEED_STEP   7919        /* Between the seeds of successive runs (as solo.c). */
#define NESTED_MEMORY      (64u << 20) /* policy_memory's default. */
#define NESTED_TABLE_MIN   1024u       /* A policy's first size, in entries, */
#define NESTED_TABLE_LEAST 64u         /* or its bound's where that is smaller. */
#define NESTED_ITERATIONS  100         /* iterations' default. */
#define NESTED_PRIOR_MIN   1e-9        /* Below it a prior counts as this, for its log. */
#define POL_EMPTY          UINT64_MAX  /* The code of an empty entry. */
#define NESTED_DENSE       65536u      /* Codes below it (arcs, Morpion's lines): a dense array. */

/* ---- Policies ---- */

typedef struct pol_weight {
    double w; /* The weight. */
    double e; /* exp(w / tau). */
} pol_weight;

typedef struct pol_entry {
    uint64_t code; /* POL_EMPTY: an empty slot. */
    pol_weight v;
} pol_entry;

/* Codes below the call's dense_max in a dense array, the others in an
 * open-addressing table. */
typedef struct policy {
    pol_weight *dense; /* Codes 0 .. dense_n - 1; codes above weigh 0. */
    uint32_t dense_n, dense_room;
    pol_entry *at;
    uint32_t cap;  /* Entries in use as the table (a power of two), or 0: every weight 0. */
    uint32_t used; /* Codes held. */
    uint32_t room; /* Entries allocated. */
} policy;

/* A game's moves, in a buffer that grows through the hook. */
typedef struct seq {
    banyan_move *m;
    int n, cap;
} seq;

/* One weight change of an adaptation. */
typedef struct delta {
    uint64_t code;
    double d;
} delta;

struct nested;

/* What one thread works with: its random stream, a state, its policies
 * and best games by level, and the scratch of one position's moves. */
typedef struct worker {
    struct nested *N;
    banyan_rng rng;
    unsigned char *state; /* The playout's (or the replay's) state. */
    policy pol[BANYAN_SOLO_MAX_LEVEL + 1];
    seq line[BANYAN_SOLO_MAX_LEVEL + 1];             /* Level k's best game; 0: the playout's. */
    unsigned char *child[BANYAN_SOLO_MAX_LEVEL + 1]; /* NMCS: level k's child position. */
    banyan_move *nmv; /* NMCS: level k's moves at nmv + k * BANYAN_MAX_MOVES. */
    delta *delta;
    size_t n_delta, cap_delta;
    uint64_t playouts, full;
    double result; /* The last top-level iteration's score, when have. */
    bool have;
    uint64_t iteration; /* The top-level iteration it runs. */
    /* Under a playout budget, a top-level batch gives each of its workers a
     * share of what is left (metered): a worker stops on its own share
     * alone, so that a seed and a thread count give the same run. */
    bool metered;
    uint64_t quota;
    banyan_move mv[BANYAN_MAX_MOVES];
    uint64_t code[BANYAN_MAX_MOVES];
    double p[BANYAN_MAX_MOVES];
    float q[BANYAN_MAX_MOVES];
} worker;

/* The call: its options, the root, the top policy and the best games. */
typedef struct nested {
    const banyan_game *g;
    banyan_config cfg;
    banyan_solo_options o;
    unsigned char *root;
    int level, iterations, threads;
    double tau, step; /* The temperature; alpha / tau. */
    bool use_bias;
    uint32_t table_max; /* The entries a policy's table may have, */
    uint32_t dense_max; /* and its dense part: the codes below it. */
    policy top;
    seq top_best; /* The run's best game. */
    double start_score;
    bool have_start;
    /* The budget. */
    bool limited;
    uint64_t max_playouts; /* 0: none (a time limit, or no budget). */
    double deadline;       /* 0: none. */
    _Atomic uint64_t claimed;
    _Atomic int stop;
    int rc; /* The first failure or the callback's value. */
    pthread_mutex_t lock;
    _Atomic double threshold; /* Scores that a game must beat to be reported. */
    seq line;                 /* The last game reported. */
    seq best;                 /* The call's best game: the best run's. */
    double best_score;        /* Its score, or the start's or to_beat's. */
    bool found;               /* best holds a run's game. */
    int run;
    double start;
    worker *w[BANYAN_MAX_THREADS];
} nested;

/* Records the first failure and stops every thread. */
static void nested_fail(nested *N, int rc)
{
    pthread_mutex_lock(&N->lock);
    if (N->rc == BANYAN_OK)
        N->rc = rc;
    pthread_mutex_unlock(&N->lock);
    atomic_store(&N->stop, 1);
}

/* The hook's realloc (n 0: free); a block it cannot give fails the call. */
static void *nested_alloc(nested *N, void *p, size_t n)
{
    void *q = N->cfg.alloc(N->cfg.alloc_ud, p, n);
    if (!q && n)
        nested_fail(N, BANYAN_ENOMEM);
    return q;
}

static bool seq_room(nested *N, seq *s, int n)
{
    if (n <= s->cap)
        return true;
    int cap = s->cap ? s->cap : 128;
    while (cap < n)
        cap *= 2;
    banyan_move *m = nested_alloc(N, s->m, (size_t)cap * sizeof *m);
    if (!m)
        return false;
    s->m = m;
    s->cap = cap;
    return true;
}

static bool seq_copy(nested *N, seq *dst, const seq *src)
{
    if (!seq_room(N, dst, src->n))
        return false;
    if (src->n)
        memcpy(dst->m, src->m, (size_t)src->n * sizeof *src->m);
    dst->n = src->n;
    return true;
}

static inline uint32_t pol_hash(uint64_t code, uint32_t cap)
{
    /* Fibonacci hashing: one multiply; the product's upper half mixes
     * every bit of the code (tables hold at most 2^30 entries). */
    return (uint32_t)((code * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* Codes as the tables hold them: POL_EMPTY marks a free slot, so the one
 * code equal to it shares the weight of the code below it. */
static inline uint64_t pol_key(uint64_t code)
{
    return code == POL_EMPTY ? POL_EMPTY - 1 : code;
}

/* The weight of code in P (dense_max the call's), NULL for 0. */
static inline const pol_weight *pol_find(const policy *P, uint64_t code, uint32_t dense_max)
{
    if (code < P->dense_n)
        return &P->dense[code];
    if (!P->cap || code < dense_max)
        return NULL; /* A small code's weight is in the dense part, or 0. */
    for (uint32_t i = pol_hash(code, P->cap);; i = (i + 1) & (P->cap - 1)) {
        const pol_entry *e = &P->at[i];
        if (e->code == code)
            return &e->v;
        if (e->code == POL_EMPTY)
            return NULL;
    }
}

static bool pol_reserve(nested *N, policy *P, uint32_t cap)
{
    if (cap <= P->room)
        return true;
    pol_entry *at = nested_alloc(N, P->at, (size_t)cap * sizeof *at);
    if (!at)
        return false;
    P->at = at;
    P->room = cap;
    return true;
}

/* P's dense part with room for n codes. */
static bool pol_dense_room(nested *N, policy *P, uint32_t n)
{
    if (n <= P->dense_room)
        return true;
    pol_weight *d = nested_alloc(N, P->dense, (size_t)n * sizeof *d);
    if (!d)
        return false;
    P->dense = d;
    P->dense_room = n;
    return true;
}

/* P takes Q's weights. */
static bool pol_copy(nested *N, policy *P, const policy *Q)
{
    if (!pol_reserve(N, P, Q->cap) || !pol_dense_room(N, P, Q->dense_n))
        return false;
    if (Q->cap)
        memcpy(P->at, Q->at, (size_t)Q->cap * sizeof *P->at);
    if (Q->dense_n)
        memcpy(P->dense, Q->dense, (size_t)Q->dense_n * sizeof *P->dense);
    P->cap = Q->cap;
    P->used = Q->used;
    P->dense_n = Q->dense_n;
    return true;
}

/* Every weight of P 0 again. */
static void pol_clear(policy *P)
{
    P->cap = P->used = P->dense_n = 0;
}

/* P's table at cap entries, its codes placed again. */
static bool pol_resize(nested *N, policy *P, uint32_t cap)
{
    pol_entry *old = P->at;
    uint32_t old_cap = P->cap;
    pol_entry *at = nested_alloc(N, NULL, (size_t)cap * sizeof *at);
    if (!at)
        return false;
    for (uint32_t i = 0; i < cap; i++)
        at[i].code = POL_EMPTY;
    for (uint32_t i = 0; i < old_cap; i++) {
        if (old[i].code == POL_EMPTY)
            continue;
        uint32_t j = pol_hash(old[i].code, cap);
        while (at[j].code != POL_EMPTY)
            j = (j + 1) & (cap - 1);
        at[j] = old[i];
    }
    if (old)
        nested_alloc(N, old, 0);
    P->at = at;
    P->cap = P->room = cap;
    return true;
}

/* The weight of code in P into *out, made (0) where it has none. Returns
 * 1; 0 when the table is at its bound and full; -1 when memory ran out
 * (the call then fails). */
static int pol_slot(nested *N, policy *P, uint64_t code, pol_weight **out)
{
    if (code < N->dense_max) { /* The dense part, grown by doubling to hold code. */
        if (code >= P->dense_n) {
            uint32_t n = P->dense_n ? 2 * P->dense_n : 256;
            while (n <= code)
                n *= 2;
            if (n > N->dense_max)
                n = N->dense_max;
            if (!pol_dense_room(N, P, n))
                return -1;
            for (uint32_t i = P->dense_n; i < n; i++)
                P->dense[i] = (pol_weight){0, 1};
            P->dense_n = n;
        }
        *out = &P->dense[code];
        return 1;
    }
    if (P->cap) {
        uint32_t i = pol_hash(code, P->cap);
        for (; P->at[i].code != POL_EMPTY; i = (i + 1) & (P->cap - 1))
            if (P->at[i].code == code) {
                *out = &P->at[i].v;
                return 1;
            }
    }
    /* A new code: half full grows, three quarters at the bound refuses. */
    if (!P->cap || (P->used + 1) * 2 > P->cap) {
        uint32_t cap = P->cap                            ? 2 * P->cap
                       : N->table_max < NESTED_TABLE_MIN ? N->table_max
                                                         : NESTED_TABLE_MIN;
        if (cap <= N->table_max) {
            if (!pol_resize(N, P, cap))
                return -1;
        } else if ((P->used + 1) * 4 > P->cap * 3) {
            return 0;
        }
    }
    uint32_t i = pol_hash(code, P->cap);
    while (P->at[i].code != POL_EMPTY)
        i = (i + 1) & (P->cap - 1);
    P->at[i] = (pol_entry){.code = code, .v = {0, 1}};
    P->used++;
    *out = &P->at[i].v;
    return 1;
}

static void pol_free(nested *N, policy *P)
{
    if (P->at)
        nested_alloc(N, P->at, 0);
    if (P->dense)
        nested_alloc(N, P->dense, 0);
    memset(P, 0, sizeof *P);
}

/* ---- The budget and the best game ---- */

/* Takes one playout from the budget, or from w's share of it: false once
 * it is spent or the call stops. */
static bool nested_claim(worker *w)
{
    nested *N = w->N;
    if (atomic_load_explicit(&N->stop, memory_order_relaxed))
        return false;
    if (w->metered) {
        if (w->quota == 0)
            return false; /* The batch's end stops the call once all is spent. */
        w->quota--;
        atomic_fetch_add_explicit(&N->claimed, 1, memory_order_relaxed);
    } else if (N->max_playouts &&
               atomic_fetch_add_explicit(&N->claimed, 1, memory_order_relaxed) >= N->max_playouts) {
        atomic_store(&N->stop, 1);
        return false;
    }
    if (N->deadline > 0 && util_now() >= N->deadline) {
        atomic_store(&N->stop, 1);
        return false;
    }
    return true;
}

/* Tells the caller's keep_states() the states the run holds (one thread):
 * false when its answer stops the call. */
static bool nested_keep(nested *N, worker *w)
{
    const void *keep[BANYAN_SOLO_MAX_LEVEL + 2];
    int n = 0;
    if (!N->o.keep_states || N->threads > 1)
        return true;
    if (atomic_load(&N->stop))
        return false;
    keep[n++] = N->root;
    keep[n++] = w->state;
    for (int k = 1; k <= N->level && n < BANYAN_SOLO_MAX_LEVEL + 2; k++)
        if (w->child[k])
            keep[n++] = w->child[k];
    int rc = N->o.keep_states(N->o.progress_ud, keep, n);
    if (rc == 0)
        return true;
    if (N->rc == BANYAN_OK)
        N->rc = rc; /* One thread: no other writer. */
    atomic_store(&N->stop, 1);
    return false;
}

/* A game found (the moves of s, from the root) scored score: reported
 * when it beats every one before. */
static void nested_offer(nested *N, const seq *s, double score)
{
    if (!(score > atomic_load_explicit(&N->threshold, memory_order_relaxed)))
        return;
    pthread_mutex_lock(&N->lock);
    if (score > atomic_load(&N->threshold) && seq_copy(N, &N->line, s)) {
        atomic_store(&N->threshold, score);
        if (N->o.progress) {
            banyan_solo_event ev = {.kind = BANYAN_SOLO_LINE,
                                    .run = N->run,
                                    .score = score,
                                    .elapsed = util_now() - N->start,
                                    .n_moves = N->line.n,
                                    .moves = N->line.m};
            int rc = N->o.progress(N->o.progress_ud, &ev);
            if (rc != 0 && N->rc == BANYAN_OK) {
                N->rc = rc;
                atomic_store(&N->stop, 1);
            }
        }
    }
    pthread_mutex_unlock(&N->lock);
}

/* The end of the game w->state: its return into *score, or false (and the
 * call failed) when the game says it goes on without a move. */
static bool nested_end(nested *N, worker *w, double *score)
{
    double ret[BANYAN_MAX_PLAYERS];
    if (!N->g->outcome(w->state, ret)) {
        nested_fail(N, BANYAN_EILLEGAL);
        return false;
    }
    *score = ret[0];
    return true;
}

/* ---- NRPA ---- */

/* The unnormalised probabilities of w->mv[0 .. n) in s under P into w->p,
 * their codes into w->code; returns their sum. */
static double nrpa_weights(worker *w, const policy *P, const void *s, int n)
{
    const nested *N = w->N;
    const banyan_game *g = N->g;
    double sum = 0;
    if (N->use_bias)
        g->priors(s, w->mv, n, w->q);
    for (int i = 0; i < n; i++) {
        uint64_t c = pol_key(g->move_code ? g->move_code(s, w->mv[i]) : w->mv[i]);
        const pol_weight *e = pol_find(P, c, N->dense_max);
        double p = e ? e->e : 1.0;
        if (N->use_bias) {
            double q = w->q[i] > NESTED_PRIOR_MIN ? w->q[i] : NESTED_PRIOR_MIN;
            p *= N->o.bias == 1 ? q : exp(N->o.bias * log(q));
        }
        w->code[i] = c;
        w->p[i] = p;
        sum += p;
    }
    if (sum > 0 && sum < HUGE_VAL)
        return sum;
    /* Weights beyond exp's range: the same probabilities with the largest
     * exponent taken out. */
    double x_max = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        const pol_weight *e = pol_find(P, w->code[i], N->dense_max);
        double x = (e ? e->w : 0) / N->tau;
        if (N->use_bias)
            x += N->o.bias * log(w->q[i] > NESTED_PRIOR_MIN ? w->q[i] : NESTED_PRIOR_MIN);
        w->p[i] = x;
        if (x > x_max)
            x_max = x;
    }
    sum = 0;
    for (int i = 0; i < n; i++)
        sum += w->p[i] = exp(w->p[i] - x_max);
    return sum;
}

/* A playout from the root drawn from P into w->line[0]: its score in
 * *score, or false when the budget or a failure stopped it first. */
static bool nrpa_playout(worker *w, const policy *P, double *score)
{
    nested *N = w->N;
    const banyan_game *g = N->g;
    seq *out = &w->line[0];
    if (!nested_claim(w))
        return false;
    memcpy(w->state, N->root, g->state_size);
    out->n = 0;
    for (int n; (n = g->moves(w->state, w->mv)) > 0;) {
        double sum = nrpa_weights(w, P, w->state, n);
        double r = (double)(banyan_rng_next(&w->rng) >> 11) * 0x1p-53 * sum;
        int i = 0;
        while (i < n - 1 && (r -= w->p[i]) >= 0)
            i++;
        if (!seq_room(N, out, out->n + 1))
            return false;
        out->m[out->n++] = w->mv[i];
        g->play(w->state, w->mv[i]);
    }
    w->playouts++;
    if (!nested_end(N, w, score))
        return false;
    nested_offer(N, out, *score);
    return nested_keep(N, w);
}

static bool delta_push(worker *w, uint64_t code, double d)
{
    if (w->n_delta == w->cap_delta) {
        size_t cap = w->cap_delta ? 2 * w->cap_delta : 4096;
        delta *p = nested_alloc(w->N, w->delta, cap * sizeof *p);
        if (!p)
            return false;
        w->delta = p;
        w->cap_delta = cap;
    }
    w->delta[w->n_delta++] = (delta){code, d};
    return true;
}

/* P adapted towards the game best (from the root). */
static bool nrpa_adapt(worker *w, policy *P, const seq *best)
{
    nested *N = w->N;
    const banyan_game *g = N->g;
    memcpy(w->state, N->root, g->state_size);
    w->n_delta = 0;
    for (int t = 0; t < best->n; t++) {
        int n = g->moves(w->state, w->mv);
        double sum = nrpa_weights(w, P, w->state, n);
        for (int i = 0; i < n; i++)
            if (!delta_push(w, w->code[i], N->step * ((w->mv[i] == best->m[t]) - w->p[i] / sum)))
                return false;
        g->play(w->state, best->m[t]);
    }
    for (size_t k = 0; k < w->n_delta; k++) {
        uint64_t code = w->delta[k].code;
        pol_weight *e = code < P->dense_n ? &P->dense[code] : NULL; /* The common case. */
        int got = e ? 1 : pol_slot(N, P, code, &e);
        if (got < 0)
            return false;
        if (got == 0) {
            w->full++;
            continue;
        }
        e->w += w->delta[k].d;
        e->e = exp(e->w / N->tau);
    }
    return true;
}

/* Level `level` of NRPA from the policy parent: its best game into
 * w->line[level] and its score into *score; false when the budget stopped
 * it before any game (or a failure did). */
static bool nrpa_level(worker *w, int level, const policy *parent, double *score)
{
    nested *N = w->N;
    if (level == 0)
        return nrpa_playout(w, parent, score);
    policy *P = &w->pol[level];
    bool have = false;
    double best = 0, sc;
    if (!pol_copy(N, P, parent))
        return false;
    for (int i = 0; i < N->iterations && nrpa_level(w, level - 1, P, &sc); i++) {
        if (!have || sc >= best) {
            if (!seq_copy(N, &w->line[level], &w->line[level - 1]))
                return false;
            best = sc;
            have = true;
        }
        if (!nrpa_adapt(w, P, &w->line[level]))
            return false;
    }
    *score = best;
    return have;
}

/* A top-level iteration on its worker: the level below from the top
 * policy, with the iteration's random stream. */
static void *nrpa_iteration(void *arg)
{
    worker *w = arg;
    nested *N = w->N;
    banyan_rng_seed(&w->rng, N->cfg.seed + (uint64_t)N->run * NESTED_SEED_STEP, w->iteration + 1);
    w->have = nrpa_level(w, N->level - 1, &N->top, &w->result);
    return NULL;
}

/* The score of the game moves[0 .. n) from the root into *score, checked
 * move by move: false when a move is not legal or the game is not over
 * after them (a saved game, or another process's). */
static bool nested_score(nested *N, const banyan_move *moves, int n, double *score)
{
    worker *w = N->w[0];
    double ret[BANYAN_MAX_PLAYERS];
    memcpy(w->state, N->root, N->g->state_size);
    for (int i = 0; i < n; i++) {
        if (!banyan_game_is_legal(N->g, w->state, moves[i]))
            return false;
        N->g->play(w->state, moves[i]);
    }
    if (!N->g->outcome(w->state, ret))
        return false;
    *score = ret[0];
    return true;
}

/* The run's best game (*have, *best, N->top_best) shared with the other
 * processes (options.share_best), and the top policy adapted to theirs
 * when it is better. False when the call stops: the callback says so, or
 * fails. */
static bool nrpa_share(nested *N, bool *have, double *best)
{
    bool stopping = atomic_load(&N->stop);
    if (!seq_room(N, &N->top_best, BANYAN_SOLO_SHARED_ROOM))
        return false;
    banyan_solo_shared s = {.have = *have,
                            .score = *best,
                            .n_moves = N->top_best.n,
                            .moves = N->top_best.m,
                            .room = BANYAN_SOLO_SHARED_ROOM};
    int rc = N->o.share_best(N->o.progress_ud, &s, stopping);
    if (rc != 0 && rc != 1) {
        nested_fail(N, rc);
        return false;
    }
    if (s.n_moves < 0 || s.n_moves > BANYAN_SOLO_SHARED_ROOM || (s.have && !isfinite(s.score))) {
        nested_fail(N, BANYAN_EINVAL);
        return false;
    }
    bool other = s.have && (!*have || s.score != *best || s.n_moves != N->top_best.n);
    N->top_best.n = s.n_moves;
    double check;
    if (s.have && !(nested_score(N, s.moves, s.n_moves, &check) && check == s.score)) {
        nested_fail(N, BANYAN_EINVAL); /* Not a game of this position, or not its score. */
        return false;
    }
    if (other) { /* Another process's game: the policy learns it too. */
        *have = true;
        *best = s.score;
        if (!nrpa_adapt(N->w[0], &N->top, &N->top_best))
            return false;
    }
    if (rc == 1)
        atomic_store(&N->stop, 1);
    return rc == 0 && !stopping;
}

/* One run of NRPA: the top level, its iterations in batches over the
 * threads. Its best game into N->top_best; false when it found none. */
static bool nrpa_run(nested *N, double *score)
{
    worker *w0 = N->w[0];
    int threads = N->level >= 2 ? N->threads : 1;
    bool have = false;
    double best = 0;
    pol_clear(&N->top);
    if (N->have_start) {
        N->top_best.n = 0;
        if (!seq_room(N, &N->top_best, N->o.n_start_moves))
            return false;
        memcpy(N->top_best.m, N->o.start_moves, (size_t)N->o.n_start_moves * sizeof(banyan_move));
        N->top_best.n = N->o.n_start_moves;
        best = N->start_score;
        have = true;
        if (!nrpa_adapt(w0, &N->top, &N->top_best))
            return false;
    }
    for (int it = 0; it < N->iterations && !atomic_load(&N->stop); it += threads) {
        int batch = N->iterations - it < threads ? N->iterations - it : threads;
        pthread_t tid[BANYAN_MAX_THREADS];
        bool started[BANYAN_MAX_THREADS] = {false};
        uint64_t claimed = atomic_load(&N->claimed);
        uint64_t left = claimed < N->max_playouts ? N->max_playouts - claimed : 0;
        for (int j = 0; j < batch; j++) {
            N->w[j]->iteration = (uint64_t)it + (uint64_t)j;
            N->w[j]->metered = N->max_playouts > 0;
            N->w[j]->quota = left / (uint64_t)batch + ((uint64_t)j < left % (uint64_t)batch);
        }
        for (int j = 1; j < batch; j++)
            started[j] = pthread_create(&tid[j], NULL, nrpa_iteration, N->w[j]) == 0;
        nrpa_iteration(w0);
        for (int j = 1; j < batch; j++) {
            if (started[j])
                pthread_join(tid[j], NULL);
            else
                nrpa_iteration(N->w[j]); /* No thread: its turn here. */
        }
        for (int j = 0; j < batch; j++)
            N->w[j]->metered = false;
        if (N->max_playouts && atomic_load(&N->claimed) >= N->max_playouts)
            atomic_store(&N->stop, 1);
        for (int j = 0; j < batch; j++) {
            worker *w = N->w[j];
            if (!w->have)
                continue;
            if (!have || w->result >= best) {
                if (!seq_copy(N, &N->top_best, &w->line[N->level - 1]))
                    return false;
                best = w->result;
                have = true;
            }
            if (!nrpa_adapt(w0, &N->top, &N->top_best))
                return false;
        }
        if (N->o.share_best && !nrpa_share(N, &have, &best))
            break;
    }
    *score = best;
    return have;
}

/* ---- NMCS ---- */

/* A uniform playout from w->state into w->line[0] (the moves after it). */
static bool nmcs_playout(worker *w, double *score)
{
    nested *N = w->N;
    const banyan_game *g = N->g;
    seq *out = &w->line[0];
    if (!nested_claim(w))
        return false;
    out->n = 0;
    for (int n; (n = g->moves(w->state, w->mv)) > 0;) {
        banyan_move m = w->mv[banyan_rng_below(&w->rng, (uint32_t)n)];
        if (!seq_room(N, out, out->n + 1))
            return false;
        out->m[out->n++] = m;
        g->play(w->state, m);
    }
    w->playouts++;
    return nested_end(N, w, score);
}

/* Level `level` of NMCS from s, which it plays on (prefix: the moves from
 * the root to s, for the reports): the best game from s into
 * w->line[level], its score into *score. start, when not NULL, is a game
 * from s already known (scored *score). False when the budget stopped it
 * before a whole game (or a failure did). */
static bool nmcs_level(worker *w, int level, unsigned char *s, const seq *start, double *score);

/* The child c of s by m searched at level - 1, its game left in
 * w->line[level - 1]. */
static bool nmcs_child(worker *w, int level, const unsigned char *s, banyan_move m, double *sc)
{
    nested *N = w->N;
    unsigned char *c = w->child[level];
    memcpy(c, s, N->g->state_size);
    N->g->play(c, m);
    if (level > 1)
        return nmcs_level(w, level - 1, c, NULL, sc);
    unsigned char *keep = w->state;
    w->state = c;
    bool ok = nmcs_playout(w, sc);
    w->state = keep;
    return ok;
}

static bool nmcs_level(worker *w, int level, unsigned char *s, const seq *start, double *score)
{
    nested *N = w->N;
    const banyan_game *g = N->g;
    seq *best = &w->line[level];
    banyan_move *mv = w->nmv + (size_t)level * BANYAN_MAX_MOVES;
    bool have = start != NULL;
    double bs = have ? *score : 0, sc;
    int played = 0, n;
    if (start && !seq_copy(N, best, start))
        return false;
    if (!start)
        best->n = 0;
    while ((n = g->moves(s, mv)) > 0) {
        for (int i = 0; i < n; i++) {
            if (!nmcs_child(w, level, s, mv[i], &sc))
                goto out;
            if (!have || sc > bs) {
                const seq *tail = &w->line[level - 1];
                if (!seq_room(N, best, played + 1 + tail->n))
                    return false;
                best->n = played;
                best->m[best->n++] = mv[i];
                memcpy(best->m + best->n, tail->m, (size_t)tail->n * sizeof *tail->m);
                best->n += tail->n;
                bs = sc;
                have = true;
                if (level == N->level) /* A game from the root. */
                    nested_offer(N, best, bs);
            }
            if (!nested_keep(N, w))
                goto out;
        }
        g->play(s, best->m[played++]);
    }
    if (!have) { /* s was over from the start. */
        double ret[BANYAN_MAX_PLAYERS];
        if (!g->outcome(s, ret)) {
            nested_fail(N, BANYAN_EILLEGAL);
            return false;
        }
        bs = ret[0];
        have = true;
    }
out:
    *score = bs;
    return have;
}

/* One run of NMCS from the root, into N->top_best. */
static bool nmcs_run(nested *N, double *score)
{
    worker *w = N->w[0];
    seq start = {.m = (banyan_move *)N->o.start_moves, .n = N->o.n_start_moves};
    banyan_rng_seed(&w->rng, N->cfg.seed + (uint64_t)N->run * NESTED_SEED_STEP, 1);
    memcpy(w->state, N->root, N->g->state_size);
    *score = N->start_score;
    if (!nmcs_level(w, N->level, w->state, N->have_start ? &start : NULL, score))
        return false;
    return seq_copy(N, &N->top_best, &w->line[N->level]);
}

/* ---- The call ---- */

/* Worker j, into N->w[j] (freed with the others whatever happens). */
static bool worker_new(nested *N, int j)
{
    worker *w = N->w[j] = nested_alloc(N, NULL, sizeof *w);
    if (!w)
        return false;
    memset(w, 0, sizeof *w);
    w->N = N;
    w->state = nested_alloc(N, NULL, N->g->state_size);
    bool ok = w->state != NULL;
    if (N->o.algorithm == BANYAN_SOLO_NMCS) {
        w->nmv =
            nested_alloc(N, NULL, (size_t)(N->level + 1) * BANYAN_MAX_MOVES * sizeof(banyan_move));
        ok = ok && w->nmv;
        for (int k = 1; ok && k <= N->level; k++)
            ok = (w->child[k] = nested_alloc(N, NULL, N->g->state_size)) != NULL;
    }
    return ok;
}

static void worker_free(nested *N, worker *w)
{
    if (!w)
        return;
    for (int k = 0; k <= BANYAN_SOLO_MAX_LEVEL; k++) {
        pol_free(N, &w->pol[k]);
        if (w->line[k].m)
            nested_alloc(N, w->line[k].m, 0);
        if (w->child[k])
            nested_alloc(N, w->child[k], 0);
    }
    if (w->nmv)
        nested_alloc(N, w->nmv, 0);
    if (w->delta)
        nested_alloc(N, w->delta, 0);
    if (w->state)
        nested_alloc(N, w->state, 0);
    nested_alloc(N, w, 0);
}

/* The runs, one after another, within the budget. */
static void nested_runs(nested *N, banyan_solo_result *r)
{
    bool budget = N->max_playouts || N->deadline > 0;
    int runs = N->o.runs ? N->o.runs : budget ? 0x7fffffff : 1;
    for (int k = 0; k < runs && !atomic_load(&N->stop); k++) {
        double t0 = util_now(), score;
        uint64_t before = 0;
        for (int j = 0; j < N->threads; j++)
            before += N->w[j]->playouts;
        N->run = k;
        bool have = N->o.algorithm == BANYAN_SOLO_NRPA ? nrpa_run(N, &score) : nmcs_run(N, &score);
        if (!have)
            break; /* A run stopped (or failed) before its first game. */
        uint64_t playouts = 0;
        for (int j = 0; j < N->threads; j++)
            playouts += N->w[j]->playouts;
        r->runs++;
        /* The run's game is the best of its playouts; ties go to the last
         * in the iterations' order, whatever thread played it first. */
        bool improved = score > N->best_score;
        if (improved) {
            if (!seq_copy(N, &N->best, &N->top_best))
                break;
            N->best_score = score;
            N->found = true;
        }
        if (N->o.progress && N->rc == BANYAN_OK) {
            banyan_solo_event ev = {.kind = BANYAN_SOLO_RUN,
                                    .run = k,
                                    .score = score,
                                    .best = N->best_score,
                                    .improved = improved,
                                    .elapsed = util_now() - N->start,
                                    .seconds = util_now() - t0,
                                    .playouts = playouts - before,
                                    .n_moves = N->top_best.n,
                                    .moves = N->top_best.m};
            int rc = N->o.progress(N->o.progress_ud, &ev);
            if (rc != 0) {
                N->rc = rc;
                break;
            }
        }
    }
}

BANYAN_INTERNAL int nested_run(const banyan_game *g, const char *params, const char *position,
                               const banyan_config *cfg, const banyan_solo_options *o,
                               banyan_solo_result *r)
{
    nested *N;
    const banyan_solo_options *z = o;
    if (o->algorithm != BANYAN_SOLO_NRPA && o->algorithm != BANYAN_SOLO_NMCS)
        return BANYAN_EINVAL;
    if (z->level < 0 || z->level > BANYAN_SOLO_MAX_LEVEL || z->iterations < 0 || !(z->alpha >= 0) ||
        isinf(z->alpha) || !(z->temperature >= 0) || isinf(z->temperature) || !isfinite(z->bias) ||
        z->n_start_moves < 0 || (z->n_start_moves > 0 && !z->start_moves) ||
        (z->beat && !isfinite(z->to_beat)))
        return BANYAN_EINVAL;
    N = cfg->alloc(cfg->alloc_ud, NULL, sizeof *N);
    if (!N)
        return BANYAN_ENOMEM;
    memset(N, 0, sizeof *N);
    N->g = g;
    N->cfg = *cfg;
    N->o = *o;
    N->start = util_now();
    N->level = o->level ? o->level : o->algorithm == BANYAN_SOLO_NRPA ? 3 : 2;
    N->iterations = o->iterations ? o->iterations : NESTED_ITERATIONS;
    N->threads = o->algorithm == BANYAN_SOLO_NRPA && cfg->threads > 1 ? cfg->threads : 1;
    if (N->threads > BANYAN_MAX_THREADS)
        N->threads = BANYAN_MAX_THREADS;
    N->tau = o->temperature > 0 ? o->temperature : 1;
    N->step = (o->alpha > 0 ? o->alpha : 1) / N->tau;
    N->use_bias = o->bias != 0 && g->priors;
    N->max_playouts = o->playouts;
    N->deadline = !o->playouts && o->time > 0 ? N->start + o->time : 0;
    /* A table's share of the memory: the top policy and the levels below
     * it on every thread, rounded down to a power of two. */
    size_t memory = o->policy_memory ? o->policy_memory : NESTED_MEMORY;
    size_t tables = 1 + (size_t)N->threads * (size_t)(N->level > 1 ? N->level - 1 : 0);
    size_t entries = memory / tables / (sizeof(pol_entry) + sizeof(pol_weight));
    N->table_max = NESTED_TABLE_LEAST;
    while ((size_t)N->table_max * 2 <= entries && N->table_max < (1u << 30))
        N->table_max *= 2;
    N->dense_max = N->table_max < NESTED_DENSE ? N->table_max : NESTED_DENSE;
    atomic_init(&N->claimed, 0);
    atomic_init(&N->stop, 0);
    atomic_init(&N->threshold, o->beat ? o->to_beat : -HUGE_VAL);
    N->best_score = atomic_load(&N->threshold);
    pthread_mutex_init(&N->lock, NULL);
    int rc = BANYAN_OK;
    N->root = cfg->alloc(cfg->alloc_ud, NULL, g->state_size);
    if (!N->root)
        rc = BANYAN_ENOMEM;
    if (rc == BANYAN_OK && (rc = g->setup(N->root, params)) == BANYAN_OK && position)
        rc = banyan_game_load(g, N->root, position);
    for (int j = 0; rc == BANYAN_OK && j < N->threads; j++)
        if (!worker_new(N, j))
            rc = BANYAN_ENOMEM;
    if (rc == BANYAN_OK && o->n_start_moves > 0) {
        if (!nested_score(N, o->start_moves, o->n_start_moves, &N->start_score))
            rc = BANYAN_EINVAL;
        N->have_start = true;
        if (!(N->start_score <= N->best_score)) {
            atomic_store(&N->threshold, N->start_score);
            N->best_score = N->start_score;
        }
    }
    if (rc == BANYAN_OK) {
        nested_runs(N, r);
        rc = N->rc;
    }
    r->found = N->found;
    r->score = N->found ? N->best_score : 0;
    r->n_moves = N->found ? N->best.n : 0;
    if (N->found && r->max_moves > 0)
        memcpy(r->moves, N->best.m,
               (size_t)(r->n_moves < r->max_moves ? r->n_moves : r->max_moves) * sizeof *r->moves);
    for (int j = 0; j < N->threads; j++) {
        if (N->w[j]) {
            r->playouts += N->w[j]->playouts;
            r->policy_full += N->w[j]->full;
        }
        worker_free(N, N->w[j]);
    }
    pol_free(N, &N->top);
    if (N->top_best.m)
        nested_alloc(N, N->top_best.m, 0);
    if (N->best.m)
        nested_alloc(N, N->best.m, 0);
    if (N->line.m)
        nested_alloc(N, N->line.m, 0);
    if (N->root)
        nested_alloc(N, N->root, 0);
    pthread_mutex_destroy(&N->lock);
    r->seconds = util_now() - N->start;
    cfg->alloc(cfg->alloc_ud, N, 0);
    return rc;
}
