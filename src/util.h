/*
 * util.h - assertions, small helpers and the clock, shared by the library's
 * files.
 */
#ifndef BANYAN_UTIL_H
#define BANYAN_UTIL_H

#include <stddef.h>
#include <stdint.h>

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

#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* Seconds on a monotonic clock, for limits and statistics only. */
BANYAN_INTERNAL double util_now(void);

/* FNV-1a over n bytes, continuing from h (start with UTIL_FNV_OFFSET). */
#define UTIL_FNV_OFFSET 0xcbf29ce484222325ULL
BANYAN_INTERNAL uint64_t util_fnv1a(uint64_t h, const void *p, size_t n);

#endif /* BANYAN_UTIL_H */
