/*
 * board.c - Go's board and rules: stones placed and captured, passes, the
 * area score, setup with komi and handicap, the moves, the hash and the
 * full check of the incremental state, GTP notation, the board form of a
 * position, the diagram, and the game's table. The board is described in
 * go.h; the playouts are in playout.c, the patterns and priors in
 * patterns.c.
 */
#include "go.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Rules ---- */

/* Joins group b into group a, or a into b, whichever is smaller; returns
 * the root of the union. */
static int go_merge(go *t, int a, int b)
{
    if (t->groups[a].stones < t->groups[b].stones) {
        int x = a;
        a = b;
        b = x;
    }
    int x = b;
    do {
        t->group[x] = (uint16_t)a;
        x = t->next[x];
    } while (x != b);
    uint16_t na = t->next[a];
    t->next[a] = t->next[b];
    t->next[b] = na;
    go_group *ga = &t->groups[a], *gb = &t->groups[b];
    ga->stones = (uint16_t)(ga->stones + gb->stones);
    ga->libs = (uint16_t)(ga->libs + gb->libs);
    ga->sum += gb->sum;
    ga->sum2 += gb->sum2;
    return a;
}

/* Takes group g off the board, giving its points back as liberties to the
 * neighbouring groups; returns the stones removed. */
static int go_remove(go *t, int g)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    int x = g, c = t->color[g], n = t->groups[g].stones;
    do {
        t->color[x] = GO_EMPTY;
        t->hash ^= go_key(x, c);
        go_add_empty(t, x);
        for (int i = 0; i < 4; i++) {
            int y = x + d[i], cy = t->color[y];
            if ((cy == GO_BLACK || cy == GO_WHITE) && t->group[y] != g)
                go_lib_add(&t->groups[t->group[y]], x);
        }
        x = t->next[x];
    } while (x != g);
    return n;
}

/* Puts a stone of the player to move on point p (legal), captures, sets
 * the ko point, and gives the turn to the other player. */
void go_place(go *t, int p)
{
    const int d[4] = {-t->stride, -1, 1, t->stride};
    int me = t->turn + 1, opp = 3 - me, captured = 0, cap_at = 0;
    go_take_empty(t, p);
    t->color[p] = (uint8_t)me;
    t->hash ^= go_key(p, me);
    t->group[p] = (uint16_t)p;
    t->next[p] = (uint16_t)p;
    go_group *g = &t->groups[p];
    g->stones = 1;
    g->libs = 0;
    g->sum = 0;
    g->sum2 = 0;
    for (int i = 0; i < 4; i++) {
        int q = p + d[i], c = t->color[q];
        if (c == GO_EMPTY)
            go_lib_add(g, q);
        else if (c != GO_BORDER)
            go_lib_sub(&t->groups[t->group[q]], p);
    }
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (t->color[q] == me && t->group[q] != t->group[p])
            go_merge(t, t->group[p], t->group[q]);
    }
    for (int i = 0; i < 4; i++) {
        int q = p + d[i];
        if (t->color[q] == opp && t->groups[t->group[q]].libs == 0) {
            cap_at = q;
            captured += go_remove(t, t->group[q]);
        }
    }
    /* A lone stone that took a lone stone and has that point as its only
     * liberty may not be taken back at once. */
    const go_group *mine = &t->groups[t->group[p]];
    t->ko = (uint16_t)(captured == 1 && mine->stones == 1 && mine->libs == 1 ? cap_at : 0);
    t->last[1] = t->last[0];
    t->last[0] = (uint16_t)p;
    t->passes = 0;
    t->ply++;
    t->turn ^= 1;
}

void go_play_pass(go *t)
{
    t->ko = 0;
    t->last[1] = t->last[0];
    t->last[0] = 0;
    t->passes++;
    t->ply++;
    t->turn ^= 1;
}
/* Tromp-Taylor area: stones, and empty regions that reach one colour
 * only. */
