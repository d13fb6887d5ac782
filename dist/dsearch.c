/*
 * dsearch.c - one search over every rank of an MPI job (dsearch.h), in the
 * manner of Pachi's cluster mode: every rank searches the same position
 * with a tree of its own and its own threads, and every --share-ms
 * milliseconds sends the top of its tree (banyan_engine_share: the
 * statistics of its own simulations at its --share-nodes most visited
 * nodes) to every other rank, and takes in the latest of every other
 * rank's (banyan_engine_absorb), which counts each simulation once. Rank 0
 * reports and plays from the merged statistics.
 *
 * Every rank runs the front-end on the same input, so every rank makes the
 * same searches in the same order. A search (serial number s on every
 * rank) runs so:
 *   1. Each rank searches within the limits (per rank: --playouts N runs N
 *      simulations on each rank); its progress callback, every quarter of
 *      an exchange interval, takes in what has arrived and, once an
 *      interval has passed, sends its own top to every other rank (SHARE).
 *      In step (--share-every N), every N simulations instead, a round: it
 *      sends its top, waits for every other rank's of that round (the
 *      round travels in the SHARE's header; a rank whose search has ended
 *      sends its last, DS_LAST_ROUND) and takes them in: with one thread a
 *      rank, a search over ranks is then reproducible.
 *      A rank whose search ends by itself says so to rank 0 (DONE) and
 *      goes on exchanging.
 *   2. Rank 0 ends the search for all (STOP): when its own search ended by
 *      time, a proof, a stop or the input (lz-analyze ends when the next
 *      command comes), or, where the limits are simulations or nodes, once
 *      every rank has run its own (DONE from all).
 *   3. Each other rank stops, finishes its sends in flight, and sends its
 *      last top with its simulation count (FINAL). Rank 0 takes them in
 *      from its search's finish callback, so that the library's final
 *      check of the move (the game's provers on the move about to be
 *      chosen) and its report see the merged tree, and sends its move and
 *      statistics (RESULT), which every rank's front-end then uses as its
 *      own: every rank plays rank 0's move.
 * Every wait also receives, so that two ranks sending each other large
 * messages never wait on each other; a rank silent for --rank-timeout
 * seconds while a search runs ends the job, named (dist_fail).
 *
 * Time: a timed search loses min(one exchange interval, a quarter of its
 * time) on every rank, which covers the last exchange, so that the move
 * comes back within the time the front-end planned.
 *
 * Input: rank 0 reads its standard input and sends what it read to the
 * others (INPUT), which read it in its place. Whether the next command is
 * waiting (line_ready) must be the same on every rank wherever a
 * front-end's course depends on it: during a search only rank 0's counts
 * (its answer stops the search for all); after one, every rank answers
 * what rank 0 saw when it sent RESULT, until the next read.
 */
#include "dsearch.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "banyan.h"
#include "dist.h"
#include "os.h"

enum {
    DS_SHARE = DIST_TAG_SEARCH, /* [serial u32][export] */
    DS_DONE,                    /* [serial u32]: this rank's search ended by itself. */
    DS_STOP,                    /* [serial u32]: rank 0 ends the search. */
    DS_FINAL,                   /* [serial u32][0 u32][playouts u64][export] */
    DS_RESULT,                  /* ds_result, then its moves. */
    DS_JOB,                     /* [serial u32][0 u32][a front-end's job]; empty: the end. */
};

#define DS_SERIAL     8          /* Bytes before a SHARE's export: the serial, its round. */
#define DS_LAST_ROUND UINT32_MAX /* The round of a rank whose search has ended. */
#define DS_FINAL_HEAD 16         /* Bytes before a FINAL's export. */

/* Rank 0's word on a search: what every rank's front-end reads. The moves
 * follow it (n_moves banyan_move_stats): every rank runs the same program,
 * so the structures are sent as they lie in memory. */
typedef struct ds_result {
    uint32_t serial;
    uint32_t ready; /* Rank 0's next command was waiting. */
    banyan_move best;
    int32_t proof;
    double value;
    uint64_t playouts; /* Every rank's. */
    double seconds;
    uint64_t nodes;
    int32_t n_moves;
    int32_t max_depth;
} ds_result;

