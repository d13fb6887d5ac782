/*
 * nested.h - the nested algorithms of banyan_solo_run() (NRPA, NMCS),
 * behind the options' algorithm field; solo.c checks the arguments and
 * calls nested_run() (banyan.h says what a nested run does).
 */
#ifndef BANYAN_NESTED_H
#define BANYAN_NESTED_H

#include "banyan.h"
#include "config.h"

/* The runs of o (algorithm NRPA or NMCS, its fields checked by the caller
 * except the nested ones) of game g, normalised and checked, from the
 * position params and position give; cfg is whole (its hook set). Fills
 * *r's fields past moves and max_moves (the moves themselves, up to
 * max_moves) and returns banyan_solo_run()'s codes. */
BANYAN_INTERNAL int nested_run(const banyan_game *g, const char *params, const char *position,
                               const banyan_config *cfg, const banyan_solo_options *o,
                               banyan_solo_result *r);

#endif /* BANYAN_NESTED_H */
