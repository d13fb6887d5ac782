/*
 * search.c - the simulation loop: select, expand, evaluate, back up, stop.
 *
 * Every simulation starts from a private copy of the root position and walks
 * down the tree by UCT or PUCT, adding a visit to each node on the way (a
 * virtual loss: the value arrives only on the way back). At the leaf it
 * expands all children at once, plays one of them, finishes the game with
 * the game's rollout and backs the returns up, each node taking the return
 * of the player who moved into it.
 *
 * MCTS-Solver: in two-player games a finished game is an exact result. A node
 * whose child wins for the player to move is proven, and so is a node whose
 * children are all proven; proofs climb the path during backup, selection
 * never enters a move proven to lose, and a proven root ends the search.
 */
#include "engine.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One ply of the path: a node and the player who moved into it. */
typedef struct step {
    uint32_t node;
    int mover;
} step;

/* How often (in simulations) a worker looks at the clock and the limits. */
#define SEARCH_CHECK_EVERY 16

/* A root child gets the game's deep prover once it has SEARCH_DEEP_VISITS
 * visits and either at least 1 / SEARCH_DEEP_SHARE of the root's or more
 * than any other root child had (as this thread saw them), so that only the
 * few children that the search keeps choosing pay for it (at most
 * SEARCH_DEEP_SHARE of them hold that share at once), and the move played,
 * the most visited, has always been tried when it had 64 visits: where
 * visits spread over many children, none may hold the share. It runs once: the
 * child's NODE_MARK says it has (compaction clears every mark, so after
 * the tree is recycled the prover may run again on a root child; a root
 * child kept from an earlier search was deeper down then, and was never
 * marked). */
#define SEARCH_DEEP_VISITS 64
#define SEARCH_DEEP_SHARE  32

/* The effort the deep prover gets on a root child, and on the root before
 * the search (in Gomoku, positions of the VCT: about 1.7 ms and 40 ms). A
 * search limited in time gives the root SEARCH_ROOT_PER_SECOND positions
 * per second of its limit (about 5% of it), within SEARCH_ROOT_MIN ..
 * SEARCH_ROOT_MAX; one limited otherwise, SEARCH_ROOT_EFFORT. */
#define SEARCH_DEEP_EFFORT     10000
#define SEARCH_ROOT_EFFORT     200000
#define SEARCH_ROOT_PER_SECOND 400000.0
#define SEARCH_ROOT_MIN        50000
#define SEARCH_ROOT_MAX        500000

/* The shares of a timed search's time that bound the root's deep prover
 * and then its deeper defence in seconds as well. Their rates vary several
 * times with the position (Gomoku's VCT visits 0.5 to 2.5 million
 * positions a second), so that the effort alone, sized for a fast one,
 * could outlast the whole move; the bounds are loose, since the provers'
 * time is worth more than the simulations' (tighter ones, 0.4 and 0.25,
 * lost to none at 0.2 s a move, docs/STRENGTH.md). */
#define SEARCH_ROOT_TIME_SHARE   0.6
#define SEARCH_DEFEND_TIME_SHARE 0.35

/* The game's exact solver (banyan_game.solve): the positions it may visit
 * on a node being expanded (300: about 9 empty squares in Connect Four and
 * Othello; with 2,000, 11 in Othello, the calls cost more than they proved,
 * -64 Elo against none at 0.3 s a move, docs/STRENGTH.md), and on the root
 * before the search: a search
 * limited in time gives it SEARCH_SOLVE_PER_SECOND positions per second of
 * its limit (Connect Four's solver visits about 10 million a second, so a
 * quarter of the time), within SEARCH_SOLVE_ROOT_MIN .. SEARCH_SOLVE_ROOT_MAX
 * (a ponder search's time is endless); one limited otherwise,
 * SEARCH_SOLVE_ROOT. Each root child then gets the same, which the
 * solver's table makes cheap after the root. The root's solver gets the
 * engine's stop flag, so that banyan_engine_stop() ends it at once. Its
 * budget is spent in calls of growing size, from SEARCH_SOLVE_SLICE
 * positions and doubling (the table keeps what each call learnt, so the
 * next one does not start over), and no call starts once
 * SEARCH_SOLVE_TIME_SHARE of a timed search's time has gone (a budget set
 * by the user, solve=N, may be more than the time allows; one call can
 * still overrun it, the position count being all it knows). */
#define SEARCH_SOLVE_NODE       300
#define SEARCH_SOLVE_ROOT       4000000
#define SEARCH_SOLVE_ROOT_MIN   100000
#define SEARCH_SOLVE_ROOT_MAX   40000000
#define SEARCH_SOLVE_PER_SECOND 2500000.0
#define SEARCH_SOLVE_SLICE      250000
#define SEARCH_SOLVE_TIME_SHARE 0.5

/* Moves the final check may refute before the search plays one anyway,
 * the share of a timed search kept for it, and the rate (positions a
 * second) that sizes its effort. */
#define SEARCH_VERIFY_TRIES      3
#define SEARCH_VERIFY_SHARE      0.07
#define SEARCH_VERIFY_PER_SECOND 2500000.0

/* Transpositions (banyan_config.transpositions): the table holds the
 * positions SEARCH_TT_DEPTH plies or more below the root, the fewest at
 * which two orders of moves can meet in a game where players alternate,
 * and stops counting a position's visits at SEARCH_TT_VISITS_MAX so that
 * they never overflow, whatever the number of searches. */
#define SEARCH_TT_DEPTH      3
#define SEARCH_TT_VISITS_MAX (NODE_VISITS_MAX / 2)

/* Simulations a thread takes from the budget at once, when several search. */
#define SEARCH_CHUNK 32

/* A search stops when its root has this many visits, so that no node's
 * count overflows (each thread may start one more simulation, and owe the
 * root a chunk's visits). */
#define SEARCH_VISITS_MAX (NODE_VISITS_MAX - BANYAN_MAX_THREADS * (SEARCH_CHUNK + 1))

/* Deadline and limits of the running search, shared read-only by workers. */
typedef struct limits {
    double start;         /* util_now() when the search began. */
    double sims_start;    /* util_now() when the simulations began, after the root's provers. */
    double deadline;      /* Absolute stop time; 0 = none. */
    double hard_deadline; /* Absolute end of the extension for unclear positions. */
    uint64_t max_nodes;   /* Tree size limit; 0 = none. */
    const banyan_limits *user;
    double next_progress; /* Worker 0 only: when to call progress next. */
    _Atomic int halt;     /* A limit was reached: every worker stops. */
} limits;

/* The player who moved into the root: whoever moved last. Only the root's
 * own statistics depend on it, and nothing reads those for decisions. */
static int search_root_mover(const banyan_engine *e)
{
    int n = e->game->n_players;
    return n == 1 ? 0 : (e->root_player + n - 1) % n;
}

