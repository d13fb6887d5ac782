/*
 * engine.c - the public API: argument checks, error text and the engine's
 * lifecycle. Every allocation an engine keeps is made here, in
 * banyan_engine_new(), through the one allocation hook (the only other one
 * is banyan_engine_dump()'s scratch, through the same hook, for the call);
 * a failed call never changes the engine.
 */
#include "engine.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* Records a formatted message for banyan_errmsg() and returns rc. */
static int engine_error(banyan_engine *e, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->errmsg, sizeof e->errmsg, fmt, ap);
    va_end(ap);
    return rc;
}

static int engine_ok(banyan_engine *e)
{
    e->errmsg[0] = 0;
    return BANYAN_OK;
}

bool engine_size_ok(size_t size, size_t first, size_t known)
{
    return size >= first && size <= known;
}

void engine_copy_in(void *out, const void *in, size_t known)
{
    size_t size = *(const size_t *)in;
    memset(out, 0, known);
    memcpy(out, in, size);
    *(size_t *)out = known;
}

/* Whether a single-player game keeps its best line: where the search can
 * record the rollouts' moves (the game tells them, or its rollouts are the
 * uniform ones the engine records itself). */
static bool engine_keeps_line(const banyan_game *g)
{
    return g->n_players == 1 && (g->playout || !g->rollout);
}

/* The trees of a resolved config: one, or one a thread under root
 * parallelism. */
static int engine_trees(const banyan_config *c)
{
    return c->parallel == BANYAN_PARALLEL_ROOT ? c->threads : 1;
}

/* The entries of each tree's transposition table under a resolved config:
 * a power of two, the tables an eighth of the memory together; 0 without
 * transpositions. */
static size_t engine_tt_entries(const banyan_config *c)
{
    size_t n = 0, trees = (size_t)engine_trees(c);
    if (c->transpositions)
        for (n = 1; n * 2 * sizeof(tree_tt_entry) * trees <= c->memory / 8;)
            n *= 2;
    return n;
}

/*
 * The bytes an engine of game g under the resolved config c allocates
 * beside its arena and its transposition tables: the engine itself, the
 * root position and a spare, the report's arrays, ownership's cells, the
 * best line, the workers and, for each, its simulations with their
 * positions and requests, a scratch position, the game's deep memory
 * (mem_size), RAVE's arrays, its line and ownership counts; the sharing
 * buffers. The arena takes the rest of config.memory. Kept beside
 * banyan_engine_new()'s allocations, which tests/unit/test_engine.c
 * counts through a hook to check that the two agree.
 */
static size_t engine_fixed_bytes(const banyan_game *g, const banyan_config *c)
{
    search_budgets b;
    search_budgets_of(&b, g->tactics);
    bool line = engine_keeps_line(g);
    size_t sims = (size_t)c->batch, state = g->state_size;
    size_t per = sims * (state + search_sim_size() + sizeof(banyan_eval_request)) + state +
                 b.mem_size + sizeof(worker);
    if (line)
        per += ENGINE_LINE_MAX * sizeof(banyan_move);
    if (line || c->rave > 0)
        per += SEARCH_RAVE_MOVES * sizeof(banyan_move);
    if (c->rave > 0)
        per += BANYAN_MOVE_LIMIT * (sizeof(uint32_t) + 1);
    if (c->ownership)
        per += 2 * BANYAN_OWNER_CELLS * sizeof(uint32_t);
    size_t n = sizeof(banyan_engine) + 2 * state +
               BANYAN_MAX_MOVES * (sizeof(banyan_move_stats) + sizeof(root_child)) +
               (size_t)c->threads * per;
    if (c->ownership)
        n += BANYAN_OWNER_CELLS * sizeof(float);
    if (line)
        n += ENGINE_LINE_MAX * sizeof(banyan_move);
    if (c->share_nodes > 0)
        n += share_bytes(c->share_nodes, state, c->share_searches);
    return n;
}

/* The least config.memory of a resolved config: the fixed part, and an
 * arena of BANYAN_MIN_MEMORY a tree beside the tables, which take at most an
 * eighth. */
static size_t engine_memory_least(const banyan_game *g, const banyan_config *c)
{
    size_t least = engine_fixed_bytes(g, c) + (size_t)engine_trees(c) * BANYAN_MIN_MEMORY;
    return c->transpositions ? least + least / 7 + 1 : least;
}

/* Fills in the defaults of a config and checks it. Returns NULL, or a
 * sentence naming the first reason no engine can use it. */
