/*
 * gtp.c - the Go Text Protocol, version 2, for every game of the engine.
 *
 * A session owns one engine and the game's record (record.h): undo replays
 * it, since engines never undo. Commands are a
 * table sorted by name. Every input line is cleaned as the specification
 * says (control characters dropped, tabs to spaces, comments cut), an
 * optional numeric id is echoed in the response, and every problem becomes
 * a "? message" response: nothing a controller sends ends the session but
 * quit and the end of input.
 *
 * Vertices come from the game's description (gtp_coords): games played on
 * cells use GTP's letters, A to Z without I, rows from the bottom, and
 * "pass"; dropping games a column letter; others their own notation.
 * boardsize sets the parameters whose role is the board's width and height,
 * and showboard labels the board in the vertices GTP uses. banyan-set
 * changes an engine option (options.h) and keeps the game. Uses only the
 * public API.
 *
 * Pondering (gtp_set_ponder, off by default so that sessions are
 * reproducible): after a genmove, gtp_run searches on a thread of its own
 * while it waits for the next line, and stops and joins that search before
 * executing the line. The opponent's move then keeps its subtree.
 */
#include "gtp.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ponder.h"
#include "record.h"

#define GTP_DEFAULT_PLAYOUTS 50000
#define GTP_OUT_MAX          65536 /* Longest response: a board diagram or a table. */

struct gtp {
    banyan_engine *e;
    net_evaluator *ev; /* The network's evaluator of e (net=FILE), or NULL. */
    const banyan_game *g;
    unsigned coords;                      /* gtp_coords(g). */
    record rec;                           /* The game: parameters and moves since the start. */
    options opt;                          /* Engine configuration and per-move limits. */
    double komi;                          /* Stored; used by games with a score. */
    bool timed;                           /* The controller set a clock. */
    double main_time, byo_time;           /* Seconds, from time_settings or kgs-time_settings. */
    int byo_stones;                       /* Canadian: stones per period. */
    int byo_periods;                      /* Japanese byo-yomi: periods. */
    double time_left[BANYAN_MAX_PLAYERS]; /* Seconds, from time_left; < 0 unknown. */
    int stones_left[BANYAN_MAX_PLAYERS];
    FILE *out;
    line_reader *in;        /* Polled by lz-analyze; may be NULL. */
    const char *id;         /* Id of the command being answered. */
    char resp[GTP_OUT_MAX]; /* The response being built. */
    size_t resp_len;
    bool stream_stop; /* lz-analyze: the next command arrived. */
    bool ponder_on;   /* Ponder after genmove (gtp_set_ponder). */
    bool moved;       /* The command just executed was a genmove that played. */
    ponder pondering; /* The search on the opponent's time, while gtp_run waits. */
};

/* ---- Responses ---- */

