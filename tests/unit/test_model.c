/*
 * test_model.c - the network's files (net/model.c): network files and
 * checkpoints saved and loaded bit for bit, the byte layout pinned by
 * checksums computed outside this code, every refusal of a malformed file
 * with its sentence, every truncation and every flipped bit refused, and
 * failed saves that leave nothing behind.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nn.h"
#include "t.h"

/* The smallest network there is: 23 parameters, a 324-byte file. */
static const nn_shape test_model_tiny = {1, 1, 1, 1, 0, 1, 1};

/* A small network with a residual block. */
static const nn_shape test_model_small = {3, 2, 2, 3, 1, 7, 4};

/* The CRC-32 of zlib, bit by bit, to forge checksums of altered files. */
static uint32_t test_model_crc32(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
    }
    return ~crc;
}

static uint32_t test_model_get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_model_put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Rewrites the checksum that ends b[0..n) so that it holds again. */
static void test_model_reseal(unsigned char *b, size_t n)
{
    test_model_put_u32(b + n - 4, test_model_crc32(b, n - 4));
}

/* Rewrites both checksums of a checkpoint of np parameters in b[0..n). */
static void test_model_reseal_checkpoint(unsigned char *b, size_t n, size_t np)
{
    test_model_reseal(b + 16, 232 + 4 * np);
    test_model_reseal(b, n);
}

/* A network of shape s whose parameters are a deterministic mix of
 * magnitudes and signs, with -0, a subnormal and the largest float among
 * them, so that a round trip must keep every bit. */
static nn_net test_model_net(const nn_shape *s)
{
    nn_net net = {.shape = *s, .n_params = nn_param_count(s)};
    net.params = malloc(net.n_params * sizeof *net.params);
    T_TRUE(net.params != NULL);
    uint32_t x = 12345;
    for (size_t i = 0; net.params && i < net.n_params; i++) {
        x = x * 1103515245u + 12345u;
        net.params[i] = ((float)(x >> 8) / 16777216.0f - 0.5f) * (float)(1 + i % 7);
    }
    if (net.params && net.n_params > 3) {
        net.params[0] = -0.0f;
        net.params[1] = 1e-40f;
        net.params[2] = 3.4028235e38f;
    }
    return net;
}

static nn_meta test_model_meta(void)
{
    nn_meta m = {.game = "connect4",
                 .params = "width=7,height=6",
                 .generation = 42,
                 .train_steps = 123456789012ull};
    return m;
}

/* A scratch directory under /tmp; test_model_cleanup removes it. */
static void test_model_dir(char *dir)
{
    strcpy(dir, "/tmp/banyan-model-XXXXXX");
    T_TRUE(mkdtemp(dir) != NULL);
}

/* Removes every file in dir, then dir. */
static void test_model_cleanup(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The number of entries in dir besides . and .. */
static int test_model_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* The whole file at path in a new buffer (NULL when unreadable). */
static unsigned char *test_model_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    *size = 0;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        rewind(f);
        b = n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (b)
            *size = fread(b, 1, (size_t)n, f);
    }
    fclose(f);
    return b;
}

static void test_model_write(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    T_TRUE(f != NULL);
    if (f) {
        T_EQ(fwrite(b, 1, n, f), n);
        fclose(f);
    }
}

/* Whether net is empty, as a failed load must leave it. */
static int test_model_empty(const nn_net *net)
{
    return !net->params && !net->n_params;
}

static int test_model_empty_checkpoint(const nn_checkpoint *c)
{
    return test_model_empty(&c->net) && !c->adam_m && !c->adam_v && !c->step && !c->data_pos &&
           !c->meta.game[0];
}

/* Whether a and b have the same shape and bit-identical parameters. */
static int test_model_same(const nn_net *a, const nn_net *b)
{
    return !memcmp(&a->shape, &b->shape, sizeof a->shape) && a->n_params == b->n_params &&
           a->params && b->params && !memcmp(a->params, b->params, a->n_params * sizeof(float));
}

