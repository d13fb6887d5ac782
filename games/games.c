/*
 * games.c - the registry of built-in games: names and aliases to tables, and
 * the positions `banyan bench` searches in each (the library's own test
 * data, which each game's file keeps beside its table).
 */
#include <ctype.h>
#include <stddef.h>

#include "banyan_game.h"

static const banyan_game *const games_all[] = {
    &banyan_game_tictactoe, &banyan_game_connect4, &banyan_game_gomoku,
    &banyan_game_othello,   &banyan_game_go,       &banyan_game_morpion,
};

/* Each game's bench list, in its file. */
extern const banyan_bench games_bench_tictactoe[], games_bench_connect4[], games_bench_gomoku[],
    games_bench_othello[], games_bench_go[], games_bench_morpion[];

static const banyan_bench *const games_bench[] = {
    games_bench_tictactoe, games_bench_connect4, games_bench_gomoku,
    games_bench_othello,   games_bench_go,       games_bench_morpion,
};

static const struct {
    const char *alias;
    const banyan_game *game;
} games_aliases[] = {
    {"mnk", &banyan_game_tictactoe},
    {"ttt", &banyan_game_tictactoe},
    {"c4", &banyan_game_connect4},
    {"connectfour", &banyan_game_connect4},
    /* Othello, under its older name. */
    {"reversi", &banyan_game_othello},
    /* Go, under its Chinese and Korean names. */
    {"weiqi", &banyan_game_go},
    {"baduk", &banyan_game_go},
    /* Morpion Solitaire, under its English name. */
    {"joinfive", &banyan_game_morpion},
};

static int games_same(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const banyan_game *banyan_game_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof games_all / sizeof games_all[0]; i++)
        if (games_same(name, games_all[i]->name))
            return games_all[i];
    for (size_t i = 0; i < sizeof games_aliases / sizeof games_aliases[0]; i++)
        if (games_same(name, games_aliases[i].alias))
            return games_aliases[i].game;
    return NULL;
}

const banyan_game *const *banyan_game_list(int *n_out)
{
    if (n_out)
        *n_out = (int)(sizeof games_all / sizeof games_all[0]);
    return games_all;
}

const banyan_bench *banyan_game_bench(const banyan_game *g)
{
    for (size_t i = 0; g && i < sizeof games_all / sizeof games_all[0]; i++)
        if (g == games_all[i])
            return games_bench[i];
    return NULL;
}
