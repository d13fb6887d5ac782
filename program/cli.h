/*
 * cli.h - what the subcommands of the banyan program share: the parsed
 * command line, engine creation with errors explained, and move and board
 * printing. Defined in cli.c; the subcommands live one or a few to a file
 * and main.c only dispatches to them. Front-ends use only the public API.
 */
#ifndef BANYAN_CLI_H
#define BANYAN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "banyan.h"
#include "options.h"

#define CLI_MAX_ARGS 16

/* Options of every subcommand; each uses the ones it needs. The engine's
 * own (playouts, threads, ...) come from the shared table of options.h. */
typedef struct cli_opts {
    const banyan_game *game; /* --game or the first positional argument. */
    char params[256];        /* --param k=v, repeated, joined by spaces. */
    const char *position;    /* --position. */
    options eng;             /* Engine options: cfg, limits, ponder, policy. */
    const char *human;       /* play: --human first|second|both|none. */
    bool json;               /* analyze: --json. */
    int reuse_plies;         /* bench: --reuse-test PLIES, measure tree reuse over a game. */
    const char *tree_dump;   /* analyze: --tree-dump FILE.json or FILE.dot. */
    int depth;               /* analyze: --depth of the dump; 0 = all. */
    bool depth_given;        /* analyze: --depth was given. */
    uint32_t min_visits;     /* analyze: --min-visits of dumped nodes. */
    int n_args;              /* Positional arguments left over. */
    const char *args[CLI_MAX_ARGS];
} cli_opts;

/* Parses argv[first..argc). Prints a message and returns false on an
 * unknown option or a bad value. */
bool cli_parse(int argc, char **argv, int first, cli_opts *o);

/* The game named by --game or else the first positional argument (which is
 * then used up); prints why and returns NULL when there is none or it is
 * unknown. */
const banyan_game *cli_game(cli_opts *o, const char *usage);

/* Whether argv[first..argc) asks for help (--help, -h anywhere): then a
 * subcommand prints its help and exits 0, whatever else is given. */
bool cli_wants_help(int argc, char **argv, int first);

/* The game parameters an engine of o gets: --param, and the plain values of
 * the game's table under --policy textbook. */
void cli_params(const cli_opts *o, char *out, size_t len);

/* Creates an engine from o (game, params, config, position); prints why
 * and returns NULL on failure. */
banyan_engine *cli_engine(const cli_opts *o);

/* Frees an engine cli_engine (or cli_start) made, with the network's
 * evaluator it took from --net. */
void cli_engine_free(banyan_engine *e);

/* The network's evaluator of the engine cli_engine made, or NULL. */
const net_evaluator *cli_engine_evaluator(void);

/* What analyze, show and the like begin with: parses argv from argv[2],
 * finds the game (printing usage when there is none) and makes the engine.
 * Returns it, or NULL with the exit status in *status (2 for bad usage, 1
 * when the engine cannot be made). */
banyan_engine *cli_start(int argc, char **argv, cli_opts *o, const char *usage, int *status);

/* Prints why banyan_engine_new(g, params, ...) returned rc, prefixed by who. */
void cli_explain_new(const char *who, const banyan_game *g, const char *params,
                     const banyan_config *cfg, int rc);

/* The move's notation in s, in a static buffer valid until the next call. */
const char *cli_move(const banyan_game *g, const void *s, banyan_move m);

/* Prints a board diagram of s with last marked. */
void cli_print_board(FILE *f, const banyan_game *g, const void *s, banyan_move last);

/* The text of a proof for tables: "win", "loss", "draw" or "-". */
const char *cli_proof(banyan_proof p);

/* A move's proof with its distance where known: "win in 3", "loss in 6",
 * else as cli_proof. A static buffer, valid until the next call. */
const char *cli_proof_plies(const banyan_move_stats *m);

/* Seconds on the monotonic clock, for timing. */
double cli_now(void);

/* Subcommands. Each returns the process exit status. */
int cli_play(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_analyze(int argc, char **argv);
int cli_perft(int argc, char **argv);
int cli_show(int argc, char **argv);
int cli_games(int argc, char **argv);
int cli_solo(int argc, char **argv);
int cli_gtp(int argc, char **argv);
/* argv[first ..) are the options: 2 for `banyan gomocup`, 1 for pbrain-banyan. */
int cli_gomocup(int argc, char **argv, int first);
int cli_match(int argc, char **argv);
int cli_selfplay(int argc, char **argv); /* learn.c */
int cli_train(int argc, char **argv);    /* learn.c */
int cli_learn(int argc, char **argv);    /* learn_loop.c */
int cli_serve(int argc, char **argv);    /* serve.c */

#endif /* BANYAN_CLI_H */
