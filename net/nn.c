/*
 * nn.c - the arithmetic of the policy/value network of nn.h: its shape and
 * parameter layout, their initialisation, the forward pass in batches, the
 * backward pass of the training loss, and the AdamW step.
 *
 * Inside a pass the activations of the residual tower are held channel-major
 * over the whole batch: channel c of position i is the cells at
 * (c * n + i) * cells. A 3x3 convolution is then one product per group of
 * positions, weights [out][in * 9] times the im2col matrix [in * 9][positions
 * * cells], which keeps the products wide even for one small board. The
 * input (position-major, as nn.h has it) is read where it lies by the stem's
 * im2col.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"

/* The im2col matrix of one group of positions is kept under this many
 * floats (1 MiB) where a single position allows, so that it stays in cache
 * while the product walks over it; larger batches are done in groups. */
#define NN_COL_BUDGET (1 << 18)

/* Where each layer lies in the parameter array. */
typedef struct nn_layout {
    size_t stem_w, stem_b;
    size_t block0, block_size; /* block i starts at block0 + i * block_size */
    size_t pconv_w, pconv_b;   /* policy head's 1x1 convolution */
    size_t pfc_w, pfc_b;       /* policy head's fully connected layer */
    size_t vconv_w, vconv_b;   /* value head's 1x1 convolution */
    size_t vfc1_w, vfc1_b;     /* value head's hidden layer */
    size_t vfc2_w, vfc2_b;     /* value head's output */
    size_t total;
} nn_layout;

static nn_layout nn_layout_of(const nn_shape *s)
{
    size_t c = (size_t)s->channels, cells = (size_t)s->width * s->height;
    nn_layout l;
    size_t at = 0;
    l.stem_w = at;
    at += c * s->planes * 9;
    l.stem_b = at;
    at += c;
    l.block_size = 2 * (c * c * 9 + c);
    l.block0 = at;
    at += l.block_size * s->blocks;
    l.pconv_w = at;
    at += 2 * c;
    l.pconv_b = at;
    at += 2;
    l.pfc_w = at;
    at += (size_t)s->policy * 2 * cells;
    l.pfc_b = at;
    at += s->policy;
    l.vconv_w = at;
    at += c;
    l.vconv_b = at;
    at += 1;
    l.vfc1_w = at;
    at += (size_t)s->value_hidden * cells;
    l.vfc1_b = at;
    at += s->value_hidden;
    l.vfc2_w = at;
    at += s->value_hidden;
    l.vfc2_b = at;
    at += 1;
    l.total = at;
    return l;
}

const char *nn_shape_check(const nn_shape *s)
{
    if (!s)
        return "no shape";
    if (s->width < 1 || s->width > NN_MAX_SIDE)
        return "the width is not between 1 and 32";
    if (s->height < 1 || s->height > NN_MAX_SIDE)
        return "the height is not between 1 and 32";
    if (s->planes < 1 || s->planes > NN_MAX_PLANES)
        return "the number of input planes is not between 1 and 32";
    if (s->channels < 1 || s->channels > NN_MAX_CHANNELS)
        return "the number of channels is not between 1 and 256";
    if (s->blocks < 0 || s->blocks > NN_MAX_BLOCKS)
        return "the number of blocks is not between 0 and 40";
    if (s->policy < 1 || s->policy > NN_MAX_POLICY)
        return "the number of policy outputs is not between 1 and 1025";
    if (s->value_hidden < 1 || s->value_hidden > NN_MAX_HIDDEN)
        return "the number of hidden value units is not between 1 and 512";
    return NULL;
}

size_t nn_param_count(const nn_shape *s)
{
    if (nn_shape_check(s))
        return 0;
    return nn_layout_of(s).total;
}

/* ---- Initialisation ---- */

/* splitmix64: a generator that is the same on every machine (the standard
 * library's rand() is not), so that a seed names one network everywhere. */
