/*
 * player.h - the players of `banyan match`: an engine configuration run in
 * this process, or an external program spoken to over GTP, each behind the
 * same few calls. External programs run in their own process group with
 * pipes for stdin and stdout; every wait has a deadline, so nothing an
 * engine does (crash, hang, garbage, an illegal move) can stop the referee.
 */
#ifndef BANYAN_PLAYER_H
#define BANYAN_PLAYER_H

#include <stdbool.h>
#include <stdio.h>

#include "banyan.h"
#include "line.h"
#include "options.h"
#include "os.h"
#include "record.h"

typedef enum player_kind { PLAYER_INTERNAL, PLAYER_GTP, PLAYER_GOMOCUP } player_kind;

/* A player as given on the command line:
 *   banyan:key=value,...   an engine configuration in this process; the keys
 *       are the engine options of options.h (banyan match --help lists them),
 *       with params (extra game parameters, ';'-separated) and
 *       policy=textbook (the plain UCT of the seed articles; the game's own
 *       plain parameter values, which its params may change)
 *   gtp[@DIR]:COMMAND LINE   an external GTP program, run by /bin/sh in DIR;
 *   gomocup[@DIR]:COMMAND LINE   an external Gomocup brain (games with X,Y
 *       coordinates). */
typedef struct player_spec {
    player_kind kind;
    char text[1024]; /* The spec as given, for tables and records. */
    char cmd[1024];  /* External: the command line. */
    char dir[512];   /* External: working directory ("" = current). */
    options eng;     /* Internal: configuration, per-move limits, params, policy. */
} player_spec;

/* Parses a spec. Returns false with a message in err. */
bool player_parse(const char *text, player_spec *out, char *err, size_t errlen);

/* Outcomes of a request to a player. */
typedef enum player_status {
    PLAYER_OK = 0,
    PLAYER_RESIGN,  /* genmove answered resign. */
    PLAYER_ILLEGAL, /* An answer that is not a legal move, or a refused command. */
    PLAYER_CRASH,   /* The process ended or closed its pipes. */
    PLAYER_TIMEOUT  /* No answer before the deadline. */
} player_status;

typedef struct player {
    const player_spec *spec;
    const banyan_game *g;
    banyan_engine *e;  /* Internal engine. */
    net_evaluator *ev; /* Its network's evaluator (net=FILE), or NULL. */
    os_process *proc;  /* External process, NULL when none. */
    int to_fd;         /* Its stdin. */
    line_reader from;  /* Its stdout. */
    bool banyan_game;  /* It understands banyan-game. */
    unsigned coords;   /* GTP: the coordinates its vertices use (gtp_coords). */
    bool silent_pass;  /* GTP: it refused a pass, so passes are not told to it (GRhino
                          passes implicitly). */
    int n_known;       /* Gomocup: moves of the game the brain has seen. */
    int errors;        /* Gomocup: ERROR lines the brain printed (skipped). */
    double answered;   /* Gomocup: when its last answer came (monotonic s). */
    long sent_turn_ms; /* Gomocup: INFO timeout_turn and time_left last sent, -1 for */
    long sent_left_ms; /* none: INFO goes only when a value changes. */
    record rec;        /* Gomocup: the game so far. */
    FILE *log;         /* External: every line exchanged, time-stamped; NULL for none. */
    double started;    /* When it started (monotonic seconds), for the log. */
    char last[256];    /* The last answer, for messages. */
} player;

/* Starts a player for game g with the match's params and a fresh game. A
 * timeout or crash while starting is reported like one during play. log,
 * when not NULL, receives every line exchanged with an external player
 * (borrowed: the caller closes it after player_stop). */
player_status player_start(player *p, const player_spec *spec, const banyan_game *g,
                           const char *params, double timeout, FILE *log);

/* Tells an external player the game's time control, main_time seconds of
 * sudden death (Gomocup: INFO timeout_match; GTP: time_settings). Clocks
 * then come with each move request. Internal players need nothing. */
player_status player_time_control(player *p, double main_time, double timeout);

/* Tells the player that m was played in state s (the position before m). */
player_status player_play(player *p, const void *s, banyan_move m, double timeout);

/* Asks the player for a move in the position the game record rec has
 * reached, with per-move limits lim for an internal player and clock
 * (seconds left, < 0 for none) for an external one. Returns PLAYER_OK with
 * a legal move in *m (an internal player's keeps the game's superko rule;
 * the referee checks an external one's); *value receives the mover's
 * estimated value in [0, 1] when known, else -1. */
player_status player_genmove(player *p, record *rec, const banyan_limits *lim, double clock,
                             double timeout, banyan_move *m, double *value);

/* Ends the player: quit, then kill if needed; always reaps the process. */
void player_stop(player *p);

#endif /* BANYAN_PLAYER_H */