/* The layer's state: the settings, the input's, and the moves of the last
 * RESULT (a front-end's report points to them until the next search). */
static struct {
    double share_s;
    uint64_t share_every; /* --share-every: exchanges in step, or 0 (by time). */
    int share_nodes;
    uint32_t serial; /* Searches so far: the same on every rank. */
    bool stats;      /* --share-stats. */
    bool in_search;
    bool latch; /* After a search: whether rank 0's next command was waiting. */
    banyan_move_stats *moves;
    line_source input;
} D = {.share_s = DSEARCH_SHARE_MS / 1000.0};

/* One search's exchange, on one rank. */
typedef struct ds_run {
    banyan_engine *e;
    int rank, ranks;
    uint32_t serial;
    banyan_progress_fn *user; /* The front-end's progress callback, and when next. */
    void *user_ud;
    double user_every, next_user;
    double start, next_share;
    unsigned char **out;      /* Per slot, ranks of them: DS_FINAL_HEAD bytes, then an export */
    size_t cap;               /* of this rank's (allocated once used), of cap bytes. */
    dist_post **posts;        /* Per rank: the send of an export in flight, or NULL, */
    int *slot;                /* the slot it reads */
    double *posted;           /* and when it began. */
    unsigned char **bufs;     /* Per rank: its latest export this search (with its header). */
    size_t *lens;             /* Their lengths. */
    size_t *skip;             /* The header's bytes in each. */
    double *heard;            /* Per rank: when a message last came from it. */
    uint32_t *got;            /* Per rank: the round of bufs[r] (--share-every). */
    uint32_t round;           /* --share-every: this rank's last round, */
    uint64_t round_at;        /* the simulations that start the next, */
    bool rounds_over;         /* and whether it sent its last (DS_LAST_ROUND). */
    double watched;           /* When this rank last looked at them. */
    bool *done;               /* Rank 0: the ranks whose search ended by itself, */
    bool *final;              /* and those whose last top came. */
    bool fresh;               /* An export came since the last absorb. */
    bool stop_seen;           /* A rank but 0: STOP came. */
    bool we_stopped;          /* This layer stopped the engine (and clears the stop). */
    const banyan_limits *lim; /* The search's limits. */
    bool gathered;            /* Rank 0: the others' last tops are in, */
    bool finished;            /* in the search's finish callback. */
    int exchanges;            /* Exchanges this rank made (--share-stats): */
    int held;                 /* intervals it sent nothing, a send still on its way, */
    int absorbs;              /* and the absorbs it made. */
    double exchange_s;        /* the CPU seconds they took (absorbing, exporting, posting) */
    double bytes;             /* and the bytes it sent in each, summed. */
    uint64_t others;          /* Rank 0: the other ranks' simulations. */
} ds_run;

static double ds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The CPU seconds the calling thread has used: the cost of an exchange,
 * which the wall clock overstates where ranks share cores. */
static double ds_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void ds_nap(void)
{
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
}

static uint32_t ds_get32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Fails the run if a rank that must be heard from has been silent for the
 * timeout: rank 0 watches every rank, the others rank 0. */
static void ds_watch(ds_run *R, double now)
{
    if (now - R->watched > dist_timeout() / 2) {
        /* This rank itself stood still (stopped, and woken by the
         * launcher ending the job): the others' silence is its own. */
        for (int r = 0; r < R->ranks; r++)
            R->heard[r] = now;
    }
    R->watched = now;
    for (int r = 0; r < R->ranks; r++) {
        if (r == R->rank || (R->rank != 0 && r != 0))
            continue;
        if (now - R->heard[r] > dist_timeout())
            dist_fail("rank %d sent nothing for %.0f s during a search: it hung or died", r,
                      dist_timeout());
    }
}

/* Receives a SHARE waiting from rank `from` (or any); whether there was one.
 * The latest of each rank for this search is kept, older ones dropped. */
