/*
 * record.c - the game record (see record.h): a game, its parameters and
 * start, and the moves played from it, each checked against moves() as it
 * is pushed, so that what a record holds is always a legal game.
 *
 * Only the position after the last move is kept (r->state). Games have no
 * undo, so every earlier position (record_undo, record_state_at,
 * record_before) is rebuilt from the start: setup with the parameters, the
 * start text, then the moves.
 *
 * Loading checks everything on the way in and names the first fault: a line
 * of the plain format or of PSQ, or a byte offset (from 0) of SGF. The SGF
 * reader parses the whole collection without recursion, so deep nesting
 * costs no stack; it follows the main line of the first game tree and
 * bounds what it takes: RECORD_SGF_NODES nodes, RECORD_SGF_VALUE bytes a
 * property value. PSQ (Piskvork's files) is read line by line.
 */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RECORD_MOVE_MAX  128               /* Bytes of a move's text, with its NUL. */
#define RECORD_SGF_NODES 100000            /* Most nodes an SGF collection may hold. */
#define RECORD_SGF_VALUE 65536             /* Most bytes of one SGF property value. */
#define RECORD_SGF_IDENT 16                /* Most letters of an SGF property name. */
#define RECORD_FILE_MAX  ((size_t)1 << 28) /* Largest file record_load_file reads. */
#define RECORD_QUOTE     "%.40s"           /* How much of a bad text a message quotes. */
#define RECORD_PSQ_MAGIC "Piskvorky"       /* How a PSQ file begins. */
#define RECORD_PSQ_GM    4                 /* SGF's number of Gomoku, the game of PSQ files. */
#define RECORD_PSQ_SIDE  9999              /* Past this, a PSQ point is off any board. */

/* Writes prefix and a sentence into err[errlen] (when there is room). */
static void record_vfail(char *err, size_t errlen, const char *prefix, const char *fmt, va_list ap)
{
    if (!err || !errlen)
        return;
    size_t n = (size_t)snprintf(err, errlen, "%s", prefix);
    if (n < errlen)
        vsnprintf(err + n, errlen - n, fmt, ap);
}

/* Writes a sentence into err[errlen] and returns rc. */
static int record_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record_vfail(err, errlen, "", fmt, ap);
    va_end(ap);
    return rc;
}

/* The text s (NULL reads as "") without the white space around it: returns
 * where it begins and sets *len to its length. */
static const char *record_trim(const char *s, size_t *len)
{
    if (!s)
        s = "";
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    *len = n;
    return s;
}

/* Copies text (trimmed) into out[size], cut at a character boundary of
 * UTF-8 when it is too long: names are kept as well as they fit. */
