"""The built-in games through banyan.Engine: analyses, moves, positions,
errors, tree dumps, threads (the GIL released during a search, stop from
another thread, Ctrl-C)."""
import json
import os
import signal
import threading
import time
import unittest

from support import ROOT, banyan


class GamesTest(unittest.TestCase):
    def test_games_listed_with_titles_and_params(self):
        games = {g.name: g for g in banyan.games()}
        self.assertIn("connect4", games)
        self.assertEqual(games["connect4"].title, "Connect Four")
        self.assertEqual(games["connect4"].n_players, 2)
        book = [p for p in games["connect4"].params if p.name == "book"][0]
        self.assertEqual(book.type, "choice")
        self.assertEqual(book.choices, ["on", "off"])
        self.assertEqual(book.default, "on")

    def test_version_and_library(self):
        self.assertRegex(banyan.version(), r"^\d+\.\d+\.\d+$")
        self.assertIn("libbanyan.so", banyan.library_path())
        # The package's version is the header's it came with, BANYAN_VERSION,
        # which the library built from the same source returns.
        with open(os.path.join(ROOT, "include", "banyan.h")) as header:
            self.assertIn(f'#define BANYAN_VERSION "{banyan.__version__}"', header.read())
        self.assertEqual(banyan.__version__, banyan.version())

    def test_layout_check_passes(self):
        banyan._check_layout()  # Raises banyan.Error on a mismatch.


