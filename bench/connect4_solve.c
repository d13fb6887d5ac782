/*
 * connect4_solve.c - Connect Four's exact solver on the reference sets, for
 * docs/journal/2026-12-02-connect4-solver.md. For each file named (lines "MOVES SCORE": columns 1-7
 * from the empty board, the score for the player to move) it solves every
 * position, one thread, one table for the file (as an engine thread keeps
 * one), checks the score and that the best move keeps it, and prints the
 * mean, median and longest time a position. With --engine N it then
 * searches each position with the engine at N playouts (one thread, the
 * default seed) and checks that the move played keeps the game-theoretic
 * value (win stays win, draw stays draw), judged by the solver.
 *
 * With --score it times only what Pascal Pons' solver's benchmark times:
 * the score of each position (no move), with the table cleared before
 * each one (not timed), and prints the positions visited a position too.
 * With --label (lines of moves alone) it prints each position with its
 * score instead, leaving out those that need more than --budget positions.
 * It includes the game's source for the solver's own functions.
 */
#include "../games/connect4.c"
#include "banyan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The value class (1 win, 0 draw, -1 loss) for the player to move in s. */
static int bench_class(const banyan_game *g, const void *s, void *mem)
{
    banyan_move best;
    int score;
    int r = g->tactics->solve(s, UINT64_MAX, NULL, mem, &best, &score);
    return r == BANYAN_SOLVE_WIN ? 1 : r == BANYAN_SOLVE_LOSS ? -1 : r == BANYAN_SOLVE_DRAW ? 0 : 9;
}

/* The --score pass over one file: 0 if every score is right. With label,
 * lines need no score: each is printed with the score found, the summary
 * goes to stderr. */
static int bench_score(const char *path, bool label, uint64_t budget)
{
    const banyan_game *g = &banyan_game_connect4;
    static double times[100000];
    FILE *f = fopen(path, "r");
    uint64_t *tt = malloc(C4_TT_SIZE * sizeof *tt);
    char line[256], moves[128];
    int n = 0, wrong = 0, want;
    uint64_t nodes = 0;
    c4 t;
    if (!f || !tt) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    while (fgets(line, sizeof line, f) && n < 100000) {
        int fields = sscanf(line, "%127s %d", moves, &want);
        if (fields < 1 || (fields < 2 && !label))
            continue;
        g->setup(&t, "");
        if (banyan_game_load(g, &t, moves) != BANYAN_OK) {
            wrong++;
            continue;
        }
        memset(tt, 0, C4_TT_SIZE * sizeof *tt);
        c4_solver v = {tt, 0, budget, false, NULL};
        uint64_t own = t.discs[t.ply & 1], all = t.discs[0] | t.discs[1];
        double t0 = bench_now();
        int score = c4_threats(own, all) & c4_landing(all) ? (C4_CELLS + 1 - t.ply) / 2
                                                           : c4_value(&v, own, all, t.ply);
        times[n++] = bench_now() - t0;
        nodes += v.nodes;
        if (label) {
            if (!v.out)
                printf("%s %d\n", moves, score);
            fflush(stdout);
            continue;
        }
        if (score != want && wrong++ < 5)
            printf("  wrong: %s (score %d): solver %d\n", moves, want, score);
    }
    fclose(f);
    free(tt);
    double sum = 0;
    for (int k = 0; k < n; k++)
        sum += times[k];
    qsort(times, (size_t)n, sizeof times[0], bench_cmp);
    fprintf(label ? stderr : stdout,
            "%-40s %5d positions, %d wrong; score ms a position: mean %.4f, median %.4f, max "
            "%.3f; %.0f positions visited a position, %.2fM a second\n",
            path, n, wrong, n ? 1e3 * sum / n : 0.0, n ? 1e3 * times[n / 2] : 0.0,
            n ? 1e3 * times[n - 1] : 0.0, n ? (double)nodes / n : 0.0,
            sum > 0 ? (double)nodes / sum * 1e-6 : 0.0);
    return wrong;
}