/* A checkpoint of shape s with moments and trainer state filled in. */
static nn_checkpoint test_model_checkpoint(const nn_shape *s)
{
    nn_checkpoint c = {.net = test_model_net(s),
                       .meta = test_model_meta(),
                       .step = 777,
                       .rng = {1, 0x8000000000000000ull, 0xdeadbeefcafef00dull, UINT64_MAX},
                       .data_pos = 987654321};
    size_t n = c.net.n_params;
    c.adam_m = malloc(n * sizeof(float));
    c.adam_v = malloc(n * sizeof(float));
    T_TRUE(c.adam_m && c.adam_v);
    for (size_t i = 0; c.adam_m && c.adam_v && i < n; i++) {
        c.adam_m[i] = (float)i * -0.001f;
        c.adam_v[i] = (float)(i * i) * 1e-7f;
    }
    return c;
}

/* Saves a network of shape s to dir/name and returns the file's bytes. */
static unsigned char *test_model_saved(const char *dir, const char *name, const nn_shape *s,
                                       size_t *size)
{
    char path[512], why[256] = "";
    nn_net net = test_model_net(s);
    nn_meta meta = test_model_meta();
    snprintf(path, sizeof path, "%s/%s", dir, name);
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), 0);
    free(net.params);
    return test_model_read(path, size);
}

static unsigned char *test_model_saved_checkpoint(const char *dir, const char *name,
                                                  const nn_shape *s, size_t *size)
{
    char path[512], why[256] = "";
    nn_checkpoint c = test_model_checkpoint(s);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    T_EQ(nn_checkpoint_save(path, &c, why, sizeof why), 0);
    nn_checkpoint_free(&c);
    return test_model_read(path, size);
}

/* Loads b[0..n) as a network: it must be refused with a sentence holding
 * phrase, and leave the network and meta empty. */
static void test_model_refused(const unsigned char *b, size_t n, const char *phrase)
{
    char why[512] = "";
    nn_net net;
    nn_meta meta;
    memset(&meta, 0x5a, sizeof meta);
    T_EQ(nn_load_mem(b, n, &net, &meta, why, sizeof why), -1);
    T_TRUE(test_model_empty(&net));
    T_TRUE(!meta.game[0] && !meta.params[0] && !meta.generation);
    if (!strstr(why, phrase))
        T_FAIL_AT("\"%s\" does not say \"%s\"", why, phrase);
    nn_free(&net);
}

static void test_model_refused_checkpoint(const unsigned char *b, size_t n, const char *phrase)
{
    char why[512] = "";
    nn_checkpoint c;
    memset(&c, 0x5a, sizeof c);
    T_EQ(nn_checkpoint_load_mem(b, n, &c, why, sizeof why), -1);
    T_TRUE(test_model_empty_checkpoint(&c));
    if (!strstr(why, phrase))
        T_FAIL_AT("\"%s\" does not say \"%s\"", why, phrase);
    nn_checkpoint_free(&c);
}

void test_model_roundtrip(void)
{
    char dir[64], path[512], why[256] = "";
    test_model_dir(dir);
    snprintf(path, sizeof path, "%s/net.bnn", dir);
    /* Tiny, small, and one of some 60,000 parameters, whose writing goes
     * through many chunks of the writer's buffer. */
    const nn_shape shapes[] = {test_model_tiny, test_model_small, {9, 9, 6, 24, 3, 82, 32}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        nn_net net = test_model_net(&shapes[k]), back;
        nn_meta meta = test_model_meta(), got;
        /* What follows the NUL in the caller's arrays is not written. */
        meta.game[20] = 'x';
        T_EQ(nn_save(path, &net, &meta, why, sizeof why), 0);
        T_EQ(nn_load(path, &back, &got, why, sizeof why), 0);
        T_TRUE(test_model_same(&net, &back));
        T_EQ(back.blas, nn_have_blas());
        T_STR(got.game, "connect4");
        T_EQ(got.game[20], 0);
        T_STR(got.params, "width=7,height=6");
        T_EQ(got.generation, 42);
        T_EQ(got.train_steps, 123456789012ull);
        size_t size;
        unsigned char *b = test_model_read(path, &size);
        T_EQ(size, 232 + 4 * net.n_params);
        /* From memory the same; meta may be left out. */
        nn_net mem;
        T_EQ(nn_load_mem(b, size, &mem, NULL, why, sizeof why), 0);
        T_TRUE(test_model_same(&net, &mem));
        free(b);
        nn_free(&mem);
        nn_free(&back);
        free(net.params);
    }
    /* Saved without meta: no game, generation 0. A save replaces the file
     * that was there. */
    nn_net net = test_model_net(&test_model_small), back;
    nn_meta got;
    T_EQ(nn_save(path, &net, NULL, why, sizeof why), 0);
    T_EQ(nn_load(path, &back, &got, why, sizeof why), 0);
    T_TRUE(test_model_same(&net, &back));
    T_STR(got.game, "");
    T_STR(got.params, "");
    T_EQ(got.generation, 0);
    T_EQ(got.train_steps, 0);
    T_EQ(test_model_entries(dir), 1); /* no temporary file left */
    nn_free(&back);
    free(net.params);
    test_model_cleanup(dir);
}

