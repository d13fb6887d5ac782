/*
 * banyan_game.h - the game interface of libbanyan.
 *
 * A game (or any sequential decision domain) is a table of functions over an
 * opaque, fixed-size state. States hold no pointers: the engine copies them
 * with memcpy and never undoes a move, so every simulation starts from a copy
 * of the root. Passes, where a game has them, are ordinary moves.
 *
 * Players are numbered 0 .. n_players-1; player 0 moves first (X, Black, Red).
 * When a game ends it reports one return per player. Two-player zero-sum
 * games return 1 to the winner and 0 to the loser, 0.5 each for a draw; other
 * domains return any real numbers inside [reward_min, reward_max], which the
 * search maps onto [0, 1].
 *
 * Ownership rule, used in every comment below: "borrowed" means the callee
 * reads the pointer only during the call and keeps nothing.
 */
#ifndef BANYAN_GAME_H
#define BANYAN_GAME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Status codes shared by the whole library. Every fallible function returns
 * BANYAN_OK or one of the negative codes; banyan_strerror() names them. */
#define BANYAN_OK       0
#define BANYAN_EINVAL   (-1) /* Bad argument, malformed text, bad parameter. */
#define BANYAN_ENOMEM   (-2) /* Allocation failed while creating or resizing. */
#define BANYAN_EILLEGAL (-3) /* A well-formed move that is not legal now. */
#define BANYAN_ERANGE   (-4) /* A well-formed move or size outside the board. */

typedef uint32_t banyan_move; /* Game-defined encoding, below BANYAN_MOVE_LIMIT. */
#define BANYAN_MOVE_LIMIT                                                                          \
    65535u /* The interface's bound on move codes: every move a game's moves() lists is            \
              below it. A search that meets a larger code fails with BANYAN_EINVAL and says        \
              which. */
#define BANYAN_MOVE_NONE   UINT32_MAX /* Never a legal move in any game. */
#define BANYAN_MAX_MOVES   512        /* Bound on the number of legal moves in every game. */
#define BANYAN_MAX_PLAYERS 4          /* Bound on n_players. */

/* Random number generator state (xoshiro256**). Seed it with
 * banyan_rng_seed(); never share one between threads. */
typedef struct banyan_rng {
    uint64_t s[4];
} banyan_rng;

