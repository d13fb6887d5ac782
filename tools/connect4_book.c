/*
 * connect4_book.c - builds and checks Connect Four's opening book
 * (games/connect4_book.h) with the game's own solver.
 *
 *   connect4-book build PLIES [PART PARTS]
 *   connect4-book header PLIES < ENTRIES
 *   connect4-book verify
 *   connect4-book reach DISCS [N]
 *
 * The book is a proof tree of the first player's win: for each position
 * the first player reaches by following it, whatever the second player
 * answers, up to PLIES discs, a winning move. Positions are taken in their
 * canonical form (the position or its mirror image, whichever key is
 * smaller); positions where the first player wins at once are left out.
 *
 * build finds the tree. At the deepest positions (PLIES discs) the solver
 * proves the move outright: the first column, centre first (3, 2, 4, 1, 5,
 * 0, 6), after which the second player loses. Higher up a full proof would
 * cost far more than the whole tree below it (the empty board's alone runs
 * for hours), so a column is chosen by a solve limited to BOOK_PROBE
 * positions (proved win: taken; proved not a win: skipped; unknown: tried)
 * and proved by its subtree: every reply of the second player leads to a
 * position that is lost at once for it or is in the book. A column whose
 * subtree fails is dropped and the next one tried. Each entry found is
 * printed as "KEY COLUMN" in hex. With PART and PARTS only the second
 * player's first replies r with r % PARTS == PART are walked, so that
 * several processes share the work (tools/connect4_book.sh merges them).
 *
 * header reads such lines from the standard input and prints the book's
 * header file, the entries sorted and without repeats.
 *
 * verify checks the book compiled into the game the same way, from
 * scratch: every position the walk reaches has its entry, every entry at
 * PLIES discs is proved by the solver, and the entries above are proved by
 * the walk itself. It prints one line and exits 1 on the first failure.
 *
 * reach measures what telling a win from a draw from a loss costs, the
 * solver's first step, beyond the book: on N (default 200) positions of
 * DISCS discs drawn by uniform random play (seed 1; games over, or won at
 * once by the player to move, are drawn again), each with a fresh table
 * (the tool's 2^25 entries: a little cheaper than with the engine's), the
 * positions visited: median, 90th percentile and most.
 *
 * The tool includes the game's source, with a table of 2^25 entries
 * (256 MiB) instead of the engine's 2^20, because the book is written in
 * the game's internal form: each entry is a key of the solver's table (the
 * mover's discs plus every disc, as bitboards, canonical under the mirror
 * image) with its column, and building, merging and checking entries needs
 * that key, the mirror, the lookup c4_book_find() on a list not yet
 * compiled in, and the solver's bounded test of one move (c4_at_least:
 * win, not a win, or unknown when the budget runs out). The public solve
 * hook (banyan_tactics.solve, with book=off) would prove moves, but it
 * neither names positions by those keys nor reads a book other than the
 * one compiled in.
 */
#define C4_TT_BITS 25
#include "../games/connect4.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static c4_solver book_solver;

static double book_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The first player's discs and every disc of the position with the mover
 * to play: own + all is the key, as in the solver's table. */
typedef struct book_pos {
    uint64_t own, all;
    int ply;
} book_pos;

static book_pos book_mirror_pos(book_pos p)
{
    p.own = c4_mirror(p.own);
    p.all = c4_mirror(p.all);
    return p;
}

/* The position after a drop into column c, seen by the next mover. */
static book_pos book_play(book_pos p, int c)
{
    uint64_t m = c4_landing(p.all) & c4_column(c);
    book_pos q = {p.own ^ p.all, p.all | m, p.ply + 1};
    return q;
}

/* Whether the move into column c of p (legal) is proved to win for the
 * mover with at most budget positions: 1 yes, 0 no, -1 not known. */
static int book_wins(book_pos p, int c, uint64_t budget)
{
    uint64_t m = c4_landing(p.all) & c4_column(c);
    book_solver.nodes = 0;
    book_solver.budget = budget;
    book_solver.out = false;
    bool yes = c4_at_least(&book_solver, p.own, p.all, p.ply, m, 1);
    return book_solver.out ? -1 : yes;
}

#define BOOK_PROBE 4000000 /* Positions of the limited solve above the deepest row. */

/* What the walk learnt of each canonical key (an open-addressing table):
 * the winning column, or -1 where none was found. */
#define BOOK_SET_BITS 20
#define BOOK_SET_SIZE ((size_t)1 << BOOK_SET_BITS)
static uint64_t book_keys[BOOK_SET_SIZE];
static signed char book_cols[BOOK_SET_SIZE];
static bool book_used[BOOK_SET_SIZE];

static size_t book_slot(uint64_t key)
{
    size_t i = c4_tt_index(key) >> (C4_TT_BITS - BOOK_SET_BITS);
    while (book_used[i] && book_keys[i] != key)
        i = (i + 1) & (BOOK_SET_SIZE - 1);
    return i;
}