void test_model_checkpoint_roundtrip(void)
{
    char dir[64], path[512], why[256] = "";
    test_model_dir(dir);
    snprintf(path, sizeof path, "%s/run.ck", dir);
    const nn_shape shapes[] = {test_model_tiny, test_model_small, {9, 9, 6, 24, 3, 82, 32}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        nn_checkpoint c = test_model_checkpoint(&shapes[k]), back;
        size_t n = c.net.n_params;
        T_EQ(nn_checkpoint_save(path, &c, why, sizeof why), 0);
        T_EQ(nn_checkpoint_load(path, &back, why, sizeof why), 0);
        T_TRUE(test_model_same(&c.net, &back.net));
        T_EQ(back.net.blas, nn_have_blas());
        T_TRUE(back.adam_m && !memcmp(back.adam_m, c.adam_m, n * sizeof(float)));
        T_TRUE(back.adam_v && !memcmp(back.adam_v, c.adam_v, n * sizeof(float)));
        T_STR(back.meta.game, "connect4");
        T_STR(back.meta.params, "width=7,height=6");
        T_EQ(back.meta.generation, 42);
        T_EQ(back.meta.train_steps, 123456789012ull);
        T_EQ(back.step, 777);
        T_TRUE(!memcmp(back.rng, c.rng, sizeof c.rng));
        T_EQ(back.data_pos, 987654321);
        size_t size;
        unsigned char *b = test_model_read(path, &size);
        T_EQ(size, 16 + 232 + 12 * n + 52);
        nn_checkpoint mem;
        T_EQ(nn_checkpoint_load_mem(b, size, &mem, why, sizeof why), 0);
        T_TRUE(test_model_same(&c.net, &mem.net));
        T_EQ(mem.data_pos, 987654321);
        free(b);
        nn_checkpoint_free(&mem);
        T_TRUE(test_model_empty_checkpoint(&mem));
        nn_checkpoint_free(&back);
        nn_checkpoint_free(&c);
    }
    nn_checkpoint_free(NULL);
    test_model_cleanup(dir);
}

/* The byte layout, the same on every machine: the checksums below were
 * computed from the format's description with Python's struct and zlib. */