static const char *engine_resolve(const banyan_game *g, const banyan_config *in, banyan_config *out)
{
    if (in && !in->size)
        return "the config has no size: make it with BANYAN_CONFIG()";
    if (in && !engine_size_ok(in->size, ENGINE_CONFIG_FIRST, sizeof *in))
        return in->size > sizeof *in ? "the config is larger than this library's: the caller was "
                                       "built against a newer banyan.h"
                                     : "the config's size is not that of any banyan_config";
    if (in)
        engine_copy_in(out, in, sizeof *out);
    else
        *out = BANYAN_CONFIG();
    bool default_memory = out->memory == 0;
    if (out->threads == 0)
        out->threads = 1;
    if (out->seed == 0)
        out->seed = BANYAN_DEFAULT_SEED;
    if (out->leaf == BANYAN_LEAF_DEFAULT)
        out->leaf = g->evaluate || out->evaluator ? BANYAN_LEAF_EVAL : BANYAN_LEAF_ROLLOUT;
    /* Evaluated leaves come with priors worth following: PUCT (in Gomoku
     * 85% of the points against UCT,
     * docs/journal/2026-12-01-gomoku-evaluation-real-engines.md). */
    if (out->select == BANYAN_SELECT_DEFAULT)
        out->select = out->leaf == BANYAN_LEAF_ROLLOUT ? BANYAN_SELECT_UCT : BANYAN_SELECT_PUCT;
    /* RAVE where a game tells its rollouts' moves, in rollout searches of
     * two players taking turns (docs/SEARCH.md, "RAVE"). */
    if (out->rave == 0)
        out->rave = g->playout ? ENGINE_RAVE_K : -1;
    if (out->rave > 0 &&
        (out->leaf != BANYAN_LEAF_ROLLOUT || g->n_players != 2 || out->select != BANYAN_SELECT_UCT))
        out->rave = -1;
    if (out->c == 0)
        out->c = out->select == BANYAN_SELECT_PUCT ? 1.5
                 : out->rave > 0                   ? ENGINE_RAVE_C
                                                   : sqrt(2.0);
    /* PUCT's reduction: 0.1 scored 57.5% in Gomoku against 0.25 (320 games),
     * 0.5 27.8%; even in Othello (docs/journal/2026-12-03-fpu-line-shapes.md). */
    if (out->fpu == BANYAN_FPU_DEFAULT) {
        out->fpu = out->select == BANYAN_SELECT_PUCT ? BANYAN_FPU_PARENT : BANYAN_FPU_INFINITE;
        if (out->select == BANYAN_SELECT_PUCT && out->fpu_value == 0)
            out->fpu_value = 0.1;
    }
    /* The lower confidence bound: 54.7% of the points in Gomoku against
     * the most visited child, 53% in Connect Four
     * (docs/journal/2026-12-01-final-move-lcb.md). */
    if (out->final == BANYAN_FINAL_DEFAULT)
        out->final = BANYAN_FINAL_LCB;
    if (out->parallel == BANYAN_PARALLEL_DEFAULT)
        out->parallel = BANYAN_PARALLEL_TREE;
    if (out->expand_visits == 0)
        out->expand_visits = 1;
    if (out->cutoff == 0)
        out->cutoff = 8;
    if (out->batch == 0)
        out->batch = 1;
    if (!out->alloc)
        out->alloc = util_realloc;
    if (out->threads < 1 || out->threads > BANYAN_MAX_THREADS)
        return "the threads are not within 1 .. 64";
    if (!isfinite(out->c) || out->c <= 0)
        return "the exploration constant is not a positive number";
    if ((unsigned)out->select > BANYAN_SELECT_PUCT || (unsigned)out->fpu > BANYAN_FPU_ABSOLUTE ||
        !isfinite(out->fpu_value) || (unsigned)out->final > BANYAN_FINAL_LCB ||
        (unsigned)out->parallel > BANYAN_PARALLEL_ROOT || (unsigned)out->leaf > BANYAN_LEAF_CUTOFF)
        return "a mode of the config is out of its range";
    if (out->leaf != BANYAN_LEAF_ROLLOUT && !g->evaluate && !out->evaluator)
        return "leaf=eval and leaf=cutoff need a game with an evaluation, or an evaluator";
    if (out->evaluator && !out->evaluator->evaluate)
        return "the evaluator has no evaluate function";
    if (out->noise_alpha > 0 && out->noise_share == 0)
        out->noise_share = 0.25;
    if (!(out->noise_alpha >= 0) || !isfinite(out->noise_alpha) || !(out->noise_share >= 0) ||
        !(out->noise_share <= 1))
        return "the root noise is not a concentration >= 0 and a share within 0 .. 1";
    if (out->batch < 1 || out->batch > BANYAN_MAX_BATCH)
        return "the batch is not within 1 .. 256 positions";
    if (out->cutoff < 1 || out->cutoff > BANYAN_MAX_DEPTH)
        return "the cutoff is not within 1 .. 1024 plies";
    if (out->share_nodes < 0 || out->share_nodes > BANYAN_SHARE_NODES_MAX)
        return "share_nodes is not within 0 .. 1048576";
    if (out->share_nodes && out->parallel == BANYAN_PARALLEL_ROOT && out->threads > 1)
        return "sharing needs one tree: parallel=tree, or one thread";
    if (out->share_searches < 0 || out->share_searches > BANYAN_SHARE_NODES_MAX ||
        out->share_index < 0 ||
        out->share_index >= (out->share_searches > 1 ? out->share_searches : 1))
        return "share_index is not within 0 .. share_searches - 1";
    if (out->share_nodes && out->graph)
        return "sharing needs a tree, not a graph (graph off)";
    if (out->graph)
        out->transpositions = true;
    if (out->transpositions && (g->n_players != 2 || !g->hash))
        return "transpositions need a two-player game with a hash";
    if (!isfinite(out->rave))
        return "rave is not a number";
    if (!(fabs(out->widening) <= 1000) || !(fabs(out->widening_opponent) <= 1000))
        return "a widening is not within -1000 .. 1000";
    if (out->ownership && (!(g->board && g->board->owner) || out->leaf != BANYAN_LEAF_ROLLOUT))
        return "ownership needs rollouts to the end in a game with owner()";
    if (!(out->max_mix >= 0 && out->max_mix <= 1))
        return "max_mix is not within 0 .. 1";
    if (out->adaptive < -1 || out->adaptive > 1)
        return "adaptive is not -1, 0 or 1";
    /* The single-player aids apply to UCT selection in single-player games. */
    if (out->adaptive == 0)
        out->adaptive = ENGINE_ADAPTIVE;
    if (g->n_players != 1 || out->select != BANYAN_SELECT_UCT) {
        out->max_mix = 0;
        out->adaptive = -1;
    }
    /* The memory bounds everything the engine allocates: it must hold the
     * fixed part and the smallest arena (banyan_memory_least says how much).
     * The default is an arena of BANYAN_DEFAULT_MEMORY (less the tables)
     * and what the rest needs beside it, whatever the threads. */
    if (default_memory)
        out->memory = BANYAN_DEFAULT_MEMORY + engine_fixed_bytes(g, out);
    if (out->memory < engine_memory_least(g, out))
        return "the memory is below the least this game needs with these threads and settings "
               "(banyan_memory_least)";
    return NULL;
}

