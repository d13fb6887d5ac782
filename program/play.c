/*
 * play.c - `banyan play <game>`: a person against the engine in the
 * terminal. The board is drawn after every move; the prompt takes a move or
 * a command (undo, hint, swap, new, save, load, help, quit). Nothing typed
 * can crash it: every bad line gets one line saying why and the prompt
 * again, and end of input ends the program quietly. The game is a record
 * (record.h): undo and load replay it onto the engine, since engines never
 * undo, and save writes it as a move list, or as SGF when the file name
 * ends in .sgf and the game has an SGF number, or as Piskvork's PSQ when it
 * ends in .psq and the game has X,Y coordinates. Escape codes
 * (the live status line) are written only when stdout is a terminal.
 *
 * Pondering (on by default; --no-ponder turns it off): while the prompt
 * waits for the person, a thread of ponder.h searches the position, as long
 * as the game goes on and Banyan plays a side. The line typed (or the end
 * of input) stops and joins that search before anything else touches the
 * engine; the move the person plays then keeps its subtree, so Banyan's
 * reply starts from the thinking done meanwhile. The thread prints nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "banyan.h"
#include "cli.h"
#include "os.h"
#include "ponder.h"
#include "record.h"

#define PLAY_DEFAULT_PLAYOUTS 200000
#define PLAY_LINE_MAX         1024 /* Bytes of one input line, newline excluded. */
#define PLAY_TOP              3    /* Candidate moves shown after a search. */

typedef struct play {
    banyan_engine *e;
    const banyan_game *g;
    cli_opts o;
    record rec;                     /* The game: parameters, start, moves and their times. */
    bool human[BANYAN_MAX_PLAYERS]; /* Which players the person plays. */
    bool announced;                 /* The end of this game was announced. */
    bool tty;                       /* stdout is a terminal: draw the status line. */
    bool echo;                      /* stdin is not a terminal: echo each line read. */
    bool ponder_on;                 /* Search while the person thinks (not --no-ponder). */
    ponder pondering;               /* That search, while the prompt waits. */
} play;

/* One command of the prompt: its name, whether it takes the rest of the
 * line as an argument (a file name), and what it does. A handler returns
 * false to end the program. arg is the argument as typed (for fopen), shown
 * the same text made printable (for messages). */
typedef struct play_command {
    const char *name;
    bool takes_arg;
    bool (*run)(play *P, const char *arg, const char *shown);
} play_command;

typedef enum play_line { PLAY_LINE_OK, PLAY_LINE_LONG, PLAY_LINE_EOF } play_line;

/* Who plays player p, for messages: "you", "Banyan", or NULL when the
 * person plays every side (then naming the player is enough). */
static const char *play_who(const play *P, int p)
{
    bool all = true;
    for (int i = 0; i < P->g->n_players; i++)
        all = all && P->human[i];
    return all ? NULL : P->human[p] ? "you" : "Banyan";
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

static void play_lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

/* Reads one line from f into buf (size bytes) without its newline. A longer
 * line is read to its end all the same and reported as PLAY_LINE_LONG, so
 * that its tail is never taken for the next line. A NUL byte is stored as a
 * control character, which the line is then refused for, rather than
 * silently cutting the line short. A last line without a newline counts;
 * PLAY_LINE_EOF means there was nothing left to read. */
static play_line play_read_line(FILE *f, char *buf, size_t size)
{
    size_t n = 0;
    bool too_long = false;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 1 < size)
            buf[n++] = c ? (char)c : '\x01';
        else
            too_long = true;
    }
    buf[n] = 0;
    if (c == EOF && n == 0 && !too_long)
        return PLAY_LINE_EOF;
    return too_long ? PLAY_LINE_LONG : PLAY_LINE_OK;
}

/* Length of the valid UTF-8 character at p, or 0 when p does not start
 * one. Only the structure is checked (lead byte, continuation bytes), which
 * is all that is needed to step over a character as a whole. */
