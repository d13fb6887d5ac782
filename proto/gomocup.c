/*
 * gomocup.c - the Gomocup (Piskvork) brain protocol, for any game whose
 * description has X,Y coordinates and a square board set by one parameter
 * (Gomoku; see gomocup_game_ok).
 *
 * Session. START (or RECTSTART with a square board) makes the engine; BEGIN,
 * TURN, BOARD ... DONE and PLAY answer a move "X,Y"; INFO answers nothing;
 * END ends the process at once and prints nothing. Commands are matched in
 * any case, lines may end in CR LF, LF or CR, empty lines are ignored, and
 * every problem is answered ("ERROR msg", or "UNKNOWN msg" for a command we
 * do not know) without changing the state. Commands are a table sorted by
 * name, as in gtp.c.
 *
 * Coordinates. X is the column from the left and Y the row from the TOP,
 * both from 0: the game's BANYAN_COORDS_XY, translated by the library
 * (banyan_game_format and banyan_game_parse). On 15x15 Gomoku, 0,0 is a15,
 * 14,14 is o1 and 7,7 is h8. Board sizes are those of the game's size
 * parameter (the one whose role is width and height).
 *
 * Position. The session keeps the moves from the empty board. Moves added at
 * the end (TURN, our own answers) are played one by one, which keeps the
 * search tree of the move played (tree reuse); any other change (BOARD,
 * TAKEBACK, a rule change) loads the whole list again. A load that fails (a
 * renju forbidden point, a move after a five) leaves everything as it was.
 *
 * BOARD. Lines "X,Y,field" until DONE: field 1 is our stone, 2 the
 * opponent's, 3 a stone of a winning line in continuous games, counted as
 * the opponent's. We are to move, so equal counts make us Black and one
 * opponent stone more makes us White; any other count is an ERROR. The
 * stones are replayed Black, White, Black... each colour in the order
 * given, which is the real move order when the manager sends move order
 * (renju). Duplicates, off-board stones and bad lines are an ERROR at DONE.
 * A line that is neither a stone nor DONE ends the BOARD with an ERROR and
 * is then executed as a command.
 *
 * Rules (INFO rule, a bit mask). 4 renju; else 1 exactly five (standard);
 * else freestyle; the game's rule parameter (role BANYAN_ROLE_RULE) takes
 * the name, and a rule it does not have is played as freestyle, said once
 * by MESSAGE (caro, 8, is such a rule for Gomoku). 2 (continuous game) is
 * accepted and ignored: our game ends at the first five. A rule change mid-game replays the moves
 * under the new rule, or keeps the old one (with a MESSAGE) when they are not legal.
 *
 * SWAP2BOARD (the swap2 opening, Gomocup's extension of 2020). Lines "X,Y"
 * until DONE: 0, 3 or 5 stones, Black, White, Black... in move order. The
 * stones replace the position (as BOARD does), and our own stones are
 * added to it, so the TURN or BOARD that follows works on the board the
 * manager sees. Every answer is a timed turn (gomocup_limits).
 *   0 stones: we open. Candidate openings, generated around the centre c
 *     (Black at c, White beside or diagonal to it, Black within two points
 *     of c, one of each mirror pair: 26 of them), are each judged by a
 *     search of 1/26 of the turn for White, who is to move; the one whose
 *     value is nearest 0.5 is answered "X1,Y1 X2,Y2 X3,Y3". Ties go to the
 *     first generated, so a fixed seed gives a fixed answer.
 *   3 stones: we answer. A search for White to move: when White's value
 *     is below 0.5 - GOMOCUP_SWAP_MARGIN we answer SWAP (we take Black, the
 *     opener plays White's 4th stone), else White's best move "X,Y" (we
 *     stay White). The third option, two stones "X4,Y4 X5,Y5" that hand
 *     the choice of colour back to the opener, is never chosen: it can
 *     only give the opener the better side.
 *   5 stones: we opened and now choose: the same search for White to move;
 *     SWAP (we take Black, the opponent plays White's 6th stone) or White's
 *     6th stone "X,Y".
 * The margin keeps the initiative (our own search choosing White's stone)
 * unless the search clearly prefers Black. Swap2 is played under the
 * freestyle and exactly-five rules (Gomocup plays it under exactly five);
 * under renju, which uses other openings, SWAP2BOARD is an ERROR, and so
 * are a count other than 0, 3 or 5, a bad line, an off-board or repeated
 * stone, and stones that end the game; the position is then unchanged.
 *
 * Not supported: rectangular boards (RECTSTART w,h with w != h is an
 * ERROR).
 *
 * Time. Each move is timed from the moment its command was read. Its
 * budget is at most timeout_turn * 0.95 - 40 ms (timeout_turn is INFO's,
 * else the command line's --time, else 5000 ms). With a match clock,
 * banyan_time_plan() shares what is left (INFO time_left, or timeout_match
 * less the time this game's moves took) over max(12, empty points / 8)
 * moves (its moves_to_go: Gomoku games are short, a median of about 24
 * moves a side after a balanced opening against Rapfi, so the library's
 * floor of 40 for unknown games would leave half the clock unused) with
 * 50 ms of lag each: its soft time becomes the budget and its
 * hard time the most that an unclear position may take, both inside the
 * turn limit; a search limited by time alone also stops early once its
 * best move cannot be overtaken. The margins adapt to late answers: when
 * the next move is asked for, the last answer's lateness is its time by our
 * clock beyond the time it aimed at, plus what the manager's clock took
 * beyond ours where INFO time_left tells (the time_left it was planned with
 * less the one now: pipes, the manager, a busy machine). The worst lateness
 * seen decays by a tenth an answer and is never below the newest; the
 * turn's margin grows to twice it, and so does the match clock's lag a
 * move (each at most half the turn). The margins also follow how busy the
 * machine is, from the first move: each search's processor time over its
 * wall time and threads tells the share of its processors it was denied
 * (before any search, the load average's guess: processors over the load
 * plus our threads); the worst share seen decays by a tenth a search, and
 * the margin is 600 ms times it where that is more than the lateness's
 * (a search sharing its processor with one busy loop keeps 300 ms back).
 * Each game at Gomocup is a new process, and the first late answer of a
 * game loses it: waiting for lateness is too late. MESSAGE then says
 * "(late answers: margin +N ms)" or "(busy machine: margin +N ms)". Both
 * are kept from game to game: a busy machine stays busy. timeout_turn 0,
 * or a budget under 5 ms, plays at once with 64 playouts. The command
 * line's --playouts and --nodes still cap every search. A proven result
 * ends a search early (the engine does that). Our move is answered before
 * the engine plays it: keeping its subtree compacts the tree, which then
 * takes the opponent's time. After each move one MESSAGE line gives
 * playouts, win rate, depth, the nodes the search began with (kept from
 * earlier searches) and, for a search the clock alone limits, the time it
 * allowed itself ("time limit 245 ms"; SWAP2BOARD's lines say it too, for
 * all their searches).
 *
 * Memory (INFO max_memory, bytes, 0 unlimited). The engine's memory, which
 * counts everything it allocates (the node arena, each thread's prover
 * memory), is the command line's --memory (default: a 256 MiB arena and the
 * rest), but at most max_memory less 32 MiB for the rest of the process (a
 * third of it below 96 MiB), and at least what the engine needs with its
 * threads (banyan_memory_least). When it changes the engine is made again
 * before the next search, and the moves are reloaded.
 *
 * Banyan's options. INFO with the name of an engine option of options.h
 * that is not one of the protocol's keys (INFO playouts 5000, INFO threads
 * 2) sets it; a bad value is answered ERROR. An option of the engine itself
 * makes the engine again before the next search, keeping the moves.
 *
 * Threads (gomocup_run). A reader thread reads the input with line.h and
 * queues the lines, stamped with the time they were read, under a mutex
 * with a condition variable; the main thread executes them in order. An
 * END that arrives with nothing waiting (the manager's case: the previous
 * command is answered or being thought about) is taken by the reader
 * itself: it calls banyan_engine_stop(), which any thread may call, and the
 * main thread leaves as soon as the search returns, without answering. An
 * END behind waiting commands (input piped at once) is queued and ends the
 * session when its turn comes, so a script gets every answer before it.
 * gomocup_run_sync() runs without threads for tests and fuzzing.
 *
 * Pondering (gomocup_set_ponder; off by default, since tournaments forbid
 * it). After a move is answered and while no command waits, gomocup_run
 * searches on a thread of its own (ponder.h) while it waits on the
 * condition variable. Any line the reader queues wakes it, and it stops and
 * joins that search before executing the line; an END taken by the reader
 * stops it through banyan_engine_stop() like any search. The opponent's
 * move then keeps its subtree.
 *
 * Line ends: line.h splits at LF, and each piece is split again at CR. A
 * stream that uses CR alone is therefore limited to LINE_BUF bytes between
 * LFs; what follows is answered "ERROR line too long". Real managers send
 * CR LF.
 */
