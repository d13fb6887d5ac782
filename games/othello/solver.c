/*
 * solver.c - Othello's exact endgame solver: a negamax alpha-beta to the
 * end of the game on the two bitboards, with a table of score bounds in the
 * caller's memory (the game's mem_size).
 */
#include <limits.h>

#include "othello.h"

/* ---- The exact solver ----
 *
 * Negamax alpha-beta with fail-soft values, the principal variation search
 * (the first move with the full window, the others with a null window,
 * searched again when one beats it), a table of score bounds, moves ordered
 * fastest first (fewest replies for the opponent, then fewest empty squares
 * beside the mover's discs) down to OTH_SOLVE_FASTEST empties, with the
 * evaluation's verdict on the position after the move added from
 * OTH_SOLVE_EVAL empties up, and by region parity below; a cutoff by the
 * opponent's stable discs (they bound the mover's score from above) from
 * OTH_SOLVE_STABLE empties; the children's table entries prefetched while
 * the moves are ordered; and a loop over the empty squares without move
 * generation for the last OTH_SOLVE_SMALL, the last two written out and the
 * last move's flips only counted. Scores are final disc differences for
 * the player to move, empties to the winner. The gains on FForum 20-39:
 * docs/journal/2026-12-07-othello-ordering.md and
 * docs/journal/2026-12-07-othello-last-empties.md. */

#define OTH_SOLVE_SMALL   5  /* Empties solved by the plain loop over the empty squares. */
#define OTH_SOLVE_TT      7  /* Fewest empties at which the table is used. */
#define OTH_SOLVE_FASTEST 8  /* Fewest empties ordered fastest first. */
#define OTH_SOLVE_ETC     12 /* Fewest empties with enhanced transposition cutoffs. */
#define OTH_SOLVE_STABLE  8  /* Fewest empties with the stability cutoff. */
#define OTH_INF           127
/* Fewest empties whose moves the evaluation orders too: below, it costs
 * more than the positions it saves; and fewest where it looks at the
 * opponent's best reply by the evaluation rather than the position after
 * the move alone (docs/journal/2026-12-07-othello-last-empties.md). */
#define OTH_SOLVE_EVAL  14
#define OTH_SOLVE_REPLY 18

/* One position's bounds on its exact score: lo <= score <= hi. The key is
 * the whole position, so an entry of another position never matches; an
 * all-zero entry (the memory as it comes) matches no position. */
typedef struct oth_tt_entry {
    uint64_t p, o;   /* The mover's and the opponent's discs. */
    int8_t lo, hi;   /* Bounds on the score for the mover. */
    uint8_t move;    /* The best move found, or 0xff. */
    uint8_t empties; /* Empty squares of the position: the deeper are kept. */
    uint8_t unused[4];
} oth_tt_entry;

_Static_assert(sizeof(oth_tt_entry) << OTH_TT_BITS == OTH_SOLVER_SIZE,
               "the table fills the memory the game asks for");

typedef struct oth_solver {
    oth_tt_entry *tt;        /* 2^(64 - shift) entries, or NULL. */
    int shift;               /* 64 less the bits of a table index. */
    uint64_t nodes;          /* Positions visited. */
    uint64_t budget;         /* The most nodes allowed. */
    bool aborted;            /* The budget ran out: every value since is meaningless. */
    const _Atomic int *stop; /* The caller's stop flag, or NULL. */
} oth_solver;

/* The quadrant of each square, for parity: 0 a1-d4, 1 e1-h4, 2 a5-d8, 3 e5-h8. */
static inline int oth_quadrant(int sq)
{
    return ((sq >> 5) << 1) | ((sq >> 2) & 1);
}

/* The exact score with one empty square left: the mover plays it, else the
 * opponent does, else it goes to the winner. Only the number of flips
 * matters, and the opponent holds every other square (oth_last_flips).
 * When the mover cannot play, the score is at most the final one with the
 * square empty (the opponent's flips only lower it), returned as a bound
 * when that fails low. */
