#!/usr/bin/env python3
"""tools/gomoku_openings.py - balanced Gomoku openings for another board size.

    tools/gomoku_openings.py place OPENINGS SIZE POSITIONS
    tools/gomoku_openings.py pick LABELS LIMIT OUT

place: each opening of OPENINGS (one a line, moves in h8 notation, on any
board up to 22x22) moved so that its stones' bounding box sits at the centre
of a SIZE x SIZE board (rounded towards a1), written as lines "ID MOVES"
(ID o001, o002, ... in the file's order), the positions file of
`tools/label_gomoku.py --positions 1 --size SIZE`.

pick: of the labelled positions in LABELS (lines "ID EVAL MOVES" of
tools/label_gomoku.py), those whose evaluation for the player to move is
within LIMIT of even (|EVAL| <= LIMIT; a win or loss "+Mn"/"-Mn" is never
kept), written to OUT one a line in ID order, the form of `banyan match
--openings`. A line "# kept K of N within +-LIMIT" goes to standard output.

The 20x20 openings (tests/data/gomoku_openings20.txt) are the 15x15 ones
(tests/data/gomoku_openings15.txt) centred on 20x20, and the renju ones
(tests/data/gomoku_openings_renju15.txt) the 15x15 ones as they are, each
judged by Rapfi at 2 s a position under its board and rule and kept within
100 of even (docs/RESULTS.md has the commands). No test needs a brain.
"""
import re
import sys

MOVE = re.compile(r"([a-v])(\d{1,2})$")


def parse(move):
    """(column, row) from 0 of a move "h8"; ValueError if it is not one."""
    m = MOVE.match(move)
    if not m or not 1 <= int(m.group(2)) <= 22:
        raise ValueError("not a move: %r" % move)
    return ord(m.group(1)) - 97, int(m.group(2)) - 1


def place(moves, size):
    """moves centred on a size x size board; ValueError if they do not fit."""
    cells = [parse(m) for m in moves]
    if len(set(cells)) != len(cells):
        raise ValueError("a repeated stone")
    lo_x, hi_x = min(c for c, _ in cells), max(c for c, _ in cells)
    lo_y, hi_y = min(r for _, r in cells), max(r for _, r in cells)
    if hi_x - lo_x >= size or hi_y - lo_y >= size:
        raise ValueError("the opening is wider than the board")
    dx = (size - 1 - (hi_x - lo_x)) // 2 - lo_x
    dy = (size - 1 - (hi_y - lo_y)) // 2 - lo_y
    return ["%s%d" % (chr(97 + c + dx), r + dy + 1) for c, r in cells]


def even(ev, limit):
    """Whether an evaluation "X" (not "+Mn"/"-Mn") is within limit of 0."""
    return re.fullmatch(r"[-+]?\d+", ev) is not None and abs(int(ev)) <= limit


def main(argv):
    if len(argv) == 5 and argv[1] == "place":
        size = int(argv[3])
        if not 5 <= size <= 22:
            print("gomoku_openings.py: SIZE is 5 to 22", file=sys.stderr)
            return 2
        out = []
        for k, line in enumerate(l for l in open(argv[2]) if l.strip()):
            try:
                out.append("o%03d %s" % (k + 1, " ".join(place(line.split(), size))))
            except ValueError as e:
                print("gomoku_openings.py: opening %d: %s" % (k + 1, e), file=sys.stderr)
                return 1
        with open(argv[4], "w") as f:
            f.write("\n".join(out) + "\n")
        return 0
    if len(argv) == 5 and argv[1] == "pick":
        limit = int(argv[3])
        rows = [l.split() for l in open(argv[2]) if l.strip()]
        kept = sorted((r[0], r[2:]) for r in rows if len(r) >= 3 and even(r[1], limit))
        with open(argv[4], "w") as f:
            f.writelines(" ".join(moves) + "\n" for _, moves in kept)
        print("# kept %d of %d within +-%d" % (len(kept), len(rows), limit))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
