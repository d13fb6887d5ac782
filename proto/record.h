/*
 * record.h - the game record every front-end keeps: the game and its
 * parameters, a start position, the moves with the time each took and a
 * comment, the players and the result. Undo, replay onto an engine from any
 * point, and save and load as a plain move list, as SGF (where the game
 * has an SGF number) or as Piskvork's PSQ (where its moves have Gomocup X,Y
 * coordinates) are written once, here. Uses only the public API.
 *
 * A record checks every move it is given against the game's rules, so the
 * moves it holds are always legal in turn from its start position, and it
 * has no cap on a game's length (it grows through malloc).
 *
 * The plain format, one item a line (blank lines ignored):
 *
 *     # banyan game gomoku
 *     # params size=15 rule=renju          (only when there are parameters)
 *     # position h8 i9                     (only when the start is not the game's)
 *     # first banyan:playouts=2000         (the players, when known)
 *     # second gtp:gnugo --mode gtp
 *     # result 1-0 (five in a row)         (when known)
 *     # date 2024-05-06                    (when known)
 *     h10 1.250s
 *     i10 # the only defence
 *     j10 0.031s # a comment runs to the end of the line
 *
 * Moves are in the game's own notation, each written in the position where
 * it is played; the time (seconds, with an 's') and the comment after '#'
 * are optional. Header lines come before the first move; other '#' lines
 * are comments and are skipped.
 *
 * SGF (FF[4]): the root has GM, FF, CA[UTF-8], AP, SZ (SZ[w:h] when not
 * square), KM (the value of the parameter of role komi, where the game has
 * one), PB and PW when known, DT (the day the game was played, as read,
 * else the day it is saved, YYYY-MM-DD), RE, and Banyan's own properties
 * XG (the game's name), XP (its parameters) and XS (the start position in
 * the game's notation), which other readers keep and ignore. RE is B+R or
 * W+R for a resignation, B+T or W+T for a loss on time, the result as read
 * when the record came from SGF ("0-1 (W+12.5)" keeps W+12.5), the game's
 * own result with its margin (banyan_game_result) for a game that ended on
 * the board, else B+, W+ or 0 for a draw. A start that differs from the
 * game's start on its board (its width and height alone set: what readers
 * that know only SZ expect) is also written for them as setup: every
 * piece as AB (the first player's) or AW, AE where the parameters' own
 * start has a piece and the start has none, PL for the player to move, and
 * HA for the number of the first player's stones where they stand alone
 * with the second player to move (a handicap); XS is then left out when the
 * start is a board form (below), which those properties say in full.
 * Moves are B[] and W[] in SGF coordinates (a pass is empty), with C[] for
 * a comment and XT[] for the seconds the move took. Reading takes the main
 * line of the first game tree; without XG the game is the built-in one with
 * that GM number, SZ sets its parameters of role width and height, and KM
 * the parameter of role komi. Without XS, the root's AB, AW and AE (points
 * or rectangles "aa:cc") over the parameters' start and PL make the start,
 * as a board form: the game must read that form, and the stones must make
 * a legal position; without PL, the player to move is White where only
 * Black was given stones (a handicap), else the game's, and the first move
 * decides where it is the other. Setup properties after the root are
 * refused with a sentence, and so are collections of more than 100000
 * nodes or with a property value over 64 KiB.
 *
 * The board form is a position notation a game's load() may read, and the
 * one the record writes for setup stones: every cell of the board as one
 * word, row by row from the top-left, 'X' for the first player's piece,
 * 'O' for the second's, '-' for an empty cell, then a space and 'X' or 'O'
 * for the player to move.
 *
 * PSQ, the format of Piskvork (the Gomocup manager), as its source
 * (savePsq and openPsq in game.cpp) writes and reads it:
 *
 *     Piskvorky 20x20, 11:11, 0
 *     10,10,1500
 *     11,11,230
 *     -1
 *
 * The first line gives the board's width and height, then the two players'
 * levels (0 for a person) and which of them began (0 or 1). Each move is
 * "x,y,t": x the column from the left and y the row from the top, both
 * counted FROM 1 (Gomocup's X,Y plus one), and t the milliseconds it took.
 * After the moves Piskvork may write the players' names (in tournaments)
 * and then an error code (-1: none). Readers stop at the first line that
 * is not "x,y" or "x,y,t". Banyan reads the size and the moves, skipping
 * blank lines, and ignores the rest of the first line and everything from
 * the first line that does not begin with a digit; a line that begins with
 * one but is no move is an error. It writes "0:0, 0" (two people, so that
 * Piskvork opens the file without starting brains), one "x,y,t" line a
 * move (t 0 when the time is unknown) and "-1". PSQ keeps the board size,
 * the moves and their times, nothing else: no rule or other parameter,
 * players, result, comments or start position. Reading, the first line
 * sets the parameters of role width and height (as SZ does); without a
 * game given the game is the built-in one of SGF number 4 (Gomoku).
 */
#ifndef BANYAN_RECORD_H
#define BANYAN_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "banyan.h"

#define RECORD_PARAMS_MAX 256 /* Bytes of a parameter string, with its NUL. */
#define RECORD_NAME_MAX   256 /* Bytes of a player's name or a result, with its NUL. */

/* Formats of a saved record. */
typedef enum record_format {
    RECORD_TEXT = 0, /* The plain move list above. */
    RECORD_SGF,      /* SGF FF[4], for games with an SGF number. */
    RECORD_PSQ       /* Piskvork's PSQ, for games with X,Y coordinates. */
} record_format;

