/*
 * point.c - the notation of the games played on points (m,n,k-games and
 * Gomoku): a column letter from the left and a row number from the bottom,
 * "c3" or "3c", in either case; and where such a move sits on the board. One
 * parser, so that every such game reads moves alike and the fuzzer covers it
 * once. Their diagrams are the library's default drawing, from piece().
 */
#include "point.h"

#include <stdbool.h>
#include <stdio.h>

static inline bool point_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline bool point_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads one ASCII letter at *p (either case) as a column 0 .. 25, or -1. */
static int point_read_letter(const char **p)
{
    char c = **p;
    if (c >= 'a' && c <= 'z') {
        (*p)++;
        return c - 'a';
    }
    if (c >= 'A' && c <= 'Z') {
        (*p)++;
        return c - 'A';
    }
    return -1;
}

/* Reads a row number at *p: digits without a leading zero (a lone "0" is a
 * well-formed row that is never on a board). Saturates instead of
 * overflowing, so any length is safe. Returns -1 when there is none. */
static int point_read_number(const char **p)
{
    const char *q = *p;
    int v = 0;
    if (!point_is_digit(*q) || (q[0] == '0' && point_is_digit(q[1])))
        return -1;
    for (; point_is_digit(*q); q++)
        v = v > 1000 ? v : v * 10 + (*q - '0');
    *p = q;
    return v;
}

/* Parses the move at *str ("c3", "3c", any case) on a board of cols x rows
 * and advances *str past it. A lone move (in_list false) may have spaces
 * inside ("c 3") and must end the text; in a move list a space or a comma
 * ends the move instead. Returns BANYAN_OK with *cell = (row - 1) * cols +
 * column, BANYAN_ERANGE for a well-formed point off the board, or
 * BANYAN_EINVAL. */
static int point_parse(const char **str, bool in_list, int cols, int rows, int *cell)
{
    const char *p = *str;
    int col, row;

    while (point_is_space(*p))
        p++;
    if (point_is_digit(*p)) {
        row = point_read_number(&p);
        while (!in_list && point_is_space(*p))
            p++;
        col = point_read_letter(&p);
    } else {
        col = point_read_letter(&p);
        while (!in_list && point_is_space(*p))
            p++;
        row = point_read_number(&p);
    }
    if (col < 0 || row < 0)
        return BANYAN_EINVAL;
    while (!in_list && point_is_space(*p))
        p++;
    if (*p && !(in_list && (point_is_space(*p) || *p == ',')))
        return BANYAN_EINVAL;
    *str = p;
    if (col >= cols || row < 1 || row > rows)
        return BANYAN_ERANGE;
    *cell = (row - 1) * cols + col;
    return BANYAN_OK;
}

int point_next(const char **str, int cols, int rows, int *cell)
{
    while (point_is_space(**str) || **str == ',')
        (*str)++;
    if (!**str)
        return 0;
    int rc = point_parse(str, true, cols, rows, cell);
    return rc == BANYAN_OK ? 1 : rc;
}

int point_parse_move(const char *str, int cols, int rows, banyan_move *out)
{
    int cell;
    if (!str)
        return BANYAN_EINVAL;
    int rc = point_parse(&str, false, cols, rows, &cell);
    if (rc == BANYAN_OK)
        *out = (banyan_move)cell;
    return rc;
}

int point_format(banyan_move m, int cols, int rows, char *buf, size_t len)
{
    if (m >= (banyan_move)(cols * rows))
        return snprintf(buf, len, "-");
    return snprintf(buf, len, "%c%d", 'a' + (int)(m % (banyan_move)cols),
                    (int)(m / (banyan_move)cols) + 1);
}

int point_place(banyan_move m, int cols, int rows, int *x, int *y)
{
    if (m >= (banyan_move)(cols * rows))
        return BANYAN_PLACE_NONE;
    *x = (int)(m % (banyan_move)cols);
    *y = rows - 1 - (int)(m / (banyan_move)cols);
    return BANYAN_PLACE_CELL;
}

int point_place_move(int kind, int x, int y, int cols, int rows, banyan_move *out)
{
    if (kind != BANYAN_PLACE_CELL)
        return BANYAN_EINVAL;
    if (x < 0 || y < 0 || x >= cols || y >= rows)
        return BANYAN_ERANGE;
    *out = (banyan_move)((rows - 1 - y) * cols + x);
    return BANYAN_OK;
}

int point_win_line(const void *s, int (*piece)(const void *, int, int), int w, int h, int who,
                   int k, bool exact, int *x, int *y, int max)
{
    static const int dx[4] = {1, 0, 1, 1}, dy[4] = {0, 1, 1, -1};
    int n = 0;
    for (int d = 0; d < 4; d++)
        for (int y0 = 0; y0 < h; y0++)
            for (int x0 = 0; x0 < w; x0++) {
                int px = x0 - dx[d], py = y0 - dy[d], len = 0;
                if (piece(s, x0, y0) != who ||
                    (px >= 0 && py >= 0 && px < w && py < h && piece(s, px, py) == who))
                    continue; /* Not the first piece of a run. */
                for (int cx = x0, cy = y0;
                     cx >= 0 && cy >= 0 && cx < w && cy < h && piece(s, cx, cy) == who;
                     cx += dx[d], cy += dy[d])
                    len++;
                if (len < k || (exact && len > k))
                    continue;
                for (int i = 0; i < len; i++) {
                    int cx = x0 + i * dx[d], cy = y0 + i * dy[d];
                    bool seen = false;
                    for (int j = 0; j < n && !seen; j++)
                        seen = x[j] == cx && y[j] == cy;
                    if (!seen && n < max) {
                        x[n] = cx;
                        y[n++] = cy;
                    }
                }
            }
    return n;
}