static void record_copy_name(char *out, size_t size, const char *text)
{
    size_t n;
    const char *s = record_trim(text, &n);
    if (n >= size) {
        n = size - 1;
        while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(out, s, n);
    out[n] = 0;
}

/* Rebuilds into out (state_size bytes) the position after the first n
 * moves. Each step succeeded when the record took it, and games are pure
 * functions of their arguments, so none can fail here. */
static void record_rebuild(const record *r, int n, void *out)
{
    r->g->setup(out, r->params);
    if (r->start)
        banyan_game_load(r->g, out, r->start);
    for (int i = 0; i < n; i++)
        r->g->play(out, r->moves[i].move);
}

/* A hash of the board of s, from piece(): what positional superko
 * compares. 0 for a game without a board. */
static uint64_t record_board(const banyan_game *g, const void *s)
{
    int w = 0, h = 0;
    uint64_t key = 0x9e3779b97f4a7c15ULL;
    if (!g->board || !(g->board && g->board->piece))
        return 0;
    g->board->board_size(s, &w, &h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            key = banyan_mix64(key ^ (uint64_t)(g->board->piece(s, x, y) + 2) ^
                               ((uint64_t)(y * w + x) << 8));
    return key;
}

/* Whether the game is over in s. */
static bool record_is_over(const banyan_game *g, const void *s)
{
    double returns[BANYAN_MAX_PLAYERS];
    return g->outcome(s, returns);
}

/* record_init, saying in *part which argument a failure is about: 0 the
 * game or its parameters, 1 the start position. */
static int record_start(record *r, const banyan_game *g, const char *params, const char *start,
                        char *err, size_t errlen, int *part)
{
    const char *why;
    size_t n;
    int rc;
    memset(r, 0, sizeof *r);
    record_fail(err, errlen, BANYAN_OK, "%s", "");
    *part = 0;
    if ((why = banyan_game_check(g)))
        return record_fail(err, errlen, BANYAN_EINVAL, "%s", why);
    r->g = g;
    params = record_trim(params, &n);
    if (n >= sizeof r->params)
        return record_fail(err, errlen, BANYAN_EINVAL, "the parameters are longer than %d bytes",
                           RECORD_PARAMS_MAX - 1);
    memcpy(r->params, params, n);
    r->params[n] = 0;
    /* A line break would end the parameters' line in a saved record. */
    if (strpbrk(r->params, "\r\n"))
        return record_fail(err, errlen, BANYAN_EINVAL, "the parameters hold a line break");
    if (banyan_params_check(g, r->params, err, errlen) != BANYAN_OK)
        return BANYAN_EINVAL;
    r->state = malloc(g->state_size);
    r->scratch = malloc(g->state_size);
    if (!r->state || !r->scratch) {
        rc = record_fail(err, errlen, BANYAN_ENOMEM, "out of memory");
        goto fail;
    }
    if (g->setup(r->state, r->params) != BANYAN_OK) {
        rc = record_fail(err, errlen, BANYAN_EINVAL, "%s refuses the parameters \"%s\"", g->name,
                         r->params);
        goto fail;
    }
    *part = 1;
    r->start_board = record_board(g, r->state);
    start = record_trim(start, &n);
    if (n == 0)
        return BANYAN_OK;
    n = strnlen(start, n);
    if (!(r->start = malloc(n + 1))) {
        rc = record_fail(err, errlen, BANYAN_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(r->start, start, n);
    r->start[n] = 0;
    if (strpbrk(r->start, "\r\n")) {
        rc = record_fail(err, errlen, BANYAN_EINVAL, "the start position holds a line break");
        goto fail;
    }
    if ((rc = banyan_game_load(g, r->state, r->start)) != BANYAN_OK) {
        record_fail(err, errlen, rc, "bad start position \"" RECORD_QUOTE "\": %s", r->start,
                    rc == BANYAN_ERANGE     ? "a move is off the board"
                    : rc == BANYAN_EILLEGAL ? "a move is not legal there"
                                            : "it is no position of this game");
        goto fail;
    }
    r->start_board = record_board(g, r->state);
    return BANYAN_OK;
fail:
    record_free(r);
    return rc;
}

int record_init(record *r, const banyan_game *g, const char *params, const char *start, char *err,
                size_t errlen)
{
    int part;
    return record_start(r, g, params, start, err, errlen, &part);
}

void record_free(record *r)
{
    for (int i = 0; i < r->n_moves; i++)
        free(r->moves[i].comment);
    free(r->moves);
    free(r->start);
    free(r->state);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

void record_clear(record *r)
{
    record_undo(r, r->n_moves);
    memset(r->players, 0, sizeof r->players);
    memset(r->result, 0, sizeof r->result);
    memset(r->date, 0, sizeof r->date);
}

/* The board after move m, legal in record_state(r), into *board; whether
 * that breaks superko. */
static bool record_superko(record *r, banyan_move m, uint64_t *board)
{
    *board = 0;
    if (!(r->g->rules & BANYAN_RULE_SUPERKO))
        return false;
    memcpy(r->scratch, r->state, r->g->state_size);
    r->g->play(r->scratch, m);
    *board = record_board(r->g, r->scratch);
    uint64_t now = r->n_moves ? r->moves[r->n_moves - 1].board : r->start_board;
    if (*board == now)
        return false; /* The board stays as it is: a pass. */
    if (*board == r->start_board)
        return true;
    for (int i = 0; i < r->n_moves; i++)
        if (r->moves[i].board == *board)
            return true;
    return false;
}

bool record_repeats(record *r, banyan_move m)
{
    uint64_t board;
    return banyan_game_is_legal(r->g, r->state, m) && record_superko(r, m, &board);
}

banyan_move record_pick(record *r, const banyan_report *rep)
{
    if (rep->best == BANYAN_MOVE_NONE || !record_repeats(r, rep->best))
        return rep->best;
    for (int i = 0; i < rep->n_moves; i++)
        if (!record_repeats(r, rep->moves[i].move))
            return rep->moves[i].move;
    return rep->best; /* Every move repeats: only a pass can, which never does. */
}

int record_push(record *r, banyan_move m, double seconds, const char *comment)
{
    uint64_t board;
    if (!banyan_game_is_legal(r->g, r->state, m) || record_superko(r, m, &board))
        return BANYAN_EILLEGAL;
    if (r->n_moves == r->cap) {
        /* Doubling keeps pushes amortised O(1); a failed realloc keeps the
         * old array, so the record is unchanged. */
        if (r->cap > INT_MAX / 2)
            return BANYAN_ENOMEM;
        int cap = r->cap ? 2 * r->cap : 16;
        record_move *moves = realloc(r->moves, (size_t)cap * sizeof *moves);
        if (!moves)
            return BANYAN_ENOMEM;
        r->moves = moves;
        r->cap = cap;
    }
    char *copy = NULL;
    if (comment && !(copy = strdup(comment)))
        return BANYAN_ENOMEM;
    record_move *rm = &r->moves[r->n_moves++];
    rm->move = m;
    rm->board = board;
    rm->seconds = seconds >= 0 && seconds <= DBL_MAX ? seconds : -1; /* NaN, inf: unknown. */
    rm->comment = copy;
    rm->implied = false;
    r->g->play(r->state, m);
    return BANYAN_OK;
}

int record_undo(record *r, int n)
{
    if (n <= 0)
        return 0;
    if (n > r->n_moves)
        n = r->n_moves;
    for (int i = r->n_moves - n; i < r->n_moves; i++)
        free(r->moves[i].comment);
    r->n_moves -= n;
    record_rebuild(r, r->n_moves, r->state);
    return n;
}

const void *record_state(const record *r)
{
    return r->state;
}

int record_state_at(const record *r, int n, void *out)
{
    if (n < 0 || n > r->n_moves || !out)
        return BANYAN_EINVAL;
    record_rebuild(r, n, out);
    return BANYAN_OK;
}

const void *record_before(record *r, int i)
{
    if (i < 0 || i > r->n_moves)
        return NULL;
    record_rebuild(r, i, r->scratch);
    return r->scratch;
}

int record_replay(const record *r, banyan_engine *e, int n)
{
    int rc;
    if (n < 0 || n > r->n_moves || banyan_engine_game(e) != r->g)
        return BANYAN_EINVAL;
    if ((rc = banyan_engine_setup(e, r->params)) != BANYAN_OK)
        return rc;
    if (r->start && (rc = banyan_engine_load(e, r->start)) != BANYAN_OK)
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = banyan_engine_play(e, r->moves[i].move)) != BANYAN_OK)
            return rc;
    return BANYAN_OK;
}

/* ---- Saving ---- */

/* Writes text with its line breaks turned into spaces: one line of the
 * plain format. */
static void record_put_line(FILE *f, const char *text)
{
    for (const char *p = text; *p; p++)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
}

/* Writes "# key value" when value is not empty. */
static void record_put_header(FILE *f, const char *key, const char *value)
{
    if (!value || !value[0])
        return;
    fprintf(f, "# %s ", key);
    record_put_line(f, value);
    fputc('\n', f);
}

static int record_save_text(const record *r, FILE *f, void *s)
{
    char buf[RECORD_MOVE_MAX];
    fprintf(f, "# banyan game %s\n", r->g->name);
    record_put_header(f, "params", r->params);
    record_put_header(f, "position", r->start);
    record_put_header(f, "first", r->players[0]);
    record_put_header(f, "second", r->players[1]);
    record_put_header(f, "result", r->result);
    record_put_header(f, "date", r->date);
    record_rebuild(r, 0, s);
    for (int i = 0; i < r->n_moves; i++) {
        const record_move *rm = &r->moves[i];
        int len = banyan_game_format(r->g, s, rm->move, 0, buf, sizeof buf);
        if (len < 0 || (size_t)len >= sizeof buf)
            return BANYAN_EINVAL;
        fputs(buf, f);
        if (rm->seconds >= 0)
            fprintf(f, " %.3fs", rm->seconds);
        if (rm->comment) {
            fputs(" # ", f);
            record_put_line(f, rm->comment);
        }
        fputc('\n', f);
        r->g->play(s, rm->move);
    }
    return BANYAN_OK;
}

/* Writes an SGF property with one value, escaping ']' and '\'. */
static void record_put_sgf(FILE *f, const char *id, const char *value)
{
    fprintf(f, "%s[", id);
    for (const char *p = value; *p; p++) {
        if (*p == ']' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fputc(']', f);
}

/* SGF's RE for the record's result and final position s, into out[len]
 * ("" when unknown): a resignation's R and a loss on time's T; a reason
 * that is itself SGF's result, as a file read gave it ("0-1 (W+12.5)");
 * for a game that ended on the board, the game's own result with its
 * margin (banyan_game_result); else the winner's colour, or 0 for a draw. */
static void record_sgf_result(const record *r, const void *s, char *out, size_t len)
{
    const char *res = r->result, *reason = strchr(res, '(');
    bool black = !strncmp(res, "1-0", 3), white = !strncmp(res, "0-1", 3);
    out[0] = 0;
    if ((black || white) && (strstr(res, "resign") || strstr(res, "time"))) {
        snprintf(out, len, "%c+%c", black ? 'B' : 'W', strstr(res, "resign") ? 'R' : 'T');
    } else if ((black || white) && reason && reason[1] == "BW"[white] && reason[2] == '+') {
        snprintf(out, len, "%.*s", (int)strcspn(reason + 1, ")"), reason + 1);
    } else if (banyan_game_result(r->g, s, BANYAN_RESULT_SGF, out, len) <= 0) {
        snprintf(out, len, "%s",
                 black                         ? "B+"
                 : white                       ? "W+"
                 : !strncmp(res, "1/2-1/2", 7) ? "0"
                                               : "");
    }
}

/* Parameters for a board of w x h (defined with the loaders below). */
static int record_size_params(const banyan_game *g, int w, int h, const char *label, char *out,
                              size_t len, char *why, size_t whylen);

/* Whether a and b, positions of one w x h board, have the same pieces and
 * player to move. */
static bool record_same_board(const banyan_game *g, const void *a, const void *b, int w, int h)
{
    bool same = g->to_move(a) == g->to_move(b);
    for (int y = 0; same && y < h; y++)
        for (int x = 0; same && x < w; x++)
            same = g->board->piece(a, x, y) == g->board->piece(b, x, y);
    return same;
}

/* The board form of s (see record.h) into out, w * h + 3 bytes: every
 * cell from the top-left, then the player to move. */
static void record_board_form(const banyan_game *g, const void *s, int w, int h, char *out)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int p = g->board->piece(s, x, y);
            out[y * w + x] = p == 0 ? 'X' : p == 1 ? 'O' : '-';
        }
    snprintf(out + w * h, 3, " %c", g->to_move(s) ? 'O' : 'X');
}

/* The root's setup for readers that know the start only from stones: where
 * the start s differs from the game's start on its board (only the width
 * and height set), every piece as AB (the first player's) or AW, AE on the
 * points the parameters' own start (in ref, scratch) has a piece on and s
 * has not, PL the player to move, and HA the number of the first player's
 * stones when they stand alone and the second player moves. */
static void record_put_setup(const record *r, FILE *f, const void *s, void *ref, int w, int h)
{
    const banyan_game *g = r->g;
    char params[RECORD_PARAMS_MAX], why[256];
    int count[2] = {0, 0};
    if (record_size_params(g, w, h, "", params, sizeof params, why, sizeof why) != BANYAN_OK ||
        g->setup(ref, params) != BANYAN_OK)
        return;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int p = g->board->piece(s, x, y);
            count[0] += p == 0;
            count[1] += p == 1;
        }
    if (record_same_board(g, s, ref, w, h))
        return;
    if (count[0] >= 2 && count[1] == 0 && g->to_move(s) == 1)
        fprintf(f, "HA[%d]", count[0]);
    g->setup(ref, r->params);
    for (int k = 0; k < 3; k++) {
        bool first = true;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int p = g->board->piece(s, x, y);
                if (k < 2 ? p != k : p >= 0 || g->board->piece(ref, x, y) < 0)
                    continue;
                fprintf(f, "%s[%c%c]", first ? (const char *[]){"AB", "AW", "AE"}[k] : "", 'a' + x,
                        'a' + y);
                first = false;
            }
    }
    fprintf(f, "PL[%c]", g->to_move(s) ? 'W' : 'B');
}

static int record_save_sgf(const record *r, FILE *f, void *s)
{
    const banyan_game *g = r->g;
    char buf[RECORD_MOVE_MAX], re[RECORD_NAME_MAX], date[RECORD_NAME_MAX];
    int w, h;
    if (!(g->board ? g->board->sgf_game : 0) || g->n_players != 2 ||
        !((g->board ? g->board->coords : 0) & BANYAN_COORDS_SGF))
        return BANYAN_EINVAL;
    record_rebuild(r, 0, s);
    g->board->board_size(s, &w, &h); /* The SGF system needs a board (banyan_game_check). */
    void *ref = malloc(g->state_size);
    char *form = malloc((size_t)w * (size_t)h + 3);
    if (!ref || !form) {
        free(ref);
        free(form);
        return BANYAN_ENOMEM;
    }
    fprintf(f, "(;GM[%d]FF[4]CA[UTF-8]AP[Banyan:%s]", (g->board ? g->board->sgf_game : 0),
            banyan_version());
    if (w == h)
        fprintf(f, "SZ[%d]", w);
    else
        fprintf(f, "SZ[%d:%d]", w, h);
    for (const banyan_param *p = g->params; p && p->name; p++)
        if ((p->role & BANYAN_ROLE_KOMI) &&
            banyan_params_value(g, r->params, p->name, buf, sizeof buf) == BANYAN_OK)
            record_put_sgf(f, "KM", buf);
    if (r->players[0][0])
        record_put_sgf(f, "PB", r->players[0]);
    if (r->players[1][0])
        record_put_sgf(f, "PW", r->players[1]);
    /* The day the game was played, or else the day it is saved. */
    time_t now = time(NULL);
    struct tm day;
    if (r->date[0])
        snprintf(date, sizeof date, "%s", r->date);
    else if (!localtime_r(&now, &day) || !strftime(date, sizeof date, "%Y-%m-%d", &day))
        date[0] = 0;
    if (date[0])
        record_put_sgf(f, "DT", date);
    record_sgf_result(r, record_state(r), re, sizeof re);
    if (re[0])
        record_put_sgf(f, "RE", re);
    record_put_sgf(f, "XG", g->name);
    if (r->params[0])
        record_put_sgf(f, "XP", r->params);
    /* XS is left out where AB, AW, AE and PL say all of it: a board form
     * that is not the parameters' own start (which a reader takes for no
     * start at all). */
    record_board_form(g, s, w, h, form);
    if (r->start && (strcmp(r->start, form) ||
                     (g->setup(ref, r->params) == BANYAN_OK && record_same_board(g, s, ref, w, h))))
        record_put_sgf(f, "XS", r->start);
    record_put_setup(r, f, s, ref, w, h);
    free(ref);
    free(form);
    fputc('\n', f);
    for (int i = 0; i < r->n_moves; i++) {
        const record_move *rm = &r->moves[i];
        int len = banyan_game_format(g, s, rm->move, BANYAN_COORDS_SGF, buf, sizeof buf);
        if (len < 0 || (size_t)len >= sizeof buf)
            return BANYAN_EINVAL;
        fprintf(f, ";%c", g->to_move(s) == 0 ? 'B' : 'W');
        record_put_sgf(f, "", buf);
        if (rm->comment)
            record_put_sgf(f, "C", rm->comment);
        if (rm->seconds >= 0)
            fprintf(f, "XT[%.3f]", rm->seconds);
        fputc('\n', f);
        g->play(s, rm->move);
    }
    fputs(")\n", f);
    return BANYAN_OK;
}

/* The 1-based PSQ point of move m in s into *x, *y. Returns false for a
 * move that is no cell of the board (a pass). */
static bool record_psq_point(const banyan_game *g, const void *s, banyan_move m, int *x, int *y)
{
    char buf[RECORD_MOVE_MAX];
    int len = banyan_game_format(g, s, m, BANYAN_COORDS_XY, buf, sizeof buf);
    if (len < 0 || (size_t)len >= sizeof buf || sscanf(buf, "%d,%d", x, y) != 2 || *x < 0 || *y < 0)
        return false;
    ++*x, ++*y;
    return true;
}

/* PSQ as Piskvork writes it (see record.h). Every move is checked to have
 * a place before anything is written. */
static int record_save_psq(const record *r, FILE *f, void *s)
{
    const banyan_game *g = r->g;
    int w, h, x, y;
    if (!((g->board ? g->board->coords : 0) & BANYAN_COORDS_XY) || !g->board || r->start)
        return BANYAN_EINVAL;
    record_rebuild(r, 0, s);
    for (int i = 0; i < r->n_moves; i++) {
        if (!record_psq_point(g, s, r->moves[i].move, &x, &y))
            return BANYAN_EINVAL;
        g->play(s, r->moves[i].move);
    }
    record_rebuild(r, 0, s);
    g->board->board_size(s, &w, &h);
    fprintf(f, "Piskvorky %dx%d, 0:0, 0\n", w, h);
    for (int i = 0; i < r->n_moves; i++) {
        const record_move *rm = &r->moves[i];
        double ms = rm->seconds < 0 ? 0 : rm->seconds * 1000 + 0.5;
        record_psq_point(g, s, rm->move, &x, &y);
        fprintf(f, "%d,%d,%ld\n", x, y, ms < (double)INT_MAX ? (long)ms : (long)INT_MAX);
        g->play(s, rm->move);
    }
    fputs("-1\n", f);
    return BANYAN_OK;
}

int record_save(const record *r, FILE *f, record_format fmt)
{
    void *s = malloc(r->g->state_size);
    int rc;
    if (!s)
        return BANYAN_ENOMEM;
    rc = fmt == RECORD_SGF   ? record_save_sgf(r, f, s)
         : fmt == RECORD_PSQ ? record_save_psq(r, f, s)
                             : record_save_text(r, f, s);
    free(s);
    if (rc == BANYAN_OK && ferror(f))
        rc = BANYAN_ENOMEM;
    return rc;
}

/* ---- Loading: what the formats share ---- */

/* The built-in game with SGF number gm, or NULL. */
static const banyan_game *record_game_by_gm(long gm)
{
    int n;
    const banyan_game *const *games = banyan_game_list(&n);
    for (int i = 0; i < n; i++)
        if (games[i]->board && games[i]->board->sgf_game == gm)
            return games[i];
    return NULL;
}

/* Parameters for a board of w x h, which messages call label (SZ[15:13],
 * the board 20x15): each parameter of role width gets w, each of role
 * height h, into out[len]. Returns BANYAN_OK, or BANYAN_EINVAL with a
 * sentence in why[whylen]. */
static int record_size_params(const banyan_game *g, int w, int h, const char *label, char *out,
                              size_t len, char *why, size_t whylen)
{
    size_t used = 0;
    out[0] = 0;
    for (const banyan_param *p = g->params; p && p->name; p++) {
        unsigned role = p->role & (BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT);
        if (!role)
            continue;
        if (role == (BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT) && w != h)
            return record_fail(why, whylen, BANYAN_EINVAL, "%s is not square, and %s's boards are",
                               label, g->name);
        int v = role & BANYAN_ROLE_WIDTH ? w : h;
        int k = snprintf(out + used, len - used, "%s%s=%d", used ? " " : "", p->name, v);
        if (k < 0 || (size_t)k >= len - used)
            return record_fail(why, whylen, BANYAN_EINVAL, "%s makes parameters too long", label);
        used += (size_t)k;
    }
    return BANYAN_OK;
}

/* Parses text as a move in coords in the record's position and pushes it.
 * Returns BANYAN_OK, or an error code with *why set to the rest of a
 * sentence about the move ("is off the board"). */
static int record_push_text(record *r, unsigned coords, const char *text, double seconds,
                            const char *comment, const char **why)
{
    banyan_move m;
    int rc = banyan_game_parse(r->g, r->state, coords, text, &m);
    if (rc == BANYAN_ERANGE) {
        *why = "is off the board";
    } else if (rc != BANYAN_OK) {
        *why = "is not a move";
        rc = BANYAN_EINVAL;
    } else if ((rc = record_push(r, m, seconds, comment)) == BANYAN_EILLEGAL) {
        *why = record_is_over(r->g, r->state) ? "comes after the end of the game"
                                              : "is not legal here";
    } else if (rc != BANYAN_OK) {
        *why = "cannot be kept: out of memory";
    }
    return rc;
}

/* Reads a time of the plain format: digits, at most one '.', then 's'. */
static bool record_parse_seconds(const char *text, double *out)
{
    size_t n = strlen(text), digits = 0, dots = 0;
    if (n < 2 || text[n - 1] != 's')
        return false;
    for (size_t i = 0; i + 1 < n; i++) {
        if (isdigit((unsigned char)text[i]))
            digits++;
        else if (text[i] == '.')
            dots++;
        else
            return false;
    }
    if (digits == 0 || dots > 1)
        return false;
    *out = strtod(text, NULL);
    return *out <= DBL_MAX;
}

/* ---- Loading the plain format ---- */

/* What the header lines before the first move say. */
typedef struct record_header {
    const banyan_game *g;             /* The game: the caller's, or named here. */
    int game_line;                    /* Line of "# banyan game", or 0. */
    char params[RECORD_PARAMS_MAX];   /* "# params", trimmed. */
    int params_line;                  /* Its line, or 0. */
    char *start;                      /* "# position", owned, or NULL. */
    int start_line;                   /* Its line, or 0. */
    char players[2][RECORD_NAME_MAX]; /* "# first", "# second". */
    char result[RECORD_NAME_MAX];     /* "# result". */
    char date[RECORD_NAME_MAX];       /* "# date". */
} record_header;

/* Whether text begins with the word key (followed by a space or the end);
 * *rest is then what follows it. */
static bool record_is_key(const char *text, const char *key, const char **rest)
{
    size_t n = strlen(key);
    if (strncmp(text, key, n) || (text[n] && !isspace((unsigned char)text[n])))
        return false;
    *rest = text + n;
    return true;
}

/* "line 7: " for a line number, or nothing for line 0 (no line). */
static const char *record_at_line(int line_no, char *buf, size_t len)
{
    if (line_no <= 0)
        return "";
    snprintf(buf, len, "line %d: ", line_no);
    return buf;
}

/* Reads header line t (after its '#'); other comments are skipped. */
static int record_text_header(record_header *h, const char *t, int line_no, char *err,
                              size_t errlen)
{
    const char *v;
    size_t n;
    while (isspace((unsigned char)*t))
        t++;
    if (record_is_key(t, "banyan", &v)) {
        while (isspace((unsigned char)*v))
            v++;
        if (!record_is_key(v, "game", &v))
            return BANYAN_OK;
        v = record_trim(v, &n);
        const banyan_game *named = banyan_game_find(v);
        if (n == 0)
            return record_fail(err, errlen, BANYAN_EINVAL, "line %d: no game is named", line_no);
        if (h->g && named != h->g && strcmp(v, h->g->name))
            return record_fail(err, errlen, BANYAN_EINVAL,
                               "line %d: a record of " RECORD_QUOTE ", not %s", line_no, v,
                               h->g->name);
        if (!h->g && !named)
            return record_fail(err, errlen, BANYAN_EINVAL,
                               "line %d: unknown game \"" RECORD_QUOTE "\"", line_no, v);
        h->g = h->g ? h->g : named;
        h->game_line = line_no;
    } else if (record_is_key(t, "params", &v)) {
        v = record_trim(v, &n);
        if (n >= sizeof h->params)
            return record_fail(err, errlen, BANYAN_EINVAL,
                               "line %d: the parameters are longer than %d bytes", line_no,
                               RECORD_PARAMS_MAX - 1);
        memcpy(h->params, v, n + 1);
        h->params_line = line_no;
    } else if (record_is_key(t, "position", &v)) {
        v = record_trim(v, &n);
        free(h->start);
        if (!(h->start = strdup(v)))
            return record_fail(err, errlen, BANYAN_ENOMEM, "out of memory");
        h->start_line = line_no;
    } else if (record_is_key(t, "first", &v)) {
        record_copy_name(h->players[0], sizeof h->players[0], v);
    } else if (record_is_key(t, "second", &v)) {
        record_copy_name(h->players[1], sizeof h->players[1], v);
    } else if (record_is_key(t, "result", &v)) {
        record_copy_name(h->result, sizeof h->result, v);
    } else if (record_is_key(t, "date", &v)) {
        record_copy_name(h->date, sizeof h->date, v);
    }
    return BANYAN_OK;
}

/* Starts the record from the header, at the first move (line_no) or at the
 * end of the text (line_no 0). */
static int record_text_begin(record *r, record_header *h, int line_no, char *err, size_t errlen)
{
    char why[256], at[32];
    int part, rc;
    if (!h->g)
        return record_fail(err, errlen, BANYAN_EINVAL,
                           "%sno \"# banyan game\" line names the game before the first move",
                           record_at_line(line_no, at, sizeof at));
    if ((rc = record_start(r, h->g, h->params, h->start, why, sizeof why, &part)) != BANYAN_OK)
        return record_fail(err, errlen, rc, "%s%s",
                           record_at_line(part ? h->start_line : h->params_line, at, sizeof at),
                           why);
    memcpy(r->players, h->players, sizeof r->players);
    memcpy(r->result, h->result, sizeof r->result);
    memcpy(r->date, h->date, sizeof r->date);
    return BANYAN_OK;
}

/* Plays move line t ("h10 1.250s # a comment"), changing it in place. */
static int record_text_move(record *r, char *t, int line_no, char *err, size_t errlen)
{
    char *comment = strchr(t, '#'), *last;
    double seconds = -1;
    const char *why;
    size_t n;
    int rc;
    if (comment) {
        *comment++ = 0;
        comment = (char *)record_trim(comment, &n);
        comment[n] = 0;
        if (n == 0)
            comment = NULL;
    }
    t = (char *)record_trim(t, &n);
    t[n] = 0;
    /* A last word that reads as a time is the time; the rest is the move. */
    for (last = t + n; last > t && !isspace((unsigned char)last[-1]); last--)
        ;
    if (last > t && record_parse_seconds(last, &seconds)) {
        while (last > t && isspace((unsigned char)last[-1]))
            last--;
        *last = 0;
    }
    if ((rc = record_push_text(r, 0, t, seconds, comment, &why)) != BANYAN_OK)
        return record_fail(err, errlen, rc, "line %d: \"" RECORD_QUOTE "\" %s", line_no, t, why);
    return BANYAN_OK;
}

/* The next line of the text at *p, trimmed (CR LF ends lines too), in a
 * buffer *line of *cap bytes grown as needed, counted in *line_no: returns
 * 1 with *out set, 0 at the end of the text, or BANYAN_ENOMEM with a
 * message in err. */
static int record_line(const char **p, char **line, size_t *cap, int *line_no, char **out,
                       char *err, size_t errlen)
{
    size_t n = strcspn(*p, "\n"), len;
    if (!**p)
        return 0;
    if (n + 1 > *cap) {
        char *bigger = realloc(*line, n + 1);
        if (!bigger)
            return record_fail(err, errlen, BANYAN_ENOMEM, "out of memory");
        *line = bigger;
        *cap = n + 1;
    }
    memcpy(*line, *p, n);
    (*line)[n] = 0;
    *p += n + ((*p)[n] == '\n');
    (*line_no)++;
    char *t = (char *)record_trim(*line, &len);
    t[len] = 0;
    *out = t;
    return 1;
}

/* Reads the plain format: header lines, then a move a line. */
static int record_load_text(record *r, const banyan_game *g, const char *text, char *err,
                            size_t errlen)
{
    record_header h;
    char *line = NULL;
    size_t cap = 0;
    int line_no = 0, rc = BANYAN_OK;
    bool started = false;
    memset(&h, 0, sizeof h);
    h.g = g;
    const char *p = text;
    char *t;
    int got = 0;
    while (rc == BANYAN_OK && (got = record_line(&p, &line, &cap, &line_no, &t, err, errlen)) > 0) {
        if (!*t)
            continue;
        if (*t == '#') {
            /* After the first move, headers are only comments. */
            if (!started)
                rc = record_text_header(&h, t + 1, line_no, err, errlen);
            continue;
        }
        if (!started) {
            started = true;
            if ((rc = record_text_begin(r, &h, line_no, err, errlen)) != BANYAN_OK)
                break;
        }
        rc = record_text_move(r, t, line_no, err, errlen);
    }
    if (got < 0)
        rc = got;
    if (rc == BANYAN_OK && !started)
        rc = record_text_begin(r, &h, 0, err, errlen);
    free(line);
    free(h.start);
    if (rc != BANYAN_OK)
        record_free(r);
    return rc;
}

/* ---- Loading PSQ ---- */

/* Reads a decimal number at *p, with the spaces and tabs around it,
 * saturating at max. Returns false when no digit is there. */
static bool record_psq_number(const char **p, long max, long *out)
{
    const char *q = *p;
    long v = 0;
    while (*q == ' ' || *q == '\t')
        q++;
    if (!isdigit((unsigned char)*q))
        return false;
    for (; isdigit((unsigned char)*q); q++)
        v = v >= max / 10 ? max : v * 10 + (*q - '0');
    while (*q == ' ' || *q == '\t')
        q++;
    *p = q;
    *out = v > max ? max : v;
    return true;
}

/* Reads a move line "x,y" or "x,y,t" (spaces around the numbers allowed)
 * into 1-based x, y and the milliseconds t (-1 when absent: unknown). */
static bool record_psq_move(const char *t, long *x, long *y, long *ms)
{
    const char *p = t;
    *ms = -1;
    if (!record_psq_number(&p, 99999, x) || *p++ != ',' || !record_psq_number(&p, 99999, y))
        return false;
    if (*p == ',' && (++p, !record_psq_number(&p, 2000000000L, ms)))
        return false;
    return *p == 0;
}

/* Starts the record from PSQ's first line t, "Piskvorky WxH, ...": the
 * game g (NULL: the built-in game of SGF number 4, Gomoku, the game
 * Piskvork plays) set to that board. */
static int record_psq_begin(record *r, const banyan_game *g, const char *t, int line_no, char *err,
                            size_t errlen)
{
    char params[RECORD_PARAMS_MAX], why[256], label[48];
    const char *p = t + strlen(RECORD_PSQ_MAGIC);
    long w, h;
    int part, rc, bw, bh;
    if (!isspace((unsigned char)*p) || !record_psq_number(&p, RECORD_PSQ_SIDE, &w) || *p++ != 'x' ||
        !record_psq_number(&p, RECORD_PSQ_SIDE, &h) ||
        (*p && *p != ',' && !isspace((unsigned char)p[-1])))
        return record_fail(err, errlen, BANYAN_EINVAL,
                           "PSQ: line %d: \"" RECORD_QUOTE "\" is not \"%s WIDTHxHEIGHT, ...\"",
                           line_no, t, RECORD_PSQ_MAGIC);
    if (!g && !(g = record_game_by_gm(RECORD_PSQ_GM)))
        return record_fail(err, errlen, BANYAN_EINVAL, "PSQ: no game of SGF number %d is built in",
                           RECORD_PSQ_GM);
    if (!((g->board ? g->board->coords : 0) & BANYAN_COORDS_XY) || !g->board)
        return record_fail(err, errlen, BANYAN_EINVAL, "PSQ: %s has no X,Y coordinates", g->name);
    snprintf(label, sizeof label, "the board %ldx%ld", w, h);
    if (record_size_params(g, (int)w, (int)h, label, params, sizeof params, why, sizeof why) !=
            BANYAN_OK ||
        banyan_params_check(g, params, why, sizeof why) != BANYAN_OK)
        return record_fail(err, errlen, BANYAN_EINVAL, "PSQ: line %d: %s", line_no, why);
    if ((rc = record_start(r, g, params, NULL, why, sizeof why, &part)) != BANYAN_OK)
        return record_fail(err, errlen, rc, "PSQ: line %d: %s", line_no, why);
    g->board->board_size(r->state, &bw, &bh);
    if (bw != w || bh != h)
        return record_fail(err, errlen, BANYAN_EINVAL,
                           "PSQ: line %d: %s does not fit %s's %dx%d board", line_no, label,
                           g->name, bw, bh);
    return BANYAN_OK;
}

/* Reads PSQ (see record.h): the first line that is not blank starts the
 * record, then a move a line until a line that is not one. */
static int record_load_psq(record *r, const banyan_game *g, const char *text, char *err,
                           size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    int line_no = 0, rc = BANYAN_OK;
    bool started = false;
    const char *p = text;
    char *t;
    int got = 0;
    while (rc == BANYAN_OK && (got = record_line(&p, &line, &cap, &line_no, &t, err, errlen)) > 0) {
        if (!*t)
            continue;
        if (!started) {
            started = true;
            rc = record_psq_begin(r, g, t, line_no, err, errlen);
            continue;
        }
        long x, y, ms;
        if (!isdigit((unsigned char)*t))
            break; /* -1, the players' names: the moves are over. */
        if (!record_psq_move(t, &x, &y, &ms)) {
            rc = record_fail(err, errlen, BANYAN_EINVAL,
                             "PSQ: line %d: \"" RECORD_QUOTE "\" is not a move", line_no, t);
            break;
        }
        char xy[48];
        const char *why = "is off the board";
        snprintf(xy, sizeof xy, "%ld,%ld", x - 1, y - 1);
        double seconds = ms < 0 ? -1 : (double)ms / 1000;
        if (x < 1 || y < 1 || x > RECORD_PSQ_SIDE || y > RECORD_PSQ_SIDE)
            rc = BANYAN_ERANGE; /* Before the first column or row, or past any board. */
        else
            rc = record_push_text(r, BANYAN_COORDS_XY, xy, seconds, NULL, &why);
        if (rc != BANYAN_OK)
            record_fail(err, errlen, rc, "PSQ: line %d: \"" RECORD_QUOTE "\" %s", line_no, t, why);
    }
    if (got < 0)
        rc = got;
    free(line);
    if (rc != BANYAN_OK)
        record_free(r);
    return rc;
}

/* ---- Loading SGF ---- */

/* The properties the reader understands; the others are only parsed. From
 * RECORD_SGF_GM on, they are read in the root node alone. */
enum {
    RECORD_SGF_B,
    RECORD_SGF_W,
    RECORD_SGF_C,
    RECORD_SGF_XT,
    RECORD_SGF_AB,
    RECORD_SGF_AW,
    RECORD_SGF_AE,
    RECORD_SGF_GM,
    RECORD_SGF_SZ,
    RECORD_SGF_XG,
    RECORD_SGF_XP,
    RECORD_SGF_XS,
    RECORD_SGF_PB,
    RECORD_SGF_PW,
    RECORD_SGF_RE,
    RECORD_SGF_PL,
    RECORD_SGF_KM,
    RECORD_SGF_DT,
    RECORD_SGF_KNOWN
};

static const char *const record_sgf_names[RECORD_SGF_KNOWN] = {
    "B",  "W",  "C",  "XT", "AB", "AW", "AE", "GM", "SZ",
    "XG", "XP", "XS", "PB", "PW", "RE", "PL", "KM", "DT",
};

#define RECORD_SGF_SIDE 26 /* Columns and rows SGF's lower-case letters name. */
enum { RECORD_SGF_SETUP_B = 1, RECORD_SGF_SETUP_W, RECORD_SGF_SETUP_E };

/* What came last in the input, for the grammar's rules. */
enum { RECORD_SGF_OPEN, RECORD_SGF_NODE, RECORD_SGF_CLOSE };

/* The reader's state: the input, the root's properties until the root node
 * ends and the record starts, and the main-line node being read. */
typedef struct record_sgf {
    const char *text; /* The whole input. */
    size_t pos;       /* Next byte to read. */
    char *value;      /* The value read last, decoded (RECORD_SGF_VALUE + 1 bytes). */
    size_t value_len; /* Its length. */
    char *err;        /* The caller's message buffer. */
    size_t errlen;
    record *r;                        /* The record, started at the end of the root node. */
    const banyan_game *g;             /* The caller's game, or NULL. */
    long gm;                          /* GM[], 0 when absent. */
    int width, height;                /* SZ[], 0 when absent. */
    char sz[32];                      /* SZ's text, for messages. */
    char game[64];                    /* XG[], "" when absent. */
    bool has_params;                  /* XP[] was given. */
    char params[RECORD_PARAMS_MAX];   /* XP[]. */
    char *start;                      /* XS[], owned, or NULL. */
    char players[2][RECORD_NAME_MAX]; /* PB[], PW[]. */
    char result[RECORD_NAME_MAX];     /* RE[], as a result of the plain format. */
    char date[RECORD_NAME_MAX];       /* DT[]. */
    bool has_km;                      /* KM[] was given (not empty). */
    char km[32];                      /* KM[], trimmed. */
    int pl;                           /* PL[]: 0 Black, 1 White; -1 absent. */
    /* The root's setup properties, point by point: RECORD_SGF_SETUP_B,
     * _W or _E where AB, AW or AE names the point, 0 elsewhere. */
    unsigned char setup[RECORD_SGF_SIDE][RECORD_SGF_SIDE];
    bool has_setup;       /* Some setup property was given. */
    size_t setup_at;      /* Byte of the first. */
    int setup_w, setup_h; /* The columns and rows it reaches. */
    char *board;          /* The board form the setup made the start, owned. */
    bool side_guessed;    /* PL did not say who moves first in it. */
    bool in_node;         /* A node is open. */
    bool is_root;         /* It is the first node of the first tree. */
    bool is_main;         /* It is on the main line. */
    unsigned seen;        /* Known properties seen in it, bit by index. */
    int color;            /* Its move's colour, 0 (B) or 1 (W); -1 none. */
    char move[32];        /* Its move's text (cut short when too long). */
    size_t move_at;       /* Byte of the move's property. */
    char *comment;        /* Its C[], owned, or NULL. */
    double seconds;       /* Its XT[], or -1. */
} record_sgf;

/* Fails with "SGF: " and the sentence. */
static int record_sgf_fail(record_sgf *x, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record_vfail(x->err, x->errlen, "SGF: ", fmt, ap);
    va_end(ap);
    return rc;
}

/* Reads the value at x->pos (at its '[') into x->value: a backslash keeps
 * the next character, and a backslash before a line break (a soft line
 * break) removes both. */
static int record_sgf_value(record_sgf *x)
{
    size_t at = x->pos++, n = 0;
    for (;;) {
        char c = x->text[x->pos];
        if (!c)
            return record_sgf_fail(x, BANYAN_EINVAL, "missing ']' for the '[' at byte %zu", at);
        x->pos++;
        if (c == ']')
            break;
        if (c == '\\') {
            c = x->text[x->pos];
            if (!c)
                continue; /* The missing ']' is reported next. */
            x->pos++;
            if (c == '\n' || c == '\r') {
                char pair = c == '\n' ? '\r' : '\n'; /* CR LF and LF CR are one break. */
                x->pos += x->text[x->pos] == pair;
                continue;
            }
        }
        if (n == RECORD_SGF_VALUE)
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "the value at byte %zu is longer than %d bytes", at,
                                   RECORD_SGF_VALUE);
        x->value[n++] = c;
    }
    x->value[n] = 0;
    x->value_len = n;
    return BANYAN_OK;
}

