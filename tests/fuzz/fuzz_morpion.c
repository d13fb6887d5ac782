/*
 * fuzz_morpion.c - libFuzzer target for Morpion Solitaire's parsers: a move
 * in Pentasol's notation and a position (a Pentasol file). The first byte
 * picks the rule (bit 0); the rest is the text. A move that parses must
 * format back to text that parses to the same code. A position that loads
 * must be valid; it is printed, its moves formatted and parsed back, and a
 * playout from it replays through moves() and play(); a playout from the
 * cross, written out, loads to the playout's end. A failed load must leave
 * the state as it was. Each line of the text is tried as a move too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MORPION_PLAYOUT 400 /* Room for the moves of a playout. */

/* A move that parses formats back to itself. */
static void fuzz_morpion_move(const banyan_game *g, const void *s, const char *text)
{
    banyan_move m, back;
    char buf[64];
    if (g->notation->parse_move(s, text, &m) != BANYAN_OK)
        return;
    if (g->notation->format_move(s, m, buf, sizeof buf) >= (int)sizeof buf ||
        g->notation->parse_move(s, buf, &back) != BANYAN_OK || back != m)
        abort();
    banyan_game_explain(g, s, m, buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const banyan_game *g = banyan_game_find("morpion");
    banyan_move moves[BANYAN_MAX_MOVES], played[FUZZ_MORPION_PLAYOUT];
    banyan_rng rng;
    if (!g || size < 1)
        return 0;
    size_t text_len = size - 1, cap = text_len + 32 * FUZZ_MORPION_PLAYOUT + 2;
    char *text = malloc(cap), *line = malloc(size);
    void *s = malloc(g->state_size), *t = malloc(g->state_size), *u = malloc(g->state_size);
    char *diagram = malloc(1 << 14);
    if (!text || !line || !s || !t || !u || !diagram)
        goto done;
    memcpy(text, data + 1, text_len);
    text[text_len] = 0;
    text_len = strlen(text); /* The text ends at a NUL byte. */
    if (g->setup(s, data[0] & 1 ? "rule=5d" : "rule=5t") != BANYAN_OK)
        abort();

    /* The whole text as one move, then each line of it. */
    fuzz_morpion_move(g, s, text);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        memcpy(line, p, n);
        line[n] = 0;
        fuzz_morpion_move(g, s, line);
        p += n + (p[n] == '\n');
    }

    /* The text as a position, on a state that holds a move already. */
    g->moves(s, moves);
    memcpy(t, s, g->state_size);
    g->play(t, moves[0]);
    memcpy(u, t, g->state_size);
    if (g->notation->load(t, text) != BANYAN_OK) {
        if (memcmp(t, u, g->state_size))
            abort(); /* A failed load changed the state. */
        goto done;
    }
    if (!g->is_valid(t))
        abort();
    g->notation->print(t, BANYAN_MOVE_NONE, diagram, 1 << 14);
    int n = g->moves(t, moves);
    for (int i = 0; i < n; i++) {
        char buf[64];
        g->notation->format_move(t, moves[i], buf, sizeof buf);
        fuzz_morpion_move(g, t, buf);
    }

    /* A playout from the position replays through moves() and play(). */
    banyan_rng_seed(&rng, size, data[0]);
    memcpy(u, t, g->state_size);
    n = g->playout(u, &rng, played, FUZZ_MORPION_PLAYOUT);
    if (!g->is_valid(u))
        abort();
    for (int i = 0; i < n; i++) {
        if (!banyan_game_is_legal(g, t, played[i]))
            abort();
        g->play(t, played[i]);
    }
    if (g->score(t) == g->score(u) && memcmp(t, u, g->state_size)) /* Every move written. */
        abort();

    /* A playout from the cross, written as a position, loads to its end. */
    memcpy(u, s, g->state_size);
    n = g->playout(u, &rng, played, FUZZ_MORPION_PLAYOUT);
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        len += (size_t)g->notation->format_move(u, played[i], text + len, cap - len);
        text[len++] = i % 2 ? '\n' : ',';
    }
    text[len] = 0;
    if (g->score(u) == n &&
        (g->notation->load(t, text) != BANYAN_OK || memcmp(t, u, g->state_size)))
        abort();
done:
    free(text);
    free(line);
    free(s);
    free(t);
    free(u);
    free(diagram);
    return 0;
}
