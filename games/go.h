/*
 * go.h - what the Go module shows its tests: the 3x3 pattern matcher.
 */
#ifndef BANYAN_GO_H
#define BANYAN_GO_H

#include <stdbool.h>

/* Whether a 3x3 pattern of the heavy playouts matches the neighbourhood
 * code: the eight neighbours in the order NW N NE W E SW S SE, two bits
 * each (0 empty, 1 Black, 2 White, 3 off the board), NW in the low bits. */
bool go_pattern_matches(unsigned code);

#endif /* BANYAN_GO_H */
