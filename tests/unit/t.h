/*
 * t.h - the whole unit-test framework.
 *
 * A test is a void function; assertions record a failure, print both sides
 * and let the test go on. main.c runs the tests named in list.h and ends with
 * the line "N passed, N failed".
 */
#ifndef BANYAN_T_H
#define BANYAN_T_H

#include <stdio.h>
#include <string.h>

extern int t_failed; /* Set by a failed assertion in the running test. */

#define T_FAIL_AT(...)                                                                             \
    do {                                                                                           \
        t_failed = 1;                                                                              \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                            \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
    } while (0)

#define T_TRUE(c)                                                                                  \
    do {                                                                                           \
        if (!(c))                                                                                  \
            T_FAIL_AT("%s is false", #c);                                                          \
    } while (0)

#define T_EQ(a, b)                                                                                 \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            T_FAIL_AT("%s == %s failed: %lld != %lld", #a, #b, a_, b_);                            \
    } while (0)

#define T_STR(a, b)                                                                                \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (strcmp(a_, b_) != 0)                                                                   \
            T_FAIL_AT("%s == %s failed: \"%s\" != \"%s\"", #a, #b, a_, b_);                        \
    } while (0)

#define T_NEAR(a, b, eps)                                                                          \
    do {                                                                                           \
        double a_ = (double)(a), b_ = (double)(b);                                                 \
        if (!(a_ - b_ <= (eps) && b_ - a_ <= (eps)))                                               \
            T_FAIL_AT("%s ~= %s failed: %g != %g (eps %g)", #a, #b, a_, b_, (double)(eps));        \
    } while (0)

/* perft's count, or 0 when banyan_perft() refuses (a bad argument, no
 * memory): the tests' shorthand for banyan_perft(g, s, depth, NULL, NULL, &n). */
unsigned long long t_perft(const void *g, const void *s, int depth);

/* config.memory for an engine of game g (a banyan_game) under config cfg (a
 * banyan_config) whose node arena holds about arena bytes: what the engine
 * needs beside it, banyan_memory_least(), plus arena. Tests that want a
 * small tree say its size so, whatever the game's provers take. */
size_t t_memory(const void *g, const void *cfg, size_t arena);

/* The directory holding the test data (tests/data), set by main.c. */
extern const char *t_data_dir;

/* Every test, declared from the list. */
#define T(name) void name(void);
#include "list.h"
#undef T

#endif /* BANYAN_T_H */
