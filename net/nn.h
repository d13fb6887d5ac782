/*
 * nn.h - the policy/value network of the learning part: a small residual
 * convolutional network on a board, its forward pass (inference, in batches),
 * its backward pass and optimiser (training), and its files.
 *
 * The network (net/nn.c) knows no game: it maps planes of width x height
 * cells to policy logits and a value. net/eval.c turns a game's position
 * into planes and the logits into priors, through the game's description.
 * The core library knows nothing of this module: it plugs into the engine's
 * evaluator (banyan_config.evaluator).
 *
 * Layout (all float32; "conv" is a 3x3 convolution with zero padding, stride 1):
 *
 *   stem:    conv planes -> channels, bias, ReLU
 *   block i: h = ReLU(conv1(x) + b1); x = ReLU(x + conv2(h) + b2)   (blocks times)
 *   policy:  1x1 conv channels -> 2, bias, ReLU; fully connected 2*cells -> policy, bias
 *   value:   1x1 conv channels -> 1, bias, ReLU; fully connected cells -> value_hidden,
 *            bias, ReLU; fully connected value_hidden -> 1, bias; tanh
 *
 * The parameters are one flat array in the order above; within each layer the
 * weights come first as [out][in][kh][kw] (a 1x1 conv or a fully connected
 * layer: [out][in]), then the biases [out]. nn_param_count() is its length.
 * The value is for the player to move, in [-1, 1].
 *
 * Matrix products go through nn_gemm: OpenBLAS's cblas_sgemm where the build
 * has it (BANYAN_BLAS), else plain C; both are always compiled in, and
 * nn_net.blas chooses (the tests compare them).
 */
#ifndef BANYAN_NN_H
#define BANYAN_NN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits a network file may not exceed (the loader refuses beyond them). */
#define NN_MAX_SIDE     32   /* width and height */
#define NN_MAX_PLANES   32   /* input planes */
#define NN_MAX_CHANNELS 256  /* channels of the residual tower */
#define NN_MAX_BLOCKS   40   /* residual blocks */
#define NN_MAX_POLICY   1025 /* policy outputs (32 x 32 cells and a pass) */
#define NN_MAX_HIDDEN   512  /* value head's hidden units */

/* The shape of a network. */
typedef struct nn_shape {
    int width, height; /* board, in cells */
    int planes;        /* input planes */
    int channels;      /* channels of the tower */
    int blocks;        /* residual blocks (0 allowed: stem and heads only) */
    int policy;        /* policy outputs */
    int value_hidden;  /* hidden units of the value head */
} nn_shape;

/* NULL when s is within the limits above (every field >= 1, blocks >= 0),
 * else a static sentence saying which field is wrong. */
const char *nn_shape_check(const nn_shape *s);

/* Number of floats in the parameter array of shape s (which must pass
 * nn_shape_check). */
size_t nn_param_count(const nn_shape *s);

/* A network: its shape and parameters. Caller-owned; nn_init/nn_free. */
typedef struct nn_net {
    nn_shape shape;
    size_t n_params;
    float *params; /* n_params floats, malloc'd */
    bool blas;     /* products through cblas_sgemm (only where nn_have_blas()) */
} nn_net;

/* Whether this build has BLAS. */
bool nn_have_blas(void);

/* Allocates net's parameters for shape s and fills them with He-normal
 * weights (a deterministic function of seed, on every machine) and zero
 * biases; the last convolution of each block starts at a tenth of that, so
 * that blocks start near the identity. net->blas = nn_have_blas().
 * Returns 0, or -1 (bad shape, or no memory: net is then empty). */
int nn_init(nn_net *net, const nn_shape *s, uint64_t seed);

/* Frees net's parameters; net may be empty (zeroed). */
void nn_free(nn_net *net);

/* Scratch for passes over up to max_batch positions: activations (kept for
 * the backward pass when train is true) and im2col buffers. Allocated once,
 * reused; one per thread. */
typedef struct nn_work nn_work;
nn_work *nn_work_new(const nn_shape *s, int max_batch, bool train);
void nn_work_free(nn_work *w);

