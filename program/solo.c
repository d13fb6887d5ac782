/*
 * solo.c - `banyan solo`: the longest (highest-scoring) game of a
 * single-player game, Morpion Solitaire by default, within a total budget
 * of time or playouts: a front-end over banyan_solo_run() (banyan.h says
 * what a run does: a search before each move, the first move of the best
 * line played, the budget split over the moves, restarts with their own
 * seeds).
 *
 * The command gives the library its options (--runs, --follow line|visits,
 * --share even|front, the budget), prints each better line and each run as
 * the library reports them, and keeps the best game as a record: printed,
 * saved (--save, a record of record.h's plain format, rewritten at each
 * improvement) and reloaded with --load, which checks and shows it (and,
 * with a budget, searches on for a better one, which it must beat to be
 * saved).
 *
 * --algorithm nrpa|nmcs picks a nested algorithm instead (banyan.h,
 * BANYAN_SOLO_NRPA and _NMCS) with --level, --iterations, --alpha,
 * --temperature, --bias and --policy-memory; without a budget a nested
 * algorithm runs its --runs whole runs. Every better game is printed and
 * saved as it is found, and a game given with --load is where the runs
 * start: their best game at first, which they must beat.
 *
 * Under mpirun NRPA runs on every rank with a seed of its own (the
 * rank's), and the ranks share their best games after each batch of the
 * top level's iterations (solo_share): each then adapts to the best of
 * all. --playouts is the job's, split over the ranks; rank 0 prints and
 * saves.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dist.h"
#include "os.h"
#include "record.h"

#define SOLO_DEFAULT_TIME 20.0 /* Seconds, without --time or --playouts. */

/* The command's state: its options, the best game and where it goes. */
typedef struct solo {
    cli_opts o;
    char params[512];
    bool follow_line; /* --follow line (default) or visits. */
    bool front;       /* --share front: earlier moves get more of the budget. */
    long runs;
    const char *save, *load, *export; /* --export: the game's own file format. */
    record best;                      /* The best game so far: moves from the start. */
    bool have_best;                   /* best holds a finished game. */
    double best_ret;                  /* Its return. */
    double start;                     /* cli_now() at the start. */
    int algorithm;                    /* BANYAN_SOLO_*. */
    long level, iterations, policy_mb;
    double alpha, temperature, bias;
} solo;

/* Writes the best game to --save. */
static bool solo_save(solo *S)
{
    FILE *f = fopen(S->save, "w");
    if (!f || record_save(&S->best, f, RECORD_TEXT) != BANYAN_OK) {
        fprintf(stderr, "banyan solo: cannot write %s\n", S->save);
        if (f)
            fclose(f);
        return false;
    }
    return fclose(f) == 0;
}

/* Writes the best game to --export, in the game's own file format
 * (banyan_game_write: Morpion's is Pentasol's). */
static bool solo_export(solo *S)
{
    const record *r = &S->best;
    banyan_move *m = malloc((size_t)(r->n_moves + 1) * sizeof *m);
    const void *start = record_before(&S->best, 0);
    for (int i = 0; m && i < r->n_moves; i++)
        m[i] = r->moves[i].move;
    int len = m ? banyan_game_write(r->g, start, m, r->n_moves, NULL, 0) : -1;
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    FILE *f = text ? fopen(S->export, "w") : NULL;
    bool ok = f && banyan_game_write(r->g, start, m, r->n_moves, text, (size_t)len + 1) == len &&
              fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "banyan solo: cannot write %s\n", S->export);
    free(text);
    free(m);
    return ok;
}

/* The return of the finished game of record r, or false while it goes on. */
static bool solo_score(const record *r, double *out)
{
    double ret[BANYAN_MAX_PLAYERS];
    if (!r->g->outcome(record_state(r), ret))
        return false;
    *out = ret[0];
    return true;
}

/* Prints the game of r: its moves and the final diagram. */
static void solo_print(record *r)
{
    printf("moves:");
    for (int i = 0; i < r->n_moves; i++)
        printf(" %s", cli_move(r->g, record_before(r, i), r->moves[i].move));
    printf("\n");
    cli_print_board(stdout, r->g, record_state(r),
                    r->n_moves ? r->moves[r->n_moves - 1].move : BANYAN_MOVE_NONE);
}

