#!/usr/bin/env python3
"""tools/gomoku_moves.py - the moves one player chose in Gomoku game records,
for tools/fit_patterns.c's policy fit.

    tools/gomoku_moves.py RECORDS_DIR[,DIR...] PLAYER [SKIP] > OUT

Reads the `banyan match --records DIR --records-format txt` files of the
folders, and for each move from ply SKIP on (default 8) made by the player
whose engine spec (the record's "# first" or "# second" line) contains
PLAYER, writes a line "ID MOVES": ID the record's name and the ply, MOVES
the game up to and including that move. Moves of the opening are left out.
"""
import os
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    player, skip = argv[2], int(argv[3]) if len(argv) > 3 else 8
    for folder in argv[1].split(","):
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".txt"):
                continue
            first = second = ""
            moves, opening = [], []
            for line in open(os.path.join(folder, name), encoding="utf-8"):
                if line.startswith("# first "):
                    first = line[8:]
                elif line.startswith("# second "):
                    second = line[9:]
                elif line.strip() and not line.startswith("#"):
                    moves.append(line.split()[0])
                    opening.append("# opening" in line)
            for k, move in enumerate(moves):
                spec = first if k % 2 == 0 else second
                if k >= skip and not opening[k] and player in spec:
                    print("%s_%d %s" % (os.path.splitext(name)[0], k, " ".join(moves[:k + 1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