static bool ds_take(ds_run *R, int from, double now)
{
    int src;
    size_t len;
    if (!dist_poll(from, DS_SHARE, &src, &len))
        return false;
    unsigned char *b = dist_recv(src, DS_SHARE, NULL, &len, dist_timeout());
    R->heard[src] = now;
    if (len <= DS_SERIAL || ds_get32(b) != R->serial) {
        free(b);
        return true;
    }
    free(R->bufs[src]);
    R->bufs[src] = b;
    R->lens[src] = len;
    R->skip[src] = DS_SERIAL;
    R->got[src] = ds_get32(b + 4) > R->got[src] ? ds_get32(b + 4) : R->got[src];
    R->fresh = true;
    return true;
}

/* Receives every SHARE waiting. In step (--share-every), while this rank
 * still makes rounds, a rank's is received only up to this rank's round,
 * so that a round takes in exactly the others' exports of that round. */
static void ds_drain(ds_run *R, double now)
{
    if (!D.share_every || R->rounds_over) {
        while (ds_take(R, DIST_ANY, now))
            ;
        return;
    }
    for (int r = 0; r < R->ranks; r++)
        while (r != R->rank && R->got[r] < R->round && ds_take(R, r, now))
            ;
}

/* Takes in the latest export of every other rank. */
static void ds_absorb(ds_run *R)
{
    const void *bufs[DIST_MAX_RANKS];
    size_t lens[DIST_MAX_RANKS];
    int n = 0;
    for (int r = 0; r < R->ranks; r++)
        if (R->bufs[r]) {
            bufs[n] = R->bufs[r] + R->skip[r];
            lens[n++] = R->lens[r] - R->skip[r];
        }
    if (n > 0)
        banyan_engine_absorb(R->e, bufs, lens, n);
    R->absorbs++;
    R->fresh = false;
}

/* Whether every send of an export is over; *oldest: when the oldest one
 * still on its way began. */
static bool ds_sent_since(ds_run *R, double *oldest)
{
    bool all = true;
    for (int r = 0; r < R->ranks; r++)
        if (R->posts[r]) {
            if (dist_done(R->posts[r]))
                R->posts[r] = NULL;
            else {
                if (all || R->posted[r] < *oldest)
                    *oldest = R->posted[r];
                all = false;
            }
        }
    return all;
}

static bool ds_sent(ds_run *R)
{
    double oldest;
    return ds_sent_since(R, &oldest);
}

/* A slot no send in flight reads: there is one, since a rank has one
 * slot per rank and sends to the others. */
static unsigned char *ds_slot(ds_run *R, int *slot)
{
    for (int i = 0; i < R->ranks; i++) {
        bool busy = false;
        for (int r = 0; r < R->ranks && !busy; r++)
            busy = R->posts[r] && R->slot[r] == i;
        if (busy)
            continue;
        if (!R->out[i] && !(R->out[i] = malloc(R->cap)))
            dist_fail("out of memory for a search's exchange");
        *slot = i;
        return R->out[i];
    }
    dist_fail("no free buffer for an export"); /* Not reached. */
    return NULL;
}

/* Writes the first DS_SERIAL bytes of a SHARE, FINAL or JOB message: the
 * search's serial, then 4 bytes of 0. */
static void ds_head(unsigned char *p, uint32_t serial)
{
    memcpy(p, &serial, sizeof serial);
    memset(p + 4, 0, DS_SERIAL - 4);
}

/* Writes this rank's export after `head` bytes of `buf` (a slot), which
 * begin with ds_head(); its length. */
static size_t ds_export(ds_run *R, unsigned char *buf, size_t head)
{
    size_t len = 0;
    ds_head(buf, R->serial);
    if (banyan_engine_share(R->e, buf + head, R->cap - head, &len) != BANYAN_OK)
        dist_fail("the engine cannot share its tree: %s", banyan_errmsg(R->e));
    return head + len;
}

/* Exports this rank's top, its round in the header (0 by time), and sends
 * it to every other rank no send of this rank's is still on its way to. */
static void ds_post(ds_run *R, uint32_t round, double now, double cpu)
{
    int slot;
    unsigned char *buf = ds_slot(R, &slot);
    size_t len = ds_export(R, buf, DS_SERIAL);
    memcpy(buf + 4, &round, sizeof round);
    for (int r = 0; r < R->ranks; r++)
        if (r != R->rank && !R->posts[r]) {
            R->posts[r] = dist_start_send(r, DS_SHARE, buf, len);
            R->slot[r] = slot;
            R->posted[r] = now;
        }
    R->exchanges++;
    R->bytes += (double)len;
    R->exchange_s += ds_cpu() - cpu;
}

