/*
 * fuzz_data.c - libFuzzer target for the self-play records reader
 * (net/data.c). The input is read as a records file twice: as it is, and
 * with its header checksum and every block's magic and CRC-32 set right,
 * so that the checks behind the checksums are reached too. Each read must
 * hold to the reader's promises (abort() otherwise):
 *   - a refused file leaves the data_file zeroed and says why;
 *   - a damaged one says why; every game kept has a result in [0, 1], at
 *     most DATA_MAX_PLIES plies, each with at most DATA_MAX_ENTRIES entries
 *     lying inside the game's entry arrays, one ply after another, and a
 *     policy target has visits;
 *   - the layout has a single spelling, so the header and the games kept,
 *     written again with the writer, are the input's first bytes (all of
 *     them when nothing was damaged).
 * Crashes and sanitizer reports count too.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"

#define FUZZ_DATA_HEADER 176 /* The header's size in data.c's layout. */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* CRC-32 (zlib's) one bit at a time, apart from data.c's. */
static uint32_t fuzz_data_crc(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static void fuzz_data_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Whether every game kept keeps the reader's promises. */
static bool fuzz_data_sound(const data_file *f)
{
    if (f->n_games < 0 || (f->n_games > 0 && !f->games) || !memchr(f->game, 0, sizeof f->game) ||
        !memchr(f->params, 0, sizeof f->params))
        return false;
    for (int g = 0; g < f->n_games; g++) {
        const data_game *gm = &f->games[g];
        uint32_t at = 0;
        if (!(gm->result >= 0.0f && gm->result <= 1.0f) || gm->n_plies < 0 ||
            gm->n_plies > DATA_MAX_PLIES || (gm->n_plies > 0 && !gm->plies) ||
            (gm->n_entries > 0 && (!gm->moves || !gm->visits)))
            return false;
        for (int i = 0; i < gm->n_plies; i++) {
            const data_ply *p = &gm->plies[i];
            if (p->offset != at || p->n > DATA_MAX_ENTRIES || p->n > gm->n_entries - at ||
                (p->target && p->n == 0))
                return false;
            at += p->n;
        }
        if (at != gm->n_entries)
            return false;
    }
    return true;
}

/* Writes f again into memory: it must be the input's first bytes. */
static bool fuzz_data_rewrites(const data_file *f, const uint8_t *data, size_t size)
{
    char *text = NULL, why[256];
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return true; /* Out of memory: nothing to compare. */
    bool ok = data_write_header(m, f->game, f->params, why, sizeof why) == 0;
    for (int g = 0; ok && g < f->n_games; g++)
        ok = data_write_game(m, &f->games[g], why, sizeof why) == 0;
    fclose(m);
    ok = ok && len <= size && !memcmp(text, data, len) && (f->damaged || len == size);
    free(text);
    return ok;
}

static void fuzz_data_read(const uint8_t *data, size_t size)
{
    data_file f;
    char why[512];
    /* Garbage first, so that a refusal that leaves it shows. */
    memset(&f, 0xa5, sizeof f);
    if (data_read_mem(data, size, &f, why, sizeof why) != 0) {
        data_file zero;
        memset(&zero, 0, sizeof zero);
        if (memcmp(&f, &zero, sizeof f) != 0 || !why[0])
            abort();
        return;
    }
    if (f.damaged != (why[0] != 0))
        abort(); /* A damaged file says why, and a sound one says nothing. */
    if (!fuzz_data_sound(&f) || !fuzz_data_rewrites(&f, data, size))
        abort();
    data_file_free(&f);
}

/* A copy of the input with its checksums and block magics set right,
 * wherever the lengths it claims leave room for them. */
static void fuzz_data_repaired(const uint8_t *data, size_t size)
{
    uint8_t *b;
    if (size < FUZZ_DATA_HEADER || !(b = malloc(size)))
        return;
    memcpy(b, data, size);
    fuzz_data_put32(b + FUZZ_DATA_HEADER - 4, fuzz_data_crc(b, FUZZ_DATA_HEADER - 4));
    for (size_t pos = FUZZ_DATA_HEADER; size - pos >= 12;) {
        uint32_t body = (uint32_t)b[pos + 4] | (uint32_t)b[pos + 5] << 8 |
                        (uint32_t)b[pos + 6] << 16 | (uint32_t)b[pos + 7] << 24;
        memcpy(b + pos, "GAME", 4);
        if (size - pos - 12 < body)
            break;
        fuzz_data_put32(b + pos + 8 + body, fuzz_data_crc(b + pos + 8, body));
        pos += 12 + (size_t)body;
    }
    fuzz_data_read(b, size);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_data_read(data, size);
    fuzz_data_repaired(data, size);
    return 0;
}