void test_model_layout(void)
{
    char dir[64], path[512], why[256] = "";
    test_model_dir(dir);
    snprintf(path, sizeof path, "%s/golden", dir);
    nn_checkpoint c = {
        .net = {.shape = test_model_tiny, .n_params = 23},
        .meta = {.game = "tictactoe", .params = "m=3", .generation = 3, .train_steps = 7},
        .step = 11,
        .rng = {1, 2, 3, UINT64_MAX},
        .data_pos = 12345};
    float p[23], m[23], v[23];
    for (int i = 0; i < 23; i++) {
        p[i] = (float)i * 0.25f - 2.0f;
        m[i] = (float)i * 0.125f;
        v[i] = (float)(i * i) * 0.5f;
    }
    c.net.params = p;
    c.adam_m = m;
    c.adam_v = v;
    T_EQ(nn_param_count(&test_model_tiny), 23);
    T_EQ(nn_save(path, &c.net, &c.meta, why, sizeof why), 0);
    size_t size;
    unsigned char *b = test_model_read(path, &size);
    T_EQ(size, 324);
    if (b && size == 324) {
        T_TRUE(!memcmp(b, "BANYANNN", 8));
        T_EQ(test_model_get_u32(b + 8), 1);
        T_EQ(test_model_get_u32(b + 12), 228);
        T_STR((const char *)b + 16, "tictactoe");
        T_STR((const char *)b + 48, "m=3");
        T_EQ(test_model_get_u32(b + 176), 1);           /* width */
        T_EQ(test_model_get_u32(b + 192), 0);           /* blocks */
        T_EQ(b[204], 3);                                /* generation */
        T_EQ(b[212], 7);                                /* train_steps */
        T_EQ(b[220], 23);                               /* parameter count */
        T_EQ(test_model_get_u32(b + 228), 0xc0000000u); /* -2.0f */
        T_EQ(test_model_get_u32(b + 320), 0x001c3b6bu);
        T_EQ(test_model_crc32(b, 320), 0x001c3b6bu);
    }
    free(b);
    T_EQ(nn_checkpoint_save(path, &c, why, sizeof why), 0);
    b = test_model_read(path, &size);
    T_EQ(size, 576);
    if (b && size == 576) {
        T_TRUE(!memcmp(b, "BANYANCK", 8));
        T_EQ(test_model_get_u32(b + 12), 16);
        T_TRUE(!memcmp(b + 16, "BANYANNN", 8));
        T_EQ(test_model_get_u32(b + 16 + 320), 0x001c3b6bu); /* the network's own */
        T_EQ(test_model_get_u32(b + 572), 0x964ce913u);
    }
    free(b);
    test_model_cleanup(dir);
}

