/*
 * fuzz_record.c - libFuzzer target for the game record's parsers (plain
 * text, SGF and PSQ). The input is loaded with no game given and as each
 * built-in game; a record that loads is saved in every format into memory
 * and loaded again, which must give the same game, parameters, start and
 * moves (abort() otherwise; PSQ keeps only the board and the moves, so
 * there the moves and the final position are compared). A failed load must leave the record zeroed.
 * Crashes and sanitizer reports count too.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether a and b are the same game from the same start with the same
 * moves. Plain text keeps the parameter and start texts as they are; SGF
 * may spell them otherwise (SZ for absent parameters, white space in XS),
 * so the positions they give are compared. */
static bool fuzz_record_same(const record *a, const record *b, bool same_text, bool moves_only)
{
    size_t size = a->g->state_size;
    unsigned char *s = malloc(size), *t = malloc(size);
    bool same =
        s && t && a->g == b->g && a->n_moves == b->n_moves &&
        record_state_at(a, 0, s) == BANYAN_OK && record_state_at(b, 0, t) == BANYAN_OK &&
        (moves_only || (!memcmp(s, t, size) && !memcmp(record_state(a), record_state(b), size)));
    if (same && same_text)
        same = !strcmp(a->params, b->params) &&
               !strcmp(a->start ? a->start : "", b->start ? b->start : "");
    for (int i = 0; same && i < a->n_moves; i++)
        same = a->moves[i].move == b->moves[i].move;
    free(s);
    free(t);
    return same || !s || !t;
}

/* Saves r in format fmt and loads the text again: it must be the same
 * game. Only SGF of a game that has no place in it, and PSQ of a game
 * without X,Y or of a record it cannot hold (a start position, a pass),
 * may be refused. */
static void fuzz_record_round_trip(const record *r, record_format fmt)
{
    const banyan_game *g = r->g;
    char *text = NULL, err[256];
    size_t len = 0;
    record back;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    int rc = record_save(r, f, fmt);
    fclose(f);
    bool has_sgf = (g->board ? g->board->sgf_game : 0) && g->n_players == 2 &&
                   ((g->board ? g->board->coords : 0) & BANYAN_COORDS_SGF);
    if (rc == BANYAN_OK) {
        if (record_load(&back, g, text, err, sizeof err) != BANYAN_OK) {
            /* PSQ has no rule: moves legal under another rule (after a
             * standard-rule overline, say) may not load with the default. */
            if (fmt == RECORD_PSQ && r->params[0]) {
                free(text);
                return;
            }
            abort(); /* A saved record that does not load. */
        }
        if (!fuzz_record_same(r, &back, fmt == RECORD_TEXT, fmt == RECORD_PSQ))
            abort();
        record_free(&back);
    } else if (rc != BANYAN_EINVAL || (fmt == RECORD_SGF && has_sgf) || fmt == RECORD_TEXT) {
        abort();
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n_games;
    const banyan_game *const *games = banyan_game_list(&n_games);
    char *text = malloc(size + 1), err[256];
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    for (int i = -1; i < n_games; i++) {
        record r;
        if (record_load(&r, i < 0 ? NULL : games[i], text, err, sizeof err) != BANYAN_OK) {
            if (r.g || r.state || r.moves || r.start || !err[0])
                abort(); /* A failure leaves no record, and says why. */
            continue;
        }
        fuzz_record_round_trip(&r, RECORD_TEXT);
        fuzz_record_round_trip(&r, RECORD_SGF);
        fuzz_record_round_trip(&r, RECORD_PSQ);
        record_free(&r);
    }
    free(text);
    return 0;
}
