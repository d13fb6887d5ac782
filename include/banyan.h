/*
 * banyan.h - the public API of libbanyan, a Monte Carlo Tree Search engine.
 *
 * One opaque engine searches one game from a root position it owns. Create
 * it from a game table (banyan_game.h) and a config whose zero value means
 * the documented defaults, give it a position, search with limits, read the
 * report, play moves, free it.
 *
 *     banyan_engine *e;
 *     banyan_config cfg = BANYAN_CONFIG(.seed = 7);
 *     if (banyan_engine_new(&banyan_game_connect4, NULL, &cfg, &e) != BANYAN_OK) ...
 *     banyan_limits lim = BANYAN_LIMITS(.playouts = 100000);
 *     banyan_report rep = BANYAN_REPORT();
 *     banyan_engine_search(e, &lim, &rep);          rep.best is the move to play
 *     banyan_engine_play(e, rep.best);
 *     banyan_engine_free(e);
 *
 * Rules that hold for every function below:
 * - Fallible functions return BANYAN_OK or a negative BANYAN_E* code, and
 *   banyan_errmsg() then says what went wrong. A failed call leaves the engine
 *   exactly as it was, and usable.
 * - Every allocation goes through the config's allocation hook. All memory
 *   a search uses is reserved by banyan_engine_new(), so searching never
 *   allocates; banyan_engine_dump() alone takes scratch, for the call.
 * - The library never prints, never exits and keeps no global mutable state.
 * - An engine is used by one thread at a time, except banyan_engine_stop(),
 *   which any thread may call at any time.
 * - "borrowed" means the engine reads a pointer only during the call.
 * - banyan_config, banyan_limits and banyan_report begin with their size,
 *   which their macros BANYAN_CONFIG(), BANYAN_LIMITS() and BANYAN_REPORT()
 *   set (see "Binary compatibility" below).
 */
#ifndef BANYAN_H
#define BANYAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "banyan_game.h"

#define BANYAN_VERSION "0.1.0"

typedef struct banyan_engine banyan_engine; /* Opaque. */

/* The most search threads one engine takes: config.threads is 1 to this.
 * Under root parallelism each thread has a tree of its own. */
#define BANYAN_MAX_THREADS 64

/* The most positions config.batch gathers for one call of the evaluator. */
#define BANYAN_MAX_BATCH 256

/* banyan_alloc_fn, the allocation hook, is declared in banyan_game.h. */

/* How a node's children are scored during selection. */
typedef enum banyan_select {
    BANYAN_SELECT_DEFAULT = 0, /* PUCT where the leaves are evaluated, else UCT. */
    BANYAN_SELECT_UCT,         /* UCB1: Q + c * sqrt(ln N / n). */
    BANYAN_SELECT_PUCT         /* AlphaZero: Q + c * P * sqrt(N) / (1 + n). */
} banyan_select;

/* Value assumed for a child never visited (first-play urgency). */
typedef enum banyan_fpu {
    BANYAN_FPU_DEFAULT = 0, /* INFINITE under UCT, PARENT with reduction 0.1 under PUCT. */
    BANYAN_FPU_INFINITE,    /* Every child is tried once before any is tried twice. */
    BANYAN_FPU_PARENT,      /* The parent's mean value minus config.fpu_value. */
    BANYAN_FPU_ABSOLUTE     /* config.fpu_value itself, on the [0, 1] scale. */
} banyan_fpu;

/* How the move to play is chosen among the root's children. A proven win is
 * always played and a proven loss avoided while any other move exists,
 * whatever the rule. */
typedef enum banyan_final {
    BANYAN_FINAL_DEFAULT = 0, /* LCB. */
    BANYAN_FINAL_VISITS,      /* Most visits (the robust child). */
    BANYAN_FINAL_VALUE,       /* Highest mean value among children with visits. */
    BANYAN_FINAL_LCB          /* Highest lower confidence bound (Wilson's, at 2 sigma: low
                                 for few visits) among the children with a tenth of the
                                 most visits or more. */
} banyan_final;

/* What a simulation does at the leaf it reaches (banyan_config.leaf). */
typedef enum banyan_leaf {
    BANYAN_LEAF_DEFAULT = 0, /* EVAL for a game with evaluate() or with an evaluator, else
                                ROLLOUT. */
    BANYAN_LEAF_ROLLOUT,     /* The game's rollout to the end. */
    BANYAN_LEAF_EVAL,        /* The game's evaluate() on the leaf itself. */
    BANYAN_LEAF_CUTOFF       /* A rollout of at most cutoff plies (uniform among the
                                candidates), then evaluate() where the game goes on. */
} banyan_leaf;

/* How several threads share the work. */
typedef enum banyan_parallel {
    BANYAN_PARALLEL_DEFAULT = 0, /* TREE. */
    BANYAN_PARALLEL_TREE,        /* One shared tree, lock-free, with virtual loss. */
    BANYAN_PARALLEL_ROOT         /* A private tree per thread in its share of the arena; the
                                    root children's statistics are summed for reports and
                                    the move. Pays where simulations are so short that a
                                    shared tree's top levels become the bottleneck, and is
                                    reproducible with a playout limit, which is split evenly. */
} banyan_parallel;

