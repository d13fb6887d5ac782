/*
 * stats.c - match statistics (see stats.h). Per-game scores are 1, 0.5 or
 * 0; the interval comes from their sample variance (a normal approximation
 * of the mean score, mapped through the logistic Elo curve), so draws
 * narrow it as they should. When every game has the same result that
 * variance is zero and says nothing, so the Wilson score interval, which
 * stays informative at 0% and 100%, is used instead.
 */
#include "stats.h"

#include <math.h>

double stats_elo(double s)
{
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

stats_result stats_compute(int wins, int draws, int losses)
{
    stats_result r = {0};
    int n = wins + draws + losses;
    r.games = n;
    r.score = 0.5;
    r.los = 0.5;
    if (n == 0)
        return r;
    double w = (double)wins / n, d = (double)draws / n, l = (double)losses / n;
    double s = w + d / 2;
    /* Variance of one game's score about the mean. */
    double var = w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s;
    double se = sqrt(var / n);
    const double z = 1.959963984540054;
    double lo = s - z * se, hi = s + z * se;
    if (wins == n || draws == n || losses == n) {
        double z2n = z * z / n;
        double mid = (s + z2n / 2) / (1 + z2n);
        double half = z * sqrt(s * (1 - s) / n + z2n / (4 * n)) / (1 + z2n);
        lo = mid - half;
        hi = mid + half;
    }
    r.score = s;
    r.elo = stats_elo(s);
    r.elo_lo = stats_elo(lo);
    r.elo_hi = stats_elo(hi);
    if (wins + losses > 0)
        r.los = 0.5 * (1 + erf((double)(wins - losses) / sqrt(2.0 * (wins + losses))));
    return r;
}

double stats_llr(int wins, int draws, int losses, double elo0, double elo1)
{
    int n = wins + draws + losses;
    if (n == 0)
        return 0;
    double w = (double)wins / n, d = (double)draws / n;
    double s = w + d / 2;
    /* The variance takes half a win and half a loss more than were seen:
     * unanimous results would otherwise have none and decide nothing. */
    double nr = n + 1.0, wr = (wins + 0.5) / nr, dr = draws / nr, sr = wr + dr / 2;
    double var = wr + dr / 4 - sr * sr;
    if (var <= 0)
        return 0;
    double s0 = 1 / (1 + pow(10, -elo0 / 400)), s1 = 1 / (1 + pow(10, -elo1 / 400));
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
