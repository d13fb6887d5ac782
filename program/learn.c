/*
 * learn.c - the learning subcommands. selfplay: games of a network against
 * itself, PUCT with Dirichlet noise at the root and a temperature for the
 * first moves, recorded with the search's visits (net/data.h). train: a new
 * network from those records (or a random one with --init), Adam on
 * policy cross-entropy and value error over a window of the latest
 * positions under the board's symmetries, with checkpoints from which a
 * run killed at any moment resumes and ends as it would have.
 */
#include "learn.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "banyan.h"
#include "nn.h"

#define LEARN_LINE_EVERY 0.5 /* Seconds between progress lines. */

/* A loop option's help that is the same as selfplay's or train's. */
static const char learn_same[] = "";

/* The learning commands' own options: name, what value it takes, and its
 * line of help in each command (NULL: not taken there; learn_same: the
 * loop's is selfplay's, else train's). */
static const struct learn_own {
    const char *name;
    const char *arg;
    const char *selfplay, *train, *loop;
} learn_own_options[] = {
    {"game", "G", "the game (banyan games lists them)", "the game", learn_same},
    {"param", "k=v", "game parameter, repeatable", "game parameter, repeatable", learn_same},
    {"dir", "DIR", NULL, NULL,
     "the run's folder (required): its networks, records and state; the same command on it "
     "again goes on where a stopped run was"},
    {"generations", "K", NULL, NULL,
     "the generations the run reaches (default 10): run again with more to go on"},
    {"net", "FILE", "the network that plays (required)", "the network to start from", NULL},
    {"out", "FILE", "the records file to write (required)", "the network file to write", NULL},
    {"games", "N", "games to play (default 100)", NULL, NULL},
    {"games-per-gen", "N", NULL, NULL, "self-play games a generation (default 400)"},
    {"jobs", "J", "games played at once, one thread each (default 1)", NULL,
     "games played at once by each rank that plays, one thread each (default 1)"},
    {"noise", "A", "Dirichlet concentration at the root (default 0.3; 0 none)", NULL, learn_same},
    {"noise-share", "F", "share of the noise in the root's priors (default 0.25)", NULL,
     learn_same},
    {"temperature-plies", "K",
     "plies played in proportion to the visits before the best move (default: a fifth of the "
     "board's cells, at least 2)",
     NULL, learn_same},
    {"random-plies", "K",
     "each game opens with 0 to K uniformly random moves, not trained on, so that the records "
     "cover more positions (default 0)",
     NULL, learn_same},
    {"resign", "V", "resign below this value for the mover, 0 to 1 (default 0: never)", NULL,
     learn_same},
    {"resign-check", "F",
     "share of games played out whatever the value, to measure wrong resignations (default 0.1)",
     NULL, learn_same},
    {"data", "FILE", NULL, "a records file of selfplay, repeatable (the last is the newest)", NULL},
    {"init", "FILE", NULL, "write a random network of the shape below to FILE and stop", NULL},
    {"channels", "C", NULL, "with --init: channels of the residual tower (default 32)",
     "channels of the networks' residual tower (default 32)"},
    {"blocks", "B", NULL, "with --init: residual blocks (default 2)",
     "residual blocks (default 2)"},
    {"hidden", "H", NULL, "with --init: hidden units of the value head (default 32)",
     "hidden units of the value head (default 32)"},
    {"steps", "N", NULL, "optimiser steps (default 1000)",
     "optimiser steps a generation (default 400)"},
    {"batch", "N", NULL, "positions a step (default 64)", learn_same},
    {"lr", "X", NULL, "peak learning rate of Adam (default 0.002; cosine decay to a tenth)",
     learn_same},
    {"weight-decay", "X", NULL, "decoupled weight decay (default 0.0001)", learn_same},
    {"window", "N", NULL, "the newest positions trained on (default 100000)",
     "the newest positions trained on (default 20000)"},
    {"files", "K", NULL, NULL, "the records of the newest K generations trained on (default 4)"},
    {"checkpoint", "FILE", NULL, "resume from FILE when it exists; write it as training goes",
     NULL},
    {"every", "N", NULL, "steps between checkpoints (default 100)", learn_same},
    {"max-steps", "N", NULL,
     "with --checkpoint: stop after N steps of this run, to go on in the next (default: none)",
     NULL},
    {"generation", "N", NULL, "the generation written into the network (default: the input's + 1)",
     NULL},
    {"gate-games", "M", NULL, NULL,
     "games of the gate, the candidate against the best network, colours alternating "
     "(default 40; 0 takes every candidate)"},
    {"gate-score", "X", NULL, NULL,
     "the candidate's score in the gate that makes it the best (default 0.55)"},
    {"rank-timeout", "S", NULL, NULL,
     "under mpirun: seconds a rank may stay silent before the run stops naming it (default 10)"},
};

/* The help of option i in command c (NULL: not taken there). */
static const char *learn_help(size_t i, learn_command c)
{
    const struct learn_own *o = &learn_own_options[i];
    if (c == LEARN_SELFPLAY)
        return o->selfplay;
    if (c == LEARN_TRAIN)
        return o->train;
    return o->loop == learn_same ? (o->selfplay ? o->selfplay : o->train) : o->loop;
}

