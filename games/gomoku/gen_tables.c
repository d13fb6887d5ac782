/*
 * gen_tables.c - writes tables.c, the line-pattern tables of the provers,
 * the priors and the evaluation (gmk_ls_table and the others, see
 * gomoku.h), at build time: the Makefile
 * builds and runs it as `gen_tables OUT.c`. Made rather than committed: the
 * main table has 3^10 = 59049 entries, some 200 KB of C that nobody should
 * review or diff. Made at build time rather than at run time: constant data
 * needs no once-only initialisation (no pthreads in a game) and no global
 * mutable state, and any thread may read it from the first call. The rating
 * uses the module's own shape functions from gomoku.h, so the tables follow
 * any change to them.
 */
#include "gomoku.h"

#include <stdio.h>
#include <string.h>

/* The run of own stones o through the centre, bit 5, within the window. */
static int gmk_gen_run(unsigned o)
{
    int run = 1;
    for (int k = 6; k < 11 && ((o >> k) & 1); k++)
        run++;
    for (int k = 4; k >= 0 && ((o >> k) & 1); k--)
        run++;
    return run;
}

/* The GMK_LS_ bits of a line for one colour: own stones o (the centre,
 * bit 5, included) and empty cells emp of the 11 cells x - 5d .. x + 5d.
 * They agree with gmk_ro_lines_five, gmk_vcf_makes_four, gmk_vcf_fives and
 * gmk_shape's open three for that line. (A run through x that reaches 5
 * cells out is longer than 5 whatever lies beyond, so the window decides
 * fives and overlines alike.) */
static unsigned gmk_ls_rate(unsigned o, unsigned emp, bool exact)
{
    int run = gmk_gen_run(o);
    if (run == 5 || (run > 5 && !exact))
        return GMK_LS_FIVE; /* No five point besides: fp is empty. */
    unsigned fp = 0;
    if (gmk_pop5[(o >> 1) & 31] + gmk_pop5[(o >> 6) & 15] >= 4)
        fp = gmk_fp(o, emp, exact);
    if (fp)
        return GMK_LS_FOUR | ((fp & (fp - 1)) ? GMK_LS_FOUR2 : 0);
    if (run > 5)
        return 0;
    /* An open three: a window of 5 free of the opponent holding 3 stones,
     * and a point that then makes a straight four. */
    int best = 0;
    for (int s = 1; s <= 5; s++)
        if (!((0x1fu << s) & ~(o | emp)) && gmk_pop5[(o >> s) & 31] > best)
            best = gmk_pop5[(o >> s) & 31];
    for (int k = 1; k <= 9 && best >= 3; k++) {
        unsigned bit = 1u << k;
        if ((emp & bit) && gmk_straight(gmk_fp(o | bit, emp & ~bit, exact)))
            return GMK_LS_THREE;
    }
    return 0;
}

/* The GMK_SH_ shape of a line for one colour, as rollout.c's gmk_shape
 * finds it on a board where open threes need no renju check. */
static unsigned gmk_sh_rate(unsigned o, unsigned emp, bool exact)
{
    int run = gmk_gen_run(o);
    if (run == 5 || (run > 5 && !exact))
        return GMK_SH_FIVE;
    if (run > 5)
        return GMK_SH_OVER;
    unsigned fp = gmk_fp(o, emp, exact);
    if (fp)
        return gmk_fours(fp) >= 2 || gmk_straight(fp) ? GMK_SH_FOUR2 : GMK_SH_FOUR;
    int best = 0;
    for (int s = 1; s <= 5; s++)
        if (!((0x1fu << s) & ~(o | emp)) && gmk_pop5[(o >> s) & 31] > best)
            best = gmk_pop5[(o >> s) & 31];
    if (best < 3)
        return (unsigned)best; /* GMK_SH_NONE, ONE or TWO. */
    for (int k = 1; k <= 9; k++) {
        unsigned bit = 1u << k;
        if ((emp & bit) && gmk_straight(gmk_fp(o | bit, emp & ~bit, exact)))
            return GMK_SH_OPEN3;
    }
    return GMK_SH_THREE;
}

