/*
 * stats.c - match statistics (see stats.h). Per-game scores are 1, 0.5 or
 * 0. The interval is Wilson's score interval, which stays inside [0, 1] and
 * behaves at 0% and 100%, on an effective number of games that lets draws
 * narrow it: n * s(1-s) / var, where var is the per-game variance seen
 * (without draws it equals s(1-s), so the effective number is n; draws
 * lower it, down to half a game's worth of spread, so at most 2n). Both the
 * estimate and the bounds are then kept inside [e, 1 - e] with e = 1/(2n+2)
 * (half a game more than a match of n games can tell apart), so that every
 * Elo figure printed is finite and the estimate lies inside its interval.
 */
#include "stats.h"

#include <math.h>

double stats_elo(double s)
{
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0) + 0.0; /* + 0.0: never -0. */
}

static double stats_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
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
    /* Variance of one game's score about the mean, and the effective
     * number of games of Wilson's interval. */
    double var = w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s;
    double neff = n;
    if (draws > 0)
        neff = var > 0 ? stats_clamp(n * s * (1 - s) / var, n, 2.0 * n) : 2.0 * n;
    const double z = 1.959963984540054;
    double z2n = z * z / neff;
    double mid = (s + z2n / 2) / (1 + z2n);
    double half = z * sqrt(s * (1 - s) / neff + z2n / (4 * neff)) / (1 + z2n);
    double e = 1.0 / (2.0 * n + 2);
    r.score = s;
    r.elo = stats_elo(stats_clamp(s, e, 1 - e));
    r.elo_lo = stats_elo(stats_clamp(mid - half, e, 1 - e));
    r.elo_hi = stats_elo(stats_clamp(mid + half, e, 1 - e));
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