/* One position handed to an evaluator (banyan_evaluator). */
typedef struct banyan_eval_request {
    const void *state;        /* A position of the engine's game that goes on; borrowed for
                                 the call. */
    const banyan_move *moves; /* The moves whose priors are wanted (those the search will
                                 consider, in the game's order), or NULL for none. */
    int n_moves;              /* Their number. */
    float *priors;            /* Out, with moves: n_moves priors (need not sum to 1). */
    double *returns;          /* Out, or NULL when only the priors are wanted: each player's
                                 expected return, within reward_min .. reward_max. */
} banyan_eval_request;

/* An evaluation from outside the game (a neural network, say), which takes
 * the place of the game's evaluate() at the leaves and of its priors() at
 * expansions. evaluate() handles req[0 .. n-1]; thread (0 .. threads-1)
 * names the search thread calling, so that the evaluator may keep scratch
 * per thread and need no lock. It must not fail: whatever it needs is
 * taken before the engine is made. The evaluator outlives the engine. */
typedef struct banyan_evaluator {
    void (*evaluate)(void *ud, int thread, banyan_eval_request *req, int n);
    void *ud;
} banyan_evaluator;

/* Binary compatibility. banyan_config, banyan_limits and banyan_report only
 * ever grow, at their end, and their first member, size, is the sizeof the
 * caller was compiled with, set by their macro:
 *
 *     banyan_config cfg = BANYAN_CONFIG(.memory = 64 << 20, .seed = 7);
 *     banyan_limits lim = BANYAN_LIMITS();            every field its default
 *     banyan_report rep = BANYAN_REPORT();
 *
 * (or size = sizeof the struct, set by hand, the rest zeroed). The library
 * reads only size bytes of a config or limits and takes the defaults for
 * the fields it knows beyond them, and writes only size bytes of a report,
 * size included (which it leaves as it was): a caller built against an
 * older header works with a newer library. A size of 0 (a struct filled
 * without its macro) or below the first layout's is refused with
 * BANYAN_EINVAL, and so is a size above the library's own: a caller built
 * against a newer header than the library's. Such a struct may set fields
 * the library does not know, and reading only the part it knows would run
 * a search other than the one asked for, or leave fields of a report
 * unwritten that the caller then reads; the caller learns it at once and
 * can say so (banyan_version() names the library). */