class AnalysisTest(unittest.TestCase):
    def test_connect4_empty_board_is_a_first_player_win(self):
        # With the opening book on, the empty board is proven won by d.
        with banyan.Engine("connect4", memory="16M") as e:
            a = e.analyze()
        self.assertEqual(a.best, "d")
        self.assertEqual(a.proof, "win")
        self.assertEqual(a.value, 1.0)
        self.assertEqual(a.moves[0].move, "d")
        self.assertEqual(a.moves[0].proof, "win")
        # The moves the book does not know are searched, not left at 50%.
        self.assertEqual(a.playouts, 10000)
        for m in a.moves[1:]:
            self.assertGreater(m.visits, 100, m)
        # A search for play stops at the book's proof.
        with banyan.Engine("connect4", memory="16M") as e:
            self.assertEqual(e.search(playouts=5000).playouts, 0)

    def test_connect4_won_position_proven(self):
        with banyan.Engine("connect4", memory="16M", seed=3) as e:
            a = e.analyze("445566", playouts=2000)
        self.assertIn(a.best, ("c", "g"))
        self.assertEqual(a.proof, "win")
        best = a.moves[0]
        self.assertEqual(best.move, a.best)
        self.assertEqual(best.proof, "win")
        self.assertEqual(best.proof_plies, 1)
        self.assertEqual(best.pv[0], a.best)

    def test_analysis_fields(self):
        with banyan.Engine("connect4", params="book=off", memory="16M", seed=5) as e:
            a = e.analyze("4453", playouts=3000)
        self.assertEqual(a.playouts, 3000)
        self.assertGreater(a.seconds, 0)
        self.assertGreater(a.nodes, 1)
        self.assertGreaterEqual(a.node_capacity, a.nodes)
        self.assertEqual(sorted(m.move for m in a.moves), list("abcdefg"))
        self.assertEqual(a.best, a.moves[0].move)
        self.assertLessEqual(abs(sum(m.visits for m in a.moves) - 3000), 1)
        for m in a.moves:
            self.assertTrue(0 <= m.value <= 1)
            self.assertAlmostEqual(m.prior, 1 / 7, places=5)
            self.assertIsNone(m.proof)
            self.assertEqual(m.pv[0], m.move)
            self.assertTrue(all(isinstance(x, str) and len(x) == 1 for x in m.pv))
        self.assertIsNone(a.line)

    def test_same_seed_same_search(self):
        runs = []
        for _ in range(2):
            with banyan.Engine("connect4", params={"book": "off"}, seed=9, memory="16M") as e:
                a = e.analyze(playouts=5000)
                runs.append([(m.move, m.visits, m.value, m.pv) for m in a.moves])
        self.assertEqual(runs[0], runs[1])

    def test_graph_search_shares_blocks(self):
        # A late field of the config reaches the library: with graph=True
        # nodes share the blocks of transposed positions, and fewer nodes
        # hold the same simulations.
        nodes = {}
        for graph in (False, True):
            with banyan.Engine("connect4", params={"book": "off"}, seed=5, memory="24M",
                               graph=graph) as e:
                r = e.search(playouts=20000)
                nodes[graph] = r.nodes
                self.assertEqual(r.transposed > 0, graph)
        self.assertLess(nodes[True], nodes[False])

    def test_opponent_widening_reaches_the_library(self):
        # The last field of the config reaches the library: the same seeded
        # search with the opponent's nodes unwidened is another search.
        nodes = {}
        for wo in (0, -1):
            with banyan.Engine("gomoku", seed=3, memory="16M", widening=1,
                               widening_opponent=wo) as e:
                nodes[wo] = e.search(playouts=2000).nodes
        self.assertNotEqual(nodes[0], nodes[-1])

    def test_searches_grow_one_tree(self):
        with banyan.Engine("tictactoe", memory="8M", seed=1) as e:
            first = e.search(playouts=500)
            second = e.search(playouts=500)
            self.assertEqual(second.start_nodes, first.nodes)
            self.assertLessEqual(abs(sum(m.visits for m in second.moves) - 1000), 1)
            self.assertEqual(e.report().nodes, second.nodes)

    def test_two_engines_share_one_search(self):
        # Each takes the other's own simulations once, however often the
        # growing export comes back: both roots then count both searches'.
        a = banyan.Engine("connect4", "book=off", share_nodes=500, seed=1, memory="16M")
        b = banyan.Engine("connect4", "book=off", share_nodes=500, seed=2, memory="16M")
        with a, b:
            a.search(playouts=700)
            b.search(playouts=900)
            xa, xb = a.share(), b.share()
            self.assertEqual(xa[:4], b"NBYS")
            self.assertEqual(b.absorb([xa]), 1)
            self.assertEqual(a.absorb([xb]), 1)
            self.assertEqual(b.absorb([xa]), 1)  # Again: nothing new.
            va = {m.move: m.visits for m in a.report().moves}
            vb = {m.move: m.visits for m in b.report().moves}
            self.assertEqual(va, vb)
            self.assertEqual(sum(va.values()), 700 + 900)
            with self.assertRaises(banyan.Error):
                a.absorb([b"not an export"])
        with banyan.Engine("connect4") as off, self.assertRaises(banyan.Error):
            off.share()

    def test_tictactoe_params_and_best_move(self):
        with banyan.Engine("tictactoe", params={"m": 4, "n": 4, "k": 3}, memory="8M") as e:
            self.assertEqual(len(e.legal_moves()), 16)
            self.assertRegex(e.best_move(playouts=2000), r"^[a-d][1-4]$")

    def test_go_ownership(self):
        with banyan.Engine("go", params="size=9", ownership=True, memory="16M", seed=1) as e:
            a = e.analyze("E5 D5 E4 D4", playouts=300)
        self.assertEqual((a.owner_width, a.owner_height), (9, 9))
        self.assertEqual(len(a.ownership), 81)
        self.assertTrue(all(-1 <= x <= 1 for x in a.ownership))