/* SimpleText: every white space character is a space. */
static void record_sgf_simple(record_sgf *x)
{
    for (size_t i = 0; i < x->value_len; i++)
        if (isspace((unsigned char)x->value[i]))
            x->value[i] = ' ';
}

/* The result of the plain format for SGF's RE into out[len], "" when
 * unknown: RE itself as the reason when it says more than the winner
 * ("0-1 (W+12.5)", "1-0 (B+R)"), so that the file's count and its ending
 * are written back as they were. */
static void record_sgf_re(const char *re, char *out, size_t len)
{
    const char *plain = re[0] == 'B' && re[1] == '+'                                  ? "1-0"
                        : re[0] == 'W' && re[1] == '+'                                ? "0-1"
                        : !strcmp(re, "0") || !strcmp(re, "Draw") || !strcmp(re, "D") ? "1/2-1/2"
                                                                                      : "";
    if (*plain && re[1] == '+' && re[2])
        snprintf(out, len, "%s (%.200s)", plain, re);
    else
        snprintf(out, len, "%s", plain);
}

/* Reads a setup property's value at byte at: a point "cd" or a rectangle
 * of them "aa:cc" (SGF's compressed lists), each marked kind. */
static int record_sgf_setup(record_sgf *x, int kind, const char *name, size_t at)
{
    const char *v = x->value;
    bool rect = x->value_len == 5 && v[2] == ':';
    if (!(x->value_len == 2 || rect))
        return record_sgf_fail(x, BANYAN_EINVAL, "%s[" RECORD_QUOTE "] at byte %zu is not a point",
                               name, v, at);
    int c[4];
    for (int i = 0; i < (rect ? 4 : 2); i++) {
        char ch = v[i + (i >= 2)];
        if (ch < 'a' || ch > 'z')
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "%s[" RECORD_QUOTE "] at byte %zu is not a point", name, v, at);
        c[i] = ch - 'a';
    }
    if (!rect) {
        c[2] = c[0];
        c[3] = c[1];
    }
    if (!x->has_setup)
        x->setup_at = at;
    x->has_setup = true;
    for (int y = c[1] < c[3] ? c[1] : c[3]; y <= (c[1] < c[3] ? c[3] : c[1]); y++)
        for (int xx = c[0] < c[2] ? c[0] : c[2]; xx <= (c[0] < c[2] ? c[2] : c[0]); xx++) {
            x->setup[y][xx] = (unsigned char)kind;
            x->setup_w = xx + 1 > x->setup_w ? xx + 1 : x->setup_w;
            x->setup_h = y + 1 > x->setup_h ? y + 1 : x->setup_h;
        }
    return BANYAN_OK;
}

