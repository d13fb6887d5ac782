/*
 * player.c - players for `banyan match` (see player.h).
 *
 * An external player is a child process in its own process group, started
 * by os_spawn() (through /bin/sh on POSIX, so that a command line with
 * arguments works as typed). Requests are GTP commands; an answer is read
 * line by line until its terminating empty line, and every read waits
 * (os_wait_input) against an absolute deadline, so a silent engine becomes
 * PLAYER_TIMEOUT and a dead one PLAYER_CRASH (the referee ignores SIGPIPE).
 * Stopping sends quit, waits briefly, then kills the whole group and reaps
 * it.
 */
#include "dist.h"
#include "player.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "gomocup.h"
#include "gtp.h"
#include "os.h"

static double player_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Specs ---- */

bool player_parse(const char *text, player_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "%s", text);
    if (!strncmp(text, "banyan:", 7) || !strcmp(text, "banyan")) {
        out->kind = PLAYER_INTERNAL;
        options_init(&out->eng);
        const char *cur = text[6] ? text + 7 : "";
        char key[64], val[256], why[200];
        int rc;
        /* Commas separate options; params values use ';' inside. */
        while ((rc = banyan_params_next(&cur, key, sizeof key, val, sizeof val)) == 1)
            if (options_set(&out->eng, key, val, OPTIONS_PLAYER, why, sizeof why) != BANYAN_OK) {
                snprintf(err, errlen, "%s in \"%s\"", why, text);
                return false;
            }
        if (rc < 0) {
            snprintf(err, errlen, "malformed options in \"%s\"", text);
            return false;
        }
        return true;
    }
    static const struct {
        const char *name;
        player_kind kind;
    } kinds[] = {{"gtp", PLAYER_GTP}, {"gomocup", PLAYER_GOMOCUP}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t len = strlen(kinds[k].name);
        if (strncmp(text, kinds[k].name, len) || (text[len] != ':' && text[len] != '@'))
            continue;
        const char *colon = strchr(text + len, ':');
        if (!colon || !colon[1]) {
            snprintf(err, errlen, "no command line in \"%s\"", text);
            return false;
        }
        out->kind = kinds[k].kind;
        if (text[len] == '@')
            snprintf(out->dir, sizeof out->dir, "%.*s", (int)(colon - text - len - 1),
                     text + len + 1);
        snprintf(out->cmd, sizeof out->cmd, "%s", colon + 1);
        return true;
    }
    snprintf(err, errlen, "\"%s\" is not banyan:..., gtp[@DIR]:COMMAND or gomocup[@DIR]:COMMAND",
             text);
    return false;
}

/* ---- External processes ---- */

/* Sends one line. */
/* Writes one line exchanged with the player to its log, when it has one:
 * seconds since the player started, the direction, the line. */
static void player_log(player *p, const char *dir, const char *line)
{
    if (!p->log)
        return;
    int n = (int)strcspn(line, "\r\n");
    fprintf(p->log, "%9.3f %s %.*s\n", player_now() - p->started, dir, n, line);
    fflush(p->log);
}

