/*
 * planner.c - embedding libbanyan for a domain that is not a board game: a
 * single-player packing problem. Twelve items with weights and values; a
 * move packs one item that still fits, or stops; the return is the value
 * packed. Banyan plans move by move, and the program compares its plan with
 * the exact optimum found by trying every subset. The game table holds what
 * the search needs and one optional part, the notation (how a move is
 * written); a domain without a board, tactics or learning planes leaves
 * those parts out (NULL).
 *
 * Build: cc planner.c $(pkg-config --cflags --libs banyan)  (or `make`).
 */
#include <stdio.h>
#include <string.h>

#include "banyan.h"

#define N_ITEMS  12
#define CAPACITY 50
#define STOP     N_ITEMS /* The move that ends the plan. */

static const int weights[N_ITEMS] = {12, 7, 11, 8, 9, 6, 14, 5, 10, 3, 13, 4};
static const int values[N_ITEMS] = {24, 13, 23, 15, 16, 11, 28, 7, 19, 4, 24, 6};

typedef struct pack {
    uint16_t packed; /* Bit i: item i is in the bag. */
    uint8_t weight;  /* Total weight packed. */
    uint8_t done;    /* The plan has ended. */
} pack;

static int pack_setup(void *s, const char *params)
{
    if (params && *params)
        return BANYAN_EINVAL; /* No parameters. */
    memset(s, 0, sizeof(pack));
    return BANYAN_OK;
}

static int pack_moves(const void *s, banyan_move *out)
{
    const pack *p = s;
    int n = 0;
    if (p->done)
        return 0;
    for (int i = 0; i < N_ITEMS; i++)
        if (!(p->packed >> i & 1) && p->weight + weights[i] <= CAPACITY)
            out[n++] = (banyan_move)i;
    out[n++] = STOP;
    return n;
}

static void pack_play(void *s, banyan_move m)
{
    pack *p = s;
    if (m == STOP) {
        p->done = 1;
        return;
    }
    p->packed |= (uint16_t)(1u << m);
    p->weight = (uint8_t)(p->weight + weights[m]);
}

static double pack_value(const pack *p)
{
    double v = 0;
    for (int i = 0; i < N_ITEMS; i++)
        if (p->packed >> i & 1)
            v += values[i];
    return v;
}

static bool pack_outcome(const void *s, double *returns)
{
    const pack *p = s;
    if (!p->done)
        return false;
    returns[0] = pack_value(p);
    return true;
}

static int pack_to_move(const void *s)
{
    (void)s;
    return 0;
}

/* A move as people read it: "item3", or "stop". */
static int pack_format(const void *s, banyan_move m, char *buf, size_t len)
{
    (void)s;
    return m == STOP ? snprintf(buf, len, "stop") : snprintf(buf, len, "item%u", (unsigned)m);
}

/* Each table and part starts with its size, set by its macro, so that a
 * library newer than this header reads it as it was written. */
static const banyan_notation pack_notation = {
    BANYAN_NOTATION_INIT,
    .format_move = pack_format,
};

static const banyan_game pack_game = {
    BANYAN_GAME_INIT,
    .name = "pack",
    .state_size = sizeof(pack),
    .n_players = 1,
    .reward_min = 0,
    .reward_max = 200, /* Above the sum of all values: returns map onto [0, 1]. */
    .setup = pack_setup,
    .moves = pack_moves,
    .play = pack_play,
    .outcome = pack_outcome,
    .to_move = pack_to_move,
    .notation = &pack_notation,
};

/* The exact optimum, by trying all 2^12 subsets. */
static int pack_optimum(void)
{
    int best = 0;
    for (int mask = 0; mask < 1 << N_ITEMS; mask++) {
        int w = 0, v = 0;
        for (int i = 0; i < N_ITEMS; i++)
            if (mask >> i & 1) {
                w += weights[i];
                v += values[i];
            }
        if (w <= CAPACITY && v > best)
            best = v;
    }
    return best;
}

int main(void)
{
    banyan_engine *e;
    banyan_config cfg = BANYAN_CONFIG(.memory = 64 << 20, .seed = 1, .c = 0.4);
    banyan_limits lim = BANYAN_LIMITS(.playouts = 100000);
    banyan_report rep = BANYAN_REPORT();

    if (banyan_engine_new(&pack_game, NULL, &cfg, &e) != BANYAN_OK)
        return 1;
    printf("plan:");
    do {
        char move[16];
        banyan_engine_search(e, &lim, &rep);
        banyan_game_format(&pack_game, banyan_engine_state(e), rep.best, 0, move, sizeof move);
        printf(" %s", move);
        banyan_engine_play(e, rep.best);
    } while (rep.best != STOP);
    const pack *p = banyan_engine_state(e);
    printf("\nvalue %g (weight %d of %d); the optimum is %d\n", pack_value(p), p->weight, CAPACITY,
           pack_optimum());
    banyan_engine_free(e);
    return 0;
}
