/*
 * budgets.h - the efforts and shares of time the search gives the game's
 * provers and solver: read from the engine (engine.budgets),
 * which banyan_engine_new() fills from the game's tactics part
 * (banyan_tactics: each budget the game sets) and SEARCH_BUDGETS_DEFAULT
 * (each it leaves 0). Each default was measured on the game named beside
 * it (Gomoku's VCT, Connect Four's and Othello's solvers), which states it
 * in its own table too; the other games have no such hook and read none.
 */
#ifndef BANYAN_BUDGETS_H
#define BANYAN_BUDGETS_H

#include <stdint.h>

#include "banyan_game.h"

/* The budgets are banyan_tactics' own members (banyan_game.h): the
 * engine's copy of the game's tactics part (or of an empty one), with each
 * budget the game leaves 0 set to its default. The search calls the
 * tactics' hooks through this copy too (e->budgets.solve, never NULL
 * itself), so no hot path asks first whether the game has the part. What
 * each bounds, and why
 * its default is what it is:
 *
 * A root child gets the game's deep prover once it has deep_visits
 * visits and either at least 1 / deep_share of the root's or more than
 * any other root child had (as this thread saw them), so that only the
 * few children that the search keeps choosing pay for it (at most
 * deep_share of them hold that share at once), and the move played,
 * the most visited, has always been tried when it had 64 visits: where
 * visits spread over many children, none may hold the share. It runs
 * once: the child's NODE_MARK says it has (compaction clears every
 * mark, so after the tree is recycled the prover may run again on a
 * root child; a root child kept from an earlier search was deeper down
 * then, and was never marked).
 *
 * The effort the deep prover gets on a root child (deep_effort), and on
 * the root before the search (in Gomoku, positions of the VCT: about
 * 1.7 ms and 40 ms). A search limited in time gives the root
 * root_per_second positions per second of its limit (about 5% of it),
 * within root_min .. root_max; one limited otherwise, root_effort.
 *
 * The shares of a timed search's time that bound the root's deep
 * prover and then its deeper defence in seconds as well. Their rates
 * vary several times with the position (Gomoku's VCT visits 0.5 to 2.5
 * million positions a second), so that the effort alone, sized for a
 * fast one, could outlast the whole move; the bounds are loose, since
 * the provers' time is worth more than the simulations' (tighter ones,
 * 0.4 and 0.25, lost to none at 0.2 s a move,
 * docs/journal/2026-12-04-provers-clock.md).
 *
 * The game's exact solver (banyan_tactics.solve): the positions it may
 * visit on a node being expanded (solve_node; 300: about 9 empty
 * squares in Connect Four and Othello; with 2,000, 11 in Othello, the
 * calls cost more than they proved, -64 Elo against none at 0.3 s a
 * move, docs/journal/2026-12-02-othello-grhino.md), and on the root
 * before the search: a search limited in time gives it
 * solve_per_second positions per second of its limit (Connect Four's
 * solver visits about 10 million a second, so a quarter of the time),
 * within solve_root_min .. solve_root_max (a ponder search's time is
 * endless); one limited otherwise, solve_root.
 * Each root child then gets the same, which the solver's table makes
 * cheap after the root. The root's solver gets the engine's stop flag,
 * so that banyan_engine_stop() ends it at once. Its budget is spent in
 * calls of growing size, from solve_slice positions and doubling (the
 * table keeps what each call learnt, so the next one does not start
 * over), and no call starts once solve_time_share of a timed search's
 * time has gone (a budget set by the user, solve=N, may be more than
 * the time allows; one call can still overrun it, the position count
 * being all it knows).
 *
 * Moves the final check may refute before the search plays one anyway
 * (verify_tries), the share of a timed search kept for it
 * (verify_share), and the rate (positions a second) that sizes its
 * effort (verify_per_second).
 */
typedef banyan_tactics search_budgets;

/* The defaults, for every game (see each field above). */
#define SEARCH_BUDGETS_DEFAULT                                                                     \
    {                                                                                              \
        .deep_visits = 64, .deep_share = 32, .deep_effort = 10000, .root_effort = 200000,          \
        .root_per_second = 400000.0, .root_min = 50000, .root_max = 500000,                        \
        .root_time_share = 0.6, .defend_time_share = 0.35, .solve_node = 300,                      \
        .solve_root = 4000000, .solve_root_min = 100000, .solve_root_max = 40000000,               \
        .solve_per_second = 2500000.0, .solve_slice = 250000, .solve_time_share = 0.5,             \
        .verify_tries = 3, .verify_share = 0.07, .verify_per_second = 2500000.0,                   \
    }

/* The budgets among banyan_tactics' members. */
#define SEARCH_BUDGET_FIELDS(X)                                                                    \
    X(deep_visits)                                                                                 \
    X(deep_share)                                                                                  \
    X(deep_effort)                                                                                 \
    X(root_effort)                                                                                 \
    X(root_per_second)                                                                             \
    X(root_min)                                                                                    \
    X(root_max)                                                                                    \
    X(root_time_share)                                                                             \
    X(defend_time_share)                                                                           \
    X(solve_node)                                                                                  \
    X(solve_root)                                                                                  \
    X(solve_root_min)                                                                              \
    X(solve_root_max)                                                                              \
    X(solve_per_second)                                                                            \
    X(solve_slice)                                                                                 \
    X(solve_time_share)                                                                            \
    X(verify_tries)                                                                                \
    X(verify_share)                                                                                \
    X(verify_per_second)

/* The budgets of a game whose tactics part is t (NULL: none): t's, each
 * it leaves 0 at its default. */
static inline void search_budgets_of(search_budgets *b, const banyan_tactics *t)
{
    const search_budgets d = SEARCH_BUDGETS_DEFAULT;
    *b = t ? *t : (search_budgets){0};
#define SEARCH_BUDGET_DEFAULT(f)                                                                   \
    if (!(b->f > 0))                                                                               \
        b->f = d.f;
    SEARCH_BUDGET_FIELDS(SEARCH_BUDGET_DEFAULT)
#undef SEARCH_BUDGET_DEFAULT
}

#endif /* BANYAN_BUDGETS_H */