int main(int argc, char **argv)
{
    const banyan_game *g = &banyan_game_connect4;
    uint64_t playouts = 0;
    int failed = 0;
    bool score_only = false, label = false;
    uint64_t budget = UINT64_MAX;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
            playouts = strtoull(argv[++i], NULL, 10);
            continue;
        }
        if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
            budget = strtoull(argv[++i], NULL, 10);
            continue;
        }
        if (!strcmp(argv[i], "--score") || !strcmp(argv[i], "--label")) {
            score_only = true;
            label = !strcmp(argv[i], "--label");
            continue;
        }
        if (score_only) {
            failed += bench_score(argv[i], label, budget);
            continue;
        }
        FILE *f = fopen(argv[i], "r");
        void *mem = calloc(1, (g->tactics ? g->tactics->mem_size : 0));
        static double times[100000];
        unsigned char s[64], t[64];
        char line[256], moves[128];
        int n = 0, wrong = 0, want;
        if (!f || !mem) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        while (fgets(line, sizeof line, f) && n < 100000) {
            banyan_move best;
            int score;
            if (sscanf(line, "%127s %d", moves, &want) != 2)
                continue;
            g->setup(s, "");
            if (banyan_game_load(g, s, moves) != BANYAN_OK) {
                wrong++;
                continue;
            }
            double t0 = bench_now();
            int r = g->tactics->solve(s, UINT64_MAX, NULL, mem, &best, &score);
            times[n++] = bench_now() - t0;
            bool ok = r != BANYAN_SOLVE_UNKNOWN && score == want;
            if (ok) {
                double ret[2];
                memcpy(t, s, g->state_size);
                g->play(t, best);
                ok = g->outcome(t, ret) ? (ret[g->to_move(s)] == 1.0) == (want > 0)
                                        : -bench_class(g, t, mem) == (want > 0) - (want < 0);
            }
            if (!ok && wrong++ < 5)
                printf("  wrong: %s (score %d): solver %d, move %u\n", moves, want, score, best);
        }
        fclose(f);
        double sum = 0;
        for (int k = 0; k < n; k++)
            sum += times[k];
        qsort(times, (size_t)n, sizeof times[0], bench_cmp);
        printf("%-40s %5d positions, %d wrong; solver ms a position: mean %.3f, median %.3f, "
               "max %.3f\n",
               argv[i], n, wrong, n ? 1e3 * sum / n : 0.0, n ? 1e3 * times[n / 2] : 0.0,
               n ? 1e3 * times[n - 1] : 0.0);
        failed += wrong;

        if (playouts) {
            banyan_engine *e;
            banyan_config cfg = BANYAN_CONFIG(.seed = 1);
            banyan_limits lim = BANYAN_LIMITS(.playouts = playouts);
            int kept = 0, total = 0, solved = 0;
            double secs = 0;
            if (banyan_engine_new(g, NULL, &cfg, &e) != BANYAN_OK || !(f = fopen(argv[i], "r")))
                return 2;
            while (fgets(line, sizeof line, f)) {
                banyan_report rep = BANYAN_REPORT();
                if (sscanf(line, "%127s %d", moves, &want) != 2 ||
                    banyan_engine_load(e, moves) != BANYAN_OK ||
                    banyan_engine_search(e, &lim, &rep) != BANYAN_OK)
                    continue;
                double ret[2];
                memcpy(t, banyan_engine_state(e), g->state_size);
                int mover = g->to_move(t);
                g->play(t, rep.best);
                int after = g->outcome(t, ret) ? (ret[mover] == 1.0   ? 1
                                                  : ret[mover] == 0.5 ? 0
                                                                      : -1)
                                               : -bench_class(g, t, mem);
                int cls = (want > 0) - (want < 0);
                kept += after == cls;
                solved += rep.playouts == 0;
                secs += rep.seconds;
                if (after != cls && total - kept < 5)
                    printf("  engine: %s (score %d) plays %u, value %d\n", moves, want, rep.best,
                           after);
                total++;
            }
            fclose(f);
            banyan_engine_free(e);
            printf("%-40s engine at %llu playouts: value kept in %d of %d (%d solved at the "
                   "root), %.1f ms a search\n",
                   argv[i], (unsigned long long)playouts, kept, total, solved,
                   total ? 1e3 * secs / total : 0.0);
            failed += total - kept;
        }
        free(mem);
    }
    return failed ? 1 : 0;
}