void test_model_refusals(void)
{
    char dir[64], path[512], why[512] = "";
    test_model_dir(dir);
    size_t size, ck_size;
    unsigned char *good = test_model_saved(dir, "net", &test_model_small, &size);
    unsigned char *ck = test_model_saved_checkpoint(dir, "ck", &test_model_small, &ck_size);
    unsigned char *b = malloc(size + 8);
    size_t np = nn_param_count(&test_model_small);
    T_TRUE(good && ck && b);
    if (!good || !ck || !b)
        goto done;
    T_EQ(size, 232 + 4 * np);

    test_model_refused((const unsigned char *)"", 0, "is empty");
    test_model_refused((const unsigned char *)"hello, world, this is text", 26,
                       "the network data is not a Banyan network file");
    test_model_refused(ck, ck_size, "it is a training checkpoint");
    test_model_refused(good, size - 1, "is truncated");
    test_model_refused(good, 100, "is truncated");

    /* A version from the future, and a header of another length. */
    memcpy(b, good, size);
    test_model_put_u32(b + 8, 7);
    test_model_refused(b, size, "is format version 7; this build reads version 1");
    memcpy(b, good, size);
    test_model_put_u32(b + 12, 300);
    test_model_refused(b, size, "has a header of 300 bytes");

    /* A count that promises more than there is, before any allocation:
     * 2^62 floats would be 16 EiB. */
    memcpy(b, good, size);
    b[220 + 7] = 0x40;
    test_model_refused(b, size, "is truncated");
    memcpy(b, good, size);
    b[220 + 7] = 0xff;
    test_model_refused(b, size, "more than any file holds");

    /* Bytes after the checksum. */
    memcpy(b, good, size);
    memcpy(b + size, "\0\0\0\0\0\0\0\0", 8);
    test_model_refused(b, size + 8, "has 8 trailing bytes");
    test_model_refused(b, size + 1, "has 1 trailing byte after");

    /* A damaged byte: the checksum. */
    memcpy(b, good, size);
    b[size / 2] ^= 0x10;
    test_model_refused(b, size, "fails its checksum: the file is damaged");
    memcpy(b, good, size);
    b[size - 1] ^= 0x01;
    test_model_refused(b, size, "fails its checksum: the file is damaged");

    /* The rest are files with a valid checksum that still may not load. */
    memcpy(b, good, size);
    test_model_put_u32(b + 176 + 12, 1000); /* channels */
    test_model_reseal(b, size);
    test_model_refused(b, size, "has a network shape outside the limits: ");
    memcpy(b, good, size);
    test_model_put_u32(b + 176, 0xffffffffu); /* width past INT_MAX */
    test_model_reseal(b, size);
    test_model_refused(b, size, "shape outside the limits");
    memcpy(b, good, size);
    test_model_put_u32(b + 176 + 4, 0); /* height */
    test_model_reseal(b, size);
    test_model_refused(b, size, "shape outside the limits");

    /* A count that fits the file but not the shape: a shape whose count
     * differs, with the file's size and count left as they were. */
    memcpy(b, good, size);
    test_model_put_u32(b + 176 + 24, 5); /* value_hidden 4 -> 5 */
    test_model_reseal(b, size);
    test_model_refused(b, size, "parameters, where its shape");

    /* The text fields. */
    memcpy(b, good, size);
    memset(b + 16, 'a', 32);
    test_model_reseal(b, size);
    test_model_refused(b, size, "game name that is not NUL-terminated");
    memcpy(b, good, size);
    b[17] = '\n';
    test_model_reseal(b, size);
    test_model_refused(b, size, "game name that holds a byte that is not printable");
    memcpy(b, good, size);
    b[16 + 31] = 'z';
    test_model_reseal(b, size);
    test_model_refused(b, size, "game name that is not padded with NULs");
    memcpy(b, good, size);
    memset(b + 48, '=', 128);
    test_model_reseal(b, size);
    test_model_refused(b, size, "game parameter string that is not NUL-terminated");
    memcpy(b, good, size);
    b[48] = (unsigned char)0xc3;
    test_model_reseal(b, size);
    test_model_refused(b, size, "game parameter string that holds a byte that is not printable");

    /* Parameters that are not numbers. */
    memcpy(b, good, size);
    test_model_put_u32(b + 228 + 4 * 5, 0x7fc00000u); /* NaN */
    test_model_reseal(b, size);
    test_model_refused(b, size, "not a finite number (number 5)");
    memcpy(b, good, size);
    test_model_put_u32(b + 228 + 4 * (np - 1), 0xff800000u); /* -infinity */
    test_model_reseal(b, size);
    test_model_refused(b, size, "not a finite number");

    /* From files, the sentence names the path. */
    nn_net net;
    nn_meta meta;
    snprintf(path, sizeof path, "%s/absent", dir);
    T_EQ(nn_load(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(test_model_empty(&net));
    T_TRUE(strstr(why, "cannot read") && strstr(why, path) && strstr(why, strerror(ENOENT)));
    snprintf(path, sizeof path, "%s/ck", dir);
    T_EQ(nn_load(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, path) && strstr(why, "is not a Banyan network file"));
    T_TRUE(strstr(why, "training checkpoint") != NULL);
    snprintf(path, sizeof path, "%s/bad", dir);
    memcpy(b, good, size);
    b[300] ^= 0x80;
    test_model_write(path, b, size);
    T_EQ(nn_load(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, path) && strstr(why, "fails its checksum"));
    test_model_write(path, b, 0);
    T_EQ(nn_load(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, path) && strstr(why, "is empty"));
    T_EQ(nn_load(dir, &net, &meta, why, sizeof why), -1); /* a directory */
    T_TRUE(strstr(why, dir) != NULL);
    T_TRUE(test_model_empty(&net));
    /* A short why is cut, not overrun; none at all is allowed. */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    T_EQ(nn_load_mem(good, 10, &net, NULL, tiny, 4), -1);
    T_EQ(tiny[3], 0);
    T_EQ(tiny[4], 'x');
    T_EQ(nn_load_mem(good, 10, &net, NULL, NULL, 0), -1);
    T_EQ(nn_load_mem(NULL, 0, &net, NULL, why, sizeof why), -1);
    T_TRUE(strstr(why, "empty") != NULL);
done:
    free(good);
    free(ck);
    free(b);
    test_model_cleanup(dir);
}

void test_model_checkpoint_refusals(void)
{
    char dir[64], path[512], why[512] = "";
    test_model_dir(dir);
    size_t size, net_size;
    unsigned char *good = test_model_saved_checkpoint(dir, "ck", &test_model_small, &size);
    unsigned char *net = test_model_saved(dir, "net", &test_model_small, &net_size);
    unsigned char *b = malloc(size + 8);
    size_t np = nn_param_count(&test_model_small);
    T_TRUE(good && net && b);
    if (!good || !net || !b)
        goto done;
    T_EQ(size, 16 + 232 + 12 * np + 52);

    test_model_refused_checkpoint((const unsigned char *)"", 0, "is empty");
    test_model_refused_checkpoint((const unsigned char *)"0123456789abcdefghij", 20,
                                  "the checkpoint data is not a Banyan checkpoint");
    test_model_refused_checkpoint(net, net_size, "it is a network file");
    test_model_refused_checkpoint(good, size - 1, "is truncated");
    memcpy(b, good, size);
    test_model_put_u32(b + 8, 2);
    test_model_refused_checkpoint(b, size, "is format version 2; this build reads version 1");
    memcpy(b, good, size);
    test_model_put_u32(b + 12, 17);
    test_model_refused_checkpoint(b, size, "has a header of 17 bytes");
    memcpy(b, good, size);
    test_model_put_u32(b + 16 + 8, 9); /* the network section's version */
    test_model_refused_checkpoint(b, size, "(its network section) is format version 9");
    memcpy(b, good, size);
    memcpy(b + 16, "BANYANCK", 8);
    test_model_refused_checkpoint(b, size, "(its network section) is not a Banyan network file");
    memcpy(b, good, size);
    memset(b + size, 0, 8);
    test_model_refused_checkpoint(b, size + 3, "has 3 trailing bytes");
    memcpy(b, good, size);
    b[size - 60] ^= 4; /* in the moments */
    test_model_refused_checkpoint(b, size, "fails its checksum");
    memcpy(b, good, size);
    b[16 + 240] ^= 4; /* in the network's parameters */
    test_model_refused_checkpoint(b, size, "fails its checksum");

    /* Valid outer checksum, damaged network section. */
    memcpy(b, good, size);
    b[16 + 240] ^= 4;
    test_model_reseal(b, size);
    test_model_refused_checkpoint(b, size, "(its network section) fails its checksum");
    memcpy(b, good, size);
    test_model_put_u32(b + 16 + 176 + 20, 2000); /* policy */
    test_model_reseal_checkpoint(b, size, np);
    test_model_refused_checkpoint(b, size, "shape outside the limits");
    memcpy(b, good, size);
    size_t moments = 16 + 232 + 4 * np;
    test_model_put_u32(b + moments + 4 * 2, 0x7f800000u); /* adam_m[2] = infinity */
    test_model_reseal(b, size);
    test_model_refused_checkpoint(b, size,
                                  "optimiser moment that is not a finite number (adam_m[2])");
    memcpy(b, good, size);
    test_model_put_u32(b + moments + 4 * np + 4 * 3, 0xffc00001u); /* adam_v[3] = NaN */
    test_model_reseal(b, size);
    test_model_refused_checkpoint(b, size, "(adam_v[3])");
    memcpy(b, good, size);
    test_model_put_u32(b + 16 + 228, 0x7fc00000u); /* the first parameter */
    test_model_reseal_checkpoint(b, size, np);
    test_model_refused_checkpoint(b, size, "not a finite number (number 0)");

    /* A count of 2^61: the moments it promises are not there. */
    memcpy(b, good, size);
    b[16 + 220 + 7] = 0x20;
    test_model_refused_checkpoint(b, size, "is truncated");

    nn_checkpoint c;
    snprintf(path, sizeof path, "%s/net", dir);
    T_EQ(nn_checkpoint_load(path, &c, why, sizeof why), -1);
    T_TRUE(strstr(why, path) && strstr(why, "is not a Banyan checkpoint"));
    T_TRUE(test_model_empty_checkpoint(&c));
    snprintf(path, sizeof path, "%s/none", dir);
    T_EQ(nn_checkpoint_load(path, &c, why, sizeof why), -1);
    T_TRUE(strstr(why, path) && strstr(why, "cannot read"));
    snprintf(path, sizeof path, "%s/cut", dir);
    test_model_write(path, good, size / 2);
    T_EQ(nn_checkpoint_load(path, &c, why, sizeof why), -1);
    T_TRUE(strstr(why, path) && strstr(why, "is truncated"));
done:
    free(good);
    free(net);
    free(b);
    test_model_cleanup(dir);
}

/* Every proper prefix of a file is refused, without a crash, and said to
 * be truncated (the empty one, empty). */
void test_model_truncated(void)
{
    char dir[64];
    test_model_dir(dir);
    size_t size, ck_size;
    unsigned char *good = test_model_saved(dir, "net", &test_model_small, &size);
    unsigned char *ck = test_model_saved_checkpoint(dir, "ck", &test_model_small, &ck_size);
    for (size_t n = 0; good && n < size; n++) {
        /* A copy of exactly n bytes, so that AddressSanitizer sees any
         * read past the end. */
        unsigned char *b = malloc(n ? n : 1);
        memcpy(b, good, n);
        test_model_refused(b, n, n ? "is truncated" : "is empty");
        free(b);
    }
    for (size_t n = 0; ck && n < ck_size; n++) {
        unsigned char *b = malloc(n ? n : 1);
        memcpy(b, ck, n);
        test_model_refused_checkpoint(b, n, n ? "is truncated" : "is empty");
        free(b);
    }
    free(good);
    free(ck);
    test_model_cleanup(dir);
}

/* Every single flipped bit of a network file and of a checkpoint is
 * refused. */
void test_model_bit_flips(void)
{
    char dir[64], why[512];
    test_model_dir(dir);
    size_t size, ck_size;
    unsigned char *good = test_model_saved(dir, "net", &test_model_tiny, &size);
    unsigned char *ck = test_model_saved_checkpoint(dir, "ck", &test_model_tiny, &ck_size);
    int accepted = 0;
    for (size_t i = 0; good && i < 8 * size; i++) {
        nn_net net;
        good[i / 8] ^= (unsigned char)(1u << (i % 8));
        why[0] = 0;
        accepted += nn_load_mem(good, size, &net, NULL, why, sizeof why) == 0;
        T_TRUE(test_model_empty(&net) && why[0]);
        nn_free(&net);
        good[i / 8] ^= (unsigned char)(1u << (i % 8));
    }
    for (size_t i = 0; ck && i < 8 * ck_size; i++) {
        nn_checkpoint c;
        ck[i / 8] ^= (unsigned char)(1u << (i % 8));
        why[0] = 0;
        accepted += nn_checkpoint_load_mem(ck, ck_size, &c, why, sizeof why) == 0;
        T_TRUE(test_model_empty_checkpoint(&c) && why[0]);
        nn_checkpoint_free(&c);
        ck[i / 8] ^= (unsigned char)(1u << (i % 8));
    }
    T_EQ(accepted, 0);
    free(good);
    free(ck);
    test_model_cleanup(dir);
}

/* Saves that cannot be done say why and leave no file behind. */
void test_model_save_errors(void)
{
    char dir[64], path[512], why[512] = "";
    test_model_dir(dir);
    nn_net net = test_model_net(&test_model_small);
    nn_meta meta = test_model_meta();

    /* Into a directory that does not exist. */
    snprintf(path, sizeof path, "%s/missing/net.bnn", dir);
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "cannot write") && strstr(why, "missing/net.bnn") &&
           strstr(why, strerror(ENOENT)));
    nn_checkpoint c = test_model_checkpoint(&test_model_small);
    T_EQ(nn_checkpoint_save(path, &c, why, sizeof why), -1);
    T_TRUE(strstr(why, "cannot write") && strstr(why, strerror(ENOENT)));
    T_EQ(test_model_entries(dir), 0);

    /* Over a directory: the rename fails, and the temporary file goes. */
    snprintf(path, sizeof path, "%s/sub", dir);
    T_EQ(mkdir(path, 0700), 0);
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "cannot rename") && strstr(why, path));
    T_EQ(test_model_entries(dir), 1);
    T_EQ(test_model_entries(path), 0);

    /* What could not be loaded again is not written. */
    snprintf(path, sizeof path, "%s/net.bnn", dir);
    net.params[7] = NAN;
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "parameter 7 of the network is not a finite number (NaN)") != NULL);
    net.params[7] = -INFINITY;
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "(infinite)") != NULL);
    net.params[7] = 0.5f;
    net.n_params--;
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "parameters, where its shape takes") != NULL);
    net.n_params++;
    net.shape.blocks = NN_MAX_BLOCKS + 1;
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "shape is outside the limits") != NULL);
    net.shape = test_model_small;
    memset(meta.game, 'g', sizeof meta.game);
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "the game name is not NUL-terminated") != NULL);
    meta = test_model_meta();
    meta.params[3] = '\t';
    T_EQ(nn_save(path, &net, &meta, why, sizeof why), -1);
    T_TRUE(strstr(why, "the game parameter string holds a byte that is not printable") != NULL);
    nn_net none = {.shape = test_model_small};
    T_EQ(nn_save(path, &none, NULL, why, sizeof why), -1);
    T_TRUE(strstr(why, "has no parameters") != NULL);
    c.adam_v[1] = NAN;
    snprintf(path, sizeof path, "%s/run.ck", dir);
    T_EQ(nn_checkpoint_save(path, &c, why, sizeof why), -1);
    T_TRUE(strstr(why, "adam_v[1] is not a finite number") != NULL);
    T_EQ(test_model_entries(dir), 1); /* only sub/ */

    nn_checkpoint_free(&c);
    free(net.params);
    test_model_cleanup(dir);
}

