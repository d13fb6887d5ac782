/*
 * dsearch.h - one search over every rank of an MPI job, for the front-ends
 * that search one position at a time: analyze, gtp and gomocup (see
 * dsearch.c). Every rank runs the same front-end on the same input, which
 * rank 0 reads and sends to the others, so every rank follows the game;
 * each search runs on every rank with its own tree, the ranks exchanging
 * the tops of their trees, and rank 0's move is every rank's.
 */
#ifndef BANYAN_DSEARCH_H
#define BANYAN_DSEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "banyan.h"
#include "line.h"
#include "options.h"

/* The nodes each rank sends by default (--share-nodes) and the
 * milliseconds between two exchanges of a rank (--share-ms). */
#define DSEARCH_NODES    10000
#define DSEARCH_SHARE_MS 100

/* Readies a front-end's options for a run over dist_ranks() > 1 ranks:
 * the search becomes the distributed one, sharing share-nodes nodes
 * (DSEARCH_NODES unless given), threads share one tree, and no rank
 * ponders (every rank must search the same searches). Returns false with
 * a sentence in why[len] where the options cannot run so. */
bool dsearch_setup(options *o, char *why, size_t len);

/* The input every rank reads: rank 0's standard input, which it sends to
 * the others as it reads it. */
const line_source *dsearch_input(void);

/* Searches that do not follow the replicated input: the web board's, whose
 * sessions search on HTTP requests at rank 0. Rank 0 runs each with
 * dsearch_job(), which first sends job (len bytes: the front-end's own
 * description of the engine, its position and the limits) to the other
 * ranks, which run dsearch_follow(): it hands each job to fn, which
 * returns an engine at that position (made or kept by fn) and sets *lim,
 * or NULL with a sentence in why[len] (the job then fails, named); and
 * joins the search. One such search runs over the ranks at a time:
 * dsearch_job() returns -1 without searching, while another thread's runs
 * (or with one rank), and the caller then searches alone; else
 * banyan_engine_search()'s status, *out rank 0's merged report. */
typedef banyan_engine *dsearch_job_fn(void *ud, const void *job, size_t len, banyan_limits *lim,
                                      char *why, size_t why_len);
int dsearch_job(banyan_engine *e, const void *job, size_t len, const banyan_limits *lim,
                banyan_report *out);
void dsearch_follow(dsearch_job_fn *fn, void *ud);

/* Rank 0, once it will send no more jobs: every dsearch_follow() returns. */
void dsearch_end(void);

#endif /* BANYAN_DSEARCH_H */
