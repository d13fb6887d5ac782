/*
 * test_nn.c - the network's arithmetic (net/nn.c, net/gemm.c): the matrix
 * product against a plain triple loop, the forward pass against values
 * worked out by hand, BLAS against plain C, batches against single
 * positions, the backward pass against finite differences, a short
 * training run, and AdamW against its formula.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/nn.h"
#include "t.h"

/* ---- Helpers ---- */

static uint64_t nn_test_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static float nn_test_uniform(uint64_t *state, float lo, float hi)
{
    double u = (double)(nn_test_next(state) >> 11) / 9007199254740992.0;
    return (float)(lo + (hi - lo) * u);
}

static void nn_test_fill(uint64_t *state, float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = nn_test_uniform(state, lo, hi);
}

/* Input planes of 0s and 1s, as a game's planes are. */
static void nn_test_planes(uint64_t *state, float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(nn_test_next(state) & 1);
}

/* Rows of `cols` probabilities (a softmax of random numbers). */
static void nn_test_targets(uint64_t *state, float *t, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        float *row = t + (size_t)r * cols;
        double sum = 0;
        for (int c = 0; c < cols; c++) {
            row[c] = expf(nn_test_uniform(state, -2, 2));
            sum += row[c];
        }
        for (int c = 0; c < cols; c++)
            row[c] = (float)(row[c] / sum);
    }
}

/* Whether a and b agree within rel relative to the larger, or abs. */
static bool nn_test_close(double a, double b, double rel, double abs)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= rel * scale + abs;
}

/* Counts the elements of x and y (n each) that disagree, printing the
 * first few. */
static int nn_test_compare(const char *what, const float *x, const float *y, size_t n, double rel,
                           double abs)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!nn_test_close(x[i], y[i], rel, abs) && bad++ < 5)
            fprintf(stderr, "%s[%zu]: %.9g != %.9g\n", what, i, (double)x[i], (double)y[i]);
    return bad;
}

/* C = alpha * op(A) * op(B) + beta * C, the definition, in double. */
static void nn_test_gemm_ref(bool ta, bool tb, int m, int n, int k, float alpha, const float *a,
                             int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++) {
                double x = ta ? a[(size_t)p * lda + i] : a[(size_t)i * lda + p];
                double y = tb ? b[(size_t)j * ldb + p] : b[(size_t)p * ldb + j];
                s += x * y;
            }
            float *cij = c + (size_t)i * ldc + j;
            *cij = (float)(alpha * s + (beta == 0 ? 0.0 : (double)beta * *cij));
        }
}

/* ---- The matrix product ---- */

/* One product of each kind, on A, B and C padded beyond their columns
 * (lda, ldb, ldc larger than needed), against the definition; the padding
 * of C must stay untouched. */
static void nn_test_gemm_case(bool blas, bool ta, bool tb, int m, int n, int k, float alpha,
                              float beta, uint64_t seed)
{
    uint64_t st = seed;
    int pad = 3;
    int a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
    int lda = a_cols + pad, ldb = b_cols + pad, ldc = n + pad;
    size_t a_size = (size_t)a_rows * lda, b_size = (size_t)b_rows * ldb, c_size = (size_t)m * ldc;
    float *a = malloc((a_size + 1) * sizeof *a), *b = malloc((b_size + 1) * sizeof *b);
    float *c = malloc((c_size + 1) * sizeof *c), *ref = malloc((c_size + 1) * sizeof *ref);
    T_TRUE(a && b && c && ref);
    if (!a || !b || !c || !ref)
        goto done;
    nn_test_fill(&st, a, a_size, -1, 1);
    nn_test_fill(&st, b, b_size, -1, 1);
    if (beta == 0)
        for (size_t i = 0; i < c_size; i++)
            c[i] = NAN; /* beta 0 must not read C */
    else
        nn_test_fill(&st, c, c_size, -1, 1);
    for (int i = 0; i < m; i++)
        for (int j = n; j < ldc; j++)
            c[(size_t)i * ldc + j] = 12345.0f;
    memcpy(ref, c, c_size * sizeof *c);
    nn_test_gemm_ref(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, ref, ldc);
    nn_gemm(blas, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    int bad = 0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            size_t at = (size_t)i * ldc + j;
            if (!nn_test_close(c[at], ref[at], 1e-5, 1e-5) && bad++ < 3)
                T_FAIL_AT("gemm blas %d ta %d tb %d %dx%dx%d: C[%d][%d] = %g, not %g", blas, ta, tb,
                          m, n, k, i, j, (double)c[at], (double)ref[at]);
        }
        for (int j = n; j < ldc; j++)
            if (c[(size_t)i * ldc + j] != 12345.0f && bad++ < 3)
                T_FAIL_AT("gemm wrote into the padding of row %d", i);
    }