static void learn_usage(FILE *f, learn_command c)
{
    if (c == LEARN_SELFPLAY)
        fprintf(f, "usage: banyan selfplay --game G --net FILE --out FILE [options]\n\n"
                   "Games of the network against itself (PUCT, noise at the root, a temperature "
                   "for the first moves), written with the root's visits at every move for "
                   "banyan train.\n\noptions:\n");
    else if (c == LEARN_TRAIN)
        fprintf(f, "usage: banyan train --game G --net FILE --data FILE... --out FILE [options]\n"
                   "       banyan train --game G --init FILE [--channels C --blocks B "
                   "--hidden H] [--seed S]\n\n"
                   "Fits the network to selfplay's records: Adam on policy cross-entropy plus "
                   "value error, the board's symmetries at random, the newest --window "
                   "positions; with --checkpoint a killed run resumes where it was.\n\n"
                   "options:\n");
    else
        fprintf(f, "usage: banyan learn --game G --dir DIR [options]\n"
                   "       mpirun -np N banyan learn --game G --dir DIR [options]\n\n"
                   "The learning loop: from a random network, each generation plays selfplay "
                   "games with the best network, trains a candidate on the newest records and "
                   "plays a gate match, candidate against best; the candidate becomes the best "
                   "when it scores --gate-score. Under mpirun rank 0 trains and gates and the "
                   "other ranks play the games, which rank 0 writes into the same records as one "
                   "rank does. Stopped or killed, the same command goes on with no game lost or "
                   "played twice.\n\noptions:\n");
    for (size_t i = 0; i < sizeof learn_own_options / sizeof learn_own_options[0]; i++) {
        const char *help = learn_help(i, c);
        char syntax[64];
        if (!help)
            continue;
        snprintf(syntax, sizeof syntax, "--%s %s", learn_own_options[i].name,
                 learn_own_options[i].arg);
        fprintf(f, "  %-24s %s\n", syntax, help);
    }
    if (c != LEARN_TRAIN)
        fprintf(f, "  %-24s %s\n  %-24s %s\n  %-24s %s\n", "--playouts N",
                "playouts a move (default 200)", "--seed S", "the seed (default 1)",
                "--c X, --memory B, ...", "the engine options: banyan help options");
    else
        fprintf(f, "  %-24s %s\n", "--seed S", "the seed of the sampling and of --init");
    fprintf(f, "  %-24s %s\n", "--help", "this text");
}

static bool learn_number(const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x >= lo && x <= hi))
        return false;
    *out = x;
    return true;
}

static bool learn_long(const char *v, long lo, long hi, long *out)
{
    return banyan_parse_int(v, lo, hi, out) == BANYAN_OK;
}

/* Applies one own option. Returns false for a bad value. */
static bool learn_apply(learn_opts *o, const char *name, const char *v)
{
    if (!strcmp(name, "game"))
        return (o->g = banyan_game_find(v)) != NULL;
    if (!strcmp(name, "param")) {
        size_t len = strlen(o->params);
        if (!strchr(v, '=') || len + strlen(v) + 2 >= sizeof o->params)
            return false;
        snprintf(o->params + len, sizeof o->params - len, "%s%s", len ? "," : "", v);
        return true;
    }
    if (!strcmp(name, "dir"))
        return (o->dir = v) != NULL;
    if (!strcmp(name, "net"))
        return (o->net = v) != NULL;
    if (!strcmp(name, "out"))
        return (o->out = v) != NULL;
    if (!strcmp(name, "init"))
        return (o->init = v) != NULL;
    if (!strcmp(name, "checkpoint"))
        return (o->checkpoint = v) != NULL;
    if (!strcmp(name, "data")) {
        if (o->n_data == LEARN_MAX_FILES)
            return false;
        o->data[o->n_data++] = v;
        return true;
    }
    static const struct {
        const char *name;
        size_t at;
        long lo, hi;
    } longs[] = {
        {"games", offsetof(learn_opts, games), 1, 100000000},
        {"games-per-gen", offsetof(learn_opts, games), 1, 100000000},
        {"generations", offsetof(learn_opts, generations), 0, 9999},
        {"gate-games", offsetof(learn_opts, gate_games), 0, 100000},
        {"files", offsetof(learn_opts, files), 1, LEARN_MAX_FILES},
        {"jobs", offsetof(learn_opts, jobs), 1, 256},
        {"temperature-plies", offsetof(learn_opts, temp_plies), 0, 100000},
        {"random-plies", offsetof(learn_opts, random_plies), 0, 100000},
        {"channels", offsetof(learn_opts, channels), 1, NN_MAX_CHANNELS},
        {"blocks", offsetof(learn_opts, blocks), 0, NN_MAX_BLOCKS},
        {"hidden", offsetof(learn_opts, hidden), 1, NN_MAX_HIDDEN},
        {"steps", offsetof(learn_opts, steps), 0, 1000000000},
        {"batch", offsetof(learn_opts, batch), 1, 4096},
        {"window", offsetof(learn_opts, window), 1, 100000000},
        {"every", offsetof(learn_opts, every), 1, 1000000000},
        {"max-steps", offsetof(learn_opts, max_steps), 1, 1000000000},
        {"generation", offsetof(learn_opts, generation), 0, 1000000000},
    };
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
        if (!strcmp(name, longs[i].name))
            return learn_long(v, longs[i].lo, longs[i].hi,
                              (long *)(void *)((char *)o + longs[i].at));
    static const struct {
        const char *name;
        size_t at;
        double lo, hi;
    } doubles[] = {
        {"noise", offsetof(learn_opts, noise), 0, 100},
        {"noise-share", offsetof(learn_opts, noise_share), 0, 1},
        {"resign", offsetof(learn_opts, resign), 0, 1},
        {"resign-check", offsetof(learn_opts, resign_check), 0, 1},
        {"lr", offsetof(learn_opts, lr), 1e-9, 10},
        {"weight-decay", offsetof(learn_opts, wd), 0, 1},
        {"gate-score", offsetof(learn_opts, gate_score), 0, 1},
        {"rank-timeout", offsetof(learn_opts, rank_timeout), 0.1, 86400},
    };
    for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++)
        if (!strcmp(name, doubles[i].name))
            return learn_number(v, doubles[i].lo, doubles[i].hi,
                                (double *)(void *)((char *)o + doubles[i].at));
    return false;
}