static void go_area(const go *t, int *area)
{
    uint8_t seen[GO_POINTS];
    uint16_t stack[GO_CELLS];
    const int d[4] = {-t->stride, -1, 1, t->stride};
    memset(seen, 0, sizeof seen);
    area[0] = area[1] = 0;
    for (int y = 0; y < t->size; y++)
        for (int x = 0; x < t->size; x++) {
            int p = go_point(t, x, y), c = t->color[p];
            if (c != GO_EMPTY) {
                area[c - 1]++;
                continue;
            }
            if (seen[p])
                continue;
            int n = 0, top = 0, reach = 0;
            seen[p] = 1;
            stack[top++] = (uint16_t)p;
            while (top) {
                int q = stack[--top];
                n++;
                for (int i = 0; i < 4; i++) {
                    int r = q + d[i], cr = t->color[r];
                    if (cr == GO_EMPTY && !seen[r]) {
                        seen[r] = 1;
                        stack[top++] = (uint16_t)r;
                    } else {
                        reach |= 1 << cr;
                    }
                }
            }
            if ((reach & 6) == 2)
                area[0] += n;
            else if ((reach & 6) == 4)
                area[1] += n;
        }
}

/* Black's area less White's, less komi. */
static double go_score(const void *s)
{
    const go *t = s;
    int area[2];
    go_area(t, area);
    return (double)(area[0] - area[1]) - (double)t->komi;
}
/* ---- Setup ---- */

/* GTP's fixed handicap points, as (x, y from the bottom) lines: the four
 * corners on the 4th line (3rd below 13x13), then the centre for an odd
 * count, then the sides. */
static int go_handicap_points(int size, int n, int *xs, int *ys)
{
    int a = size >= 13 ? 3 : 2, b = size - 1 - a, mid = size / 2, k = 0;
    if (n < 2 || n > 9 || (n > 4 && size % 2 == 0))
        return n == 0 ? 0 : -1;
#define GO_AT(x, y) (xs[k] = (x), ys[k] = (y), k++)
    GO_AT(a, a);
    GO_AT(b, b);
    if (n >= 3)
        GO_AT(a, b);
    if (n >= 4)
        GO_AT(b, a);
    if (n >= 5 && n % 2) {
        GO_AT(mid, mid);
        n--;
    }
    if (n >= 6) {
        GO_AT(a, mid);
        GO_AT(b, mid);
    }
    if (n >= 8) {
        GO_AT(mid, a);
        GO_AT(mid, b);
    }
#undef GO_AT
    return k;
}

/* An empty board of the given side, komi and playout policy, Black to
 * move. */
static void go_empty_board(go *t, int size, float komi, int policy)
{
    memset(t, 0, sizeof *t);
    t->size = (uint8_t)size;
    t->stride = (uint8_t)(size + 2);
    t->komi = komi;
    t->policy = (uint8_t)policy;
    memset(t->color, GO_BORDER, sizeof t->color);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = go_point(t, x, y);
            t->color[p] = GO_EMPTY;
            go_add_empty(t, p);
        }
}

/* Four parameters, size, komi, handicap and playouts (go_params); the
 * handicap is checked against the size. */
static int go_setup(void *s, const char *params)
{
    go *t = s;
    banyan_value v[GO_N_PARAMS];
    if (banyan_params_read(banyan_game_go.params, params, v) != BANYAN_OK)
        return BANYAN_EINVAL;
    long size = v[GO_P_SIZE].i, handicap = v[GO_P_HANDICAP].i;
    double komi = v[GO_P_KOMI].x;
    int policy = v[GO_P_PLAYOUTS].choice;
    int xs[9], ys[9], n_handicap = go_handicap_points((int)size, (int)handicap, xs, ys);
    if (n_handicap < 0)
        return BANYAN_EINVAL;
    go_empty_board(t, (int)size, (float)komi, policy);
    t->handicap = (uint8_t)handicap;
    for (int i = 0; i < n_handicap; i++) {
        go_place(t, go_point(t, xs[i], (int)size - 1 - ys[i]));
        t->turn = 0;
    }
    t->turn = n_handicap ? 1 : 0;
    t->ply = 0;
    t->last[0] = t->last[1] = 0;
    return BANYAN_OK;
}

/* ---- The search's functions ---- */

