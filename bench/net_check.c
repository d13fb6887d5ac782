/*
 * net_check.c - how well a network plays, judged by exact values, for
 * docs/journal/2026-12-02-self-play-learning.md and bench/learn.sh.
 *
 *   net-check tictactoe NET [PLAYOUTS]
 *       every position reachable from the empty board with the game going
 *       on (4,520 of them): the engine with the network (PUCT, one thread,
 *       the default seed) at PLAYOUTS (default 100; 0 for the policy's own
 *       choice, no search) plays a move, and minimax says whether it keeps
 *       the position's value. Prints the mistakes.
 *   net-check speed [CHANNELS BLOCKS]
 *       the peak rate of the matrix product (OpenBLAS where the build has
 *       it, and the plain C one) on 512 x 512 x 512, and the network's
 *       evaluations per second on Connect Four (default 32 channels, 2
 *       blocks) at batch 1 and 32, one thread: the medians of 5 runs.
 *   net-check connect4 NET PLAYOUTS FILE...
 *       each position of the reference files (lines "MOVES SCORE"): the
 *       engine's move at PLAYOUTS, judged by the game's solver (win stays
 *       win, draw stays draw). The engine keeps the game's solver and book
 *       off, so that the network and the search alone are judged.
 *
 * Exit status 0 when every move kept its value, 1 otherwise, 2 on bad use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan.h"
#include "net.h"

/* ---- Tic-tac-toe by memoised minimax over the 3^9 boards ---- */

static signed char
    check_memo[19683]; /* value + 2 for the mover: 1 loss, 2 draw, 3 win; 0 unknown */

static int check_key(const banyan_game *g, const void *s)
{
    int k = 0;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++)
            k = k * 3 + g->board->piece(s, x, y) + 1;
    return k;
}

/* The value of s for the player to move: 1 win, 0 draw, -1 loss. */
static int check_minimax(const banyan_game *g, const void *s)
{
    double ret[2];
    unsigned char t[256];
    banyan_move moves[BANYAN_MAX_MOVES];
    int key = check_key(g, s);
    if (check_memo[key])
        return check_memo[key] - 2;
    int me = g->to_move(s), best = -2;
    if (g->outcome(s, ret)) {
        best = ret[me] > 0.75 ? 1 : ret[me] < 0.25 ? -1 : 0;
    } else {
        int n = g->moves(s, moves);
        for (int i = 0; i < n && best < 1; i++) {
            memcpy(t, s, g->state_size);
            g->play(t, moves[i]);
            int v = -check_minimax(g, t);
            best = v > best ? v : best;
        }
    }
    check_memo[key] = (signed char)(best + 2);
    return best;
}

typedef struct check_ctx {
    const banyan_game *g;
    net_evaluator *ev;
    uint64_t playouts;
    int positions, mistakes;
    unsigned char seen[19683];
} check_ctx;

/* The move the network's engine plays in s. */
static banyan_move check_move(check_ctx *c, const char *params, const void *s)
{
    banyan_config cfg = BANYAN_CONFIG(.evaluator = net_evaluator_hook(c->ev), .memory = 4u << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = c->playouts);
    banyan_engine *e;
    banyan_report r = BANYAN_REPORT();
    banyan_move m = BANYAN_MOVE_NONE;
    if (c->playouts == 0) {
        /* The policy alone: the highest prior. */
        banyan_move moves[BANYAN_MAX_MOVES];
        float priors[BANYAN_MAX_MOVES];
        int n = c->g->moves(s, moves);
        banyan_eval_request req = {s, moves, n, priors, NULL};
        const banyan_evaluator *h = net_evaluator_hook(c->ev);
        h->evaluate(h->ud, 0, &req, 1);
        float top = -1;
        for (int i = 0; i < n; i++)
            if (priors[i] > top) {
                m = moves[i];
                top = priors[i];
            }
        return m;
    }
    if (banyan_engine_new(c->g, params, &cfg, &e) != BANYAN_OK)
        return m;
    if (banyan_engine_set_state(e, s) == BANYAN_OK && banyan_engine_search(e, &lim, &r) == 0)
        m = r.best;
    banyan_engine_free(e);
    return m;
}