/* Parses argv[2 ..) for command. Returns 0 to go on, or the exit status
 * (-1 after --help, which means 0). */
static int learn_parse(int argc, char **argv, learn_opts *o, learn_command command)
{
    static const char *const names[] = {"selfplay", "train", "learn"};
    static const unsigned fronts[] = {OPTIONS_IN_SELFPLAY, OPTIONS_IN_TRAIN, OPTIONS_IN_SELFPLAY};
    bool loop = command == LEARN_LOOP;
    char err[256];
    memset(o, 0, sizeof *o);
    options_init(&o->eng);
    o->games = loop ? 400 : 100;
    o->jobs = 1;
    o->temp_plies = -1;
    o->noise = 0.3;
    o->noise_share = 0.25;
    o->resign_check = 0.1;
    o->steps = loop ? 400 : 1000;
    o->batch = 64;
    o->window = loop ? 20000 : 100000;
    o->every = 100;
    o->channels = 32;
    o->blocks = 2;
    o->hidden = 32;
    o->generation = -1;
    o->lr = 0.002;
    o->wd = 1e-4;
    o->generations = 10;
    o->gate_games = 40;
    o->gate_score = 0.55;
    o->files = 4;
    o->rank_timeout = 10;
    if (cli_wants_help(argc, argv, 2)) {
        learn_usage(stdout, command);
        return -1;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *name = a + (a[0] == '-' && a[1] == '-' ? 2 : 1);
        if (a[0] != '-') {
            fprintf(stderr, "banyan: unexpected argument \"%s\" (see --help)\n", a);
            return 2;
        }
        bool own = false;
        for (size_t k = 0; k < sizeof learn_own_options / sizeof learn_own_options[0]; k++)
            if (!strcmp(learn_own_options[k].name, name) && learn_help(k, command))
                own = true;
        bool engine = !own && options_known(name, OPTIONS_CLI);
        if (!own && !engine) {
            fprintf(stderr, "banyan: unknown option %s (see banyan %s --help)\n", a,
                    names[command]);
            return 2;
        }
        bool takes = own || !options_is_switch(name);
        const char *v = takes && i + 1 < argc ? argv[i + 1] : NULL;
        if (takes && !v) {
            fprintf(stderr, "banyan: %s needs a value\n", a);
            return 2;
        }
        if (own && !learn_apply(o, name, v)) {
            fprintf(stderr, "banyan: bad value for %s: \"%s\"\n", a, v);
            return 2;
        }
        if (engine &&
            options_set_in(&o->eng, name, v, fronts[command], err, sizeof err) != BANYAN_OK) {
            fprintf(stderr, "banyan: %s\n", err);
            return 2;
        }
        i += takes;
    }
    o->seed = o->eng.cfg.seed ? o->eng.cfg.seed : 1;
    if (!o->g) {
        fprintf(stderr, "banyan: name a game with --game (see banyan games)\n");
        return 2;
    }
    return 0;
}

int learn_start(int argc, char **argv, learn_opts *o, learn_command command, char *rules,
                size_t len)
{
    static const char *const names[] = {"selfplay", "train", "learn"};
    int rc = learn_parse(argc, argv, o, command);
    if (rc)
        return rc < 0 ? -1 : rc;
    if (net_rule_params(o->g, o->params, rules, len) != BANYAN_OK) {
        fprintf(stderr, "banyan %s: bad game parameters \"%s\"\n", names[command], o->params);
        return 2;
    }
    return 0;
}

static double learn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- selfplay ---- */

/* A move in proportion to the root's visits (temperature 1). */
static banyan_move learn_sample(const banyan_report *r, banyan_rng *rng)
{
    uint64_t total = 0;
    for (int i = 0; i < r->n_moves; i++)
        total += r->moves[i].visits;
    if (total == 0)
        return r->best;
    uint64_t x = banyan_rng_next(rng) % total;
    for (int i = 0; i < r->n_moves; i++) {
        if (x < r->moves[i].visits)
            return r->moves[i].move;
        x -= r->moves[i].visits;
    }
    return r->best;
}

banyan_engine *learn_engine(const learn_opts *o, net_evaluator *ev, bool noise, uint64_t seed,
                            banyan_limits *lim, const char *who)
{
    banyan_config cfg = o->eng.cfg;
    banyan_engine *e;
    cfg.evaluator = net_evaluator_hook(ev);
    cfg.noise_alpha = noise ? o->noise : 0;
    cfg.noise_share = noise ? o->noise_share : 0;
    cfg.threads = 1;
    cfg.seed = seed;
    if (!cfg.memory)
        cfg.memory = 16u << 20;
    *lim = o->eng.lim;
    if (!lim->playouts && lim->time <= 0 && !lim->nodes)
        lim->playouts = 200;
    int rc = banyan_engine_new(o->g, o->params, &cfg, &e);
    if (rc != BANYAN_OK) {
        cli_explain_new(who, o->g, o->params, &cfg, rc);
        return NULL;
    }
    return e;
}