/* Reads SZ: "n" or "w:h". */
static bool record_sgf_size(record_sgf *x)
{
    char *colon = strchr(x->value, ':');
    long w, h;
    if (colon)
        *colon = 0;
    if (banyan_parse_int(x->value, 1, 999, &w) != BANYAN_OK)
        return false;
    h = w;
    if (colon && banyan_parse_int(colon + 1, 1, 999, &h) != BANYAN_OK)
        return false;
    x->width = (int)w;
    x->height = (int)h;
    if (w == h)
        snprintf(x->sz, sizeof x->sz, "SZ[%ld]", w);
    else
        snprintf(x->sz, sizeof x->sz, "SZ[%ld:%ld]", w, h);
    return true;
}

/* Uses the value just read of known property k (at byte at). */
static int record_sgf_use(record_sgf *x, int k, size_t at)
{
    const char *name = record_sgf_names[k];
    switch (k) {
    case RECORD_SGF_B:
    case RECORD_SGF_W:
        if (x->color >= 0)
            return record_sgf_fail(x, BANYAN_EINVAL, "a node with two moves at byte %zu", at);
        x->color = k == RECORD_SGF_W;
        x->move_at = at;
        snprintf(x->move, sizeof x->move, "%s", x->value); /* Too long is no move anyway. */
        return BANYAN_OK;
    case RECORD_SGF_C:
        free(x->comment);
        if (!(x->comment = strdup(x->value)))
            return record_sgf_fail(x, BANYAN_ENOMEM, "out of memory");
        return BANYAN_OK;
    case RECORD_SGF_XT: {
        char *end;
        x->seconds = strtod(x->value, &end);
        if (end == x->value || *end || !(x->seconds >= 0 && x->seconds <= DBL_MAX) ||
            !isdigit((unsigned char)x->value[0]))
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "XT[" RECORD_QUOTE "] at byte %zu is not a number of seconds",
                                   x->value, at);
        return BANYAN_OK;
    }
    case RECORD_SGF_AB:
    case RECORD_SGF_AW:
    case RECORD_SGF_AE:
        if (!x->is_root)
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "%s at byte %zu: setup stones are read in the first node "
                                   "only, not after a move",
                                   name, at);
        return record_sgf_setup(x,
                                k == RECORD_SGF_AB   ? RECORD_SGF_SETUP_B
                                : k == RECORD_SGF_AW ? RECORD_SGF_SETUP_W
                                                     : RECORD_SGF_SETUP_E,
                                name, at);
    case RECORD_SGF_PL:
        if (strcmp(x->value, "B") && strcmp(x->value, "W"))
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "PL[" RECORD_QUOTE "] at byte %zu is not B or W", x->value, at);
        x->pl = x->value[0] == 'W';
        if (!x->has_setup)
            x->setup_at = at;
        return BANYAN_OK;
    case RECORD_SGF_KM:
        record_sgf_simple(x);
        record_copy_name(x->km, sizeof x->km, x->value);
        x->has_km = x->km[0] != 0;
        return BANYAN_OK;
    case RECORD_SGF_DT:
        record_sgf_simple(x);
        record_copy_name(x->date, sizeof x->date, x->value);
        return BANYAN_OK;
    case RECORD_SGF_GM:
        if (banyan_parse_int(x->value, 1, 1000000, &x->gm) != BANYAN_OK)
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "GM[" RECORD_QUOTE "] at byte %zu is not a game number",
                                   x->value, at);
        return BANYAN_OK;
    case RECORD_SGF_SZ:
        if (!record_sgf_size(x))
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   "SZ[" RECORD_QUOTE "] at byte %zu is not a board size", x->value,
                                   at);
        return BANYAN_OK;
    case RECORD_SGF_XG:
        record_sgf_simple(x);
        record_copy_name(x->game, sizeof x->game, x->value);
        if (!x->game[0])
            return record_sgf_fail(x, BANYAN_EINVAL, "XG at byte %zu names no game", at);
        return BANYAN_OK;
    case RECORD_SGF_XP:
        record_sgf_simple(x);
        if (x->value_len >= sizeof x->params)
            return record_sgf_fail(x, BANYAN_EINVAL, "XP at byte %zu is longer than %d bytes", at,
                                   RECORD_PARAMS_MAX - 1);
        memcpy(x->params, x->value, x->value_len + 1);
        x->has_params = true;
        return BANYAN_OK;
    case RECORD_SGF_XS:
        record_sgf_simple(x);
        free(x->start);
        if (!(x->start = strdup(x->value)))
            return record_sgf_fail(x, BANYAN_ENOMEM, "out of memory");
        return BANYAN_OK;
    case RECORD_SGF_PB:
    case RECORD_SGF_PW:
        record_sgf_simple(x);
        record_copy_name(x->players[k == RECORD_SGF_PW], sizeof x->players[0], x->value);
        return BANYAN_OK;
    default:
        record_sgf_simple(x);
        record_sgf_re(x->value, x->result, sizeof x->result);
        return BANYAN_OK;
    }
}

