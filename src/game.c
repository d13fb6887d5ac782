/*
 * game.c - what the library does with a game's description rather than its
 * search functions: checking a table (its parts and sizes), the coordinate
 * systems front-ends write moves in, and the defaults of the optional
 * notation (decimal move codes, a position as a move list, a diagram drawn
 * from piece()).
 *
 * Coordinates are worked out from place() and place_move() and the board's
 * size alone, so a game says which systems apply (banyan_board.coords) and
 * writes none of them. Cells are (x, y) from the top-left corner, from 0;
 * systems that count rows from the bottom use height - y.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "config.h"
#include "game.h"
#include "util.h"

#define GAME_MAX_COLUMNS 26 /* Letters a..z: the widest board a lettered system names. */

/* ---- Sizes: the table and its parts as this library reads them ---- */

/* The sentence for a part (or table) whose size this library cannot read,
 * or NULL: 0 is a table not made with its macro, above known one made
 * against a newer header, below first one smaller than any header's. */
static const char *game_size_why(size_t size, size_t first, size_t known, const char *const why[3])
{
    if (size == 0)
        return why[0];
    if (size > known)
        return why[1];
    return size < first ? why[2] : NULL;
}

#define GAME_SIZE_WHY(what, macro)                                                                 \
    {                                                                                              \
        "the " what " has no size: make it with " macro,                                           \
            "the " what " is larger than this library's: the game was built against a newer "      \
            "banyan_game.h",                                                                       \
            "the " what "'s size is not that of any version of it"                                 \
    }

/* The table's parts: where each is, and the sizes this library reads. */
typedef struct game_part {
    size_t at;           /* offsetof(banyan_game, part). */
    size_t first, known; /* Its smallest size, and this library's. */
    size_t copy;         /* offsetof(game_norm, part). */
    const char *why[3];  /* game_size_why's sentences. */
} game_part;