/* The GMK_PT_ pattern of a line for one colour (see gomoku.h): what the
 * centre's stone makes, a five or a four at once, else the best that one
 * more stone in the window makes of it, a step down (a four next: a three;
 * a three next: a two; a two next: a one). pt[] holds the patterns of the
 * window with more own stones, by index, already rated (0xff: not yet). */
static unsigned gmk_pt_rate(unsigned o, unsigned emp, bool exact, const uint8_t *pt, unsigned idx)
{
    static const uint8_t down[GMK_PT_N] = {0,         0,         0,         GMK_PT_B1, GMK_PT_F1,
                                           GMK_PT_B2, GMK_PT_F2, GMK_PT_B3, GMK_PT_F3, 0};
    int run = gmk_gen_run(o);
    if (run == 5 || (run > 5 && !exact))
        return GMK_PT_F5;
    if (run > 5)
        return GMK_PT_DEAD;
    unsigned fp = gmk_fp(o, emp, exact);
    if (fp)
        return gmk_fours(fp) >= 2 || gmk_straight(fp) ? GMK_PT_F4 : GMK_PT_B4;
    unsigned best = GMK_PT_DEAD, p3 = 1;
    for (int k = 0; k < 11; k++) {
        if (k == 5)
            continue;
        unsigned bit = 1u << k;
        if (k >= 1 && k <= 9 && (emp & bit) && down[pt[idx - p3]] > best)
            best = down[pt[idx - p3]]; /* Digit 2 (empty) becomes 1 (own). */
        p3 *= 3;
    }
    return best;
}

/* The window of table index idx (10 base-3 digits, 0 blocked, 1 own,
 * 2 empty, for the cells other than the centre, bit 5): own stones (the
 * centre's included) and empty cells; returns the own stones besides the
 * centre. */
static int gmk_gen_decode(unsigned idx, unsigned *own, unsigned *emp)
{
    int n = 0;
    *own = 1u << 5;
    *emp = 0;
    for (int k = 0; k < 10; k++, idx /= 3) {
        unsigned bit = 1u << (k < 5 ? k : k + 1);
        *own |= idx % 3 == 1 ? bit : 0;
        *emp |= idx % 3 == 2 ? bit : 0;
        n += idx % 3 == 1;
    }
    return n;
}