static int oth_solve_1(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int sq)
{
    int np = bits_count(p), n;
    sv->nodes++;
    if ((n = oth_last_flips(p, sq)) > 0)
        return 2 * (np + 1 + n) - OTH_CELLS;
    int v = 2 * np - OTH_CELLS + (np >= OTH_CELLS / 2 ? 2 : 0); /* Empty to the winner. */
    if (v <= alpha)
        return v;
    if ((n = oth_last_flips(o, sq)) > 0)
        return 2 * (np - n) - OTH_CELLS;
    return v;
}

/* The exact score with the two empty squares x and y left, or a bound
 * outside (alpha, beta): oth_solve_small's loop written out. */
static int oth_solve_2(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta, int x, int y,
                       bool passed)
{
    int best = -OTH_INF;
    uint64_t flips;
    sv->nodes++;
    if ((flips = oth_flips(p, o, x)) != 0) {
        best = -oth_solve_1(sv, o & ~flips, p | flips | ((uint64_t)1 << x), -beta, y);
        if (best >= beta)
            return best;
    }
    if ((flips = oth_flips(p, o, y)) != 0) {
        int v = -oth_solve_1(sv, o & ~flips, p | flips | ((uint64_t)1 << y), -beta, x);
        return v > best ? v : best;
    }
    if (best > -OTH_INF)
        return best;
    if (passed)
        return oth_final(p, o);
    return -oth_solve_2(sv, o, p, -beta, -alpha, x, y, true);
}

/* The last few empties (sq[0 .. n-1], ordered by parity): every empty
 * square tried, a pass when none flips. passed says the opponent just
 * passed. */
static int oth_solve_small(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta,
                           const int *sq, int n, bool passed)
{
    int best = -OTH_INF, rest[OTH_SOLVE_SMALL];
    if (n == 2)
        return oth_solve_2(sv, p, o, alpha, beta, sq[0], sq[1], passed);
    if (n == 1)
        return oth_solve_1(sv, p, o, alpha, sq[0]);
    sv->nodes++;
    for (int i = 0; i < n; i++) {
        uint64_t flips = oth_flips(p, o, sq[i]);
        if (!flips)
            continue;
        for (int j = 0, k = 0; j < n; j++)
            if (j != i)
                rest[k++] = sq[j];
        uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
        int v = -oth_solve_small(sv, no, np, -beta, -alpha, rest, n - 1, false);
        if (v > best) {
            best = v;
            if (v > alpha && (alpha = v) >= beta)
                return best;
        }
    }
    if (best > -OTH_INF)
        return best;
    if (passed)
        return oth_final(p, o);
    return -oth_solve_small(sv, o, p, -beta, -alpha, sq, n, true);
}

/* The empty squares of empty into sq[], those of regions with an odd
 * number of empties first (the last move of a region tends to be the
 * mover's), each group in square order. Returns their number. */
static int oth_parity_order(uint64_t empty, int *sq)
{
    int count[4] = {0, 0, 0, 0}, n = 0;
    for (uint64_t e = empty; e; e &= e - 1)
        count[oth_quadrant(bits_low(e))]++;
    for (int odd = 1; odd >= 0; odd--)
        for (uint64_t e = empty; e; e &= e - 1) {
            int s = bits_low(e);
            if ((count[oth_quadrant(s)] & 1) == odd)
                sq[n++] = s;
        }
    return n;
}

/* A static order of squares for the middle empties: corners, then the
 * edges away from the corners, the centre, and X- and C-squares last. */
static const int8_t oth_square_rank[64] = {
    0, 5, 2, 3, 3, 2, 5, 0, 5, 6, 4, 4, 4, 4, 6, 5, 2, 4, 1, 1, 1, 1, 4, 2, 3, 4, 1, 1, 1, 1, 4, 3,
    3, 4, 1, 1, 1, 1, 4, 3, 2, 4, 1, 1, 1, 1, 4, 2, 5, 6, 4, 4, 4, 4, 6, 5, 0, 5, 2, 3, 3, 2, 5, 0};

static int oth_solve_node(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta, int empties);

/* The pair of entries where position (p, o) may be kept. */
static inline oth_tt_entry *oth_tt_pair(const oth_solver *sv, uint64_t p, uint64_t o)
{
    return &sv->tt[(banyan_mix64(p ^ banyan_mix64(o)) >> sv->shift) & ~(uint64_t)1];
}