#include "gomocup.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "os.h"
#include "ponder.h"

#define GOMOCUP_MAX_SIDE       32 /* Largest board side the session's arrays hold. */
#define GOMOCUP_MAX_MOVES      (GOMOCUP_MAX_SIDE * GOMOCUP_MAX_SIDE)
#define GOMOCUP_TURN_MS        5000.0 /* timeout_turn until INFO says. */
#define GOMOCUP_QUICK_PLAYOUTS 64     /* A move "at once". */
#define GOMOCUP_MIN_BUDGET_MS  5.0    /* Below this, play at once. */
#define GOMOCUP_MOVES_LEFT_MIN 12     /* Fewest moves a match clock is planned for, */
#define GOMOCUP_CELLS_A_MOVE   8      /* else one a move for this many empty points. */
#define GOMOCUP_MARGIN_MS      50.0   /* Lag allowed per move on a match clock. */
#define GOMOCUP_TURN_SHARE     0.95   /* Of timeout_turn a move may take, */
#define GOMOCUP_TURN_LAG_MS    40.0   /* less this. */
#define GOMOCUP_LATE_DECAY     0.9    /* Per answer, of the worst lateness remembered. */
#define GOMOCUP_LATE_FACTOR    2.0    /* The margin covers this many times that lateness, */
#define GOMOCUP_LATE_CAP       0.5    /* but takes at most this share of the turn. */
#define GOMOCUP_BUSY_MS        600.0  /* Margin of searches denied all their processor time. */
#define GOMOCUP_BUSY_MIN_MS    50.0   /* Shorter searches do not tell how busy the machine is. */
#define GOMOCUP_MEMORY_DEFAULT ((size_t)256 << 20) /* Arena without --memory. */
#define GOMOCUP_MEMORY_RESERVE ((size_t)32 << 20)  /* Left for the rest of the process. */
#define GOMOCUP_SWAP2_STONES   5                   /* Most stones SWAP2BOARD sends. */
#define GOMOCUP_SWAP2_OPENINGS 26                  /* Openings judged when we open a swap2 game. */
#define GOMOCUP_SWAP_MARGIN    0.05 /* SWAP when White's value is below 0.5 less this. */

/* The protocol's rules: their names and INFO rule bits. */
static const struct gomocup_rule {
    const char *name;
    int code;
} gomocup_rules[] = {{"freestyle", 0}, {"standard", 1}, {"renju", 4}, {"caro", 8}};

/* What the lines mean: commands, BOARD stones, or SWAP2BOARD stones. */
enum { GOMOCUP_COMMANDS, GOMOCUP_BOARD, GOMOCUP_SWAP2 };

typedef struct gomocup_point {
    uint8_t x, y;
} gomocup_point;

/* A line queued by the reader thread. */
typedef struct gomocup_item {
    struct gomocup_item *next;
    double t_read; /* When it was read (monotonic seconds). */
    bool too_long; /* It was cut: answer "line too long". */
    char line[];
} gomocup_item;

struct gomocup {
    const banyan_game *g;
    banyan_engine *e;  /* NULL until START; replaced under mu. */
    net_evaluator *ev; /* The network's evaluator of e (net=FILE), or NULL. */
    options opt;       /* From the command line, and INFO for Banyan's own options. */
    FILE *out;
    int size;     /* Board side; 0 until START. */
    int min_size; /* Sides the game's size parameter accepts. */
    int max_size;
    const char *rule;     /* The rule INFO asked for (a name of gomocup_rules). */
    const char *rule_now; /* The rule of e. */
    size_t memory_now;    /* The memory of e (0: the default); SIZE_MAX: make it again. */
    gomocup_point moves[GOMOCUP_MAX_MOVES];
    int n_moves;
    /* INFO. */
    double timeout_turn;  /* ms; < 0 not given. */
    double timeout_match; /* ms; 0 unlimited; < 0 not given. */
    double time_left;     /* ms; < 0 not given. */
    size_t max_memory;    /* Bytes; 0 unlimited. */
    double used_ms;       /* Time this game's moves took. */
    /* The margin that adapts (see "Time" in the file comment). */
    double late_ms;   /* Worst lateness seen, decaying; 0 none. */
    double aim_ms;    /* When the move being thought about should be answered,
                         ms after its command was read; < 0 not timed. */
    double last_ms;   /* How long our last answer took by our clock; < 0 none. */
    double last_left; /* The time_left our last answer was planned with; < 0 none. */
    double busy;      /* The share of their processors the searches were denied,
                         the worst seen decaying; < 0 none measured yet. */
    double extra_ms;  /* The margin the lateness or the busy machine added to
                         the last plan's. */
    bool extra_busy;  /* That margin is the busy machine's. */
    bool caro_said;
    /* BOARD ... DONE and SWAP2BOARD ... DONE (fields unused). */
    int mode;
    gomocup_point board[GOMOCUP_MAX_MOVES];
    uint8_t fields[GOMOCUP_MAX_MOVES];
    int n_board;
    char board_err[96]; /* The first problem in the BOARD lines, or "". */
    double t_cmd;       /* When the command being executed was read. */
    /* The reader thread and its queue. */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gomocup_item *head, *tail;
    bool eof, quit;
    line_reader *in;
    /* Pondering, by the main thread of gomocup_run. */
    bool ponder_on;   /* gomocup_set_ponder. */
    bool moved;       /* The command just executed answered a move. */
    ponder pondering; /* The search on the opponent's time. */
};

/* ---- Output and small helpers ---- */

static double gomocup_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes one protocol line, and flushes it if flush. */
static void gomocup_vsay(gomocup *ctx, bool flush, const char *fmt, va_list ap)
{
    vfprintf(ctx->out, fmt, ap);
    fputc('\n', ctx->out);
    if (flush)
        fflush(ctx->out);
}

/* Writes one protocol line and flushes it. */
static void gomocup_say(gomocup *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gomocup_vsay(ctx, true, fmt, ap);
    va_end(ap);
}

/* A line that goes out with the next gomocup_say's: the MESSAGE before an
 * answer, so that both leave in one write. Two writes let the manager, woken
 * by the first, take the core before the answer is written (a loaded machine
 * then delayed an answer by a quarter of a second between its two lines). */
static void gomocup_say_before(gomocup *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gomocup_vsay(ctx, false, fmt, ap);
    va_end(ap);
}

/* Copies text for echoing in a message: printable ASCII only, at most 32
 * characters. */
static const char *gomocup_quote(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    for (; *text && n + 1 < len && n < 32; text++)
        buf[n++] = *text >= 32 && *text < 127 ? *text : '?';
    buf[n] = 0;
    return buf;
}

static bool gomocup_is_space(char c)
{
    return c != 0 && (unsigned char)c <= 32;
}

