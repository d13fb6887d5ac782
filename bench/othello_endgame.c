/*
 * othello_endgame.c - the Othello solver on the FForum endgame problems:
 * reads .obf files (one position a line, "<64 squares> <X|O>; MOVE:score;
 * ..." with the exact score of every legal move), solves each position with
 * one thread, a fresh table and no budget, and prints the empties, the move
 * and score found, the positions visited and the time. A position fails
 * when the score is not the best listed or the move is not listed with it.
 * Exits 1 when one fails. `--table BITS` gives the table 2^BITS entries
 * (24 bytes each) rather than the engine's 2^OTH_TT_BITS (6 MiB), as
 * other solvers' benchmarks give theirs hundreds of megabytes. Built by
 * `make build/release/othello-endgame`;
 * bench/othello_endgame.sh runs it on the problems (tests/data/fforum-*.obf;
 * figures in docs/journal/2026-12-02-othello-speed.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan_game.h"
#include "othello/othello.h"

#define G (&banyan_game_othello)

static double endgame_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The score listed for move in the answer part of an .obf line, or -999. */
static int endgame_listed(const char *answers, const char *move)
{
    for (const char *p = strchr(answers, ';'); p; p = strchr(p + 1, ';')) {
        char name[8];
        int score;
        if (sscanf(p + 1, " %7[A-Za-z0-9]:%d", name, &score) == 2 && strlen(name) == strlen(move)) {
            bool same = true;
            for (size_t i = 0; name[i]; i++)
                same = same && (name[i] | 0x20) == (move[i] | 0x20);
            if (same)
                return score;
        }
    }
    return -999;
}

/* The best score listed on the line (the first, best first), or -999. */
static int endgame_best(const char *answers)
{
    const char *p = strchr(answers, ':');
    return p ? atoi(p + 1) : -999;
}

int main(int argc, char **argv)
{
    unsigned char state[256];
    int failed = 0, total = 0, bits = OTH_TT_BITS, first = 1;
    double all_time = 0;
    uint64_t all_nodes = 0;
    if (argc > 2 && strcmp(argv[1], "--table") == 0) {
        bits = atoi(argv[2]);
        first = 3;
    }
    size_t size = bits >= 10 && bits <= 30 ? (size_t)24 << bits : 0;
    void *mem = size ? malloc(size) : NULL;
    if (!mem || G->state_size > sizeof state || argc <= first) {
        fprintf(stderr, "usage: othello-endgame [--table BITS (10 to 30)] FILE.obf ...\n");
        free(mem);
        return 2;
    }
    printf("%-22s %3s %7s %5s %5s %13s %9s %s\n", "problem", "emp", "best", "score", "want",
           "nodes", "seconds", "result");
    for (int f = first; f < argc; f++) {
        FILE *in = fopen(argv[f], "r");
        char line[512];
        const char *base = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
        if (!in) {
            fprintf(stderr, "cannot open %s\n", argv[f]);
            return 2;
        }
        for (int n = 1; fgets(line, sizeof line, in); n++) {
            banyan_move best = BANYAN_MOVE_NONE;
            int score = 0, empties = 0;
            uint64_t nodes = 0;
            char move[16] = "-", name[64];
            if (G->setup(state, "") != BANYAN_OK || G->notation->load(state, line) != BANYAN_OK) {
                fprintf(stderr, "%s:%d: the position does not load\n", argv[f], n);
                return 2;
            }
            for (int i = 0; i < 64; i++)
                empties += line[i] == '-';
            memset(mem, 0, size);
            double t0 = endgame_now();
            int rc = oth_solve_count(state, UINT64_MAX, NULL, mem, bits, &best, &score, &nodes);
            double dt = endgame_now() - t0;
            if (rc != BANYAN_SOLVE_UNKNOWN)
                G->notation->format_move(state, best, move, sizeof move);
            int want = endgame_best(line), listed = endgame_listed(line, move);
            bool ok = rc != BANYAN_SOLVE_UNKNOWN && score == want && listed == want;
            snprintf(name, sizeof name, "%s:%d", base, n);
            printf("%-22s %3d %7s %+5d %+5d %13" PRIu64 " %9.3f %s\n", name, empties, move, score,
                   want, nodes, dt, ok ? "ok" : "FAILED");
            fflush(stdout);
            failed += !ok;
            total++;
            all_time += dt;
            all_nodes += nodes;
        }
        fclose(in);
    }
    printf("%d positions, %d failed, %" PRIu64 " nodes, %.3f s, %.0f nodes/s\n", total, failed,
           all_nodes, all_time, all_time > 0 ? (double)all_nodes / all_time : 0.0);
    free(mem);
    return failed ? 1 : 0;
}
