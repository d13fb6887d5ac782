/*
 * fuzz_game.c - libFuzzer target for every game's text parsers: parameters,
 * moves and positions. The first byte picks the game and a parameter set;
 * the rest is the text, fed to setup, parse_move and load. A position that
 * loads is then printed, its moves listed and formatted, and perft 1 run, so
 * any state a parser lets through is exercised. Only crashes and sanitizer
 * reports count.
 */
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

    /* Parameters from the fuzzer, then the chosen valid set. */
    g->setup(s, text);
    if (g->setup(s, params) != BANYAN_OK && g->setup(s, "") != BANYAN_OK)
        goto done;

    banyan_move m = BANYAN_MOVE_NONE, moves[BANYAN_MAX_MOVES];
    char buf[8192];
    if (g->parse_move(s, text, &m) == BANYAN_OK)
        g->format_move(s, m, buf, sizeof buf);

    memcpy(t, s, g->state_size);
    if (g->load(t, text) == BANYAN_OK) {
        g->print(t, m, buf, sizeof buf);
        int n = g->moves(t, moves);
        for (int i = 0; i < n; i++)
            g->format_move(t, moves[i], buf, sizeof buf);
        banyan_perft(g, t, 1);
        if (g->hash)
            g->hash(t);
        if (g->is_valid && !g->is_valid(t))
            abort(); /* A parser let an invalid state through. */
    } else if (memcmp(s, t, g->state_size) != 0) {
        abort(); /* A failed load must leave the state unchanged. */
    }
done:
    free(text);
    free(s);
    free(t);
    return 0;
}
