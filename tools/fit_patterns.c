/*
 * fit_patterns.c - fits Gomoku's evaluation model, the class counts and
 * the pattern codes (gmk_eval_features, gmk_eval_patterns), to another
 * engine's evaluations of positions (tools/label_gomoku.py's lines
 * "ID EVAL MOVES...": EVAL in centi-units for the player to move, a win
 * probability of 1 / (1 + exp(-EVAL / 200)), +Mn / -Mn a win / loss seen,
 * taken as a probability of P / 1 - P, default 0.99, and weighted W in the
 * fit, default 1: the cross-entropies are reported on all positions and on
 * those without such a label, the undecided), and
 * the policy of the learned priors to another engine's moves
 * (tools/gomoku_moves.py's lines "ID MOVES...", the last move the one to
 * predict).
 *
 *     fit-patterns [--hidden H] [--init] [--mate P[,W]] [--data TEXT] LABELS MOVES
 *                  [L2[,L2P]] [OUT]
 *
 * The evaluation is the linear model of gomoku.h plus its hidden layer of
 * H units (default GMK_EVAL_HIDDEN; 0: the linear model alone, written
 * with a hidden layer of zeros); the linear model alone is also fitted
 * and reported, for comparison. The net is fitted by Adam on minibatches
 * of 256 for EPOCHS epochs (environment, default 40; the step LR, default
 * 0.001, a tenth in the last quarter), from weights drawn by a fixed
 * generator, so that a fit is reproducible, or with --init from the
 * weights in use (a fit that goes on from them on new positions); the
 * held-out loss is reported every 10 epochs.
 *
 * Positions a five decides are left out, as the model never sees them.
 * The records (ID less its last "_ply") are split by a hash: one in five
 * is held out. Minimises the cross-entropy to the labels plus L2 times the
 * squared weights of the patterns and of the hidden layer (the linear
 * model alone by Adam on the full batch), first on four fifths to report
 * the held-out loss, then on all; prints the cross-entropies of
 * the model in use (the game's evaluate) and of the fit. The policy is a
 * softmax over the candidates of the two codes' weights of each move, fitted
 * alike to the log-likelihood of the moves chosen; its report compares it
 * with the priors in use (the default, priors=mixed), by cross-entropy and by how often
 * the move chosen has the largest prior. Writes the weights of both fits on
 * all positions to OUT, as games/gomoku/weights.c, under a header that
 * names the data (the files, their positions and --data TEXT, which says
 * where they come from: which games, labelled by what) and the command
 * that wrote it, environment included, so that a new fit keeps both.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "gomoku/gomoku.h"

#define NW (GMK_EVAL_FEATURES + GMK_EVAL_PATTERNS)

typedef struct sample {
    double target, now;          /* The label's probability, the model in use's. */
    double f[GMK_EVAL_FEATURES]; /* Class counts. */
    int start, n;                /* Pattern inputs: pat[start .. start + n - 1]. */
    bool held;                   /* In the held-out fifth. */
    bool mate;                   /* Labelled a win or loss seen (+Mn, -Mn). */
} sample;

static sample *S;
static uint16_t *pat;
static int ns, npat, cap_s, cap_p;
static double mate_p = 0.99; /* The target of a win seen (--mate P); of a loss, 1 - P. */
static double mate_w = 1;    /* The weight of their samples in the fit (--mate P,W). */

static double clampp(double p)
{
    return p < 1e-6 ? 1e-6 : p > 1 - 1e-6 ? 1 - 1e-6 : p;
}

static double xent(double t, double p)
{
    p = clampp(p);
    return -(t * log(p) + (1 - t) * log(1 - p));
}

/* Whether a sample of the held-out fifth or not (held) is in part: 0 all
 * samples, 1 the four fifths, 2 the held-out fifth. */
static bool in_part(bool held, int part)
{
    return part == 0 || (part == 1) != held;
}

