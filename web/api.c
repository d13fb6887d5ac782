/*
 * api.c - the web board's sessions and JSON routes (docs/WEB.md).
 *
 * A session is one browser tab's game: a record (record.h), which is the
 * truth about the position, an engine kept at the record's end, and at
 * most one search thread. Locks, always taken in this order:
 *
 *   w->mu    the table of sessions, each session's reference count;
 *   s->op    held by a request through the whole of a change to a session,
 *            so that two requests never both stop and join its thread;
 *   s->mu    everything else in a session, and its condition variable,
 *            which wakes the event streams.
 *
 * The search thread owns the engine while it runs: it takes s->mu only to
 * publish statistics and, at the end, to play its move into the record and
 * the engine. A request that changes the position first stops and joins
 * the thread (under s->op, not s->mu), so only one thread at a time ever
 * touches an engine. The state a request or a stream sends is built from
 * the record, never the engine, so it needs no search to stop.
 */
#include "api.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "banyan.h"
#include "dist.h"
#include "dsearch.h"
#include "net.h"
#include "record.h"

#define WEB_ID_LEN   32  /* Hex digits of a session's id. */
#define WEB_TOP      60  /* Root moves in a search event. */
#define WEB_PV       12  /* Moves of each one's principal variation. */
#define WEB_PROGRESS 0.2 /* Seconds between search events. */
/* An analysis's playouts: until stopped (not a time, which would give the
 * game's exact solver as large a budget before the search). */
#define WEB_ANALYZE      ((uint64_t)1 << 40)
#define WEB_SLACK        (1u << 20)  /* A session's memory beside its engine's. */
#define WEB_NET_CACHE    (16u << 20) /* A network's cache, per search thread (net.c's default). */
#define WEB_TIME_MAX     3600.0
#define WEB_PLAYOUTS_MAX 100000000L

typedef enum web_status { WEB_IDLE, WEB_THINKING, WEB_HINT, WEB_ANALYZING } web_status;

static const char *const web_status_names[] = {"idle", "thinking", "hint", "analyzing"};

typedef struct session {
    char id[WEB_ID_LEN + 1];
    int refs;    /* w->mu: the table's, requests', streams'. */
    bool closed; /* w->mu: out of the table. */
    web *w;
    pthread_mutex_t op, mu;
    pthread_cond_t cond;

    /* s->mu from here on. */
    const banyan_game *g;
    char params[RECORD_PARAMS_MAX]; /* The game's, as the person chose them. */
    record rec;
    banyan_engine *e; /* At the record's end, whenever no search runs. */
    net_evaluator *ev;
    void *scratch;                  /* A state, for the search thread's events. */
    bool human[BANYAN_MAX_PLAYERS]; /* Which players the person plays. */
    uint64_t playouts;              /* Strength: playouts or seconds a move. */
    double time;
    int threads;
    double *winrate; /* The first player's chance after k moves; NAN: unknown. */
    int winrate_cap;
    char resigned[RECORD_NAME_MAX]; /* The result when the side to move resigned, else "". */

    web_status status;
    pthread_t thread;
    bool thread_live; /* A search thread was started and not joined. */
    bool cancel;      /* Its result is to be dropped. */
    bool halting;     /* A request waits for it to end: no further move is searched. */
    banyan_move hint; /* The last hint, for the position after hint_ply moves. */
    int hint_ply;
    uint64_t version; /* Grows with every change of the state. */
    uint64_t search_version;
    char *search_json; /* The latest search event's data. */
    int watchers;      /* Open event streams. */
    bool abandoned;    /* The last stream closed, and no request came since. */
    double last_use;   /* When a request last came. */
} session;

struct web {
    web_config c;
    pthread_mutex_t mu;
    session **table; /* c.sessions slots. */
    _Atomic bool down;
    _Atomic int port; /* The port bound, for the Host check. */
};

struct web_watch {
    session *s;
    uint64_t version, search_version;
    char *pending; /* Bytes not yet read. */
    size_t len, off;
};

/* ---- Small helpers ---- */

static double web_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A session id: 16 bytes of the system's randomness, in hex (ids only:
 * searches stay seeded by the options). */
static bool web_new_id(char *out)
{
    unsigned char b[WEB_ID_LEN / 2];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, b, sizeof b) : -1;
    if (fd >= 0)
        close(fd);
    if (n != (ssize_t)sizeof b)
        return false;
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return true;
}

static void web_set_body(web_response *out, int status, const char *type, char *body, size_t len)
{
    out->status = status;
    out->type = type;
    out->body = body;
    out->len = len;
}

/* Answers with JSON value v (taken). */
static void web_json(web_response *out, int status, json_t *v)
{
    char *text = v ? json_dumps(v, JSON_COMPACT) : NULL;
    json_decref(v);
    if (!text) {
        static const char oom[] = "{\"error\":\"out of memory\"}";
        out->is_static = true;
        web_set_body(out, 500, "application/json; charset=utf-8", (char *)oom, sizeof oom - 1);
        return;
    }
    web_set_body(out, status, "application/json; charset=utf-8", text, strlen(text));
}

static void web_error(web_response *out, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    web_json(out, status, json_pack("{s:s}", "error", msg));
}

/* Text for one move of s, in the game's notation. */
static void web_move_text(const banyan_game *g, const void *s, banyan_move m, char *buf, size_t len)
{
    if (banyan_game_format(g, s, m, 0, buf, len) < 0)
        snprintf(buf, len, "%u", (unsigned)m);
}

/* {"move", "kind", "x", "y"} for move m of s. */
static json_t *web_move_json(const banyan_game *g, const void *s, banyan_move m)
{
    char text[64];
    int x = 0, y = 0,
        kind = (g->board && g->board->place) ? g->board->place(s, m, &x, &y) : BANYAN_PLACE_NONE;
    static const char *const kinds[] = {"none", "cell", "column", "pass"};
    web_move_text(g, s, m, text, sizeof text);
    json_t *o = json_pack("{s:s,s:s}", "move", text, "kind", kinds[kind & 3]);
    if (o && (kind == BANYAN_PLACE_CELL || kind == BANYAN_PLACE_COLUMN)) {
        json_object_set_new(o, "x", json_integer(x));
        if (kind == BANYAN_PLACE_CELL)
            json_object_set_new(o, "y", json_integer(y));
    }
    return o;
}

static double web_first_player(const banyan_game *g, int to_move, double value)
{
    return g->n_players == 2 && to_move == 1 ? 1.0 - value : value;
}

/* ---- The JSON of a session ---- */

/* Whether the game's moves are columns of a dropping board. */
static bool web_is_column_game(const banyan_game *g, const void *s)
{
    banyan_move m;
    return (g->board && g->board->place_move) &&
           g->board->place_move(s, BANYAN_PLACE_COLUMN, 0, 0, &m) == BANYAN_OK;
}

/* The labels of the columns and rows in the game's own notation: the
 * letters and the digits of the moves at the board's edges, where the
 * notation is letters then digits; none otherwise. */
static void web_labels(const banyan_game *g, const void *s, int w, int h, bool column,
                       json_t *board)
{
    json_t *cols = json_array(), *rows = json_array();
    bool ok = (g->board && g->board->place_move);
    for (int x = 0; ok && x < w; x++) {
        banyan_move m;
        char t[64];
        ok = g->board->place_move(s, column ? BANYAN_PLACE_COLUMN : BANYAN_PLACE_CELL, x, 0, &m) ==
             BANYAN_OK;
        if (ok) {
            web_move_text(g, s, m, t, sizeof t);
            size_t n = column ? strlen(t)
                              : strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
            ok = n > 0 && (column || strspn(t + n, "0123456789") == strlen(t + n));
            t[n] = 0;
            json_array_append_new(cols, json_string(t));
        }
    }
    for (int y = 0; ok && !column && y < h; y++) {
        banyan_move m;
        char t[64];
        ok = g->board->place_move(s, BANYAN_PLACE_CELL, 0, y, &m) == BANYAN_OK;
        if (ok) {
            web_move_text(g, s, m, t, sizeof t);
            size_t n = strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
            ok = t[n] && strspn(t + n, "0123456789") == strlen(t + n);
            json_array_append_new(rows, json_string(t + n));
        }
    }
    if (!ok) {
        json_array_clear(cols);
        json_array_clear(rows);
    }
    json_object_set_new(board, "cols", cols);
    json_object_set_new(board, "rows", rows);
}

