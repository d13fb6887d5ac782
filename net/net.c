/*
 * net.c - a network put to work on a game (net.h): input planes and policy
 * outputs read from the game's description, the board's symmetries, and
 * the engine's evaluator, which keeps a cache of evaluations per search
 * thread and runs the network once for a batch of positions.
 */
#include "net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NET_CACHE_BYTES (16u << 20)
#define NET_BATCH       64 /* Positions one forward pass takes at most. */

/* How a game's moves map onto policy outputs. */
typedef struct net_layout {
    int width, height;
    bool columns;  /* Moves are columns (one output each). */
    bool pass;     /* The game has a pass (the last output). */
    int policy;    /* Outputs in all. */
    int planes;    /* Input planes: NET_PLANES and the game's own (banyan_learning.planes). */
    double lo, hi; /* The game's reward bounds. */
} net_layout;

static const char *net_layout_of(const banyan_game *g, const void *s, net_layout *out)
{
    banyan_move m;
    memset(out, 0, sizeof *out);
    if (g->n_players != 2)
        return "learning needs a two-player game";
    if (!g->board || !(g->board && g->board->place) || !(g->board && g->board->place_move) ||
        !(g->board && g->board->piece))
        return "learning needs a game with a board";
    g->board->board_size(s, &out->width, &out->height);
    if (out->width < 1 || out->height < 1 || out->width > NN_MAX_SIDE || out->height > NN_MAX_SIDE)
        return "the board is larger than a network takes (32 x 32)";
    out->columns = g->board->place_move(s, BANYAN_PLACE_COLUMN, 0, 0, &m) == BANYAN_OK;
    out->pass = g->board->place_move(s, BANYAN_PLACE_PASS, 0, 0, &m) == BANYAN_OK;
    out->policy = (out->columns ? out->width : out->width * out->height) + out->pass;
    int extra = (g->learning && g->learning->planes) ? g->learning->planes(s, NULL) : 0;
    if (extra < 0 || extra > NN_MAX_PLANES - NET_PLANES)
        return "the game asks for more input planes than a network takes";
    out->planes = NET_PLANES + extra;
    out->lo = g->reward_min;
    out->hi = g->reward_max;
    if (out->lo == 0 && out->hi == 0)
        out->hi = 1;
    return NULL;
}

const char *net_game_shape(const banyan_game *g, const void *s, nn_shape *out)
{
    net_layout L;
    const char *why = net_layout_of(g, s, &L);
    memset(out, 0, sizeof *out);
    if (why)
        return why;
    out->width = L.width;
    out->height = L.height;
    out->planes = L.planes;
    out->policy = L.policy;
    return NULL;
}

static void net_encode_with(const banyan_game *g, const net_layout *L, const void *s, float *out)
{
    int cells = L->width * L->height, mover = g->to_move(s);
    float side = mover == 0 ? 1.0f : 0.0f;
    for (int y = 0; y < L->height; y++)
        for (int x = 0; x < L->width; x++) {
            int i = y * L->width + x, p = g->board->piece(s, x, y);
            out[i] = p == mover ? 1.0f : 0.0f;
            out[cells + i] = p >= 0 && p != mover ? 1.0f : 0.0f;
            out[2 * cells + i] = side;
            out[3 * cells + i] = 1.0f;
        }
    if (L->planes > NET_PLANES)
        g->learning->planes(s, out + NET_PLANES * cells);
}

void net_encode(const banyan_game *g, const void *s, float *out)
{
    net_layout L;
    if (!net_layout_of(g, s, &L))
        net_encode_with(g, &L, s, out);
}

static int net_index_with(const banyan_game *g, const net_layout *L, const void *s, banyan_move m)
{
    int x = 0, y = 0;
    switch (g->board->place(s, m, &x, &y)) {
    case BANYAN_PLACE_CELL:
        return L->columns ? -1 : y * L->width + x;
    case BANYAN_PLACE_COLUMN:
        return L->columns ? x : -1;
    case BANYAN_PLACE_PASS:
        return L->pass ? L->policy - 1 : -1;
    default:
        return -1;
    }
}

int net_policy_index(const banyan_game *g, const void *s, banyan_move m)
{
    net_layout L;
    return net_layout_of(g, s, &L) ? -1 : net_index_with(g, &L, s, m);
}

/* ---- Symmetries ---- */

int net_symmetries(const banyan_game *g, const void *s)
{
    net_layout L;
    if (net_layout_of(g, s, &L))
        return 1;
    return L.columns ? 2 : L.width == L.height ? 8 : 4;
}