/* One step of the exchange: receive, and once an interval has passed,
 * take in what came and send this rank's top to every other rank. While
 * the last sends are on their way it waits for the next interval; a send
 * that a quarter of the rank timeout has not ended (its receiver hung or
 * died) no longer holds back the others', which go on from another slot:
 * the ranks alive keep talking, and the timeout names the silent one. */
static void ds_step(ds_run *R)
{
    double now = ds_now();
    ds_drain(R, now);
    if (D.share_every || now < R->next_share)
        return;
    R->next_share = now + D.share_s;
    double cpu = ds_cpu(), oldest = now;
    if (R->fresh)
        ds_absorb(R);
    if (!ds_sent_since(R, &oldest) && now - oldest < dist_timeout() / 4) {
        R->held++;
        R->exchange_s += ds_cpu() - cpu;
        return;
    }
    ds_post(R, 0, now, cpu);
}

/* Whether a small message (serial only) with tag from rank `from` has come
 * for this search; older ones are dropped. */
static bool ds_signal(ds_run *R, int from, int tag, int *who)
{
    int src;
    while (dist_poll(from, tag, &src, NULL)) {
        size_t len;
        unsigned char *b = dist_recv(src, tag, NULL, &len, dist_timeout());
        bool now = len >= 4 && ds_get32(b) == R->serial;
        free(b);
        R->heard[src] = ds_now();
        if (now) {
            if (who)
                *who = src;
            return true;
        }
    }
    return false;
}

/* --share-every: sends this rank's export of round `round` to every
 * other rank, once its last sends are over. */
static void ds_post_round(ds_run *R, uint32_t round)
{
    while (!ds_sent(R)) {
        ds_drain(R, ds_now());
        ds_watch(R, ds_now());
        ds_nap();
    }
    ds_post(R, round, ds_now(), ds_cpu());
}

/* --share-every, from the progress callback: once the rank has run the
 * simulations of its next round, sends its top and waits for every other
 * rank's of that round (or its last, its search over), then takes them in.
 * A rank but 0 that sees STOP meanwhile stops its search. */
static void ds_round(ds_run *R, uint64_t sims)
{
    if (R->rounds_over || sims < R->round_at) {
        ds_drain(R, ds_now());
        return;
    }
    R->round_at += D.share_every;
    ds_post_round(R, ++R->round);
    for (;;) {
        ds_drain(R, ds_now());
        bool all = true;
        for (int r = 0; r < R->ranks && all; r++)
            all = r == R->rank || R->got[r] >= R->round;
        if (all)
            break;
        if (R->rank != 0 && ds_signal(R, 0, DS_STOP, NULL)) {
            R->stop_seen = R->we_stopped = true;
            banyan_engine_stop(R->e);
            return;
        }
        ds_watch(R, ds_now());
        ds_nap();
    }
    double cpu = ds_cpu();
    ds_absorb(R);
    R->exchange_s += ds_cpu() - cpu;
}

/* --share-every: a rank whose search has ended sends its last top, so
 * that no rank waits for a round of its. */
static void ds_last_round(ds_run *R)
{
    if (D.share_every && !R->rounds_over) {
        R->rounds_over = true;
        ds_post_round(R, DS_LAST_ROUND);
    }
}

/* Sends len bytes to rank `to`, receiving meanwhile (the receiver may be
 * waiting for a send of this rank's to go first). */
static void ds_send(ds_run *R, int to, int tag, const void *data, size_t len)
{
    dist_post *p = dist_start_send(to, tag, data, len);
    double since = ds_now();
    while (!dist_done(p)) {
        ds_drain(R, ds_now());
        if (ds_now() - since > dist_timeout())
            dist_fail("rank %d took no message for %.0f s: it hung or died", to, dist_timeout());
        ds_nap();
    }
}

static void ds_send_all(ds_run *R, int tag, const void *data, size_t len)
{
    for (int r = 0; r < R->ranks; r++)
        if (r != R->rank)
            ds_send(R, r, tag, data, len);
}

