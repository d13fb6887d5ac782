#!/usr/bin/env python3
"""bench/go_clock.py BANYAN [byoyomi|canadian] [SECONDS] - one 9x9 game of Go between
two `banyan gtp` processes under a real clock, kept by this script as a server keeps it:
each genmove is timed on the wall clock, the player's time is charged, and `time_left`
tells it what is left before each move. byoyomi: no main time, one period of SECONDS a
move (a move that takes longer loses). canadian: no main time, 5 x SECONDS for 5 stones.
Prints each move's time and the least time a player had left, and exits 1 if a player
lost on time. The game ends after two passes or 160 moves."""
import subprocess
import sys
import time


class Player:
    def __init__(self, banyan):
        self.p = subprocess.Popen([banyan, "gtp", "--game", "go", "--param", "size=9",
                                   "--param", "komi=7"], stdin=subprocess.PIPE,
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


def main():
    banyan = sys.argv[1]
    kind = sys.argv[2] if len(sys.argv) > 2 else "byoyomi"
    per = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    stones = 1 if kind == "byoyomi" else 5
    period = per * stones
    players = [Player(banyan), Player(banyan)]
    for p in players:
        if kind == "byoyomi":
            p.send(f"kgs-time_settings byoyomi 0 {per:g} 1")
        else:
            p.send(f"kgs-time_settings canadian 0 {period:g} {stones}")
    left = [period, period]
    stones_left = [stones, stones]
    least = [period, period]
    colours = ["b", "w"]
    passes, moves, lost = 0, 0, None
    while passes < 2 and moves < 160:
        side = moves % 2
        p = players[side]
        # KGS: in byo-yomi time_left gives the periods left in place of stones;
        # GTP gives whole seconds, rounded down here.
        p.send(f"time_left {colours[side]} {int(left[side])} "
               f"{1 if kind == 'byoyomi' else stones_left[side]}")
        t0 = time.monotonic()
        move = p.send(f"genmove {colours[side]}")
        spent = time.monotonic() - t0
        left[side] -= spent
        least[side] = min(least[side], left[side])
        print(f"{moves + 1:3d} {colours[side]} {move:6s} {spent:6.3f} s, left {left[side]:6.3f} s")
        if left[side] < 0:
            lost = side
            break
        stones_left[side] -= 1
        if stones_left[side] == 0:
            left[side], stones_left[side] = period, stones
        players[1 - side].send(f"play {colours[side]} {move}")
        passes = passes + 1 if move.lower() == "pass" else 0
        moves += 1
        if move.lower() == "resign":
            break
    score = players[0].send("final_score") if lost is None else "-"
    for p in players:
        p.close()
    print(f"{kind}, {per:g} s a move: {moves} moves, least time left "
          f"{least[0]:.3f} s (Black) {least[1]:.3f} s (White), score {score}, "
          + ("lost on time: " + colours[lost] if lost is not None else "no loss on time"))
    return 1 if lost is not None else 0


if __name__ == "__main__":
    sys.exit(main())