BANYAN_API size_t banyan_memory_least(const banyan_game *g, const banyan_config *cfg)
{
    banyan_config c;
    if (!g || banyan_game_check(g))
        return 0;
    GAME_NORMAL(g);
    if (cfg && cfg->size && engine_size_ok(cfg->size, ENGINE_CONFIG_FIRST, sizeof *cfg))
        engine_copy_in(&c, cfg, sizeof c);
    else if (cfg)
        return 0;
    else
        c = BANYAN_CONFIG();
    c.memory = SIZE_MAX / 2; /* Past the check of the memory itself. */
    banyan_config out;
    return engine_resolve(g, &c, &out) ? 0 : engine_memory_least(g, &out);
}

BANYAN_API const char *banyan_config_check(const banyan_game *g, const banyan_config *cfg)
{
    banyan_config c;
    if (!g || banyan_game_check(g))
        return "the game table is unusable (banyan_game_check says why)";
    GAME_NORMAL(g);
    return engine_resolve(g, cfg, &c);
}

/* Frees what banyan_engine_new() allocated; fields still NULL are skipped. */
static void engine_release(banyan_engine *e)
{
    banyan_alloc_fn *a = e->cfg.alloc;
    void *ud = e->cfg.alloc_ud;
    if (e->workers) {
        for (int i = 0; i < e->cfg.threads; i++) {
            if (e->workers[i].states)
                a(ud, e->workers[i].states, 0);
            if (e->workers[i].sims)
                a(ud, e->workers[i].sims, 0);
            if (e->workers[i].requests)
                a(ud, e->workers[i].requests, 0);
            if (e->workers[i].scratch)
                a(ud, e->workers[i].scratch, 0);
            if (e->workers[i].deep)
                a(ud, e->workers[i].deep, 0);
            if (e->workers[i].rave_moves)
                a(ud, e->workers[i].rave_moves, 0);
            if (e->workers[i].rave_stamp)
                a(ud, e->workers[i].rave_stamp, 0);
            if (e->workers[i].rave_who)
                a(ud, e->workers[i].rave_who, 0);
            if (e->workers[i].owned)
                a(ud, e->workers[i].owned, 0);
            if (e->workers[i].line)
                a(ud, e->workers[i].line, 0);
        }
        a(ud, e->workers, 0);
    }
    share_free(e);
    void *owned[] = {e->solo.line,  e->report.stats, e->report.children, e->spare,
                     e->root_state, e->mem.nodes,    e->mem.tt,          e->mem.amaf,
                     e->mem.best,   e->owner.cells};
    for (size_t i = 0; i < sizeof owned / sizeof *owned; i++)
        if (owned[i])
            a(ud, owned[i], 0);
    a(ud, e, 0);
}