/* Engine configuration. Zero means "default" for every field but size. */
typedef struct banyan_config {
    size_t size;              /* sizeof(banyan_config), by BANYAN_CONFIG(). */
    size_t memory;            /* Bytes the engine allocates in all, at least
                                 banyan_memory_least(): the node arena takes what the rest
                                 (each thread's scratch and the game's memory for its
                                 provers and solver) leaves. 0: an arena of 256 MiB and what
                                 the rest needs beside it. */
    int threads;              /* Search threads, up to BANYAN_MAX_THREADS; 0 = 1.
                                 Reproducible with 1, or under root parallelism with a
                                 playout limit. */
    uint64_t seed;            /* RNG seed; 0 = a fixed default, never the clock. */
    double c;                 /* Exploration constant; 0 = sqrt(2) (UCT), 1.5 (PUCT). Values
                                 are on the [0, 1] scale of reward_min..reward_max: where
                                 the returns that matter differ by little against that
                                 range (a one-player domain whose best plans score 3.5 and
                                 3.6 of 0..10), the default explores too much; give tight
                                 reward bounds, or a c near the differences (0.1 - 0.3). */
    banyan_select select;     /* Selection formula. */
    banyan_fpu fpu;           /* First-play urgency mode. */
    double fpu_value;         /* Reduction (PARENT) or value (ABSOLUTE). */
    banyan_final final;       /* Final-move rule. */
    uint32_t expand_visits;   /* Visits a leaf needs before it is expanded; 0 = 1. */
    banyan_alloc_fn *alloc;   /* NULL = the C library's realloc and free. */
    void *alloc_ud;           /* Passed to alloc unchanged. */
    double widening;          /* Progressive widening: a node with N visits considers its first
                                 max(2, widening * sqrt(N)) children, by prior; 0 = 2 for
                                 games with priors (0.5 with RAVE) and none for others;
                                 < 0 = none. */
    bool fresh_tree;          /* true: clear the tree at every move; false (default): keep the
                                 subtree of the move played and reclaim the rest. */
    bool no_recycle;          /* true: a full arena stops the tree growing; false (default):
                                 with private trees, the children of the least visited nodes are
                                 dropped so that the tree grows at its frontier again. */
    banyan_parallel parallel; /* With threads > 1: one shared tree or one tree per thread. */
    banyan_leaf leaf;         /* Rollouts, evaluations or both at the leaves. EVAL and CUTOFF
                                 need a game with evaluate(), or an evaluator. */
    int cutoff;               /* CUTOFF: plies of the rollout before the evaluation; 0 = 8. */
    uint64_t solve_budget;    /* Positions the game's exact solver (banyan_tactics.solve) may
                                 visit on the root before a search, and on each root child;
                                 0 = 4 million, or 2.5 million a second of a timed search
                                 (at least 100,000). A large budget makes a perfect player
                                 where the game's solver reaches. */
    bool transpositions;      /* Two-player games with a hash(): each tree gets a table of
                                 the statistics of every position it visits (an eighth of
                                 memory), and a new leaf whose position the search already
                                 reached by another order of moves takes the mean found
                                 there instead of a rollout or an evaluation. false
                                 (default): none. See docs/SEARCH.md. */
    const banyan_evaluator *evaluator; /* Borrowed. Not NULL: leaves are evaluated (leaf=eval
                                          or cutoff) and expansions take their priors by it,
                                          not by the game's evaluate() and priors(). */
    double noise_alpha;                /* Dirichlet noise on the root's priors (self-play):
                                          the concentration; 0 = none. */
    double noise_share;                /* The share of noise in the mixed priors; 0 = 0.25
                                          when noise_alpha is set. */
    int batch;      /* With an evaluator and leaf=eval: leaves each search thread gathers before
                       one call of the evaluator, up to BANYAN_MAX_BATCH, each simulation's path
                       holding its visits without their value (a virtual loss) meanwhile;
                       0 = 1. Reproducible for a given batch. */
    double rave;    /* RAVE (rapid action value estimation) in the selection of searches that
                       play rollouts in a two-player game: each child's mean is mixed with its
                       AMAF mean (over the simulations that played its move later, by the
                       same player) with the weight b = A / (A + n + n A / K), A and n its
                       AMAF and own simulations, K this value: the simulations at which the
                       two weigh the same. 0 = 3000 for games with playout() (the rollout
                       that tells its moves), else none; < 0 = none. The AMAF statistics
                       take a third of memory. See docs/SEARCH.md. */
    bool ownership; /* Rollout searches of games with owner(): who owns each cell at the
                       end of every simulation that played to the end of the game,
                       averaged in banyan_report.ownership. */
    /* Single-player games, UCT selection (docs/SEARCH.md, "Single-player
     * search"): */
    double max_mix; /* each child's mean mixed with the best return seen through it, with
                       this weight on the best (0 .. 1; 0 = plain means). The best returns
                       take 4 bytes a node of memory. */
    int adaptive;   /* 1: the exploration term scaled by the spread of the returns seen in
                       the tree (the best less the worst, on the [0, 1] scale), so that c
                       is relative to the returns that occur rather than to the declared
                       bounds; -1: not; 0 = the default (docs/SEARCH.md says which). */
    bool graph;     /* Graph search (implies transpositions, whose table it uses instead):
                       a node three plies or more down whose position another node reached
                       by another order of moves has expanded shares that node's block of
                       children, and so the whole subtree below; its own statistics stay
                       its own. For games whose hash decides the moves and the outcome.
                       See docs/SEARCH.md. */

    /* Progressive widening at the nodes where another player than the
     * root's is to move: how many of an opponent's replies the search
     * examines; 0 = as widening; < 0 = none there. */
    double widening_opponent;

    /* Sharing the top of the tree with other searches of the same
     * position, on other machines say (banyan_engine_share and
     * banyan_engine_absorb, below): the most nodes one export holds, up
     * to BANYAN_SHARE_NODES_MAX; 0 = no sharing. Takes about 150 bytes
     * for each of 8 x share_nodes slots (rounded up to a power of two)
     * beside the arena: 20 MB for 10,000 nodes. Needs one tree (not root
     * parallelism with several threads) and no graph. With RAVE
     * (config.rave) the AMAF statistics are shared too. */
    int share_nodes;

    /* With sharing: the number of searches that share (P) and this one's
     * index among them (0 .. P-1). Each leaf of the tree (a node with no
     * children, named by its path of moves from the root) is then one
     * search's, by a hash of its path (a leaf its own tree grew since its
     * last export or absorb is its own: no other has it yet), and before
     * each simulation of its first thread a search walks down the tree as
     * a simulation does until a walk ends on a leaf of its own, which the
     * simulation then takes.
     * A walk that ends on another search's leaf stands for that search's
     * simulation until the statistics come in: it adds to every node it
     * passes a visit at the node's mean (where it has none, at the value
     * the first-play rule gave it), which lowers its exploration bonus as
     * a thread's simulation in flight does without changing its value, and
     * is taken back at the next export or absorb and at the search's end.
     * The searches then spread over the tree as threads of one tree would,
     * and no two evaluate the same leaf while their trees agree above it,
     * where without the walks every search, its tree just made equal to
     * the others' by an absorb, would walk the others' way. 0 or 1: none. */
    int share_searches;
    int share_index;
} banyan_config;

/* The most nodes config.share_nodes may ask for. */
#define BANYAN_SHARE_NODES_MAX (1 << 20)

/* A config with size set and the fields given, the rest zero (defaults):
 * BANYAN_CONFIG(.seed = 7, .threads = 2), or BANYAN_CONFIG() for all the
 * defaults. */
#define BANYAN_CONFIG(...) ((banyan_config){.size = sizeof(banyan_config), __VA_ARGS__})

typedef struct banyan_report banyan_report;

/* Called by the searching thread every limits.progress_interval seconds
 * with the statistics so far (see banyan_report; valid during the call). */
typedef void banyan_progress_fn(void *ud, const banyan_report *rep);

/* Search limits. The search stops at the first limit reached, when the root
 * is proven, or on banyan_engine_stop(). Zero means "no limit" for each
 * field; when all of playouts, time and nodes are zero, playouts = 10000.
 * A tree counts a little under 2^28 visits at its root (268 million
 * simulations, less 2112): a search stops there too. */
