/*
 * win.c - the platform layer on Windows (see os.h), for the build that
 * mingw-w64 cross-compiles (make windows): the C runtime's descriptors over
 * Win32 handles, child processes by CreateProcess in a job object (the
 * process group a kill ends whole), input waiting by PeekNamedPipe on pipes
 * and PeekConsoleInput on the console.
 */
#include "os.h"

#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

/* errno for the last Win32 error. */
static int os_errno(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS:
        return EEXIST;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return ENOSPC;
    case ERROR_NOT_SAME_DEVICE:
        return EXDEV;
    case ERROR_BROKEN_PIPE:
    case ERROR_NO_DATA:
        return EPIPE;
    default:
        return EIO;
    }
}

void os_init(void)
{
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY);
    _setmode(2, _O_BINARY);
}

const char *os_basename(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\' || (*p == ':' && p == path + 1))
            base = p + 1;
    return base;
}

static HANDLE os_handle(int fd)
{
    return (HANDLE)_get_osfhandle(fd);
}

/* The runtime's counts are unsigned ints: a larger n moves less at once. */
ptrdiff_t os_read(int fd, void *buf, size_t n)
{
    return _read(fd, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
}

ptrdiff_t os_write(int fd, const void *buf, size_t n)
{
    return _write(fd, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
}

bool os_is_terminal(int fd)
{
    DWORD mode;
    return GetConsoleMode(os_handle(fd), &mode) != 0;
}

/* Whether the console's input holds a whole line: an Enter key pressed
 * (the console gives a line to a read only then). */
static bool os_console_line(HANDLE h)
{
    INPUT_RECORD rec[256];
    DWORD n = 0;
    if (!PeekConsoleInputA(h, rec, sizeof rec / sizeof rec[0], &n))
        return true; /* Let the read say what is wrong. */
    for (DWORD i = 0; i < n; i++)
        if (rec[i].EventType == KEY_EVENT && rec[i].Event.KeyEvent.bKeyDown &&
            rec[i].Event.KeyEvent.uChar.AsciiChar == '\r')
            return true;
    return n == sizeof rec / sizeof rec[0]; /* Full: read to make room. */
}

int os_wait_input(int fd, int ms)
{
    HANDLE h = os_handle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    DWORD type = GetFileType(h), mode;
    bool console = type == FILE_TYPE_CHAR && GetConsoleMode(h, &mode);
    if (type != FILE_TYPE_PIPE && !console)
        return 1; /* A file, or the null device: a read never waits. */
    ULONGLONG end = GetTickCount64() + (ULONGLONG)(ms > 0 ? ms : 0);
    for (;;) {
        if (console) {
            if (os_console_line(h))
                return 1;
        } else {
            DWORD avail = 0;
            if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL) || avail > 0)
                return 1; /* Bytes, or the other end closed (the read ends). */
        }
        if (GetTickCount64() >= end)
            return 0;
        Sleep(1);
    }
}

int os_cpus(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
}

double os_cpu_seconds(void)
{
    FILETIME created, ended, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &ended, &kernel, &user))
        return 0;
    /* 100-nanosecond units. */
    uint64_t k = (uint64_t)kernel.dwHighDateTime << 32 | kernel.dwLowDateTime;
    uint64_t u = (uint64_t)user.dwHighDateTime << 32 | user.dwLowDateTime;
    return (double)(k + u) * 1e-7;
}

double os_load_average(void)
{
    return -1;
}

int os_mkdir(const char *path)
{
    return _mkdir(path);
}

int os_rename(const char *from, const char *to)
{
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    errno = os_errno();
    return -1;
}

int os_fsync(int fd)
{
    return _commit(fd);
}

int os_lock_file(const char *path)
{
    int fd = _open(path, _O_RDWR | _O_CREAT | _O_BINARY, _S_IREAD | _S_IWRITE);
    if (fd < 0)
        return -1;
    OVERLAPPED at;
    memset(&at, 0, sizeof at);
    if (LockFileEx(os_handle(fd), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0,
                   &at))
        return fd;
    bool held = GetLastError() == ERROR_LOCK_VIOLATION;
    int e = os_errno();
    _close(fd);
    errno = e;
    return held ? -2 : -1;
}

const char *os_null_device(void)
{
    return "NUL";
}

void os_ignore_broken_pipe(void)
{
    /* Windows has no SIGPIPE: a write to a closed pipe fails with EPIPE. */
}

/* The memory stream is a temporary file, deleted when closed, read back
 * whole by os_mem_close(). */