/* The progress callback every rank's search runs under. */
static void ds_progress(void *ud, const banyan_report *rep)
{
    ds_run *R = ud;
    if (D.share_every)
        ds_round(R, rep->playouts);
    else
        ds_step(R);
    if (R->rank != 0 && !R->stop_seen && ds_signal(R, 0, DS_STOP, NULL)) {
        R->stop_seen = true;
        R->we_stopped = true;
        banyan_engine_stop(R->e);
    }
    ds_watch(R, ds_now());
    double now = ds_now();
    if (R->user && now >= R->next_user) {
        R->next_user = now + R->user_every;
        R->user(R->user_ud, rep);
    }
}

/* Whether the search ended by itself on its budget (simulations or nodes)
 * rather than by time, a stop or a proof: then rank 0 waits for the other
 * ranks to run theirs. */
static bool ds_budget_spent(const banyan_limits *lim, const banyan_report *r, double elapsed)
{
    uint64_t playouts = lim->playouts;
    if (!lim->playouts && lim->time == 0 && !lim->nodes)
        playouts = 10000; /* banyan_limits' default. */
    if (r->proof != BANYAN_UNPROVEN || r->best == BANYAN_MOVE_NONE)
        return false;
    if (lim->time > 0 && elapsed >= lim->time)
        return false;
    return (playouts && r->playouts >= playouts) || (lim->nodes && r->nodes >= lim->nodes);
}

/* Rank 0 once its own simulations have ended: waits for the others'
 * budgets where it must, stops them and takes in their last tops. */
static void ds_gather(ds_run *R, const banyan_report *rep)
{
    const banyan_limits *lim = R->lim;
    ds_last_round(R);
    if (ds_budget_spent(lim, rep, ds_now() - R->start)) {
        int left = R->ranks - 1;
        while (left > 0) {
            int who;
            while (ds_signal(R, DIST_ANY, DS_DONE, &who))
                if (!R->done[who]) {
                    R->done[who] = true;
                    left--;
                }
            ds_step(R);
            ds_watch(R, ds_now());
            if (lim->time > 0 && ds_now() - R->start >= lim->time)
                break;
            ds_nap();
        }
    }
    ds_send_all(R, DS_STOP, &R->serial, sizeof R->serial);
    double since = ds_now();
    for (int left = R->ranks - 1; left > 0;) {
        size_t len;
        int r;
        ds_drain(R, ds_now());
        ds_signal(R, DIST_ANY, DS_DONE, NULL); /* Late ones: dropped. */
        ds_sent(R);
        if (dist_poll(DIST_ANY, DS_FINAL, &r, &len)) {
            unsigned char *b = dist_recv(r, DS_FINAL, NULL, &len, dist_timeout());
            if (len <= DS_FINAL_HEAD || ds_get32(b) != R->serial)
                dist_fail("rank %d answered another search (%u) than %u", r,
                          len >= 4 ? ds_get32(b) : 0, R->serial);
            uint64_t playouts;
            memcpy(&playouts, b + 8, sizeof playouts);
            R->others += playouts;
            free(R->bufs[r]);
            R->bufs[r] = b;
            R->lens[r] = len;
            R->skip[r] = DS_FINAL_HEAD;
            R->final[r] = true;
            left--;
            continue;
        }
        if (ds_now() - since > dist_timeout())
            for (r = 1; r < R->ranks; r++)
                if (!R->final[r])
                    dist_fail("rank %d did not end its search within %.0f s of the stop: it "
                              "hung or died",
                              r, dist_timeout());
        ds_nap();
    }
    ds_absorb(R);
    R->gathered = true;
}

/* The search's finish callback on rank 0: the others' last tops are
 * taken in before the library's final check of the move. */
static void ds_finish(void *ud, const banyan_report *rep)
{
    ds_run *R = ud;
    ds_gather(R, rep);
    R->finished = true;
}

/* Rank 0 after its own search: takes in the others' last tops where the
 * search did not (a game over, no simulation, no finish call), reports
 * and tells all. */