static int play_utf8_length(const unsigned char *p)
{
    int n = p[0] >= 0xc2 && p[0] <= 0xdf   ? 2
            : p[0] >= 0xe0 && p[0] <= 0xef ? 3
            : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4
                                           : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Rewrites s in place as printable ASCII. Full-width forms U+FF01..U+FF5E
 * become their ASCII twins (the code point minus 0xFEE0), the ideographic
 * space U+3000, tabs and carriage returns become spaces, and anything else
 * that is not printable ASCII (control characters, other characters,
 * invalid UTF-8) becomes one '?', so the line is safe to echo and is
 * refused as gibberish. The text never grows. */
static void play_normalise(char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char *q = s;
    while (*p) {
        if (p[0] == 0xef && p[1] == 0xbc && p[2] >= 0x81 && p[2] <= 0xbf) {
            *q++ = (char)(p[2] - 0x60); /* U+FF01..U+FF3F: '!' .. '_'. */
            p += 3;
        } else if (p[0] == 0xef && p[1] == 0xbd && p[2] >= 0x80 && p[2] <= 0x9e) {
            *q++ = (char)(p[2] - 0x20); /* U+FF40..U+FF5E: '`' .. '~'. */
            p += 3;
        } else if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80) {
            *q++ = ' ';
            p += 3;
        } else if (p[0] == '\t' || p[0] == '\r') {
            *q++ = ' ';
            p++;
        } else if (p[0] >= 0x20 && p[0] < 0x7f) {
            *q++ = (char)*p++;
        } else {
            int n = p[0] >= 0x80 ? play_utf8_length(p) : 0;
            *q++ = '?';
            p += n ? n : 1;
        }
    }
    *q = 0;
}

/* The argument of a command in the raw line: everything after the first
 * word, trimmed, so file names may hold spaces. Points into line. */
static char *play_raw_arg(char *line)
{
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    while (*p && !isspace((unsigned char)*p))
        p++;
    return play_trim(p);
}

/* Rebuilds the engine's position: the record's first n moves (the later
 * ones are dropped). */
static void play_replay(play *P, int n)
{
    record_undo(&P->rec, P->rec.n_moves - n);
    record_replay(&P->rec, P->e, n);
    P->announced = false;
}

/* The last move of the game, or BANYAN_MOVE_NONE. */
static banyan_move play_last(const play *P)
{
    return P->rec.n_moves ? P->rec.moves[P->rec.n_moves - 1].move : BANYAN_MOVE_NONE;
}

static bool play_is_over(const play *P)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    return P->g->moves(banyan_engine_state(P->e), moves) == 0;
}

/* Draws the board with the last move marked, and says whose turn it is. */
static void play_show(const play *P)
{
    const void *s = banyan_engine_state(P->e);
    cli_print_board(stdout, P->g, s, play_last(P));
    if (!play_is_over(P)) {
        int p = P->g->to_move(s);
        const char *who = play_who(P, p);
        printf("%s to move%s%s%s\n", banyan_game_player(P->g, p), who ? " (" : "", who ? who : "",
               who ? ")" : "");
    }
}

/* A short reminder with an example move, used by help and after gibberish. */
static const char *play_example(const play *P)
{
    banyan_move moves[BANYAN_MAX_MOVES];
    const void *s = banyan_engine_state(P->e);
    int n = P->g->moves(s, moves);
    return n ? cli_move(P->g, s, moves[n / 2]) : "-";
}

/* The example move written in the other systems the game's description
 * lists (GTP's letters, Gomocup's X,Y, a column's number), for help. */
static void play_other_forms(const play *P, char *out, size_t len)
{
    banyan_move moves[BANYAN_MAX_MOVES], m;
    const void *s = banyan_engine_state(P->e);
    char native[64], form[64];
    size_t used = 0;
    int x = 0, y = 0, n = P->g->moves(s, moves);
    out[0] = 0;
    if (n == 0 || banyan_game_parse(P->g, s, 0, play_example(P), &m) != BANYAN_OK)
        return;
    snprintf(native, sizeof native, "%s", play_example(P));
    for (unsigned c = BANYAN_COORDS_GTP; c <= BANYAN_COORDS_COLUMN; c <<= 1) {
        if (!((P->g->board ? P->g->board->coords : 0) & c) || c == BANYAN_COORDS_SGF)
            continue;
        if (c == BANYAN_COORDS_COLUMN && P->g->board->place(s, m, &x, &y) == BANYAN_PLACE_COLUMN)
            snprintf(form, sizeof form, "%d", x + 1);
        else if (banyan_game_format(P->g, s, m, c, form, sizeof form) < 0)
            continue;
        if (strcasecmp(form, native) != 0 && used + strlen(form) + 3 < len)
            used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", form);
    }
}

