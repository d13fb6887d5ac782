/*
 * gen_patterns.c - writes the table of Go's 3x3 patterns (go_pattern_bits,
 * see go.h) at build time: the Makefile builds and runs it as
 * `gen_patterns OUT.c`. Every neighbourhood code is matched here against
 * the patterns below, so that the playouts and the priors match one with a
 * load and a bit test (the scan of 208 masks this replaces took a third of
 * a heavy playout's time). Made rather than committed, as the Gomoku
 * tables are (games/gomoku/gen_tables.c says why): 8 KiB of bits that
 * nobody should review, which follow any change to the list.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The eight neighbours of a point, in the order NW N NE W E SW S SE, two
 * bits each (0 empty, 1 Black, 2 White, 3 off the board), make a 16-bit
 * code. A pattern is a mask and a value over the code: the point matches
 * when (code & mask) == value. Each pattern below (MoGo's hane, cut and
 * edge patterns, as Pachi writes them) is expanded at compile time into
 * its 8 rotations and reflections, each with both colourings. Letters: X
 * and O stones, '.' empty, '#' off the board, '?' anything, 'x' not X
 * (empty or O), 'o' not O (empty or X). */
#define GO_PV(c) ((c) == 'X' ? 1u : (c) == 'O' ? 2u : (c) == '#' ? 3u : 0u)
#define GO_PM(c) ((c) == '?' ? 0u : (c) == 'x' ? 1u : (c) == 'o' ? 2u : 3u)
#define GO_CODE(F, a, b, c, d, e, f, g, h)                                                         \
    (F(a) | F(b) << 2 | F(c) << 4 | F(d) << 6 | F(e) << 8 | F(f) << 10 | F(g) << 12 | F(h) << 14)
/* The colour swap: the two bits of every field exchanged. */
#define GO_SWAP(x) ((((x)&0x5555u) << 1) | (((x) >> 1) & 0x5555u))
#define GO_ENTRY(a, b, c, d, e, f, g, h)                                                           \
    {GO_CODE(GO_PM, a, b, c, d, e, f, g, h), GO_CODE(GO_PV, a, b, c, d, e, f, g, h)},              \
        {GO_SWAP(GO_CODE(GO_PM, a, b, c, d, e, f, g, h)),                                          \
         GO_SWAP(GO_CODE(GO_PV, a, b, c, d, e, f, g, h))},
/* The eight symmetries of the square, as the neighbour each place takes
 * its letter from: identity, the mirrors, the half turn, the transpose and
 * the transpose after each of the others. */
#define GO_PATTERN(a, b, c, d, e, f, g, h)                                                         \
    GO_ENTRY(a, b, c, d, e, f, g, h)                                                               \
    GO_ENTRY(c, b, a, e, d, h, g, f)                                                               \
    GO_ENTRY(f, g, h, d, e, a, b, c)                                                               \
    GO_ENTRY(h, g, f, e, d, c, b, a)                                                               \
    GO_ENTRY(a, d, f, b, g, c, e, h)                                                               \
    GO_ENTRY(f, d, a, g, b, h, e, c)                                                               \
    GO_ENTRY(c, e, h, b, g, a, d, f)                                                               \
    GO_ENTRY(h, e, c, g, b, f, d, a)

typedef struct go_pat {
    uint16_t mask, value;
} go_pat;

/* Each pattern as its three rows, the centre (the move) left out. */
static const go_pat go_patterns[] = {
    /* Hane: enclosing, non-cutting, magari, and the diagonal attachment. */
    GO_PATTERN('X', 'O', 'X', '.', '.', '?', '?', '?')
        GO_PATTERN('X', 'O', '.', '.', '.', '?', '.', '?')
            GO_PATTERN('X', 'O', '?', 'X', '.', 'x', '.', '?')
                GO_PATTERN('.', 'O', '.', 'X', '.', '.', '.', '.')
    /* Cuts: the unprotected cut, the peeping cut, the de, the keima cut. */
    GO_PATTERN('X', 'O', '?', 'O', 'o', '?', 'o', '?')
        GO_PATTERN('X', 'O', '?', 'O', 'X', '?', '?', '?')
            GO_PATTERN('?', 'X', '?', 'O', 'O', 'o', 'o', 'o')
                GO_PATTERN('O', 'X', '?', 'o', 'O', '?', '?', '?')
    /* The edge: chase, block a side cut, block a connection, sagari, cut. */
    GO_PATTERN('X', '.', '?', 'O', '?', '#', '#', '#')
        GO_PATTERN('O', 'X', '?', 'X', 'O', '#', '#', '#')
            GO_PATTERN('?', 'X', '?', 'x', 'O', '#', '#', '#')
                GO_PATTERN('?', 'X', 'O', 'x', 'x', '#', '#', '#')
                    GO_PATTERN('?', 'O', 'X', 'X', 'O', '#', '#', '#')};

#define GO_N_PATTERNS (sizeof go_patterns / sizeof go_patterns[0])

static bool go_pattern_scan(unsigned code)
{
    for (size_t i = 0; i < GO_N_PATTERNS; i++)
        if ((code & go_patterns[i].mask) == go_patterns[i].value)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    FILE *f;
    if (argc != 2 || !(f = fopen(argv[1], "w"))) {
        fprintf(stderr, "usage: gen_patterns OUT.c\n");
        return 2;
    }
    fprintf(f, "/* Written by games/go/gen_patterns.c at build time: do not edit. */\n"
               "#include \"go/go.h\"\n\n"
               "const uint64_t go_pattern_bits[GO_CODES / 64] = {\n");
    for (unsigned w = 0; w < 65536 / 64; w++) {
        uint64_t bits = 0;
        for (unsigned b = 0; b < 64; b++)
            bits |= (uint64_t)go_pattern_scan(w * 64 + b) << b;
        fprintf(f, "    0x%016llxull,\n", (unsigned long long)bits);
    }
    fprintf(f, "};\n");
    return fclose(f) == 0 ? 0 : 1;
}