/* Maps a raw return onto [0, 1] with the game's declared bounds. */
static double search_norm(const banyan_engine *e, double r)
{
    double v = (r - e->reward_lo) * e->reward_scale;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Adds to a node's statistics. Shared trees need atomic read-modify-write
 * instructions; with one thread a relaxed load and store do the same job
 * without the locked instruction (a full barrier on x86), which would
 * otherwise cost more than the rest of a tree level. */
static inline uint64_t search_add_stats(const banyan_engine *e, node *x, uint64_t add)
{
    if (e->shared)
        return atomic_fetch_add_explicit(&x->stats, add, memory_order_relaxed) + add;
    uint64_t s = atomic_load_explicit(&x->stats, memory_order_relaxed) + add;
    atomic_store_explicit(&x->stats, s, memory_order_relaxed);
    return s;
}

/* Adds a visit; returns the visits now. */
static inline uint32_t search_add_visit(const banyan_engine *e, node *x)
{
    return tree_stats_visits(search_add_stats(e, x, 1));
}

/* Adds v VALUE_ONE units of value. */
static inline void search_add_value(const banyan_engine *e, node *x, uint32_t v)
{
    search_add_stats(e, x, (uint64_t)v << NODE_VISIT_BITS);
}

/* The entry of tree t's transposition table for the position whose hash
 * is hash, a two-way bucket: the slot that holds the position, else NULL
 * (look) or the slot with fewer visits, emptied for it (take). The key
 * and the statistics are two words: a thread that reads them while
 * another takes the slot over may pair the new key with the old numbers,
 * which misleads one leaf at worst. */
static tree_tt_entry *search_tt_slot(const tree *t, uint64_t hash, bool take)
{
    uint64_t key = hash | 1;
    tree_tt_entry *b = tree_tt_bucket(t, hash);
    for (int i = 0; i < 2; i++)
        if (atomic_load_explicit(&b[i].key, memory_order_relaxed) == key)
            return &b[i];
    if (!take)
        return NULL;
    tree_tt_entry *x =
        &b[tree_stats_visits(atomic_load_explicit(&b[1].stats, memory_order_relaxed)) <
           tree_stats_visits(atomic_load_explicit(&b[0].stats, memory_order_relaxed))];
    atomic_store_explicit(&x->key, key, memory_order_relaxed);
    atomic_store_explicit(&x->stats, 0, memory_order_relaxed);
    return x;
}

/* The mean value of the position whose hash is hash, for the player who
 * moved into it, into *v, when the table has at least own visits of it
 * (own: the visits of the leaf, this one included, so that some came by
 * another path). */
static bool search_tt_mean(const tree *t, uint64_t hash, uint32_t own, double *v)
{
    tree_tt_entry *x = search_tt_slot(t, hash, false);
    if (!x)
        return false;
    uint64_t s = atomic_load_explicit(&x->stats, memory_order_relaxed);
    if (tree_stats_visits(s) < own)
        return false;
    *v = tree_value_mean(tree_stats_visits(s), tree_stats_value(s));
    return true;
}

/* Adds a visit worth units VALUE_ONE units to the position whose hash is
 * hash. */
static void search_tt_add(const banyan_engine *e, const tree *t, uint64_t hash, uint32_t units)
{
    tree_tt_entry *x = search_tt_slot(t, hash, true);
    uint64_t add = (uint64_t)units << NODE_VISIT_BITS | 1;
    uint64_t s = atomic_load_explicit(&x->stats, memory_order_relaxed);
    if (tree_stats_visits(s) >= SEARCH_TT_VISITS_MAX)
        return;
    if (e->shared)
        atomic_fetch_add_explicit(&x->stats, add, memory_order_relaxed);
    else
        atomic_store_explicit(&x->stats, s + add, memory_order_relaxed);
}

/* In a graph (banyan_config.graph) the table maps a position's hash to the
 * node that owns its block of children. An entry is a key and a node
 * index, written as a sequence lock would be: a writer takes the entry by
 * swapping its key for SEARCH_GRAPH_BUSY (another writer there, it gives
 * up), writes the index, and sets the key; a reader takes the index only
 * when the key is the one it looks for before and after it. So no thread
 * pairs one position's key with another's node. The owner of the position
 * whose hash is hash, or 0. */
#define SEARCH_GRAPH_BUSY 2u /* An entry being written: no key (keys are odd). */
static uint32_t search_graph_find(const tree *t, uint64_t hash)
{
    uint64_t key = hash | 1;
    tree_tt_entry *b = tree_tt_bucket(t, hash);
    for (int i = 0; i < 2; i++) {
        if (atomic_load_explicit(&b[i].key, memory_order_acquire) != key)
            continue;
        /* Acquire: a writer's index seen here brings its key's change with it. */
        uint64_t owner = atomic_load_explicit(&b[i].stats, memory_order_acquire);
        if (atomic_load_explicit(&b[i].key, memory_order_relaxed) == key && owner < t->capacity)
            return (uint32_t)owner;
    }
    return 0;
}

/* Makes node xi the owner of the position whose hash is hash: in its
 * bucket, the slot of that position, else an empty one, else the one whose
 * owner has fewer visits. */
static void search_graph_put(const tree *t, uint64_t hash, uint32_t xi)
{
    uint64_t key = hash | 1;
    tree_tt_entry *b = tree_tt_bucket(t, hash), *x = NULL;
    uint32_t visits[2];
    for (int i = 0; i < 2 && !x; i++) {
        uint64_t k = atomic_load_explicit(&b[i].key, memory_order_relaxed);
        uint64_t owner = atomic_load_explicit(&b[i].stats, memory_order_relaxed);
        visits[i] = owner < t->capacity ? tree_visits(&t->nodes[owner]) : 0;
        if (k == key || k == 0)
            x = &b[i];
    }
    if (!x)
        x = &b[visits[1] < visits[0]];
    uint64_t old = atomic_load_explicit(&x->key, memory_order_relaxed);
    if (old == SEARCH_GRAPH_BUSY ||
        !atomic_compare_exchange_strong_explicit(&x->key, &old, SEARCH_GRAPH_BUSY,
                                                 memory_order_relaxed, memory_order_relaxed))
        return; /* Another thread writes it: this position goes unshared. */
    atomic_store_explicit(&x->stats, xi, memory_order_release); /* After the key's BUSY. */
    atomic_store_explicit(&x->key, key, memory_order_release);
}

/* Natural logarithm of x >= 1, to about 1e-5 relative: the exponent from the
 * bits of the double, and log(m) for the mantissa m in [1, 2) as
 * 2 atanh((m-1)/(m+1)) by a short odd series. Exact on every platform with
 * IEEE doubles, and several times cheaper than libm's log, which selection
 * would otherwise call once per tree level. */
static double search_log(double x)
{
    union {
        double d;
        uint64_t u;
    } b = {x};
    int e = (int)((b.u >> 52) & 0x7ff) - 1023;
    b.u = (b.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
    double t = (b.d - 1) / (b.d + 1), t2 = t * t;
    double s = t * (2 + t2 * (2.0 / 3 + t2 * (2.0 / 5 + t2 * (2.0 / 7 + t2 * (2.0 / 9)))));
    return e * 0.69314718055994530942 + s;
}

/*
 * Selection with RAVE (config.rave; docs/SEARCH.md, "RAVE"): each child's
 * mean q from its n simulations is mixed with its AMAF mean r from the A
 * simulations that played its move later, by the same player, with the
 * weight b = A / (A + n + n A / K), which starts at 1 and fades as the
 * child's own simulations grow past K; then UCB1's exploration term,
 * c sqrt(ln N / (n + 1)), counts the child's own visits. A child seen
 * neither way scores FPU_RAVE plus its prior, so that the children the
 * game ranks first are tried first. Proofs as in search_select.
 */
#define SEARCH_FPU_RAVE 1.0f
static uint32_t search_select_rave(const banyan_engine *e, const tree *t, const node *x,
                                   uint32_t first, int n, float log_n)
{
    const node *nodes = t->nodes;
    const float unit = 1.0f / VALUE_ONE, k = (float)e->cfg.rave;
    const float c = (float)e->cfg.c;
    bool root = x == &nodes[t->root];
    float best = -HUGE_VALF;
    uint32_t best_i = first;
    for (int i = 0, live = 0; live < n; i++) {
        uint32_t ci = first + (uint32_t)i;
        const node *ch = &nodes[ci];
        uint8_t flags = atomic_load_explicit(&ch->flags, memory_order_acquire);
        banyan_proof proof = (banyan_proof)(flags & NODE_PROOF_MASK);
        uint64_t st = tree_stats(ch), am = atomic_load_explicit(&t->amaf[ci], memory_order_relaxed);
        float cn = (float)tree_stats_visits(st), an = (float)tree_stats_visits(am);
        live += !root || proof != BANYAN_PROVEN_LOSS;
        if (BANYAN_UNLIKELY(proof == BANYAN_PROVEN_WIN) && !(root && e->analysing))
            return ci;
        float score;
        if (cn == 0 && an == 0) {
            score = SEARCH_FPU_RAVE + tree_prior(ch);
        } else {
            float q = cn > 0 ? (float)tree_stats_value(st) * unit / cn : 0;
            float r = an > 0 ? (float)tree_stats_value(am) * unit / an : q;
            float b = an / (an + cn + cn * an / k);
            score = (1 - b) * q + b * r + c * sqrtf(log_n / (cn + 1));
        }
        if (BANYAN_UNLIKELY(proof == BANYAN_PROVEN_LOSS))
            score -= 1e9f;
        if (BANYAN_UNLIKELY(proof == BANYAN_PROVEN_WIN))
            score -= 2e9f; /* An analysis values the other moves. */
        if (score > best) {
            best = score;
            best_i = ci;
        }
        if (flags & NODE_LAST)
            break;
    }
    return best_i;
}

/*
 * Selection in single-player games (config.max_mix, config.adaptive;
 * docs/SEARCH.md, "Single-player search"): UCB1 on each child's mean mixed
 * with the best return seen through it, q = (1 - m) mean + m best, and an
 * exploration constant scaled by the spread of the returns seen so far
 * (the best less the worst), which is UCB1 on means mapped onto [0, 1] by
 * that spread rather than by the declared bounds. Unvisited children first,
 * in prior order (first-play urgency infinite); no proofs in such games.
 */
static uint32_t search_select_solo(const banyan_engine *e, const tree *t, uint32_t first, int n,
                                   float log_n)
{
    const node *nodes = t->nodes;
    const float unit = 1.0f / VALUE_ONE, mix = (float)e->cfg.max_mix;
    float c = (float)e->cfg.c;
    if (e->cfg.adaptive > 0) {
        uint32_t lo = atomic_load_explicit(&e->seen_lo, memory_order_relaxed);
        uint32_t hi = atomic_load_explicit(&e->seen_hi, memory_order_relaxed);
        if (hi > lo)
            c *= (float)(hi - lo) * unit;
    }
    float best = -HUGE_VALF;
    uint32_t best_i = first;
    for (int i = 0; i < n; i++) {
        uint32_t ci = first + (uint32_t)i;
        uint64_t st = tree_stats(&nodes[ci]);
        float cn = (float)tree_stats_visits(st);
        if (cn == 0)
            return ci;
        float q = (float)tree_stats_value(st) * unit / cn;
        if (t->best)
            q = (1 - mix) * q +
                mix * (float)atomic_load_explicit(&t->best[ci], memory_order_relaxed) * unit;
        float score = q + c * sqrtf(log_n / cn);
        if (score > best) {
            best = score;
            best_i = ci;
        }
        if (atomic_load_explicit(&nodes[ci].flags, memory_order_relaxed) & NODE_LAST)
            break;
    }
    return best_i;
}

/*
 * Chooses the child of x to descend into. Children proven to lose for the
 * player to move are never chosen while another exists; a proven win is
 * taken at once. Unvisited children get the first-play urgency, and under
 * FPU_INFINITE the first of them (children are ordered by prior) is taken
 * at once, so every child is tried before any is tried twice.
 *
 * This is the hottest loop of the engine: scores are computed in float with
 * one square root and one division per child. UCB1 is rewritten as
 * (W + c sqrt(ln N * n)) / n, which is Q + c sqrt(ln N / n). player is
 * the one to move at x: the widening is widening_opponent's where he is not
 * the root's.
 */
static uint32_t search_select(const banyan_engine *e, const tree *t, const node *x, int player)
{
    const node *nodes = t->nodes;
    uint32_t first = tree_first(x);
    const banyan_config *cfg = &e->cfg;
    uint32_t parent_n = tree_visits(x);
    if (t->graph) {
        /* A shared block's children count the visits of every node that
         * shares it: the parent's weight in exploration and widening is
         * theirs together, where it is larger than its own. */
        uint32_t sum = 0;
        for (uint32_t i = first;; i++) {
            sum += tree_visits(&nodes[i]);
            if (atomic_load_explicit(&nodes[i].flags, memory_order_relaxed) & NODE_LAST)
                break;
        }
        parent_n = sum > parent_n ? sum : parent_n;
    }
    int n = BANYAN_MAX_MOVES; /* The children compete up to NODE_LAST, or n of them. */
    double widening = player == e->root_player ? cfg->widening : cfg->widening_opponent;
    if (widening > 0) {
        /* Progressive widening: only the first children by prior compete,
         * more of them as the node is visited more (at the root, children
         * proven lost do not count: below). */
        n = (int)(widening * sqrtf((float)parent_n));
        if (n < 2)
            n = 2;
    }
    bool puct = cfg->select == BANYAN_SELECT_PUCT;
    float c = (float)cfg->c;
    float explore = puct ? (float)(cfg->c * sqrt((double)parent_n)) : 0;
    float log_n = puct ? 0 : (float)search_log(parent_n > 1 ? parent_n : 1);
    float fpu = (float)cfg->fpu_value;
    const float unit = 1.0f / VALUE_ONE;

    if (t->amaf) /* RAVE has its own first-play urgency. */
        return search_select_rave(e, t, x, first, n, log_n);
    if ((t->best || cfg->adaptive > 0) && cfg->fpu == BANYAN_FPU_INFINITE)
        return search_select_solo(e, t, first, n, log_n);
    if (cfg->fpu == BANYAN_FPU_PARENT) {
        /* The parent's value for the player to move here is the visit-
         * weighted mean of its visited children, which holds for any number
         * of players. */
        int64_t w = 0;
        uint64_t v = 0;
        for (int i = 0; i < n; i++) {
            uint64_t st = tree_stats(&nodes[first + (uint32_t)i]);
            v += tree_stats_visits(st);
            w += tree_stats_value(st);
            if (atomic_load_explicit(&nodes[first + (uint32_t)i].flags, memory_order_relaxed) &
                NODE_LAST)
                break;
        }
        fpu = (float)(tree_value_mean(v, w) - cfg->fpu_value);
    }

    float best = -HUGE_VALF;
    uint32_t best_i = first;
    if (!puct && cfg->fpu == BANYAN_FPU_INFINITE &&
        !(atomic_load_explicit(&x->flags, memory_order_acquire) & NODE_PROVEN_CHILD)) {
        /* The common case, kept lean: no proofs to look at, and the first
         * unvisited child is taken at once. */
        float k = c * sqrtf(log_n);
        for (int i = 0; i < n; i++) {
            const node *ch = &nodes[first + (uint32_t)i];
            uint64_t st = tree_stats(ch);
            uint32_t cn = tree_stats_visits(st);
            if (!cn)
                return first + (uint32_t)i;
            float w = (float)tree_stats_value(st) * unit;
            float score = (w + k * sqrtf((float)cn)) / (float)cn;
            if (score > best) {
                best = score;
                best_i = first + (uint32_t)i;
            }
            if (atomic_load_explicit(&ch->flags, memory_order_relaxed) & NODE_LAST)
                break;
        }
        return best_i;
    }
    /* At the root the width counts the children not proven lost, so that
     * refuted tries widen it at once. */
    bool root = x == &nodes[t->root];
    for (int i = 0, live = 0; live < n; i++) {
        const node *ch = &nodes[first + (uint32_t)i];
        uint8_t flags = atomic_load_explicit(&ch->flags, memory_order_acquire);
        banyan_proof proof = (banyan_proof)(flags & NODE_PROOF_MASK);
        uint64_t st = tree_stats(ch);
        uint32_t cn = tree_stats_visits(st);
        live += !root || proof != BANYAN_PROVEN_LOSS;
        float w = (float)tree_stats_value(st) * unit;
        float score;
        if (BANYAN_UNLIKELY(proof == BANYAN_PROVEN_WIN) && !(root && e->analysing))
            return first + (uint32_t)i;
        if (cn == 0) {
            if (cfg->fpu == BANYAN_FPU_INFINITE && proof == BANYAN_UNPROVEN)
                return first + (uint32_t)i;
            score = puct ? fpu + explore * tree_prior(ch) : fpu + c * sqrtf(log_n);
        } else if (puct) {
            score = w / (float)cn + explore * tree_prior(ch) / (float)(1 + cn);
        } else {
            score = (w + c * sqrtf(log_n * (float)cn)) / (float)cn;
        }
        if (BANYAN_UNLIKELY(proof == BANYAN_PROVEN_LOSS))
            score -= 1e9f; /* Last resort only. */
        if (BANYAN_UNLIKELY(proof == BANYAN_PROVEN_WIN))
            score -= 2e9f; /* An analysis values the other moves. */
        if (score > best) {
            best = score;
            best_i = first + (uint32_t)i;
        }
        if (flags & NODE_LAST)
            break;
    }
    return best_i;
}

/* The priors of moves[0 .. n-1] in s into priors: the evaluator's where
 * the config has one (thread names the caller); else the game's
 * evaluation's, where the leaves are evaluated and it gives them; else the
 * game's priors(). Returns false when there are none (uniform). */
static bool search_priors(const banyan_engine *e, int thread, const void *s,
                          const banyan_move *moves, int n, float *priors)
{
    const banyan_game *g = e->game;
    if (e->cfg.evaluator) {
        banyan_eval_request req = {s, moves, n, priors, NULL};
        e->cfg.evaluator->evaluate(e->cfg.evaluator->ud, thread, &req, 1);
        return true;
    }
    if (e->cfg.leaf != BANYAN_LEAF_ROLLOUT && g->evaluate(s, NULL, moves, n, priors))
        return true;
    if (!g->priors)
        return false;
    g->priors(s, moves, n, priors);
    return true;
}

/* Sorts the n moves by prior, highest first, keeping the game's order among
 * equal priors so that the tree does not depend on the sort. */
static void search_sort_by_prior(banyan_move *moves, float *priors, int n)
{
    for (int i = 1; i < n; i++) {
        banyan_move m = moves[i];
        float p = priors[i];
        int j = i;
        for (; j > 0 && priors[j - 1] < p; j--) {
            moves[j] = moves[j - 1];
            priors[j] = priors[j - 1];
        }
        moves[j] = m;
        priors[j] = p;
    }
}

/* Root child xi, whose position is w->state, where mover just moved, has
 * just reached n visits: if it is due (SEARCH_DEEP_VISITS above) and not
 * yet marked, marks it and runs the game's deep prover there; a win for
 * the opponent to move proves the child lost. Two-player games only.
 * Returns whether it proved the child. */
static bool search_prove_deep(worker *w, uint32_t xi, int mover, uint32_t n)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    node *x = &w->t->nodes[xi];
    double ret[BANYAN_MAX_PLAYERS];
    banyan_move win;
    bool leads = n > w->root_top;
    w->root_top = leads ? n : w->root_top;
    if (n < SEARCH_DEEP_VISITS ||
        (!leads && (uint64_t)n * SEARCH_DEEP_SHARE < tree_visits(&w->t->nodes[w->t->root])) ||
        (atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_MARK) ||
        (atomic_fetch_or_explicit(&x->flags, NODE_MARK, memory_order_relaxed) & NODE_MARK))
        return false;
    if (g->n_players != 2 || tree_proof(x) != BANYAN_UNPROVEN || g->outcome(w->state, ret) ||
        !g->prove_win_deep(w->state, SEARCH_DEEP_EFFORT, 0, w->deep, &win))
        return false;
    tree_set_proof(x, g->to_move(w->state) == mover ? BANYAN_PROVEN_WIN : BANYAN_PROVEN_LOSS);
    return true; /* The backup marks the root as having a proven child. */
}

/* A rollout from s that writes its moves (the first SEARCH_RAVE_MOVES) to
 * out and returns how many: the game's playout(), or uniform moves. */
static int search_recorded_rollout(const banyan_game *g, void *s, banyan_rng *rng, banyan_move *out)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    int n, k = 0;
    if (g->playout)
        return g->playout(s, rng, out, SEARCH_RAVE_MOVES);
    while ((n = g->moves(s, moves)) > 0) {
        banyan_move m = moves[banyan_rng_below(rng, (uint32_t)n)];
        if (k < SEARCH_RAVE_MOVES)
            out[k++] = m;
        g->play(s, m);
    }
    return k;
}