static bool play_help(play *P, const char *arg, const char *shown)
{
    char others[128];
    (void)arg, (void)shown;
    play_other_forms(P, others, sizeof others);
    printf("Type a move (for example %s%s%s) or a command:\n", play_example(P),
           others[0] ? "; also written " : "", others);
    printf("  undo        take back your last move and Banyan's reply\n"
           "  hint        show the move Banyan would play, without playing it\n"
           "  swap        Banyan takes over the side to move; you play the other\n"
           "  new         start a new game\n"
           "  save FILE   write the game to FILE\n"
           "  load FILE   read a game written by save\n"
           "  help        this list\n"
           "  quit        leave (end of input does too)\n");
    return true;
}

/* What the status line needs: the game and the root state, which the
 * search reads but never changes. */
typedef struct play_watch {
    const banyan_game *g;
    const void *s;
} play_watch;

/* Called by the searching thread a few times a second while stdout is a
 * terminal: redraws one status line in place. */
static void play_progress(void *ud, const banyan_report *r)
{
    const play_watch *w = ud;
    printf("\r\033[K  %.1f s  %llu playouts  %.0f/s  best %s %.1f%%", r->seconds,
           (unsigned long long)r->playouts, r->seconds > 0 ? (double)r->playouts / r->seconds : 0.0,
           r->best == BANYAN_MOVE_NONE ? "-" : cli_move(w->g, w->s, r->best), 100 * r->value);
    fflush(stdout);
}

/* Searches the root within the options' limits (200000 playouts when none
 * is given, fewer on boards above 81 cells: options_default_playouts) and fills *r, whose moves
 * stay valid until the next engine call. On a terminal the status line is drawn meanwhile and
 * cleared after. */
static void play_think(play *P, banyan_report *r)
{
    banyan_limits lim = P->o.eng.lim;
    play_watch w = {P->g, banyan_engine_state(P->e)};
    if (!lim.playouts && lim.time <= 0 && !lim.nodes)
        lim.playouts = options_default_playouts(P->g, w.s, PLAY_DEFAULT_PLAYOUTS);
    if (P->tty) {
        lim.progress = play_progress;
        lim.progress_ud = &w;
        lim.progress_interval = 0.2;
    }
    banyan_engine_search(P->e, &lim, r);
    if (P->tty) {
        printf("\r\033[K");
        fflush(stdout);
    }
}

/* Prints the principal variation of m from s, each move formatted in the
 * position where it is played (on a scratch copy), since notation may
 * depend on it. */
static void play_print_pv(play *P, const void *s, const banyan_move_stats *m)
{
    memcpy(P->rec.scratch, s, P->g->state_size);
    printf("  line:");
    for (int k = 0; k < m->pv_len; k++) {
        printf(" %s", cli_move(P->g, P->rec.scratch, m->pv[k]));
        P->g->play(P->rec.scratch, m->pv[k]);
    }
    printf("\n");
}

/* The best candidates of a search from s with visits, win rates and
 * proofs, then the principal variation of the move to play. s is taken
 * before the search: r's moves are valid only until the next engine call. */
static void play_show_search(play *P, const void *s, const banyan_report *r)
{
    const banyan_move_stats *best = NULL;
    for (int i = 0; i < r->n_moves && i < PLAY_TOP; i++) {
        const banyan_move_stats *m = &r->moves[i];
        printf("  %-5s %9u visits  %5.1f%%%s%s\n", cli_move(P->g, s, m->move), m->visits,
               100 * m->value, m->proof ? "  proven " : "", m->proof ? cli_proof_plies(m) : "");
    }
    for (int i = 0; i < r->n_moves; i++)
        if (r->moves[i].move == r->best)
            best = &r->moves[i];
    if (best)
        play_print_pv(P, s, best);
}