/* The slot of position (p, o) in the table: the one of its pair of
 * entries that holds it, else the one to replace (the fewer empties, so
 * that the costlier results stay). */
static inline oth_tt_entry *oth_tt_slot(const oth_solver *sv, uint64_t p, uint64_t o)
{
    oth_tt_entry *e = oth_tt_pair(sv, p, o);
    if (e[0].p == p && e[0].o == o)
        return &e[0];
    if (e[1].p == p && e[1].o == o)
        return &e[1];
    return e[0].empties <= e[1].empties ? &e[0] : &e[1];
}

/* Starts loading a table entry into the cache: the children's entries are
 * asked for while the moves are ordered, long before the children read
 * them (the table is far larger than the caches). */
#if defined(__GNUC__) || defined(__clang__)
#define OTH_PREFETCH(p) __builtin_prefetch(p)
#else
#define OTH_PREFETCH(p) ((void)(p))
#endif

/* The evaluation's logit for p to move against o, one ply searched: the
 * best of p's moves by the logit after it, the opponent's negated (a pass
 * is the opponent's logit negated; the end of the game a logit of 100 to
 * the winner). For the order of the moves from OTH_SOLVE_REPLY empties. */
static double oth_eval_reply(uint64_t p, uint64_t o)
{
    uint64_t mob = oth_mobility(p, o);
    if (!mob) {
        if (oth_mobility(o, p))
            return -oth_eval_logit(o, p);
        int v = oth_final(p, o);
        return v > 0 ? 100 : v < 0 ? -100 : 0;
    }
    double best = -1e9;
    for (; mob; mob &= mob - 1) {
        uint64_t flips = oth_flips(p, o, bits_low(mob));
        double v = -oth_eval_logit(o & ~flips, p | flips | (mob & (0 - mob)));
        best = v > best ? v : best;
    }
    return best;
}

/* Orders the moves mob of p against o into sq[] and returns their number:
 * the table's move first, then fastest first (the fewest replies, corners
 * favoured, then the fewest empty squares next to the mover's discs, which
 * the opponent may take later) with many empties, and with more the
 * evaluation's logit for the opponent after the move (128 a unit; fitted
 * weights on FForum 20-39: the journal), searched one ply further with
 * still more (oth_eval_reply), or by region parity and square
 * rank with few. The flips of each move go to fl[] where the order needed
 * them (many empties), else 0. */
static int oth_order(const oth_solver *prefetch, uint64_t p, uint64_t o, uint64_t mob, int empties,
                     int tt_move, int *sq, uint64_t *fl)
{
    int key[64], n = 0;
    int parity[4] = {0, 0, 0, 0};
    for (uint64_t e = ~(p | o); e; e &= e - 1)
        parity[oth_quadrant(bits_low(e))] ^= 1;
    for (; mob; mob &= mob - 1) {
        int s = bits_low(mob), k;
        uint64_t bit = mob & (0 - mob), flips = 0;
        if (empties >= OTH_SOLVE_FASTEST) {
            flips = oth_flips(p, o, s);
            uint64_t mine = p | flips | bit, theirs = o & ~flips;
            if (prefetch)
                OTH_PREFETCH(oth_tt_pair(prefetch, theirs, mine));
            uint64_t reply = oth_mobility(theirs, mine);
            k = 64 * bits_count(reply) + 32 * bits_count(reply & OTH_CORNERS) +
                8 * bits_count(oth_neighbours(mine) & ~(mine | theirs)) -
                (bit & OTH_CORNERS ? 96 : 0) + 4 * !parity[oth_quadrant(s)] +
                oth_square_rank[s] / 2;
            if (empties >= OTH_SOLVE_REPLY)
                k += (int)(128 * oth_eval_reply(theirs, mine));
            else if (empties >= OTH_SOLVE_EVAL)
                k += (int)(128 * oth_eval_logit(theirs, mine));
        } else {
            k = 16 * !parity[oth_quadrant(s)] + oth_square_rank[s];
        }
        if (s == tt_move)
            k = INT_MIN;
        /* Insertion by key; equal keys keep square order. */
        int j = n++;
        for (; j > 0 && key[j - 1] > k; j--) {
            key[j] = key[j - 1];
            sq[j] = sq[j - 1];
            fl[j] = fl[j - 1];
        }
        key[j] = k;
        sq[j] = s;
        fl[j] = flips;
    }
    return n;
}