typedef struct banyan_limits {
    size_t size;                  /* sizeof(banyan_limits), by BANYAN_LIMITS(). */
    uint64_t playouts;            /* Simulations to run from the root. */
    double time;                  /* Wall-clock seconds. */
    uint64_t nodes;               /* Stop when the tree holds this many nodes. */
    banyan_progress_fn *progress; /* Optional progress callback. */
    void *progress_ud;
    double progress_interval;   /* Seconds between callbacks; 0 = 0.25. */
    double time_max;            /* With time: go on up to time_max seconds while the best move
                                   is unclear (close in visits to the second, or not the best
                                   by value); 0 = stop at time. */
    bool stop_early;            /* Stop before the playouts or the time run out once the best
                                   move can no longer be overtaken. */
    bool analyse;               /* Value every move (analysis): a root that the game's solver
                                   or provers prove at once (Connect Four's opening book, a
                                   Gomoku VCF) is searched on, its other moves valued, until
                                   the other limits stop it; the proven move stays the best.
                                   false: a proven root ends the search (play). */
    banyan_progress_fn *finish; /* Optional: called once by the searching thread when the
                                   simulations have stopped, with the statistics so far,
                                   before the move's final check (the game's provers on the
                                   move about to be chosen) and the report, which see what
                                   it did to the tree: a search shared with other engines
                                   takes in their last statistics there
                                   (banyan_engine_absorb), so that the move checked is the
                                   move played. */
    void *finish_ud;
} banyan_limits;

/* Limits with size set and the fields given, the rest zero:
 * BANYAN_LIMITS(.playouts = 1000), or BANYAN_LIMITS() for the defaults. */
#define BANYAN_LIMITS(...) ((banyan_limits){.size = sizeof(banyan_limits), __VA_ARGS__})

/* Proven game-theoretic values, from the point of view of the player who
 * makes the move (for a root move) or who is to move (for the root). */
typedef enum banyan_proof {
    BANYAN_UNPROVEN = 0,
    BANYAN_PROVEN_WIN,
    BANYAN_PROVEN_LOSS,
    BANYAN_PROVEN_DRAW
} banyan_proof;

#define BANYAN_MAX_PV 32 /* Longest principal variation reported. */

/* Statistics of one move from the root. */
typedef struct banyan_move_stats {
    banyan_move move;              /* The move. */
    uint32_t visits;               /* Simulations through it. */
    double value;                  /* Mean value in [0, 1] for the player making it. */
    double prior;                  /* Prior probability given to it. */
    banyan_proof proof;            /* Proven value for the player making it. */
    int pv_len;                    /* Moves in pv, starting with move itself. */
    banyan_move pv[BANYAN_MAX_PV]; /* Principal variation: most visited path. */
    int proof_plies;               /* A proven win or loss: plies to the end of the game, this
                                      move included, with the winner hurrying and the loser
                                      holding out, as far as the tree holds the proof; 0 when
                                      it rests on a prover's word or on no proof. */
    bool exact;                    /* The game's exact solver scored the move (banyan_tactics.solve,
                                      on a root it solved): */
    int score;                     /* its exact score for the player making it, on the
                                      solver's scale (a disc difference, or quicker wins
                                      higher); 0 when not exact. */
} banyan_move_stats;

/* The result of a search. moves points into the engine and stays valid until
 * the next call on the engine. The caller sets size (BANYAN_REPORT()); the
 * report a progress callback gets has the library's own size. */
struct banyan_report {
    size_t size;            /* sizeof(banyan_report), by BANYAN_REPORT(). */
    banyan_move best;       /* Move to play; BANYAN_MOVE_NONE if the game is over. */
    double value;           /* Mean value of best for the player to move. */
    banyan_proof proof;     /* Proven value of the root for the player to move. */
    uint64_t playouts;      /* Simulations run by this search. */
    uint64_t nodes;         /* Nodes in the tree, root included. */
    uint64_t node_capacity; /* Nodes the arena can hold. */
    bool tree_full;         /* True when the arena filled and the tree stopped growing. */
    double seconds;         /* Wall-clock time spent. */
    int max_depth;          /* Deepest tree ply reached by selection. */
    int n_moves;            /* Root moves, sorted best first by the final-move rule. */
    const banyan_move_stats *moves;
    uint64_t start_nodes;          /* Nodes the tree held when the search began: kept from earlier
                                      searches of this root or from before the moves played. */
    uint32_t recycles;             /* Times the arena filled in this search and the least visited
                                      subtrees were dropped to make room (one thread only). */
    uint64_t transposed;           /* Leaves valued from the transposition table in this search
                                      (banyan_config.transpositions), or in a graph, nodes
                                      that took another's block of children. */
    const float *ownership;        /* With config.ownership: for each cell of the root's board, row
                                      by row from the top, the share of this search's finished
                                      simulations in which the first player owned it less the share
                                      in which the second did (-1 .. 1); NULL otherwise. */
    int owner_width, owner_height; /* Its board's size; 0 without. */
    /* Single-player games (n_players 1), whose rollouts the search can
     * record (the game's playout(), or uniform moves where it has no
     * rollout()): the best whole game found from the root, by any search
     * since the root was set up, its moves kept as the moves on it are
     * played (another move drops it). line points into the engine and
     * stays valid until the next call on it. */
    int line_len;            /* Its moves, from the root to the game's end; 0: none yet. */
    const banyan_move *line; /* The moves; NULL when line_len is 0. */
    double line_return;      /* Its return (the game's own scale); 0 when none. */
};

/* A report with size set, the rest zero, for banyan_engine_search() to
 * fill: BANYAN_REPORT(). */
#define BANYAN_REPORT(...) ((banyan_report){.size = sizeof(banyan_report), __VA_ARGS__})