/* Writes n values of an array of type, name and size, 16 a line. */
static void gmk_gen_array(FILE *f, const char *type, const char *name, const unsigned *v, int n)
{
    fprintf(f, "\nconst %s %s[%d] = {", type, name, n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%u,", i % 16 ? " " : "\n    ", v[i]);
    fprintf(f, "\n};\n");
}

int main(int argc, char **argv)
{
    static unsigned base3[2048], table[59049], shapes[59049], pats[59049], codes[10000],
        line[2 * 59049], line_of[4 * GMK_BCELLS];
    static uint8_t pt[2][59049];
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: gen_tables OUT.c\n");
        return 2;
    }
    for (unsigned m = 0; m < 2048; m++) {
        unsigned v = 0, ten = (m & 0x1f) | (m >> 6) << 5; /* The centre left out. */
        for (int k = 9; k >= 0; k--)
            v = v * 3 + ((ten >> k) & 1);
        base3[m] = v;
    }
    for (unsigned idx = 0; idx < 59049; idx++) {
        unsigned own, emp;
        gmk_gen_decode(idx, &own, &emp);
        table[idx] = gmk_ls_rate(own, emp, false) | gmk_ls_rate(own, emp, true) << 4;
        shapes[idx] = gmk_sh_rate(own, emp, false) | gmk_sh_rate(own, emp, true) << 4;
    }
    /* Patterns, most own stones first: an index with no empty digit
     * comes before every index that has one where it has an own stone. */
    memset(pt, 0xff, sizeof pt);
    for (int own_n = 10; own_n >= 0; own_n--)
        for (unsigned idx = 0; idx < 59049; idx++) {
            unsigned own, emp;
            if (gmk_gen_decode(idx, &own, &emp) != own_n)
                continue;
            for (int e = 0; e < 2; e++)
                pt[e][idx] = (uint8_t)gmk_pt_rate(own, emp, e, pt[e], idx);
            pats[idx] = pt[0][idx] | (unsigned)pt[1][idx] << 4;
        }
    /* Pattern codes: the four patterns of a cell as a multiset, numbered
     * in the order of their sorted digits, strongest first. */
    int code = 0;
    for (int a = 0; a < GMK_PT_N; a++)
        for (int b = 0; b <= a; b++)
            for (int c = 0; c <= b; c++)
                for (int d = 0; d <= c; d++)
                    codes[((a * 10 + b) * 10 + c) * 10 + d] = (unsigned)code++;
    for (int i = 0; i < 10000; i++) {
        int v[4] = {i / 1000, i / 100 % 10, i / 10 % 10, i % 10};
        for (int j = 1; j < 4; j++) /* Insertion sort, largest first. */
            for (int k = j; k > 0 && v[k] > v[k - 1]; k--) {
                int tmp = v[k];
                v[k] = v[k - 1];
                v[k - 1] = tmp;
            }
        codes[i] = codes[((v[0] * 10 + v[1]) * 10 + v[2]) * 10 + v[3]];
    }
    for (unsigned idx = 0; idx < 59049; idx++)
        for (int e = 0; e < 2; e++) {
            unsigned sh = 4 * (unsigned)e;
            unsigned ls = (table[idx] >> sh) & 15, shape = (shapes[idx] >> sh) & 15;
            /* The counts the evaluation sums over a cell's four lines. */
            unsigned five = (ls & GMK_LS_FIVE) != 0,
                     four = ls & GMK_LS_FOUR ? (ls & GMK_LS_FOUR2 ? 2 : 1) : 0,
                     three = !(ls & GMK_LS_FOUR) && (ls & GMK_LS_THREE),
                     sh3 = shape == GMK_SH_THREE || shape == GMK_SH_OPEN3,
                     sh2 = shape == GMK_SH_TWO;
            line[e * 59049 + idx] = ls | shape << 4 | ((pats[idx] >> sh) & 15) << 8 | five << 12 |
                                    four << 16 | three << 20 | sh3 << 24 | sh2 << 28;
        }
    for (int x = 0; x < GMK_BCELLS; x++) {
        unsigned r = (unsigned)x >> 5, c = (unsigned)x & 31;
        line_of[x] = r;
        line_of[GMK_BCELLS + x] = c;
        line_of[2 * GMK_BCELLS + x] = c - r + GMK_BW - 1;
        line_of[3 * GMK_BCELLS + x] = c + r;
    }
    if (code != GMK_PC_N) {
        fprintf(stderr, "gen_tables: %d pattern codes, GMK_PC_N %d\n", code, GMK_PC_N);
        return 1;
    }
    if (!(f = fopen(argv[1], "w"))) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "/* Written by games/gomoku/gen_tables.c at build time: do not edit. */\n"
               "#include \"gomoku/gomoku.h\"\n");
    gmk_gen_array(f, "uint16_t", "gmk_ls_base3", base3, 2048);
    gmk_gen_array(f, "uint8_t", "gmk_ls_table", table, 59049);
    gmk_gen_array(f, "uint16_t", "gmk_pc_table", codes, 10000);
    gmk_gen_array(f, "uint32_t", "gmk_line_table", line, 2 * 59049);
    gmk_gen_array(f, "uint8_t", "gmk_line_of", line_of, 4 * GMK_BCELLS);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
