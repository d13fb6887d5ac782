/*
 * main.c - runs the unit tests listed in list.h: all of them, or those whose
 * names contain one of the command-line arguments. Prints one line per
 * failed test and ends with "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan_game.h"
#include "t.h"

int t_failed;
const char *t_data_dir = "tests/data";

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
} main_tests[] = {
#define T(name) {#name, name},
#include "list.h"
#undef T
};

static int main_selected(const char *name, int argc, char **argv)
{
    if (argc <= 1)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strstr(name, argv[i]))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    const char *dir = getenv("BANYAN_TEST_DATA");
    if (dir)
        t_data_dir = dir;
    for (size_t i = 0; i < sizeof main_tests / sizeof main_tests[0]; i++) {
        if (!main_selected(main_tests[i].name, argc, argv))
            continue;
        t_failed = 0;
        main_tests[i].run();
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