/* The exact score for p to move against o with empties empty squares, or a
 * bound: at most the result when it is <= alpha, at least when >= beta.
 * Returns 0 with sv->aborted set when the budget runs out; nothing is then
 * stored. */
static int oth_solve_node(oth_solver *sv, uint64_t p, uint64_t o, int alpha, int beta, int empties)
{
    if (empties <= OTH_SOLVE_SMALL) {
        int sq[OTH_SOLVE_SMALL];
        int n = oth_parity_order(~(p | o), sq);
        return oth_solve_small(sv, p, o, alpha, beta, sq, n, false);
    }
    if (banyan_solve_halted(++sv->nodes, sv->budget, sv->stop)) {
        sv->aborted = true;
        return 0;
    }
    /* Stability cutoff: the opponent's stable discs stay his, so the
     * mover's score is at most 64 less twice their number; worth looking
     * at only when all his discs would be enough to fail low. */
    if (empties >= OTH_SOLVE_STABLE && OTH_CELLS - 2 * bits_count(o) <= alpha) {
        uint64_t full[4];
        oth_full_lines(p | o, full);
        int bound = OTH_CELLS - 2 * bits_count(oth_stable(o, full));
        if (bound <= alpha)
            return bound;
    }
    uint64_t mob = oth_mobility(p, o);
    if (!mob) {
        if (!oth_mobility(o, p))
            return oth_final(p, o);
        return -oth_solve_node(sv, o, p, -beta, -alpha, empties);
    }
    oth_tt_entry *e = NULL;
    int tt_move = -1;
    if (sv->tt && empties >= OTH_SOLVE_TT) {
        e = oth_tt_slot(sv, p, o);
        if (e->p == p && e->o == o) {
            if (e->lo >= beta || e->lo == e->hi)
                return e->lo;
            if (e->hi <= alpha)
                return e->hi;
            alpha = alpha > e->lo ? alpha : e->lo;
            beta = beta < e->hi ? beta : e->hi;
            tt_move = e->move;
        }
    }
    int sq[64];
    uint64_t fl[64];
    int n = oth_order(empties > OTH_SOLVE_TT && sv->tt ? sv : NULL, p, o, mob, empties, tt_move, sq,
                      fl);
    int best = -OTH_INF, best_move = 0xff, a = alpha;
    if (e && empties >= OTH_SOLVE_ETC)
        for (int i = 0; i < n; i++) {
            /* Enhanced transposition cutoff: a child whose bound in the
             * table already refutes the window. */
            uint64_t flips = fl[i] ? fl[i] : oth_flips(p, o, sq[i]);
            uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
            const oth_tt_entry *c = oth_tt_slot(sv, no, np);
            if (c->p == no && c->o == np && -c->hi >= beta)
                return -c->hi;
        }
    for (int i = 0; i < n; i++) {
        uint64_t flips = fl[i] ? fl[i] : oth_flips(p, o, sq[i]);
        uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
        int v;
        if (i == 0) {
            v = -oth_solve_node(sv, no, np, -beta, -a, empties - 1);
        } else {
            v = -oth_solve_node(sv, no, np, -a - 1, -a, empties - 1);
            if (v > a && v < beta && !sv->aborted)
                v = -oth_solve_node(sv, no, np, -beta, -v + 1, empties - 1);
        }
        if (sv->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = sq[i];
            if (v > a && (a = v) >= beta)
                break;
        }
    }
    if (e) {
        e = oth_tt_slot(sv, p, o); /* Again: the children may have filled it. */
        if (e->p != p || e->o != o) {
            e->p = p;
            e->o = o;
            e->lo = -OTH_CELLS;
            e->hi = OTH_CELLS;
            e->empties = (uint8_t)empties;
        }
        if (best > alpha && best < beta)
            e->lo = e->hi = (int8_t)best;
        else if (best <= alpha)
            e->hi = (int8_t)(best < e->hi ? best : e->hi);
        else
            e->lo = (int8_t)(best > e->lo ? best : e->lo);
        e->move = (uint8_t)best_move;
    }
    return best;
}

