/*
 * gomocup_main.c - `banyan gomocup` (also run as pbrain-banyan): a Gomocup
 * (Piskvork) brain on standard input and output; see proto/gomocup.c. The
 * game is --game, or the first game whose description Gomocup can play.
 */
#include <stdio.h>

#include "banyan.h"
#include "cli.h"
#include "dist.h"
#include "dsearch.h"
#include "line.h"
#include "gomocup.h"

int cli_gomocup(int argc, char **argv, int first)
{
    cli_opts o;
    char err[256];
    if (!cli_parse(argc, argv, first, &o))
        return 2;
    if (o.n_args > 0) {
        fprintf(stderr, "usage: banyan gomocup [--game G] [--playouts N] [--time S] "
                        "[--threads T] [--memory B] [--seed S] [--ponder]\n");
        return 2;
    }
    gomocup *ctx = gomocup_new(o.game, &o.eng, stdout, err, sizeof err);
    if (!ctx) {
        fprintf(stderr, "banyan gomocup: %s\n", err);
        return o.game ? 2 : 1;
    }
    gomocup_set_ponder(ctx, o.eng.ponder == 1);
    if (dist_ranks() > 1) {
        /* Every rank reads rank 0's input, one command at a time: END
         * waits for the search in progress. */
        line_reader in;
        line_init_source(&in, dsearch_input());
        gomocup_run_sync(ctx, &in);
    } else {
        gomocup_run(ctx, 0);
    }
    gomocup_free(ctx);
    return 0;
}
