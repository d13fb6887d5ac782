/*
 * learn.h - what the learning commands share: their options, one game of
 * self-play, the writer that puts finished games into a records file in
 * their numbers' order, and the trainer. learn.c defines them for
 * `banyan selfplay` and `banyan train`; learn_loop.c drives them, one
 * generation after another, for `banyan learn` (on one machine, or spread
 * over the ranks of an MPI job).
 */
#ifndef BANYAN_LEARN_H
#define BANYAN_LEARN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "data.h"
#include "net.h"

#define LEARN_MAX_FILES 256

/* The command whose options are parsed: each takes its own set. */
typedef enum learn_command { LEARN_SELFPLAY, LEARN_TRAIN, LEARN_LOOP } learn_command;

typedef struct learn_opts {
    const banyan_game *g;
    char params[256];
    const char *net, *out, *init, *checkpoint;
    const char *data[LEARN_MAX_FILES];
    int n_data;
    /* selfplay */
    long games, jobs, temp_plies, random_plies;
    double noise, noise_share, resign, resign_check;
    /* train */
    long steps, batch, window, every, channels, blocks, hidden, generation, max_steps;
    double lr, wd;
    /* learn (the loop) */
    const char *dir;
    long generations, gate_games, files;
    double gate_score, rank_timeout;
    uint64_t seed;
    options eng;
} learn_opts;

/* Parses argv[2 ..) for command, and writes the rule parameters of the
 * game's parameters into rules[len] (what records and networks hold).
 * Returns 0 to go on, or the exit status (-1 after --help, which means 0). */
int learn_start(int argc, char **argv, learn_opts *o, learn_command command, char *rules,
                size_t len);

/* What a game of self-play says beside its record, for the summary. */
typedef struct learn_outcome {
    int resigner;  /* The player who resigned, or -1. */
    bool check;    /* Played out whatever the value, to check resignations. */
    bool wants[2]; /* In such a game: whether each player fell below --resign. */
} learn_outcome;

/* An engine of o's game and engine options for one game on one thread,
 * its network's evaluator ev (borrowed), Dirichlet noise at the root as o
 * says when noise is true, and seed; the limits of a move (200 playouts
 * unless o says) in *lim. Returns NULL after saying why, prefixed by who. */
banyan_engine *learn_engine(const learn_opts *o, net_evaluator *ev, bool noise, uint64_t seed,
                            banyan_limits *lim, const char *who);

/* Plays game number k of o's self-play (its seed from o->seed and k) with
 * the evaluator ev (one thread's), recording it into *gm (begun here;
 * data_game_free it). Returns 0, or -1 after printing why. */
int learn_game(const learn_opts *o, net_evaluator *ev, long k, data_game *gm, learn_outcome *out);

/* Finished games held for writing in order: twice the most --jobs, so that
 * a game waits for room only behind a very long one. */
#define LEARN_RING 512

/* Self-play into a records file: games first .. o->games - 1, played by
 * threads (learn_selfplay_run) or handed in by the caller
 * (learn_selfplay_put), written in their numbers' order. */
typedef struct learn_selfplay {
    const learn_opts *o;
    const nn_net *net;
    FILE *out;
    const char *path;     /* out's name, for messages */
    pthread_mutex_t lock; /* out, the ring, the counts and the progress line */
    pthread_cond_t turn;  /* Signalled when games are written or one fails. */
    _Atomic long next;    /* The next game to play. */
    /* Finished games wait in a ring until all before them are written, so
     * the file holds them in their numbers' order whatever --jobs is. */
    data_game ring[LEARN_RING];
    bool ready[LEARN_RING];
    long first;   /* The first game of this run (those before are in the file). */
    long written; /* Games written so far: the next one to write. */
    long done, positions, first_wins, draws, resigned, checked, would_resign, wrong;
    int status; /* 0, or 1 after a failure */
    double start, next_line;
} learn_selfplay;

/* Begins self-play of games first .. o->games - 1 with net (borrowed) into
 * out (borrowed, named path), whose earlier games are written already. */
void learn_selfplay_init(learn_selfplay *sp, const learn_opts *o, const nn_net *net, FILE *out,
                         const char *path, long first);

/* Plays the games with o->jobs threads, the calling one among them.
 * Returns 0, or 1 after a failure said why. */
int learn_selfplay_run(learn_selfplay *sp);

/* Hands in game k, finished (ownership of gm's arrays passes), and writes
 * every game whose turn has come. Waits while k is LEARN_RING or more games
 * ahead of the next to write. Returns 0, or -1 after saying why. */
int learn_selfplay_put(learn_selfplay *sp, long k, data_game *gm, const learn_outcome *oc);

/* Prints the summary lines of the games played (and of resignations). */
void learn_selfplay_summary(const learn_selfplay *sp);

void learn_selfplay_destroy(learn_selfplay *sp);

/* Whether a file is at path. */
bool learn_exists(const char *path);

/* Loads the network o->net for o's game into net and meta, or prints why
 * (prefixed by who) and returns -1. */
int learn_load_net(const learn_opts *o, nn_net *net, nn_meta *meta, const char *who);

/* Writes a random network of o's shape (seed o->seed) to o->init. Returns
 * the exit status. */
int learn_init(const learn_opts *o, const char *rules);

/* Trains o->net (or resumes o->checkpoint) on o->data into o->out, as
 * `banyan train` does; tick(ud), when not NULL, is called at every step
 * and between records files. Returns the exit status. */
int learn_train(const learn_opts *o, const char *rules, void (*tick)(void *), void *ud);

#endif /* BANYAN_LEARN_H */
