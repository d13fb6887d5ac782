/*
 * solo.c - banyan_solo_run(): whole games of a single-player game, each
 * played by a search before every move, the best one kept (banyan.h says
 * what a run does; docs/SEARCH.md, "Single-player search", why it follows
 * the best line). It uses only the public engine API, one engine a run.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "banyan.h"
#include "engine.h"
#include "nested.h"
#include "util.h"

#define SOLO_SEED_STEP   7919  /* Between the seeds of successive runs. */
#define SOLO_FIRST_MOVES 99    /* Moves the first search of a run assumes, having no line. */
#define SOLO_PLAYOUTS    10000 /* The budget when none is given (as banyan_limits). */
#define SOLO_GAME_START  256   /* Moves a game's buffer holds at first. */

/* The smallest sizes a caller's structures may have: the fields of the
 * first version. */
#define SOLO_OPTIONS_V1 (offsetof(banyan_solo_options, progress_ud) + sizeof(void *))
#define SOLO_RESULT_V1  (offsetof(banyan_solo_result, seconds) + sizeof(double))

/* A game's moves in a buffer that grows through the allocation hook. */
typedef struct solo_game {
    banyan_move *moves;
    int n, cap;
} solo_game;

/* The call's state: what it was given and the best game so far. */
typedef struct solo {
    const banyan_game *g;
    const char *params, *position;
    banyan_config cfg;
    banyan_solo_options o;
    bool by_playouts; /* The budget counts simulations, else seconds. */
    double start;     /* util_now() at the call's start. */
    bool have_best;   /* best_score is a game's (a run's or to_beat). */
    double best_score;
    solo_game run, best; /* The run's game; the best run's game. */
    bool found;          /* best holds a run's game. */
    int runs;
    uint64_t playouts;
} solo;

