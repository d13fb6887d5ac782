/*
 * timeman.c - time allocation: how long the next move may think, given the
 * player's clock. The plan has two figures: a soft target, the share of the
 * time left that a move of average difficulty deserves, and a hard cap,
 * what an unclear position may take. The search stops at the soft target
 * unless the best move is unclear (then it may go on to the hard cap), and
 * may stop before it once the best move cannot be overtaken (threads.c).
 *
 * Never losing on time comes first: every figure leaves the margin for
 * process and I/O lag, in main time never more than a fraction of what is
 * left is spent on one move, and in byo-yomi a move never uses the whole of
 * its period.
 */
#include <math.h>

#include "banyan.h"
#include "config.h"

/* Share of the main time left that one move may take at most. */
#define TIMEMAN_MAIN_CAP 0.10
/* How far past the soft target an unclear position may go. */
#define TIMEMAN_STRETCH 2.5
/* Fewest moves sudden death is planned for: games outlast estimates. */
#define TIMEMAN_MIN_MOVES 40
/* Lag assumed per move when the clock gives no margin: process start-up,
 * pipes and protocol round trips. */
#define TIMEMAN_LAG 0.02

static bool timeman_ok(double x)
{
    return isfinite(x) && x >= 0;
}

/* The margin for a move of about t seconds: fixed lag plus a share. */
static double timeman_margin(const banyan_clock *c, double t)
{
    return c->margin > 0 ? c->margin : TIMEMAN_LAG + 0.05 * t;
}

BANYAN_API int banyan_time_plan(const banyan_clock *c, int moves_left, double *soft, double *hard)
{
    if (!c || !soft || !hard || !timeman_ok(c->main_time) || !timeman_ok(c->increment) ||
        !timeman_ok(c->period_time) || !timeman_ok(c->margin) || c->periods < 0 ||
        c->period_stones < 0 || c->moves_to_go < 0 || moves_left < 0)
        return BANYAN_EINVAL;
    double s, h, room;
    if (c->main_time > 0) {
        /* Main time: an even share over the moves to come (in sudden death
         * never fewer than TIMEMAN_MIN_MOVES, since games outlast guesses)
         * of what is left once their lag is set aside, most of the
         * increment, and, with overtime behind it, a little of that. */
        int moves = moves_left > 0 ? moves_left : 30;
        if (c->moves_to_go > 0)
            moves = c->moves_to_go;
        else if (moves < TIMEMAN_MIN_MOVES)
            moves = TIMEMAN_MIN_MOVES;
        double lag = c->margin > 0 ? c->margin : TIMEMAN_LAG;
        double usable = c->main_time - lag * moves;
        if (usable < 0)
            usable = 0;
        s = usable / moves + 0.8 * c->increment;
        h = s * TIMEMAN_STRETCH;
        room = usable * TIMEMAN_MAIN_CAP + c->increment;
        if (c->moves_to_go == 1)
            room = c->main_time; /* The last move before the top-up. */
        if (c->periods > 0 || c->period_stones > 0) {
            /* Overtime follows: a move may run a little into it. */
            double extra =
                c->period_stones > 0 ? c->period_time / c->period_stones : c->period_time;
            s += 0.5 * extra;
            room += 0.5 * extra;
        }
    } else if (c->period_stones > 0 && c->period_time > 0) {
        /* Canadian overtime: the period's time over its stones. */
        s = c->period_time / c->period_stones;
        h = s * 1.5;
        room = c->period_time - (c->period_stones - 1) * 0.1 * s;
    } else if (c->periods > 0 && c->period_time > 0) {
        /* Japanese byo-yomi: each move has a whole period; using it up
         * would cost a period, so the move stays well inside it. */
        s = 0.6 * c->period_time;
        h = 0.8 * c->period_time;
        room = c->period_time;
    } else if (c->increment > 0) {
        s = 0.5 * c->increment; /* Main time spent: the increment alone. */
        h = 0.8 * c->increment;
        room = c->increment;
    } else {
        return BANYAN_EINVAL;
    }
    if (h > room)
        h = room;
    h -= timeman_margin(c, h);
    if (s > h)
        s = h;
    *soft = s > 0.01 ? s : 0.01;
    *hard = h > *soft ? h : *soft;
    return BANYAN_OK;
}