/* Counts who owns each cell of w->state, a finished rollout's position
 * (config.ownership). */
static void search_count_owners(worker *w)
{
    const banyan_game *g = w->e->game;
    int width, height;
    g->board_size(w->state, &width, &height);
    if (width * height > BANYAN_OWNER_CELLS)
        return;
    for (int y = 0, i = 0; y < height; y++)
        for (int x = 0; x < width; x++, i++) {
            int o = g->owner(w->state, x, y);
            if (o == 0 || o == 1)
                w->owned[2 * i + o]++;
        }
    w->owned_n++;
}

/* The returns of the leaf position w->state, a game that goes on, by the
 * config's leaf rule: a rollout to the end, the game's evaluation, or a
 * rollout of at most cutoff plies among the candidates and then the
 * evaluation where the game still goes on. The state is played on. */
static void search_leaf(worker *w, double *ret)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    if (e->cfg.leaf == BANYAN_LEAF_ROLLOUT) {
        if (w->rave_moves)
            w->rave_n = search_recorded_rollout(g, w->state, &w->rng, w->rave_moves);
        else if (g->rollout)
            g->rollout(w->state, &w->rng);
        else
            util_default_rollout(g, w->state, &w->rng);
        if (w->owned)
            search_count_owners(w);
        if (NEVER(!g->outcome(w->state, ret)))
            for (int i = 0; i < g->n_players; i++)
                ret[i] = e->reward_lo;
        return;
    }
    if (e->cfg.leaf == BANYAN_LEAF_CUTOFF) {
        banyan_move moves[BANYAN_MAX_MOVES];
        for (int ply = 0; ply < e->cfg.cutoff; ply++) {
            if (g->outcome(w->state, ret))
                return;
            int n = g->candidates ? g->candidates(w->state, moves) : g->moves(w->state, moves);
            if (NEVER(n <= 0))
                break;
            g->play(w->state, moves[banyan_rng_below(&w->rng, (uint32_t)n)]);
        }
        if (g->outcome(w->state, ret))
            return;
    }
    if (e->cfg.evaluator) {
        banyan_eval_request req = {w->state, NULL, 0, NULL, ret};
        e->cfg.evaluator->evaluate(e->cfg.evaluator->ud, w->index, &req, 1);
    } else {
        g->evaluate(w->state, ret, NULL, 0, NULL);
    }
}

/* What an expansion did. */
typedef enum expansion {
    EXPAND_NONE = 0, /* Another thread holds the claim, or the arena is full. */
    EXPAND_DONE,     /* The children are there. */
    EXPAND_PROVEN    /* The game's prover found a win for the player to move. */
} expansion;

/*
 * Expands node xi, whose position is w->state and which is not over: one
 * block of children (the game's candidates, or every legal move), ordered
 * by prior, published with a release store. Before that, below the root
 * (depth > 0), the game's prover may prove a win for the player to move,
 * which makes children unnecessary: the node is proven instead. A game
 * with expand() answers both there in one call.
 */
static expansion search_expand(worker *w, uint32_t xi, int mover, int depth, uint64_t hash)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    tree *t = w->t;
    node *x = &t->nodes[xi];
    banyan_move moves[BANYAN_MAX_MOVES];
    float priors[BANYAN_MAX_MOVES];
    bool graph = t->graph && depth >= SEARCH_TT_DEPTH;

    if ((atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_EXPANDING) ||
        (atomic_fetch_or_explicit(&x->flags, NODE_EXPANDING, memory_order_acq_rel) &
         NODE_EXPANDING))
        return EXPAND_NONE;
    if (graph) {
        /* The position has a block already, owned by a node reached by
         * another order of moves: share it. */
        uint32_t owner = search_graph_find(t, hash);
        uint32_t first = owner && owner != xi
                             ? atomic_load_explicit(&t->nodes[owner].children, memory_order_acquire)
                             : 0;
        if (first && !(first & NODE_BORROWED)) {
            uint8_t f = atomic_load_explicit(&t->nodes[owner].flags, memory_order_relaxed);
            atomic_fetch_or_explicit(&x->flags, f & (NODE_CANDIDATES | NODE_PROVEN_CHILD),
                                     memory_order_relaxed);
            atomic_store_explicit(&x->children, first | NODE_BORROWED, memory_order_release);
            w->transposed++;
            return EXPAND_DONE;
        }
    }
    int n = 0; /* The children, once the game has listed them. */
    if (depth > 0 && g->prove_win && g->n_players == 2) {
        banyan_move win;
        bool won = g->expand ? (n = g->expand(w->state, w->deep, &win, moves)) < 0
                             : g->prove_win(w->state, &win);
        if (won) {
            int p = g->to_move(w->state);
            tree_set_proof(x, mover == p ? BANYAN_PROVEN_WIN : BANYAN_PROVEN_LOSS);
            return EXPAND_PROVEN;
        }
    }
    if (depth > 0 && g->solve && g->n_players == 2) {
        banyan_move best;
        int score, r = g->solve(w->state, SEARCH_SOLVE_NODE, NULL, w->deep, &best, &score);
        /* A result without its score (Connect Four's opening book) proves
         * nothing here: with every reply proven lost and none known to
         * resist longer, the player facing them would stop searching and
         * play any; unproven, the search finds the one that resists best.
         * The root's solve uses such results. */
        if (r >= BANYAN_SOLVE_WIN && r <= BANYAN_SOLVE_DRAW && score != BANYAN_SOLVE_NO_SCORE) {
            /* r is for the player to move, the proof for the mover. */
            banyan_proof proof = (banyan_proof)r;
            tree_set_proof(x, mover == g->to_move(w->state) ? proof : tree_proof_flip(proof));
            return EXPAND_PROVEN;
        }
    }
    if (n == 0)
        n = g->candidates ? g->candidates(w->state, moves) : g->moves(w->state, moves);
    if (NEVER(n <= 0 || n > BANYAN_MAX_MOVES))
        return EXPAND_NONE;
    for (int i = 0; i < n; i++)
        if (moves[i] >= BANYAN_MOVE_LIMIT) {
            /* The game breaks the contract: say so after the search. The
             * node stays a leaf, its claim given back. */
            atomic_store_explicit(&e->bad_move, moves[i] + 1u, memory_order_relaxed);
            atomic_fetch_and_explicit(&x->flags, (uint8_t)~NODE_EXPANDING, memory_order_relaxed);
            return EXPAND_NONE;
        }
    uint32_t first = tree_take(w->t, (uint32_t)n);
    if (!first)
        return EXPAND_NONE; /* The claim stays: nobody can expand into a full arena. */

    uint8_t uniform = tree_prior_code(1.0f / (float)n);
    bool have_priors = search_priors(e, w->index, w->state, moves, n, priors);
    if (have_priors)
        search_sort_by_prior(moves, priors, n);
    for (int i = 0; i < n; i++) {
        node *c = &w->t->nodes[first + (uint32_t)i];
        atomic_init(&c->stats, 0);
        atomic_init(&c->children, 0);
        c->move = (uint16_t)moves[i];
        c->prior = have_priors ? tree_prior_code(priors[i]) : uniform;
        atomic_init(&c->flags, i == n - 1 ? NODE_LAST : 0);
        if (w->t->amaf)
            atomic_init(&w->t->amaf[first + (uint32_t)i], 0);
        if (w->t->best)
            atomic_init(&w->t->best[first + (uint32_t)i], 0);
    }
    if (g->candidates)
        atomic_fetch_or_explicit(&x->flags, NODE_CANDIDATES, memory_order_relaxed);
    atomic_store_explicit(&x->children, first, memory_order_release);
    if (graph)
        search_graph_put(t, hash, xi);
    return EXPAND_DONE;
}

/*
 * Tries to prove node path[i], whose child path[i + 1] was just proven (or
 * the root, i = 0, with mover and p given). x is proven when a child wins
 * for the player p to move at x, or when every child is proven, the best
 * one deciding. When the children are the game's candidates, "every child"
 * means every move only if the game has no other legal move there: the
 * position is rebuilt from the root along the path to count them, which is
 * rare (only when every candidate is proven). Two-player games only, where
 * a value for one player is 1 minus the value for the other.
 */