/* Reads a property at x->pos: its name and every value. Known properties
 * of a main-line node (of the root for the root's) are used; the others
 * are only checked for syntax. */
static int record_sgf_property(record_sgf *x)
{
    char id[RECORD_SGF_IDENT + 1];
    size_t n = 0, at = x->pos;
    int k = -1, n_values = 0, rc;
    while (isupper((unsigned char)x->text[x->pos])) {
        if (n == RECORD_SGF_IDENT)
            return record_sgf_fail(x, BANYAN_EINVAL, "the property name at byte %zu is too long",
                                   at);
        id[n++] = x->text[x->pos++];
    }
    id[n] = 0;
    for (int i = 0; i < RECORD_SGF_KNOWN; i++)
        if (!strcmp(id, record_sgf_names[i]))
            k = i;
    if (k >= 0 && !(k < RECORD_SGF_GM ? x->is_main : x->is_root))
        k = -1;
    if (k >= 0) {
        if (x->seen & (1u << k))
            return record_sgf_fail(x, BANYAN_EINVAL, "a second %s in one node at byte %zu", id, at);
        x->seen |= 1u << k;
    }
    for (;;) {
        while (isspace((unsigned char)x->text[x->pos]))
            x->pos++;
        if (x->text[x->pos] != '[')
            break;
        if ((rc = record_sgf_value(x)) != BANYAN_OK)
            return rc;
        if (++n_values > 1 && k >= 0 && k != RECORD_SGF_AB && k != RECORD_SGF_AW &&
            k != RECORD_SGF_AE)
            return record_sgf_fail(x, BANYAN_EINVAL, "%s at byte %zu takes one value", id, at);
        if (k >= 0 && (rc = record_sgf_use(x, k, at)) != BANYAN_OK)
            return rc;
    }
    if (n_values == 0)
        return record_sgf_fail(x, BANYAN_EINVAL, "property %s at byte %zu has no value", id, at);
    return BANYAN_OK;
}