/* The engine's turn: search, report, play. */
static void play_engine_turn(play *P)
{
    banyan_report r = BANYAN_REPORT();
    const void *s = banyan_engine_state(P->e);
    printf("Banyan is thinking...\n");
    fflush(stdout);
    play_think(P, &r);
    printf("Banyan plays %s (win rate %.1f%%, %llu playouts, %.2f s%s%s)\n",
           cli_move(P->g, s, r.best), 100 * r.value, (unsigned long long)r.playouts, r.seconds,
           r.proof ? ", proven " : "",
           r.proof ? (r.n_moves ? cli_proof_plies(&r.moves[0]) : cli_proof(r.proof)) : "");
    play_show_search(P, s, &r);
    char eval[64];
    snprintf(eval, sizeof eval, "value %.3f, %llu playouts%s%s", r.value,
             (unsigned long long)r.playouts, r.proof ? ", proven " : "",
             r.proof ? cli_proof(r.proof) : "");
    banyan_move m = record_pick(&P->rec, &r);
    if (m != r.best)
        printf("(%s would repeat an earlier position: Banyan plays %s)\n",
               cli_move(P->g, s, r.best), cli_move(P->g, s, m));
    if (record_push(&P->rec, m, r.seconds, eval) != BANYAN_OK) {
        printf("Out of memory: the game cannot go on; type new, save FILE or quit.\n");
        P->announced = true;
        return;
    }
    banyan_engine_play(P->e, m);
    play_show(P);
}

/* " with d5 e5 f5 g5 h5": the cells of the winning line (drawn in lower
 * case on the board) in the game's notation, where they are moves; "" when
 * the game was not won by a line of cells. */
static const char *play_win_line(const play *P, char *buf, size_t len)
{
    const void *s = banyan_engine_state(P->e);
    int x[64], y[64], n = banyan_game_win_line(P->g, s, x, y, 64);
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used < len; i++) {
        banyan_move m;
        if (P->g->board->place_move(s, BANYAN_PLACE_CELL, x[i], y[i], &m) != BANYAN_OK)
            return "";
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : " with ",
                                 cli_move(P->g, s, m));
    }
    return buf;
}

/* Announces the result once per game: the result as the game scores it
 * (the winner and the margin: "White wins by 6.5 points"), whether that
 * was the person or Banyan, and the line that won; then what can still be
 * typed. */
static void play_announce_end(play *P)
{
    const void *s = banyan_engine_state(P->e);
    double ret[BANYAN_MAX_PLAYERS];
    char result[160], line[512];
    const char *who = NULL;
    P->announced = true;
    banyan_game_result(P->g, s, BANYAN_RESULT_TEXT, result, sizeof result);
    if (P->g->n_players == 2 && P->g->outcome(s, ret) && ret[0] != ret[1])
        who = play_who(P, ret[0] > ret[1] ? 0 : 1);
    if (P->g->n_players != 2 && result[0]) {
        /* "game over, a score of 42 moves": a sentence of its own. */
        result[0] = (char)toupper((unsigned char)result[0]);
        printf("%s.\n", result);
    } else {
        printf("Game over%s%s%s%s%s%s.\n", result[0] ? ": " : "", result, who ? " (" : "",
               who ? who : "", who ? ")" : "", play_win_line(P, line, sizeof line));
    }
    printf("Type new for another game, undo, save FILE, or quit.\n");
}

/* Takes back to the person's previous turn: the latest earlier position in
 * which a side the person plays is to move (so the person's last move and
 * Banyan's reply go, or just the last move when it ended the game). */
static bool play_undo(play *P, const char *arg, const char *shown)
{
    (void)arg, (void)shown;
    int n = P->rec.n_moves - 1;
    while (n >= 0 && !P->human[P->g->to_move(record_before(&P->rec, n))])
        n--;
    if (n < 0) {
        printf("Nothing to undo.\n");
        return true;
    }
    play_replay(P, n);
    play_show(P);
    return true;
}

static bool play_hint(play *P, const char *arg, const char *shown)
{
    (void)arg, (void)shown;
    banyan_report r = BANYAN_REPORT();
    const void *s = banyan_engine_state(P->e);
    if (play_is_over(P)) {
        printf("The game is over: there is no move to hint.\n");
        return true;
    }
    play_think(P, &r);
    printf("Hint: %s (win rate %.1f%%)\n", cli_move(P->g, s, r.best), 100 * r.value);
    play_show_search(P, s, &r);
    return true;
}