static bool solo_push(solo *S, solo_game *gm, banyan_move m)
{
    if (gm->n == gm->cap) {
        int cap = gm->cap ? 2 * gm->cap : SOLO_GAME_START;
        banyan_move *p = S->cfg.alloc(S->cfg.alloc_ud, gm->moves, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        gm->moves = p;
        gm->cap = cap;
    }
    gm->moves[gm->n++] = m;
    return true;
}

/* The limits of the next move: the run's budget left (seconds or
 * playouts) over the moves the best line still has, plus one. */
static banyan_limits solo_limits(const solo *S, double left, int line_len)
{
    banyan_limits lim = BANYAN_LIMITS();
    /* Even: the same for this move and each one left. Front: shares that
     * fall in step with the moves left, this move's the largest. */
    double share =
        S->o.share_front ? 2 * left / (double)(line_len + 2) : left / (double)(line_len + 1);
    if (S->by_playouts)
        lim.playouts = share >= 1 ? (uint64_t)share : 1;
    else
        lim.time = share > 0.001 ? share : 0.001;
    return lim;
}

static int solo_tell(const solo *S, const banyan_solo_event *ev)
{
    return S->o.progress ? S->o.progress(S->o.progress_ud, ev) : 0;
}

/* Plays the game of run k, on engine e, with a budget of `budget` seconds
 * or playouts, into S->run. */
static int solo_play(solo *S, banyan_engine *e, int k, double budget)
{
    double t0 = util_now(), used = 0, ret[BANYAN_MAX_PLAYERS];
    double shown = S->have_best ? S->best_score : -HUGE_VAL;
    uint64_t playouts = 0;
    int line_len = SOLO_FIRST_MOVES, rc = BANYAN_OK;
    S->run.n = 0;
    while (!S->g->outcome(banyan_engine_state(e), ret)) {
        banyan_report rep = BANYAN_REPORT();
        double left = budget - used;
        if (left > 0) {
            banyan_limits lim = solo_limits(S, left, line_len);
            if ((rc = banyan_engine_search(e, &lim, &rep)) != BANYAN_OK)
                return rc;
            playouts += rep.playouts;
            used = S->by_playouts ? (double)playouts : util_now() - t0;
        } else if ((rc = banyan_engine_report(e, &rep)) != BANYAN_OK) {
            return rc; /* The budget is spent: the line goes on. */
        }
        banyan_move m = !S->o.follow_visits && rep.line_len > 0 ? rep.line[0] : rep.best;
        line_len = rep.line_len > 0 ? rep.line_len - 1 : 0;
        if (rep.line_len > 0 && rep.line_return > shown) {
            banyan_solo_event ev = {.kind = BANYAN_SOLO_LINE,
                                    .run = k,
                                    .move = S->run.n + 1,
                                    .score = rep.line_return,
                                    .elapsed = util_now() - S->start};
            if ((rc = solo_tell(S, &ev)) != 0)
                return rc;
            shown = rep.line_return;
        }
        if (m == BANYAN_MOVE_NONE)
            return BANYAN_EILLEGAL;
        if (!solo_push(S, &S->run, m))
            return BANYAN_ENOMEM;
        if ((rc = banyan_engine_play(e, m)) != BANYAN_OK)
            return rc;
    }
    S->playouts += playouts;
    S->runs++;
    bool improved = !S->have_best || ret[0] > S->best_score;
    banyan_solo_event ev = {.kind = BANYAN_SOLO_RUN,
                            .run = k,
                            .score = ret[0],
                            .best = improved ? ret[0] : S->best_score,
                            .improved = improved,
                            .elapsed = util_now() - S->start,
                            .seconds = util_now() - t0,
                            .playouts = playouts,
                            .n_moves = S->run.n,
                            .moves = S->run.moves};
    if (improved) { /* The run's game becomes the best: the buffers swap. */
        solo_game was = S->best;
        S->best = S->run;
        S->run = was;
        S->have_best = S->found = true;
        S->best_score = ret[0];
        ev.moves = S->best.moves;
    }
    return solo_tell(S, &ev);
}

/* Run k: its engine, at the position, then its game. */
static int solo_one(solo *S, int k, double budget)
{
    banyan_config c = S->cfg;
    banyan_engine *e;
    c.seed = S->cfg.seed + (uint64_t)k * SOLO_SEED_STEP;
    int rc = banyan_engine_new(S->g, S->params, &c, &e);
    if (rc != BANYAN_OK)
        return rc;
    if (S->position)
        rc = banyan_engine_load(e, S->position);
    if (rc == BANYAN_OK)
        rc = solo_play(S, e, k, budget);
    banyan_engine_free(e);
    return rc;
}

/* Copies a caller's structure of `size` bytes into *mine (sizeof mine_size),
 * zero beyond; false when the size is outside what this library reads (the
 * rule of banyan.h's "Binary compatibility": below the first version's, or
 * larger than its own). */
static bool solo_take(void *mine, size_t mine_size, const void *theirs, size_t size, size_t v1)
{
    if (!engine_size_ok(size, v1, mine_size))
        return false;
    memset(mine, 0, mine_size);
    memcpy(mine, theirs, size);
    return true;
}

BANYAN_API int banyan_solo_run(const banyan_game *g, const char *params, const char *position,
                               const banyan_config *cfg, const banyan_solo_options *opt,
                               banyan_solo_result *out)
{
    banyan_solo_result r;
    solo S;
    if (!out || !solo_take(&r, sizeof r, out, out->size, SOLO_RESULT_V1) ||
        (r.max_moves > 0 && !r.moves) || r.max_moves < 0)
        return BANYAN_EINVAL;
    memset(&S, 0, sizeof S);
    S.o.size = sizeof S.o;
    if (opt && !solo_take(&S.o, sizeof S.o, opt, opt->size, SOLO_OPTIONS_V1))
        return BANYAN_EINVAL;
    if (!g || g->n_players != 1 || S.o.runs < 0 || !(S.o.time >= 0) || isinf(S.o.time))
        return BANYAN_EINVAL;
    S.g = g;
    S.params = params;
    S.position = position;
    if (cfg && !engine_size_ok(cfg->size, ENGINE_CONFIG_FIRST, sizeof S.cfg))
        return BANYAN_EINVAL;
    if (cfg)
        engine_copy_in(&S.cfg, cfg, sizeof S.cfg); /* Its size's bytes, no more. */
    else
        S.cfg = BANYAN_CONFIG();
    if (!S.cfg.alloc)
        S.cfg.alloc = util_realloc;
    if (S.o.algorithm != BANYAN_SOLO_MCTS) {
        GAME_NORMAL(g);
        int rc = g && !banyan_game_check(g) ? nested_run(g, params, position, &S.cfg, &S.o, &r)
                                            : BANYAN_EINVAL;
        memcpy(out, &r, out->size < sizeof r ? out->size : sizeof r);
        return rc;
    }
    S.by_playouts = S.o.playouts || S.o.time == 0;
    S.have_best = S.o.beat;
    S.best_score = S.o.to_beat;
    S.start = util_now();
    int runs = S.o.runs ? S.o.runs : 1, rc = BANYAN_OK;
    double total = S.o.playouts ? (double)S.o.playouts : S.o.time > 0 ? S.o.time : SOLO_PLAYOUTS;
    double spent = 0;
    for (int k = 0; k < runs && rc == BANYAN_OK; k++) {
        double before = util_now(), share = (total - spent) / (double)(runs - k);
        rc = solo_one(&S, k, share);
        /* Playout runs spend their share exactly; timed ones, what the
         * clock says. */
        spent += S.by_playouts ? share : util_now() - before;
    }
    r.found = S.found;
    r.score = S.found ? S.best_score : 0;
    r.n_moves = S.found ? S.best.n : 0;
    if (S.found && r.max_moves > 0)
        memcpy(r.moves, S.best.moves,
               (size_t)(r.n_moves < r.max_moves ? r.n_moves : r.max_moves) * sizeof *r.moves);
    r.runs = S.runs;
    r.playouts = S.playouts;
    r.seconds = util_now() - S.start;
    memcpy(out, &r, out->size < sizeof r ? out->size : sizeof r);
    if (S.run.moves)
        S.cfg.alloc(S.cfg.alloc_ud, S.run.moves, 0);
    if (S.best.moves)
        S.cfg.alloc(S.cfg.alloc_ud, S.best.moves, 0);
    return rc;
}