static void ds_finish_root(ds_run *R, banyan_report *out, int rc)
{
    banyan_report own = *out;
    if (!R->gathered)
        ds_gather(R, out);
    while (!ds_sent(R)) { /* Every rank but 0 receives until RESULT. */
        ds_watch(R, ds_now());
        ds_nap();
    }
    if (rc == BANYAN_OK && !R->finished && banyan_engine_report(R->e, out) == BANYAN_OK) {
        /* Taken in after the search: its report is made again. */
        out->max_depth = own.max_depth;
        out->start_nodes = own.start_nodes;
        out->recycles = own.recycles;
        out->transposed = own.transposed;
        out->tree_full = own.tree_full;
    }
    out->playouts = own.playouts + R->others;
    out->seconds = ds_now() - R->start;
    bool ready = D.input.read && D.input.ready(D.input.ud);
    size_t n = out->n_moves > 0 ? (size_t)out->n_moves : 0,
           len = sizeof(ds_result) + n * sizeof *out->moves;
    unsigned char *msg = malloc(len);
    if (!msg)
        dist_fail("out of memory for a search's result");
    ds_result res = {R->serial,     ready,        out->best,  (int32_t)out->proof, out->value,
                     out->playouts, out->seconds, out->nodes, (int32_t)n,          out->max_depth};
    memcpy(msg, &res, sizeof res);
    if (n)
        memcpy(msg + sizeof res, out->moves, n * sizeof *out->moves);
    ds_send_all(R, DS_RESULT, msg, len);
    free(msg);
    D.latch = ready;
    if (D.stats)
        fprintf(stderr,
                "share: rank 0: %d exchanges (%d intervals held by a send on its way, %d "
                "absorbs), %.0f bytes sent to each rank in each, %.3f ms "
                "of CPU each; %.1f%% of the search's %.3f s; %d ranks, %llu playouts\n",
                R->exchanges, R->held, R->absorbs, R->exchanges ? R->bytes / R->exchanges : 0,
                R->exchanges ? 1000 * R->exchange_s / R->exchanges : 0,
                100 * R->exchange_s / fmax(1e-9, out->seconds), out->seconds, R->ranks,
                (unsigned long long)out->playouts);
}

/* A rank but 0 after its own search: waits for the stop, sends its last
 * top, and takes rank 0's word as its report. */
static void ds_finish_other(ds_run *R, banyan_report *out)
{
    ds_last_round(R);
    if (!R->stop_seen) {
        ds_send(R, 0, DS_DONE, &R->serial, sizeof R->serial);
        while (!ds_signal(R, 0, DS_STOP, NULL)) {
            ds_step(R);
            ds_watch(R, ds_now());
            ds_nap();
        }
        R->stop_seen = true;
    }
    while (!ds_sent(R)) {      /* Every send done before FINAL: no rank then */
        ds_drain(R, ds_now()); /* ends its search with one on its way to it. */
        ds_watch(R, ds_now());
        ds_nap();
    }
    int slot;
    unsigned char *buf = ds_slot(R, &slot);
    size_t len = ds_export(R, buf, DS_FINAL_HEAD);
    memcpy(buf + 8, &out->playouts, sizeof out->playouts);
    ds_send(R, 0, DS_FINAL, buf, len);
    size_t got;
    double since = ds_now();
    while (!dist_poll(0, DS_RESULT, NULL, &got)) {
        ds_drain(R, ds_now()); /* Rank 0's last sends. */
        if (ds_now() - since > dist_timeout())
            dist_fail("rank 0 sent no result within %.0f s of the search's end: it hung or "
                      "died",
                      dist_timeout());
        ds_nap();
    }
    unsigned char *b = dist_recv(0, DS_RESULT, NULL, &got, dist_timeout());
    ds_result res;
    if (got < sizeof res || (memcpy(&res, b, sizeof res), res.serial != R->serial) ||
        res.n_moves < 0 || got != sizeof res + (size_t)res.n_moves * sizeof *D.moves)
        dist_fail("rank 0 sent the result of another search than %u", R->serial);
    if (res.n_moves > 0)
        memcpy(D.moves, b + sizeof res, (size_t)res.n_moves * sizeof *D.moves);
    free(b);
    out->best = res.best;
    out->proof = (banyan_proof)res.proof;
    out->value = res.value;
    out->playouts = res.playouts;
    out->seconds = res.seconds;
    out->nodes = res.nodes;
    out->max_depth = res.max_depth;
    out->n_moves = res.n_moves;
    out->moves = D.moves;
    D.latch = res.ready;
}