/* Where symmetry k sends cell (x, y) of a width x height board: bit 2
 * transposes (square boards only), then bit 0 mirrors left and right and
 * bit 1 top and bottom. */
static void net_map(int k, int width, int height, int x, int y, int *ox, int *oy)
{
    if (k & 4) {
        int t = x;
        x = y;
        y = t;
    }
    *ox = k & 1 ? width - 1 - x : x;
    *oy = k & 2 ? height - 1 - y : y;
}

void net_transform(const banyan_game *g, const void *s, int k, const float *planes,
                   const float *policy, float *planes_out, float *policy_out)
{
    net_layout L;
    if (net_layout_of(g, s, &L))
        return;
    int w = L.width, h = L.height, cells = w * h;
    if (L.columns)
        k &= 1; /* Only the mirror keeps columns columns. */
    else if (w != h)
        k &= 3;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int tx, ty;
            net_map(k, w, h, x, y, &tx, &ty);
            for (int p = 0; p < L.planes; p++)
                planes_out[p * cells + ty * w + tx] = planes[p * cells + y * w + x];
            if (!L.columns)
                policy_out[ty * w + tx] = policy[y * w + x];
            else if (y == 0)
                policy_out[tx] = policy[x];
        }
    if (L.pass)
        policy_out[L.policy - 1] = policy[L.policy - 1];
}

/* ---- Game parameters ---- */

int net_rule_params(const banyan_game *g, const char *params, char *out, size_t len)
{
    size_t at = 0;
    if (len == 0)
        return BANYAN_ERANGE;
    out[0] = 0;
    for (const banyan_param *p = g->params; p && p->name; p++) {
        char value[64];
        if (p->plain)
            continue; /* A search aid, not a rule. */
        int rc = banyan_params_value(g, params, p->name, value, sizeof value);
        if (rc != BANYAN_OK)
            return rc;
        int n = snprintf(out + at, len - at, "%s%s=%s", at ? "," : "", p->name, value);
        if (n < 0 || (size_t)n >= len - at)
            return BANYAN_ERANGE;
        at += (size_t)n;
    }
    return BANYAN_OK;
}

const char *net_check_game(const nn_meta *meta, const banyan_game *g, const char *params, char *why,
                           size_t len)
{
    if (strcmp(meta->game, g->name) != 0) {
        snprintf(why, len, "the network was made for %s, not %s", meta->game, g->name);
        return why;
    }
    for (const banyan_param *p = g->params; p && p->name; p++) {
        char have[64], need[64];
        if (p->plain)
            continue;
        if (banyan_params_value(g, meta->params, p->name, have, sizeof have) != BANYAN_OK ||
            banyan_params_value(g, params, p->name, need, sizeof need) != BANYAN_OK) {
            snprintf(why, len, "the network's game parameters \"%s\" do not read", meta->params);
            return why;
        }
        if (strcmp(have, need) != 0) {
            snprintf(why, len, "the network was made for %s with %s=%s, not %s", g->name, p->name,
                     have, need);
            return why;
        }
    }
    return NULL;
}

/* ---- The evaluator ---- */

/* One search thread's share: its cache and the network's scratch. A cache
 * entry is the key (the position's hash with its low bit set, 0 for an
 * empty slot), the value for the player to move and the policy logits. */
typedef struct net_thread {
    nn_work *work;
    float *input;  /* NET_BATCH positions' planes */
    float *logits; /* NET_BATCH x policy */
    float value[NET_BATCH];
    uint64_t *keys;
    float *values;
    float *cached; /* entries x policy logits */
    uint64_t asked, hits, forwards, evaluated;
    double seconds; /* In forward passes. */
} net_thread;

struct net_evaluator {
    banyan_evaluator hook;
    const banyan_game *g;
    nn_net own;        /* The network read from a file (empty for _new). */
    const nn_net *net; /* The network used. */
    nn_meta meta;
    net_layout layout;
    int cells, threads;
    uint32_t cache_mask;
    net_thread *t;
};

static double net_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The priors and returns of request r from the network's outputs: a
 * softmax over the requested moves' logits, and the value mapped onto the
 * game's rewards for the player to move (the opponent gets the rest). */
