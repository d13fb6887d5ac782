/*
 * data.c - self-play records (data.h): the writer self-play appends games
 * with, and the reader training loads a whole file with.
 *
 * The byte layout. Every number is little-endian and is written and read
 * byte by byte, so the file is the same on every machine; f32 is an IEEE 754
 * single stored as its 32 bits.
 *
 *   Header, 176 bytes:
 *     0    8  magic "BANYANSP"
 *     8    4  u32 schema version (DATA_VERSION, 1)
 *     12  32  game name, NUL-terminated and NUL-padded (at most 31 bytes)
 *     44 128  rule parameters, NUL-terminated and NUL-padded (at most 127)
 *     172  4  u32 CRC-32 of bytes 0 to 171
 *
 *   Then game blocks up to the end of the file, each:
 *     4  block magic "GAME"
 *     4  u32 L, the byte length of the body
 *     L  the body:
 *          f32 result for player 0, in [0, 1]
 *          u16 n_plies (at most DATA_MAX_PLIES)
 *          per ply: u16 move
 *                   u8  flags: bit 0 set when the visits are a policy
 *                       target (then n is at least 1); the other bits are 0
 *                   u16 n, the visit entries (at most DATA_MAX_ENTRIES)
 *                   n times: u16 move, u32 visits
 *     4  u32 CRC-32 of the body
 *
 * The CRC-32 is zlib's (the reflected IEEE polynomial 0xEDB88320, starting
 * from and finishing with all ones bits). The layout has a single spelling
 * for each content: padding and unused flag bits are 0 and a body holds its
 * plies and nothing more, so a file read back and written again is the same
 * bytes.
 *
 * Each game is one block with its own checksum so that a file cut by a
 * killed run, or damaged in the middle, still gives every game before the
 * damage: the reader stops at the first bad block, keeps what came before
 * and says where and why. A bad header is refused whole, since nothing
 * after it can be trusted.
 */
#include "data.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DATA_MAGIC       "BANYANSP"
#define DATA_BLOCK_MAGIC "GAME"
#define DATA_GAME_LEN    32
#define DATA_PARAMS_LEN  128
#define DATA_HEADER_SIZE (8 + 4 + DATA_GAME_LEN + DATA_PARAMS_LEN + 4)
#define DATA_BLOCK_EXTRA 12 /* A block's magic, length and CRC around its body. */
#define DATA_BODY_MIN    6  /* The result and the ply count. */
#define DATA_PLY_SIZE    5  /* A ply before its entries. */
#define DATA_ENTRY_SIZE  6
/* The largest body a game can have: every ply at its most entries. */
#define DATA_BODY_MAX                                                                              \
    ((uint32_t)DATA_BODY_MIN +                                                                     \
     (uint32_t)DATA_MAX_PLIES * (DATA_PLY_SIZE + (uint32_t)DATA_MAX_ENTRIES * DATA_ENTRY_SIZE))
#define DATA_FILE_MAX ((uint64_t)4 << 30) /* The largest file data_read takes. */

/* Writes a sentence into why[len] when there is room for one. */
#if defined(__MINGW_PRINTF_FORMAT) /* mingw-w64, where printf means Microsoft's formats */
__attribute__((format(__MINGW_PRINTF_FORMAT, 3, 4)))
#elif defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
data_say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    if (!why || !len)
        return;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

/* CRC-32 four bits at a time: a 16-entry table is small enough to write
 * out as constants, so there is nothing to build at run time (and nothing
 * for threads to race on), and fast enough for files read once. */
static uint32_t data_crc32(const uint8_t *p, size_t n)
{
    static const uint32_t table[16] = {
        0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
        0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
        0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
    };
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        c = (c >> 4) ^ table[c & 15];
        c = (c >> 4) ^ table[c & 15];
    }
    return c ^ 0xffffffffu;
}

static void data_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8);
}

static void data_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)((v >> 8) & 0xff);
    p[2] = (uint8_t)((v >> 16) & 0xff);
    p[3] = (uint8_t)(v >> 24);
}