done:
    free(a);
    free(b);
    free(c);
    free(ref);
}

void test_nn_gemm(void)
{
    /* Sizes around the plain product's tiles (3 rows by 16, 8 and 4
     * columns), and the shapes of the network's products. */
    static const int sizes[][3] = {{1, 1, 1},   {2, 3, 5},    {3, 16, 7}, {4, 17, 9}, {5, 29, 3},
                                   {7, 37, 33}, {32, 42, 72}, {2, 9, 16}, {9, 2, 40}, {16, 9, 1}};
    uint64_t seed = 1;
    for (int blas = 0; blas < (nn_have_blas() ? 2 : 1); blas++)
        for (int t = 0; t < 4; t++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                bool ta = t & 1, tb = t & 2;
                int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
                nn_test_gemm_case(blas, ta, tb, m, n, k, 1.0f, 0.0f, seed++);
                nn_test_gemm_case(blas, ta, tb, m, n, k, 0.7f, 0.3f, seed++);
                nn_test_gemm_case(blas, ta, tb, m, n, k, -1.5f, 1.0f, seed++);
            }

    /* Nothing to multiply (k = 0): C is only scaled, or cleared. */
    float c[6] = {1, 2, 3, NAN, NAN, NAN}, a[1] = {0}, b[1] = {0};
    nn_gemm(false, false, false, 1, 3, 0, 1.0f, a, 1, b, 3, 2.0f, c, 3);
    T_NEAR(c[0], 2, 0);
    T_NEAR(c[2], 6, 0);
    nn_gemm(false, false, false, 1, 3, 0, 1.0f, a, 1, b, 3, 0.0f, c + 3, 3);
    T_NEAR(c[3], 0, 0);
    T_NEAR(c[5], 0, 0);
}

/* BLAS and the plain product agree on products of the network's sizes. */
void test_nn_gemm_blas(void)
{
    if (!nn_have_blas())
        return; /* nothing to compare with */
    static const int sizes[][3] = {{32, 42, 288}, {64, 225, 576}, {7, 32, 84}, {128, 9, 1152}};
    uint64_t st = 5;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int t = 0; t < 4; t++) {
            bool ta = t & 1, tb = t & 2;
            int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
            int lda = ta ? m : k, ldb = tb ? k : n;
            float *a = malloc((size_t)m * k * sizeof *a), *b = malloc((size_t)k * n * sizeof *b);
            float *c1 = malloc((size_t)m * n * sizeof *c1),
                  *c2 = malloc((size_t)m * n * sizeof *c2);
            T_TRUE(a && b && c1 && c2);
            if (a && b && c1 && c2) {
                nn_test_fill(&st, a, (size_t)m * k, -1, 1);
                nn_test_fill(&st, b, (size_t)k * n, -1, 1);
                nn_test_fill(&st, c1, (size_t)m * n, -1, 1);
                memcpy(c2, c1, (size_t)m * n * sizeof *c1);
                nn_gemm(true, ta, tb, m, n, k, 0.5f, a, lda, b, ldb, 0.25f, c1, n);
                nn_gemm(false, ta, tb, m, n, k, 0.5f, a, lda, b, ldb, 0.25f, c2, n);
                /* Sums of k terms of size about 1: absolute error of about
                 * sqrt(k) ulps of the terms, however small the sum. */
                T_EQ(nn_test_compare("blas vs plain", c1, c2, (size_t)m * n, 1e-4, 1e-4), 0);
            }
            free(a);
            free(b);
            free(c1);
            free(c2);
        }
}

/* ---- Shapes, initialisation, work ---- */

