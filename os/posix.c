/*
 * posix.c - the platform layer on POSIX systems (see os.h): the calls
 * themselves, and child processes by fork() and exec of /bin/sh.
 */
#define _DEFAULT_SOURCE /* getloadavg() */

#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void os_init(void)
{
}

const char *os_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

ptrdiff_t os_read(int fd, void *buf, size_t n)
{
    return read(fd, buf, n);
}

ptrdiff_t os_write(int fd, const void *buf, size_t n)
{
    return write(fd, buf, n);
}

bool os_is_terminal(int fd)
{
    return isatty(fd) != 0;
}

int os_wait_input(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, ms);
    return n > 0 ? 1 : n;
}

int os_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
}

double os_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double os_load_average(void)
{
    double load;
    return getloadavg(&load, 1) == 1 ? load : -1;
}

int os_mkdir(const char *path)
{
    return mkdir(path, 0777);
}

int os_rename(const char *from, const char *to)
{
    return rename(from, to);
}

int os_fsync(int fd)
{
    return fsync(fd);
}

int os_lock_file(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd < 0)
        return -1;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) == 0)
        return fd;
    int e = errno;
    close(fd);
    errno = e;
    return e == EACCES || e == EAGAIN ? -2 : -1;
}

const char *os_null_device(void)
{
    return "/dev/null";
}

void os_ignore_broken_pipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}

FILE *os_mem_open(os_mem *m, char **buf, size_t *len)
{
    m->buf = buf;
    m->len = len;
    m->f = open_memstream(buf, len);
    return m->f;
}

int os_mem_close(os_mem *m)
{
    return fclose(m->f);
}

/* ---- child processes ---- */

struct os_process {
    pid_t pid;
    bool reaped; /* Waited for: its pid may be another process's now. */
};

extern char **environ;

/* This process's environment less the entries drop() refuses, in memory
 * from malloc() (the strings are this process's), or NULL when out of
 * memory. */
static char **os_environment(bool (*drop)(const char *))
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **env = malloc((n + 1) * sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!drop || !drop(environ[i]))
            env[k++] = environ[i];
    env[k] = NULL;
    return env;
}

os_process *os_spawn(const char *cmd, const char *dir, bool (*drop)(const char *entry), int *to_fd,
                     int *from_fd, char *why, size_t len)
{
    int in[2], out[2];
    os_process *p = malloc(sizeof *p);
    if (!p || pipe(in) != 0) {
        snprintf(why, len, "cannot start it: %s", strerror(errno));
        free(p);
        return NULL;
    }
    if (pipe(out) != 0) {
        snprintf(why, len, "cannot start it: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        free(p);
        return NULL;
    }
    char **env = os_environment(drop);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, len, "cannot start it: %s", strerror(errno));
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        free(env);
        free(p);
        return NULL;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        if (dir && dir[0] && chdir(dir) != 0)
            _exit(OS_NO_DIR);
        signal(SIGPIPE, SIG_DFL);
        char sh[] = "sh", c[] = "-c";
        char *argv[] = {sh, c, (char *)cmd, NULL}; /* execve() writes none. */
        execve("/bin/sh", argv, env ? env : environ);
        _exit(127);
    }
    free(env);
    setpgid(pid, pid); /* Also here, so the group exists before any kill. */
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    p->pid = pid;
    p->reaped = false;
    *to_fd = in[1];
    *from_fd = out[0];
    return p;
}

int os_process_wait(os_process *p, int ms, int *code, int *sig)
{
    int status = 0;
    for (int waited = 0;; waited += 10) {
        pid_t got = waitpid(p->pid, &status, WNOHANG);
        if (got < 0)
            return -1;
        if (got == p->pid)
            break;
        if (waited >= ms)
            return 0;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    p->reaped = true;
    *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    *sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return 1;
}

void os_process_end(os_process *p)
{
    if (!p)
        return;
    if (!p->reaped) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
    }
    free(p);
}
