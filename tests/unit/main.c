/*
 * main.c - runs the unit tests listed in list.h: all of them, or those whose
 * names contain one of the command-line arguments. Prints one line per
 * failed test and ends with "N passed, N failed".
 *
 *   unit [--fast] [--shard K/N] [--times] [NAME...]
 *
 * --fast runs the fast tier only (the T entries of list.h, not the SLOW
 * and ONCE ones): what `make check` runs. A build under AddressSanitizer or
 * ThreadSanitizer leaves out the ONCE entries and names them. --shard K/N
 * runs the K-th of N shares of the tests chosen (every N-th from the K-th,
 * in the list's order), so that N processes run them all once between
 * them. --times prints each test's wall-clock and CPU seconds, to see where
 * the suite's time goes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banyan.h"
#include "banyan_game.h"
#include "t.h"

/* Built under a sanitizer that slows the tests several times (gcc says so
 * with __SANITIZE_*__, clang with __has_feature). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MAIN_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MAIN_SANITIZED 1
#endif
#endif

int t_failed;
const char *t_data_dir = "tests/data";

size_t t_memory(const void *g, const void *cfg, size_t arena)
{
    return banyan_memory_least(g, cfg) + arena;
}

unsigned long long t_perft(const void *g, const void *s, int depth)
{
    uint64_t n = 0;
    if (banyan_perft(g, s, depth, NULL, NULL, &n) != BANYAN_OK)
        return 0;
    return n;
}

static const struct {
    const char *name;
    void (*run)(void);
    int slow; /* Of the full tier only: 1 (SLOW in list.h), 2 (ONCE). */
} main_tests[] = {
#define T(name)    {#name, name, 0},
#define SLOW(name) {#name, name, 1},
#define ONCE(name) {#name, name, 2},
#include "list.h"
#undef ONCE
#undef SLOW
#undef T
};

/* The command line, once read. */
typedef struct main_args {
    int fast;      /* --fast */
    int times;     /* --times */
    int shard, of; /* --shard K/N: shard K (1..N) of N; 1 of 1 by default. */
    int n_names;   /* Name fragments chosen, none for all. */
    char **names;
} main_args;

static int main_selected(const char *name, const main_args *a)
{
    if (a->n_names == 0)
        return 1;
    for (int i = 0; i < a->n_names; i++)
        if (strstr(name, a->names[i]))
            return 1;
    return 0;
}

/* Reads the options before the names; returns 0 on a bad one. */
static int main_options(int argc, char **argv, main_args *a)
{
    int i = 1;
    *a = (main_args){.shard = 1, .of = 1};
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        char end;
        if (strcmp(argv[i], "--fast") == 0)
            a->fast = 1;
        else if (strcmp(argv[i], "--times") == 0)
            a->times = 1;
        else if (strcmp(argv[i], "--shard") == 0 && i + 1 < argc &&
                 sscanf(argv[i + 1], "%d/%d%c", &a->shard, &a->of, &end) == 2 && a->of >= 1 &&
                 a->shard >= 1 && a->shard <= a->of)
            i++;
        else {
            fprintf(stderr,
                    "unit: bad option %s\nusage: unit [--fast] [--shard K/N] [--times] "
                    "[NAME...]\n",
                    argv[i]);
            return 0;
        }
    }
    a->n_names = argc - i;
    a->names = argv + i;
    return 1;
}

static double main_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, chosen = 0;
    main_args a;
    if (!main_options(argc, argv, &a))
        return 2;
    const char *dir = getenv("BANYAN_TEST_DATA");
    if (dir)
        t_data_dir = dir;
    for (size_t i = 0; i < sizeof main_tests / sizeof main_tests[0]; i++) {
        if ((a.fast && main_tests[i].slow) || !main_selected(main_tests[i].name, &a))
            continue;
        if (chosen++ % a.of != a.shard - 1)
            continue;
#ifdef MAIN_SANITIZED
        if (main_tests[i].slow == 2) {
            printf("SKIPPED: %s: once, in the release build (list.h's ONCE)\n", main_tests[i].name);
            continue;
        }
#endif
        t_failed = 0;
        double wall = main_clock(CLOCK_MONOTONIC), cpu = main_clock(CLOCK_PROCESS_CPUTIME_ID);
        main_tests[i].run();
        if (a.times)
            printf("time %8.3f s wall %8.3f s cpu  %s%s\n", main_clock(CLOCK_MONOTONIC) - wall,
                   main_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu, main_tests[i].name,
                   main_tests[i].slow ? " (slow)" : "");
        if (t_failed) {
            failed++;
            printf("FAIL %s\n", main_tests[i].name);
        } else {
            passed++;
            if (getenv("BANYAN_TEST_VERBOSE"))
                printf("ok   %s\n", main_tests[i].name);
        }
        fflush(stdout);
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
