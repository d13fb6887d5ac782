/*
 * player.c - players for `banyan match` (see player.h).
 *
 * An external player is a child process in its own process group, started
 * through /bin/sh so that a command line with arguments works as typed.
 * Requests are GTP commands; an answer is read line by line until its
 * terminating empty line, and every read waits with poll() against an
 * absolute deadline, so a silent engine becomes PLAYER_TIMEOUT and a dead
 * one PLAYER_CRASH (the referee ignores SIGPIPE). Stopping sends quit, waits
 * briefly, then kills the whole group and reaps it.
 */
#include "player.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gtp.h"

static double player_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Specs ---- */

/* The multiplier of a size suffix: none, K, M or G (binary). */
static bool player_size_unit(const char *suffix, double *unit)
{
    static const char units[] = "kmg";
    if (!*suffix) {
        *unit = 1;
        return true;
    }
    const char *u = strchr(units, tolower((unsigned char)suffix[0]));
    if (!u || suffix[1])
        return false;
    *unit = (double)(1ULL << (10 * (u - units + 1)));
    return true;
}

/* Applies one key=value of an internal spec. */
static bool player_option(player_spec *p, const char *key, const char *val)
{
    double unit;
    char *end;
    double d = strtod(val, &end);
    bool num = end != val && !*end && d >= 0;
    if (!strcmp(key, "playouts") && num && d >= 1)
        p->lim.playouts = (uint64_t)d;
    else if (!strcmp(key, "time") && num && d > 0)
        p->lim.time = d;
    else if (!strcmp(key, "seed") && num)
        p->cfg.seed = (uint64_t)d;
    else if (!strcmp(key, "threads") && num && d >= 1 && d <= 64)
        p->cfg.threads = (int)d;
    else if (!strcmp(key, "memory") && end != val && d >= 1 && player_size_unit(end, &unit))
        p->cfg.memory = (size_t)(d * unit);
    else if (!strcmp(key, "c") && num && d > 0)
        p->cfg.c = d;
    else if (!strcmp(key, "parallel") && (!strcmp(val, "tree") || !strcmp(val, "root")))
        p->cfg.parallel = !strcmp(val, "tree") ? BANYAN_PARALLEL_TREE : BANYAN_PARALLEL_ROOT;
    else if (!strcmp(key, "recycle") && (!strcmp(val, "on") || !strcmp(val, "off")))
        p->cfg.no_recycle = !strcmp(val, "off");
    else if (!strcmp(key, "reuse") && (!strcmp(val, "on") || !strcmp(val, "off")))
        p->cfg.fresh_tree = !strcmp(val, "off");
    else if (!strcmp(key, "expand") && num && d >= 1)
        p->cfg.expand_visits = (uint32_t)d;
    else if (!strcmp(key, "select") && (!strcmp(val, "uct") || !strcmp(val, "puct")))
        p->cfg.select = !strcmp(val, "uct") ? BANYAN_SELECT_UCT : BANYAN_SELECT_PUCT;
    else if (!strcmp(key, "final") && !strcmp(val, "visits"))
        p->cfg.final = BANYAN_FINAL_VISITS;
    else if (!strcmp(key, "final") && !strcmp(val, "value"))
        p->cfg.final = BANYAN_FINAL_VALUE;
    else if (!strcmp(key, "final") && !strcmp(val, "lcb"))
        p->cfg.final = BANYAN_FINAL_LCB;
    else if (!strcmp(key, "policy") && !strcmp(val, "textbook")) {
        /* The seed articles' player: UCB1 with c = 1.4 over every empty
         * cell in board order (no priors, no widening) with uniform
         * rollouts, 2000 iterations unless told. */
        p->cfg.c = 1.4;
        p->cfg.select = BANYAN_SELECT_UCT;
        p->cfg.widening = -1;
        if (!p->lim.playouts && p->lim.time <= 0)
            p->lim.playouts = 2000;
        p->textbook = true;
    } else if (!strcmp(key, "params")) {
        size_t n = strlen(p->params);
        snprintf(p->params + n, sizeof p->params - n, "%s%s", n ? " " : "", val);
        for (char *c = p->params + n; *c; c++)
            if (*c == ';')
                *c = ' ';
    } else
        return false;
    return true;
}

