"""Bad arguments to every public entry point, a table of them: each raises
TypeError (a wrong type) or ValueError (a value out of range) naming the
argument and the value as given, before anything reaches ctypes (which
would wrap -1 into 4294967295 silently); each is also a banyan.Error, and a
TypeError is also a ValueError. A failed call changes nothing."""
import ctypes
import math
import unittest

from support import Nim, banyan

NAN = float("nan")
INF = float("inf")
DOMAIN = r"a game name \(str\) or a domain \(an object with moves\(\), play\(\), result\(\) and copy\(\)\)"


class OnlyMoves:
    def moves(self):
        return [1]


def nim(**attrs):
    """A Nim position with the class attributes given (n_players...)."""
    return type("Nim2", (Nim,), attrs)((1, 2))


# Per field of banyan_config: a value of a wrong type, and values of the
# right type out of range (each also checked against ctypes' wrapping).
CONFIG = {
    "memory": ([1.5, object(), b"64M"], [-1, 1000, 2**64, "lots", "-5M", "infG", "1K"]),
    "threads": (["4", True, 2.0], [-1, 65, 2**32 + 1]),
    "seed": ([1.5, "7"], [-1, 2**64]),
    "c": (["1", True], [-1, NAN, INF]),
    "select": ([1.5, object()], ["best", 7, -1]),
    "fpu": ([[1]], ["none", 4]),
    "final": ([{}], ["most", 2**32 + 1]),
    "parallel": ([b"tree"], ["leaf", -1]),
    "leaf": ([0.0], ["eval!", 4]),
    "fpu_value": (["0.1"], [NAN, -INF]),
    "expand_visits": ([1.0], [-1, 2**32]),
    "widening": (["2"], [1001, -1000.5, NAN]),
    "fresh_tree": (["yes", 1.0], [2, -1]),
    "no_recycle": (["no"], [5]),
    "cutoff": ([8.0], [-1, 1025, 2**31]),
    "solve_budget": (["big"], [-1, 2**64]),
    "transpositions": ([object()], [2]),
    "noise_alpha": (["0.3"], [-0.1, INF]),
    "noise_share": ([b"0.25"], [1.5, -0.5]),
    "batch": ([1.0], [257, -1]),
    "rave": (["off"], [NAN]),
    "ownership": (["on"], [3]),
    "max_mix": ([[0.5]], [2, -0.1]),
    "adaptive": ([1.0], [2, -2, 2**32 - 1]),
    "graph": (["true"], [-1]),
    "widening_opponent": (["x"], [-2000, INF]),
    "share_nodes": ([1.5], [-1, 1 << 21]),
    "share_searches": (["4"], [-1, 1 << 21]),
    "share_index": ([0.5], [-1, 1 << 20]),
}
LIMITS = {
    "playouts": (["x", 1.5, True], [-1, 2**64, 10**30]),
    "time": (["1", True], [-1, NAN, INF]),
    "nodes": ([2.0], [-5, 2**64]),
    "time_max": (["2"], [-0.5, NAN]),
    "stop_early": (["yes"], [2]),
    "analyse": (["all"], [-1]),
}


