#!/usr/bin/env python3
"""tsptw_check.py - independent checker for TSPTW tours (travel-time objective).

Reads an instance in the Lopez-Ibanez/Blum format (N; N rows of the N x N
travel-time matrix, row i = from node i; N lines "ready due"; '#' comments
ignored) and a tour over nodes 0..N-1, and checks, as Lopez-Ibanez & Blum's
check_solution.cpp does:
  * the tour is a permutation of the customers 1..N-1 (depot 0 optional at
    either end);
  * schedule: leave depot 0 at time 0; arrival a_k = max(ready_k, a_prev + d);
    node k is violated when a_k > due_k; the return to the depot is checked
    against the depot's due date too;
  * cost = sum of d[i][j] over the arcs 0 -> ... -> 0 (waiting not counted).
Arithmetic is exact (decimal values as written in the file).

Usage: tsptw_check.py INSTANCE TOUR...      (node numbers)
       tsptw_check.py INSTANCE --tour-file F (numbers split by space/comma/newline)
       add --best [NAME] to compare with tests/data/tsptw/best_known.txt
       tsptw_check.py INSTANCE --optimum     (N <= 10: every tour tried, the
                                              cheapest feasible one printed)
Exit: 0 feasible, 1 infeasible (time window violated), 2 malformed input;
--optimum: 0 with an optimum, 1 when no tour is feasible, 2 malformed input.
"""
import argparse
import itertools
import os
import re
import sys
from decimal import Decimal, InvalidOperation

DEFAULT_BEST = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "tests", "data", "tsptw", "best_known.txt")


def fail(msg):
    print("malformed: " + msg)
    sys.exit(2)


def load_instance(path):
    try:
        with open(path) as f:
            text = "\n".join(line.split("#", 1)[0] for line in f)
    except OSError as e:
        fail(str(e))
    tok = text.split()
    try:
        n = int(tok[0])
        vals = [Decimal(t) for t in tok[1:]]
    except (IndexError, ValueError, InvalidOperation):
        fail("instance %s: bad number" % path)
    if n < 2 or len(vals) != n * n + 2 * n:
        fail("instance %s: expected %d numbers after N=%d, got %d"
             % (path, n * n + 2 * n, n, len(vals)))
    dist = [vals[i * n:(i + 1) * n] for i in range(n)]
    tw = vals[n * n:]
    return n, dist, tw[0::2], tw[1::2]


def parse_tour(tokens, n):
    try:
        tour = [int(t) for t in tokens]
    except ValueError as e:
        fail("tour: %s" % e)
    if tour and tour[0] == 0:
        tour = tour[1:]
    if tour and tour[-1] == 0:
        tour = tour[:-1]
    seen = set()
    for v in tour:
        if not 1 <= v < n:
            fail("tour: node %d out of range 1..%d (depot 0 only at the ends)"
                 % (v, n - 1))
        if v in seen:
            fail("tour: node %d repeated" % v)
        seen.add(v)
    missing = sorted(set(range(1, n)) - seen)
    if missing:
        fail("tour: missing node(s) %s" % " ".join(map(str, missing)))
    return tour


def evaluate(n, d, ready, due, tour):
    """(cost, arrival back at the depot, violations) of tour (customers only),
    each violation (node, arrival, due)."""
    t = cost = Decimal(0)
    prev, viol = 0, []
    for node in tour + [0]:
        cost += d[prev][node]
        t = max(ready[node], t + d[prev][node])
        if t > due[node]:
            viol.append((node, t, due[node]))
        prev = node
    return cost, t, viol


OPTIMUM_MAX = 10  # Nodes: 9! = 362,880 tours, about ten seconds.


def optimum(n, d, ready, due):
    """Tries every order of the customers and prints the cheapest feasible
    tour (the first of them in lexicographic order when several tie), how
    many tours are feasible and how many reach the optimum. Exit 0, or 1
    when no tour is feasible."""
    if n > OPTIMUM_MAX:
        fail("--optimum enumerates every tour: at most %d nodes, not %d" % (OPTIMUM_MAX, n))
    best, best_tour, n_feasible, n_best, n_tours = None, None, 0, 0, 0
    for perm in itertools.permutations(range(1, n)):
        n_tours += 1
        cost, _, viol = evaluate(n, d, ready, due, list(perm))
        if viol:
            continue
        n_feasible += 1
        if best is None or cost < best:
            best, best_tour, n_best = cost, perm, 1
        elif cost == best:
            n_best += 1
    if best is None:
        print("optimum: none (no feasible tour among %d)" % n_tours)
        sys.exit(1)
    print("optimum: %s  (exact %s)  feasible tours %d of %d, optimal tours %d"
          % (format(best, ".4f"), best, n_feasible, n_tours, n_best))
    print("tour: %s" % " ".join(map(str, (0,) + best_tour + (0,))))
    sys.exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("instance")
    ap.add_argument("tour", nargs="*", help="node numbers")
    ap.add_argument("--tour-file")
    ap.add_argument("--best", nargs="?", const="",
                    help="instance name in best_known.txt (default: from file name)")
    ap.add_argument("--best-file", default=DEFAULT_BEST)
    ap.add_argument("--optimum", action="store_true",
                    help="try every tour (at most %d nodes) and print the optimal "
                    "feasible one" % OPTIMUM_MAX)
    a = ap.parse_args()

    n, d, ready, due = load_instance(a.instance)
    if a.optimum:
        if a.tour or a.tour_file or a.best is not None:
            fail("--optimum takes no tour and no --best")
        optimum(n, d, ready, due)
    tokens = list(a.tour)
    if a.tour_file:
        try:
            with open(a.tour_file) as f:
                tokens += [t for t in re.split(r"[\s,]+", f.read()) if t]
        except OSError as e:
            fail(str(e))
    tour = parse_tour(tokens, n)

    cost, t, viol = evaluate(n, d, ready, due, tour)

    print("instance: %s  (N=%d nodes incl. depot)" % (a.instance, n))
    print("cost: %.2f  (exact %s)" % (cost, cost))
    print("makespan (return to depot): %s" % t)
    if viol:
        node, at, dd = viol[0]
        print("INFEASIBLE: %d violation(s); first at node %d%s: arrival %s > due %s"
              % (len(viol), node, " (return to depot)" if node == 0 else "",
                 at, dd))
    else:
        print("feasible")

    if a.best is not None:
        name = a.best or re.sub(r"\.txt$", "", os.path.basename(a.instance))
        best = None
        try:
            with open(a.best_file) as f:
                for line in f:
                    c = line.split()
                    if c and c[0] == name:
                        best = Decimal(c[1])
        except OSError as e:
            fail(str(e))
        if best is None:
            print("best known: no entry for %s in %s" % (name, a.best_file))
        else:
            gap = (cost - best) / best * 100
            print("best known %s: %s  gap %+.3f%%%s" % (
                name, best, gap,
                "  (equal at 2 decimals)" if round(cost, 2) == best else ""))
    sys.exit(1 if viol else 0)


if __name__ == "__main__":
    main()
