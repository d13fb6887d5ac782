/*
 * select.c - the selection policies: which child of a node a simulation
 * descends into. Each policy is a function of one signature (search_policy,
 * engine.h), chosen once per search by search_policy_of() from the
 * configuration, as Pachi's uct/policy does: UCT (UCB1), PUCT (AlphaZero's
 * prior-weighted exploration), RAVE (AMAF statistics mixed in) and the
 * single-player rule (the best return mixed in, an adaptive exploration).
 * Each one starts with the same widening of the children that compete.
 */
#include "search.h"

#include <math.h>

/* Natural logarithm of x >= 1, to about 1e-5 relative: the exponent from the
 * bits of the double, and log(m) for the mantissa m in [1, 2) as
 * 2 atanh((m-1)/(m+1)) by a short odd series. Exact on every platform with
 * IEEE doubles, unlike libm's log, so that engine.select.ln (and with it a
 * search) is the same everywhere. */
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

/* What every policy starts from at node x, where player is to move: its
 * first child, its weight in exploration and widening, and how many of its
 * children compete (up to NODE_LAST, or n of them). */
typedef struct select_width {
    uint32_t first;
    uint32_t parent_n;
    int n;
} select_width;

static inline select_width select_widen(const banyan_engine *e, const tree *t, const node *x,
                                        int player)
{
    const node *nodes = t->nodes;
    const banyan_config *cfg = &e->cfg;
    select_width s = {tree_first(x), tree_visits(x), BANYAN_MAX_MOVES};
    if (t->graph) {
        /* A shared block's children count the visits of every node that
         * shares it: the parent's weight in exploration and widening is
         * theirs together, where it is larger than its own. */
        uint32_t sum = 0;
        for (uint32_t i = s.first;; i++) {
            sum += tree_visits(&nodes[i]);
            if (atomic_load_explicit(&nodes[i].flags, memory_order_relaxed) & NODE_LAST)
                break;
        }
        s.parent_n = sum > s.parent_n ? sum : s.parent_n;
    }
    double widening = player == e->root_player ? cfg->widening : cfg->widening_opponent;
    if (widening > 0) {
        /* Progressive widening: only the first children by prior compete,
         * more of them as the node is visited more (at the root, children
         * proven lost do not count: below). */
        s.n = (int)(widening * sqrtf((float)s.parent_n));
        if (s.n < 2)
            s.n = 2;
    }
    return s;
}

/* The value an unvisited child of a node stands at under PUCT's first-play
 * rule (config.fpu): fpu_value itself, or below the parent's value by it.
 * The parent's value for the player to move there is the visit-weighted
 * mean of its visited children among the s.n competing, which holds for
 * any number of players. */
static inline float select_fpu(const banyan_engine *e, const tree *t, select_width s)
{
    const banyan_config *cfg = &e->cfg;
    if (cfg->fpu != BANYAN_FPU_PARENT)
        return (float)cfg->fpu_value;
    const node *nodes = t->nodes;
    int64_t w = 0;
    uint64_t v = 0;
    for (int i = 0; i < s.n; i++) {
        uint64_t st = tree_stats(&nodes[s.first + (uint32_t)i]);
        v += tree_stats_visits(st);
        w += tree_stats_value(st);
        if (atomic_load_explicit(&nodes[s.first + (uint32_t)i].flags, memory_order_relaxed) &
            NODE_LAST)
            break;
    }
    return (float)(tree_value_mean(v, w) - cfg->fpu_value);
}

double search_fpu(const banyan_engine *e, const tree *t, const node *x, int player)
{
    return select_fpu(e, t, select_widen(e, t, x, player));
}

/* ln n for n >= 1 (0 for 0): below SELECT_TABLE from engine.select.ln;
 * above, n is cut to its top bits q in [SELECT_TABLE / 2, SELECT_TABLE),
 * n = q 2^s + r, and ln n = ln q + s ln 2 + r 2^-s / q to within
 * 1 / (2 q^2) < 1e-5 of it, which is the table's value plus a multiply-add
 * (the slope 1 / q from engine.select.inv). */
