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


def _teller(progress, to_moves, errors, stopped, kept, lines_have_moves):
    """The progress callback of a call of banyan_solo_run: each event's
    moves (a run's; a line's too where lines_have_moves) to kept(event,
    codes) when given and, as a SoloEvent, to progress; progress's True
    stops the call (noted in stopped), and an exception stops it too
    (noted in errors, to be raised after the call)."""

    def tell(ud, ev):
        try:
            e = ev.contents
            with_moves = e.kind == _lib.SOLO_RUN or lines_have_moves
            codes = [e.moves[i] for i in range(e.n_moves)] if with_moves else None
            if kept is not None:
                kept(e, codes)
            if progress is None:
                return 0
            event = SoloEvent("line" if e.kind == _lib.SOLO_LINE else "run", e.run, e.move,
                              e.score, e.best, e.improved, e.elapsed, e.seconds, e.playouts,
                              to_moves(codes) if codes is not None else None)
            if progress(event):
                stopped.append(True)
                return 1
            return 0
        except BaseException as exc:  # Raised after the call, which stops here.
            errors.append(exc)
            return 1

    return tell


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
    g, start, to_moves, _ = _domain_of("solo", game, params, position, 16)
    why = _lib.config_check(g, cfg)
    if why:
        raise BadValueError(_lib.text(why), _lib.EINVAL)

    errors = []
    stopped = []
    best = []  # The codes of the best game so far, from the runs' events.

    def kept(e, codes):
        if e.kind == _lib.SOLO_RUN and e.improved:
            best[:] = codes

    tell = _teller(progress, to_moves, errors, stopped, kept, lines_have_moves=False)

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
    return SoloResult(out.found, out.score, to_moves(codes), codes, out.runs,
                      out.playouts, out.seconds, bool(stopped))


def _domain_of(caller, domain, params, position, max_states):
    """(table, start state or None, a function from codes to moves, the
    Python Domain or None) for a built-in game's name or a Python domain."""
    from ._domain import Domain  # Beside engine.py's use of it.

    if isinstance(domain, str):
        g = _engine._find_game(domain)
        if g.contents.n_players != 1:
            raise BadValueError(f"{domain} is not a single-player game", _lib.EINVAL)
        if params is not None:
            why = ctypes.create_string_buffer(256)
            if _lib.params_check(g, params.encode(), why, 256) != _lib.OK:
                raise BadValueError(_lib.text(why.value), _lib.EINVAL)
        start = _start(g, params, position)
        notation = _engine._Builtin(g)
        return g, start, lambda codes: notation.line(start, codes), None
    for method in ("moves", "play", "result", "copy"):
        if not callable(getattr(domain, method, None)):
            raise _args.bad_type("domain", "a built-in game's name (str) or a domain object "
                                 "with moves(), play(), result() and copy()", domain)
    if params is not None or position is not None:
        raise _args.bad_value("params", "None for a Python domain (its object is the position)",
                              params if params is not None else position)
    d = Domain(domain, max_states)
    if d.n_players != 1:
        raise BadValueError(f"{caller}() needs a single-player domain (n_players 1)", _lib.EINVAL)
    return d.game_ptr(), None, lambda codes: [d.by_code[c] for c in codes], d