/* Every legal point in move order, then the pass; nothing once over. */
static int go_moves(const void *s, banyan_move *out)
{
    const go *t = s;
    int n = 0, me = t->turn + 1, m = 0;
    if (go_is_over(t))
        return 0;
    for (int y = 0; y < t->size; y++)
        for (int x = 0; x < t->size; x++, m++)
            if (go_legal(t, go_point(t, x, y), me))
                out[n++] = (banyan_move)m;
    out[n++] = (banyan_move)go_pass(t);
    return n;
}

/* The legal moves less those that fill one of the mover's own eyes. */
static int go_candidates(const void *s, banyan_move *out)
{
    const go *t = s;
    int n = 0, me = t->turn + 1, m = 0;
    if (go_is_over(t))
        return 0;
    for (int y = 0; y < t->size; y++)
        for (int x = 0; x < t->size; x++, m++) {
            int p = go_point(t, x, y);
            if (go_legal(t, p, me) && !go_is_eye(t, p, me))
                out[n++] = (banyan_move)m;
        }
    out[n++] = (banyan_move)go_pass(t);
    return n;
}

static void go_play(void *s, banyan_move m)
{
    go *t = s;
    if ((int)m == go_pass(t))
        go_play_pass(t);
    else
        go_place(t, go_move_point(t, m));
}

static bool go_outcome(const void *s, double *returns)
{
    const go *t = s;
    if (!go_is_over(t))
        return false;
    double score = go_score(t);
    returns[0] = score > 0 ? 1.0 : score < 0 ? 0.0 : 0.5;
    returns[1] = 1.0 - returns[0];
    return true;
}

static int go_to_move(const void *s)
{
    return ((const go *)s)->turn;
}
/* ---- Hash and checks ---- */

static uint64_t go_hash(const void *s)
{
    const go *t = s;
    uint64_t h = t->hash;
    if (t->turn)
        h ^= GO_KEY_WHITE;
    if (t->ko)
        h ^= banyan_mix64(GO_KEY_KO + t->ko);
    if (t->passes)
        h ^= banyan_mix64(GO_KEY_PASSES + t->passes);
    return h;
}

/* Recounts everything the state keeps incrementally: the border, the
 * empty list, each group's stones, list and pseudo-liberties, that no
 * group is without liberties, the ko point and the hash. */
static bool go_is_valid(const void *s)
{
    const go *t = s;
    const int st = t->stride, d[4] = {-st, -1, 1, st};
    uint64_t h = 0;
    int empties = 0;
    if (t->size < GO_MIN_SIZE || t->size > GO_MAX_SIZE || t->stride != t->size + 2 || t->turn > 1 ||
        t->policy > GO_HEAVY || t->passes > 2)
        return false;
    for (int p = 0; p < GO_POINTS; p++) {
        int x = p % st - 1, y = p / st - 1;
        bool on = p < st * st && x >= 0 && y >= 0 && x < t->size && y < t->size;
        int c = t->color[p];
        if (!on) {
            if (c != GO_BORDER)
                return false;
            continue;
        }
        if (c == GO_BORDER)
            return false;
        if (c == GO_EMPTY) {
            empties++;
            if (t->empty_at[p] >= t->n_empty || t->empties[t->empty_at[p]] != p)
                return false;
            continue;
        }
        h ^= go_key(p, c);
        int g = t->group[p];
        if (t->color[g] != c || t->group[g] != g)
            return false;
        if (g == p) {
            /* Walk the root's list: every stone of the group, once. */
            go_group r = {0, 0, 0, 0};
            int x2 = p, k = 0;
            do {
                if (t->color[x2] != c || t->group[x2] != g || ++k > GO_CELLS)
                    return false;
                for (int i = 0; i < 4; i++)
                    if (t->color[x2 + d[i]] == GO_EMPTY)
                        go_lib_add(&r, x2 + d[i]);
                x2 = t->next[x2];
            } while (x2 != p);
            const go_group *gg = &t->groups[g];
            if (k != gg->stones || r.libs != gg->libs || r.sum != gg->sum || r.sum2 != gg->sum2 ||
                gg->libs == 0)
                return false;
        }
        for (int i = 0; i < 4; i++) /* Neighbours of one colour share a group. */
            if (t->color[p + d[i]] == c && t->group[p + d[i]] != g)
                return false;
    }
    if (empties != t->n_empty || h != t->hash)
        return false;
    if (t->ko && t->color[t->ko] != GO_EMPTY)
        return false;
    return true;
}