static json_t *web_formats(const banyan_game *g)
{
    json_t *a = json_array();
    if ((g->board ? g->board->sgf_game : 0))
        json_array_append_new(a, json_string("sgf"));
    json_array_append_new(a, json_string("text"));
    if (((g->board ? g->board->coords : 0) & BANYAN_COORDS_XY) &&
        (g->board ? g->board->sgf_game : 0) == 4) /* Piskvork's, which names no
     game: record.h reads it as
     the game of SGF number 4. */
        json_array_append_new(a, json_string("psq"));
    return a;
}

/* The result of the game in s for people, or "" while it goes on: the
 * game's own words where it ended by play ("Black wins by 6.5 points", "a
 * draw"), else the winner and the loser's resignation from the record's
 * result ("1-0 (White resigned)", record.h). *winner: the player who won,
 * -1 for a draw, a game of one player or while it goes on. */
static void web_result(const session *S, const void *s, char *out, size_t len, int *winner)
{
    double ret[BANYAN_MAX_PLAYERS];
    const banyan_game *g = S->g;
    const char *r = S->resigned;
    *winner = -1;
    if (!r[0]) {
        banyan_game_result(g, s, BANYAN_RESULT_TEXT, out, len);
        if (out[0] && g->n_players == 2 && g->outcome(s, ret) && ret[0] != ret[1])
            *winner = ret[0] > ret[1] ? 0 : 1;
        return;
    }
    int w = !strncmp(r, "1-0", 3) ? 0 : !strncmp(r, "0-1", 3) ? 1 : -1;
    if (w < 0 || g->n_players != 2) {
        snprintf(out, len, "%s", strncmp(r, "1/2-1/2", 7) ? r : "a draw");
        return;
    }
    *winner = w;
    const char *why = r + 3 + strspn(r + 3, " ");
    if (strstr(r, "resign"))
        snprintf(out, len, "%s wins: %s resigned", banyan_game_player(g, w),
                 banyan_game_player(g, 1 - w));
    else
        snprintf(out, len, "%s wins%s%s", banyan_game_player(g, w), *why ? " " : "", why);
}

/* The state of session S (docs/WEB.md, "The state"), under S->mu. */
static json_t *web_state(const session *S)
{
    const banyan_game *g = S->g;
    const void *s = record_state(&S->rec);
    banyan_move moves[BANYAN_MAX_MOVES];
    char result[RECORD_NAME_MAX];
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "id", json_string(S->id));
    json_object_set_new(o, "version", json_integer((json_int_t)S->version));
    json_object_set_new(o, "game", json_string(g->name));
    json_object_set_new(o, "title", json_string(g->title ? g->title : g->name));
    json_object_set_new(o, "params", json_string(S->params));
    json_object_set_new(o, "sgf", json_integer((g->board ? g->board->sgf_game : 0)));
    json_object_set_new(o, "formats", web_formats(g));

    json_t *board = json_object();
    int w = 0, h = 0;
    bool column = web_is_column_game(g, s);
    if (g->board)
        g->board->board_size(s, &w, &h);
    json_object_set_new(board, "width", json_integer(w));
    json_object_set_new(board, "height", json_integer(h));
    json_object_set_new(board, "kind",
                        json_string(!g->board ? "none"
                                    : column  ? "column"
                                              : "cell"));
    web_labels(g, s, w, h, column, board);
    json_object_set_new(o, "board", board);
    json_t *cells = json_array();
    for (int y = 0; y < h && (g->board && g->board->piece); y++) {
        json_t *row = json_array();
        for (int x = 0; x < w; x++)
            json_array_append_new(row, json_integer(g->board->piece(s, x, y)));
        json_array_append_new(cells, row);
    }
    json_object_set_new(o, "cells", cells);

    json_object_set_new(o, "to_move", json_integer(g->to_move(s)));
    json_t *players = json_array(), *human = json_array();
    for (int p = 0; p < g->n_players; p++) {
        json_array_append_new(players, json_string(banyan_game_player(g, p)));
        json_array_append_new(human, json_boolean(S->human[p]));
    }
    json_object_set_new(o, "players", players);
    json_object_set_new(o, "human", human);

    json_t *played = json_array(), *rates = json_array();
    for (int i = 0; i < S->rec.n_moves; i++) {
        record *rec = (record *)&S->rec; /* record_before uses its scratch. */
        const void *before = record_before(rec, i);
        json_t *m = web_move_json(g, before, rec->moves[i].move);
        json_object_set_new(m, "player", json_integer(g->to_move(before)));
        json_array_append_new(played, m);
    }
    for (int k = 0; k <= S->rec.n_moves; k++)
        json_array_append_new(rates, k < S->winrate_cap && !isnan(S->winrate[k])
                                         ? json_real(S->winrate[k])
                                         : json_null());
    json_object_set_new(o, "moves", played);
    json_object_set_new(o, "winrate", rates);

    int winner;
    web_result(S, s, result, sizeof result, &winner);
    json_t *legal = json_array();
    int n = result[0] ? 0 : g->moves(s, moves);
    for (int i = 0; i < n; i++)
        json_array_append_new(legal, web_move_json(g, s, moves[i]));
    json_object_set_new(o, "legal", legal);
    json_object_set_new(o, "over", json_boolean(result[0] != 0));
    json_object_set_new(o, "result", json_string(result));
    json_object_set_new(o, "winner", winner >= 0 ? json_integer(winner) : json_null());
    int lx[64], ly[64], nl = S->resigned[0] ? 0 : banyan_game_win_line(g, s, lx, ly, 64);
    json_t *line = json_array();
    for (int i = 0; i < nl; i++)
        json_array_append_new(line, json_pack("[i,i]", lx[i], ly[i]));
    json_object_set_new(o, "win_line", line);
    json_object_set_new(o, "score", g->score ? json_real(g->score(s)) : json_null());

    json_object_set_new(o, "status", json_string(web_status_names[S->status]));
    json_object_set_new(o, "hint",
                        S->hint != BANYAN_MOVE_NONE && S->hint_ply == S->rec.n_moves
                            ? web_move_json(g, s, S->hint)
                            : json_null());
    json_object_set_new(o, "settings",
                        json_pack("{s:I,s:f,s:i}", "playouts", (json_int_t)S->playouts, "time",
                                  S->time, "threads", S->threads));
    return o;
}

