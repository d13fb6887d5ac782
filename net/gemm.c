/*
 * gemm.c - the network's matrix product, nn_gemm: OpenBLAS's cblas_sgemm
 * where the build has it (BANYAN_BLAS), and a plain C product that every
 * build has, so that the two can be compared and a machine without BLAS
 * still runs the network at a reasonable speed.
 *
 * The plain product works on tiles of C held in registers over the whole
 * inner dimension, so that each load from A or B serves several sums and C
 * is written once per tile: 3 rows by 16 columns when B is not transposed
 * (the columns are contiguous in B), 3 by 4 dot products when it is (the
 * rows of A and B are). With GCC and Clang the sums are vectors, through
 * their vector extension; other compilers get plain loops.
 */
#include <stddef.h>
#include <string.h>

#include "nn.h"

#ifdef BANYAN_BLAS
#include <pthread.h>

#include <cblas.h>

/* The engine runs its own threads, each with its own network work; a BLAS
 * that started threads of its own under every one of them would only fight
 * them for the cores. */
static pthread_once_t gemm_blas_once = PTHREAD_ONCE_INIT;

static void gemm_blas_setup(void)
{
    openblas_set_num_threads(1);
}
#endif

bool nn_have_blas(void)
{
#ifdef BANYAN_BLAS
    pthread_once(&gemm_blas_once, gemm_blas_setup);
    return true;
#else
    return false;
#endif
}

/* The tile of C that the plain product holds in registers: 3 x 16 sums
 * take 12 of the 16 SSE registers, which leaves room for the 16 elements of
 * B and one of A, so that nothing goes back to memory inside the loop. */
#define GEMM_MR 3
#define GEMM_NR 16

/* Writes alpha * sums + beta * C into nr elements of a row of C; C is not
 * read when beta is 0, so whatever it held (NaN included) is gone. */
static void gemm_store(float *crow, int nr, float alpha, float beta, const float *sums)
{
    if (beta == 0)
        for (int q = 0; q < nr; q++)
            crow[q] = alpha * sums[q];
    else
        for (int q = 0; q < nr; q++)
            crow[q] = alpha * sums[q] + beta * crow[q];
}

#if defined(__GNUC__)
/* GCC and Clang: the tile's sums are written as vectors of 4 floats (SSE,
 * and whatever the target has beyond it), a language extension both
 * compilers have. Left to themselves they vectorise a tile written with
 * arrays of floats only now and then, depending on the code around it. */
typedef float gemm_v4 __attribute__((vector_size(16)));