int learn_game(const learn_opts *o, net_evaluator *ev, long k, data_game *gm, learn_outcome *out)
{
    const banyan_game *g = o->g;
    banyan_limits lim;
    banyan_report rep = BANYAN_REPORT();
    banyan_rng rng;
    uint16_t moves[BANYAN_MAX_MOVES];
    uint32_t visits[BANYAN_MAX_MOVES];
    double ret[BANYAN_MAX_PLAYERS];
    double lo = g->reward_min, hi = g->reward_max;
    if (lo == 0 && hi == 0)
        hi = 1;

    data_game_begin(gm);
    banyan_engine *e =
        learn_engine(o, ev, true, banyan_mix64(o->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)k + 1),
                     &lim, "banyan selfplay");
    if (!e)
        return -1;
    banyan_rng_seed(&rng, o->seed, (uint64_t)k);
    /* Every resign_check-th game (by its number's hash) is played out, and
     * tells how often a resignation would have been wrong. */
    memset(out, 0, sizeof *out);
    out->resigner = -1;
    out->check =
        o->resign > 0 && (double)(banyan_mix64((uint64_t)k + 77) >> 11) * 0x1p-53 < o->resign_check;
    long temp = o->temp_plies;
    if (temp < 0) {
        int w = 1, h = 1;
        if (g->board)
            g->board->board_size(banyan_engine_state(e), &w, &h);
        temp = w * h / 5 > 2 ? w * h / 5 : 2;
    }
    /* The random opening: moves recorded without a target. */
    long opening =
        o->random_plies ? (long)banyan_rng_below(&rng, (uint32_t)o->random_plies + 1) : 0;
    for (long ply = 0; ply < opening && !g->outcome(banyan_engine_state(e), ret); ply++) {
        banyan_move legal[BANYAN_MAX_MOVES];
        int n = g->moves(banyan_engine_state(e), legal);
        banyan_move m = legal[banyan_rng_below(&rng, (uint32_t)n)];
        if (data_game_ply(gm, (uint16_t)m, false, NULL, NULL, 0) != 0 ||
            banyan_engine_play(e, m) != BANYAN_OK)
            goto fail;
    }
    for (int ply = 0; !g->outcome(banyan_engine_state(e), ret); ply++) {
        if (banyan_engine_search(e, &lim, &rep) != BANYAN_OK) {
            fprintf(stderr, "banyan selfplay: %s\n", banyan_errmsg(e));
            break;
        }
        int mover = g->to_move(banyan_engine_state(e));
        if (o->resign > 0 && rep.value < o->resign && rep.proof != BANYAN_PROVEN_DRAW) {
            if (!out->check) {
                out->resigner = mover;
                break;
            }
            out->wants[mover] = true;
        }
        banyan_move m = ply < temp ? learn_sample(&rep, &rng) : rep.best;
        for (int i = 0; i < rep.n_moves; i++) {
            moves[i] = (uint16_t)rep.moves[i].move;
            visits[i] = rep.moves[i].visits;
        }
        if (data_game_ply(gm, (uint16_t)m, true, moves, visits, rep.n_moves) != 0 ||
            banyan_engine_play(e, m) != BANYAN_OK)
            goto fail;
    }
    if (out->resigner >= 0)
        gm->result = out->resigner == 0 ? 0.0f : 1.0f;
    else if (g->outcome(banyan_engine_state(e), ret))
        gm->result = (float)((ret[0] - lo) / (hi - lo));
    else
        gm->result = 0.5f; /* A search that failed: the game stops as a draw. */
    banyan_engine_free(e);
    return 0;
fail:
    fprintf(stderr, "banyan selfplay: cannot record or play a move\n");
    banyan_engine_free(e);
    data_game_free(gm);
    return -1;
}

int learn_selfplay_put(learn_selfplay *sp, long k, data_game *gm, const learn_outcome *oc)
{
    const learn_opts *o = sp->o;
    double r0 = gm->result;
    char why[256];
    int rc = 0;
    pthread_mutex_lock(&sp->lock);
    while (k >= sp->written + LEARN_RING && !sp->status)
        pthread_cond_wait(&sp->turn, &sp->lock);
    if (sp->status) {
        pthread_mutex_unlock(&sp->lock);
        data_game_free(gm);
        return -1;
    }
    sp->ring[k % LEARN_RING] = *gm;
    sp->ready[k % LEARN_RING] = true;
    sp->positions += gm->n_plies;
    while (rc == 0 && sp->ready[sp->written % LEARN_RING]) {
        data_game *w = &sp->ring[sp->written % LEARN_RING];
        rc = data_write_game(sp->out, w, why, sizeof why);
        if (rc != 0) {
            fprintf(stderr, "banyan selfplay: %s: %s\n", sp->path, why);
            sp->status = 1;
        }
        data_game_free(w);
        sp->ready[sp->written % LEARN_RING] = false;
        sp->written++;
    }
    pthread_cond_broadcast(&sp->turn);
    sp->done++;
    sp->first_wins += r0 > 0.75;
    sp->draws += r0 >= 0.25 && r0 <= 0.75;
    sp->resigned += oc->resigner >= 0;
    if (oc->check) {
        sp->checked++;
        for (int p = 0; p < 2; p++) {
            sp->would_resign += oc->wants[p];
            /* Wrong: the player who would have resigned did not lose. */
            sp->wrong += oc->wants[p] && (p == 0 ? r0 > 0.25 : r0 < 0.75);
        }
    }
    double now = learn_now(), el = now - sp->start;
    double rate = (double)sp->done / (el > 0 ? el : 1e-9);
    long todo = o->games - sp->first;
    if (now >= sp->next_line || sp->done == todo) {
        fprintf(stderr, "\rselfplay: %ld/%ld games, %ld positions, %.2f games/s, %.0f s left   ",
                sp->first + sp->done, o->games, sp->positions, rate,
                (double)(todo - sp->done) / rate);
        sp->next_line = now + LEARN_LINE_EVERY;
    }
    pthread_mutex_unlock(&sp->lock);
    return rc;
}

