/*
 * point.h - the "a1" notation shared by the games played on points.
 */
#ifndef BANYAN_POINT_H
#define BANYAN_POINT_H

#include <stdbool.h>

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

#endif /* BANYAN_POINT_H */
