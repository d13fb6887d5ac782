/*
 * othello_eval.c - plays the self-play games that Othello's evaluation
 * model is fitted to, and fits it (tools/othello_eval.sh).
 *
 *   othello-eval play GAMES FIRST [PLAYOUTS [LEAF]]
 *       Plays games FIRST .. FIRST+GAMES-1, each from 4 random plies (drawn
 *       from the game's number) and then Banyan against itself with PLAYOUTS
 *       (default 1000) simulations a move, the root solver's budget 200,000
 *       positions, and at the leaves LEAF: rollout (the default: the games
 *       do not depend on the model being fitted) or eval. Writes a line a
 *       game: "RESULT MOVES..." (B, W or D; moves in the game's notation,
 *       passes as "pass").
 *   othello-eval fit [SKIP] < GAMES
 *       Turns every position from ply SKIP on (default 8) that the model
 *       decides (a game that goes on) into the model's inputs and fits a
 *       logistic regression of the mover's result on them: Newton's method,
 *       a small L2 penalty on all but the bias. Prints the log-loss of the
 *       weights now in games/othello/eval.c and of the fit, the same for a fit on
 *       four games in five judged on the fifth (positions of one game are
 *       alike, so the split is by game), and the weights fitted on all the
 *       games as a C initialiser.
 *
 * Deterministic: the same arguments give the same games and the same fit.
 * Built by `make build/release/othello-eval`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "banyan_game.h"
#include "othello/othello.h"

#define G (&banyan_game_othello)
#define N OTH_EVAL_FEATURES

static int eval_play(long games, long first, long playouts, const char *leaf)
{
    banyan_config cfg = BANYAN_CONFIG();
    cfg.leaf = !strcmp(leaf, "eval") ? BANYAN_LEAF_EVAL : BANYAN_LEAF_ROLLOUT;
    cfg.solve_budget = 200000;
    cfg.memory = 64u << 20;
    for (long k = first; k < first + games; k++) {
        banyan_engine *e;
        cfg.seed = (uint64_t)k + 1;
        if (banyan_engine_new(G, "", &cfg, &e) != BANYAN_OK)
            return 1;
        banyan_rng rng;
        banyan_rng_seed(&rng, (uint64_t)k, 77);
        char line[1024];
        size_t len = 0;
        banyan_move moves[BANYAN_MAX_MOVES];
        double ret[2];
        for (int ply = 0; !G->outcome(banyan_engine_state(e), ret); ply++) {
            banyan_move m;
            if (ply < 4) {
                int n = G->moves(banyan_engine_state(e), moves);
                m = moves[banyan_rng_below(&rng, (uint32_t)n)];
            } else {
                banyan_limits lim = BANYAN_LIMITS();
                banyan_report rep = BANYAN_REPORT();
                lim.playouts = (uint64_t)playouts;
                if (banyan_engine_search(e, &lim, &rep) != BANYAN_OK)
                    return 1;
                m = rep.best;
            }
            char text[16];
            G->notation->format_move(banyan_engine_state(e), m, text, sizeof text);
            len += (size_t)snprintf(line + len, sizeof line - len, " %s", text);
            if (len >= sizeof line || banyan_engine_play(e, m) != BANYAN_OK)
                return 1;
        }
        printf("%c%s\n", ret[0] > 0.5 ? 'B' : ret[0] < 0.5 ? 'W' : 'D', line);
        fflush(stdout);
        banyan_engine_free(e);
    }
    return 0;
}

/* The positions of the games: inputs x[i * N ..], the mover's result y[i],
 * the game's number g[i]. */
typedef struct data {
    double *x, *y;
    long *game;
    long n, cap;
} data;

static int eval_read(int skip, data *d)
{
    static char line[4096];
    unsigned char s[256];
    long games = 0;
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
        if (!tok || !strchr("BWD", tok[0]))
            continue;
        double black = tok[0] == 'B' ? 1 : tok[0] == 'W' ? 0 : 0.5;
        G->setup(s, "");
        for (int ply = 0; (tok = strtok_r(NULL, " \t\r\n", &save)); ply++) {
            double ret[2];
            if (ply >= skip && !G->outcome(s, ret)) {
                if (d->n == d->cap) {
                    d->cap = d->cap ? 2 * d->cap : 4096;
                    d->x = realloc(d->x, (size_t)d->cap * N * sizeof *d->x);
                    d->y = realloc(d->y, (size_t)d->cap * sizeof *d->y);
                    d->game = realloc(d->game, (size_t)d->cap * sizeof *d->game);
                    if (!d->x || !d->y || !d->game)
                        return -1;
                }
                oth_eval_features(s, d->x + d->n * N);
                d->y[d->n] = G->to_move(s) == 0 ? black : 1 - black;
                d->game[d->n++] = games;
            }
            banyan_move m;
            if (G->notation->parse_move(s, tok, &m) != BANYAN_OK || !banyan_game_is_legal(G, s, m))
                break;
            G->play(s, m);
        }
        games++;
    }
    return (int)(games > 0 ? 0 : -1);
}

static double sigmoid(double z)
{
    return 1 / (1 + exp(-z));
}