/* Banyan takes over the side to move and the person every other side. */
static bool play_swap(play *P, const char *arg, const char *shown)
{
    (void)arg, (void)shown;
    int humans = 0, p = P->g->to_move(banyan_engine_state(P->e));
    for (int i = 0; i < P->g->n_players; i++)
        humans += P->human[i];
    if (humans == 0 || humans == P->g->n_players) {
        printf("swap does not apply: %s.\n",
               humans ? "you play every side" : "Banyan plays every side");
        return true;
    }
    for (int i = 0; i < P->g->n_players; i++)
        P->human[i] = i != p;
    printf("Swapped: Banyan plays %s, you play the other side.\n", banyan_game_player(P->g, p));
    return true;
}

static bool play_new(play *P, const char *arg, const char *shown)
{
    (void)arg, (void)shown;
    play_replay(P, 0);
    printf("New game.\n");
    play_show(P);
    return true;
}

/* The format a file name asks for: SGF for .sgf, Piskvork's PSQ for .psq,
 * else the plain move list. */
static record_format play_format(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && !strcasecmp(path + n - 4, ".sgf"))
        return RECORD_SGF;
    return n > 4 && !strcasecmp(path + n - 4, ".psq") ? RECORD_PSQ : RECORD_TEXT;
}

/* Writes the record (record.h) in the format its name asks for. */
static bool play_save(play *P, const char *arg, const char *shown)
{
    record_format fmt = play_format(arg);
    if (fmt == RECORD_SGF && !(P->g->board ? P->g->board->sgf_game : 0)) {
        printf("%s has no SGF form: save to a name without .sgf.\n", P->g->name);
        return true;
    }
    if (fmt == RECORD_PSQ && !((P->g->board ? P->g->board->coords : 0) & BANYAN_COORDS_XY)) {
        printf("%s has no PSQ form: save to a name without .psq.\n", P->g->name);
        return true;
    }
    if (fmt == RECORD_PSQ && P->rec.start) {
        printf("PSQ has no start position: save to a name without .psq.\n");
        return true;
    }
    FILE *f = fopen(arg, "w");
    if (!f) {
        printf("Cannot write \"%s\": %s.\n", shown, strerror(errno));
        return true;
    }
    int rc = record_save(&P->rec, f, fmt);
    bool failed = rc != BANYAN_OK;
    int err = rc == BANYAN_EINVAL ? EINVAL : errno; /* PSQ: a move with no X,Y (a pass). */
    if (fclose(f) != 0 && !failed) {
        failed = true;
        err = errno;
    }
    if (failed)
        printf("Cannot write \"%s\": %s.\n", shown, strerror(err));
    else
        printf("Saved %d moves to \"%s\".\n", P->rec.n_moves, shown);
    return true;
}

/* Replaces the game by the record in a file written by save (or any SGF of
 * this game). The whole file is checked first: on any error the message
 * says where, and the game goes on as it was. */
static bool play_load(play *P, const char *arg, const char *shown)
{
    record rec;
    char err[256];
    if (record_load_file(&rec, P->g, arg, err, sizeof err) != BANYAN_OK) {
        printf("Cannot load \"%s\": %s; the game goes on.\n", shown, err);
        return true;
    }
    if (record_replay(&rec, P->e, rec.n_moves) != BANYAN_OK) {
        printf("Cannot load \"%s\": the engine refuses its game; the game goes on.\n", shown);
        record_free(&rec);
        record_replay(&P->rec, P->e, P->rec.n_moves);
        return true;
    }
    record_free(&P->rec);
    P->rec = rec;
    P->announced = false;
    printf("Loaded %d moves from \"%s\".\n", rec.n_moves, shown);
    play_show(P);
    return true;
}

static bool play_quit(play *P, const char *arg, const char *shown)
{
    (void)P, (void)arg, (void)shown;
    return false;
}

/* The prompt's commands; "?" and "exit" are aliases of help and quit. */
static const play_command play_commands[] = {
    {"?", false, play_help},    {"exit", false, play_quit}, {"help", false, play_help},
    {"hint", false, play_hint}, {"load", true, play_load},  {"new", false, play_new},
    {"quit", false, play_quit}, {"save", true, play_save},  {"swap", false, play_swap},
    {"undo", false, play_undo},
};