static bool search_prove(worker *w, const step *path, int i, int mover, int p)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    node *nodes = w->t->nodes;
    node *x = &nodes[path[i].node];
    int n;
    uint32_t first = tree_children(nodes, x, &n);
    double best = -1;
    bool all = true;
    if (!first || (e->analysing && path[i].node == w->t->root))
        return false; /* An analysis goes on past a proof of the root. */
    for (int k = 0; k < n && best < 1.0; k++) {
        banyan_proof proof = tree_proof(&nodes[first + k]);
        if (proof == BANYAN_UNPROVEN)
            all = false;
        else if (tree_proof_value(proof) > best)
            best = tree_proof_value(proof);
    }
    if (best < 1.0 && !all)
        return false;
    if (best < 1.0 && (atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_CANDIDATES)) {
        banyan_move legal[BANYAN_MAX_MOVES];
        memcpy(w->scratch, e->root_state, g->state_size);
        for (int k = 1; k <= i; k++) {
            g->play(w->scratch, tree_move(&nodes[path[k].node]));
            GAME_CHECK(g, w->scratch);
        }
        if (g->moves(w->scratch, legal) > n)
            return false;
    }
    tree_set_proof(x, tree_proof_of(mover == p ? best : 1.0 - best));
    return true;
}

/* Marks node x terminal and, in two-player games, proven with the exact
 * value v for the player who moved into it. Returns whether it is proven. */
static bool search_mark_terminal(const banyan_engine *e, node *x, double v)
{
    uint8_t bits = NODE_TERMINAL;
    banyan_proof proof = BANYAN_UNPROVEN;
    if (e->game->n_players == 2)
        proof = tree_proof_of(v);
    bits |= (uint8_t)proof;
    atomic_fetch_or_explicit(&x->flags, bits, memory_order_release);
    return proof != BANYAN_UNPROVEN;
}

/* One simulation on its way: the path from the root, what is known of the
 * leaf, and its returns once evaluated. A worker holds one, or config.batch
 * of them when an evaluator takes leaves in batches. */
struct search_sim {
    int depth;
    bool proving;
    bool pending; /* The leaf waits for its evaluation, */
    bool rolled;  /* Its leaf's rollout moves are in worker.rave_moves. */
    int dup;      /* or for that of sims[dup] of the same batch, at the same leaf. */
    unsigned char *state;
    double ret[BANYAN_MAX_PLAYERS];
    step path[BANYAN_MAX_DEPTH + 2];
    uint64_t hashes[BANYAN_MAX_DEPTH + 2]; /* With transpositions: the hash of each position
                                              SEARCH_TT_DEPTH plies or more down. */
};

size_t search_sim_size(void)
{
    return sizeof(search_sim);
}

void search_sims_init(worker *w, int n, size_t state_size)
{
    for (int i = 0; i < n; i++)
        w->sims[i].state = w->states + (size_t)i * state_size;
    w->state = w->states;
}

/* Steps 1 to 3 of a simulation, and step 4 where the leaf's value needs no
 * evaluation: S->pending tells whether it waits for one. The position is
 * played on S->state, which w->state points to meanwhile. */
static void search_descend(worker *w, search_sim *S, int before)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    tree *t = w->t;
    node *nodes = t->nodes;
    step *path = S->path;
    uint64_t *hashes = S->hashes;
    double *ret = S->ret;
    double exact = -1;
    bool proving = false;
    int depth = 0;
    uint32_t xi = t->root;

    /* Step 1. Start from a private copy of the root position. On a shared
     * tree the root's statistics, which every simulation of every thread
     * would write, are gathered per thread and added in chunks: the root's
     * own value decides nothing, and its visits only scale exploration. */
    w->state = S->state;
    memcpy(w->state, e->root_state, g->state_size);
    path[0] = (step){xi, search_root_mover(e)};
    if (e->shared)
        w->root_stats++;
    else
        search_add_visit(e, &nodes[xi]);

    /* Step 2. Select: walk down expanded nodes, adding a virtual visit to
     * each, until a leaf or a proven node. */
    for (;;) {
        node *x = &nodes[xi];
        banyan_proof proof = tree_proof(x);
        if (proof != BANYAN_UNPROVEN) {
            /* In a graph the node may have been proven on another
             * parent's path: this one's parent tries a proof too (as it
             * does after the deep prover proved a root child, below). */
            exact = tree_proof_value(proof);
            proving = proving || (t->graph && depth > 0);
            break;
        }
        if (!atomic_load_explicit(&x->children, memory_order_acquire) || depth >= BANYAN_MAX_DEPTH)
            break;
        int p = g->to_move(w->state);
        xi = search_select(e, t, x, p);
        g->play(w->state, tree_move(&nodes[xi]));
        path[++depth] = (step){xi, p};
        if (t->tt && depth >= SEARCH_TT_DEPTH)
            hashes[depth] = g->hash(w->state);
        uint32_t n = search_add_visit(e, &nodes[xi]);
        if (depth == 1 && g->prove_win_deep)
            proving = search_prove_deep(w, xi, p, n); /* Read at the top of the loop. */
    }

    /* Step 3. At a leaf: score a finished game exactly; otherwise expand
     * once the leaf has enough visits, and step into its first choice. In
     * a batch, a leaf that an earlier simulation of the batch reached and
     * that waits for its evaluation is neither expanded (its priors are not
     * known yet) nor evaluated twice: this simulation takes its value. */
    S->dup = -1;
    for (int i = 0; i < before && exact < 0; i++)
        if (w->sims[i].pending && w->sims[i].dup < 0 &&
            w->sims[i].path[w->sims[i].depth].node == xi)
            S->dup = i;
    if (S->dup >= 0) {
        /* Valued with sims[dup], below. */
    } else if (exact < 0 && g->outcome(w->state, ret)) {
        exact = search_norm(e, ret[path[depth].mover]);
        proving = search_mark_terminal(e, &nodes[xi], exact);
    } else if (exact < 0 && depth < BANYAN_MAX_DEPTH &&
               (depth == 0 || tree_visits(&nodes[xi]) > e->cfg.expand_visits)) {
        /* The root is proven, if at all, before the search (search_run). */
        expansion grown = search_expand(w, xi, path[depth].mover, depth,
                                        depth >= SEARCH_TT_DEPTH ? hashes[depth] : 0);
        if (grown == EXPAND_PROVEN) {
            exact = tree_proof_value(tree_proof(&nodes[xi]));
            proving = true;
        } else if (grown == EXPAND_DONE) {
            int p = g->to_move(w->state);
            xi = search_select(e, t, &nodes[xi], p);
            g->play(w->state, tree_move(&nodes[xi]));
            path[++depth] = (step){xi, p};
            if (t->tt && depth >= SEARCH_TT_DEPTH)
                hashes[depth] = g->hash(w->state);
            search_add_visit(e, &nodes[xi]);
            if (g->outcome(w->state, ret)) {
                exact = search_norm(e, ret[p]);
                proving = search_mark_terminal(e, &nodes[xi], exact);
            }
        }
    }
    if (depth > w->max_depth)
        w->max_depth = depth;

    /* Step 4 where no evaluation is needed. A proven node carries one exact
     * value, which in a two-player zero-sum game fixes both returns; so
     * does the mean of a position the table holds from another path. */
    double known;
    S->depth = depth;
    S->proving = proving;
    S->pending = false;
    if (S->dup >= 0) {
        S->pending = true;
    } else if (exact < 0 && t->tt && !t->graph && depth >= SEARCH_TT_DEPTH &&
               search_tt_mean(t, hashes[depth], tree_visits(&nodes[xi]), &known)) {
        int m = path[depth].mover;
        ret[m] = known;
        ret[!m] = 1.0 - known;
        w->transposed++;
    } else if (exact < 0) {
        S->pending = true;
    } else {
        int m = path[depth].mover;
        for (int i = 0; i < g->n_players; i++)
            ret[i] = i == m ? exact : 1.0 - exact;
    }
}

/* Adds v VALUE_ONE units and a visit to an AMAF entry. */
static inline void search_add_amaf(const banyan_engine *e, _Atomic uint64_t *a, uint32_t v)
{
    uint64_t add = ((uint64_t)v << NODE_VISIT_BITS) + 1;
    if (e->shared)
        atomic_fetch_add_explicit(a, add, memory_order_relaxed);
    else
        atomic_store_explicit(a, atomic_load_explicit(a, memory_order_relaxed) + add,
                              memory_order_relaxed);
}

/* RAVE's part of step 5: every child of a node on the path whose move the
 * player to move there played first, later in the simulation, takes that
 * player's return in its AMAF statistics. The moves are walked from the
 * end of the rollout back to the root, each marking its code with the
 * player who played it, so that at each node the marks hold the first
 * player of every move after it. The rollout's players take turns from
 * the leaf's (RAVE is for two players). AMAF counts stop short of the
 * visits' cap. */
static void search_ascend_rave(worker *w, const search_sim *S, const uint32_t *units)
{
    banyan_engine *e = w->e;
    tree *t = w->t;
    node *nodes = t->nodes;
    const step *path = S->path;
    uint32_t stamp = ++w->rave_sim;
    if (BANYAN_UNLIKELY(stamp == 0)) {
        memset(w->rave_stamp, 0, BANYAN_MOVE_LIMIT * sizeof(uint32_t));
        stamp = w->rave_sim = 1;
    }
    int depth = S->depth;
    /* The leaf's player to move: the other one than who moved into it. */
    int p = 1 - path[depth].mover;
    bool rolled = S->rolled;
    for (int j = rolled ? w->rave_n - 1 : -1; j >= 0; j--) {
        banyan_move m = w->rave_moves[j];
        w->rave_stamp[m] = stamp;
        w->rave_who[m] = (uint8_t)(p ^ (j & 1));
    }
    for (int i = depth - 1; i >= 0; i--) {
        const node *child = &nodes[path[i + 1].node];
        int mover = path[i + 1].mover;
        w->rave_stamp[child->move] = stamp;
        w->rave_who[child->move] = (uint8_t)mover;
        uint32_t first = tree_first(&nodes[path[i].node]);
        for (uint32_t ci = first;; ci++) {
            uint16_t m = nodes[ci].move;
            if (w->rave_stamp[m] == stamp && w->rave_who[m] == mover &&
                tree_stats_visits(atomic_load_explicit(&t->amaf[ci], memory_order_relaxed)) <
                    SEARCH_VISITS_MAX)
                search_add_amaf(e, &t->amaf[ci], units[mover]);
            if (atomic_load_explicit(&nodes[ci].flags, memory_order_relaxed) & NODE_LAST)
                break;
        }
    }
}