/* How many empties a budget of positions reaches: the solver visits about
 * 30000 * 3^(E - 14) positions for E empties (near the median of the
 * FForum problems 1-39 of tests/data, bench/othello_endgame.sh). */
static int oth_solve_reach(uint64_t budget)
{
    int empties = 14;
    uint64_t need = 30000;
    for (; empties > 0 && need > budget; need /= 3)
        empties--;
    for (; empties < OTH_CELLS && need <= budget / 3; need *= 3)
        empties++;
    return empties;
}

/* Whether some move of sq[0 .. n-1] gives p a score of at least v against
 * o (a null-window test for each): the index of the first such, or -1. */
static int oth_solve_at_least(oth_solver *sv, uint64_t p, uint64_t o, int v, const int *sq, int n,
                              int empties)
{
    for (int i = 0; i < n && !sv->aborted; i++) {
        uint64_t flips = oth_flips(p, o, sq[i]);
        uint64_t np = p | flips | ((uint64_t)1 << sq[i]), no = o & ~flips;
        if (-oth_solve_node(sv, no, np, -v, -v + 1, empties - 1) >= v && !sv->aborted)
            return i;
    }
    return -1;
}

/* The solve hook: the exact score, found by bisection with null-window
 * tests of the root's moves (fastest first), and the move the last passing
 * test proved to reach it. */
int oth_solve_count(const void *s, uint64_t budget, const _Atomic int *stop, void *mem,
                    int table_bits, banyan_move *best, int *score, uint64_t *nodes)
{
    const oth *t = s;
    uint64_t p = t->discs[t->turn], o = t->discs[!t->turn];
    int empties = OTH_CELLS - bits_count(p | o);
    oth_solver sv = {mem, 64 - table_bits, 0, budget, false, stop};
    *nodes = 0;
    if (t->solver == OTH_SOLVER_OFF || empties > oth_solve_reach(budget))
        return BANYAN_SOLVE_UNKNOWN;
    uint64_t mob = oth_mobility(p, o);
    int v, move;
    if (!mob) {
        if (!oth_mobility(o, p))
            return BANYAN_SOLVE_UNKNOWN; /* The game is over: nothing to solve. */
        v = -oth_solve_node(&sv, o, p, -OTH_CELLS, OTH_CELLS, empties);
        move = OTH_PASS;
    } else {
        /* Bisection on the score by null-window tests, which cost far
         * less than wide windows; every final score is even. The move
         * played is the one the last passing test proved: proving that
         * other moves fall short, to choose among equals by another rule,
         * can cost far more than the score (a wipe-out: every move but
         * the best ones must be shown to leave the opponent a disc). */
        int sq[64];
        uint64_t fl[64];
        int n = oth_order(NULL, p, o, mob, OTH_CELLS, -1, sq, fl), lo = -OTH_CELLS, hi = OTH_CELLS;
        move = sq[0]; /* Every move reaches -64. */
        while (lo < hi && !sv.aborted) {
            int mid = (lo + hi) / 4 * 2 + 2; /* Even, in (lo, hi]. */
            if (mid > hi)
                mid = hi;
            int first = oth_solve_at_least(&sv, p, o, mid, sq, n, empties);
            if (first >= 0) {
                lo = mid;
                move = sq[first]; /* Tried first in the next test. */
                sq[first] = sq[0];
                sq[0] = move;
            } else {
                hi = mid - 2;
            }
        }
        v = lo;
    }
    *nodes = sv.nodes;
    if (sv.aborted)
        return BANYAN_SOLVE_UNKNOWN;
    *best = (banyan_move)move;
    *score = v;
    return v > 0 ? BANYAN_SOLVE_WIN : v < 0 ? BANYAN_SOLVE_LOSS : BANYAN_SOLVE_DRAW;
}

int oth_solve(const void *s, uint64_t budget, const _Atomic int *stop, void *mem, banyan_move *best,
              int *score)
{
    uint64_t nodes;
    return oth_solve_count(s, budget, stop, mem, OTH_TT_BITS, best, score, &nodes);
}
