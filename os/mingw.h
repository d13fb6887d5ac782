/*
 * mingw.h - what the Windows build (make windows) includes before anything
 * else in every file, through the compiler's -include: the C library as
 * the rest of the sources expect it from mingw-w64.
 *
 * - C99 printf and scanf (mingw-w64's own, not msvcrt's): %zu, %lld and
 *   the doubles print as on POSIX.
 * - 64-bit file offsets and sizes (stat, ftello).
 * - The classification macros of <math.h> as the compiler's built-ins:
 *   mingw-w64's choose among float, double and long double functions with
 *   __builtin_choose_expr, and GCC's -Wconversion reports the conversion
 *   in the branch not taken.
 */
#ifndef BANYAN_MINGW_H
#define BANYAN_MINGW_H

#define __USE_MINGW_ANSI_STDIO 1
#define _FILE_OFFSET_BITS      64

#include <math.h>
#include <stdio.h>

#undef isfinite
#undef isinf
#undef isnan
#define isfinite(x) __builtin_isfinite(x)
#define isinf(x)    __builtin_isinf(x)
#define isnan(x)    __builtin_isnan(x)

#endif /* BANYAN_MINGW_H */
