/*
 * gtp_main.c - `banyan gtp`: a GTP session on standard input and output for
 * the game of --game; see proto/gtp.c.
 */
#include <stdio.h>

#include "banyan.h"
#include "cli.h"
#include "dist.h"
#include "dsearch.h"
#include "gtp.h"
#include "line.h"

int cli_gtp(int argc, char **argv)
{
    cli_opts o;
    line_reader in;
    char err[256], params[512];
    if (!cli_parse(argc, argv, 2, &o))
        return 2;
    if (!cli_game(&o, "usage: banyan gtp --game G [options] (banyan games lists the games)"))
        return 2;
    if (o.n_args > 0) {
        fprintf(stderr, "banyan gtp: unexpected argument \"%s\"\n", o.args[0]);
        return 2;
    }
    cli_params(&o, params, sizeof params);
    if (dist_ranks() > 1)
        line_init_source(&in, dsearch_input()); /* Rank 0's input, on every rank. */
    else
        line_init_fd(&in, 0);
    gtp *ctx = gtp_new(o.game, params, &o.eng, stdout, &in, err, sizeof err);
    if (!ctx) {
        fprintf(stderr, "banyan gtp: %s\n", err);
        return 1;
    }
    gtp_set_ponder(ctx, o.eng.ponder == 1);
    gtp_set_follower(ctx, dist_rank() > 0);
    gtp_run(ctx, &in);
    gtp_free(ctx);
    return 0;
}
