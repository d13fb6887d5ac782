/*
 * tsptw.c - embedding libbanyan for a routing problem: the Travelling
 * Salesman Problem with Time Windows, searched by nested rollout policy
 * adaptation (NRPA) or nested Monte Carlo search (NMCS) through
 * banyan_solo_run(). Copy it for your own routing or scheduling problem:
 * the instance is read once into a static struct, a state is a few plain
 * numbers (where the route stands, when, at what cost), a move is the next
 * customer, and the return scores a tour.
 *
 * The problem, as the literature states it (Potvin and Bengio 1996;
 * López-Ibáñez and Blum 2010): leave the depot (node 0) at time 0, visit
 * every customer 1 .. N-1 once and come back. Arriving at j takes d[i][j]
 * after leaving i; arriving before j's window opens (ready) means waiting
 * until it does; arriving after it closes (due) makes the tour infeasible,
 * and so does coming back to the depot after its own due time. The cost is
 * the sum of the tour's d[i][j]; waiting costs nothing.
 *
 * What the domain gives the library beyond the rules: move_code(), so that
 * NRPA's policy learns arcs (i then j) rather than customers, and priors(),
 * a prior per move that GNRPA's bias (--bias B) turns into a preference for
 * moves that keep the windows.
 *
 * Build: cc tsptw.c $(pkg-config --cflags --libs banyan) -lm  (or `make`).
 * Run:   example-tsptw tests/data/tsptw/rc201.1.txt
 *        example-tsptw --time 60 --seed 3 tests/data/tsptw/rc204.1.txt
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"

#define TSPTW_MAX 256 /* Nodes, the depot included: moves() lists fewer than 512. */
/* What each window violation costs. It is far above the cost of any tour
 * of the instances in tests/data/tsptw (under 1,000), so an infeasible
 * tour always scores below a feasible one, and of two infeasible tours the
 * one with fewer violations scores higher: the search is led towards
 * feasibility first, then towards short tours. (Instances whose tours cost
 * millions need a larger one.) */
#define TSPTW_PENALTY 1e6
#define TSPTW_TOKEN   64 /* The longest number the reader accepts, in characters. */

/* The instance: read once, then only read by the game's functions, so that
 * states hold no pointers and any number of threads may share it. */
static struct tsptw_instance {
    int n; /* Nodes, the depot 0 included. */
    double d[TSPTW_MAX][TSPTW_MAX];
    double ready[TSPTW_MAX], due[TSPTW_MAX];
    double scale; /* The mean travel time between two nodes: the priors' unit. */
    double sharp; /* --bias B: the priors' exponent (below). */
} tsptw;

/* ---- Reading an instance ---- */

/* A reader of the file's numbers: whitespace between them, '#' to the end
 * of a line a comment (as tools/tsptw_check.py reads them). */
typedef struct tsptw_reader {
    FILE *f;
    const char *path;
    long count; /* Numbers read so far. */
} tsptw_reader;

/* The next word of the file into buf (len bytes); false at the end of the
 * file. A word too long for buf comes back empty, which no number is. */
static bool tsptw_word(tsptw_reader *r, char *buf, size_t len)
{
    size_t n = 0;
    bool cut = false;
    int c;
    do {
        c = getc(r->f);
        if (c == '#') /* A comment, to the end of its line. */
            while (c != '\n' && c != EOF)
                c = getc(r->f);
    } while (isspace(c));
    if (c == EOF)
        return false;
    for (; c != EOF && c != '#' && !isspace(c); c = getc(r->f)) {
        if (n + 1 < len)
            buf[n++] = (char)c;
        else
            cut = true;
    }
    if (c == '#')
        ungetc(c, r->f);
    buf[cut ? 0 : n] = '\0';
    return true;
}

/* The next number of the file into *out: a plain decimal number (digits,
 * a point, an exponent), finite. strtod alone would take "inf", "nan" and
 * hexadecimal too, which no instance holds; refusing them keeps this reader
 * and the Python one (examples/tsptw.py) in step. Prints why and returns
 * false otherwise. */
static bool tsptw_number(tsptw_reader *r, double *out)
{
    char buf[TSPTW_TOKEN + 1], *end;
    if (!tsptw_word(r, buf, sizeof buf)) {
        fprintf(stderr, "example-tsptw: %s: the file ends after %ld numbers\n", r->path, r->count);
        return false;
    }
    *out = strtod(buf, &end);
    if (!*buf || buf[strspn(buf, "0123456789.eE+-")] || *end || !isfinite(*out)) {
        fprintf(stderr, "example-tsptw: %s: number %ld is not a decimal number: \"%s\"\n", r->path,
                r->count + 1, buf);
        return false;
    }
    r->count++;
    return true;
}