/* ---- Notation ---- */

static int go_format_move(const void *s, banyan_move m, char *buf, size_t len)
{
    const go *t = s;
    if ((int)m == go_pass(t))
        return snprintf(buf, len, "pass");
    if ((int)m > go_pass(t))
        return snprintf(buf, len, "%lu", (unsigned long)m);
    int x = (int)m % t->size, y = (int)m / t->size;
    return snprintf(buf, len, "%c%d", 'A' + x + (x >= 8), t->size - y);
}

/* GTP vertices in any case ("D4", "j9", "pass"), spaces around ignored:
 * a letter A..Z without I, then a row number from the bottom. The one
 * parser is the library's GTP system, so that every front-end refuses the
 * same texts (banyan_game_parse_why says why "I5" is no move). */
static int go_parse_move(const void *s, const char *str, banyan_move *out)
{
    return banyan_game_parse(&banyan_game_go, s, BANYAN_COORDS_GTP, str, out);
}

/* The board form of a position: its size * size points as one word, row
 * by row from the top-left (A19 first on 19x19), 'X' for Black, 'O' for
 * White and '-' or '.' for an empty point, then the player to move, 'X' or
 * 'O' (Othello's form, which the game record writes for SGF's setup
 * stones): the stones are set up, not played, on an empty board of the
 * parameters of *t, with no ko and no move played. Returns 1 when text is
 * no board form (a move list), else BANYAN_OK, BANYAN_EINVAL for a
 * malformed one or BANYAN_EILLEGAL for a group without liberties. */
static int go_load_board(go *t, const char *text)
{
    int n = t->size * t->size, stones[2] = {0, 0};
    const char *p = text + strspn(text, " \t\r\n");
    size_t word = strcspn(p, " \t\r\n");
    if ((word != (size_t)n && word != (size_t)n + 1) || strspn(p, "XxOo.-") < (size_t)n)
        return 1; /* A move list: its words are at most 4 letters long. */
    go_empty_board(t, t->size, t->komi, t->policy);
    for (int i = 0; i < n; i++, p++) {
        int c = (*p | 0x20) == 'x' ? GO_BLACK : (*p | 0x20) == 'o' ? GO_WHITE : GO_EMPTY;
        if (c == GO_EMPTY)
            continue;
        t->turn = (uint8_t)(c - 1);
        go_place(t, go_point(t, i % t->size, i / t->size));
        stones[c - 1]++;
    }
    p += strspn(p, " \t\r\n");
    char side = (char)(*p | 0x20);
    if (side != 'x' && side != 'o')
        return BANYAN_EINVAL;
    p++;
    if (p[strspn(p, " \t\r\n")])
        return BANYAN_EINVAL;
    /* A stone set up without a liberty, or that took one away from the
     * last liberty of another group, captured: no position of Go. */
    int left[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        int c = t->color[go_point(t, i % t->size, i / t->size)];
        if (c == GO_BLACK || c == GO_WHITE)
            left[c - 1]++;
    }
    t->turn = side == 'o';
    t->ko = 0;
    t->ply = 0;
    t->passes = 0;
    t->last[0] = t->last[1] = 0;
    return left[0] == stones[0] && left[1] == stones[1] && go_is_valid(t) ? BANYAN_OK
                                                                          : BANYAN_EILLEGAL;
}

/* A position: the board form (go_load_board), or else the library's move
 * list from *s (GTP vertices separated by spaces or commas, through a copy
 * of the table without this load), so that *s is unchanged by an error. */
static int go_load(void *s, const char *text)
{
    go t;
    if (!text)
        return BANYAN_EINVAL;
    memcpy(&t, s, sizeof t);
    int rc = go_load_board(&t, text);
    if (rc == 1) {
        banyan_notation notation = *banyan_game_go.notation;
        banyan_game moves = banyan_game_go;
        notation.load = NULL;
        moves.notation = &notation;
        return banyan_game_load(&moves, s, text);
    }
    if (rc == BANYAN_OK)
        memcpy(s, &t, sizeof t);
    return rc;
}

