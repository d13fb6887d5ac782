/*
 * cli.h - what the subcommands of the banyan program share: the parsed
 * command line and a few helpers. Front-ends use only the public API.
 */
#ifndef BANYAN_CLI_H
#define BANYAN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "banyan.h"

#define CLI_MAX_ARGS 16

/* Options common to every subcommand; each uses the ones it needs. */
typedef struct cli_opts {
    const banyan_game *game; /* --game or the first positional argument. */
    char params[256];        /* --param k=v, repeated, joined by spaces. */
    const char *position;    /* --position. */
    banyan_limits limits;    /* --playouts, --time, --nodes. */
    banyan_config cfg;       /* --seed, --threads, --memory, --c, --select, --final... */
    const char *human;       /* play: --human first|second|both|none. */
    bool json;               /* analyze: --json. */
    int reuse;               /* bench: --reuse PLIES, measure tree reuse over a game. */
    const char *tree_dump;   /* analyze: --tree-dump FILE.json or FILE.dot. */
    int depth;               /* analyze: --depth of the dump; 0 = all. */
    uint32_t min_visits;     /* analyze: --min-visits of dumped nodes. */
    int ponder;              /* --ponder 1, --no-ponder 0, neither -1 (the front-end's default). */
    int n_args;              /* Positional arguments left over. */
    const char *args[CLI_MAX_ARGS];
} cli_opts;

/* Parses argv[first..argc). Prints a message and returns false on an
 * unknown option or a bad value. */
bool cli_parse(int argc, char **argv, int first, cli_opts *o);

/* Creates an engine from o (game, params, config, position); prints the
 * error and returns NULL on failure. */
banyan_engine *cli_engine(const cli_opts *o);

/* The move's notation in s, in a static buffer valid until the next call. */
const char *cli_move(const banyan_game *g, const void *s, banyan_move m);

/* Prints a board diagram of s with last marked. */
void cli_print_board(FILE *f, const banyan_game *g, const void *s, banyan_move last);

/* The text of a proof for tables: "win", "loss", "draw" or "-". */
const char *cli_proof(banyan_proof p);

/* Subcommands. Each returns the process exit status. */
int cli_play(int argc, char **argv);
int cli_bench(int argc, char **argv);
/* argv[first ..) are the options: 2 for `banyan gomocup`, 1 for pbrain-banyan. */
int cli_gomocup(int argc, char **argv, int first);
int cli_match(int argc, char **argv);

#endif /* BANYAN_CLI_H */