static gemm_v4 gemm_load4(const float *p)
{
    gemm_v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Stores mr rows of sums held as vectors, nv vectors a row. */
static void gemm_store_v4(float *c, int ldc, int mr, int nv, float alpha, float beta,
                          const gemm_v4 sums[GEMM_MR][GEMM_NR / 4])
{
    for (int r = 0; r < mr; r++) {
        float row[GEMM_NR];
        memcpy(row, sums[r], sizeof row);
        gemm_store(c + (size_t)r * ldc, 4 * nv, alpha, beta, row);
    }
}

/* The tiles of up to 3 rows of C by 16, 8 or 4 columns: C = alpha * op(A)
 * * B + beta * C on them. Element (r, p) of op(A) is a[r * ars + p * aps],
 * which covers both layouts of A. A tile of fewer than 3 rows (the bottom
 * edge) computes its first row again in place of the missing ones and
 * does not store them, so that each width has one kernel, kept in
 * registers. */
static void gemm_tile16(int k, const float *restrict a, size_t ars, size_t aps,
                        const float *restrict b, int ldb, int mr, float alpha, float beta,
                        float *restrict c, int ldc)
{
    gemm_v4 s00 = {0}, s01 = {0}, s02 = {0}, s03 = {0};
    gemm_v4 s10 = {0}, s11 = {0}, s12 = {0}, s13 = {0};
    gemm_v4 s20 = {0}, s21 = {0}, s22 = {0}, s23 = {0};
    const float *a0 = a, *a1 = mr > 1 ? a + ars : a, *a2 = mr > 2 ? a + 2 * ars : a;
    for (int p = 0; p < k; p++) {
        const float *bp = b + (size_t)p * ldb;
        size_t ap = (size_t)p * aps;
        gemm_v4 b0 = gemm_load4(bp), b1 = gemm_load4(bp + 4);
        gemm_v4 b2 = gemm_load4(bp + 8), b3 = gemm_load4(bp + 12);
        float x0 = a0[ap], x1 = a1[ap], x2 = a2[ap];
        s00 += x0 * b0;
        s01 += x0 * b1;
        s02 += x0 * b2;
        s03 += x0 * b3;
        s10 += x1 * b0;
        s11 += x1 * b1;
        s12 += x1 * b2;
        s13 += x1 * b3;
        s20 += x2 * b0;
        s21 += x2 * b1;
        s22 += x2 * b2;
        s23 += x2 * b3;
    }
    const gemm_v4 sums[GEMM_MR][GEMM_NR / 4] = {
        {s00, s01, s02, s03}, {s10, s11, s12, s13}, {s20, s21, s22, s23}};
    gemm_store_v4(c, ldc, mr, 4, alpha, beta, sums);
}

static void gemm_tile8(int k, const float *restrict a, size_t ars, size_t aps,
                       const float *restrict b, int ldb, int mr, float alpha, float beta,
                       float *restrict c, int ldc)
{
    gemm_v4 s00 = {0}, s01 = {0}, s10 = {0}, s11 = {0}, s20 = {0}, s21 = {0};
    const float *a0 = a, *a1 = mr > 1 ? a + ars : a, *a2 = mr > 2 ? a + 2 * ars : a;
    for (int p = 0; p < k; p++) {
        const float *bp = b + (size_t)p * ldb;
        size_t ap = (size_t)p * aps;
        gemm_v4 b0 = gemm_load4(bp), b1 = gemm_load4(bp + 4);
        float x0 = a0[ap], x1 = a1[ap], x2 = a2[ap];
        s00 += x0 * b0;
        s01 += x0 * b1;
        s10 += x1 * b0;
        s11 += x1 * b1;
        s20 += x2 * b0;
        s21 += x2 * b1;
    }
    const gemm_v4 sums[GEMM_MR][GEMM_NR / 4] = {{s00, s01}, {s10, s11}, {s20, s21}};
    gemm_store_v4(c, ldc, mr, 2, alpha, beta, sums);
}

static void gemm_tile4(int k, const float *restrict a, size_t ars, size_t aps,
                       const float *restrict b, int ldb, int mr, float alpha, float beta,
                       float *restrict c, int ldc)
{
    gemm_v4 s0 = {0}, s1 = {0}, s2 = {0};
    const float *a0 = a, *a1 = mr > 1 ? a + ars : a, *a2 = mr > 2 ? a + 2 * ars : a;
    for (int p = 0; p < k; p++) {
        gemm_v4 b0 = gemm_load4(b + (size_t)p * ldb);
        size_t ap = (size_t)p * aps;
        s0 += a0[ap] * b0;
        s1 += a1[ap] * b0;
        s2 += a2[ap] * b0;
    }
    const gemm_v4 sums[GEMM_MR][GEMM_NR / 4] = {{s0}, {s1}, {s2}};
    gemm_store_v4(c, ldc, mr, 1, alpha, beta, sums);
}
#endif

/* A tile at the bottom or right edge: mr <= 3 rows, nr <= 16 columns. The
 * first 8 columns go in a loop of fixed length, which is vectorised. */
static void gemm_tile_edge(int k, const float *restrict a, size_t ars, size_t aps,
                           const float *restrict b, int ldb, int mr, int nr, float alpha,
                           float beta, float *restrict c, int ldc)
{
    float acc[GEMM_MR][GEMM_NR];
    for (int r = 0; r < GEMM_MR; r++)
        for (int q = 0; q < GEMM_NR; q++)
            acc[r][q] = 0;
    for (int p = 0; p < k; p++) {
        const float *bp = b + (size_t)p * ldb;
        for (int r = 0; r < mr; r++) {
            float x = a[r * ars + (size_t)p * aps], *ar = acc[r];
            int q = 0;
            if (nr >= 8)
                for (; q < 8; q++)
                    ar[q] += x * bp[q];
            for (; q < nr; q++)
                ar[q] += x * bp[q];
        }
    }
    for (int r = 0; r < mr; r++)
        gemm_store(c + (size_t)r * ldc, nr, alpha, beta, acc[r]);
}

/* C = alpha * op(A) * B + beta * C with B not transposed. */
static void gemm_plain_bn(bool trans_a, int m, int n, int k, float alpha, const float *a, int lda,
                          const float *b, int ldb, float beta, float *c, int ldc)
{
    size_t ars = trans_a ? 1 : (size_t)lda, aps = trans_a ? (size_t)lda : 1;
    for (int i = 0; i < m; i += GEMM_MR) {
        int mr = m - i < GEMM_MR ? m - i : GEMM_MR;
        const float *ai = a + i * ars;
        for (int j = 0; j < n; j += GEMM_NR) {
            int nr = n - j < GEMM_NR ? n - j : GEMM_NR;
            float *cij = c + (size_t)i * ldc + j;
#if defined(__GNUC__)
            int done = nr & ~3;
            if (nr == 16)
                gemm_tile16(k, ai, ars, aps, b + j, ldb, mr, alpha, beta, cij, ldc);
            if (nr & 8)
                gemm_tile8(k, ai, ars, aps, b + j, ldb, mr, alpha, beta, cij, ldc);
            if (nr & 4)
                gemm_tile4(k, ai, ars, aps, b + j + (nr & 8), ldb, mr, alpha, beta, cij + (nr & 8),
                           ldc);
            if (nr > done)
                gemm_tile_edge(k, ai, ars, aps, b + j + done, ldb, mr, nr - done, alpha, beta,
                               cij + done, ldc);
#else
            gemm_tile_edge(k, ai, ars, aps, b + j, ldb, mr, nr, alpha, beta, cij, ldc);
#endif
        }
    }
}

/* The dot product of two contiguous vectors, in 8 interleaved sums that the
 * compiler can keep in vector registers (a single running sum could not be
 * vectorised without reordering the additions). */
static float gemm_dot(int k, const float *restrict x, const float *restrict y)
{
    float acc[8] = {0};
    int p = 0;
    for (; p + 8 <= k; p += 8)
        for (int q = 0; q < 8; q++)
            acc[q] += x[p + q] * y[p + q];
    float s = 0;
    for (; p < k; p++)
        s += x[p] * y[p];
    return s + ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

#if defined(__GNUC__)
/* The horizontal sum of a vector. */
static float gemm_hsum(gemm_v4 v)
{
    float x[4];
    memcpy(x, &v, sizeof x);
    return (x[0] + x[2]) + (x[1] + x[3]);
}

/* A tile of up to 3 rows of A (as stored) by up to 4 rows of B (as stored)
 * for C = alpha * A * B^T + beta * C: 12 dot products at once, each in a
 * vector of 4 partial sums, so that every load serves 3 or 4 of them. Rows
 * beyond mr or nr repeat the first one and are not stored. */
static void gemm_bt_tile(int k, const float *restrict a, int lda, const float *restrict b, int ldb,
                         int mr, int nr, float alpha, float beta, float *restrict c, int ldc)
{
    const float *a0 = a, *a1 = mr > 1 ? a + lda : a, *a2 = mr > 2 ? a + 2 * (size_t)lda : a;
    const float *b0 = b, *b1 = nr > 1 ? b + ldb : b, *b2 = nr > 2 ? b + 2 * (size_t)ldb : b;
    const float *b3 = nr > 3 ? b + 3 * (size_t)ldb : b;
    gemm_v4 s00 = {0}, s01 = {0}, s02 = {0}, s03 = {0};
    gemm_v4 s10 = {0}, s11 = {0}, s12 = {0}, s13 = {0};
    gemm_v4 s20 = {0}, s21 = {0}, s22 = {0}, s23 = {0};
    int p = 0;
    for (; p + 4 <= k; p += 4) {
        gemm_v4 x0 = gemm_load4(a0 + p), x1 = gemm_load4(a1 + p), x2 = gemm_load4(a2 + p);
        gemm_v4 y0 = gemm_load4(b0 + p), y1 = gemm_load4(b1 + p);
        gemm_v4 y2 = gemm_load4(b2 + p), y3 = gemm_load4(b3 + p);
        s00 += x0 * y0;
        s01 += x0 * y1;
        s02 += x0 * y2;
        s03 += x0 * y3;
        s10 += x1 * y0;
        s11 += x1 * y1;
        s12 += x1 * y2;
        s13 += x1 * y3;
        s20 += x2 * y0;
        s21 += x2 * y1;
        s22 += x2 * y2;
        s23 += x2 * y3;
    }
    const gemm_v4 sums[GEMM_MR][4] = {
        {s00, s01, s02, s03}, {s10, s11, s12, s13}, {s20, s21, s22, s23}};
    const float *rows_a[GEMM_MR] = {a0, a1, a2}, *rows_b[4] = {b0, b1, b2, b3};
    for (int r = 0; r < mr; r++) {
        float out[4];
        for (int q = 0; q < nr; q++) {
            float x = gemm_hsum(sums[r][q]);
            for (int t = p; t < k; t++)
                x += rows_a[r][t] * rows_b[q][t];
            out[q] = x;
        }
        gemm_store(c + (size_t)r * ldc, nr, alpha, beta, out);
    }
}
#endif

/* C = alpha * op(A) * B^T + beta * C: each element is the dot product of a
 * row of op(A) and a row of B as stored, both contiguous when A is not
 * transposed. */
static void gemm_plain_bt(bool trans_a, int m, int n, int k, float alpha, const float *a, int lda,
                          const float *b, int ldb, float beta, float *c, int ldc)
{
#if defined(__GNUC__)
    if (!trans_a) {
        for (int i = 0; i < m; i += GEMM_MR)
            for (int j = 0; j < n; j += 4) {
                int mr = m - i < GEMM_MR ? m - i : GEMM_MR, nr = n - j < 4 ? n - j : 4;
                gemm_bt_tile(k, a + (size_t)i * lda, lda, b + (size_t)j * ldb, ldb, mr, nr, alpha,
                             beta, c + (size_t)i * ldc + j, ldc);
            }
        return;
    }
#endif
    for (int i = 0; i < m; i++) {
        float *crow = c + (size_t)i * ldc;
        for (int j = 0; j < n; j++) {
            const float *bj = b + (size_t)j * ldb;
            float s;
            if (!trans_a) {
                s = gemm_dot(k, a + (size_t)i * lda, bj);
            } else {
                s = 0;
                for (int p = 0; p < k; p++)
                    s += a[(size_t)p * lda + i] * bj[p];
            }
            crow[j] = beta == 0 ? alpha * s : alpha * s + beta * crow[j];
        }
    }
}

void nn_gemm(bool blas, bool trans_a, bool trans_b, int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    if (m <= 0 || n <= 0)
        return;
#ifdef BANYAN_BLAS
    if (blas) {
        pthread_once(&gemm_blas_once, gemm_blas_setup);
        cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                    trans_b ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c,
                    ldc);
        return;
    }
#else
    (void)blas;
#endif
    if (k <= 0 || alpha == 0) {
        /* op(A) * op(B) is not needed (BLAS does not read A or B then
         * either): C is only scaled, or cleared when beta is 0. */
        for (int i = 0; i < m; i++) {
            float *crow = c + (size_t)i * ldc;
            for (int j = 0; j < n; j++)
                crow[j] = beta == 0 ? 0 : beta * crow[j];
        }
        return;
    }
    if (trans_b)
        gemm_plain_bt(trans_a, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        gemm_plain_bn(trans_a, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