static inline float select_ln(const banyan_engine *e, uint32_t n)
{
    if (n < SELECT_TABLE)
        return e->select.ln[n];
    union {
        double d;
        uint64_t u;
    } b = {(double)n};                                 /* Exact. */
    int shift = (int)((b.u >> 52) & 0x7ff) - 1023 - 9; /* n >> shift in [512, 1024). */
    union {
        uint32_t u;
        float f;
    } scale = {(uint32_t)(127 - shift) << 23}; /* 2^-shift. */
    uint32_t q = n >> shift, r = n - (q << shift);
    return e->select.ln[q] + (float)shift * 0.693147181f + (float)r * scale.f * e->select.inv[q];
}

/* 1 / n, 1 / sqrt(n) for n >= 1, and c sqrt(ln n): from engine.select's
 * tables below SELECT_TABLE, which hold exactly what the formulas give
 * (select_tables), so that a result never depends on which one answered. */
static inline float select_inv(const banyan_engine *e, uint32_t n)
{
    return n < SELECT_TABLE ? e->select.inv[n] : 1.0f / (float)n;
}

static inline float select_inv_sqrt(const banyan_engine *e, uint32_t n)
{
    return n < SELECT_TABLE ? e->select.inv_sqrt[n] : 1.0f / sqrtf((float)n);
}

static inline float select_explore(const banyan_engine *e, uint32_t n)
{
    return n < SELECT_TABLE ? e->select.explore[n] : (float)e->cfg.c * sqrtf(select_ln(e, n));
}

/* Fills engine.select for the configuration's c, unless it holds it. */
static void select_tables(banyan_engine *e)
{
    if (e->select.made && e->select.c == e->cfg.c)
        return;
    for (uint32_t n = 0; n < SELECT_TABLE; n++) {
        float f = (float)(n > 1 ? n : 1);
        e->select.ln[n] = (float)search_log(f);
        e->select.inv[n] = 1.0f / f;
        e->select.inv_sqrt[n] = 1.0f / sqrtf(f);
        e->select.explore[n] = (float)e->cfg.c * sqrtf(e->select.ln[n]);
    }
    e->select.c = e->cfg.c;
    e->select.made = true;
}

/*
 * Selection with RAVE (config.rave; docs/SEARCH.md, "RAVE"): each child's
 * mean q from its n simulations is mixed with its AMAF mean r from the A
 * simulations that played its move later, by the same player, with the
 * weight b = A / (A + n + n A / K), which starts at 1 and fades as the
 * child's own simulations grow past K; then UCB1's exploration term,
 * c sqrt(ln N / (n + 1)), counts the child's own visits. A child seen
 * neither way scores FPU_RAVE plus its prior, so that the children the
 * game ranks first are tried first. Proofs as in select_ucb.
 */