static uint64_t nn_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A uniform double in (0, 1): 53 random bits, never 0 (log(0) below). */
static double nn_rng_open01(uint64_t *state)
{
    return ((double)(nn_rng_next(state) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Fills w[count] with normal deviates of standard deviation sd
 * (Box-Muller, both deviates of each pair used). The arithmetic is double
 * and the result is rounded to float, so libraries that differ in the last
 * bit of log or cos still give the same floats, but for a rare tie. */
static void nn_fill_normal(uint64_t *state, float *w, size_t count, double sd)
{
    const double two_pi = 6.283185307179586;
    for (size_t i = 0; i < count; i += 2) {
        double r = sqrt(-2.0 * log(nn_rng_open01(state)));
        double t = two_pi * nn_rng_open01(state);
        w[i] = (float)(sd * r * cos(t));
        if (i + 1 < count)
            w[i + 1] = (float)(sd * r * sin(t));
    }
}

/* He initialisation of a layer of `out` units with fan_in inputs each. */
static void nn_fill_he(uint64_t *state, float *w, size_t out, size_t fan_in, double scale)
{
    nn_fill_normal(state, w, out * fan_in, scale * sqrt(2.0 / (double)fan_in));
}

int nn_init(nn_net *net, const nn_shape *s, uint64_t seed)
{
    memset(net, 0, sizeof *net);
    if (nn_shape_check(s))
        return -1;
    nn_layout l = nn_layout_of(s);
    float *p = calloc(l.total, sizeof *p); /* the biases stay 0 */
    if (!p)
        return -1;
    size_t c = (size_t)s->channels, cells = (size_t)s->width * s->height;
    uint64_t state = seed;
    nn_fill_he(&state, p + l.stem_w, c, (size_t)s->planes * 9, 1.0);
    for (int i = 0; i < s->blocks; i++) {
        float *b = p + l.block0 + (size_t)i * l.block_size;
        nn_fill_he(&state, b, c, c * 9, 1.0);
        /* The second convolution starts small, so that each block starts
         * near the identity and a deep tower trains from the start. */
        nn_fill_he(&state, b + c * c * 9 + c, c, c * 9, 0.1);
    }
    nn_fill_he(&state, p + l.pconv_w, 2, c, 1.0);
    nn_fill_he(&state, p + l.pfc_w, (size_t)s->policy, 2 * cells, 1.0);
    nn_fill_he(&state, p + l.vconv_w, 1, c, 1.0);
    nn_fill_he(&state, p + l.vfc1_w, (size_t)s->value_hidden, cells, 1.0);
    /* A small output layer keeps the first values away from tanh's flat
     * ends, where the gradient would vanish. */
    nn_fill_he(&state, p + l.vfc2_w, 1, (size_t)s->value_hidden, 0.1);
    net->shape = *s;
    net->n_params = l.total;
    net->params = p;
    net->blas = nn_have_blas();
    return 0;
}

void nn_free(nn_net *net)
{
    if (!net)
        return;
    free(net->params);
    memset(net, 0, sizeof *net);
}

/* ---- Work ---- */

struct nn_work {
    nn_shape shape;
    int max_batch, cells;
    int group; /* positions per im2col matrix */
    bool train;
    float *col;  /* im2col matrix: max(planes, channels) * 9 x group * cells */
    float **act; /* tower activations, channels x n * cells each: [0] the stem's
                    output, [2i + 1] block i's h, [2i + 2] block i's output;
                    without train, two buffers used in turn */
    float *pol1; /* policy convolution's output, 2 x n * cells */
    float *polf; /* the same per position, n x 2 * cells */
    float *val1; /* value convolution's output, n x cells */
    float *valh; /* value head's hidden units, n x value_hidden */
    /* Training only. */
    float *logits, *value;          /* the forward pass's outputs */
    float *dx, *dh;                 /* gradients of tower activations */
    float *dcol;                    /* gradient of an im2col matrix */
    float *dlogits, *dpolf, *dpol1; /* gradients in the policy head */
    float *dval1, *dvalh, *dvout;   /* gradients in the value head */
    void *mem;                      /* the one allocation all of these are in */
};

/* Hands out consecutive pieces of one allocation (first counting them, when
 * base is NULL), each 64-byte aligned. */
typedef struct nn_carve {
    char *base;
    size_t used;
    double bytes; /* the same in double, which cannot wrap around */
} nn_carve;

static float *nn_carve_floats(nn_carve *c, size_t count)
{
    size_t at = c->used;
    c->used += (count * sizeof(float) + 63) & ~(size_t)63;
    c->bytes += (double)count * sizeof(float) + 64;
    return c->base ? (float *)(void *)(c->base + at) : NULL;
}

static void nn_work_carve(nn_work *w, nn_carve *c)
{
    const nn_shape *s = &w->shape;
    size_t nb = (size_t)w->max_batch, cells = (size_t)w->cells, ch = (size_t)s->channels;
    size_t tower = ch * nb * cells,
           in = (size_t)(s->planes > s->channels ? s->planes : s->channels);
    w->col = nn_carve_floats(c, in * 9 * (size_t)w->group * cells);
    /* Training keeps every activation of the tower for the backward pass;
     * inference needs two buffers, a block's input (and output) and its h. */
    float *kept[2] = {NULL, NULL};
    for (size_t i = 0; i < 1 + 2 * (size_t)s->blocks; i++) {
        float *buf = w->train || i < 2 ? nn_carve_floats(c, tower) : kept[i % 2];
        if (i < 2)
            kept[i] = buf;
        if (c->base)
            w->act[i] = buf;
    }
    w->pol1 = nn_carve_floats(c, 2 * nb * cells);
    w->polf = nn_carve_floats(c, 2 * nb * cells);
    w->val1 = nn_carve_floats(c, nb * cells);
    w->valh = nn_carve_floats(c, nb * (size_t)s->value_hidden);
    if (!w->train)
        return;
    w->logits = nn_carve_floats(c, nb * (size_t)s->policy);
    w->value = nn_carve_floats(c, nb);
    w->dx = nn_carve_floats(c, tower);
    w->dh = nn_carve_floats(c, tower);
    w->dcol = nn_carve_floats(c, in * 9 * (size_t)w->group * cells);
    w->dlogits = nn_carve_floats(c, nb * (size_t)s->policy);
    w->dpolf = nn_carve_floats(c, 2 * nb * cells);
    w->dpol1 = nn_carve_floats(c, 2 * nb * cells);
    w->dval1 = nn_carve_floats(c, nb * cells);
    w->dvalh = nn_carve_floats(c, nb * (size_t)s->value_hidden);
    w->dvout = nn_carve_floats(c, nb);
}

nn_work *nn_work_new(const nn_shape *s, int max_batch, bool train)
{
    /* The products' sizes are ints: the widest is 2 planes of the batch. */
    if (nn_shape_check(s) || max_batch < 1 ||
        (size_t)max_batch * 2 * (size_t)(s->width * s->height) > INT_MAX)
        return NULL;
    nn_have_blas(); /* sets up BLAS (one thread) before any pass */
    nn_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->shape = *s;
    w->max_batch = max_batch;
    w->cells = s->width * s->height;
    w->train = train;
    size_t in = (size_t)(s->planes > s->channels ? s->planes : s->channels);
    size_t per_position = in * 9 * (size_t)w->cells;
    size_t group = NN_COL_BUDGET / per_position;
    w->group = group < 1 ? 1 : group > (size_t)max_batch ? max_batch : (int)group;
    w->act = calloc(1 + 2 * (size_t)s->blocks, sizeof *w->act);
    nn_carve c = {NULL, 0, 0};
    nn_work_carve(w, &c);
    /* The largest shapes with a large batch can pass the size of memory. */
    w->mem = w->act && c.bytes < (double)SIZE_MAX / 2 ? malloc(c.used) : NULL;
    if (!w->mem) {
        nn_work_free(w);
        return NULL;
    }
    c = (nn_carve){w->mem, 0, 0};
    nn_work_carve(w, &c);
    return w;
}

void nn_work_free(nn_work *w)
{
    if (!w)
        return;
    free(w->mem);
    free(w->act);
    free(w);
}

/* ---- Convolutions ---- */

/* Where a pass reads a stack of planes: plane c of position i starts at
 * base + i * pos_stride + c * plane_stride. */
typedef struct nn_planes {
    const float *base;
    size_t pos_stride, plane_stride;
} nn_planes;

/* The im2col matrix of positions first .. first + count - 1 of a stack of
 * `in` planes: row (c * 9 + ky * 3 + kx) holds, for every cell of every
 * position, plane c at the cell's neighbour (kx - 1, ky - 1), or 0 off the
 * board. The rows match the layout of a weight row [in][3][3]. */
static void nn_im2col(nn_planes src, int in, int width, int height, int first, int count,
                      float *col)
{
    size_t cells = (size_t)width * height, ncols = (size_t)count * cells;
    for (int c = 0; c < in; c++)
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) {
                float *row = col + (size_t)(c * 9 + ky * 3 + kx) * ncols;
                int dx = kx - 1, dy = ky - 1;
                int x0 = dx < 0 ? 1 : 0, x1 = dx > 0 ? width - 1 : width;
                for (int i = 0; i < count; i++) {
                    const float *plane =
                        src.base + (size_t)(first + i) * src.pos_stride + c * src.plane_stride;
                    float *out = row + (size_t)i * cells;
                    for (int y = 0; y < height; y++, out += width) {
                        int sy = y + dy;
                        if (sy < 0 || sy >= height) {
                            memset(out, 0, (size_t)width * sizeof *out);
                            continue;
                        }
                        const float *in_row = plane + (size_t)sy * width;
                        if (x0 > 0)
                            out[0] = 0;
                        if (x1 > x0)
                            memcpy(out + x0, in_row + x0 + dx, (size_t)(x1 - x0) * sizeof *out);
                        if (x1 < width)
                            out[width - 1] = 0;
                    }
                }
            }
}

/* The reverse of nn_im2col for gradients: adds each entry of col to the
 * plane cell it was read from. dst is laid out as nn_planes says. */
static void nn_col2im_add(const float *col, int in, int width, int height, int first, int count,
                          float *dst, size_t pos_stride, size_t plane_stride)
{
    size_t cells = (size_t)width * height, ncols = (size_t)count * cells;
    for (int c = 0; c < in; c++)
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) {
                const float *row = col + (size_t)(c * 9 + ky * 3 + kx) * ncols;
                int dx = kx - 1, dy = ky - 1;
                int x0 = dx < 0 ? 1 : 0, x1 = dx > 0 ? width - 1 : width;
                for (int i = 0; i < count; i++) {
                    float *plane = dst + (size_t)(first + i) * pos_stride + c * plane_stride;
                    const float *from = row + (size_t)i * cells;
                    for (int y = 0; y < height; y++, from += width) {
                        int sy = y + dy;
                        if (sy < 0 || sy >= height)
                            continue;
                        float *to = plane + (size_t)sy * width;
                        for (int x = x0; x < x1; x++)
                            to[x + dx] += from[x];
                    }
                }
            }
}

/* out (out_ch x n * cells, channel-major) = conv(src) + beta * out, without
 * the bias: beta 1 adds the residual already in out. */
static void nn_conv3x3_forward(const nn_net *net, nn_work *w, nn_planes src, int in, int out_ch,
                               const float *weights, int n, float beta, float *out)
{
    const nn_shape *s = &net->shape;
    int cells = w->cells, ldc = n * cells;
    for (int first = 0; first < n; first += w->group) {
        int count = n - first < w->group ? n - first : w->group;
        nn_im2col(src, in, s->width, s->height, first, count, w->col);
        nn_gemm(net->blas, false, false, out_ch, count * cells, in * 9, 1.0f, weights, in * 9,
                w->col, count * cells, beta, out + (size_t)first * cells, ldc);
    }
}

/* The gradients of a convolution, given dout (out_ch x n * cells) the
 * gradient of its output before the bias: dweights and dbias overwritten,
 * and when dsrc is not NULL, the gradient of its input added to dsrc (laid
 * out like the tower's activations). */
static void nn_conv3x3_backward(const nn_net *net, nn_work *w, nn_planes src, int in, int out_ch,
                                const float *weights, int n, const float *dout, float *dweights,
                                float *dbias, float *dsrc)
{
    const nn_shape *s = &net->shape;
    int cells = w->cells, ld = n * cells;
    for (int o = 0; o < out_ch; o++) {
        const float *row = dout + (size_t)o * ld;
        double sum = 0;
        for (int j = 0; j < ld; j++)
            sum += row[j];
        dbias[o] = (float)sum;
    }
    for (int first = 0; first < n; first += w->group) {
        int count = n - first < w->group ? n - first : w->group;
        const float *dchunk = dout + (size_t)first * cells;
        nn_im2col(src, in, s->width, s->height, first, count, w->col);
        nn_gemm(net->blas, false, true, out_ch, in * 9, count * cells, 1.0f, dchunk, ld, w->col,
                count * cells, first == 0 ? 0.0f : 1.0f, dweights, in * 9);
        if (!dsrc)
            continue;
        nn_gemm(net->blas, true, false, in * 9, count * cells, out_ch, 1.0f, weights, in * 9,
                dchunk, ld, 0.0f, w->dcol, count * cells);
        nn_col2im_add(w->dcol, in, s->width, s->height, first, count, dsrc, (size_t)cells,
                      (size_t)ld);
    }
}

/* rows x len: x = max(0, x + bias[row]). */
static void nn_bias_relu(float *x, int rows, size_t len, const float *bias)
{
    for (int r = 0; r < rows; r++) {
        float b = bias[r], *row = x + (size_t)r * len;
        for (size_t j = 0; j < len; j++) {
            float v = row[j] + b;
            row[j] = v > 0 ? v : 0;
        }
    }
}

/* rows x cols: x = max(0, x + bias[col]), a bias per column (per unit of a
 * fully connected layer, whose rows are the positions). */
static void nn_bias_relu_cols(float *x, int rows, int cols, const float *bias)
{
    for (int r = 0; r < rows; r++) {
        float *row = x + (size_t)r * cols;
        for (int j = 0; j < cols; j++) {
            float v = row[j] + bias[j];
            row[j] = v > 0 ? v : 0;
        }
    }
}

/* Gradient through a ReLU, from its output y: d = d where y > 0, else 0. */
static void nn_relu_mask(float *d, const float *y, size_t len)
{
    for (size_t j = 0; j < len; j++)
        d[j] = y[j] > 0 ? d[j] : 0;
}

/* ---- Forward ---- */

static void nn_pass_forward(const nn_net *net, nn_work *w, const float *input, int n, float *logits,
                            float *value)
{
    const nn_shape *s = &net->shape;
    nn_layout l = nn_layout_of(s);
    const float *p = net->params;
    int cells = w->cells, ch = s->channels, hidden = s->value_hidden;
    size_t nc = (size_t)n * cells, tower = (size_t)ch * nc;

    /* The input, position-major, read in place. */
    nn_planes in = {input, (size_t)s->planes * cells, (size_t)cells};
    nn_conv3x3_forward(net, w, in, s->planes, ch, p + l.stem_w, n, 0.0f, w->act[0]);
    nn_bias_relu(w->act[0], ch, nc, p + l.stem_b);

    for (int b = 0; b < s->blocks; b++) {
        const float *bw = p + l.block0 + (size_t)b * l.block_size;
        const float *w1 = bw, *b1 = bw + (size_t)ch * ch * 9, *w2 = b1 + ch,
                    *b2 = w2 + (size_t)ch * ch * 9;
        float *x = w->act[2 * b], *h = w->act[2 * b + 1], *y = w->act[2 * b + 2];
        nn_planes xs = {x, (size_t)cells, nc}, hs = {h, (size_t)cells, nc};
        nn_conv3x3_forward(net, w, xs, ch, ch, w1, n, 0.0f, h);
        nn_bias_relu(h, ch, nc, b1);
        /* y starts as the residual x (the same buffer outside training)
         * and the convolution adds to it. */
        if (y != x)
            memcpy(y, x, tower * sizeof *y);
        nn_conv3x3_forward(net, w, hs, ch, ch, w2, n, 1.0f, y);
        nn_bias_relu(y, ch, nc, b2);
    }
    const float *x = w->act[2 * s->blocks];

    /* Policy head: 1x1 convolution to 2 planes, then per position the 2
     * planes in a row of 2 * cells for the fully connected layer. */
    nn_gemm(net->blas, false, false, 2, (int)nc, ch, 1.0f, p + l.pconv_w, ch, x, (int)nc, 0.0f,
            w->pol1, (int)nc);
    nn_bias_relu(w->pol1, 2, nc, p + l.pconv_b);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            memcpy(w->polf + ((size_t)i * 2 + k) * cells, w->pol1 + k * nc + (size_t)i * cells,
                   (size_t)cells * sizeof(float));
    for (int i = 0; i < n; i++)
        memcpy(logits + (size_t)i * s->policy, p + l.pfc_b, (size_t)s->policy * sizeof(float));
    nn_gemm(net->blas, false, true, n, s->policy, 2 * cells, 1.0f, w->polf, 2 * cells, p + l.pfc_w,
            2 * cells, 1.0f, logits, s->policy);

    /* Value head: 1x1 convolution to one plane, which is already n x cells;
     * hidden layer; output through tanh. */
    nn_gemm(net->blas, false, false, 1, (int)nc, ch, 1.0f, p + l.vconv_w, ch, x, (int)nc, 0.0f,
            w->val1, (int)nc);
    nn_bias_relu(w->val1, 1, nc, p + l.vconv_b);
    nn_gemm(net->blas, false, true, n, hidden, cells, 1.0f, w->val1, cells, p + l.vfc1_w, cells,
            0.0f, w->valh, hidden);
    nn_bias_relu_cols(w->valh, n, hidden, p + l.vfc1_b);
    nn_gemm(net->blas, false, true, n, 1, hidden, 1.0f, w->valh, hidden, p + l.vfc2_w, hidden, 0.0f,
            value, 1);
    for (int i = 0; i < n; i++)
        value[i] = tanhf(value[i] + p[l.vfc2_b]);
}

/* Whether w fits net and n positions; the passes do nothing otherwise. */
static bool nn_work_fits(const nn_net *net, const nn_work *w, int n)
{
    const nn_shape *a = &net->shape, *b = &w->shape;
    return w && net->params && n >= 1 && n <= w->max_batch && a->width == b->width &&
           a->height == b->height && a->planes == b->planes && a->channels == b->channels &&
           a->blocks == b->blocks && a->policy == b->policy && a->value_hidden == b->value_hidden;
}

void nn_forward(const nn_net *net, nn_work *w, const float *input, int n, float *logits,
                float *value)
{
    if (!nn_work_fits(net, w, n))
        return;
    nn_pass_forward(net, w, input, n, logits, value);
}

/* ---- Backward ---- */

void nn_backward(const nn_net *net, nn_work *w, const float *input, int n,
                 const float *policy_target, const float *value_target, float *grad,
                 float *policy_loss, float *value_loss)
{
    if (!nn_work_fits(net, w, n) || !w->train) {
        *policy_loss = *value_loss = NAN;
        return;
    }
    nn_pass_forward(net, w, input, n, w->logits, w->value);

    const nn_shape *s = &net->shape;
    nn_layout l = nn_layout_of(s);
    const float *p = net->params;
    int cells = w->cells, ch = s->channels, hidden = s->value_hidden, pol = s->policy;
    size_t nc = (size_t)n * cells;
    float inv_n = 1.0f / (float)n;

    /* The loss and its gradient at the logits and the value. With
     * probabilities q = softmax(z) and a target t, the cross-entropy
     * -sum t log q has the gradient q * sum(t) - t at z. */
    double ploss = 0, vloss = 0;
    for (int i = 0; i < n; i++) {
        const float *z = w->logits + (size_t)i * pol, *t = policy_target + (size_t)i * pol;
        float *dz = w->dlogits + (size_t)i * pol;
        float zmax = z[0];
        for (int k = 1; k < pol; k++)
            zmax = z[k] > zmax ? z[k] : zmax;
        double sum = 0, tsum = 0;
        for (int k = 0; k < pol; k++) {
            dz[k] = expf(z[k] - zmax);
            sum += dz[k];
        }
        double log_sum = log(sum);
        for (int k = 0; k < pol; k++) {
            if (t[k] != 0)
                ploss -= t[k] * ((double)(z[k] - zmax) - log_sum);
            tsum += t[k];
        }
        float scale = (float)(tsum / sum) * inv_n;
        for (int k = 0; k < pol; k++)
            dz[k] = dz[k] * scale - t[k] * inv_n;

        /* (v - target)^2 through v = tanh(u). */
        float v = w->value[i], e = v - value_target[i];
        vloss += (double)e * e;
        w->dvout[i] = 2 * e * (1 - v * v) * inv_n;
    }
    *policy_loss = (float)(ploss / n);
    *value_loss = (float)(vloss / n);

    /* Value head, from the top. */
    grad[l.vfc2_b] = 0;
    for (int i = 0; i < n; i++)
        grad[l.vfc2_b] += w->dvout[i];
    nn_gemm(net->blas, true, false, 1, hidden, n, 1.0f, w->dvout, 1, w->valh, hidden, 0.0f,
            grad + l.vfc2_w, hidden);
    nn_gemm(net->blas, false, false, n, hidden, 1, 1.0f, w->dvout, 1, p + l.vfc2_w, hidden, 0.0f,
            w->dvalh, hidden);
    nn_relu_mask(w->dvalh, w->valh, (size_t)n * hidden);
    for (int j = 0; j < hidden; j++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += w->dvalh[(size_t)i * hidden + j];
        grad[l.vfc1_b + j] = (float)sum;
    }
    nn_gemm(net->blas, true, false, hidden, cells, n, 1.0f, w->dvalh, hidden, w->val1, cells, 0.0f,
            grad + l.vfc1_w, cells);
    nn_gemm(net->blas, false, false, n, cells, hidden, 1.0f, w->dvalh, hidden, p + l.vfc1_w, cells,
            0.0f, w->dval1, cells);
    nn_relu_mask(w->dval1, w->val1, nc);

    /* Policy head, from the top; the gradient of each position's row of
     * 2 * cells goes back to the two planes. */
    for (int k = 0; k < pol; k++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += w->dlogits[(size_t)i * pol + k];
        grad[l.pfc_b + k] = (float)sum;
    }
    nn_gemm(net->blas, true, false, pol, 2 * cells, n, 1.0f, w->dlogits, pol, w->polf, 2 * cells,
            0.0f, grad + l.pfc_w, 2 * cells);
    nn_gemm(net->blas, false, false, n, 2 * cells, pol, 1.0f, w->dlogits, pol, p + l.pfc_w,
            2 * cells, 0.0f, w->dpolf, 2 * cells);
    nn_relu_mask(w->dpolf, w->polf, 2 * nc);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            memcpy(w->dpol1 + k * nc + (size_t)i * cells, w->dpolf + ((size_t)i * 2 + k) * cells,
                   (size_t)cells * sizeof(float));

    /* The heads' 1x1 convolutions: their weights' gradients, and the
     * gradient of the tower's output, to which both heads contribute. */
    const float *x = w->act[2 * s->blocks];
    for (int k = 0; k < 2; k++) {
        double sum = 0;
        for (size_t j = 0; j < nc; j++)
            sum += w->dpol1[k * nc + j];
        grad[l.pconv_b + k] = (float)sum;
    }
    nn_gemm(net->blas, false, true, 2, ch, (int)nc, 1.0f, w->dpol1, (int)nc, x, (int)nc, 0.0f,
            grad + l.pconv_w, ch);
    double vsum = 0;
    for (size_t j = 0; j < nc; j++)
        vsum += w->dval1[j];
    grad[l.vconv_b] = (float)vsum;
    nn_gemm(net->blas, false, true, 1, ch, (int)nc, 1.0f, w->dval1, (int)nc, x, (int)nc, 0.0f,
            grad + l.vconv_w, ch);
    nn_gemm(net->blas, true, false, ch, (int)nc, 2, 1.0f, p + l.pconv_w, ch, w->dpol1, (int)nc,
            0.0f, w->dx, (int)nc);
    nn_gemm(net->blas, false, false, ch, (int)nc, 1, 1.0f, p + l.vconv_w, 1, w->dval1, (int)nc,
            1.0f, w->dx, (int)nc);

    /* The tower, from the last block down. dx is the gradient of the
     * block's output; through y = ReLU(x + conv2(h) + b2) it is also the
     * gradient of the residual x, to which conv1's part is then added. */
    for (int b = s->blocks - 1; b >= 0; b--) {
        size_t off = l.block0 + (size_t)b * l.block_size;
        size_t conv = (size_t)ch * ch * 9;
        const float *x_in = w->act[2 * b], *h = w->act[2 * b + 1], *y = w->act[2 * b + 2];
        nn_planes xs = {x_in, (size_t)cells, nc}, hs = {h, (size_t)cells, nc};
        nn_relu_mask(w->dx, y, (size_t)ch * nc);
        memset(w->dh, 0, (size_t)ch * nc * sizeof(float));
        nn_conv3x3_backward(net, w, hs, ch, ch, p + off + conv + ch, n, w->dx,
                            grad + off + conv + ch, grad + off + 2 * conv + ch, w->dh);
        nn_relu_mask(w->dh, h, (size_t)ch * nc);
        nn_conv3x3_backward(net, w, xs, ch, ch, p + off, n, w->dh, grad + off, grad + off + conv,
                            w->dx);
    }

    /* The stem, whose input needs no gradient. */
    nn_relu_mask(w->dx, w->act[0], (size_t)ch * nc);
    nn_planes in = {input, (size_t)s->planes * cells, (size_t)cells};
    nn_conv3x3_backward(net, w, in, s->planes, ch, p + l.stem_w, n, w->dx, grad + l.stem_w,
                        grad + l.stem_b, NULL);
}

/* ---- Optimiser ---- */

void nn_adam_step(const nn_adam *a, uint64_t t, float *params, const float *grad, float *m,
                  float *v, size_t n)
{
    if (t < 1)
        t = 1;
    float b1 = a->beta1, b2 = a->beta2;
    /* The bias corrections divide out the zero start of m and v. */
    float c1 = (float)(1.0 / (1.0 - pow((double)b1, (double)t)));
    float c2 = (float)(1.0 / (1.0 - pow((double)b2, (double)t)));
    for (size_t i = 0; i < n; i++) {
        float g = grad[i];
        m[i] = b1 * m[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        float mhat = m[i] * c1, vhat = v[i] * c2;
        params[i] -= a->lr * (mhat / (sqrtf(vhat) + a->eps) + a->weight_decay * params[i]);
    }
}