def _nested(caller, algorithm, domain, params, position, start, budget, runs, beat, progress,
            max_states, tuning, config):
    """A nested run (nrpa or nmcs): the checks, the callbacks, the call."""
    params = _args.params(params, False)
    if position is not None:
        position = _args.text("position", position, "a position (str) or None")
    budget = _args.limits(caller, budget)
    if runs is not None:
        runs = _args.integer("runs", runs, 1, 2**31 - 1, "an integer 1 or more")
    if beat is not None:
        beat = _args.number("beat", beat, -math.inf, math.inf, "a finite number")
    if progress is not None and not callable(progress):
        raise _args.bad_type("progress", "a callable or None", progress)
    max_states = _args.integer("max_states", max_states, 16, 2**63 - 1, "an integer 16 or more")
    cfg = _engine._config(caller, config)
    g, state, to_moves, d = _domain_of(caller, domain, params, position, max_states)
    if d is not None and cfg.threads > 1:
        raise _args.bad_value("threads", "1 for a Python domain (its callbacks hold the GIL)",
                              cfg.threads)
    why = _lib.config_check(g, cfg)
    if why:
        raise BadValueError(_lib.text(why), _lib.EINVAL)
    opt = _lib.SoloOptions(size=ctypes.sizeof(_lib.SoloOptions), algorithm=algorithm,
                           runs=runs or 0, beat=beat is not None, to_beat=beat or 0.0)
    opt.playouts = budget.get("playouts", 0)
    opt.time = budget.get("time", 0.0)
    for key, value in tuning.items():
        setattr(opt, key, value)
    codes_in = None
    if start is not None:
        if not isinstance(start, (list, tuple)):
            raise _args.bad_type("start", "a list of moves (a finished game) or None", start)
        if d is not None:
            codes_in = [d.code(m) for m in start]
        else:
            codes_in = []
            s = ctypes.create_string_buffer(state.raw, len(state.raw))
            for m in start:
                c = _lib.u32()
                if (_lib.game_parse(g, s, 0, str(m).encode(), ctypes.byref(c)) != _lib.OK or
                        not _lib.game_is_legal(g, s, c.value)):
                    raise _args.bad_value("start", "legal moves in the game's notation", m)
                g.contents.play(ctypes.cast(s, ctypes.c_void_p), c.value)
                codes_in.append(c.value)
        buf = (_lib.u32 * max(len(codes_in), 1))(*codes_in)
        opt.start_moves = ctypes.cast(buf, _lib.move_p)
        opt.n_start_moves = len(codes_in)

    errors = []
    stopped = []
    tell = _teller(progress, to_moves, errors, stopped, None, lines_have_moves=True)

    def keep(ud, states, n):
        if d is None:
            return 0
        if d.error is not None:
            return 1
        try:
            d.keep(states, n)
            return 0
        except BaseException as exc:
            d.fail(exc)
            return 1

    callback = _lib.SOLO_FN(tell)  # Kept alive until the call returns.
    keeper = _lib.KEEP_FN(keep)
    opt.progress = callback
    opt.keep_states = keeper
    room = 1 << 16
    moves = (_lib.u32 * room)()
    out = _lib.SoloResult(size=ctypes.sizeof(_lib.SoloResult),
                          moves=ctypes.cast(moves, _lib.move_p), max_moves=room)
    rc = _lib.solo_run(g, params.encode() if params else None,
                       position.encode() if position is not None else None, cfg, opt, out)
    if d is not None:
        d.objects.clear()
        if d.error is not None:
            raise d.error
    if errors:
        raise errors[0]
    if rc != _lib.OK and not stopped:
        raise _lib.library_error(f"{caller}() could not go on: {_lib.text(_lib.strerror(rc))}",
                                 rc)
    if out.n_moves > room:
        raise _lib.Error(f"{caller}() found a game of {out.n_moves} moves: at most {room} come back")
    codes = list(moves[:out.n_moves]) if out.found else []
    return SoloResult(out.found, out.score, to_moves(codes), codes, out.runs, out.playouts,
                      out.seconds, bool(stopped))


def nrpa(domain, params=None, *, position=None, level=None, iterations=None, alpha=None,
         temperature=None, bias=None, policy_memory=None, start=None, playouts=None, time=None,
         runs=None, beat=None, progress=None, max_states=10000, **config):
    """Nested Rollout Policy Adaptation (banyan.h, BANYAN_SOLO_NRPA) on a
    single-player domain: a built-in game's name (with params and position)
    or a Python domain object, the position the runs start from (its
    optional code(move) keys the policy). level (3), iterations a level
    (100), alpha (1), temperature and bias (GNRPA; bias weighs a built-in
    game's priors), policy_memory (bytes, 64 MiB): the algorithm's settings.
    Without playouts or time, runs whole runs (1); with a budget, runs
    follow each other until it is spent. start: a finished game (its moves)
    to start from, which the runs must beat; beat: a score to beat.
    progress(event) is told of every better game ("line", with its moves)
    and every run's end, and stops the call by returning True. config: seed
    and threads (a Python domain: one). Returns a SoloResult; a seed gives
    the same game, in Python as in C for the same domain."""
    tuning = {}
    if level is not None:
        tuning["level"] = _args.integer("level", level, 1, _lib.SOLO_MAX_LEVEL,
                                        f"an integer from 1 to {_lib.SOLO_MAX_LEVEL}")
    if iterations is not None:
        tuning["iterations"] = _args.integer("iterations", iterations, 1, 2**31 - 1,
                                             "an integer 1 or more")
    for key, value in (("alpha", alpha), ("temperature", temperature)):
        if value is not None:
            tuning[key] = _args.number(key, value, 1e-12, math.inf, "a positive number")
    if bias is not None:
        tuning["bias"] = _args.number("bias", bias, -math.inf, math.inf, "a finite number")
    if policy_memory is not None:
        tuning["policy_memory"] = _args.integer("policy_memory", policy_memory, 1 << 16,
                                                2**63 - 1, "a number of bytes, 65536 or more")
    return _nested("nrpa", _lib.SOLO_NRPA, domain, params, position, start,
                   {"playouts": playouts, "time": time}, runs, beat, progress, max_states,
                   tuning, config)


def nmcs(domain, params=None, *, position=None, level=None, start=None, playouts=None, time=None,
         runs=None, beat=None, progress=None, max_states=10000, **config):
    """Nested Monte Carlo Search (banyan.h, BANYAN_SOLO_NMCS) at level
    (2), on a domain as nrpa() takes it, with the same budget, start, beat,
    progress and result; one thread."""
    tuning = {}
    if level is not None:
        tuning["level"] = _args.integer("level", level, 1, _lib.SOLO_MAX_LEVEL,
                                        f"an integer from 1 to {_lib.SOLO_MAX_LEVEL}")
    return _nested("nmcs", _lib.SOLO_NMCS, domain, params, position, start,
                   {"playouts": playouts, "time": time}, runs, beat, progress, max_states,
                   tuning, config)
