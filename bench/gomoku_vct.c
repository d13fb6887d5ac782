/*
 * gomoku_vct.c - the power of Gomoku's VCT prover on positions of real
 * games (`make build/release/gomoku-vct`). Reads games on stdin, one a line, moves in
 * the game's notation from the empty 15x15 freestyle board, and runs the
 * prover (the game's prove_win_deep) for the player to move on every
 * position from ply SKIP on, with EFFORT positions a call (arguments 1 and
 * 2; defaults 8 and 200000). Prints the positions, the wins proven and the
 * seconds spent; with a third argument "-v", one line per position too
 * (game, ply, the winning move or "-", milliseconds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan_game.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const banyan_game *g = &banyan_game_gomoku;
    int skip = argc > 1 ? atoi(argv[1]) : 8;
    long effort = argc > 2 ? atol(argv[2]) : 200000;
    int verbose = argc > 3 && !strcmp(argv[3], "-v");
    static char line[1 << 16];
    unsigned char s[4096];
    double r[2];
    void *mem = calloc(1, (g->tactics ? g->tactics->mem_size : 0));
    if (g->state_size > sizeof s || !mem || effort <= 0 || effort > 4000000000L)
        return 1;
    long positions = 0, wins = 0;
    double spent = 0;
    for (int game = 1; fgets(line, sizeof line, stdin); game++) {
        char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
        g->setup(s, "");
        for (int ply = 0; tok && !g->outcome(s, r); ply++, tok = strtok_r(NULL, " \t\r\n", &save)) {
            if (ply >= skip) {
                banyan_move m;
                char text[16] = "-";
                double t0 = now();
                bool won = g->tactics->prove_win_deep(s, (uint32_t)effort, 0, mem, &m);
                double t = now() - t0;
                spent += t;
                positions++;
                if (won) {
                    wins++;
                    g->notation->format_move(s, m, text, sizeof text);
                }
                if (verbose)
                    printf("%d %d %s %.1f\n", game, ply, text, 1e3 * t);
            }
            banyan_move m;
            if (g->notation->parse_move(s, tok, &m) != BANYAN_OK || !banyan_game_is_legal(g, s, m))
                break;
            g->play(s, m);
        }
    }
    printf("positions %ld, wins %ld, %.2f s, effort %ld\n", positions, wins, spent, effort);
    free(mem);
    return 0;
}