static void gtp_append(gtp *ctx, const char *fmt, ...)
{
    va_list ap;
    size_t room = sizeof ctx->resp - ctx->resp_len;
    va_start(ap, fmt);
    int n = vsnprintf(ctx->resp + ctx->resp_len, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        ctx->resp_len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Sends "=id text" or "?id text", then the empty line that ends it. */
static void gtp_send(gtp *ctx, bool ok)
{
    fprintf(ctx->out, "%c%s%s%.*s\n\n", ok ? '=' : '?', ctx->id, ctx->resp_len ? " " : "",
            (int)ctx->resp_len, ctx->resp);
    fflush(ctx->out);
}

static int gtp_fail(gtp *ctx, const char *msg)
{
    ctx->resp_len = 0;
    gtp_append(ctx, "%s", msg);
    return -1;
}

/* ---- Vertices, colours and the engine ---- */

static const void *gtp_state_of(gtp *ctx)
{
    return banyan_engine_state(ctx->e);
}

unsigned gtp_coords(const banyan_game *g)
{
    return g->coords & BANYAN_COORDS_GTP      ? BANYAN_COORDS_GTP
           : g->coords & BANYAN_COORDS_COLUMN ? BANYAN_COORDS_COLUMN
                                              : 0;
}

static const char *gtp_move_text(gtp *ctx, const void *s, banyan_move m, char *buf, size_t len)
{
    if (banyan_game_format(ctx->g, s, m, ctx->coords, buf, len) < 0)
        snprintf(buf, len, "-");
    return buf;
}

/* Parses a vertex (or the game's own move) at the root. */
static int gtp_parse_vertex(gtp *ctx, const char *text, banyan_move *out)
{
    return banyan_game_parse(ctx->g, gtp_state_of(ctx), ctx->coords, text, out);
}

/* "b", "black", "w", "white" in any case: player 0 or 1; -1 otherwise. */
static int gtp_color(const char *s)
{
    static const char *const names[] = {"b", "black", "w", "white"};
    for (int i = 0; i < 4; i++) {
        const char *a = names[i], *b = s;
        while (*a && tolower((unsigned char)*b) == *a)
            a++, b++;
        if (!*a && !*b)
            return i / 2;
    }
    return -1;
}

static bool gtp_over(gtp *ctx)
{
    double ret[BANYAN_MAX_PLAYERS];
    return ctx->g->outcome(gtp_state_of(ctx), ret);
}

/* Rebuilds the engine's position from the start and the first n moves. */
static void gtp_replay(gtp *ctx, int n)
{
    record_undo(&ctx->rec, ctx->rec.n_moves - n);
    record_replay(&ctx->rec, ctx->e, n);
}

/* Makes a new engine for game g with params and the session's options, and
 * a new record for it, replaying the moves when keep is set (an option
 * changed, the game did not). The old engine and record stay on failure. */
static int gtp_switch(gtp *ctx, const banyan_game *g, const char *params, bool keep)
{
    banyan_engine *e;
    net_evaluator *ev;
    record rec;
    char why[512];
    int rc = options_engine_new(&ctx->opt, &ctx->opt.cfg, g, params, &e, &ev, why, sizeof why);
    if (rc != BANYAN_OK) {
        if (why[0])
            return gtp_fail(ctx, why);
        if (banyan_params_check(g, params, why, sizeof why) != BANYAN_OK)
            return gtp_fail(ctx, why);
        if (banyan_config_check(g, &ctx->opt.cfg))
            return gtp_fail(ctx, banyan_config_check(g, &ctx->opt.cfg));
        return gtp_fail(ctx, rc == BANYAN_ENOMEM ? "out of memory" : "bad parameters or options");
    }
    if (record_init(&rec, g, params, NULL, why, sizeof why) != BANYAN_OK) {
        banyan_engine_free(e);
        net_evaluator_free(ev);
        return gtp_fail(ctx, why);
    }
    for (int i = 0; keep && i < ctx->rec.n_moves; i++)
        record_push(&rec, ctx->rec.moves[i].move, ctx->rec.moves[i].seconds, NULL);
    if (keep && rec.n_moves == ctx->rec.n_moves)
        record_replay(&rec, e, rec.n_moves);
    banyan_engine_free(ctx->e);
    net_evaluator_free(ctx->ev);
    record_free(&ctx->rec);
    ctx->e = e;
    ctx->ev = ev;
    ctx->g = g;
    ctx->rec = rec;
    ctx->coords = gtp_coords(g);
    return 0;
}

/* Copies params without the keys of g whose role has a bit of roles. */
static void gtp_params_without(const banyan_game *g, const char *params, unsigned roles, char *out,
                               size_t len)
{
    const char *cur = params;
    char key[64], val[128];
    size_t used = 0;
    out[0] = 0;
    while (banyan_params_next(&cur, key, sizeof key, val, sizeof val) == 1) {
        const banyan_param *p = banyan_game_param(g, key);
        if (p && (p->role & roles))
            continue;
        int n = snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", key, val);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
}

/* The limits of the next genmove: the command-line limits, or the plan of
 * banyan_time_plan() for the clock the controller set (a soft time, a hard
 * time for unclear positions, and an early stop), with a playout cap from
 * the command line still applying. */
static banyan_limits gtp_move_limits(gtp *ctx)
{
    banyan_limits lim = ctx->opt.lim;
    lim.progress = NULL;
    if (!lim.playouts && lim.time <= 0 && !lim.nodes)
        lim.playouts = GTP_DEFAULT_PLAYOUTS;
    if (!ctx->timed)
        return lim;
    int p = ctx->g->to_move(gtp_state_of(ctx));
    double left = ctx->time_left[p] >= 0 ? ctx->time_left[p] : ctx->main_time;
    int stones = ctx->stones_left[p];
    banyan_clock c = {0};
    if (stones == 0) {
        c.main_time = left; /* Main time: overtime, if any, follows. */
        c.period_time = ctx->byo_time;
        c.periods = ctx->byo_periods;
        c.period_stones = ctx->byo_stones;
    } else if (ctx->byo_periods > 0) {
        c.period_time = ctx->byo_time; /* Japanese: time_left counts periods. */
        c.periods = stones;
    } else {
        c.period_time = left; /* Canadian: the period's time and stones. */
        c.period_stones = stones;
    }
    double soft, hard;
    if (banyan_time_plan(&c, 0, &soft, &hard) != BANYAN_OK) {
        soft = hard = 0.05; /* No time left that the rules allow for: move at once. */
    }
    lim.time = soft;
    lim.time_max = hard;
    lim.stop_early = true;
    lim.playouts = ctx->opt.lim.playouts;
    return lim;
}

/* ---- Commands ---- */

typedef int gtp_handler(gtp *ctx, int argc, char **argv);

static int gtp_protocol_version(gtp *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_append(ctx, "2");
    return 0;
}

static int gtp_name(gtp *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_append(ctx, "Banyan");
    return 0;
}

static int gtp_version(gtp *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_append(ctx, "%s", banyan_version());
    return 0;
}

static int gtp_quit(gtp *ctx, int argc, char **argv)
{
    (void)ctx, (void)argc, (void)argv;
    return 0;
}

/* boardsize N: every parameter whose role is the board's width or height
 * becomes N; a game without such parameters has no acceptable size. */
static int gtp_boardsize(gtp *ctx, int argc, char **argv)
{
    const unsigned roles = BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT;
    long n;
    char params[RECORD_PARAMS_MAX];
    size_t used;
    bool any = false;
    if (argc != 1 || banyan_parse_int(argv[0], 0, 1000000, &n) != BANYAN_OK)
        return gtp_fail(ctx, "syntax error");
    gtp_params_without(ctx->g, ctx->rec.params, roles, params, sizeof params);
    used = strlen(params);
    for (const banyan_param *p = ctx->g->params; p && p->name; p++) {
        if (!(p->role & roles))
            continue;
        if (p->type != BANYAN_PARAM_INT || n < p->min || n > p->max)
            return gtp_fail(ctx, "unacceptable size");
        int k =
            snprintf(params + used, sizeof params - used, "%s%s=%ld", used ? " " : "", p->name, n);
        if (k < 0 || (size_t)k >= sizeof params - used)
            return gtp_fail(ctx, "unacceptable size");
        used += (size_t)k;
        any = true;
    }
    if (!any || gtp_switch(ctx, ctx->g, params, false) != 0)
        return gtp_fail(ctx, "unacceptable size");
    return 0;
}

static int gtp_clear_board(gtp *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    gtp_replay(ctx, 0);
    return 0;
}

/* The game's score (banyan_game.score), player 0 being Black: "B+12",
 * "W+2", or "0"; final once the game is over, as it stands before. */
static int gtp_final_score(gtp *ctx, int argc, char **argv)
{
    (void)argv;
    if (argc != 0)
        return gtp_fail(ctx, "syntax error");
    if (!ctx->g->score)
        return gtp_fail(ctx, "cannot score");
    double v = ctx->g->score(gtp_state_of(ctx));
    if (v == 0)
        gtp_append(ctx, "0");
    else
        gtp_append(ctx, "%c+%g", v > 0 ? 'B' : 'W', fabs(v));
    return 0;
}

static int gtp_komi(gtp *ctx, int argc, char **argv)
{
    char *end;
    double k = argc == 1 ? strtod(argv[0], &end) : NAN;
    if (argc != 1 || *end || !isfinite(k))
        return gtp_fail(ctx, "syntax error");
    ctx->komi = k;
    return 0;
}

/* Passes the game forces: while the colour named is not the one to move
 * and the player to move has no move but a pass, the pass is played, as
 * controllers of programs that pass implicitly (GRhino, in Othello)
 * expect. Returns BANYAN_OK or record_push()'s error. */
static int gtp_forced_passes(gtp *ctx, int color)
{
    const banyan_game *g = ctx->g;
    banyan_move legal[BANYAN_MAX_MOVES];
    int x, y;
    while (color != g->to_move(gtp_state_of(ctx)) && g->place &&
           g->moves(gtp_state_of(ctx), legal) == 1 &&
           g->place(gtp_state_of(ctx), legal[0], &x, &y) == BANYAN_PLACE_PASS) {
        int rc = record_push(&ctx->rec, legal[0], -1, NULL);
        if (rc != BANYAN_OK)
            return rc;
        banyan_engine_play(ctx->e, legal[0]);
    }
    return BANYAN_OK;
}

static int gtp_play(gtp *ctx, int argc, char **argv)
{
    banyan_move m;
    if (argc != 2)
        return gtp_fail(ctx, "syntax error");
    int color = gtp_color(argv[0]);
    if (color < 0)
        return gtp_fail(ctx, "syntax error");
    int rc = gtp_parse_vertex(ctx, argv[1], &m);
    if (rc == BANYAN_EINVAL && strcasecmp(argv[1], "pass") != 0)
        return gtp_fail(ctx, "syntax error");
    if (rc == BANYAN_OK && gtp_forced_passes(ctx, color) != BANYAN_OK)
        return gtp_fail(ctx, "out of memory");
    if (rc != BANYAN_OK || color != ctx->g->to_move(gtp_state_of(ctx)))
        return gtp_fail(ctx, "illegal move");
    rc = record_push(&ctx->rec, m, -1, NULL);
    if (rc != BANYAN_OK)
        return gtp_fail(ctx, rc == BANYAN_ENOMEM ? "out of memory" : "illegal move");
    banyan_engine_play(ctx->e, m);
    return 0;
}

static int gtp_genmove(gtp *ctx, int argc, char **argv)
{
    banyan_report r;
    char buf[64];
    if (argc != 1)
        return gtp_fail(ctx, "syntax error");
    int color = gtp_color(argv[0]);
    if (color < 0)
        return gtp_fail(ctx, "syntax error");
    if (gtp_over(ctx))
        return gtp_fail(ctx, "game is over");
    if (gtp_forced_passes(ctx, color) != BANYAN_OK)
        return gtp_fail(ctx, "out of memory");
    if (color != ctx->g->to_move(gtp_state_of(ctx)))
        return gtp_fail(ctx, "it is the other colour's turn");
    banyan_limits lim = gtp_move_limits(ctx);
    banyan_engine_search(ctx->e, &lim, &r);
    if (record_push(&ctx->rec, r.best, r.seconds, NULL) != BANYAN_OK)
        return gtp_fail(ctx, "out of memory");
    gtp_append(ctx, "%s", gtp_move_text(ctx, gtp_state_of(ctx), r.best, buf, sizeof buf));
    banyan_engine_play(ctx->e, r.best);
    ctx->moved = true;
    return 0;
}

static int gtp_undo(gtp *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    if (ctx->rec.n_moves == 0)
        return gtp_fail(ctx, "cannot undo");
    gtp_replay(ctx, ctx->rec.n_moves - 1);
    return 0;
}

static int gtp_showboard(gtp *ctx, int argc, char **argv)
{
    char buf[16384];
    (void)argc, (void)argv;
    int n_moves = ctx->rec.n_moves;
    /* Labelled in GTP's vertices where the game has them, so that a stone
     * played at J8 is drawn under J; otherwise the game's own diagram. */
    banyan_game_print(ctx->g, gtp_state_of(ctx),
                      n_moves ? ctx->rec.moves[n_moves - 1].move : BANYAN_MOVE_NONE,
                      ctx->coords == BANYAN_COORDS_GTP ? BANYAN_COORDS_GTP : 0, buf, sizeof buf);
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n')
        buf[n - 1] = 0; /* The response's own line end follows. */
    gtp_append(ctx, "\n%s", buf);
    return 0;
}

/* Sets the clock of both players: main time, then overtime periods of
 * byo_time seconds, Canadian (stones per period) or Japanese (periods). */
static void gtp_set_clock(gtp *ctx, double main_time, double byo_time, int stones, int periods)
{
    ctx->main_time = main_time;
    ctx->byo_time = byo_time;
    ctx->byo_stones = stones;
    ctx->byo_periods = periods;
    for (int p = 0; p < BANYAN_MAX_PLAYERS; p++) {
        ctx->time_left[p] = -1;
        ctx->stones_left[p] = 0;
    }
}

static int gtp_time_settings(gtp *ctx, int argc, char **argv)
{
    long main_time, byo_time, byo_stones;
    if (argc != 3 || banyan_parse_int(argv[0], 0, 100000000, &main_time) != BANYAN_OK ||
        banyan_parse_int(argv[1], 0, 100000000, &byo_time) != BANYAN_OK ||
        banyan_parse_int(argv[2], 0, 100000000, &byo_stones) != BANYAN_OK)
        return gtp_fail(ctx, "syntax error");
    /* GTP's byo-yomi is Canadian: byo_time for byo_stones stones. Byo-yomi
     * time with no stones means no time limit (the specification). */
    gtp_set_clock(ctx, (double)main_time, byo_stones > 0 ? (double)byo_time : 0, (int)byo_stones,
                  0);
    ctx->timed = main_time > 0 || (byo_time > 0 && byo_stones > 0);
    return 0;
}

/* kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS |
 * canadian MAIN PERIOD STONES: the systems the KGS server uses. */
static int gtp_kgs_time_settings(gtp *ctx, int argc, char **argv)
{
    long v[3] = {0, 0, 0};
    static const char *const kinds[] = {"none", "absolute", "byoyomi", "canadian"};
    static const int n_args[] = {0, 1, 3, 3};
    int kind = -1;
    for (int k = 0; k < 4 && argc >= 1; k++)
        if (!strcasecmp(argv[0], kinds[k]))
            kind = k;
    if (kind < 0 || argc != 1 + n_args[kind])
        return gtp_fail(ctx, "syntax error");
    for (int i = 0; i < n_args[kind]; i++)
        if (banyan_parse_int(argv[1 + i], 0, 100000000, &v[i]) != BANYAN_OK)
            return gtp_fail(ctx, "syntax error");
    if (kind == 2)
        gtp_set_clock(ctx, (double)v[0], (double)v[1], 0, (int)v[2]);
    else
        gtp_set_clock(ctx, (double)v[0], (double)v[1], (int)v[2], 0);
    ctx->timed = kind == 1 ? v[0] > 0 : kind >= 2 ? v[0] > 0 || (v[1] > 0 && v[2] > 0) : false;
    return 0;
}

static int gtp_time_left(gtp *ctx, int argc, char **argv)
{
    long t, stones;
    int color = argc == 3 ? gtp_color(argv[0]) : -1;
    if (color < 0 || banyan_parse_int(argv[1], 0, 100000000, &t) != BANYAN_OK ||
        banyan_parse_int(argv[2], 0, 100000000, &stones) != BANYAN_OK)
        return gtp_fail(ctx, "syntax error");
    ctx->time_left[color] = (double)t;
    ctx->stones_left[color] = (int)stones;
    return 0;
}

static int gtp_banyan_game(gtp *ctx, int argc, char **argv)
{
    char params[256] = "";
    size_t used = 0;
    if (argc < 1)
        return gtp_fail(ctx, "syntax error");
    const banyan_game *g = banyan_game_find(argv[0]);
    if (!g)
        return gtp_fail(ctx, "unknown game");
    for (int i = 1; i < argc; i++) {
        int n = snprintf(params + used, sizeof params - used, "%s%s", used ? " " : "", argv[i]);
        if (n < 0 || (size_t)n >= sizeof params - used)
            return gtp_fail(ctx, "parameters too long");
        used += (size_t)n;
    }
    return gtp_switch(ctx, g, params, false);
}

/* banyan-set NAME VALUE: an engine option of options.h. Options of the
 * engine itself make a new one, which replays the game. */
static int gtp_banyan_set(gtp *ctx, int argc, char **argv)
{
    char err[256];
    options old = ctx->opt;
    if (argc != 2)
        return gtp_fail(ctx, "syntax error");
    if (options_set(&ctx->opt, argv[0], argv[1], OPTIONS_LIVE, err, sizeof err) != BANYAN_OK)
        return gtp_fail(ctx, err);
    if (options_need_engine(argv[0]) && gtp_switch(ctx, ctx->g, ctx->rec.params, true) != 0) {
        ctx->opt = old;
        return -1;
    }
    return 0;
}

/* Writes one analysis update in the format of Leela Zero, which Sabaki and
 * Lizzie read: every root move's "info move ... pv ..." on one line. */
static void gtp_write_info(gtp *ctx, const banyan_report *r)
{
    const banyan_game *g = ctx->g;
    const void *s = gtp_state_of(ctx);
    char buf[64];
    unsigned char scratch[1 << 16];
    if (g->state_size > sizeof scratch)
        return;
    for (int i = 0; i < r->n_moves; i++) {
        const banyan_move_stats *m = &r->moves[i];
        if (!m->visits)
            continue;
        fprintf(ctx->out, "%sinfo move %s visits %u winrate %d prior %d order %d pv", i ? " " : "",
                gtp_move_text(ctx, s, m->move, buf, sizeof buf), m->visits,
                (int)lrint(m->value * 10000), (int)lrint(m->prior * 10000), i);
        memcpy(scratch, s, g->state_size);
        for (int k = 0; k < m->pv_len; k++) {
            fprintf(ctx->out, " %s", gtp_move_text(ctx, scratch, m->pv[k], buf, sizeof buf));
            g->play(scratch, m->pv[k]);
        }
    }
    fprintf(ctx->out, "\n");
    fflush(ctx->out);
}

/* Progress callback of lz-analyze: an update, and a stop when the next
 * command is waiting (or at once without an input to watch). */
static void gtp_analyze_progress(void *ud, const banyan_report *r)
{
    gtp *ctx = ud;
    gtp_write_info(ctx, r);
    if (!ctx->in || line_ready(ctx->in)) {
        ctx->stream_stop = true;
        banyan_engine_stop(ctx->e);
    }
}

/* lz-analyze [colour] [interval]: streams updates every interval
 * centiseconds until the next command arrives. The response is sent here
 * (its "=" line, the updates, then the empty line). */
static int gtp_lz_analyze(gtp *ctx, int argc, char **argv)
{
    long interval = 100;
    for (int i = 0; i < argc; i++) {
        long v;
        if (gtp_color(argv[i]) >= 0)
            continue;
        if (!strcmp(argv[i], "interval") && i + 1 < argc)
            i++;
        if (banyan_parse_int(argv[i], 1, 100000, &v) != BANYAN_OK)
            return gtp_fail(ctx, "syntax error");
        interval = v;
    }
    fprintf(ctx->out, "=%s\n", ctx->id);
    fflush(ctx->out);
    if (!gtp_over(ctx)) {
        banyan_limits lim = {.time = 1e6,
                             .progress = gtp_analyze_progress,
                             .progress_ud = ctx,
                             .progress_interval = (double)interval / 100};
        if (!ctx->in) {
            /* Nothing to watch for the next command: one short search and
             * its update (fuzzing and scripted use). */
            lim = (banyan_limits){.playouts = 64};
        }
        banyan_report r;
        ctx->stream_stop = false;
        banyan_engine_search(ctx->e, &lim, &r);
        if (!ctx->stream_stop)
            gtp_write_info(ctx, &r); /* Ended by itself (a proof): the last word. */
    }
    fprintf(ctx->out, "\n");
    fflush(ctx->out);
    return 1; /* Already sent. */
}

/* banyan-analyze [playouts]: the statistics table of `banyan analyze`. */
static int gtp_banyan_analyze(gtp *ctx, int argc, char **argv)
{
    banyan_limits lim = gtp_move_limits(ctx);
    banyan_report r;
    char buf[64];
    long n;
    if (argc > 1 || (argc == 1 && banyan_parse_int(argv[0], 1, 100000000, &n) != BANYAN_OK))
        return gtp_fail(ctx, "syntax error");
    if (argc == 1) {
        lim.playouts = (uint64_t)n;
        lim.time = 0;
    }
    if (gtp_over(ctx))
        return gtp_fail(ctx, "game is over");
    banyan_engine_search(ctx->e, &lim, &r);
    const void *s = gtp_state_of(ctx);
    gtp_append(ctx, "bestmove %s\nmove visits winrate prior proof",
               gtp_move_text(ctx, s, r.best, buf, sizeof buf));
    for (int i = 0; i < r.n_moves; i++) {
        const banyan_move_stats *m = &r.moves[i];
        static const char *const proofs[] = {"-", "win", "loss", "draw"};
        gtp_append(ctx, "\n%s %u %.4f %.4f %s", gtp_move_text(ctx, s, m->move, buf, sizeof buf),
                   m->visits, m->value, m->prior, proofs[m->proof & 3]);
    }
    gtp_append(ctx, "\nplayouts %llu nodes %llu%s", (unsigned long long)r.playouts,
               (unsigned long long)r.nodes, r.tree_full ? " tree-full" : "");
    return 0;
}

/* banyan-tree: "nodes N", the nodes the tree holds now (it grows while
 * pondering, and keeps the subtree of each move played). */
static int gtp_banyan_tree(gtp *ctx, int argc, char **argv)
{
    banyan_report r;
    (void)argv;
    if (argc != 0)
        return gtp_fail(ctx, "syntax error");
    banyan_engine_report(ctx->e, &r);
    gtp_append(ctx, "nodes %llu", (unsigned long long)r.nodes);
    return 0;
}

static int gtp_known_command(gtp *ctx, int argc, char **argv);
static int gtp_list_commands(gtp *ctx, int argc, char **argv);

/* Sorted by name; list_commands prints them in this order. */
static const struct gtp_command {
    const char *name;
    gtp_handler *run;
} gtp_commands[] = {
    {"banyan-analyze", gtp_banyan_analyze},
    {"banyan-game", gtp_banyan_game},
    {"banyan-set", gtp_banyan_set},
    {"banyan-tree", gtp_banyan_tree},
    {"boardsize", gtp_boardsize},
    {"clear_board", gtp_clear_board},
    {"final_score", gtp_final_score},
    {"genmove", gtp_genmove},
    {"kgs-time_settings", gtp_kgs_time_settings},
    {"known_command", gtp_known_command},
    {"komi", gtp_komi},
    {"list_commands", gtp_list_commands},
    {"lz-analyze", gtp_lz_analyze},
    {"name", gtp_name},
    {"play", gtp_play},
    {"protocol_version", gtp_protocol_version},
    {"quit", gtp_quit},
    {"showboard", gtp_showboard},
    {"time_left", gtp_time_left},
    {"time_settings", gtp_time_settings},
    {"undo", gtp_undo},
    {"version", gtp_version},
};

static const struct gtp_command *gtp_find(const char *name)
{
    for (size_t i = 0; i < sizeof gtp_commands / sizeof gtp_commands[0]; i++)
        if (!strcmp(gtp_commands[i].name, name))
            return &gtp_commands[i];
    return NULL;
}

static int gtp_known_command(gtp *ctx, int argc, char **argv)
{
    if (argc != 1)
        return gtp_fail(ctx, "syntax error");
    gtp_append(ctx, "%s", gtp_find(argv[0]) ? "true" : "false");
    return 0;
}

static int gtp_list_commands(gtp *ctx, int argc, char **argv)
{
    (void)argc, (void)argv;
    for (size_t i = 0; i < sizeof gtp_commands / sizeof gtp_commands[0]; i++)
        gtp_append(ctx, "%s%s", i ? "\n" : "", gtp_commands[i].name);
    return 0;
}

/* ---- Sessions ---- */

/* Cleans a line as GTP says: control characters other than HT and LF are
 * removed, HT becomes a space, and a comment (from #) is cut off. */
static void gtp_clean(char *line)
{
    char *w = line;
    for (char *r = line; *r && *r != '#'; r++) {
        unsigned char c = (unsigned char)*r;
        if (c == '\t')
            *w++ = ' ';
        else if (c >= 32 && c != 127)
            *w++ = (char)c;
    }
    *w = 0;
}

bool gtp_execute(gtp *ctx, char *line)
{
    char *argv[32];
    int argc = 0;
    char id[24] = "";
    gtp_clean(line);

    /* Split into words; an all-digit first word is the id. */
    for (char *tok = strtok(line, " "); tok; tok = strtok(NULL, " ")) {
        if (argc == 32) {
            ctx->id = id;
            ctx->resp_len = 0;
            gtp_append(ctx, "too many arguments");
            gtp_send(ctx, false);
            return false;
        }
        argv[argc++] = tok;
    }
    if (argc == 0)
        return false; /* Empty lines and comments get no response. */
    int first = 0;
    if (strspn(argv[0], "0123456789") == strlen(argv[0])) {
        snprintf(id, sizeof id, "%.20s", argv[0]);
        first = 1;
    }
    ctx->id = id;
    ctx->resp_len = 0;
    if (first == argc) {
        gtp_append(ctx, "no command");
        gtp_send(ctx, false);
        return false;
    }
    const struct gtp_command *cmd = gtp_find(argv[first]);
    if (!cmd) {
        gtp_append(ctx, "unknown command");
        gtp_send(ctx, false);
        return false;
    }
    int rc = cmd->run(ctx, argc - first - 1, argv + first + 1);
    if (rc <= 0)
        gtp_send(ctx, rc == 0);
    return cmd->run == gtp_quit;
}

gtp *gtp_new(const banyan_game *g, const char *params, const options *opt, FILE *out,
             line_reader *in, char *err, size_t errlen)
{
    gtp *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (opt)
        ctx->opt = *opt;
    else
        options_init(&ctx->opt);
    ctx->out = out;
    ctx->in = in;
    ctx->id = "";
    ctx->komi = 0;
    if (gtp_switch(ctx, g, params ? params : "", false) != 0) {
        snprintf(err, errlen, "cannot start %s with \"%s\": %.*s", g->name, params ? params : "",
                 (int)ctx->resp_len, ctx->resp);
        free(ctx);
        return NULL;
    }
    return ctx;
}

void gtp_set_ponder(gtp *ctx, bool on)
{
    ctx->ponder_on = on;
}

void gtp_free(gtp *ctx)
{
    if (ctx) {
        ponder_stop(&ctx->pondering);
        banyan_engine_free(ctx->e);
        net_evaluator_free(ctx->ev);
        record_free(&ctx->rec);
        free(ctx);
    }
}

int gtp_run(gtp *ctx, line_reader *in)
{
    char line[LINE_BUF];
    bool too_long;
    for (;;) {
        /* Ponder after our move, unless the next line is already here. */
        if (ctx->ponder_on && ctx->moved && !gtp_over(ctx) && !line_ready(in))
            ponder_start(&ctx->pondering, ctx->e);
        ctx->moved = false;
        int got = line_next(in, line, sizeof line, &too_long);
        ponder_stop(&ctx->pondering);
        if (!got)
            break;
        if (too_long) {
            fprintf(ctx->out, "? line too long\n\n");
            fflush(ctx->out);
            continue;
        }
        if (gtp_execute(ctx, line))
            break;
    }
    return 0;
}