/* Whether position i belongs to the set: all (part -1), the training part
 * (part 0: games not 4 mod 5) or the held-out part (part 1). */
static int eval_in(const data *d, long i, int part)
{
    return part < 0 || (d->game[i] % 5 == 4) == (part == 1);
}

static double eval_logloss(const data *d, const double *w, int part)
{
    double total = 0;
    long n = 0;
    for (long i = 0; i < d->n; i++) {
        if (!eval_in(d, i, part))
            continue;
        double z = 0;
        for (int j = 0; j < N; j++)
            z += w[j] * d->x[i * N + j];
        double p = fmin(fmax(sigmoid(z), 1e-9), 1 - 1e-9);
        total -= d->y[i] * log(p) + (1 - d->y[i]) * log(1 - p);
        n++;
    }
    return n ? total / (double)n : 0;
}

/* Solves a x = b in place by Gaussian elimination with partial pivoting. */
static void eval_solve(double a[N][N], double *b)
{
    for (int c = 0; c < N; c++) {
        int piv = c;
        for (int r = c + 1; r < N; r++)
            piv = fabs(a[r][c]) > fabs(a[piv][c]) ? r : piv;
        for (int k = 0; k < N; k++) {
            double t = a[c][k];
            a[c][k] = a[piv][k];
            a[piv][k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        if (a[c][c] == 0)
            continue;
        for (int r = 0; r < N; r++) {
            if (r == c)
                continue;
            double f = a[r][c] / a[c][c];
            for (int k = c; k < N; k++)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int i = 0; i < N; i++)
        b[i] = a[i][i] != 0 ? b[i] / a[i][i] : 0;
}

static void eval_fit(const data *d, int part, double *w)
{
    static double h[N][N];
    double g[N];
    memset(w, 0, N * sizeof *w);
    for (int it = 0; it < 30; it++) {
        memset(h, 0, sizeof h);
        memset(g, 0, sizeof g);
        for (long i = 0; i < d->n; i++) {
            if (!eval_in(d, i, part))
                continue;
            const double *x = d->x + i * N;
            double z = 0;
            for (int j = 0; j < N; j++)
                z += w[j] * x[j];
            double p = sigmoid(z), s = p * (1 - p);
            for (int j = 0; j < N; j++) {
                g[j] += (p - d->y[i]) * x[j];
                for (int k = j; k < N; k++)
                    h[j][k] += s * x[j] * x[k];
            }
        }
        for (int j = 0; j < N; j++) {
            for (int k = 0; k < j; k++)
                h[j][k] = h[k][j];
            if (j > 0) {
                g[j] += w[j];
                h[j][j] += 1;
            }
        }
        eval_solve(h, g);
        double most = 0;
        for (int j = 0; j < N; j++) {
            w[j] -= g[j];
            most = fmax(most, fabs(g[j]));
        }
        if (most < 1e-7)
            break;
    }
}

/* The weights now in games/othello/eval.c, read from the source. */
static int eval_current(double *w)
{
    FILE *f = fopen("games/othello/eval.c", "r");
    char buf[256];
    int n = 0, in = 0;
    if (!f)
        return -1;
    while (n < N && fgets(buf, sizeof buf, f)) {
        if (!in) {
            in = strstr(buf, "oth_eval_w[OTH_EVAL_FEATURES] = {") != NULL;
            continue;
        }
        for (char *p = buf, *end; n < N; p = end + 1) {
            w[n] = strtod(p, &end);
            if (end == p)
                break;
            n++;
            if (*end != ',')
                break;
        }
    }
    fclose(f);
    return n == N ? 0 : -1;
}

static int eval_run_fit(int skip)
{
    data d = {0};
    double now[N], w[N];
    if (eval_read(skip, &d) != 0) {
        fprintf(stderr, "othello-eval: no games on the input\n");
        return 1;
    }
    printf("positions %ld\n", d.n);
    if (eval_current(now) == 0)
        printf("log-loss of the model's weights: %.4f (held-out games: %.4f)\n",
               eval_logloss(&d, now, -1), eval_logloss(&d, now, 1));
    eval_fit(&d, 0, w);
    printf("fit on 4/5 of the games:         %.4f (held-out games: %.4f)\n", eval_logloss(&d, w, 0),
           eval_logloss(&d, w, 1));
    eval_fit(&d, -1, w);
    printf("log-loss of the fit on all:      %.4f\n", eval_logloss(&d, w, -1));
    for (int j = 0; j < N; j++)
        printf("%s%.3f,%s", j % 6 ? " " : "    ", w[j], j % 6 == 5 || j == N - 1 ? "\n" : "");
    free(d.x);
    free(d.y);
    free(d.game);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "play"))
        return eval_play(atol(argv[2]), atol(argv[3]), argc > 4 ? atol(argv[4]) : 1000,
                         argc > 5 ? argv[5] : "rollout");
    if (argc >= 2 && !strcmp(argv[1], "fit"))
        return eval_run_fit(argc > 2 ? atoi(argv[2]) : 8);
    fprintf(stderr, "usage: othello-eval play GAMES FIRST [PLAYOUTS [rollout|eval]]\n"
                    "       othello-eval fit [SKIP] < GAMES\n");
    return 2;
}