/* Marks the run failed and wakes the threads waiting for their turn to write. */
static void learn_selfplay_fail(learn_selfplay *sp)
{
    pthread_mutex_lock(&sp->lock);
    sp->status = 1;
    pthread_cond_broadcast(&sp->turn);
    pthread_mutex_unlock(&sp->lock);
}

static void *learn_selfplay_thread(void *arg)
{
    learn_selfplay *sp = arg;
    net_evaluator *ev;
    char why[256];
    if (net_evaluator_new(sp->net, sp->o->g, sp->o->params, 1, 0, &ev, why, sizeof why) != 0) {
        fprintf(stderr, "banyan selfplay: %s\n", why);
        learn_selfplay_fail(sp);
        return NULL;
    }
    for (;;) {
        long k = atomic_fetch_add(&sp->next, 1);
        pthread_mutex_lock(&sp->lock);
        int failed = sp->status;
        pthread_mutex_unlock(&sp->lock);
        if (k >= sp->o->games || failed)
            break;
        data_game gm;
        learn_outcome oc;
        if (learn_game(sp->o, ev, k, &gm, &oc) != 0 || learn_selfplay_put(sp, k, &gm, &oc) != 0) {
            learn_selfplay_fail(sp);
            break;
        }
    }
    net_evaluator_free(ev);
    return NULL;
}

void learn_selfplay_init(learn_selfplay *sp, const learn_opts *o, const nn_net *net, FILE *out,
                         const char *path, long first)
{
    memset(sp, 0, sizeof *sp);
    sp->o = o;
    sp->net = net;
    sp->out = out;
    sp->path = path;
    sp->first = sp->written = first;
    pthread_mutex_init(&sp->lock, NULL);
    pthread_cond_init(&sp->turn, NULL);
    atomic_init(&sp->next, first);
    sp->start = learn_now();
}

int learn_selfplay_run(learn_selfplay *sp)
{
    pthread_t threads[256];
    int started = 0;
    for (long i = 1; i < sp->o->jobs; i++) {
        if (pthread_create(&threads[started], NULL, learn_selfplay_thread, sp) != 0)
            break;
        started++;
    }
    learn_selfplay_thread(sp);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    if (sp->done)
        fprintf(stderr, "\n");
    return sp->status;
}

void learn_selfplay_summary(const learn_selfplay *sp)
{
    const learn_opts *o = sp->o;
    double el = learn_now() - sp->start;
    printf("selfplay: %ld games, %ld positions in %.1f s (%.2f games/s): first player %ld wins, "
           "%ld draws, %ld losses\n",
           sp->done, sp->positions, el, (double)sp->done / (el > 0 ? el : 1e-9), sp->first_wins,
           sp->draws, sp->done - sp->first_wins - sp->draws);
    if (o->resign > 0)
        printf("resignation below %.3f: %ld games resigned; %ld played out to check, where %ld "
               "players fell below it and %ld of them did not lose (false positives %.1f%%)\n",
               o->resign, sp->resigned, sp->checked, sp->would_resign, sp->wrong,
               sp->would_resign ? 100.0 * (double)sp->wrong / (double)sp->would_resign : 0.0);
}

void learn_selfplay_destroy(learn_selfplay *sp)
{
    for (int i = 0; i < LEARN_RING; i++)
        if (sp->ready[i])
            data_game_free(&sp->ring[i]); /* Left after a failure. */
    pthread_cond_destroy(&sp->turn);
    pthread_mutex_destroy(&sp->lock);
}

int learn_load_net(const learn_opts *o, nn_net *net, nn_meta *meta, const char *who)
{
    char why[512], detail[256];
    if (!o->net) {
        fprintf(stderr, "%s: name the network with --net FILE (banyan train --init makes one)\n",
                who);
        return -1;
    }
    if (nn_load(o->net, net, meta, why, sizeof why) != 0) {
        fprintf(stderr, "%s: %s\n", who, why);
        return -1;
    }
    if (net_check_game(meta, o->g, o->params, detail, sizeof detail)) {
        fprintf(stderr, "%s: %s: %s\n", who, o->net, detail);
        nn_free(net);
        return -1;
    }
    return 0;
}

int cli_selfplay(int argc, char **argv)
{
    learn_opts o;
    learn_selfplay sp;
    nn_net net;
    nn_meta meta;
    char why[256], rules[128];
    int rc = learn_start(argc, argv, &o, LEARN_SELFPLAY, rules, sizeof rules);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!o.out) {
        fprintf(stderr, "banyan selfplay: name the records file with --out FILE\n");
        return 2;
    }
    if (learn_load_net(&o, &net, &meta, "banyan selfplay") != 0)
        return 1;
    FILE *out = fopen(o.out, "wb");
    if (!out || data_write_header(out, o.g->name, rules, why, sizeof why) != 0) {
        fprintf(stderr, "banyan selfplay: %s: %s\n", o.out, out ? why : strerror(errno));
        if (out)
            fclose(out);
        nn_free(&net);
        return 1;
    }
    learn_selfplay_init(&sp, &o, &net, out, o.out, 0);
    int status = learn_selfplay_run(&sp);
    if (fclose(out) != 0 && !status) {
        fprintf(stderr, "banyan selfplay: %s: %s\n", o.out, strerror(errno));
        status = 1;
    }
    learn_selfplay_summary(&sp);
    learn_selfplay_destroy(&sp);
    nn_free(&net);
    return status;
}