void test_nn_shape(void)
{
    nn_shape ok = {7, 6, 4, 32, 3, 7, 32};
    T_TRUE(nn_shape_check(&ok) == NULL);
    nn_shape zero_blocks = {1, 1, 1, 1, 0, 1, 1};
    T_TRUE(nn_shape_check(&zero_blocks) == NULL);
    nn_shape biggest = {32, 32, 32, 256, 40, 1025, 512};
    T_TRUE(nn_shape_check(&biggest) == NULL);

    nn_shape bad[] = {
        {7, 6, 4, 0, 3, 7, 32},   {33, 6, 4, 32, 3, 7, 32}, {7, 0, 4, 32, 3, 7, 32},
        {7, 33, 4, 32, 3, 7, 32}, {0, 6, 4, 32, 3, 7, 32},  {7, 6, 0, 32, 3, 7, 32},
        {7, 6, 33, 32, 3, 7, 32}, {7, 6, 4, 257, 3, 7, 32}, {7, 6, 4, 32, -1, 7, 32},
        {7, 6, 4, 32, 41, 7, 32}, {7, 6, 4, 32, 3, 0, 32},  {7, 6, 4, 32, 3, 1026, 32},
        {7, 6, 4, 32, 3, 7, 0},   {7, 6, 4, 32, 3, 7, 513}, {-7, 6, 4, 32, 3, 7, 32},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = nn_shape_check(&bad[i]);
        T_TRUE(why != NULL && why[0] != 0);
        T_EQ(nn_param_count(&bad[i]), 0);
        nn_net net;
        T_EQ(nn_init(&net, &bad[i], 1), -1);
        T_TRUE(net.params == NULL && net.n_params == 0);
        T_TRUE(nn_work_new(&bad[i], 4, false) == NULL);
    }
    T_TRUE(nn_work_new(&ok, 0, false) == NULL);

    /* The count, layer by layer: stem; blocks; policy head; value head. */
    size_t c = 32, cells = 42;
    size_t want = (c * 4 * 9 + c) + 3 * 2 * (c * c * 9 + c) + (2 * c + 2) + (7 * 2 * cells + 7) +
                  (c + 1) + (32 * cells + 32) + (32 + 1);
    T_EQ(nn_param_count(&ok), want);
    T_EQ(nn_param_count(&zero_blocks), 10 + 4 + 3 + 2 + 2 + 2);
}

void test_nn_init(void)
{
    nn_shape s = {7, 6, 4, 32, 2, 7, 32};
    nn_net a, b, c;
    T_EQ(nn_init(&a, &s, 42), 0);
    T_EQ(nn_init(&b, &s, 42), 0);
    T_EQ(nn_init(&c, &s, 43), 0);
    T_EQ(a.n_params, nn_param_count(&s));
    T_TRUE(a.blas == nn_have_blas());
    T_TRUE(memcmp(a.params, b.params, a.n_params * sizeof(float)) == 0);
    T_TRUE(memcmp(a.params, c.params, a.n_params * sizeof(float)) != 0);

    /* Every machine draws the same numbers: the first weights of seed 42. */
    T_TRUE(a.params[0] == 0.0977503806f);
    T_TRUE(a.params[1] == 0.153838441f);
    T_TRUE(a.params[a.n_params - 2] == -0.0399018079f); /* the value output's last weight */

    /* He init: the stem's weights have variance 2 / fan_in, the second
     * convolution of a block a hundredth of that; the biases are 0. */
    size_t ch = 32, stem = ch * 4 * 9, conv = ch * ch * 9;
    double ss = 0;
    for (size_t i = 0; i < stem; i++)
        ss += (double)a.params[i] * a.params[i];
    T_TRUE(nn_test_close(ss / (double)stem, 2.0 / 36, 0.15, 0));
    for (size_t i = stem; i < stem + ch; i++)
        T_TRUE(a.params[i] == 0);
    const float *block = a.params + stem + ch, *conv2 = block + conv + ch;
    double s1 = 0, s2 = 0;
    for (size_t i = 0; i < conv; i++) {
        s1 += (double)block[i] * block[i];
        s2 += (double)conv2[i] * conv2[i];
    }
    T_TRUE(nn_test_close(s1 / (double)conv, 2.0 / (double)(ch * 9), 0.1, 0));
    T_TRUE(nn_test_close(s2 / (double)conv, 0.01 * 2.0 / (double)(ch * 9), 0.1, 0));
    T_TRUE(block[conv] == 0 && conv2[conv] == 0);
    /* The last bias (the value output's) is 0. */
    T_TRUE(a.params[a.n_params - 1] == 0);

    nn_free(&a);
    T_TRUE(a.params == NULL && a.n_params == 0);
    nn_free(&a); /* an empty net is fine */
    nn_free(&b);
    nn_free(&c);
}

