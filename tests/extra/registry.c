/*
 * registry.c - the registry of the test program build/<mode>/banyan-extra:
 * the built-in games plus the test game of lines.c, one line. Linked ahead
 * of libbanyan.a, its banyan_game_find, banyan_game_list and
 * banyan_game_bench stand in for the library's (games/games.c), so the program itself is unchanged.
 */
#include <ctype.h>
#include <stddef.h>

#include "banyan_game.h"

extern const banyan_game test_game_lines;
extern const banyan_bench games_bench_tictactoe[], games_bench_connect4[], games_bench_gomoku[],
    games_bench_lines[];

static const banyan_game *const registry_all[] = {
    &banyan_game_tictactoe, &banyan_game_connect4, &banyan_game_gomoku,
    &test_game_lines, /* The one line a new game adds. */
};

static const banyan_bench *const registry_bench[] = {
    games_bench_tictactoe,
    games_bench_connect4,
    games_bench_gomoku,
    games_bench_lines,
};

static int registry_same(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const banyan_game *banyan_game_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof registry_all / sizeof registry_all[0]; i++)
        if (registry_same(name, registry_all[i]->name))
            return registry_all[i];
    return NULL;
}

const banyan_game *const *banyan_game_list(int *n_out)
{
    if (n_out)
        *n_out = (int)(sizeof registry_all / sizeof registry_all[0]);
    return registry_all;
}

const banyan_bench *banyan_game_bench(const banyan_game *g)
{
    for (size_t i = 0; g && i < sizeof registry_all / sizeof registry_all[0]; i++)
        if (g == registry_all[i])
            return registry_bench[i];
    return NULL;
}