/* Raises *a to v, or lowers it with lower set, unless it is there already. */
static inline void search_bound(_Atomic uint32_t *a, uint32_t v, bool lower)
{
    uint32_t old = atomic_load_explicit(a, memory_order_relaxed);
    while ((lower ? v < old : v > old) &&
           !atomic_compare_exchange_weak_explicit(a, &old, v, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

/* Step 5 of simulation S, whose returns S->ret are known (on the [0, 1]
 * scale): back up. Debug builds check the last position the simulation
 * reached, which every move it played led to: once per simulation, since
 * a check after each move would cost more than the search it checks. */
static void search_ascend(worker *w, search_sim *S)
{
    banyan_engine *e = w->e;
    const banyan_game *g = e->game;
    tree *t = w->t;
    node *nodes = t->nodes;
    const step *path = S->path;
    bool proving = S->proving;
    int depth = S->depth;
    GAME_CHECK(g, S->state);

    /* Every node takes the return of the player who moved into it (its
     * visit was counted on the way down), in VALUE_ONE units. A return
     * between two units is rounded up with probability equal to its
     * fraction, so that means stay unbiased. Proofs climb while each
     * parent can be proven from its children. */
    uint32_t units[BANYAN_MAX_PLAYERS];
    for (int i = 0; i < g->n_players; i++) {
        double u = S->ret[i] * VALUE_ONE;
        units[i] = (uint32_t)u; /* ret is in [0, 1]: the floor. */
        if (BANYAN_UNLIKELY(u > units[i]))
            units[i] += (double)(banyan_rng_next(&w->rng) >> 11) * 0x1p-53 < u - units[i];
    }
    for (int i = depth; i >= 0; i--) {
        node *x = &nodes[path[i].node];
        if (i == 0 && e->shared)
            w->root_stats += (uint64_t)units[path[i].mover] << NODE_VISIT_BITS;
        else
            search_add_value(e, x, units[path[i].mover]);
        if (t->tt && !t->graph && i >= SEARCH_TT_DEPTH)
            search_tt_add(e, t, S->hashes[i], units[path[i].mover]);
        if (proving && i < depth)
            proving = search_prove(w, path, i, path[i].mover, path[i + 1].mover);
        if (proving && i > 0)
            atomic_fetch_or_explicit(&nodes[path[i - 1].node].flags, NODE_PROVEN_CHILD,
                                     memory_order_release);
    }
    if (t->amaf)
        search_ascend_rave(w, S, units);
    if (e->cfg.adaptive > 0) {
        search_bound(&e->seen_lo, units[0], true);
        search_bound(&e->seen_hi, units[0], false);
    }
    for (int i = depth; t->best && i > 0; i--)
        search_bound(&t->best[path[i].node], units[0], false);
}

/* An evaluated leaf's returns, within the game's reward bounds, mapped
 * onto [0, 1] in place. */
static void search_norm_returns(const banyan_engine *e, double *ret)
{
    for (int i = 0; i < e->game->n_players; i++)
        ret[i] = search_norm(e, ret[i]);
}

/* Single-player games (engine.line): the simulation S, just played, becomes
 * the worker's best line when it reached the game's end (a recorded
 * rollout's whole game, or a finished position in the tree) with a return
 * above the best so far. */
static void search_keep_line(worker *w, const search_sim *S)
{
    const banyan_game *g = w->e->game;
    double ret[BANYAN_MAX_PLAYERS];
    int n = S->depth, k = S->rolled ? w->rave_n : 0;
    if (k >= SEARCH_RAVE_MOVES || !g->outcome(w->state, ret) ||
        (w->line_len > 0 && !(ret[0] > w->line_return)))
        return;
    for (int i = 1; i <= n; i++)
        w->line[i - 1] = tree_move(&w->t->nodes[S->path[i].node]);
    memcpy(w->line + n, w->rave_moves, (size_t)k * sizeof *w->line);
    w->line_len = n + k;
    w->line_return = ret[0];
}

/* Makes worker w's best line the engine's where it is better. */
static void search_merge_line(banyan_engine *e, const worker *w)
{
    if (w->line_len > 0 && (e->line_len == 0 || w->line_return > e->line_return)) {
        memcpy(e->line, w->line, (size_t)w->line_len * sizeof *e->line);
        e->line_len = w->line_len;
        e->line_return = w->line_return;
    }
}

/* One simulation from the root, written as numbered steps: select, expand
 * (search_descend), evaluate (step 4: the config's leaf rule, unless the
 * leaf's value is already known), back up (search_ascend). */
static void search_simulate(worker *w)
{
    search_sim *S = w->sims;
    search_descend(w, S, 0);
    S->rolled = false;
    if (S->pending) {
        search_leaf(w, S->ret);
        search_norm_returns(w->e, S->ret);
        S->rolled = w->rave_moves != NULL;
    }
    if (w->line)
        search_keep_line(w, S);
    search_ascend(w, S);
}

static bool search_should_stop(worker *w, limits *L);
static bool search_claim(worker *w);

/* Up to config.batch simulations at once, for an evaluator: each descends
 * in turn, its path keeping the visits it added (a virtual loss, since
 * their values come later) so that the next ones spread over other leaves;
 * then the evaluator takes every pending leaf in one call, and each
 * simulation backs up. Returns the simulations run (0: none was claimed). */
static int search_simulate_batch(worker *w, limits *L)
{
    banyan_engine *e = w->e;
    banyan_eval_request *req = w->requests;
    int n = 0, k = 0;
    while (n < e->cfg.batch && (n == 0 || !search_should_stop(w, L)) && search_claim(w)) {
        search_sim *S = &w->sims[n++];
        w->playouts++; /* Counted as they start, for the stop checks. */
        search_descend(w, S, n - 1);
        if (S->pending && S->dup < 0)
            req[k++] = (banyan_eval_request){S->state, NULL, 0, NULL, S->ret};
    }
    if (k > 0)
        e->cfg.evaluator->evaluate(e->cfg.evaluator->ud, w->index, req, k);
    for (int i = 0; i < n; i++) {
        search_sim *S = &w->sims[i];
        if (S->pending && S->dup >= 0)
            memcpy(S->ret, w->sims[S->dup].ret, sizeof S->ret); /* Already on [0, 1]. */
        else if (S->pending)
            search_norm_returns(e, S->ret);
        search_ascend(w, S);
    }
    w->state = w->sims[0].state;
    return n;
}

/* The root's children block of tree t, or 0 while it is unexpanded. */
static uint32_t search_root_block(const tree *t, int *n)
{
    return tree_children(t->nodes, &t->nodes[t->root], n);
}

/* Lists the root's children in the order of the first tree whose root is
 * expanded, each summed over every tree. Trees expand the same root alike,
 * so a move is looked for at the same index first. Returns how many. */
static int search_root_children(const banyan_engine *e, root_child *out)
{
    int ref = 0, n = 0;
    uint32_t first = 0;
    while (ref < e->n_trees && !(first = search_root_block(&e->trees[ref], &n)))
        ref++;
    for (int i = 0; i < n; i++) {
        const node *c = &e->trees[ref].nodes[first + (uint32_t)i];
        out[i] = (root_child){tree_move(c), tree_prior(c), 0, 0, BANYAN_UNPROVEN, NULL, 0, 0};
    }
    for (int k = ref; k < e->n_trees; k++) {
        const tree *t = &e->trees[k];
        int m;
        uint32_t f = search_root_block(t, &m);
        for (int i = 0; f && i < n; i++) {
            int j = i < m && tree_move(&t->nodes[f + (uint32_t)i]) == out[i].move ? i : 0;
            while (j < m && tree_move(&t->nodes[f + (uint32_t)j]) != out[i].move)
                j++;
            if (j == m)
                continue;
            const node *c = &t->nodes[f + (uint32_t)j];
            uint64_t st = tree_stats(c);
            uint32_t v = tree_stats_visits(st);
            banyan_proof proof = tree_proof(c);
            out[i].value += tree_stats_value(st);
            if (proof != BANYAN_UNPROVEN)
                out[i].proof = proof;
            if (!out[i].pv_tree || v > out[i].pv_visits) {
                out[i].pv_tree = t;
                out[i].pv_node = f + (uint32_t)j;
                out[i].pv_visits = v;
            }
            out[i].visits += v;
        }
    }
    return n;
}

static double search_child_mean(const root_child *c)
{
    return tree_value_mean(c->visits, c->value);
}

/* The most and second most visited children of the root, and whether the
 * best by mean value (among children with at least a quarter of the best's
 * visits) is another one. */
static void search_leaders(const banyan_engine *e, uint32_t *v1, uint32_t *v2, bool *split)
{
    root_child *c = e->children;
    int n = search_root_children(e, c), best = -1;
    *v1 = *v2 = 0;
    *split = false;
    for (int i = 0; i < n; i++) {
        if (c[i].visits > *v1) {
            *v2 = *v1;
            *v1 = c[i].visits;
            best = i;
        } else if (c[i].visits > *v2) {
            *v2 = c[i].visits;
        }
    }
    for (int i = 0; best >= 0 && i < n; i++)
        if (i != best && c[i].visits >= *v1 / 4 &&
            search_child_mean(&c[i]) > search_child_mean(&c[best]))
            *split = true;
}

/* Nodes in all the trees. */
static uint64_t search_nodes(const banyan_engine *e)
{
    uint64_t n = 0;
    for (int k = 0; k < e->n_trees; k++)
        n += tree_size(&e->trees[k]);
    return n;
}

/* Whether every child of t's root is proven although the root is not
 * (its children are the game's candidates, fewer than its legal moves):
 * simulations could not change anything then. */
static bool search_all_proven(const tree *t)
{
    const node *root = &t->nodes[t->root];
    if (!(atomic_load_explicit(&root->flags, memory_order_acquire) & NODE_PROVEN_CHILD))
        return false;
    int n;
    uint32_t first = search_root_block(t, &n);
    for (int i = 0; i < n; i++)
        if (tree_proof(&t->nodes[first + (uint32_t)i]) == BANYAN_UNPROVEN)
            return false;
    return n > 0;
}

/* Whether the search must stop now. Worker 0 also serves the progress
 * callback, the extension of unclear positions and the early stop. The
 * clock is read only every SEARCH_CHECK_EVERY simulations. */
static bool search_should_stop(worker *w, limits *L)
{
    banyan_engine *e = w->e;
    const node *root = &w->t->nodes[w->t->root];
    if (atomic_load_explicit(&L->halt, memory_order_relaxed) ||
        atomic_load_explicit(&e->stop, memory_order_relaxed) ||
        tree_proof(root) != BANYAN_UNPROVEN || tree_visits(root) >= SEARCH_VISITS_MAX)
        return true;
    if (L->max_nodes && search_nodes(e) >= L->max_nodes)
        return true;
    if (w->playouts % SEARCH_CHECK_EVERY != 0)
        return false;
    if (search_all_proven(w->t))
        return true;
    bool timed = L->deadline > 0 || L->user->progress;
    double now = timed ? util_now() : 0;
    if (L->deadline > 0 && now >= L->deadline) {
        /* Time is up: only an unclear position may go on, to the hard
         * limit (checked by worker 0 only, which then halts the rest). */
        if (now >= L->hard_deadline)
            return true;
        if (w->index != 0)
            return false; /* Worker 0 decides, and halts the others. */
        uint32_t v1, v2;
        bool split;
        search_leaders(e, &v1, &v2, &split);
        if (!split && (uint64_t)v2 * 10 <= (uint64_t)v1 * 6)
            return true;
    }
    if (w->index == 0 && L->user->progress && now >= L->next_progress) {
        banyan_report rep;
        if (w->line)
            search_merge_line(e, w); /* Its own: the others' are merged at the end. */
        search_report(e, &rep);
        rep.playouts = atomic_load_explicit(&e->started, memory_order_relaxed);
        rep.seconds = now - L->start;
        L->user->progress(L->user->progress_ud, &rep);
        L->next_progress =
            now + (L->user->progress_interval > 0 ? L->user->progress_interval : 0.25);
    }
    if (w->index == 0 && L->user->stop_early && w->playouts > 0 &&
        w->playouts % (16 * SEARCH_CHECK_EVERY) == 0) {
        /* Simulations still to come: by the budget, and by the rate so far
         * over the time left (to the hard limit: the stop must be safe).
         * The rate is measured from the first simulation, once there has
         * been one: the root's provers before it are no measure of it, and
         * with none yet a kept tree's leader looked unbeatable at once (a
         * Gomocup brain then answered every move after its first with no
         * simulation at all). */
        uint64_t started = atomic_load_explicit(&e->started, memory_order_relaxed);
        double left = e->budget > started ? (double)(e->budget - started) : 0;
        /* Other threads run their claimed chunks too. */
        left += e->cfg.threads > 1 ? (double)SEARCH_CHUNK * e->cfg.threads : 0;
        if (L->deadline > 0) {
            double t = now > 0 ? now : util_now(), elapsed = t - L->sims_start;
            double end = L->hard_deadline > L->deadline ? L->hard_deadline : L->deadline;
            double by_time = elapsed > 0 ? (double)started / elapsed * (end - t) : left;
            left = by_time < left ? by_time : left;
        }
        uint32_t v1, v2;
        bool split;
        search_leaders(e, &v1, &v2, &split);
        if (!split && v1 > v2 && (double)(v1 - v2) > left)
            return true;
    }
    return false;
}

/*
 * The worker's tree is full and private: drop the children of the
 * nodes with fewer than recycle_visits visits (they become leaves, keeping
 * their statistics and proofs) so that the tree can grow again where the
 * search now goes. The threshold starts at eight times the expansion
 * threshold and doubles until at most three quarters of the arena are
 * kept; it carries over to the next filling. Each pass is linear in the
 * arena (tree_compact).
 */
static void search_recycle(worker *w)
{
    tree *t = w->t;
    uint32_t limit = t->capacity / 4 * 3;
    if (!t->recycle_visits)
        t->recycle_visits = 8 * (w->e->cfg.expand_visits + 1);
    while (tree_compact(t, t->root, t->recycle_visits) > limit && t->recycle_visits < (1u << 30))
        t->recycle_visits *= 2;
    w->recycles++;
}

/*
 * Takes the right to run one more simulation. One thread counts them one
 * by one. Several threads take them in chunks, so that the shared counter
 * costs one atomic instruction per chunk rather than per simulation: from
 * the common budget with one tree, from the worker's own share with one
 * tree each (so that a playout limit gives a reproducible search).
 */
static bool search_claim(worker *w)
{
    banyan_engine *e = w->e;
    if (w->claimed) {
        w->claimed--;
        return true;
    }
    if (e->cfg.threads == 1) {
        uint64_t k = atomic_load_explicit(&e->started, memory_order_relaxed);
        atomic_store_explicit(&e->started, k + 1, memory_order_relaxed);
        return k < e->budget;
    }
    uint64_t c = SEARCH_CHUNK;
    if (e->n_trees > 1) {
        c = w->budget < c ? w->budget : c;
        w->budget -= c;
        atomic_fetch_add_explicit(&e->started, c, memory_order_relaxed);
    } else {
        uint64_t k = atomic_fetch_add_explicit(&e->started, c, memory_order_relaxed);
        c = k >= e->budget ? 0 : e->budget - k < c ? e->budget - k : c;
    }
    if (!c)
        return false;
    w->claimed = (uint32_t)c - 1;
    return true;
}

/* A worker's loop: simulations until a limit, a stop or a proof, which
 * halt every worker, or until the budget is spent. */
/* Adds what worker w owes the root of its shared tree. */
static void search_root_flush(worker *w)
{
    if (w->root_stats)
        atomic_fetch_add_explicit(&w->t->nodes[w->t->root].stats, w->root_stats,
                                  memory_order_relaxed);
    w->root_stats = 0;
}

static void search_work(worker *w, limits *L)
{
    banyan_engine *e = w->e;
    bool batched = e->cfg.batch > 1 && e->cfg.evaluator && e->cfg.leaf == BANYAN_LEAF_EVAL;
    while (!search_should_stop(w, L)) {
        int ran = 1;
        if (batched) {
            ran = search_simulate_batch(w, L);
        } else if (search_claim(w)) {
            search_simulate(w);
        } else {
            ran = 0;
        }
        if (!ran) {
            search_root_flush(w);
            return; /* The budget is spent; the others finish what they took. */
        }
        w->playouts += !batched;
        if (tree_stats_visits(w->root_stats) >= SEARCH_CHUNK)
            search_root_flush(w);
        if (!e->shared && !e->cfg.no_recycle &&
            atomic_load_explicit(&w->t->full, memory_order_relaxed))
            search_recycle(w);
    }
    search_root_flush(w);
    atomic_store_explicit(&L->halt, 1, memory_order_relaxed);
}

typedef struct search_thread {
    worker *w;
    limits *L;
} search_thread;

static void *search_thread_main(void *arg)
{
    search_thread *t = arg;
    search_work(t->w, t->L);
    return NULL;
}

/* Whether t's root, if proven, shows the moves that its proof rests on. A
 * kept root that a prover or an opening book proved as a deeper node
 * carries the proof without its reasons: a win for the player now to move
 * may have no child proven to win, and a loss (the previous move won) may
 * have children never looked at. The search would stop at once, with no
 * winning move to play or, for a lost root, no search at all to choose the
 * most stubborn defence (a book proves the win of the side that follows it,
 * and the other side must still be searched). Such a tree is started
 * afresh: search_prove_root() finds a win again, and a lost root is
 * searched as any other. */
static bool search_root_explained(const tree *t)
{
    banyan_proof p = tree_proof(&t->nodes[t->root]);
    int n;
    uint32_t first = search_root_block(t, &n);
    if (p == BANYAN_UNPROVEN)
        return true;
    if (!n)
        return false;
    /* The previous mover's loss: a move of ours wins. His draw: a move of
     * ours draws. His win: every move of ours is proven to lose. */
    banyan_proof need = p == BANYAN_PROVEN_LOSS   ? BANYAN_PROVEN_WIN
                        : p == BANYAN_PROVEN_DRAW ? BANYAN_PROVEN_DRAW
                                                  : BANYAN_PROVEN_LOSS;
    int found = 0;
    for (int i = 0; i < n; i++)
        found += tree_proof(&t->nodes[first + (uint32_t)i]) == need;
    return p == BANYAN_PROVEN_WIN ? found == n : found > 0;
}

/* Tree k's root, expanded first if it is not (a kept root already is), with
 * its owner's state set to the root position: the first of its *n
 * children. */
static uint32_t search_expand_root(banyan_engine *e, int k, int *n)
{
    worker *w = &e->workers[k]; /* The owner of tree k. */
    tree *t = w->t;
    node *root = &t->nodes[t->root];
    memcpy(w->state, e->root_state, e->game->state_size);
    if (!atomic_load_explicit(&root->children, memory_order_acquire))
        search_expand(w, t->root, search_root_mover(e), 0, 0);
    return tree_children(t->nodes, root, n);
}

/* A draw from Gamma(alpha, 1): Marsaglia and Tsang's method, boosted by
 * U^(1/alpha) for alpha < 1; normal draws by Box and Muller. */
static double search_gamma(banyan_rng *r, double alpha)
{
    double boost = 1;
    if (alpha < 1) {
        boost = pow(1.0 - (double)(banyan_rng_next(r) >> 11) * 0x1p-53, 1.0 / alpha);
        alpha += 1;
    }
    double d = alpha - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double u1 = 1.0 - (double)(banyan_rng_next(r) >> 11) * 0x1p-53; /* (0, 1] */
        double u2 = (double)(banyan_rng_next(r) >> 11) * 0x1p-53;
        double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
        double v = 1 + c * z;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = 1.0 - (double)(banyan_rng_next(r) >> 11) * 0x1p-53;
        if (log(u) < 0.5 * z * z + d - d * v + d * log(v))
            return boost * d * v;
    }
}

/* Mixes Dirichlet noise (config.noise_alpha, noise_share) into the priors
 * of tree k's root children, as AlphaZero's self-play does so that moves
 * the network rates low are still tried. The draws come from the tree
 * owner's generator, so a seed reproduces them. The children keep their
 * order (under widening, the noise reorders nothing). */
static void search_noise_root(banyan_engine *e, int k)
{
    int n;
    uint32_t first = search_expand_root(e, k, &n);
    double draw[BANYAN_MAX_MOVES], sum = 0;
    banyan_rng *r = &e->workers[k].rng;
    if (!first || n < 2)
        return;
    for (int i = 0; i < n; i++)
        sum += draw[i] = search_gamma(r, e->cfg.noise_alpha);
    for (int i = 0; i < n && sum > 0; i++) {
        node *c = &e->trees[k].nodes[first + (uint32_t)i];
        double p = (1 - e->cfg.noise_share) * tree_prior(c) + e->cfg.noise_share * draw[i] / sum;
        c->prior = tree_prior_code((float)p);
    }
}

/* Gives child (a node index) of tree k's root the proof, which the
 * game's provers found outside the simulations, and lets it climb. */
static void search_prove_root_child(banyan_engine *e, int k, uint32_t child, banyan_proof proof)
{
    worker *w = &e->workers[k]; /* The owner of tree k. */
    tree *t = w->t;
    tree_set_proof(&t->nodes[child], proof);
    atomic_fetch_or_explicit(&t->nodes[t->root].flags, NODE_PROVEN_CHILD, memory_order_release);
    search_prove(w, &(step){t->root, search_root_mover(e)}, 0, search_root_mover(e),
                 e->root_player);
}

/* Gives the root's child for move m the proof in every tree, each root
 * expanded first if it is not. */
static void search_prove_root_move(banyan_engine *e, banyan_move m, banyan_proof proof)
{
    for (int k = 0; k < e->n_trees; k++) {
        int n;
        uint32_t first = search_expand_root(e, k, &n);
        for (int i = 0; i < n; i++)
            if (tree_move(&e->trees[k].nodes[first + (uint32_t)i]) == m)
                search_prove_root_child(e, k, first + (uint32_t)i, proof);
    }
}

/* The game's prover on the root, before any simulation: a proven win needs
 * no search. The root of each tree is expanded (without the prover) and the
 * winning child marked, so the report plays it. */
static uint32_t search_root_effort(const banyan_limits *u)
{
    double scaled = u->time > 0 ? u->time * SEARCH_ROOT_PER_SECOND : SEARCH_ROOT_EFFORT;
    return scaled < SEARCH_ROOT_MIN   ? SEARCH_ROOT_MIN
           : scaled > SEARCH_ROOT_MAX ? SEARCH_ROOT_MAX
                                      : (uint32_t)scaled;
}

static void search_prove_root(banyan_engine *e, uint32_t effort, double seconds)
{
    const banyan_game *g = e->game;
    const tree *t0 = &e->trees[0];
    banyan_move win;
    if (!g->prove_win || g->n_players != 2 || tree_proof(&t0->nodes[t0->root]) != BANYAN_UNPROVEN ||
        !(g->prove_win(e->root_state, &win) ||
          (g->prove_win_deep &&
           g->prove_win_deep(e->root_state, effort, seconds, e->workers[0].deep, &win))))
        return;
    search_prove_root_move(e, win, BANYAN_PROVEN_WIN);
}

/* The positions the game's exact solver may visit on the root (and on each
 * root child) before the search: the config's, or by the limits. */
static uint64_t search_solve_budget(const banyan_engine *e, const banyan_limits *u)
{
    if (e->cfg.solve_budget)
        return e->cfg.solve_budget;
    double scaled = u->time > 0 ? u->time * SEARCH_SOLVE_PER_SECOND : SEARCH_SOLVE_ROOT;
    return scaled < SEARCH_SOLVE_ROOT_MIN   ? SEARCH_SOLVE_ROOT_MIN
           : scaled > SEARCH_SOLVE_ROOT_MAX ? SEARCH_SOLVE_ROOT_MAX
                                            : (uint64_t)scaled;
}

/* Whether the game's exact solver solved the current root: e->exact_* hold
 * its answer for this position. */
static bool search_exact(const banyan_engine *e)
{
    return e->exact_result != BANYAN_SOLVE_UNKNOWN &&
           e->exact_hash == banyan_game_hash(e->game, e->root_state);
}

/* The game's solver on s with up to budget positions, in calls of
 * SEARCH_SOLVE_SLICE positions and doubling, until it answers with a score,
 * the budget is spent or banyan_engine_stop() is called. A result without
 * its score gets one more call, with the whole budget, for the score (the
 * sizes between would repeat the result); then the last answer. */
static int search_solve_sliced(banyan_engine *e, const void *s, uint64_t budget, double deadline,
                               banyan_move *best, int *score)
{
    const banyan_game *g = e->game;
    uint64_t b = budget < SEARCH_SOLVE_SLICE ? budget : SEARCH_SOLVE_SLICE;
    int known = BANYAN_SOLVE_UNKNOWN;
    for (;;) {
        banyan_move m;
        int sc, r = g->solve(s, b, &e->stop, e->workers[0].deep, &m, &sc);
        if (r >= BANYAN_SOLVE_WIN && r <= BANYAN_SOLVE_DRAW) {
            known = r;
            *best = m;
            *score = sc;
            if (sc != BANYAN_SOLVE_NO_SCORE)
                return r;
        }
        if (b >= budget || atomic_load_explicit(&e->stop, memory_order_relaxed) ||
            (deadline > 0 && util_now() >= deadline))
            return known;
        b = b > budget / 2 || known != BANYAN_SOLVE_UNKNOWN ? budget : 2 * b;
    }
}

/* Solves each root child after the root (see search_solve_root): proven in
 * every tree, and scored beside the root's best move, best. */
static void search_solve_root_children(banyan_engine *e, banyan_move best, uint64_t budget,
                                       double deadline)
{
    const banyan_game *g = e->game;
    worker *w0 = &e->workers[0];
    tree *t0 = &e->trees[0];
    int n;
    uint32_t first = search_expand_root(e, 0, &n);
    for (int i = 0; i < n; i++) {
        banyan_move m = tree_move(&t0->nodes[first + (uint32_t)i]), reply;
        double ret[BANYAN_MAX_PLAYERS];
        int child_score;
        banyan_proof proof;
        memcpy(w0->state, e->root_state, g->state_size);
        g->play(w0->state, m);
        if (g->outcome(w0->state, ret)) {
            proof = tree_proof_of(search_norm(e, ret[e->root_player]));
        } else {
            int cr = search_solve_sliced(e, w0->state, budget, deadline, &reply, &child_score);
            if (cr == BANYAN_SOLVE_UNKNOWN)
                continue;
            proof = tree_proof_flip((banyan_proof)cr); /* For the player making m. */
            if (m != best && child_score != BANYAN_SOLVE_NO_SCORE) {
                e->exact_move[e->exact_n] = m;
                e->exact_score[e->exact_n++] = -child_score;
            }
        }
        search_prove_root_move(e, m, proof);
    }
}

/*
 * The game's exact solver on the root, before any simulation. When it
 * solves the root, each root child is solved too (the solver's table makes
 * that cheap) and proven in every tree, with its exact score kept for the
 * report, and the root itself is proven: the search stops at once, and the
 * report plays the solver's best move, the largest margin among wins. A
 * child the solver could not finish keeps no proof; a child where the game
 * ends is proven by its outcome, and scored only when it is the best move.
 */
static void search_solve_root(banyan_engine *e, uint64_t budget, double deadline)
{
    const banyan_game *g = e->game;
    tree *t0 = &e->trees[0];
    banyan_move best;
    int score;
    /* A root proven already keeps what solved it (a second search of the
     * same position: search_exact() checks that it is the same). */
    if (!g->solve || g->n_players != 2 || tree_proof(&t0->nodes[t0->root]) != BANYAN_UNPROVEN)
        return;
    e->exact_result = BANYAN_SOLVE_UNKNOWN;
    e->exact_n = 0;
    int r = search_solve_sliced(e, e->root_state, budget, deadline, &best, &score);
    if (r == BANYAN_SOLVE_UNKNOWN || !banyan_game_is_legal(g, e->root_state, best) ||
        (r == BANYAN_SOLVE_LOSS && score == BANYAN_SOLVE_NO_SCORE))
        return;
    e->exact_result = r;
    e->exact_hash = banyan_game_hash(g, e->root_state);
    e->exact_move[e->exact_n] = best;
    e->exact_score[e->exact_n++] = score;

    /* A result without its score proves the best move only: the others
     * would cost as much again, for nothing the move played needs. */
    if (score == BANYAN_SOLVE_NO_SCORE)
        search_prove_root_move(e, best, (banyan_proof)r);
    else
        search_solve_root_children(e, best, budget, deadline);
    for (int k = 0; k < e->n_trees; k++)
        tree_set_proof(&e->trees[k].nodes[e->trees[k].root], tree_proof_flip((banyan_proof)r));
}

/* The effort of one try of the final check: the root's, or under a time
 * limit what the time left now allows at SEARCH_VERIFY_PER_SECOND
 * positions a second, never below SEARCH_DEEP_EFFORT; and the seconds
 * that bound it, the time left (at least a millisecond). A try
 * on a sound move spends all of its effort; one that refutes its move
 * stops early and leaves the rest to the next. */
static uint32_t search_verify_effort(const banyan_limits *u, const limits *L, double *seconds)
{
    uint32_t effort = search_root_effort(u);
    *seconds = 0;
    if (u->time > 0) {
        double left = L->start + u->time - util_now(), fit = left * SEARCH_VERIFY_PER_SECOND;
        *seconds = left > 1e-3 ? left : 1e-3; /* (0 would be no bound.) */
        effort = fit < SEARCH_DEEP_EFFORT ? SEARCH_DEEP_EFFORT
                 : fit < effort           ? (uint32_t)fit
                                          : effort;
    }
    return effort;
}

/* The move the search would play, checked before it is played: the
 * opponent's provers, with the root's effort, on the position after it (a
 * root child gets SEARCH_DEEP_EFFORT during the search, once). A move they
 * refute is proven lost in every tree, and the next best is checked, up to
 * SEARCH_VERIFY_TRIES moves. In Gomoku this catches the quiet move after
 * which the opponent wins by threats that the smaller effort missed (a lost
 * game against Rapfi began so); under a time limit it spends the time the
 * simulations left (SEARCH_VERIFY_SHARE of it). Two-player games with a
 * deep prover. */
static void search_verify_best(banyan_engine *e, const banyan_limits *u, const limits *L)
{
    const banyan_game *g = e->game;
    worker *w0 = &e->workers[0];
    banyan_report rep;
    if (!g->prove_win_deep || g->n_players != 2)
        return;
    for (int tries = 0; tries < SEARCH_VERIFY_TRIES; tries++) {
        double ret[BANYAN_MAX_PLAYERS];
        banyan_move win;
        search_report(e, &rep);
        if (rep.proof != BANYAN_UNPROVEN || rep.n_moves == 0 ||
            rep.moves[0].proof != BANYAN_UNPROVEN || rep.moves[0].visits == 0)
            return;
        banyan_move m = rep.moves[0].move;
        memcpy(w0->state, e->root_state, g->state_size);
        g->play(w0->state, m);
        if (g->outcome(w0->state, ret))
            return;
        double seconds;
        uint32_t effort = search_verify_effort(u, L, &seconds);
        if (!(g->prove_win && g->prove_win(w0->state, &win)) &&
            !g->prove_win_deep(w0->state, effort, seconds, w0->deep, &win))
            return;
        search_prove_root_move(e, m, BANYAN_PROVEN_LOSS);
    }
}

/* The game's deeper look at the root's candidates, before any simulation:
 * the moves it drops are proven lost (the game proves each), so that the
 * search spends nothing on them, and widening passes them by. Each tree's
 * root is expanded first if it is not (a kept root already is). */
static void search_defend_root(banyan_engine *e, uint32_t effort, double seconds)
{
    const banyan_game *g = e->game;
    const tree *t0 = &e->trees[0];
    banyan_move keep[BANYAN_MAX_MOVES];
    if (!g->candidates_deep || g->n_players != 2 ||
        tree_proof(&t0->nodes[t0->root]) != BANYAN_UNPROVEN)
        return;
    int nk = g->candidates_deep(e->root_state, effort, seconds, e->workers[0].deep, keep);
    if (nk <= 0 || nk > BANYAN_MAX_MOVES)
        return;
    for (int k = 0; k < e->n_trees; k++) {
        int n;
        uint32_t first = search_expand_root(e, k, &n);
        for (uint32_t c = first; c < first + (uint32_t)n; c++) {
            int j = 0;
            while (j < nk && keep[j] != tree_move(&e->trees[k].nodes[c]))
                j++;
            if (j == nk && tree_proof(&e->trees[k].nodes[c]) == BANYAN_UNPROVEN)
                search_prove_root_child(e, k, c, BANYAN_PROVEN_LOSS);
        }
    }
}

/* The ownership of the root's cells over this search's finished
 * simulations (config.ownership), into e->ownership. */
static void search_ownership(banyan_engine *e)
{
    int width = 0, height = 0;
    uint64_t n = 0;
    e->game->board_size(e->root_state, &width, &height);
    e->owner_width = e->owner_height = 0;
    if (width * height > BANYAN_OWNER_CELLS)
        return;
    for (int i = 0; i < e->cfg.threads; i++)
        n += e->workers[i].owned_n;
    for (int c = 0; c < width * height; c++) {
        int64_t d = 0;
        for (int i = 0; i < e->cfg.threads; i++)
            d += (int64_t)e->workers[i].owned[2 * c] - e->workers[i].owned[2 * c + 1];
        e->ownership[c] = n ? (float)((double)d / (double)n) : 0.0f;
    }
    e->owner_width = width;
    e->owner_height = height;
}

/* For an analysis (banyan_limits.analyse): where a root provers proved at
 * once still has moves without a proof, takes the root's proof off so that
 * the search goes on to value them, and returns it (to be put back once
 * the search ends); else BANYAN_UNPROVEN. The selection then passes over
 * the root's winning child, and search_prove() leaves the root alone. */
static banyan_proof search_analyse_root(banyan_engine *e)
{
    tree *t0 = &e->trees[0];
    banyan_proof p = tree_proof(&t0->nodes[t0->root]);
    if (p == BANYAN_UNPROVEN || search_all_proven(t0))
        return BANYAN_UNPROVEN;
    for (int k = 0; k < e->n_trees; k++)
        tree_clear_proof(&e->trees[k].nodes[e->trees[k].root]);
    e->analysing = true;
    return p;
}

void search_run(banyan_engine *e, const banyan_limits *lim, banyan_report *out)
{
    static const banyan_limits none = {0};
    limits L;
    const banyan_limits *u = lim ? lim : &none;
    pthread_t threads[BANYAN_MAX_THREADS];
    search_thread args[BANYAN_MAX_THREADS];
    int spawned = 0;
    banyan_proof analysing = BANYAN_UNPROVEN;

    L.start = L.sims_start = util_now();
    /* A game with a deep prover keeps SEARCH_VERIFY_SHARE of a timed
     * search for the check of the move to play (search_verify_best). */
    double keep = e->game->prove_win_deep && e->game->n_players == 2 ? SEARCH_VERIFY_SHARE : 0;
    L.deadline = u->time > 0 ? L.start + u->time * (1 - keep) : 0;
    L.hard_deadline =
        u->time > 0 && u->time_max > u->time ? L.start + u->time_max * (1 - keep) : L.deadline;
    L.max_nodes = u->nodes;
    L.user = u;
    L.next_progress = L.start + (u->progress_interval > 0 ? u->progress_interval : 0.25);
    atomic_init(&L.halt, 0);
    e->budget = u->playouts                 ? u->playouts
                : (u->time > 0 || u->nodes) ? UINT64_MAX
                                            : BANYAN_DEFAULT_PLAYOUTS;
    atomic_store_explicit(&e->started, 0, memory_order_relaxed);
    for (int i = 0; i < e->cfg.threads; i++) {
        worker *w = &e->workers[i];
        w->playouts = 0;
        w->max_depth = 0;
        w->root_top = 0;
        w->root_stats = 0;
        w->recycles = 0;
        w->transposed = 0;
        w->claimed = 0;
        w->line_len = 0;
        if (w->owned) {
            memset(w->owned, 0, 2 * BANYAN_OWNER_CELLS * sizeof *w->owned);
            w->owned_n = 0;
        }
        /* Root parallelism: an even share each, the first ones taking the
         * remainder. */
        w->budget =
            e->budget / (uint64_t)e->n_trees + ((uint64_t)i < e->budget % (uint64_t)e->n_trees);
    }

    /* A finished game needs no search, nor does a root the game proves. A
     * kept root proven without its reason, or with half the visits a tree
     * can count (so that every search has room), starts afresh first. */
    bool playing = e->game->moves(e->root_state, (banyan_move[BANYAN_MAX_MOVES]){0}) > 0;
    if (playing)
        for (int k = 0; k < e->n_trees; k++)
            if (!search_root_explained(&e->trees[k]) ||
                tree_visits(&e->trees[k].nodes[e->trees[k].root]) > NODE_VISITS_MAX / 2) {
                tree_reset(&e->trees[k]);
                e->root_noised = false;
            }
    uint64_t start_nodes = search_nodes(e);
    if (playing) {
        search_solve_root(e, search_solve_budget(e, u),
                          u->time > 0 ? L.start + u->time * SEARCH_SOLVE_TIME_SHARE : 0);
        search_prove_root(e, search_root_effort(u), u->time * SEARCH_ROOT_TIME_SHARE);
        search_defend_root(e, search_root_effort(u), u->time * SEARCH_DEFEND_TIME_SHARE);
        analysing = u->analyse ? search_analyse_root(e) : BANYAN_UNPROVEN;
        if (e->cfg.noise_alpha > 0 && !e->root_noised)
            for (int k = 0; k < e->n_trees; k++)
                search_noise_root(e, k);
        e->root_noised = true;
        /* A shared root is expanded before the threads start: otherwise
         * the threads that find it claimed by the first would each settle
         * for a simulation of the root alone, hundreds of them when the
         * expanding thread is descheduled on a loaded machine. */
        if (e->shared)
            search_expand_root(e, 0, &(int){0});
        L.sims_start = util_now();
        for (int i = 1; i < e->cfg.threads && i < BANYAN_MAX_THREADS; i++) {
            args[i] = (search_thread){&e->workers[i], &L};
            if (pthread_create(&threads[i], NULL, search_thread_main, &args[i]) != 0)
                break; /* Fewer threads, same search. */
            spawned = i;
        }
        search_work(&e->workers[0], &L);
        for (int i = 1; i <= spawned; i++)
            pthread_join(threads[i], NULL);
        /* Threads that could not start leave their trees to this one. */
        for (int i = spawned + 1; i < e->n_trees; i++)
            search_work(&e->workers[i], &L);
    }
    if (analysing) /* The proof holds: the other moves were only valued. */
        for (int k = 0; k < e->n_trees; k++)
            tree_set_proof(&e->trees[k].nodes[e->trees[k].root], analysing);
    e->analysing = false;
    if (playing)
        search_verify_best(e, u, &L);
    for (int i = 0; e->line && i < e->cfg.threads; i++)
        search_merge_line(e, &e->workers[i]);
    atomic_store_explicit(&e->stop, 0, memory_order_relaxed);
    if (e->ownership)
        search_ownership(e);

    search_report(e, out);
    out->playouts = 0;
    out->recycles = 0;
    out->transposed = 0;
    for (int i = 0; i < e->cfg.threads; i++) {
        out->playouts += e->workers[i].playouts;
        out->recycles += e->workers[i].recycles;
        out->transposed += e->workers[i].transposed;
        if (e->workers[i].max_depth > out->max_depth)
            out->max_depth = e->workers[i].max_depth;
    }
    out->seconds = util_now() - L.start;
    out->start_nodes = start_nodes;
    DEBUG_CHECK(search_check(e));
}

const char *search_check(const banyan_engine *e)
{
    unsigned how = (e->game->n_players == 2 ? TREE_CHECK_PROOFS : 0u) |
                   (e->shared ? 0u : TREE_CHECK_PRIVATE) | (e->cfg.graph ? TREE_CHECK_GRAPH : 0u);
    for (int k = 0; k < e->n_trees; k++) {
        const char *why = tree_check(&e->trees[k], how, e->cfg.expand_visits, NULL);
        if (why)
            return why;
    }
    return NULL;
}

/* Final-move order: proven wins first, then unproven moves by the
 * configured rule (proven draws among them), then proven losses by visits
 * (the most visited is the one the search found hardest to refute, the
 * best try against a fallible opponent), and last the moves never
 * visited, about which the search knows nothing (under widening, those the
 * priors rated lowest). The move's index breaks ties, so sorting is
 * deterministic. */
#define SEARCH_LCB_Z 2.0 /* Standard errors below the mean of the final rule's bound. */

static int search_rank(const banyan_move_stats *s)
{
    return s->proof == BANYAN_PROVEN_WIN                 ? 0
           : s->proof == BANYAN_PROVEN_LOSS              ? 2
           : s->visits || s->proof == BANYAN_PROVEN_DRAW ? 1
                                                         : 3;
}

/* The normal approximation that Wilson's bound replaced gave a move whose
 * few rollouts all won a bound of 1, and it was played. */
BANYAN_API double banyan_lcb(double value, uint32_t visits)
{
    if (!visits)
        return -1;
    double m = value, n = visits, z2 = SEARCH_LCB_Z * SEARCH_LCB_Z;
    double spread = SEARCH_LCB_Z * sqrt(m * (1 - m) / n + z2 / (4 * n * n));
    return (m + z2 / (2 * n) - spread) / (1 + z2 / n);
}

/* The lower confidence bound ranks only the children with at least
 * 1/SEARCH_LCB_SHARE of the most visited one's visits: a bound of a few
 * visits says little (a child seen once at 95% would be played). */
#define SEARCH_LCB_SHARE 10

static int search_compare(const banyan_move_stats *a, const banyan_move_stats *b, banyan_final rule,
                          uint32_t lcb_floor)
{
    int ra = search_rank(a), rb = search_rank(b);
    if (ra != rb)
        return ra - rb;
    /* Among moves the game's solver scored, the higher score (the larger
     * margin, or the quicker win and the longer loss); a scored win before
     * one that is not. */
    if (ra == 0 && a->exact != b->exact)
        return a->exact ? -1 : 1;
    if (ra != 1 && a->exact && b->exact && a->score != b->score)
        return a->score > b->score ? -1 : 1;
    /* Among proven wins the quickest, among proven losses the longest, where
     * the tree knows how far (an unknown distance counts as far). */
    int pa = a->proof_plies ? a->proof_plies : INT_MAX,
        pb = b->proof_plies ? b->proof_plies : INT_MAX;
    if (ra == 0 && pa != pb)
        return pa < pb ? -1 : 1;
    if (ra == 2 && pa != pb && a->proof_plies && b->proof_plies)
        return pa > pb ? -1 : 1;
    double ka, kb;
    if (ra != 1 || rule == BANYAN_FINAL_VISITS) {
        ka = a->visits;
        kb = b->visits;
        if (ka == kb) {
            ka = a->value;
            kb = b->value;
        }
    } else if (rule == BANYAN_FINAL_VALUE) {
        ka = a->visits ? a->value : -1;
        kb = b->visits ? b->value : -1;
    } else if (a->visits >= lcb_floor && b->visits >= lcb_floor) {
        ka = banyan_lcb(a->value, a->visits);
        kb = banyan_lcb(b->value, b->visits);
    } else {
        ka = a->visits >= lcb_floor ? UINT32_MAX : a->visits;
        kb = b->visits >= lcb_floor ? UINT32_MAX : b->visits;
    }
    return ka == kb ? 0 : ka > kb ? -1 : 1;
}

/* Fills s->pv with the most visited path from node ci of tree t, as long
 * as it means something: a child seen fewer than SEARCH_PV_MIN_VISITS times
 * was picked by a tie among untried moves, so the line ends before it. */
#define SEARCH_PV_MIN_VISITS 2
static void search_pv(const tree *t, uint32_t ci, banyan_move_stats *s)
{
    const node *nodes = t->nodes;
    s->pv_len = 0;
    while (ci && s->pv_len < BANYAN_MAX_PV) {
        const node *x = &nodes[ci];
        s->pv[s->pv_len++] = tree_move(x);
        int k;
        uint32_t first = tree_children(nodes, x, &k);
        uint32_t best = 0, best_n = 0;
        for (int i = 0; i < k; i++) {
            uint32_t n = tree_visits(&nodes[first + (uint32_t)i]);
            if (n > best_n) {
                best_n = n;
                best = first + (uint32_t)i;
            }
        }
        ci = best_n >= SEARCH_PV_MIN_VISITS ? best : 0;
    }
}

/* Plies from node xi, proven won or lost for the player who moved into it,
 * to the end of the game: the winner's quickest, the loser's longest, along
 * the proofs the tree holds; 0 for a node where the game ends, -1 where a
 * proof rests on something else (a prover's win found at expansion). */
static int search_plies(const node *nodes, uint32_t xi)
{
    const node *x = &nodes[xi];
    banyan_proof p = tree_proof(x);
    int k, best = -1;
    uint32_t first = tree_children(nodes, x, &k);
    if (p != BANYAN_PROVEN_WIN && p != BANYAN_PROVEN_LOSS)
        return -1;
    if (k == 0)
        return atomic_load_explicit(&x->flags, memory_order_relaxed) & NODE_TERMINAL ? 0 : -1;
    for (int i = 0; i < k; i++) {
        const node *c = &nodes[first + (uint32_t)i];
        /* x won: every reply loses, and the longest counts. x lost: the
         * opponent's quickest winning reply counts. */
        if (p == BANYAN_PROVEN_LOSS && tree_proof(c) != BANYAN_PROVEN_WIN)
            continue;
        int d = search_plies(nodes, first + (uint32_t)i);
        if (p == BANYAN_PROVEN_WIN && d < 0)
            return -1;
        if (d >= 0 && (best < 0 || (p == BANYAN_PROVEN_WIN ? d > best : d < best)))
            best = d;
    }
    return best < 0 ? -1 : best + 1;
}

void search_report(banyan_engine *e, banyan_report *out)
{
    root_child *c = e->children;
    int n = search_root_children(e, c);
    banyan_move_stats *st = e->stats;
    banyan_move moves[BANYAN_MAX_MOVES];
    float priors[BANYAN_MAX_MOVES];
    bool exact = search_exact(e);

    /* The game's priors as it gives them (the tree keeps them to 4.5%). */
    for (int i = 0; i < n; i++) {
        moves[i] = c[i].move;
        priors[i] = 1.0f / (float)n;
    }
    if (n > 0)
        search_priors(e, 0, e->root_state, moves, n, priors);
    memset(out, 0, sizeof *out);
    if (e->line_len > 0) {
        out->line = e->line;
        out->line_len = e->line_len;
        out->line_return = e->line_return;
    }
    if (e->owner_width > 0) {
        out->ownership = e->ownership;
        out->owner_width = e->owner_width;
        out->owner_height = e->owner_height;
    }
    for (int i = 0; i < n; i++) {
        st[i].move = c[i].move;
        st[i].visits = c[i].visits;
        st[i].proof = c[i].proof;
        st[i].value = st[i].proof ? tree_proof_value(st[i].proof) : search_child_mean(&c[i]);
        st[i].prior = priors[i];
        search_pv(c[i].pv_tree, c[i].pv_node, &st[i]);
        int plies = st[i].proof == BANYAN_PROVEN_WIN || st[i].proof == BANYAN_PROVEN_LOSS
                        ? search_plies(c[i].pv_tree->nodes, c[i].pv_node)
                        : -1;
        st[i].proof_plies = plies < 0 ? 0 : plies + 1;
        st[i].exact = false;
        st[i].score = 0;
        for (int j = 0; exact && j < e->exact_n; j++)
            if (e->exact_move[j] == st[i].move && e->exact_score[j] != BANYAN_SOLVE_NO_SCORE) {
                st[i].exact = true;
                st[i].score = e->exact_score[j];
            }
    }
    /* Insertion sort by the final-move rule: stable, so the game's move order
     * breaks every remaining tie. On a root the game's solver solved, its
     * best move goes first (the solver's order, where scores tie). */
    uint32_t most = 0;
    for (int i = 0; i < n; i++)
        if (search_rank(&st[i]) == 1 && st[i].visits > most)
            most = st[i].visits;
    uint32_t lcb_floor = most / SEARCH_LCB_SHARE > 1 ? most / SEARCH_LCB_SHARE : 1;
    for (int i = 1; i < n; i++) {
        banyan_move_stats s = st[i];
        int j = i;
        for (; j > 0 && search_compare(&st[j - 1], &s, e->cfg.final, lcb_floor) > 0; j--)
            st[j] = st[j - 1];
        st[j] = s;
    }
    for (int i = 1; exact && i < n; i++)
        if (st[i].move == e->exact_move[0]) {
            banyan_move_stats s = st[i];
            memmove(&st[1], &st[0], (size_t)i * sizeof *st);
            st[0] = s;
        }

    out->n_moves = n;
    out->moves = st;
    out->nodes = search_nodes(e);
    out->node_capacity = 0;
    for (int k = 0; k < e->n_trees; k++) {
        out->node_capacity += e->trees[k].capacity - 1;
        out->tree_full |= atomic_load_explicit(&e->trees[k].full, memory_order_relaxed);
    }
    out->best = BANYAN_MOVE_NONE;
    if (n > 0) {
        out->best = st[0].move;
        out->value = st[0].value;
        /* The root is proven for the player to move when one move wins, or
         * when every move is proven (then the best one decides). */
        bool all = true;
        for (int i = 0; i < n; i++)
            all = all && st[i].proof != BANYAN_UNPROVEN;
        if (st[0].proof == BANYAN_PROVEN_WIN || all)
            out->proof = st[0].proof;
        if (exact)
            out->proof = (banyan_proof)e->exact_result;
    } else {
        if (e->game->moves(e->root_state, moves) > 0) {
            out->best = moves[0]; /* Never searched: any legal move. */
            out->value = 0.5;
        }
    }
}
