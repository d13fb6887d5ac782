/*
 * os.h - the platform layer of the program and the front-end modules: what
 * POSIX and Windows do differently, behind one interface. The Makefile
 * compiles one implementation, os/posix.c or os/win.c (make windows); no
 * file outside os/ tests the platform (SQLite's os_unix.c and os_win.c).
 *
 * Functions that can fail return 0 (or a descriptor) on success and -1
 * with errno set on failure, as the POSIX calls they stand for.
 */
#ifndef BANYAN_OS_H
#define BANYAN_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Called first by main(): on Windows, the standard streams in binary mode
 * (the protocols read CR LF and LF alike and write LF, as on POSIX). */
void os_init(void);

/* The last component of path: after the last '/' (or '\' on Windows). */
const char *os_basename(const char *path);

/* read() and write() on descriptor fd, of n bytes at most: the bytes
 * moved, or -1 with errno set. */
ptrdiff_t os_read(int fd, void *buf, size_t n);
ptrdiff_t os_write(int fd, const void *buf, size_t n);

/* Whether descriptor fd is an interactive terminal (a console). */
bool os_is_terminal(int fd);

/* Waits up to ms milliseconds (0: only looks) for descriptor fd to have
 * input: returns 1 when bytes wait or the input ended (a read would not
 * block), 0 when the time ran out, -1 on an error. On Windows, fd may be a
 * pipe, a file or the console (where a whole line must wait). */
int os_wait_input(int fd, int ms);

/* The processors online, at least 1. */
int os_cpus(void);

/* The processor time this process has used, all its threads together, in
 * seconds (monotonic within the process). */
double os_cpu_seconds(void);

/* The system's load average over the last minute (the processes running
 * or waiting for a processor), or -1 where the system does not keep one
 * (Windows). */
double os_load_average(void);

/* Makes folder path (errno EEXIST when it exists). */
int os_mkdir(const char *path);

/* Renames from to to, replacing to where it exists. */
int os_rename(const char *from, const char *to);

/* Writes descriptor fd's data through to its device (fsync). */
int os_fsync(int fd);

/* Opens (creating it) and locks file path for this process alone: returns
 * the descriptor, whose close() unlocks it; -2 when another process holds
 * the lock; -1 with errno set when the file cannot be opened or locked. */
int os_lock_file(const char *path);

/* The null device's name, for freopen(). */
const char *os_null_device(void);

/* Makes a broken pipe an error of the write, not the end of the process. */
void os_ignore_broken_pipe(void);

/* A stream writing to memory (open_memstream): os_mem_open() gives the
 * stream, or NULL. os_mem_close() closes it and returns 0, or EOF on an
 * error; then *buf holds the bytes written and a NUL, and *len their
 * number. The caller frees *buf whatever the result (it may be NULL). */
typedef struct os_mem {
    FILE *f;
    char **buf;
    size_t *len;
} os_mem;

FILE *os_mem_open(os_mem *m, char **buf, size_t *len);
int os_mem_close(os_mem *m);

/* ---- child processes (match players) ---- */

typedef struct os_process os_process;

/* Starts command line cmd (through /bin/sh -c on POSIX; on Windows, a
 * program and its arguments as CreateProcess reads them) in folder dir
 * (the current one when dir is NULL or empty), in a process group of its
 * own, with its standard input and output on pipes (*to_fd writes its
 * input, *from_fd reads its output, both in binary mode and not inherited
 * by other children) and its standard error on the null device. Its
 * environment is this process's less the variables for which drop(entry),
 * when given, is true. Returns the process, or NULL with a sentence in
 * why[len] when it could not be started (on POSIX a command that cannot
 * run shows only when it exits: status 127, 126, or OS_NO_DIR). */
os_process *os_spawn(const char *cmd, const char *dir, bool (*drop)(const char *entry), int *to_fd,
                     int *from_fd, char *why, size_t len);

#define OS_NO_DIR 125 /* Exit status of a child that could not enter its folder. */

/* Waits up to ms milliseconds for p to end: returns 1 once it has, with
 * *code its exit status and *sig the signal that ended it (0 when it
 * exited; POSIX only); 0 while it runs; -1 on an error. */
int os_process_wait(os_process *p, int ms, int *code, int *sig);

/* Kills p's whole group where it still runs, reaps it and frees p. NULL
 * is a no-op. */
void os_process_end(os_process *p);

#endif /* BANYAN_OS_H */
