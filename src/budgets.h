/*
 * budgets.h - the efforts and shares of time the search gives the game's
 * provers and solver: one struct, read from the engine (engine.budgets),
 * which banyan_engine_new() fills with SEARCH_BUDGETS_DEFAULT. Each default
 * was measured on the game named beside it (Gomoku's VCT, Connect Four's
 * and Othello's solvers); the other games have no such hook and read none.
 */
#ifndef BANYAN_BUDGETS_H
#define BANYAN_BUDGETS_H

#include <stdint.h>

typedef struct search_budgets {
    /* A root child gets the game's deep prover once it has deep_visits
     * visits and either at least 1 / deep_share of the root's or more than
     * any other root child had (as this thread saw them), so that only the
     * few children that the search keeps choosing pay for it (at most
     * deep_share of them hold that share at once), and the move played,
     * the most visited, has always been tried when it had 64 visits: where
     * visits spread over many children, none may hold the share. It runs
     * once: the child's NODE_MARK says it has (compaction clears every
     * mark, so after the tree is recycled the prover may run again on a
     * root child; a root child kept from an earlier search was deeper down
     * then, and was never marked). */
    uint32_t deep_visits;
    uint32_t deep_share;

    /* The effort the deep prover gets on a root child (deep_effort), and on
     * the root before the search (in Gomoku, positions of the VCT: about
     * 1.7 ms and 40 ms). A search limited in time gives the root
     * root_per_second positions per second of its limit (about 5% of it),
     * within root_min .. root_max; one limited otherwise, root_effort. */
    uint32_t deep_effort;
    uint32_t root_effort;
    double root_per_second;
    uint32_t root_min;
    uint32_t root_max;

    /* The shares of a timed search's time that bound the root's deep
     * prover and then its deeper defence in seconds as well. Their rates
     * vary several times with the position (Gomoku's VCT visits 0.5 to 2.5
     * million positions a second), so that the effort alone, sized for a
     * fast one, could outlast the whole move; the bounds are loose, since
     * the provers' time is worth more than the simulations' (tighter ones,
     * 0.4 and 0.25, lost to none at 0.2 s a move,
     * docs/journal/2026-12-04-provers-clock.md). */
    double root_time_share;
    double defend_time_share;

    /* The game's exact solver (banyan_game.solve): the positions it may
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
     * being all it knows). */
    uint64_t solve_node;
    uint64_t solve_root;
    uint64_t solve_root_min;
    uint64_t solve_root_max;
    double solve_per_second;
    uint64_t solve_slice;
    double solve_time_share;

    /* Moves the final check may refute before the search plays one anyway
     * (verify_tries), the share of a timed search kept for it
     * (verify_share), and the rate (positions a second) that sizes its
     * effort (verify_per_second). */
    int verify_tries;
    double verify_share;
    double verify_per_second;
} search_budgets;

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

#endif /* BANYAN_BUDGETS_H */