/* Parameters for an SZ[] board (see record_size_params). */
static int record_sgf_size_params(record_sgf *x, const banyan_game *g, char *out, size_t len)
{
    char why[256];
    if (record_size_params(g, x->width, x->height, x->sz, out, len, why, sizeof why) != BANYAN_OK)
        return record_sgf_fail(x, BANYAN_EINVAL, "%s", why);
    return BANYAN_OK;
}

/* The game the root names: XG, else GM, else the caller's. */
static int record_sgf_find_game(record_sgf *x, const banyan_game **out)
{
    const banyan_game *g = x->g;
    if (x->game[0]) {
        const banyan_game *named = banyan_game_find(x->game);
        if (g && named != g && strcmp(x->game, g->name))
            return record_sgf_fail(x, BANYAN_EINVAL, "XG[" RECORD_QUOTE "] is not %s", x->game,
                                   g->name);
        if (!g && !named)
            return record_sgf_fail(x, BANYAN_EINVAL, "XG[" RECORD_QUOTE "] is no game Banyan knows",
                                   x->game);
        *out = g ? g : named;
        return BANYAN_OK;
    }
    if (x->gm && g && (g->board ? g->board->sgf_game : 0) != x->gm)
        return record_sgf_fail(x, BANYAN_EINVAL, "GM[%ld] is not %s", x->gm, g->name);
    if (x->gm && !g && !(g = record_game_by_gm(x->gm)))
        return record_sgf_fail(x, BANYAN_EINVAL, "GM[%ld] is no game Banyan knows", x->gm);
    if (!g)
        return record_sgf_fail(x, BANYAN_EINVAL, "neither GM[] nor XG[] names the game");
    *out = g;
    return BANYAN_OK;
}