/* A player's clock, for time management. Seconds throughout; zero fields
 * mean "none". In main time, main_time is what is left of it; once it is
 * spent, main_time is 0 and the overtime fields describe where the player
 * stands: Japanese byo-yomi as periods of period_time each (a period is
 * lost only when a move takes longer than it), Canadian overtime as
 * period_time left to play period_stones stones. */
typedef struct banyan_clock {
    double main_time;   /* Main time left. */
    double increment;   /* Fischer increment added after each move. */
    double period_time; /* Byo-yomi period, or Canadian time left in the period. */
    int periods;        /* Japanese byo-yomi: periods left. */
    int period_stones;  /* Canadian overtime: stones left to play in the period. */
    int moves_to_go;    /* Moves until the main time is topped up; 0 = sudden death. */
    double margin;      /* Lag to allow for per move; 0 = 0.05 s plus 5% of the move's time. */
} banyan_clock;

/* Plans the next move's time for a player on clock c: *soft is the time to
 * aim at and *hard the most a search may take when the position is unclear,
 * both inside what the clock allows once the margin is taken off, and at
 * least 0.01 s. moves_left estimates the player's remaining moves (0 = 30).
 * Pass the results as banyan_limits.time and .time_max. Returns BANYAN_OK,
 * or BANYAN_EINVAL for a clock with negative or non-finite fields or with no
 * time at all (*soft and *hard untouched). Pure: no engine needed. */
int banyan_time_plan(const banyan_clock *c, int moves_left, double *soft, double *hard);

/* Creates an engine for game g with parameters params (see the game's setup;
 * NULL for its defaults) and configuration cfg (NULL for all defaults), at
 * the start position. g and cfg are borrowed, but g must outlive the engine.
 * The engine needs only the search's part of g (banyan_game_check() says
 * which): without notation functions it uses their defaults.
 * Returns BANYAN_OK with *out set, BANYAN_EINVAL for a bad game table,
 * parameters or config, or BANYAN_ENOMEM; *out is then NULL. With no engine
 * there is no banyan_errmsg(): to say why EINVAL came back, a front-end
 * asks banyan_game_check(g) about the table and banyan_params_check(g,
 * params, why, len) about the parameters (both in banyan_game.h), and
 * banyan_config_check(g, cfg) about the config. */
int banyan_engine_new(const banyan_game *g, const char *params, const banyan_config *cfg,
                      banyan_engine **out);

/* Says what is wrong with cfg (NULL: the defaults) for an engine of game g:
 * NULL when nothing is, else a static sentence naming the first fault
 * ("leaf=eval needs a game with an evaluation"). */
const char *banyan_config_check(const banyan_game *g, const banyan_config *cfg);

/* The least cfg->memory an engine of game g takes under cfg (NULL: the
 * defaults; its memory field is not read): what the engine allocates beside
 * its node arena (the engine, each thread's scratch and the game's memory
 * for its provers and solver, the sharing buffers), the smallest arena
 * (32 KiB a tree) and the transposition tables' eighth. 0 when cfg is
 * unusable for another reason (banyan_config_check says which). A
 * front-end says it when the memory asked for is smaller. */
size_t banyan_memory_least(const banyan_game *g, const banyan_config *cfg);

/* The configuration by name, for callers through a foreign-function
 * interface and for front-ends: one table in the library maps each option
 * of the program's command line that is a field of banyan_config ("seed",
 * "threads", "memory", "c", "select", "fpu", "widening", "rave" ...) to
 * its field, with the same syntax of values ("1.2", "puct", "64M", "off").
 * Sets option name of cfg (made by BANYAN_CONFIG()) from value. Returns
 * BANYAN_OK, or BANYAN_EINVAL for a NULL, an unknown name or a value out
 * of its syntax or range, cfg then unchanged. name and value are
 * borrowed. */
int banyan_config_set(banyan_config *cfg, const char *name, const char *value);

/* The name of option i (0 up) of that table; NULL past the last. */
const char *banyan_config_option(int i);

/* What a value of option name must be, a static sentence ("a whole number
 * from 1 to 64", "one of tree|root"); NULL for an unknown name. */
const char *banyan_config_expects(const char *name);

/* Frees the engine and everything it holds. NULL is a no-op. No search may
 * be running. */
void banyan_engine_free(banyan_engine *e);

/* Starts a new game with new parameters (NULL for the defaults) and clears
 * the tree. On error the engine keeps its old game and position. */
int banyan_engine_setup(banyan_engine *e, const char *params);

/* Replaces the root by the position text in the game's notation (for a game
 * without load(), a list of moves), played from the start position of the
 * current parameters, and clears the tree. */
int banyan_engine_load(banyan_engine *e, const char *position);

/* Replaces the root by a copy of state s (game->state_size bytes, made by
 * this game's functions with the same parameters), and clears the tree. */
int banyan_engine_set_state(banyan_engine *e, const void *s);

/* The root position: game->state_size bytes owned by the engine, valid and
 * unchanged until the next call that changes the position. */
const void *banyan_engine_state(const banyan_engine *e);

/* The game the engine plays: the table it was made with, or, for a table
 * made against an older banyan_game.h, the engine's copy of it at this
 * library's sizes (the members the table lacked NULL or 0). */
const banyan_game *banyan_engine_game(const banyan_engine *e);

