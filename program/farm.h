/*
 * farm.h - numbered jobs (a match's games) played by worker threads on
 * every rank of an MPI job, handed out and collected by rank 0.
 *
 * On one rank (no MPI, or mpirun -np 1), `threads` threads, the caller's
 * among them, take job numbers from next() and give their results to
 * done(). On several, every rank runs `threads` worker threads and its
 * main thread speaks for it: rank 0's hands job numbers to the others
 * (each holds at most `threads` at once), receives their results and gives
 * them to done() beside its own workers' results; another rank's takes the
 * numbers into a local queue for its workers and sends their results back.
 * MPI calls are made from the main threads only (dist.h).
 *
 * Faults: rank 0 and every other rank send each other a heartbeat every
 * second (a quarter of dist_timeout() when that is shorter), so a rank that
 * plays long jobs is not taken for a hung one; a rank silent for
 * dist_timeout() seconds ends the run with a message naming it
 * (dist_fail). A rank that dies ends the job through the MPI launcher.
 */
#ifndef BANYAN_FARM_H
#define BANYAN_FARM_H

#include <stddef.h>

typedef struct farm {
    int threads; /* Jobs run at once on each rank, 1 or more. */
    int tag;     /* The first of the four message tags the farm uses. */
    void *ctx;   /* Given to the three calls below. */
    /* Rank 0: the next job's number (0 or more), or -1 when none is left
     * to start. Called with the farm's lock held, from any thread. */
    int (*next)(void *ctx);
    /* Any rank, in a worker thread: runs the job and returns its result as
     * bytes from malloc(), their count in *len; NULL when out of memory
     * (the run fails). Calls run at once in several threads. */
    void *(*run)(void *ctx, int job, size_t *len);
    /* Rank 0: the result of a job, run on rank `rank`. Called with the
     * farm's lock held, from any thread of rank 0. */
    void (*done)(void *ctx, int job, int rank, const void *result, size_t len);
} farm;

/* Runs the jobs: every rank calls it with the same threads and tag, and it
 * returns on every rank once next() has said none is left and every job
 * handed out is done. */
void farm_run(const farm *f);

#endif /* BANYAN_FARM_H */
