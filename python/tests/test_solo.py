"""banyan.solo: whole games of Morpion Solitaire played by the library's
single-player runs (banyan_solo_run): reproducible for a seed, the score the
played game's, progress events, restarts, stopping, and bad arguments."""
import unittest

from support import banyan

SMALL = dict(memory="4M", threads=1)


class SoloTest(unittest.TestCase):
    def test_a_run_is_reproducible_and_scores_its_game(self):
        seen = []
        a = banyan.solo("morpion", {"rule": "5d"}, playouts=3000, seed=5, progress=seen.append,
                        **SMALL)
        b = banyan.solo("morpion", "rule=5d", playouts=3000, seed=5, **SMALL)
        self.assertTrue(a.found)
        self.assertEqual(a.runs, 1)
        self.assertGreater(len(a.moves), 20)
        self.assertEqual(a.moves, b.moves)
        self.assertEqual(a.codes, b.codes)
        self.assertEqual(a.score, b.score)
        self.assertLessEqual(a.playouts, 3000)
        # The game replayed on an engine ends with the score reported.
        with banyan.Engine("morpion", "rule=5d", memory="1M") as e:
            for m in a.moves:
                e.play(m)
            self.assertTrue(e.is_over)
            self.assertEqual(e.result, [a.score])
        # Lines found, then the run's game, the best.
        self.assertEqual([ev.kind for ev in seen][-1], "run")
        self.assertGreater(sum(ev.kind == "line" for ev in seen), 0)
        self.assertEqual(seen[-1].moves, a.moves)
        self.assertTrue(seen[-1].improved)
        self.assertEqual(seen[-2].score, a.score)  # The last line found is the game played.

    def test_runs_keep_the_best_and_progress_can_stop(self):
        seen = []
        r = banyan.solo("morpion", "rule=5t", playouts=4000, runs=3, share="front",
                        follow="line", seed=2, progress=seen.append, **SMALL)
        runs = [ev for ev in seen if ev.kind == "run"]
        self.assertEqual([ev.run for ev in runs], [0, 1, 2])
        self.assertEqual(r.runs, 3)
        self.assertEqual(r.score, max(ev.score for ev in runs))
        self.assertEqual(r.score, runs[-1].best)
        stop = banyan.solo("morpion", playouts=3000, runs=3, seed=2,
                           progress=lambda ev: ev.kind == "run", **SMALL)
        self.assertTrue(stop.stopped)
        self.assertEqual(stop.runs, 1)
        self.assertTrue(stop.found)
        # A score no run beats: nothing kept.
        none = banyan.solo("morpion", playouts=500, beat=1000, follow="visits", **SMALL)
        self.assertFalse(none.found)
        self.assertEqual(none.moves, [])

    def test_a_callback_exception_is_raised(self):
        def boom(ev):
            raise KeyError("boom")
        with self.assertRaises(KeyError):
            banyan.solo("morpion", playouts=500, progress=boom, **SMALL)

    def test_bad_arguments(self):
        bad = [
            dict(game="connect4"),
            dict(game="nosuchgame"),
            dict(game="morpion", params="rule=9"),
            dict(game="morpion", position="no position"),
            dict(game="morpion", runs=0),
            dict(game="morpion", follow="best"),
            dict(game="morpion", share="half"),
            dict(game="morpion", threads=99),
        ]
        for kwargs in bad:
            with self.subTest(**kwargs), self.assertRaises(banyan.BadValueError):
                banyan.solo(playouts=100, **kwargs)
        with self.assertRaises(banyan.BadTypeError):
            banyan.solo("morpion", playouts=100, colour="red")
        with self.assertRaises(banyan.BadTypeError):
            banyan.solo("morpion", playouts=100, progress=5)


if __name__ == "__main__":
    unittest.main()