/* A work that does not fit the call leaves the outputs alone. */
void test_nn_work_misuse(void)
{
    nn_shape s = {3, 3, 2, 4, 1, 9, 4}, other = {3, 3, 2, 5, 1, 9, 4};
    nn_net net;
    T_EQ(nn_init(&net, &s, 1), 0);
    nn_work *w = nn_work_new(&s, 2, false), *wo = nn_work_new(&other, 4, true);
    T_TRUE(w && wo);
    float input[3 * 2 * 9] = {0}, logits[3 * 9], value[3], grad[1];
    for (int i = 0; i < 3 * 9; i++)
        logits[i] = 77;
    value[0] = value[1] = value[2] = 77;
    nn_forward(&net, w, input, 3, logits, value); /* beyond max_batch */
    nn_forward(&net, w, input, 0, logits, value);
    nn_forward(&net, wo, input, 1, logits, value); /* another shape */
    T_TRUE(logits[0] == 77 && value[0] == 77 && value[2] == 77);
    float pl = 0, vl = 0, target[9] = {1}, vt = 0;
    nn_backward(&net, w, input, 1, target, &vt, grad, &pl, &vl); /* not for training */
    T_TRUE(isnan(pl) && isnan(vl));
    nn_forward(&net, w, input, 2, logits, value);
    T_TRUE(value[0] != 77 && value[1] != 77 && value[2] == 77);
    nn_work_free(w);
    nn_work_free(wo);
    nn_work_free(NULL);
    nn_free(&net);
}

/* ---- Forward ---- */

/* Networks small enough to work out by hand. */
void test_nn_forward_hand(void)
{
    /* A board of 2 x 1 cells, one plane, one channel, no block. The stem's
     * weights off the middle row only ever see the zero padding, so their
     * 5s must not count. */
    nn_shape s = {2, 1, 1, 1, 0, 2, 1};
    nn_net net;
    T_EQ(nn_init(&net, &s, 3), 0);
    T_EQ(net.n_params, 31);
    static const float p[31] = {
        5,    5,     5,     1, 2, -1, 5, 5, 5, /* stem 3x3: left 1, middle 2, right -1 */
        0.5f,                                  /* stem bias */
        1,    -1,    0.25f, 8,                 /* policy 1x1 convolution, biases */
        1,    0,     0,     0,                 /* policy FC, output 0 */
        0,    0.1f,  -0.1f, 1,                 /* policy FC, output 1 */
        0,    1,                               /* policy FC biases */
        0.5f, -1,                              /* value 1x1 convolution, bias */
        1,    2,     0.5f,                     /* value hidden layer, bias */
        0.1f, -0.2f,                           /* value output, bias */
    };
    memcpy(net.params, p, sizeof p);
    /* Input [1, 3]. Stem: cell 0: 2 * 1 - 1 * 3 + 0.5 = -0.5 -> 0; cell 1:
     * 1 * 1 + 2 * 3 + 0.5 = 7.5. Policy planes [0.25, 7.75] and [8, 0.5];
     * logits 0.25 and 0.775 - 0.8 + 0.5 + 1 = 1.475. Value plane
     * [-1 -> 0, 2.75]; hidden 2 * 2.75 + 0.5 = 6; value tanh(0.6 - 0.2). */
    float input[2] = {1, 3}, logits[2], value[1];
    for (int mode = 0; mode < 4; mode++) { /* with and without BLAS, and train */
        net.blas = (mode & 1) && nn_have_blas();
        nn_work *w = nn_work_new(&s, 1, mode & 2);
        T_TRUE(w != NULL);
        if (!w)
            break;
        nn_forward(&net, w, input, 1, logits, value);
        T_NEAR(logits[0], 0.25, 1e-6);
        T_NEAR(logits[1], 1.475, 1e-6);
        T_NEAR(value[0], tanh(0.4), 1e-6);
        nn_work_free(w);
    }
    nn_free(&net);

    /* One cell, one channel, one block: each 3x3 convolution is its middle
     * weight. Input 2; stem 1.5 * 2 - 1 = 2; h = ReLU(-1 * 2 + 3) = 1;
     * block output ReLU(2 + 4 * 1 - 0.5) = 5.5; policy planes 5.5 and
     * -11 + 20 = 9, logit 5.5 + 9 - 10 = 4.5; value plane 0.2 * 5.5 = 1.1,
     * hidden 1.1, value tanh(-1.1 + 0.5). */
    nn_shape s1 = {1, 1, 1, 1, 1, 1, 1};
    T_EQ(nn_init(&net, &s1, 3), 0);
    T_EQ(net.n_params, 43);
    static const float q[43] = {
        100,  100,  100, 100, 1.5f, 100, 100, 100, 100, -1,    /* stem */
        100,  100,  100, 100, -1,   100, 100, 100, 100, 3,     /* conv1 */
        100,  100,  100, 100, 4,    100, 100, 100, 100, -0.5f, /* conv2 */
        1,    -2,   0,   20,                                   /* policy 1x1 */
        1,    1,    -10,                                       /* policy FC */
        0.2f, 0,                                               /* value 1x1 */
        1,    0,                                               /* value hidden */
        -1,   0.5f,                                            /* value output */
    };
    memcpy(net.params, q, sizeof q);
    float in1[1] = {2}, lg1[1], v1[1];
    for (int train = 0; train < 2; train++) {
        nn_work *w = nn_work_new(&s1, 1, train);
        T_TRUE(w != NULL);
        if (!w)
            break;
        nn_forward(&net, w, in1, 1, lg1, v1);
        T_NEAR(lg1[0], 4.5, 1e-5);
        T_NEAR(v1[0], tanh(-0.6), 1e-6);
        nn_work_free(w);
    }
    nn_free(&net);
}

