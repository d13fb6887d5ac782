/*
 * comm.c - the distributed layer's communication on MPI (dist.h): start
 * and end, point-to-point messages with a deadline, and the fault that
 * ends the job naming the rank that did not answer.
 *
 * Every wait polls (MPI_Iprobe, MPI_Test) with a short sleep between
 * polls rather than blocking in MPI, so that no wait outlives the timeout:
 * a hung rank never hangs the others. The sleep is 100 microseconds, short
 * against the tens of milliseconds between the exchanges of a search.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "dist.h"

static struct {
    bool started;
    int rank, ranks;
    double timeout;
    int err_fd; /* Where dist_fail() writes: the first standard error. */
    char about[320];
} dist = {.ranks = 1, .timeout = 10, .err_fd = 2};

static double dist_now(void)
{
    return MPI_Wtime();
}

static void dist_nap(void)
{
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
}

/* Whether an MPI launcher started this process. */
static bool dist_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

bool dist_start(int *argc, char ***argv)
{
    int provided = 0;
    if (!dist_launched())
        return true;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "banyan: MPI did not start\n");
        return false;
    }
    dist.started = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &dist.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &dist.ranks);
    if (provided < MPI_THREAD_SERIALIZED)
        dist_fail("the MPI library offers no calls from more than one thread "
                  "(MPI_THREAD_SERIALIZED)");
    if (dist.rank != 0) {
        /* Rank 0 speaks for the job: the others' output and messages go
         * nowhere (they run the same commands on the same input, and would
         * say the same), but for the faults of dist_fail(). */
        int fd = open("/dev/null", O_WRONLY), err = dup(2);
        if (fd >= 0 && err >= 0) {
            fflush(stdout);
            fflush(stderr);
            dist.err_fd = err;
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (fd >= 0)
            close(fd);
    }
    return true;
}

void dist_end(void)
{
    if (dist.started) {
        fflush(stdout);
        MPI_Finalize();
        dist.started = false;
    }
}

bool dist_started(void)
{
    return dist.started;
}

int dist_rank(void)
{
    return dist.rank;
}

int dist_ranks(void)
{
    return dist.ranks;
}

const char *dist_about(void)
{
    if (!dist.about[0]) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, ",\n")] = 0;
        for (char *c = lib; *c; c++)
            *c = *c == '\t' ? ' ' : *c;
        snprintf(dist.about, sizeof dist.about, "%.200s (mpirun -np N banyan ...)", lib);
    }
    return dist.about;
}

double dist_timeout(void)
{
    return dist.timeout;
}

void dist_set_timeout(double seconds)
{
    dist.timeout = seconds;
}

void dist_fail(const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fflush(stderr);
    dprintf(dist.err_fd, "banyan: rank %d: %s\n", dist.rank, msg);
    if (dist.started) {
        /* Time for the launcher to pass the message on before MPI_Abort has
         * it end every rank (MPICH's dropped it now and then). */
        struct timespec ts = {0, 200000000};
        nanosleep(&ts, NULL);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    exit(1);
}

/* MPI counts in int: a message over 2 GiB is a fault of the caller. */
static int dist_count(size_t len)
{
    if (len > INT32_MAX)
        dist_fail("a message of %zu bytes is too long", len);
    return (int)len;
}

void dist_send(int to, int tag, const void *data, size_t len)
{
    MPI_Request req;
    int done = 0;
    MPI_Isend(data, dist_count(len), MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
    double end = dist_now() + dist.timeout;
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        if (dist_now() > end)
            dist_fail("rank %d took no message for %.0f s: it hung or died", to, dist.timeout);
        dist_nap();
    }
}

void dist_send_all(int tag, const void *data, size_t len)
{
    for (int r = 0; r < dist.ranks; r++)
        if (r != dist.rank)
            dist_send(r, tag, data, len);
}

bool dist_poll(int from, int tag, int *source, size_t *len)
{
    MPI_Status st;
    int flag = 0, count = 0;
    if (!dist.started)
        return false;
    MPI_Iprobe(from == DIST_ANY ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return false;
    MPI_Get_count(&st, MPI_BYTE, &count);
    if (source)
        *source = st.MPI_SOURCE;
    if (len)
        *len = (size_t)count;
    return true;
}

void *dist_recv(int from, int tag, int *source, size_t *len, double timeout)
{
    size_t n = 0;
    int src = 0;
    double end = timeout >= 0 ? dist_now() + timeout : 0;
    if (!dist.started)
        dist_fail("a message was awaited without MPI");
    while (!dist_poll(from, tag, &src, &n)) {
        if (timeout >= 0 && dist_now() > end) {
            if (from == DIST_ANY)
                dist_fail("no rank answered for %.0f s: one hung or died", timeout);
            dist_fail("rank %d did not answer for %.0f s: it hung or died", from, timeout);
        }
        dist_nap();
    }
    void *buf = n ? malloc(n) : NULL;
    if (n && !buf)
        dist_fail("out of memory for a message of %zu bytes", n);
    MPI_Recv(buf, dist_count(n), MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (source)
        *source = src;
    if (len)
        *len = n;
    return buf;
}

struct dist_post {
    MPI_Request req;
};

dist_post *dist_start_send(int to, int tag, const void *data, size_t len)
{
    dist_post *p = malloc(sizeof *p);
    if (!p)
        dist_fail("out of memory for a send");
    MPI_Isend(data, dist_count(len), MPI_BYTE, to, tag, MPI_COMM_WORLD, &p->req);
    return p;
}

bool dist_done(dist_post *p)
{
    int done = 0;
    MPI_Test(&p->req, &done, MPI_STATUS_IGNORE);
    if (done)
        free(p);
    return done;
}
