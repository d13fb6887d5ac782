/*
 * point.c - the notation of the games played on points (m,n,k-games and
 * Gomoku): a column letter from the left and a row number from the bottom,
 * "c3" or "3c", in either case. One parser, so that every such game reads
 * moves alike and the fuzzer covers it once.
 */
#include "point.h"

#include <stdio.h>

bool point_is_space(char c)
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

int point_parse(const char **str, bool in_list, int cols, int rows, int *cell)
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

/* Appends to a buffer snprintf-style: pos counts every byte asked for, and
 * only those that fit before the final NUL are stored. */
typedef struct point_out {
    char *buf;  /* The caller's buffer, may be NULL when len is 0. */
    size_t len; /* Its size in bytes. */
    size_t pos; /* Bytes of text so far, stored or not. */
} point_out;

static void point_put(point_out *o, char c)
{
    if (o->pos + 1 < o->len)
        o->buf[o->pos] = c;
    o->pos++;
}

/* Top row first, the last move in parentheses:
 *
 *    3 . . .
 *    2 .(X).
 *    1 O . X
 *      a b c
 */
int point_print(int cols, int rows, const char *cells, banyan_move last, char *buf, size_t len)
{
    point_out o = {buf, len, 0};
    int last_r = -1, last_c = -1;

    if (last < (banyan_move)(cols * rows)) {
        last_r = (int)(last / (banyan_move)cols);
        last_c = (int)(last % (banyan_move)cols);
    }
    for (int r = rows - 1; r >= 0; r--) {
        point_put(&o, (char)(r + 1 >= 10 ? '0' + (r + 1) / 10 : ' '));
        point_put(&o, (char)('0' + (r + 1) % 10));
        for (int c = 0; c <= cols; c++) {
            bool here = r == last_r && c == last_c, before = r == last_r && c - 1 == last_c;
            if (here || before || c < cols)
                point_put(&o, here ? '(' : before ? ')' : ' ');
            if (c == cols)
                break;
            point_put(&o, cells[r * cols + c]);
        }
        point_put(&o, '\n');
    }
    point_put(&o, ' ');
    point_put(&o, ' ');
    for (int c = 0; c < cols; c++) {
        point_put(&o, ' ');
        point_put(&o, (char)('a' + c));
    }
    point_put(&o, '\n');
    if (len)
        buf[o.pos < len ? o.pos : len - 1] = 0;
    return (int)o.pos;
}