static void check_walk(check_ctx *c, const void *s)
{
    const banyan_game *g = c->g;
    double ret[2];
    unsigned char t[256];
    banyan_move moves[BANYAN_MAX_MOVES];
    int key = check_key(g, s);
    if (c->seen[key] || g->outcome(s, ret))
        return;
    c->seen[key] = 1;
    c->positions++;
    int want = check_minimax(g, s);
    banyan_move m = check_move(c, "", s);
    memcpy(t, s, g->state_size);
    if (m != BANYAN_MOVE_NONE)
        g->play(t, m);
    if (m == BANYAN_MOVE_NONE || -check_minimax(g, t) != want) {
        char buf[256];
        c->mistakes++;
        if (c->mistakes <= 10) {
            banyan_game_print(g, s, BANYAN_MOVE_NONE, 0, buf, sizeof buf);
            printf("mistake: value %d, played %u\n%s", want, (unsigned)m, buf);
        }
    }
    int n = g->moves(s, moves);
    for (int i = 0; i < n; i++) {
        memcpy(t, s, g->state_size);
        g->play(t, moves[i]);
        check_walk(c, t);
    }
}

/* ---- Connect Four against its solver ---- */

static int check_class(const banyan_game *g, const void *s, void *mem)
{
    banyan_move best;
    int score, r = g->tactics->solve(s, UINT64_MAX, NULL, mem, &best, &score);
    return r == BANYAN_SOLVE_WIN ? 1 : r == BANYAN_SOLVE_LOSS ? -1 : 0;
}