typedef struct record_move {
    banyan_move move; /* Legal in the position before it. */
    uint64_t board;   /* The board after it (record_board), for superko. */
    double seconds;   /* Time the move took; < 0 when unknown. */
    char *comment;    /* NULL, or text owned by the record. */
    bool implied;     /* A pass a front-end put in so that the other side could move
                         twice (GTP's play of the colour not to move): undo takes it
                         back with the move after it. */
} record_move;

typedef struct record {
    const banyan_game *g;             /* The game; borrowed, outlives the record. */
    char params[RECORD_PARAMS_MAX];   /* Its parameters ("" for the defaults). */
    char *start;                      /* Start position in the game's notation, owned; NULL for
                                         the game's own start. */
    record_move *moves;               /* The moves, n_moves of them, room for cap. */
    int n_moves;                      /* Moves held. */
    int cap;                          /* Room in moves, grown by doubling. */
    char players[2][RECORD_NAME_MAX]; /* First and second player ("" unknown). */
    char result[RECORD_NAME_MAX];     /* "1-0", "0-1", "1/2-1/2" with a reason, or "". */
    char date[RECORD_NAME_MAX];       /* When the game was played (SGF's DT), or "". */
    void *state;                      /* The position after every move (owned). */
    void *scratch;                    /* Room for a state (owned). */
    uint64_t start_board;             /* The board at the start (record_board). */
} record;

/* Starts an empty record of game g with params (NULL or "" for the
 * defaults) from start (NULL or "" for the game's start position, else a
 * position in its notation). Returns BANYAN_OK; BANYAN_EINVAL,
 * BANYAN_ERANGE or BANYAN_EILLEGAL with a sentence in err[errlen] for bad
 * parameters or a bad start; BANYAN_ENOMEM. On failure *r needs no
 * record_free. g, params and start are borrowed. */
int record_init(record *r, const banyan_game *g, const char *params, const char *start, char *err,
                size_t errlen);

/* Frees what the record owns. Safe on a zeroed record. */
void record_free(record *r);

/* Empties the record: no moves, players or result; game, parameters and
 * start stay. */
void record_clear(record *r);

/* Appends move m, which must be legal in record_state(r) and keep the
 * game's superko rule (record_repeats); seconds < 0 when unknown (NaN and
 * infinities are kept as unknown), comment NULL or borrowed text (copied).
 * Returns BANYAN_OK, BANYAN_EILLEGAL (the record is unchanged) or
 * BANYAN_ENOMEM (likewise). */
int record_push(record *r, banyan_move m, double seconds, const char *comment);

/* Whether move m, legal in record_state(r), breaks the game's superko rule
 * (BANYAN_RULE_SUPERKO): it changes the board into one the game had
 * earlier. A move that leaves the board as it is (a pass) never does.
 * Always false for games without the rule. */
bool record_repeats(record *r, banyan_move m);

/* The move to play from a search's report rep of record_state(r): its best,
 * unless that breaks superko, then the next of rep->moves (best first)
 * that does not; BANYAN_MOVE_NONE when the game is over. */
banyan_move record_pick(record *r, const banyan_report *rep);

/* Drops the last n moves (at most the number held). Returns the number
 * dropped. */
int record_undo(record *r, int n);

/* The position after every move: state_size bytes owned by the record,
 * valid until the record changes. */
const void *record_state(const record *r);

/* The position after the first n moves (0 <= n <= n_moves) into out
 * (state_size bytes of the caller's). Returns BANYAN_OK or BANYAN_EINVAL. */
int record_state_at(const record *r, int n, void *out);

/* The position move i (0 <= i < n_moves) is played from: for formatting
 * the move in its position; i == n_moves gives the current position. Uses
 * and returns r->scratch, valid until the next call; NULL for another i. */
const void *record_before(record *r, int i);

/* Sets engine e (of the same game) to the position after the first n moves:
 * setup with the record's parameters, the start position, then the moves
 * one by one (so the engine keeps its tree where it can). Returns BANYAN_OK,
 * BANYAN_EINVAL for n out of range or an engine of another game, or the
 * engine's first error code. */
int record_replay(const record *r, banyan_engine *e, int n);

/* Writes the record to f in format fmt. Returns BANYAN_OK, BANYAN_EINVAL
 * for SGF of a game without an SGF number, or PSQ of a game without X,Y
 * coordinates, of a record with a start position or of a move that is no
 * cell of the board (a pass) (nothing is written then), or BANYAN_ENOMEM
 * after a write error (ferror) or when a scratch state cannot be had. */
int record_save(const record *r, FILE *f, record_format fmt);

/* Reads a record from text (a whole file: after a UTF-8 byte order mark
 * and white space, SGF when it begins with '(', PSQ when it begins with
 * "Piskvorky", else the plain format) into *r, which must not be
 * initialised. The game is g when not
 * NULL (a record of another game is refused), else the one the text names.
 * Every move is checked. Returns BANYAN_OK, or BANYAN_EINVAL, BANYAN_ERANGE
 * (a move off the board), BANYAN_EILLEGAL (an illegal move) or
 * BANYAN_ENOMEM, with a sentence in err[errlen] naming the line (from 1) of
 * the plain format (line 7: "z9" is off the board) or of PSQ (PSQ: line 3:
 * "16,1,250" is off the board) or the property and byte (from 0) of SGF
 * (SGF: missing ']' for the '[' at byte 120); *r is then zeroed and needs
 * no record_free. text is borrowed. */
int record_load(record *r, const banyan_game *g, const char *text, char *err, size_t errlen);

/* record_load on the contents of the file at path. Returns BANYAN_EINVAL
 * with the system's reason in err when the file cannot be read, and when it
 * holds a NUL byte or is over 256 MiB. */
int record_load_file(record *r, const banyan_game *g, const char *path, char *err, size_t errlen);

#endif /* BANYAN_RECORD_H */