FILE *os_mem_open(os_mem *m, char **buf, size_t *len)
{
    char dir[MAX_PATH + 1], name[MAX_PATH + 1];
    m->f = NULL;
    m->buf = buf;
    m->len = len;
    *buf = NULL;
    *len = 0;
    DWORD n = GetTempPathA(sizeof dir, dir);
    if (n == 0 || n > sizeof dir || !GetTempFileNameA(dir, "byn", 0, name))
        return NULL;
    HANDLE h = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
                           FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DeleteFileA(name);
        return NULL;
    }
    int fd = _open_osfhandle((intptr_t)h, _O_RDWR);
    if (fd < 0) {
        CloseHandle(h);
        return NULL;
    }
    if (!(m->f = _fdopen(fd, "w+b")))
        _close(fd);
    return m->f;
}

int os_mem_close(os_mem *m)
{
    FILE *f = m->f;
    char *b = NULL;
    long long n = -1;
    if (fflush(f) == 0 && fseeko64(f, 0, SEEK_END) == 0)
        n = ftello64(f);
    bool ok = n >= 0 && (unsigned long long)n < SIZE_MAX && fseeko64(f, 0, SEEK_SET) == 0 &&
              (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) == (size_t)n;
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        free(b);
        return EOF;
    }
    b[n] = 0;
    *m->buf = b;
    *m->len = (size_t)n;
    return 0;
}

/* ---- child processes ---- */

struct os_process {
    HANDLE process;
    HANDLE job; /* The process group, or NULL where the system gave none. */
    bool ended; /* Waited for. */
};

/* Handles are made inheritable only while this lock is held, so that a
 * child started by another thread at the same time inherits none of them
 * (its end of a pipe left open elsewhere would hide the end of its input). */
static SRWLOCK os_spawn_lock = SRWLOCK_INIT;

/* This process's environment less the entries drop() refuses, as the block
 * CreateProcess takes, in memory from malloc(), or NULL when out of
 * memory. */
static char *os_environment(bool (*drop)(const char *))
{
    char *all = GetEnvironmentStringsA();
    if (!all)
        return NULL;
    size_t n = 0;
    for (const char *e = all; *e; e += strlen(e) + 1)
        n += strlen(e) + 1;
    char *env = malloc(n + 1), *w = env;
    for (const char *e = all; env && *e; e += strlen(e) + 1)
        if (!drop(e)) {
            memcpy(w, e, strlen(e) + 1);
            w += strlen(e) + 1;
        }
    if (env)
        *w = 0;
    FreeEnvironmentStringsA(all);
    return env;
}

/* The program of command line cmd found in folder dir, where its name is
 * relative and names a file there (with or without .exe): CreateProcess
 * looks for a program in this process's folder, the shell of POSIX in the
 * child's. Returns false when it is not there. */
static bool os_program_in(const char *cmd, const char *dir, char *out, size_t len)
{
    char name[MAX_PATH];
    size_t n = 0;
    const char *p = cmd;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '"') {
        for (p++; *p && *p != '"' && n + 1 < sizeof name; p++)
            name[n++] = *p;
    } else {
        for (; *p && *p != ' ' && *p != '\t' && n + 1 < sizeof name; p++)
            name[n++] = *p;
    }
    name[n] = 0;
    if (!n || name[0] == '\\' || name[0] == '/' || (n > 1 && name[1] == ':'))
        return false;
    for (int ext = 0; ext < 2; ext++) {
        int w = snprintf(out, len, "%s\\%s%s", dir, name, ext ? ".exe" : "");
        DWORD at = GetFileAttributesA(out);
        if (w > 0 && (size_t)w < len && at != INVALID_FILE_ATTRIBUTES &&
            !(at & FILE_ATTRIBUTE_DIRECTORY))
            return true;
    }
    return false;
}

/* Closes the handles that are not NULL. */
static void os_close_all(HANDLE *h, int n)
{
    for (int i = 0; i < n; i++)
        if (h[i])
            CloseHandle(h[i]);
}