/* Empties the trees and their transposition tables for a new root;
 * recycling starts afresh, and the root's priors take their noise again. */
static void engine_clear_tree(banyan_engine *e)
{
    e->solo.line_len = 0;
    atomic_store_explicit(&e->solo.seen_lo, UINT32_MAX, memory_order_relaxed);
    atomic_store_explicit(&e->solo.seen_hi, 0, memory_order_relaxed);
    e->root_noised = false;
    e->owner.width = e->owner.height = 0;
    for (int i = 0; i < e->n_trees; i++) {
        tree_reset(&e->trees[i]);
        if (e->trees[i].tt)
            tree_tt_clear(&e->trees[i]);
    }
    share_reset(e);
}

/* Sets up a new game on the spare state, then makes it the root. */
static int engine_setup(banyan_engine *e, const char *params)
{
    const char *p = params ? params : "";
    if (strlen(p) >= sizeof e->params)
        return engine_error(e, BANYAN_EINVAL, "parameters too long");
    if (e->game->setup(e->spare, p) != BANYAN_OK)
        return engine_error(e, BANYAN_EINVAL, "bad parameters for %s: \"%s\"", e->game->name, p);
    GAME_CHECK(e->game, e->spare);
    memcpy(e->root_state, e->spare, e->game->state_size);
    snprintf(e->params, sizeof e->params, "%s", p);
    e->root_player = e->game->to_move(e->root_state);
    engine_clear_tree(e);
    return engine_ok(e);
}