/* The game of a run that beat the best (ev): recorded, kept and saved.
 * Returns BANYAN_OK, or the code of a move the record refuses. */
static int solo_offer(solo *S, const banyan_solo_event *ev)
{
    record r;
    char why[512];
    int rc = record_init(&r, S->o.game, S->params, S->o.position, why, sizeof why);
    for (int i = 0; rc == BANYAN_OK && i < ev->n_moves; i++)
        rc = record_push(&r, ev->moves[i], -1, NULL);
    if (rc != BANYAN_OK) {
        record_free(&r);
        return rc;
    }
    record_free(&S->best);
    S->best = r;
    S->have_best = true;
    S->best_ret = ev->score;
    snprintf(S->best.result, sizeof S->best.result, "score %g", ev->score);
    if (S->save)
        solo_save(S);
    if (S->export)
        solo_export(S);
    return BANYAN_OK;
}

/* Under mpirun: this rank's best game to every other rank, theirs taken,
 * and the best of all (ties to the lowest rank) into *game on every rank.
 * A message: stopping, have, the score, the length, the moves. A rank that
 * dies takes the job with it (mpirun's rule), so the wait has no bound: a
 * batch of NRPA's top level may take hours. */
static int solo_share(void *ud, banyan_solo_shared *game, bool stopping)
{
    (void)ud;
    int me = dist_rank(), n = dist_ranks(), best_rank = me;
    size_t head = 2 + sizeof(double) + sizeof(int32_t);
    size_t len = head + (size_t)game->n_moves * sizeof(uint32_t);
    unsigned char *msg = malloc(len);
    dist_post **posts = calloc((size_t)n, sizeof *posts);
    if (!msg || !posts)
        dist_fail("out of memory");
    int32_t n_moves = game->n_moves;
    msg[0] = stopping;
    msg[1] = game->have;
    memcpy(msg + 2, &game->score, sizeof(double));
    memcpy(msg + 2 + sizeof(double), &n_moves, sizeof n_moves);
    for (int i = 0; i < game->n_moves; i++) {
        uint32_t m = game->moves[i];
        memcpy(msg + head + (size_t)i * sizeof m, &m, sizeof m);
    }
    for (int r = 0; r < n; r++)
        if (r != me)
            posts[r] = dist_start_send(r, DIST_TAG_SOLO, msg, len);
    bool stop = stopping, have = game->have;
    double score = game->score;
    for (int r = 0; r < n; r++) {
        size_t got;
        if (r == me)
            continue;
        unsigned char *in = dist_recv(r, DIST_TAG_SOLO, NULL, &got, -1);
        int32_t k;
        double sc;
        if (!in || got < head)
            dist_fail("rank %d sent a malformed game", r);
        memcpy(&sc, in + 2, sizeof sc);
        memcpy(&k, in + 2 + sizeof sc, sizeof k);
        if (k < 0 || k > game->room || got != head + (size_t)k * sizeof(uint32_t))
            dist_fail("rank %d sent a malformed game", r);
        stop = stop || in[0];
        if (in[1] && (!have || sc > score || (sc == score && r < best_rank))) {
            have = true;
            score = sc;
            best_rank = r;
            game->n_moves = k;
            for (int i = 0; i < k; i++) {
                uint32_t m;
                memcpy(&m, in + head + (size_t)i * sizeof m, sizeof m);
                game->moves[i] = m;
            }
        }
        free(in);
    }
    for (int r = 0; r < n; r++)
        while (r != me && !dist_done(posts[r]))
            ;
    game->have = have;
    game->score = score;
    free(posts);
    free(msg);
    return stop ? 1 : 0;
}

