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
 * and showboard labels the board in the vertices GTP uses; komi sets the
 * parameter whose role is the komi. banyan-set changes an engine option
 * (options.h) and keeps the game. Uses only the public API.
 *
 * What GUIs send in a game of Go works for any game whose description
 * allows it: handicap stones (fixed_handicap, place_free_handicap,
 * set_free_handicap) on square boards of GTP vertices with a pass, as
 * Black's stones alternating with White's passes, so that records stay
 * plain move lists; loadsgf and printsgf through record.h; and, for games
 * with owner(), final_status_list and final_score from an ownership
 * estimate (gtp_estimate) and kata-analyze's ownership.
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

#include "os.h"
#include "ponder.h"
#include "record.h"

#define GTP_DEFAULT_PLAYOUTS 50000
#define GTP_OUT_MAX          65536 /* Longest response: a board diagram, a table or an SGF record. */
#define GTP_CELLS_MAX        4096  /* Cells of the largest board ownership is kept for (64 x 64). */
#define GTP_SCORE_PLAYOUTS   5000  /* Most playouts of the search that estimates ownership. */
#define GTP_SCORE_MEMORY     (32u << 20) /* Most arena bytes of that search's engine. */
#define GTP_DEAD             0.5  /* A stone is dead where its colour's ownership is below -this. */
#define GTP_DAME             0.2  /* A cell counts for nobody where |ownership| is below this. */
#define GTP_RESIGN           0.1  /* Default resignation threshold (options' resign). */
#define GTP_RESIGN_MOVES     3    /* Genmoves in a row below it before resigning. */
#define GTP_RESIGN_PLAYOUTS  1000 /* Fewest playouts of a search whose value counts. */

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
    bool stream_stop;         /* lz-analyze: the next command arrived. */
    bool stream_kata;         /* The analysis streaming is kata-analyze's. */
    bool ponder_on;           /* Ponder after genmove (gtp_set_ponder). */
    bool moved;               /* The command just executed was a genmove that played. */
    int low;                  /* This session's genmoves in a row whose value was below the
                                 resignation threshold (gtp_resigns). */
    ponder pondering;         /* The search on the opponent's time, while gtp_run waits. */
    bool want_owner;          /* kata-analyze asked for ownership: engines are made with it. */
    bool no_files;            /* loadsgf and printsgf FILE refused (gtp_set_files). */
    bool follower;            /* printsgf FILE writes nothing (gtp_set_follower). */
    uint64_t est_key;         /* gtp_position_key of the position est was estimated for; 0: none. */
    float est[GTP_CELLS_MAX]; /* Estimated ownership (gtp_estimate), first player +1. */
    double owned[GTP_CELLS_MAX]; /* kata-analyze: ownership summed over its searches, */
    double owned_n;              /* weighted by their playouts, whose sum this is. */
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
    return (g->board ? g->board->coords : 0) & BANYAN_COORDS_GTP      ? BANYAN_COORDS_GTP
           : (g->board ? g->board->coords : 0) & BANYAN_COORDS_COLUMN ? BANYAN_COORDS_COLUMN
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

/* Whether move m of s is a pass. */
static bool gtp_is_pass(const banyan_game *g, const void *s, banyan_move m)
{
    int x, y;
    return (g->board && g->board->place) && g->board->place(s, m, &x, &y) == BANYAN_PLACE_PASS;
}

static bool gtp_over(gtp *ctx)
{
    double ret[BANYAN_MAX_PLAYERS];
    return ctx->g->outcome(gtp_state_of(ctx), ret);
}

/* Rebuilds the engine's position from the start and the first n moves. */
static void gtp_replay(gtp *ctx, int n)
{
    ctx->low = 0;
    ctx->rec.result[0] = 0;
    record_undo(&ctx->rec, ctx->rec.n_moves - n);
    record_replay(&ctx->rec, ctx->e, n);
}

/* Makes a new engine for game g with params and the session's options, and
 * a new record for it, with the start and the moves when keep is set (an option
 * changed, the game did not). The old engine and record stay on failure. */