/* Parses text as a move legal at the root, in the game's notation (decimal
 * move codes for a game without parse_move()). Returns BANYAN_OK with *out
 * set, or BANYAN_EINVAL, BANYAN_ERANGE or BANYAN_EILLEGAL (see parse_move). */
int banyan_engine_parse_move(banyan_engine *e, const char *text, banyan_move *out);

/* Plays legal move m at the root. Returns BANYAN_EILLEGAL for a move that is
 * not legal there (including any move after the end of the game). The
 * subtree under m becomes the new tree and the rest of the arena is
 * reclaimed (unless config.fresh_tree); this is the only call besides
 * banyan_engine_new() whose time grows with the arena, linearly. */
int banyan_engine_play(banyan_engine *e, banyan_move m);

/* Searches the root within lim (NULL for the defaults) and fills *out.
 * Successive searches from the same root keep growing the same tree. Returns
 * BANYAN_OK, or BANYAN_EINVAL for bad limits. A finished game is not an
 * error: out->best is then BANYAN_MOVE_NONE. */
int banyan_engine_search(banyan_engine *e, const banyan_limits *lim, banyan_report *out);

/* Asks the running search to stop as soon as it can. Any thread may call it
 * at any time. A stop that arrives while no search runs stops the next
 * search at once, so a stop is never lost in a race with its start. */
void banyan_engine_stop(banyan_engine *e);

/* Forgets a stop that no search has used yet: one that arrived after the
 * search it was meant for had ended by itself. Call it from the thread that
 * runs searches, between them (pondering does, after joining its search). */
void banyan_engine_clear_stop(banyan_engine *e);

/* Fills *out with the statistics of the tree as it stands (for example after
 * a search was stopped), without searching. */
int banyan_engine_report(banyan_engine *e, banyan_report *out);

/* Sharing one search over several engines (several machines: the
 * program's `mpirun -np N banyan ...` does it over MPI). Each engine
 * searches the same position with its own tree and, every few tens of
 * milliseconds, exports the top of its tree and absorbs the latest exports
 * of all the others; each then plays from statistics that count every
 * engine's simulations at the nodes they share. Engines share only while
 * at the same position reached by the same moves since it was set up,
 * loaded or set (an export carries both, and others are skipped); each
 * needs config.share_nodes > 0.
 *
 * banyan_engine_share() writes the statistics of the engine's own
 * simulations (what it absorbed left out) at the share_nodes most visited
 * nodes of its tree, each named by its path of moves from the root, into
 * buf: a plain, portable buffer (little-endian) of at most
 * banyan_share_size(share_nodes) bytes, *len of them (with its proof,
 * and with RAVE each node's AMAF statistics too). The same tree gives
 * the same bytes. Returns BANYAN_OK, BANYAN_ERANGE when cap is smaller
 * than banyan_share_size(share_nodes), or BANYAN_EINVAL (sharing off).
 *
 * banyan_engine_absorb() takes the latest export of each of n other
 * engines (bufs[i] of lens[i] bytes, borrowed) and adds to each node of
 * the tree what their sum holds beyond what earlier calls took there, so
 * that no simulation is counted twice however often an engine's growing
 * statistics come back: pass every other engine's latest export each time
 * (an engine left out brings nothing new until it is passed again, and
 * what it brought stays). A leaf of the tree that another engine has
 * expanded is expanded (as a simulation would: the game's candidates,
 * priors and provers) so that the statistics below it come in; nodes
 * under a parent the tree does not hold are skipped (they come in once
 * it does). In two-player games proofs
 * travel too: a node another engine proved (won, lost or drawn, exact
 * whoever found it) takes the proof, and the proofs of its parents follow
 * as far as its siblings' allow, as in a search. Returns the number of exports
 * taken (those of this position), or BANYAN_EINVAL for a buffer that is
 * not a whole export (then nothing is taken).
 *
 * Both may be called between searches, or during one from its progress
 * or finish callback (on the calling thread, which expands as a search
 * thread does; neither allocates). */
size_t banyan_share_size(int share_nodes);
int banyan_engine_share(banyan_engine *e, void *buf, size_t cap, size_t *len);
int banyan_engine_absorb(banyan_engine *e, const void *const *bufs, const size_t *lens, int n);

/* The lower confidence bound the final-move rule ranks moves by
 * (BANYAN_FINAL_LCB), for a move of mean value in [0, 1] over visits: the
 * lower end of Wilson's score interval at two standard errors, low for few
 * visits whatever their mean (one visit won: 0.2; four won: 0.5), close to
 * the mean less two standard errors for many. -1 for no visits. */
double banyan_lcb(double value, uint32_t visits);

/* Writes the tree through write(ud, data, len), which returns 0 to go on and
 * anything else to abort (the value is then returned). Nodes deeper than
 * max_depth plies below the root (0 = no limit) or with fewer than
 * min_visits visits are left out; moves are in the game's notation (decimal
 * codes without one). Under root parallelism this is the first thread's
 * tree. Takes scratch through the allocation hook for the call, a game
 * state per level (max_depth + 2 of them, 1026 with no limit), and returns
 * BANYAN_ENOMEM, with nothing written, when it cannot be had. */
typedef enum banyan_dump_format { BANYAN_DUMP_JSON = 0, BANYAN_DUMP_DOT } banyan_dump_format;
typedef int banyan_write_fn(void *ud, const char *data, size_t len);
int banyan_engine_dump(banyan_engine *e, banyan_dump_format format, int max_depth,
                       uint32_t min_visits, banyan_write_fn *write, void *ud);