/* The library's progress: a better line found, a run finished. */
static int solo_progress(void *ud, const banyan_solo_event *ev)
{
    solo *S = ud;
    if (dist_rank() != 0)
        return 0;                                    /* Rank 0 speaks for the job. */
    if (ev->kind == BANYAN_SOLO_LINE && ev->moves) { /* A nested run's game. */
        printf("  %7.1f s  run %d: a game of %g found\n", cli_now() - S->start, ev->run + 1,
               ev->score);
        fflush(stdout);
        return solo_offer(S, ev);
    }
    if (ev->kind == BANYAN_SOLO_LINE) {
        printf("  %7.1f s  run %d  move %d: a game of %g found\n", cli_now() - S->start,
               ev->run + 1, ev->move, ev->score);
        fflush(stdout);
        return 0;
    }
    printf("run %d: %g in %.1f s, %" PRIu64 " playouts (best %g)\n", ev->run + 1, ev->score,
           ev->seconds, ev->playouts, ev->best);
    fflush(stdout);
    return ev->improved ? solo_offer(S, ev) : 0;
}

/* The runs, within a budget of total seconds or playouts (--playouts).
 * The engine is made once first, so that a config, parameters or a
 * position that no engine takes is explained, and a network (--net) is
 * opened once for every run. Returns false when a run fails. */
static bool solo_search(solo *S, double total)
{
    options eng = S->o.eng;
    banyan_engine *e;
    net_evaluator *ev;
    record r;
    char why[512] = "";
    int rc = options_engine_new(&eng, &eng.cfg, S->o.game, S->params, &e, &ev, why, sizeof why);
    if (rc != BANYAN_OK) {
        if (why[0])
            fprintf(stderr, "banyan solo: %s\n", why);
        else
            cli_explain_new("banyan solo", S->o.game, S->params, &eng.cfg, rc);
        return false;
    }
    rc = record_init(&r, S->o.game, S->params, S->o.position, why, sizeof why);
    record_free(&r);
    if (rc != BANYAN_OK || (S->o.position && banyan_engine_load(e, S->o.position) != BANYAN_OK)) {
        fprintf(stderr, "banyan solo: %s\n", why[0] ? why : banyan_errmsg(e));
        banyan_engine_free(e);
        net_evaluator_free(ev);
        return false;
    }
    banyan_engine_free(e);
    if (ev)
        eng.cfg.evaluator = net_evaluator_hook(ev);
    banyan_solo_options opt =
        BANYAN_SOLO_OPTIONS(.runs = (int)S->runs, .follow_visits = !S->follow_line,
                            .share_front = S->front, .beat = S->have_best, .to_beat = S->best_ret,
                            .progress = solo_progress, .progress_ud = S, .algorithm = S->algorithm,
                            .level = (int)S->level, .iterations = (int)S->iterations,
                            .alpha = S->alpha, .temperature = S->temperature, .bias = S->bias,
                            .policy_memory = (size_t)S->policy_mb << 20);
    if (S->algorithm != BANYAN_SOLO_MCTS && S->have_best) {
        /* The loaded game is where the nested runs start. */
        banyan_move *m = malloc((size_t)(S->best.n_moves + 1) * sizeof *m);
        if (!m) {
            fprintf(stderr, "banyan solo: out of memory\n");
            return false;
        }
        for (int i = 0; i < S->best.n_moves; i++)
            m[i] = S->best.moves[i].move;
        opt.start_moves = m;
        opt.n_start_moves = S->best.n_moves;
    }
    if (S->o.eng.lim.playouts)
        opt.playouts = (uint64_t)total;
    else
        opt.time = total;
    if (dist_ranks() > 1) { /* NRPA over the ranks (solo_options checked). */
        opt.share_best = solo_share;
        eng.cfg.seed += (uint64_t)dist_rank() << 32;
        if (opt.playouts)
            opt.playouts = (opt.playouts + (uint64_t)dist_ranks() - 1) / (uint64_t)dist_ranks();
    }
    banyan_solo_result out = BANYAN_SOLO_RESULT(NULL, 0);
    rc = banyan_solo_run(S->o.game, S->params, S->o.position, &eng.cfg, &opt, &out);
    free((void *)opt.start_moves);
    net_evaluator_free(ev);
    if (out.policy_full)
        printf("the policies were full: %" PRIu64 " weight changes dropped (--policy-memory)\n",
               out.policy_full);
    if (rc != BANYAN_OK)
        fprintf(stderr, "banyan solo: the run could not go on\n");
    return rc == BANYAN_OK;
}

