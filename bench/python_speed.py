#!/usr/bin/env python3
"""bench/python_speed.py [--build B] [--runs R] [--playouts N] [--nim-playouts M]
- the cost of searching from Python (docs/journal/2026-12-02-python-speed.md,
docs/PYTHON.md).

1. A Connect Four analysis from Python against the same search from the
   program: `banyan analyze --game connect4 --param book=off --position P
   --playouts N --seed 1 --threads 1 --json` and Engine("connect4",
   params="book=off", seed=1, threads=1).analyze(P, playouts=N), for each
   position P, alternated, R rounds. The two searches must agree move for
   move and visit for visit (the same search), or the script stops. Printed:
   the medians over the rounds of the search time the library reports
   (summed over the positions) and of the whole call (the program: its
   process, start to exit; Python: making the engine, the analysis with its
   report turned into Python objects, and freeing the engine), and the ratios
   Python / program: of the medians, and the median of each round's ratio
   (steadier when the machine's load drifts).
2. A Python domain's cost: Nim (heaps 4 5 6 7) written in Python, searched
   through the package, against the same Nim written in C (bench/nim.c,
   compiled here against B's libbanyan.a), M playouts with seed 1 and one
   thread each; both searches must agree visit for visit. Printed: the
   playouts per second of each, medians over R rounds, and their ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSITIONS = ["", "4453", "3344"]
NIM_HEAPS = (4, 5, 6, 7)


class Nim:
    """Nim, the twin of bench/nim.c: moves (heap, count), heap by heap."""

    def __init__(self, heaps):
        self.heaps = list(heaps)
        self.player = 0
        self.last = 0

    def moves(self):
        return [(i, k) for i, h in enumerate(self.heaps) for k in range(1, h + 1)]

    def play(self, move):
        self.heaps[move[0]] -= move[1]
        self.last = self.player
        self.player ^= 1

    def result(self):
        if any(self.heaps):
            return None
        return [1.0, 0.0] if self.last == 0 else [0.0, 1.0]

    def copy(self):
        n = Nim.__new__(Nim)
        n.heaps = self.heaps[:]
        n.player = self.player
        n.last = self.last
        return n

    def to_move(self):
        return self.player


def program_search(banyan_path, position, playouts):
    begin = time.perf_counter()
    out = subprocess.run([banyan_path, "analyze", "--game", "connect4", "--param", "book=off",
                          "--position", position, "--playouts", str(playouts), "--seed", "1",
                          "--threads", "1", "--json"], check=True, capture_output=True,
                         text=True).stdout
    wall = time.perf_counter() - begin
    lines = [json.loads(line) for line in out.splitlines()]
    visits = {x["move"]: x["visits"] for x in lines if "move" in x}
    return lines[-1]["seconds"], wall, lines[-1]["bestmove"], visits


def python_search(banyan, position, playouts):
    begin = time.perf_counter()
    with banyan.Engine("connect4", params="book=off", seed=1, threads=1) as e:
        a = e.analyze(position, playouts=playouts)
    wall = time.perf_counter() - begin
    return a.seconds, wall, a.best, {m.move: m.visits for m in a.moves}


def connect4(banyan, banyan_path, runs, playouts):
    rounds = {"program": [], "python": []}
    for r in range(runs):
        sums = {"program": [0.0, 0.0], "python": [0.0, 0.0]}
        order = ("program", "python") if r % 2 == 0 else ("python", "program")
        for position in POSITIONS:
            got = {}
            for who in order:
                if who == "program":
                    got[who] = program_search(banyan_path, position, playouts)
                else:
                    got[who] = python_search(banyan, position, playouts)
                sums[who][0] += got[who][0]
                sums[who][1] += got[who][1]
            if got["program"][2:] != got["python"][2:]:
                sys.exit(f"position {position!r}: the searches differ: {got}")
        for who in rounds:
            rounds[who].append(sums[who])
        print(f"round {r + 1}: program {sums['program'][0]:.3f} s search, "
              f"{sums['program'][1]:.3f} s whole; python {sums['python'][0]:.3f} s search, "
              f"{sums['python'][1]:.3f} s whole", flush=True)
    med = {who: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
           for who, v in rounds.items()}
    # The load of a shared machine drifts between rounds: the ratio within
    # each round, whose two halves ran side by side, is steadier.
    paired = [statistics.median(py[k] / prog[k] for prog, py in zip(rounds["program"],
                                                                  rounds["python"]))
              for k in (0, 1)]
    print(f"Connect Four, positions {POSITIONS}, {playouts} playouts each, seed 1, one thread, "
          f"{runs} rounds")
    print(f"  search (the library's seconds): program {med['program'][0]:.3f} s, "
          f"python {med['python'][0]:.3f} s, ratio of the medians "
          f"{med['python'][0] / med['program'][0]:.3f}, median of the rounds' ratios "
          f"{paired[0]:.3f}")
    print(f"  whole call: program {med['program'][1]:.3f} s, python {med['python'][1]:.3f} s, "
          f"ratio of the medians {med['python'][1] / med['program'][1]:.3f}, median of the "
          f"rounds' ratios {paired[1]:.3f}")


def nim(banyan, build, runs, playouts):
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "nim")
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c11", "-I",
                        os.path.join(ROOT, "include"), os.path.join(ROOT, "bench", "nim.c"),
                        os.path.join(build, "libbanyan.a"), "-lm", "-pthread", "-o", exe],
                       check=True)
        rates = {"c": [], "python": []}
        for r in range(runs):
            out = subprocess.run([exe, str(playouts), "1"] + [str(h) for h in NIM_HEAPS],
                                 check=True, capture_output=True, text=True).stdout.split()
            c_seconds = float(out[3])
            c_visits = dict(w.split("=") for w in out[5:])
            with banyan.Engine(Nim(NIM_HEAPS), seed=1, threads=1, memory=64 << 20) as e:
                a = e.analyze(playouts=playouts)
            py_visits = {f"{m.move[0]}:{m.move[1]}": str(m.visits) for m in a.moves}
            if c_visits != py_visits or int(out[1]) != a.playouts:
                sys.exit("Nim: the C and Python searches differ")
            rates["c"].append(playouts / c_seconds)
            rates["python"].append(playouts / a.seconds)
            print(f"round {r + 1}: C {rates['c'][-1]:.0f} playouts/s, "
                  f"Python {rates['python'][-1]:.0f} playouts/s", flush=True)
    c = statistics.median(rates["c"])
    py = statistics.median(rates["python"])
    print(f"Nim {' '.join(map(str, NIM_HEAPS))}, {playouts} playouts, seed 1, one thread, "
          f"{runs} rounds: C {c:.0f} playouts/s, Python {py:.0f} playouts/s, "
          f"C / Python {c / py:.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--playouts", type=int, default=1000000)
    ap.add_argument("--nim-playouts", type=int, default=20000)
    args = ap.parse_args()
    build = os.path.join(ROOT, args.build)
    os.environ.setdefault("BANYAN_LIBRARY", os.path.join(build, "libbanyan.so.0"))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import banyan

    print(f"library {banyan.library_path()}, Python {sys.version.split()[0]}")
    connect4(banyan, os.path.join(build, "banyan"), args.runs, args.playouts)
    nim(banyan, build, args.runs, args.nim_playouts)


if __name__ == "__main__":
    main()