static int gtp_switch(gtp *ctx, const banyan_game *g, const char *params, bool keep)
{
    banyan_engine *e;
    net_evaluator *ev;
    record rec;
    char why[512];
    banyan_config cfg = ctx->opt.cfg;
    /* Ownership (kata-analyze) where the game has it and the leaves are
     * rollouts: a network's evaluations have no final position. */
    cfg.ownership =
        ctx->want_owner && (g->board && g->board->owner) && g->board && !ctx->opt.net[0];
    if (cfg.ownership && banyan_config_check(g, &cfg))
        cfg.ownership = false;
    int rc = options_engine_new(&ctx->opt, &cfg, g, params, &e, &ev, why, sizeof why);
    if (rc != BANYAN_OK) {
        if (why[0])
            return gtp_fail(ctx, why);
        if (banyan_params_check(g, params, why, sizeof why) != BANYAN_OK)
            return gtp_fail(ctx, why);
        if (banyan_config_check(g, &cfg))
            return gtp_fail(ctx, banyan_config_check(g, &cfg));
        return gtp_fail(ctx, rc == BANYAN_ENOMEM ? "out of memory" : "bad parameters or options");
    }
    if (record_init(&rec, g, params, keep ? ctx->rec.start : NULL, why, sizeof why) != BANYAN_OK) {
        banyan_engine_free(e);
        net_evaluator_free(ev);
        return gtp_fail(ctx, why);
    }
    for (int i = 0; keep && i < ctx->rec.n_moves; i++)
        if (record_push(&rec, ctx->rec.moves[i].move, ctx->rec.moves[i].seconds, NULL) == BANYAN_OK)
            rec.moves[i].implied = ctx->rec.moves[i].implied;
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
    ctx->low = 0;
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

/* The limits of the next genmove: the command-line limits (without any,
 * GTP_DEFAULT_PLAYOUTS scaled to the board: options_default_playouts), or the plan of
 * banyan_time_plan() for the clock the controller set (a soft time, a hard
 * time for unclear positions, and an early stop), with a playout cap from
 * the command line still applying. */
static banyan_limits gtp_move_limits(gtp *ctx)
{
    banyan_limits lim = ctx->opt.lim;
    lim.progress = NULL;
    if (!lim.playouts && lim.time <= 0 && !lim.nodes)
        lim.playouts = options_default_playouts(ctx->g, gtp_state_of(ctx), GTP_DEFAULT_PLAYOUTS);
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

/* clear_board: an empty board, also after a game loaded from set-up
 * stones (a start of its own, which undo keeps). */
static int gtp_clear_board(gtp *ctx, int argc, char **argv)
{
    record fresh;
    char why[256];
    (void)argc, (void)argv;
    if (ctx->rec.start) {
        if (record_init(&fresh, ctx->g, ctx->rec.params, NULL, why, sizeof why) != BANYAN_OK)
            return gtp_fail(ctx, why);
        record_free(&ctx->rec);
        ctx->rec = fresh;
    }
    gtp_replay(ctx, 0);
    return 0;
}

/* komi X: where the game has a parameter of role komi, it becomes X and
 * the game goes on with it (a new engine replays the moves); a value out
 * of its range is refused. Other games only store it. */
static int gtp_komi(gtp *ctx, int argc, char **argv)
{
    const banyan_param *komi = NULL;
    char *end, params[RECORD_PARAMS_MAX], now[64];
    double k = argc == 1 ? strtod(argv[0], &end) : NAN;
    if (argc != 1 || *end || !isfinite(k))
        return gtp_fail(ctx, "syntax error");
    for (const banyan_param *p = ctx->g->params; p && p->name; p++)
        if (p->role & BANYAN_ROLE_KOMI)
            komi = p;
    if (komi) {
        if (k < (double)komi->min || k > (double)komi->max)
            return gtp_fail(ctx, "komi out of range");
        if (banyan_params_value(ctx->g, ctx->rec.params, komi->name, now, sizeof now) !=
                BANYAN_OK ||
            strtod(now, NULL) != k) {
            size_t used;
            gtp_params_without(ctx->g, ctx->rec.params, BANYAN_ROLE_KOMI, params, sizeof params);
            used = strlen(params);
            int n = snprintf(params + used, sizeof params - used, "%s%s=%.10g", used ? " " : "",
                             komi->name, k);
            if (n < 0 || (size_t)n >= sizeof params - used ||
                banyan_params_check(ctx->g, params, now, sizeof now) != BANYAN_OK)
                return gtp_fail(ctx, "komi out of range");
            if (gtp_switch(ctx, ctx->g, params, true) != 0)
                return -1;
        }
    }
    ctx->komi = k;
    return 0;
}

/* ---- Boards: handicap stones, ownership and scoring ---- */

/* The side of the game's board where handicap stones can be placed: a
 * square board of cells written in GTP's vertices, with a pass for White
 * between Black's stones; 0 for other games. */
static int gtp_square_side(gtp *ctx)
{
    const banyan_game *g = ctx->g;
    const void *s = gtp_state_of(ctx);
    banyan_move pass;
    int w, h;
    if (ctx->coords != BANYAN_COORDS_GTP || !g->board || g->n_players != 2)
        return 0;
    g->board->board_size(s, &w, &h);
    if (w != h || g->board->place_move(s, BANYAN_PLACE_PASS, 0, 0, &pass) != BANYAN_OK)
        return 0;
    return w;
}

/* Whether nothing was played and no piece stands on the board. */
static bool gtp_board_empty(gtp *ctx, int side)
{
    const void *s = gtp_state_of(ctx);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            if (ctx->g->board->piece(s, x, y) >= 0)
                return false;
    return ctx->rec.n_moves == 0 && ctx->g->to_move(s) == 0;
}

/* The most stones fixed_handicap places on a side x side board (GTP,
 * section 4.1.1): none below 7x7 or beyond the 25 columns GTP's letters
 * name, 4 on 7x7 and on even sizes, 9 on other odd sizes. */
static int gtp_handicap_max(int side)
{
    return side < 7 || side > 25 ? 0 : side == 7 || side % 2 == 0 ? 4 : 9;
}

/* The handicap points of GTP's fixed_handicap for n stones (section
 * 4.1.1), (x, y) from the top-left, into xs and ys, in the order of the
 * specification's table, in 19x19's names: the corners D4 Q16 D16 Q4,
 * then D10 Q10 from 6 stones, K4 K16 from 8, and the centre K10 last for
 * an odd number from 5. The corners are the 3-3 points below 13x13, the
 * 4-4 points from there. Returns n, or 0 when the board takes no such
 * handicap. */
static int gtp_handicap_points(int side, int n, int *xs, int *ys)
{
    int lo = side < 13 ? 2 : 3, hi = side - 1 - lo, mid = side / 2, k = 0;
    /* D4 Q16 D16 Q4 D10 Q10 K4 K16 K10, y from the top. */
    const int px[9] = {lo, hi, lo, hi, lo, hi, mid, mid, mid};
    const int py[9] = {hi, lo, lo, hi, mid, mid, hi, lo, mid};
    if (n < 2 || n > gtp_handicap_max(side))
        return 0;
    for (int j = 0; j < 9; j++) {
        bool take = j < 4 ? j < n : j < 6 ? n >= 6 : j < 8 ? n >= 8 : n >= 5 && n % 2;
        if (take) {
            xs[k] = px[j];
            ys[k++] = py[j];
        }
    }
    return k;
}

/* Places Black's handicap stones at (xs[i], ys[i]), each after a White
 * pass but the first, in the record and then the engine: the record stays
 * a plain move list (SGF included), and White moves next. Appends their
 * vertices to the response when answer is set. Returns 0, or -1 with "bad
 * vertex list" when one is not legal (the record is then as it was). */
static int gtp_put_handicap(gtp *ctx, int n, const int *xs, const int *ys, bool answer)
{
    const banyan_game *g = ctx->g;
    banyan_move pass, m;
    char buf[64];
    int start = ctx->rec.n_moves;
    g->board->place_move(record_state(&ctx->rec), BANYAN_PLACE_PASS, 0, 0, &pass);
    for (int i = 0; i < n; i++) {
        if ((i > 0 && record_push(&ctx->rec, pass, -1, NULL) != BANYAN_OK) ||
            g->board->place_move(record_state(&ctx->rec), BANYAN_PLACE_CELL, xs[i], ys[i], &m) !=
                BANYAN_OK) {
            record_undo(&ctx->rec, ctx->rec.n_moves - start);
            return gtp_fail(ctx, "bad vertex list");
        }
        gtp_move_text(ctx, record_state(&ctx->rec), m, buf, sizeof buf);
        if (record_push(&ctx->rec, m, -1, NULL) != BANYAN_OK) {
            record_undo(&ctx->rec, ctx->rec.n_moves - start);
            return gtp_fail(ctx, "bad vertex list");
        }
        if (answer)
            gtp_append(ctx, "%s%s", i ? " " : "", buf);
    }
    for (int i = start; i < ctx->rec.n_moves; i++)
        banyan_engine_play(ctx->e, ctx->rec.moves[i].move);
    return 0;
}

/* fixed_handicap N and place_free_handicap N: the points of GTP's table;
 * place_free_handicap takes any number from 2 to the board's cells less
 * one, as the specification allows, and places as many of them as the
 * table has (the specification lets an engine place fewer). */
static int gtp_handicap(gtp *ctx, int argc, char **argv, bool free_placement)
{
    int xs[9], ys[9], side = gtp_square_side(ctx);
    long n;
    if (argc != 1 || banyan_parse_int(argv[0], 0, 1000000, &n) != BANYAN_OK)
        return gtp_fail(ctx, "syntax error");
    if (!side)
        return gtp_fail(ctx, "no handicap in this game");
    if (!gtp_board_empty(ctx, side))
        return gtp_fail(ctx, "board not empty");
    if (free_placement && n >= 2 && n < (long)side * side && n > gtp_handicap_max(side))
        n = gtp_handicap_max(side);
    if (!gtp_handicap_points(side, (int)n, xs, ys))
        return gtp_fail(ctx, "invalid number of stones");
    return gtp_put_handicap(ctx, (int)n, xs, ys, true);
}

static int gtp_fixed_handicap(gtp *ctx, int argc, char **argv)
{
    return gtp_handicap(ctx, argc, argv, false);
}

static int gtp_place_free_handicap(gtp *ctx, int argc, char **argv)
{
    return gtp_handicap(ctx, argc, argv, true);
}

/* set_free_handicap V1 V2 ...: Black's stones where the controller says;
 * at least two, each a cell named once. */
static int gtp_set_free_handicap(gtp *ctx, int argc, char **argv)
{
    int xs[32], ys[32], side = gtp_square_side(ctx);
    banyan_move m;
    if (!side)
        return gtp_fail(ctx, "no handicap in this game");
    if (!gtp_board_empty(ctx, side))
        return gtp_fail(ctx, "board not empty");
    if (argc < 2 || argc > 32 || argc >= side * side)
        return gtp_fail(ctx, "bad vertex list");
    for (int i = 0; i < argc; i++) {
        if (gtp_parse_vertex(ctx, argv[i], &m) != BANYAN_OK ||
            ctx->g->board->place(gtp_state_of(ctx), m, &xs[i], &ys[i]) != BANYAN_PLACE_CELL)
            return gtp_fail(ctx, "bad vertex list");
        for (int j = 0; j < i; j++)
            if (xs[j] == xs[i] && ys[j] == ys[i])
                return gtp_fail(ctx, "bad vertex list");
    }
    return gtp_put_handicap(ctx, argc, xs, ys, false);
}

/* A key of the position, the moves that led to it and the parameters, for
 * the ownership estimate kept between commands. Never 0. */
static uint64_t gtp_position_key(gtp *ctx)
{
    uint64_t k = banyan_game_hash(ctx->g, gtp_state_of(ctx)) ^
                 banyan_mix64((uint64_t)(uintptr_t)ctx->g + (uint64_t)ctx->rec.n_moves);
    for (const char *p = ctx->rec.params; *p; p++)
        k = banyan_mix64(k ^ (unsigned char)*p);
    for (int i = 0; i < ctx->rec.n_moves; i++)
        k = banyan_mix64(k ^ ctx->rec.moves[i].move);
    return k ? k : 1;
}

/* Estimates who owns each cell of the current position into ctx->est
 * (row by row from the top; +1 the first player, -1 the second), for
 * final_status_list and final_score. A search of an engine of its own, made
 * with config.ownership and rollouts to the end, plays the record's moves
 * less the passes at its end (so that there is a game to search, and the
 * side to move cannot win the search at once by ending it) and searches GTP_SCORE_PLAYOUTS
 * playouts, or less where the session's limits are smaller; the ownership is then the mean over its
 * finished rollouts, in which dead stones are captured. Where none
 * finished, it is the game's owner() of the position as it stands. Kept
 * until the position changes. Returns 0 with the board's size, or -1 with a
 * message. */
static int gtp_estimate(gtp *ctx, int *width, int *height)
{
    const banyan_game *g = ctx->g;
    const void *s = gtp_state_of(ctx);
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    int w, h, n = ctx->rec.n_moves;
    if (!(g->board && g->board->owner) || !g->board)
        return gtp_fail(ctx, "cannot score");
    g->board->board_size(s, &w, &h);
    if (w * h > GTP_CELLS_MAX)
        return gtp_fail(ctx, "board too large to score");
    *width = w;
    *height = h;
    uint64_t key = gtp_position_key(ctx);
    if (key == ctx->est_key)
        return 0;
    for (int y = 0, c = 0; y < h; y++)
        for (int x = 0; x < w; x++, c++) {
            int o = g->board->owner(s, x, y);
            ctx->est[c] = o == 0 ? 1.0f : o == 1 ? -1.0f : 0.0f;
        }
    banyan_config cfg = ctx->opt.cfg;
    cfg.ownership = true;
    cfg.leaf = BANYAN_LEAF_ROLLOUT;
    cfg.evaluator = NULL;
    cfg.batch = 0;
    cfg.noise_alpha = 0;
    if (!cfg.memory || cfg.memory > GTP_SCORE_MEMORY)
        cfg.memory = GTP_SCORE_MEMORY;
    while (n > 0 && gtp_is_pass(g, record_before(&ctx->rec, n - 1), ctx->rec.moves[n - 1].move))
        n--;
    if (banyan_engine_new(g, ctx->rec.params, &cfg, &e) == BANYAN_OK) {
        banyan_limits lim = gtp_move_limits(ctx);
        lim.time_max = 0;
        lim.stop_early = false;
        if (!lim.playouts || lim.playouts > GTP_SCORE_PLAYOUTS)
            lim.playouts = GTP_SCORE_PLAYOUTS;
        if (record_replay(&ctx->rec, e, n) == BANYAN_OK &&
            banyan_engine_search(e, &lim, &r) == BANYAN_OK && r.ownership && r.owner_width == w &&
            r.owner_height == h)
            memcpy(ctx->est, r.ownership, (size_t)(w * h) * sizeof *ctx->est);
        banyan_engine_free(e);
    }
    ctx->est_key = key;
    return 0;
}

/* final_status_list dead|alive|seki: the stones the ownership estimate
 * (gtp_estimate) gives to the other colour are dead: where its colour's
 * ownership is below -GTP_DEAD, the other colour owned the point in more
 * than half of the finished rollouts, and by that margin more often than
 * the stone's own colour did. The others are alive; seki is not told
 * apart (an empty list). One line, the vertices row by row from the top. */
static int gtp_final_status_list(gtp *ctx, int argc, char **argv)
{
    static const char *const kinds[] = {"alive", "dead", "seki"};
    const banyan_game *g = ctx->g;
    int kind = -1, w, h, n = 0;
    char buf[64];
    for (int k = 0; k < 3 && argc == 1; k++)
        if (!strcasecmp(argv[0], kinds[k]))
            kind = k;
    if (kind < 0)
        return gtp_fail(ctx, "syntax error");
    if (gtp_estimate(ctx, &w, &h) != 0)
        return -1;
    const void *s = gtp_state_of(ctx);
    for (int y = 0, c = 0; y < h && kind < 2; y++)
        for (int x = 0; x < w; x++, c++) {
            int p = g->board->piece(s, x, y);
            banyan_move m;
            if (p != 0 && p != 1)
                continue;
            bool dead = (p == 0 ? ctx->est[c] : -ctx->est[c]) < -GTP_DEAD;
            if (dead != (kind == 1) ||
                g->board->place_move(s, BANYAN_PLACE_CELL, x, y, &m) != BANYAN_OK)
                continue;
            gtp_append(ctx, "%s%s", n++ ? " " : "", gtp_move_text(ctx, s, m, buf, sizeof buf));
        }
    return 0;
}

/* final_score, player 0 being Black: "B+12", "W+2", or "0". Games with
 * owner() count the cells of the ownership estimate (gtp_estimate) each
 * side owns, a cell whose |ownership| is below GTP_DAME counting for
 * nobody, so that dead stones count for the side that would capture them;
 * the komi is taken off, worked out as the area difference of the position
 * by owner() less the game's score of it (0 without score()). Other games
 * answer their score(), final once the game is over. */
static int gtp_final_score(gtp *ctx, int argc, char **argv)
{
    const banyan_game *g = ctx->g;
    const void *s = gtp_state_of(ctx);
    double v;
    int w, h;
    (void)argv;
    if (argc != 0)
        return gtp_fail(ctx, "syntax error");
    if ((g->board && g->board->owner) && gtp_estimate(ctx, &w, &h) == 0) {
        double area = 0, owned = 0;
        for (int y = 0, c = 0; y < h; y++)
            for (int x = 0; x < w; x++, c++) {
                int o = g->board->owner(s, x, y);
                area += o == 0 ? 1 : o == 1 ? -1 : 0;
                owned += ctx->est[c] > GTP_DAME ? 1 : ctx->est[c] < -GTP_DAME ? -1 : 0;
            }
        v = owned - (g->score ? area - g->score(s) : 0);
    } else if (g->score) {
        ctx->resp_len = 0;
        v = g->score(s);
    } else {
        return gtp_fail(ctx, "cannot score");
    }
    if (v == 0)
        gtp_append(ctx, "0");
    else
        gtp_append(ctx, "%c+%g", v > 0 ? 'B' : 'W', fabs(v));
    return 0;
}

/* Gives the turn to colour before a move of it: while another player is
 * to move, that player passes, so that the record keeps who moved and a
 * controller may play two stones of one colour in a row (GoGui's setup,
 * Sabaki's edit mode, as GNU Go, Leela Zero and KataGo allow). A pass that
 * is the only move is the game's own (GRhino leaves Othello's passes out).
 * The passes go into the record only, marked implied, so that one undo
 * takes them back with the move after them; gtp_commit plays them on the
 * engine. Returns how many were pushed, or -1 with a sentence naming why
 * the turn cannot pass (the record is then as it was). */
static int gtp_give_turn(gtp *ctx, int color, const char *prefix)
{
    const banyan_game *g = ctx->g;
    banyan_move pass;
    int pushed = 0;
    if (color >= g->n_players)
        return gtp_fail(ctx, "syntax error");
    while (color != g->to_move(record_state(&ctx->rec))) {
        const void *s = record_state(&ctx->rec);
        double ret[BANYAN_MAX_PLAYERS];
        int p = g->to_move(s);
        const char *why = NULL;
        if (g->outcome(s, ret)) {
            record_undo(&ctx->rec, pushed);
            gtp_fail(ctx, prefix);
            gtp_append(ctx, "%s", *prefix ? "the game is over" : "game is over");
            return -1;
        }
        if (g->board->place_move(s, BANYAN_PLACE_PASS, 0, 0, &pass) != BANYAN_OK)
            why = "has no pass";
        else if (!banyan_game_is_legal(g, s, pass))
            why = "may not pass now";
        else if (record_push(&ctx->rec, pass, -1, NULL) != BANYAN_OK)
            why = "cannot pass: out of memory";
        if (!why) {
            ctx->rec.moves[ctx->rec.n_moves - 1].implied = true;
            pushed++;
            if (g->outcome(record_state(&ctx->rec), ret))
                why = "a pass would end the game";
        }
        if (why) {
            record_undo(&ctx->rec, pushed);
            bool none = !strcmp(why, "has no pass");
            gtp_fail(ctx, prefix);
            gtp_append(ctx, "%s is to move, and %s%s%s", banyan_game_player(g, p),
                       none ? (g->title ? g->title : g->name) : "", none ? " " : "", why);
            return -1;
        }
    }
    return pushed;
}

/* Plays on the engine the moves of the record it has not played: the
 * last n. */
static void gtp_commit(gtp *ctx, int n)
{
    for (int i = ctx->rec.n_moves - n; i < ctx->rec.n_moves; i++)
        banyan_engine_play(ctx->e, ctx->rec.moves[i].move);
}

static int gtp_play(gtp *ctx, int argc, char **argv)
{
    banyan_move m;
    char why[128];
    if (argc != 2)
        return gtp_fail(ctx, "syntax error");
    int color = gtp_color(argv[0]);
    if (color < 0)
        return gtp_fail(ctx, "syntax error");
    int rc = gtp_parse_vertex(ctx, argv[1], &m);
    if (rc == BANYAN_EINVAL &&
        banyan_game_parse_why(ctx->g, gtp_state_of(ctx), ctx->coords, argv[1], why, sizeof why) > 0)
        return gtp_fail(ctx, why);
    if (rc == BANYAN_EINVAL && strcasecmp(argv[1], "pass") != 0)
        return gtp_fail(ctx, "syntax error");
    if (rc != BANYAN_OK)
        return gtp_fail(ctx, "illegal move");
    int passes = gtp_give_turn(ctx, color, "illegal move: ");
    if (passes < 0)
        return -1;
    rc = record_push(&ctx->rec, m, -1, NULL);
    if (rc != BANYAN_OK) {
        record_undo(&ctx->rec, passes);
        return gtp_fail(ctx, rc == BANYAN_ENOMEM ? "out of memory" : "illegal move");
    }
    gtp_commit(ctx, passes + 1);
    ctx->rec.result[0] = 0; /* A game resigned goes on after all. */
    return 0;
}

/* What gtp_generate does with the move it finds. */
enum { GTP_GEN_PLAY, GTP_GEN_CLEANUP, GTP_GEN_ONLY };

/* Dynamic resignation: whether the player to move, whose search r chose m,
 * should resign rather than play m. At once when the root is proven lost;
 * otherwise when, for GTP_RESIGN_MOVES of its genmoves in a row, the upper
 * end of m's 95% interval (its value plus two standard errors and one
 * visit's worth over its visits, so that a move little searched does not
 * resign on a hunch) stayed below the threshold (options' resign,
 * GTP_RESIGN by default; off when negative), counting only searches of
 * GTP_RESIGN_PLAYOUTS playouts or more and none before an eighth of the
 * board's cells have been played (the opening's values are the least
 * reliable). Counts the move in ctx->low. */
static bool gtp_resigns(gtp *ctx, const banyan_report *r, banyan_move m)
{
    double v = ctx->opt.resign != 0 ? ctx->opt.resign : GTP_RESIGN;
    const banyan_move_stats *st = NULL;
    int w = 0, h = 0;
    if (v < 0 || ctx->g->n_players != 2)
        return false;
    if (r->proof == BANYAN_PROVEN_LOSS)
        return true;
    for (int i = 0; i < r->n_moves; i++)
        if (r->moves[i].move == m)
            st = &r->moves[i];
    if (ctx->g->board)
        ctx->g->board->board_size(gtp_state_of(ctx), &w, &h);
    bool low =
        st && st->visits && r->playouts >= GTP_RESIGN_PLAYOUTS && ctx->rec.n_moves >= w * h / 8 &&
        st->value + 2 * sqrt(st->value * (1 - st->value) / st->visits) + 1.0 / st->visits < v;
    ctx->low = low ? ctx->low + 1 : 0;
    return ctx->low >= GTP_RESIGN_MOVES;
}

/* genmove, kgs-genmove_cleanup and reg_genmove COLOUR: a search for the
 * colour to move, answered with the move found, which is played
 * (GTP_GEN_PLAY); played, but never a pass while the search gave another
 * move visits and did not prove it lost (GTP_GEN_CLEANUP: KGS's clean-up
 * phase, in which the dead stones must be captured); or only named
 * (GTP_GEN_ONLY). */
static int gtp_generate(gtp *ctx, int argc, char **argv, int mode)
{
    const banyan_game *g = ctx->g;
    banyan_report r = BANYAN_REPORT();
    char buf[64];
    if (argc != 1)
        return gtp_fail(ctx, "syntax error");
    int color = gtp_color(argv[0]);
    if (color < 0)
        return gtp_fail(ctx, "syntax error");
    if (gtp_over(ctx))
        return gtp_fail(ctx, "game is over");
    int passes = 0;
    if (mode != GTP_GEN_ONLY && (passes = gtp_give_turn(ctx, color, "")) < 0)
        return -1;
    gtp_commit(ctx, passes);
    if (color != g->to_move(gtp_state_of(ctx)))
        return gtp_fail(ctx, "it is the other colour's turn");
    banyan_limits lim = gtp_move_limits(ctx);
    options_search(&ctx->opt, ctx->e, &lim, &r);
    const void *s = gtp_state_of(ctx);
    banyan_move m = record_pick(&ctx->rec, &r);
    for (int i = 0; mode == GTP_GEN_CLEANUP && gtp_is_pass(g, s, m) && i < r.n_moves; i++) {
        const banyan_move_stats *c = &r.moves[i];
        if (c->visits && c->proof != BANYAN_PROVEN_LOSS && !gtp_is_pass(g, s, c->move) &&
            !record_repeats(&ctx->rec, c->move))
            m = c->move;
    }
    if (mode != GTP_GEN_CLEANUP && gtp_resigns(ctx, &r, m)) {
        if (passes > 0) {
            int low = ctx->low;
            gtp_replay(ctx, ctx->rec.n_moves - passes); /* Resigned: no turn was taken. */
            ctx->low = low;
        }
        gtp_append(ctx, "resign");
        if (mode == GTP_GEN_PLAY)
            snprintf(ctx->rec.result, sizeof ctx->rec.result, "%s (resignation)",
                     color == 0 ? "0-1" : "1-0");
        return 0;
    }
    gtp_append(ctx, "%s", gtp_move_text(ctx, s, m, buf, sizeof buf));
    if (mode == GTP_GEN_ONLY)
        return 0;
    if (record_push(&ctx->rec, m, r.seconds, NULL) != BANYAN_OK)
        return gtp_fail(ctx, "out of memory");
    /* Answered before the engine plays it: keeping the move's subtree
     * compacts the tree, tens of milliseconds for millions of nodes, which
     * is the opponent's time, not ours (the next command waits for it). */
    gtp_send(ctx, true);
    banyan_engine_play(ctx->e, m);
    ctx->rec.result[0] = 0;
    ctx->moved = true;
    return 1; /* Already sent. */
}

static int gtp_genmove(gtp *ctx, int argc, char **argv)
{
    return gtp_generate(ctx, argc, argv, GTP_GEN_PLAY);
}

static int gtp_kgs_genmove_cleanup(gtp *ctx, int argc, char **argv)
{
    return gtp_generate(ctx, argc, argv, GTP_GEN_CLEANUP);
}

static int gtp_reg_genmove(gtp *ctx, int argc, char **argv)
{
    return gtp_generate(ctx, argc, argv, GTP_GEN_ONLY);
}

/* undo: the last move, with the passes put in before it so that its colour
 * could move (gtp_give_turn): a controller counts its own commands. */
static int gtp_undo(gtp *ctx, int argc, char **argv)
{
    int n = ctx->rec.n_moves, back = 1;
    (void)argc, (void)argv;
    if (n == 0)
        return gtp_fail(ctx, "cannot undo");
    while (back < n && ctx->rec.moves[n - 1 - back].implied)
        back++;
    gtp_replay(ctx, n - back);
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

/* loadsgf FILE [MOVE_NUMBER]: the game of an SGF file (or of any record
 * record.h reads), up to the position before move MOVE_NUMBER (from 1;
 * all of it without one). The session takes the record's game and
 * parameters where they differ from its own. */
static int gtp_loadsgf(gtp *ctx, int argc, char **argv)
{
    record r;
    char why[512];
    long upto = 0;
    if (argc < 1 || argc > 2 ||
        (argc == 2 && banyan_parse_int(argv[1], 1, 100000000, &upto) != BANYAN_OK))
        return gtp_fail(ctx, "syntax error");
    if (ctx->no_files)
        return gtp_fail(ctx, "cannot load file");
    if (record_load_file(&r, NULL, argv[0], why, sizeof why) != BANYAN_OK) {
        gtp_fail(ctx, "cannot load file: ");
        gtp_append(ctx, "%s", why);
        return -1;
    }
    if (upto > 0 && upto - 1 < r.n_moves)
        record_undo(&r, r.n_moves - (int)(upto - 1));
    if ((r.g != ctx->g || strcmp(r.params, ctx->rec.params)) &&
        gtp_switch(ctx, r.g, r.params, false) != 0) {
        record_free(&r);
        return -1;
    }
    record_free(&ctx->rec);
    ctx->rec = r;
    if (record_replay(&ctx->rec, ctx->e, ctx->rec.n_moves) != BANYAN_OK) {
        gtp_replay(ctx, 0); /* Not expected: the record checked every move. */
        return gtp_fail(ctx, "cannot load file");
    }
    ctx->low = 0;
    return 0;
}

/* printsgf [FILE]: the game as SGF, in the response (its empty lines, which
 * would end a GTP response, dropped) or written to FILE. */
static int gtp_printsgf(gtp *ctx, int argc, char **argv)
{
    char *text = NULL;
    size_t len = 0;
    if (argc > 1)
        return gtp_fail(ctx, "syntax error");
    if (!(ctx->g->board ? ctx->g->board->sgf_game : 0))
        return gtp_fail(ctx, "no SGF for this game");
    /* A follower writes to memory only: the leader writes the file. */
    os_mem mem;
    bool in_memory = argc == 0 || ctx->follower;
    FILE *f = in_memory       ? os_mem_open(&mem, &text, &len)
              : ctx->no_files ? NULL
                              : fopen(argv[0], "w");
    if (!f)
        return gtp_fail(ctx, argc == 1 ? "cannot save file" : "out of memory");
    int rc = record_save(&ctx->rec, f, RECORD_SGF);
    if ((in_memory ? os_mem_close(&mem) : fclose(f)) != 0 && rc == BANYAN_OK)
        rc = BANYAN_ENOMEM;
    if (rc == BANYAN_OK && argc == 0) {
        while (len > 0 && text[len - 1] == '\n')
            len--;
        if (len >= sizeof ctx->resp - 1) {
            free(text);
            return gtp_fail(ctx, "record too long for a response: printsgf FILE writes it");
        }
        for (size_t i = 0; i < len; i++)
            if (text[i] != '\n' || (i > 0 && text[i - 1] != '\n'))
                ctx->resp[ctx->resp_len++] = text[i];
    }
    free(text);
    if (rc != BANYAN_OK)
        return gtp_fail(ctx, rc == BANYAN_EINVAL ? "no SGF for this game" : "cannot save file");
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

/* How an analysis writes its updates. */
typedef struct gtp_analysis {
    bool kata;      /* KataGo's format (kata-analyze), else Leela Zero's. */
    bool ownership; /* kata-analyze ... ownership true. */
} gtp_analysis;

/* Writes one analysis update, every root move with visits or a proof as "info move
 * ... pv ..." on one line: in Leela Zero's format (winrate and prior in
 * 1/10000) or KataGo's (winrate, prior and lcb in [0, 1], lcb being
 * banyan_lcb), which Sabaki and Lizzie read; winrates are the side to move's.
 * GUIs take order 0 for the engine's choice: it is the move genmove would
 * play from this tree (record_pick: the report's best, which the final-move
 * rule put first, unless it breaks superko), then the others in the
 * report's order, numbered without gaps. KataGo's ownership follows on the
 * same line: "ownership" and one value a cell, row by row from the
 * top-left, from the side to move's point of view (ctx->owned over
 * ctx->owned_n). */
static void gtp_write_info(gtp *ctx, const banyan_report *r, const gtp_analysis *how)
{
    const banyan_game *g = ctx->g;
    const void *s = gtp_state_of(ctx);
    char buf[64];
    unsigned char scratch[1 << 16];
    if (g->state_size > sizeof scratch)
        return;
    banyan_move pick = record_pick(&ctx->rec, r);
    int n = 0, first = 0;
    while (first < r->n_moves && r->moves[first].move != pick)
        first++;
    for (int j = 0; j < r->n_moves; j++) {
        /* The pick, then the report's order without it. */
        const banyan_move_stats *m = &r->moves[j == 0 && first < r->n_moves       ? first
                                               : j <= first && first < r->n_moves ? j - 1
                                                                                  : j];
        if (!m->visits && !m->proof)
            continue; /* Nothing known of it. A proven move is listed, searched or not. */
        gtp_move_text(ctx, s, m->move, buf, sizeof buf);
        if (how->kata) {
            double lcb = m->proof || !m->visits ? m->value : banyan_lcb(m->value, m->visits);
            fprintf(ctx->out,
                    "%sinfo move %s visits %u winrate %.6f prior %.6f lcb %.6f order %d pv",
                    n ? " " : "", buf, m->visits, m->value, m->prior, lcb, n);
        } else {
            fprintf(ctx->out, "%sinfo move %s visits %u winrate %d prior %d order %d pv",
                    n ? " " : "", buf, m->visits, (int)lrint(m->value * 10000),
                    (int)lrint(m->prior * 10000), n);
        }
        n++;
        memcpy(scratch, s, g->state_size);
        for (int k = 0; k < m->pv_len; k++) {
            fprintf(ctx->out, " %s", gtp_move_text(ctx, scratch, m->pv[k], buf, sizeof buf));
            g->play(scratch, m->pv[k]);
        }
    }
    if (how->ownership) {
        int w, h;
        double sign = g->to_move(s) == 0 ? 1 : -1;
        g->board->board_size(s, &w, &h);
        fprintf(ctx->out, "%sownership", n ? " " : "");
        for (int c = 0; c < w * h && c < GTP_CELLS_MAX; c++) {
            double v = ctx->owned_n > 0 ? sign * ctx->owned[c] / ctx->owned_n : 0;
            fprintf(ctx->out, " %.6f", fabs(v) < 5e-7 ? 0.0 : v);
        }
    }
    fprintf(ctx->out, "\n");
    fflush(ctx->out);
}

/* Whether the analysis must end: the next command is waiting, or there is
 * no input to watch. */
static bool gtp_analysis_done(gtp *ctx)
{
    return !ctx->in || line_ready(ctx->in);
}

/* Progress callback of lz-analyze and kata-analyze: an update, and a stop
 * when the next command is waiting. */
static void gtp_analyze_progress(void *ud, const banyan_report *r)
{
    gtp *ctx = ud;
    gtp_write_info(ctx, r, &(gtp_analysis){.kata = ctx->stream_kata});
    if (gtp_analysis_done(ctx)) {
        ctx->stream_stop = true;
        banyan_engine_stop(ctx->e);
    }
}

/* Progress callback of kata-analyze with ownership: only the stop. */
static void gtp_analyze_poll(void *ud, const banyan_report *r)
{
    gtp *ctx = ud;
    (void)r;
    if (gtp_analysis_done(ctx)) {
        ctx->stream_stop = true;
        banyan_engine_stop(ctx->e);
    }
}

/* Streams the analysis of the position every interval seconds until the
 * next command arrives; without an input to watch, one short search and
 * its update (fuzzing and scripted use). With ownership, which a report
 * gives only at the end of a search, the analysis is a run of searches of
 * interval seconds each, growing one tree, whose ownerships are summed,
 * weighted by their playouts, and each update follows one. */
static void gtp_analyze_stream(gtp *ctx, double interval, const gtp_analysis *how)
{
    banyan_report r = BANYAN_REPORT();
    ctx->stream_stop = false;
    ctx->stream_kata = how->kata;
    ctx->owned_n = 0;
    memset(ctx->owned, 0, sizeof ctx->owned);
    for (;;) {
        banyan_limits lim =
            BANYAN_LIMITS(.time = how->ownership ? interval : 1e6,
                          .progress = how->ownership ? gtp_analyze_poll : gtp_analyze_progress,
                          .progress_ud = ctx, .progress_interval = how->ownership ? 0.02 : interval,
                          .analyse = true);
        if (!ctx->in)
            lim = BANYAN_LIMITS(.playouts = 64, .analyse = true);
        options_search(&ctx->opt, ctx->e, &lim, &r);
        if (how->ownership && r.ownership) {
            int n = r.owner_width * r.owner_height;
            for (int c = 0; c < n && c < GTP_CELLS_MAX; c++)
                ctx->owned[c] += (double)r.ownership[c] * (double)r.playouts;
            ctx->owned_n += (double)r.playouts;
        }
        /* With ownership every search ends in an update; without, the
         * updates came from the callback, and a search that ended by
         * itself (a proof) gives the last word. */
        if (how->ownership || !ctx->stream_stop)
            gtp_write_info(ctx, &r, how);
        if (!how->ownership || ctx->stream_stop || gtp_analysis_done(ctx) || r.playouts == 0 ||
            r.proof != BANYAN_UNPROVEN)
            break;
    }
}

/* lz-analyze and kata-analyze [COLOUR] [INTERVAL] [interval N] and, for
 * kata-analyze, [ownership true|false] and KataGo's other keys (minmoves,
 * maxmoves, pvVisits, rootInfo, ownershipStdev, movesOwnership,
 * pvEdgeVisits, each with a value), accepted and ignored: updates every
 * INTERVAL centiseconds until the next command arrives. The response is
 * sent here (its "=" line, the updates, then the empty line). Ownership
 * needs an engine made with config.ownership: the first request makes one,
 * which replays the game, and the session keeps it. */
static int gtp_analyze(gtp *ctx, int argc, char **argv, bool kata)
{
    static const char *const ignored[] = {"minmoves",    "maxmoves",       "pvVisits",
                                          "rootInfo",    "ownershipStdev", "movesOwnership",
                                          "pvEdgeVisits"};
    gtp_analysis how = {.kata = kata};
    long interval = 100;
    for (int i = 0; i < argc; i++) {
        long v;
        bool skip = false;
        if (gtp_color(argv[i]) >= 0)
            continue;
        if (kata && !strcmp(argv[i], "ownership") && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "true") && strcmp(argv[i], "false"))
                return gtp_fail(ctx, "syntax error");
            how.ownership = !strcmp(argv[i], "true");
            continue;
        }
        for (size_t k = 0; kata && k < sizeof ignored / sizeof ignored[0]; k++)
            skip |= !strcmp(argv[i], ignored[k]) && i + 1 < argc;
        if (skip) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "interval") && i + 1 < argc)
            i++;
        if (banyan_parse_int(argv[i], 1, 100000, &v) != BANYAN_OK)
            return gtp_fail(ctx, "syntax error");
        interval = v;
    }
    if (how.ownership) {
        banyan_config cfg = ctx->opt.cfg;
        cfg.ownership = true;
        const char *why = !(ctx->g->board && ctx->g->board->owner) || !ctx->g->board
                              ? "no ownership in this game"
                          : ctx->opt.net[0] ? "ownership needs rollouts, not a network"
                                            : banyan_config_check(ctx->g, &cfg);
        if (why)
            return gtp_fail(ctx, why);
        if (!ctx->want_owner) {
            ctx->want_owner = true;
            if (gtp_switch(ctx, ctx->g, ctx->rec.params, true) != 0) {
                ctx->want_owner = false;
                return -1;
            }
        }
    }
    fprintf(ctx->out, "=%s\n", ctx->id);
    fflush(ctx->out);
    if (!gtp_over(ctx))
        gtp_analyze_stream(ctx, (double)interval / 100, &how);
    fprintf(ctx->out, "\n");
    fflush(ctx->out);
    return 1; /* Already sent. */
}