/* ---- train ---- */

/* The training positions: the newest target plies of the records, each
 * with its state, its visit entries and the value for the player to move. */
typedef struct learn_positions {
    size_t n, state_size;
    unsigned char *states; /* n x state_size */
    float *z;              /* n values in [-1, 1] for the mover */
    uint32_t *first;       /* n + 1 offsets into moves and visits */
    uint16_t *moves;
    uint32_t *visits;
} learn_positions;

static void learn_positions_free(learn_positions *P)
{
    free(P->states);
    free(P->z);
    free(P->first);
    free(P->moves);
    free(P->visits);
    memset(P, 0, sizeof *P);
}

/* Reads the records files into P, keeping the newest window positions.
 * Returns 0, or -1 after printing why. */
static int learn_read_data(const learn_opts *o, const char *rules, learn_positions *P,
                           void (*tick)(void *), void *ud)
{
    const banyan_game *g = o->g;
    data_file *files = calloc((size_t)o->n_data, sizeof *files);
    char why[512];
    size_t total = 0, entries = 0;
    int rc = -1;
    memset(P, 0, sizeof *P);
    if (!files)
        return -1;
    for (int f = 0; f < o->n_data; f++) {
        if (tick)
            tick(ud);
        if (data_read(o->data[f], &files[f], why, sizeof why) != 0) {
            fprintf(stderr, "banyan train: %s\n", why);
            goto done;
        }
        if (files[f].damaged)
            fprintf(stderr, "banyan train: warning: %s\n", why);
        if (strcmp(files[f].game, g->name) != 0 || strcmp(files[f].params, rules) != 0) {
            fprintf(stderr, "banyan train: %s holds games of %s (%s), not %s (%s)\n", o->data[f],
                    files[f].game, files[f].params, g->name, rules);
            goto done;
        }
        for (int k = 0; k < files[f].n_games; k++)
            for (int i = 0; i < files[f].games[k].n_plies; i++)
                total += files[f].games[k].plies[i].target;
    }
    /* Skip the oldest positions beyond the window. */
    size_t skip = total > (size_t)o->window ? total - (size_t)o->window : 0, seen = 0;
    P->n = total - skip;
    P->state_size = g->state_size;
    for (int f = 0; f < o->n_data; f++)
        for (int k = 0; k < files[f].n_games; k++)
            entries += files[f].games[k].n_entries;
    P->states = malloc(P->n * P->state_size + 1);
    P->z = malloc(P->n * sizeof *P->z + 1);
    P->first = malloc((P->n + 1) * sizeof *P->first);
    P->moves = malloc(entries * sizeof *P->moves + 1);
    P->visits = malloc(entries * sizeof *P->visits + 1);
    unsigned char *s = malloc(g->state_size);
    if (!P->states || !P->z || !P->first || !P->moves || !P->visits || !s) {
        fprintf(stderr, "banyan train: out of memory for %zu positions\n", P->n);
        free(s);
        goto done;
    }
    size_t at = 0;
    uint32_t e = 0;
    for (int f = 0; f < o->n_data; f++)
        for (int k = 0; k < files[f].n_games; k++) {
            const data_game *gm = &files[f].games[k];
            if (g->setup(s, rules) != BANYAN_OK)
                goto bad;
            for (int i = 0; i < gm->n_plies; i++) {
                const data_ply *p = &gm->plies[i];
                if (!banyan_game_is_legal(g, s, p->move))
                    goto bad;
                if (p->target && seen++ >= skip) {
                    int mover = g->to_move(s);
                    memcpy(P->states + at * P->state_size, s, P->state_size);
                    P->z[at] = (float)(2.0 * (mover == 0 ? gm->result : 1 - gm->result) - 1);
                    P->first[at] = e;
                    memcpy(P->moves + e, gm->moves + p->offset, p->n * sizeof *P->moves);
                    memcpy(P->visits + e, gm->visits + p->offset, p->n * sizeof *P->visits);
                    e += p->n;
                    at++;
                }
                g->play(s, p->move);
            }
            continue;
        bad:
            fprintf(stderr, "banyan train: %s: game %d replays an illegal move\n", o->data[f],
                    k + 1);
            free(s);
            goto done;
        }
    P->first[at] = e;
    free(s);
    rc = 0;
done:
    for (int f = 0; f < o->n_data; f++)
        data_file_free(&files[f]);
    free(files);
    if (rc != 0)
        learn_positions_free(P);
    return rc;
}

/* Writes training example i of P, under symmetry k, into planes and
 * policy (the visits as a distribution over the network's outputs); tmp
 * holds a plane set and a policy before the symmetry. */
