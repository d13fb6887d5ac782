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

typedef uint32_t banyan_move;         /* Game-defined encoding, below BANYAN_MAX_MOVES*8. */
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

/* Seeds *r from (seed, stream) through splitmix64, so that workers given the
 * same seed and different stream numbers draw independent sequences. */
void banyan_rng_seed(banyan_rng *r, uint64_t seed, uint64_t stream);

/*
 * The table of functions that describes a game. Functions marked "required"
 * must be present; optional ones may be NULL and the engine then uses the
 * generic default named in the comment. All functions are pure functions of
 * their arguments (no global mutable state), so any number of threads may
 * call them on different states at once.
 */
typedef struct banyan_game {
    const char *name;  /* Stable id used by the registry: "tictactoe", "connect4". */
    size_t state_size; /* Bytes of a state, at the largest parameters. */
    int n_players;     /* 1 .. BANYAN_MAX_PLAYERS. */
    double reward_min; /* Bounds of a player's return; both 0 means [0, 1]. */
    double reward_max;

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

    /* Required. Writes the standard notation of m (legal or not, but on the
     * board) to buf as a NUL-terminated string, snprintf-style: returns the
     * length the full text needs, and truncates to len-1 bytes. */
    int (*format_move)(const void *s, banyan_move m, char *buf, size_t len);

    /* Required. Parses one move in the game's notation (case and surrounding
     * spaces are ignored). Returns BANYAN_OK with *out set when the text
     * names a point on this board, whether or not it is legal now;
     * BANYAN_ERANGE when it is well-formed but off the board; BANYAN_EINVAL
     * when it is not a move at all. str is borrowed; *out is written only on
     * success. */
    int (*parse_move)(const void *s, const char *str, banyan_move *out);

    /* Required. Replaces *s by the position described by text, in the game's
     * position notation, played from the start position of the parameters
     * *s was set up with. Returns BANYAN_OK, or BANYAN_EINVAL (malformed),
     * BANYAN_ERANGE (off the board) or BANYAN_EILLEGAL (an illegal move, or
     * moves after the end of the game); *s is unchanged on any error. */
    int (*load)(void *s, const char *text);

    /* Required. Draws s as a human-readable diagram with coordinates (ending
     * in a newline), snprintf-style like format_move. last, when not
     * BANYAN_MOVE_NONE, is the last move played and is marked. */
    int (*print)(const void *s, banyan_move last, char *buf, size_t len);

    /* Optional. Plays s to the end of the game with the game's fast policy.
     * NULL selects uniform random moves through moves() and play(). */
    void (*rollout)(void *s, banyan_rng *rng);

    /* Optional. Writes a prior probability for each of moves[0 .. n-1] (as
     * returned by moves()) to out; they need not sum to 1 exactly. NULL
     * selects uniform priors. */
    void (*priors)(const void *s, const banyan_move *moves, int n, float *out);

    /* Optional. A 64-bit hash of the position (equal positions, equal
     * hashes). NULL selects FNV-1a over the state's bytes. */
    uint64_t (*hash)(const void *s);

    /* Optional. Checks the state's internal invariants; used by debug builds
     * and tests. NULL means no check. */
    bool (*is_valid)(const void *s);

    /* Optional. Writes to out the moves the search should consider in s and
     * returns their number: a subset of moves(), in the same fixed order,
     * never empty while the game goes on (Gomoku: empty cells near stones).
     * Legality is always moves(); NULL means the search considers every
     * legal move. When the candidates are fewer than the legal moves, the
     * solver never concludes that every move loses. */
    int (*candidates)(const void *s, banyan_move *out);

    /* Optional. A fast exact prover for the player to move (in Gomoku, a
     * victory-by-continuous-fours search), bounded by its own budget: returns
     * true with *out set to a winning move only when the win is certain, and
     * false when it proves nothing. The engine calls it on the root and on
     * every node it expands, and turns each proof into an MCTS-Solver win.
     * Two-player games only. NULL means none. */
    bool (*prove_win)(const void *s, banyan_move *out);

    /* Optional. A slower, deeper prover with the contract of prove_win (in
     * Gomoku, victory by continuous threats: fours and open threes), which
     * the engine calls only where prove_win found nothing on the root and on
     * the root's children: where a proof changes the move played, or shows
     * the opponent's win after it. NULL means none. */
    bool (*prove_win_deep)(const void *s, banyan_move *out);
} banyan_game;

/* The games built into libbanyan. */
extern const banyan_game banyan_game_tictactoe; /* m,n,k-games; 3,3,3 by default. */
extern const banyan_game banyan_game_connect4;  /* Connect Four, 7 wide, 6 high. */
extern const banyan_game banyan_game_gomoku;    /* Gomoku, 15x15 freestyle by default. */

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

/*
 * Counts the positions exactly depth plies after s (perft). Games that end
 * earlier add nothing. The state is not modified. Allocates (depth + 1) * state_size
 * bytes of scratch with malloc for the duration of the call; depth must
 * be at most 64. Returns the count, or 0 for depth 0, a finished game or an
 * allocation failure.
 */
uint64_t banyan_perft(const banyan_game *g, const void *s, int depth);

/* Plays uniformly random games from s (not modified) n times with the given
 * rng, using the game's rollout() when it has one. Writes the sum of each
 * player's raw returns to sums[0 .. n_players-1] (may be NULL). Used by bench
 * and by tests of the random-play statistics. */
void banyan_random_games(const banyan_game *g, const void *s, uint64_t n, banyan_rng *rng,
                         double *sums);

#endif /* BANYAN_GAME_H */