static int check_connect4(check_ctx *c, const char *path, void *mem)
{
    const banyan_game *g = c->g;
    FILE *f = fopen(path, "r");
    char line[256], moves[128];
    unsigned char s[256], t[256];
    int want, n = 0, kept = 0;
    if (!f) {
        fprintf(stderr, "net-check: cannot read %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        double ret[2];
        if (sscanf(line, "%127s %d", moves, &want) != 2)
            continue;
        g->setup(s, "book=off,solver=off");
        if (banyan_game_load(g, s, moves) != BANYAN_OK)
            continue;
        banyan_move m = check_move(c, "book=off,solver=off", s);
        /* The judge is the solver, which solver=off turns off: the position
         * again with the game's defaults. */
        g->setup(t, "");
        banyan_game_load(g, t, moves);
        g->play(t, m);
        int got =
            g->outcome(t, ret) ? (ret[g->to_move(s)] > 0.75 ? 1 : 0) : -check_class(g, t, mem);
        n++;
        kept += got == (want > 0) - (want < 0);
    }
    fclose(f);
    printf("%s: %d of %d positions keep their value at %llu playouts (%.1f%%)\n", path, kept, n,
           (unsigned long long)c->playouts, n ? 100.0 * kept / n : 0.0);
    c->positions += n;
    c->mistakes += n - kept;
    return 0;
}

/* ---- Speed ---- */

static double check_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int check_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of 5 rates of work done by f, each run for about 0.3 s. */
static double check_rate(double (*f)(void *), void *ud)
{
    double r[5];
    for (int i = 0; i < 5; i++) {
        double work = 0, t0 = check_now(), t;
        do
            work += f(ud);
        while ((t = check_now()) - t0 < 0.3);
        r[i] = work / (t - t0);
    }
    qsort(r, 5, sizeof r[0], check_cmp);
    return r[2];
}

typedef struct check_gemm {
    bool blas;
    float *a, *b, *c;
} check_gemm;

static double check_gemm_once(void *ud)
{
    check_gemm *g = ud;
    nn_gemm(g->blas, false, false, 512, 512, 512, 1.0f, g->a, 512, g->b, 512, 0.0f, g->c, 512);
    return 2.0 * 512 * 512 * 512;
}

typedef struct check_fwd {
    nn_net net;
    nn_work *w;
    float *in, *logits, value[32];
    int batch;
} check_fwd;

static double check_fwd_once(void *ud)
{
    check_fwd *f = ud;
    nn_forward(&f->net, f->w, f->in, f->batch, f->logits, f->value);
    return f->batch;
}

static int check_speed(int channels, int blocks)
{
    check_gemm g = {false, malloc(512 * 512 * 4), malloc(512 * 512 * 4), malloc(512 * 512 * 4)};
    for (int i = 0; i < 512 * 512; i++)
        g.a[i] = g.b[i] = (float)(i % 7) * 0.1f;
    for (int blas = 0; blas <= (int)nn_have_blas(); blas++) {
        g.blas = blas;
        printf("sgemm 512^3, %s: %.1f GFLOP/s\n", blas ? "OpenBLAS" : "plain C",
               check_rate(check_gemm_once, &g) * 1e-9);
    }
    free(g.a);
    free(g.b);
    free(g.c);
    nn_shape sh = {7, 6, NET_PLANES, channels, blocks, 7, 32};
    check_fwd f;
    if (nn_init(&f.net, &sh, 1) != 0)
        return 2;
    printf("network: Connect Four, %d channels, %d blocks, %zu parameters\n", channels, blocks,
           f.net.n_params);
    f.in = calloc(32 * NET_PLANES * 42, sizeof(float));
    f.logits = malloc(32 * 7 * sizeof(float));
    for (int i = 0; i < 32 * NET_PLANES * 42; i++)
        f.in[i] = (float)((i * 7) % 3 == 0);
    for (int blas = 0; blas <= (int)nn_have_blas(); blas++) {
        f.net.blas = blas;
        for (int batch = 1; batch <= 32; batch += 31) {
            f.batch = batch;
            f.w = nn_work_new(&sh, batch, false);
            double rate = check_rate(check_fwd_once, &f);
            /* The multiply-adds of the tower and heads per position. */
            double flops = 2.0 * 42 *
                               (9.0 * NET_PLANES * channels +
                                blocks * 2 * 9.0 * channels * channels + 3.0 * channels) +
                           2.0 * (7 * 84 + 32 * 42 + 32);
            printf("%s, batch %2d: %.0f evaluations/s (%.2f GFLOP/s)\n",
                   blas ? "OpenBLAS" : "plain C ", batch, rate, rate * flops * 1e-9);
            nn_work_free(f.w);
        }
    }
    free(f.in);
    free(f.logits);
    nn_free(&f.net);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "speed"))
        return check_speed(argc > 2 ? atoi(argv[2]) : 32, argc > 3 ? atoi(argv[3]) : 2);
    static check_ctx c;
    char why[512];
    if (argc < 3) {
        fprintf(stderr, "usage: net-check tictactoe NET [PLAYOUTS]\n"
                        "       net-check speed [CHANNELS BLOCKS]\n"
                        "       net-check connect4 NET PLAYOUTS FILE...\n");
        return 2;
    }
    c.g = banyan_game_find(argv[1]);
    if (!c.g || (strcmp(c.g->name, "tictactoe") && strcmp(c.g->name, "connect4"))) {
        fprintf(stderr, "net-check: tictactoe or connect4, not %s\n", argv[1]);
        return 2;
    }
    if (net_evaluator_open(argv[2], c.g, "", 1, 1 << 16, &c.ev, why, sizeof why) != 0) {
        fprintf(stderr, "net-check: %s\n", why);
        return 2;
    }
    c.playouts = argc > 3 ? strtoull(argv[3], NULL, 10) : 100;
    if (!strcmp(c.g->name, "tictactoe")) {
        unsigned char s[256];
        c.g->setup(s, "");
        check_walk(&c, s);
        printf("tictactoe: %d mistakes in %d positions at %llu playouts\n", c.mistakes, c.positions,
               (unsigned long long)c.playouts);
    } else {
        void *mem = calloc(1, (c.g->tactics ? c.g->tactics->mem_size : 0));
        for (int i = 4; i < argc && mem; i++)
            if (check_connect4(&c, argv[i], mem) != 0)
                return 2;
        free(mem);
    }
    net_evaluator_free(c.ev);
    return c.mistakes ? 1 : 0;
}
