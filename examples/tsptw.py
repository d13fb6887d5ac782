#!/usr/bin/env python3
"""tsptw.py - the Travelling Salesman Problem with Time Windows as a domain
written in Python, searched by the library's NRPA or NMCS (banyan.nrpa,
banyan.nmcs): the same domain and the same program as examples/tsptw.c.

A domain in Python is an object for a position with moves(), play(move),
result() and copy() (python/banyan/_domain.py); here also code(move), the
key of NRPA's policy (the C hook move_code), and format_move(move). It is
written to match the C domain step for step: the moves come in the same
order (the unvisited customers, increasing), their codes are the same arcs,
the numbers are read as strtod reads them (float() rounds the same way) and
added in the same order, so one seed gives the C program's tour and cost.
The library does the search; Python is only asked the rules, which makes it
slower than C by the cost of a callback per move (bench/tsptw.sh python
measures it).

Run from the source tree after `make`:
    python3 examples/tsptw.py tests/data/tsptw/rc201.1.txt
    python3 examples/tsptw.py --playouts 20000 --seed 3 tests/data/tsptw/rc202.2.txt
"""
import argparse
import math
import os
import re
import sys

try:
    import banyan
except ImportError:  # From the source tree without PYTHONPATH: the package beside us.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import banyan

PROG = "tsptw.py"
MAX_NODES = 256  # As TSPTW_MAX in tsptw.c.
# What each window violation costs: far above any tour's cost, so an
# infeasible tour always scores below a feasible one (tsptw.c, TSPTW_PENALTY).
PENALTY = 1e6
MAX_TOKEN = 64  # The longest number the reader accepts, in characters.
NUMBER = re.compile(r"[0-9.eE+-]+")  # The characters of a plain decimal number.
SPACE = re.compile(r"[ \t\r\n\v\f]+")  # C's isspace() in the C locale.


class BadInstance(Exception):
    """A file that is not an instance: the message says why."""


class Instance:
    """N nodes (the depot 0 included), the travel times d[i][j] (from i to
    j) and the windows ready[i] .. due[i]."""

    def __init__(self, n, d, ready, due):
        self.n, self.d, self.ready, self.due = n, d, ready, due


def read_instance(path):
    """Reads N, then N rows of N travel times, then N lines "ready due", and
    nothing more; '#' starts a comment to the end of its line. Each number
    is a plain finite decimal number, refused as tsptw.c refuses it."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("latin-1")
    except OSError as e:
        raise BadInstance(f"cannot open {path}: {e.strerror}") from None
    words = [w for line in text.split("\n") for w in SPACE.split(line.split("#", 1)[0]) if w]
    count = 0

    def number():
        nonlocal count
        if count == len(words):
            raise BadInstance(f"{path}: the file ends after {count} numbers")
        w = words[count]
        x = None
        if len(w) <= MAX_TOKEN and NUMBER.fullmatch(w):
            try:
                x = float(w)
            except ValueError:
                pass
        if x is None or not math.isfinite(x):
            shown = w if len(w) <= MAX_TOKEN else ""
            raise BadInstance(f'{path}: number {count + 1} is not a decimal number: "{shown}"')
        count += 1
        return x

    x = number()
    if x != math.floor(x) or not 2 <= x <= MAX_NODES:
        raise BadInstance(f"{path}: the node count must be a whole number from 2 to {MAX_NODES}")
    n = int(x)
    d = [[number() for _ in range(n)] for _ in range(n)]
    ready, due = [], []
    for _ in range(n):
        ready.append(number())
        due.append(number())
    if count < len(words):
        raise BadInstance(f"{path}: more than the {1 + n * n + 2 * n} numbers of {n} nodes")
    return Instance(n, d, ready, due)


class Tour:
    """A partial tour: where it stands (cur), when it leaves (time), what it
    has cost, the windows it missed, the customers still to visit. The
    instance is shared by every copy and never changed."""

    n_players = 1
    reward_max = 0.0  # No tour costs less than nothing.

    def __init__(self, inst):
        self.inst = inst
        self.cur, self.time, self.cost, self.violations = 0, 0.0, 0.0, 0
        self.left = tuple(range(1, inst.n))  # Unvisited customers, increasing.
        # The lowest return of any tour (tsptw.c, tsptw_worst).
        self.reward_min = -(sum(max(0.0, *row) for row in inst.d) + PENALTY * inst.n)

    def copy(self):
        t = Tour.__new__(Tour)
        t.inst, t.cur, t.time, t.cost = self.inst, self.cur, self.time, self.cost
        t.violations, t.left, t.reward_min = self.violations, self.left, self.reward_min
        return t

    def moves(self):
        return list(self.left)

    def _go(self, j):
        """Travels to j: arrival, a wait until j opens, a violation when j
        has closed (tsptw.c, tour_go: the same operations in the same
        order)."""
        inst = self.inst
        arrive = self.time + inst.d[self.cur][j]
        if arrive < inst.ready[j]:
            arrive = inst.ready[j]
        if arrive > inst.due[j]:
            self.violations += 1
        self.cost += inst.d[self.cur][j]
        self.time = arrive
        self.cur = j

    def play(self, j):
        self._go(j)
        self.left = tuple(k for k in self.left if k != j)
        if not self.left:
            self._go(0)  # The last customer: back to the depot.

    def result(self):
        if self.left:
            return None
        return [-(self.cost + PENALTY * self.violations)]

    def code(self, j):
        """The arc from where the tour stands to j, as tsptw.c's move_code."""
        return self.cur * self.inst.n + j

    def format_move(self, j):
        return str(j)


