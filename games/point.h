/*
 * point.h - the "a1" notation shared by the games played on points.
 */
#ifndef BANYAN_POINT_H
#define BANYAN_POINT_H

#include <stdbool.h>
#include <stddef.h>

#include "banyan_game.h"
#include "config.h"

/* Whether c separates words (space, tab, CR, LF). */
BANYAN_INTERNAL bool point_is_space(char c);

/* Parses the move at *str ("c3", "3c", any case) on a board of cols x rows
 * and advances *str past it. A lone move (in_list false) may have spaces
 * inside ("c 3") and must end the text; in a move list a space or a comma
 * ends the move instead. Returns BANYAN_OK with *cell = (row - 1) * cols +
 * column, BANYAN_ERANGE for a well-formed point off the board, or
 * BANYAN_EINVAL; never reads past the text's end. */
BANYAN_INTERNAL int point_parse(const char **str, bool in_list, int cols, int rows, int *cell);

/* parse_move for a board of cols x rows: the whole text is one move. */
BANYAN_INTERNAL int point_parse_move(const char *str, int cols, int rows, banyan_move *out);

/* format_move for a board of cols x rows: "c3", or "-" for a move that is
 * not a point of the board (outside the contract, shown visibly). */
BANYAN_INTERNAL int point_format(banyan_move m, int cols, int rows, char *buf, size_t len);

/* print for a board of cols x rows: cells[r * cols + c] is the character
 * of each point ('X', 'O' or '.'), rows top first with their numbers,
 * columns lettered below, the last move (if on the board) in parentheses;
 * snprintf-style (returns the length the whole text needs). */
BANYAN_INTERNAL int point_print(int cols, int rows, const char *cells, banyan_move last, char *buf,
                                size_t len);

#endif /* BANYAN_POINT_H */
