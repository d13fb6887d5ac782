/*
 * registry.c - the registry of the test program build/<mode>/banyan-extra:
 * the built-in games plus the test game of lines.c, one line. Linked ahead
 * of libbanyan.a, its banyan_game_find and banyan_game_list stand in for the
 * library's (games/games.c), so the program itself is unchanged.
 */
#include <ctype.h>
#include <stddef.h>

#include "banyan_game.h"

extern const banyan_game test_game_lines;

static const banyan_game *const registry_all[] = {
    &banyan_game_tictactoe, &banyan_game_connect4, &banyan_game_gomoku,
    &test_game_lines, /* The one line a new game adds. */
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
