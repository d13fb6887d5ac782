/*
 * fuzz_game.c - libFuzzer target for every game's text parsers: parameters,
 * moves and positions. The first byte picks the game and a parameter set;
 * the rest is the text, fed to setup, the parameter check, the move parser
 * in the game's notation and in every coordinate system (each move parsed
 * must format back to itself), and load. A position that loads is then
 * printed in every system, its moves listed and formatted, and perft 1 run,
 * so any state a parser lets through is exercised. The parameter text is
 * also read against the game's table by banyan_params_read, which must
 * accept exactly what banyan_params_check accepts, and whatever setup
 * accepts.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fuzz_params[] = {"", "m=3 n=3 k=3", "m=19 n=19 k=5", "m=7,n=6,k=4",
                                          "m=1 n=1 k=1"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n_games;
    const banyan_game *const *games = banyan_game_list(&n_games);
    if (size < 1)
        return 0;
    const banyan_game *g = games[data[0] % n_games];
    const char *params = fuzz_params[(data[0] / n_games) % 5];
    char *text = malloc(size);
    void *s = malloc(g->state_size), *t = malloc(g->state_size);
    if (!text || !s || !t)
        goto done;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;

    /* Parameters from the fuzzer: the table's reader, the check and setup
     * agree; then the chosen valid set. */
    int n_params = 0;
    while (g->params && g->params[n_params].name)
        n_params++;
    banyan_value values[32];
    if (g->params && n_params <= 32) {
        bool read = banyan_params_read(g->params, text, values) == BANYAN_OK;
        if (read != (banyan_params_check(g, text, NULL, 0) == BANYAN_OK))
            abort(); /* The reader and the check disagree. */
        if (g->setup(s, text) == BANYAN_OK && !read)
            abort(); /* setup() took what the table refuses. */
    } else {
        g->setup(s, text);
    }
    if (g->setup(s, params) != BANYAN_OK && g->setup(s, "") != BANYAN_OK)
        goto done;

    banyan_move m = BANYAN_MOVE_NONE, moves[BANYAN_MAX_MOVES];
    char buf[8192];
    uint64_t count;
    if (banyan_game_parse(g, s, 0, text, &m) == BANYAN_OK)
        banyan_game_format(g, s, m, 0, buf, sizeof buf);

    /* The same text in every coordinate system the game has; a move that
     * parses must format back to text that parses to the same move. */
    for (unsigned c = 1; c <= BANYAN_COORDS_COLUMN; c <<= 1) {
        banyan_move mc, back;
        if (banyan_game_parse(g, s, c, text, &mc) != BANYAN_OK)
            continue;
        if (banyan_game_format(g, s, mc, c, buf, sizeof buf) < 0 ||
            banyan_game_parse(g, s, c, buf, &back) != BANYAN_OK || back != mc)
            abort();
    }

    memcpy(t, s, g->state_size);
    if (banyan_game_load(g, t, text) == BANYAN_OK) {
        banyan_game_print(g, t, m, 0, buf, sizeof buf);
        for (unsigned c = 1; c <= BANYAN_COORDS_COLUMN; c <<= 1)
            banyan_game_print(g, t, m, c, buf, sizeof buf);
        int n = g->moves(t, moves);
        for (int i = 0; i < n; i++)
            banyan_game_format(g, t, moves[i], 0, buf, sizeof buf);
        banyan_perft(g, t, 1, NULL, NULL, &count);
        banyan_game_hash(g, t);
        if (g->is_valid && !g->is_valid(t))
            abort(); /* A parser let an invalid state through. */
    } else if (memcmp(s, t, g->state_size) != 0) {
        abort(); /* A failed load must leave the state unchanged. */
    }
    banyan_params_check(g, text, buf, sizeof buf);
done:
    free(text);
    free(s);
    free(t);
    return 0;
}
