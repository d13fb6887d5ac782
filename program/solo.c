/*
 * solo.c - `banyan solo`: the longest (highest-scoring) game of a
 * single-player game, Morpion Solitaire by default, within a total budget
 * of time or playouts.
 *
 * A run plays one game from the start (or --position) with the engine:
 * before each move a search, then the first move of the best whole game
 * found so far (banyan_report.line), whose score every later move keeps
 * within reach, so that a run ends at least as well as the best line it
 * ever saw. Each move gets the run's remaining budget divided by the
 * moves the best line still has, plus one (the first, which has no line
 * yet, a hundredth), or with --share front a share that falls in step
 * with the moves left; once the run's budget is spent
 * the rest of the line is played without searching. --runs K restarts K
 * times, each run with its own seed and an even share of what is left;
 * the best game is kept, printed and saved (--save, a record of
 * record.h's plain format, rewritten at each improvement) and reloads
 * with --load, which checks and shows it (and, with a budget, searches on
 * for a better one, which it must beat to be saved).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record.h"

#define SOLO_DEFAULT_TIME 20.0 /* Seconds, without --time or --playouts. */
#define SOLO_SEED_STEP    7919 /* Between the seeds of successive runs. */
#define SOLO_FIRST_MOVES  99   /* Moves the first search of a run assumes, having no line. */

