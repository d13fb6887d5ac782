/*
 * dump.c - writes the search tree as JSON or as Graphviz DOT, through the
 * caller's write function, with depth and minimum-visit cut-offs. Text is
 * built in a small buffer that is flushed as it fills; the positions along
 * the path written take scratch memory through the engine's allocation
 * hook, for the call only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "util.h"

typedef struct dump {
    banyan_engine *e;
    banyan_dump_format format;
    int max_depth;       /* 0 = no limit. */
    uint32_t min_visits; /* Children with fewer visits are left out. */
    banyan_write_fn *write;
    void *ud;
    int rc;     /* First non-zero return of write; stops the dump. */
    size_t len; /* Bytes pending in buf. */
    char buf[4096];
    unsigned char *state; /* Position of the node being written. */
} dump;

static void dump_flush(dump *d)
{
    if (d->len && !d->rc)
        d->rc = d->write(d->ud, d->buf, d->len);
    d->len = 0;
}

static void dump_printf(dump *d, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
    if (d->len + len > sizeof d->buf)
        dump_flush(d);
    memcpy(d->buf + d->len, tmp, len);
    d->len += len;
}

static const char *dump_proof_name(banyan_proof p)
{
    static const char *names[] = {"none", "win", "loss", "draw"};
    return names[p & 3];
}

/* The move's text in the game's notation (decimal codes for a game without
 * one), which never needs escaping in JSON or DOT, but anything unexpected is
 * replaced to stay well-formed. */
static void dump_move_text(const dump *d, const unsigned char *s, const node *x, char *buf,
                           size_t len)
{
    if (tree_move(x) == BANYAN_MOVE_NONE) {
        snprintf(buf, len, "root");
        return;
    }
    buf[0] = 0;
    if (banyan_game_format(d->e->game, s, tree_move(x), 0, buf, len) < 0)
        snprintf(buf, len, "?");
    for (char *c = buf; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
            *c = '?';
}

/* Writes node xi (whose position is d->state, before its move for a child)
 * and its subtree. parent is the DOT id of its parent, 0 for the root. */
static void dump_node(dump *d, uint32_t xi, uint32_t parent, int depth, size_t state_off)
{
    const banyan_game *g = d->e->game;
    const node *x = &d->e->trees[0].nodes[xi];
    unsigned char *here = d->state + state_off;
    char mv[64];
    if (d->rc)
        return;

    /* The position before the move names the move; after it, the children. */
    dump_move_text(d, here, x, mv, sizeof mv);
    memcpy(here + g->state_size, here, g->state_size);
    unsigned char *next = here + g->state_size;
    if (tree_move(x) != BANYAN_MOVE_NONE) {
        g->play(next, tree_move(x));
        GAME_CHECK(g, next);
    }

    uint32_t visits = tree_visits(x);
    double value = tree_mean(x);
    const char *proof = dump_proof_name(tree_proof(x));
    if (d->format == BANYAN_DUMP_JSON)
        dump_printf(d,
                    "{\"move\":\"%s\",\"visits\":%u,\"value\":%.4f,\"prior\":%.4f,"
                    "\"proof\":\"%s\"",
                    mv, visits, value, (double)tree_prior(x), proof);
    else {
        dump_printf(d, "  n%u [label=\"%s\\nN=%u Q=%.3f\\nP=%.3f %s\"];\n", xi, mv, visits, value,
                    (double)tree_prior(x), proof);
        if (parent)
            dump_printf(d, "  n%u -> n%u;\n", parent, xi);
    }

    int n;
    uint32_t first = tree_children(d->e->trees[0].nodes, x, &n);
    bool deeper = first && (d->max_depth == 0 || depth < d->max_depth) && depth < BANYAN_MAX_DEPTH;
    if (d->format == BANYAN_DUMP_JSON)
        dump_printf(d, ",\"children\":[");
    int written = 0;
    for (int i = 0; deeper && i < n; i++) {
        uint32_t ci = first + (uint32_t)i;
        if (tree_visits(&d->e->trees[0].nodes[ci]) < d->min_visits)
            continue;
        if (d->format == BANYAN_DUMP_JSON && written++)
            dump_printf(d, ",");
        dump_node(d, ci, xi, depth + 1, state_off + g->state_size);
    }
    if (d->format == BANYAN_DUMP_JSON)
        dump_printf(d, "]}");
}

BANYAN_API int banyan_engine_dump(banyan_engine *e, banyan_dump_format format, int max_depth,
                                  uint32_t min_visits, banyan_write_fn *write, void *ud)
{
    if (!e)
        return BANYAN_EINVAL;
    if (!write || max_depth < 0 || (format != BANYAN_DUMP_JSON && format != BANYAN_DUMP_DOT))
        return BANYAN_EINVAL;
    /* One state per level of the deepest path written, taken through the
     * allocation hook: a dump happens between searches, not inside one. */
    int levels = (max_depth ? max_depth : BANYAN_MAX_DEPTH) + 2;
    size_t bytes = (size_t)levels * e->game->state_size;
    unsigned char *states = e->cfg.alloc(e->cfg.alloc_ud, NULL, bytes);
    if (!states)
        return BANYAN_ENOMEM;
    dump *d = e->cfg.alloc(e->cfg.alloc_ud, NULL, sizeof *d);
    if (!d) {
        e->cfg.alloc(e->cfg.alloc_ud, states, 0);
        return BANYAN_ENOMEM;
    }
    memset(d, 0, sizeof *d);
    d->e = e;
    d->format = format;
    d->max_depth = max_depth;
    d->min_visits = min_visits;
    d->write = write;
    d->ud = ud;
    d->state = states;
    memcpy(states, e->root_state, e->game->state_size);

    if (format == BANYAN_DUMP_DOT)
        dump_printf(d, "digraph banyan {\n  node [shape=box, fontname=\"monospace\"];\n");
    dump_node(d, e->trees[0].root, 0, 0, 0);
    dump_printf(d, format == BANYAN_DUMP_DOT ? "}\n" : "\n");
    dump_flush(d);
    int rc = d->rc;
    e->cfg.alloc(e->cfg.alloc_ud, d, 0);
    e->cfg.alloc(e->cfg.alloc_ud, states, 0);
    return rc;
}