static double zof(const sample *x, const double *w)
{
    double z = 0;
    for (int i = 0; i < GMK_EVAL_FEATURES; i++)
        z += w[i] * x->f[i];
    for (int i = 0; i < x->n; i++)
        z += w[GMK_EVAL_FEATURES + pat[x->start + i]];
    return z;
}

/* One step of Adam (iteration it) on weights w[0 .. nw - 1] with the
 * gradient g summed over n samples, L2 on the weights from free on. */
static void adam(double *w, const double *g, double *m, double *v, int nw, int free, int n,
                 double l2, int it)
{
    double lr = 0.02, b1 = 0.9, b2 = 0.999;
    for (int k = 0; k < nw; k++) {
        double gk = g[k] / n + (k >= free ? 2 * l2 * w[k] : 0);
        m[k] = b1 * m[k] + (1 - b1) * gk;
        v[k] = b2 * v[k] + (1 - b2) * gk * gk;
        double mh = m[k] / (1 - pow(b1, it)), vh = v[k] / (1 - pow(b2, it));
        w[k] -= lr * mh / (sqrt(vh) + 1e-8);
    }
}

/* Adam on the full batch of part (0 or 1, as in_part). */
static void fit(double *w, int part, double l2, int iters)
{
    static double g[NW], m[NW], v[NW];
    memset(w, 0, sizeof(double) * NW);
    memset(m, 0, sizeof m);
    memset(v, 0, sizeof v);
    int n = 0;
    for (int i = 0; i < ns; i++)
        n += in_part(S[i].held, part);
    for (int it = 1; it <= iters; it++) {
        memset(g, 0, sizeof g);
        for (int i = 0; i < ns; i++) {
            const sample *x = &S[i];
            if (!in_part(x->held, part))
                continue;
            double d = (1 / (1 + exp(-zof(x, w))) - x->target) * (x->mate ? mate_w : 1);
            for (int k = 0; k < GMK_EVAL_FEATURES; k++)
                g[k] += d * x->f[k];
            for (int k = 0; k < x->n; k++)
                g[GMK_EVAL_FEATURES + pat[x->start + k]] += d;
        }
        adam(w, g, m, v, NW, GMK_EVAL_FEATURES, n, l2, it);
    }
}

static double znet(const sample *x, const double *w, double *a);

/* The z of x under the weights w: the linear model's (hidden false) or the
 * net's. */
static double zmodel(const sample *x, const double *w, bool hidden)
{
    double a[256];
    return hidden ? znet(x, w, a) : zof(x, w);
}

/* The cross-entropies of the fit w (the net's if hidden) and of the model
 * in use on part. */
static void report(const char *what, const double *w, int part, bool hidden)
{
    double ce = 0, ent = 0, now = 0, ceu = 0, entu = 0, nowu = 0;
    int n = 0, nu = 0;
    for (int i = 0; i < ns; i++) {
        const sample *x = &S[i];
        if (!in_part(x->held, part))
            continue;
        double c = xent(x->target, 1 / (1 + exp(-zmodel(x, w, hidden))));
        double e = xent(x->target, x->target);
        double o = xent(x->target, x->now);
        ce += c, ent += e, now += o, n++;
        if (!x->mate)
            ceu += c, entu += e, nowu += o, nu++;
    }
    printf("%-28s %6d positions: cross-entropy %.4f (model in use %.4f, labels' entropy %.4f)\n",
           what, n, ce / n, now / n, ent / n);
    if (nu) /* Those without a win or loss seen, where the search needs the model most. */
        printf(
            "%-28s %6d undecided: cross-entropy %.4f (model in use %.4f, labels' entropy %.4f)\n",
            "", nu, ceu / nu, nowu / nu, entu / nu);
}

/* ---- The evaluation with a hidden layer (--hidden H) ----
 *
 * z = the linear model's sum + b2 + the sum over h < H of w2[h] * max(0,
 * a[h]), a = b1 + the sum of the rows E[i] of the pattern inputs i + the
 * class counts f times F. Fitted by Adam on minibatches, from weights drawn
 * by a fixed generator (reproducible). The weights lie in one array: the
 * linear model's NW, then E, F, b1, w2 and b2. */