static player_status player_send(player *p, const char *line)
{
    size_t n = strlen(line), off = 0;
    player_log(p, ">", line);
    while (off < n) {
        ptrdiff_t w = os_write(p->to_fd, line + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return PLAYER_CRASH;
        off += (size_t)w;
    }
    return PLAYER_OK;
}

/* Reads one line (without CR or LF) before the deadline. */
static player_status player_read_line(player *p, double deadline, char *line, size_t len)
{
    bool too_long;
    while (!line_ready(&p->from)) {
        double left = deadline - player_now();
        if (left <= 0)
            return PLAYER_TIMEOUT;
        int ms = left > 1 ? 1000 : (int)(left * 1000) + 1;
        if (os_wait_input(p->from.fd, ms) < 0 && errno != EINTR)
            return PLAYER_CRASH;
    }
    if (!line_next(&p->from, line, len, &too_long)) {
        player_log(p, "#", "end of output");
        return PLAYER_CRASH;
    }
    line[strcspn(line, "\r")] = 0;
    player_log(p, "<", line);
    return PLAYER_OK;
}

/* Reads one GTP answer before the deadline: lines up to the empty line
 * that ends a response starting with '=' or '?'. Other lines (some engines
 * print banners) are skipped. The answer's first line, without "=" or "?"
 * and id, goes to p->last; *ok says which it was. */
static player_status player_answer(player *p, double deadline, bool *ok)
{
    char line[LINE_BUF];
    bool started = false;
    for (;;) {
        player_status st = player_read_line(p, deadline, line, sizeof line);
        if (st != PLAYER_OK)
            return st;
        if (!started) {
            if (line[0] != '=' && line[0] != '?')
                continue;
            started = true;
            *ok = line[0] == '=';
            const char *t = line + 1;
            while (isdigit((unsigned char)*t))
                t++;
            while (*t == ' ')
                t++;
            snprintf(p->last, sizeof p->last, "%.255s", t);
        } else if (!line[0]) {
            return PLAYER_OK;
        }
    }
}

/* Sends a command and waits for its answer; a '?' answer is PLAYER_ILLEGAL. */
static player_status player_command(player *p, const char *cmd, double timeout)
{
    char line[1200];
    bool ok = false;
    snprintf(line, sizeof line, "%s\n", cmd);
    player_status st = player_send(p, line);
    if (st == PLAYER_OK)
        st = player_answer(p, player_now() + timeout, &ok);
    return st != PLAYER_OK ? st : ok ? PLAYER_OK : PLAYER_ILLEGAL;
}

/* Whether an environment entry is one of those an MPI launcher gives the
 * processes of its job (Open MPI's OMPI_* and PMIX_*, MPICH's PMI_*,
 * HYDRA_* and MPI_LOCAL*): a player is no process of the referee's job,
 * and a `banyan` player that saw them would try to join it (dist.h). */
static bool player_launcher_var(const char *e)
{
    static const char *const marks[] = {"OMPI_", "PMIX_", "PMI_", "HYDRA_", "HYDI_", "MPI_LOCAL"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (!strncmp(e, marks[i], strlen(marks[i])))
            return true;
    return false;
}

/* Starts the player's process. Its environment is the referee's, less the
 * MPI launcher's variables where a launcher started the referee (elsewhere
 * they are the user's settings, for a player that is itself an MPI job:
 * `gtp:mpirun ...` as root needs OMPI_ALLOW_RUN_AS_ROOT). */
static player_status player_spawn(player *p)
{
    int from_fd;
    char why[256];
    p->proc = os_spawn(p->spec->cmd, p->spec->dir, dist_started() ? player_launcher_var : NULL,
                       &p->to_fd, &from_fd, why, sizeof why);
    if (!p->proc) {
        snprintf(p->last, sizeof p->last, "%s", why);
        return PLAYER_CRASH;
    }
    line_init_fd(&p->from, from_fd);
    return PLAYER_OK;
}

/* ---- Gomocup brains ---- */

#define PLAYER_BRAIN_GAP 0.005 /* Seconds between a brain's answer and our next line. */

/* Reads the brain's next answer line before the deadline, skipping its
 * MESSAGE, DEBUG and SUGGEST lines, and its ERROR lines, which are
 * counted: a brain still finishing its turn may complain about a line it
 * read too early, and that is not its move. The line goes to p->last. */
static player_status player_brain_line(player *p, double deadline)
{
    char line[LINE_BUF];
    for (;;) {
        player_status st = player_read_line(p, deadline, line, sizeof line);
        if (st != PLAYER_OK)
            return st;
        p->answered = player_now();
        p->errors += !strncmp(line, "ERROR", 5);
        if (!line[0] || !strncmp(line, "MESSAGE", 7) || !strncmp(line, "DEBUG", 5) ||
            !strncmp(line, "SUGGEST", 7) || !strncmp(line, "ERROR", 5))
            continue;
        snprintf(p->last, sizeof p->last, "%.255s", line);
        return PLAYER_OK;
    }
}

/* Sends a line to a brain, never sooner than PLAYER_BRAIN_GAP after its
 * last answer, so that a brain finishing its turn reads whole lines. */
static player_status player_brain_send(player *p, const char *line)
{
    double wait = p->answered + PLAYER_BRAIN_GAP - player_now();
    if (wait > 0)
        nanosleep(&(struct timespec){0, (long)(wait * 1e9)}, NULL);
    return player_send(p, line);
}

/* Sends "INFO key value" when value differs from *sent. */
static player_status player_brain_info(player *p, const char *key, long value, long *sent)
{
    char buf[64];
    if (value == *sent)
        return PLAYER_OK;
    *sent = value;
    snprintf(buf, sizeof buf, "INFO %s %ld\n", key, value);
    return player_brain_send(p, buf);
}

/* The X,Y text of move m in s, through the game's coordinates. */
static const char *player_brain_point(const player *p, const void *s, banyan_move m, char *buf,
                                      size_t len)
{
    if (banyan_game_format(p->g, s, m, BANYAN_COORDS_XY, buf, len) < 0)
        snprintf(buf, len, "-1,-1");
    return buf;
}

/* Starts a brain: START with the board's side, then the rule (the game's
 * rule parameter, as Gomocup's bits) and the time per move. */
static player_status player_brain_start(player *p, const char *params, double timeout)
{
    char cmd[128], why[128], rule[64] = "";
    int w, h, code = 0;
    if (!gomocup_game_ok(p->g, why, sizeof why) ||
        record_init(&p->rec, p->g, params, NULL, why, sizeof why) != BANYAN_OK) {
        snprintf(p->last, sizeof p->last, "%s", why);
        return PLAYER_ILLEGAL;
    }
    p->g->board->board_size(record_state(&p->rec), &w, &h);
    for (const banyan_param *q = p->g->params; q && q->name; q++)
        if ((q->role & BANYAN_ROLE_RULE) &&
            banyan_params_value(p->g, params, q->name, rule, sizeof rule) == BANYAN_OK)
            code = gomocup_rule_code(rule);
    if (code < 0) {
        snprintf(p->last, sizeof p->last, "Gomocup has no rule \"%s\"", rule);
        return PLAYER_ILLEGAL;
    }
    snprintf(cmd, sizeof cmd, "START %d\n", w);
    player_status st = player_brain_send(p, cmd);
    if (st == PLAYER_OK)
        st = player_brain_line(p, player_now() + timeout);
    if (st != PLAYER_OK)
        return st;
    if (strcmp(p->last, "OK") != 0)
        return PLAYER_ILLEGAL;
    snprintf(cmd, sizeof cmd, "INFO rule %d\n", code);
    return player_brain_send(p, cmd);
}

/* Asks a brain for its move: BEGIN on an empty board, TURN with the one
 * move it has not seen, or BOARD with the whole game (in move order, as
 * renju asks) when it has missed several. */
static player_status player_brain_move(player *p, const void *s, const banyan_limits *lim,
                                       double clock, double timeout, banyan_move *m)
{
    char buf[64], point[32];
    record *rec = &p->rec;
    /* The per-move time given, else the whole clock, else a second. */
    double turn = lim->time > 0 ? lim->time : clock >= 0 ? clock : 1.0;
    player_status st = player_brain_info(p, "timeout_turn", (long)(turn * 1000), &p->sent_turn_ms);
    if (st == PLAYER_OK && clock >= 0)
        st = player_brain_info(p, "time_left", (long)(clock * 1000), &p->sent_left_ms);
    int missed = rec->n_moves - p->n_known;
    if (st == PLAYER_OK && rec->n_moves == 0) {
        st = player_brain_send(p, "BEGIN\n");
    } else if (st == PLAYER_OK && missed == 1 && p->n_known > 0) {
        int last = rec->n_moves - 1;
        snprintf(buf, sizeof buf, "TURN %s\n",
                 player_brain_point(p, record_before(rec, last), rec->moves[last].move, point,
                                    sizeof point));
        st = player_brain_send(p, buf);
    } else if (st == PLAYER_OK) {
        int me = p->g->to_move(s);
        st = player_brain_send(p, "BOARD\n");
        for (int i = 0; st == PLAYER_OK && i < rec->n_moves; i++) {
            snprintf(buf, sizeof buf, "%s,%d\n",
                     player_brain_point(p, record_before(rec, i), rec->moves[i].move, point,
                                        sizeof point),
                     (i % 2) == me ? 1 : 2);
            st = player_brain_send(p, buf);
        }
        if (st == PLAYER_OK)
            st = player_brain_send(p, "DONE\n");
    }
    if (st == PLAYER_OK)
        st = player_brain_line(p, player_now() + timeout);
    if (st != PLAYER_OK)
        return st;
    /* The answer "X,Y" must be a legal move. */
    if (banyan_game_parse(p->g, s, BANYAN_COORDS_XY, p->last, m) != BANYAN_OK ||
        record_push(rec, *m, -1, NULL) != BANYAN_OK)
        return PLAYER_ILLEGAL;
    p->n_known = rec->n_moves;
    return PLAYER_OK;
}

/* After a crash while starting: waits briefly for the process and says in
 * p->last why it ended (the shell's 127 is a command not found, 126 one
 * that cannot be run). */
static void player_why_dead(player *p)
{
    int code, sig;
    if (os_process_wait(p->proc, 500, &code, &sig) != 1)
        return;
    os_process_end(p->proc);
    p->proc = NULL;
    if (sig)
        snprintf(p->last, sizeof p->last, "killed by signal %d while starting", sig);
    else if (code == 127)
        snprintf(p->last, sizeof p->last, "could not be started: command not found (status 127)");
    else if (code == 126)
        snprintf(p->last, sizeof p->last, "could not be started: not executable (status 126)");
    else if (code == OS_NO_DIR)
        snprintf(p->last, sizeof p->last, "could not be started: cannot enter %.200s",
                 p->spec->dir);
    else
        snprintf(p->last, sizeof p->last, "exited with status %d while starting", code);
}

/* ---- The player calls ---- */

player_status player_start(player *p, const player_spec *spec, const banyan_game *g,
                           const char *params, double timeout, FILE *log)
{
    char all[512], cmd[600], why[200];
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->g = g;
    p->to_fd = -1;
    p->coords = gtp_coords(g);
    p->sent_turn_ms = p->sent_left_ms = -1;
    p->log = spec->kind == PLAYER_INTERNAL ? NULL : log;
    p->started = player_now();
    if (spec->kind == PLAYER_INTERNAL) {
        /* The match's parameters, the plain ones of the textbook policy,
         * then the player's own, which may change either. */
        options_game_params(&spec->eng, g, params, all, sizeof all);
        int rc =
            options_engine_new(&spec->eng, &spec->eng.cfg, g, all, &p->e, &p->ev, why, sizeof why);
        if (rc != BANYAN_OK) {
            if (!why[0])
                options_explain_new(g, all, &spec->eng.cfg, rc, why, sizeof why);
            snprintf(p->last, sizeof p->last, "%s", why);
            return PLAYER_ILLEGAL;
        }
        return PLAYER_OK;
    }
    player_status st = player_spawn(p);
    if (st != PLAYER_OK)
        return st;
    st = spec->kind == PLAYER_GOMOCUP ? player_brain_start(p, params, timeout)
                                      : player_command(p, "known_command banyan-game", timeout);
    if (st == PLAYER_CRASH)
        player_why_dead(p);
    if (st != PLAYER_OK || spec->kind == PLAYER_GOMOCUP)
        return st;
    p->banyan_game = !strcmp(p->last, "true");
    if (p->banyan_game) {
        snprintf(cmd, sizeof cmd, "banyan-game %s %s", g->name, params);
        return player_command(p, cmd, timeout);
    }
    /* Other programs: the board size where the game has a parameter for
     * it, then a clear board, then the komi. A refusal of boardsize or komi
     * means the program cannot play this. */
    for (const banyan_param *q = g->params; q && q->name; q++)
        if ((q->role & (BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT)) &&
            banyan_params_value(g, params, q->name, why, sizeof why) == BANYAN_OK) {
            snprintf(cmd, sizeof cmd, "boardsize %s", why);
            if ((st = player_command(p, cmd, timeout)) != PLAYER_OK)
                return st;
            break;
        }
    if ((st = player_command(p, "clear_board", timeout)) != PLAYER_OK)
        return st;
    /* And the komi, where the game has one. */
    for (const banyan_param *q = g->params; q && q->name; q++)
        if ((q->role & BANYAN_ROLE_KOMI) &&
            banyan_params_value(g, params, q->name, why, sizeof why) == BANYAN_OK) {
            snprintf(cmd, sizeof cmd, "komi %s", why);
            return player_command(p, cmd, timeout);
        }
    return PLAYER_OK;
}

player_status player_time_control(player *p, double main_time, double timeout)
{
    char cmd[96];
    if (p->e)
        return PLAYER_OK;
    if (p->spec->kind == PLAYER_GOMOCUP) {
        snprintf(cmd, sizeof cmd, "INFO timeout_match %.0f\n", main_time * 1000);
        return player_brain_send(p, cmd);
    }
    /* GTP: sudden death (GTP has no increment; time_left carries it). A
     * program that does not know time_settings just plays on. */
    snprintf(cmd, sizeof cmd, "time_settings %.0f 0 0", main_time < 1 ? 1 : main_time);
    player_status st = player_command(p, cmd, timeout);
    return st == PLAYER_ILLEGAL ? PLAYER_OK : st;
}

/* Whether m is a pass in s. */
static bool player_is_pass(const banyan_game *g, const void *s, banyan_move m)
{
    int x, y;
    return (g->board && g->board->place) && g->board->place(s, m, &x, &y) == BANYAN_PLACE_PASS;
}

player_status player_play(player *p, const void *s, banyan_move m, double timeout)
{
    char cmd[128], v[64];
    if (p->e)
        return banyan_engine_play(p->e, m) == BANYAN_OK ? PLAYER_OK : PLAYER_ILLEGAL;
    if (p->spec->kind == PLAYER_GOMOCUP) /* Told with the next request (TURN or BOARD). */
        return record_push(&p->rec, m, -1, NULL) == BANYAN_OK ? PLAYER_OK : PLAYER_ILLEGAL;
    int color = p->g->to_move(s);
    if (banyan_game_format(p->g, s, m, p->coords, v, sizeof v) < 0)
        return PLAYER_ILLEGAL;
    bool pass = player_is_pass(p->g, s, m);
    if (pass && p->silent_pass)
        return PLAYER_OK;
    snprintf(cmd, sizeof cmd, "play %s %s", color == 0 ? "b" : "w", v);
    player_status st = player_command(p, cmd, timeout);
    /* A program that refuses a pass keeps the turn itself (Othello
     * programs such as GRhino): from now on it is not told of passes. */
    if (st == PLAYER_ILLEGAL && pass) {
        p->silent_pass = true;
        return PLAYER_OK;
    }
    return st;
}

player_status player_genmove(player *p, record *rec, const banyan_limits *lim, double clock,
                             double timeout, banyan_move *m, double *value)
{
    char cmd[128];
    const void *s = record_state(rec);
    *value = -1;
    if (p->e) {
        banyan_report r = BANYAN_REPORT();
        banyan_engine_search(p->e, lim, &r);
        if (r.best == BANYAN_MOVE_NONE)
            return PLAYER_ILLEGAL;
        *m = record_pick(rec, &r);
        *value = r.value;
        banyan_engine_play(p->e, *m);
        return PLAYER_OK;
    }
    if (p->spec->kind == PLAYER_GOMOCUP)
        return player_brain_move(p, s, lim, clock, timeout, m);
    /* A pass that is the only legal move is played for the program, told
     * to it as any move (where it takes passes): there is nothing to
     * choose, and a program that passes implicitly would not answer. */
    banyan_move legal[BANYAN_MAX_MOVES];
    if (p->g->moves(s, legal) == 1 && player_is_pass(p->g, s, legal[0])) {
        *m = legal[0];
        return player_play(p, s, legal[0], timeout);
    }
    int color = p->g->to_move(s);
    player_status st;
    if (clock >= 0) {
        snprintf(cmd, sizeof cmd, "time_left %s %d 0", color == 0 ? "b" : "w", (int)clock);
        if ((st = player_command(p, cmd, timeout)) == PLAYER_CRASH || st == PLAYER_TIMEOUT)
            return st;
    }
    snprintf(cmd, sizeof cmd, "genmove %s", color == 0 ? "b" : "w");
    if ((st = player_command(p, cmd, timeout)) != PLAYER_OK)
        return st;
    if (!strcasecmp(p->last, "resign"))
        return PLAYER_RESIGN;
    /* The answer must be a legal move in s. */
    if (banyan_game_parse(p->g, s, p->coords, p->last, m) == BANYAN_OK &&
        banyan_game_is_legal(p->g, s, *m))
        return PLAYER_OK;
    return PLAYER_ILLEGAL;
}

void player_stop(player *p)
{
    record_free(&p->rec);
    if (p->e) {
        banyan_engine_free(p->e);
        p->e = NULL;
    }
    net_evaluator_free(p->ev);
    p->ev = NULL;
    if (!p->proc)
        return;
    /* quit (END for a brain, which answers nothing), and a short grace
     * period to exit by itself. */
    if (player_send(p, p->spec->kind == PLAYER_GOMOCUP ? "END\n" : "quit\n") == PLAYER_OK &&
        p->spec->kind == PLAYER_GTP) {
        bool ok;
        player_answer(p, player_now() + 0.5, &ok);
    }
    close(p->to_fd);
    int code, sig;
    os_process_wait(p->proc, 500, &code, &sig);
    os_process_end(p->proc); /* Kills the group, where it still runs. */
    p->proc = NULL;
    close(p->from.fd);
}
