"""banyan.nrpa and banyan.nmcs: the nested algorithms on a built-in game
(Morpion Solitaire) and on domains written in Python: a bit string's known
optimum, reproducible for a seed, progress and stopping, a saved game to
start from, the states released between playouts, exceptions raised as
themselves, and bad arguments."""
import unittest

from support import banyan

N_BITS = 12


def target(i):
    return (i * 7 + 3) % 5 < 2


class Bits:
    """N_BITS choices of 0 or 1, scored by the bits equal to target(i); the
    target alone scores N_BITS. code() keys a weight by place and bit."""

    n_players = 1
    reward_min = 0
    reward_max = N_BITS
    live = 0  # Instances alive, to see that the run releases them.
    peak = 0

    def __init__(self, bits=()):
        self.bits = list(bits)
        Bits.live += 1
        Bits.peak = max(Bits.peak, Bits.live)

    def __del__(self):
        Bits.live -= 1

    def moves(self):
        return [0, 1]

    def play(self, move):
        self.bits.append(move)

    def result(self):
        if len(self.bits) < N_BITS:
            return None
        return [sum(b == target(i) for i, b in enumerate(self.bits))]

    def copy(self):
        return Bits(self.bits)

    def code(self, move):
        return 2 * len(self.bits) + move


class NestedTest(unittest.TestCase):
    def test_python_domain_optimum(self):
        best = [int(target(i)) for i in range(N_BITS)]
        r = banyan.nrpa(Bits(), level=2, seed=1)
        self.assertTrue(r.found)
        self.assertEqual(r.score, N_BITS)
        self.assertEqual(r.moves, best)
        self.assertEqual(r.playouts, 10000)
        n = banyan.nmcs(Bits(), level=3, seed=1)
        self.assertEqual(n.score, N_BITS)
        self.assertEqual(n.moves, best)

    def test_reproducible_with_progress(self):
        seen = []
        a = banyan.nrpa("morpion", "rule=5d", level=2, iterations=20, seed=4,
                        progress=seen.append)
        b = banyan.nrpa("morpion", {"rule": "5d"}, level=2, iterations=20, seed=4)
        self.assertEqual((a.moves, a.score, a.playouts), (b.moves, b.score, b.playouts))
        self.assertEqual(a.playouts, 400)
        lines = [ev for ev in seen if ev.kind == "line"]
        self.assertGreater(len(lines), 0)
        self.assertEqual(lines[-1].score, a.score)
        self.assertEqual(len(lines[-1].moves), lines[-1].score)  # 5D: a line a move.
        self.assertEqual(seen[-1].kind, "run")
        with banyan.Engine("morpion", "rule=5d", memory="1M") as e:
            for m in a.moves:
                e.play(m)
            self.assertEqual(e.result, [a.score])
        stop = banyan.nmcs("morpion", "rule=5d", level=2, seed=1,
                           progress=lambda ev: ev.kind == "line" and ev.score >= 50)
        self.assertTrue(stop.stopped)
        self.assertTrue(stop.found)  # The run the stop cut keeps its best game.
        self.assertGreaterEqual(stop.score, 50)
        self.assertEqual(len(stop.moves), stop.score)

    def test_start_from_a_saved_game(self):
        first = banyan.nrpa("morpion", "rule=5d", level=1, seed=3)
        again = banyan.nrpa("morpion", "rule=5d", level=1, seed=3, start=first.moves)
        if again.found:
            self.assertGreater(again.score, first.score)
        with self.assertRaises(ValueError):
            banyan.nrpa("morpion", "rule=5d", level=1, start=first.moves[:1] * 2)
        with self.assertRaises(banyan.Error):  # Not a finished game.
            banyan.nrpa("morpion", "rule=5d", level=1, start=first.moves[:-1])

    def test_states_are_released(self):
        Bits.peak = Bits.live
        r = banyan.nrpa(Bits(), level=2, iterations=30, seed=2, max_states=40)
        self.assertEqual(r.playouts, 900)  # 900 games of 12 moves: 10,800 states made.
        self.assertLess(Bits.peak - Bits.live, 40 + 2 * N_BITS + 8)

    def test_exceptions_raised_as_themselves(self):
        class Broken(Bits):
            def copy(self):
                if len(self.bits) == 5:
                    raise KeyError("five")
                return Broken(self.bits)

            def code(self, move):
                return -1 if len(self.bits) == 7 else 0

        with self.assertRaises(KeyError):
            banyan.nrpa(Broken(), level=1)
        with self.assertRaises(banyan.Error):
            banyan.nrpa(Broken([0, 0, 0, 0, 0, 0, 0]), level=1)

        def boom(ev):
            raise ZeroDivisionError("boom")
        with self.assertRaises(ZeroDivisionError):
            banyan.nmcs(Bits(), level=1, progress=boom)

    def test_bad_arguments(self):
        bad = [
            dict(level=0), dict(level=9), dict(level="3"), dict(iterations=0),
            dict(alpha=0), dict(temperature=-1), dict(bias=float("nan")),
            dict(policy_memory=10), dict(playouts=-1), dict(runs=0), dict(threads=2),
            dict(start="a b"), dict(params="x=1"),
        ]
        for kw in bad:
            with self.subTest(kw=kw), self.assertRaises((TypeError, ValueError)):
                banyan.nrpa(Bits(), **kw)
        with self.assertRaises(TypeError):
            banyan.nrpa(42)
        with self.assertRaises(ValueError):
            banyan.nrpa("connect4")
        with self.assertRaises(ValueError):
            banyan.nmcs("morpion", "rule=5x")


if __name__ == "__main__":
    unittest.main()