static int book_plies, book_part, book_parts = 1;
static bool book_verifying;
static long book_entries, book_proved;

static bool book_x(book_pos p);

/* Whether the move into column c of p wins by its subtree: every reply
 * leads to a position lost at once for the replier, or won by book_x(). */
static bool book_o(book_pos p, int c)
{
    book_pos q = book_play(p, c);
    for (int r = 0; r < C4_WIDTH; r++) {
        if (!(c4_landing(q.all) & c4_column(r)) || (p.ply == 0 && r % book_parts != book_part))
            continue;
        book_pos n = book_play(q, r);
        if (c4_won(n.own ^ n.all) || n.ply == C4_CELLS || !book_x(n))
            return false;
    }
    return true;
}

/* Whether p, the first player to move, is won by the book (found or, when
 * verifying, compiled in), up to book_plies discs. */
static bool book_x(book_pos p)
{
    if (c4_threats(p.own, p.all) & c4_landing(p.all))
        return true; /* A win at once: the solver needs no book. */
    if (p.ply > book_plies)
        return false;
    uint64_t key = p.own + p.all;
    if (c4_mirror(key) < key) {
        p = book_mirror_pos(p);
        key = p.own + p.all;
    }
    size_t i = book_slot(key);
    if (book_used[i])
        return book_cols[i] >= 0;
    int col = -1;
    if (book_verifying) {
        banyan_move m;
        if (c4_book_move(p.own, p.all, p.ply, &m) && (c4_landing(p.all) & c4_column((int)m)) &&
            (p.ply + 2 > book_plies ? book_wins(p, (int)m, UINT64_MAX) == 1 : book_o(p, (int)m)))
            col = (int)m;
        else
            printf("entry at key %llx (%d discs) missing or not a win\n", (unsigned long long)key,
                   p.ply);
    } else {
        for (int k = 0; k < C4_WIDTH && col < 0; k++) {
            int c = c4_order[k];
            if (!(c4_landing(p.all) & c4_column(c)))
                continue;
            if (p.ply + 2 > book_plies) {
                col = book_wins(p, c, UINT64_MAX) == 1 ? c : -1;
                continue;
            }
            int w = book_wins(p, c, BOOK_PROBE);
            if (w != 0 && book_o(p, c))
                col = c;
        }
        if (col >= 0) {
            printf("%llx %d\n", (unsigned long long)key, col);
            fflush(stdout);
        }
    }
    i = book_slot(key); /* The walk below may have filled the table. */
    book_used[i] = true;
    book_keys[i] = key;
    book_cols[i] = (signed char)col;
    book_entries += col >= 0;
    book_proved += col >= 0 && p.ply + 2 > book_plies;
    if (book_entries % 100 == 0 && col >= 0)
        fprintf(stderr, "%ld entries, %ld proved by the solver\n", book_entries, book_proved);
    return col >= 0;
}

static int book_compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Marks the entries of book (n) that the walk from p, the first player to
 * move, uses; false when a position it reaches has none. */
static bool book_mark(const uint64_t *book, size_t n, bool *used, book_pos p, int plies)
{
    banyan_move m;
    size_t at;
    if (c4_threats(p.own, p.all) & c4_landing(p.all))
        return true;
    if (p.ply > plies || !c4_book_find(book, n, p.own, p.all, &m, &at))
        return false;
    if (used[at] || p.ply + 2 > plies)
        return used[at] = true;
    used[at] = true;
    book_pos q = book_play(p, (int)m);
    for (int r = 0; r < C4_WIDTH; r++) {
        if (!(c4_landing(q.all) & c4_column(r)))
            continue;
        book_pos x = book_play(q, r);
        if (c4_won(x.own ^ x.all) || x.ply == C4_CELLS || !book_mark(book, n, used, x, plies))
            return false;
    }
    return true;
}

/* The header file from the "KEY COLUMN" lines on the standard input: the
 * entries the walk from the empty board uses (the build also prints those
 * of columns it tried and dropped), sorted. */
