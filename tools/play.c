/*
 * play.c - `banyan play <game>`: a person against the engine in the
 * terminal. The board is drawn after every move; the prompt takes a move or
 * a command (undo, hint, help, quit). Nothing typed can crash it: every bad
 * line gets one line saying why and the prompt again, and end of input ends
 * the game quietly. Undo replays the game from the start, since states are
 * plain bytes and engines never undo.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "cli.h"

#define PLAY_MAX_PLIES        4096
#define PLAY_DEFAULT_PLAYOUTS 200000

typedef struct play {
    banyan_engine *e;
    const banyan_game *g;
    cli_opts o;
    banyan_move history[PLAY_MAX_PLIES]; /* Moves played from the start. */
    int n_history;
    bool human[BANYAN_MAX_PLAYERS]; /* Which players the person plays. */
} play;

static const char *play_player_name(const banyan_game *g, int p)
{
    static const char *two[] = {"X", "O"};
    static const char *many[] = {"player 1", "player 2", "player 3", "player 4"};
    return g->n_players == 2 ? two[p] : many[p];
}

/* Trims spaces at both ends, in place, and returns the start. */
static char *play_trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Rebuilds the engine's position from the start and the first n moves. */
static void play_replay(play *P, int n)
{
    banyan_engine_setup(P->e, P->o.params);
    if (P->o.position)
        banyan_engine_load(P->e, P->o.position);
    for (int i = 0; i < n; i++)
        banyan_engine_play(P->e, P->history[i]);
    P->n_history = n;
}

static void play_help(const play *P)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    const void *s = banyan_engine_state(P->e);
    int n = P->g->moves(s, moves);
    printf("Type a move (for example %s), or: undo, hint, help, quit.\n",
           n ? cli_move(P->g, s, moves[n / 2]) : "-");
}

/* Searches the root and returns the report; the moves stay valid until the
 * next engine call. */
static void play_think(play *P, banyan_report *r)
{
    banyan_limits lim = P->o.limits;
    if (!lim.playouts && lim.time <= 0 && !lim.nodes)
        lim.playouts = PLAY_DEFAULT_PLAYOUTS;
    banyan_engine_search(P->e, &lim, r);
}

static void play_show_search(const play *P, const banyan_report *r)
{
    const void *s = banyan_engine_state(P->e);
    for (int i = 0; i < r->n_moves && i < 3; i++) {
        const banyan_move_stats *m = &r->moves[i];
        printf("  %-5s %5.1f%%  %8u visits%s%s\n", cli_move(P->g, s, m->move), 100 * m->value,
               m->visits, m->proof ? "  proven " : "", m->proof ? cli_proof(m->proof) : "");
    }
}

/* Reads and carries out one line from the person. Returns false at the end
 * of input or on quit. */
static bool play_human_turn(play *P)
{
    char line[1024];
    const void *s = banyan_engine_state(P->e);
    printf("%s to move> ", play_player_name(P->g, P->g->to_move(s)));
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) {
        printf("\n");
        return false;
    }
    if (!strchr(line, '\n') && !feof(stdin)) {
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            ;
        printf("That line is too long; type a move, or help.\n");
        return true;
    }
    char *t = play_trim(line);
    for (char *c = t; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!*t) {
        printf("Empty line: type a move, or help.\n");
        return true;
    }
    if (!strcmp(t, "quit") || !strcmp(t, "exit"))
        return false;
    if (!strcmp(t, "help") || !strcmp(t, "?")) {
        play_help(P);
        return true;
    }
    if (!strcmp(t, "undo")) {
        /* Take back to the person's previous turn. */
        int n = P->n_history;
        do {
            n--;
            play_replay(P, n < 0 ? 0 : n);
        } while (n > 0 && !P->human[P->g->to_move(banyan_engine_state(P->e))]);
        if (n < 0)
            printf("Nothing to undo.\n");
        cli_print_board(stdout, P->g, banyan_engine_state(P->e),
                        P->n_history ? P->history[P->n_history - 1] : BANYAN_MOVE_NONE);
        return true;
    }
    if (!strcmp(t, "hint")) {
        banyan_report r;
        play_think(P, &r);
        printf("Hint: %s\n", cli_move(P->g, s, r.best));
        play_show_search(P, &r);
        return true;
    }
    banyan_move m;
    int rc = banyan_engine_parse_move(P->e, t, &m);
    if (rc == BANYAN_ERANGE) {
        printf("%s is off the board.\n", t);
    } else if (rc == BANYAN_EILLEGAL) {
        printf("%s is not legal here (taken or full).\n", t);
    } else if (rc != BANYAN_OK) {
        printf("\"%s\" is not a move. ", t);
        play_help(P);
    } else if (P->n_history == PLAY_MAX_PLIES) {
        printf("The game is too long to go on.\n");
        return false;
    } else {
        banyan_engine_play(P->e, m);
        P->history[P->n_history++] = m;
        cli_print_board(stdout, P->g, banyan_engine_state(P->e), m);
    }
    return true;
}