class PositionTest(unittest.TestCase):
    def test_play_undo_load(self):
        with banyan.Engine("connect4", memory="24M") as e:
            self.assertEqual(e.to_move, 0)
            e.play("d")
            e.play(2)  # A move code: column c.
            self.assertEqual(e.history, ["d", "c"])
            self.assertEqual(e.to_move, 0)
            e.undo()
            self.assertEqual(e.history, ["d"])
            self.assertEqual(e.to_move, 1)
            self.assertIn("(X)", e.board())  # The last move is marked.
            e.load("4453")
            self.assertEqual(e.position, "4453")
            self.assertEqual(e.history, [])
            e.play("a")
            e.undo()
            self.assertEqual(e.board().count("X"), 2)
            self.assertEqual(e.board().count("O"), 2)
            e.load()
            self.assertEqual(e.board().count("X"), 0)
            self.assertEqual(e.legal_moves(), list("abcdefg"))

    def test_game_over_and_result(self):
        with banyan.Engine("tictactoe", memory="8M") as e:
            self.assertFalse(e.is_over)
            self.assertIsNone(e.result)
            for m in ("a1", "b1", "a2", "b2", "a3"):
                e.play(m)
            self.assertTrue(e.is_over)
            self.assertEqual(e.result, [1.0, 0.0])
            self.assertEqual(e.legal_moves(), [])
            a = e.analyze(playouts=100)
            self.assertIsNone(a.best)
            self.assertEqual(a.moves, [])

    def test_setup_new_parameters(self):
        with banyan.Engine("tictactoe", memory="8M") as e:
            e.play("b2")
            e.setup("m=5 n=5 k=4")
            self.assertEqual(len(e.legal_moves()), 25)
            self.assertEqual(e.history, [])
            e.play("e5")
            e.undo()
            self.assertEqual(len(e.legal_moves()), 25)


class ErrorTest(unittest.TestCase):
    def setUp(self):
        self.e = banyan.Engine("connect4", memory="24M")

    def tearDown(self):
        self.e.close()

    def test_bad_moves(self):
        with self.assertRaisesRegex(banyan.Error, '"h" is off the board') as cm:
            self.e.play("h")
        self.assertEqual(cm.exception.code, -4)
        with self.assertRaisesRegex(banyan.Error, '"zz" is not a connect4 move'):
            self.e.play("zz")
        with self.assertRaisesRegex(banyan.Error, "move 99 is not legal here"):
            self.e.play(99)
        for _ in range(6):
            self.e.play("a")
        with self.assertRaisesRegex(banyan.Error, '"a" is not legal here') as cm:
            self.e.play("a")
        self.assertEqual(cm.exception.code, -3)
        self.assertEqual(len(self.e.history), 6)  # The failed moves left no trace.

    def test_bad_position(self):
        self.e.play("d")
        with self.assertRaisesRegex(banyan.Error, 'bad connect4 position "44x"'):
            self.e.load("44x")
        self.assertEqual(self.e.history, ["d"])  # Unchanged by the failure.

    def test_bad_game_options_and_params(self):
        with self.assertRaisesRegex(banyan.Error, 'unknown game "nogame"'):
            banyan.Engine("nogame")
        with self.assertRaisesRegex(banyan.Error, "threads must be an integer from 1 to 64 "
                                    "\\(0: the default\\), not 100$"):
            banyan.Engine("connect4", threads=100)
        with self.assertRaisesRegex(banyan.Error, "memory must be 0 .* or 32K bytes or more"):
            banyan.Engine("connect4", memory=1000)
        with self.assertRaisesRegex(banyan.Error, "the memory is below the least this game needs"):
            banyan.Engine("connect4", memory="64K", threads=4, parallel="root")
        with self.assertRaisesRegex(banyan.Error, "transpositions need a two-player game"):
            banyan.Engine(_OnePlayer(), transpositions=True)
        with self.assertRaisesRegex(banyan.Error, 'book must be one of on\\|off, not "maybe"'):
            banyan.Engine("connect4", params="book=maybe")
        with self.assertRaisesRegex(banyan.Error, "select must be one of"):
            banyan.Engine("connect4", select="best")
        with self.assertRaises(TypeError):
            banyan.Engine("connect4", bogus=1)
        with self.assertRaisesRegex(banyan.Error, "time must be a number of seconds.*, not -1$"):
            self.e.analyze(time=-1)
        with self.assertRaisesRegex(banyan.Error, "time must be .*, not nan$"):
            self.e.analyze(time=float("nan"))
        with self.assertRaisesRegex(banyan.Error, "playouts must be .*, not -5$"):
            self.e.analyze(playouts=-5)

    def test_nothing_to_undo_and_closed(self):
        with self.assertRaisesRegex(banyan.Error, "nothing to undo"):
            self.e.undo()
        self.e.close()
        self.e.close()
        with self.assertRaisesRegex(banyan.Error, "the engine is closed"):
            self.e.analyze()
        self.e.stop()  # Harmless on a closed engine.