/* The output of a load need not be initialised: what it held is not looked
 * at (so not freed: a caller loading over a loaded network nn_frees it
 * first). */
void test_model_load_into(void)
{
    char dir[64], path[512], why[256] = "";
    test_model_dir(dir);
    snprintf(path, sizeof path, "%s/net", dir);
    nn_net net = test_model_net(&test_model_small), back;
    T_EQ(nn_save(path, &net, NULL, why, sizeof why), 0);
    memset(&back, 0xa5, sizeof back);
    T_EQ(nn_load(path, &back, NULL, why, sizeof why), 0);
    T_TRUE(test_model_same(&net, &back));
    nn_free(&back);
    T_EQ(nn_load(path, &back, NULL, why, sizeof why), 0);
    T_TRUE(test_model_same(&net, &back));
    nn_free(&back);
    memset(&back, 0xa5, sizeof back);
    T_EQ(nn_load_mem("BANYANNX", 8, &back, NULL, why, sizeof why), -1);
    T_TRUE(test_model_empty(&back));

    nn_checkpoint c = test_model_checkpoint(&test_model_small), ck;
    snprintf(path, sizeof path, "%s/ck", dir);
    T_EQ(nn_checkpoint_save(path, &c, why, sizeof why), 0);
    memset(&ck, 0xa5, sizeof ck);
    T_EQ(nn_checkpoint_load(path, &ck, why, sizeof why), 0);
    T_TRUE(test_model_same(&c.net, &ck.net));
    nn_checkpoint_free(&ck);
    memset(&ck, 0xa5, sizeof ck);
    T_EQ(nn_checkpoint_load_mem("BANYANCK", 8, &ck, why, sizeof why), -1);
    T_TRUE(test_model_empty_checkpoint(&ck));
    nn_checkpoint_free(&c);
    free(net.params);
    test_model_cleanup(dir);
}
