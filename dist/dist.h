/*
 * dist.h - the distributed layer: one run of banyan spread over the ranks
 * of an MPI job (mpirun -np N banyan ...), for one search on more cores
 * than a machine has (dsearch.c), self-play (program/learn.c) and matches
 * (program/match.c).
 *
 * This file is the layer's communication, MPI behind a few calls (comm.c),
 * or one rank and no messages where the program was built without MPI
 * (MPI=no: none.c stands in). Rank 0 is the front end: it reads the input
 * and writes the output; the other ranks' standard output is thrown away.
 * Every call is made by the thread that called dist_start() or by one
 * thread at a time (MPI_THREAD_SERIALIZED).
 *
 * Faults: a rank that dies ends the job (the MPI launcher stops the others
 * and names it). A rank that hangs is found by the timeout: any wait for a
 * message that is due, and any send, gives up after dist_timeout() seconds
 * and ends every rank with a message naming the rank that did not answer
 * (dist_fail). Waits for something that may rightly take long (the next
 * command from the user) pass a negative timeout.
 */
#ifndef BANYAN_DIST_H
#define BANYAN_DIST_H

#include <stdbool.h>
#include <stddef.h>

/* Any sender, for dist_poll() and dist_recv(). */
#define DIST_ANY (-1)

/* The most ranks a job of banyan takes. */
#define DIST_MAX_RANKS 1024

/* Message tags: each user of the layer has its own range, so that no
 * message of one is taken by another. */
enum {
    DIST_TAG_INPUT = 1,   /* dsearch.c: rank 0's input, to the others */
    DIST_TAG_SEARCH = 10, /* dsearch.c: 10 .. 19 */
    DIST_TAG_MATCH = 20,  /* program/match.c: 20 .. 29 */
    DIST_TAG_LEARN = 30,  /* program/learn.c: 30 .. 39 */
    DIST_TAG_SOLO = 40,   /* program/solo.c: NRPA's best games */
};

/* Starts MPI when an MPI launcher started this process (mpirun, mpiexec,
 * srun: their environment says so), else does nothing: a plain `banyan`
 * never touches MPI. Returns false, having said why on stderr, when MPI
 * was wanted and could not start. Called once, first thing in main(). */
bool dist_start(int *argc, char ***argv);

/* Finishes MPI where dist_start() started it. Every rank calls it. */
void dist_end(void);

/* Whether an MPI launcher started this process and dist_start() started
 * MPI (false in a plain `banyan`). */
bool dist_started(void);

/* This process's rank (0 .. dist_ranks() - 1) and the ranks in the job:
 * 0 and 1 without MPI. */
int dist_rank(void);
int dist_ranks(void);

/* One line for `banyan --version`: the MPI library built in, or how to
 * build with one. */
const char *dist_about(void);

/* Seconds a rank may stay silent when an answer is due (default 10):
 * --rank-timeout. */
double dist_timeout(void);
void dist_set_timeout(double seconds);

/* Ends every rank of the job: writes "banyan: rank R: " and the message to
 * stderr, then MPI_Abort. Without MPI, the message and exit(1). */
_Noreturn void dist_fail(const char *fmt, ...)
#if defined(__MINGW_PRINTF_FORMAT) /* mingw-w64, where printf means Microsoft's formats */
    __attribute__((format(__MINGW_PRINTF_FORMAT, 1, 2)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Sends len bytes to rank `to` with tag. Returns when the data may be
 * reused; a send not taken within dist_timeout() seconds fails the run,
 * naming `to`. */
void dist_send(int to, int tag, const void *data, size_t len);

/* Whether a message with tag from rank `from` (or DIST_ANY) is waiting;
 * never blocks. With one, *source and *len (either may be NULL) say whose
 * and how long. */
bool dist_poll(int from, int tag, int *source, size_t *len);

/* Waits for a message with tag from `from` (or DIST_ANY) and returns it in
 * memory from malloc() (NULL for an empty message, or when out of memory:
 * then the run fails), its length in *len and its sender in *source
 * (either may be NULL). timeout: seconds to wait before failing the run
 * with a message naming `from`; < 0 waits for ever. */
void *dist_recv(int from, int tag, int *source, size_t *len, double timeout);

/* Rank 0 sends the same bytes to every other rank (which each call
 * dist_recv(0, tag, ...) for them). */
void dist_send_all(int tag, const void *data, size_t len);

/* A send under way (dist_post), for a rank that must go on receiving while
 * its data travels: two ranks that send each other large messages with
 * dist_send() at once would each wait for the other to receive. */
typedef struct dist_post dist_post;

/* Starts sending len bytes to rank `to` with tag; data must stay as it is
 * until dist_done() says the send is over. Returns the send (never NULL:
 * out of memory fails the run). */
dist_post *dist_start_send(int to, int tag, const void *data, size_t len);

/* Whether send p is over; then p is freed and must not be used again. */
bool dist_done(dist_post *p);

#endif /* BANYAN_DIST_H */
