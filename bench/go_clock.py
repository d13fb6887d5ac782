#!/usr/bin/env python3
"""bench/go_clock.py BANYAN [byoyomi|canadian] [SECONDS] [GAMES] [SIZE] [MAIN] - games of Go
between two `banyan gtp` processes under a real clock, kept by this script as a server
keeps it: each genmove is timed on the wall clock, the player's time is charged, and
`time_left` tells it what is left before each move. MAIN seconds of main time first
(default 0), then byoyomi: one period of SECONDS a move (a move that takes longer
loses); canadian: 5 x SECONDS for 5 stones. GAMES games (default 1) on SIZE x SIZE
(default 9), komi 7, game k with seeds 2k + 1 and 2k + 2 so that the games differ.
Prints each move's time (with one game) and each game's least time left, and exits 1 if
a player lost on time. A game ends after two passes, a resignation or 2 x SIZE^2 moves."""
import subprocess
import sys
import time


class Player:
    def __init__(self, banyan, size, seed):
        self.p = subprocess.Popen([banyan, "gtp", "--game", "go", "--param", f"size={size}",
                                   "--param", "komi=7", "--seed", str(seed)],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("the engine ended: " + cmd)
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        reply = " ".join(lines)
        if not reply.startswith("="):
            raise RuntimeError(cmd + ": " + reply)
        return reply[1:].strip()

    def close(self):
        try:
            self.send("quit")
        except RuntimeError:
            pass
        self.p.wait()


def play(banyan, kind, per, size, main_time, seeds, verbose):
    """One game; returns (moves, least time left per side, score, loser or None)."""
    stones = 1 if kind == "byoyomi" else 5
    period = per * stones
    players = [Player(banyan, size, seeds[0]), Player(banyan, size, seeds[1])]
    for p in players:
        if kind == "byoyomi":
            p.send(f"kgs-time_settings byoyomi {main_time:g} {per:g} 1")
        else:
            p.send(f"kgs-time_settings canadian {main_time:g} {period:g} {stones}")
    in_main = [main_time > 0, main_time > 0]
    left = [main_time if main_time > 0 else period] * 2
    stones_left = [stones, stones]
    least = [period, period]
    colours = ["b", "w"]
    passes, moves, lost = 0, 0, None
    while passes < 2 and moves < 2 * size * size:
        side = moves % 2
        p = players[side]
        # GTP gives whole seconds, rounded down here; in main time the stones
        # are 0; in byo-yomi KGS gives the periods left in place of stones.
        if in_main[side]:
            p.send(f"time_left {colours[side]} {int(left[side])} 0")
        else:
            p.send(f"time_left {colours[side]} {int(left[side])} "
                   f"{1 if kind == 'byoyomi' else stones_left[side]}")
        t0 = time.monotonic()
        move = p.send(f"genmove {colours[side]}")
        spent = time.monotonic() - t0
        left[side] -= spent
        if in_main[side] and left[side] < 0:
            # Main time ran out during the move: the rest comes from the
            # first period.
            in_main[side] = False
            left[side] += period
        if not in_main[side]:
            least[side] = min(least[side], left[side])
        if verbose:
            print(f"{moves + 1:3d} {colours[side]} {move:6s} {spent:6.3f} s, "
                  f"left {left[side]:6.3f} s")
        if left[side] < 0:
            lost = side
            break
        if not in_main[side]:
            stones_left[side] -= 1
            if stones_left[side] == 0:
                left[side], stones_left[side] = period, stones
        moves += 1
        if move.lower() == "resign":
            break
        players[1 - side].send(f"play {colours[side]} {move}")
        passes = passes + 1 if move.lower() == "pass" else 0
    score = players[0].send("final_score") if lost is None and passes >= 2 else "-"
    for p in players:
        p.close()
    return moves, least, score, lost


def main():
    banyan = sys.argv[1]
    kind = sys.argv[2] if len(sys.argv) > 2 else "byoyomi"
    per = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    games = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    size = int(sys.argv[5]) if len(sys.argv) > 5 else 9
    main_time = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
    losses, least_all = 0, None
    for k in range(games):
        moves, least, score, lost = play(banyan, kind, per, size, main_time,
                                         (2 * k + 1, 2 * k + 2), games == 1)
        losses += lost is not None
        low = min(least)
        least_all = low if least_all is None else min(least_all, low)
        print(f"game {k + 1}: {moves} moves, least time left in overtime "
              f"{least[0]:.3f} s (Black) {least[1]:.3f} s (White), score {score}, "
              + ("lost on time: " + "bw"[lost] if lost is not None else "no loss on time"),
              flush=True)
    print(f"{kind}, {size}x{size}, main {main_time:g} s, {per:g} s a move: {games} games, "
          f"{losses} lost on time, least time left {least_all:.3f} s")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