/* The same network with and without BLAS. */
void test_nn_forward_blas(void)
{
    if (!nn_have_blas())
        return;
    nn_shape s = {7, 6, 4, 32, 3, 7, 32};
    nn_net net;
    T_EQ(nn_init(&net, &s, 11), 0);
    uint64_t st = 2;
    int n = 5;
    size_t in_size = (size_t)n * 4 * 42;
    float *input = malloc(in_size * sizeof *input);
    float l1[5 * 7], l2[5 * 7], v1[5], v2[5];
    nn_work *w = nn_work_new(&s, n, false);
    T_TRUE(input && w);
    if (input && w) {
        nn_test_planes(&st, input, in_size);
        net.blas = true;
        nn_forward(&net, w, input, n, l1, v1);
        net.blas = false;
        nn_forward(&net, w, input, n, l2, v2);
        T_EQ(nn_test_compare("logits", l1, l2, 5 * 7, 1e-4, 1e-4), 0);
        T_EQ(nn_test_compare("value", v1, v2, 5, 1e-4, 1e-4), 0);
    }
    free(input);
    nn_work_free(w);
    nn_free(&net);
}

/* A batch of n gives what n passes of one give: on a small board (the
 * whole batch in one product) and on a large one (the batch in groups of
 * one position). */
void test_nn_forward_batch(void)
{
    nn_shape shapes[] = {{5, 4, 3, 8, 2, 21, 8}, {32, 30, 2, 16, 1, 33, 4}};
    for (size_t k = 0; k < 2; k++) {
        const nn_shape *s = &shapes[k];
        int n = 4, cells = s->width * s->height;
        size_t in_size = (size_t)n * s->planes * cells, pol = (size_t)s->policy;
        nn_net net;
        T_EQ(nn_init(&net, s, 100 + k), 0);
        float *input = malloc(in_size * sizeof(float));
        float *lb = malloc(n * pol * sizeof(float)), *l1 = malloc(n * pol * sizeof(float));
        float vb[4], v1[4];
        nn_work *wb = nn_work_new(s, n, false), *w1 = nn_work_new(s, 1, k == 0);
        T_TRUE(input && lb && l1 && wb && w1);
        if (input && lb && l1 && wb && w1) {
            uint64_t st = 9 + k;
            nn_test_planes(&st, input, in_size);
            for (int blas = 0; blas < (nn_have_blas() ? 2 : 1); blas++) {
                net.blas = blas;
                nn_forward(&net, wb, input, n, lb, vb);
                for (int i = 0; i < n; i++)
                    nn_forward(&net, w1, input + (size_t)i * s->planes * cells, 1, l1 + i * pol,
                               v1 + i);
                T_EQ(nn_test_compare("batch logits", lb, l1, n * pol, 1e-5, 1e-5), 0);
                T_EQ(nn_test_compare("batch value", vb, v1, n, 1e-5, 1e-5), 0);
                for (int i = 0; i < n; i++)
                    T_TRUE(vb[i] > -1 && vb[i] < 1);
            }
            /* Different positions get different answers. */
            T_TRUE(memcmp(lb, lb + pol, pol * sizeof(float)) != 0);
        }
        free(input);
        free(lb);
        free(l1);
        nn_work_free(wb);
        nn_work_free(w1);
        nn_free(&net);
    }
}

/* ---- Backward ---- */

/* The loss of nn.h at the network's current parameters, worked out here in
 * double from the forward pass's outputs. */