static void net_answer(const net_evaluator *ev, banyan_eval_request *r, const float *logits,
                       float value)
{
    const banyan_game *g = ev->g;
    const net_layout *L = &ev->layout;
    if (r->moves && r->n_moves > 0) {
        float top = -INFINITY, sum = 0;
        for (int i = 0; i < r->n_moves; i++) {
            int k = net_index_with(g, L, r->state, r->moves[i]);
            r->priors[i] = k >= 0 ? logits[k] : -INFINITY;
            top = r->priors[i] > top ? r->priors[i] : top;
        }
        for (int i = 0; i < r->n_moves; i++)
            sum += r->priors[i] = top == -INFINITY ? 1.0f : expf(r->priors[i] - top);
        for (int i = 0; i < r->n_moves; i++)
            r->priors[i] /= sum;
    }
    if (r->returns) {
        int p = g->to_move(r->state);
        double v = L->lo + (L->hi - L->lo) * (0.5 + 0.5 * (double)value);
        r->returns[p] = v;
        r->returns[1 - p] = L->lo + L->hi - v;
    }
}

static void net_answer_blind(const net_evaluator *ev, banyan_eval_request *r)
{
    for (int i = 0; r->moves && i < r->n_moves; i++)
        r->priors[i] = 1.0f / (float)r->n_moves;
    if (r->returns)
        r->returns[0] = r->returns[1] = 0.5 * (ev->layout.lo + ev->layout.hi);
}

static void net_evaluate(void *ud, int thread, banyan_eval_request *req, int n)
{
    net_evaluator *ev = ud;
    net_thread *t = &ev->t[thread];
    int policy = ev->layout.policy, per = ev->layout.planes * ev->cells;
    int pending[NET_BATCH];
    uint64_t keys[NET_BATCH];

    for (int i = 0; i < n;) {
        int b = 0;
        /* Gather up to NET_BATCH positions the cache does not hold. */
        for (; i < n && b < NET_BATCH; i++) {
            banyan_eval_request *r = &req[i];
            int w, h;
            ev->g->board->board_size(r->state, &w, &h);
            if (w != ev->layout.width || h != ev->layout.height) {
                /* An engine set up again on another board than the
                 * network's: uniform priors and an even value, never a
                 * read outside the network's planes. */
                net_answer_blind(ev, r);
                continue;
            }
            uint64_t key = banyan_game_hash(ev->g, r->state) | 1u;
            uint32_t slot = (uint32_t)(key >> 20) & ev->cache_mask;
            t->asked++;
            if (t->keys[slot] == key) {
                t->hits++;
                net_answer(ev, r, t->cached + (size_t)slot * policy, t->values[slot]);
                continue;
            }
            net_encode_with(ev->g, &ev->layout, r->state, t->input + (size_t)b * per);
            keys[b] = key;
            pending[b++] = i;
        }
        if (b == 0)
            continue;
        double t0 = net_now();
        nn_forward(ev->net, t->work, t->input, b, t->logits, t->value);
        t->seconds += net_now() - t0;
        t->forwards++;
        t->evaluated += (uint64_t)b;
        for (int j = 0; j < b; j++) {
            uint32_t slot = (uint32_t)(keys[j] >> 20) & ev->cache_mask;
            const float *lg = t->logits + (size_t)j * policy;
            t->keys[slot] = keys[j];
            t->values[slot] = t->value[j];
            memcpy(t->cached + (size_t)slot * policy, lg, (size_t)policy * sizeof *lg);
            net_answer(ev, &req[pending[j]], lg, t->value[j]);
        }
    }
}

void net_evaluator_free(net_evaluator *ev)
{
    if (!ev)
        return;
    for (int i = 0; ev->t && i < ev->threads; i++) {
        nn_work_free(ev->t[i].work);
        free(ev->t[i].input);
        free(ev->t[i].logits);
        free(ev->t[i].keys);
        free(ev->t[i].values);
        free(ev->t[i].cached);
    }
    free(ev->t);
    nn_free(&ev->own);
    free(ev);
}

/* The evaluator over ev->net, its meta already set: checks the network's
 * shape against the game and allocates the threads' shares. */