/* The numbers of r into tsptw: N, then N rows of N travel times (row i
 * from node i), then N lines "ready due", and nothing more. Prints what is
 * wrong and returns false for a file that is not one. */
static bool tsptw_parse(tsptw_reader *r)
{
    double x;
    char extra[TSPTW_TOKEN + 1];
    if (!tsptw_number(r, &x))
        return false;
    if (x != floor(x) || x < 2 || x > TSPTW_MAX) {
        fprintf(stderr, "example-tsptw: %s: the node count must be a whole number from 2 to %d\n",
                r->path, TSPTW_MAX);
        return false;
    }
    int n = tsptw.n = (int)x;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (!tsptw_number(r, &tsptw.d[i][j]))
                return false;
    for (int i = 0; i < n; i++)
        if (!tsptw_number(r, &tsptw.ready[i]) || !tsptw_number(r, &tsptw.due[i]))
            return false;
    if (tsptw_word(r, extra, sizeof extra)) {
        fprintf(stderr, "example-tsptw: %s: more than the %d numbers of %d nodes\n", r->path,
                1 + n * n + 2 * n, n);
        return false;
    }
    return true;
}

/* Reads the instance at path into tsptw, or says why not and returns
 * false. */
static bool tsptw_read(const char *path)
{
    tsptw_reader r = {.f = fopen(path, "r"), .path = path};
    if (!r.f) {
        fprintf(stderr, "example-tsptw: cannot open %s: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = tsptw_parse(&r);
    fclose(r.f);
    if (!ok)
        return false;
    double sum = 0;
    for (int i = 0; i < tsptw.n; i++)
        for (int j = 0; j < tsptw.n; j++)
            if (i != j)
                sum += tsptw.d[i][j];
    tsptw.scale = sum > 0 ? sum / (tsptw.n * (tsptw.n - 1)) : 1;
    return true;
}

/* ---- The domain ---- */

/* A partial tour: where it stands, and what it has cost so far. */
typedef struct tour {
    double time;                      /* When the route leaves cur (after any wait). */
    double cost;                      /* The travel times so far; the return's too once over. */
    uint16_t cur;                     /* The node the route stands at. */
    uint16_t n_visited;               /* Customers visited. */
    uint16_t violations;              /* Windows missed, the depot's on the return included. */
    uint64_t visited[TSPTW_MAX / 64]; /* Bit j: customer j is visited. */
} tour;

static bool tour_visited(const tour *t, int j)
{
    return t->visited[j / 64] >> (j % 64) & 1;
}

static int tour_setup(void *s, const char *params)
{
    if (params && *params)
        return BANYAN_EINVAL;   /* The instance is the file, not parameters. */
    memset(s, 0, sizeof(tour)); /* At the depot at time 0; padding zeroed for the hash. */
    return BANYAN_OK;
}

/* The customers not yet visited, in increasing order; none once every one
 * is, which ends the game (the return to the depot is not a move: it is
 * the only way on). */
static int tour_moves(const void *s, banyan_move *out)
{
    const tour *t = s;
    int n = 0;
    for (int j = 1; j < tsptw.n; j++)
        if (!tour_visited(t, j))
            out[n++] = (banyan_move)j;
    return n;
}

/* Travels from t->cur to j: arrival, a wait until j opens, a violation
 * when j has closed. */
static void tour_go(tour *t, int j)
{
    double arrive = t->time + tsptw.d[t->cur][j];
    if (arrive < tsptw.ready[j])
        arrive = tsptw.ready[j];
    if (arrive > tsptw.due[j])
        t->violations++;
    t->cost += tsptw.d[t->cur][j];
    t->time = arrive;
    t->cur = (uint16_t)j;
}

static void tour_play(void *s, banyan_move m)
{
    tour *t = s;
    tour_go(t, (int)m);
    t->visited[m / 64] |= 1ull << (m % 64);
    if (++t->n_visited == tsptw.n - 1)
        tour_go(t, 0); /* The last customer: back to the depot. */
}

/* The return of a tour, the higher the better (banyan_solo_run keeps the
 * highest): minus its cost and the penalty of its violations. */
static double tour_return(const tour *t)
{
    return -(t->cost + TSPTW_PENALTY * t->violations);
}

static bool tour_outcome(const void *s, double *returns)
{
    const tour *t = s;
    if (t->n_visited < tsptw.n - 1)
        return false;
    returns[0] = tour_return(t);
    return true;
}

static int tour_to_move(const void *s)
{
    (void)s;
    return 0;
}

/* The arc from where the route stands to m: NRPA's policy then learns
 * which customer follows which, the knowledge a tour is made of, rather
 * than which customer is good anywhere. */
static uint64_t tour_move_code(const void *s, banyan_move m)
{
    const tour *t = s;
    return (uint64_t)t->cur * (uint64_t)tsptw.n + m;
}

/* GNRPA's prior of each move: exp(-x / scale), x the time the move adds to
 * the schedule, travel and waiting (arrival - time), plus the lateness when
 * it arrives after the window closes; scale the mean travel time of the
 * instance. Under a bias B the policy's weight of a move gains -B x /
 * scale: the nearest customer in time is preferred, one that opens much
 * later waits its turn, and one already missed is put off by its lateness.
 * The prior given is exp(-B x / scale) itself, with the library's bias
 * weight 1 (the same probabilities as exp(-x / scale) under weight B): a
 * weight of 1 multiplies by the prior, where another takes a power.
 * It is the nearest-neighbour-in-time rule of construction heuristics,
 * softened into a probability, which NRPA's learnt weights then override
 * where the tours found say otherwise. */
static void tour_priors(const void *s, const banyan_move *moves, int n, float *out)
{
    const tour *t = s;
    for (int i = 0; i < n; i++) {
        int j = (int)moves[i];
        double arrive = t->time + tsptw.d[t->cur][j];
        if (arrive < tsptw.ready[j])
            arrive = tsptw.ready[j];
        double late = arrive > tsptw.due[j] ? arrive - tsptw.due[j] : 0;
        out[i] = (float)exp(-tsptw.sharp * (arrive - t->time + late) / tsptw.scale);
    }
}

/* A move as people read it: the customer's number, so that tours print as
 * the node lists the instance's literature and tools/tsptw_check.py use. */
static int tour_format(const void *s, banyan_move m, char *buf, size_t len)
{
    (void)s;
    return snprintf(buf, len, "%u", (unsigned)m);
}

static const banyan_notation tour_notation = {
    BANYAN_NOTATION_INIT,
    .format_move = tour_format,
};

/* Not const: the bounds of the return depend on the instance, and main()
 * sets reward_min once it is read. */
static banyan_game tour_game = {
    BANYAN_GAME_INIT,
    .name = "tsptw",
    .title = "Travelling Salesman Problem with Time Windows",
    .state_size = sizeof(tour),
    .n_players = 1,
    .reward_min = -1, /* Set by main() for the instance. */
    .reward_max = 0,  /* No tour costs less than nothing. */
    .setup = tour_setup,
    .moves = tour_moves,
    .play = tour_play,
    .outcome = tour_outcome,
    .to_move = tour_to_move,
    .priors = tour_priors,
    .notation = &tour_notation,
    .move_code = tour_move_code,
};

/* The lowest return of any tour: every node left by its longest arc, every
 * node (the depot's return included) late. */
static double tsptw_worst(void)
{
    double cost = 0;
    for (int i = 0; i < tsptw.n; i++) {
        double longest = 0;
        for (int j = 0; j < tsptw.n; j++)
            if (tsptw.d[i][j] > longest)
                longest = tsptw.d[i][j];
        cost += longest;
    }
    return -(cost + TSPTW_PENALTY * tsptw.n);
}

/* The tour of moves[0 .. n-1], replayed from the depot into *out. */
static void tsptw_replay(const banyan_move *moves, int n, tour *out)
{
    tour_setup(out, NULL);
    for (int i = 0; i < n; i++)
        tour_play(out, moves[i]);
}

/* ---- The program ---- */

typedef struct tsptw_args {
    int algorithm, level, iterations, threads;
    double time, bias;
    uint64_t playouts, seed;
    const char *path;
} tsptw_args;

static int tsptw_usage(const char *why, const char *what)
{
    if (why)
        fprintf(stderr, "example-tsptw: %s%s%s%s\n", why, what ? " \"" : "", what ? what : "",
                what ? "\"" : "");
    fprintf(stderr, "usage: example-tsptw [--algorithm nrpa|nmcs] [--level L] [--iterations N]\n"
                    "                     [--time S | --playouts N] [--seed S] [--threads T]\n"
                    "                     [--bias B] FILE\n");
    return 2;
}

/* A whole number in [lo, hi] that fills text. */
static bool tsptw_whole(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    if (!text || *text < '0' || *text > '9')
        return false;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno == ERANGE || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A finite number in [lo, hi] that fills text. */
static bool tsptw_real(const char *text, double lo, double hi, double *out)
{
    char *end;
    if (!text || !*text)
        return false;
    double v = strtod(text, &end);
    if (*end || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Reads argv into *a; returns 0, or the exit status after a message. */
static int tsptw_options(int argc, char **argv, tsptw_args *a)
{
    *a = (tsptw_args){.algorithm = BANYAN_SOLO_NRPA, .threads = 1, .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u = 0;
        bool ok = true;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            tsptw_usage(NULL, NULL);
            return -1;
        } else if (o[0] != '-' || !o[1]) {
            if (a->path)
                return tsptw_usage("one instance file, not two:", o);
            a->path = o;
            continue;
        } else if (!v) {
            return tsptw_usage("a value must follow", o);
        } else if (!strcmp(o, "--algorithm")) {
            ok = !strcmp(v, "nrpa") || !strcmp(v, "nmcs");
            a->algorithm = !strcmp(v, "nmcs") ? BANYAN_SOLO_NMCS : BANYAN_SOLO_NRPA;
        } else if (!strcmp(o, "--level")) {
            ok = tsptw_whole(v, 1, BANYAN_SOLO_MAX_LEVEL, &u);
            a->level = (int)u;
        } else if (!strcmp(o, "--iterations")) {
            ok = tsptw_whole(v, 1, 1000000, &u);
            a->iterations = (int)u;
        } else if (!strcmp(o, "--threads")) {
            ok = tsptw_whole(v, 1, BANYAN_MAX_THREADS, &u);
            a->threads = (int)u;
        } else if (!strcmp(o, "--playouts")) {
            ok = tsptw_whole(v, 1, UINT64_MAX, &a->playouts);
        } else if (!strcmp(o, "--seed")) {
            ok = tsptw_whole(v, 0, UINT64_MAX, &a->seed);
        } else if (!strcmp(o, "--time")) {
            ok = tsptw_real(v, 1e-3, 1e9, &a->time);
        } else if (!strcmp(o, "--bias")) {
            ok = tsptw_real(v, -1e3, 1e3, &a->bias);
        } else {
            return tsptw_usage("unknown option", o);
        }
        if (!ok) {
            fprintf(stderr, "example-tsptw: bad value for %s: \"%s\"\n", o, v);
            return 2;
        }
        i++;
    }
    if (!a->path)
        return tsptw_usage("no instance file given", NULL);
    if (a->time > 0 && a->playouts > 0)
        return tsptw_usage("--time and --playouts: one budget or the other", NULL);
    return 0;
}

/* Each better tour, as it is found: when, its cost, whether it keeps every
 * window. */
static int tsptw_progress(void *ud, const banyan_solo_event *ev)
{
    tour t;
    (void)ud;
    if (ev->kind != BANYAN_SOLO_LINE)
        return 0;
    tsptw_replay(ev->moves, ev->n_moves, &t);
    printf("%9.3f s  cost %.4f  %s (violations %d)\n", ev->elapsed, t.cost,
           t.violations ? "infeasible" : "feasible", t.violations);
    fflush(stdout);
    return 0;
}

/* The instance's name: the file's base name less ".txt". */
static void tsptw_name(const char *path, char *buf, size_t len)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".txt"))
        n -= 4;
    snprintf(buf, len, "%.*s", (int)n, base);
}

int main(int argc, char **argv)
{
    tsptw_args a;
    int rc = tsptw_options(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!tsptw_read(a.path))
        return 2;
    tour_game.reward_min = tsptw_worst();
    tsptw.sharp = a.bias;

    banyan_config cfg = BANYAN_CONFIG(.seed = a.seed, .threads = a.threads);
    banyan_solo_options opt =
        BANYAN_SOLO_OPTIONS(.algorithm = a.algorithm, .level = a.level, .iterations = a.iterations,
                            .playouts = a.playouts, .time = a.time, .bias = a.bias != 0,
                            .progress = tsptw_progress);
    banyan_move moves[TSPTW_MAX];
    banyan_solo_result res = BANYAN_SOLO_RESULT(moves, TSPTW_MAX);
    rc = banyan_solo_run(&tour_game, NULL, NULL, &cfg, &opt, &res);
    if (rc != BANYAN_OK) {
        fprintf(stderr, "example-tsptw: the search failed: %s\n", banyan_strerror(rc));
        return 1;
    }
    if (!res.found) {
        fprintf(stderr, "example-tsptw: no whole tour within the budget\n");
        return 1;
    }

    char name[256], move[16];
    tour t;
    tsptw_name(a.path, name, sizeof name);
    tsptw_replay(moves, res.n_moves, &t);
    printf("instance: %s nodes %d\n", name, tsptw.n);
    printf("best: %.4f %s (violations %d)\n", t.cost, t.violations ? "infeasible" : "feasible",
           t.violations);
    printf("tour: 0");
    tour_setup(&t, NULL);
    for (int i = 0; i < res.n_moves; i++) { /* Each move written where it is played. */
        banyan_game_format(&tour_game, &t, moves[i], 0, move, sizeof move);
        printf(" %s", move);
        tour_play(&t, moves[i]);
    }
    printf(" 0\n");
    printf("playouts: %llu seconds: %.3f\n", (unsigned long long)res.playouts, res.seconds);
    return 0;
}
