/*
 * abi_caller.c - a program that uses the library as a caller built against
 * one banyan.h, for tests/cli/abi.sh, which links it against a library
 * built from another (its structs with a field appended, or without it).
 * It makes an engine with a config, searches Connect Four within limits
 * into a report followed by a guard, and prints what it got; then it does
 * the same with a game table of its own (Connect Four's functions, with
 * a board part of its own), each exactly as large as its header says, on
 * the heap, where AddressSanitizer sees a read past them. Not part of
 * the program banyan-extra (the Makefile leaves it out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"

#define GUARD 0xa5 /* The guard's bytes, which the library must not touch. */

static size_t abi_least(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* Searches g within lim and prints the line abi.sh compares. */
static int abi_search(const banyan_game *g, const banyan_config *cfg, const char *what)
{
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
    banyan_report rep = BANYAN_REPORT();
    banyan_engine *e;
    char move[16];
    if (banyan_engine_new(g, "book=off", cfg, &e) != BANYAN_OK) {
        printf("no engine for %s\n", what);
        return 1;
    }
    if (banyan_engine_search(e, &lim, &rep) != BANYAN_OK) {
        printf("search refused: %s\n", banyan_errmsg(e));
        banyan_engine_free(e);
        return 3;
    }
    banyan_game_format(g, banyan_engine_state(e), rep.best, BANYAN_COORDS_COLUMN, move,
                       sizeof move);
    printf("%s: searched %llu playouts, best %s\n", what, (unsigned long long)rep.playouts, move);
    banyan_engine_free(e);
    return 0;
}

int main(void)
{
    /* A game table made here, as a game built against this header is. */
    banyan_game *mine = malloc(sizeof *mine);
    banyan_board *board = malloc(sizeof *board);
    if (!mine || !board)
        return 1;
    /* The library's tables may be smaller than this header's (an older
     * library): copy what they have, the rest zero. */
    memset(mine, 0, sizeof *mine);
    memset(board, 0, sizeof *board);
    memcpy(mine, &banyan_game_connect4, abi_least(banyan_game_connect4.size, sizeof *mine));
    mine->size = sizeof *mine;
    mine->name = "caller4";
    memcpy(board, banyan_game_connect4.board,
           abi_least(banyan_game_connect4.board->size, sizeof *board));
    board->size = sizeof *board;
    mine->board = board;
    const char *game_why = banyan_game_check(mine);
    printf("game table %zu bytes, board part %zu: %s\n", sizeof *mine, sizeof *board,
           game_why ? game_why : "accepted");

    const banyan_game *g = &banyan_game_connect4;
    banyan_config cfg = BANYAN_CONFIG(.seed = 3, .memory = 16 << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 2000);
    struct {
        banyan_report rep;
        unsigned char guard[256];
    } out;
    banyan_engine *e;
    const char *why = banyan_config_check(g, &cfg);

    printf("caller: config %zu, limits %zu, report %zu bytes\n", sizeof cfg, sizeof lim,
           sizeof out.rep);
    if (why) {
        printf("config refused: %s\n", why);
        return 3;
    }
    if (banyan_engine_new(g, "book=off", &cfg, &e) != BANYAN_OK) {
        printf("no engine\n");
        return 1;
    }
    memset(&out, GUARD, sizeof out);
    out.rep = BANYAN_REPORT();
    int rc = banyan_engine_search(e, &lim, &out.rep);
    for (size_t i = 0; i < sizeof out.guard; i++)
        if (out.guard[i] != GUARD) {
            printf("the report's guard was overwritten at byte %zu\n", i);
            return 1;
        }
    if (rc != BANYAN_OK) {
        printf("search refused: %s\n", banyan_errmsg(e));
        banyan_engine_free(e);
        return 3;
    }
    /* A report alone on the stack, where AddressSanitizer sees an overrun. */
    banyan_report again = BANYAN_REPORT();
    if (banyan_engine_report(e, &again) != BANYAN_OK || again.best != out.rep.best) {
        printf("the second report differs\n");
        return 1;
    }
    char move[16];
    banyan_game_format(g, banyan_engine_state(e), out.rep.best, 0, move, sizeof move);
    printf("searched %llu playouts, best %s, report size %zu\n",
           (unsigned long long)out.rep.playouts, move, out.rep.size);
    banyan_engine_free(e);
    /* The same search with the caller's own table. */
    rc = abi_search(&banyan_game_connect4, &cfg, "library's table");
    if (rc == 0 && !game_why)
        rc = abi_search(mine, &cfg, "caller's table");
    free(board);
    free(mine);
    return rc;
}