/* The data of a search event from report r of the engine at the root. */
static char *web_search_json(session *S, const banyan_report *r, bool done)
{
    const banyan_game *g = S->g;
    const void *root = banyan_engine_state(S->e);
    int to_move = g->to_move(root);
    static const char *const proofs[] = {NULL, "win", "loss", "draw"};
    json_t *o =
        json_pack("{s:s,s:I,s:f,s:i,s:b}", "kind", web_status_names[S->status], "playouts",
                  (json_int_t)r->playouts, "seconds", r->seconds, "to_move", to_move, "done", done);
    if (!o)
        return NULL;
    bool known = r->best != BANYAN_MOVE_NONE;
    json_object_set_new(o, "value", known ? json_real(r->value) : json_null());
    json_object_set_new(o, "winrate",
                        known && g->n_players == 2
                            ? json_real(web_first_player(g, to_move, r->value))
                            : json_null());
    json_t *list = json_array();
    for (int i = 0, n = 0; i < r->n_moves && n < WEB_TOP; i++) {
        const banyan_move_stats *m = &r->moves[i];
        if (!m->visits && m->proof == BANYAN_UNPROVEN)
            continue;
        json_t *j = web_move_json(g, root, m->move);
        json_object_set_new(j, "visits", json_integer(m->visits));
        json_object_set_new(j, "value", json_real(m->value));
        json_object_set_new(j, "prior", json_real(m->prior));
        json_object_set_new(j, "proof",
                            proofs[m->proof & 3] ? json_string(proofs[m->proof & 3]) : json_null());
        json_t *pv = json_array();
        memcpy(S->scratch, root, g->state_size);
        for (int k = 0; k < m->pv_len && k < WEB_PV; k++) {
            if (!banyan_game_is_legal(g, S->scratch, m->pv[k]))
                break;
            json_array_append_new(pv, web_move_json(g, S->scratch, m->pv[k]));
            g->play(S->scratch, m->pv[k]);
        }
        json_object_set_new(j, "pv", pv);
        json_array_append_new(list, j);
        n++;
    }
    json_object_set_new(o, "moves", list);
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

/* ---- Sessions: engines and their searches ---- */

/* A state change: streams wake up. Under S->mu. */
static void web_changed(session *S)
{
    S->version++;
    pthread_cond_broadcast(&S->cond);
}

static void web_set_winrate(session *S, int ply, double v)
{
    if (ply >= S->winrate_cap) {
        int cap = S->winrate_cap ? S->winrate_cap : 64;
        while (cap <= ply)
            cap *= 2;
        double *p = realloc(S->winrate, (size_t)cap * sizeof *p);
        if (!p)
            return;
        for (int i = S->winrate_cap; i < cap; i++)
            p[i] = NAN;
        S->winrate = p;
        S->winrate_cap = cap;
    }
    S->winrate[ply] = v;
}

static void web_publish(session *S, char *json)
{
    if (!json)
        return;
    pthread_mutex_lock(&S->mu);
    free(S->search_json);
    S->search_json = json;
    S->search_version++;
    pthread_cond_broadcast(&S->cond);
    pthread_mutex_unlock(&S->mu);
}

/* The engine's progress callback, in the search thread. */
static void web_progress(void *ud, const banyan_report *r)
{
    session *S = ud;
    web_publish(S, web_search_json(S, r, false));
}

static bool web_is_over(const session *S)
{
    double ret[BANYAN_MAX_PLAYERS];
    return S->resigned[0] || S->g->outcome(record_state(&S->rec), ret);
}

/* Whether the engine is to move and may go on: the game goes on, the side
 * to move is the engine's, and its page has not gone away. */
static bool web_engine_to_move(const session *S)
{
    return !web_is_over(S) && !S->human[S->g->to_move(record_state(&S->rec))] && !S->abandoned;
}

/* ---- Over MPI ranks (mpirun -np N banyan serve; docs/DISTRIBUTED.md) ----
 *
 * Rank 0 serves the pages; a session's search runs over every rank
 * (dsearch_job), the others taking the session's engine and position from
 * a job: the session's id, game, parameters, threads, limits, start and
 * moves. Each other rank keeps an engine per session (web_follow), which
 * it moves on with the moves played since its last search, or sets up
 * afresh: either way its path from the start is the record's, as rank 0's
 * engine's is, so that their exports name the same nodes. */
typedef struct web_job {
    char id[WEB_ID_LEN + 1];
    char game[64];
    char params[RECORD_PARAMS_MAX];
    int32_t threads;
    int32_t analyse;
    uint64_t playouts;
    double time;
    uint32_t n_moves;   /* The moves follow the job, */
    uint32_t start_len; /* then the start, without its NUL; 0: the game's own. */
} web_job;

/* The job of S's search under lim, from malloc() (*len bytes); NULL with
 * one rank, or out of memory (the search then runs on this rank alone).
 * Under S->mu. */
static unsigned char *web_job_new(const session *S, const banyan_limits *lim, size_t *len)
{
    if (dist_ranks() < 2)
        return NULL;
    size_t start = S->rec.start ? strlen(S->rec.start) : 0,
           moves = (size_t)S->rec.n_moves * sizeof(banyan_move);
    unsigned char *b = malloc(sizeof(web_job) + moves + start);
    if (!b || strlen(S->g->name) >= sizeof((web_job *)0)->game) {
        free(b);
        return NULL;
    }
    web_job j = {.threads = S->threads,
                 .analyse = lim->analyse,
                 .playouts = lim->playouts,
                 .time = lim->time,
                 .n_moves = (uint32_t)S->rec.n_moves,
                 .start_len = (uint32_t)start};
    snprintf(j.id, sizeof j.id, "%s", S->id);
    snprintf(j.game, sizeof j.game, "%s", S->g->name);
    snprintf(j.params, sizeof j.params, "%s", S->params);
    memcpy(b, &j, sizeof j);
    for (int i = 0; i < S->rec.n_moves; i++)
        memcpy(b + sizeof j + (size_t)i * sizeof(banyan_move), &S->rec.moves[i].move,
               sizeof(banyan_move));
    if (start)
        memcpy(b + sizeof j + moves, S->rec.start, start);
    *len = sizeof j + moves + start;
    return b;
}

/* Searches S's engine under lim: over every rank where there are several
 * and no other session's search holds them, else on this rank alone.
 * job: web_job_new()'s (NULL: alone). */
static int web_search(session *S, const unsigned char *job, size_t len, const banyan_limits *lim,
                      banyan_report *r)
{
    int rc = job ? dsearch_job(S->e, job, len, lim, r) : -1;
    return rc == -1 ? banyan_engine_search(S->e, lim, r) : rc;
}

/* The search thread: the engine's moves while it is to move, or one hint or
 * analysis. */
static void *web_search_thread(void *arg)
{
    session *S = arg;
    pthread_mutex_lock(&S->mu);
    for (;;) {
        banyan_limits lim =
            BANYAN_LIMITS(.playouts = S->playouts, .time = S->time, .progress = web_progress,
                          .progress_ud = S, .progress_interval = WEB_PROGRESS);
        if (S->status == WEB_ANALYZING)
            lim = BANYAN_LIMITS(.playouts = WEB_ANALYZE, .progress = web_progress, .progress_ud = S,
                                .progress_interval = WEB_PROGRESS, .analyse = true);
        banyan_report r = BANYAN_REPORT();
        int ply = S->rec.n_moves;
        size_t job_len = 0;
        unsigned char *job = web_job_new(S, &lim, &job_len);
        pthread_mutex_unlock(&S->mu);
        int rc = web_search(S, job, job_len, &lim, &r);
        free(job);
        char *json = rc == BANYAN_OK ? web_search_json(S, &r, true) : NULL;
        web_publish(S, json);
        pthread_mutex_lock(&S->mu);
        if (rc != BANYAN_OK || S->cancel || r.best == BANYAN_MOVE_NONE)
            break;
        web_set_winrate(S, ply,
                        web_first_player(S->g, S->g->to_move(banyan_engine_state(S->e)), r.value));
        if (S->status == WEB_HINT) {
            S->hint = r.best;
            S->hint_ply = ply;
            break;
        }
        if (S->status != WEB_THINKING)
            break;
        banyan_move m = record_pick(&S->rec, &r);
        if (record_push(&S->rec, m, r.seconds, NULL) != BANYAN_OK ||
            banyan_engine_play(S->e, m) != BANYAN_OK)
            break;
        web_changed(S);
        if (S->halting || !web_engine_to_move(S))
            break;
    }
    S->status = WEB_IDLE;
    web_changed(S);
    pthread_mutex_unlock(&S->mu);
    return NULL;
}

/* Starts a search of kind st, under S->op and S->mu, with no thread live. */
static void web_start(session *S, web_status st)
{
    banyan_engine_clear_stop(S->e);
    S->status = st;
    S->cancel = false;
    if (pthread_create(&S->thread, NULL, web_search_thread, S) != 0) {
        S->status = WEB_IDLE;
        return;
    }
    S->thread_live = true;
    web_changed(S);
}

/* Stops the search thread and joins it, under S->op and S->mu (released
 * while joining). cancel: its result is dropped (the position is about to
 * change); else a search for the engine's move plays its best so far. */
static void web_halt(session *S, bool cancel)
{
    if (!S->thread_live)
        return;
    S->cancel = cancel;
    S->halting = true;
    banyan_engine_stop(S->e);
    pthread_mutex_unlock(&S->mu);
    pthread_join(S->thread, NULL);
    pthread_mutex_lock(&S->mu);
    S->thread_live = false;
    S->cancel = false;
    S->halting = false;
    banyan_engine_clear_stop(S->e);
}

/* Starts the engine's search for its move when it is to move (joining
 * first a search thread that has ended by itself). */
static void web_kick(session *S)
{
    if (S->thread_live && S->status == WEB_IDLE)
        web_halt(S, false);
    if (!S->thread_live && web_engine_to_move(S))
        web_start(S, WEB_THINKING);
}

/* The engine's parameters: the person's, with what the options add. */
static void web_engine_params(const web_config *c, const banyan_game *g, const char *params,
                              char *out, size_t len)
{
    options_game_params(&c->eng, g, params, out, len);
}

/* A new engine for game g with params and threads, at the start position,
 * with a session's share of the memory. Returns 0, or a status with a
 * sentence in why. */
static int web_make_engine(const web_config *c, const banyan_game *g, const char *params,
                           int threads, banyan_engine **e, net_evaluator **ev, char *why,
                           size_t len)
{
    char full[512];
    size_t share = c->memory / (size_t)c->sessions;
    bool net = c->eng.net[0] && (!c->net_for || !strcmp(c->net_for, g->name));
    size_t side = (size_t)threads * (net ? WEB_NET_CACHE : 0) + WEB_SLACK;
    banyan_config cfg = c->eng.cfg;
    cfg.threads = threads;
    size_t least = banyan_memory_least(g, &cfg); /* The game's prover memory counted. */
    if (share < side + least) {
        snprintf(why, len,
                 "%d search threads of %s do not fit in a session's share of the memory "
                 "(%zu KiB: --memory over --sessions)",
                 threads, g->title ? g->title : g->name, share >> 10);
        return 422;
    }
    cfg.memory = share - side;
    options o = c->eng;
    if (!net)
        o.net[0] = 0;
    web_engine_params(c, g, params, full, sizeof full);
    why[0] = 0;
    int rc = options_engine_new(&o, &cfg, g, full, e, ev, why, len);
    if (rc == BANYAN_OK)
        return 0;
    if (!why[0]) {
        if (banyan_params_check(g, params, why, len) == BANYAN_OK)
            snprintf(why, len, "%s",
                     rc == BANYAN_ENOMEM ? "out of memory"
                                         : "the engine refuses "
                                           "these settings");
    }
    return rc == BANYAN_ENOMEM ? 503 : 422;
}

/* Puts engine e of game g at a game's start: its parameters and start
 * position (NULL: the game's own). */
static int web_start_on(const web_config *c, banyan_engine *e, const banyan_game *g,
                        const char *params, const char *start)
{
    char full[512];
    int rc;
    web_engine_params(c, g, params, full, sizeof full);
    if ((rc = banyan_engine_setup(e, full)) != BANYAN_OK)
        return rc;
    return start ? banyan_engine_load(e, start) : BANYAN_OK;
}

/* Puts the engine at the record's end: its parameters, start and moves. */
static int web_replay(session *S)
{
    int rc = web_start_on(&S->w->c, S->e, S->g, S->params, S->rec.start);
    for (int i = 0; i < S->rec.n_moves && rc == BANYAN_OK; i++)
        rc = banyan_engine_play(S->e, S->rec.moves[i].move);
    return rc;
}

/* A session's engine on a rank but 0, and the game it follows. */
typedef struct web_follower {
    char id[WEB_ID_LEN + 1];
    const banyan_game *g;
    char params[RECORD_PARAMS_MAX];
    char *start; /* NULL: the game's own. */
    int threads;
    banyan_engine *e;
    net_evaluator *ev;
    banyan_move *moves; /* The moves the engine has played from the start. */
    uint32_t n_moves, cap;
    uint64_t used; /* When it last searched, for the least recently used. */
} web_follower;

typedef struct web_followers {
    const web_config *c;
    web_follower *f; /* c->sessions slots, as many as rank 0 has sessions. */
    uint64_t clock;
} web_followers;

static void web_follower_clear(web_follower *f)
{
    banyan_engine_free(f->e);
    net_evaluator_free(f->ev);
    free(f->start);
    free(f->moves);
    memset(f, 0, sizeof *f);
}

/* dsearch_follow's handler: the engine of the job's session at its
 * position, made or moved on. */
static banyan_engine *web_follow_job(void *ud, const void *job, size_t len, banyan_limits *lim,
                                     char *why, size_t why_len)
{
    web_followers *F = ud;
    web_job j;
    if (len < sizeof j)
        return snprintf(why, why_len, "a job of %zu bytes", len), NULL;
    memcpy(&j, job, sizeof j);
    const unsigned char *moves = (const unsigned char *)job + sizeof j;
    size_t moves_len = (size_t)j.n_moves * sizeof(banyan_move);
    const banyan_game *g = banyan_game_find(j.game);
    j.id[WEB_ID_LEN] = j.game[sizeof j.game - 1] = j.params[sizeof j.params - 1] = 0;
    if (!g || len != sizeof j + moves_len + j.start_len)
        return snprintf(why, why_len, "a job that is not rank 0's"), NULL;
    const char *start = j.start_len ? (const char *)moves + moves_len : NULL;
    /* The session's slot, else the least recently used. */
    web_follower *f = NULL, *old = &F->f[0];
    for (int i = 0; i < F->c->sessions && !f; i++) {
        if (!strcmp(F->f[i].id, j.id))
            f = &F->f[i];
        else if (F->f[i].used < old->used)
            old = &F->f[i];
    }
    bool same = f && f->g == g && f->threads == j.threads && !strcmp(f->params, j.params) &&
                (f->start ? j.start_len == strlen(f->start) && !memcmp(f->start, start, j.start_len)
                          : !j.start_len) &&
                f->n_moves <= j.n_moves &&
                (!f->n_moves || !memcmp(f->moves, moves, (size_t)f->n_moves * sizeof(banyan_move)));
    if (!f)
        f = old;
    if (!same) {
        if (!f->e || f->g != g || f->threads != j.threads) {
            web_follower_clear(f);
            if (web_make_engine(F->c, g, j.params, j.threads, &f->e, &f->ev, why, why_len))
                return NULL;
            f->g = g;
            f->threads = j.threads;
        }
        free(f->start);
        f->start = NULL;
        f->n_moves = 0;
        snprintf(f->params, sizeof f->params, "%s", j.params);
        if (start && !(f->start = strndup(start, j.start_len)))
            return snprintf(why, why_len, "out of memory"), NULL;
        if (web_start_on(F->c, f->e, g, j.params, f->start) != BANYAN_OK)
            return snprintf(why, why_len, "%s", banyan_errmsg(f->e)), NULL;
    }
    snprintf(f->id, sizeof f->id, "%s", j.id);
    if (j.n_moves > f->cap) {
        banyan_move *m = realloc(f->moves, moves_len);
        if (!m)
            return snprintf(why, why_len, "out of memory"), NULL;
        f->moves = m;
        f->cap = j.n_moves;
    }
    for (; f->n_moves < j.n_moves; f->n_moves++) {
        memcpy(&f->moves[f->n_moves], moves + (size_t)f->n_moves * sizeof(banyan_move),
               sizeof(banyan_move));
        if (banyan_engine_play(f->e, f->moves[f->n_moves]) != BANYAN_OK) {
            snprintf(why, why_len, "%s", banyan_errmsg(f->e));
            f->n_moves = 0; /* Set up afresh next time. */
            f->id[0] = 0;
            return NULL;
        }
    }
    f->used = ++F->clock;
    *lim = BANYAN_LIMITS(.playouts = j.playouts, .time = j.time, .analyse = j.analyse != 0);
    return f->e;
}

void web_block_signals(sigset_t *sigs)
{
    sigemptyset(sigs);
    sigaddset(sigs, SIGINT);
    sigaddset(sigs, SIGTERM);
    sigaddset(sigs, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, sigs, NULL);
}

int web_follow(const web_config *c)
{
    /* The job ends when rank 0 ends it: a signal the launcher passes on
     * to every rank is rank 0's to act on. */
    sigset_t sigs;
    web_block_signals(&sigs);
    web_followers F = {c, calloc((size_t)c->sessions, sizeof *F.f), 0};
    if (!F.f)
        dist_fail("out of memory for %d sessions", c->sessions);
    dsearch_follow(web_follow_job, &F);
    for (int i = 0; i < c->sessions; i++)
        web_follower_clear(&F.f[i]);
    free(F.f);
    return 0;
}

/* Replaces S's game by record rec (taken: on failure it is freed), with
 * threads; the engine is made anew when the game or threads change. Under
 * S->op and S->mu with no search. Returns 0 or an HTTP status with why. */
static int web_adopt(session *S, record *rec, int threads, char *why, size_t len)
{
    banyan_engine *e = S->e;
    net_evaluator *ev = S->ev;
    void *scratch = S->scratch;
    if (!e || rec->g != S->g || threads != S->threads) {
        int st = web_make_engine(&S->w->c, rec->g, rec->params, threads, &e, &ev, why, len);
        scratch = st ? NULL : malloc(rec->g->state_size);
        if (st || !scratch) {
            if (!st) {
                banyan_engine_free(e);
                net_evaluator_free(ev);
            }
            record_free(rec);
            if (!st)
                snprintf(why, len, "out of memory");
            return st ? st : 503;
        }
    }
    if (e != S->e) {
        banyan_engine_free(S->e);
        net_evaluator_free(S->ev);
        free(S->scratch);
    }
    record_free(&S->rec);
    S->rec = *rec;
    S->g = rec->g;
    snprintf(S->params, sizeof S->params, "%s", rec->params);
    S->e = e;
    S->ev = ev;
    S->scratch = scratch;
    S->threads = threads;
    S->resigned[0] = 0;
    S->hint = BANYAN_MOVE_NONE;
    for (int i = 0; i < S->winrate_cap; i++)
        S->winrate[i] = NAN;
    int rc = web_replay(S);
    if (rc != BANYAN_OK) {
        /* The record checked every move, so only the engine can refuse. */
        snprintf(why, len, "%s", banyan_errmsg(S->e));
        record_clear(&S->rec);
        web_replay(S);
        web_changed(S);
        return 422;
    }
    web_changed(S);
    return 0;
}

static void web_destroy(session *S)
{
    pthread_mutex_lock(&S->op);
    pthread_mutex_lock(&S->mu);
    web_halt(S, true);
    pthread_mutex_unlock(&S->mu);
    pthread_mutex_unlock(&S->op);
    banyan_engine_free(S->e);
    net_evaluator_free(S->ev);
    record_free(&S->rec);
    free(S->scratch);
    free(S->winrate);
    free(S->search_json);
    pthread_cond_destroy(&S->cond);
    pthread_mutex_destroy(&S->mu);
    pthread_mutex_destroy(&S->op);
    free(S);
}

/* Drops a reference taken by web_find or held by the table. */
static void web_unref(web *w, session *S)
{
    pthread_mutex_lock(&w->mu);
    bool last = --S->refs == 0;
    pthread_mutex_unlock(&w->mu);
    if (last)
        web_destroy(S);
}

/* The open session id, with a reference taken; NULL when there is none. */
static session *web_find(web *w, const char *id, size_t len)
{
    session *found = NULL;
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->c.sessions && !found; i++)
        if (w->table[i] && strlen(w->table[i]->id) == len && !memcmp(w->table[i]->id, id, len))
            found = w->table[i];
    if (found)
        found->refs++;
    pthread_mutex_unlock(&w->mu);
    return found;
}