BANYAN_API int banyan_engine_new(const banyan_game *g, const char *params, const banyan_config *cfg,
                                 banyan_engine **out)
{
    banyan_config c;
    if (!out)
        return BANYAN_EINVAL;
    *out = NULL;
    if (banyan_game_check(g))
        return BANYAN_EINVAL;
    const banyan_game *table = g;
    GAME_NORMAL(g);
    if (engine_resolve(g, cfg, &c))
        return BANYAN_EINVAL;

    banyan_engine *e = c.alloc(c.alloc_ud, NULL, sizeof *e);
    if (!e)
        return BANYAN_ENOMEM;
    memset(e, 0, sizeof *e);
    /* Widening pays where priors order the children; with RAVE (Go), whose
     * all-moves-as-first values let every child look good early, a
     * narrower width pays far more (docs/SEARCH.md). */
    if (c.widening == 0)
        c.widening = !g->priors || c.evaluator ? -1.0
                     : c.rave > 0              ? ENGINE_WIDENING_RAVE
                                               : ENGINE_WIDENING;
    if (c.widening_opponent == 0)
        c.widening_opponent = c.widening;
    /* The engine reads its own copy of a table made against an older
     * header (game.h), which lives as long as the engine. */
    e->game = game_normal(table, &e->game_norm);
    e->cfg = c;
    search_budgets_of(&e->budgets, e->game->tactics);
    e->n_trees = engine_trees(&c);
    e->shared = c.threads > 1 && e->n_trees == 1;
    atomic_init(&e->stop, 0);
    atomic_init(&e->started, 0);

    /* Transpositions: an eighth of the memory, a table per tree of a power
     * of two entries. The arena takes what the tables and the fixed part
     * (engine_fixed_bytes) leave of the memory, which engine_resolve()
     * checked holds them and the smallest arena. */
    size_t tt_entries = engine_tt_entries(&c);
    size_t memory = c.memory - engine_fixed_bytes(g, &c);
    if (c.transpositions) {
        memory -= tt_entries * sizeof(tree_tt_entry) * (size_t)e->n_trees;
        e->mem.tt =
            c.alloc(c.alloc_ud, NULL, tt_entries * sizeof(tree_tt_entry) * (size_t)e->n_trees);
        for (int i = 0; e->mem.tt && i < e->n_trees; i++) {
            e->trees[i].tt = (tree_tt_entry *)e->mem.tt + (size_t)i * tt_entries;
            e->trees[i].tt_mask = tt_entries - 1;
            e->trees[i].graph = c.graph;
        }
    }

    /* One block, cut into a share per tree; each share a whole number of
     * cache lines and aligned to one, so that a node never straddles two.
     * With RAVE each node has its AMAF statistics beside it, in a block
     * of their own: 8 bytes more a node. */
    size_t per_node =
        sizeof(node) + (c.rave > 0 ? sizeof(uint64_t) : 0) + (c.max_mix > 0 ? sizeof(uint32_t) : 0);
    size_t n_nodes = (memory - 64) / per_node / (size_t)e->n_trees & ~(size_t)1;
    if (n_nodes > NODE_BORROWED - 1)
        n_nodes = NODE_BORROWED - 1;
    e->mem.nodes = c.alloc(c.alloc_ud, NULL, n_nodes * (size_t)e->n_trees * sizeof(node) + 64);
    node *nodes = e->mem.nodes ? (node *)(((uintptr_t)e->mem.nodes + 63) & ~(uintptr_t)63) : NULL;
    for (int i = 0; nodes && i < e->n_trees; i++) {
        e->trees[i].nodes = nodes + (size_t)i * n_nodes;
        e->trees[i].capacity = (uint32_t)n_nodes;
        /* The sentinel node 0 is never read as a node, but keep it defined. */
        memset(&e->trees[i].nodes[0], 0, sizeof(node));
    }
    if (c.max_mix > 0) {
        e->mem.best = c.alloc(c.alloc_ud, NULL, n_nodes * (size_t)e->n_trees * sizeof(uint32_t));
        for (int i = 0; e->mem.best && i < e->n_trees; i++)
            e->trees[i].best = (_Atomic uint32_t *)e->mem.best + (size_t)i * n_nodes;
    }
    if (c.rave > 0) {
        e->mem.amaf = c.alloc(c.alloc_ud, NULL, n_nodes * (size_t)e->n_trees * sizeof(uint64_t));
        for (int i = 0; e->mem.amaf && i < e->n_trees; i++)
            e->trees[i].amaf = (_Atomic uint64_t *)e->mem.amaf + (size_t)i * n_nodes;
    }
    if (c.ownership)
        e->owner.cells = c.alloc(c.alloc_ud, NULL, BANYAN_OWNER_CELLS * sizeof(float));
    e->root_state = c.alloc(c.alloc_ud, NULL, g->state_size);
    e->spare = c.alloc(c.alloc_ud, NULL, g->state_size);
    e->report.stats = c.alloc(c.alloc_ud, NULL, BANYAN_MAX_MOVES * sizeof *e->report.stats);
    e->report.children = c.alloc(c.alloc_ud, NULL, BANYAN_MAX_MOVES * sizeof *e->report.children);
    e->workers = c.alloc(c.alloc_ud, NULL, (size_t)c.threads * sizeof *e->workers);
    bool keep_line = engine_keeps_line(g);
    if (keep_line)
        e->solo.line = c.alloc(c.alloc_ud, NULL, ENGINE_LINE_MAX * sizeof(banyan_move));
    if (!e->mem.nodes || !e->root_state || !e->spare || !e->report.stats || !e->report.children ||
        !e->workers || (c.transpositions && !e->mem.tt) || (c.rave > 0 && !e->mem.amaf) ||
        (c.ownership && !e->owner.cells) || (keep_line && !e->solo.line) ||
        (c.max_mix > 0 && !e->mem.best)) {
        if (e->workers)
            memset(e->workers, 0, (size_t)c.threads * sizeof *e->workers);
        engine_release(e);
        return BANYAN_ENOMEM;
    }
    memset(e->workers, 0, (size_t)c.threads * sizeof *e->workers);
    for (int i = 0; i < c.threads; i++) {
        worker *w = &e->workers[i];
        w->e = e;
        w->index = i;
        w->t = &e->trees[e->n_trees > 1 ? i : 0];
        banyan_rng_seed(&w->rng, c.seed, (uint64_t)i);
        size_t sims = (size_t)c.batch;
        w->states = c.alloc(c.alloc_ud, NULL, sims * g->state_size);
        w->sims = c.alloc(c.alloc_ud, NULL, sims * search_sim_size());
        w->requests = c.alloc(c.alloc_ud, NULL, sims * sizeof *w->requests);
        w->scratch = c.alloc(c.alloc_ud, NULL, g->state_size);
        if (w->states && w->sims)
            search_sims_init(w, c.batch, g->state_size);
        if (e->budgets.mem_size > 0 &&
            (w->deep = c.alloc(c.alloc_ud, NULL, e->budgets.mem_size)) != NULL)
            memset(w->deep, 0, e->budgets.mem_size);
        if (keep_line) {
            w->line = c.alloc(c.alloc_ud, NULL, ENGINE_LINE_MAX * sizeof(banyan_move));
            if (c.rave <= 0)
                w->rave_moves = c.alloc(c.alloc_ud, NULL, SEARCH_RAVE_MOVES * sizeof(banyan_move));
        }
        if (c.rave > 0) {
            w->rave_moves = c.alloc(c.alloc_ud, NULL, SEARCH_RAVE_MOVES * sizeof(banyan_move));
            w->rave_stamp = c.alloc(c.alloc_ud, NULL, BANYAN_MOVE_LIMIT * sizeof(uint32_t));
            w->rave_who = c.alloc(c.alloc_ud, NULL, BANYAN_MOVE_LIMIT);
            if (w->rave_stamp)
                memset(w->rave_stamp, 0, BANYAN_MOVE_LIMIT * sizeof(uint32_t));
        }
        if (c.ownership)
            w->owned = c.alloc(c.alloc_ud, NULL, 2 * BANYAN_OWNER_CELLS * sizeof(uint32_t));
        if (!w->states || !w->sims || !w->requests || !w->scratch ||
            (e->budgets.mem_size > 0 && !w->deep) ||
            (c.rave > 0 && (!w->rave_moves || !w->rave_stamp || !w->rave_who)) ||
            (c.ownership && !w->owned) || (keep_line && (!w->line || !w->rave_moves))) {
            engine_release(e);
            return BANYAN_ENOMEM;
        }
    }
    if (c.share_nodes > 0 && !share_alloc(e, c.share_nodes)) {
        engine_release(e);
        return BANYAN_ENOMEM;
    }
    if (g->reward_min == 0 && g->reward_max == 0) {
        e->reward_lo = 0;
        e->reward_scale = 1;
    } else {
        e->reward_lo = g->reward_min;
        e->reward_scale = g->reward_max > g->reward_min ? 1 / (g->reward_max - g->reward_min) : 1;
    }
    if (engine_setup(e, params) != BANYAN_OK) {
        engine_release(e);
        return BANYAN_EINVAL;
    }
    *out = e;
    return BANYAN_OK;
}

