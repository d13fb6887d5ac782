"""Domains written in Python: Nim solved, a one-player problem, the state
handles released (memory stays bounded, searches unchanged), exceptions in
callbacks raised in the caller, threads."""
import os
import signal
import threading
import time
import unittest

from support import Nim, Pack, banyan, nim_sum


class NimTest(unittest.TestCase):
    def test_winning_move_leaves_nim_sum_zero(self):
        with banyan.Engine(Nim((3, 4, 5)), seed=1, memory="32M") as e:
            a = e.analyze(playouts=100000)  # Stops once the root is proven.
            self.assertEqual(a.best, (0, 2))
            self.assertEqual(a.proof, "win")
            self.assertEqual(a.value, 1.0)
            self.assertLess(a.playouts, 100000)
            e.play(a.best)
            self.assertEqual(nim_sum(e.state.heaps), 0)
            self.assertEqual(e.to_move, 1)
            self.assertEqual(e.board(), "1 4 5")

    def test_lost_position_proven_lost(self):
        with banyan.Engine(Nim((1, 2, 3)), seed=1, memory="16M") as e:
            a = e.analyze(playouts=20000)
            self.assertEqual(a.proof, "loss")
            self.assertEqual(a.value, 0.0)
            self.assertTrue(all(m.proof == "loss" for m in a.moves))

    def test_engine_keeps_nim_sum_zero_in_a_whole_game(self):
        with banyan.Engine(Nim((2, 3, 4)), seed=2, memory="16M") as e:
            while not e.is_over:
                move = e.best_move(playouts=20000)
                e.play(move)
                if e.to_move == 1:  # The first player, who wins, just moved.
                    self.assertEqual(nim_sum(e.state.heaps), 0, e.history)
            self.assertEqual(e.result, [1.0, 0.0])

    def test_moves_notation_undo_load(self):
        with banyan.Engine(Nim((3, 4, 5)), memory="8M") as e:
            self.assertEqual(len(e.legal_moves()), 12)
            e.play((1, 2))
            e.play("2:5")  # format_move's notation.
            self.assertEqual(e.history, [(1, 2), (2, 5)])
            self.assertEqual(e.board(), "3 2 0")
            e.undo()
            self.assertEqual(e.board(), "3 2 5")
            with self.assertRaisesRegex(banyan.Error, "is not legal here"):
                e.play((1, 3))
            e.load(Nim((1, 1)))
            self.assertEqual(e.history, [])
            self.assertEqual(e.legal_moves(), [(0, 1), (1, 1)])
            e.play((0, 1))
            e.play((1, 1))
            self.assertTrue(e.is_over)
            self.assertEqual(e.result, [0.0, 1.0])
            self.assertIsNone(e.analyze(playouts=10).best)
            e.undo()
            e.undo()
            self.assertEqual(e.board(), "1 1")
            e.load()
            self.assertEqual(e.board(), "3 4 5")

    def test_dump_uses_format_move(self):
        import json
        with banyan.Engine(Nim((2, 2)), seed=1, memory="8M") as e:
            e.analyze(playouts=500)
            tree = json.loads(e.dump())
        self.assertEqual(sorted(c["move"] for c in tree["children"]), ["0:1", "0:2", "1:1", "1:2"])

    def test_callers_object_is_copied(self):
        start = Nim((3, 4, 5))
        with banyan.Engine(start, memory="8M") as e:
            start.heaps[0] = 0  # The engine took a copy.
            self.assertEqual(e.board(), "3 4 5")
            e.play((0, 1))
            self.assertEqual(start.heaps, [0, 4, 5])


class _Alternate:
    """Three players take turns (no to_move()): the game lasts three moves,
    each a number added to the mover's score."""

    n_players = 3
    reward_max = 9

    def __init__(self):
        self.scores = [0, 0, 0]
        self.ply = 0

    def moves(self):
        return [1, 2, 3]

    def play(self, m):
        self.scores[self.ply % 3] += m
        self.ply += 1

    def result(self):
        return list(self.scores) if self.ply == 3 else None

    def copy(self):
        a = _Alternate()
        a.scores = list(self.scores)
        a.ply = self.ply
        return a


class OnePlayerTest(unittest.TestCase):
    def test_packing_finds_the_optimum(self):
        best = Pack.optimum()
        with banyan.Engine(Pack(), seed=1, memory="16M", c=0.4) as e:
            a = e.analyze(playouts=3000)
            self.assertEqual(a.line_return, best)  # The best whole plan found.
            self.assertEqual(a.line[-1], "stop")
            while not e.is_over:
                e.play(e.best_move(playouts=1000))
            self.assertEqual(e.result, [best])
            self.assertEqual(e.to_move, 0)

    def test_players_take_turns_without_to_move(self):
        with banyan.Engine(_Alternate(), seed=1, memory="8M") as e:
            self.assertEqual(e.n_players, 3)
            for player in range(3):
                self.assertEqual(e.to_move, player)
                e.play(e.best_move(playouts=300))
            self.assertEqual(e.result, [3.0, 3.0, 3.0])  # Each takes the most.


