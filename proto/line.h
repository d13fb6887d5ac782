/*
 * line.h - bounded line input for the protocol front-ends. Reads a file
 * descriptor (or a block of memory, for fuzzing and tests) with its own
 * buffer, so that a front-end can ask whether a whole line is waiting
 * without blocking: GTP's lz-analyze streams until the next command comes.
 * Over-long lines are consumed entirely and reported, never split.
 */
#ifndef BANYAN_LINE_H
#define BANYAN_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define LINE_BUF 8192 /* Bytes buffered; also the longest line a front-end accepts. */

/* A source of bytes other than a descriptor or memory: rank 0's input
 * over MPI (dist/dsearch.c). read() copies up to n bytes into buf and
 * returns their number, 0 at the end of input (or on an error); ready()
 * says whether read() would return at once. */
typedef struct line_source {
    size_t (*read)(void *ud, char *buf, size_t n);
    bool (*ready)(void *ud);
    void *ud;
} line_source;

typedef struct line_reader {
    int fd;                 /* Source descriptor, or -1 for memory or src. */
    const line_source *src; /* Or this source (borrowed), or NULL. */
    const char *mem;        /* Memory source and its size. */
    size_t mem_len;
    size_t mem_pos;     /* Bytes of mem consumed. */
    char buf[LINE_BUF]; /* Bytes read and not yet returned: buf[start .. end). */
    size_t start, end;
    bool eof; /* The source has no more bytes. */
} line_reader;

/* Reads from file descriptor fd. */
void line_init_fd(line_reader *r, int fd);

/* Reads from src, which must outlive the reader. */
void line_init_source(line_reader *r, const line_source *src);

/* Reads from data[0 .. len), which must outlive the reader. */
void line_init_mem(line_reader *r, const char *data, size_t len);

/* Copies the next line, without its LF and without any NUL bytes in it,
 * into out[len] (NUL-terminated) and returns 1; returns 0 at the end of
 * input. A last line without LF counts.
 * A line longer than len - 1 bytes is consumed whole, out holds its start,
 * and *too_long is set. */
int line_next(line_reader *r, char *out, size_t len, bool *too_long);

/* Whether line_next() would return at once: a whole line is buffered, the
 * input ended, or the descriptor has bytes waiting. Never blocks. */
bool line_ready(line_reader *r);

#endif /* BANYAN_LINE_H */