static void learn_example(const banyan_game *g, const learn_positions *P, size_t i, int k,
                          int policy, size_t per, float *tmp, float *planes, float *pol)
{
    const unsigned char *s = P->states + i * P->state_size;
    float *tp = tmp, *tpol = tmp + per;
    uint64_t sum = 0;
    net_encode(g, s, tp);
    memset(tpol, 0, (size_t)policy * sizeof *tpol);
    for (uint32_t e = P->first[i]; e < P->first[i + 1]; e++)
        sum += P->visits[e];
    for (uint32_t e = P->first[i]; e < P->first[i + 1] && sum; e++) {
        int x = net_policy_index(g, s, P->moves[e]);
        if (x >= 0)
            tpol[x] += (float)((double)P->visits[e] / (double)sum);
    }
    net_transform(g, s, k, tp, tpol, planes, pol);
}

int learn_init(const learn_opts *o, const char *rules)
{
    unsigned char *s = malloc(o->g->state_size);
    nn_shape shape;
    nn_net net;
    nn_meta meta;
    char why[256];
    const char *bad = NULL;
    if (!s || o->g->setup(s, o->params) != BANYAN_OK)
        bad = "the game parameters are not valid";
    else
        bad = net_game_shape(o->g, s, &shape);
    free(s);
    if (bad) {
        fprintf(stderr, "banyan train: %s\n", bad);
        return 1;
    }
    shape.channels = (int)o->channels;
    shape.blocks = (int)o->blocks;
    shape.value_hidden = (int)o->hidden;
    if (nn_init(&net, &shape, o->seed) != 0) {
        fprintf(stderr, "banyan train: cannot make the network: %s\n",
                nn_shape_check(&shape) ? nn_shape_check(&shape) : "out of memory");
        return 1;
    }
    memset(&meta, 0, sizeof meta);
    snprintf(meta.game, sizeof meta.game, "%s", o->g->name);
    snprintf(meta.params, sizeof meta.params, "%s", rules);
    meta.generation = o->generation > 0 ? (uint64_t)o->generation : 0;
    int rc = nn_save(o->init, &net, &meta, why, sizeof why);
    if (rc != 0)
        fprintf(stderr, "banyan train: %s\n", why);
    else
        printf("train: a random network (%dx%d board, %d channels, %d blocks, %zu parameters) "
               "written to %s\n",
               shape.width, shape.height, shape.channels, shape.blocks, net.n_params, o->init);
    nn_free(&net);
    return rc ? 1 : 0;
}

/* The learning rate of step t (from 0) of a run of T steps: a warm-up over
 * the first 5% (at most 100 steps), then a cosine from the peak down to a
 * tenth of it. */
static float learn_rate(const learn_opts *o, uint64_t t, uint64_t T)
{
    double warm = (double)T * 0.05 < 100 ? (double)T * 0.05 : 100;
    double f = warm > 0 && (double)t < warm ? ((double)t + 1) / warm : 1;
    double c = T > 1 ? 0.5 * (1 + cos(3.141592653589793 * (double)t / (double)(T - 1))) : 1;
    return (float)(o->lr * f * (0.1 + 0.9 * c));
}

bool learn_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int cli_train(int argc, char **argv)
{
    learn_opts o;
    char rules[128];
    int rc = learn_start(argc, argv, &o, LEARN_TRAIN, rules, sizeof rules);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (o.init)
        return learn_init(&o, rules);
    if (!o.out || o.n_data == 0) {
        fprintf(stderr, "banyan train: name the records with --data FILE and the network to "
                        "write with --out FILE (see --help)\n");
        return 2;
    }
    return learn_train(&o, rules, NULL, NULL);
}