bool player_parse(const char *text, player_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "%s", text);
    if (!strncmp(text, "banyan:", 7) || !strcmp(text, "banyan")) {
        out->kind = PLAYER_INTERNAL;
        const char *cur = text[6] ? text + 7 : "";
        char key[64], val[256];
        int rc;
        /* Commas separate options; params values use ';' inside. */
        while ((rc = banyan_params_next(&cur, key, sizeof key, val, sizeof val)) == 1)
            if (!player_option(out, key, val)) {
                snprintf(err, errlen, "bad option %s=%s in \"%s\"", key, val, text);
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
static player_status player_send(player *p, const char *line)
{
    size_t n = strlen(line), off = 0;
    while (off < n) {
        ssize_t w = write(p->to_fd, line + off, n - off);
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
        struct pollfd pf = {.fd = p->from.fd, .events = POLLIN};
        int ms = left > 1 ? 1000 : (int)(left * 1000) + 1;
        if (poll(&pf, 1, ms) < 0 && errno != EINTR)
            return PLAYER_CRASH;
    }
    if (!line_next(&p->from, line, len, &too_long))
        return PLAYER_CRASH;
    line[strcspn(line, "\r")] = 0;
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

static player_status player_spawn(player *p)
{
    int in[2], out[2];
    if (pipe(in) != 0)
        return PLAYER_CRASH;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return PLAYER_CRASH;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return PLAYER_CRASH;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        if (p->spec->dir[0] && chdir(p->spec->dir) != 0)
            _exit(127);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", p->spec->cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* Also here, so the group exists before any kill. */
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    p->pid = pid;
    p->to_fd = in[1];
    line_init_fd(&p->from, out[0]);
    return PLAYER_OK;
}

/* ---- Gomocup brains ---- */

/* Reads the brain's next answer line before the deadline, skipping its
 * MESSAGE, DEBUG and SUGGEST lines; the line goes to p->last. */
static player_status player_brain_line(player *p, double deadline)
{
    char line[LINE_BUF];
    for (;;) {
        player_status st = player_read_line(p, deadline, line, sizeof line);
        if (st != PLAYER_OK)
            return st;
        if (!line[0] || !strncmp(line, "MESSAGE", 7) || !strncmp(line, "DEBUG", 5) ||
            !strncmp(line, "SUGGEST", 7))
            continue;
        snprintf(p->last, sizeof p->last, "%.255s", line);
        return PLAYER_OK;
    }
}

/* The X,Y of move m (Gomocup: column from the left, row from the top). */
static void player_brain_point(const player *p, const void *s, banyan_move m, int *x, int *y)
{
    char buf[16];
    p->g->format_move(s, m, buf, sizeof buf);
    *x = buf[0] - 'a';
    *y = p->size - atoi(buf + 1);
}

/* Starts a brain: START, then the rule and the time per move. */
static player_status player_brain_start(player *p, const char *params, double timeout)
{
    char cmd[128];
    const char *size = strstr(params, "size=");
    p->size = size ? atoi(size + 5) : 15;
    int rule = strstr(params, "rule=renju") ? 4 : strstr(params, "rule=standard") ? 1 : 0;
    snprintf(cmd, sizeof cmd, "START %d\n", p->size);
    player_status st = player_send(p, cmd);
    if (st == PLAYER_OK)
        st = player_brain_line(p, player_now() + timeout);
    if (st != PLAYER_OK)
        return st;
    if (strcmp(p->last, "OK") != 0)
        return PLAYER_ILLEGAL;
    snprintf(cmd, sizeof cmd, "INFO rule %d\n", rule);
    return player_send(p, cmd);
}

/* Asks a brain for its move: BEGIN on an empty board, TURN with the one
 * move it has not seen, or BOARD with the whole game (in move order, as
 * renju asks) when it has missed several. */
static player_status player_brain_move(player *p, const void *s, const banyan_limits *lim,
                                       double clock, double timeout, banyan_move *m)
{
    char buf[64];
    int x, y;
    unsigned char *t = malloc(p->g->state_size);
    if (!t)
        return PLAYER_CRASH;
    /* The per-move time given, else the whole clock, else a second. */
    double turn = lim->time > 0 ? lim->time : clock >= 0 ? clock : 1.0;
    snprintf(buf, sizeof buf, "INFO timeout_turn %d\n", (int)(turn * 1000));
    player_status st = player_send(p, buf);
    if (st == PLAYER_OK && clock >= 0) {
        snprintf(buf, sizeof buf, "INFO time_left %d\n", (int)(clock * 1000));
        st = player_send(p, buf);
    }
    int missed = p->n_history - p->n_known;
    if (st == PLAYER_OK && p->n_history == 0) {
        st = player_send(p, "BEGIN\n");
    } else if (st == PLAYER_OK && missed == 1 && p->n_known > 0) {
        p->g->setup(t, "");
        /* The move's text does not depend on the position in Gomoku. */
        player_brain_point(p, s, p->history[p->n_history - 1], &x, &y);
        snprintf(buf, sizeof buf, "TURN %d,%d\n", x, y);
        st = player_send(p, buf);
    } else if (st == PLAYER_OK) {
        int me = p->g->to_move(s);
        st = player_send(p, "BOARD\n");
        for (int i = 0; st == PLAYER_OK && i < p->n_history; i++) {
            player_brain_point(p, s, p->history[i], &x, &y);
            snprintf(buf, sizeof buf, "%d,%d,%d\n", x, y, (i % 2) == me ? 1 : 2);
            st = player_send(p, buf);
        }
        if (st == PLAYER_OK)
            st = player_send(p, "DONE\n");
    }
    free(t);
    if (st == PLAYER_OK)
        st = player_brain_line(p, player_now() + timeout);
    if (st != PLAYER_OK)
        return st;
    /* The answer "X,Y" must be a legal move. */
    char *comma = strchr(p->last, ',');
    char *end;
    long ax = strtol(p->last, &end, 10);
    if (!comma || end != comma)
        return PLAYER_ILLEGAL;
    long ay = strtol(comma + 1, &end, 10);
    if (*end || ax < 0 || ay < 0 || ax >= p->size || ay >= p->size)
        return PLAYER_ILLEGAL;
    snprintf(buf, sizeof buf, "%c%ld", 'a' + (int)ax, p->size - ay);
    banyan_move legal[BANYAN_MAX_MOVES];
    int n = p->g->moves(s, legal);
    if (p->g->parse_move(s, buf, m) != BANYAN_OK)
        return PLAYER_ILLEGAL;
    for (int i = 0; i < n; i++)
        if (legal[i] == *m) {
            p->history[p->n_history++] = *m;
            p->n_known = p->n_history;
            return PLAYER_OK;
        }
    return PLAYER_ILLEGAL;
}

/* ---- The player calls ---- */

player_status player_start(player *p, const player_spec *spec, const banyan_game *g,
                           const char *params, double timeout)
{
    char all[512], cmd[600];
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->g = g;
    p->to_fd = -1;
    snprintf(all, sizeof all, "%s %s", params, spec->params);
    if (spec->kind == PLAYER_INTERNAL) {
        /* The textbook policy's game side, for games that have those
         * knobs (Gomoku: no solver either); others keep their own
         * candidates and rollouts. The player's own params come last, so
         * that they can change one of them. */
        int rc = BANYAN_EINVAL;
        if (spec->textbook) {
            char tb[600];
            snprintf(tb, sizeof tb, "%s candidates=all rollout=uniform priors=off prover=off %s",
                     params, spec->params);
            rc = banyan_engine_new(g, tb, &spec->cfg, &p->e);
        }
        if (rc != BANYAN_OK)
            rc = banyan_engine_new(g, all, &spec->cfg, &p->e);
        if (rc != BANYAN_OK) {
            snprintf(p->last, sizeof p->last, "bad parameters \"%.200s\"", all);
            return PLAYER_ILLEGAL;
        }
        return PLAYER_OK;
    }
    player_status st = player_spawn(p);
    if (st != PLAYER_OK)
        return st;
    if (spec->kind == PLAYER_GOMOCUP)
        return player_brain_start(p, params, timeout);
    st = player_command(p, "known_command banyan-game", timeout);
    if (st != PLAYER_OK)
        return st;
    p->banyan_game = !strcmp(p->last, "true");
    if (p->banyan_game) {
        snprintf(cmd, sizeof cmd, "banyan-game %s %s", g->name, params);
        return player_command(p, cmd, timeout);
    }
    /* Other programs: the board size where the game has one, then a clear
     * board. A refusal of boardsize means the program cannot play this. */
    const char *size = strstr(params, "size=");
    if (size) {
        snprintf(cmd, sizeof cmd, "boardsize %d", atoi(size + 5));
        if ((st = player_command(p, cmd, timeout)) != PLAYER_OK)
            return st;
    }
    return player_command(p, "clear_board", timeout);
}

player_status player_time_control(player *p, double main_time, double timeout)
{
    char cmd[96];
    if (p->e)
        return PLAYER_OK;
    if (p->spec->kind == PLAYER_GOMOCUP) {
        snprintf(cmd, sizeof cmd, "INFO timeout_match %.0f\n", main_time * 1000);
        return player_send(p, cmd);
    }
    /* GTP: sudden death (GTP has no increment; time_left carries it). A
     * program that does not know time_settings just plays on. */
    snprintf(cmd, sizeof cmd, "time_settings %.0f 0 0", main_time < 1 ? 1 : main_time);
    player_status st = player_command(p, cmd, timeout);
    return st == PLAYER_ILLEGAL ? PLAYER_OK : st;
}

player_status player_play(player *p, const void *s, banyan_move m, double timeout)
{
    char cmd[128], v[64];
    if (p->e)
        return banyan_engine_play(p->e, m) == BANYAN_OK ? PLAYER_OK : PLAYER_ILLEGAL;
    if (p->spec->kind == PLAYER_GOMOCUP) {
        /* Told with the next request (TURN or BOARD). */
        if (p->n_history == (int)(sizeof p->history / sizeof p->history[0]))
            return PLAYER_ILLEGAL;
        p->history[p->n_history++] = m;
        return PLAYER_OK;
    }
    int color = p->g->to_move(s);
    snprintf(cmd, sizeof cmd, "play %s %s", color == 0 ? "b" : "w",
             gtp_vertex(p->g, s, m, v, sizeof v));
    return player_command(p, cmd, timeout);
}

player_status player_genmove(player *p, const void *s, const banyan_limits *lim, double clock,
                             double timeout, banyan_move *m, double *value)
{
    char cmd[128], native[64];
    *value = -1;
    if (p->e) {
        banyan_report r;
        banyan_engine_search(p->e, lim, &r);
        if (r.best == BANYAN_MOVE_NONE)
            return PLAYER_ILLEGAL;
        *m = r.best;
        *value = r.value;
        banyan_engine_play(p->e, r.best);
        return PLAYER_OK;
    }
    if (p->spec->kind == PLAYER_GOMOCUP)
        return player_brain_move(p, s, lim, clock, timeout, m);
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
    banyan_move moves[BANYAN_MAX_MOVES];
    int n = p->g->moves(s, moves);
    if (gtp_vertex_native(p->g, p->last, native, sizeof native) &&
        p->g->parse_move(s, native, m) == BANYAN_OK)
        for (int i = 0; i < n; i++)
            if (moves[i] == *m)
                return PLAYER_OK;
    return PLAYER_ILLEGAL;
}

void player_stop(player *p)
{
    if (p->e) {
        banyan_engine_free(p->e);
        p->e = NULL;
    }
    if (!p->pid)
        return;
    /* quit (END for a brain, which answers nothing), and a short grace
     * period to exit by itself. */
    if (player_send(p, p->spec->kind == PLAYER_GOMOCUP ? "END\n" : "quit\n") == PLAYER_OK &&
        p->spec->kind == PLAYER_GTP) {
        bool ok;
        player_answer(p, player_now() + 0.5, &ok);
    }
    close(p->to_fd);
    for (int i = 0; i < 50; i++) {
        if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
            p->pid = 0;
            break;
        }
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    if (p->pid) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
        p->pid = 0;
    }
    close(p->from.fd);
}