static double nn_test_loss(const nn_net *net, nn_work *w, const float *input, int n,
                           const float *pt, const float *vt, float *logits, float *value)
{
    int pol = net->shape.policy;
    nn_forward(net, w, input, n, logits, value);
    double loss = 0;
    for (int i = 0; i < n; i++) {
        const float *z = logits + (size_t)i * pol;
        double zmax = z[0], sum = 0;
        for (int k = 1; k < pol; k++)
            zmax = z[k] > zmax ? z[k] : zmax;
        for (int k = 0; k < pol; k++)
            sum += exp(z[k] - zmax);
        for (int k = 0; k < pol; k++)
            loss -= pt[(size_t)i * pol + k] * (z[k] - zmax - log(sum));
        double e = (double)value[i] - vt[i];
        loss += e * e;
    }
    return loss / n;
}

/* The layers of a network, as (offset, size, name), in the order of nn.h. */
typedef struct nn_test_layer {
    size_t at, size;
    char name[24];
} nn_test_layer;

static int nn_test_layers(const nn_shape *s, nn_test_layer *out)
{
    size_t c = (size_t)s->channels, cells = (size_t)s->width * s->height, at = 0;
    size_t sizes[8 + 4 * NN_MAX_BLOCKS];
    int n = 0;
    sizes[n++] = c * s->planes * 9;
    sizes[n++] = c;
    for (int b = 0; b < s->blocks; b++) {
        sizes[n++] = c * c * 9;
        sizes[n++] = c;
        sizes[n++] = c * c * 9;
        sizes[n++] = c;
    }
    size_t heads[] = {2 * c,
                      2,
                      (size_t)s->policy * 2 * cells,
                      (size_t)s->policy,
                      c,
                      1,
                      (size_t)s->value_hidden * cells,
                      (size_t)s->value_hidden,
                      (size_t)s->value_hidden,
                      1};
    for (int i = 0; i < 10; i++)
        sizes[n++] = heads[i];
    static const char *head_names[] = {
        "policy conv w", "policy conv b", "policy fc w", "policy fc b", "value conv w",
        "value conv b",  "value fc1 w",   "value fc1 b", "value fc2 w", "value fc2 b"};
    for (int i = 0; i < n; i++) {
        out[i].at = at;
        out[i].size = sizes[i];
        at += sizes[i];
        if (i < 2)
            snprintf(out[i].name, sizeof out[i].name, "stem %s", i == 0 ? "w" : "b");
        else if (i < 2 + 4 * s->blocks)
            snprintf(out[i].name, sizeof out[i].name, "block %d conv%d %s", (i - 2) / 4,
                     (i - 2) % 4 / 2 + 1, i % 2 == 0 ? "w" : "b");
        else
            snprintf(out[i].name, sizeof out[i].name, "%s", head_names[i - 2 - 4 * s->blocks]);
    }
    return n;
}

/* nn_backward against central differences of the loss, for a sample of the
 * parameters of every layer. Where a difference straddles the kink of a
 * ReLU it is not a derivative: the one-sided differences above and below
 * then disagree (the slopes on either side), and the parameter is left out
 * (a few at most). Every layer must have some gradient well away from 0,
 * or the comparison would prove nothing for it. */
