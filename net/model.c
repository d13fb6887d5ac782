/*
 * model.c - the network's files (see nn.h): a network file, which holds a
 * network's shape, parameters and what made it, and a training checkpoint,
 * which holds a network file and the trainer's state besides.
 *
 * Every number is written byte by byte, least significant byte first, so a
 * file reads the same on every machine; floats are IEEE-754 single
 * precision, their 32 bits written as an unsigned integer. No structure is
 * ever written as it lies in memory.
 *
 * A network file (format version 1):
 *
 *   offset  bytes  what
 *        0      8  magic "BANYANNN"
 *        8      4  u32 format version (1)
 *       12      4  u32 header length: the bytes before the first parameter (228)
 *       16     32  the game's registry name, NUL-padded (a NUL within the field)
 *       48    128  the game's parameters, NUL-padded
 *      176     28  the shape, seven u32: width, height, planes, channels,
 *                  blocks, policy, value_hidden
 *      204      8  u64 generation
 *      212      8  u64 train_steps
 *      220      8  u64 n, the number of parameters (nn_param_count of the shape)
 *      228     4n  the parameters, float32, in the order of nn.h's layout
 *   228+4n      4  u32 CRC-32 (IEEE 802.3, the polynomial of zlib and PNG) of
 *                  every byte before it
 *
 * A checkpoint file (format version 1):
 *
 *    offset  bytes  what
 *         0      8  magic "BANYANCK"
 *         8      4  u32 format version (1)
 *        12      4  u32 header length: the bytes before the network section (16)
 *        16      N  the network section: a whole network file as above, its own
 *                   checksum included (N = 232 + 4n)
 *      16+N     4n  Adam's first moments (adam_m), float32
 *   16+N+4n     4n  Adam's second moments (adam_v), float32
 *   16+N+8n      8  u64 step
 *   24+N+8n     32  u64 rng[0], rng[1], rng[2], rng[3]
 *   56+N+8n      8  u64 data_pos
 *   64+N+8n      4  u32 CRC-32 of every byte before it (of the whole file)
 *
 * The text fields hold printable ASCII (0x20 to 0x7e), a NUL, and NULs to
 * the end of the field; a field may be empty.
 *
 * Loading checks, in this order, and names the first fault in a sentence:
 * the magic (and whether the file is the other kind), the version, the
 * header length, the size against what the header promises (truncated, or
 * trailing bytes), the checksum, the text fields (NUL-terminated, printable,
 * zero after the NUL), the shape (nn_shape_check), the parameter count
 * against the shape, and that every float is finite. The size is checked
 * before anything is allocated, so that no input can ask for more memory
 * than its own length justifies. nn_load and nn_checkpoint_load read files
 * of up to 1 GiB (the largest network the limits allow, with its
 * checkpoint, is some 600 MB).
 *
 * The output of a load (nn_net, nn_meta, nn_checkpoint) is the caller's
 * and need not be initialised: whatever it held is overwritten, not freed,
 * so a caller loading over a loaded network nn_frees it first. A load that
 * fails leaves its output empty (NULL arrays, zero sizes, a zeroed meta),
 * which nn_free and nn_checkpoint_free accept.
 *
 * Saving writes "<path>.tmp.<pid>" and renames it over path once it is
 * complete and synced, so that a reader, or a trainer killed in the middle
 * of a save, never sees half a file. A network with a parameter that is not
 * finite is refused at saving too, since it could not be loaded.
 */
#include "nn.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"

_Static_assert(sizeof(float) == 4, "network files hold 4-byte floats");

#define MODEL_MAGIC_NET   "BANYANNN"        /* How a network file begins. */
#define MODEL_MAGIC_CK    "BANYANCK"        /* How a checkpoint file begins. */
#define MODEL_MAGIC_LEN   8                 /* Bytes of either magic. */
#define MODEL_VERSION     1u                /* The format version written and read. */
#define MODEL_GAME_LEN    32                /* Bytes of the game name's field. */
#define MODEL_PARAMS_LEN  128               /* Bytes of the game parameters' field. */
#define MODEL_SHAPE_AT    176               /* Offset of the shape in a network file. */
#define MODEL_NET_HEADER  228u              /* A network file's bytes before its parameters. */
#define MODEL_CK_HEADER   16u               /* A checkpoint's bytes before its network. */
#define MODEL_CK_STATE    52u               /* A checkpoint's bytes after its moments. */
#define MODEL_CRC_LEN     4u                /* Bytes of a checksum. */
#define MODEL_FILE_MAX    ((size_t)1 << 30) /* Largest file nn_load reads (1 GiB). */
#define MODEL_FLOAT_CHUNK 1024              /* Floats converted at a time when writing. */