static uint16_t data_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static uint32_t data_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Whether a result is one a game can have (NaN is not). */
static bool data_result_ok(float r)
{
    return r >= 0.0f && r <= 1.0f;
}

/* ------------------------------------------------------------------ */
/* Recording a game                                                     */
/* ------------------------------------------------------------------ */

void data_game_begin(data_game *gm)
{
    memset(gm, 0, sizeof *gm);
}

/* Makes room for at least need entries, growing by doubling. */
static int data_game_reserve(data_game *gm, uint32_t need)
{
    if (need <= gm->cap_entries)
        return 0;
    uint32_t cap = gm->cap_entries ? gm->cap_entries : 64;
    while (cap < need)
        cap *= 2;
    uint16_t *moves = realloc(gm->moves, cap * sizeof *moves);
    if (!moves)
        return -1;
    gm->moves = moves; /* The bigger block holds the same entries. */
    uint32_t *visits = realloc(gm->visits, cap * sizeof *visits);
    if (!visits)
        return -1;
    gm->visits = visits;
    gm->cap_entries = cap;
    return 0;
}

int data_game_ply(data_game *gm, uint16_t move, bool target, const uint16_t *moves,
                  const uint32_t *visits, int n)
{
    /* A target with no visits teaches nothing, and the reader refuses it. */
    if (n < 0 || n > DATA_MAX_ENTRIES || (n > 0 && (!moves || !visits)) || (target && n == 0))
        return -1;
    if (gm->n_plies < 0 || gm->n_plies >= DATA_MAX_PLIES)
        return -1;
    if ((uint32_t)gm->n_plies == gm->cap_plies) {
        uint32_t cap = gm->cap_plies ? 2 * gm->cap_plies : 16;
        data_ply *plies = realloc(gm->plies, cap * sizeof *plies);
        if (!plies)
            return -1;
        gm->plies = plies;
        gm->cap_plies = cap;
    }
    if (data_game_reserve(gm, gm->n_entries + (uint32_t)n) != 0)
        return -1;
    data_ply *p = &gm->plies[gm->n_plies++];
    p->move = move;
    p->target = target;
    p->n = (uint16_t)n;
    p->offset = gm->n_entries;
    if (n > 0) {
        memcpy(gm->moves + gm->n_entries, moves, (size_t)n * sizeof *moves);
        memcpy(gm->visits + gm->n_entries, visits, (size_t)n * sizeof *visits);
    }
    gm->n_entries += (uint32_t)n;
    return 0;
}