#define GAME_PART(part, type, FIRST, macro)                                                        \
    {                                                                                              \
        offsetof(banyan_game, part), FIRST, sizeof(type), offsetof(game_norm, part),               \
            GAME_SIZE_WHY(#part " part", macro)                                                    \
    }

static const game_part game_parts[] = {
    GAME_PART(tactics, banyan_tactics, GAME_TACTICS_FIRST, "BANYAN_TACTICS_INIT"),
    GAME_PART(notation, banyan_notation, GAME_NOTATION_FIRST, "BANYAN_NOTATION_INIT"),
    GAME_PART(board, banyan_board, GAME_BOARD_FIRST, "BANYAN_BOARD_INIT"),
    GAME_PART(learning, banyan_learning, GAME_LEARNING_FIRST, "BANYAN_LEARNING_INIT"),
};

/* The part p of g (NULL: g has none), through its pointer in the table. */
static const void *game_part_of(const banyan_game *g, const game_part *p)
{
    return *(const void *const *)((const char *)g + p->at);
}

BANYAN_INTERNAL const char *game_sizes_check(const banyan_game *g)
{
    static const char *const table_why[3] = GAME_SIZE_WHY("game table", "BANYAN_GAME_INIT");
    const char *why = game_size_why(g->size, GAME_FIRST, sizeof *g, table_why);
    /* Parts exist in every version of the table, so that g->size reaches
     * their pointers (GAME_FIRST). */
    for (size_t i = 0; !why && i < sizeof game_parts / sizeof *game_parts; i++) {
        const game_part *p = &game_parts[i];
        const void *part = game_part_of(g, p);
        if (part)
            why = game_size_why(*(const size_t *)part, p->first, p->known, p->why);
    }
    return why;
}

BANYAN_INTERNAL const banyan_game *game_normal(const banyan_game *g, game_norm *n)
{
    bool same;
    if (!g || game_sizes_check(g))
        return NULL;
    same = g->size == sizeof *g;
    for (size_t i = 0; same && i < sizeof game_parts / sizeof *game_parts; i++) {
        const void *part = game_part_of(g, &game_parts[i]);
        same = !part || *(const size_t *)part == game_parts[i].known;
    }
    if (same)
        return g; /* The common case: nothing to fill in. */
    memset(n, 0, sizeof *n);
    memcpy(&n->game, g, g->size);
    n->game.size = sizeof n->game;
    for (size_t i = 0; i < sizeof game_parts / sizeof *game_parts; i++) {
        const game_part *p = &game_parts[i];
        const void *part = game_part_of(&n->game, p);
        char *copy = (char *)n + p->copy;
        if (!part)
            continue;
        memcpy(copy, part, *(const size_t *)part);
        *(size_t *)copy = p->known;
        *(const void **)((char *)&n->game + p->at) = copy;
    }
    return &n->game;
}

BANYAN_API const char *banyan_game_check(const banyan_game *in)
{
    game_norm n;
    if (!in)
        return "no game table";
    const char *why = game_sizes_check(in);
    if (why)
        return why;
    const banyan_game *g = game_normal(in, &n);
    const banyan_tactics *t = g->tactics;
    const banyan_board *b = g->board;
    if (!g->name || !g->name[0])
        return "the game has no name";
    if (g->state_size == 0 || g->state_size > BANYAN_MAX_STATE)
        return "state_size must be 1 to 65536 bytes";
    if (g->n_players < 1 || g->n_players > BANYAN_MAX_PLAYERS)
        return "n_players must be 1 to 4";
    if (!(g->reward_max >= g->reward_min))
        return "reward_max is below reward_min";
    if (!g->setup)
        return "setup() is missing: the search needs it";
    if (!g->moves)
        return "moves() is missing: the search needs it";
    if (!g->play)
        return "play() is missing: the search needs it";
    if (!g->outcome)
        return "outcome() is missing: the search needs it";
    if (!g->to_move)
        return "to_move() is missing: the search needs it";
    if (b && (!b->board_size || !b->place || !b->place_move || !b->piece))
        return "a board part needs board_size(), place(), place_move() and piece()";
    if (t && t->mem_size && !t->prove_win_deep && !t->candidates_deep && !t->solve && !t->expand)
        return "mem_size is memory for prove_win_deep(), candidates_deep(), solve() or "
               "expand(): none is there";
    if (t && t->expand && (!t->prove_win || !t->candidates))
        return "expand() stands for prove_win() and candidates() together: both must be there";
    if (t && t->solve && g->n_players != 2)
        return "solve() is for two-player games";
    if (g->learning && g->learning->planes && !b)
        return "planes() draws on a board: the board part is missing";
    if ((g->rules & BANYAN_RULE_SUPERKO) && !b)
        return "superko compares boards: the board part is missing";
    for (const banyan_param *p = g->params; p && p->name; p++) {
        if (p->type != BANYAN_PARAM_INT && p->type != BANYAN_PARAM_CHOICE &&
            p->type != BANYAN_PARAM_NUMBER)
            return "a parameter has no type";
        if (p->type != BANYAN_PARAM_CHOICE && p->min > p->max)
            return "a number parameter has min above max";
        if (p->type == BANYAN_PARAM_CHOICE && (!p->choices || !p->choices[0]))
            return "a choice parameter has no choices";
        if (!p->def)
            return "a parameter has no default";
    }
    return NULL;
}

/* ---- Places and coordinate systems ---- */

/* The board of s, or false when the game has none. */
static bool game_board(const banyan_game *g, const void *s, int *w, int *h)
{
    if (!g->board)
        return false;
    g->board->board_size(s, w, h);
    return *w > 0 && *h > 0;
}

/* GTP's column letter: A..Z without I. */
static char game_gtp_letter(int x)
{
    return (char)('A' + x + (x >= 8));
}

/* The system named by a single bit the game supports, or 0 for none. */
static bool game_has_coords(const banyan_game *g, unsigned coords)
{
    return coords && !(coords & (coords - 1)) && ((g->board ? g->board->coords : 0u) & coords);
}

BANYAN_API int banyan_game_format(const banyan_game *g, const void *s, banyan_move m,
                                  unsigned coords, char *buf, size_t len)
{
    GAME_NORMAL(g);
    int w, h, x = 0, y = 0, kind;
    if (!g || !s || (!buf && len))
        return BANYAN_EINVAL;
    if (coords == 0) {
        if (g->notation && g->notation->format_move)
            return g->notation->format_move(s, m, buf, len);
        return snprintf(buf, len, "%lu", (unsigned long)m);
    }
    if (!game_has_coords(g, coords) || !game_board(g, s, &w, &h))
        return BANYAN_EINVAL;
    kind = g->board->place(s, m, &x, &y);
    if (kind == BANYAN_PLACE_PASS)
        return snprintf(buf, len, "%s", coords == BANYAN_COORDS_SGF ? "" : "pass");
    if (kind == BANYAN_PLACE_COLUMN && coords == BANYAN_COORDS_COLUMN && x >= 0 &&
        x < GAME_MAX_COLUMNS)
        return snprintf(buf, len, "%c", 'a' + x);
    if (kind != BANYAN_PLACE_CELL || x < 0 || y < 0 || x >= w || y >= h)
        return BANYAN_ERANGE;
    switch (coords) {
    case BANYAN_COORDS_POINT:
        if (x >= GAME_MAX_COLUMNS)
            return BANYAN_ERANGE;
        return snprintf(buf, len, "%c%d", 'a' + x, h - y);
    case BANYAN_COORDS_GTP:
        if (x >= GAME_MAX_COLUMNS - 1)
            return BANYAN_ERANGE;
        return snprintf(buf, len, "%c%d", game_gtp_letter(x), h - y);
    case BANYAN_COORDS_XY:
        return snprintf(buf, len, "%d,%d", x, y);
    case BANYAN_COORDS_SGF:
        if (x >= GAME_MAX_COLUMNS || y >= GAME_MAX_COLUMNS)
            return BANYAN_ERANGE;
        return snprintf(buf, len, "%c%c", 'a' + x, 'a' + y);
    default:
        return BANYAN_EINVAL; /* A cell has no column form. */
    }
}

/* Reads a decimal number of at most 4 digits at *p, advancing *p. */
static bool game_number(const char **p, int *out)
{
    int n = 0, k = 0;
    while (isdigit((unsigned char)**p) && k < 4) {
        n = n * 10 + (**p - '0');
        (*p)++, k++;
    }
    *out = n;
    return k > 0 && !isdigit((unsigned char)**p);
}

/* Parses text (spaces around it removed into t) in one system into a kind
 * and a place. Returns BANYAN_OK or BANYAN_EINVAL. */
static int game_parse_place(unsigned coords, const char *t, int w, int h, int *kind, int *x, int *y)
{
    const char *p = t;
    int n;
    *kind = BANYAN_PLACE_CELL;
    if (coords != BANYAN_COORDS_SGF && !strcmp(t, "pass")) {
        *kind = BANYAN_PLACE_PASS;
        return BANYAN_OK;
    }
    switch (coords) {
    case BANYAN_COORDS_POINT:
    case BANYAN_COORDS_GTP:
        if (!isalpha((unsigned char)*p) || (coords == BANYAN_COORDS_GTP && *p == 'i'))
            return BANYAN_EINVAL;
        *x = *p - 'a';
        if (coords == BANYAN_COORDS_GTP && *p > 'i')
            (*x)--;
        p++;
        if (!game_number(&p, &n) || *p)
            return BANYAN_EINVAL;
        *y = h - n;
        return BANYAN_OK;
    case BANYAN_COORDS_XY:
        if (!game_number(&p, x))
            return BANYAN_EINVAL;
        while (*p == ' ')
            p++;
        if (*p++ != ',')
            return BANYAN_EINVAL;
        while (*p == ' ')
            p++;
        if (!game_number(&p, y) || *p)
            return BANYAN_EINVAL;
        return BANYAN_OK;
    case BANYAN_COORDS_SGF:
        if (!*p || (!strcmp(p, "tt") && w <= 19 && h <= 19)) {
            *kind = BANYAN_PLACE_PASS; /* "tt" is the old pass of boards up to 19x19. */
            return BANYAN_OK;
        }
        if (!islower((unsigned char)p[0]) || !islower((unsigned char)p[1]) || p[2])
            return BANYAN_EINVAL;
        *x = p[0] - 'a';
        *y = p[1] - 'a';
        return BANYAN_OK;
    case BANYAN_COORDS_COLUMN:
        *kind = BANYAN_PLACE_COLUMN;
        *y = 0;
        if (isalpha((unsigned char)p[0]) && !p[1]) {
            *x = p[0] - 'a';
            return BANYAN_OK;
        }
        if (!game_number(&p, &n) || *p)
            return BANYAN_EINVAL;
        *x = n - 1; /* Column 0 is well-formed, and off the board. */
        return BANYAN_OK;
    default:
        return BANYAN_EINVAL;
    }
}

/* The default parse_move: a decimal move code. */
static int game_parse_code(const char *text, banyan_move *out)
{
    long v;
    while (*text == ' ')
        text++;
    char t[16];
    size_t n = strcspn(text, " ");
    if (n == 0 || n >= sizeof t || text[n + strspn(text + n, " ")])
        return BANYAN_EINVAL;
    memcpy(t, text, n);
    t[n] = 0;
    if (banyan_parse_int(t, 0, (long)BANYAN_MOVE_NONE - 1, &v) != BANYAN_OK)
        return BANYAN_EINVAL;
    *out = (banyan_move)v;
    return BANYAN_OK;
}

/* text without the spaces around it, in lower case, into t[len]; false
 * when it does not fit. */
static bool game_lower(const char *text, char *t, size_t len)
{
    while (*text == ' ')
        text++;
    size_t n = strlen(text);
    while (n && text[n - 1] == ' ')
        n--;
    if (n >= len)
        return false;
    for (size_t i = 0; i < n; i++)
        t[i] = (char)tolower((unsigned char)text[i]);
    t[n] = 0;
    return true;
}

BANYAN_API int banyan_game_parse(const banyan_game *g, const void *s, unsigned coords,
                                 const char *text, banyan_move *out)
{
    GAME_NORMAL(g);
    char t[32];
    int w, h, x = 0, y = 0, kind, rc;
    if (!g || !s || !text || !out)
        return BANYAN_EINVAL;
    if (coords == 0)
        return (g->notation && g->notation->parse_move) ? g->notation->parse_move(s, text, out)
                                                        : game_parse_code(text, out);
    if (!game_has_coords(g, coords) || !game_board(g, s, &w, &h) || !game_lower(text, t, sizeof t))
        return BANYAN_EINVAL;
    if ((rc = game_parse_place(coords, t, w, h, &kind, &x, &y)) != BANYAN_OK)
        return rc;
    if (kind == BANYAN_PLACE_CELL && (x < 0 || y < 0 || x >= w || y >= h))
        return BANYAN_ERANGE;
    if (kind == BANYAN_PLACE_COLUMN && (x < 0 || x >= w))
        return BANYAN_ERANGE;
    return g->board->place_move(s, kind, x, y, out);
}

/* Whether the game's own notation reads GTP vertices: the top-left cell
 * written in GTP's system parses to itself. */
static bool game_reads_gtp(const banyan_game *g, const void *s)
{
    banyan_move m, back;
    char text[16];
    return ((g->board ? g->board->coords : 0u) & BANYAN_COORDS_GTP) &&
           g->board->place_move(s, BANYAN_PLACE_CELL, 0, 0, &m) == BANYAN_OK &&
           banyan_game_format(g, s, m, BANYAN_COORDS_GTP, text, sizeof text) > 0 &&
           banyan_game_parse(g, s, 0, text, &back) == BANYAN_OK && back == m;
}

BANYAN_API int banyan_game_parse_why(const banyan_game *g, const void *s, unsigned coords,
                                     const char *text, char *buf, size_t len)
{
    GAME_NORMAL(g);
    banyan_move m;
    char t[32];
    if (!g || !s || !text || (!buf && len))
        return BANYAN_EINVAL;
    if (len)
        buf[0] = 0;
    if (banyan_game_parse(g, s, coords, text, &m) != BANYAN_EINVAL ||
        !game_lower(text, t, sizeof t))
        return 0;
    /* GTP's letters skip I: "i5" is a mistake for people, not gibberish. */
    bool gtp = coords == BANYAN_COORDS_GTP ? game_has_coords(g, coords)
               : coords == 0               ? game_reads_gtp(g, s)
                                           : false;
    if (gtp && t[0] == 'i' && t[1] && strspn(t + 1, "0123456789") == strlen(t + 1))
        return snprintf(buf, len, "I is not a%s %s column (GTP skips I)",
                        strchr("AEIOUaeiou", (g->title ? g->title : g->name)[0]) ? "n" : "",
                        g->title ? g->title : g->name);
    return 0;
}

BANYAN_API int banyan_game_explain(const banyan_game *g, const void *s, banyan_move m, char *buf,
                                   size_t len)
{
    GAME_NORMAL(g);
    banyan_move moves[BANYAN_MAX_MOVES];
    int n;
    if (!g || !s || (!buf && len))
        return BANYAN_EINVAL;
    if (g->moves(s, moves) == 0)
        return snprintf(buf, len, "cannot be played: the game is over");
    if (g->explain && (n = g->explain(s, m, buf, len)) > 0)
        return n;
    return snprintf(buf, len, "is not legal here");
}

BANYAN_API bool banyan_game_is_legal(const banyan_game *g, const void *s, banyan_move m)
{
    GAME_NORMAL(g);
    banyan_move moves[BANYAN_MAX_MOVES];
    if (!g || !s)
        return false;
    int n = g->moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

BANYAN_API int banyan_game_win_line(const banyan_game *g, const void *s, int *x, int *y, int max)
{
    GAME_NORMAL(g);
    if (!g || !s || !x || !y || max <= 0 || !(g->board && g->board->win_line))
        return 0;
    int n = g->board->win_line(s, x, y, max);
    return n < 0 ? 0 : n > max ? max : n;
}

BANYAN_API uint64_t banyan_game_hash(const banyan_game *g, const void *s)
{
    GAME_NORMAL(g);
    if (!g || !s)
        return 0;
    return g->hash ? g->hash(s) : util_fnv1a(UTIL_FNV_OFFSET, s, g->state_size);
}

BANYAN_API const char *banyan_game_player(const banyan_game *g, int p)
{
    GAME_NORMAL(g);
    static const char *const two[] = {"X", "O"};
    static const char *const many[] = {"player 1", "player 2", "player 3", "player 4"};
    const char *const *names = g ? g->player_names : NULL;
    if (names && p >= 0 && p < g->n_players && names[p])
        return names[p];
    return g && g->n_players == 2 ? two[p & 1] : many[p & 3];
}

BANYAN_API int banyan_game_result(const banyan_game *g, const void *s, int form, char *buf,
                                  size_t len)
{
    GAME_NORMAL(g);
    double ret[BANYAN_MAX_PLAYERS];
    if (!buf || len == 0)
        return BANYAN_EINVAL;
    buf[0] = 0;
    if (!g || !s || (form != BANYAN_RESULT_TEXT && form != BANYAN_RESULT_SGF))
        return BANYAN_EINVAL;
    if (!g->outcome(s, ret))
        return 0;
    double score = g->score ? g->score(s) : 0;
    const char *unit = g->score_unit ? g->score_unit : "";
    if (g->n_players != 2) {
        if (form == BANYAN_RESULT_SGF)
            return 0;
        if (g->score)
            return snprintf(buf, len, "game over, a score of %g%s%s", score, *unit ? " " : "",
                            unit);
        return snprintf(buf, len, "game over");
    }
    if (ret[0] == ret[1])
        return snprintf(buf, len, "%s", form == BANYAN_RESULT_SGF ? "0" : "a draw");
    int w = ret[0] > ret[1] ? 0 : 1;
    double margin = score < 0 ? -score : score;
    if (form == BANYAN_RESULT_SGF) {
        if (g->score && margin > 0)
            return snprintf(buf, len, "%c+%g", "BW"[w], margin);
        return snprintf(buf, len, "%c+", "BW"[w]);
    }
    if (g->score && margin > 0)
        return snprintf(buf, len, "%s wins by %g%s%s", banyan_game_player(g, w), margin,
                        *unit ? " " : "", unit);
    return snprintf(buf, len, "%s wins", banyan_game_player(g, w));
}

/* ---- The default position notation: a move list ---- */

BANYAN_API int banyan_game_load(const banyan_game *g, void *s, const char *text)
{
    GAME_NORMAL(g);
    /* The default plays on a copy, so that *s is unchanged on any error. */
    unsigned char copy[BANYAN_MAX_STATE];
    char word[64];
    if (!g || !s || !text)
        return BANYAN_EINVAL;
    if (g->notation && g->notation->load)
        return g->notation->load(s, text);
    if (NEVER(g->state_size > sizeof copy))
        return BANYAN_EINVAL;
    memcpy(copy, s, g->state_size);
    for (const char *p = text;;) {
        banyan_move m;
        int rc;
        p += strspn(p, " ,\t\r\n");
        size_t k = strcspn(p, " ,\t\r\n");
        if (k == 0)
            break;
        if (k >= sizeof word)
            return BANYAN_EINVAL;
        memcpy(word, p, k);
        word[k] = 0;
        p += k;
        if ((rc = banyan_game_parse(g, copy, 0, word, &m)) != BANYAN_OK)
            return rc;
        if (!banyan_game_is_legal(g, copy, m))
            return BANYAN_EILLEGAL;
        g->play(copy, m);
    }
    memcpy(s, copy, g->state_size);
    return BANYAN_OK;
}

/* ---- Diagrams ---- */

/* Appends to a buffer snprintf-style: pos counts every byte asked for, and
 * only those that fit before the final NUL are stored. */
typedef struct game_out {
    char *buf;  /* The caller's buffer, may be NULL when len is 0. */
    size_t len; /* Its size in bytes. */
    size_t pos; /* Bytes of text so far, stored or not. */
} game_out;

static void game_put(game_out *o, const char *fmt, ...)
{
    va_list ap;
    size_t room = o->pos < o->len ? o->len - o->pos : 0;
    va_start(ap, fmt);
    int n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->pos += (size_t)n;
}

/* The label of column x in a system: a letter (GTP's skip I), or X,Y's
 * number. */
static void game_column_label(unsigned coords, int x, char *buf, size_t len)
{
    if (coords == BANYAN_COORDS_GTP)
        snprintf(buf, len, "%c", x < GAME_MAX_COLUMNS - 1 ? game_gtp_letter(x) : '?');
    else if (coords == BANYAN_COORDS_XY)
        snprintf(buf, len, "%d", x);
    else
        snprintf(buf, len, "%c", x < GAME_MAX_COLUMNS ? 'a' + x : '?');
}

/* Top row first, the last move in parentheses, labels of the system:
 *
 *    3 . . .
 *    2 .(X).
 *    1 O . X
 *      a b c
 *
 * Rows are numbered from the bottom (from 1), except in X,Y and SGF, which
 * count from the top (from 0, and by letter). */
static int game_diagram(const banyan_game *g, const void *s, banyan_move last, unsigned coords,
                        int w, int h, char *buf, size_t len)
{
    game_out o = {buf, len, 0};
    int lx = -1, ly = -1, kind;
    int wx[GAME_MAX_COLUMNS], wy[GAME_MAX_COLUMNS];
    int nw = banyan_game_win_line(g, s, wx, wy, GAME_MAX_COLUMNS);
    int cw = coords == BANYAN_COORDS_XY && w > 10 ? 3 : 2; /* Width of a column. */
    char label[16];
    if (last != BANYAN_MOVE_NONE) {
        kind = g->board->place(s, last, &lx, &ly);
        if (kind == BANYAN_PLACE_COLUMN) {
            /* A dropped piece lands on the column's highest occupied cell. */
            for (ly = 0; ly < h && g->board->piece(s, lx, ly) < 0; ly++)
                ;
        } else if (kind != BANYAN_PLACE_CELL) {
            lx = ly = -1;
        }
    }
    for (int y = 0; y < h; y++) {
        if (coords == BANYAN_COORDS_XY)
            game_put(&o, "%2d", y);
        else if (coords == BANYAN_COORDS_SGF)
            game_put(&o, " %c", y < GAME_MAX_COLUMNS ? 'a' + y : '?');
        else
            game_put(&o, "%2d", h - y);
        for (int x = 0; x <= w; x++) {
            bool here = y == ly && x == lx, after = y == ly && x - 1 == lx;
            if (x < w || after)
                game_put(&o, "%*s%c", cw - 2, "", here ? '(' : after ? ')' : ' ');
            if (x == w)
                break;
            int p = g->board->piece(s, x, y);
            bool won = false;
            for (int i = 0; i < nw && !won; i++)
                won = wx[i] == x && wy[i] == y;
            game_put(&o, "%c",
                     p < 0    ? '.'
                     : p == 0 ? (won ? 'x' : 'X')
                     : p == 1 ? (won ? 'o' : 'O')
                              : '0' + p);
        }
        game_put(&o, "\n");
    }
    game_put(&o, "  ");
    for (int x = 0; x < w; x++) {
        if (coords == BANYAN_COORDS_SGF)
            snprintf(label, sizeof label, "%c", x < GAME_MAX_COLUMNS ? 'a' + x : '?');
        else
            game_column_label(coords, x, label, sizeof label);
        game_put(&o, "%*s", cw, label);
    }
    game_put(&o, "\n");
    return (int)o.pos;
}

BANYAN_API int banyan_game_write(const banyan_game *g, const void *s, const banyan_move *moves,
                                 int n, char *buf, size_t len)
{
    GAME_NORMAL(g);
    size_t at = 0;
    if (!g || !s || n < 0 || (n > 0 && !moves) || (!buf && len))
        return BANYAN_EINVAL;
    if (len)
        buf[0] = 0;
    if (g->notation && g->notation->write)
        return g->notation->write(s, moves, n, buf, len);
    for (int i = 0; i < n; i++) { /* A move a line, each as it is written in s. */
        int k = banyan_game_format(g, s, moves[i], 0, at < len ? buf + at : NULL,
                                   at < len ? len - at : 0);
        if (k < 0)
            return k;
        at += (size_t)k;
        if (at + 1 < len) {
            buf[at] = '\n';
            buf[at + 1] = 0;
        }
        at++;
    }
    return at > INT_MAX ? BANYAN_EINVAL : (int)at;
}

BANYAN_API int banyan_game_print(const banyan_game *g, const void *s, banyan_move last,
                                 unsigned coords, char *buf, size_t len)
{
    GAME_NORMAL(g);
    int w, h;
    if (!g || !s || (!buf && len))
        return BANYAN_EINVAL;
    if (len)
        buf[0] = 0;
    if (coords == 0 && (g->notation && g->notation->print))
        return g->notation->print(s, last, buf, len);
    if (coords && !game_has_coords(g, coords))
        return BANYAN_EINVAL;
    if (!game_board(g, s, &w, &h))
        return snprintf(buf, len, "player %d to move\n", g->to_move(s) + 1);
    if (coords == 0) {
        /* The default drawing: the game's first lettered system. */
        static const unsigned order[] = {BANYAN_COORDS_POINT, BANYAN_COORDS_GTP,
                                         BANYAN_COORDS_COLUMN, BANYAN_COORDS_SGF, BANYAN_COORDS_XY};
        coords = BANYAN_COORDS_POINT;
        for (size_t i = countof(order); i-- > 0;)
            if ((g->board ? g->board->coords : 0u) & order[i])
                coords = order[i];
    }
    return game_diagram(g, s, last, coords, w, h, buf, len);
}