/* Takes S out of the table (and drops the table's reference) under w->mu.
 * Returns whether that was the last reference. */
static bool web_close_locked(web *w, int slot)
{
    session *S = w->table[slot];
    w->table[slot] = NULL;
    S->closed = true;
    pthread_mutex_lock(&S->mu);
    pthread_cond_broadcast(&S->cond);
    pthread_mutex_unlock(&S->mu);
    return --S->refs == 0;
}

static void web_close(web *w, session *S)
{
    bool last = false;
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->c.sessions; i++)
        if (w->table[i] == S)
            last = web_close_locked(w, i);
    pthread_mutex_unlock(&w->mu);
    if (last)
        web_destroy(S);
}

void web_reap(web *w)
{
    session *gone[64];
    int n = 0;
    double now = web_now();
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->c.sessions && n < 64; i++) {
        session *S = w->table[i];
        if (!S)
            continue;
        pthread_mutex_lock(&S->mu);
        bool idle = S->watchers == 0 && now - S->last_use > w->c.idle;
        pthread_mutex_unlock(&S->mu);
        if (idle && web_close_locked(w, i))
            gone[n++] = S;
    }
    pthread_mutex_unlock(&w->mu);
    for (int i = 0; i < n; i++)
        web_destroy(gone[i]);
}