/* Bytes one tree node takes in the arena. */
size_t banyan_node_size(void);

/* The message for the last failed call on e: valid until the next call on e.
 * Never NULL. */
const char *banyan_errmsg(const banyan_engine *e);

/* A static description of status code rc. Never NULL. */
const char *banyan_strerror(int rc);

/* The library's version string, BANYAN_VERSION. */
const char *banyan_version(void);

/* ---- Single-player runs: a whole game played by searches ----
 *
 * banyan_solo_run() looks for the longest (highest-scoring) game of a
 * single-player game (n_players 1: Morpion Solitaire, a puzzle) within a
 * total budget. A run plays one game from the start position (or a given
 * one) with an engine of its own: before each move a search, then the
 * first move of the best whole game found so far (banyan_report.line),
 * whose score every later move keeps within reach, so that a run ends at
 * least as well as the best line it ever saw. Each move gets the run's
 * budget left divided by the moves the best line still has, plus one (the
 * first, which has no line yet, a hundredth), or with share_front a share
 * that falls in step with the moves left; once the run's budget is spent,
 * the rest of the line is played without searching. Runs restart from the
 * start, run k with the seed config.seed + 7919 k and an even share of the
 * budget left; the best game is kept. With one thread and a playout budget
 * a call is reproducible. Everything the call allocates (an engine a run,
 * the games' moves) goes through the config's hook and is freed before it
 * returns.
 *
 * With a nested algorithm (options.algorithm: NRPA, NMCS) a run is one call
 * of the options' level from the position, no engine made: with a budget
 * (playouts, the level-0 playouts, or time) runs follow each other, run k
 * with the seed config.seed + 7919 k, until the budget is spent (or
 * options.runs of them end), a run the budget or a stop cuts ending with the best
 * game it found; without one, options.runs whole runs (1 by default). Of
 * the config only seed, threads and the allocation hook are read (with
 * threads, worker threads call the hook and the progress callback too, one
 * at a time for the callback). A seed, a thread count and a playout budget
 * (or none) give the same games: the best game of each run and the result;
 * which of the LINE events a thread tells first is the clock's. */

/* What a progress callback is told (valid during the call). */
typedef enum banyan_solo_kind {
    BANYAN_SOLO_LINE = 1, /* A run's search found a whole game better than any before. */
    BANYAN_SOLO_RUN       /* A run finished its game. */
} banyan_solo_kind;

typedef struct banyan_solo_event {
    banyan_solo_kind kind;
    int run;                  /* The run, from 0. */
    int move;                 /* LINE: the move of the run the search was for, from 1; 0 for
                                 the nested algorithms, whose LINE events carry the game
                                 (n_moves, moves) as RUN events do. */
    double score;             /* LINE: the return of the game found; RUN: of the run's game. */
    double best;              /* RUN: the best score so far, this game's and to_beat included. */
    bool improved;            /* RUN: the game beats every one before (and to_beat): it is the
                                 best now. */
    double elapsed;           /* Seconds since the call began. */
    double seconds;           /* RUN: seconds of the run's searches and moves. */
    uint64_t playouts;        /* RUN: simulations of the run. */
    int n_moves;              /* RUN: the run's game, from the start position. */
    const banyan_move *moves; /* RUN: its moves. */
} banyan_solo_event;

/* Returns 0 to go on, anything else to stop: banyan_solo_run() then
 * returns that value. */
typedef int banyan_solo_fn(void *ud, const banyan_solo_event *ev);

/* The game share_best() is given and gives back. */
typedef struct banyan_solo_shared {
    bool have;          /* A game (false: none yet, as the callback may answer). */
    double score;       /* Its score. */
    int n_moves;        /* Its length, at most room. */
    banyan_move *moves; /* Its moves from the position, room long (the library's). */
    int room;           /* BANYAN_SOLO_SHARED_ROOM. */
} banyan_solo_shared;

#define BANYAN_SOLO_SHARED_ROOM 65536 /* The longest game share_best() passes. */

/* What a call does. Set size with BANYAN_SOLO_OPTIONS(): fields are only
 * ever appended, and the library reads the ones the caller's size holds
 * (a size of 0, or larger than the library's own, is refused, as for
 * banyan_config: "Binary compatibility" above). Zero means the default for
 * every field. */