_Static_assert(MODEL_SHAPE_AT == 16 + MODEL_GAME_LEN + MODEL_PARAMS_LEN, "layout");
_Static_assert(MODEL_NET_HEADER == MODEL_SHAPE_AT + 7 * 4 + 3 * 8, "layout");
_Static_assert(MODEL_CK_STATE == 8 + 4 * 8 + 8 + MODEL_CRC_LEN, "layout");
_Static_assert(sizeof(((nn_meta *)0)->game) == MODEL_GAME_LEN, "nn_meta.game");
_Static_assert(sizeof(((nn_meta *)0)->params) == MODEL_PARAMS_LEN, "nn_meta.params");

/* CRC-32 with the reflected polynomial 0xEDB88320, one table entry per byte
 * value. */
static const uint32_t model_crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu, 0xe963a535u,
    0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u, 0x09b64c2bu, 0x7eb17cbdu,
    0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u, 0xf3b97148u, 0x84be41deu, 0x1adad47du,
    0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u, 0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu,
    0x14015c4fu, 0x63066cd9u, 0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u,
    0xa2677172u, 0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u, 0x26d930acu,
    0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u, 0xcfba9599u, 0xb8bda50fu,
    0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u, 0x2f6f7c87u, 0x58684c11u, 0xc1611dabu,
    0xb6662d3du, 0x76dc4190u, 0x01db7106u, 0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu,
    0x9fbfe4a5u, 0xe8b8d433u, 0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu,
    0x086d3d2du, 0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u, 0x8bbeb8eau,
    0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u, 0x4db26158u, 0x3ab551ceu,
    0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u, 0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au,
    0x346ed9fcu, 0xad678846u, 0xda60b8d0u, 0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u,
    0x5005713cu, 0x270241aau, 0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u,
    0xce61e49fu, 0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au, 0xead54739u,
    0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u, 0x0d6d6a3eu, 0x7a6a5aa8u,
    0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u, 0xf00f9344u, 0x8708a3d2u, 0x1e01f268u,
    0x6906c2feu, 0xf762575du, 0x806567cbu, 0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u,
    0x10da7a5au, 0x67dd4accu, 0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u,
    0xa1d1937eu, 0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u, 0x316e8eefu,
    0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u, 0xcc0c7795u, 0xbb0b4703u,
    0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u, 0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u,
    0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du, 0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au,
    0x9c0906a9u, 0xeb0e363fu, 0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu,
    0x0cb61b38u, 0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u, 0x88085ae6u,
    0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u, 0x616bffd3u, 0x166ccf45u,
    0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u, 0xa7672661u, 0xd06016f7u, 0x4969474du,
    0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu, 0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u,
    0x47b2cf7fu, 0x30b5ffe9u, 0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u,
    0xcdd70693u, 0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};

/* The CRC-32 of p[0..n) continued from crc, the CRC of the bytes before
 * them (0 before any), as zlib's crc32() computes it. */