/* The command's state: its options, the best game and where it goes. */
typedef struct solo {
    cli_opts o;
    char params[512];
    bool follow_line; /* --follow line (default) or visits. */
    bool front;       /* --share front: earlier moves get more of the budget. */
    long runs;
    const char *save, *load;
    record best;     /* The best game so far: moves from the start. */
    bool have_best;  /* best holds a finished game. */
    double best_ret; /* Its return. */
    double start;    /* cli_now() at the start. */
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

/* Keeps the game of run (r) when it beats the best. */
static void solo_offer(solo *S, record *r, double ret)
{
    if (S->have_best && !(ret > S->best_ret))
        return;
    record_free(&S->best);
    S->best = *r;
    memset(r, 0, sizeof *r); /* Moved. */
    S->have_best = true;
    S->best_ret = ret;
    snprintf(S->best.result, sizeof S->best.result, "score %g", ret);
    if (S->save)
        solo_save(S);
}

/* The limits of the next move: the run's budget left (seconds or
 * playouts) over the moves the best line still has, plus one. */
static banyan_limits solo_limits(const solo *S, double left, int line_len)
{
    banyan_limits lim = {0};
    /* Even: the same for this move and each one left. Front: shares that
     * fall in step with the moves left, this move's the largest. */
    double share = S->front ? 2 * left / (double)(line_len + 2) : left / (double)(line_len + 1);
    if (S->o.eng.lim.playouts)
        lim.playouts = share >= 1 ? (uint64_t)share : 1;
    else
        lim.time = share > 0.001 ? share : 0.001;
    return lim;
}

/* One run with seed `seed` and a budget of `budget` (seconds, or playouts
 * with --playouts). Returns false when the engine cannot be made or a move
 * cannot be recorded. */
static bool solo_run(solo *S, long run, double budget)
{
    options eng = S->o.eng;
    banyan_engine *e;
    net_evaluator *ev;
    record r;
    char why[512] = "";
    eng.cfg.seed = S->o.eng.cfg.seed + (uint64_t)run * SOLO_SEED_STEP;
    int rc = options_engine_new(&eng, &eng.cfg, S->o.game, S->params, &e, &ev, why, sizeof why);
    if (rc != BANYAN_OK) {
        if (why[0])
            fprintf(stderr, "banyan solo: %s\n", why);
        else
            cli_explain_new("banyan solo", S->o.game, S->params, &eng.cfg, rc);
        return false;
    }
    if (record_init(&r, S->o.game, S->params, S->o.position, why, sizeof why) != BANYAN_OK ||
        (S->o.position && banyan_engine_load(e, S->o.position) != BANYAN_OK)) {
        fprintf(stderr, "banyan solo: %s\n", why[0] ? why : banyan_errmsg(e));
        banyan_engine_free(e);
        net_evaluator_free(ev);
        return false;
    }
    double t0 = cli_now(), used = 0, ret = 0, shown = S->have_best ? S->best_ret : -HUGE_VAL;
    uint64_t playouts = 0;
    int line_len = SOLO_FIRST_MOVES;
    bool ok = true;
    while (ok && !solo_score(&r, &ret)) {
        banyan_report rep;
        banyan_move m;
        double left = budget - used;
        if (left > 0) {
            banyan_limits lim = solo_limits(S, left, line_len);
            banyan_engine_search(e, &lim, &rep);
            playouts += rep.playouts;
            used = S->o.eng.lim.playouts ? (double)playouts : cli_now() - t0;
        } else {
            banyan_engine_report(e, &rep); /* The budget is spent: the line goes on. */
        }
        m = S->follow_line && rep.line_len > 0 ? rep.line[0] : rep.best;
        line_len = rep.line_len > 0 ? rep.line_len - 1 : 0;
        if (rep.line_len > 0 && rep.line_return > shown) {
            printf("  %7.1f s  run %ld  move %d: a game of %g found\n", cli_now() - S->start,
                   run + 1, r.n_moves + 1, rep.line_return);
            fflush(stdout);
            shown = rep.line_return;
        }
        ok = m != BANYAN_MOVE_NONE && record_push(&r, m, -1, NULL) == BANYAN_OK &&
             banyan_engine_play(e, m) == BANYAN_OK;
    }
    if (ok) {
        printf("run %ld: %g in %.1f s, %" PRIu64 " playouts (best %g)\n", run + 1, ret,
               cli_now() - t0, playouts, S->have_best && S->best_ret > ret ? S->best_ret : ret);
        fflush(stdout);
        solo_offer(S, &r, ret);
    } else {
        fprintf(stderr, "banyan solo: the run could not go on\n");
    }
    record_free(&r);
    banyan_engine_free(e);
    net_evaluator_free(ev);
    return ok;
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

static bool solo_options(solo *S, int argc, char **argv)
{
    int keep = 0;
    S->follow_line = true;
    S->runs = 1;
    /* solo's own options, taken out before the shared parser sees the rest. */
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool own = !strcmp(a, "--runs") || !strcmp(a, "--save") || !strcmp(a, "--load") ||
                   !strcmp(a, "--follow") || !strcmp(a, "--share");
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
        if (!strcmp(a, "--save"))
            S->save = v;
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
    return true;
}

int cli_solo(int argc, char **argv)
{
    solo S;
    memset(&S, 0, sizeof S);
    if (!solo_options(&S, argc, argv))
        return 2;
    S.start = cli_now();
    if (S.load && !solo_load(&S))
        return 1;
    bool search = !S.load || S.o.eng.lim.playouts || S.o.eng.lim.time > 0;
    double total = S.o.eng.lim.playouts   ? (double)S.o.eng.lim.playouts
                   : S.o.eng.lim.time > 0 ? S.o.eng.lim.time
                                          : SOLO_DEFAULT_TIME;
    int status = 0;
    if (search) {
        printf("banyan solo: %s%s%s, %g %s in %ld run%s\n", S.o.game->name, S.params[0] ? " " : "",
               S.params, total, S.o.eng.lim.playouts ? "playouts" : "seconds", S.runs,
               S.runs > 1 ? "s" : "");
        double spent = 0;
        for (long k = 0; k < S.runs && status == 0; k++) {
            double before = S.o.eng.lim.playouts ? 0 : cli_now();
            if (!solo_run(&S, k, (total - spent) / (double)(S.runs - k)))
                status = 1;
            /* Playout runs spend their share exactly; timed ones, what the
             * clock says. */
            spent +=
                S.o.eng.lim.playouts ? (total - spent) / (double)(S.runs - k) : cli_now() - before;
        }
        if (S.have_best) {
            printf("best: %g\n", S.best_ret);
            solo_print(&S.best);
            if (S.save)
                printf("saved to %s\n", S.save);
        }
    }
    record_free(&S.best);
    return status;
}
