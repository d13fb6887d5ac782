/*
 * engine.h - the engine object shared by engine.c (the public API glue),
 * the search (search.c and the files of search.h) and dump.c (tree output).
 */
#ifndef BANYAN_ENGINE_H
#define BANYAN_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "banyan.h"
#include "budgets.h"
#include "game.h"
#include "share.h"
#include "tree.h"

/* The end of the last member of each public struct's first layout, the one
 * that brought size: a caller's struct is never smaller (banyan.h, "Binary
 * compatibility"). */
#define ENGINE_CONFIG_FIRST (offsetof(banyan_config, widening_opponent) + sizeof(double))
#define ENGINE_LIMITS_FIRST (offsetof(banyan_limits, analyse) + sizeof(bool))
#define ENGINE_REPORT_FIRST (offsetof(banyan_report, line_return) + sizeof(double))

/* Whether a caller's struct of size bytes (its first member) is one this
 * library takes: from the first layout's end up to its own size, known. */
BANYAN_INTERNAL bool engine_size_ok(size_t size, size_t first, size_t known);

/* Copies the caller's struct in (its size bytes, which engine_size_ok
 * took) to *out, of the library's size known, with the fields beyond the
 * caller's zero (their defaults), and size the library's own. */
BANYAN_INTERNAL void engine_copy_in(void *out, const void *in, size_t known);

/* A root child's statistics summed over the trees (there is one but under
 * root parallelism), and where its PV starts: in the tree that visited it
 * most. */
typedef struct root_child {
    banyan_move move;
    float prior;
    uint32_t visits;
    int64_t value;
    banyan_proof proof; /* Exact, so any tree's proof holds for all. */
    const tree *pv_tree;
    uint32_t pv_node;
    uint32_t pv_visits;
} root_child;

/* A simulation on its way (simulate.c). */
typedef struct search_sim search_sim;

/* One search thread's private state. */
typedef struct worker {
    struct banyan_engine *e;       /* The engine searched. */
    tree *t;                       /* The tree it searches: the engine's one, or its own. */
    int index;                     /* 0 for the calling thread. */
    banyan_rng rng;                /* Seeded from (config.seed, index). */
    unsigned char *state;          /* Scratch position, state_size bytes: the state of the
                                      simulation being played (sims[0]'s between them). */
    search_sim *sims;              /* config.batch simulations (one without batches). */
    unsigned char *states;         /* Their positions, config.batch x state_size bytes. */
    banyan_eval_request *requests; /* config.batch requests for the evaluator. */
    unsigned char *scratch;        /* A second one, for re-playing a path. */
    void *deep;                    /* The game's mem_size bytes for its deep provers, or NULL. */
    uint64_t playouts;             /* Simulations this worker ran in the current search. */
    int max_depth;                 /* Deepest ply it reached. */
    uint32_t root_top;             /* Most visits it has seen a root child reach in this search. */
    uint64_t root_stats; /* On a shared tree: visits and value it owes the root (node.stats
                            format), added every SEARCH_CHUNK simulations. */
    uint64_t budget;     /* Root parallelism: simulations left to it in this search. */
    uint32_t claimed;    /* Simulations taken from the budget and not yet started. */
    uint32_t recycles;   /* Recycling passes of its tree in the current search. */
    uint64_t transposed; /* Leaves it valued from the transposition table in this search. */
    /* RAVE (config.rave): the moves of the current simulation's rollout,
     * and per move code the simulation that last marked it and the
     * player who first played it in the part of the simulation walked. */
    banyan_move *rave_moves; /* SEARCH_RAVE_MOVES of them. */
    int rave_n;
    uint32_t *rave_stamp; /* BANYAN_MOVE_LIMIT each. */
    uint8_t *rave_who;
    uint32_t rave_sim;
    /* Single-player games (engine.solo.line): the best whole game this worker
     * found in the current search, as moves from the root. */
    banyan_move *line; /* ENGINE_LINE_MAX of them, or NULL where no line is kept. */
    int line_len;      /* 0: none yet. */
    double line_return;
    /* Ownership (config.ownership): per cell, the finished simulations of
     * this search in which each of two players owned it, and their number. */
    uint32_t *owned; /* 2 x BANYAN_OWNER_CELLS. */
    uint32_t owned_n;
    /* Workers lie side by side: a cache line between one's fields, which
     * its thread writes at every simulation, and the next one's. */
    char pad[TREE_CACHE_LINE];
} worker;

/* Progressive widening's W where a game has priors, and with RAVE. */
#define ENGINE_WIDENING      2.0
#define ENGINE_WIDENING_RAVE 0.5

/* RAVE's defaults: the equivalence K (banyan_config.rave) and the
 * exploration constant, smaller than UCT's since the AMAF means explore
 * already; and the most moves of a rollout it records. */
#define ENGINE_RAVE_K     3000.0
#define ENGINE_RAVE_C     0.25
#define SEARCH_RAVE_MOVES 2048

/* Single-player games: whether the exploration term follows the spread of
 * the returns seen by default (config.adaptive). */
#define ENGINE_ADAPTIVE (-1)

/* The longest whole game a single-player line keeps: the deepest path
 * and a recorded rollout. */
#define ENGINE_LINE_MAX (BANYAN_MAX_DEPTH + SEARCH_RAVE_MOVES)

/* The most cells config.ownership counts: boards up to 64 x 64. */
#define BANYAN_OWNER_CELLS 4096

struct banyan_engine;

/* Counts below SELECT_TABLE read selection's divisions, logarithms and
 * square roots from tables (engine.select); select_ln() in select.c
 * assumes 1024. */