static uint32_t model_crc32(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = model_crc_table[(crc ^ b[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

static void model_put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void model_put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t model_get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t model_get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Writes a sentence into why[len] (when there is room) and returns -1. */
static int model_fail(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* NULL when the text field s[0..size) holds printable ASCII ended by a NUL
 * (and, when padded, only NULs after it), else the rest of a sentence saying
 * what is wrong. A field that may hold anything after its NUL would let two
 * different files mean the same network; requiring the padding keeps a
 * loaded and saved file identical to the original. */
static const char *model_text_fault(const unsigned char *s, size_t size, bool padded)
{
    size_t n = 0;
    while (n < size && s[n])
        n++;
    if (n == size)
        return "is not NUL-terminated";
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] > 0x7e)
            return "holds a byte that is not printable ASCII";
    for (size_t i = n; padded && i < size; i++)
        if (s[i])
            return "is not padded with NULs";
    return NULL;
}

/* The index of the first of x[0..n) that is not finite, or n. */
static size_t model_first_nonfinite(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return i;
    return n;
}

/* ---- Writing ---- */

/* A file being written: bytes go through buf to f, and into two running
 * checksums, the file's and the network section's. */
typedef struct model_out {
    FILE *f;
    uint32_t crc;     /* CRC-32 of every byte written so far */
    uint32_t crc_net; /* CRC-32 of the network section's bytes so far */
    int err;          /* errno of the first failed write, 0 while none failed */
    size_t used;      /* bytes waiting in buf */
    unsigned char buf[1 << 16];
} model_out;

static void model_out_flush(model_out *o)
{
    if (o->used && !o->err) {
        errno = 0;
        if (fwrite(o->buf, 1, o->used, o->f) != o->used)
            o->err = errno ? errno : EIO;
    }
    o->used = 0;
}

static void model_out_bytes(model_out *o, const void *p, size_t n)
{
    const unsigned char *b = p;
    o->crc = model_crc32(o->crc, b, n);
    o->crc_net = model_crc32(o->crc_net, b, n);
    while (n) {
        if (o->used == sizeof o->buf)
            model_out_flush(o);
        size_t k = sizeof o->buf - o->used < n ? sizeof o->buf - o->used : n;
        memcpy(o->buf + o->used, b, k);
        o->used += k;
        b += k;
        n -= k;
    }
}

static void model_out_u32(model_out *o, uint32_t v)
{
    unsigned char b[4];
    model_put_u32(b, v);
    model_out_bytes(o, b, sizeof b);
}

static void model_out_u64(model_out *o, uint64_t v)
{
    unsigned char b[8];
    model_put_u64(b, v);
    model_out_bytes(o, b, sizeof b);
}

/* Writes x[0..n) as float32, a chunk at a time. */
static void model_out_floats(model_out *o, const float *x, size_t n)
{
    unsigned char b[4 * MODEL_FLOAT_CHUNK];
    for (size_t i = 0; i < n; i += MODEL_FLOAT_CHUNK) {
        size_t k = n - i < MODEL_FLOAT_CHUNK ? n - i : MODEL_FLOAT_CHUNK;
        for (size_t j = 0; j < k; j++) {
            uint32_t u;
            memcpy(&u, &x[i + j], sizeof u);
            model_put_u32(b + 4 * j, u);
        }
        model_out_bytes(o, b, 4 * k);
    }
}

/* Writes the network section: net and meta (NULL: no game, generation 0),
 * then the section's checksum. */
static void model_out_net(model_out *o, const nn_net *net, const nn_meta *meta)
{
    unsigned char h[MODEL_NET_HEADER] = {0};
    const nn_shape *s = &net->shape;
    const int dims[7] = {s->width,  s->height, s->planes,      s->channels,
                         s->blocks, s->policy, s->value_hidden};
    memcpy(h, MODEL_MAGIC_NET, MODEL_MAGIC_LEN);
    model_put_u32(h + 8, MODEL_VERSION);
    model_put_u32(h + 12, MODEL_NET_HEADER);
    if (meta) {
        /* Only up to the NUL: the padding is always zeros, whatever the
         * caller's arrays hold after it. */
        memcpy(h + 16, meta->game, strnlen(meta->game, MODEL_GAME_LEN));
        memcpy(h + 16 + MODEL_GAME_LEN, meta->params, strnlen(meta->params, MODEL_PARAMS_LEN));
        model_put_u64(h + MODEL_SHAPE_AT + 28, meta->generation);
        model_put_u64(h + MODEL_SHAPE_AT + 36, meta->train_steps);
    }
    for (int i = 0; i < 7; i++)
        model_put_u32(h + MODEL_SHAPE_AT + 4 * i, (uint32_t)dims[i]);
    model_put_u64(h + MODEL_SHAPE_AT + 44, (uint64_t)net->n_params);
    o->crc_net = 0;
    model_out_bytes(o, h, sizeof h);
    model_out_floats(o, net->params, net->n_params);
    model_out_u32(o, o->crc_net);
}

/* Writes a checkpoint: its header, its network section, the moments, the
 * trainer's state and the file's checksum. */
static void model_out_checkpoint(model_out *o, const nn_checkpoint *c)
{
    unsigned char h[MODEL_CK_HEADER];
    memcpy(h, MODEL_MAGIC_CK, MODEL_MAGIC_LEN);
    model_put_u32(h + 8, MODEL_VERSION);
    model_put_u32(h + 12, MODEL_CK_HEADER);
    model_out_bytes(o, h, sizeof h);
    model_out_net(o, &c->net, &c->meta);
    model_out_floats(o, c->adam_m, c->net.n_params);
    model_out_floats(o, c->adam_v, c->net.n_params);
    model_out_u64(o, c->step);
    for (int i = 0; i < 4; i++)
        model_out_u64(o, c->rng[i]);
    model_out_u64(o, c->data_pos);
    model_out_u32(o, o->crc);
}

/* Whether net and meta can be written so that they load again: 0, or -1
 * with a sentence. */
static int model_check_save(const char *path, const nn_net *net, const nn_meta *meta, char *why,
                            size_t len)
{
    const char *bad;
    if (!net || !net->params)
        return model_fail(why, len, "cannot save \"%s\": the network has no parameters", path);
    if ((bad = nn_shape_check(&net->shape)))
        return model_fail(why, len,
                          "cannot save \"%s\": the network's shape is outside the limits: %s", path,
                          bad);
    size_t want = nn_param_count(&net->shape);
    if (net->n_params != want)
        return model_fail(why, len,
                          "cannot save \"%s\": the network has %zu parameters, where its shape "
                          "takes %zu",
                          path, net->n_params, want);
    if (meta && (bad = model_text_fault((const unsigned char *)meta->game, MODEL_GAME_LEN, false)))
        return model_fail(why, len, "cannot save \"%s\": the game name %s", path, bad);
    if (meta &&
        (bad = model_text_fault((const unsigned char *)meta->params, MODEL_PARAMS_LEN, false)))
        return model_fail(why, len, "cannot save \"%s\": the game parameter string %s", path, bad);
    size_t i = model_first_nonfinite(net->params, net->n_params);
    if (i < net->n_params)
        return model_fail(why, len,
                          "cannot save \"%s\": parameter %zu of the network is not a finite "
                          "number (%s), which no network file may hold",
                          path, i, isnan(net->params[i]) ? "NaN" : "infinite");
    return 0;
}

/* Writes the network file (ck NULL) or the checkpoint ck to "<path>.tmp.<pid>",
 * then renames it over path. 0, or -1 with a sentence (the temporary file
 * then removed). */
static int model_save(const char *path, const nn_net *net, const nn_meta *meta,
                      const nn_checkpoint *ck, char *why, size_t len)
{
    size_t tmp_len = strlen(path) + 32;
    char *tmp = malloc(tmp_len);
    model_out *o = calloc(1, sizeof *o);
    int rc = -1;
    if (!tmp || !o) {
        rc = model_fail(why, len, "cannot save \"%s\": out of memory", path);
        goto done;
    }
    snprintf(tmp, tmp_len, "%s.tmp.%ld", path, (long)getpid());
    o->f = fopen(tmp, "wb");
    if (!o->f) {
        rc = model_fail(why, len, "cannot write \"%s\": %s", path, strerror(errno));
        goto done;
    }
    if (ck)
        model_out_checkpoint(o, ck);
    else
        model_out_net(o, net, meta);
    model_out_flush(o);
    if (!o->err && fflush(o->f) != 0)
        o->err = errno;
    /* Synced before the rename, so that after a crash path holds either
     * the old file or the whole new one. Some file systems cannot sync. */
    if (!o->err && os_fsync(fileno(o->f)) != 0 && errno != EINVAL)
        o->err = errno;
    if (fclose(o->f) != 0 && !o->err)
        o->err = errno;
    if (o->err) {
        remove(tmp);
        rc = model_fail(why, len, "cannot write \"%s\": %s", path, strerror(o->err));
        goto done;
    }
    if (os_rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        rc = model_fail(why, len, "cannot rename \"%s\" to \"%s\": %s", tmp, path, strerror(e));
        goto done;
    }
    rc = 0;
done:
    free(tmp);
    free(o);
    return rc;
}

int nn_save(const char *path, const nn_net *net, const nn_meta *meta, char *why, size_t len)
{
    if (!path)
        return model_fail(why, len, "cannot save a network: no path given");
    if (model_check_save(path, net, meta, why, len))
        return -1;
    return model_save(path, net, meta, NULL, why, len);
}

int nn_checkpoint_save(const char *path, const nn_checkpoint *c, char *why, size_t len)
{
    if (!path || !c)
        return model_fail(why, len, "cannot save a checkpoint: no %s given",
                          path ? "checkpoint" : "path");
    if (model_check_save(path, &c->net, &c->meta, why, len))
        return -1;
    if (!c->adam_m || !c->adam_v)
        return model_fail(why, len, "cannot save \"%s\": the checkpoint has no optimiser moments",
                          path);
    size_t n = c->net.n_params;
    size_t im = model_first_nonfinite(c->adam_m, n), iv = model_first_nonfinite(c->adam_v, n);
    if (im < n || iv < n)
        return model_fail(why, len,
                          "cannot save \"%s\": the optimiser moment %s[%zu] is not a finite "
                          "number, which no checkpoint may hold",
                          path, im < n ? "adam_m" : "adam_v", im < n ? im : iv);
    return model_save(path, NULL, NULL, c, why, len);
}

/* ---- Reading ---- */

/* The sentence for a truncated input of have bytes whose header promises n
 * floats and extra bytes besides. */
static int model_truncated(const char *name, size_t have, uint64_t n, uint64_t extra, char *why,
                           size_t len)
{
    if (n > (UINT64_MAX - extra) / 4)
        return model_fail(why, len,
                          "%s is truncated: its header promises %" PRIu64
                          " parameters, more than any file holds",
                          name, n);
    return model_fail(why, len,
                      "%s is truncated: it has %zu bytes of the %" PRIu64 " its header promises",
                      name, have, extra + 4 * n);
}

/* Checks the frame of the network section at b[0..size): its magic,
 * version and header length, and that its parameters and checksum fit in
 * size; sets *total to the section's length. A whole section is all of
 * b (a network file); otherwise bytes may follow it (in a checkpoint).
 * Nothing past the frame is looked at yet. 0, or -1 with a sentence. */
static int model_net_frame(const unsigned char *b, size_t size, bool whole, const char *name,
                           size_t *total, char *why, size_t len)
{
    if (size < MODEL_MAGIC_LEN || memcmp(b, MODEL_MAGIC_NET, MODEL_MAGIC_LEN)) {
        if (size == 0 && whole)
            return model_fail(why, len, "%s is empty, not a Banyan network file", name);
        if (size < MODEL_MAGIC_LEN && !memcmp(b, MODEL_MAGIC_NET, size))
            return model_fail(why, len, "%s is truncated: it has %zu bytes", name, size);
        if (whole && size >= MODEL_MAGIC_LEN && !memcmp(b, MODEL_MAGIC_CK, MODEL_MAGIC_LEN))
            return model_fail(why, len,
                              "%s is not a Banyan network file: it is a training checkpoint", name);
        return model_fail(why, len, "%s is not a Banyan network file", name);
    }
    if (size < 16)
        return model_fail(why, len, "%s is truncated: it has %zu bytes", name, size);
    uint32_t version = model_get_u32(b + 8), header = model_get_u32(b + 12);
    if (version != MODEL_VERSION)
        return model_fail(why, len, "%s is format version %" PRIu32 "; this build reads version %u",
                          name, version, MODEL_VERSION);
    if (header != MODEL_NET_HEADER)
        return model_fail(why, len,
                          "%s has a header of %" PRIu32
                          " bytes, where format version %u has %u: the file is damaged",
                          name, header, MODEL_VERSION, MODEL_NET_HEADER);
    if (size < MODEL_NET_HEADER + MODEL_CRC_LEN)
        return model_fail(why, len, "%s is truncated: it has %zu bytes, fewer than its header",
                          name, size);
    /* Compared with what is there before anything is computed from it, so
     * that neither an overflow nor a huge allocation can follow. */
    uint64_t n = model_get_u64(b + MODEL_SHAPE_AT + 44);
    size_t room = (size - MODEL_NET_HEADER - MODEL_CRC_LEN) / 4;
    if (n > room)
        return model_truncated(name, size, n, MODEL_NET_HEADER + MODEL_CRC_LEN, why, len);
    *total = MODEL_NET_HEADER + 4 * (size_t)n + MODEL_CRC_LEN;
    if (whole && *total != size)
        return model_fail(why, len, "%s has %zu trailing byte%s after its checksum", name,
                          size - *total, size - *total == 1 ? "" : "s");
    return 0;
}

/* Decodes n float32 at b into a new array *out, or sets *bad to the index
 * of the first that is not finite (*out then NULL). 0, or -1 when out of
 * memory. */
static int model_get_floats(const unsigned char *b, size_t n, float **out, size_t *bad)
{
    float *x = malloc(n ? n * sizeof *x : 1);
    *out = NULL;
    *bad = n;
    if (!x)
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = model_get_u32(b + 4 * i);
        memcpy(&x[i], &u, sizeof u);
        if (!isfinite(x[i])) {
            *bad = i;
            free(x);
            return 0;
        }
    }
    *out = x;
    return 0;
}

/* Decodes the network section b[0..total), framed by model_net_frame, into
 * net and meta (when not NULL). 0, or -1 with a sentence (net untouched). */
static int model_net_decode(const unsigned char *b, size_t total, const char *name, nn_net *net,
                            nn_meta *meta, char *why, size_t len)
{
    const unsigned char *game = b + 16, *params = b + 16 + MODEL_GAME_LEN;
    const char *bad;
    if (model_crc32(0, b, total - MODEL_CRC_LEN) != model_get_u32(b + total - MODEL_CRC_LEN))
        return model_fail(why, len, "%s fails its checksum: the file is damaged", name);
    if ((bad = model_text_fault(game, MODEL_GAME_LEN, true)))
        return model_fail(why, len, "%s has a game name that %s", name, bad);
    if ((bad = model_text_fault(params, MODEL_PARAMS_LEN, true)))
        return model_fail(why, len, "%s has a game parameter string that %s", name, bad);
    int dims[7];
    for (int i = 0; i < 7; i++) {
        uint32_t d = model_get_u32(b + MODEL_SHAPE_AT + 4 * i);
        dims[i] = d > INT_MAX ? INT_MAX : (int)d; /* INT_MAX is past every limit */
    }
    nn_shape s = {.width = dims[0],
                  .height = dims[1],
                  .planes = dims[2],
                  .channels = dims[3],
                  .blocks = dims[4],
                  .policy = dims[5],
                  .value_hidden = dims[6]};
    if ((bad = nn_shape_check(&s)))
        return model_fail(why, len, "%s has a network shape outside the limits: %s", name, bad);
    uint64_t n = model_get_u64(b + MODEL_SHAPE_AT + 44);
    size_t want = nn_param_count(&s);
    if (n != want)
        return model_fail(why, len,
                          "%s holds %" PRIu64
                          " parameters, where its shape (width %d, height %d, planes %d, "
                          "channels %d, blocks %d, policy %d, value_hidden %d) takes %zu",
                          name, n, s.width, s.height, s.planes, s.channels, s.blocks, s.policy,
                          s.value_hidden, want);
    float *x;
    size_t at;
    if (model_get_floats(b + MODEL_NET_HEADER, want, &x, &at))
        return model_fail(why, len, "cannot load %s: out of memory for %zu parameters", name, want);
    if (!x)
        return model_fail(why, len, "%s holds a parameter that is not a finite number (number %zu)",
                          name, at);
    net->shape = s;
    net->n_params = want;
    net->params = x;
    net->blas = nn_have_blas();
    if (meta) {
        memcpy(meta->game, game, MODEL_GAME_LEN);
        memcpy(meta->params, params, MODEL_PARAMS_LEN);
        meta->generation = model_get_u64(b + MODEL_SHAPE_AT + 28);
        meta->train_steps = model_get_u64(b + MODEL_SHAPE_AT + 36);
    }
    return 0;
}

/* nn_load_mem with the name a sentence gives the input. */
static int model_load_net(const unsigned char *b, size_t size, const char *name, nn_net *net,
                          nn_meta *meta, char *why, size_t len)
{
    size_t total;
    if (model_net_frame(b, size, true, name, &total, why, len) ||
        model_net_decode(b, total, name, net, meta, why, len)) {
        memset(net, 0, sizeof *net);
        if (meta)
            memset(meta, 0, sizeof *meta);
        return -1;
    }
    return 0;
}

/* nn_checkpoint_load_mem with the name a sentence gives the input. */
static int model_load_checkpoint(const unsigned char *b, size_t size, const char *name,
                                 nn_checkpoint *c, char *why, size_t len)
{
    char inner[600];
    size_t total, bad;
    snprintf(inner, sizeof inner, "%s (its network section)", name);
    if (size < MODEL_MAGIC_LEN || memcmp(b, MODEL_MAGIC_CK, MODEL_MAGIC_LEN)) {
        if (size == 0)
            return model_fail(why, len, "%s is empty, not a Banyan checkpoint", name);
        if (size < MODEL_MAGIC_LEN && !memcmp(b, MODEL_MAGIC_CK, size))
            return model_fail(why, len, "%s is truncated: it has %zu bytes", name, size);
        if (size >= MODEL_MAGIC_LEN && !memcmp(b, MODEL_MAGIC_NET, MODEL_MAGIC_LEN))
            return model_fail(why, len,
                              "%s is not a Banyan checkpoint: it is a network file, without the "
                              "training state",
                              name);
        return model_fail(why, len, "%s is not a Banyan checkpoint", name);
    }
    if (size < MODEL_CK_HEADER)
        return model_fail(why, len, "%s is truncated: it has %zu bytes", name, size);
    uint32_t version = model_get_u32(b + 8), header = model_get_u32(b + 12);
    if (version != MODEL_VERSION)
        return model_fail(why, len, "%s is format version %" PRIu32 "; this build reads version %u",
                          name, version, MODEL_VERSION);
    if (header != MODEL_CK_HEADER)
        return model_fail(why, len,
                          "%s has a header of %" PRIu32
                          " bytes, where format version %u has %u: the file is damaged",
                          name, header, MODEL_VERSION, MODEL_CK_HEADER);
    const unsigned char *net_at = b + MODEL_CK_HEADER;
    if (model_net_frame(net_at, size - MODEL_CK_HEADER, false, inner, &total, why, len))
        return -1;
    /* The frame bounds n by the bytes there (4n <= size), so none of this
     * overflows. */
    size_t n = (total - MODEL_NET_HEADER - MODEL_CRC_LEN) / 4;
    size_t rest = size - MODEL_CK_HEADER - total;
    if (rest < MODEL_CK_STATE || (rest - MODEL_CK_STATE) / 8 < n)
        return model_truncated(name, size, 2 * (uint64_t)n,
                               MODEL_CK_HEADER + total + MODEL_CK_STATE, why, len);
    size_t end = MODEL_CK_HEADER + total + 8 * n + MODEL_CK_STATE;
    if (end != size)
        return model_fail(why, len, "%s has %zu trailing byte%s after its checksum", name,
                          size - end, size - end == 1 ? "" : "s");
    if (model_crc32(0, b, size - MODEL_CRC_LEN) != model_get_u32(b + size - MODEL_CRC_LEN))
        return model_fail(why, len, "%s fails its checksum: the file is damaged", name);
    if (model_net_decode(net_at, total, inner, &c->net, &c->meta, why, len))
        return -1;
    const unsigned char *p = net_at + total;
    if (model_get_floats(p, n, &c->adam_m, &bad) ||
        (c->adam_m && model_get_floats(p + 4 * n, n, &c->adam_v, &bad)))
        return model_fail(why, len, "cannot load %s: out of memory for the optimiser's moments",
                          name);
    if (!c->adam_m || !c->adam_v)
        return model_fail(why, len,
                          "%s holds an optimiser moment that is not a finite number (%s[%zu])",
                          name, c->adam_m ? "adam_v" : "adam_m", bad);
    p += 8 * n;
    c->step = model_get_u64(p);
    for (int i = 0; i < 4; i++)
        c->rng[i] = model_get_u64(p + 8 + 8 * i);
    c->data_pos = model_get_u64(p + 40);
    return 0;
}

/* Reads the whole file at path (at most MODEL_FILE_MAX bytes) into a new
 * buffer *buf of *size bytes. 0, or -1 with a sentence. */
static int model_read_file(const char *path, const char *name, unsigned char **buf, size_t *size,
                           char *why, size_t len)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    size_t cap = 1 << 16, n = 0;
    unsigned char *b = NULL;
    int rc = -1;
    *buf = NULL;
    *size = 0;
    if (!f)
        return model_fail(why, len, "cannot read %s: %s", name, strerror(errno));
    /* The size, where the file has one, saves growing the buffer. */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uintmax_t)st.st_size > MODEL_FILE_MAX) {
            rc = model_fail(why, len, "%s is larger than %zu MiB, more than any network file", name,
                            MODEL_FILE_MAX >> 20);
            goto done;
        }
        cap = (size_t)st.st_size + 1; /* + 1: the read that finds the end */
    }
    for (;;) {
        if (n == cap) {
            if (cap > MODEL_FILE_MAX) {
                rc = model_fail(why, len, "%s is larger than %zu MiB, more than any network file",
                                name, MODEL_FILE_MAX >> 20);
                goto done;
            }
            cap = cap > MODEL_FILE_MAX / 2 ? MODEL_FILE_MAX + 1 : 2 * cap;
            unsigned char *bigger = realloc(b, cap);
            if (!bigger) {
                rc = model_fail(why, len, "cannot read %s: out of memory", name);
                goto done;
            }
            b = bigger;
        } else if (!b && !(b = malloc(cap))) {
            rc = model_fail(why, len, "cannot read %s: out of memory", name);
            goto done;
        }
        errno = 0;
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        rc = model_fail(why, len, "cannot read %s: %s", name, strerror(errno ? errno : EIO));
        goto done;
    }
    *buf = b;
    *size = n;
    b = NULL;
    rc = 0;