def replay(inst, moves):
    """The tour of moves, played from the depot."""
    t = Tour(inst)
    for j in moves:
        t.play(j)
    return t


def feasibility(t):
    return "%s (violations %d)" % ("infeasible" if t.violations else "feasible", t.violations)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--algorithm", choices=("nrpa", "nmcs"), default="nrpa")
    ap.add_argument("--level", type=int, choices=range(1, 9), metavar="L")
    ap.add_argument("--iterations", type=int, metavar="N", help="NRPA: the iterations a level")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float, metavar="S", help="seconds for all runs")
    budget.add_argument("--playouts", type=int, metavar="N", help="playouts for all runs")
    ap.add_argument("--seed", type=int, default=1, metavar="S")
    ap.add_argument("file", metavar="FILE")
    a = ap.parse_args(argv)
    if a.iterations is not None and not 1 <= a.iterations <= 1000000:
        ap.error("--iterations: a whole number from 1 to 1000000")
    if a.time is not None and not (math.isfinite(a.time) and 1e-3 <= a.time <= 1e9):
        ap.error("--time: seconds from 0.001 to 1e9")
    if a.playouts is not None and a.playouts < 1:
        ap.error("--playouts: a whole number 1 or more")
    if not 0 <= a.seed < 2**64:
        ap.error("--seed: a whole number from 0 to 2**64-1")
    return a


def main(argv):
    a = parse_args(argv)
    try:
        inst = read_instance(a.file)
    except BadInstance as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2

    def progress(ev):
        """Each better tour, as it is found (as tsptw.c prints it)."""
        if ev.kind == "line":
            t = replay(inst, ev.moves)
            print("%9.3f s  cost %.4f  %s" % (ev.elapsed, t.cost, feasibility(t)), flush=True)

    options = dict(level=a.level, playouts=a.playouts, time=a.time, seed=a.seed,
                   progress=progress)
    if a.algorithm == "nrpa":
        res = banyan.nrpa(Tour(inst), iterations=a.iterations, **options)
    else:
        res = banyan.nmcs(Tour(inst), **options)
    if not res.found:
        print(f"{PROG}: no whole tour within the budget", file=sys.stderr)
        return 1
    t = replay(inst, res.moves)
    name = os.path.basename(a.file)
    name = name[:-4] if name.endswith(".txt") and len(name) > 4 else name
    print("instance: %s nodes %d" % (name, inst.n))
    print("best: %.4f %s" % (t.cost, feasibility(t)))
    print("tour: 0 %s 0" % " ".join(t.format_move(j) for j in res.moves))
    print("playouts: %d seconds: %.3f" % (res.playouts, res.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