class StatesTest(unittest.TestCase):
    def test_states_released_and_searches_unchanged(self):
        runs = []
        for max_states in (200, 1000000):
            with banyan.Engine(Nim((3, 4, 5)), seed=4, memory="16M",
                               max_states=max_states) as e:
                a = e.analyze(playouts=5000)
                d = e._domain
                self.assertEqual(a.playouts, 5000)
                self.assertEqual(len(d.objects), 1)  # The root's, after the search.
                runs.append(([(m.move, m.visits, m.value) for m in a.moves], d.peak, d.pauses))
        (small, peak, pauses), (large, large_peak, large_pauses) = runs
        self.assertEqual(small, large)  # Pausing to release changes nothing.
        self.assertGreater(pauses, 10)
        self.assertEqual(large_pauses, 0)
        self.assertLessEqual(peak, 200 + 13)  # A simulation plays 12 plies at most.
        self.assertGreater(large_peak, 20000)

    def test_states_released_with_threads(self):
        with banyan.Engine(Nim((3, 4, 5)), seed=1, memory="16M", threads=2,
                           max_states=300) as e:
            a = e.analyze(playouts=3000)
            self.assertEqual(a.playouts, 3000)
            self.assertEqual(len(e._domain.objects), 1)
            self.assertLessEqual(e._domain.peak, 300 + 2 * 13)

    def test_time_limit_across_pauses(self):
        with banyan.Engine(Nim((5, 6, 7)), memory="16M", max_states=500) as e:
            begin = time.monotonic()
            a = e.analyze(time=0.5)
            took = time.monotonic() - begin
            self.assertGreater(e._domain.pauses, 1)
            self.assertGreater(a.playouts, 100)
            self.assertLess(took, 3)


class _Boom(Nim):
    def __init__(self, heaps=(3, 4, 5), where="play"):
        super().__init__(heaps)
        self.where = where

    def play(self, move):
        if self.where == "play" and sum(self.heaps) < 6:
            raise ValueError(f"boom at {self.heaps}")
        super().play(move)

    def result(self):
        if self.where == "result" and sum(self.heaps) == 1:
            raise KeyError("no result")
        return super().result()


class ExceptionTest(unittest.TestCase):
    def test_exception_in_play_surfaces_as_itself(self):
        e = banyan.Engine(_Boom(), seed=1, memory="8M")
        with self.assertRaisesRegex(ValueError, r"boom at \["):
            e.analyze(playouts=1000)
        self.assertEqual(e.report().nodes, 1)  # The tree was cleared.
        self.assertEqual(len(e._domain.objects), 1)
        e.play((0, 2))  # Still usable.
        self.assertEqual(e.board(), "1 4 5")
        e.play((2, 5))
        with self.assertRaisesRegex(ValueError, "boom"):
            e.play((1, 4))
        self.assertEqual(e.board(), "1 4 0")  # The failed move left no trace.
        self.assertEqual(e.history, [(0, 2), (2, 5)])
        e.close()

    def test_exception_in_result_and_in_dump(self):
        with banyan.Engine(_Boom(where="result"), seed=1, memory="8M") as e:
            with self.assertRaisesRegex(KeyError, "no result"):
                e.analyze(playouts=2000)
            e.load(_Boom((2, 2), where="result"))
            with self.assertRaises(KeyError):
                e.analyze(playouts=2000)

    def test_broken_domains_explained(self):
        class SameCopy(Nim):
            def copy(self):
                return self

        class Empty(Nim):
            def moves(self):
                return []

        class BadPlayer(Nim):
            def to_move(self):
                return 5

        class BadResult(Nim):
            def result(self):
                return None if any(self.heaps) else [1.0]

        cases = [
            (SameCopy, "copy\\(\\) returned the object itself"),
            (Empty, "moves\\(\\) is empty while result\\(\\) is None"),
            (BadPlayer, "to_move\\(\\) gave 5"),
            (BadResult, "result\\(\\) gave 1 returns for 2 players"),
        ]
        for cls, message in cases:
            start = cls((1, 1))
            with self.subTest(cls=cls.__name__):
                with self.assertRaisesRegex(banyan.Error, message):
                    with banyan.Engine(start, memory="8M") as e:
                        e.analyze(playouts=100)
        with self.assertRaisesRegex(banyan.Error, "game.n_players must be an integer from 1 to 4, "
                                    "not 5"):
            banyan.Engine(type("Many", (Nim,), {"n_players": 5})())

    def test_keyboard_interrupt_in_a_callback(self):
        class Interrupting(Nim):
            def play(self, move):
                if sum(self.heaps) == 7:
                    os.kill(os.getpid(), signal.SIGINT)
                super().play(move)

        with banyan.Engine(Interrupting((3, 4, 5)), seed=1, memory="8M") as e:
            with self.assertRaises(KeyboardInterrupt):
                e.analyze(playouts=100000)
            self.assertIs(signal.getsignal(signal.SIGINT), signal.default_int_handler)


class ThreadTest(unittest.TestCase):
    def test_other_threads_run_during_a_domain_search(self):
        ticks = []
        done = threading.Event()

        def tick():
            while not done.is_set():
                ticks.append(1)
                time.sleep(0.001)

        t = threading.Thread(target=tick)
        with banyan.Engine(Nim((5, 6, 7)), memory="16M") as e:
            t.start()
            e.analyze(time=0.5)
        done.set()
        t.join()
        self.assertGreater(len(ticks), 20)

    def test_stop_from_another_thread(self):
        with banyan.Engine(Nim((6, 7, 8, 9)), memory="16M", max_states=1000) as e:
            timer = threading.Timer(0.3, e.stop)
            timer.start()
            begin = time.monotonic()
            a = e.analyze(time=30)
            self.assertLess(time.monotonic() - begin, 10)
            self.assertGreater(a.playouts, 0)
            timer.join()


if __name__ == "__main__":
    unittest.main()