/* --load: the saved game, checked move by move by the record; shown. */
static bool solo_load(solo *S)
{
    char why[512];
    double ret;
    if (record_load_file(&S->best, S->o.game, S->load, why, sizeof why) != BANYAN_OK) {
        fprintf(stderr, "banyan solo: %s: %s\n", S->load, why);
        return false;
    }
    if (S->best.g->n_players != 1) {
        fprintf(stderr, "banyan solo: %s is a game of %s, not a single-player game\n", S->load,
                S->best.g->name);
        return false;
    }
    S->o.game = S->best.g;
    snprintf(S->params, sizeof S->params, "%s", S->best.params);
    solo_print(&S->best);
    if (solo_score(&S->best, &ret)) {
        printf("%s: a finished game of %d moves, score %g\n", S->load, S->best.n_moves, ret);
        S->have_best = true;
        S->best_ret = ret;
    } else {
        printf("%s: %d moves, the game goes on\n", S->load, S->best.n_moves);
    }
    return true;
}

/* The nested algorithms' options. */
static bool solo_nested_option(const char *a)
{
    static const char *const names[] = {"--algorithm",   "--level", "--iterations",   "--alpha",
                                        "--temperature", "--bias",  "--policy-memory"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(a, names[i]))
            return true;
    return false;
}

/* A number of the nested options in [lo, hi], or false with a sentence. */
static bool solo_number(const char *a, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi)) {
        fprintf(stderr, "banyan solo: bad value for %s: \"%s\" (a number from %g to %g)\n", a, v,
                lo, hi);
        return false;
    }
    *out = x;
    return true;
}

static bool solo_nested_value(solo *S, const char *a, const char *v)
{
    static const struct {
        const char *name;
        long lo, hi;
        size_t at;
    } ints[] = {{"--level", 1, BANYAN_SOLO_MAX_LEVEL, offsetof(solo, level)},
                {"--iterations", 1, 1000000, offsetof(solo, iterations)},
                {"--policy-memory", 1, 1 << 20, offsetof(solo, policy_mb)}};
    if (!strcmp(a, "--algorithm")) {
        static const char *const names[] = {"mcts", "nrpa", "nmcs"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(v, names[i])) {
                S->algorithm = i; /* BANYAN_SOLO_MCTS, _NRPA, _NMCS in order. */
                return true;
            }
        fprintf(stderr, "banyan solo: bad value for --algorithm: \"%s\" (mcts|nrpa|nmcs)\n", v);
        return false;
    }
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (!strcmp(a, ints[i].name)) {
            if (banyan_parse_int(v, ints[i].lo, ints[i].hi, (long *)((char *)S + ints[i].at)) ==
                BANYAN_OK)
                return true;
            fprintf(stderr, "banyan solo: bad value for %s: \"%s\" (%ld to %ld)\n", a, v,
                    ints[i].lo, ints[i].hi);
            return false;
        }
    if (!strcmp(a, "--alpha"))
        return solo_number(a, v, 1e-6, 1e6, &S->alpha);
    if (!strcmp(a, "--temperature"))
        return solo_number(a, v, 1e-3, 1e6, &S->temperature);
    return solo_number(a, v, -1e6, 1e6, &S->bias);
}