done:
    fclose(f);
    free(b);
    return rc;
}

/* The name a sentence gives the file at path: the path in quotes. */
static void model_name(char *name, size_t size, const char *path)
{
    snprintf(name, size, "\"%s\"", path);
}

int nn_load_mem(const void *buf, size_t size, nn_net *net, nn_meta *meta, char *why, size_t len)
{
    if (!net)
        return model_fail(why, len, "no network to load into");
    return model_load_net(buf ? buf : "", buf ? size : 0, "the network data", net, meta, why, len);
}

int nn_load(const char *path, nn_net *net, nn_meta *meta, char *why, size_t len)
{
    char name[512];
    unsigned char *b;
    size_t size;
    if (!net)
        return model_fail(why, len, "no network to load into");
    memset(net, 0, sizeof *net);
    if (meta)
        memset(meta, 0, sizeof *meta);
    if (!path)
        return model_fail(why, len, "cannot load a network: no path given");
    model_name(name, sizeof name, path);
    if (model_read_file(path, name, &b, &size, why, len))
        return -1;
    int rc = model_load_net(b, size, name, net, meta, why, len);
    free(b);
    return rc;
}

void nn_checkpoint_free(nn_checkpoint *c)
{
    if (!c)
        return;
    nn_free(&c->net);
    free(c->adam_m);
    free(c->adam_v);
    memset(c, 0, sizeof *c);
}