/* Forward pass on n positions (1 <= n <= max_batch): input is n x planes x
 * height x width floats (position-major, then plane, row, column). Writes
 * n x policy logits (raw, before softmax) and n values in [-1, 1]. */
void nn_forward(const nn_net *net, nn_work *w, const float *input, int n, float *logits,
                float *value);

/* One training pass on n positions (a work made with train = true): the
 * forward pass, then the loss
 *     mean over positions of [ cross-entropy(softmax(logits), policy_target)
 *                              + (value - value_target)^2 ]
 * (policy_target: n x policy, each row a distribution; value_target: n
 * values in [-1, 1]), and its gradient with respect to every parameter,
 * written to grad (n_params floats, overwritten, not accumulated). L2 is the
 * optimiser's business. Writes the two parts of the loss (means) to
 * *policy_loss and *value_loss. */
void nn_backward(const nn_net *net, nn_work *w, const float *input, int n,
                 const float *policy_target, const float *value_target, float *grad,
                 float *policy_loss, float *value_loss);

/* Adam with decoupled weight decay (AdamW), one step: t is the step number
 * from 1; m and v are n floats each, zero before the first step. Weight
 * decay applies to every parameter. */
typedef struct nn_adam {
    float lr, beta1, beta2, eps, weight_decay;
} nn_adam;
void nn_adam_step(const nn_adam *a, uint64_t t, float *params, const float *grad, float *m,
                  float *v, size_t n);

/* C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C, row-major,
 * op transposing when trans_a / trans_b; lda, ldb, ldc as in cblas_sgemm
 * with CblasRowMajor. Through BLAS when blas and the build has it. */
void nn_gemm(bool blas, bool trans_a, bool trans_b, int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

/* ---- Files (net/model.c) ---- */

/* What a network file says besides the parameters. */
typedef struct nn_meta {
    char game[32];        /* the game's registry name ("connect4") */
    char params[128];     /* the game's parameters ("width=9,height=9"; "" for none) */
    uint64_t generation;  /* the learning loop's generation that made it (0: random) */
    uint64_t train_steps; /* optimiser steps behind it */
} nn_meta;

/* Writes net and meta to path (through a temporary file renamed into
 * place, so a reader never sees half a file). Returns 0, or -1 with a
 * sentence in why[len]. */
int nn_save(const char *path, const nn_net *net, const nn_meta *meta, char *why, size_t len);

/* Reads a network file into net (initialised here; nn_free it) and meta.
 * Returns 0, or -1 with a sentence in why[len] ("... is not a Banyan network
 * file", "... is format version 7; this build reads version 1", "... is
 * truncated", "... fails its checksum"); net is then empty. */
int nn_load(const char *path, nn_net *net, nn_meta *meta, char *why, size_t len);

/* The same from memory (the fuzz target's entry). buf is borrowed. */
int nn_load_mem(const void *buf, size_t size, nn_net *net, nn_meta *meta, char *why, size_t len);

/* A training checkpoint: the network, the optimiser's state and where the
 * training stands, so that a run killed at any moment resumes where it was. */
typedef struct nn_checkpoint {
    nn_net net;
    nn_meta meta;
    float *adam_m, *adam_v; /* n_params floats each, malloc'd */
    uint64_t step;          /* optimiser steps taken */
    uint64_t rng[4];        /* the trainer's random state */
    uint64_t data_pos;      /* the trainer's position in its data (its own meaning) */
} nn_checkpoint;

/* Save and load a checkpoint, as nn_save and nn_load (atomic write;
 * refused with a sentence when malformed). nn_checkpoint_free frees its
 * arrays and its network. */
int nn_checkpoint_save(const char *path, const nn_checkpoint *c, char *why, size_t len);
int nn_checkpoint_load(const char *path, nn_checkpoint *c, char *why, size_t len);
/* The same from memory (the fuzz target's entry). buf is borrowed. */
int nn_checkpoint_load_mem(const void *buf, size_t size, nn_checkpoint *c, char *why, size_t len);
void nn_checkpoint_free(nn_checkpoint *c);

#endif
