"""Single-player runs: banyan_solo_run() from Python.

solo("morpion", playouts=20000, seed=3) plays whole games of a built-in
single-player game (Morpion Solitaire), a search before each move and the
first move of the best line found played, the budget shared over the moves
and over restarts (runs), and returns the best game as a SoloResult. The
library does the work (include/banyan.h, banyan_solo_run); this module
checks the arguments, turns a Python callable into the progress callback
and the moves into the game's notation.
"""
import ctypes
import dataclasses
import math

from . import _args, _lib
from . import engine as _engine
from ._lib import BadValueError

_FOLLOW = {"line": False, "visits": True}
_SHARE = {"even": False, "front": True}


@dataclasses.dataclass
class SoloEvent:
    """What progress(event) is told: a better whole game found by a run's
    search ("line": its score, and the run's move it was found for), or a
    run finished ("run": its game and score, the best score so far, and
    whether this game is the best now)."""

    kind: str  # "line" or "run"
    run: int  # From 0.
    move: int  # "line": the move of the run the search was for, from 1.
    score: float
    best: float  # "run": the best score so far.
    improved: bool  # "run": the game beats every one before.
    elapsed: float  # Seconds since the call began.
    seconds: float  # "run": the run's seconds.
    playouts: int  # "run": the run's simulations.
    moves: object  # "run": the game's moves in the game's notation; "line": None.


@dataclasses.dataclass
class SoloResult:
    """The best game of the runs (banyan_solo_result)."""

    found: bool  # A game was kept (one that beats `beat`, where given).
    score: float  # Its return on the game's own scale (0 when none).
    moves: list  # Its moves in the game's notation, from the start position.
    codes: list  # The same moves as move codes.
    runs: int  # Runs finished.
    playouts: int  # Simulations of every run.
    seconds: float
    stopped: bool = False  # progress asked to stop.


def _start(g, params, position):
    """The start position of the runs: a state buffer of game g."""
    t = g.contents
    s = ctypes.create_string_buffer(t.state_size)
    if t.setup(ctypes.cast(s, ctypes.c_void_p), params.encode() if params else None) != _lib.OK:
        raise BadValueError(f"{_lib.text(t.name)} refuses the parameters {params!r}", _lib.EINVAL)
    if position is not None and _lib.game_load(g, s, position.encode()) != _lib.OK:
        raise BadValueError(f"position {position!r} is no position of {_lib.text(t.name)}",
                            _lib.EINVAL)
    return s


def solo(game, params=None, *, position=None, playouts=None, time=None, runs=None,
         follow="line", share="even", beat=None, progress=None, **config):
    """Plays runs of the single-player game `game` (a built-in game's name)
    with parameters params (text or a dict) from position (None: the start)
    within a budget of playouts or time (seconds) for all runs together
    (neither: 10,000 playouts), and returns a SoloResult.

    runs: restarts, each from the start with the seed seed + 7919 k and an
    even share of the budget left (default 1). follow: "line" (the first
    move of the best whole game found) or "visits" (the move the final-move
    rule picks). share: "even" or "front" (earlier moves get more). beat:
    a score found before; only games that beat it are kept. progress: a
    callable given a SoloEvent for each better line and each run finished;
    if it returns True the call stops, and what was found is returned with
    stopped=True. config: the options of Engine (memory, threads, seed, c,
    max_mix, ...). One thread and a playout budget give the same game for
    the same seed."""
    game = _args.text("game", game, "a built-in game's name (str)")
    params = _args.params(params, False)
    if position is not None:
        position = _args.text("position", position, "a position (str) or None")
    budget = _args.limits("solo", {"playouts": playouts, "time": time})
    runs = _args.integer("runs", runs if runs is not None else 1, 1, 2**31 - 1,
                         "an integer 1 or more")
    follow = _args.text("follow", follow, "line or visits")
    share = _args.text("share", share, "even or front")
    if follow not in _FOLLOW:
        raise _args.bad_value("follow", "line or visits", follow)
    if share not in _SHARE:
        raise _args.bad_value("share", "even or front", share)
    if beat is not None:
        beat = _args.number("beat", beat, -math.inf, math.inf, "a finite number")
    if progress is not None and not callable(progress):
        raise _args.bad_type("progress", "a callable or None", progress)
    cfg = _engine._config("solo", config)
    g = _engine._find_game(game)
    if g.contents.n_players != 1:
        raise BadValueError(f"{game} is not a single-player game", _lib.EINVAL)
    if params is not None:
        why = ctypes.create_string_buffer(256)
        if _lib.params_check(g, params.encode(), why, 256) != _lib.OK:
            raise BadValueError(_lib.text(why.value), _lib.EINVAL)
    why = _lib.config_check(g, cfg)
    if why:
        raise BadValueError(_lib.text(why), _lib.EINVAL)
    start = _start(g, params, position)
    notation = _engine._Builtin(g)

    errors = []
    stopped = []
    best = []  # The codes of the best game so far, from the runs' events.

    def tell(ud, ev):
        try:
            e = ev.contents
            codes = [e.moves[i] for i in range(e.n_moves)] if e.kind == _lib.SOLO_RUN else None
            if e.kind == _lib.SOLO_RUN and e.improved:
                best[:] = codes
            if progress is None:
                return 0
            event = SoloEvent("line" if e.kind == _lib.SOLO_LINE else "run", e.run, e.move,
                              e.score, e.best, e.improved, e.elapsed, e.seconds, e.playouts,
                              notation.line(start, codes) if codes is not None else None)
            if progress(event):
                stopped.append(True)
                return 1
            return 0
        except BaseException as exc:  # Raised after the call, which stops here.
            errors.append(exc)
            return 1

    opt = _lib.SoloOptions(size=ctypes.sizeof(_lib.SoloOptions), runs=runs,
                           follow_visits=_FOLLOW[follow], share_front=_SHARE[share],
                           beat=beat is not None, to_beat=beat or 0.0)
    opt.playouts = budget.get("playouts", 0)
    opt.time = budget.get("time", 0.0)
    callback = _lib.SOLO_FN(tell)  # Kept alive until the call returns.
    opt.progress = callback
    out = _lib.SoloResult(size=ctypes.sizeof(_lib.SoloResult))  # The moves come by events.
    rc = _lib.solo_run(g, params.encode() if params else None,
                       position.encode() if position is not None else None, cfg, opt, out)
    if errors:
        raise errors[0]
    if rc != _lib.OK and not stopped:
        raise _lib.library_error(f"the runs could not go on: {_lib.text(_lib.strerror(rc))}", rc)
    codes = list(best) if out.found else []
    return SoloResult(out.found, out.score, notation.line(start, codes), codes, out.runs,
                      out.playouts, out.seconds, bool(stopped))