/* Next 64 random bits. Inline because rollouts call it once per move. */
static inline uint64_t banyan_rng_next(banyan_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* A random integer in [0, n), n >= 1, by Lemire's multiply-shift. The bias is
 * below n / 2^32, far under anything a search can notice, and the result is
 * the same on every platform. */
static inline uint32_t banyan_rng_below(banyan_rng *r, uint32_t n)
{
    return (uint32_t)(((banyan_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* splitmix64's finaliser: a bijection of 64-bit words that spreads every
 * input bit over the output. Games build Zobrist keys and hashes with it. */
static inline uint64_t banyan_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Seeds *r from (seed, stream) through splitmix64, so that workers given the
 * same seed and different stream numbers draw independent sequences. */
void banyan_rng_seed(banyan_rng *r, uint64_t seed, uint64_t stream);

/* Rules a front-end keeps beside moves() (banyan_game.rules, a bit set). */
#define BANYAN_RULE_SUPERKO                                                                        \
    0x01u /* Positional superko: a move may not make the board (the pieces of                      \
             piece()) equal to one it had earlier in the game. Game records                        \
             refuse such a move; the search sees only what moves() allows, which                   \
             is simple ko at most, since a state holds no history. */

/* Results of banyan_tactics.solve for the player to move; the values of the
 * matching banyan_proof (banyan.h). */
#define BANYAN_SOLVE_UNKNOWN 0 /* Not solved: out of reach, or the budget ran out. */
#define BANYAN_SOLVE_WIN     1
#define BANYAN_SOLVE_LOSS    2
#define BANYAN_SOLVE_DRAW    3

/* *score of banyan_tactics.solve when the solver proved the result (win or
 * loss) but not its score. */
#define BANYAN_SOLVE_NO_SCORE (-0x7fffffff - 1)

/* For a solve hook: whether the solver, having visited `visited` positions,
 * must give up: the budget is spent, or *stop (when not NULL) is set, which
 * it reads once in 4,096 positions. */
static inline bool banyan_solve_halted(uint64_t visited, uint64_t budget, const _Atomic int *stop)
{
    return visited > budget ||
           (!(visited & 4095) && stop && atomic_load_explicit(stop, memory_order_relaxed));
}

/* Kinds of place a move has on a board (banyan_board.place). */
#define BANYAN_PLACE_NONE   0 /* Not a move of this board. */
#define BANYAN_PLACE_CELL   1 /* A cell: a stone, a disc or a mark is put there. */
#define BANYAN_PLACE_COLUMN 2 /* A column of a dropping game (Connect Four). */
#define BANYAN_PLACE_PASS   3 /* No piece: the turn passes. */

/* Coordinate systems, beside the game's own notation, that front-ends may
 * write a game's moves in (banyan_board.coords, a bit set). Each is worked
 * out from place() and place_move(), so a game only says which apply. */
#define BANYAN_COORDS_POINT                                                                        \
    0x01u /* "c3": column letter a.. from the left (i included), row                               \
             number from the bottom. */
#define BANYAN_COORDS_GTP                                                                          \
    0x02u                      /* GTP vertices: letters A..Z without I, row number from the        \
                                  bottom; "pass". */
#define BANYAN_COORDS_XY 0x04u /* Gomocup "X,Y": column and row from the top-left, from 0. */
#define BANYAN_COORDS_SGF                                                                          \
    0x08u                          /* SGF points "cd": column and row letters from the top-left;   \
                                      a pass is empty. */
#define BANYAN_COORDS_COLUMN 0x10u /* A column: a letter a.. or a digit 1.. from the left. */

/* Types of game parameter. */
#define BANYAN_PARAM_INT    1 /* A decimal integer in [min, max]. */
#define BANYAN_PARAM_CHOICE 2 /* One of the words of choices. */
#define BANYAN_PARAM_NUMBER 3 /* A decimal number (7, 6.5, -0.5) in [min, max]. */

/* What a parameter means to front-ends (banyan_param.role, a bit set), so
 * that a protocol's "board size" or "rule" reaches the right key. */
#define BANYAN_ROLE_WIDTH  0x01u /* Sets the board's width (GTP boardsize, Gomocup START). */
#define BANYAN_ROLE_HEIGHT 0x02u /* Sets the board's height. */
#define BANYAN_ROLE_RULE                                                                           \
    0x04u                      /* Chooses the rule set; its choices use the protocols'             \
                                  common names where one exists (freestyle, standard,              \
                                  renju). */
#define BANYAN_ROLE_KOMI 0x08u /* The points added to the second player's score (GTP komi). */

/* One parameter of a game, as setup() reads it from "key=value". */
typedef struct banyan_param {
    const char *name;    /* The key. NULL ends a table. */
    int type;            /* BANYAN_PARAM_INT or BANYAN_PARAM_CHOICE. */
    long min, max;       /* INT and NUMBER: the accepted range. */
    const char *choices; /* CHOICE: the accepted words, separated by '|'. */
    const char *def;     /* The value when the key is not given, as text. */
    unsigned role;       /* BANYAN_ROLE_* bits, or 0. */
    const char *help;    /* One line for people. */
    const char *plain;   /* The value that gives the plain textbook search (uniform
                            rollouts, no priors, no provers, every move a candidate), or
                            NULL when the default is plain already. */
} banyan_param;

/* One parameter's value as banyan_params_read() gives it, by the
 * parameter's type. */
typedef union banyan_value {
    long i;     /* BANYAN_PARAM_INT: the whole number. */
    double x;   /* BANYAN_PARAM_NUMBER: the number. */
    int choice; /* BANYAN_PARAM_CHOICE: the word's place among choices, from 0. */
} banyan_value;

/* Reads a parameter string against a parameter table, for a game's
 * setup(): out[i] receives the value of table[i] (the table ends with an
 * entry whose name is NULL), from params where it gives the key (the last
 * one given wins) and else from the entry's default. params is "key=value"
 * pairs separated by spaces or commas as banyan_params_next() reads them
 * (NULL or "": every default), each value read as banyan_params_check()
 * reads it: INT a whole decimal number in [min, max], NUMBER a decimal
 * number (7, 6.5, -0.5) in [min, max], CHOICE one of the words. Returns
 * BANYAN_OK, or BANYAN_EINVAL for a malformed pair, a key the table lacks,
 * a value not of its parameter's type and range, a default that is not,
 * or a NULL out; out may then be partly written. table and params are
 * borrowed; out has room for one value per entry of the table (a NULL
 * table has none and refuses every key). Thread-safe. */
int banyan_params_read(const banyan_param *table, const char *params, banyan_value *out);

/* One entry of the fixed list `banyan bench` runs for a built-in game
 * (banyan_game_bench()): a search of a position (one thread, the default
 * seed), whose node count adds to the bench signature, and raw rollouts
 * from it for the speed lines. The list is the library's own test data,
 * not part of a game's description. */
typedef struct banyan_bench {
    const char *params;   /* Parameters ("" for the defaults). */
    const char *position; /* In the game's position notation ("" for the start). */
    uint64_t playouts;    /* Playouts of the search; 0: no search. */
    uint64_t rollouts;    /* Raw rollouts timed for the speed lines; 0: none. Both 0 ends a
                             list. */
} banyan_bench;

/*
 * A game table and each of its parts begin with their size, which the
 * initialiser macros set inside a designated initialiser:
 *
 *     static const banyan_board my_board = {BANYAN_BOARD_INIT, .board_size = ...};
 *     const banyan_game my_game = {BANYAN_GAME_INIT, .name = "mine", ...,
 *                                  .board = &my_board};
 *
 * Members are only ever appended. The library reads a table (or part) of a
 * smaller size, made against an older header, as if the members it lacks
 * were NULL or 0; banyan_game_check() refuses a size of 0 (a table not made
 * with the macro) and one larger than the library's own (a game built
 * against a newer header), each with a sentence.
 */
#define BANYAN_GAME_INIT     .size = sizeof(banyan_game)
#define BANYAN_TACTICS_INIT  .size = sizeof(banyan_tactics)
#define BANYAN_NOTATION_INIT .size = sizeof(banyan_notation)
#define BANYAN_BOARD_INIT    .size = sizeof(banyan_board)
#define BANYAN_LEARNING_INIT .size = sizeof(banyan_learning)

/*
 * The tactics part: what a game knows beyond its rules that makes the
 * search sharper: the moves worth considering, exact provers and an exact
 * solver, and the budgets the search gives them. Optional, each member:
 * NULL or 0 means none (a budget of 0: the engine's default, given beside
 * it, which was measured on the game named there).
 */
typedef struct banyan_tactics {
    size_t size; /* sizeof(banyan_tactics), by BANYAN_TACTICS_INIT. */

    /* Writes to out the moves the search should consider in s and
     * returns their number: a subset of moves(), in the same fixed order,
     * never empty while the game goes on (Gomoku: empty cells near stones).
     * Legality is always moves(); NULL means the search considers every
     * legal move. When the candidates are fewer than the legal moves, the
     * solver never concludes that every move loses. */
    int (*candidates)(const void *s, banyan_move *out);

    /* A fast exact prover for the player to move (in Gomoku, a
     * victory-by-continuous-fours search), bounded by its own budget: returns
     * true with *out set to a winning move only when the win is certain, and
     * false when it proves nothing. The engine calls it on the root and on
     * every node it expands, and turns each proof into an MCTS-Solver win.
     * Two-player games only. NULL means none. */
    bool (*prove_win)(const void *s, banyan_move *out);

    /* A slower, deeper prover with the contract of prove_win (in
     * Gomoku, victory by continuous threats: fours and open threes), which
     * the engine calls only where prove_win found nothing on the root and on
     * the root's children: where a proof changes the move played, or shows
     * the opponent's win after it. effort bounds the work (in Gomoku, the
     * positions visited): the engine gives the root more than a child
     * (root_effort, deep_effort below).
     * seconds, when positive, bounds it in wall time as well: a search
     * limited in time passes what its clock allows, and a call past it
     * stops with what it proved by then (the engine knows the game's rate
     * only by position counts, which vary several times from one position
     * to another); 0 means no time bound, so that a search without one is
     * reproducible.
     * mem is mem_size bytes of working memory that belong to the calling
     * thread: zeroed before its first call and left as the last call left
     * it, so the game may keep a table there across calls (NULL when
     * mem_size is 0). NULL means none. */
    bool (*prove_win_deep)(const void *s, uint32_t effort, double seconds, void *mem,
                           banyan_move *out);

    /* The candidates of s less the moves that a deeper analysis
     * proves lost (in Gomoku: moves after which the opponent still wins by
     * continuous fours or threats), in the order of candidates(). The
     * engine calls it on the root only, before the search, and marks the
     * moves it drops proven lost. It must drop only moves it proves lost,
     * and returns all the candidates when it would drop every one. effort
     * and seconds bound the work as for prove_win_deep (the engine gives
     * both the same effort), and mem is as there. NULL means none. */
    int (*candidates_deep)(const void *s, uint32_t effort, double seconds, void *mem,
                           banyan_move *out);

    /* An exact solver (in Connect Four and Othello, alpha-beta
     * to the end of the game) for s, a game that goes on, from the point of
     * view of the player to move. budget bounds the work (positions
     * visited); the game returns BANYAN_SOLVE_UNKNOWN at once for a
     * position it judges beyond the budget's reach (in Othello, too many
     * empty squares), and when the budget runs out or, stop not being
     * NULL, *stop becomes non-zero (the engine passes its stop flag on the
     * root, where budgets are large; banyan_solve_halted() tells both).
     * Otherwise it returns
     * BANYAN_SOLVE_WIN, _DRAW or _LOSS, with *score the exact score for the
     * player to move (a game with a score: Othello's final disc difference;
     * a game without one: positive for a win, larger for a quicker win, and
     * negative for a loss, larger for a longer one; 0 for a draw) and *best
     * a legal move that reaches it (among equal scores the game's choice,
     * always the same for a position: in Connect Four the first in the
     * order of moves(), in Othello the one its last test proved). A
     * solver that proved a win or a loss without its score (an opening
     * book, or a search that told a win from a loss but ran out of budget
     * before the margin) sets *score to BANYAN_SOLVE_NO_SCORE; then *best
     * keeps the result (any move, in a loss). mem as for prove_win_deep.
     * The engine calls it on the root
     * before the search, then on each root child, so that the move played
     * is the exact best (the largest margin among wins), and on the nodes
     * it expands with a smaller budget (solve_node below), turning each
     * answer into an MCTS-Solver proof. Two-player zero-sum games only.
     * NULL means none. */
    int (*solve)(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                 banyan_move *best, int *score);

    /* An optional fast path of prove_win and candidates, with both: the two
     * in one call, for the nodes the engine expands below the root, so that
     * a game may share their work and carry what one expansion learned to
     * the next. Returns -1 with *win set where prove_win would return true
     * with it, and otherwise writes candidates()'s moves to out and returns
     * their number: the same answers as the two calls, only sooner. mem is
     * the calling thread's mem_size bytes, as for prove_win_deep (NULL when
     * mem_size is 0). NULL: the engine calls prove_win, then candidates. */
    int (*expand)(const void *s, void *mem, banyan_move *win, banyan_move *out);

    /* Bytes of working memory prove_win_deep, candidates_deep, solve and
     * expand need (see prove_win_deep); the engine gives each search thread
     * its own block, outside the node arena. 0: none. */
    size_t mem_size;

    /* ---- The budgets of these hooks (0: the default given) ---- */

    /* A root child gets prove_win_deep once it has deep_visits visits (64)
     * and either at least 1 / deep_share (32) of the root's or more than
     * any other root child had, so that only the few children the search
     * keeps choosing pay for it. It gets deep_effort (10,000; in Gomoku's
     * VCT about 1.7 ms) there, and the root before the search root_effort
     * (200,000; about 40 ms); a search limited in time gives the root
     * root_per_second (400,000) of its limit, within root_min (50,000) ..
     * root_max (500,000). */
    uint32_t deep_visits;
    uint32_t deep_share;
    uint32_t deep_effort;
    uint32_t root_effort;
    double root_per_second;
    uint32_t root_min;
    uint32_t root_max;

    /* The shares of a timed search's time that bound the root's deep
     * prover (root_time_share, 0.6) and then candidates_deep
     * (defend_time_share, 0.35) in seconds as well. */
    double root_time_share;
    double defend_time_share;

    /* solve's budgets: the positions it may visit on a node being expanded
     * (solve_node, 300: about 9 empty squares in Connect Four and Othello),
     * and on the root before the search: solve_per_second (2,500,000) of a
     * timed search's limit, within solve_root_min (100,000) ..
     * solve_root_max (40,000,000); one limited otherwise, solve_root
     * (4,000,000), the engine's config.solve_budget overriding it. The
     * root's budget is spent in calls of growing size from solve_slice
     * positions (250,000), none starting once solve_time_share (0.5) of
     * a timed search's time has gone. */
    uint64_t solve_node;
    uint64_t solve_root;
    uint64_t solve_root_min;
    uint64_t solve_root_max;
    double solve_per_second;
    uint64_t solve_slice;
    double solve_time_share;

    /* The final check of the move played by prove_win_deep: the moves it
     * may refute before the search plays one anyway (verify_tries, 3), the
     * share of a timed search kept for it (verify_share, 0.07), and the
     * rate (positions a second) that sizes its effort (verify_per_second,
     * 2,500,000). */
    int verify_tries;
    double verify_share;
    double verify_per_second;
} banyan_tactics;

/*
 * The notation part: how people and files write moves and positions
 * (front-ends use it; the search never calls it). Optional, each member
 * with a generic default.
 */
typedef struct banyan_notation {
    size_t size; /* sizeof(banyan_notation), by BANYAN_NOTATION_INIT. */

    /* Writes the standard notation of m (legal or not, but on the board) to
     * buf as a NUL-terminated string, snprintf-style: returns the length
     * the full text needs, and truncates to len-1 bytes. NULL: moves are
     * written as their decimal codes. */
    int (*format_move)(const void *s, banyan_move m, char *buf, size_t len);

    /* Parses one move in the game's notation (case and surrounding
     * spaces are ignored). Returns BANYAN_OK with *out set when the text
     * names a point on this board, whether or not it is legal now;
     * BANYAN_ERANGE when it is well-formed but off the board; BANYAN_EINVAL
     * when it is not a move at all. str is borrowed; *out is written only on
     * success. NULL: decimal move codes, as format_move writes them. */
    int (*parse_move)(const void *s, const char *str, banyan_move *out);

    /* Replaces *s by the position described by text, in the
     * game's position notation, played from the start position of the
     * parameters *s was set up with. Returns BANYAN_OK, or BANYAN_EINVAL
     * (malformed), BANYAN_ERANGE (off the board) or BANYAN_EILLEGAL (an
     * illegal move, or moves after the end of the game); *s is unchanged on
     * any error. NULL: a position is a list of moves from the start,
     * separated by spaces or commas, each read by parse_move. */
    int (*load)(void *s, const char *text);

    /* Draws s as a human-readable diagram with coordinates
     * (ending in a newline), snprintf-style like format_move. last, when not
     * BANYAN_MOVE_NONE, is the last move played and is marked. NULL: games
     * with a board (board part) are drawn from piece(); others print the
     * player to move. */
    int (*print)(const void *s, banyan_move last, char *buf, size_t len);

    /* ---- Appended after the first sized version ---- */

    /* Writes the game of moves[0 .. n-1], legal moves played in turn from s,
     * as a text load() reads back to the position it reaches: the game's
     * own file format where it has one (Morpion Solitaire: a Pentasol file,
     * its reference point first), snprintf-style. NULL: the moves in the
     * game's notation, one a line (which the default load() reads). */
    int (*write)(const void *s, const banyan_move *moves, int n, char *buf, size_t len);
} banyan_notation;

/*
 * The board part: the description front-ends read instead of knowing
 * games by name: the board and how moves sit on it, the coordinate systems,
 * the SGF game number. A domain without a board leaves
 * the part out (NULL); with it, board_size, place, place_move and piece are
 * required, the rest optional.
 */
typedef struct banyan_board {
    size_t size;     /* sizeof(banyan_board), by BANYAN_BOARD_INIT. */
    unsigned coords; /* BANYAN_COORDS_* the moves can be written in. */
    int sgf_game;    /* SGF's GM[] number (1 Go, 2 Othello, 4 Gomoku); 0: none. */

    /* The board of s: its width and height in cells. */
    void (*board_size)(const void *s, int *width, int *height);

    /* Where move m sits on the board of s: BANYAN_PLACE_CELL with *x (from
     * the left) and *y (from the top), both from 0; BANYAN_PLACE_COLUMN with
     * *x (a dropping game's column); BANYAN_PLACE_PASS; or BANYAN_PLACE_NONE
     * for a code that is no move of this board. */
    int (*place)(const void *s, banyan_move m, int *x, int *y);

    /* The inverse of place: the move of the given kind at (x, y), y ignored
     * for a column and both for a pass. Returns BANYAN_OK with *out set,
     * BANYAN_ERANGE for a place off the board, or BANYAN_EINVAL for a kind
     * of place the game does not have. Whether the move is legal now is for
     * moves() to say. */
    int (*place_move)(const void *s, int kind, int x, int y, banyan_move *out);

    /* The player whose piece stands on cell (x, y) of s, or -1 for an empty
     * cell (and for a cell off the board). */
    int (*piece)(const void *s, int x, int y);

    /* The cells of the line that won the game (a Gomoku five, Connect Four's
     * four), for front-ends to highlight: up to max of them into x[] (from
     * the left) and y[] (from the top). Returns their number, 0 while the
     * game is not won by a line. NULL: no game is won by a line. */
    int (*win_line)(const void *s, int *x, int *y, int max);

    /* Who owns cell (x, y) of s under the game's scoring, for s where the
     * game is over (a rollout's last position) or where it stands: a
     * player, or -1 for nobody (Go's area scoring: a stone's colour, an
     * empty point that only one colour's stones reach). The search averages
     * it over its simulations' last positions when banyan_config.ownership
     * is set. NULL: none. */
    int (*owner)(const void *s, int x, int y);
} banyan_board;

/*
 * The learning part: what a neural network reads beside the pieces.
 * Optional; requires the board part.
 */
typedef struct banyan_learning {
    size_t size; /* sizeof(banyan_learning), by BANYAN_LEARNING_INIT. */

    /* Extra input planes, beside the pieces and the side to move, which the
     * network reads from piece() and to_move(): what a game thinks a
     * network needs and cannot see in the pieces (Othello: the squares
     * where the player to move may play). With out NULL, returns their
     * number, the same for every position of a board; otherwise writes them
     * to out, plane after plane, each height rows from the top of width
     * cells from the left, and returns it too. NULL: none. */
    int (*planes)(const void *s, float *out);
} banyan_learning;

/*
 * The table that describes a game: its rules and what the search needs
 * (setup, moves, play, outcome and to_move required; rollout, playout,
 * priors, hash, is_valid, evaluate and score optional), what people read of
 * its moves and players (explain, player_names, score_unit), then one pointer per
 * optional part, NULL where the game has none of it: tactics (candidates,
 * provers, a solver and their budgets), notation, board and learning.
 * Optional functions may be NULL, and the engine then uses the default named
 * in the comment. All functions are pure functions of their arguments (no
 * global mutable state), so any number of threads may call them on
 * different states at once. banyan_game_check() says what a table lacks.
 */
typedef struct banyan_game {
    size_t size;       /* sizeof(banyan_game), by BANYAN_GAME_INIT. */
    const char *name;  /* Stable id used by the registry: "tictactoe", "connect4". */
    const char *title; /* For people: "Connect Four". NULL: the name. */
    size_t state_size; /* Bytes of a state, at the largest parameters. */
    int n_players;     /* 1 .. BANYAN_MAX_PLAYERS. */
    double reward_min; /* Bounds of a player's return; both 0 means [0, 1]. */
    double reward_max;
    const banyan_param *params; /* What setup() accepts, ended by an entry whose name is
                                   NULL; NULL: no parameters. */
    unsigned rules;             /* BANYAN_RULE_* bits. */
    /* Required. Initialises *s to the start position for the parameters
     * given as "key=value" pairs separated by spaces or commas (NULL or ""
     * selects the defaults). Returns BANYAN_OK, or BANYAN_EINVAL for an
     * unknown key or a value out of range; *s is then unspecified and must be
     * set up again before use. params is borrowed. */
    int (*setup)(void *s, const char *params);

    /* Required. Writes the legal moves of s to out (room for BANYAN_MAX_MOVES)
     * and returns their number, which is 0 exactly when the game is over. The
     * order is fixed for a given state, so searches are reproducible. */
    int (*moves)(const void *s, banyan_move *out);

    /* Required. Plays move m, which must be legal in s. */
    void (*play)(void *s, banyan_move m);

    /* Required. Returns true when the game is over and then writes every
     * player's return to returns[0 .. n_players-1]; returns false (and writes
     * nothing) while the game goes on. */
    bool (*outcome)(const void *s, double *returns);

    /* Required. The player to move, 0 .. n_players-1. */
    int (*to_move)(const void *s);

    /* Optional. Plays s to the end of the game with the game's fast policy.
     * NULL selects uniform random moves through moves() and play(). */
    void (*rollout)(void *s, banyan_rng *rng);

    /* Optional. A rollout that also says what it played: as rollout(),
     * writing the moves played, in order, to moves[0 .. max-1] (those after
     * the first max are played but not written), and returning how many it
     * wrote. The search uses it for RAVE (banyan_config.rave), which needs
     * to know every move of the simulation. NULL: the engine plays RAVE's
     * rollouts itself, uniformly through moves() and play(). */
    int (*playout)(void *s, banyan_rng *rng, banyan_move *moves, int max);

    /* Optional. Writes a prior probability for each of moves[0 .. n-1] (as
     * returned by moves()) to out; they need not sum to 1 exactly. NULL
     * selects uniform priors. */
    void (*priors)(const void *s, const banyan_move *moves, int n, float *out);

    /* Optional. A 64-bit hash of the position (equal positions, equal
     * hashes). NULL selects FNV-1a over the state's bytes (banyan_game_hash). */
    uint64_t (*hash)(const void *s);

    /* Optional. Checks the state's internal invariants; used by debug builds
     * and tests. NULL means no check. */
    bool (*is_valid)(const void *s);

    /* Optional. A static evaluation of s, a game that goes on: writes each
     * player's expected return (inside [reward_min, reward_max]) to
     * returns[0 .. n_players-1]. When priors is not NULL the function may
     * also write a prior for each of moves[0 .. n-1] and return true; it
     * returns false when it wrote no priors (the engine then uses priors()).
     * returns is NULL when the engine asks for the priors alone (at an
     * expansion), so that no value need be worked out for nothing.
     * The search uses it at its leaves instead of a rollout, or after a
     * rollout cut short, as banyan_config.leaf says. NULL: rollouts only. */
    bool (*evaluate)(const void *s, double *returns, const banyan_move *moves, int n,
                     float *priors);

    /* Optional. For a game with a score (Othello's discs, Go's area): the
     * score of s for player 0 (positive when player 0 is ahead, negative
     * when behind), final once the game is over, as it stands while it goes
     * on. Front-ends report it (GTP final_score). NULL: the game has no
     * score beyond its outcome. */
    double (*score)(const void *s);

    /* Why move m is not legal in s, for people: a sentence without the
     * move's name ("is occupied", "is forbidden for Black (double three)",
     * "is full"), snprintf-style. NULL, or a return of 0: "is not legal
     * here". Only called for a move that moves() lacks. */
    int (*explain)(const void *s, banyan_move m, char *buf, size_t len);

    /* For people: the players' names ("Black", "White"; "Red", "Yellow"),
     * player 0 first. NULL: "X" and "O" for two players, "player 1"... */
    const char *const *player_names;
    /* For people: what the score counts ("points", "discs"). NULL: none
     * said ("Black wins by 3"). Only read with score. */
    const char *score_unit;

    /* ---- The parts, each NULL where the game has none of it ---- */
    const banyan_tactics *tactics;   /* Candidates, provers, a solver, their budgets. */
    const banyan_notation *notation; /* How moves and positions are written. */
    const banyan_board *board;       /* The board, for front-ends. */
    const banyan_learning *learning; /* Input planes for a neural network. */

    /* ---- Appended after the first sized version ---- */

    /* Optional. The code of move m in s for the policies of nested rollout
     * policy adaptation (banyan_solo_run with BANYAN_SOLO_NRPA): moves that
     * get equal codes share one weight, so a code says what a move means
     * wherever it is played (Morpion: the line drawn, which is the move
     * itself; a route: the arc, from the city the route stands at to the
     * city it goes to next). Only called for legal moves. NULL: the move's
     * own code. */
    uint64_t (*move_code)(const void *s, banyan_move m);
} banyan_game;

/* The games built into libbanyan. */
extern const banyan_game banyan_game_tictactoe; /* m,n,k-games; 3,3,3 by default. */
extern const banyan_game banyan_game_connect4;  /* Connect Four, 7 wide, 6 high. */
extern const banyan_game banyan_game_gomoku;    /* Gomoku, 15x15 freestyle by default. */
extern const banyan_game banyan_game_othello;   /* Othello (Reversi), 8x8. */
extern const banyan_game banyan_game_go;        /* Go, 9x9 to 19x19, area scoring. */
extern const banyan_game banyan_game_morpion;   /* Morpion Solitaire, 5T or 5D; one player. */

/* The list of positions `banyan bench` searches for g, a built-in game
 * (the library's own test data), ended by an entry whose playouts and
 * rollouts are 0; NULL for any other game. */
const banyan_bench *banyan_game_bench(const banyan_game *g);

/* Says what a game table lacks: NULL when the engine can use it, else a
 * static sentence naming the first missing or inconsistent part ("moves()
 * is missing: the search needs it"). banyan_engine_new() refuses exactly the
 * tables this finds fault with. */
const char *banyan_game_check(const banyan_game *g);

/* The parameter key of g, or NULL when g has no such parameter. key is
 * borrowed. */
const banyan_param *banyan_game_param(const banyan_game *g, const char *key);

/* The value params gives key (the last one given wins), or else the
 * parameter's default, into out[len]. Returns BANYAN_OK, BANYAN_EINVAL when
 * g has no parameter key, or BANYAN_ERANGE when out is too small. params
 * and key are borrowed. */
int banyan_params_value(const banyan_game *g, const char *params, const char *key, char *out,
                        size_t len);

/* Checks params against g's parameter table: every key known, every value
 * of its type and range. Returns BANYAN_OK, or BANYAN_EINVAL with a
 * sentence in why[len] ("rule must be one of freestyle|standard|renju, not
 * \"x\""). A game without a table accepts what its setup() accepts, so
 * this then checks only the syntax. params is borrowed. */
int banyan_params_check(const banyan_game *g, const char *params, char *why, size_t len);

/*
 * Notation through the description. coords is 0 for the game's own notation
 * (format_move, parse_move, print, or their defaults) or one BANYAN_COORDS_*
 * bit; a system the game does not list in its board part's coords is BANYAN_EINVAL. s is
 * the position the move is played in (borrowed). Text is written
 * snprintf-style: the length the full text needs, or a negative code.
 */
int banyan_game_format(const banyan_game *g, const void *s, banyan_move m, unsigned coords,
                       char *buf, size_t len);

/* Parses one move written in coords (0: the game's own notation). Returns
 * BANYAN_OK with *out set for a move of this board, legal now or not;
 * BANYAN_ERANGE for a well-formed place off the board; BANYAN_EINVAL for
 * text that is no move in that system. text is borrowed. */
int banyan_game_parse(const banyan_game *g, const void *s, unsigned coords, const char *text,
                      banyan_move *out);

/* Why banyan_game_parse refuses text in coords (0: the game's notation),
 * where there is more to say than its status code: a sentence into buf,
 * snprintf-style. Today that is GTP's missing column I ("I is not a Go
 * column (GTP skips I)"), for the GTP system and for a notation that reads
 * GTP vertices. Writes "" and returns 0 otherwise (a move, a place off the
 * board, or text that is no move at all). text is borrowed. */
int banyan_game_parse_why(const banyan_game *g, const void *s, unsigned coords, const char *text,
                          char *buf, size_t len);

/* Why move m, which moves(s) lacks, is not legal: the game's explain() or
 * "is not legal here" (or "the game is over"), without the move's name, into
 * buf (snprintf-style). */
int banyan_game_explain(const banyan_game *g, const void *s, banyan_move m, char *buf, size_t len);

/* The cells of the line that won s (banyan_board.win_line) into x[], y[]
 * (room for max); their number, or 0 when the game has no such line or no
 * hook. */
int banyan_game_win_line(const banyan_game *g, const void *s, int *x, int *y, int max);

/* The hash of s: the game's hash(), or FNV-1a over its state_size bytes
 * when it has none (states are plain bytes, padding zeroed by setup). */
uint64_t banyan_game_hash(const banyan_game *g, const void *s);

/* The name of player p of g, for people: the game's player_names, or "X"
 * and "O" for two players, "player 1" to "player 4" otherwise. Never NULL. */
const char *banyan_game_player(const banyan_game *g, int p);

/* Forms of banyan_game_result. */
#define BANYAN_RESULT_TEXT 0 /* For people: "Black wins by 3.5 points", "a draw". */
#define BANYAN_RESULT_SGF  1 /* SGF's RE: "B+3.5", "W+", "0" (a draw). */

/* The result of s, a position where the game is over, into buf
 * (snprintf-style) in form BANYAN_RESULT_*: the winner and, for a game
 * with a score, the margin (score, score_unit). Writes "" and returns 0
 * while the game goes on; SGF's form is "" for a game of one player or
 * more than two. */
int banyan_game_result(const banyan_game *g, const void *s, int form, char *buf, size_t len);

/* Whether m is among the legal moves of s (moves() lists it). g and s are
 * borrowed. */
bool banyan_game_is_legal(const banyan_game *g, const void *s, banyan_move m);

/* load, or its default (a move list from the start), with load's contract. */
int banyan_game_load(const banyan_game *g, void *s, const char *text);

/* The game of moves[0 .. n-1] (legal moves played in turn from s) as a
 * text: the game's write(), which banyan_game_load() reads back, or else
 * its moves in its notation, one a line; snprintf-style (the length the
 * whole text needs, or BANYAN_EINVAL). */
int banyan_game_write(const banyan_game *g, const void *s, const banyan_move *moves, int n,
                      char *buf, size_t len);

/* A diagram of s with last marked (BANYAN_MOVE_NONE: none), snprintf-style.
 * coords 0 is the game's own print (or the default drawing); a
 * BANYAN_COORDS_* bit draws the board from piece() with that system's labels
 * on the columns and rows: 'X' for player 0, 'O' for player 1, digits for
 * others, '.' for an empty cell, the last move in parentheses, and the
 * pieces of the line that won the game (win_line) in lower case. */
int banyan_game_print(const banyan_game *g, const void *s, banyan_move last, unsigned coords,
                      char *buf, size_t len);

/* Looks a built-in game up by name ("tictactoe", also "mnk"; "connect4",
 * also "c4"), case-insensitively. Returns NULL when there is none. name is
 * borrowed. */
const banyan_game *banyan_game_find(const char *name);

/* The built-in games, for listing: *n_out receives their number. The array
 * is static and never changes. */
const banyan_game *const *banyan_game_list(int *n_out);

/*
 * Parameter strings. banyan_params_next() walks "key=value" pairs separated
 * by spaces or commas: on each call it copies the next key and value into
 * key[klen] and val[vlen] and returns 1, returns 0 at the end, and returns
 * BANYAN_EINVAL for a pair without '=', an empty key or value, or a key or
 * value too long for its buffer. *cursor starts at the parameter string
 * (which may be NULL) and is advanced; the string is borrowed.
 */
int banyan_params_next(const char **cursor, char *key, size_t klen, char *val, size_t vlen);

/* Parses a decimal integer in [lo, hi] that fills the whole of text.
 * Returns BANYAN_OK with *out set, or BANYAN_EINVAL. */
int banyan_parse_int(const char *text, long lo, long hi, long *out);

/* The one allocation hook, with the contract of Lua's lua_Alloc: called as
 * alloc(ud, NULL, n) to allocate, alloc(ud, p, n) to resize and
 * alloc(ud, p, 0) to free (returning NULL). Returns NULL on failure. NULL
 * where a hook is asked for means realloc and free. */
typedef void *banyan_alloc_fn(void *ud, void *ptr, size_t nsize);

/*
 * Counts the positions exactly depth plies after s (perft) into *count.
 * Games that end earlier add nothing. The state is not modified. Takes
 * (depth + 1) * state_size bytes of scratch through alloc (NULL: realloc)
 * for the duration of the call. Returns BANYAN_OK; BANYAN_EINVAL for a NULL
 * argument or a depth outside 1 .. 64; BANYAN_ENOMEM when the scratch cannot
 * be had. s is borrowed.
 */
int banyan_perft(const banyan_game *g, const void *s, int depth, banyan_alloc_fn *alloc, void *ud,
                 uint64_t *count);

/* Plays random games from s (not modified) n times with the given rng,
 * using the game's rollout() when it has one and uniformly random moves
 * otherwise, in scratch (state_size bytes of the caller's). Writes the sum
 * of each player's raw returns to sums[0 .. n_players-1] (may be NULL).
 * Returns BANYAN_OK, or BANYAN_EINVAL for a NULL g, s, rng or scratch. Used
 * by bench and by tests of the random-play statistics. */
int banyan_random_games(const banyan_game *g, const void *s, uint64_t n, banyan_rng *rng,
                        void *scratch, double *sums);

#endif /* BANYAN_GAME_H */