BANYAN_API void banyan_engine_free(banyan_engine *e)
{
    if (e)
        engine_release(e);
}

BANYAN_API int banyan_engine_setup(banyan_engine *e, const char *params)
{
    if (!e)
        return BANYAN_EINVAL;
    return engine_setup(e, params);
}

BANYAN_API int banyan_engine_load(banyan_engine *e, const char *position)
{
    if (!e)
        return BANYAN_EINVAL;
    if (!position)
        return engine_error(e, BANYAN_EINVAL, "no position given");
    if (e->game->setup(e->spare, e->params) != BANYAN_OK)
        return engine_error(e, BANYAN_EINVAL, "cannot set up %s", e->game->name);
    int rc = banyan_game_load(e->game, e->spare, position);
    if (rc != BANYAN_OK) {
        /* A word that the notation has more to say about than the code. */
        char why[128] = "", word[64];
        e->game->setup(e->spare, e->params); /* The start, where the words are read. */
        for (const char *p = position; !why[0] && *p;) {
            p += strspn(p, " ,\t\r\n");
            size_t k = strcspn(p, " ,\t\r\n");
            if (k > 0 && k < sizeof word) {
                memcpy(word, p, k);
                word[k] = 0;
                banyan_game_parse_why(e->game, e->spare, 0, word, why, sizeof why);
            }
            p += k;
        }
        return engine_error(e, rc, "bad %s position \"%.64s\": %s", e->game->name, position,
                            why[0] ? why : banyan_strerror(rc));
    }
    GAME_CHECK(e->game, e->spare);
    memcpy(e->root_state, e->spare, e->game->state_size);
    e->root_player = e->game->to_move(e->root_state);
    engine_clear_tree(e);
    return engine_ok(e);
}

BANYAN_API int banyan_engine_set_state(banyan_engine *e, const void *s)
{
    if (!e)
        return BANYAN_EINVAL;
    if (!s)
        return engine_error(e, BANYAN_EINVAL, "no state given");
    if (e->game->is_valid && !e->game->is_valid(s))
        return engine_error(e, BANYAN_EINVAL, "invalid %s state", e->game->name);
    memmove(e->root_state, s, e->game->state_size);
    e->root_player = e->game->to_move(e->root_state);
    engine_clear_tree(e);
    return engine_ok(e);
}

BANYAN_API const void *banyan_engine_state(const banyan_engine *e)
{
    return e ? e->root_state : NULL;
}

BANYAN_API const banyan_game *banyan_engine_game(const banyan_engine *e)
{
    return e ? e->game : NULL;
}

/* Whether m is among the legal moves of the root. */
static bool engine_is_legal(const banyan_engine *e, banyan_move m)
{
    return banyan_game_is_legal(e->game, e->root_state, m);
}