static void play_engine_turn(play *P)
{
    banyan_report r;
    const void *s = banyan_engine_state(P->e);
    printf("Banyan is thinking...\n");
    fflush(stdout);
    play_think(P, &r);
    printf("Banyan plays %s (win rate %.1f%%, %llu playouts, %.2f s%s%s)\n",
           cli_move(P->g, s, r.best), 100 * r.value, (unsigned long long)r.playouts, r.seconds,
           r.proof ? ", proven " : "", r.proof ? cli_proof(r.proof) : "");
    play_show_search(P, &r);
    banyan_engine_play(P->e, r.best);
    P->history[P->n_history++] = r.best;
    cli_print_board(stdout, P->g, banyan_engine_state(P->e), r.best);
}

static void play_announce_end(const play *P)
{
    double ret[BANYAN_MAX_PLAYERS];
    const void *s = banyan_engine_state(P->e);
    P->g->outcome(s, ret);
    if (P->g->n_players == 2 && ret[0] == ret[1])
        printf("Game over: a draw.\n");
    else if (P->g->n_players == 2)
        printf("Game over: %s wins (%s).\n", play_player_name(P->g, ret[0] > ret[1] ? 0 : 1),
               P->human[ret[0] > ret[1] ? 0 : 1] ? "you" : "Banyan");
    else
        printf("Game over.\n");
}

int cli_play(int argc, char **argv)
{
    static play P; /* Large history; one game per process. */
    if (!cli_parse(argc, argv, 2, &P.o))
        return 2;
    if (!P.o.game && P.o.n_args > 0)
        P.o.game = banyan_game_find(P.o.args[0]);
    if (!P.o.game) {
        fprintf(stderr, "usage: banyan play <game> [options]   (games: banyan games)\n");
        return 2;
    }
    P.g = P.o.game;
    P.e = cli_engine(&P.o);
    if (!P.e)
        return 1;
    const char *h = P.o.human ? P.o.human : "first";
    P.human[0] = !strcmp(h, "first") || !strcmp(h, "both");
    P.human[1] = !strcmp(h, "second") || !strcmp(h, "both");

    printf("Banyan %s: %s. You play %s. Type help for commands.\n", banyan_version(), P.g->name,
           P.human[0] && P.human[1] ? "both sides"
           : P.human[0]             ? "first (X)"
           : P.human[1]             ? "second (O)"
                                    : "no side");
    cli_print_board(stdout, P.g, banyan_engine_state(P.e), BANYAN_MOVE_NONE);
    for (;;) {
        const void *s = banyan_engine_state(P.e);
        banyan_move moves[BANYAN_MAX_MOVES];
        if (P.g->moves(s, moves) == 0) {
            play_announce_end(&P);
            break;
        }
        if (P.human[P.g->to_move(s)]) {
            if (!play_human_turn(&P))
                break;
        } else {
            play_engine_turn(&P);
        }
        fflush(stdout);
    }
    banyan_engine_free(P.e);
    return 0;
}