static const play_command *play_find_command(const char *word, size_t len)
{
    for (size_t i = 0; i < sizeof play_commands / sizeof play_commands[0]; i++)
        if (strlen(play_commands[i].name) == len && !strncmp(play_commands[i].name, word, len))
            return &play_commands[i];
    return NULL;
}

/* Parses t as a move at the root: in the game's own notation, else as a
 * move of the board in a coordinate system its description lists (so "c3"
 * or "3,4" work where the notation is another). Returns parse_move's codes
 * (those of the own notation when no system names a move of the board),
 * and BANYAN_EILLEGAL for a move that is not legal now. */
static int play_parse(play *P, const char *t, banyan_move *m)
{
    const void *s = banyan_engine_state(P->e);
    int rc = banyan_game_parse(P->g, s, 0, t, m);
    for (unsigned c = 1; rc == BANYAN_EINVAL && c <= (P->g->board ? P->g->board->coords : 0);
         c <<= 1)
        if (((P->g->board ? P->g->board->coords : 0) & c) &&
            banyan_game_parse(P->g, s, c, t, m) == BANYAN_OK)
            rc = BANYAN_OK;
    if (rc != BANYAN_OK)
        return rc;
    return banyan_game_is_legal(P->g, s, *m) ? BANYAN_OK : BANYAN_EILLEGAL;
}

/* Plays the person's move t (normalised, lower case), or says in one line
 * why it cannot be played, naming it as typed (the same text before lower
 * case). A word of three or more letters that is no move is taken for a
 * mistyped command. */
static void play_try_move(play *P, const char *t, const char *typed)
{
    banyan_move m;
    if (play_is_over(P)) {
        printf("The game is over: type new, undo, or quit.\n");
        return;
    }
    int rc = play_parse(P, t, &m);
    size_t letters = strspn(t, "abcdefghijklmnopqrstuvwxyz");
    char why[128];
    if (rc == BANYAN_EINVAL &&
        banyan_game_parse_why(P->g, banyan_engine_state(P->e), 0, t, why, sizeof why) > 0)
        printf("%s.\n", why);
    else if (rc == BANYAN_ERANGE)
        printf("%s is off the board.\n", typed);
    else if (rc == BANYAN_EILLEGAL) {
        banyan_game_explain(P->g, banyan_engine_state(P->e), m, why, sizeof why);
        printf("%s %s.\n", typed, why);
    } else if (rc != BANYAN_OK && letters >= 3 && (!t[letters] || t[letters] == ' '))
        printf("Unknown command \"%.*s\": type help for the commands.\n", (int)letters, typed);
    else if (rc != BANYAN_OK)
        printf("\"%s\" is not a move: type a move (for example %s), or help.\n", typed,
               play_example(P));
    else if (record_repeats(&P->rec, m))
        printf("%s repeats an earlier position (superko).\n", typed);
    else if (record_push(&P->rec, m, -1, NULL) != BANYAN_OK)
        printf("Out of memory: the game cannot go on; type new, save FILE or quit.\n");
    else {
        banyan_engine_play(P->e, m);
        play_show(P);
    }
}

/* Reads and carries out one line from the person. Returns false at the end
 * of input or on quit. */