void test_nn_gradient(void)
{
    nn_shape s = {3, 3, 3, 4, 2, 9, 8};
    int n = 3, per_layer = 8;
    nn_net net;
    T_EQ(nn_init(&net, &s, 5), 0);
    uint64_t st = 77;
    /* Biases away from 0 too, so that they matter and units are neither
     * all on nor all off. */
    nn_test_layer layers[8 + 4 * NN_MAX_BLOCKS];
    int n_layers = nn_test_layers(&s, layers);
    T_EQ(layers[n_layers - 1].at + 1, net.n_params);
    for (int i = 1; i < n_layers; i += 1)
        if (strstr(layers[i].name, " b"))
            nn_test_fill(&st, net.params + layers[i].at, layers[i].size, -0.3f, 0.3f);
    /* The value output at full size (nn_init makes it small), so that the
     * value head's gradients are large enough to check. */
    for (size_t i = 0; i < layers[n_layers - 2].size; i++)
        net.params[layers[n_layers - 2].at + i] *= 10;

    float input[3 * 3 * 9], pt[3 * 9], vt[3] = {0.5f, -0.8f, 0.1f}, logits[3 * 9], value[3];
    nn_test_planes(&st, input, sizeof input / sizeof input[0]);
    nn_test_targets(&st, pt, n, 9);
    float *grad = malloc(net.n_params * sizeof *grad);
    nn_work *w = nn_work_new(&s, n, true);
    T_TRUE(grad && w);
    if (!grad || !w)
        goto done;

    float pl = 0, vl = 0;
    nn_backward(&net, w, input, n, pt, vt, grad, &pl, &vl);
    double loss = nn_test_loss(&net, w, input, n, pt, vt, logits, value);
    T_NEAR(pl + vl, loss, 1e-5);
    T_TRUE(pl > 0 && vl > 0);

    const double eps = 1e-3, f0 = loss;
    int checked = 0, skipped = 0;
    for (int li = 0; li < n_layers; li++) {
        const nn_test_layer *L = &layers[li];
        double largest = 0;
        int count = L->size < (size_t)per_layer ? (int)L->size : per_layer;
        for (int j = 0; j < count; j++) {
            /* One parameter at random from each of `count` equal parts. */
            size_t part = L->size / count;
            size_t at = L->at + (size_t)j * part + nn_test_next(&st) % part;
            float keep = net.params[at];
            net.params[at] = (float)(keep + eps);
            double up = nn_test_loss(&net, w, input, n, pt, vt, logits, value);
            double e_up = (double)net.params[at] - keep;
            net.params[at] = (float)(keep - eps);
            double down = nn_test_loss(&net, w, input, n, pt, vt, logits, value);
            double e_down = keep - (double)net.params[at];
            net.params[at] = keep;
            double d_up = (up - f0) / e_up, d_down = (f0 - down) / e_down;
            double central = (up - down) / (e_up + e_down);
            if (!nn_test_close(d_up, d_down, 0.02, 2e-3)) {
                skipped++;
                continue;
            }
            checked++;
            largest = fabs(grad[at]) > largest ? fabs(grad[at]) : largest;
            if (!nn_test_close(grad[at], central, 0.01, 5e-4))
                T_FAIL_AT("%s: d loss / d param %zu = %g by differences, %g by nn_backward",
                          L->name, at - L->at, central, (double)grad[at]);
        }
        /* A layer whose sampled gradients are all 0 would prove nothing. */
        if (largest < 1e-3)
            T_FAIL_AT("%s: no sampled gradient away from 0 (largest %g)", L->name, largest);
    }
    T_TRUE(checked >= 9 * skipped);
    T_TRUE(checked > 80);

    /* The gradient is overwritten, not added to. */
    float *again = malloc(net.n_params * sizeof *again);
    if (again) {
        for (size_t i = 0; i < net.n_params; i++)
            again[i] = 1e6f;
        nn_backward(&net, w, input, n, pt, vt, again, &pl, &vl);
        T_EQ(nn_test_compare("grad again", again, grad, net.n_params, 1e-6, 1e-7), 0);
        free(again);
    }
done:
    free(grad);
    nn_work_free(w);
    nn_free(&net);
}

/* The gradient of a batch is the mean of its positions' gradients (the
 * loss is a mean), here on a board large enough that the passes go one
 * position at a time, and with BLAS the same as without. */
void test_nn_backward_batch(void)
{
    nn_shape s = {32, 30, 2, 16, 1, 33, 4};
    int n = 3, cells = 32 * 30;
    nn_net net;
    T_EQ(nn_init(&net, &s, 8), 0);
    uint64_t st = 4;
    size_t np = net.n_params;
    float *input = malloc((size_t)n * 2 * cells * sizeof(float));
    float *pt = malloc((size_t)n * 33 * sizeof(float)), vt[3] = {1, -1, 0.25f};
    float *gb = malloc(np * sizeof(float)), *g1 = malloc(np * sizeof(float));
    double *mean = calloc(np, sizeof(double));
    float *gm = malloc(np * sizeof(float));
    nn_work *w = nn_work_new(&s, n, true);
    T_TRUE(input && pt && gb && g1 && mean && gm && w);
    if (!input || !pt || !gb || !g1 || !mean || !gm || !w)
        goto done;
    nn_test_planes(&st, input, (size_t)n * 2 * cells);
    nn_test_targets(&st, pt, n, 33);
    for (int blas = 0; blas < (nn_have_blas() ? 2 : 1); blas++) {
        net.blas = blas;
        float pl, vl, pl1, vl1;
        double pmean = 0, vmean = 0;
        nn_backward(&net, w, input, n, pt, vt, gb, &pl, &vl);
        memset(mean, 0, np * sizeof(double));
        for (int i = 0; i < n; i++) {
            nn_backward(&net, w, input + (size_t)i * 2 * cells, 1, pt + (size_t)i * 33, vt + i, g1,
                        &pl1, &vl1);
            for (size_t j = 0; j < np; j++)
                mean[j] += g1[j] / (double)n;
            pmean += pl1 / (double)n;
            vmean += vl1 / (double)n;
        }
        for (size_t j = 0; j < np; j++)
            gm[j] = (float)mean[j];
        T_NEAR(pl, pmean, 1e-5);
        T_NEAR(vl, vmean, 1e-5);
        T_EQ(nn_test_compare("batch gradient", gb, gm, np, 1e-3, 1e-6), 0);
    }
done:
    free(input);
    free(pt);
    free(gb);
    free(g1);
    free(mean);
    free(gm);
    nn_work_free(w);
    nn_free(&net);
}