/* ---- Request bodies ---- */

/* The body as a JSON object (an empty body is {}), with only the keys in
 * allowed (a NULL-ended list). NULL after answering 400. */
static json_t *web_body(const web_request *r, const char *const *allowed, web_response *out)
{
    json_error_t err;
    json_t *v;
    if (r->body_len == 0)
        return json_object();
    v = json_loadb(r->body, r->body_len, JSON_REJECT_DUPLICATES, &err);
    if (!v) {
        web_error(out, 400, "malformed JSON: %s (line %d, column %d)", err.text, err.line,
                  err.column);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_decref(v);
        web_error(out, 400, "the body must be a JSON object");
        return NULL;
    }
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val)
    {
        bool known = false;
        for (int i = 0; allowed[i] && !known; i++)
            known = !strcmp(key, allowed[i]);
        if (!known) {
            web_error(out, 400, "unknown field \"%.64s\"", key);
            json_decref(v);
            return NULL;
        }
    }
    return v;
}

/* Field key of body as a string: *out set (or left when absent). False
 * after answering 400. */
static bool web_string(json_t *body, const char *key, const char **out, web_response *res)
{
    json_t *v = json_object_get(body, key);
    if (!v)
        return true;
    if (!json_is_string(v)) {
        web_error(res, 400, "\"%s\" must be a string", key);
        return false;
    }
    *out = json_string_value(v);
    return true;
}

/* Field key of body as a number in [lo, hi]; *given says whether it came. */
static bool web_number(json_t *body, const char *key, double lo, double hi, bool integer,
                       double *out, bool *given, web_response *res)
{
    json_t *v = json_object_get(body, key);
    *given = v != NULL;
    if (!v)
        return true;
    double d = json_is_number(v) ? json_number_value(v) : NAN;
    if (!json_is_number(v) || (integer && !json_is_integer(v)) || !(d >= lo && d <= hi)) {
        web_error(res, 400, "\"%s\" must be %s from %g to %g", key,
                  integer ? "an integer" : "a number", lo, hi);
        return false;
    }
    *out = d;
    return true;
}

/* Reads "human" into h[]; false after answering 400. */
static bool web_human(json_t *body, const banyan_game *g, bool *h, web_response *res)
{
    const char *v = NULL;
    if (!web_string(body, "human", &v, res))
        return false;
    if (!v)
        return true;
    static const char *const words[] = {"first", "second", "both", "none"};
    int k = 0;
    while (k < 4 && strcmp(v, words[k]) != 0)
        k++;
    if (k == 4) {
        web_error(res, 400, "\"human\" must be first, second, both or none");
        return false;
    }
    for (int p = 0; p < g->n_players; p++)
        h[p] = k == 2 || (k == 0 && p == 0) || (k == 1 && p == 1);
    return true;
}

/* Strength and threads from body into S (threads into *threads).
 * False after answering 400. */
static bool web_strength(json_t *body, session *S, int *threads, web_response *res)
{
    double v;
    bool given;
    if (!web_number(body, "playouts", 0, (double)WEB_PLAYOUTS_MAX, true, &v, &given, res))
        return false;
    if (given) {
        S->playouts = (uint64_t)v;
        if (v > 0)
            S->time = 0;
    }
    if (!web_number(body, "time", 0, WEB_TIME_MAX, false, &v, &given, res))
        return false;
    if (given) {
        if (v > 0 && v < 0.01) {
            web_error(res, 400, "\"time\" must be 0 or from 0.01 to %g seconds", WEB_TIME_MAX);
            return false;
        }
        S->time = v;
        if (v > 0)
            S->playouts = 0;
    }
    if (!S->playouts && S->time <= 0)
        S->time = 1.0;
    if (!web_number(body, "threads", 1, S->w->c.max_threads, true, &v, &given, res))
        return false;
    if (given)
        *threads = (int)v;
    return true;
}

/* ---- Routes ---- */

static json_t *web_games_json(const web *w)
{
    int n;
    const banyan_game *const *list = banyan_game_list(&n);
    json_t *games = json_array();
    for (int i = 0; i < n; i++) {
        const banyan_game *g = list[i];
        json_t *params = json_array();
        for (const banyan_param *p = g->params; p && p->name; p++) {
            json_t *j = json_pack("{s:s,s:s,s:s,s:s}", "name", p->name, "type",
                                  p->type == BANYAN_PARAM_INT      ? "int"
                                  : p->type == BANYAN_PARAM_NUMBER ? "number"
                                                                   : "choice",
                                  "default", p->def ? p->def : "", "help", p->help ? p->help : "");
            if (p->type != BANYAN_PARAM_CHOICE) {
                json_object_set_new(j, "min", json_integer(p->min));
                json_object_set_new(j, "max", json_integer(p->max));
            } else {
                json_t *ch = json_array();
                const char *c = p->choices ? p->choices : "";
                while (*c) {
                    size_t k = strcspn(c, "|");
                    json_array_append_new(ch, json_stringn(c, k));
                    c += k + (c[k] == '|');
                }
                json_object_set_new(j, "choices", ch);
            }
            json_array_append_new(params, j);
        }
        json_array_append_new(
            games, json_pack("{s:s,s:s,s:i,s:i,s:b,s:o,s:o}", "name", g->name, "title",
                             g->title ? g->title : g->name, "players", g->n_players, "sgf",
                             (g->board ? g->board->sgf_game : 0), "board", g->board != NULL,
                             "formats", web_formats(g), "params", params));
    }
    const options *o = &w->c.eng;
    double time = o->lim.time > 0 ? o->lim.time : o->lim.playouts ? 0 : 1.0;
    return json_pack("{s:s,s:o,s:{s:i,s:i},s:{s:I,s:f,s:i}}", "version", banyan_version(), "games",
                     games, "limits", "sessions", w->c.sessions, "max_threads", w->c.max_threads,
                     "defaults", "playouts", (json_int_t)o->lim.playouts, "time", time, "threads",
                     o->cfg.threads > 0 ? o->cfg.threads : 1);
}