int learn_train(const learn_opts *o, const char *rules, void (*tick)(void *), void *ud)
{
    char why[512];
    nn_checkpoint ck;
    memset(&ck, 0, sizeof ck);
    bool resumed = o->checkpoint && learn_exists(o->checkpoint);
    if (resumed) {
        if (nn_checkpoint_load(o->checkpoint, &ck, why, sizeof why) != 0) {
            fprintf(stderr, "banyan train: %s\n", why);
            return 1;
        }
        char detail[256];
        if (net_check_game(&ck.meta, o->g, o->params, detail, sizeof detail)) {
            fprintf(stderr, "banyan train: %s: %s\n", o->checkpoint, detail);
            nn_checkpoint_free(&ck);
            return 1;
        }
    } else {
        if (learn_load_net(o, &ck.net, &ck.meta, "banyan train") != 0)
            return 1;
        ck.adam_m = calloc(ck.net.n_params, sizeof(float));
        ck.adam_v = calloc(ck.net.n_params, sizeof(float));
        banyan_rng r;
        banyan_rng_seed(&r, o->seed, 0x7a11);
        memcpy(ck.rng, r.s, sizeof ck.rng);
        ck.meta.generation = o->generation >= 0 ? (uint64_t)o->generation : ck.meta.generation + 1;
        ck.data_pos = 0; /* Steps of this run taken. */
    }

    /* The network must take this game's planes and moves (a file made before
     * the game had planes of its own does not). */
    nn_shape want;
    unsigned char *s0 = malloc(o->g->state_size);
    const char *bad = !s0 || o->g->setup(s0, o->params) != BANYAN_OK
                          ? "the game parameters are not valid"
                          : net_game_shape(o->g, s0, &want);
    free(s0);
    if (!bad && (ck.net.shape.width != want.width || ck.net.shape.height != want.height ||
                 ck.net.shape.planes != want.planes || ck.net.shape.policy != want.policy))
        bad = "the network's board, planes or moves are not this game's";
    if (bad) {
        fprintf(stderr, "banyan train: %s\n", bad);
        nn_checkpoint_free(&ck);
        return 1;
    }
    learn_positions P;
    if (!ck.adam_m || !ck.adam_v || learn_read_data(o, rules, &P, tick, ud) != 0) {
        nn_checkpoint_free(&ck);
        return 1;
    }
    if (P.n == 0) {
        fprintf(stderr, "banyan train: the records hold no positions\n");
        nn_checkpoint_free(&ck);
        learn_positions_free(&P);
        return 1;
    }
    const nn_shape *sh = &ck.net.shape;
    int cells = sh->width * sh->height, policy = sh->policy, B = (int)o->batch;
    size_t per = (size_t)sh->planes * (size_t)cells;
    float *in = malloc((size_t)B * per * sizeof(float));
    float *pol = malloc((size_t)B * (size_t)policy * sizeof(float));
    float *z = malloc((size_t)B * sizeof(float));
    float *tmp = malloc((per + (size_t)policy) * sizeof(float));
    float *grad = malloc(ck.net.n_params * sizeof(float));
    nn_work *w = nn_work_new(sh, B, true);
    int status = 0;
    if (!in || !pol || !z || !tmp || !grad || !w) {
        fprintf(stderr, "banyan train: out of memory\n");
        status = 1;
        goto out;
    }
    banyan_rng rng;
    memcpy(rng.s, ck.rng, sizeof rng.s);
    nn_adam adam = {0, 0.9f, 0.999f, 1e-8f, (float)o->wd};
    uint64_t T = (uint64_t)o->steps, t = ck.data_pos;
    double start = learn_now(), next_line = 0, pl_sum = 0, vl_sum = 0;
    int syms = net_symmetries(o->g, P.states);
    long counted = 0;
    if (resumed)
        fprintf(stderr, "train: resuming %s at step %llu of %llu\n", o->checkpoint,
                (unsigned long long)t, (unsigned long long)T);
    fprintf(stderr, "train: %zu positions, %d symmetries, %zu parameters, batch %d\n", P.n, syms,
            ck.net.n_params, B);
    if (o->max_steps && !o->checkpoint) {
        fprintf(stderr, "banyan train: --max-steps needs --checkpoint\n");
        status = 2;
        goto out;
    }
    for (uint64_t ran = 0; t < T; t++, ran++) {
        float pl, vl;
        if (o->max_steps && ran == (uint64_t)o->max_steps) {
            /* As if killed here, with the checkpoint of this very step. */
            ck.data_pos = t;
            memcpy(ck.rng, rng.s, sizeof ck.rng);
            if (nn_checkpoint_save(o->checkpoint, &ck, why, sizeof why) != 0) {
                fprintf(stderr, "\nbanyan train: %s\n", why);
                status = 1;
            } else {
                fprintf(stderr, "\n");
                printf("train: stopped at step %llu of %llu; run again to go on from %s\n",
                       (unsigned long long)t, (unsigned long long)T, o->checkpoint);
            }
            goto out;
        }
        for (int b = 0; b < B; b++) {
            size_t i = (size_t)(banyan_rng_next(&rng) % P.n);
            int k = (int)banyan_rng_below(&rng, (uint32_t)syms);
            learn_example(o->g, &P, i, k, policy, per, tmp, in + (size_t)b * per,
                          pol + (size_t)b * (size_t)policy);
            z[b] = P.z[i];
        }
        if (tick)
            tick(ud);
        nn_backward(&ck.net, w, in, B, pol, z, grad, &pl, &vl);
        adam.lr = learn_rate(o, t, T);
        nn_adam_step(&adam, ck.step + 1, ck.net.params, grad, ck.adam_m, ck.adam_v,
                     ck.net.n_params);
        ck.step++;
        pl_sum += pl;
        vl_sum += vl;
        counted++;
        bool last = t + 1 == T;
        if (((t + 1) % 50 == 0 && learn_now() >= next_line) || last) {
            double el = learn_now() - start;
            next_line = learn_now() + LEARN_LINE_EVERY;
            fprintf(stderr,
                    "\rtrain: step %llu/%llu, policy loss %.4f, value loss %.4f, lr %.5f, %.1f "
                    "steps/s   ",
                    (unsigned long long)(t + 1), (unsigned long long)T, pl_sum / (double)counted,
                    vl_sum / (double)counted, (double)adam.lr, (double)counted / el);
            if (!last) {
                pl_sum = vl_sum = 0;
                counted = 0;
                start = learn_now();
            }
        }
        if (o->checkpoint && ((t + 1) % (uint64_t)o->every == 0 || last)) {
            ck.data_pos = t + 1;
            memcpy(ck.rng, rng.s, sizeof ck.rng);
            if (nn_checkpoint_save(o->checkpoint, &ck, why, sizeof why) != 0) {
                fprintf(stderr, "\nbanyan train: %s\n", why);
                status = 1;
                goto out;
            }
        }
    }
    fprintf(stderr, "\n");
    ck.meta.train_steps += T;
    if (nn_save(o->out, &ck.net, &ck.meta, why, sizeof why) != 0) {
        fprintf(stderr, "banyan train: %s\n", why);
        status = 1;
        goto out;
    }
    printf("train: %llu steps on %zu positions, policy loss %.4f, value loss %.4f; generation "
           "%llu written to %s\n",
           (unsigned long long)T, P.n, counted ? pl_sum / (double)counted : 0.0,
           counted ? vl_sum / (double)counted : 0.0, (unsigned long long)ck.meta.generation,
           o->out);
out:
    free(in);
    free(pol);
    free(z);
    free(tmp);
    free(grad);
    nn_work_free(w);
    learn_positions_free(&P);
    nn_checkpoint_free(&ck);
    return status;
}
