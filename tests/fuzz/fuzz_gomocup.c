/*
 * fuzz_gomocup.c - libFuzzer target for the Gomocup front-end: the input is
 * a session, one command per line, run on the calling thread (no reader
 * thread) with a tiny search budget and a small arena. Answers go to
 * /dev/null; only crashes, hangs and sanitizer reports count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "gomocup.h"
#include "line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    char err[256];
    options opt;
    line_reader in;
    options_init(&opt);
    opt.cfg = BANYAN_CONFIG(.memory = 1 << 20, .seed = 1);
    opt.lim = BANYAN_LIMITS(.playouts = 32);
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    gomocup *ctx = gomocup_new(NULL, &opt, sink, err, sizeof err);
    if (!ctx)
        return 0;
    line_init_mem(&in, (const char *)data, size);
    gomocup_run_sync(ctx, &in);
    gomocup_free(ctx);
    return 0;
}