/* Answers with S's state, under S->mu. */
static void web_state_answer(session *S, int status, web_response *out)
{
    web_json(out, status, web_state(S));
}

/* Whether text is a list of moves legal in turn from the start of rec (an
 * empty record), which then holds them; else rec is emptied again. */
static bool web_move_list(record *rec, const char *text)
{
    char tok[64];
    while (*text) {
        size_t n = strcspn(text, " ,\t\r\n");
        banyan_move m;
        if (n >= sizeof tok)
            break;
        memcpy(tok, text, n);
        tok[n] = 0;
        if (n && (banyan_game_parse(rec->g, record_state(rec), 0, tok, &m) != BANYAN_OK ||
                  record_push(rec, m, -1, NULL) != BANYAN_OK))
            break;
        text += n;
        text += strspn(text, " ,\t\r\n");
    }
    if (*text)
        record_clear(rec);
    return !*text;
}

/* A new record of game g with params from start (NULL: the game's start),
 * or an answer of 422. A start that is a list of moves becomes the
 * record's moves, so that they can be taken back; any other position
 * notation is the record's start. */
static bool web_new_record(const banyan_game *g, const char *params, const char *start, record *rec,
                           web_response *out)
{
    char err[512];
    if (record_init(rec, g, params, NULL, err, sizeof err) != BANYAN_OK) {
        web_error(out, 422, "%s", err);
        return false;
    }
    if (!start || !*start || web_move_list(rec, start))
        return true;
    record_free(rec);
    if (record_init(rec, g, params, start, err, sizeof err) != BANYAN_OK) {
        web_error(out, 422, "%s", err);
        return false;
    }
    return true;
}

/* Puts S in a free slot of the table (which takes a reference); the slot,
 * or -1 when the table is full. */
static int web_insert(web *w, session *S)
{
    int slot = -1;
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->c.sessions && slot < 0; i++)
        if (!w->table[i])
            slot = i;
    if (slot >= 0) {
        w->table[slot] = S;
        S->refs++;
    }
    pthread_mutex_unlock(&w->mu);
    return slot;
}

static void web_create(web *w, const web_request *r, web_response *out)
{
    static const char *const keys[] = {"game", "params",  "human", "playouts",
                                       "time", "threads", NULL};
    json_t *body = web_body(r, keys, out);
    if (!body)
        return;
    const char *name = NULL, *params = "";
    char why[512];
    if (!web_string(body, "game", &name, out) || !web_string(body, "params", &params, out))
        goto done;
    const banyan_game *g = name ? banyan_game_find(name) : NULL;
    if (!g) {
        web_error(out, name ? 422 : 400, name ? "unknown game \"%.64s\"" : "\"game\" is missing",
                  name);
        goto done;
    }
    session *S = calloc(1, sizeof *S);
    if (!S || !web_new_id(S->id)) {
        free(S);
        web_error(out, 503, "cannot make a session");
        goto done;
    }
    S->w = w;
    S->g = g;
    S->refs = 1;
    S->hint = BANYAN_MOVE_NONE;
    S->human[0] = true;
    S->playouts = w->c.eng.lim.playouts;
    S->time = w->c.eng.lim.time;
    S->last_use = web_now();
    int threads = w->c.eng.cfg.threads > 0 ? w->c.eng.cfg.threads : 1;
    if (threads > w->c.max_threads)
        threads = w->c.max_threads;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&S->cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&S->mu, NULL);
    pthread_mutex_init(&S->op, NULL);
    record rec;
    if (!web_human(body, g, S->human, out) || !web_strength(body, S, &threads, out) ||
        !web_new_record(g, params, NULL, &rec, out)) {
        web_destroy(S);
        goto done;
    }
    /* A place in the table first, so that a full server makes no engine;
     * when there is none, idle sessions are closed and it looks again. */
    int slot = web_insert(w, S);
    if (slot < 0) {
        web_reap(w);
        slot = web_insert(w, S);
    }
    if (slot < 0) {
        record_free(&rec);
        web_destroy(S);
        web_error(out, 503, "%d games are open already (--sessions); close one or try later",
                  w->c.sessions);
        goto done;
    }
    pthread_mutex_lock(&S->op);
    pthread_mutex_lock(&S->mu);
    int st = web_adopt(S, &rec, threads, why, sizeof why);
    if (st) {
        web_error(out, st, "%s", why);
    } else {
        web_kick(S);
        web_state_answer(S, 201, out);
    }
    pthread_mutex_unlock(&S->mu);
    pthread_mutex_unlock(&S->op);
    if (st)
        web_close(w, S);
    web_unref(w, S);
done:
    json_decref(body);
}

/* Undo: back to the latest earlier position where a side the person plays
 * is to move; the last move alone when the person plays every side or none. */
static int web_undo_target(session *S)
{
    int all = 0, n = S->rec.n_moves - 1;
    for (int p = 0; p < S->g->n_players; p++)
        all += S->human[p];
    if (all == 0 || all == S->g->n_players)
        return n;
    while (n >= 0 && !S->human[S->g->to_move(record_before(&S->rec, n))])
        n--;
    return n;
}