#define SELECT_TABLE 1024

/* A selection policy (select.c): the child of node x of tree t, where
 * player is to move, that a simulation descends into. */
typedef uint32_t (*search_policy)(const struct banyan_engine *e, const tree *t, const node *x,
                                  int player);

struct banyan_engine {
    /* The game, the configuration and the position searched. */
    const banyan_game *game;   /* Borrowed (it outlives the engine), or game_norm's. */
    game_norm game_norm;       /* A table made against an older header, normalised (game.h). */
    banyan_config cfg;         /* With every default resolved. */
    search_budgets budgets;    /* The provers' and solver's efforts (budgets.h). */
    double reward_lo;          /* Bounds used to map returns onto [0, 1]. */
    double reward_scale;       /* 1 / (reward_max - reward_min). */
    char params[256];          /* Parameters of the current game. */
    unsigned char *root_state; /* The root position. */
    unsigned char *spare;      /* A second state, for changes that may fail. */
    int root_player;           /* Player to move at the root. */
    char errmsg[256];          /* banyan_errmsg() text. */

    /* The trees (tree.h) and the allocations they live in. */
    tree trees[BANYAN_MAX_THREADS]; /* trees[0], and under root parallelism one per thread. */
    int n_trees;                    /* Trees in use: 1, or threads under root parallelism. */
    struct {
        void *nodes; /* Every tree's nodes. */
        void *tt;    /* Their transposition tables, or NULL. */
        void *amaf;  /* Their AMAF statistics (config.rave), or NULL. */
        void *best;  /* Their best returns (config.max_mix), or NULL. */
    } mem;

    /* The threads and the current search (search.c, threads.c). */
    worker *workers;           /* cfg.threads workers. */
    bool shared;               /* More than one thread: statistics need atomic RMW. */
    search_policy policy;      /* The selection (select.c), chosen by search_run(). */
    _Atomic int stop;          /* Set by banyan_engine_stop(). */
    _Atomic uint32_t bad_move; /* 1 + a move code of the game at or over
                                  BANYAN_MOVE_LIMIT that a search met; 0: none. */
    _Atomic uint64_t started;  /* Simulations started in the current search. */
    uint64_t budget;           /* Simulations allowed in the current search. */
    bool analysing;            /* This search values every root move (banyan_limits.analyse): a
                                  child proven to win is not selected at the root. */

    /* Selection's tables (select.c, search_policy_of): for n below
     * SELECT_TABLE, ln n, 1 / n, 1 / sqrt(n) and UCB1's c sqrt(ln n) for
     * the c they were made with (made: once there are any; entry 0 holds
     * n = 1's). So that the per-child work of the hottest loop is
     * multiplies and adds. */
    struct {
        bool made;
        double c;
        float ln[SELECT_TABLE];
        float inv[SELECT_TABLE];
        float inv_sqrt[SELECT_TABLE];
        float explore[SELECT_TABLE];
    } select;

    /* The root's work (root.c). The root as the game's exact solver found
     * it before the last search (search_solve_root): for the position
     * whose hash is exact.hash, the result for the player to move
     * (BANYAN_SOLVE_*, UNKNOWN when not solved), and the exact scores of
     * exact.n root moves for the player making each, the solver's best
     * move first. */
    struct {
        int result;
        uint64_t hash;
        int n;
        banyan_move move[BANYAN_MAX_MOVES];
        int score[BANYAN_MAX_MOVES];
    } exact;
    bool root_noised; /* The root's priors took their Dirichlet noise (config.noise_alpha). */

    /* Single-player games (select.c, simulate.c). */
    struct {
        /* config.adaptive: the lowest and highest return a simulation of
         * this game has backed up, in VALUE_ONE units. */
        _Atomic uint32_t seen_lo, seen_hi;
        /* Games whose rollouts can be recorded: the best whole game found
         * from the root (banyan_report.line). */
        banyan_move *line; /* ENGINE_LINE_MAX moves, or NULL where none is kept. */
        int line_len;      /* 0: none. */
        double line_return;
    } solo;

    /* The report (report.c). */
    struct {
        banyan_move_stats *stats; /* BANYAN_MAX_MOVES entries. */
        root_child *children;     /* BANYAN_MAX_MOVES entries: the root merged over the trees. */
    } report;
    share_state share; /* The top of the tree shared with other searches (share.c). */
    struct {
        float *cells; /* BANYAN_OWNER_CELLS (config.ownership), or NULL; */
        int width;    /* width x height of them hold the last search's, */
        int height;   /* both 0 when none. */
    } owner;
};

/* Runs one search with limits already checked; fills *out. */
BANYAN_INTERNAL void search_run(banyan_engine *e, const banyan_limits *lim, banyan_report *out);

/* Bytes of one simulation on its way (search_sim, simulate.c's), and the
 * link of worker w's n simulations to their positions in w->states, the
 * first of them also w->state. */
BANYAN_INTERNAL size_t search_sim_size(void);
BANYAN_INTERNAL void search_sims_init(worker *w, int n, size_t state_size);

/* Fills *out from the tree as it stands; seconds and playouts are left 0. */
BANYAN_INTERNAL void search_report(banyan_engine *e, banyan_report *out);

/* Checks every tree of e at rest, between searches, with tree_check():
 * NULL, or the first broken rule. Debug builds call it after each search
 * and each move played (DEBUG_CHECK). */
BANYAN_INTERNAL const char *search_check(const banyan_engine *e);

#endif /* BANYAN_ENGINE_H */