BANYAN_API int banyan_engine_parse_move(banyan_engine *e, const char *text, banyan_move *out)
{
    banyan_move m;
    if (!e)
        return BANYAN_EINVAL;
    if (!text || !out)
        return engine_error(e, BANYAN_EINVAL, "no move given");
    int rc = banyan_game_parse(e->game, e->root_state, 0, text, &m);
    if (rc == BANYAN_ERANGE)
        return engine_error(e, rc, "\"%.32s\" is off the board", text);
    char why[128];
    if (rc != BANYAN_OK && banyan_game_parse_why(e->game, e->root_state, 0, text, why, sizeof why))
        return engine_error(e, BANYAN_EINVAL, "%s", why);
    if (rc != BANYAN_OK)
        return engine_error(e, BANYAN_EINVAL, "\"%.32s\" is not a %s move", text, e->game->name);
    if (!engine_is_legal(e, m))
        return engine_error(e, BANYAN_EILLEGAL, "\"%.32s\" is not legal here", text);
    *out = m;
    return engine_ok(e);
}

BANYAN_API int banyan_engine_play(banyan_engine *e, banyan_move m)
{
    if (!e)
        return BANYAN_EINVAL;
    if (!engine_is_legal(e, m))
        return engine_error(e, BANYAN_EILLEGAL, "move %u is not legal here", (unsigned)m);
    /* Keep the subtree under m, where a tree has one, as the new tree. */
    bool kept = false;
    for (int k = 0; k < e->n_trees; k++) {
        tree *t = &e->trees[k];
        int n;
        uint32_t first = tree_children(t->nodes, &t->nodes[t->root], &n), child = 0;
        for (int i = 0; !e->cfg.fresh_tree && i < n; i++)
            if (tree_move(&t->nodes[first + (uint32_t)i]) == m)
                child = first + (uint32_t)i;
        if (child)
            tree_promote(t, child);
        else
            tree_reset(t);
        kept = kept || child;
    }
    /* The best line goes on from m, or is dropped. */
    if (e->solo.line_len > 0 && e->solo.line[0] == m)
        memmove(e->solo.line, e->solo.line + 1, (size_t)--e->solo.line_len * sizeof *e->solo.line);
    else
        e->solo.line_len = 0;
    e->game->play(e->root_state, m);
    GAME_CHECK(e->game, e->root_state);
    DEBUG_CHECK(search_check(e));
    e->root_player = e->game->to_move(e->root_state);
    e->root_noised = false;
    e->owner.width = e->owner.height = 0; /* The ownership was the old root's. */
    share_played(e, m, kept);
    return engine_ok(e);
}

/* Checks the size of a report the caller gives (out), for
 * banyan_errmsg(). */
static int engine_report_size(banyan_engine *e, const banyan_report *out)
{
    if (!out)
        return engine_error(e, BANYAN_EINVAL, "no report given");
    if (!engine_size_ok(out->size, ENGINE_REPORT_FIRST, sizeof *out))
        return engine_error(e, BANYAN_EINVAL,
                            out->size > sizeof *out
                                ? "the report is larger than this library's: the caller was "
                                  "built against a newer banyan.h"
                            : out->size ? "the report's size is not that of any banyan_report"
                                        : "the report has no size: make it with BANYAN_REPORT()");
    return BANYAN_OK;
}

/* Copies the library's report r out to the caller's, of out->size bytes. */
static void engine_copy_out(banyan_report *out, banyan_report *r)
{
    r->size = out->size;
    memcpy(out, r, out->size);
}

/* The caller's progress callback, which a search calls through
 * engine_progress so that the report it gets has its size. */
typedef struct engine_progress_hook {
    banyan_progress_fn *fn;
    void *ud;
} engine_progress_hook;

static void engine_progress(void *ud, const banyan_report *rep)
{
    const engine_progress_hook *h = ud;
    banyan_report r = *rep;
    r.size = sizeof r;
    h->fn(h->ud, &r);
}