/* The actions on a session, under S->op and S->mu. */
static void web_action(session *S, const char *action, const web_request *r, web_response *out)
{
    static const char *const none[] = {NULL};
    static const char *const move_keys[] = {"move", NULL};
    static const char *const new_keys[] = {"game", "params", "human", NULL};
    static const char *const settings_keys[] = {"playouts", "time", "threads", "human", NULL};
    static const char *const position_keys[] = {"position", NULL};
    static const char *const record_keys[] = {"text", NULL};
    const char *const *keys = !strcmp(action, "move")       ? move_keys
                              : !strcmp(action, "new")      ? new_keys
                              : !strcmp(action, "settings") ? settings_keys
                              : !strcmp(action, "position") ? position_keys
                              : !strcmp(action, "record")   ? record_keys
                                                            : none;
    json_t *body = web_body(r, keys, out);
    char why[512];
    if (!body)
        return;
    const banyan_game *g = S->g;
    if (!strcmp(action, "move")) {
        const char *text = NULL;
        banyan_move m;
        if (!web_string(body, "move", &text, out))
            goto done;
        if (!text) {
            web_error(out, 400, "\"move\" is missing");
            goto done;
        }
        if (S->status == WEB_THINKING) {
            web_error(out, 409, "Banyan is choosing its move");
            goto done;
        }
        web_halt(S, true);
        const void *s = record_state(&S->rec);
        if (web_is_over(S)) {
            web_error(out, 409, "the game is over");
            goto done;
        }
        if (!S->human[g->to_move(s)]) {
            web_error(out, 409, "it is Banyan's turn");
            goto done;
        }
        int rc = banyan_game_parse(g, s, 0, text, &m);
        if (rc != BANYAN_OK) {
            web_error(out, 422, "\"%.64s\" %s", text,
                      rc == BANYAN_ERANGE ? "is off the board" : "is not a move of this game");
            goto done;
        }
        if (!banyan_game_is_legal(g, s, m)) {
            banyan_game_explain(g, s, m, why, sizeof why);
            web_error(out, 422, "%.64s %s", text, why);
            goto done;
        }
        if (record_repeats(&S->rec, m)) {
            web_error(out, 422, "%.64s repeats an earlier position (superko)", text);
            goto done;
        }
        if (record_push(&S->rec, m, -1, NULL) != BANYAN_OK ||
            banyan_engine_play(S->e, m) != BANYAN_OK) {
            web_error(out, 503, "out of memory");
            goto done;
        }
        web_changed(S);
        web_kick(S);
    } else if (!strcmp(action, "undo")) {
        web_halt(S, true);
        int n = web_undo_target(S);
        if (n < 0) {
            web_error(out, 409, "nothing to undo");
            goto done;
        }
        record_undo(&S->rec, S->rec.n_moves - n);
        S->resigned[0] = 0;
        if (web_replay(S) != BANYAN_OK) {
            web_error(out, 500, "%s", banyan_errmsg(S->e));
            goto done;
        }
        web_changed(S);
    } else if (!strcmp(action, "hint") || !strcmp(action, "analyze")) {
        if (S->status == WEB_THINKING) {
            web_error(out, 409, "Banyan is choosing its move");
            goto done;
        }
        web_halt(S, true);
        if (web_is_over(S)) {
            web_error(out, 409, "the game is over");
            goto done;
        }
        web_start(S, action[0] == 'h' ? WEB_HINT : WEB_ANALYZING);
    } else if (!strcmp(action, "stop")) {
        web_halt(S, false);
        web_kick(S); /* After a stop in a game of the engine against itself. */
    } else if (!strcmp(action, "swap")) {
        web_halt(S, true);
        if (web_is_over(S)) {
            web_error(out, 409, "the game is over");
            goto done;
        }
        int p = g->to_move(record_state(&S->rec));
        for (int i = 0; i < g->n_players; i++)
            S->human[i] = i != p;
        web_changed(S);
        web_kick(S);
    } else if (!strcmp(action, "resign")) {
        web_halt(S, true);
        if (web_is_over(S)) {
            web_error(out, 409, "the game is over");
            goto done;
        }
        /* The person resigns: the side to move if it is theirs, else theirs. */
        int p = g->to_move(record_state(&S->rec));
        for (int q = 0; q < g->n_players && !S->human[p]; q++)
            if (S->human[q])
                p = q;
        if (g->n_players == 2)
            snprintf(S->resigned, sizeof S->resigned, "%s (%s resigned)", p == 0 ? "0-1" : "1-0",
                     banyan_game_player(g, p));
        else
            snprintf(S->resigned, sizeof S->resigned, "%s resigned", banyan_game_player(g, p));
        snprintf(S->rec.result, sizeof S->rec.result, "%s", S->resigned);
        web_changed(S);
    } else if (!strcmp(action, "settings")) {
        int threads = S->threads;
        bool human[BANYAN_MAX_PLAYERS];
        memcpy(human, S->human, sizeof human);
        uint64_t playouts = S->playouts;
        double time = S->time;
        if (!web_human(body, g, human, out) || !web_strength(body, S, &threads, out)) {
            S->playouts = playouts;
            S->time = time;
            goto done;
        }
        if (threads != S->threads) {
            record rec;
            web_halt(S, true);
            if (!web_new_record(g, S->params, S->rec.start, &rec, out))
                goto done;
            for (int i = 0; i < S->rec.n_moves; i++)
                record_push(&rec, S->rec.moves[i].move, S->rec.moves[i].seconds,
                            S->rec.moves[i].comment);
            char resigned[RECORD_NAME_MAX];
            snprintf(resigned, sizeof resigned, "%s", S->resigned);
            int st = web_adopt(S, &rec, threads, why, sizeof why);
            snprintf(S->resigned, sizeof S->resigned, "%s", resigned);
            if (st) {
                web_error(out, st, "%s", why);
                goto done;
            }
        }
        if (S->status == WEB_THINKING && human[g->to_move(record_state(&S->rec))])
            web_halt(S, true); /* The side the engine was choosing for is the person's now. */
        memcpy(S->human, human, sizeof human);
        web_changed(S);
        web_kick(S);
    } else if (!strcmp(action, "new") || !strcmp(action, "position") || !strcmp(action, "record")) {
        const char *name = NULL, *params = NULL, *position = NULL, *text = NULL;
        bool human[BANYAN_MAX_PLAYERS];
        record rec;
        memcpy(human, S->human, sizeof human);
        if (!web_string(body, "game", &name, out) || !web_string(body, "params", &params, out) ||
            !web_string(body, "position", &position, out) || !web_string(body, "text", &text, out))
            goto done;
        const banyan_game *ng = name ? banyan_game_find(name) : g;
        if (!ng) {
            web_error(out, 422, "unknown game \"%.64s\"", name);
            goto done;
        }
        if (!web_human(body, ng, human, out))
            goto done;
        if (!strcmp(action, "position") && !position) {
            web_error(out, 400, "\"position\" is missing");
            goto done;
        }
        if (!strcmp(action, "record") && !text) {
            web_error(out, 400, "\"text\" is missing");
            goto done;
        }
        web_halt(S, true);
        char resigned[RECORD_NAME_MAX] = "";
        if (text) {
            if (record_load(&rec, NULL, text, why, sizeof why) != BANYAN_OK) {
                web_error(out, 422, "%s", why);
                goto done;
            }
            double ret[BANYAN_MAX_PLAYERS];
            if (rec.result[0] && !rec.g->outcome(record_state(&rec), ret))
                snprintf(resigned, sizeof resigned, "%s", rec.result); /* Ended by resignation. */
        } else if (!web_new_record(ng,
                                   params    ? params
                                   : ng == g ? S->params
                                             : "",
                                   position, &rec, out)) {
            goto done;
        }
        int st = web_adopt(S, &rec, S->threads, why, sizeof why);
        if (st) {
            web_error(out, st, "%s", why);
            goto done;
        }
        snprintf(S->resigned, sizeof S->resigned, "%s", resigned);
        for (int p = 0; p < S->g->n_players; p++)
            S->human[p] = human[p];
        web_changed(S);
        web_kick(S);
    } else {
        web_error(out, 404, "no such action \"%.32s\"", action);
        goto done;
    }
    web_state_answer(S, 200, out);
done:
    json_decref(body);
}

static void web_record_get(session *S, const web_request *r, web_response *out)
{
    const char *f = r->format                                   ? r->format
                    : (S->g->board ? S->g->board->sgf_game : 0) ? "sgf"
                                                                : "text";
    record_format fmt = !strcmp(f, "sgf")   ? RECORD_SGF
                        : !strcmp(f, "psq") ? RECORD_PSQ
                                            : RECORD_TEXT;
    if (strcmp(f, "sgf") && strcmp(f, "psq") && strcmp(f, "text")) {
        web_error(out, 400, "format must be sgf, text or psq");
        return;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        web_error(out, 503, "out of memory");
        return;
    }
    int rc = record_save(&S->rec, mem, fmt);
    fclose(mem);
    if (rc != BANYAN_OK) {
        free(buf);
        web_error(out, 422, "this game cannot be saved as %s", f);
        return;
    }
    web_set_body(out, 200,
                 fmt == RECORD_SGF ? "application/x-go-sgf; charset=utf-8"
                                   : "text/plain; charset=utf-8",
                 buf, len);
    snprintf(out->disposition, sizeof out->disposition, "attachment; filename=\"banyan-%s.%s\"",
             S->g->name,
             fmt == RECORD_SGF   ? "sgf"
             : fmt == RECORD_PSQ ? "psq"
                                 : "txt");
}

static void web_events(web *w, session *S, web_response *out)
{
    web_watch *wt = calloc(1, sizeof *wt);
    if (!wt) {
        web_error(out, 503, "out of memory");
        return;
    }
    pthread_mutex_lock(&w->mu);
    S->refs++;
    pthread_mutex_unlock(&w->mu);
    pthread_mutex_lock(&S->mu);
    S->watchers++;
    S->abandoned = false;
    wt->search_version = S->search_version;
    wt->version = S->version - 1; /* The state goes first. */
    pthread_mutex_unlock(&S->mu);
    wt->s = S;
    out->status = 200;
    out->type = "text/event-stream";
    out->watch = wt;
}