/* Trims spaces and control characters at both ends, in place. */
static char *gomocup_trim(char *s)
{
    while (gomocup_is_space(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && gomocup_is_space(s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Reads a decimal number at *p, spaces around it skipped, saturating at
 * 9999. */
static bool gomocup_number(const char **p, int *out)
{
    const char *q = *p;
    int v = 0;
    while (gomocup_is_space(*q))
        q++;
    if (!isdigit((unsigned char)*q))
        return false;
    for (; isdigit((unsigned char)*q); q++)
        v = v > 999 ? 9999 : v * 10 + (*q - '0');
    while (gomocup_is_space(*q))
        q++;
    *p = q;
    *out = v;
    return true;
}

/* Parses "a,b" (n == 2) or "a,b,c" (n == 3) into v[], the whole text. */
static bool gomocup_numbers(const char *text, int n, int *v)
{
    const char *p = text;
    for (int i = 0; i < n; i++) {
        if (i > 0 && *p++ != ',')
            return false;
        if (!gomocup_number(&p, &v[i]))
            return false;
    }
    return *p == 0;
}

/* ---- Games and rules ---- */

int gomocup_rule_code(const char *name)
{
    for (size_t i = 0; i < sizeof gomocup_rules / sizeof gomocup_rules[0]; i++)
        if (!strcmp(gomocup_rules[i].name, name))
            return gomocup_rules[i].code;
    return -1;
}

const char *gomocup_rule_name(long bits)
{
    return bits & 4 ? "renju" : bits & 1 ? "standard" : bits & 8 ? "caro" : "freestyle";
}

/* The game's parameter of role r (all of r's bits), or NULL. */
static const banyan_param *gomocup_param(const banyan_game *g, unsigned r)
{
    for (const banyan_param *p = g->params; p && p->name; p++)
        if ((p->role & r) == r)
            return p;
    return NULL;
}

bool gomocup_game_ok(const banyan_game *g, char *why, size_t len)
{
    const banyan_param *size = gomocup_param(g, BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT);
    if (!((g->board ? g->board->coords : 0) & BANYAN_COORDS_XY))
        snprintf(why, len, "%s has no X,Y coordinates", g->name);
    else if (!size || size->type != BANYAN_PARAM_INT || size->min > GOMOCUP_MAX_SIDE)
        snprintf(why, len, "%s has no square board size parameter", g->name);
    else
        return true;
    return false;
}

const banyan_game *gomocup_default_game(void)
{
    int n;
    char why[128];
    const banyan_game *const *all = banyan_game_list(&n);
    for (int i = 0; i < n; i++)
        if (gomocup_game_ok(all[i], why, sizeof why))
            return all[i];
    return NULL;
}

/* Whether the game's rule parameter rp takes the rule name: its table
 * says, through banyan_params_check. */
static bool gomocup_has_rule(const gomocup *ctx, const banyan_param *rp, const char *name)
{
    char pair[96];
    snprintf(pair, sizeof pair, "%s=%s", rp->name, name);
    return banyan_params_check(ctx->g, pair, NULL, 0) == BANYAN_OK;
}

/* The move at point p, through the game's X,Y coordinates. */
static int gomocup_move(gomocup *ctx, const void *s, gomocup_point p, banyan_move *out)
{
    char text[24];
    snprintf(text, sizeof text, "%d,%d", p.x, p.y);
    return banyan_game_parse(ctx->g, s, BANYAN_COORDS_XY, text, out);
}

/* ---- The position ---- */

static const char *gomocup_no_game = "no game: send START first";

/* Loads moves[0 .. n) into engine e as a whole move list (in the game's
 * own notation, which for a cell does not depend on the position); on
 * success they become the session's moves. Returns the engine's status. */
static int gomocup_load_list(gomocup *ctx, banyan_engine *e, const gomocup_point *moves, int n)
{
    char text[GOMOCUP_MAX_MOVES * 6 + 1];
    const void *s = banyan_engine_state(e);
    size_t used = 0;
    text[0] = 0;
    for (int i = 0; i < n; i++) {
        banyan_move m;
        int k = gomocup_move(ctx, s, moves[i], &m);
        if (k != BANYAN_OK)
            return k;
        if (used)
            text[used++] = ' ';
        k = banyan_game_format(ctx->g, s, m, 0, text + used, sizeof text - used);
        if (k < 0 || (size_t)k >= sizeof text - used)
            return BANYAN_ERANGE;
        used += (size_t)k;
    }
    int rc = banyan_engine_load(e, text);
    if (rc == BANYAN_OK) {
        if (moves != ctx->moves)
            memmove(ctx->moves, moves, (size_t)n * sizeof *moves);
        ctx->n_moves = n;
    }
    return rc;
}

/* Makes moves[0 .. n) the session's position in engine e: played one by one
 * when they extend the session's moves (keeping the tree), else loaded. */
static int gomocup_load(gomocup *ctx, banyan_engine *e, const gomocup_point *moves, int n)
{
    /* Moves appended to the session's: play them, keeping the tree. */
    if (e == ctx->e && n > ctx->n_moves &&
        (moves == ctx->moves || !memcmp(moves, ctx->moves, (size_t)ctx->n_moves * sizeof *moves))) {
        int k = ctx->n_moves;
        for (; k < n; k++) {
            banyan_move m;
            if (gomocup_move(ctx, banyan_engine_state(e), moves[k], &m) != BANYAN_OK ||
                banyan_engine_play(e, m) != BANYAN_OK)
                break;
        }
        if (k == n) {
            if (moves != ctx->moves)
                memmove(ctx->moves, moves, (size_t)n * sizeof *moves);
            ctx->n_moves = n;
            return BANYAN_OK;
        }
        /* One was refused after others were played: the load below
         * decides, and a failure restores the session's own moves. */
        int rc = gomocup_load_list(ctx, e, moves, n);
        if (rc != BANYAN_OK)
            gomocup_load_list(ctx, e, ctx->moves, ctx->n_moves);
        return rc;
    }
    return gomocup_load_list(ctx, e, moves, n);
}

/* Makes e the session's engine (under the mutex, so the reader's stop
 * always reaches the engine in use) and frees the old one. */
static void gomocup_swap_engine(gomocup *ctx, banyan_engine *e, net_evaluator *ev)
{
    pthread_mutex_lock(&ctx->mu);
    banyan_engine *old = ctx->e;
    net_evaluator *old_ev = ctx->ev;
    ctx->e = e;
    ctx->ev = ev;
    pthread_mutex_unlock(&ctx->mu);
    banyan_engine_free(old);
    net_evaluator_free(old_ev);
}

/* The memory the next engine gets (see the file comment); 0: the engine's
 * default. */
static size_t gomocup_memory(const gomocup *ctx)
{
    size_t want = ctx->opt.cfg.memory;
    size_t least = banyan_memory_least(ctx->g, &ctx->opt.cfg);
    if (ctx->max_memory) {
        size_t room = ctx->max_memory >= 3 * GOMOCUP_MEMORY_RESERVE
                          ? ctx->max_memory - GOMOCUP_MEMORY_RESERVE
                          : ctx->max_memory / 3;
        if (!want)
            want = GOMOCUP_MEMORY_DEFAULT + least;
        if (room < want)
            want = room;
    }
    return want && want < least ? least : want;
}

/* The game's parameters for a board of side size under rule: the size
 * parameter, and the rule parameter where the game has one (a rule it
 * lacks was turned into freestyle by INFO rule). */
static void gomocup_params(gomocup *ctx, int size, const char *rule, char *buf, size_t len)
{
    const banyan_param *sp = gomocup_param(ctx->g, BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT);
    const banyan_param *rp = gomocup_param(ctx->g, BANYAN_ROLE_RULE);
    int n = snprintf(buf, len, "%s=%d", sp->name, size);
    if (rp && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " %s=%s", rp->name, rule);
}

/* Starts a new game of the given size: a new engine when there is none or
 * its arena should change, else the old one set up again. Returns 0, or -1
 * after answering ERROR (the old game then goes on). */
static int gomocup_new_game(gomocup *ctx, int size)
{
    char params[128];
    size_t memory = gomocup_memory(ctx);
    gomocup_params(ctx, size, ctx->rule, params, sizeof params);
    /* A network is made for one board: another size needs a new one. */
    if (ctx->e && memory == ctx->memory_now && (!ctx->ev || size == ctx->size)) {
        if (banyan_engine_setup(ctx->e, params) != BANYAN_OK) {
            gomocup_say(ctx, "ERROR cannot start: %s", banyan_errmsg(ctx->e));
            return -1;
        }
    } else {
        banyan_config cfg = ctx->opt.cfg;
        banyan_engine *e;
        net_evaluator *ev;
        char why[512];
        cfg.memory = memory;
        int rc = options_engine_new(&ctx->opt, &cfg, ctx->g, params, &e, &ev, why, sizeof why);
        if (rc != BANYAN_OK) {
            gomocup_say(ctx, "ERROR cannot start: %s", why[0] ? why : banyan_strerror(rc));
            return -1;
        }
        gomocup_swap_engine(ctx, e, ev);
        ctx->memory_now = memory;
    }
    ctx->size = size;
    ctx->rule_now = ctx->rule;
    ctx->n_moves = 0;
    ctx->used_ms = 0;
    ctx->last_ms = ctx->last_left = ctx->aim_ms = -1; /* The lateness seen stays. */
    ctx->mode = GOMOCUP_COMMANDS;
    return 0;
}

/* Makes the engine again when its arena should change, keeping the moves;
 * on failure the old engine stays and a MESSAGE says so. */
static void gomocup_fit_memory(gomocup *ctx)
{
    char params[128];
    size_t memory = gomocup_memory(ctx);
    banyan_config cfg = ctx->opt.cfg;
    banyan_engine *e;
    net_evaluator *ev;
    char why[512];
    if (memory == ctx->memory_now)
        return;
    cfg.memory = memory;
    gomocup_params(ctx, ctx->size, ctx->rule_now, params, sizeof params);
    int rc = options_engine_new(&ctx->opt, &cfg, ctx->g, params, &e, &ev, why, sizeof why);
    if (rc == BANYAN_OK && (rc = gomocup_load(ctx, e, ctx->moves, ctx->n_moves)) != BANYAN_OK) {
        banyan_engine_free(e);
        net_evaluator_free(ev);
    }
    if (rc != BANYAN_OK && why[0]) {
        gomocup_say(ctx, "MESSAGE cannot make the engine again: %s; the old one goes on", why);
        ctx->memory_now = memory; /* Do not try again every move. */
        return;
    }
    if (rc != BANYAN_OK) {
        gomocup_say(ctx, "MESSAGE cannot resize the tree to %zu bytes: %s", memory,
                    banyan_strerror(rc));
        ctx->memory_now = memory; /* Do not try again every move. */
        return;
    }
    gomocup_swap_engine(ctx, e, ev);
    ctx->memory_now = memory;
}

/* Applies INFO rule to the game in progress: replays the moves under the
 * new rule, or keeps the old one when they are not legal under it. */
static void gomocup_apply_rule(gomocup *ctx)
{
    char params[128];
    if (!ctx->e || !strcmp(ctx->rule, ctx->rule_now))
        return;
    gomocup_params(ctx, ctx->size, ctx->rule, params, sizeof params);
    if (banyan_engine_setup(ctx->e, params) == BANYAN_OK &&
        gomocup_load(ctx, ctx->e, ctx->moves, ctx->n_moves) == BANYAN_OK) {
        ctx->rule_now = ctx->rule;
        return;
    }
    gomocup_say(ctx, "MESSAGE the moves so far break rule %s: keeping %s", ctx->rule,
                ctx->rule_now);
    gomocup_params(ctx, ctx->size, ctx->rule_now, params, sizeof params);
    banyan_engine_setup(ctx->e, params);
    gomocup_load(ctx, ctx->e, ctx->moves, ctx->n_moves);
    ctx->rule = ctx->rule_now;
}

/* Parses "X,Y" as a point for a new stone. Returns NULL, or why not. */
static const char *gomocup_parse_move(gomocup *ctx, const char *text, gomocup_point *out)
{
    int v[2];
    if (!ctx->e)
        return gomocup_no_game;
    if (!gomocup_numbers(text, 2, v))
        return "bad coordinates: X,Y expected";
    if (v[0] >= ctx->size || v[1] >= ctx->size)
        return "move off the board";
    for (int i = 0; i < ctx->n_moves; i++)
        if (ctx->moves[i].x == v[0] && ctx->moves[i].y == v[1])
            return "point already occupied";
    out->x = (uint8_t)v[0];
    out->y = (uint8_t)v[1];
    return NULL;
}

/* Adds move p to the game. Returns 0, or -1 after answering ERROR. */
static int gomocup_add(gomocup *ctx, gomocup_point p)
{
    if (ctx->n_moves == GOMOCUP_MAX_MOVES) {
        gomocup_say(ctx, "ERROR the board is full");
        return -1;
    }
    ctx->moves[ctx->n_moves] = p;
    if (gomocup_load(ctx, ctx->e, ctx->moves, ctx->n_moves + 1) != BANYAN_OK) {
        gomocup_say(ctx, "ERROR illegal move %d,%d (the game is over, or a forbidden point)", p.x,
                    p.y);
        return -1;
    }
    return 0;
}

/* ---- Thinking ---- */

/* The worst of a measure remembered (kept; < 0 none yet), decayed by
 * GOMOCUP_LATE_DECAY, and its newest value now (>= 0). */
static double gomocup_worst(double kept, double now)
{
    kept *= GOMOCUP_LATE_DECAY;
    return now > kept ? now : kept;
}

/* Remembers how late the last answer was, once the next move is asked for:
 * by our clock (its time less the time it aimed at), plus what the
 * manager's clock took beyond ours (the time_left it was planned with less
 * the time_left now, less its time by our clock: pipes, the manager, a
 * busy machine). The worst lateness remembered decays by GOMOCUP_LATE_DECAY
 * an answer and is never below the newest. */
static void gomocup_note_late(gomocup *ctx, double left)
{
    if (ctx->last_ms < 0)
        return;
    double late = ctx->aim_ms >= 0 && ctx->last_ms > ctx->aim_ms ? ctx->last_ms - ctx->aim_ms : 0;
    if (left >= 0 && ctx->last_left >= 0 && ctx->last_left - left > ctx->last_ms)
        late += ctx->last_left - left - ctx->last_ms;
    ctx->late_ms = gomocup_worst(ctx->late_ms, late);
    ctx->last_ms = -1;
}

/* The search threads that can run at once: the engine's, at most one a
 * processor. */
static int gomocup_threads(const gomocup *ctx)
{
    int threads = ctx->opt.cfg.threads > 1 ? ctx->opt.cfg.threads : 1;
    int cpus = os_cpus();
    return threads < cpus ? threads : cpus;
}

/* Remembers how busy the machine was during a search of wall seconds that
 * used cpu seconds of processor time: the share of its threads' processors
 * it was denied. The worst share remembered decays by GOMOCUP_LATE_DECAY a
 * search and is never below the newest; the first measured replaces the
 * load average's guess. */
static void gomocup_note_busy(gomocup *ctx, double wall, double cpu)
{
    if (wall * 1000 < GOMOCUP_BUSY_MIN_MS)
        return;
    double busy = 1 - cpu / (wall * gomocup_threads(ctx));
    ctx->busy = gomocup_worst(ctx->busy, busy < 0 ? 0 : busy > 1 ? 1 : busy);
}

/* How busy the machine is, before any search was measured: the share of
 * our threads' processors that the load average leaves us denied (0 where
 * the system keeps no load average). */
static double gomocup_busy_guess(const gomocup *ctx)
{
    double load = os_load_average();
    int threads = gomocup_threads(ctx);
    if (load < 0)
        return 0;
    double share = os_cpus() / (load + threads);
    return share < 1 ? 1 - share : 0;
}

/* The margin of a turn of turn ms beyond its fixed one: GOMOCUP_LATE_FACTOR
 * times the worst lateness remembered (less the fixed margin), or the busy
 * machine's margin busy (ms), whichever is larger; at most GOMOCUP_LATE_CAP
 * of the turn. Sets ctx->extra_busy when the busy machine's is the larger. */
static double gomocup_extra_margin(gomocup *ctx, double turn, double busy)
{
    double fixed = turn * (1 - GOMOCUP_TURN_SHARE) + GOMOCUP_TURN_LAG_MS;
    double extra = GOMOCUP_LATE_FACTOR * ctx->late_ms - fixed;
    ctx->extra_busy = busy > extra;
    if (busy > extra)
        extra = busy;
    if (extra > turn * GOMOCUP_LATE_CAP)
        extra = turn * GOMOCUP_LATE_CAP;
    return extra > 0 ? extra : 0;
}

/* The limits of the next search (see "Time" in the file comment); sets
 * ctx->aim_ms. */
static banyan_limits gomocup_limits(gomocup *ctx)
{
    banyan_limits lim = ctx->opt.lim;
    double turn = ctx->timeout_turn >= 0  ? ctx->timeout_turn
                  : ctx->opt.lim.time > 0 ? ctx->opt.lim.time * 1000
                                          : GOMOCUP_TURN_MS;
    /* The manager's own count of the match clock, where it gives one. */
    double told = ctx->time_left >= 0 && ctx->timeout_match != 0 ? ctx->time_left : -1;
    double left = told >= 0                ? told
                  : ctx->timeout_match > 0 ? ctx->timeout_match - ctx->used_ms
                                           : -1;
    gomocup_note_late(ctx, told);
    ctx->last_left = told;
    /* The busy machine's margin: GOMOCUP_BUSY_MS times the share of the
     * processors the searches were denied. */
    double busy = GOMOCUP_BUSY_MS * (ctx->busy >= 0 ? ctx->busy : gomocup_busy_guess(ctx));
    ctx->extra_ms = turn > 0 ? gomocup_extra_margin(ctx, turn, busy) : 0;
    double budget = turn > 0 ? turn * GOMOCUP_TURN_SHARE - GOMOCUP_TURN_LAG_MS - ctx->extra_ms : 0;
    double hard = budget;
    if (left >= 0) {
        int empty = ctx->size * ctx->size - ctx->n_moves;
        int moves_left = empty / GOMOCUP_CELLS_A_MOVE > GOMOCUP_MOVES_LEFT_MIN
                             ? empty / GOMOCUP_CELLS_A_MOVE
                             : GOMOCUP_MOVES_LEFT_MIN;
        /* The match clock's lag a move, from the lateness or the busy
         * machine too (capped as a turn's margin is). */
        double margin = GOMOCUP_LATE_FACTOR * ctx->late_ms;
        margin = margin > busy ? margin : busy;
        double cap = (turn > 0 ? turn : GOMOCUP_TURN_MS) * GOMOCUP_LATE_CAP;
        margin = margin < cap ? margin : cap;
        /* The estimate is the plan's own (moves_to_go): the library's
         * floor of 40 moves is for games whose length it cannot guess. */
        banyan_clock c = {.main_time = left / 1000,
                          .moves_to_go = moves_left,
                          .margin =
                              (margin > GOMOCUP_MARGIN_MS ? margin : GOMOCUP_MARGIN_MS) / 1000};
        double soft_s, hard_s;
        if (banyan_time_plan(&c, moves_left, &soft_s, &hard_s) != BANYAN_OK)
            soft_s = hard_s = 0; /* No time left: play at once. */
        budget = soft_s * 1000 < budget ? soft_s * 1000 : budget;
        hard = hard_s * 1000 < hard ? hard_s * 1000 : hard;
    }
    double taken = (gomocup_now() - ctx->t_cmd) * 1000;
    ctx->aim_ms = -1;
    budget -= taken;
    hard -= taken;
    if (budget < GOMOCUP_MIN_BUDGET_MS) {
        if (!lim.playouts || lim.playouts > GOMOCUP_QUICK_PLAYOUTS)
            lim.playouts = GOMOCUP_QUICK_PLAYOUTS;
        lim.time = 0;
    } else {
        lim.time = budget / 1000;
        lim.time_max = hard > budget ? hard / 1000 : 0;
        if (!lim.playouts && !lim.nodes)
            ctx->aim_ms = taken + (hard > budget ? hard : budget);
        /* Stopping early saves time for later moves, so only a match clock
         * wants it (under timeout_turn alone it would only think less).
         * It reads the clock, so only searches that the clock alone limits
         * use it: a playout limit stays reproducible. */
        lim.stop_early = left >= 0 && !ctx->opt.lim.playouts && !ctx->opt.lim.nodes;
    }
    lim.progress = NULL;
    return lim;
}

/* After an answer: the time it took, for the match clock and for the
 * lateness noted when the next move is asked for. */
static void gomocup_answered(gomocup *ctx)
{
    double ms = (gomocup_now() - ctx->t_cmd) * 1000;
    ctx->used_ms += ms;
    ctx->last_ms = ms;
}

/* ", time limit N ms" for MESSAGE after `searches` searches within lim,
 * where the clock alone limits them (else ""): the brain says what it
 * allowed itself, which the tests check against the turn's limit (how long
 * a turn took depends on the machine). */
static void gomocup_limit_text(const gomocup *ctx, const banyan_limits *lim, int searches,
                               char *buf, size_t len)
{
    buf[0] = 0;
    if (lim->playouts || lim->nodes)
        return;
    int k = snprintf(buf, len, ", time limit %.0f ms",
                     1000 * searches * (lim->time_max > lim->time ? lim->time_max : lim->time));
    if (ctx->extra_ms >= 1 && k > 0 && (size_t)k < len)
        snprintf(buf + k, len - (size_t)k, " (%s: margin +%.0f ms)",
                 ctx->extra_busy ? "busy machine" : "late answers", ctx->extra_ms);
}

/* Searches the session's engine within lim unless END has come. Returns
 * false after END, which stops the search and wants no answer. */
static bool gomocup_search(gomocup *ctx, const banyan_limits *lim, banyan_report *r)
{
    pthread_mutex_lock(&ctx->mu);
    bool quit = ctx->quit; /* After this, END stops the search below. */
    pthread_mutex_unlock(&ctx->mu);
    if (quit)
        return false;
    double wall = gomocup_now(), cpu = os_cpu_seconds();
    options_search(&ctx->opt, ctx->e, lim, r);
    gomocup_note_busy(ctx, gomocup_now() - wall, os_cpu_seconds() - cpu);
    pthread_mutex_lock(&ctx->mu);
    quit = ctx->quit;
    pthread_mutex_unlock(&ctx->mu);
    return !quit;
}

/* The point of move m in the engine's position, through the game's X,Y
 * coordinates. Returns false for no move or one off the board. */
static bool gomocup_point_of(gomocup *ctx, banyan_move m, gomocup_point *out)
{
    char text[16];
    int x = 0, y = 0;
    if (m == BANYAN_MOVE_NONE ||
        banyan_game_format(ctx->g, banyan_engine_state(ctx->e), m, BANYAN_COORDS_XY, text,
                           sizeof text) < 0 ||
        sscanf(text, "%d,%d", &x, &y) != 2 || x < 0 || y < 0 || x >= ctx->size || y >= ctx->size)
        return false;
    *out = (gomocup_point){(uint8_t)x, (uint8_t)y};
    return true;
}

/* Searches the position and plays and answers the best move. */
static void gomocup_think(gomocup *ctx)
{
    banyan_report r = BANYAN_REPORT();
    double ret[BANYAN_MAX_PLAYERS];
    gomocup_fit_memory(ctx);
    if (ctx->g->outcome(banyan_engine_state(ctx->e), ret)) {
        gomocup_say(ctx, "ERROR the game is over");
        return;
    }
    banyan_limits lim = gomocup_limits(ctx);
    if (!gomocup_search(ctx, &lim, &r))
        return; /* END: no answer. */
    gomocup_answered(ctx);

    gomocup_point p;
    if (!gomocup_point_of(ctx, r.best, &p) || ctx->n_moves == GOMOCUP_MAX_MOVES ||
        !banyan_game_is_legal(ctx->g, banyan_engine_state(ctx->e), r.best)) {
        gomocup_say(ctx, "ERROR no move to play");
        return;
    }
    char limit[96];
    gomocup_limit_text(ctx, &lim, 1, limit, sizeof limit);
    gomocup_say_before(ctx, "MESSAGE %llu playouts, win rate %.1f%%, depth %d, kept %llu nodes%s%s",
                       (unsigned long long)r.playouts, 100 * r.value, r.max_depth,
                       (unsigned long long)r.start_nodes,
                       r.proof == BANYAN_PROVEN_WIN    ? ", proven win"
                       : r.proof == BANYAN_PROVEN_LOSS ? ", proven loss"
                                                       : "",
                       limit);
    gomocup_say(ctx, "%d,%d", p.x, p.y);
    ctx->moved = true;
    /* Played after the answer: keeping the subtree under the move compacts
     * the tree, tens of milliseconds for millions of nodes, which is the
     * opponent's time, not ours (the next command waits for it). */
    gomocup_add(ctx, p);
}

/* ---- Commands ---- */

typedef bool gomocup_handler(gomocup *ctx, char *args);

static bool gomocup_start_size(gomocup *ctx, int size)
{
    if (size < ctx->min_size || size > ctx->max_size) {
        gomocup_say(ctx, "ERROR unsupported size %d: %d to %d", size, ctx->min_size, ctx->max_size);
        return false;
    }
    if (gomocup_new_game(ctx, size) == 0)
        gomocup_say(ctx, "OK");
    return false;
}

static bool gomocup_start(gomocup *ctx, char *args)
{
    int v;
    if (!gomocup_numbers(args, 1, &v)) {
        gomocup_say(ctx, "ERROR bad size: START N expected");
        return false;
    }
    return gomocup_start_size(ctx, v);
}

static bool gomocup_rectstart(gomocup *ctx, char *args)
{
    int v[2];
    if (!gomocup_numbers(args, 2, v)) {
        gomocup_say(ctx, "ERROR bad size: RECTSTART W,H expected");
        return false;
    }
    if (v[0] != v[1]) {
        gomocup_say(ctx, "ERROR rectangular boards are not supported");
        return false;
    }
    return gomocup_start_size(ctx, v[0]);
}

static bool gomocup_restart(gomocup *ctx, char *args)
{
    (void)args;
    if (!ctx->e)
        gomocup_say(ctx, "ERROR %s", gomocup_no_game);
    else if (gomocup_new_game(ctx, ctx->size) == 0)
        gomocup_say(ctx, "OK");
    return false;
}

static bool gomocup_begin(gomocup *ctx, char *args)
{
    (void)args;
    if (!ctx->e)
        gomocup_say(ctx, "ERROR %s", gomocup_no_game);
    else if (ctx->n_moves > 0)
        gomocup_say(ctx, "ERROR BEGIN needs an empty board (send RESTART)");
    else
        gomocup_think(ctx);
    return false;
}

static bool gomocup_turn(gomocup *ctx, char *args)
{
    gomocup_point p;
    const char *why = gomocup_parse_move(ctx, args, &p);
    if (why)
        gomocup_say(ctx, "ERROR %s", why);
    else if (gomocup_add(ctx, p) == 0)
        gomocup_think(ctx);
    return false;
}

/* PLAY X,Y: the manager accepted (or chose) our move after SUGGEST: play
 * it and say it back. */
static bool gomocup_play(gomocup *ctx, char *args)
{
    gomocup_point p;
    const char *why = gomocup_parse_move(ctx, args, &p);
    if (why)
        gomocup_say(ctx, "ERROR %s", why);
    else if (gomocup_add(ctx, p) == 0)
        gomocup_say(ctx, "%d,%d", p.x, p.y);
    return false;
}

static bool gomocup_takeback(gomocup *ctx, char *args)
{
    int v[2];
    if (!ctx->e) {
        gomocup_say(ctx, "ERROR %s", gomocup_no_game);
        return false;
    }
    if (!gomocup_numbers(args, 2, v)) {
        gomocup_say(ctx, "ERROR bad coordinates: X,Y expected");
        return false;
    }
    const gomocup_point *last = ctx->n_moves ? &ctx->moves[ctx->n_moves - 1] : NULL;
    if (!last || last->x != v[0] || last->y != v[1]) {
        gomocup_say(ctx, "ERROR %d,%d is not the last move", v[0], v[1]);
        return false;
    }
    if (gomocup_load(ctx, ctx->e, ctx->moves, ctx->n_moves - 1) != BANYAN_OK)
        gomocup_say(ctx, "ERROR cannot take back: %s", banyan_errmsg(ctx->e));
    else
        gomocup_say(ctx, "OK");
    return false;
}

static bool gomocup_board(gomocup *ctx, char *args)
{
    (void)args;
    ctx->mode = GOMOCUP_BOARD;
    ctx->n_board = 0;
    ctx->board_err[0] = 0;
    return false;
}

/* Whether the stones of a BOARD or SWAP2BOARD so far hold x,y. */
static bool gomocup_board_has(const gomocup *ctx, int x, int y)
{
    for (int i = 0; i < ctx->n_board; i++)
        if (ctx->board[i].x == x && ctx->board[i].y == y)
            return true;
    return false;
}

/* A BOARD stone line "X,Y,field". */
static void gomocup_board_line(gomocup *ctx, const char *line)
{
    int v[3];
    char q[40];
    if (ctx->board_err[0])
        return;
    if (!gomocup_numbers(line, 3, v))
        snprintf(ctx->board_err, sizeof ctx->board_err, "bad BOARD line \"%s\"",
                 gomocup_quote(line, q, sizeof q));
    else if (v[2] < 1 || v[2] > 3)
        snprintf(ctx->board_err, sizeof ctx->board_err, "bad field %d at %d,%d", v[2], v[0], v[1]);
    else if (ctx->size && (v[0] >= ctx->size || v[1] >= ctx->size))
        snprintf(ctx->board_err, sizeof ctx->board_err, "stone %d,%d off the board", v[0], v[1]);
    else if (ctx->n_board == GOMOCUP_MAX_MOVES)
        snprintf(ctx->board_err, sizeof ctx->board_err, "too many stones");
    else if (gomocup_board_has(ctx, v[0], v[1]))
        snprintf(ctx->board_err, sizeof ctx->board_err, "two stones at %d,%d", v[0], v[1]);
    else {
        ctx->board[ctx->n_board] = (gomocup_point){(uint8_t)v[0], (uint8_t)v[1]};
        ctx->fields[ctx->n_board++] = (uint8_t)v[2];
    }
}

/* DONE after BOARD: the position, then our move. */
static void gomocup_board_done(gomocup *ctx)
{
    gomocup_point black[GOMOCUP_MAX_MOVES], white[GOMOCUP_MAX_MOVES], seq[GOMOCUP_MAX_MOVES];
    int n_own = 0, n_opp = 0;
    ctx->mode = GOMOCUP_COMMANDS;
    if (!ctx->e) {
        gomocup_say(ctx, "ERROR %s", gomocup_no_game);
        return;
    }
    if (ctx->board_err[0]) {
        gomocup_say(ctx, "ERROR %s", ctx->board_err);
        return;
    }
    for (int i = 0; i < ctx->n_board; i++) {
        if (ctx->fields[i] == 1)
            n_own++;
        else
            n_opp++;
    }
    if (n_own != n_opp && n_opp != n_own + 1) {
        gomocup_say(ctx, "ERROR %d own and %d opponent stones: not a position with us to move",
                    n_own, n_opp);
        return;
    }
    bool own_black = n_own == n_opp;
    int nb = 0, nw = 0;
    for (int i = 0; i < ctx->n_board; i++) {
        if ((ctx->fields[i] == 1) == own_black)
            black[nb++] = ctx->board[i];
        else
            white[nw++] = ctx->board[i];
    }
    for (int i = 0; i < nb + nw; i++)
        seq[i] = i % 2 == 0 ? black[i / 2] : white[i / 2];
    if (gomocup_load(ctx, ctx->e, seq, nb + nw) != BANYAN_OK) {
        gomocup_say(ctx, "ERROR impossible position (a five, or a forbidden point)");
        return;
    }
    gomocup_think(ctx);
}

/* ---- SWAP2BOARD (see the file comment) ---- */

static bool gomocup_swap2board(gomocup *ctx, char *args)
{
    (void)args;
    ctx->mode = GOMOCUP_SWAP2;
    ctx->n_board = 0;
    ctx->board_err[0] = 0;
    return false;
}

/* A SWAP2BOARD stone line "X,Y". */
static void gomocup_swap2_line(gomocup *ctx, const char *line)
{
    int v[2];
    char q[40];
    if (ctx->board_err[0])
        return;
    if (!gomocup_numbers(line, 2, v))
        snprintf(ctx->board_err, sizeof ctx->board_err, "bad SWAP2BOARD line \"%s\"",
                 gomocup_quote(line, q, sizeof q));
    else if (ctx->size && (v[0] >= ctx->size || v[1] >= ctx->size))
        snprintf(ctx->board_err, sizeof ctx->board_err, "stone %d,%d off the board", v[0], v[1]);
    else if (ctx->n_board == GOMOCUP_SWAP2_STONES)
        snprintf(ctx->board_err, sizeof ctx->board_err,
                 "SWAP2BOARD takes 0, 3 or 5 stones, not more than %d", GOMOCUP_SWAP2_STONES);
    else if (gomocup_board_has(ctx, v[0], v[1]))
        snprintf(ctx->board_err, sizeof ctx->board_err, "two stones at %d,%d", v[0], v[1]);
    else
        ctx->board[ctx->n_board++] = (gomocup_point){(uint8_t)v[0], (uint8_t)v[1]};
}

/* The openings we judge when we open: Black at the centre c, White beside
 * it (c+1,c) or diagonal to it (c+1,c+1), Black at any other point within
 * two of c in both directions. White beside Black makes the row through c a
 * mirror and White diagonal the diagonal through c, so one point of each
 * mirror pair is kept: dy >= 0 in the first case, dx <= dy in the second.
 * Fills out[] (room for GOMOCUP_SWAP2_OPENINGS) and returns the count. */
static int gomocup_swap2_openings(const gomocup *ctx, gomocup_point out[][3])
{
    static const int white[2][2] = {{1, 0}, {1, 1}};
    int c = ctx->size / 2, n = 0;
    for (int w = 0; w < 2; w++)
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                int wx = c + white[w][0], wy = c + white[w][1], bx = c + dx, by = c + dy;
                bool taken = (dx == 0 && dy == 0) || (bx == wx && by == wy);
                bool mirrored = w == 0 ? dy < 0 : dx > dy;
                if (taken || mirrored || n == GOMOCUP_SWAP2_OPENINGS || wx >= ctx->size ||
                    wy >= ctx->size || bx < 0 || by < 0 || bx >= ctx->size || by >= ctx->size)
                    continue;
                out[n][0] = (gomocup_point){(uint8_t)c, (uint8_t)c};
                out[n][1] = (gomocup_point){(uint8_t)wx, (uint8_t)wy};
                out[n][2] = (gomocup_point){(uint8_t)bx, (uint8_t)by};
                n++;
            }
    return n;
}

/* SWAP2BOARD with no stones: we open with the candidate whose value for
 * White (to move after three stones) is nearest 0.5. The session's moves
 * come back when no candidate can be judged. */
static void gomocup_swap2_open(gomocup *ctx, const gomocup_point *saved, int n_saved)
{
    gomocup_point cand[GOMOCUP_SWAP2_OPENINGS][3];
    int n = gomocup_swap2_openings(ctx, cand), best = -1;
    double best_value = 0;
    uint64_t playouts = 0;
    banyan_limits lim = gomocup_limits(ctx);
    /* Each candidate gets an equal share of the turn and runs all of it:
     * what matters is its value, not an early choice of move. */
    lim.time_max = 0;
    lim.stop_early = false;
    if (lim.time > 0 && n > 0) {
        lim.time /= n;
        if (lim.time * 1000 < GOMOCUP_MIN_BUDGET_MS) {
            lim.time = 0;
            if (!lim.playouts || lim.playouts > GOMOCUP_QUICK_PLAYOUTS)
                lim.playouts = GOMOCUP_QUICK_PLAYOUTS;
        }
    }
    for (int i = 0; i < n; i++) {
        banyan_report r = BANYAN_REPORT();
        if (gomocup_load(ctx, ctx->e, cand[i], 3) != BANYAN_OK)
            continue; /* Refused by the game (none is, under freestyle or exactly five). */
        if (!gomocup_search(ctx, &lim, &r))
            return; /* END: no answer. */
        playouts += r.playouts;
        double off = r.value > 0.5 ? r.value - 0.5 : 0.5 - r.value;
        double best_off = best_value > 0.5 ? best_value - 0.5 : 0.5 - best_value;
        if (best < 0 || off < best_off) {
            best = i;
            best_value = r.value;
        }
    }
    gomocup_answered(ctx);
    if (best < 0 || gomocup_load(ctx, ctx->e, cand[best], 3) != BANYAN_OK) {
        gomocup_load(ctx, ctx->e, saved, n_saved);
        gomocup_say(ctx, "ERROR no swap2 opening fits this board and rule");
        return;
    }
    const gomocup_point *p = cand[best];
    char limit[96];
    gomocup_limit_text(ctx, &lim, n, limit, sizeof limit);
    gomocup_say_before(ctx,
                       "MESSAGE swap2 opening: %d judged, %llu playouts, White's win rate %.1f%%%s",
                       n, (unsigned long long)playouts, 100 * best_value, limit);
    gomocup_say(ctx, "%d,%d %d,%d %d,%d", p[0].x, p[0].y, p[1].x, p[1].y, p[2].x, p[2].y);
    ctx->moved = true;
}

/* SWAP2BOARD with 3 or 5 stones, now the session's moves (White to move):
 * SWAP, or White's best move, by the search's value for White. The
 * session's moves come back after an error. */
static void gomocup_swap2_choose(gomocup *ctx, const gomocup_point *saved, int n_saved)
{
    banyan_report r = BANYAN_REPORT();
    gomocup_point p;
    banyan_limits lim = gomocup_limits(ctx);
    if (!gomocup_search(ctx, &lim, &r))
        return; /* END: no answer. */
    gomocup_answered(ctx);
    char limit[96];
    gomocup_limit_text(ctx, &lim, 1, limit, sizeof limit);
    if (r.value < 0.5 - GOMOCUP_SWAP_MARGIN) {
        gomocup_say_before(ctx,
                           "MESSAGE swap2: %llu playouts, White's win rate %.1f%%%s: we take Black",
                           (unsigned long long)r.playouts, 100 * r.value, limit);
        gomocup_say(ctx, "SWAP");
        ctx->moved = true;
        return;
    }
    if (!gomocup_point_of(ctx, r.best, &p)) {
        gomocup_load(ctx, ctx->e, saved, n_saved);
        gomocup_say(ctx, "ERROR no move to play");
        return;
    }
    if (gomocup_add(ctx, p) != 0) {
        gomocup_load(ctx, ctx->e, saved, n_saved);
        return;
    }
    gomocup_say_before(ctx,
                       "MESSAGE swap2: %llu playouts, White's win rate %.1f%%%s: we stay White",
                       (unsigned long long)r.playouts, 100 * r.value, limit);
    gomocup_say(ctx, "%d,%d", p.x, p.y);
    ctx->moved = true;
}

/* DONE after SWAP2BOARD: checks, then the stones become the position and
 * we answer (see the file comment). Any failure leaves the position as it
 * was. */
static void gomocup_swap2_done(gomocup *ctx)
{
    gomocup_point saved[GOMOCUP_MAX_MOVES];
    double ret[BANYAN_MAX_PLAYERS];
    int n_saved = ctx->n_moves;
    ctx->mode = GOMOCUP_COMMANDS;
    if (!ctx->e) {
        gomocup_say(ctx, "ERROR %s", gomocup_no_game);
        return;
    }
    if (ctx->board_err[0]) {
        gomocup_say(ctx, "ERROR %s", ctx->board_err);
        return;
    }
    if (ctx->n_board != 0 && ctx->n_board != 3 && ctx->n_board != 5) {
        gomocup_say(ctx, "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not %d", ctx->n_board);
        return;
    }
    if (gomocup_rule_code(ctx->rule_now) == 4) { /* Renju, INFO rule 4. */
        gomocup_say(ctx, "ERROR swap2 is played under freestyle and exactly five, not under %s",
                    ctx->rule_now);
        return;
    }
    memcpy(saved, ctx->moves, (size_t)n_saved * sizeof *saved);
    gomocup_fit_memory(ctx);
    if (ctx->n_board == 0) {
        gomocup_swap2_open(ctx, saved, n_saved);
        return;
    }
    if (gomocup_load(ctx, ctx->e, ctx->board, ctx->n_board) != BANYAN_OK) {
        gomocup_say(ctx, "ERROR impossible position (a five, or a forbidden point)");
        return;
    }
    if (ctx->g->outcome(banyan_engine_state(ctx->e), ret)) {
        gomocup_load(ctx, ctx->e, saved, n_saved);
        gomocup_say(ctx, "ERROR the game is over");
        return;
    }
    gomocup_swap2_choose(ctx, saved, n_saved);
}

/* INFO key value: no answer but for a bad value of a key we use. */
static bool gomocup_info(gomocup *ctx, char *args)
{
    char *key = args, *val = args;
    long v;
    while (*val && !gomocup_is_space(*val))
        val++;
    if (*val)
        *val++ = 0;
    val = gomocup_trim(val);
    bool is_time = !strcasecmp(key, "timeout_turn") || !strcasecmp(key, "timeout_match") ||
                   !strcasecmp(key, "time_left");
    if (is_time || !strcasecmp(key, "max_memory") || !strcasecmp(key, "rule")) {
        long lo = !strcasecmp(key, "time_left") ? LONG_MIN : 0;
        if (banyan_parse_int(val, lo, LONG_MAX, &v) != BANYAN_OK) {
            char q[40];
            gomocup_say(ctx, "ERROR bad INFO %s value \"%s\"", key,
                        gomocup_quote(val, q, sizeof q));
            return false;
        }
    } else if (options_known(key, OPTIONS_LIVE)) {
        char err[160];
        if (options_set(&ctx->opt, key, val, OPTIONS_LIVE, err, sizeof err) != BANYAN_OK)
            gomocup_say(ctx, "ERROR %s", err);
        else if (options_need_engine(key))
            ctx->memory_now = SIZE_MAX; /* gomocup_fit_memory makes the engine again. */
        return false;
    } else {
        return false; /* game_type, evaluate, folder and unknown keys. */
    }
    if (!strcasecmp(key, "timeout_turn"))
        ctx->timeout_turn = (double)v;
    else if (!strcasecmp(key, "timeout_match"))
        ctx->timeout_match = (double)v;
    else if (!strcasecmp(key, "time_left"))
        ctx->time_left = v < 0 ? 0 : (double)v;
    else if (!strcasecmp(key, "max_memory"))
        ctx->max_memory = (size_t)v;
    else {
        const banyan_param *rp = gomocup_param(ctx->g, BANYAN_ROLE_RULE);
        const char *name = gomocup_rule_name(v);
        ctx->rule = name; /* A static string of gomocup_rule_name. */
        if (!rp || !gomocup_has_rule(ctx, rp, name)) {
            if (!ctx->caro_said)
                gomocup_say(ctx, "MESSAGE %s (rule %d) is played as freestyle", name,
                            gomocup_rule_code(name));
            ctx->caro_said = true;
            ctx->rule = "freestyle";
        }
        gomocup_apply_rule(ctx);
    }
    return false;
}

static bool gomocup_about(gomocup *ctx, char *args)
{
    (void)args;
    gomocup_say(ctx, "name=\"Banyan\", version=\"%s\", author=\"Banyan developers\", country=\"-\"",
                banyan_version());
    return false;
}

static bool gomocup_end(gomocup *ctx, char *args)
{
    (void)ctx, (void)args;
    return true;
}

/* Sorted by name. */
static const struct gomocup_command {
    const char *name;
    gomocup_handler *run;
} gomocup_commands[] = {
    {"ABOUT", gomocup_about},         {"BEGIN", gomocup_begin},
    {"BOARD", gomocup_board},         {"END", gomocup_end},
    {"INFO", gomocup_info},           {"PLAY", gomocup_play},
    {"RECTSTART", gomocup_rectstart}, {"RESTART", gomocup_restart},
    {"START", gomocup_start},         {"SWAP2BOARD", gomocup_swap2board},
    {"TAKEBACK", gomocup_takeback},   {"TURN", gomocup_turn},
};

/* ---- Sessions ---- */

/* Whether a trimmed line is END (the reader thread acts on it itself). */
static bool gomocup_is_end(const char *line)
{
    while (gomocup_is_space(*line))
        line++;
    if (strncasecmp(line, "END", 3) != 0)
        return false;
    for (line += 3; *line; line++)
        if (!gomocup_is_space(*line))
            return false;
    return true;
}

/* Whether a line looks like a stone "X,Y[,field]" rather than a command. */
static bool gomocup_is_stone(const char *line)
{
    return isdigit((unsigned char)*line) || *line == '-' || *line == '+';
}

/* Executes one line read at time t. */
static bool gomocup_execute_at(gomocup *ctx, char *raw, double t)
{
    char *line = gomocup_trim(raw);
    ctx->t_cmd = t;
    if (!*line)
        return false;
    if (ctx->mode != GOMOCUP_COMMANDS) {
        bool board = ctx->mode == GOMOCUP_BOARD;
        if (!strcasecmp(line, "DONE")) {
            if (board)
                gomocup_board_done(ctx);
            else
                gomocup_swap2_done(ctx);
            return false;
        }
        if (gomocup_is_stone(line)) {
            if (board)
                gomocup_board_line(ctx, line);
            else
                gomocup_swap2_line(ctx, line);
            return false;
        }
        gomocup_say(ctx, "ERROR %s ended without DONE", board ? "BOARD" : "SWAP2BOARD");
        ctx->mode = GOMOCUP_COMMANDS;
    }
    char *args = line;
    while (*args && !gomocup_is_space(*args))
        args++;
    if (*args)
        *args++ = 0;
    args = gomocup_trim(args);
    for (size_t i = 0; i < sizeof gomocup_commands / sizeof gomocup_commands[0]; i++)
        if (!strcasecmp(gomocup_commands[i].name, line))
            return gomocup_commands[i].run(ctx, args);
    char q[40];
    gomocup_say(ctx, "UNKNOWN command \"%s\"", gomocup_quote(line, q, sizeof q));
    return false;
}

bool gomocup_execute(gomocup *ctx, char *line)
{
    return gomocup_execute_at(ctx, line, gomocup_now());
}

gomocup *gomocup_new(const banyan_game *g, const options *opt, FILE *out, char *err, size_t errlen)
{
    if (!g && !(g = gomocup_default_game())) {
        snprintf(err, errlen, "no game of this library can be played over Gomocup");
        return NULL;
    }
    if (!gomocup_game_ok(g, err, errlen))
        return NULL;
    gomocup *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (pthread_mutex_init(&ctx->mu, NULL) != 0) {
        free(ctx);
        snprintf(err, errlen, "cannot make a mutex");
        return NULL;
    }
    if (pthread_cond_init(&ctx->cv, NULL) != 0) {
        pthread_mutex_destroy(&ctx->mu);
        free(ctx);
        snprintf(err, errlen, "cannot make a condition variable");
        return NULL;
    }
    const banyan_param *sp = gomocup_param(g, BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT);
    ctx->g = g;
    if (opt)
        ctx->opt = *opt;
    else
        options_init(&ctx->opt);
    ctx->min_size = (int)(sp->min < 1 ? 1 : sp->min);
    ctx->max_size = (int)(sp->max > GOMOCUP_MAX_SIDE ? GOMOCUP_MAX_SIDE : sp->max);
    ctx->rule = ctx->rule_now = "freestyle";
    ctx->out = out;
    ctx->timeout_turn = -1;
    ctx->timeout_match = -1;
    ctx->time_left = -1;
    ctx->last_ms = ctx->last_left = ctx->aim_ms = ctx->busy = -1;
    return ctx;
}

void gomocup_set_ponder(gomocup *ctx, bool on)
{
    ctx->ponder_on = on;
}

void gomocup_free(gomocup *ctx)
{
    if (!ctx)
        return;
    ponder_stop(&ctx->pondering);
    while (ctx->head) {
        gomocup_item *it = ctx->head;
        ctx->head = it->next;
        free(it);
    }
    banyan_engine_free(ctx->e);
    net_evaluator_free(ctx->ev);
    pthread_cond_destroy(&ctx->cv);
    pthread_mutex_destroy(&ctx->mu);
    free(ctx);
}

/* Splits a line from line.h at CR and gives each piece to fn; the last
 * piece is the cut one when too_long. Stops when fn returns true. */
static bool gomocup_pieces(gomocup *ctx, char *line, bool too_long, double t,
                           bool (*fn)(gomocup *, char *, bool, double))
{
    for (char *p = line;;) {
        char *cr = strchr(p, '\r');
        if (cr)
            *cr = 0;
        if (fn(ctx, p, !cr && too_long, t))
            return true;
        if (!cr)
            return false;
        p = cr + 1;
    }
}

static bool gomocup_sync_piece(gomocup *ctx, char *piece, bool cut, double t)
{
    if (cut) {
        gomocup_say(ctx, "ERROR line too long");
        return false;
    }
    return gomocup_execute_at(ctx, piece, t);
}

int gomocup_run_sync(gomocup *ctx, line_reader *in)
{
    char line[LINE_BUF];
    bool too_long;
    while (line_next(in, line, sizeof line, &too_long))
        if (gomocup_pieces(ctx, line, too_long, gomocup_now(), gomocup_sync_piece))
            break;
    return 0;
}

/* Reader thread: queues a piece. END with nothing waiting ends the session
 * at once, stopping the search in progress; END behind waiting commands is
 * queued and ends it in turn. Either way the reader stops reading. */
static bool gomocup_queue_piece(gomocup *ctx, char *piece, bool cut, double t)
{
    bool end = !cut && gomocup_is_end(piece);
    if (end) {
        pthread_mutex_lock(&ctx->mu);
        bool now = !ctx->head;
        if (now) {
            ctx->quit = true;
            if (ctx->e)
                banyan_engine_stop(ctx->e);
            pthread_cond_signal(&ctx->cv);
        }
        pthread_mutex_unlock(&ctx->mu);
        if (now)
            return true;
    }
    if (!cut && !*gomocup_trim(piece))
        return false; /* Empty lines (the one after each CR of CR LF) wait for nothing. */
    size_t len = cut ? 0 : strlen(piece);
    gomocup_item *it = malloc(sizeof *it + len + 1);
    if (!it)
        return end; /* Out of memory: the line is lost (an END still ends reading). */
    it->next = NULL;
    it->t_read = t;
    it->too_long = cut;
    memcpy(it->line, piece, len);
    it->line[len] = 0;
    pthread_mutex_lock(&ctx->mu);
    if (ctx->tail)
        ctx->tail->next = it;
    else
        ctx->head = it;
    ctx->tail = it;
    pthread_cond_signal(&ctx->cv);
    pthread_mutex_unlock(&ctx->mu);
    return end;
}

static void *gomocup_reader(void *arg)
{
    gomocup *ctx = arg;
    char line[LINE_BUF];
    bool too_long;
    while (line_next(ctx->in, line, sizeof line, &too_long))
        if (gomocup_pieces(ctx, line, too_long, gomocup_now(), gomocup_queue_piece))
            return NULL; /* END. */
    pthread_mutex_lock(&ctx->mu);
    ctx->eof = true;
    pthread_cond_signal(&ctx->cv);
    pthread_mutex_unlock(&ctx->mu);
    return NULL;
}

int gomocup_run(gomocup *ctx, int fd)
{
    line_reader *in = malloc(sizeof *in);
    pthread_t reader;
    if (!in)
        return 0;
    line_init_fd(in, fd);
    ctx->in = in;
    if (pthread_create(&reader, NULL, gomocup_reader, ctx) != 0) {
        gomocup_run_sync(ctx, in); /* No thread: END waits for the search. */
        free(in);
        return 0;
    }
    for (;;) {
        double ret[BANYAN_MAX_PLAYERS];
        bool want =
            ctx->ponder_on && ctx->moved && !ctx->g->outcome(banyan_engine_state(ctx->e), ret);
        ctx->moved = false;
        pthread_mutex_lock(&ctx->mu);
        /* Ponder while nothing waits; the next line wakes us to stop it. */
        if (want && !ctx->head && !ctx->quit && !ctx->eof)
            ponder_start(&ctx->pondering, ctx->e);
        while (!ctx->head && !ctx->quit && !ctx->eof)
            pthread_cond_wait(&ctx->cv, &ctx->mu);
        gomocup_item *it = ctx->quit ? NULL : ctx->head;
        if (it) {
            ctx->head = it->next;
            if (!ctx->head)
                ctx->tail = NULL;
        }
        pthread_mutex_unlock(&ctx->mu);
        ponder_stop(&ctx->pondering);
        if (!it)
            break; /* END, or the end of input with nothing queued. */
        bool end = it->too_long ? (gomocup_say(ctx, "ERROR line too long"), false)
                                : gomocup_execute_at(ctx, it->line, it->t_read);
        free(it);
        if (end)
            break; /* An END queued behind other commands. */
    }
    pthread_join(reader, NULL);
    free(in);
    return 0;
}