static int book_header(int plies)
{
    static uint64_t e[BOOK_SET_SIZE];
    static bool used[BOOK_SET_SIZE];
    unsigned long long key;
    int c;
    size_t n = 0, k = 0;
    while (n < BOOK_SET_SIZE && scanf("%llx %d", &key, &c) == 2 && c >= 0 && c < C4_WIDTH)
        e[n++] = (uint64_t)key << 3 | (uint64_t)c;
    if (!n || !feof(stdin)) {
        fprintf(stderr, "connect4-book header: bad or no entries\n");
        return 1;
    }
    qsort(e, n, sizeof e[0], book_compare);
    for (size_t i = 0; i < n; i++)
        if (!k || e[i] >> 3 != e[k - 1] >> 3)
            e[k++] = e[i];
    book_pos start = {0, 0, 0};
    if (!book_mark(e, k, used, start, plies)) {
        fprintf(stderr, "connect4-book header: the entries do not cover the walk\n");
        return 1;
    }
    n = 0;
    for (size_t i = 0; i < k; i++)
        if (used[i])
            e[n++] = e[i];
    printf("/*\n"
           " * connect4_book.h - Connect Four's opening book: a winning move for each\n"
           " * position the first player reaches by following it, up to %d discs\n"
           " * (%zu entries; see c4_book_move() in connect4.c). Written by\n"
           " * tools/connect4_book.c with the game's solver; do not edit. To rebuild\n"
           " * and check it (one process a core):\n"
           " *\n"
           " *     tools/connect4_book.sh %d\n"
           " *\n"
           " * or, on one core and unchecked:\n"
           " *\n"
           " *     make build/release/connect4-book &&\n"
           " *       build/release/connect4-book build %d |\n"
           " *       build/release/connect4-book header %d > games/connect4_book.h\n"
           " */\n"
           "#ifndef BANYAN_CONNECT4_BOOK_H\n"
           "#define BANYAN_CONNECT4_BOOK_H\n"
           "\n"
           "#include <stdint.h>\n"
           "\n"
           "#define C4_BOOK_PLIES %d\n"
           "/* clang-format off */\n"
           "static const uint64_t c4_book[] = {\n",
           plies, n, plies, plies, plies, plies);
    for (size_t i = 0; i < n; i++)
        printf("%sUINT64_C(0x%llx),%s", i % 4 ? " " : "    ", (unsigned long long)e[i],
               i % 4 == 3 || i + 1 == n ? "\n" : "");
    printf("};\n/* clang-format on */\n\n#endif\n");
    return 0;
}

/* The cost of the result (two null windows around 0) on n random positions
 * of `discs` discs. */
static int book_reach(int discs, int n)
{
    static uint64_t cost[10000];
    banyan_rng rng;
    banyan_rng_seed(&rng, 1, 0);
    if (discs < 0 || discs >= C4_CELLS || n <= 0 || n > 10000)
        return 2;
    double t0 = book_now();
    for (int k = 0; k < n;) {
        book_pos p = {0, 0, 0};
        while (p.ply < discs) {
            int c = (int)banyan_rng_below(&rng, C4_WIDTH);
            if (c4_landing(p.all) & c4_column(c)) {
                p = book_play(p, c);
                if (c4_won(p.own ^ p.all))
                    break;
            }
        }
        if (p.ply < discs || (c4_threats(p.own, p.all) & c4_landing(p.all)))
            continue;
        memset(book_solver.tt, 0, C4_TT_SIZE * sizeof(uint64_t));
        book_solver.nodes = 0;
        book_solver.budget = UINT64_MAX;
        if (c4_negamax(&book_solver, p.own, p.all, p.ply, 0, 1) <= 0)
            c4_negamax(&book_solver, p.own, p.all, p.ply, -1, 0);
        cost[k++] = book_solver.nodes;
    }
    qsort(cost, (size_t)n, sizeof cost[0], book_compare);
    printf("result at %d empty squares, %d positions: median %llu positions, 90%% %llu, most "
           "%llu (%.1f s)\n",
           C4_CELLS - discs, n, (unsigned long long)cost[n / 2],
           (unsigned long long)cost[n * 9 / 10], (unsigned long long)cost[n - 1], book_now() - t0);
    return 0;
}

int main(int argc, char **argv)
{
    book_solver.tt = calloc(C4_TT_SIZE, sizeof(uint64_t));
    book_pos start = {0, 0, 0};
    if (!book_solver.tt) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    if (argc == 2 && !strcmp(argv[1], "verify")) {
        double t0 = book_now();
        book_plies = C4_BOOK_PLIES;
        book_verifying = true;
        if (!book_x(start))
            return 1;
        printf("book of %zu entries to %d discs: the first player wins from the empty board "
               "(%ld positions of the walk, %ld proved by the solver; %.0f s)\n",
               sizeof c4_book / sizeof c4_book[0], C4_BOOK_PLIES, book_entries, book_proved,
               book_now() - t0);
        return 0;
    }
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "reach"))
        return book_reach(atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 200);
    if (argc == 3 && !strcmp(argv[1], "header"))
        return book_header(atoi(argv[2]));
    if ((argc == 3 || argc == 5) && !strcmp(argv[1], "build")) {
        book_plies = atoi(argv[2]);
        if (argc == 5) {
            book_part = atoi(argv[3]);
            book_parts = atoi(argv[4]);
        }
        if (book_plies >= 0 && book_plies % 2 == 0 && book_parts > 0 && book_part >= 0 &&
            book_part < book_parts)
            return book_x(start) ? 0 : 1;
    }
    fprintf(stderr, "usage: connect4-book build PLIES [PART PARTS] | header PLIES | verify | reach "
                    "DISCS [N]\n");
    return 2;
}