static bool solo_options(solo *S, int argc, char **argv)
{
    int keep = 0;
    S->follow_line = true;
    S->runs = 0; /* The library's default: 1, or a nested algorithm's runs till the budget. */
    /* solo's own options, taken out before the shared parser sees the rest. */
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool own = !strcmp(a, "--runs") || !strcmp(a, "--save") || !strcmp(a, "--load") ||
                   !strcmp(a, "--follow") || !strcmp(a, "--share") || !strcmp(a, "--export") ||
                   solo_nested_option(a);
        if (!own) {
            argv[2 + keep++] = argv[i];
            continue;
        }
        if (!v) {
            fprintf(stderr, "banyan solo: %s needs a value\n", a);
            return false;
        }
        if (!strcmp(a, "--runs") && banyan_parse_int(v, 1, 1000000, &S->runs) != BANYAN_OK) {
            fprintf(stderr, "banyan solo: bad value for --runs: \"%s\" (1 or more)\n", v);
            return false;
        }
        if (!strcmp(a, "--follow")) {
            if (strcmp(v, "line") && strcmp(v, "visits")) {
                fprintf(stderr, "banyan solo: bad value for --follow: \"%s\" (line|visits)\n", v);
                return false;
            }
            S->follow_line = !strcmp(v, "line");
        }
        if (!strcmp(a, "--share")) {
            if (strcmp(v, "even") && strcmp(v, "front")) {
                fprintf(stderr, "banyan solo: bad value for --share: \"%s\" (even|front)\n", v);
                return false;
            }
            S->front = !strcmp(v, "front");
        }
        if (solo_nested_option(a) && !solo_nested_value(S, a, v))
            return false;
        if (!strcmp(a, "--save"))
            S->save = v;
        if (!strcmp(a, "--export"))
            S->export = v;
        if (!strcmp(a, "--load"))
            S->load = v;
        i++;
    }
    if (!cli_parse(2 + keep, argv, 2, &S->o))
        return false;
    if (!S->o.game && S->o.n_args > 0 && !cli_game(&S->o, ""))
        return false;
    if (S->o.n_args > 0) {
        fprintf(stderr, "banyan solo: unexpected argument \"%s\"\n", S->o.args[0]);
        return false;
    }
    /* Without --game, the first single-player game of the registry. */
    int n_games;
    const banyan_game *const *games = banyan_game_list(&n_games);
    for (int i = 0; !S->o.game && !S->load && i < n_games; i++)
        if (games[i]->n_players == 1)
            S->o.game = games[i];
    if (!S->o.game && !S->load) {
        fprintf(stderr, "banyan solo: name a game with --game\n");
        return false;
    }
    if (S->o.game && S->o.game->n_players != 1) {
        fprintf(stderr, "banyan solo: %s is not a single-player game (banyan games lists them)\n",
                S->o.game->name);
        return false;
    }
    if (S->o.game)
        cli_params(&S->o, S->params, sizeof S->params); /* --load takes the record's. */
    if (dist_ranks() > 1 && S->algorithm != BANYAN_SOLO_NRPA) {
        if (dist_rank() == 0)
            fprintf(stderr, "banyan solo: under mpirun, only --algorithm nrpa runs over the "
                            "ranks\n");
        return false;
    }
    return true;
}

int cli_solo(int argc, char **argv)
{
    solo S;
    memset(&S, 0, sizeof S);
    if (!solo_options(&S, argc, argv))
        return 2;
    if (dist_rank() != 0 && !freopen(os_null_device(), "w", stdout))
        return 1; /* Rank 0 speaks for the job. */
    S.start = cli_now();
    if (S.load && !solo_load(&S))
        return 1;
    bool nested = S.algorithm != BANYAN_SOLO_MCTS;
    bool search = !S.load || nested || S.o.eng.lim.playouts || S.o.eng.lim.time > 0;
    double total = S.o.eng.lim.playouts   ? (double)S.o.eng.lim.playouts
                   : S.o.eng.lim.time > 0 ? S.o.eng.lim.time
                   : nested               ? 0 /* No budget: whole runs. */
                                          : SOLO_DEFAULT_TIME;
    int status = 0;
    if (search && nested) {
        static const char *const names[] = {"", "NRPA", "NMCS"};
        printf("banyan solo: %s%s%s, %s level %ld, ", S.o.game->name, S.params[0] ? " " : "",
               S.params, names[S.algorithm],
               S.level            ? S.level
               : S.algorithm == 1 ? 3
                                  : 2);
        if (total > 0)
            printf("%g %s\n", total, S.o.eng.lim.playouts ? "playouts" : "seconds");
        else
            printf("%ld whole run%s\n", S.runs ? S.runs : 1, S.runs > 1 ? "s" : "");
    } else if (search) {
        printf("banyan solo: %s%s%s, %g %s in %ld run%s\n", S.o.game->name, S.params[0] ? " " : "",
               S.params, total, S.o.eng.lim.playouts ? "playouts" : "seconds", S.runs ? S.runs : 1,
               S.runs > 1 ? "s" : "");
    }
    if (search) {
        if (!solo_search(&S, total))
            status = 1;
        if (S.have_best) {
            printf("best: %g\n", S.best_ret);
            solo_print(&S.best);
            if (S.save)
                printf("saved to %s\n", S.save);
            if (S.export)
                printf("exported to %s\n", S.export);
        }
    }
    record_free(&S.best);
    return status;
}