class _OnePlayer:
    n_players = 1

    def moves(self):
        return [0]

    def play(self, m):
        pass

    def result(self):
        return None

    def copy(self):
        return _OnePlayer()


class DumpTest(unittest.TestCase):
    def test_json_dump_parses(self):
        with banyan.Engine("connect4", params="book=off", memory="24M", seed=2) as e:
            a = e.analyze("4453", playouts=2000)
            tree = json.loads(e.dump())
            self.assertEqual(tree["move"], "root")
            self.assertEqual(tree["visits"], 2000)
            children = {c["move"]: c for c in tree["children"]}
            self.assertEqual(sorted(children), list("abcdefg"))
            for m in a.moves:
                self.assertEqual(children[m.move]["visits"], m.visits)
            shallow = json.loads(e.dump(max_depth=1, min_visits=100))
            for c in shallow["children"]:
                self.assertGreaterEqual(c["visits"], 100)
                self.assertEqual(c["children"], [])
            dot = e.dump("dot", max_depth=2)
            self.assertTrue(dot.startswith("digraph banyan {"))
            self.assertTrue(dot.rstrip().endswith("}"))
            with self.assertRaisesRegex(banyan.Error, "format must be json or dot"):
                e.dump("xml")


class ThreadTest(unittest.TestCase):
    def test_gil_released_during_search_and_stop_from_another_thread(self):
        e = banyan.Engine("connect4", params="book=off", memory="64M", seed=1)
        out = {}
        started = threading.Event()

        def run():
            started.set()
            out["a"] = e.analyze(time=30)

        t = threading.Thread(target=run)
        t.start()
        started.wait()
        time.sleep(0.2)  # The thread is in the search by now.
        # Python work in this thread while the search runs: with the GIL
        # held by the search, this loop would not end before the search.
        count = 0
        begin = time.monotonic()
        while time.monotonic() - begin < 0.3:
            count += 1
        self.assertTrue(t.is_alive(), "the search ended before this thread ran")
        self.assertGreater(count, 1000)
        e.stop()
        t.join(10)
        self.assertFalse(t.is_alive(), "stop() did not end the search")
        a = out["a"]
        self.assertGreater(a.seconds, 0.25)  # It ran while this thread counted,
        self.assertLess(a.seconds, 20)  # and it stopped long before its time.
        self.assertGreater(a.playouts, 0)
        self.assertEqual(e.report().playouts, 0)  # Reports count no search.
        e.close()

    def test_stop_before_a_search_stops_it_at_once(self):
        with banyan.Engine("connect4", params="book=off", memory="24M") as e:
            e.stop()
            begin = time.monotonic()
            a = e.analyze(time=20)
            self.assertLess(time.monotonic() - begin, 10)
            self.assertLess(a.playouts, 10**6)
            a = e.analyze(playouts=1000)  # The stop was used up.
            self.assertEqual(a.playouts, 1000)

    @unittest.skipUnless(hasattr(signal, "pthread_kill"), "needs signals")
    def test_ctrl_c_stops_a_search(self):
        with banyan.Engine("connect4", params="book=off", memory="16M") as e:
            main = threading.main_thread().ident
            timer = threading.Timer(0.5, lambda: signal.pthread_kill(main, signal.SIGINT))
            timer.start()
            begin = time.monotonic()
            with self.assertRaises(KeyboardInterrupt):
                e.analyze(time=30)
            self.assertLess(time.monotonic() - begin, 15)
            timer.join()
            self.assertIs(signal.getsignal(signal.SIGINT), signal.default_int_handler)
            self.assertGreater(e.report().nodes, 1)  # The tree is kept.
            self.assertEqual(e.analyze(playouts=500).playouts, 500)

    def test_close_waits_for_a_search(self):
        e = banyan.Engine("connect4", params="book=off", memory="24M")
        t = threading.Thread(target=lambda: e.analyze(time=30))
        t.start()
        time.sleep(0.2)
        e.close()  # Stops the search, waits for it, then frees.
        t.join(10)
        self.assertFalse(t.is_alive())


if __name__ == "__main__":
    unittest.main()