/* Whether (x, y) is a star point: the corners on the 4th line (3rd below
 * 13x13), the centre of an odd board, and the sides of odd boards from
 * 15x15. */
static bool go_is_star(int size, int x, int y)
{
    int a = size >= 13 ? 3 : 2, b = size - 1 - a, mid = size / 2;
    bool odd = size % 2;
    bool xs = x == a || x == b || (odd && x == mid && (size >= 15 || y == mid));
    bool ys = y == a || y == b || (odd && y == mid && (size >= 15 || x == mid));
    return xs && ys;
}

/* The board with GTP labels, row 1 at the bottom, X Black, O White, '+'
 * on empty star points, the last move in parentheses. */
static int go_print(const void *s, banyan_move last, char *buf, size_t len)
{
    const go *t = s;
    char text[(GO_MAX_SIZE + 2) * (2 * GO_MAX_SIZE + 12)], *q = text;
    int lx = -1, ly = -1;
    if (last < (banyan_move)go_pass(t)) { /* Not a pass, nor BANYAN_MOVE_NONE. */
        lx = (int)last % t->size;
        ly = (int)last / t->size;
    }
    q += sprintf(q, "   ");
    for (int x = 0; x < t->size; x++)
        q += sprintf(q, " %c", 'A' + x + (x >= 8));
    *q++ = '\n';
    for (int y = 0; y < t->size; y++) {
        q += sprintf(q, "%2d ", t->size - y);
        for (int x = 0; x <= t->size; x++) {
            bool here = y == ly && x == lx, after = y == ly && x == lx + 1;
            if (x == t->size) {
                *q++ = after ? ')' : ' ';
                break;
            }
            *q++ = here ? '(' : after ? ')' : ' ';
            int c = t->color[go_point(t, x, y)];
            *q++ = c == GO_BLACK               ? 'X'
                   : c == GO_WHITE             ? 'O'
                   : go_is_star(t->size, x, y) ? '+'
                                               : '.';
        }
        q += sprintf(q, "%d\n", t->size - y);
    }
    q += sprintf(q, "   ");
    for (int x = 0; x < t->size; x++)
        q += sprintf(q, " %c", 'A' + x + (x >= 8));
    *q++ = '\n';
    *q = 0;
    return snprintf(buf, len, "%s", text);
}

/* ---- The description ---- */

static const banyan_param go_params[] = {
    {"size", BANYAN_PARAM_INT, GO_MIN_SIZE, GO_MAX_SIZE, NULL, "19",
     BANYAN_ROLE_WIDTH | BANYAN_ROLE_HEIGHT, "the board's side", NULL},
    {"komi", BANYAN_PARAM_NUMBER, -150, 150, NULL, "7.5", BANYAN_ROLE_KOMI,
     "points added to White's area", NULL},
    {"handicap", BANYAN_PARAM_INT, 0, 9, NULL, "0", 0,
     "Black's stones on GTP's fixed handicap points (2 to 9, 4 at most on even boards); "
     "White then moves first",
     NULL},
    {"playouts", BANYAN_PARAM_CHOICE, 0, 0, "light|heavy", "heavy", 0,
     "playout policy: heavy (captures, atari escapes, 3x3 patterns, no big self-atari; "
     "measured stronger at equal time), or light (random moves that fill no own eye)",
     "light"},
    {NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL},
};
_Static_assert(sizeof go_params / sizeof go_params[0] == GO_N_PARAMS + 1, "one value a parameter");

/* Append only: any change to this list changes the bench signature. */
const banyan_bench games_bench_go[] = {
    {"size=9 playouts=light", "", 0, 100000},
    {"size=9 playouts=heavy", "", 0, 20000},
    {"size=19 playouts=light", "", 0, 10000},
    {"size=9", "E5 C4 G4 D6 E3 F6", 10000, 0},
    {NULL, NULL, 0, 0},
};

static void go_board_size(const void *s, int *width, int *height)
{
    const go *t = s;
    *width = t->size;
    *height = t->size;
}