/* params (the game's, checked) with every parameter of role role set to
 * value, into out[len]. Returns false when they do not fit. */
static bool record_params_with(const banyan_game *g, const char *params, unsigned role,
                               const char *value, char *out, size_t len)
{
    const char *cur = params;
    char key[64], val[RECORD_PARAMS_MAX];
    size_t used = 0;
    out[0] = 0;
    while (banyan_params_next(&cur, key, sizeof key, val, sizeof val) == 1) {
        const banyan_param *p = banyan_game_param(g, key);
        int n = p && (p->role & role)
                    ? 0
                    : snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", key, val);
        if (n < 0 || (size_t)n >= len - used)
            return false;
        used += (size_t)n;
    }
    for (const banyan_param *p = g->params; p && p->name; p++) {
        int n = !(p->role & role)
                    ? 0
                    : snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", p->name, value);
        if (n < 0 || (size_t)n >= len - used)
            return false;
        used += (size_t)n;
    }
    return true;
}

/* Whether text is the number the parameter of role komi has in params. */
static bool record_same_komi(const banyan_game *g, const char *params, const char *text)
{
    char now[64], *end;
    double k = strtod(text, &end);
    for (const banyan_param *p = g->params; p && p->name; p++)
        if ((p->role & BANYAN_ROLE_KOMI) &&
            banyan_params_value(g, params, p->name, now, sizeof now) == BANYAN_OK)
            return end != text && !*end && strtod(now, NULL) == k;
    return false;
}

/* Starts the record of game g with params from start, and gives it the
 * root's players, result and date. */
static int record_sgf_start(record_sgf *x, const banyan_game *g, const char *params,
                            const char *start, const char *label)
{
    char why[256];
    int rc, part, w, h;
    if ((rc = record_start(x->r, g, params, start, why, sizeof why, &part)) != BANYAN_OK)
        return record_sgf_fail(x, rc, "%s: %s", part ? label : "the game", why);
    if (x->width && g->board) {
        g->board->board_size(x->r->state, &w, &h);
        if (w != x->width || h != x->height)
            return record_sgf_fail(x, BANYAN_EINVAL, "%s does not fit %s's %dx%d board", x->sz,
                                   g->name, w, h);
    }
    memcpy(x->r->players, x->players, sizeof x->players);
    memcpy(x->r->result, x->result, sizeof x->result);
    memcpy(x->r->date, x->date, sizeof x->date);
    return BANYAN_OK;
}

/* The board form of the start the root's setup properties make (AE, AB and
 * AW over the position of the parameters, PL's player to move, else White
 * where Black alone was given stones), into x->board (see record.h), or
 * NULL when it is that position itself. Then the start of the record. */
static int record_sgf_setup_start(record_sgf *x, const banyan_game *g, const char *params)
{
    record *r = x->r;
    int w, h;
    if (!g->board || g->n_players != 2)
        return record_sgf_fail(x, BANYAN_EINVAL, "the setup at byte %zu: %s has no %s", x->setup_at,
                               g->name, g->board ? "two players" : "board");
    g->board->board_size(r->state, &w, &h);
    if (x->setup_w > w || x->setup_h > h)
        return record_sgf_fail(x, BANYAN_EINVAL,
                               "the setup at byte %zu: a point is off the %dx%d board", x->setup_at,
                               w, h);
    bool black = false, white = false, same;
    for (int y = 0; y < x->setup_h; y++)
        for (int c = 0; c < x->setup_w; c++) {
            black |= x->setup[y][c] == RECORD_SGF_SETUP_B;
            white |= x->setup[y][c] == RECORD_SGF_SETUP_W;
        }
    int side = x->pl >= 0 ? x->pl : black && !white ? 1 : g->to_move(r->state);
    size_t n = (size_t)w * (size_t)h;
    if (!(x->board = malloc(n + 3)))
        return record_sgf_fail(x, BANYAN_ENOMEM, "out of memory");
    same = side == g->to_move(r->state);
    for (int y = 0; y < h; y++)
        for (int c = 0; c < w; c++) {
            int was = g->board->piece(r->state, c, y);
            int k = y < RECORD_SGF_SIDE && c < RECORD_SGF_SIDE ? x->setup[y][c] : 0;
            int p = k == RECORD_SGF_SETUP_B   ? 0
                    : k == RECORD_SGF_SETUP_W ? 1
                    : k == RECORD_SGF_SETUP_E ? -1
                                              : was;
            same = same && p == was;
            x->board[(size_t)y * (size_t)w + (size_t)c] = p == 0 ? 'X' : p == 1 ? 'O' : '-';
        }
    snprintf(x->board + n, 3, " %c", side ? 'O' : 'X');
    x->side_guessed = x->pl < 0;
    if (same) {
        free(x->board);
        x->board = NULL;
        return BANYAN_OK;
    }
    record_free(r);
    int rc = record_sgf_start(x, g, params, x->board, "setup");
    if (rc != BANYAN_OK)
        return record_sgf_fail(x, rc, "the setup at byte %zu: %s %s", x->setup_at,
                               rc == BANYAN_EILLEGAL ? "an illegal position of"
                                                     : "no position that can start",
                               g->name);
    return BANYAN_OK;
}

/* Starts the record from the root's properties: the game, its parameters
 * (XP, else from SZ; KM sets the parameter of role komi), the start (XS,
 * else the setup properties), the players, the result and the date. */
static int record_sgf_begin(record_sgf *x)
{
    const banyan_game *g = NULL;
    char params[RECORD_PARAMS_MAX], why[256];
    int rc;
    if ((rc = record_sgf_find_game(x, &g)) != BANYAN_OK)
        return rc;
    if (x->has_params)
        memcpy(params, x->params, sizeof params);
    else if (!x->width)
        params[0] = 0;
    else if ((rc = record_sgf_size_params(x, g, params, sizeof params)) != BANYAN_OK)
        return rc;
    if (banyan_params_check(g, params, why, sizeof why) != BANYAN_OK)
        return record_sgf_fail(x, BANYAN_EINVAL, "%s: %s",
                               x->has_params ? "XP"
                               : x->width    ? x->sz
                                             : "parameters",
                               why);
    bool komi = false;
    for (const banyan_param *p = g->params; p && p->name; p++)
        komi |= (p->role & BANYAN_ROLE_KOMI) != 0;
    if (x->has_km && komi && !record_same_komi(g, params, x->km)) {
        char with[RECORD_PARAMS_MAX];
        if (!record_params_with(g, params, BANYAN_ROLE_KOMI, x->km, with, sizeof with) ||
            banyan_params_check(g, with, why, sizeof why) != BANYAN_OK)
            return record_sgf_fail(x, BANYAN_EINVAL, "KM[" RECORD_QUOTE "]: %s", x->km, why);
        memcpy(params, with, sizeof params);
    }
    if ((rc = record_sgf_start(x, g, params, x->start, "XS")) != BANYAN_OK)
        return rc;
    /* XS, which Banyan writes beside AB and AW for other readers, is the
     * start; else the setup properties, where the root has them. */
    if (!x->start && (x->has_setup || x->pl >= 0))
        return record_sgf_setup_start(x, g, params);
    return BANYAN_OK;
}