typedef struct banyan_solo_options {
    size_t size;              /* sizeof (banyan_solo_options) of the caller's header. */
    uint64_t playouts;        /* The budget of all runs, in simulations; or */
    double time;              /* in seconds (when playouts is 0). Both 0: 10,000 playouts. */
    int runs;                 /* Runs; 0 = 1. */
    bool follow_visits;       /* Play the root's best move by the final-move rule
                                 (banyan_report.best), not the first move of the best line. */
    bool share_front;         /* Earlier moves of a run get more of its budget. */
    bool beat;                /* A game scored to_beat exists (a saved one): games that do not
                                 beat it are not kept, nor lines reported that do not. */
    double to_beat;           /* Its score. */
    banyan_solo_fn *progress; /* Optional: told of lines found and runs finished. */
    void *progress_ud;        /* Passed to progress unchanged. */

    /* ---- Appended: the nested algorithms (fields after progress_ud) ---- */
    int algorithm;        /* BANYAN_SOLO_MCTS (0), BANYAN_SOLO_NRPA or BANYAN_SOLO_NMCS. */
    int level;            /* NRPA, NMCS: the level of a run (1 .. BANYAN_SOLO_MAX_LEVEL);
                             0: 3 for NRPA, 2 for NMCS. */
    int iterations;       /* NRPA: the iterations of each level; 0: 100. */
    double alpha;         /* NRPA: the adaptation step; 0: 1. */
    double temperature;   /* NRPA: the policy's temperature (GNRPA's tau); 0: 1. */
    double bias;          /* NRPA: the weight of GNRPA's bias, the log of the game's priors()
                             (no effect without them); 0: none. */
    size_t policy_memory; /* NRPA: bytes all the policies of a call may take together;
                             0: 64 MiB. A weight that finds no room stays 0 (counted in
                             banyan_solo_result.policy_full). */
    const banyan_move *start_moves; /* NRPA, NMCS: a finished game from the position (a saved
                                       one) the runs start from: their best game at first,
                                       the policy adapted to it; NULL: none. Borrowed. */
    int n_start_moves;              /* Its length. */
    /* NRPA, NMCS, one thread: called between playouts, with progress_ud, with
     * the only states the run still holds (at most BANYAN_SOLO_MAX_LEVEL + 2),
     * so that a domain whose states name objects kept elsewhere (a Python
     * domain) may release all the others. Returns 0 to go on, anything else
     * to stop: banyan_solo_run() then returns that value. NULL: none. */
    int (*keep_states)(void *ud, const void *const *states, int n);
    /* NRPA: the top level's best game shared with other processes that run
     * the same call, each with a seed of its own (banyan solo under mpirun: a
     * rank each). Called, with progress_ud, after each batch of top-level
     * iterations with the run's best game so far in *game and stopping true
     * when this process stops (its budget spent); it replaces *game by the
     * best game of all the processes (the same on each), to which the top
     * policy then adapts, and returns 0 to go on, 1 to stop (a process
     * stops), or another value to fail the call with it. Every process makes
     * the same calls, so none waits for a call another never makes. NULL:
     * none. */
    int (*share_best)(void *ud, banyan_solo_shared *game, bool stopping);
} banyan_solo_options;

/* banyan_solo_options.algorithm. */
#define BANYAN_SOLO_MCTS 0 /* A search before every move (above). */
#define BANYAN_SOLO_NRPA                                                                           \
    1 /* Nested Rollout Policy Adaptation (Rosin 2011), with GNRPA's temperature and bias          \
         (Cazenave 2020): a run is one call of the level, each level's iterations adapting a       \
         policy (weights by move_code(), a softmax over the legal moves) towards the best game     \
         of the level below, level 0 a playout drawn from the policy. The iterations of the top    \
         level are spread over config.threads (from level 2): each batch of as many iterations     \
         starts from the same policy and its games adapt it in the batch's order, so a seed and    \
         a thread count give the same run. */
#define BANYAN_SOLO_NMCS                                                                           \
    2 /* Nested Monte Carlo Search (Cazenave 2009): at level n, every move of the position is      \
         tried with a search of level n - 1 (level 0: a uniform random playout), the move of       \
         the best game found so far played, until the game ends. One thread. */
#define BANYAN_SOLO_MAX_LEVEL 8 /* The deepest level of a nested run. */

#define BANYAN_SOLO_OPTIONS(...)                                                                   \
    ((banyan_solo_options){.size = sizeof(banyan_solo_options), __VA_ARGS__})

/* The outcome of a call. The caller sets size (BANYAN_SOLO_RESULT()) and
 * the buffer for the best game's moves; the library fills the rest. */
typedef struct banyan_solo_result {
    size_t size;        /* sizeof (banyan_solo_result) of the caller's header. */
    banyan_move *moves; /* Caller's: the best game's first max_moves moves go here. */
    int max_moves;      /* Room in moves (0: none wanted). */
    bool found;         /* A run's game was kept (it beat to_beat, where one was given). */
    double score;       /* Its return (the game's own scale); 0 when none. */
    int n_moves;        /* Its length (more than max_moves when the buffer was short). */
    int runs;           /* Runs finished. */
    uint64_t playouts;  /* Simulations of every run. */
    double seconds;     /* Wall-clock time of the call. */
    /* ---- Appended (fields after seconds) ---- */
    uint64_t policy_full; /* NRPA: weight updates dropped for want of policy_memory. */
} banyan_solo_result;

#define BANYAN_SOLO_RESULT(buffer, room)                                                           \
    ((banyan_solo_result){                                                                         \
        .size = sizeof(banyan_solo_result), .moves = (buffer), .max_moves = (room)})

/* Plays opt's runs of game g (n_players 1) with parameters params (NULL:
 * the defaults) from position (the game's notation, as
 * banyan_engine_load(); NULL: the start), each with an engine made from
 * cfg (NULL: the defaults; its seed is the first run's), and fills *out,
 * also when it fails midway (the best game of the runs finished). opt NULL
 * is every default. Returns BANYAN_OK; BANYAN_EINVAL for a game of more
 * players, bad options, sizes, parameters, config or position;
 * BANYAN_ENOMEM; BANYAN_EILLEGAL when a run cannot go on (no move to play
 * in a game not over); or the callback's non-zero value. */
int banyan_solo_run(const banyan_game *g, const char *params, const char *position,
                    const banyan_config *cfg, const banyan_solo_options *opt,
                    banyan_solo_result *out);

#endif /* BANYAN_H */
