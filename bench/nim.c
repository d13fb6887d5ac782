/*
 * nim.c - Nim written in C against the public API, the twin of the Nim that
 * bench/python_speed.py writes in Python: the normal rule (whoever takes
 * the last object wins), moves listed heap by heap with the count upwards,
 * so that a search with one thread and the same seed makes the same
 * simulations in both and only the cost of a move differs. Prints the
 * playouts, the search's seconds and the root moves' visits.
 *
 * Build: cc -O2 -Iinclude bench/nim.c build/release/libbanyan.a -lm -pthread
 * Usage: nim PLAYOUTS SEED HEAP...   (up to 8 heaps of up to 63 objects)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"

#define NIM_HEAPS 8

typedef struct nim {
    uint8_t heaps[NIM_HEAPS]; /* Objects left in each heap. */
    uint8_t n_heaps;          /* Heaps in play. */
    uint8_t player;           /* The player to move. */
    uint8_t last;             /* The player who moved last. */
} nim;

static nim nim_start; /* Set from the command line before any engine exists. */

static int nim_setup(void *s, const char *params)
{
    if (params && *params)
        return BANYAN_EINVAL;
    memcpy(s, &nim_start, sizeof nim_start);
    return BANYAN_OK;
}

/* A move takes count objects from heap i: code i * 64 + count. */
static int nim_moves(const void *s, banyan_move *out)
{
    const nim *p = s;
    int n = 0;
    for (int i = 0; i < p->n_heaps; i++)
        for (int k = 1; k <= p->heaps[i]; k++)
            out[n++] = (banyan_move)(i * 64 + k);
    return n;
}

static void nim_play(void *s, banyan_move m)
{
    nim *p = s;
    p->heaps[m / 64] = (uint8_t)(p->heaps[m / 64] - m % 64);
    p->last = p->player;
    p->player ^= 1;
}

static bool nim_outcome(const void *s, double *returns)
{
    const nim *p = s;
    for (int i = 0; i < p->n_heaps; i++)
        if (p->heaps[i])
            return false;
    returns[p->last] = 1;
    returns[!p->last] = 0;
    return true;
}

static int nim_to_move(const void *s)
{
    return ((const nim *)s)->player;
}

static const banyan_game nim_game = {
    BANYAN_GAME_INIT, .name = "nim",          .state_size = sizeof(nim),
    .n_players = 2,   .setup = nim_setup,     .moves = nim_moves,
    .play = nim_play, .outcome = nim_outcome, .to_move = nim_to_move,
};

int main(int argc, char **argv)
{
    if (argc < 4 || argc - 3 > NIM_HEAPS) {
        fprintf(stderr, "usage: nim PLAYOUTS SEED HEAP...\n");
        return 2;
    }
    for (int i = 3; i < argc; i++)
        nim_start.heaps[nim_start.n_heaps++] = (uint8_t)atoi(argv[i]);
    banyan_engine *e;
    banyan_config cfg = BANYAN_CONFIG(.memory = 64 << 20, .seed = strtoull(argv[2], NULL, 10));
    banyan_limits lim = BANYAN_LIMITS(.playouts = strtoull(argv[1], NULL, 10));
    banyan_report r = BANYAN_REPORT();
    if (banyan_engine_new(&nim_game, NULL, &cfg, &e) != BANYAN_OK)
        return 1;
    banyan_engine_search(e, &lim, &r);
    printf("playouts %llu seconds %.6f visits", (unsigned long long)r.playouts, r.seconds);
    for (int i = 0; i < r.n_moves; i++)
        printf(" %u:%u=%u", (unsigned)r.moves[i].move / 64, (unsigned)r.moves[i].move % 64,
               r.moves[i].visits);
    printf("\n");
    banyan_engine_free(e);
    return 0;
}
