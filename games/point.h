/*
 * point.h - the "a1" notation and the places shared by the games played on
 * points.
 */
#ifndef BANYAN_POINT_H
#define BANYAN_POINT_H

#include <stdbool.h>
#include <stddef.h>

#include "banyan_game.h"

/* Reads the next move of a move list at *str ("h8 i9,h9": moves separated
 * by spaces or commas, each read as by point_parse_move but ended by a
 * space or a comma, so that "a 1" is two malformed moves) on a board of
 * cols x rows, and advances *str past it. Returns 1 with *cell = (row - 1) *
 * cols + column, 0 at the end of the list, BANYAN_ERANGE for a well-formed
 * point off the board, or BANYAN_EINVAL; never reads past the text's end. */
int point_next(const char **str, int cols, int rows, int *cell);

/* parse_move for a board of cols x rows: the whole text is one move
 * ("c3", "3c", any case, spaces around and inside it as in "c 3"). */
int point_parse_move(const char *str, int cols, int rows, banyan_move *out);

/* format_move for a board of cols x rows: "c3", or "-" for a move that is
 * not a point of the board (outside the contract, shown visibly). */
int point_format(banyan_move m, int cols, int rows, char *buf, size_t len);

/* place for a board of cols x rows, whose move r * cols + c is column c of
 * row r, rows counted from the bottom: BANYAN_PLACE_CELL with (x, y) from
 * the top left, or BANYAN_PLACE_NONE for a code off the board. */
int point_place(banyan_move m, int cols, int rows, int *x, int *y);

/* place_move for the same board: BANYAN_OK with *out, BANYAN_ERANGE for a
 * cell off the board, BANYAN_EINVAL for a kind of place other than a cell. */
int point_place_move(int kind, int x, int y, int cols, int rows, banyan_move *out);

/* win_line for a board of w x h cells read through piece(s, x, y): the
 * cells of every run of player who's pieces, across, down or diagonally,
 * of k or more (exactly k when exact), each once, up to max of them into
 * x[] and y[]. Returns their number. */
int point_win_line(const void *s, int (*piece)(const void *, int, int), int w, int h, int who,
                   int k, bool exact, int *x, int *y, int max);

#endif /* BANYAN_POINT_H */
