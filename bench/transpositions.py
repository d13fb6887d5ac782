#!/usr/bin/env python3
"""bench/transpositions.py GAME DUMP.json [START] - how much of a search tree
repeats a position found elsewhere in it: the measurement behind the choice of
games for shared nodes (SPEC S10, docs/journal/2026-12-02-repeated-positions.md).

DUMP is `banyan analyze --game GAME ... --tree-dump DUMP.json --min-visits 1`;
START is the analysed position as a move list (Connect Four: columns,
"4453"; Othello: from the start position; Gomoku: any). Each node's position is rebuilt from
the moves on its path (Connect Four: the discs of each column; Othello: the
board after flips, and the side to move; Gomoku: the set of stones and the
side to move) and the nodes are grouped by position. Printed: the nodes, the
distinct positions, the share of nodes whose position occurs more than once,
and the share of visits spent outside the most visited node of each position
(what a shared node would have pooled)."""
import collections
import json
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def othello_play(pos, mv):
    board, side = pos
    if mv == "pass":
        return board, 1 - side
    c, r = ord(mv[0]) - ord("a"), int(mv[1:]) - 1
    b, me, op = list(board), "XO"[side], "XO"[1 - side]
    for dr, dc in DIRS:
        rr, cc, run = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and b[rr * 8 + cc] == op:
            run.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and b[rr * 8 + cc] == me:
            for i in run:
                b[i] = me
    b[r * 8 + c] = me
    return "".join(b), 1 - side


def othello_start():
    b = ["-"] * 64
    b[27] = b[36] = "O"
    b[28] = b[35] = "X"
    return "".join(b), 0


def connect4_play(pos, mv):
    cols, side = pos
    c = ord(mv) - ord("a") if mv.isalpha() else int(mv) - 1
    cols = cols[:c] + (cols[c] + "xo"[side],) + cols[c + 1:]
    return cols, 1 - side


def gomoku_play(pos, mv):
    stones, side = pos
    return stones | {(mv, side)}, 1 - side


GAMES = {
    "connect4": (connect4_play, lambda: (("",) * 7, 0)),
    "othello": (othello_play, othello_start),
    "gomoku": (gomoku_play, lambda: (frozenset(), 0)),
}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in GAMES:
        sys.exit("usage: bench/transpositions.py connect4|othello|gomoku DUMP.json [START]")
    play, start = GAMES[sys.argv[1]]
    pos = start()
    moves = sys.argv[3] if len(sys.argv) > 3 else ""
    for mv in moves.replace(" ", "") if sys.argv[1] == "connect4" else moves.split():
        pos = play(pos, mv)
    seen = collections.defaultdict(list)
    stack = [(json.load(open(sys.argv[2])), pos)]
    while stack:
        node, p = stack.pop()
        for ch in node.get("children", []):
            q = play(p, ch["move"])
            seen[q].append(ch["visits"])
            stack.append((ch, q))
    nodes = sum(len(v) for v in seen.values())
    if not nodes:
        sys.exit("the dump has no nodes below the root")
    recur = sum(len(v) for v in seen.values() if len(v) > 1)
    visits = sum(sum(v) for v in seen.values())
    outside = sum(sum(v) - max(v) for v in seen.values() if len(v) > 1)
    print(f"nodes {nodes}, distinct positions {len(seen)} ({100 * len(seen) / nodes:.1f}%), "
          f"nodes whose position recurs {100 * recur / nodes:.1f}%, "
          f"visits outside the most visited copy {100 * outside / max(visits, 1):.1f}%")


main()
