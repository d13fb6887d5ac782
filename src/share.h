/*
 * share.h - the top of a tree shared with other searches (share.c): what
 * the engine keeps for banyan_engine_share() and banyan_engine_absorb().
 */
#ifndef BANYAN_SHARE_H
#define BANYAN_SHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "banyan.h"
#include "config.h"

/* What this tree took from the others at one node, named by its path key:
 * the statistics absorbed so far (applied) and, during an absorb, the sum
 * of the other searches' latest (pending); [0] the node's own statistics,
 * [1] its AMAF statistics (RAVE), where the tree keeps them. */
typedef struct share_entry {
    uint64_t key;          /* The path's key (never 0); 0: empty. */
    uint32_t node;         /* The node, during an absorb. */
    uint32_t stamp;        /* The absorb that last summed into pending. */
    uint32_t applied_n[2]; /* Visits absorbed. */
    uint32_t pending_n[2];
    uint64_t applied_w[2]; /* Value absorbed, VALUE_ONE units. */
    uint64_t pending_w[2];
} share_entry;

struct share_frame; /* A step of an export's walks (share.c). */

/* A node of the walk that sweeps the table after a move, with its key. */
typedef struct share_step {
    uint64_t key;
    uint32_t node;
} share_step;

typedef struct share_state {
    int nodes;          /* config.share_nodes; 0: no sharing, nothing below allocated. */
    uint64_t root_key;  /* The root's path key: the position's hash when it was set,
                           mixed with every move played since. */
    uint64_t position;  /* The root position's hash. */
    share_entry *table; /* mask + 1 entries, open addressing. */
    share_entry *spare; /* As many: the table rebuilt after a move. */
    uint64_t mask;
    uint32_t stamp;
    share_step *walk;           /* mask + 1: the sweep's stack. */
    uint32_t *heap;             /* 8 x nodes: the visits an export looks at for its top; */
    uint32_t need;              /* the least of the top at the last export. */
    uint32_t *touched;          /* mask + 1: the entries an absorb summed into. */
    struct share_frame *frames; /* The export's walks, one frame a ply. */
    uint64_t *keys;             /* nodes: the path key of each entry of a buffer. */
    uint32_t *map;              /* nodes: the local node of each entry of a buffer (0: none). */
    void *state;                /* A position: the path to a node taking a proof. */
    uint64_t *phantom;          /* The phantom walks' visits, to take back: the node (low
                                   32 bits) and the value added with the visit (high), */
    uint32_t phantoms;          /* how many, */
    uint32_t phantom_cap;       /* and room for SHARE_PHANTOMS. */
    uint32_t known;             /* The nodes of the tree at its last export or absorb */
    bool synced;                /* (or the search's start): those above are this
                                   search's alone. */
} share_state;

struct banyan_engine;

/* Takes the memory of sharing n nodes (n > 0) through the engine's hook;
 * false when out of memory. share_free() gives it back. */
BANYAN_INTERNAL bool share_alloc(struct banyan_engine *e, int n);
/* The bytes share_alloc() takes for n nodes, positions of state_size
 * bytes and config.share_searches searches. */
BANYAN_INTERNAL size_t share_bytes(int n, size_t state_size, int searches);
BANYAN_INTERNAL void share_free(struct banyan_engine *e);

/* A new root position (setup, load, set_state, or a move whose subtree
 * the tree did not keep): nothing absorbed any more. */
BANYAN_INTERNAL void share_reset(struct banyan_engine *e);

/* Move m was played: the root's key follows it; where the tree kept m's
 * subtree (kept), so do the entries of its nodes, and the others are
 * dropped; else all are. */
BANYAN_INTERNAL void share_played(struct banyan_engine *e, banyan_move m, bool kept);

/* Writes the top of e's tree into buf (at least banyan_share_size(nodes)
 * bytes); returns its length. */
BANYAN_INTERNAL size_t share_export(struct banyan_engine *e, void *buf);

/* NULL when buf[0 .. len) is a whole export, else what is wrong with it. */
BANYAN_INTERNAL const char *share_check(const void *buf, size_t len);

/* Takes in n exports that share_check() passed (see banyan_engine_absorb);
 * returns how many were of this position. */
BANYAN_INTERNAL int share_absorb(struct banyan_engine *e, const void *const *bufs,
                                 const size_t *lens, int n);

struct worker;

/* config.share_searches > 1: the phantom walks before a simulation of
 * the first thread, until one reaches a leaf that is this search's. */
BANYAN_INTERNAL void share_phantoms(struct worker *w);

/* Notes the tree's nodes as the others know them: at an export, after an
 * absorb, or at a search's start once the root is expanded (synced is
 * false until then). */
BANYAN_INTERNAL void share_synced(struct banyan_engine *e);

/* Takes back the visits of the phantom walks. */
BANYAN_INTERNAL void share_unphantom(struct banyan_engine *e);

#endif /* BANYAN_SHARE_H */