/* options.search under mpirun: one search over every rank. */
static int ds_search(banyan_engine *e, const banyan_limits *user, banyan_report *out)
{
    int ranks = dist_ranks();
    banyan_limits lim = user ? *user : BANYAN_LIMITS();
    ds_run R = {.e = e, .rank = dist_rank(), .ranks = ranks, .serial = ++D.serial};
    R.cap = DS_FINAL_HEAD + banyan_share_size(D.share_nodes);
    R.out = calloc((size_t)ranks, sizeof *R.out);
    R.posts = calloc((size_t)ranks, sizeof *R.posts);
    R.slot = calloc((size_t)ranks, sizeof *R.slot);
    R.posted = calloc((size_t)ranks, sizeof *R.posted);
    R.bufs = calloc((size_t)ranks, sizeof *R.bufs);
    R.lens = calloc((size_t)ranks, sizeof *R.lens);
    R.skip = calloc((size_t)ranks, sizeof *R.skip);
    R.heard = calloc((size_t)ranks, sizeof *R.heard);
    R.got = calloc((size_t)ranks, sizeof *R.got);
    R.done = calloc((size_t)ranks, sizeof *R.done);
    R.final = calloc((size_t)ranks, sizeof *R.final);
    if (!D.moves)
        D.moves = malloc(BANYAN_MAX_MOVES * sizeof *D.moves);
    if (!R.out || !R.posts || !R.slot || !R.posted || !R.bufs || !R.lens || !R.skip || !R.heard ||
        !R.got || !R.done || !R.final || !D.moves)
        dist_fail("out of memory for a search over %d ranks", ranks);
    if (lim.time > 0) {
        double cut = fmin(D.share_s, lim.time / 4);
        lim.time -= cut;
        if (lim.time_max > 0)
            lim.time_max = fmax(lim.time, lim.time_max - cut);
    }
    R.user = lim.progress;
    R.user_ud = lim.progress_ud;
    R.user_every = lim.progress_interval > 0 ? lim.progress_interval : 0.25;
    R.start = R.next_share = ds_now();
    R.next_user = R.start + R.user_every;
    for (int r = 0; r < ranks; r++)
        R.heard[r] = R.start;
    R.watched = R.start;
    lim.progress = ds_progress;
    lim.progress_ud = &R;
    lim.progress_interval = D.share_every ? 1e-9 : D.share_s / 4; /* In step: every 16. */
    R.round_at = D.share_every;
    R.lim = &lim;
    if (R.rank == 0) {
        lim.finish = ds_finish;
        lim.finish_ud = &R;
    }
    D.in_search = true;
    int rc = banyan_engine_search(e, &lim, out);
    if (R.we_stopped)
        banyan_engine_clear_stop(e);
    if (R.rank == 0)
        ds_finish_root(&R, out, rc);
    else
        ds_finish_other(&R, out);
    D.in_search = false;
    for (int r = 0; r < ranks; r++) {
        free(R.bufs[r]);
        free(R.out[r]);
    }
    free(R.out);
    free(R.posts);
    free(R.slot);
    free(R.posted);
    free(R.bufs);
    free(R.lens);
    free(R.skip);
    free(R.heard);
    free(R.got);
    free(R.done);
    free(R.final);
    return rc;
}

