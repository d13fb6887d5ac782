/*
 * options.h - the engine options every front-end understands, in one table:
 * the command line (--name value), match players (banyan:name=value,...),
 * GTP (banyan-set name value) and Gomocup (INFO name value for the names
 * that are not Gomocup's own). Each option's syntax, default, meaning and
 * the front-ends where it applies are written once, in options.c, and
 * printed by --help and `banyan help options`. Uses only the public API.
 */
#ifndef BANYAN_OPTIONS_H
#define BANYAN_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "banyan.h"
#include "net.h"

#define OPTIONS_PARAMS_MAX 256 /* Bytes of the extra game parameters, with the NUL. */

/* What the options set: an engine configuration, per-move limits and the
 * few choices a front-end makes around the engine. Zero means "default"
 * throughout, as in banyan_config and banyan_limits. */
typedef struct options {
    banyan_config cfg;               /* seed, threads, parallel, memory, c, select, ... */
    banyan_limits lim;               /* playouts, time, nodes. */
    int ponder;                      /* 1 on, 0 off, -1 the front-end's default. */
    bool textbook;                   /* policy=textbook: the seed articles' plain UCT. */
    char params[OPTIONS_PARAMS_MAX]; /* Game parameters the options add (textbook, params). */
    char net[256];                   /* net=FILE: the network file, or "". */
    double resign;                   /* resign=V: 0 the front-end's default, < 0 never. */
    double share_ms;                 /* share-ms: 0 the default (dist/dsearch.c). */
    double share_every;              /* share-every: 0 = by time (share-ms). */
    bool no_phantoms;                /* share-phantoms off. */
    bool share_stats;                /* share-stats: the exchanges' costs on stderr. */
    double rank_timeout;             /* rank-timeout: 0 the default (dist/dist.h). */
    /* The search the front-end runs on its engine: NULL for
     * banyan_engine_search, else one with the same contract (the
     * distributed search of dist/dsearch.c under mpirun). */
    int (*search)(banyan_engine *e, const banyan_limits *lim, banyan_report *r);
} options;

/* Where an option comes from, for the few that only some places take. */
#define OPTIONS_CLI    0x1u /* The command line. */
#define OPTIONS_PLAYER 0x2u /* A match player's banyan:key=value list. */
#define OPTIONS_LIVE   0x4u /* A running session (GTP banyan-set, Gomocup INFO). */
#define OPTIONS_ALL    0x7u

/* The front-ends that take engine options, one bit each: the table says in
 * which of them each option applies, and a command's --help lists there
 * only those. */
#define OPTIONS_IN_PLAY     0x001u
#define OPTIONS_IN_GTP      0x002u
#define OPTIONS_IN_GOMOCUP  0x004u
#define OPTIONS_IN_ANALYZE  0x008u
#define OPTIONS_IN_BENCH    0x010u
#define OPTIONS_IN_SOLO     0x020u
#define OPTIONS_IN_SERVE    0x040u
#define OPTIONS_IN_SELFPLAY 0x080u
#define OPTIONS_IN_MATCH    0x100u /* Its players (banyan:key=value). */
#define OPTIONS_IN_ANY      0x1ffu /* Every front-end that searches. */
#define OPTIONS_IN_TRAIN    0x200u /* banyan train, which takes the seed alone. */

/* The OPTIONS_IN_* bit of the subcommand named command ("play"), or 0 for
 * one that takes no engine options. command is borrowed. */
unsigned options_front(const char *command);

/* Resets o to the defaults (zeroes, ponder -1). */
void options_init(options *o);

/* The playouts a move of a front-end that was given no limit: base (its
 * own default, measured on boards of up to OPTIONS_DEFAULT_CELLS cells)
 * scaled down by the cells of the board of s beyond that many, so that a
 * move takes about as long on larger boards, whose playouts are longer
 * (Go on 19x19: base * 81 / 361). Games without a board keep base. */
#define OPTIONS_DEFAULT_CELLS 81
uint64_t options_default_playouts(const banyan_game *g, const void *s, uint64_t base);

/* Runs o's search (o->search, or banyan_engine_search) on e. */
int options_search(const options *o, banyan_engine *e, const banyan_limits *lim, banyan_report *r);

/* Whether name is an option taken in place (OPTIONS_*). name is borrowed. */
bool options_known(const char *name, unsigned place);

/* Whether option name takes no value on the command line (a switch such as
 * --ponder). */
bool options_is_switch(const char *name);

/* Sets option name to value (NULL for a switch) in o, for place. Returns
 * BANYAN_OK; BANYAN_EINVAL with a sentence in err[len] for an unknown
 * option or a bad value (o is then unchanged). name and value are
 * borrowed. */
int options_set(options *o, const char *name, const char *value, unsigned place, char *err,
                size_t len);

/* options_set on the command line of front-end front (an OPTIONS_IN_*
 * bit), which also refuses, with a sentence in err[len], an option that
 * does nothing there (--ponder in analyze). */
int options_set_in(options *o, const char *name, const char *value, unsigned front, char *err,
                   size_t len);

/* Whether changing option name needs a new engine (memory, threads,
 * parallel, seed, and the search settings in banyan_config), rather than
 * new limits only. */
bool options_need_engine(const char *name);

/* The parameters an engine of game g gets: base (the front-end's, NULL for
 * none), then under policy=textbook the plain value of each parameter of g
 * that has one (banyan_param.plain), then the options' own params, so that
 * later keys override earlier ones. Writes them into out[len], truncated
 * at a pair boundary if they do not fit (then returns false). */
bool options_game_params(const options *o, const banyan_game *g, const char *base, char *out,
                         size_t len);

/* banyan_engine_new(g, params, cfg) for the options o: where o names a
 * network (net=FILE), its evaluator is made first (for cfg's threads) and
 * put in a copy of cfg, and *ev gets it, to be freed (net_evaluator_free)
 * after the engine; otherwise *ev is NULL. Returns BANYAN_OK, or the
 * engine's error code with why[0] == 0 (the caller explains it), or
 * BANYAN_EINVAL with a sentence in why[len] when the network file cannot be
 * used for this game. cfg is o's, or one the front-end derived from it. */
int options_engine_new(const options *o, const banyan_config *cfg, const banyan_game *g,
                       const char *params, banyan_engine **e, net_evaluator **ev, char *why,
                       size_t len);

/* Prints the options taken in place that apply in front-ends in (OPTIONS_IN_*
 * bits), one per line with its syntax, default and meaning, each line
 * starting with prefix ("--" for the command line, "" for keys); then a
 * line that points to `banyan help options` for the search settings,
 * which it leaves out. */
void options_help(FILE *f, unsigned place, unsigned in, const char *prefix);

/* Prints the whole table for `banyan help options`: the limits and
 * resources, then the search settings, each option with where it applies
 * when that is not everywhere. */
void options_help_all(FILE *f);

/* Why banyan_engine_new(g, params, cfg) (or options_engine_new) returned
 * rc, a sentence into why[len]: memory, the game table, a parameter out of
 * its range or values that do not go together, or the configuration. */
void options_explain_new(const banyan_game *g, const char *params, const banyan_config *cfg, int rc,
                         char *why, size_t len);

#endif /* BANYAN_OPTIONS_H */
