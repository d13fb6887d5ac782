/*
 * gomocup_main.c - `banyan gomocup` (also run as pbrain-banyan): a Gomocup
 * (Piskvork) brain on standard input and output; see proto/gomocup.c.
 */
#include <stdio.h>

#include "banyan.h"
#include "cli.h"
#include "gomocup.h"

int cli_gomocup(int argc, char **argv, int first)
{
    cli_opts o;
    char err[256];
    if (!cli_parse(argc, argv, first, &o))
        return 2;
    if (o.n_args > 0 || (o.game && o.game != banyan_game_find("gomoku"))) {
        fprintf(stderr, "usage: banyan gomocup [--playouts N] [--time S] [--threads T] "
                        "[--memory B] [--seed S] [--ponder]\n");
        return 2;
    }
    gomocup *ctx = gomocup_new(&o.cfg, &o.limits, stdout, err, sizeof err);
    if (!ctx) {
        fprintf(stderr, "banyan gomocup: %s\n", err);
        return 1;
    }
    gomocup_set_ponder(ctx, o.ponder == 1);
    gomocup_run(ctx, 0);
    gomocup_free(ctx);
    return 0;
}