class ArgumentTest(unittest.TestCase):
    def setUp(self):
        self.e = banyan.Engine("connect4", memory="24M", seed=1)
        self.d = banyan.Engine(Nim((3, 4, 5)), memory="8M", seed=1)

    def tearDown(self):
        self.e.close()
        self.d.close()

    def check(self, kind, call, message):
        """call() raises kind (TypeError or ValueError) with a message that
        matches the regular expression message as a whole; it is a
        banyan.Error too, and a TypeError is also a ValueError."""
        with self.assertRaises(kind) as cm:
            call()
        err = cm.exception
        self.assertIsInstance(err, banyan.Error)
        self.assertIsInstance(err, ValueError)  # TypeErrors too, as int("x") was.
        if kind is ValueError:
            self.assertNotIsInstance(err, TypeError, str(err))
        self.assertRegex(str(err), "^" + message + "$")
        return err

    def test_the_issue_examples(self):
        self.check(ValueError, lambda: self.e.play(-1), "move -1 is not a move of connect4")
        self.check(ValueError, lambda: self.e.play(10**30),
                   f"move {10**30} is not a move of connect4")
        self.check(TypeError, lambda: banyan.Engine(42), f"game must be {DOMAIN}, not int 42")
        self.check(TypeError, lambda: self.e.analyze(playouts="x"),  # A ValueError too.
                   r"playouts must be an integer from 0 to 2\*\*64-1 \(0: no limit\), "
                   r"not str 'x'")

    def test_engine_game(self):
        cases = [
            (TypeError, None, f"game must be {DOMAIN}, not NoneType None"),
            (TypeError, b"connect4", f"game must be {DOMAIN}, not bytes b'connect4'"),
            (TypeError, 4.5, f"game must be {DOMAIN}, not float 4.5"),
            (TypeError, OnlyMoves(), f"game must be {DOMAIN}, not OnlyMoves <.*>, which has "
                                     r"no play\(\), result\(\), copy\(\)"),
            (TypeError, Nim, f"game must be {DOMAIN}, not the class Nim \\(an object of it "
                             "is\\)"),
            (ValueError, "connect4\0", f"game must be {DOMAIN} without NUL characters, not "
                                       r"'connect4\\x00'"),
            (ValueError, "nogame", 'unknown game "nogame" \\(the games are .*connect4.*\\)'),
        ]
        for kind, game, message in cases:
            with self.subTest(game=game):
                self.check(kind, lambda: banyan.Engine(game, memory="8M"), message)

    def test_engine_params(self):
        cases = [
            (TypeError, 42, 'params must be the game\'s parameters, as "key=value ..." text or a '
                            'dict, not int 42'),
            (TypeError, ["book=off"], "params must be .*, not list \\['book=off'\\]"),
            (ValueError, "book=off\0", "params must be .* without NUL characters, not .*"),
            (TypeError, {"book": True}, "params\\['book'\\] must be text or a number, not bool "
                                        "True"),
            (TypeError, {"book": None}, "params\\['book'\\] must be text or a number, not "
                                        "NoneType None"),
            (ValueError, {"book": "o ff"}, "params\\['book'\\] must be a value without spaces, "
                                           "not 'o ff'"),
            (ValueError, {"book": NAN}, "params\\['book'\\] must be a finite number, not nan"),
            (TypeError, {1: "off"}, "a key of params must be a parameter's name \\(str\\), not "
                                    "int 1"),
            (ValueError, {"bo ok": "off"}, "a key of params must be a parameter's name, not "
                                           "'bo ok'"),
            (ValueError, {"book=": "off"}, "a key of params must be a parameter's name, not "
                                           "'book='"),
            (ValueError, "book=maybe", 'book must be one of on\\|off, not "maybe"'),
            (ValueError, {"book": "maybe"}, 'book must be one of on\\|off, not "maybe"'),
        ]
        for kind, params, message in cases:
            with self.subTest(params=params):
                self.check(kind, lambda: banyan.Engine("connect4", params, memory="24M"), message)
                self.check(kind, lambda: self.e.setup(params), message)
        self.check(ValueError, lambda: banyan.Engine(Nim(), params="x"),
                   "params must be None for a Python domain \\(it takes its parameters in "
                   "Python\\), not 'x'")
        self.check(ValueError, lambda: self.d.setup({"heaps": 3}),
                   "params must be None for a Python domain .*, not \\{'heaps': 3\\}")

    def test_engine_options(self):
        self.check(TypeError, lambda: banyan.Engine("connect4", bogus=1),
                   "Engine\\(\\) got an unknown option 'bogus'")
        for value, kind in ((0, ValueError), (-1, ValueError), ("10", TypeError),
                            (1.5, TypeError)):
            with self.subTest(max_states=value):
                self.check(kind, lambda: banyan.Engine(Nim(), max_states=value),
                           f"max_states must be a positive integer, not .*{repr(value)}")
        fields = {name for name, _ in banyan._lib.Config._fields_} - {"size", "alloc", "alloc_ud",
                                                                      "evaluator"}
        self.assertEqual(set(CONFIG), fields, "a field of banyan_config without a case here")
        for table in (CONFIG, LIMITS):
            for name, (types, values) in table.items():
                for kind, bad in [(TypeError, v) for v in types] + [(ValueError, v)
                                                                      for v in values]:
                    with self.subTest(option=name, value=bad):
                        options = {"memory": "8M", name: bad}
                        err = self.check(kind, lambda: banyan.Engine("connect4", **options),
                                         f"{name} must be .*, not .*")
                        want = f"not {type(bad).__name__} " if kind is TypeError else "not "
                        self.assertTrue(str(err).endswith(want + repr(bad)), str(err))

    def test_library_checks_of_option_combinations(self):
        self.check(ValueError, lambda: banyan.Engine("connect4", leaf="eval"),
                   "leaf=eval and leaf=cutoff need a game with an evaluation, or an evaluator")
        self.check(ValueError, lambda: banyan.Engine(Nim(), memory="8M", ownership=True),
                   "ownership needs rollouts to the end in a game with owner\\(\\)")

    def test_good_options_pass(self):
        with banyan.Engine("connect4", memory=40 << 20, threads=2, seed=2**64 - 1, c=0.5,
                           select="PUCT", fpu=2, fpu_value=0.1, final="lcb", expand_visits=2,
                           widening=-1, fresh_tree=1, no_recycle=False, parallel="root",
                           cutoff=8, solve_budget=10**6, noise_alpha=0.3, noise_share=1,
                           batch=1, rave=-1, max_mix=0.5, adaptive=-1, graph=0,
                           widening_opponent=-1, playouts=50, time=0, nodes=10**9,
                           time_max=0, stop_early=True, params={"book": "off"}) as e:
            self.assertEqual(e.analyze().playouts, 50)

    def test_limits_of_searches(self):
        for call in (self.e.analyze, self.e.search, self.e.best_move):
            for name, (types, values) in LIMITS.items():
                for kind, bad in [(TypeError, v) for v in types] + [(ValueError, v)
                                                                      for v in values]:
                    with self.subTest(call=call.__name__, limit=name, value=bad):
                        self.check(kind, lambda: call(**{name: bad}),
                                   f"{name} must be .*, not .*{repr(bad)}")
            self.check(TypeError, lambda: call(depth=3),
                       "analyze\\(\\) got an unknown limit 'depth' \\(the limits are playouts, "
                       "time, nodes, time_max, stop_early, analyse\\)")

    def test_moves(self):
        notation = "move must be a move in connect4's notation \\(str\\) or a move code \\(int\\)"
        cases = [
            (ValueError, -1, "move -1 is not a move of connect4"),
            (ValueError, 2**32 - 1, "move 4294967295 is not a move of connect4"),
            (ValueError, 65535, "move 65535 is not a move of connect4"),
            (ValueError, 10**30, f"move {10**30} is not a move of connect4"),
            (TypeError, True, f"{notation}, not bool True"),
            (TypeError, 3.0, f"{notation}, not float 3.0"),
            (TypeError, None, f"{notation}, not NoneType None"),
            (TypeError, b"d", f"{notation}, not bytes b'd'"),
            (TypeError, ["d"], f"{notation}, not list \\['d'\\]"),
            (ValueError, "d\0", f"{notation} without NUL characters, not 'd\\\\x00'"),
            (ValueError, 99, "move 99 is not legal here"),
            (ValueError, "h", '"h" is off the board'),
            (ValueError, "zz", '"zz" is not a connect4 move'),
        ]
        for kind, move, message in cases:
            with self.subTest(move=move):
                self.check(kind, lambda: self.e.play(move), message)
        self.check(ValueError, lambda: self.d.play((0, 9)), "move \\(0, 9\\) is not legal here")
        self.check(ValueError, lambda: self.d.play([0, 1]), "move \\[0, 1\\] is not legal here")
        self.check(ValueError, lambda: self.d.play(-1), "move -1 is not legal here")
        self.assertEqual(self.e.history, [])
        self.assertEqual(self.d.history, [])

    def test_positions(self):
        cases = [
            (TypeError, 4453, "position must be a connect4 position \\(str\\) or None, not int "
                              "4453"),
            (TypeError, ["4", "4"], "position must be .*, not list \\['4', '4'\\]"),
            (ValueError, "44\0", "position must be a connect4 position \\(str\\) or None without "
                                 "NUL characters, not '44\\\\x00'"),
            (ValueError, "44x", 'bad connect4 position "44x": invalid argument'),
        ]
        self.e.play("d")
        for kind, position, message in cases:
            with self.subTest(position=position):
                self.check(kind, lambda: self.e.load(position), message)
                self.check(kind, lambda: self.e.analyze(position, playouts=10), message)
        domain = ("position must be a position of the Python domain \\(an object with "
                  "moves\\(\\), play\\(\\), result\\(\\) and copy\\(\\)\\) or None")
        self.check(TypeError, lambda: self.d.load(5), f"{domain}, not int 5")
        self.check(TypeError, lambda: self.d.load("3 4 5"), f"{domain}, not str '3 4 5'")
        self.check(TypeError, lambda: self.d.analyze(OnlyMoves()),
                   f"{domain}, not OnlyMoves <.*>, which has no play\\(\\), result\\(\\), "
                   "copy\\(\\)")
        # A failed call changed nothing, and a bad limit leaves the position
        # given with it unloaded.
        self.check(ValueError, lambda: self.e.analyze("4453", playouts=-1), "playouts .*")
        self.assertEqual(self.e.history, ["d"])
        self.assertIsNone(self.e.position)
        self.assertEqual(self.d.board(), "3 4 5")

    def test_domain_attributes(self):
        cases = [
            (TypeError, dict(n_players="2"), "game.n_players must be an integer from 1 to 4, "
                                             "not str '2'"),
            (TypeError, dict(n_players=2.0), "game.n_players must be .*, not float 2.0"),
            (ValueError, dict(n_players=0), "game.n_players must be an integer from 1 to 4, not "
                                            "0"),
            (ValueError, dict(n_players=2**32 + 2), "game.n_players must be .*, not 4294967298"),
            (TypeError, dict(reward_min="0"), "game.reward_min must be a finite number, not str "
                                              "'0'"),
            (ValueError, dict(reward_max=INF), "game.reward_max must be a finite number, not "
                                               "inf"),
            (ValueError, dict(reward_min=1, reward_max=1), "game.reward_max must be above "
                                                           "game.reward_min \\(1.0\\), not 1"),
        ]
        for kind, attrs, message in cases:
            with self.subTest(attrs=attrs):
                self.check(kind, lambda: banyan.Engine(nim(**attrs), memory="8M"), message)

    def test_dump(self):
        cases = [
            (ValueError, dict(format="xml"), "format must be json or dot, not 'xml'"),
            (TypeError, dict(format=0), "format must be json or dot, not int 0"),
            (ValueError, dict(max_depth=-1), "max_depth must be an integer 0 or more "
                                             "\\(0: no limit\\), not -1"),
            (ValueError, dict(max_depth=2**31), "max_depth must be .*, not 2147483648"),
            (TypeError, dict(max_depth="2"), "max_depth must be .*, not str '2'"),
            (ValueError, dict(min_visits=2**32), "min_visits must be an integer from 0 to "
                                                 "2\\*\\*32-1, not 4294967296"),
            (TypeError, dict(min_visits=1.5), "min_visits must be .*, not float 1.5"),
        ]
        for kind, args, message in cases:
            with self.subTest(args=args):
                self.check(kind, lambda: self.e.dump(**args), message)

    def test_engine_unchanged_and_usable_after_bad_calls(self):
        self.e.play("d")
        for call in (lambda: self.e.play(-1), lambda: self.e.load(1),
                     lambda: self.e.setup({"book": None}), lambda: self.e.analyze(time=-1),
                     lambda: self.e.dump(max_depth=-1)):
            with self.assertRaises(ValueError):
                call()
        self.assertEqual(self.e.history, ["d"])
        self.assertEqual(self.e.analyze(playouts=100).playouts, 100)
        self.assertTrue(math.isfinite(self.e.report().value))

    def test_ctypes_would_have_wrapped(self):
        # What the checks are for: ctypes wraps out-of-range integers.
        self.assertEqual(ctypes.c_uint32(-1).value, 4294967295)
        self.assertEqual(ctypes.c_int(2**32 + 1).value, 1)


if __name__ == "__main__":
    unittest.main()
