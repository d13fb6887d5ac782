/*
 * config.h - compile-time limits and knobs, and the only home of compiler
 * and platform conditionals.
 */
#ifndef BANYAN_CONFIG_H
#define BANYAN_CONFIG_H

/* Functions shared between the library's files but not exported. A
 * Windows DLL has no visibility: it exports the names its .def file lists
 * (make windows). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define BANYAN_INTERNAL __attribute__((visibility("hidden")))
#define BANYAN_API      __attribute__((visibility("default")))
#else
#define BANYAN_INTERNAL
#define BANYAN_API
#endif
#if defined(__GNUC__) || defined(__clang__)
#define BANYAN_LIKELY(x)   __builtin_expect(!!(x), 1)
#define BANYAN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BANYAN_LIKELY(x)   (x)
#define BANYAN_UNLIKELY(x) (x)
#endif

#define BANYAN_DEFAULT_MEMORY   ((size_t)256 << 20) /* Arena when config.memory is 0. */
#define BANYAN_MIN_MEMORY       ((size_t)32 << 10)  /* Smallest arena: a root of 512 moves fits. */
#define BANYAN_DEFAULT_SEED     0x42414e59414eULL   /* "BANYAN": the seed when config.seed is 0. */
#define BANYAN_DEFAULT_PLAYOUTS 10000               /* When every limit is zero. */
#define BANYAN_MAX_DEPTH        1024                /* Deepest tree ply selection descends. */
#define BANYAN_MAX_STATE        ((size_t)1 << 16)   /* Largest game state accepted. */

#endif /* BANYAN_CONFIG_H */