void data_game_free(data_game *gm)
{
    free(gm->plies);
    free(gm->moves);
    free(gm->visits);
    memset(gm, 0, sizeof *gm);
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

/* Writes n bytes and flushes them, so that a game written is on its way to
 * the disk before the next is played. */
static int data_write_bytes(FILE *f, const uint8_t *p, size_t n, const char *what, char *why,
                            size_t len)
{
    errno = 0;
    if (fwrite(p, 1, n, f) != n || fflush(f) != 0) {
        int e = errno ? errno : EIO;
        data_say(why, len, "cannot write %s to the records file: %s", what, strerror(e));
        return -1;
    }
    return 0;
}

int data_write_header(FILE *f, const char *game, const char *params, char *why, size_t len)
{
    uint8_t h[DATA_HEADER_SIZE];
    game = game ? game : "";
    params = params ? params : "";
    size_t gl = strlen(game), pl = strlen(params);
    data_say(why, len, "%s", "");
    if (!f) {
        data_say(why, len, "no records file to write the header to");
        return -1;
    }
    if (gl >= DATA_GAME_LEN) {
        data_say(why, len, "the game name \"%.40s\" is %zu bytes long; a records file holds %d",
                 game, gl, DATA_GAME_LEN - 1);
        return -1;
    }
    if (pl >= DATA_PARAMS_LEN) {
        data_say(why, len,
                 "the rule parameters \"%.40s...\" are %zu bytes long; a records file "
                 "holds %d",
                 params, pl, DATA_PARAMS_LEN - 1);
        return -1;
    }
    memset(h, 0, sizeof h);
    memcpy(h, DATA_MAGIC, 8);
    data_put_u32(h + 8, DATA_VERSION);
    memcpy(h + 12, game, gl);
    memcpy(h + 12 + DATA_GAME_LEN, params, pl);
    data_put_u32(h + DATA_HEADER_SIZE - 4, data_crc32(h, DATA_HEADER_SIZE - 4));
    return data_write_bytes(f, h, sizeof h, "the header", why, len);
}

/* Whether gm is a game the reader would take back; when not, a sentence
 * in why. Writing what cannot be read would only lose the game later. */
static int data_game_check(const data_game *gm, char *why, size_t len)
{
    if (gm->n_plies < 0 || gm->n_plies > DATA_MAX_PLIES) {
        data_say(why, len, "the game has %d plies; a game holds 0 to %d", gm->n_plies,
                 DATA_MAX_PLIES);
        return -1;
    }
    if (!data_result_ok(gm->result)) {
        data_say(why, len, "the game's result %g is outside [0, 1]", (double)gm->result);
        return -1;
    }
    if (gm->n_plies > 0 && !gm->plies) {
        data_say(why, len, "the game has %d plies but no ply array", gm->n_plies);
        return -1;
    }
    if (gm->n_entries > 0 && (!gm->moves || !gm->visits)) {
        data_say(why, len, "the game has %u visit entries but no entry arrays",
                 (unsigned)gm->n_entries);
        return -1;
    }
    for (int i = 0; i < gm->n_plies; i++) {
        const data_ply *p = &gm->plies[i];
        if (p->n > DATA_MAX_ENTRIES) {
            data_say(why, len, "ply %d has %u visit entries; a ply holds at most %d", i + 1,
                     (unsigned)p->n, DATA_MAX_ENTRIES);
            return -1;
        }
        if (p->offset > gm->n_entries || p->n > gm->n_entries - p->offset) {
            data_say(why, len, "ply %d's entries %u to %u lie outside the game's %u", i + 1,
                     (unsigned)p->offset, (unsigned)p->offset + p->n, (unsigned)gm->n_entries);
            return -1;
        }
        if (p->target && p->n == 0) {
            data_say(why, len, "ply %d is a policy target with no visits", i + 1);
            return -1;
        }
    }
    return 0;
}

int data_write_game(FILE *f, const data_game *gm, char *why, size_t len)
{
    data_say(why, len, "%s", "");
    if (!f || !gm) {
        data_say(why, len, "no records file or no game to write");
        return -1;
    }
    if (data_game_check(gm, why, len) != 0)
        return -1;
    /* The block is put together in memory and written at once, so that a
     * failed write leaves at most one cut block at the end of the file. */
    size_t body = DATA_BODY_MIN;
    for (int i = 0; i < gm->n_plies; i++)
        body += DATA_PLY_SIZE + (size_t)gm->plies[i].n * DATA_ENTRY_SIZE;
    uint8_t *b = malloc(body + DATA_BLOCK_EXTRA);
    if (!b) {
        data_say(why, len, "out of memory writing a game of %zu bytes", body);
        return -1;
    }
    uint8_t *p = b + 8;
    uint32_t bits;
    memcpy(b, DATA_BLOCK_MAGIC, 4);
    data_put_u32(b + 4, (uint32_t)body);
    memcpy(&bits, &gm->result, sizeof bits);
    data_put_u32(p, bits);
    data_put_u16(p + 4, (uint16_t)gm->n_plies);
    p += DATA_BODY_MIN;
    for (int i = 0; i < gm->n_plies; i++) {
        const data_ply *ply = &gm->plies[i];
        data_put_u16(p, ply->move);
        p[2] = ply->target ? 1 : 0;
        data_put_u16(p + 3, ply->n);
        p += DATA_PLY_SIZE;
        for (uint32_t k = ply->offset; k < ply->offset + ply->n; k++) {
            data_put_u16(p, gm->moves[k]);
            data_put_u32(p + 2, gm->visits[k]);
            p += DATA_ENTRY_SIZE;
        }
    }
    data_put_u32(p, data_crc32(b + 8, body));
    int rc = data_write_bytes(f, b, body + DATA_BLOCK_EXTRA, "a game", why, len);
    free(b);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

void data_file_free(data_file *f)
{
    for (int i = 0; i < f->n_games; i++)
        data_game_free(&f->games[i]);
    free(f->games);
    memset(f, 0, sizeof *f);
}

/* Checks a body's content without allocating anything: returns 0 and the
 * number of visit entries in *entries, or -1 with what is wrong in
 * what[wlen] (the end of a sentence about the game). */
static int data_body_scan(const uint8_t *b, uint32_t size, uint32_t *entries, char *what,
                          size_t wlen)
{
    uint32_t bits = data_get_u32(b), pos = DATA_BODY_MIN, total = 0;
    float result;
    memcpy(&result, &bits, sizeof result);
    unsigned n_plies = data_get_u16(b + 4);
    if (!data_result_ok(result)) {
        data_say(what, wlen, "its result %g is outside [0, 1]", (double)result);
        return -1;
    }
    if (n_plies > DATA_MAX_PLIES) {
        data_say(what, wlen, "it has %u plies, more than the %d a game may hold", n_plies,
                 DATA_MAX_PLIES);
        return -1;
    }
    for (unsigned i = 0; i < n_plies; i++) {
        if (size - pos < DATA_PLY_SIZE) {
            data_say(what, wlen,
                     "its length (%u bytes) does not match its content: it ends inside ply %u "
                     "of %u",
                     (unsigned)size, i + 1, n_plies);
            return -1;
        }
        unsigned flags = b[pos + 2], n = data_get_u16(b + pos + 3);
        if (flags & ~1u) {
            data_say(what, wlen, "ply %u has flag bits 0x%02x that no version 1 file sets", i + 1,
                     flags);
            return -1;
        }
        if (n > DATA_MAX_ENTRIES) {
            data_say(what, wlen, "ply %u has %u visit entries, more than the %d a ply may hold",
                     i + 1, n, DATA_MAX_ENTRIES);
            return -1;
        }
        if ((flags & 1) && n == 0) {
            data_say(what, wlen, "ply %u is a policy target with no visits", i + 1);
            return -1;
        }
        pos += DATA_PLY_SIZE;
        if ((size - pos) / DATA_ENTRY_SIZE < n) {
            data_say(what, wlen,
                     "its length (%u bytes) does not match its content: it ends inside the "
                     "visits of ply %u",
                     (unsigned)size, i + 1);
            return -1;
        }
        pos += n * DATA_ENTRY_SIZE;
        total += n;
    }
    if (pos != size) {
        data_say(what, wlen,
                 "its length (%u bytes) does not match its content: its plies end after %u "
                 "bytes",
                 (unsigned)size, (unsigned)pos);
        return -1;
    }
    *entries = total;
    return 0;
}

/* Fills gm from a body data_body_scan found sound, with entries entries. */
static int data_body_fill(data_game *gm, const uint8_t *b, uint32_t entries)
{
    uint32_t bits = data_get_u32(b), pos = DATA_BODY_MIN, k = 0;
    int n_plies = data_get_u16(b + 4);
    memset(gm, 0, sizeof *gm);
    memcpy(&gm->result, &bits, sizeof gm->result);
    /* calloc of 0 may give NULL; a game with nothing in an array keeps NULL. */
    if (n_plies > 0 && !(gm->plies = calloc((size_t)n_plies, sizeof *gm->plies)))
        return -1;
    if (entries > 0 && (!(gm->moves = malloc(entries * sizeof *gm->moves)) ||
                        !(gm->visits = malloc(entries * sizeof *gm->visits)))) {
        data_game_free(gm);
        return -1;
    }
    gm->n_plies = n_plies;
    gm->cap_plies = (uint32_t)n_plies;
    gm->n_entries = gm->cap_entries = entries;
    for (int i = 0; i < n_plies; i++) {
        data_ply *p = &gm->plies[i];
        p->move = data_get_u16(b + pos);
        p->target = b[pos + 2] & 1;
        p->n = data_get_u16(b + pos + 3);
        p->offset = k;
        pos += DATA_PLY_SIZE;
        for (unsigned e = 0; e < p->n; e++, k++, pos += DATA_ENTRY_SIZE) {
            gm->moves[k] = data_get_u16(b + pos);
            gm->visits[k] = data_get_u32(b + pos + 2);
        }
    }
    return 0;
}

/* Checks the header; returns 0, or -1 with a sentence in why. */
static int data_header_check(const uint8_t *b, size_t size, char *why, size_t len)
{
    if (size == 0) {
        data_say(why, len, "the file is empty: it is not a self-play records file");
        return -1;
    }
    if (memcmp(b, DATA_MAGIC, size < 8 ? size : 8) != 0) {
        data_say(why, len,
                 "not a self-play records file: it does not start with \"" DATA_MAGIC "\"");
        return -1;
    }
    if (size >= 12 && data_get_u32(b + 8) != DATA_VERSION) {
        /* Checked before the rest: another version may lay its header out
         * otherwise. */
        data_say(why, len, "the file has schema version %u, and this build reads version %d only",
                 (unsigned)data_get_u32(b + 8), DATA_VERSION);
        return -1;
    }
    if (size < DATA_HEADER_SIZE) {
        data_say(why, len, "the header is cut short: the file has %zu bytes of its %d", size,
                 DATA_HEADER_SIZE);
        return -1;
    }
    uint32_t stored = data_get_u32(b + DATA_HEADER_SIZE - 4);
    uint32_t crc = data_crc32(b, DATA_HEADER_SIZE - 4);
    if (stored != crc) {
        data_say(why, len,
                 "the header is damaged: it fails its checksum (stored %08x, computed %08x)",
                 (unsigned)stored, (unsigned)crc);
        return -1;
    }
    static const struct {
        size_t at, size;
        const char *name;
    } fields[2] = {{12, DATA_GAME_LEN, "game name"},
                   {12 + DATA_GAME_LEN, DATA_PARAMS_LEN, "rule parameters"}};
    for (int i = 0; i < 2; i++) {
        const uint8_t *s = b + fields[i].at;
        const uint8_t *end = memchr(s, 0, fields[i].size);
        if (!end) {
            data_say(why, len, "the header's %s is not NUL-terminated", fields[i].name);
            return -1;
        }
        for (const uint8_t *q = end; q < s + fields[i].size; q++)
            if (*q) {
                data_say(why, len, "the header's %s is not NUL-padded: bytes follow its end",
                         fields[i].name);
                return -1;
            }
    }
    return 0;
}

/* Ends the reading at a bad block: the sentence names the game, where it
 * starts, what is wrong and what is kept. */
static void data_damaged(data_file *out, size_t at, const char *what, char *why, size_t len)
{
    int n = out->n_games;
    out->damaged = true;
    if (n == 0)
        data_say(why, len, "game 1 at byte %zu %s; there is no game before it", at, what);
    else if (n == 1)
        data_say(why, len, "game 2 at byte %zu %s; the game before it is kept", at, what);
    else
        data_say(why, len, "game %d at byte %zu %s; the %d games before it are kept", n + 1, at,
                 what, n);
}

int data_read_mem(const void *buf, size_t size, data_file *out, char *why, size_t len)
{
    const uint8_t *b = buf;
    int cap = 0;
    char what[192];
    memset(out, 0, sizeof *out);
    data_say(why, len, "%s", "");
    if (!b && size > 0) {
        data_say(why, len, "no bytes to read");
        return -1;
    }
    if (data_header_check(b, size, why, len) != 0)
        return -1;
    memcpy(out->game, b + 12, DATA_GAME_LEN);
    memcpy(out->params, b + 12 + DATA_GAME_LEN, DATA_PARAMS_LEN);
    size_t pos = DATA_HEADER_SIZE;
    while (pos < size) {
        size_t left = size - pos;
        if (left < 4 || (left < 8 && !memcmp(b + pos, DATA_BLOCK_MAGIC, 4))) {
            data_damaged(out, pos, "is cut short: the file ends inside it", why, len);
            break;
        }
        if (memcmp(b + pos, DATA_BLOCK_MAGIC, 4) != 0) {
            data_damaged(out, pos, "does not start with the block magic \"" DATA_BLOCK_MAGIC "\"",
                         why, len);
            break;
        }
        uint32_t body = data_get_u32(b + pos + 4);
        if (body < DATA_BODY_MIN || body > DATA_BODY_MAX) {
            data_say(what, sizeof what, "claims a body of %u bytes, which no game has (%d to %u)",
                     (unsigned)body, DATA_BODY_MIN, (unsigned)DATA_BODY_MAX);
            data_damaged(out, pos, what, why, len);
            break;
        }
        /* The length is checked against the bytes there before anything
         * is allocated for it. */
        if (left - 8 < (size_t)body + 4) {
            data_damaged(out, pos, "is cut short: the file ends inside it", why, len);
            break;
        }
        const uint8_t *bb = b + pos + 8;
        uint32_t stored = data_get_u32(bb + body), crc = data_crc32(bb, body), entries = 0;
        if (stored != crc) {
            data_say(what, sizeof what, "fails its checksum (stored %08x, computed %08x)",
                     (unsigned)stored, (unsigned)crc);
            data_damaged(out, pos, what, why, len);
            break;
        }
        char inner[160];
        if (data_body_scan(bb, body, &entries, inner, sizeof inner) != 0) {
            data_say(what, sizeof what, "is inconsistent: %s", inner);
            data_damaged(out, pos, what, why, len);
            break;
        }
        if (out->n_games == cap) {
            /* Doubling, though never past one game per smallest block left. */
            size_t most = (size_t)out->n_games + left / (DATA_BLOCK_EXTRA + DATA_BODY_MIN);
            size_t want = cap ? 2 * (size_t)cap : 8;
            if (want > most)
                want = most;
            if (want > (size_t)INT32_MAX)
                want = INT32_MAX;
            data_game *games = want > (size_t)cap ? realloc(out->games, want * sizeof *games) : 0;
            if (!games) {
                data_say(why, len, "out of memory reading game %d", out->n_games + 1);
                data_file_free(out);
                return -1;
            }
            out->games = games;
            cap = (int)want;
        }
        if (data_body_fill(&out->games[out->n_games], bb, entries) != 0) {
            data_say(why, len, "out of memory reading game %d", out->n_games + 1);
            data_file_free(out);
            return -1;
        }
        out->n_games++;
        pos += (size_t)body + DATA_BLOCK_EXTRA;
    }
    return 0;
}

/* Prefixes why with "path: ". */
static void data_prefix(const char *path, const char *inner, char *why, size_t len)
{
    if (inner[0])
        data_say(why, len, "%s: %s", path, inner);
}

int data_read(const char *path, data_file *out, char *why, size_t len)
{
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    /* size_t may be narrower than the limit on a 32-bit machine. */
    size_t limit = (uint64_t)SIZE_MAX / 2 < DATA_FILE_MAX ? SIZE_MAX / 2 : (size_t)DATA_FILE_MAX;
    memset(out, 0, sizeof *out);
    data_say(why, len, "%s", "");
    if (!path) {
        data_say(why, len, "no records file named");
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        data_say(why, len, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (n == cap) {
            if (cap > limit) {
                data_say(why, len, "%s is larger than %llu GiB, the most a records file may be",
                         path, (unsigned long long)(DATA_FILE_MAX >> 30));
                goto fail;
            }
            /* One byte past the limit tells a file of exactly the limit
             * from a larger one. */
            size_t want = cap ? (cap > limit / 2 ? limit + 1 : 2 * cap) : 65536;
            uint8_t *bigger = realloc(buf, want);
            if (!bigger) {
                data_say(why, len, "out of memory reading %s (%zu bytes so far)", path, n);
                goto fail;
            }
            buf = bigger;
            cap = want;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        data_say(why, len, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
        goto fail;
    }
    fclose(f);
    char inner[512];
    int rc = data_read_mem(buf, n, out, inner, sizeof inner);
    data_prefix(path, inner, why, len);
    free(buf);
    return rc;
fail:
    fclose(f);
    free(buf);
    return -1;
}
