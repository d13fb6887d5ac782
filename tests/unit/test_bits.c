/*
 * test_bits.c - the games' bit helpers (games/bits.h): the count, the
 * lowest bit and the highest against naive loops on chosen words, and the built-in forms
 * against the portable ones on many random words of every density, so that
 * the form a compiler does not use is checked all the same.
 */
#include <stdint.h>

#include "banyan_game.h"
#include "bits.h"
#include "t.h"

/* The set bits of x, one at a time. */
static int bits_test_count(uint64_t x)
{
    int n = 0;
    for (int i = 0; i < 64; i++)
        n += (int)(x >> i & 1);
    return n;
}

/* The index of the lowest set bit of x (nonzero), bit by bit. */
static int bits_test_low(uint64_t x)
{
    int i = 0;
    while (!(x >> i & 1))
        i++;
    return i;
}

/* Words with about 1 bit in 2^k set, k = 0 .. 5, and single bits. */
static uint64_t bits_test_word(banyan_rng *rng, int i)
{
    int k = i % 7;
    if (k == 6)
        return (uint64_t)1 << (banyan_rng_next(rng) & 63);
    uint64_t x = banyan_rng_next(rng);
    for (int j = 0; j < k; j++)
        x &= banyan_rng_next(rng);
    return x;
}

void test_bits_count(void)
{
    static const uint64_t words[] = {0,
                                     1,
                                     0x8000000000000000ULL,
                                     ~0ULL,
                                     0x5555555555555555ULL,
                                     0xff00ff00ff00ff00ULL,
                                     0x0123456789abcdefULL};
    for (int i = 0; i < (int)(sizeof words / sizeof words[0]); i++) {
        T_EQ(bits_count(words[i]), bits_test_count(words[i]));
        T_EQ(bits_count_portable(words[i]), bits_test_count(words[i]));
    }
    banyan_rng rng;
    banyan_rng_seed(&rng, 53, 0);
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t x = bits_test_word(&rng, i);
        bad += bits_count(x) != bits_count_portable(x) || bits_count(x) != bits_test_count(x);
    }
    T_EQ(bad, 0);
}

void test_bits_low(void)
{
    for (int i = 0; i < 64; i++) {
        uint64_t b = (uint64_t)1 << i;
        T_EQ(bits_low(b), i);
        T_EQ(bits_low_portable(b), i);
        T_EQ(bits_low(~0ULL << i), i);
        T_EQ(bits_low_portable(~0ULL << i), i);
    }
    banyan_rng rng;
    banyan_rng_seed(&rng, 53, 1);
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t x = bits_test_word(&rng, i) | (uint64_t)1 << 63; /* Never 0. */
        bad += bits_low(x) != bits_low_portable(x) || bits_low(x) != bits_test_low(x);
    }
    T_EQ(bad, 0);
    /* bits_pop visits the set bits in ascending order and clears them. */
    uint64_t x = 0x8000000100000011ULL;
    int seen[4], n = 0;
    while (x && n < 4)
        seen[n++] = bits_pop(&x);
    T_EQ(n, 4);
    T_EQ(x, 0);
    T_EQ(seen[0], 0);
    T_EQ(seen[1], 4);
    T_EQ(seen[2], 32);
    T_EQ(seen[3], 63);
}

/* The highest set bit alone: each single bit, each run up to the top, 0,
 * and random words, the built-in against the portable form and a loop. */
void test_bits_high(void)
{
    T_EQ(bits_high_bit(0), 0);
    T_EQ(bits_high_bit_portable(0), 0);
    for (int i = 0; i < 64; i++) {
        uint64_t b = (uint64_t)1 << i;
        T_EQ(bits_high_bit(b), b);
        T_EQ(bits_high_bit_portable(b), b);
        T_EQ(bits_high_bit(b | (b - 1)), b);
        T_EQ(bits_high_bit_portable(b | (b - 1)), b);
    }
    banyan_rng rng;
    banyan_rng_seed(&rng, 59, 1);
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t x = bits_test_word(&rng, i), want = 0;
        for (int k = 63; k >= 0 && !want; k--)
            want = x >> k & 1 ? (uint64_t)1 << k : 0;
        bad += bits_high_bit(x) != want || bits_high_bit_portable(x) != want;
    }
    T_EQ(bad, 0);
}