/* Loads b[0..size) into c, which is left empty on failure. */
static int model_checkpoint_from(const unsigned char *b, size_t size, const char *name,
                                 nn_checkpoint *c, char *why, size_t len)
{
    memset(c, 0, sizeof *c);
    if (model_load_checkpoint(b, size, name, c, why, len)) {
        free(c->net.params);
        free(c->adam_m);
        free(c->adam_v);
        memset(c, 0, sizeof *c);
        return -1;
    }
    return 0;
}

int nn_checkpoint_load_mem(const void *buf, size_t size, nn_checkpoint *c, char *why, size_t len)
{
    if (!c)
        return model_fail(why, len, "no checkpoint to load into");
    return model_checkpoint_from(buf ? buf : "", buf ? size : 0, "the checkpoint data", c, why,
                                 len);
}

int nn_checkpoint_load(const char *path, nn_checkpoint *c, char *why, size_t len)
{
    char name[512];
    unsigned char *b;
    size_t size;
    if (!c)
        return model_fail(why, len, "no checkpoint to load into");
    memset(c, 0, sizeof *c);
    if (!path)
        return model_fail(why, len, "cannot load a checkpoint: no path given");
    model_name(name, sizeof name, path);
    if (model_read_file(path, name, &b, &size, why, len))
        return -1;
    int rc = model_checkpoint_from(b, size, name, c, why, len);
    free(b);
    return rc;
}