/* The routes under /api/sessions/ID. */
static void web_session_route(web *w, const web_request *r, const char *rest, web_response *out)
{
    size_t idlen = strcspn(rest, "/");
    const char *action = rest[idlen] == '/' ? rest + idlen + 1 : NULL;
    bool get = !strcmp(r->method, "GET") || !strcmp(r->method, "HEAD");
    bool post = !strcmp(r->method, "POST");
    session *S = web_find(w, rest, idlen);
    if (!S) {
        web_error(out, 404, "no open session \"%.*s\"", (int)(idlen < 40 ? idlen : 40), rest);
        return;
    }
    if (!action || !*action) {
        if (get) {
            pthread_mutex_lock(&S->mu);
            S->last_use = web_now();
            web_state_answer(S, 200, out);
            pthread_mutex_unlock(&S->mu);
        } else if (!strcmp(r->method, "DELETE")) {
            web_close(w, S);
            web_json(out, 200, json_object());
        } else {
            web_error(out, 405, "use GET or DELETE");
            snprintf(out->allow, sizeof out->allow, "GET, HEAD, DELETE");
        }
    } else if (!strcmp(action, "events")) {
        if (get)
            web_events(w, S, out);
        else {
            web_error(out, 405, "use GET");
            snprintf(out->allow, sizeof out->allow, "GET, HEAD");
        }
    } else if (!strcmp(action, "record") && get) {
        pthread_mutex_lock(&S->mu);
        S->last_use = web_now();
        web_record_get(S, r, out);
        pthread_mutex_unlock(&S->mu);
    } else if (!strcmp(action, "close") && post) {
        web_close(w, S);
        web_json(out, 200, json_object());
    } else if (post) {
        pthread_mutex_lock(&S->op);
        pthread_mutex_lock(&S->mu);
        S->last_use = web_now();
        S->abandoned = false; /* Someone is there. */
        web_action(S, action, r, out);
        pthread_mutex_unlock(&S->mu);
        pthread_mutex_unlock(&S->op);
    } else {
        static const char *const actions[] = {"move", "undo",     "hint",   "analyze",
                                              "stop", "swap",     "resign", "settings",
                                              "new",  "position", "record", "close"};
        bool known = false;
        for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
            known = known || !strcmp(action, actions[i]);
        if (known) {
            web_error(out, 405, "use POST");
            snprintf(out->allow, sizeof out->allow,
                     !strcmp(action, "record") ? "GET, HEAD, POST" : "POST");
        } else {
            web_error(out, 404, "no such route");
        }
    }
    web_unref(w, S);
}

/* Whether the Host header names this server on the loopback. */
static bool web_host_ok(const web *w, const char *host)
{
    if (!w->c.check_host || !host)
        return true;
    static const char *const names[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(host, names[i], n) != 0)
            continue;
        if (!host[n] && atomic_load(&w->port) == 80)
            return true;
        if (host[n] == ':' && atoi(host + n + 1) == atomic_load(&w->port) &&
            strspn(host + n + 1, "0123456789") == strlen(host + n + 1))
            return true;
    }
    return false;
}

static void web_asset_answer(const web_request *r, web_response *out)
{
    for (int i = 0; i < web_n_assets; i++) {
        const web_asset *a = &web_assets[i];
        if (strcmp(r->path, a->path) != 0 &&
            !(strcmp(a->path, "/") == 0 && strcmp(r->path, "/index.html") == 0))
            continue;
        if (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0) {
            web_error(out, 405, "use GET");
            snprintf(out->allow, sizeof out->allow, "GET, HEAD");
            return;
        }
        snprintf(out->etag, sizeof out->etag, "%s", a->etag);
        out->cache = "no-cache";
        out->is_static = true;
        if (r->if_none_match && strstr(r->if_none_match, a->etag)) {
            web_set_body(out, 304, a->type, (char *)"", 0);
            return;
        }
        web_set_body(out, 200, a->type, (char *)a->data, a->len);
        return;
    }
    web_error(out, 404, "not found");
}

void web_handle(web *w, const web_request *r, web_response *out)
{
    memset(out, 0, sizeof *out);
    out->cache = "no-store";
    bool changes = !strcmp(r->method, "POST") || !strcmp(r->method, "DELETE") ||
                   !strcmp(r->method, "PUT") || !strcmp(r->method, "PATCH");
    char self[300];
    snprintf(self, sizeof self, "http://%s", r->host ? r->host : "");
    if (!web_host_ok(w, r->host)) {
        web_error(out, 403, "this server answers to 127.0.0.1, localhost and [::1] only");
    } else if (changes && r->origin && (!r->host || strcmp(r->origin, self) != 0)) {
        web_error(out, 403, "cross-origin request refused");
    } else if (r->too_large || r->body_len > WEB_BODY_MAX) {
        web_error(out, 413, "the request body is over %u bytes", WEB_BODY_MAX);
    } else if (strncmp(r->path, "/api/", 5) != 0) {
        web_asset_answer(r, out);
    } else if (!strcmp(r->path, "/api/games")) {
        if (!strcmp(r->method, "GET") || !strcmp(r->method, "HEAD")) {
            web_json(out, 200, web_games_json(w));
        } else {
            web_error(out, 405, "use GET");
            snprintf(out->allow, sizeof out->allow, "GET, HEAD");
        }
    } else if (!strcmp(r->path, "/api/sessions")) {
        if (!strcmp(r->method, "POST")) {
            web_create(w, r, out);
        } else {
            web_error(out, 405, "use POST");
            snprintf(out->allow, sizeof out->allow, "POST");
        }
    } else if (!strncmp(r->path, "/api/sessions/", 14) && r->path[14]) {
        web_session_route(w, r, r->path + 14, out);
    } else {
        web_error(out, 404, "no such route");
    }
}

void web_response_free(web_response *out)
{
    if (!out->is_static)
        free(out->body);
    out->body = NULL;
}

/* ---- Event streams ---- */

long web_watch_read(web_watch *wt, char *buf, size_t max, double timeout)
{
    session *S = wt->s;
    if (wt->off == wt->len) {
        char *json = NULL, *text = NULL;
        const char *event = NULL;
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += (time_t)timeout;
        until.tv_nsec += (long)((timeout - floor(timeout)) * 1e9);
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_mutex_lock(&S->mu);
        for (;;) {
            if (atomic_load(&S->w->down) || S->closed) {
                pthread_mutex_unlock(&S->mu);
                return -1;
            }
            if (wt->version != S->version) {
                wt->version = S->version;
                json_t *st = web_state(S);
                json = st ? json_dumps(st, JSON_COMPACT) : NULL;
                json_decref(st);
                event = "state";
                break;
            }
            if (wt->search_version != S->search_version && S->search_json) {
                wt->search_version = S->search_version;
                json = strdup(S->search_json);
                event = "search";
                break;
            }
            if (pthread_cond_timedwait(&S->cond, &S->mu, &until) == ETIMEDOUT)
                break;
        }
        pthread_mutex_unlock(&S->mu);
        size_t need = json ? strlen(json) + 32 : 16;
        text = malloc(need);
        if (!text) {
            free(json);
            return -1;
        }
        wt->len = json ? (size_t)snprintf(text, need, "event: %s\ndata: %s\n\n", event, json)
                       : (size_t)snprintf(text, need, ": keepalive\n\n");
        free(json);
        free(wt->pending);
        wt->pending = text;
        wt->off = 0;
    }
    size_t n = wt->len - wt->off < max ? wt->len - wt->off : max;
    memcpy(buf, wt->pending + wt->off, n);
    wt->off += n;
    return (long)n;
}

void web_watch_close(web_watch *wt)
{
    session *S = wt->s;
    pthread_mutex_lock(&S->mu);
    if (--S->watchers == 0) {
        S->abandoned = true;
        if (S->thread_live && S->status != WEB_IDLE)
            banyan_engine_stop(S->e); /* The page went away: its search ends. */
    }
    pthread_mutex_unlock(&S->mu);
    web_unref(S->w, S);
    free(wt->pending);
    free(wt);
}

/* ---- The keeper ---- */

int web_new(const web_config *c, web **out)
{
    web *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w)
        return BANYAN_ENOMEM;
    w->c = *c;
    if (w->c.sessions < 1)
        w->c.sessions = 1;
    if (w->c.max_threads < 1)
        w->c.max_threads = 1;
    w->table = calloc((size_t)w->c.sessions, sizeof *w->table);
    if (!w->table) {
        free(w);
        return BANYAN_ENOMEM;
    }
    pthread_mutex_init(&w->mu, NULL);
    atomic_init(&w->down, false);
    atomic_init(&w->port, c->port);
    *out = w;
    return BANYAN_OK;
}

void web_set_port(web *w, int port)
{
    atomic_store(&w->port, port);
}

void web_shutdown(web *w)
{
    atomic_store(&w->down, true);
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < w->c.sessions; i++) {
        session *S = w->table[i];
        if (!S)
            continue;
        pthread_mutex_lock(&S->mu);
        pthread_cond_broadcast(&S->cond);
        if (S->thread_live)
            banyan_engine_stop(S->e);
        pthread_mutex_unlock(&S->mu);
    }
    pthread_mutex_unlock(&w->mu);
}

void web_free(web *w)
{
    if (!w)
        return;
    web_shutdown(w);
    for (int i = 0; i < w->c.sessions; i++) {
        pthread_mutex_lock(&w->mu);
        session *S = w->table[i];
        bool last = S && web_close_locked(w, i);
        pthread_mutex_unlock(&w->mu);
        if (last)
            web_destroy(S);
    }
    pthread_mutex_destroy(&w->mu);
    free(w->table);
    free(w);
}
