/*
 * test_data.c - the self-play records file of net/data.c: games written and
 * read back exactly, the byte layout and its CRC-32, a file cut at every
 * length and damaged at every bit of its games (the games before the damage
 * kept, the rest refused with a sentence), headers refused with the reason,
 * blocks whose checksum is right but whose content is not, the writer's
 * limits, and the errors of opening, reading and writing files.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data.h"
#include "t.h"

#define DATA_TEST_HEADER 176 /* The header's size in data.c's layout. */

/* ---- Helpers ---- */

/* CRC-32 one bit at a time, written apart from data.c's table-driven one,
 * so that the two check each other. */
static uint32_t data_test_crc(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t data_test_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void data_test_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A scratch directory under /tmp, and a file in it. */
typedef struct data_test_dir {
    char dir[64], path[128];
} data_test_dir;

static bool data_test_mkdir(data_test_dir *d)
{
    strcpy(d->dir, "/tmp/banyan-data-XXXXXX");
    if (!mkdtemp(d->dir))
        return false;
    snprintf(d->path, sizeof d->path, "%s/games.bin", d->dir);
    return true;
}

static void data_test_rmdir(data_test_dir *d)
{
    remove(d->path);
    rmdir(d->dir);
}

/* Game g of the sample set: plies of every kind (targets with visits,
 * plain moves with and without visits), results 1, 0.5 and 0.25. */
static void data_test_game(data_game *gm, int g)
{
    static const float results[3] = {1.0f, 0.5f, 0.25f};
    uint16_t moves[40];
    uint32_t visits[40];
    data_game_begin(gm);
    gm->result = results[g % 3];
    for (int i = 0; i < 5 + 3 * g; i++) {
        int n = (i * 7 + g) % 40;
        for (int k = 0; k < n; k++) {
            moves[k] = (uint16_t)(k * 13 + i + 65000 * (k == 0));
            visits[k] = (uint32_t)(k * 1000003u + (uint32_t)g) ^ (k == 1 ? 0xfffffff0u : 0u);
        }
        bool target = n > 0 && i % 3 != 2;
        T_EQ(data_game_ply(gm, (uint16_t)(i * 31 + g), target, moves, visits, n), 0);
    }
}

/* Whether two games hold the same plies, entries and result. */
static bool data_test_same(const data_game *a, const data_game *b)
{
    if (a->n_plies != b->n_plies || a->n_entries != b->n_entries ||
        memcmp(&a->result, &b->result, sizeof a->result) != 0)
        return false;
    for (int i = 0; i < a->n_plies; i++) {
        const data_ply *p = &a->plies[i], *q = &b->plies[i];
        if (p->move != q->move || p->target != q->target || p->n != q->n)
            return false;
        for (int k = 0; k < p->n; k++)
            if (a->moves[p->offset + k] != b->moves[q->offset + k] ||
                a->visits[p->offset + k] != b->visits[q->offset + k])
                return false;
    }
    return true;
}

/* Writes the header and n sample games into memory: the bytes in *buf
 * (the caller frees them), and in ends[g] where game g's block ends. */
static size_t data_test_file(uint8_t **buf, int n, size_t *ends)
{
    char *text = NULL, why[256];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    T_TRUE(f != NULL);
    if (!f)
        return 0;
    T_EQ(data_write_header(f, "gomoku", "size=15 rule=renju", why, sizeof why), 0);
    for (int g = 0; g < n; g++) {
        data_game gm;
        data_test_game(&gm, g);
        T_EQ(data_write_game(f, &gm, why, sizeof why), 0);
        fflush(f);
        if (ends)
            ends[g] = size;
        data_game_free(&gm);
    }
    fclose(f);
    *buf = (uint8_t *)text;
    return size;
}

/* Whether a refused read left *f zeroed. */
static bool data_test_zeroed(const data_file *f)
{
    data_file z;
    memset(&z, 0, sizeof z);
    return !memcmp(f, &z, sizeof z);
}

/* A header (with its right checksum) and one block around the body given,
 * with the right CRC: a block whose content alone is wrong. */
static size_t data_test_craft(uint8_t *out, const uint8_t *body, uint32_t n)
{
    memset(out, 0, DATA_TEST_HEADER);
    memcpy(out, "BANYANSP", 8);
    data_test_put32(out + 8, DATA_VERSION);
    memcpy(out + 12, "connect4", 8);
    data_test_put32(out + 172, data_test_crc(out, 172));
    uint8_t *b = out + DATA_TEST_HEADER;
    memcpy(b, "GAME", 4);
    data_test_put32(b + 4, n);
    memcpy(b + 8, body, n);
    data_test_put32(b + 8 + n, data_test_crc(body, n));
    return DATA_TEST_HEADER + 12 + (size_t)n;
}

/* ---- Tests ---- */

void test_data_roundtrip(void)
{
    data_test_dir d;
    char why[512];
    data_file in;
    T_TRUE(data_test_mkdir(&d));
    FILE *f = fopen(d.path, "wb");
    T_TRUE(f != NULL);
    if (!f)
        return;
    T_EQ(data_write_header(f, "othello", "x=1", why, sizeof why), 0);
    T_STR(why, "");
    for (int g = 0; g < 4; g++) {
        data_game gm;
        data_test_game(&gm, g);
        T_EQ(data_write_game(f, &gm, why, sizeof why), 0);
        data_game_free(&gm);
    }
    /* An empty game (no plies) is a game too. */
    data_game empty;
    data_game_begin(&empty);
    T_EQ(data_write_game(f, &empty, why, sizeof why), 0);
    fclose(f);

    T_EQ(data_read(d.path, &in, why, sizeof why), 0);
    T_STR(why, "");
    T_STR(in.game, "othello");
    T_STR(in.params, "x=1");
    T_TRUE(!in.damaged);
    T_EQ(in.n_games, 5);
    for (int g = 0; g < 4 && g < in.n_games; g++) {
        data_game gm;
        data_test_game(&gm, g);
        T_TRUE(data_test_same(&gm, &in.games[g]));
        /* The reader lays each game's entries out ply after ply. */
        uint32_t at = 0;
        for (int i = 0; i < in.games[g].n_plies; i++) {
            T_EQ(in.games[g].plies[i].offset, at);
            at += in.games[g].plies[i].n;
        }
        T_EQ(at, in.games[g].n_entries);
        data_game_free(&gm);
    }
    T_TRUE(in.n_games == 5 && data_test_same(&empty, &in.games[4]));
    /* A spot check with literal values: game 0's second ply. */
    if (in.n_games > 0) {
        const data_game *g0 = &in.games[0];
        T_EQ(g0->result, 1);
        T_EQ(g0->plies[1].move, 31);
        T_TRUE(g0->plies[1].target);
        T_EQ(g0->plies[1].n, 7);
        T_EQ(g0->moves[g0->plies[1].offset], 65001);
        T_EQ(g0->visits[g0->plies[1].offset + 1], 1000003u ^ 0xfffffff0u);
        T_EQ(g0->plies[2].n, 14);
        T_TRUE(!g0->plies[2].target);
        T_EQ(g0->plies[0].n, 0);
        T_TRUE(!g0->plies[0].target);
    }
    data_file_free(&in);
    T_TRUE(data_test_zeroed(&in));
    data_file_free(&in); /* Safe twice, and on a zeroed struct. */
    data_game_free(&empty);
    data_game_free(&empty);

    /* A file larger than data_read's first buffer (64 KiB), read whole. */
    uint8_t *buf = NULL;
    size_t ends[40];
    size_t size = data_test_file(&buf, 40, ends);
    T_TRUE(size > 4 * 65536);
    f = fopen(d.path, "wb");
    T_TRUE(f != NULL && buf != NULL);
    if (f && buf) {
        T_EQ(fwrite(buf, 1, size, f), size);
        fclose(f);
        T_EQ(data_read(d.path, &in, why, sizeof why), 0);
        T_TRUE(!in.damaged);
        T_EQ(in.n_games, 40);
        for (int g = 0; g < in.n_games; g++) {
            data_game gm;
            data_test_game(&gm, g);
            T_TRUE(data_test_same(&gm, &in.games[g]));
            data_game_free(&gm);
        }
        data_file_free(&in);
    } else if (f) {
        fclose(f);
    }
    free(buf);
    data_test_rmdir(&d);
}

void test_data_layout(void)
{
    uint8_t *buf = NULL;
    size_t ends[2];
    size_t size = data_test_file(&buf, 2, ends);
    static const uint8_t check[] = "123456789";
    /* zlib's check value: the CRC-32 of the reference is the right one. */
    T_EQ(data_test_crc(check, 9), 0xcbf43926u);
    T_TRUE(size == ends[1] && size > DATA_TEST_HEADER + 24);
    if (!buf || size < DATA_TEST_HEADER + 24) {
        free(buf);
        return;
    }
    T_TRUE(!memcmp(buf, "BANYANSP", 8));
    T_EQ(data_test_get32(buf + 8), 1);
    T_STR((char *)buf + 12, "gomoku");
    T_STR((char *)buf + 44, "size=15 rule=renju");
    for (int i = 12 + 6; i < 44; i++)
        T_EQ(buf[i], 0);
    T_EQ(data_test_get32(buf + 172), data_test_crc(buf, 172));
    /* Game 0: five plies of 0, 7, 14, 21 and 28 entries. */
    const uint8_t *b = buf + DATA_TEST_HEADER;
    uint32_t body = data_test_get32(b + 4);
    T_TRUE(!memcmp(b, "GAME", 4));
    T_EQ(body, 6 + 5 * 5 + (0 + 7 + 14 + 21 + 28) * 6);
    T_EQ(DATA_TEST_HEADER + 12 + body, ends[0]);
    T_EQ(data_test_get32(b + 8), 0x3f800000u); /* 1.0f */
    T_EQ(b[12] | b[13] << 8, 5);
    T_EQ(b[14] | b[15] << 8, 0); /* Ply 1: move 0, */
    T_EQ(b[16], 0);              /* not a target, */
    T_EQ(b[17] | b[18] << 8, 0); /* no entries. */
    T_EQ(b[19] | b[20] << 8, 31);
    T_EQ(b[21], 1);
    T_EQ(b[22] | b[23] << 8, 7);
    T_EQ(b[24] | b[25] << 8, 65001);
    T_EQ(data_test_get32(b + 8 + body), data_test_crc(b + 8, body));
    free(buf);
}

void test_data_cut_everywhere(void)
{
    uint8_t *buf = NULL;
    size_t ends[3];
    size_t size = data_test_file(&buf, 3, ends);
    char why[512];
    data_game games[3];
    for (int g = 0; g < 3; g++)
        data_test_game(&games[g], g);
    for (size_t cut = 0; cut < size; cut++) {
        data_file f;
        uint8_t *part = malloc(cut ? cut : 1);
        if (!part)
            break;
        memcpy(part, buf, cut);
        int rc = data_read_mem(part, cut, &f, why, sizeof why);
        if (cut < DATA_TEST_HEADER) {
            T_EQ(rc, -1);
            T_TRUE(data_test_zeroed(&f));
            T_TRUE(why[0] != 0);
            T_TRUE(strstr(why, cut ? "cut short" : "empty") != NULL);
        } else {
            int whole = 0;
            bool boundary = cut == DATA_TEST_HEADER;
            for (int g = 0; g < 3; g++) {
                whole += ends[g] <= cut;
                boundary |= ends[g] == cut;
            }
            T_EQ(rc, 0);
            T_EQ(f.n_games, whole);
            T_EQ(f.damaged, !boundary);
            T_TRUE(boundary ? why[0] == 0 : strstr(why, "is cut short") != NULL);
            if (!boundary) {
                char said[64];
                snprintf(said, sizeof said, "game %d at byte %zu", whole + 1,
                         whole ? ends[whole - 1] : (size_t)DATA_TEST_HEADER);
                T_TRUE(strstr(why, said) != NULL);
            }
            for (int g = 0; g < f.n_games; g++)
                T_TRUE(data_test_same(&games[g], &f.games[g]));
            if (t_failed) {
                fprintf(stderr, "cut at %zu of %zu: %s\n", cut, size, why);
                data_file_free(&f);
                free(part);
                break;
            }
        }
        data_file_free(&f);
        free(part);
    }
    for (int g = 0; g < 3; g++)
        data_game_free(&games[g]);
    free(buf);
}

void test_data_bit_flips(void)
{
    uint8_t *buf = NULL;
    size_t ends[3];
    size_t size = data_test_file(&buf, 3, ends);
    char why[512];
    data_game games[3];
    for (int g = 0; g < 3; g++)
        data_test_game(&games[g], g);
    /* Every bit of every block: the game is refused, the ones before kept. */
    for (int g = 0; g < 3 && !t_failed; g++) {
        size_t start = g ? ends[g - 1] : DATA_TEST_HEADER;
        for (size_t at = start; at < ends[g] && !t_failed; at++) {
            for (int bit = 0; bit < 8; bit++) {
                data_file f;
                buf[at] ^= (uint8_t)(1u << bit);
                T_EQ(data_read_mem(buf, size, &f, why, sizeof why), 0);
                buf[at] ^= (uint8_t)(1u << bit);
                T_TRUE(f.damaged);
                T_EQ(f.n_games, g);
                for (int k = 0; k < f.n_games; k++)
                    T_TRUE(data_test_same(&games[k], &f.games[k]));
                char said[64];
                snprintf(said, sizeof said, "game %d at byte %zu", g + 1, start);
                T_TRUE(strstr(why, said) != NULL);
                /* A bit of the body or of its CRC fails the checksum. */
                if (at >= start + 8)
                    T_TRUE(strstr(why, "checksum") != NULL);
                if (at < start + 4)
                    T_TRUE(strstr(why, "magic") != NULL);
                data_file_free(&f);
                if (t_failed) {
                    fprintf(stderr, "bit %d of byte %zu: %s\n", bit, at, why);
                    break;
                }
            }
        }
    }
    /* A flipped bit in the header refuses the whole file. */
    for (size_t at = 12; at < DATA_TEST_HEADER; at += 7) {
        data_file f;
        buf[at] ^= 4;
        T_EQ(data_read_mem(buf, size, &f, why, sizeof why), -1);
        buf[at] ^= 4;
        T_TRUE(data_test_zeroed(&f));
        T_TRUE(strstr(why, "checksum") != NULL);
    }
    for (int g = 0; g < 3; g++)
        data_game_free(&games[g]);
    free(buf);
}

void test_data_header_refusals(void)
{
    uint8_t *buf = NULL;
    size_t size = data_test_file(&buf, 2, NULL);
    char why[512];
    data_file f;
    if (!buf)
        return;

    buf[0] = 'b';
    memset(&f, 0xa5, sizeof f);
    T_EQ(data_read_mem(buf, size, &f, why, sizeof why), -1);
    T_TRUE(data_test_zeroed(&f));
    T_TRUE(strstr(why, "not a self-play records file") != NULL);
    T_TRUE(strstr(why, "BANYANSP") != NULL);
    buf[0] = 'B';

    /* Version 2: refused before its checksum, saying which one this reads. */
    buf[8] = 2;
    memset(&f, 0xa5, sizeof f);
    T_EQ(data_read_mem(buf, size, &f, why, sizeof why), -1);
    T_TRUE(data_test_zeroed(&f));
    T_TRUE(strstr(why, "schema version 2") != NULL);
    T_TRUE(strstr(why, "reads version 1 only") != NULL);
    buf[8] = 1;
    buf[11] = 0x80; /* Version 0x80000001: every byte of the field counts. */
    T_EQ(data_read_mem(buf, size, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "schema version 2147483649") != NULL);
    buf[11] = 0;

    /* Header checksum. */
    buf[60] ^= 1;
    T_EQ(data_read_mem(buf, size, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "header is damaged") != NULL && strstr(why, "checksum") != NULL);
    buf[60] ^= 1;
    buf[172] ^= 0x10;
    T_EQ(data_read_mem(buf, size, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "checksum") != NULL);
    buf[172] ^= 0x10;

    /* Strings without their NUL, or with bytes after it, checksum right. */
    uint8_t h[DATA_TEST_HEADER];
    memcpy(h, buf, sizeof h);
    memset(h + 12, 'x', 32);
    data_test_put32(h + 172, data_test_crc(h, 172));
    T_EQ(data_read_mem(h, sizeof h, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "game name is not NUL-terminated") != NULL);
    memcpy(h, buf, sizeof h);
    memset(h + 44, 'y', 128);
    data_test_put32(h + 172, data_test_crc(h, 172));
    T_EQ(data_read_mem(h, sizeof h, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "rule parameters is not NUL-terminated") != NULL);
    memcpy(h, buf, sizeof h);
    h[40] = 'z';
    data_test_put32(h + 172, data_test_crc(h, 172));
    T_EQ(data_read_mem(h, sizeof h, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "not NUL-padded") != NULL);

    /* Empty, and too short to hold a header. */
    T_EQ(data_read_mem(buf, 0, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "empty") != NULL);
    T_EQ(data_read_mem(NULL, 0, &f, why, sizeof why), -1);
    T_EQ(data_read_mem(buf, 40, &f, why, sizeof why), -1);
    T_TRUE(strstr(why, "header is cut short") != NULL);
    T_TRUE(data_test_zeroed(&f));
    /* A header and nothing else is a file of no games. */
    T_EQ(data_read_mem(buf, DATA_TEST_HEADER, &f, why, sizeof why), 0);
    T_EQ(f.n_games, 0);
    T_TRUE(!f.damaged);
    T_STR(f.game, "gomoku");
    data_file_free(&f);
    /* No room for a sentence is no reason to fail. */
    T_EQ(data_read_mem(buf, size, &f, NULL, 0), 0);
    T_EQ(f.n_games, 2);
    data_file_free(&f);
    buf[0] = 0;
    T_EQ(data_read_mem(buf, size, &f, why, 1), -1);
    T_STR(why, "");
    free(buf);
}

void test_data_block_content(void)
{
    uint8_t body[64], file[DATA_TEST_HEADER + 12 + 64];
    char why[512];
    data_file f;
    size_t n;

    /* A sound one first: result 0.5, one target ply of one entry. */
    static const uint8_t good[] = {0, 0, 0, 0x3f, 1, 0, 9, 0, 1, 1, 0, 4, 0, 7, 0, 0, 0};
    n = data_test_craft(file, good, sizeof good);
    T_EQ(data_read_mem(file, n, &f, why, sizeof why), 0);
    T_TRUE(!f.damaged && f.n_games == 1);
    if (f.n_games == 1) {
        T_EQ(f.games[0].result * 2, 1);
        T_EQ(f.games[0].plies[0].move, 9);
        T_EQ(f.games[0].moves[0], 4);
        T_EQ(f.games[0].visits[0], 7);
    }
    data_file_free(&f);

    /* Each case patches one or two bytes of the sound body. */
    static const struct {
        int at[2];
        uint8_t value[2];
        const char *said;
    } cases[] = {
        {{2, 3}, {0xc0, 0x7f}, "outside [0, 1]"},          /* result NaN (0x7fc00000) */
        {{2, 3}, {0x80, 0x7f}, "outside [0, 1]"},          /* result infinity */
        {{3, -1}, {0xbf, 0}, "outside [0, 1]"},            /* result -0.5 */
        {{3, -1}, {0x40, 0}, "outside [0, 1]"},            /* result 2 */
        {{4, 5}, {0x01, 0x10}, "more than the 4096"},      /* 4097 plies */
        {{8, -1}, {3, 0}, "flag bits 0x03"},               /* a flag bit no file sets */
        {{9, 10}, {0x01, 0x04}, "more than the 1024"},     /* 1025 entries */
        {{8, 9}, {0, 0}, "plies end after 11 bytes"},      /* no entries, their bytes there */
        {{4, -1}, {2, 0}, "ends inside ply 2 of 2"},       /* two plies, bytes for one */
        {{9, -1}, {2, 0}, "ends inside the visits of ply"} /* two entries, bytes for one */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(body, good, sizeof good);
        for (int k = 0; k < 2; k++)
            if (cases[c].at[k] >= 0)
                body[cases[c].at[k]] = cases[c].value[k];
        n = data_test_craft(file, body, sizeof good);
        T_EQ(data_read_mem(file, n, &f, why, sizeof why), 0);
        T_TRUE(f.damaged);
        T_EQ(f.n_games, 0);
        T_TRUE(strstr(why, "game 1 at byte 176 is inconsistent") != NULL);
        if (!strstr(why, cases[c].said))
            T_FAIL_AT("case %zu: \"%s\" does not say \"%s\"", c, why, cases[c].said);
        data_file_free(&f);
    }

    /* A target ply with no visits. */
    static const uint8_t target0[] = {0, 0, 0x80, 0x3f, 1, 0, 9, 0, 1, 0, 0};
    n = data_test_craft(file, target0, sizeof target0);
    T_EQ(data_read_mem(file, n, &f, why, sizeof why), 0);
    T_TRUE(f.damaged && strstr(why, "policy target with no visits") != NULL);
    data_file_free(&f);
    /* A byte more than the plies take. */
    uint8_t longer[sizeof good + 1];
    memcpy(longer, good, sizeof good);
    longer[sizeof good] = 0;
    n = data_test_craft(file, longer, sizeof longer);
    T_EQ(data_read_mem(file, n, &f, why, sizeof why), 0);
    T_TRUE(f.damaged && strstr(why, "plies end after 17 bytes") != NULL);
    data_file_free(&f);

    /* Claimed lengths: too small for any game, larger than any game, and
     * larger than the file (huge, but nothing is allocated for it). */
    static const uint32_t claims[] = {5, 0xfffffff0u, 25186311u, 25186310u, 1000};
    static const char *const said[] = {"which no game has", "which no game has",
                                       "which no game has", "cut short", "cut short"};
    for (int c = 0; c < 5; c++) {
        n = data_test_craft(file, good, sizeof good);
        data_test_put32(file + DATA_TEST_HEADER + 4, claims[c]);
        T_EQ(data_read_mem(file, n, &f, why, sizeof why), 0);
        T_TRUE(f.damaged && f.n_games == 0);
        if (!strstr(why, said[c]))
            T_FAIL_AT("claim %u: \"%s\" does not say \"%s\"", (unsigned)claims[c], why, said[c]);
        data_file_free(&f);
    }
    /* Trailing bytes after a sound game: a block cut short, or not a block. */
    n = data_test_craft(file, good, sizeof good);
    memcpy(file + n, "GAM", 3);
    T_EQ(data_read_mem(file, n + 3, &f, why, sizeof why), 0);
    T_TRUE(f.damaged && f.n_games == 1 && strstr(why, "game 2 at byte") != NULL &&
           strstr(why, "cut short") && strstr(why, "the game before it is kept"));
    data_file_free(&f);
    memcpy(file + n, "JUNK", 4);
    T_EQ(data_read_mem(file, n + 4, &f, why, sizeof why), 0);
    T_TRUE(f.damaged && f.n_games == 1 && strstr(why, "block magic") != NULL);
    data_file_free(&f);
}

void test_data_writer_limits(void)
{
    uint16_t *moves = calloc(DATA_MAX_ENTRIES + 1, sizeof *moves);
    uint32_t *visits = calloc(DATA_MAX_ENTRIES + 1, sizeof *visits);
    char why[512];
    data_game gm;
    T_TRUE(moves && visits);
    if (!moves || !visits) {
        free(moves);
        free(visits);
        return;
    }
    for (int k = 0; k <= DATA_MAX_ENTRIES; k++) {
        moves[k] = (uint16_t)k;
        visits[k] = (uint32_t)k * 3u;
    }
    data_game_begin(&gm);
    T_EQ(data_game_ply(&gm, 1, true, moves, visits, DATA_MAX_ENTRIES + 1), -1);
    T_EQ(data_game_ply(&gm, 1, true, moves, visits, -1), -1);
    T_EQ(data_game_ply(&gm, 1, true, moves, visits, 0), -1); /* A target needs visits. */
    T_EQ(data_game_ply(&gm, 1, true, NULL, visits, 3), -1);
    T_EQ(gm.n_plies, 0); /* A refused ply leaves nothing. */
    T_EQ(gm.n_entries, 0);
    T_EQ(data_game_ply(&gm, 1, true, moves, visits, DATA_MAX_ENTRIES), 0);
    T_EQ(data_game_ply(&gm, 2, false, NULL, NULL, 0), 0);
    for (int i = 2; i < DATA_MAX_PLIES; i++)
        T_EQ(data_game_ply(&gm, (uint16_t)i, i % 2, moves, visits, i % 2), 0);
    T_EQ(gm.n_plies, DATA_MAX_PLIES);
    T_EQ(data_game_ply(&gm, 7, false, NULL, NULL, 0), -1);
    T_EQ(gm.n_plies, DATA_MAX_PLIES);

    /* The largest game round-trips, through a file in memory. */
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    T_TRUE(f != NULL);
    if (f) {
        gm.result = 0;
        T_EQ(data_write_header(f, "g", "", why, sizeof why), 0);
        T_EQ(data_write_game(f, &gm, why, sizeof why), 0);
        /* A result the reader would refuse is not written. */
        gm.result = NAN;
        T_EQ(data_write_game(f, &gm, why, sizeof why), -1);
        T_TRUE(strstr(why, "outside [0, 1]") != NULL);
        gm.result = 1.0001f;
        T_EQ(data_write_game(f, &gm, why, sizeof why), -1);
        gm.result = 0;
        fclose(f);
        data_file in;
        T_EQ(data_read_mem(text, size, &in, why, sizeof why), 0);
        T_TRUE(in.n_games == 1 && !in.damaged && data_test_same(&gm, &in.games[0]));
        data_file_free(&in);
        free(text);
    }
    data_game_free(&gm);

    /* Names too long for the header. */
    char name[200];
    memset(name, 'a', sizeof name);
    name[32] = 0;
    T_EQ(data_write_header(stdout, name, "", why, sizeof why), -1);
    T_TRUE(strstr(why, "game name") != NULL);
    name[32] = 'a';
    name[128] = 0;
    T_EQ(data_write_header(stdout, "g", name, why, sizeof why), -1);
    T_TRUE(strstr(why, "rule parameters") != NULL);
    /* A ply whose entries lie outside the game's. */
    data_ply bad = {.move = 1, .target = true, .n = 2, .offset = 5};
    uint16_t m2[2] = {1, 2};
    uint32_t v2[2] = {3, 4};
    data_game odd = {.n_plies = 1, .plies = &bad, .moves = m2, .visits = v2, .n_entries = 2};
    T_EQ(data_write_game(stdout, &odd, why, sizeof why), -1);
    T_TRUE(strstr(why, "outside the game's") != NULL);
    free(moves);
    free(visits);
}

void test_data_file_errors(void)
{
    data_test_dir d;
    char why[512], missing[160];
    data_file in;
    T_TRUE(data_test_mkdir(&d));
    snprintf(missing, sizeof missing, "%s/no-such-file.bin", d.dir);
    memset(&in, 0x5a, sizeof in);
    T_EQ(data_read(missing, &in, why, sizeof why), -1);
    T_TRUE(data_test_zeroed(&in));
    T_TRUE(strstr(why, missing) != NULL);
    T_TRUE(strstr(why, strerror(ENOENT)) != NULL);

    /* A directory opens but does not read. */
    T_EQ(data_read(d.dir, &in, why, sizeof why), -1);
    T_TRUE(strstr(why, d.dir) != NULL);

    /* Sentences of data_read_mem come with the path in front. */
    FILE *f = fopen(d.path, "wb");
    T_TRUE(f != NULL);
    if (f) {
        fputs("BANYANSQ and more", f);
        fclose(f);
    }
    T_EQ(data_read(d.path, &in, why, sizeof why), -1);
    T_TRUE(!strncmp(why, d.path, strlen(d.path)) && strstr(why, "BANYANSP") != NULL);

    /* A write to a file opened for reading fails, and says so. */
    f = fopen(d.path, "rb");
    T_TRUE(f != NULL);
    if (f) {
        data_game gm;
        uint16_t mv = 3;
        uint32_t vs = 10;
        data_game_begin(&gm);
        T_EQ(data_game_ply(&gm, 3, true, &mv, &vs, 1), 0);
        T_EQ(data_write_header(f, "g", "", why, sizeof why), -1);
        T_TRUE(strstr(why, "cannot write the header") != NULL);
        T_EQ(data_write_game(f, &gm, why, sizeof why), -1);
        T_TRUE(strstr(why, "cannot write a game") != NULL);
        fclose(f);
        /* A full disk: the write is buffered, the flush fails. */
        f = fopen("/dev/full", "wb");
        if (f) {
            T_EQ(data_write_header(f, "g", "", why, sizeof why), -1);
            T_TRUE(strstr(why, strerror(ENOSPC)) != NULL);
            clearerr(f);
            T_EQ(data_write_game(f, &gm, why, sizeof why), -1);
            T_TRUE(strstr(why, strerror(ENOSPC)) != NULL);
            fclose(f);
        }
        data_game_free(&gm);
    }

    /* A damaged file read from disk: the reason comes with the path. */
    uint8_t *buf = NULL;
    size_t ends[2];
    size_t size = data_test_file(&buf, 2, ends);
    f = fopen(d.path, "wb");
    T_TRUE(f != NULL && buf != NULL);
    if (f && buf) {
        fwrite(buf, 1, size - 1, f);
        fclose(f);
        T_EQ(data_read(d.path, &in, why, sizeof why), 0);
        T_TRUE(in.damaged && in.n_games == 1);
        T_TRUE(!strncmp(why, d.path, strlen(d.path)));
        T_TRUE(strstr(why, "game 2 at byte") && strstr(why, "cut short"));
        data_file_free(&in);
    } else if (f) {
        fclose(f);
    }
    free(buf);
    data_test_rmdir(&d);
}