BANYAN_API int banyan_engine_search(banyan_engine *e, const banyan_limits *user, banyan_report *out)
{
    banyan_limits l, *lim = user ? &l : NULL;
    banyan_report r;
    engine_progress_hook hook, finish;
    if (!e)
        return BANYAN_EINVAL;
    if (engine_report_size(e, out) != BANYAN_OK)
        return BANYAN_EINVAL;
    if (user && !engine_size_ok(user->size, ENGINE_LIMITS_FIRST, sizeof *user))
        return engine_error(e, BANYAN_EINVAL,
                            user->size > sizeof *user
                                ? "the limits are larger than this library's: the caller was "
                                  "built against a newer banyan.h"
                            : user->size ? "the limits' size is not that of any banyan_limits"
                                         : "the limits have no size: make them with "
                                           "BANYAN_LIMITS()");
    if (user)
        engine_copy_in(&l, user, sizeof l);
    if (lim &&
        (!(lim->time >= 0) || !isfinite(lim->time) || !(lim->progress_interval >= 0) ||
         !isfinite(lim->progress_interval) || !(lim->time_max >= 0) || !isfinite(lim->time_max)))
        return engine_error(e, BANYAN_EINVAL, "bad limits");
    if (lim && lim->progress) {
        hook.fn = lim->progress;
        hook.ud = lim->progress_ud;
        lim->progress = engine_progress;
        lim->progress_ud = &hook;
    }
    if (lim && lim->finish) {
        finish.fn = lim->finish;
        finish.ud = lim->finish_ud;
        lim->finish = engine_progress;
        lim->finish_ud = &finish;
    }
    /* Move codes must fit the tree: the root's are checked before, deeper
     * ones as the search meets them. */
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = e->game->moves(e->root_state, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] >= BANYAN_MOVE_LIMIT) {
            memset(&r, 0, sizeof r);
            r.best = BANYAN_MOVE_NONE;
            engine_copy_out(out, &r);
            return engine_error(e, BANYAN_EINVAL,
                                "the game's moves() gave the code %lu: move codes must be below "
                                "%u",
                                (unsigned long)moves[i], BANYAN_MOVE_LIMIT);
        }
    atomic_store_explicit(&e->bad_move, 0, memory_order_relaxed);
    search_run(e, lim, &r);
    engine_copy_out(out, &r);
    uint32_t bad = atomic_load_explicit(&e->bad_move, memory_order_relaxed);
    if (bad)
        return engine_error(e, BANYAN_EINVAL,
                            "the game's moves() gave the code %lu below the root: move codes must "
                            "be below %u; the search went on without that node",
                            (unsigned long)(bad - 1), BANYAN_MOVE_LIMIT);
    return engine_ok(e);
}

BANYAN_API void banyan_engine_stop(banyan_engine *e)
{
    if (e)
        atomic_store_explicit(&e->stop, 1, memory_order_relaxed);
}

BANYAN_API void banyan_engine_clear_stop(banyan_engine *e)
{
    if (e)
        atomic_store_explicit(&e->stop, 0, memory_order_relaxed);
}

BANYAN_API int banyan_engine_report(banyan_engine *e, banyan_report *out)
{
    if (!e)
        return BANYAN_EINVAL;
    banyan_report r;
    if (engine_report_size(e, out) != BANYAN_OK)
        return BANYAN_EINVAL;
    search_report(e, &r);
    engine_copy_out(out, &r);
    return engine_ok(e);
}

BANYAN_API int banyan_engine_share(banyan_engine *e, void *buf, size_t cap, size_t *len)
{
    if (!e)
        return BANYAN_EINVAL;
    if (!buf || !len)
        return engine_error(e, BANYAN_EINVAL, "no buffer given");
    if (!e->share.nodes)
        return engine_error(e, BANYAN_EINVAL, "sharing is off: config.share_nodes is 0");
    if (cap < banyan_share_size(e->share.nodes))
        return engine_error(e, BANYAN_ERANGE,
                            "the buffer holds %zu bytes of the %zu an export needs", cap,
                            banyan_share_size(e->share.nodes));
    *len = share_export(e, buf);
    return engine_ok(e);
}

BANYAN_API int banyan_engine_absorb(banyan_engine *e, const void *const *bufs, const size_t *lens,
                                    int n)
{
    if (!e)
        return BANYAN_EINVAL;
    if (!e->share.nodes)
        return engine_error(e, BANYAN_EINVAL, "sharing is off: config.share_nodes is 0");
    if (n < 0 || (n > 0 && (!bufs || !lens)))
        return engine_error(e, BANYAN_EINVAL, "no buffers given");
    for (int k = 0; k < n; k++) {
        const char *why = share_check(bufs[k], lens[k]);
        if (why)
            return engine_error(e, BANYAN_EINVAL, "buffer %d %s", k, why);
    }
    engine_ok(e);
    return share_absorb(e, bufs, lens, n);
}

BANYAN_API size_t banyan_node_size(void)
{
    return sizeof(node);
}

BANYAN_API const char *banyan_errmsg(const banyan_engine *e)
{
    if (!e)
        return "no engine";
    return e->errmsg[0] ? e->errmsg : "not an error";
}

BANYAN_API const char *banyan_strerror(int rc)
{
    switch (rc) {
    case BANYAN_OK:
        return "not an error";
    case BANYAN_EINVAL:
        return "invalid argument";
    case BANYAN_ENOMEM:
        return "out of memory";
    case BANYAN_EILLEGAL:
        return "illegal move";
    case BANYAN_ERANGE:
        return "off the board";
    default:
        return "unknown error";
    }
}

BANYAN_API const char *banyan_version(void)
{
    return BANYAN_VERSION;
}
