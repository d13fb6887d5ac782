/*
 * bits.h - the bit helpers of the games played on 64-bit boards: the number
 * of set bits, the index of the lowest, taking the lowest off a word, and
 * the highest set bit alone.
 *
 * Each has a portable form in plain C (a SWAR count, a de Bruijn multiply)
 * and, where the compiler turns the built-in into an instruction, the
 * built-in: the index of the lowest bit (and of the highest) with gcc and
 * clang everywhere (bsf or tzcnt, bsr or lzcnt on x86), the count only
 * where the target has a count instruction (x86 built with popcnt,
 * AArch64), since without one gcc calls a library function (__popcountdi2)
 * that is slower than the portable form inline. The games cannot see
 * src/config.h, so these conditionals live here; the portable forms are
 * always defined, and tests/unit/test_bits.c checks the two forms against
 * each other.
 */
#ifndef BANYAN_BITS_H
#define BANYAN_BITS_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define BITS_HAS_CTZ 1
#if defined(__POPCNT__) || defined(__aarch64__)
#define BITS_HAS_POPCOUNT 1
#endif
#endif

/* The number of set bits of x, in plain C: pairs, nibbles, then bytes
 * summed by one multiply. */
static inline int bits_count_portable(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The index of the lowest set bit of x (nonzero), in plain C: the lowest
 * bit alone times a de Bruijn sequence leaves a distinct 6-bit pattern in
 * the top bits for each of the 64 bits. */
static inline int bits_low_portable(uint64_t x)
{
    static const uint8_t index[64] = {
        0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,  62, 55, 59, 36, 53, 51,
        43, 22, 45, 39, 33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21,
        44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
    return index[((x & (0 - x)) * 0x03f79d71b4cb0a89ULL) >> 58];
}

/* The highest set bit of x alone, 0 for 0, in plain C: every bit below
 * the highest set, then the highest one kept. */
static inline uint64_t bits_high_bit_portable(uint64_t x)
{
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return x ^ (x >> 1);
}

/* The number of set bits of x. */
static inline int bits_count(uint64_t x)
{
#ifdef BITS_HAS_POPCOUNT
    return __builtin_popcountll(x);
#else
    return bits_count_portable(x);
#endif
}

/* The index of the lowest set bit of x, which must not be 0. */
static inline int bits_low(uint64_t x)
{
#ifdef BITS_HAS_CTZ
    return __builtin_ctzll(x);
#else
    return bits_low_portable(x);
#endif
}

/* The highest set bit of x alone; 0 for 0. */
static inline uint64_t bits_high_bit(uint64_t x)
{
#ifdef BITS_HAS_CTZ
    return x ? (uint64_t)1 << (63 - __builtin_clzll(x)) : 0;
#else
    return bits_high_bit_portable(x);
#endif
}

/* The index of the lowest set bit of *x (nonzero), which is cleared: the
 * step of a loop over the set bits, `while (b) { int i = bits_pop(&b); }`. */
static inline int bits_pop(uint64_t *x)
{
    int i = bits_low(*x);
    *x &= *x - 1;
    return i;
}

#endif /* BANYAN_BITS_H */
