#!/usr/bin/env python3
"""bench/connect4_sets.py - Connect Four test sets made the way Pascal Pons
defined his six (Test_L{1,2,3}_R{1,2,3}): positions reached by random moves
from the empty board, sorted by the discs played (L1: at most 14, L2: 15-28,
L3: more than 28) and by the moves left before the game ends under perfect
play (R1: under 14, R2: 14-27, R3: 28 or more, the next move not counted). Only his three easier sets
ship with the project (tests/data/connect4_L*_R*.txt); this makes the begin
sets (L1_R1, L1_R2, L1_R3) from a fixed seed, labelled by Banyan's solver.

  connect4_sets.py candidates L COUNT SEED > moves.txt    random positions
  connect4-solve --label moves.txt > labelled.txt         their scores
  connect4_sets.py pick L R COUNT SEED < labelled.txt > set.txt

pick keeps the positions of set L_R, COUNT of them drawn at random when
there are more, in the order of their moves. The commands that made
tests/data/connect4_L1_R*.txt are in docs/journal/2026-12-07-connect4-pons.md.

A random move that would end the game is never played, so no position is
over. The score is Pons': a win with the k-th from last disc scores k.
"""
import random
import sys

W, H = 7, 6


def random_position(plies, rng):
    """Column digits (1-7) of a random game of `plies` moves that nobody has
    won, or None when every move at some point ends it."""
    heights = [0] * W
    grid = {}
    moves = []
    for ply in range(plies):
        me = ply & 1
        options = [c for c in range(W) if heights[c] < H and not wins(grid, c, heights[c], me)]
        if not options:
            return None
        c = rng.choice(options)
        grid[(c, heights[c])] = me
        heights[c] += 1
        moves.append(str(c + 1))
    return "".join(moves)


def wins(grid, c, r, me):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            x, y = c + s * dc, r + s * dr
            while grid.get((x, y)) == me:
                n += 1
                x, y = x + s * dc, y + s * dr
        if n >= 4:
            return True
    return False


def plies_range(level):
    return {1: (1, 14), 2: (15, 28), 3: (29, 40)}[level]


def moves_left(plies, score):
    """Moves to the end of the game under perfect play, the last included."""
    if score == 0:
        return W * H - plies
    # The winning disc is played onto m discs, where |score| = (W*H + 1 - m) // 2
    # and m has the winner's parity (the mover's: that of plies).
    m = W * H + 1 - 2 * abs(score)
    if m % 2 != (plies if score > 0 else plies + 1) % 2:
        m -= 1
    return m - plies + 1


def rating(left):
    """Pons' ratings count the moves after the next one: R1 under 14, R2
    14-27, R3 28 or more (his three shipped sets fit this exactly)."""
    r = left - 1
    return 1 if r < 14 else 2 if r < 28 else 3


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "candidates":
        level, count, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        rng = random.Random(seed)
        lo, hi = plies_range(level)
        seen = set()
        while len(seen) < count:
            p = random_position(rng.randint(lo, hi), rng)
            if p and p not in seen:
                seen.add(p)
                print(p)
    elif len(sys.argv) == 6 and sys.argv[1] == "pick":
        level, want, count, seed = (int(a) for a in sys.argv[2:])
        lo, hi = plies_range(level)
        found = []
        for line in sys.stdin:
            moves, score = line.split()
            if lo <= len(moves) <= hi and rating(moves_left(len(moves), int(score))) == want:
                found.append((moves, int(score)))
        found.sort()  # The input's order does not matter.
        if len(found) > count:
            found = sorted(random.Random(seed).sample(found, count))
        for moves, score in found:
            print(moves, score)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
