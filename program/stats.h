/*
 * stats.h - match statistics: score, Elo difference with its 95% interval,
 * likelihood of superiority, and the sequential probability ratio test.
 * Results are counted from the first player's point of view.
 */
#ifndef BANYAN_STATS_H
#define BANYAN_STATS_H

#include <stdbool.h>

typedef struct stats_result {
    int games;     /* Games counted. */
    double score;  /* (wins + draws / 2) / games, in [0, 1]. */
    double elo;    /* Elo difference, finite: at a score of 1 or 0, that of the score half a
                      game short of it (1 - 1/(2n+2)); never -0. */
    double elo_lo; /* 95% interval of elo (Wilson's), finite, elo_lo <= elo <= elo_hi. */
    double elo_hi;
    double los; /* Likelihood of superiority, in [0, 1]. */
} stats_result;

/* Score, Elo and its interval, and LOS from wins, draws and losses. With
 * no games every figure is 0 except score 0.5 and los 0.5. */
stats_result stats_compute(int wins, int draws, int losses);

/* Elo difference of an expected score s in (0, 1). */
double stats_elo(double s);

/* Log-likelihood ratio of H1 (elo1) against H0 (elo0) for the results so
 * far, in the normal approximation used by chess engine testing. */
double stats_llr(int wins, int draws, int losses, double elo0, double elo1);

/* SPRT decision bounds for error rates alpha and beta: accept H1 when the
 * LLR reaches *upper, H0 when it falls to *lower. */
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif /* BANYAN_STATS_H */