static int gtp_lz_analyze(gtp *ctx, int argc, char **argv)
{
    return gtp_analyze(ctx, argc, argv, false);
}

static int gtp_kata_analyze(gtp *ctx, int argc, char **argv)
{
    return gtp_analyze(ctx, argc, argv, true);
}

/* banyan-analyze [playouts]: the statistics table of `banyan analyze`. */
static int gtp_banyan_analyze(gtp *ctx, int argc, char **argv)
{
    banyan_limits lim = gtp_move_limits(ctx);
    banyan_report r = BANYAN_REPORT();
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
    lim.analyse = true; /* Every move valued, as `banyan analyze` does. */
    options_search(&ctx->opt, ctx->e, &lim, &r);
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
    banyan_report r = BANYAN_REPORT();
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
    {"final_status_list", gtp_final_status_list},
    {"fixed_handicap", gtp_fixed_handicap},
    {"genmove", gtp_genmove},
    {"kata-analyze", gtp_kata_analyze},
    {"kgs-genmove_cleanup", gtp_kgs_genmove_cleanup},
    {"kgs-time_settings", gtp_kgs_time_settings},
    {"known_command", gtp_known_command},
    {"komi", gtp_komi},
    {"list_commands", gtp_list_commands},
    {"loadsgf", gtp_loadsgf},
    {"lz-analyze", gtp_lz_analyze},
    {"name", gtp_name},
    {"place_free_handicap", gtp_place_free_handicap},
    {"play", gtp_play},
    {"printsgf", gtp_printsgf},
    {"protocol_version", gtp_protocol_version},
    {"quit", gtp_quit},
    {"reg_genmove", gtp_reg_genmove},
    {"set_free_handicap", gtp_set_free_handicap},
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

void gtp_set_files(gtp *ctx, bool on)
{
    ctx->no_files = !on;
}

void gtp_set_follower(gtp *ctx, bool on)
{
    ctx->follower = on;
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
