/*
 * fuzz_gtp.c - libFuzzer target for the GTP front-end: the input is a
 * session, one command per line, run against Connect Four, or against Go
 * on 9x9 (handicap, scoring, ownership) when it begins with "# go" (a
 * comment to GTP), with a tiny search budget
 * (lz-analyze and kata-analyze send one update and stop, as they do with
 * no input to watch), and the commands that name files refused.
 * Responses go to /dev/null; only crashes, hangs and sanitizer reports
 * count.
 */
#include <stdbool.h>
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
    opt.cfg = BANYAN_CONFIG(.memory = 64 << 10, .seed = 1);
    opt.lim = BANYAN_LIMITS(.playouts = 16);
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    bool go = size >= 4 && !memcmp(data, "# go", 4);
    gtp *ctx = go ? gtp_new(&banyan_game_go, "size=9", &opt, sink, NULL, err, sizeof err)
                  : gtp_new(&banyan_game_connect4, NULL, &opt, sink, NULL, err, sizeof err);
    if (!ctx)
        return 0;
    gtp_set_files(ctx, false);
    line_init_mem(&in, (const char *)data, size);
    gtp_run(ctx, &in);
    gtp_free(ctx);
    return 0;
}