static int go_place_of(const void *s, banyan_move m, int *x, int *y)
{
    const go *t = s;
    if ((int)m == go_pass(t))
        return BANYAN_PLACE_PASS;
    if ((int)m > go_pass(t))
        return BANYAN_PLACE_NONE;
    *x = (int)m % t->size;
    *y = (int)m / t->size;
    return BANYAN_PLACE_CELL;
}

static int go_place_move(const void *s, int kind, int x, int y, banyan_move *out)
{
    const go *t = s;
    if (kind == BANYAN_PLACE_PASS) {
        *out = (banyan_move)go_pass(t);
        return BANYAN_OK;
    }
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return BANYAN_ERANGE;
    *out = (banyan_move)(y * t->size + x);
    return BANYAN_OK;
}

static int go_piece(const void *s, int x, int y)
{
    const go *t = s;
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return -1;
    int c = t->color[go_point(t, x, y)];
    return c == GO_BLACK ? 0 : c == GO_WHITE ? 1 : -1;
}

/* The colour of a stone, or of an empty point whose region reaches only
 * that colour's stones; -1 otherwise. */
static int go_owner(const void *s, int x, int y)
{
    const go *t = s;
    const int d[4] = {-t->stride, -1, 1, t->stride};
    uint8_t seen[GO_POINTS];
    uint16_t stack[GO_CELLS];
    if (x < 0 || y < 0 || x >= t->size || y >= t->size)
        return -1;
    int p = go_point(t, x, y), top = 0, reach = 0;
    if (t->color[p] != GO_EMPTY)
        return t->color[p] - 1;
    memset(seen, 0, sizeof seen);
    seen[p] = 1;
    stack[top++] = (uint16_t)p;
    while (top && (reach & 6) != 6) {
        int q = stack[--top];
        for (int i = 0; i < 4; i++) {
            int r = q + d[i], c = t->color[r];
            if (c == GO_EMPTY && !seen[r]) {
                seen[r] = 1;
                stack[top++] = (uint16_t)r;
            } else {
                reach |= 1 << c;
            }
        }
    }
    return (reach & 6) == 2 ? 0 : (reach & 6) == 4 ? 1 : -1;
}

static int go_explain(const void *s, banyan_move m, char *buf, size_t len)
{
    const go *t = s;
    if (go_is_over(t))
        return snprintf(buf, len, "comes after the end of the game");
    if ((int)m >= go_pass(t))
        return 0;
    int p = go_move_point(t, m);
    if (t->color[p] != GO_EMPTY)
        return snprintf(buf, len, "is occupied");
    if (p == t->ko)
        return snprintf(buf, len, "retakes a ko");
    if (!go_legal(t, p, t->turn + 1))
        return snprintf(buf, len, "is suicide");
    return 0;
}

static const banyan_tactics go_tactics = {
    BANYAN_TACTICS_INIT,
    .candidates = go_candidates,
};

static const banyan_notation go_notation = {
    BANYAN_NOTATION_INIT,        .format_move = go_format_move,
    .parse_move = go_parse_move, .load = go_load,
    .print = go_print,
};

static const banyan_board go_board = {
    BANYAN_BOARD_INIT,    .coords = BANYAN_COORDS_GTP | BANYAN_COORDS_SGF,
    .sgf_game = 1,        .board_size = go_board_size,
    .place = go_place_of, .place_move = go_place_move,
    .piece = go_piece,    .owner = go_owner,
};

const banyan_game banyan_game_go = {
    BANYAN_GAME_INIT,
    .name = "go",
    .state_size = sizeof(go),
    .n_players = 2,
    .setup = go_setup,
    .moves = go_moves,
    .play = go_play,
    .outcome = go_outcome,
    .to_move = go_to_move,
    .rollout = go_rollout,
    .priors = go_priors,
    .hash = go_hash,
    .is_valid = go_is_valid,
    .score = go_score,
    .title = "Go",
    .params = go_params,
    .playout = go_playout,
    .rules = BANYAN_RULE_SUPERKO,
    .tactics = &go_tactics,
    .notation = &go_notation,
    .player_names = (const char *const[]){"Black", "White"},
    .score_unit = "points",
    .explain = go_explain,
    .board = &go_board,
};
