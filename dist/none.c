/*
 * none.c - the distributed layer in a build without MPI (MPI=no, or no MPI
 * found by pkg-config): one rank, no messages. `mpirun -np N banyan` then
 * runs N independent copies; dist_start() says so and stops them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist.h"

/* What is missing and how to get it; a build that leaves MPI out by
 * design says why instead (make windows). */
#ifndef DIST_MISSING
#define DIST_MISSING                                                                               \
    "not built (it needs MPI: apt-get install libopenmpi-dev openmpi-bin pkg-config, "             \
    "then rebuild)"
#endif

bool dist_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK")) {
        fprintf(stderr, "banyan: started by an MPI launcher, but distributed runs are %s\n",
                DIST_MISSING);
        return false;
    }
    return true;
}

void dist_end(void)
{
}

bool dist_started(void)
{
    return false;
}

int dist_rank(void)
{
    return 0;
}

int dist_ranks(void)
{
    return 1;
}

const char *dist_about(void)
{
    return DIST_MISSING;
}

double dist_timeout(void)
{
    return 10;
}

void dist_set_timeout(double seconds)
{
    (void)seconds;
}

void dist_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "banyan: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

void dist_send(int to, int tag, const void *data, size_t len)
{
    (void)to, (void)tag, (void)data, (void)len;
    dist_fail("a message was sent without MPI");
}

void dist_send_all(int tag, const void *data, size_t len)
{
    (void)tag, (void)data, (void)len;
}

bool dist_poll(int from, int tag, int *source, size_t *len)
{
    (void)from, (void)tag, (void)source, (void)len;
    return false;
}

void *dist_recv(int from, int tag, int *source, size_t *len, double timeout)
{
    (void)from, (void)tag, (void)source, (void)len, (void)timeout;
    dist_fail("a message was awaited without MPI");
}

dist_post *dist_start_send(int to, int tag, const void *data, size_t len)
{
    (void)to, (void)tag, (void)data, (void)len;
    dist_fail("a message was sent without MPI");
}

bool dist_done(dist_post *p)
{
    (void)p;
    return true;
}
