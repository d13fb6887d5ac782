/*
 * util.h - assertions and the debug-build checks, the clock, FNV-1a, the
 * default allocation hook and the generic rollout, shared by the library's
 * files.
 */
#ifndef BANYAN_UTIL_H
#define BANYAN_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "banyan_game.h"
#include "config.h"

/* Reports a failed assertion and aborts. */
BANYAN_INTERNAL void banyan_fail(const char *what, const char *file, int line);

/* BANYAN_ASSERT: a statement about the program, never about its input.
 * ALWAYS/NEVER: conditions believed impossible, fatal in debug builds and a
 * graceful path in release builds:  if (NEVER(n > BANYAN_MAX_MOVES)) return; */
#ifdef NDEBUG
#define BANYAN_ASSERT(c) ((void)0)
#define ALWAYS(c)        (c)
#define NEVER(c)         (c)
#else
#define BANYAN_ASSERT(c) ((c) ? (void)0 : banyan_fail(#c, __FILE__, __LINE__))
#define ALWAYS(c)        ((c) ? 1 : (banyan_fail("ALWAYS(" #c ")", __FILE__, __LINE__), 0))
#define NEVER(c)         ((c) ? (banyan_fail("NEVER(" #c ")", __FILE__, __LINE__), 1) : 0)
#endif

/* The expensive invariants, checked only in BANYAN_DEBUG builds (make
 * DEBUG=1, and the sanitizer builds of make test): GAME_CHECK asserts the
 * game's is_valid() on a state; DEBUG_CHECK takes the verdict of a checker
 * that names the first broken rule, or returns NULL when none is (as
 * tree_check() does), and fails with that rule. Release builds evaluate
 * neither argument. */
#if defined(BANYAN_DEBUG) && !defined(NDEBUG)
#define GAME_CHECK(g, s) BANYAN_ASSERT(!(g)->is_valid || (g)->is_valid(s))
#define DEBUG_CHECK(why) util_check((why), __FILE__, __LINE__)
#else
#define GAME_CHECK(g, s) ((void)0)
#define DEBUG_CHECK(why) ((void)0)
#endif

static inline void util_check(const char *why, const char *file, int line)
{
    if (why)
        banyan_fail(why, file, line);
}

#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* Seconds on a monotonic clock, for limits and statistics only. */
BANYAN_INTERNAL double util_now(void);

/* FNV-1a over n bytes, continuing from h (start with UTIL_FNV_OFFSET). */
#define UTIL_FNV_OFFSET 0xcbf29ce484222325ULL
BANYAN_INTERNAL uint64_t util_fnv1a(uint64_t h, const void *p, size_t n);

/* The allocation hook used where none is given: realloc, and free for a
 * size of 0 (banyan_alloc_fn's contract). */
BANYAN_INTERNAL void *util_realloc(void *ud, void *ptr, size_t nsize);

/* Plays s to the end with uniform random moves (the generic rollout). */
BANYAN_INTERNAL void util_default_rollout(const banyan_game *g, void *s, banyan_rng *rng);

#endif /* BANYAN_UTIL_H */
