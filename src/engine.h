/*
 * engine.h - the engine object shared by engine.c (the public API glue),
 * search.c (the simulation loop) and dump.c (tree output).
 */
#ifndef BANYAN_ENGINE_H
#define BANYAN_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "banyan.h"
#include "tree.h"

/* One search thread's private state. */
typedef struct worker {
    struct banyan_engine *e; /* The engine searched. */
    int index;               /* 0 for the calling thread. */
    banyan_rng rng;          /* Seeded from (config.seed, index). */
    unsigned char *state;    /* Scratch position, state_size bytes. */
    unsigned char *scratch;  /* A second one, for re-playing a path. */
    uint64_t playouts;       /* Simulations this worker ran in the current search. */
    int max_depth;           /* Deepest ply it reached. */
} worker;

struct banyan_engine {
    const banyan_game *game;   /* Borrowed; outlives the engine. */
    banyan_config cfg;         /* With every default resolved. */
    double reward_lo;          /* Bounds used to map returns onto [0, 1]. */
    double reward_scale;       /* 1 / (reward_max - reward_min). */
    tree t;                    /* The search tree. */
    unsigned char *root_state; /* The root position. */
    unsigned char *spare;      /* A second state, for changes that may fail. */
    char params[256];          /* Parameters of the current game. */
    worker *workers;           /* cfg.threads workers. */
    banyan_move_stats *stats;  /* BANYAN_MAX_MOVES entries for reports. */
    _Atomic int stop;          /* Set by banyan_engine_stop(). */
    _Atomic uint64_t started;  /* Simulations started in the current search. */
    uint64_t budget;           /* Simulations allowed in the current search. */
    int root_player;           /* Player to move at the root. */
    bool shared;               /* More than one thread: statistics need atomic RMW. */
    uint32_t recycle_visits;   /* Visits a node needs to keep its children when the arena
                                  is recycled; grows each time it fills again. */
    uint32_t recycles;         /* Recycling passes in the current search. */
    char errmsg[256];          /* banyan_errmsg() text. */
};

/* Runs one search with limits already checked; fills *out. */
BANYAN_INTERNAL void search_run(banyan_engine *e, const banyan_limits *lim, banyan_report *out);

/* Fills *out from the tree as it stands; seconds and playouts are left 0. */
BANYAN_INTERNAL void search_report(banyan_engine *e, banyan_report *out);

/* Plays s to the end with uniform random moves (the generic rollout). */
BANYAN_INTERNAL void util_default_rollout(const banyan_game *g, void *s, banyan_rng *rng);

#endif /* BANYAN_ENGINE_H */