os_process *os_spawn(const char *cmd, const char *dir, bool (*drop)(const char *entry), int *to_fd,
                     int *from_fd, char *why, size_t len)
{
    char program[2 * MAX_PATH];
    bool in_dir = dir && dir[0];
    if (in_dir) {
        DWORD at = GetFileAttributesA(dir);
        if (at == INVALID_FILE_ATTRIBUTES || !(at & FILE_ATTRIBUTE_DIRECTORY)) {
            snprintf(why, len, "cannot enter %.200s", dir);
            return NULL;
        }
    }
    size_t n = strlen(cmd);
    char *line = malloc(n + 1); /* CreateProcess may write to it. */
    char *env = drop ? os_environment(drop) : NULL;
    os_process *p = calloc(1, sizeof *p);
    if (!line || !p || (drop && !env)) {
        snprintf(why, len, "cannot start it: out of memory");
        free(line), free(env), free(p);
        return NULL;
    }
    memcpy(line, cmd, n + 1);
    /* Pipes: [0] the child's input (read end), [1] ours to write to it,
     * [2] ours to read its output, [3] its output (write end), [4] its
     * standard error, the null device. */
    HANDLE h[5] = {NULL, NULL, NULL, NULL, NULL};
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
    PROCESS_INFORMATION pi;
    STARTUPINFOA si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    AcquireSRWLockExclusive(&os_spawn_lock);
    bool ok = CreatePipe(&h[0], &h[1], &inherit, 0) && CreatePipe(&h[2], &h[3], &inherit, 0) &&
              SetHandleInformation(h[1], HANDLE_FLAG_INHERIT, 0) &&
              SetHandleInformation(h[2], HANDLE_FLAG_INHERIT, 0);
    if (ok) {
        h[4] = CreateFileA("NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                           OPEN_EXISTING, 0, NULL);
        ok = h[4] != INVALID_HANDLE_VALUE;
        if (!ok)
            h[4] = NULL;
    }
    si.hStdInput = h[0];
    si.hStdOutput = h[3];
    si.hStdError = h[4];
    ok = ok &&
         CreateProcessA(in_dir && os_program_in(cmd, dir, program, sizeof program) ? program : NULL,
                        line, NULL, NULL, TRUE,
                        CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW, env,
                        in_dir ? dir : NULL, &si, &pi);
    DWORD err = GetLastError();
    HANDLE mine[3] = {h[0], h[3], h[4]};
    os_close_all(mine, 3); /* The child's ends: its copies are its own. */
    ReleaseSRWLockExclusive(&os_spawn_lock);
    free(line);
    free(env);
    if (!ok) {
        char msg[200];
        HANDLE ours[2] = {h[1], h[2]};
        os_close_all(ours, 2);
        free(p);
        if (!FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, err,
                            0, msg, sizeof msg, NULL))
            snprintf(msg, sizeof msg, "error %lu", (unsigned long)err);
        msg[strcspn(msg, "\r\n")] = 0;
        snprintf(why, len, "could not be started: %s", msg);
        return NULL;
    }
    /* Its group: a job that a kill ends whole, and that ends with us. */
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limit;
    memset(&limit, 0, sizeof limit);
    limit.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    p->job = CreateJobObjectA(NULL, NULL);
    if (p->job && (!SetInformationJobObject(p->job, JobObjectExtendedLimitInformation, &limit,
                                            sizeof limit) ||
                   !AssignProcessToJobObject(p->job, pi.hProcess))) {
        CloseHandle(p->job);
        p->job = NULL;
    }
    ResumeThread(pi.hThread);
    CloseHandle(pi.hThread);
    p->process = pi.hProcess;
    *to_fd = _open_osfhandle((intptr_t)h[1], _O_WRONLY);
    *from_fd = _open_osfhandle((intptr_t)h[2], _O_RDONLY);
    if (*to_fd < 0 || *from_fd < 0) {
        if (*to_fd < 0)
            CloseHandle(h[1]);
        else
            _close(*to_fd);
        if (*from_fd < 0)
            CloseHandle(h[2]);
        else
            _close(*from_fd);
        os_process_end(p);
        snprintf(why, len, "cannot start it: no descriptors left");
        return NULL;
    }
    return p;
}

int os_process_wait(os_process *p, int ms, int *code, int *sig)
{
    DWORD got = WaitForSingleObject(p->process, ms > 0 ? (DWORD)ms : 0), status;
    if (got == WAIT_TIMEOUT)
        return 0;
    if (got != WAIT_OBJECT_0 || !GetExitCodeProcess(p->process, &status))
        return -1;
    p->ended = true;
    *code = (int)status; /* A crash's status (0xC...) reads negative. */
    *sig = 0;
    return 1;
}

void os_process_end(os_process *p)
{
    if (!p)
        return;
    if (!p->ended) {
        if (!p->job || !TerminateJobObject(p->job, 1))
            TerminateProcess(p->process, 1);
        WaitForSingleObject(p->process, INFINITE);
    }
    if (p->job)
        CloseHandle(p->job); /* Kills what is left of the group. */
    CloseHandle(p->process);
    free(p);
}
