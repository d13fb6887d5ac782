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

#endif /* BANYAN_DSEARCH_H */
