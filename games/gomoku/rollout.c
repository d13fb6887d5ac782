/*
 * rollout.c - Gomoku's playouts and priors.
 *
 * Rollouts copy the stones onto a local byte board and keep a list of the
 * cells they may draw from: every empty cell (uniform), or the cells near
 * the stones after the threats (heuristic: win, block, make or stop a
 * straight four, then play near the last moves). The state gets the
 * stones, ply, last move and result back; near is left stale, since the game
 * is over. Priors score each candidate for both players from the shape it
 * makes in each of the four lines through it.
 */
#include "gomoku.h"

#include <string.h>

/* Workspace of a rollout. */
typedef struct gmk_ro {
    gmk_board g;                      /* The stones. */
    gmk_ro_lines lines[2];            /* The stones again, as lines per colour. */
    uint64_t seen[GMK_BCELLS / 64];   /* Bit p: cell p is off the board, taken or listed. */
    uint16_t pos[GMK_BCELLS];         /* Index of a listed cell in list. */
    uint16_t list[GMK_MAX * GMK_MAX]; /* Cells that may be drawn. */
    uint16_t threat[2][2][64];        /* Per player: five points, open-four points. */
    uint8_t n_threat[2][2];           /* Their numbers. */
    int n;                            /* Cells in list. */
} gmk_ro;

static inline void gmk_ro_add(gmk_ro *w, int p)
{
    w->seen[p >> 6] |= (uint64_t)1 << (p & 63);
    w->pos[p] = (uint16_t)w->n;
    w->list[w->n++] = (uint16_t)p;
}

/* Removes the listed cell p by moving the last one into its place. */
static inline void gmk_ro_remove(gmk_ro *w, int p)
{
    int i = w->pos[p], q = w->list[--w->n];
    w->list[i] = (uint16_t)q;
    w->pos[q] = (uint16_t)i;
}

/* Lists the empty cells within distance 2 of p that are not listed yet. The
 * seen bits (byte board cell p is bit p) cover the edge, the stones and the
 * listed cells, so each of the 5 rows of the square around p is one mask
 * operation, and only new cells cost a loop turn. */
static inline void gmk_ro_grow(gmk_ro *w, int p)
{
    for (int row = (p >> 5) - 2; row <= (p >> 5) + 2; row++) {
        int i = row >> 1, shift = (row & 1) * 32 + (p & 31) - 2;
        uint64_t box = (uint64_t)0x1f << shift, fresh = box & ~w->seen[i];
        w->seen[i] |= box;
        for (; fresh; fresh &= fresh - 1) {
            int q = i * 64 + bits_low(fresh);
            w->pos[q] = (uint16_t)w->n;
            w->list[w->n++] = (uint16_t)q;
        }
    }
}

/* Adds cell p to a threat list; a full list replaces its newest entry. */
static inline void gmk_ro_note(gmk_ro *w, int who, int kind, int p)
{
    int n = w->n_threat[who][kind];
    w->threat[who][kind][n < 64 ? n : 63] = (uint16_t)p;
    w->n_threat[who][kind] = (uint8_t)(n < 64 ? n + 1 : 64);
}

/* Records the threats that player who's stone at p makes: five points (cells
 * that now complete a five) and open-four points (cells that would make a
 * straight four), in lines holding three stones or more. */
static void gmk_ro_threats(gmk_ro *w, int p, int who)
{
    const uint8_t *b = w->g.b;
    bool exact = w->g.exact[who];
    for (int i = 0; i < 4; i++) {
        int d = gmk_dirs[i];
        unsigned own, emp, fp;
        gmk_line(b, p, d, who + 1, &own, &emp);
        if (gmk_pop5[(own >> 1) & 31] + gmk_pop5[(own >> 6) & 15] < 3)
            continue;
        fp = gmk_fp(own, emp, exact);
        for (int k = 1; k <= 9; k++)
            if ((fp >> k) & 1)
                gmk_ro_note(w, who, 0, p + (k - 5) * d);
        if (fp)
            continue;
        for (int k = 1; k <= 9; k++) {
            unsigned bit = 1u << k;
            if ((emp & bit) && gmk_straight(gmk_fp(own | bit, emp & ~bit, exact)))
                gmk_ro_note(w, who, 1, p + (k - 5) * d);
        }
    }
}

/* Whether colour col playing at empty p makes a straight four somewhere. */
static bool gmk_ro_straight_at(const uint8_t *b, int p, int col, bool exact)
{
    for (int i = 0; i < 4; i++) {
        unsigned own, emp;
        gmk_line(b, p, gmk_dirs[i], col, &own, &emp);
        if (gmk_straight(gmk_fp(own, emp, exact)))
            return true;
    }
    return false;
}

/* The newest still valid threat of list kind (0 five points, 1 open-four
 * points) of player who, or -1; stale ones on top are dropped. */
