/*
 * farm.c - numbered jobs over worker threads and the ranks of an MPI job
 * (farm.h): the workers, rank 0's hand-out and collection, the other
 * ranks' queue and outbox, and the heartbeats that find a hung rank.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist.h"
#include "farm.h"

#define FARM_MAX_THREADS 256

/* Message tags, from farm.tag on. */
enum {
    FARM_JOB,    /* Rank 0 to a rank: a job's number (int32_t). */
    FARM_RESULT, /* A rank to rank 0: the job's number (int32_t), then its result. */
    FARM_BEAT,   /* Either way: nothing, but the sender is alive. */
    FARM_END     /* Rank 0 to a rank: every job is done. */
};

/* A result on its way to rank 0: the message's bytes. */
typedef struct farm_out {
    void *msg;
    size_t len;
} farm_out;

typedef struct farm_state {
    const farm *f;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* A job or the end came (ranks other than 0). */
    int busy;            /* Workers still taking jobs (rank 0). */
    /* Ranks other than 0: the jobs received and not yet started, and the
     * results not yet sent; each holds at most f->threads. */
    int queue[FARM_MAX_THREADS], queued;
    farm_out outbox[FARM_MAX_THREADS];
    int n_out;
    bool end;
} farm_state;

static double farm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void farm_nap(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* Seconds between heartbeats. */
static double farm_beat(void)
{
    double t = dist_timeout() / 4;
    return t < 1 ? t : 1;
}

/* Ends the run when rank r, last heard from at *heard, has been silent for
 * dist_timeout() seconds. last: when this rank last looked; if it stood
 * still itself since (stopped, or starved of the processor), the silence
 * was its own, and r's is counted again from now. */
static void farm_watch(double *heard, int r, double now, double last)
{
    if (now - last > farm_beat())
        *heard = now;
    else if (now - *heard > dist_timeout())
        dist_fail("rank %d sent nothing for %g s (--rank-timeout): it hung or died", r,
                  dist_timeout());
}

static void *farm_result(const farm *f, int job, size_t *len)
{
    void *data = f->run(f->ctx, job, len);
    if (!data)
        dist_fail("out of memory for the result of job %d", job);
    return data;
}

/* A worker of rank 0 (or of the only rank): jobs from next(), results to
 * done(). */
static void *farm_worker(void *arg)
{
    farm_state *S = arg;
    const farm *f = S->f;
    for (;;) {
        pthread_mutex_lock(&S->lock);
        int job = f->next(f->ctx);
        pthread_mutex_unlock(&S->lock);
        if (job < 0)
            break;
        size_t len = 0;
        void *data = farm_result(f, job, &len);
        pthread_mutex_lock(&S->lock);
        f->done(f->ctx, job, 0, data, len);
        pthread_mutex_unlock(&S->lock);
        free(data);
    }
    pthread_mutex_lock(&S->lock);
    S->busy--;
    pthread_mutex_unlock(&S->lock);
    return NULL;
}

/* A worker of another rank: jobs from the queue, results to the outbox, as
 * a message ready to send. */
static void *farm_remote_worker(void *arg)
{
    farm_state *S = arg;
    for (;;) {
        pthread_mutex_lock(&S->lock);
        while (!S->queued && !S->end)
            pthread_cond_wait(&S->wake, &S->lock);
        if (!S->queued) {
            pthread_mutex_unlock(&S->lock);
            return NULL;
        }
        int job = S->queue[0];
        memmove(S->queue, S->queue + 1, (size_t)--S->queued * sizeof S->queue[0]);
        pthread_mutex_unlock(&S->lock);

        size_t len = 0;
        void *data = farm_result(S->f, job, &len);
        unsigned char *msg = malloc(sizeof(int32_t) + len);
        if (!msg)
            dist_fail("out of memory for the result of job %d", job);
        int32_t j = job;
        memcpy(msg, &j, sizeof j);
        memcpy(msg + sizeof j, data, len);
        free(data);
        pthread_mutex_lock(&S->lock);
        S->outbox[S->n_out++] = (farm_out){msg, sizeof j + len};
        pthread_mutex_unlock(&S->lock);
    }
}

/* Starts n threads running fn, counted in S->busy; returns how many
 * started. */
static int farm_start(pthread_t *threads, int n, void *(*fn)(void *), farm_state *S)
{
    int started = 0;
    pthread_mutex_lock(&S->lock);
    S->busy += n;
    pthread_mutex_unlock(&S->lock);
    for (int i = 0; i < n; i++)
        if (pthread_create(&threads[started], NULL, fn, S) == 0)
            started++;
    pthread_mutex_lock(&S->lock);
    S->busy -= n - started;
    pthread_mutex_unlock(&S->lock);
    return started;
}

/* What rank 0 knows of another rank. */
typedef struct farm_rank {
    int jobs[FARM_MAX_THREADS]; /* The jobs it holds. */
    int n;
    double heard; /* When it last sent something. */
} farm_rank;

/* Hands rank r a job, if one is left. */
static void farm_give(farm_state *S, farm_rank *rk, int r)
{
    pthread_mutex_lock(&S->lock);
    int job = S->f->next(S->f->ctx);
    pthread_mutex_unlock(&S->lock);
    if (job < 0)
        return;
    int32_t j = job;
    rk->jobs[rk->n++] = job;
    dist_send(r, S->f->tag + FARM_JOB, &j, sizeof j);
}

/* A result from rank r: one of its jobs, given to done(), and the next. */
static void farm_collect(farm_state *S, farm_rank *rk, int r, unsigned char *msg, size_t len)
{
    int32_t j = -1;
    int k = 0;
    if (len >= sizeof j)
        memcpy(&j, msg, sizeof j);
    while (k < rk->n && rk->jobs[k] != j)
        k++;
    if (k == rk->n)
        dist_fail("rank %d sent the result of a job it did not hold", r);
    rk->jobs[k] = rk->jobs[--rk->n];
    pthread_mutex_lock(&S->lock);
    S->f->done(S->f->ctx, j, r, msg + sizeof j, len - sizeof j);
    pthread_mutex_unlock(&S->lock);
    farm_give(S, rk, r);
}

/* Rank 0 of several: its workers play, its main thread serves the others.
 * Returns the workers started. */
static int farm_lead(farm_state *S, pthread_t *threads)
{
    const farm *f = S->f;
    int ranks = dist_ranks();
    farm_rank *rk = calloc((size_t)ranks, sizeof *rk);
    if (!rk)
        dist_fail("out of memory");
    int started = farm_start(threads, f->threads, farm_worker, S);
    if (!started)
        dist_fail("no thread could be started");
    double now = farm_now(), beat = now, last = now;
    for (int r = 1; r < ranks; r++) {
        rk[r].heard = now;
        for (int k = 0; k < f->threads; k++)
            farm_give(S, &rk[r], r);
    }
    for (;;) {
        int src = 0;
        size_t len = 0;
        bool heard = false;
        while (dist_poll(DIST_ANY, f->tag + FARM_RESULT, &src, NULL)) {
            unsigned char *msg = dist_recv(src, f->tag + FARM_RESULT, NULL, &len, dist_timeout());
            rk[src].heard = farm_now();
            farm_collect(S, &rk[src], src, msg, len);
            free(msg);
            heard = true;
        }
        while (dist_poll(DIST_ANY, f->tag + FARM_BEAT, &src, NULL)) {
            free(dist_recv(src, f->tag + FARM_BEAT, NULL, NULL, dist_timeout()));
            rk[src].heard = farm_now();
        }
        now = farm_now();
        if (now - beat >= farm_beat()) {
            dist_send_all(f->tag + FARM_BEAT, NULL, 0);
            beat = now;
        }
        bool held = false;
        for (int r = 1; r < ranks; r++) {
            farm_watch(&rk[r].heard, r, now, last);
            held = held || rk[r].n > 0;
        }
        last = now;
        pthread_mutex_lock(&S->lock);
        bool working = S->busy > 0;
        pthread_mutex_unlock(&S->lock);
        if (!working && !held)
            break;
        if (!heard)
            farm_nap();
    }
    dist_send_all(f->tag + FARM_END, NULL, 0);
    free(rk);
    return started;
}

/* Another rank: its main thread takes jobs and sends results. Returns the
 * workers started. */
static int farm_follow(farm_state *S, pthread_t *threads)
{
    const farm *f = S->f;
    int started = farm_start(threads, f->threads, farm_remote_worker, S);
    if (!started)
        dist_fail("no thread could be started");
    double heard = farm_now(), beat = 0, last = heard;
    size_t len = 0;
    while (!dist_poll(0, f->tag + FARM_END, NULL, NULL)) {
        while (dist_poll(0, f->tag + FARM_JOB, NULL, NULL)) {
            int32_t *j = dist_recv(0, f->tag + FARM_JOB, NULL, &len, dist_timeout());
            pthread_mutex_lock(&S->lock);
            if (!j || len != sizeof *j || *j < 0 || S->queued == f->threads)
                dist_fail("rank 0 sent a job that is not one");
            S->queue[S->queued++] = *j;
            pthread_cond_signal(&S->wake);
            pthread_mutex_unlock(&S->lock);
            free(j);
            heard = farm_now();
        }
        while (dist_poll(0, f->tag + FARM_BEAT, NULL, NULL)) {
            free(dist_recv(0, f->tag + FARM_BEAT, NULL, NULL, dist_timeout()));
            heard = farm_now();
        }
        farm_out out[FARM_MAX_THREADS];
        pthread_mutex_lock(&S->lock);
        int n = S->n_out;
        memcpy(out, S->outbox, (size_t)n * sizeof out[0]);
        S->n_out = 0;
        pthread_mutex_unlock(&S->lock);
        double now = farm_now();
        for (int i = 0; i < n; i++) {
            dist_send(0, f->tag + FARM_RESULT, out[i].msg, out[i].len);
            free(out[i].msg);
            beat = now;
        }
        if (now - beat >= farm_beat()) {
            dist_send(0, f->tag + FARM_BEAT, NULL, 0);
            beat = now;
        }
        farm_watch(&heard, 0, now, last);
        last = now;
        if (!n)
            farm_nap();
    }
    free(dist_recv(0, f->tag + FARM_END, NULL, NULL, dist_timeout()));
    pthread_mutex_lock(&S->lock);
    S->end = true;
    pthread_cond_broadcast(&S->wake);
    pthread_mutex_unlock(&S->lock);
    return started;
}

void farm_run(const farm *f)
{
    farm_state S;
    pthread_t threads[FARM_MAX_THREADS];
    int n = f->threads < FARM_MAX_THREADS ? f->threads : FARM_MAX_THREADS;
    farm g = *f;
    g.threads = n > 0 ? n : 1;
    memset(&S, 0, sizeof S);
    S.f = &g;
    pthread_mutex_init(&S.lock, NULL);
    pthread_cond_init(&S.wake, NULL);
    int started;
    if (dist_ranks() == 1) {
        /* The caller's thread is one of the workers. */
        S.busy = 1;
        started = farm_start(threads, g.threads - 1, farm_worker, &S);
        farm_worker(&S);
    } else {
        started = dist_rank() == 0 ? farm_lead(&S, threads) : farm_follow(&S, threads);
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_cond_destroy(&S.wake);
    pthread_mutex_destroy(&S.lock);
}
