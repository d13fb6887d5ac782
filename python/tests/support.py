"""What the Python tests share: the package from this source tree (unless
BANYAN_TEST_INSTALLED says to test the one Python finds), the build folder
(BANYAN_BUILD, default build/release, whose libbanyan.so.0 the package
loads unless BANYAN_LIBRARY names another), and small domains."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, os.environ.get("BANYAN_BUILD", "build/release"))

if not os.environ.get("BANYAN_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(ROOT, "python"))
    if not os.environ.get("BANYAN_LIBRARY"):
        os.environ["BANYAN_LIBRARY"] = os.path.join(BUILD, "libbanyan.so.0")

import banyan  # noqa: E402  (after the path is set)


class Nim:
    """Nim under the normal rule: a move takes 1 or more objects from one
    heap, and whoever takes the last object wins. Moves are (heap, count)."""

    def __init__(self, heaps=(3, 4, 5)):
        self.heaps = list(heaps)
        self.player = 0
        self.last = None

    def moves(self):
        return [(i, k) for i, h in enumerate(self.heaps) for k in range(1, h + 1)]

    def play(self, move):
        i, k = move
        self.heaps[i] -= k
        self.last = self.player
        self.player ^= 1

    def result(self):
        if any(self.heaps):
            return None
        returns = [0.0, 0.0]
        returns[self.last] = 1.0
        return returns

    def copy(self):
        n = object.__new__(type(self))  # Subclasses in the tests stay what they are.
        n.__dict__.update(self.__dict__)
        n.heaps = self.heaps[:]
        return n

    def to_move(self):
        return self.player

    def format_move(self, move):
        return f"{move[0]}:{move[1]}"

    def __str__(self):
        return " ".join(map(str, self.heaps))


def nim_sum(heaps):
    x = 0
    for h in heaps:
        x ^= h
    return x


class Pack:
    """A one-player packing problem (examples/planner.c, smaller): a move
    packs an item that still fits (its index) or stops ("stop"); the return
    is the value packed."""

    n_players = 1
    reward_min = 0
    reward_max = 100
    weights = (12, 7, 11, 8, 9, 6, 14, 5)
    values = (24, 13, 23, 15, 16, 11, 28, 7)
    capacity = 30

    def __init__(self):
        self.packed = ()
        self.done = False

    def weight(self):
        return sum(self.weights[i] for i in self.packed)

    def value(self):
        return sum(self.values[i] for i in self.packed)

    def moves(self):
        room = self.capacity - self.weight()
        return [i for i in range(len(self.weights))
                if i not in self.packed and self.weights[i] <= room] + ["stop"]

    def play(self, move):
        if move == "stop":
            self.done = True
        else:
            self.packed = self.packed + (move,)

    def result(self):
        return [self.value()] if self.done else None

    def copy(self):
        p = Pack()
        p.packed = self.packed
        p.done = self.done
        return p

    @classmethod
    def optimum(cls):
        best = 0
        n = len(cls.weights)
        for mask in range(1 << n):
            items = [i for i in range(n) if mask >> i & 1]
            if sum(cls.weights[i] for i in items) <= cls.capacity:
                best = max(best, sum(cls.values[i] for i in items))
        return best


__all__ = ["banyan", "Nim", "Pack", "nim_sum", "ROOT", "BUILD"]
