/*
 * line.c - bounded line input over a descriptor or memory (see line.h).
 */
#include "line.h"

#include <errno.h>
#include <string.h>

#include "os.h"

void line_init_fd(line_reader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

void line_init_source(line_reader *r, const line_source *src)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->src = src;
}

void line_init_mem(line_reader *r, const char *data, size_t len)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->mem = data;
    r->mem_len = len;
}

/* Moves the unread bytes to the front and reads more after them. Returns
 * false at the end of input or on an error (both end the input). */
static bool line_fill(line_reader *r)
{
    if (r->eof)
        return false;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    size_t room = sizeof r->buf - r->end;
    if (room == 0)
        return true; /* Full: the caller consumes before reading more. */
    if (r->src) {
        size_t n = r->src->read(r->src->ud, r->buf + r->end, room);
        r->end += n;
        r->eof = n == 0;
        return n > 0;
    }
    if (r->fd < 0) {
        size_t n = r->mem_len - r->mem_pos < room ? r->mem_len - r->mem_pos : room;
        memcpy(r->buf + r->end, r->mem + r->mem_pos, n);
        r->mem_pos += n;
        r->end += n;
        if (n == 0)
            r->eof = true;
        return n > 0;
    }
    for (;;) {
        ptrdiff_t n = os_read(r->fd, r->buf + r->end, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            r->eof = true;
            return false;
        }
        r->end += (size_t)n;
        return true;
    }
}

int line_next(line_reader *r, char *out, size_t len, bool *too_long)
{
    size_t copied = 0;
    *too_long = false;
    for (;;) {
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        size_t avail = (nl ? (size_t)(nl - r->buf) : r->end) - r->start;
        /* Copy what fits; the rest of an over-long line is dropped. */
        size_t take = avail < len - 1 - copied ? avail : len - 1 - copied;
        /* NUL bytes are dropped: text protocols never mean them, and kept
         * they would cut the line short (GTP removes control characters). */
        for (size_t i = 0; i < take; i++)
            if (r->buf[r->start + i])
                out[copied++] = r->buf[r->start + i];
        if (take < avail)
            *too_long = true;
        r->start += avail;
        if (nl) {
            r->start++; /* The LF. */
            out[copied] = 0;
            return 1;
        }
        if (!line_fill(r)) {
            out[copied] = 0;
            return copied > 0 || *too_long; /* A last line without LF. */
        }
    }
}

bool line_ready(line_reader *r)
{
    if (memchr(r->buf + r->start, '\n', r->end - r->start) || r->eof)
        return true;
    if (r->src)
        return r->src->ready(r->src->ud);
    if (r->fd < 0)
        return true;
    return os_wait_input(r->fd, 0) > 0;
}