static int gmk_ro_find(gmk_ro *w, int who, int kind)
{
    int n = w->n_threat[who][kind], found = -1;
    const uint16_t *list = w->threat[who][kind];
    bool exact = w->g.exact[who];
    while (n > 0) {
        int p = list[n - 1];
        if (w->g.b[p] == 0 && (kind == 0 ? gmk_ro_lines_five(&w->lines[who], (p >> 5) - GMK_PAD,
                                                             (p & 31) - GMK_PAD, exact)
                                         : gmk_ro_straight_at(w->g.b, p, who + 1, exact))) {
            found = p;
            break;
        }
        n--;
    }
    w->n_threat[who][kind] = (uint8_t)n;
    return found;
}

/* Plays t to the end. GMK_RO_UNIFORM draws from every empty cell, and
 * GMK_RO_HEURISTIC from the near candidates after threats: win with a five, block the opponent's
 * five, make a straight four, stop the opponent's straight four (answer an open three), and
 * otherwise, half the time, play within distance 2 of one of the last two moves. Each drawn cell
 * leaves the list (the last one takes its place). */
static void gmk_rollout_run(gmk *t, gmk_ro *w, banyan_rng *rng, int mode)
{
    uint8_t *b = w->g.b;
    int ply = t->ply, size = t->size, cells = size * size, last = -1, prev = -1;
    int winner = GMK_NOBODY;

    if (t->last != GMK_NO_CELL)
        last = gmk_bidx(t->last / size, t->last % size);
    memset(w->lines, 0, sizeof w->lines);
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++) {
            int p = gmk_bidx(r, c);
            if (b[p] == 1 || b[p] == 2)
                gmk_ro_lines_set(&w->lines[b[p] - 1], r, c);
        }
    w->n = 0;
    if (mode == GMK_RO_UNIFORM) {
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int p = gmk_bidx(r, c);
                w->list[w->n] = (uint16_t)p;
                w->n += b[p] == 0;
            }
    } else {
        memset(w->seen, 0xff, sizeof w->seen);
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int p = gmk_bidx(r, c);
                w->seen[p >> 6] &= ~((uint64_t)(b[p] == 0) << (p & 63));
            }
        if (t->ply == 0)
            gmk_ro_add(w, gmk_bidx(size / 2, size / 2));
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++)
                if (gmk_bit(t->near, r * GMK_STRIDE + c))
                    gmk_ro_add(w, gmk_bidx(r, c));
    }
    memset(w->n_threat, 0, sizeof w->n_threat);
    if (mode == GMK_RO_HEURISTIC)
        for (int r = 0; r < size; r++)
            for (int c = 0; c < size; c++) {
                int p = gmk_bidx(r, c);
                if (b[p] == 1 || b[p] == 2)
                    gmk_ro_threats(w, p, b[p] - 1);
            }
    while (w->n > 0 && ply < cells) {
        int who = ply & 1, col = who + 1, p = -1;
        if (mode == GMK_RO_UNIFORM) {
            uint32_t i = banyan_rng_below(rng, (uint32_t)w->n);
            p = w->list[i];
            w->list[i] = w->list[--w->n];
        } else {
            if ((p = gmk_ro_find(w, who, 0)) < 0 && (p = gmk_ro_find(w, !who, 0)) < 0 &&
                (p = gmk_ro_find(w, who, 1)) < 0 && (p = gmk_ro_find(w, !who, 1)) < 0) {
                uint64_t x = banyan_rng_next(rng);
                int near = (x & 1) ? last : prev;
                if ((x & 2) && near >= 0 && b[near + gmk_ring[(x >> 8) % 24]] == 0)
                    p = near + gmk_ring[(x >> 8) % 24];
            }
            if (p < 0)
                p = w->list[banyan_rng_below(rng, (uint32_t)w->n)];
            gmk_ro_remove(w, p);
        }
        int r = (p >> 5) - GMK_PAD, c = (p & 31) - GMK_PAD;
        b[p] = (uint8_t)col;
        gmk_ro_lines_set(&w->lines[who], r, c);
        gmk_set(t->stones[who], r * GMK_STRIDE + c);
        ply++;
        prev = last;
        last = p;
        if (gmk_ro_lines_five(&w->lines[who], r, c, w->g.exact[who])) {
            winner = who;
            break;
        }
        if (mode == GMK_RO_HEURISTIC) {
            gmk_ro_grow(w, p);
            gmk_ro_threats(w, p, who);
        }
    }
    t->ply = (uint16_t)ply;
    if (last >= 0)
        t->last = (uint16_t)gmk_b2move(size, last);
    t->winner = (uint8_t)winner;
}

/* Renju in rollouts: Black's forbidden points are not checked (Black may
 * play them), but Black wins only with exactly five, so no overline wins and
 * a forbidden point never wins at once. */
void gmk_rollout(void *s, banyan_rng *rng)
{
    gmk *t = s;
    gmk_ro w;
    if (gmk_is_over(t))
        return;
    gmk_board_load(t, &w.g);
    gmk_rollout_run(t, &w, rng, t->rollout);
}