/* Ends the open node: the root starts the record, and a main-line move is
 * played with its comment and time. */
static int record_sgf_end_node(record_sgf *x)
{
    record *r = x->r;
    const char *why;
    const char *colors[2] = {"Black", "White"};
    char c = "BW"[x->color > 0];
    int rc;
    if (!x->in_node)
        return BANYAN_OK;
    x->in_node = false;
    if (x->is_root && (rc = record_sgf_begin(x)) != BANYAN_OK)
        return rc;
    if (!x->is_main || x->color < 0)
        return BANYAN_OK;
    if (!((r->g->board ? r->g->board->coords : 0) & BANYAN_COORDS_SGF))
        return record_sgf_fail(x, BANYAN_EINVAL, "%c[] at byte %zu: %s has no SGF coordinates", c,
                               x->move_at, r->g->name);
    if (record_is_over(r->g, r->state))
        return record_sgf_fail(x, BANYAN_EILLEGAL,
                               "%c[%s] at byte %zu comes after the end of the game", c, x->move,
                               x->move_at);
    int mover = r->g->to_move(r->state);
    if (mover != x->color && x->board && x->side_guessed && r->n_moves == 0) {
        /* The setup said nothing of who moves first: the first move does. */
        char params[RECORD_PARAMS_MAX];
        x->board[strlen(x->board) - 1] = x->color ? 'O' : 'X';
        x->side_guessed = false;
        memcpy(params, r->params, sizeof params);
        const banyan_game *g = r->g;
        record_free(r);
        if ((rc = record_sgf_start(x, g, params, x->board, "setup")) != BANYAN_OK)
            return rc;
        mover = r->g->to_move(r->state);
    }
    if (mover != x->color)
        return record_sgf_fail(x, BANYAN_EILLEGAL, "%c[%s] at byte %zu is a move of %s, but %s%s",
                               c, x->move, x->move_at, colors[x->color],
                               mover == 0 || mover == 1 ? colors[mover] : "another player",
                               " is to move");
    rc = record_push_text(r, BANYAN_COORDS_SGF, x->move, x->seconds, x->comment, &why);
    if (rc != BANYAN_OK)
        return record_sgf_fail(x, rc, "%c[%s] at byte %zu %s", c, x->move, x->move_at, why);
    return BANYAN_OK;
}

/* Opens a node at x->pos (its ';'). */
static void record_sgf_open_node(record_sgf *x, bool is_root, bool is_main)
{
    x->in_node = true;
    x->is_root = is_root;
    x->is_main = is_main;
    x->seen = 0;
    x->color = -1;
    x->move[0] = 0;
    free(x->comment);
    x->comment = NULL;
    x->seconds = -1;
}

/* The parser: Collection = GameTree+, GameTree = '(' Node+ GameTree* ')',
 * Node = ';' Property*, read as a flat stream of tokens with a depth. Until
 * the main line ends, every '(' opens its next tree (the first variation);
 * the main line ends when its deepest tree closes. */
static int record_sgf_parse(record_sgf *x)
{
    int depth = 0, main_depth = 0, last = RECORD_SGF_CLOSE, rc;
    long n_nodes = 0;
    bool main_done = false;
    for (;;) {
        while (isspace((unsigned char)x->text[x->pos]))
            x->pos++;
        size_t at = x->pos;
        unsigned char c = (unsigned char)x->text[at];
        if (!c)
            break;
        if (c == '(' || c == ')' || c == ';') {
            if (depth > 0 && last == RECORD_SGF_OPEN && c != ';')
                return record_sgf_fail(x, BANYAN_EINVAL,
                                       "the game tree at byte %zu does not begin with a node", at);
            if ((rc = record_sgf_end_node(x)) != BANYAN_OK)
                return rc;
            x->pos++;
        }
        if (c == '(') {
            depth++;
            if (!main_done)
                main_depth = depth;
            last = RECORD_SGF_OPEN;
        } else if (c == ')') {
            if (depth == 0)
                return record_sgf_fail(x, BANYAN_EINVAL, "')' at byte %zu closes no game tree", at);
            if (depth == main_depth)
                main_done = true;
            depth--;
            last = RECORD_SGF_CLOSE;
        } else if (c == ';') {
            if (depth == 0)
                return record_sgf_fail(x, BANYAN_EINVAL, "the node at byte %zu is outside a tree",
                                       at);
            if (last == RECORD_SGF_CLOSE)
                return record_sgf_fail(x, BANYAN_EINVAL,
                                       "the node at byte %zu comes after a variation", at);
            if (++n_nodes > RECORD_SGF_NODES)
                return record_sgf_fail(x, BANYAN_EINVAL, "more than %d nodes", RECORD_SGF_NODES);
            record_sgf_open_node(x, n_nodes == 1, !main_done && depth == main_depth);
            last = RECORD_SGF_NODE;
        } else if (isupper(c) && last == RECORD_SGF_NODE) {
            if ((rc = record_sgf_property(x)) != BANYAN_OK)
                return rc;
        } else {
            return record_sgf_fail(x, BANYAN_EINVAL,
                                   isgraph(c) ? "unexpected '%c' at byte %zu"
                                              : "unexpected byte 0x%02x at byte %zu",
                                   c, at);
        }
    }
    if (depth > 0)
        return record_sgf_fail(x, BANYAN_EINVAL, "missing ')' at the end (byte %zu)", x->pos);
    if (n_nodes == 0)
        return record_sgf_fail(x, BANYAN_EINVAL, "no game tree");
    return BANYAN_OK;
}

/* Reads SGF from text, whose first byte that is not white space is '(',
 * starting at byte pos (after a byte order mark). */
static int record_load_sgf(record *r, const banyan_game *g, const char *text, size_t pos, char *err,
                           size_t errlen)
{
    record_sgf x;
    int rc;
    memset(&x, 0, sizeof x);
    x.text = text;
    x.pos = pos;
    x.err = err;
    x.errlen = errlen;
    x.r = r;
    x.g = g;
    x.color = -1;
    x.seconds = -1;
    x.pl = -1;
    if (!(x.value = malloc(RECORD_SGF_VALUE + 1)))
        rc = record_fail(err, errlen, BANYAN_ENOMEM, "out of memory");
    else
        rc = record_sgf_parse(&x);
    free(x.value);
    free(x.start);
    free(x.comment);
    free(x.board);
    if (rc != BANYAN_OK)
        record_free(r);
    return rc;
}

int record_load(record *r, const banyan_game *g, const char *text, char *err, size_t errlen)
{
    const char *why;
    size_t pos = 0;
    memset(r, 0, sizeof *r);
    record_fail(err, errlen, BANYAN_OK, "%s", "");
    if (!text)
        return record_fail(err, errlen, BANYAN_EINVAL, "no text");
    if (g && (why = banyan_game_check(g)))
        return record_fail(err, errlen, BANYAN_EINVAL, "%s", why);
    if (!strncmp(text, "\xef\xbb\xbf", 3))
        pos = 3; /* A byte order mark. */
    size_t first = pos;
    while (isspace((unsigned char)text[first]))
        first++;
    if (text[first] == '(')
        return record_load_sgf(r, g, text, pos, err, errlen);
    if (!strncmp(text + first, RECORD_PSQ_MAGIC, strlen(RECORD_PSQ_MAGIC)))
        return record_load_psq(r, g, text + pos, err, errlen);
    return record_load_text(r, g, text + pos, err, errlen);
}

int record_load_file(record *r, const banyan_game *g, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc;
    memset(r, 0, sizeof *r);
    if (!f)
        return record_fail(err, errlen, BANYAN_EINVAL, "cannot read \"%s\": %s", path,
                           strerror(errno));
    for (;;) {
        if (len + 1 >= cap) {
            char *bigger = cap < RECORD_FILE_MAX ? realloc(buf, cap ? 2 * cap : 4096) : NULL;
            if (!bigger) {
                rc = cap < RECORD_FILE_MAX
                         ? record_fail(err, errlen, BANYAN_ENOMEM, "out of memory")
                         : record_fail(err, errlen, BANYAN_EINVAL, "\"%s\" is larger than %zu MiB",
                                       path, RECORD_FILE_MAX >> 20);
                goto done;
            }
            buf = bigger;
            cap = cap ? 2 * cap : 4096;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        rc = record_fail(err, errlen, BANYAN_EINVAL, "cannot read \"%s\": %s", path,
                         strerror(errno));
        goto done;
    }
    buf[len] = 0;
    if (memchr(buf, 0, len))
        rc = record_fail(err, errlen, BANYAN_EINVAL,
                         "\"%s\" is no game record: it holds a NUL byte", path);
    else
        rc = record_load(r, g, buf, err, errlen);
done:
    fclose(f);
    free(buf);
    return rc;
}
