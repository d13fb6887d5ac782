/*
 * fuzz_gtp.c - libFuzzer target for the GTP front-end: the input is a
 * session, one command per line, run against Connect Four with a tiny
 * search budget (lz-analyze sends one update and stops, as it does with no
 * input to watch). Responses go to /dev/null; only crashes, hangs and
 * sanitizer reports count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banyan.h"
#include "gtp.h"
#include "line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    char err[256];
    options opt;
    line_reader in;
    options_init(&opt);
    opt.cfg = (banyan_config){.memory = 64 << 10, .seed = 1};
    opt.lim = (banyan_limits){.playouts = 16};
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    gtp *ctx = gtp_new(&banyan_game_connect4, NULL, &opt, sink, NULL, err, sizeof err);
    if (!ctx)
        return 0;
    line_init_mem(&in, (const char *)data, size);
    gtp_run(ctx, &in);
    gtp_free(ctx);
    return 0;
}