static int net_evaluator_setup(net_evaluator *ev, const banyan_game *g, const char *params,
                               int threads, int cache_entries, char *why, size_t len)
{
    unsigned char *s = malloc(g->state_size);
    const char *bad;
    if (!s) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (g->setup(s, params) != BANYAN_OK) {
        free(s);
        snprintf(why, len, "the game's parameters \"%s\" are not valid", params ? params : "");
        return -1;
    }
    bad = net_layout_of(g, s, &ev->layout);
    free(s);
    if (bad) {
        snprintf(why, len, "%s", bad);
        return -1;
    }
    const nn_shape *sh = &ev->net->shape;
    if (sh->width != ev->layout.width || sh->height != ev->layout.height ||
        sh->planes != ev->layout.planes || sh->policy != ev->layout.policy) {
        snprintf(why, len,
                 "the network takes a %dx%d board with %d planes and %d moves; this game has "
                 "%dx%d, %d and %d",
                 sh->width, sh->height, sh->planes, sh->policy, ev->layout.width, ev->layout.height,
                 ev->layout.planes, ev->layout.policy);
        return -1;
    }
    ev->g = g;
    ev->cells = sh->width * sh->height;
    ev->threads = threads < 1 ? 1 : threads;
    /* By default about NET_CACHE_BYTES a thread: a leaf's position must
     * still be there when the search expands it, a visit or more later. */
    size_t entry = sizeof(uint64_t) + sizeof(float) * (size_t)(1 + sh->policy);
    size_t want = cache_entries > 0 ? (size_t)cache_entries : NET_CACHE_BYTES / entry;
    uint32_t entries = 1;
    while (entries < want && entries < (1u << 24))
        entries <<= 1;
    ev->cache_mask = entries - 1;
    ev->t = calloc((size_t)ev->threads, sizeof *ev->t);
    if (!ev->t) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    for (int i = 0; i < ev->threads; i++) {
        net_thread *t = &ev->t[i];
        t->work = nn_work_new(sh, NET_BATCH, false);
        t->input = malloc((size_t)NET_BATCH * (size_t)ev->layout.planes * (size_t)ev->cells *
                          sizeof(float));
        t->logits = malloc((size_t)NET_BATCH * (size_t)sh->policy * sizeof(float));
        t->keys = calloc(entries, sizeof *t->keys);
        t->values = malloc(entries * sizeof *t->values);
        t->cached = malloc((size_t)entries * (size_t)sh->policy * sizeof(float));
        if (!t->work || !t->input || !t->logits || !t->keys || !t->values || !t->cached) {
            snprintf(why, len, "out of memory for the network's cache and scratch");
            return -1;
        }
    }
    ev->hook.evaluate = net_evaluate;
    ev->hook.ud = ev;
    return 0;
}

int net_evaluator_new(const nn_net *net, const banyan_game *g, const char *params, int threads,
                      int cache_entries, net_evaluator **out, char *why, size_t len)
{
    net_evaluator *ev = calloc(1, sizeof *ev);
    *out = NULL;
    if (!ev) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    ev->net = net;
    snprintf(ev->meta.game, sizeof ev->meta.game, "%s", g->name);
    if (net_evaluator_setup(ev, g, params, threads, cache_entries, why, len) != 0) {
        net_evaluator_free(ev);
        return -1;
    }
    *out = ev;
    return 0;
}

int net_evaluator_open(const char *path, const banyan_game *g, const char *params, int threads,
                       int cache_entries, net_evaluator **out, char *why, size_t len)
{
    net_evaluator *ev = calloc(1, sizeof *ev);
    *out = NULL;
    if (!ev) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (nn_load(path, &ev->own, &ev->meta, why, len) != 0) {
        net_evaluator_free(ev);
        return -1;
    }
    ev->net = &ev->own;
    char detail[256];
    if (net_check_game(&ev->meta, g, params, detail, sizeof detail) ||
        net_evaluator_setup(ev, g, params, threads, cache_entries, detail, sizeof detail) != 0) {
        snprintf(why, len, "%s: %s", path, detail);
        net_evaluator_free(ev);
        return -1;
    }
    *out = ev;
    return 0;
}

const banyan_evaluator *net_evaluator_hook(net_evaluator *ev)
{
    return &ev->hook;
}

const nn_net *net_evaluator_net(const net_evaluator *ev)
{
    return ev->net;
}

const nn_meta *net_evaluator_meta(const net_evaluator *ev)
{
    return &ev->meta;
}

void net_evaluator_clear(net_evaluator *ev)
{
    for (int i = 0; i < ev->threads; i++)
        memset(ev->t[i].keys, 0, ((size_t)ev->cache_mask + 1) * sizeof *ev->t[i].keys);
}

void net_evaluator_counts(const net_evaluator *ev, net_counts *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < ev->threads; i++) {
        out->asked += ev->t[i].asked;
        out->cached += ev->t[i].hits;
        out->forwards += ev->t[i].forwards;
        out->evaluated += ev->t[i].evaluated;
        out->seconds += ev->t[i].seconds;
    }
}