static int H = GMK_EVAL_HIDDEN; /* Hidden units; 0: the linear model alone. */
static bool init_in_use;        /* --init: the fit starts from the weights in use. */
#define OFF_E  NW
#define OFF_F  (OFF_E + GMK_EVAL_PATTERNS * H)
#define OFF_B1 (OFF_F + GMK_EVAL_FEATURES * H)
#define OFF_W2 (OFF_B1 + H)
#define OFF_B2 (OFF_W2 + H)
#define NN     (OFF_B2 + 1)

/* The net's z of x, its hidden sums into a[H]. */
static double znet(const sample *x, const double *w, double *a)
{
    double z = zof(x, w) + w[OFF_B2];
    for (int h = 0; h < H; h++)
        a[h] = w[OFF_B1 + h];
    for (int i = 0; i < x->n; i++) {
        const double *e = w + OFF_E + (size_t)pat[x->start + i] * H;
        for (int h = 0; h < H; h++)
            a[h] += e[h];
    }
    for (int k = 0; k < GMK_EVAL_FEATURES; k++)
        for (int h = 0; h < H; h++)
            a[h] += w[OFF_F + k * H + h] * x->f[k];
    for (int h = 0; h < H; h++)
        z += a[h] > 0 ? w[OFF_W2 + h] * a[h] : 0;
    return z;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static double uniform(void) /* In [0, 1), splitmix64. */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static void fit_net(double *w, int part, double l2, int epochs, double lr)
{
    double *g = calloc(NN, sizeof *g), *m = calloc(NN, sizeof *m), *v = calloc(NN, sizeof *v);
    int *order = malloc(sizeof *order * (size_t)ns), n = 0, batch = 256, it = 0;
    double a[256], b1 = 0.9, b2 = 0.999;
    rng_state = 0x9e3779b97f4a7c15u;
    memset(w, 0, sizeof(double) * NN);
    for (int k = OFF_E; k < OFF_B1; k++)
        w[k] = (uniform() - 0.5) * 0.1;
    for (int h = 0; h < H; h++)
        w[OFF_W2 + h] = (uniform() - 0.5) * 0.2;
    if (init_in_use) { /* Go on from the weights in use (the same layout). */
        for (int k = 0; k < NW; k++)
            w[k] = gmk_eval_weights[k];
        for (int k = 0; k < GMK_EVAL_HIDDEN_WEIGHTS; k++)
            w[NW + k] = gmk_eval_hidden[k];
    }
    for (int i = 0; i < ns; i++)
        if (in_part(S[i].held, part))
            order[n++] = i;
    for (int ep = 1; ep <= epochs; ep++) {
        for (int i = n - 1; i > 0; i--) { /* Shuffle. */
            int j = (int)(uniform() * (i + 1)), t = order[i];
            order[i] = order[j], order[j] = t;
        }
        double rate = lr * (ep > epochs * 3 / 4 ? 0.1 : 1);
        for (int b = 0; b < n; b += batch) {
            int nb = n - b < batch ? n - b : batch;
            memset(g, 0, sizeof *g * NN);
            for (int j = b; j < b + nb; j++) {
                const sample *x = &S[order[j]];
                double d = (1 / (1 + exp(-znet(x, w, a))) - x->target) * (x->mate ? mate_w : 1);
                for (int k = 0; k < GMK_EVAL_FEATURES; k++)
                    g[k] += d * x->f[k];
                for (int k = 0; k < x->n; k++)
                    g[GMK_EVAL_FEATURES + pat[x->start + k]] += d;
                g[OFF_B2] += d;
                for (int h = 0; h < H; h++) {
                    if (a[h] <= 0)
                        continue;
                    double dh = d * w[OFF_W2 + h];
                    g[OFF_W2 + h] += d * a[h];
                    g[OFF_B1 + h] += dh;
                    for (int k = 0; k < x->n; k++)
                        g[OFF_E + (size_t)pat[x->start + k] * H + h] += dh;
                    for (int k = 0; k < GMK_EVAL_FEATURES; k++)
                        g[OFF_F + k * H + h] += dh * x->f[k];
                }
            }
            it++;
            double c1 = 1 - pow(b1, it), c2 = 1 - pow(b2, it);
            for (int k = 0; k < NN; k++) {
                double gk = g[k] / nb;
                if ((k >= GMK_EVAL_FEATURES && k < OFF_B1) || (k >= OFF_W2 && k < OFF_B2))
                    gk += 2 * l2 * w[k];
                if (gk == 0 && m[k] == 0)
                    continue;
                m[k] = b1 * m[k] + (1 - b1) * gk;
                v[k] = b2 * v[k] + (1 - b2) * gk * gk;
                w[k] -= rate * (m[k] / c1) / (sqrt(v[k] / c2) + 1e-8);
            }
        }
        if (part && (ep % 10 == 0 || ep == epochs)) {
            char what[32];
            snprintf(what, sizeof what, "  epoch %d, held out", ep);
            report(what, w, 2, true);
        }
    }
    free(g), free(m), free(v), free(order);
}

/* The policy's samples: the candidates' inputs from mpc[start] on
 * (gmk_policy_codes), the index of the move chosen, the priors in use. */
typedef struct move_sample {
    int start, n, chosen;
    double now;   /* The prior in use of the move chosen. */
    bool now_top; /* Whether that prior is the largest. */
    bool held;
} move_sample;

static move_sample *M;
static uint16_t *mpc;
static int nm, nmpc, cap_m, cap_mpc;

static void policy_probs(const move_sample *x, const double *u, double *p)
{
    double top = -1e300, total = 0;
    for (int i = 0; i < x->n; i++) {
        p[i] = 0;
        for (int c = 0; c < GMK_POLICY_CODES; c++)
            p[i] += u[mpc[x->start + GMK_POLICY_CODES * i + c]];
        top = p[i] > top ? p[i] : top;
    }
    for (int i = 0; i < x->n; i++)
        total += p[i] = exp(p[i] - top);
    for (int i = 0; i < x->n; i++)
        p[i] /= total;
}

static void fit_policy(double *u, int part, double l2, int iters)
{
    static double g[GMK_POLICY_WEIGHTS], m[GMK_POLICY_WEIGHTS], v[GMK_POLICY_WEIGHTS],
        p[BANYAN_MAX_MOVES];
    memset(u, 0, sizeof(double) * GMK_POLICY_WEIGHTS);
    memset(m, 0, sizeof m);
    memset(v, 0, sizeof v);
    int n = 0;
    for (int i = 0; i < nm; i++)
        n += in_part(M[i].held, part);
    for (int it = 1; it <= iters; it++) {
        memset(g, 0, sizeof g);
        for (int i = 0; i < nm; i++) {
            const move_sample *x = &M[i];
            if (!in_part(x->held, part))
                continue;
            policy_probs(x, u, p);
            for (int k = 0; k < x->n; k++) {
                double d = p[k] - (k == x->chosen);
                for (int c = 0; c < GMK_POLICY_CODES; c++)
                    g[mpc[x->start + GMK_POLICY_CODES * k + c]] += d;
            }
        }
        adam(u, g, m, v, GMK_POLICY_WEIGHTS, 0, n, l2, it);
    }
}

static void report_policy(const char *what, const double *u, int part)
{
    static double p[BANYAN_MAX_MOVES];
    double ce = 0, now = 0;
    int n = 0, top = 0, now_top = 0;
    for (int i = 0; i < nm; i++) {
        const move_sample *x = &M[i];
        if (!in_part(x->held, part))
            continue;
        policy_probs(x, u, p);
        int best = 0;
        for (int k = 1; k < x->n; k++)
            best = p[k] > p[best] ? k : best;
        top += best == x->chosen;
        ce -= log(clampp(p[x->chosen]));
        now -= log(clampp(x->now));
        now_top += x->now_top;
        n++;
    }
    printf("%-28s %6d moves: cross-entropy %.4f, top move %.1f%% (priors in use %.4f, %.1f%%)\n",
           what, n, ce / n, 100.0 * top / n, now / n, 100.0 * now_top / n);
}

static unsigned hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Plays the moves of the rest of a line (strtok_r's save) into s from the
 * empty board, all but the last `keep` of them, which go to last[];
 * returns false on an illegal move or a game over. */
static bool play_line(unsigned char *s, char **save, int keep, banyan_move *last)
{
    const banyan_game *g = &banyan_game_gomoku;
    char *tok, *toks[BANYAN_MAX_MOVES];
    int n = 0;
    double r[8];
    g->setup(s, "");
    while (n < BANYAN_MAX_MOVES && (tok = strtok_r(NULL, " \t\r\n", save)))
        toks[n++] = tok;
    for (int i = 0; i < n; i++) {
        banyan_move mv;
        if (g->outcome(s, r) || g->notation->parse_move(s, toks[i], &mv) != BANYAN_OK ||
            !banyan_game_is_legal(g, s, mv))
            return false;
        if (i >= n - keep)
            *last = mv;
        else
            g->play(s, mv);
    }
    return n > keep && !g->outcome(s, r);
}

static bool held_out(const char *id)
{
    const char *us = strrchr(id, '_');
    return hash(id, us ? (size_t)(us - id) : strlen(id)) % 5 == 0;
}

static int load_labels(const char *path)
{
    const banyan_game *g = &banyan_game_gomoku;
    static char line[1 << 16];
    unsigned char s[4096];
    uint16_t idx[2 * GMK_MAX * GMK_MAX + 1];
    FILE *in = fopen(path, "r");
    if (!in || g->state_size > sizeof s)
        return -1;
    while (fgets(line, sizeof line, in)) {
        char *save = NULL, *id = strtok_r(line, " \t\r\n", &save);
        char *ev = strtok_r(NULL, " \t\r\n", &save);
        if (!id || !ev || !play_line(s, &save, 0, NULL))
            continue;
        if (ns == cap_s && !(S = realloc(S, sizeof *S * (cap_s = cap_s ? 2 * cap_s : 4096))))
            return -1;
        sample *x = &S[ns];
        if (gmk_eval_features(s, x->f) != 0)
            continue;
        int n = gmk_eval_patterns(s, idx);
        while (npat + n > cap_p)
            if (!(pat = realloc(pat, sizeof *pat * (cap_p = cap_p ? 2 * cap_p : 1 << 16))))
                return -1;
        memcpy(pat + npat, idx, sizeof *idx * (size_t)n);
        double r[2];
        g->evaluate(s, r, NULL, 0, NULL);
        x->mate = ev[1] == 'M';
        x->target = x->mate ? (ev[0] == '+' ? mate_p : 1 - mate_p) : 1 / (1 + exp(-atof(ev) / 200));
        x->now = r[g->to_move(s)];
        x->start = npat;
        x->n = n;
        x->held = held_out(id);
        npat += n;
        ns++;
    }
    fclose(in);
    return ns;
}

/* Writes text to f as comment lines of at most 80 columns. */
static void comment_wrap(FILE *f, const char *text)
{
    int col = fprintf(f, " *");
    while (*text) {
        int n = (int)strcspn(text, " ");
        if (col > 3 && col + 1 + n > 80)
            col = fprintf(f, "\n *");
        col += fprintf(f, " %.*s", n, text);
        text += n;
        text += strspn(text, " ");
    }
    fprintf(f, "\n");
}

/* The header of weights.c: what it holds, its data (LABELS and MOVES,
 * loaded) and the command that wrote it (argv as given, with the
 * environment that sets the fit). */
static void write_header(FILE *f, int argc, char **argv, const char *data, const char *labels,
                         const char *moves)
{
    char cmd[4096] = "", text[4096];
    size_t at = 0;
    const char *env[] = {"EPOCHS", "LR"};
    for (int k = 0; k < 2; k++)
        if (getenv(env[k]) && at < sizeof cmd)
            at += (size_t)snprintf(cmd + at, sizeof cmd - at, "%s=%s ", env[k], getenv(env[k]));
    for (int k = 0; k < argc && at < sizeof cmd; k++) {
        const char *q = strpbrk(argv[k], " \"'$\\`*?;&|<>()") ? "'" : "";
        at += (size_t)snprintf(cmd + at, sizeof cmd - at, "%s%s%s%s", k ? " " : "", q,
                               k ? argv[k] : "build/release/fit-patterns", q);
    }
    fprintf(f, "/* clang-format off */\n"
               "/*\n * weights.c - the weights of Gomoku's evaluation model and of the\n"
               " * learned priors' policy (see gomoku.h), written by tools/fit_patterns.c:\n"
               " * do not edit.\n *\n");
    snprintf(text, sizeof text,
             "Data: %s Fitted on %d positions of %s (lines \"ID EVAL MOVES\" of "
             "tools/label_gomoku.py) and %d moves of %s (lines \"ID MOVES\").",
             data ? data : "not described (fit-patterns --data TEXT describes it).", ns, labels, nm,
             moves);
    comment_wrap(f, text);
    fprintf(f,
            " *\n * To fit it again from the same files:\n *\n"
            " *     make build/release/fit-patterns &&\n *       %s\n */\n",
            cmd);
}

static int load_moves(const char *path)
{
    const banyan_game *g = &banyan_game_gomoku;
    static char line[1 << 16];
    unsigned char s[4096];
    banyan_move cand[BANYAN_MAX_MOVES], chosen;
    float pri[BANYAN_MAX_MOVES];
    FILE *in = fopen(path, "r");
    if (!in || g->state_size > sizeof s)
        return -1;
    while (fgets(line, sizeof line, in)) {
        char *save = NULL, *id = strtok_r(line, " \t\r\n", &save);
        if (!id || !play_line(s, &save, 1, &chosen))
            continue;
        int n = g->tactics->candidates(s, cand), k = 0;
        while (k < n && cand[k] != chosen)
            k++;
        if (n < 2 || k == n) /* Forced, or a move the candidates lack. */
            continue;
        if (nm == cap_m && !(M = realloc(M, sizeof *M * (cap_m = cap_m ? 2 * cap_m : 4096))))
            return -1;
        while (nmpc + GMK_POLICY_CODES * n > cap_mpc)
            if (!(mpc = realloc(mpc, sizeof *mpc * (cap_mpc = cap_mpc ? 2 * cap_mpc : 1 << 16))))
                return -1;
        move_sample *x = &M[nm++];
        gmk_policy_codes((const gmk *)s, cand, n, mpc + nmpc);
        g->priors(s, cand, n, pri);
        x->start = nmpc;
        x->n = n;
        x->chosen = k;
        x->now = pri[k];
        x->now_top = true;
        for (int i = 0; i < n; i++)
            x->now_top = x->now_top && pri[i] <= pri[k];
        x->held = held_out(id);
        nmpc += GMK_POLICY_CODES * n;
    }
    fclose(in);
    return nm;
}

int main(int argc, char **argv)
{
    static double w[NW], u[GMK_POLICY_WEIGHTS];
    int epochs = getenv("EPOCHS") ? atoi(getenv("EPOCHS")) : 40;
    double lr = getenv("LR") ? atof(getenv("LR")) : 0.001;
    int all_argc = argc;
    char **all_argv = argv;
    const char *data = NULL;
    if (argc > 2 && !strcmp(argv[1], "--hidden")) {
        H = atoi(argv[2]) < 0 ? 0 : atoi(argv[2]) > 256 ? 256 : atoi(argv[2]);
        argc -= 2, argv += 2;
    }
    if (argc > 1 && !strcmp(argv[1], "--init")) {
        init_in_use = true;
        argc--, argv++;
    }
    if (argc > 2 && !strcmp(argv[1], "--mate")) {
        const char *c = strchr(argv[2], ',');
        mate_p = atof(argv[2]);
        mate_w = c ? atof(c + 1) : 1;
        argc -= 2, argv += 2;
    }
    if (argc > 2 && !strcmp(argv[1], "--data")) {
        data = argv[2];
        argc -= 2, argv += 2;
    }
    if (argc < 3 || mate_p <= 0.5 || mate_p >= 1 || mate_w < 0) {
        fprintf(
            stderr,
            "usage: fit-patterns [--hidden H] [--init] [--mate P[,W]] [--data TEXT] LABELS MOVES "
            "[L2[,L2P]] [OUT]\n");
        return 2;
    }
    /* L2 as "EVAL,POLICY": the policy's rare strong codes need less. */
    const char *comma = argc > 3 ? strchr(argv[3], ',') : NULL;
    double l2 = argc > 3 ? atof(argv[3]) : 1e-3, l2p = comma ? atof(comma + 1) : 3e-5;
    if (load_labels(argv[1]) <= 0 || load_moves(argv[2]) <= 0) {
        fprintf(stderr, "fit-patterns: no positions in %s or %s\n", argv[1], argv[2]);
        return 1;
    }
    double *wn = calloc(NN, sizeof *wn);
    if (!wn)
        return 1;
    fit(w, 1, l2, 1500);
    report("linear on four fifths, train", w, 1, false);
    report("linear on four fifths, held out", w, 2, false);
    if (H) {
        fit_net(wn, 1, l2, epochs, lr);
        report("net on four fifths, train", wn, 1, true);
        report("net on four fifths, held out", wn, 2, true);
    }
    fit_policy(u, 1, l2p, 1500);
    report_policy("policy on four fifths, train", u, 1);
    report_policy("policy on four fifths, held", u, 2);
    if (argc > 4) {
        if (H && H != GMK_EVAL_HIDDEN) {
            fprintf(stderr, "fit-patterns: weights.c needs --hidden %d or 0\n", GMK_EVAL_HIDDEN);
            return 2;
        }
        FILE *out = fopen(argv[4], "w");
        if (H) {
            fit_net(wn, 0, l2, epochs, lr);
            report("net on all", wn, 0, true);
        } else {
            fit(wn, 0, l2, 1500);
            report("linear on all", wn, 0, false);
        }
        fit_policy(u, 0, l2p, 1500);
        report_policy("policy on all", u, 0);
        if (!out)
            return 1;
        write_header(out, all_argc, all_argv, data, argv[1], argv[2]);
        fprintf(out, "#include \"gomoku.h\"\n\n"
                     "const float gmk_eval_weights[GMK_EVAL_WEIGHTS] = {");
        for (int k = 0; k < NW; k++)
            fprintf(out, "%s%.4ff,", k % 8 ? " " : "\n    ", wn[k]);
        fprintf(out, "\n};\n\nconst float gmk_eval_hidden[GMK_EVAL_HIDDEN_WEIGHTS] = {");
        for (int k = 0; k < GMK_EVAL_HIDDEN_WEIGHTS; k++) /* Zeros for --hidden 0. */
            fprintf(out, "%s%.4ff,", k % 8 ? " " : "\n    ", H ? wn[NW + k] : 0.0);
        fprintf(out, "\n};\n\nconst float gmk_policy_weights[GMK_POLICY_WEIGHTS] = {");
        for (int k = 0; k < GMK_POLICY_WEIGHTS; k++)
            fprintf(out, "%s%.4ff,", k % 8 ? " " : "\n    ", u[k]);
        fprintf(out, "\n};\n/* clang-format on */\n");
        if (fclose(out) != 0)
            return 1;
    }
    free(wn);
    return 0;
}