static bool play_prompt(play *P)
{
    char raw[PLAY_LINE_MAX], text[PLAY_LINE_MAX], shown[PLAY_LINE_MAX], typed[PLAY_LINE_MAX];
    const void *s = banyan_engine_state(P->e);
    if (play_is_over(P))
        printf("> ");
    else
        printf("%s> ", banyan_game_player(P->g, P->g->to_move(s)));
    fflush(stdout);
    bool banyan_plays = false;
    for (int i = 0; i < P->g->n_players; i++)
        banyan_plays = banyan_plays || !P->human[i];
    if (P->ponder_on && banyan_plays && !play_is_over(P))
        ponder_start(&P->pondering, P->e);
    play_line status = play_read_line(stdin, raw, sizeof raw);
    ponder_stop(&P->pondering);
    if (status == PLAY_LINE_EOF) {
        printf("\n");
        return false;
    }
    if (status == PLAY_LINE_LONG) {
        printf("%sThat line is too long (over %d characters): type a move, or help.\n",
               P->echo ? "\n" : "", PLAY_LINE_MAX - 1);
        return true;
    }
    strcpy(text, raw);
    play_normalise(text);
    char *t = play_trim(text);
    if (P->echo)
        printf("%s\n", t); /* A transcript of scripted input reads like a session. */
    strcpy(typed, t);
    play_lower(t);
    if (!*t) {
        printf("Empty line: type a move, or help.\n");
        return true;
    }
    size_t word = strcspn(t, " ");
    const play_command *c = play_find_command(t, word);
    /* A '?' that normalising made of a character it could not show (an
     * Arabic-Indic digit, say) is no call for help. */
    if (c && t[0] == '?' && !strchr(raw, '?'))
        c = NULL;
    if (!c) {
        play_try_move(P, t, typed);
        return true;
    }
    char *arg = play_raw_arg(raw);
    if (c->takes_arg && !*arg) {
        printf("%s needs a file name, as in: %s game.txt\n", c->name, c->name);
        return true;
    }
    if (!c->takes_arg && *arg) {
        printf("%s takes nothing after it: type just %s.\n", c->name, c->name);
        return true;
    }
    strcpy(shown, arg);
    play_normalise(shown);
    return c->run(P, arg, shown);
}

/* "You play Red (X on the board).": the side the person plays, by the
 * player's name and, where the game has a board, the mark the diagram
 * draws for its pieces (X for the first player, O for the second) when
 * that differs from the name; or "both sides", or none. */
static const char *play_sides(const play *P, char *buf, size_t len)
{
    int p = P->human[0] ? 0 : 1;
    if (P->g->n_players == 1)
        snprintf(buf, len, "%s", P->human[0] ? "You play." : "Banyan plays.");
    else if (P->human[0] && P->human[1])
        snprintf(buf, len, "You play both sides.");
    else if (!P->human[0] && !P->human[1])
        snprintf(buf, len, "Banyan plays both sides.");
    else if (P->g->board && strcmp(banyan_game_player(P->g, p), p ? "O" : "X") != 0)
        snprintf(buf, len, "You play %s (%s on the board).", banyan_game_player(P->g, p),
                 p ? "O" : "X");
    else
        snprintf(buf, len, "You play %s.", banyan_game_player(P->g, p));
    return buf;
}

/* Sets the sides from --human (first by default) and the start position
 * from the options; prints a message and returns false on failure. */
static bool play_init(play *P)
{
    const char *h = P->o.human ? P->o.human : "first";
    P->human[0] = !strcmp(h, "first") || !strcmp(h, "both");
    P->human[1] = !strcmp(h, "second") || !strcmp(h, "both");
    P->tty = os_is_terminal(STDOUT_FILENO);
    P->echo = !os_is_terminal(STDIN_FILENO);
    P->ponder_on = P->o.eng.ponder != 0;
    char err[256], params[512];
    cli_params(&P->o, params, sizeof params);
    if (record_init(&P->rec, P->g, params, P->o.position, err, sizeof err) != BANYAN_OK) {
        fprintf(stderr, "banyan: %s\n", err);
        return false;
    }
    play_replay(P, 0);
    return true;
}

int cli_play(int argc, char **argv)
{
    static play P; /* One game per process. */
    int rc = 0;
    if (!cli_parse(argc, argv, 2, &P.o))
        return 2;
    if (!cli_game(&P.o, "usage: banyan play <game> [options]   (games: banyan games)"))
        return 2;
    P.g = P.o.game;
    P.e = cli_engine(&P.o);
    if (!P.e)
        return 1;
    if (!play_init(&P)) {
        rc = 1;
        goto done;
    }
    char side[96];
    printf("Banyan %s: %s. %s Type help for commands.\n", banyan_version(),
           P.g->title ? P.g->title : P.g->name, play_sides(&P, side, sizeof side));
    play_show(&P);
    for (;;) {
        bool over = play_is_over(&P);
        if (over && !P.announced)
            play_announce_end(&P);
        if (!over && !P.human[P.g->to_move(banyan_engine_state(P.e))] && !P.announced)
            play_engine_turn(&P);
        else if (!play_prompt(&P))
            break;
        fflush(stdout);
    }
done:
    cli_engine_free(P.e);
    record_free(&P.rec);
    return rc;
}