#define SEARCH_FPU_RAVE 1.0f
static uint32_t search_select_rave(const banyan_engine *e, const tree *t, const node *x, int player)
{
    const node *nodes = t->nodes;
    const select_width s = select_widen(e, t, x, player);
    const float log_n = select_ln(e, s.parent_n);
    const float unit = 1.0f / VALUE_ONE, k = (float)e->cfg.rave;
    const float c = (float)e->cfg.c;
    bool root = x == &nodes[t->root];
    float best = -HUGE_VALF;
    uint32_t best_i = s.first;
    for (int i = 0, live = 0; live < s.n; i++) {
        uint32_t ci = s.first + (uint32_t)i;
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
static uint32_t search_select_solo(const banyan_engine *e, const tree *t, const node *x, int player)
{
    const node *nodes = t->nodes;
    const select_width s = select_widen(e, t, x, player);
    const float log_n = select_ln(e, s.parent_n);
    const float unit = 1.0f / VALUE_ONE, mix = (float)e->cfg.max_mix;
    float c = (float)e->cfg.c;
    if (e->cfg.adaptive > 0) {
        uint32_t lo = atomic_load_explicit(&e->solo.seen_lo, memory_order_relaxed);
        uint32_t hi = atomic_load_explicit(&e->solo.seen_hi, memory_order_relaxed);
        if (hi > lo)
            c *= (float)(hi - lo) * unit;
    }
    float best = -HUGE_VALF;
    uint32_t best_i = s.first;
    for (int i = 0; i < s.n; i++) {
        uint32_t ci = s.first + (uint32_t)i;
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
 * UCT and PUCT: chooses the child of x to descend into. Children proven to
 * lose for the player to move are never chosen while another exists; a
 * proven win is taken at once. Unvisited children get the first-play
 * urgency, and under FPU_INFINITE the first of them (children are ordered
 * by prior) is taken at once, so every child is tried before any is tried
 * twice.
 *
 * This is the hottest loop of the engine: its work per child is loads,
 * multiplies and adds. UCB1's Q + c sqrt(ln N / n) is W (1 / n) +
 * c sqrt(ln N) (1 / sqrt(n)), with c sqrt(ln N) once per node and the
 * reciprocals from engine.select's tables. player is the one to move at
 * x: the widening is widening_opponent's where he is not the root's. One
 * body for both rules, puct a constant in each of the two policies below.
 */
static inline uint32_t select_ucb(const banyan_engine *e, const tree *t, const node *x, int player,
                                  bool puct)
{
    const node *nodes = t->nodes;
    const banyan_config *cfg = &e->cfg;
    select_width s = select_widen(e, t, x, player);
    uint32_t first = s.first;
    int n = s.n;
    float k = puct ? 0 : select_explore(e, s.parent_n);

    float best = -HUGE_VALF;
    uint32_t best_i = first;
    if (!puct && cfg->fpu == BANYAN_FPU_INFINITE &&
        !(atomic_load_explicit(&x->flags, memory_order_acquire) & NODE_PROVEN_CHILD)) {
        /* The common case, kept lean: no proofs to look at, and the first
         * unvisited child is taken at once. The scores are VALUE_ONE times
         * the others', which leaves their order as it is (a power of two
         * scales floats exactly) and saves a multiply a child. */
        float k_units = k * VALUE_ONE;
        for (int i = 0; i < n; i++) {
            const node *ch = &nodes[first + (uint32_t)i];
            uint64_t st = tree_stats(ch);
            uint32_t cn = tree_stats_visits(st);
            if (!cn)
                return first + (uint32_t)i;
            float score =
                (float)tree_stats_value(st) * select_inv(e, cn) + k_units * select_inv_sqrt(e, cn);
            if (score > best) {
                best = score;
                best_i = first + (uint32_t)i;
            }
            if (atomic_load_explicit(&ch->flags, memory_order_relaxed) & NODE_LAST)
                break;
        }
        return best_i;
    }
    float explore = puct ? (float)(cfg->c * sqrt((double)s.parent_n)) : 0;
    float fpu = select_fpu(e, t, s);
    const float unit = 1.0f / VALUE_ONE;
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
            score = puct ? fpu + explore * tree_prior(ch) : fpu + k;
        } else if (puct) {
            score = w * select_inv(e, cn) + explore * tree_prior(ch) * select_inv(e, cn + 1);
        } else {
            score = w * select_inv(e, cn) + k * select_inv_sqrt(e, cn);
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

static uint32_t search_select_uct(const banyan_engine *e, const tree *t, const node *x, int player)
{
    return select_ucb(e, t, x, player, false);
}

static uint32_t search_select_puct(const banyan_engine *e, const tree *t, const node *x, int player)
{
    return select_ucb(e, t, x, player, true);
}

/* RAVE where the trees keep AMAF statistics (it has its own first-play
 * urgency); the single-player rule where they keep best returns or the
 * exploration adapts, under infinite first-play urgency; else UCT or PUCT
 * as configured. Makes the tables for the configuration's c first. */
search_policy search_policy_of(banyan_engine *e)
{
    select_tables(e);
    const tree *t = &e->trees[0];
    const banyan_config *cfg = &e->cfg;
    if (t->amaf)
        return search_select_rave;
    if ((t->best || cfg->adaptive > 0) && cfg->fpu == BANYAN_FPU_INFINITE)
        return search_select_solo;
    return cfg->select == BANYAN_SELECT_PUCT ? search_select_puct : search_select_uct;
}