bool dsearch_setup(options *o, char *why, size_t len)
{
    if (o->share_ms > 0)
        D.share_s = o->share_ms / 1000;
    D.share_every = (uint64_t)o->share_every;
    D.stats = o->share_stats;
    if (o->rank_timeout > 0)
        dist_set_timeout(o->rank_timeout);
    if (o->cfg.share_nodes == 0)
        o->cfg.share_nodes = DSEARCH_NODES;
    if (!o->no_phantoms) {
        o->cfg.share_searches = dist_ranks();
        o->cfg.share_index = dist_rank();
    }
    if (o->cfg.parallel == BANYAN_PARALLEL_ROOT && o->cfg.threads > 1) {
        snprintf(why, len, "a search over MPI ranks shares one tree a rank: parallel=tree");
        return false;
    }
    if (o->cfg.graph) {
        snprintf(why, len,
                 "a search over MPI ranks shares trees, not graphs: transpositions=on "
                 "or off");
        return false;
    }
    if (dist_ranks() > DIST_MAX_RANKS) {
        snprintf(why, len, "at most %d ranks", DIST_MAX_RANKS);
        return false;
    }
    D.share_nodes = o->cfg.share_nodes;
    /* Each rank its own simulations: rank 0 keeps the seed, the others
     * take one drawn from it and their rank. */
    if (dist_rank() > 0)
        o->cfg.seed = banyan_mix64(o->cfg.seed ^ (0x9e3779b97f4a7c15u * (uint64_t)dist_rank()));
    o->ponder = 0;
    o->search = ds_search;
    return true;
}

/* The input: rank 0 reads its standard input and sends each piece. */
static size_t ds_read(void *ud, char *buf, size_t n)
{
    (void)ud;
    D.latch = false;
    if (dist_rank() == 0) {
        ptrdiff_t got;
        do
            got = os_read(0, buf, n);
        while (got < 0 && errno == EINTR);
        size_t k = got > 0 ? (size_t)got : 0;
        dist_send_all(DIST_TAG_INPUT, buf, k);
        return k;
    }
    size_t k = 0;
    void *b = dist_recv(0, DIST_TAG_INPUT, NULL, &k, -1);
    if (k > n)
        dist_fail("rank 0 sent %zu bytes of input for %zu", k, n);
    if (k)
        memcpy(buf, b, k);
    free(b);
    return k;
}

static bool ds_ready(void *ud)
{
    (void)ud;
    if (dist_rank() == 0 && D.in_search) {
        return os_wait_input(0, 0) > 0;
    }
    if (D.in_search)
        return false;
    return D.latch;
}

const line_source *dsearch_input(void)
{
    D.input = (line_source){ds_read, ds_ready, NULL};
    return &D.input;
}

/* Rank 0: the searches of dsearch_job(), one over the ranks at a time. */
static pthread_mutex_t ds_ranks_busy = PTHREAD_MUTEX_INITIALIZER;

int dsearch_job(banyan_engine *e, const void *job, size_t len, const banyan_limits *lim,
                banyan_report *out)
{
    if (dist_ranks() < 2 || pthread_mutex_trylock(&ds_ranks_busy) != 0)
        return -1;
    unsigned char *msg = malloc(DS_SERIAL + len);
    if (!msg)
        dist_fail("out of memory for a search over %d ranks", dist_ranks());
    ds_head(msg, D.serial + 1); /* ds_search's serial. */
    if (len)
        memcpy(msg + DS_SERIAL, job, len);
    dist_send_all(DS_JOB, msg, DS_SERIAL + len);
    free(msg);
    int rc = ds_search(e, lim, out);
    pthread_mutex_unlock(&ds_ranks_busy);
    return rc;
}

void dsearch_follow(dsearch_job_fn *fn, void *ud)
{
    for (;;) {
        size_t len = 0;
        unsigned char *b = dist_recv(0, DS_JOB, NULL, &len, -1);
        if (len < DS_SERIAL) {
            free(b);
            return; /* The end. */
        }
        banyan_limits lim = BANYAN_LIMITS();
        char why[256] = "";
        banyan_engine *e = fn(ud, b + DS_SERIAL, len - DS_SERIAL, &lim, why, sizeof why);
        if (!e)
            dist_fail("cannot take part in rank 0's search: %s", why);
        D.serial = ds_get32(b) - 1;
        free(b);
        banyan_report r = BANYAN_REPORT();
        ds_search(e, &lim, &r);
    }
}

void dsearch_end(void)
{
    if (dist_ranks() < 2 || dist_rank() != 0)
        return;
    pthread_mutex_lock(&ds_ranks_busy);
    dist_send_all(DS_JOB, NULL, 0);
    pthread_mutex_unlock(&ds_ranks_busy);
}
