/*
 * eval_features.c - the inputs of Gomoku's evaluation model for every
 * position of a set of games, for bench/fit_eval.py. Reads lines
 * "RESULT MOVES..." on stdin (RESULT: B, W or D; moves in the game's
 * notation from the empty 15x15 freestyle board) and writes one line per
 * position from ply SKIP on (argument 1, default 6) that the model decides
 * (no five to make or to stop): the return of the player to move at the
 * end of its game (1, 0 or 0.5) and the model's inputs. With the argument
 * "last", reads lines "LABEL MOVES..." instead and writes "LABEL inputs"
 * for the position after the moves alone, when the model decides it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "gomoku/gomoku.h"

/* "last" mode: plays the rest of the line from the start and prints
 * label and the inputs of the position reached. */
static void print_last(const banyan_game *g, const char *label, char **save)
{
    unsigned char s[4096];
    double f[GMK_EVAL_FEATURES];
    char *tok;
    if (g->state_size > sizeof s)
        return;
    g->setup(s, "");
    while ((tok = strtok_r(NULL, " \t\r\n", save))) {
        banyan_move m;
        if (g->parse_move(s, tok, &m) != BANYAN_OK || !banyan_game_is_legal(g, s, m))
            return;
        g->play(s, m);
    }
    if (gmk_eval_features(s, f) != 0)
        return;
    printf("%s", label);
    for (int i = 0; i < GMK_EVAL_FEATURES; i++)
        printf(" %g", f[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    const banyan_game *g = &banyan_game_gomoku;
    bool last = argc > 1 && !strcmp(argv[1], "last");
    int skip = argc > 1 && !last ? atoi(argv[1]) : 6;
    static char line[1 << 16];
    unsigned char s[4096];
    if (g->state_size > sizeof s)
        return 1;
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
        if (last && tok) {
            print_last(g, tok, &save);
            continue;
        }
        if (!tok || !strchr("BWD", tok[0]))
            continue;
        double black = tok[0] == 'B' ? 1 : tok[0] == 'W' ? 0 : 0.5;
        g->setup(s, "");
        for (int ply = 0; (tok = strtok_r(NULL, " \t\r\n", &save)); ply++) {
            double f[GMK_EVAL_FEATURES];
            if (ply >= skip && gmk_eval_features(s, f) == 0) {
                printf("%g", g->to_move(s) == 0 ? black : 1 - black);
                for (int i = 0; i < GMK_EVAL_FEATURES; i++)
                    printf(" %g", f[i]);
                printf("\n");
            }
            banyan_move m;
            if (g->parse_move(s, tok, &m) != BANYAN_OK || !banyan_game_is_legal(g, s, m))
                break;
            g->play(s, m);
        }
    }
    return 0;
}
