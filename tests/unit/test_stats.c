/*
 * test_stats.c - match statistics against values worked out by hand.
 */
#include <math.h>

#include "../../program/stats.h"
#include "t.h"

void test_stats_elo(void)
{
    T_NEAR(stats_elo(0.5), 0, 1e-12);
    T_NEAR(stats_elo(0.75), 400 * log10(3.0), 1e-9); /* 190.85 */
    T_NEAR(stats_elo(0.75), 190.8485, 1e-3);
    T_NEAR(stats_elo(0.25), -190.8485, 1e-3);
    T_TRUE(isinf(stats_elo(1)) && stats_elo(1) > 0);
    T_TRUE(isinf(stats_elo(0)) && stats_elo(0) < 0);
}

void test_stats_interval(void)
{
    /* 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, so
     * 100 * 0.21 / 0.16 = 131.25 effective games; Wilson's interval on them
     * is 0.694312 +- 0.077485, that is [0.616827, 0.771797]. */
    stats_result r = stats_compute(60, 20, 20);
    T_EQ(r.games, 100);
    T_NEAR(r.score, 0.7, 1e-12);
    T_NEAR(r.elo, 147.19, 0.01);
    T_NEAR(r.elo_lo, 82.71, 0.02);
    T_NEAR(r.elo_hi, 211.67, 0.02);
    T_TRUE(r.los > 0.9999 && r.los < 1);

    /* Even results: Elo 0, symmetric interval, LOS one half. */
    r = stats_compute(30, 40, 30);
    T_NEAR(r.elo, 0, 1e-9);
    T_NEAR(r.elo_lo, -r.elo_hi, 1e-9);
    T_NEAR(r.los, 0.5, 1e-12);

    /* LOS of 10 wins and no loss: (1 + erf(10 / sqrt(20))) / 2 = (1 + 0.998435) / 2. */
    r = stats_compute(10, 5, 0);
    T_NEAR(r.los, 0.999217, 1e-5);

    /* All wins: Wilson's interval, 1 / (1 + z^2 / n) at the bottom; the
     * estimate and the top are those of a score of 1 - 1/(2n+2), finite. */
    r = stats_compute(10, 0, 0);
    T_NEAR(r.score, 1, 0);
    T_NEAR(r.elo_lo, stats_elo(1 / (1 + 1.959963984540054 * 1.959963984540054 / 10)), 1e-6);
    T_TRUE(r.elo_lo > 150 && r.elo_lo < 180);
    T_NEAR(r.elo, stats_elo(1 - 1.0 / 22), 1e-9);
    T_NEAR(r.elo_hi, r.elo, 1e-9);

    /* 40 of 40 and 0 of 40: finite, ordered, the estimate inside. One win
     * in 40 must not bound the Elo below what no win bounds it to. */
    for (int wins = 0; wins <= 40; wins += 40) {
        r = stats_compute(wins, 0, 40 - wins);
        T_TRUE(isfinite(r.elo) && isfinite(r.elo_lo) && isfinite(r.elo_hi));
        T_TRUE(r.elo_lo <= r.elo && r.elo <= r.elo_hi);
    }
    stats_result none = stats_compute(0, 0, 40), one = stats_compute(1, 0, 39);
    T_NEAR(none.elo_hi, -407.03, 0.01);
    T_NEAR(one.elo_hi, -332.06, 0.01);
    T_TRUE(one.elo_lo <= one.elo && one.elo <= one.elo_hi);
    T_TRUE(one.elo_hi > none.elo_hi && one.elo > none.elo);

    /* Even results: Elo 0, never -0 (which prints as "-0"). */
    r = stats_compute(20, 0, 20);
    T_TRUE(r.elo == 0 && !signbit(r.elo));
    r = stats_compute(0, 40, 0);
    T_TRUE(r.elo == 0 && !signbit(r.elo) && r.elo_lo < 0 && r.elo_hi > 0);

    /* No games. */
    r = stats_compute(0, 0, 0);
    T_NEAR(r.score, 0.5, 0);
    T_NEAR(r.los, 0.5, 0);
}

void test_stats_sprt(void)
{
    double lo, hi;
    stats_sprt_bounds(0.05, 0.05, &lo, &hi);
    T_NEAR(lo, log(0.05 / 0.95), 1e-12); /* -2.944 */
    T_NEAR(hi, 2.944439, 1e-6);
    /* 30-40-30 against elo0 0, elo1 5: s0 = 0.5, s1 = 0.507195; the
     * variance (with half a win and half a loss more: 30.5-40-30.5 over
     * 101) is 0.150990: LLR = 100 (s1 - s0)(1 - s0 - s1) / (2 var) = -0.01714. */
    T_NEAR(stats_llr(30, 40, 30, 0, 5), -0.01714, 1e-5);
    /* Unanimous results still decide: 8 wins of 8 against elo1 100. */
    T_TRUE(stats_llr(8, 0, 0, 0, 100) > hi);
    /* A clearly stronger player crosses the upper bound. */
    T_TRUE(stats_llr(70, 10, 20, 0, 50) > hi);
    T_TRUE(stats_llr(20, 10, 70, 0, 50) < lo);
    T_NEAR(stats_llr(0, 0, 0, 0, 5), 0, 0);
}