/* A few hundred steps of Adam fit a small fixed data set. */
void test_nn_train(void)
{
    nn_shape s = {3, 3, 2, 8, 1, 9, 8};
    enum { N = 8 };
    nn_net net;
    T_EQ(nn_init(&net, &s, 21), 0);
    uint64_t st = 31;
    float input[N * 2 * 9], pt[N * 9] = {0}, vt[N];
    nn_test_planes(&st, input, sizeof input / sizeof input[0]);
    for (int i = 0; i < N; i++) {
        pt[i * 9 + (int)(nn_test_next(&st) % 9)] = 1;
        vt[i] = i % 2 ? 1.0f : -1.0f;
    }
    float *grad = malloc(net.n_params * sizeof *grad);
    float *m = calloc(net.n_params, sizeof *m), *v = calloc(net.n_params, sizeof *v);
    nn_work *w = nn_work_new(&s, N, true);
    T_TRUE(grad && m && v && w);
    if (grad && m && v && w) {
        nn_adam adam = {0.01f, 0.9f, 0.999f, 1e-8f, 1e-4f};
        float pl, vl, first = 0;
        for (uint64_t t = 1; t <= 200; t++) {
            nn_backward(&net, w, input, N, pt, vt, grad, &pl, &vl);
            if (t == 1)
                first = pl + vl;
            nn_adam_step(&adam, t, net.params, grad, m, v, net.n_params);
        }
        nn_backward(&net, w, input, N, pt, vt, grad, &pl, &vl);
        /* log 9 + about 1 at the start. */
        T_TRUE(first > 2.5f);
        if (!(pl + vl < 0.1f * first))
            T_FAIL_AT("loss %g after 200 steps, %g at the start", (double)(pl + vl), (double)first);
    }
    free(grad);
    free(m);
    free(v);
    nn_work_free(w);
    nn_free(&net);
}

/* ---- The optimiser ---- */

void test_nn_adam(void)
{
    nn_adam a = {0.1f, 0.9f, 0.999f, 1e-8f, 0.01f};
    float p[2] = {1, -2}, m[2] = {0, 0}, v[2] = {0, 0};
    float g1[2] = {0.5f, -0.1f}, g2[2] = {0.2f, 0.3f};

    /* Step 1: the bias-corrected moments are g and g^2, so each parameter
     * moves by lr * (sign(g) + wd * p): 1 - 0.1 * 1.01, -2 - 0.1 * (-1.02). */
    nn_adam_step(&a, 1, p, g1, m, v, 2);
    T_NEAR(m[0], 0.05, 1e-7);
    T_NEAR(v[0], 0.00025, 1e-8);
    T_NEAR(m[1], -0.01, 1e-8);
    T_NEAR(v[1], 0.00001, 1e-9);
    T_NEAR(p[0], 0.899, 1e-6);
    T_NEAR(p[1], -1.898, 1e-6);

    /* Step 2, from the formula. */
    double want[2], p1[2] = {0.899, -1.898}, m1[2] = {0.05, -0.01}, v1[2] = {0.00025, 0.00001};
    for (int i = 0; i < 2; i++) {
        double mm = 0.9 * m1[i] + 0.1 * g2[i], vv = 0.999 * v1[i] + 0.001 * g2[i] * g2[i];
        double mhat = mm / (1 - 0.81), vhat = vv / (1 - 0.999 * 0.999);
        want[i] = p1[i] - 0.1 * (mhat / (sqrt(vhat) + 1e-8) + 0.01 * p1[i]);
    }
    nn_adam_step(&a, 2, p, g2, m, v, 2);
    T_NEAR(p[0], want[0], 1e-6);
    T_NEAR(p[1], want[1], 1e-6);
    /* 0.899 - 0.1 * (0.342105 / 0.380719 + 0.00899) = 0.808243 */
    T_NEAR(p[0], 0.808243, 1e-5);
}
