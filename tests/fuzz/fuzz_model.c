/*
 * fuzz_model.c - libFuzzer target for the network's files (net/model.c).
 * The input is loaded as a network file and as a checkpoint, as it is and
 * again with its checksums made to hold (a mutation almost never keeps a
 * CRC-32 right, so without that the checks past the checksum would go
 * unexplored). A failed load must leave its output empty and say why; a
 * load that succeeds must give a network within the limits whose parameters
 * are all finite, and saving it must write back exactly the input's bytes
 * (the format has one way to write each network). abort() otherwise;
 * crashes and sanitizer reports count too.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t fuzz_model_crc32(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
    }
    return ~crc;
}

/* Makes the checksum of b[0..n), in its last 4 bytes, hold. */
static void fuzz_model_reseal(uint8_t *b, size_t n)
{
    if (n < 4)
        return;
    uint32_t crc = fuzz_model_crc32(b, n - 4);
    for (int i = 0; i < 4; i++)
        b[n - 4 + i] = (uint8_t)(crc >> (8 * i));
}

/* The parameter count a network section at b[0..n) says it holds, or
 * UINT64_MAX when its header is cut short. */
static uint64_t fuzz_model_count(const uint8_t *b, size_t n)
{
    uint64_t v = 0;
    if (n < 228)
        return UINT64_MAX;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[220 + i];
    return v;
}

/* Whether the file at path holds exactly b[0..n). */
static int fuzz_model_file_is(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int same = 1, c;
    size_t i = 0;
    while (same && (c = fgetc(f)) != EOF)
        same = i < n && (uint8_t)c == b[i++];
    fclose(f);
    return same && i == n;
}

static char fuzz_model_dir[64];

static void fuzz_model_rmdir(void)
{
    rmdir(fuzz_model_dir);
}

/* A path for a file that holds one round trip, under a directory made
 * once and removed at exit. */
static const char *fuzz_model_path(void)
{
    static char path[128];
    if (!fuzz_model_dir[0]) {
        strcpy(fuzz_model_dir, "/tmp/banyan-fuzz-model-XXXXXX");
        if (!mkdtemp(fuzz_model_dir))
            abort();
        atexit(fuzz_model_rmdir);
        snprintf(path, sizeof path, "%s/out", fuzz_model_dir);
    }
    return path;
}

static void fuzz_model_check_net(const nn_net *net)
{
    if (nn_shape_check(&net->shape) || net->n_params != nn_param_count(&net->shape) ||
        !net->params || net->blas != nn_have_blas())
        abort();
    for (size_t i = 0; i < net->n_params; i++)
        if (!isfinite(net->params[i]))
            abort();
}

static void fuzz_model_meta_ok(const nn_meta *m)
{
    if (!memchr(m->game, 0, sizeof m->game) || !memchr(m->params, 0, sizeof m->params))
        abort();
}

static void fuzz_model_one(const uint8_t *b, size_t n)
{
    char why[256];
    nn_net net;
    nn_meta meta;
    nn_checkpoint c;
    const char *path = fuzz_model_path();

    why[0] = 0;
    if (nn_load_mem(b, n, &net, &meta, why, sizeof why) == 0) {
        fuzz_model_check_net(&net);
        fuzz_model_meta_ok(&meta);
        if (nn_save(path, &net, &meta, why, sizeof why) != 0 || !fuzz_model_file_is(path, b, n))
            abort(); /* A network that loads saves back to the same bytes. */
        unlink(path);
        nn_free(&net);
    } else if (net.params || net.n_params || !why[0] || meta.game[0] || meta.generation) {
        abort(); /* A failure leaves nothing, and says why. */
    }

    why[0] = 0;
    if (nn_checkpoint_load_mem(b, n, &c, why, sizeof why) == 0) {
        fuzz_model_check_net(&c.net);
        fuzz_model_meta_ok(&c.meta);
        for (size_t i = 0; i < c.net.n_params; i++)
            if (!isfinite(c.adam_m[i]) || !isfinite(c.adam_v[i]))
                abort();
        if (nn_checkpoint_save(path, &c, why, sizeof why) != 0 || !fuzz_model_file_is(path, b, n))
            abort();
        unlink(path);
        nn_checkpoint_free(&c);
    } else if (c.net.params || c.net.n_params || c.adam_m || c.adam_v || c.step || !why[0]) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_model_one(data, size);
    /* The same with its checksums made right: the network section's
     * (inside a checkpoint, where the header places it), then the file's. */
    uint8_t *b = malloc(size ? size : 1);
    if (!b)
        return 0;
    memcpy(b, data, size);
    if (size >= 16 && !memcmp(b, "BANYANCK", 8)) {
        uint64_t n = fuzz_model_count(b + 16, size - 16);
        if (n <= (size - 16) / 4 && 16 + 232 + 4 * n + 4 <= size)
            fuzz_model_reseal(b + 16, (size_t)(232 + 4 * n));
    }
    fuzz_model_reseal(b, size);
    if (memcmp(b, data, size))
        fuzz_model_one(b, size);
    free(b);
    return 0;
}
