"""The engine: a search of one game from a root position it owns.

Engine(game, ...) wraps one banyan_engine. game is the name of a built-in
game ("connect4", see games()) or a Python domain object (see _domain.py).
Every method that calls into the library holds the engine's lock, so that
an engine is used by one thread at a time, as the library requires; stop()
alone takes no such lock and may be called from any thread, during a search.
Library calls release the GIL (ctypes does so for every foreign call), so
other Python threads run while a search of a built-in game runs; a Python
domain's callbacks take the GIL back for each call.
"""
import ctypes
import dataclasses
import signal
import threading
import time as _time

from . import _args, _lib
from ._domain import STATE_SIZE, Domain
from ._lib import BadTypeError, BadValueError, Error

_CONFIG_FIELDS = tuple(name for name, _ in _lib.Config._fields_
                       if name not in ("size", "alloc", "alloc_ud", "evaluator"))
_LIMIT_FIELDS = tuple(_args.LIMITS)
_DEFAULT_PLAYOUTS = 10000  # The library's, when a search has no limit at all.
_layout_checked = False


@dataclasses.dataclass
class Param:
    """One parameter of a built-in game (banyan_param)."""

    name: str
    type: str  # "int", "choice" or "number"
    min: int
    max: int
    choices: list
    default: str
    help: str


@dataclasses.dataclass
class GameInfo:
    """A built-in game: its name (for Engine), title, players and parameters."""

    name: str
    title: str
    n_players: int
    params: list


@dataclasses.dataclass
class MoveStats:
    """The statistics of one root move (banyan_move_stats). move and pv are
    in the game's notation for a built-in game, and are the domain's own
    move values for a Python domain."""

    move: object
    code: int  # The library's move code.
    visits: int
    value: float  # Mean value in [0, 1] for the player making the move.
    prior: float
    proof: object  # "win", "loss", "draw" for the player making it, or None.
    proof_plies: int  # Plies to the end of a proven game (0: not known).
    pv: list  # The principal variation, the move first.
    exact: bool  # The game's exact solver scored it:
    score: object  # its score, or None.


@dataclasses.dataclass
class Analysis:
    """The result of a search (banyan_report)."""

    best: object  # The move to play (notation, or the domain's move); None: game over.
    best_code: object  # Its code, or None.
    value: float  # Mean value of best for the player to move.
    proof: object  # The root's proven value for the player to move, or None.
    playouts: int  # Simulations run by this search.
    seconds: float
    nodes: int  # Nodes in the tree.
    node_capacity: int
    tree_full: bool
    max_depth: int
    moves: list  # MoveStats of the root moves, best first.
    start_nodes: int = 0
    recycles: int = 0
    transposed: int = 0
    ownership: object = None  # With ownership=True: a value per cell, rows from the top.
    owner_width: int = 0
    owner_height: int = 0
    line: object = None  # Single-player games: the best whole game found, or None,
    line_return: object = None  # and its return.


def games():
    """The built-in games, as a list of GameInfo."""
    n = ctypes.c_int()
    table = _lib.game_list(ctypes.byref(n))
    out = []
    for i in range(n.value):
        g = table[i].contents
        params = []
        p = g.params
        k = 0
        while p and p[k].name:
            q = p[k]
            kind = {1: "int", 2: "choice", 3: "number"}.get(q.type, str(q.type))
            params.append(Param(_lib.text(q.name), kind, q.min, q.max,
                                _lib.text(q.choices).split("|") if q.choices else [],
                                _lib.text(q.default), _lib.text(q.help)))
            k += 1
        out.append(GameInfo(_lib.text(g.name), _lib.text(g.title) or _lib.text(g.name),
                            g.n_players, params))
    return out


def version():
    """The library's version string."""
    return _lib.text(_lib.version())


def _config(caller, options, known=()):
    """A banyan_config (sized) from the config keywords of options (each
    checked; one neither a config field nor in known is refused), after
    the layout check that the first engine or call runs."""
    global _layout_checked
    unknown = [key for key in options if key not in tuple(known) + _CONFIG_FIELDS]
    if unknown:
        raise BadTypeError(f"{caller}() got an unknown option {unknown[0]!r}", _lib.EINVAL)
    cfg = _lib.sized(_lib.Config)
    for key, value in options.items():
        if key in _CONFIG_FIELDS and value is not None:
            setattr(cfg, key, _args.CONFIG[key](key, value))
    if not _layout_checked:
        _lib.check_layout()
        _layout_checked = True
    return cfg


def _find_game(name):
    """The table of the built-in game called name, or BadValueError."""
    g = _lib.game_find(name.encode())
    if not g:
        names = ", ".join(info.name for info in games())
        raise BadValueError(f'unknown game "{name}" (the games are {names})', _lib.EINVAL)
    return g


class _Builtin:
    """A built-in game through its table: the notation, the diagram and the
    state queries the engine's root needs."""

    def __init__(self, g):
        self.g = g
        t = g.contents
        self.name = _lib.text(t.name)
        self.title = _lib.text(t.title) or self.name
        self.n_players = t.n_players
        self.state_size = t.state_size
        self._moves = t.moves
        self._play = t.play
        self._outcome = t.outcome
        self._to_move = t.to_move

    def format(self, s, m):
        t = _lib.snprintf_text(lambda buf, n: _lib.game_format(self.g, s, m, 0, buf, n))
        return t if t is not None else str(m)

    def legal(self, s):
        out = (_lib.u32 * _lib.MAX_MOVES)()
        n = self._moves(s, out)
        return [out[i] for i in range(n)]

    def result(self, s):
        r = (ctypes.c_double * _lib.MAX_PLAYERS)()
        return [r[i] for i in range(self.n_players)] if self._outcome(s, r) else None

    def to_move(self, s):
        return self._to_move(s)

    def board(self, s, last):
        return _lib.snprintf_text(lambda buf, n: _lib.game_print(self.g, s, last, 0, buf, n), 1024)

    def line(self, s, codes):
        """Each of codes (a line of moves from s) in the game's notation,
        each written in the position where it is played."""
        scratch = ctypes.create_string_buffer(self.state_size)
        ctypes.memmove(scratch, s, self.state_size)
        out = []
        for m in codes:
            out.append(self.format(scratch, m))
            self._play(scratch, m)
        return out


class Engine:
    """A search engine for one game.

    Engine("connect4", params=None, playouts=..., time=..., threads=...,
    seed=..., memory=..., **config) makes an engine for a built-in game
    (see games()) at its start position; params are the game's parameters,
    as "key=value ..." text or a dict. Engine(domain) makes one for a Python
    domain (a position object, see the package's documentation).

    Limits, used by every search unless a call gives its own: playouts,
    time (seconds), nodes, time_max and stop_early (banyan_limits). Config
    (banyan_config): memory (bytes, or text such as "64M"), threads, seed,
    c, select ("uct", "puct"), fpu ("infinite", "parent", "absolute"),
    fpu_value, final ("visits", "value", "lcb"), expand_visits, widening,
    fresh_tree, no_recycle, parallel ("tree", "root"), leaf ("rollout",
    "eval", "cutoff"), cutoff, solve_budget, transpositions, noise_alpha,
    noise_share, batch, rave, ownership, max_mix, adaptive, graph,
    widening_opponent. Zero or None
    means the library's default. max_states (Python domains): the most
    positions kept during a search before it pauses to release the
    unreachable ones.

    Errors raise banyan.Error with the library's message; a bad argument
    raises BadTypeError (a TypeError) or BadValueError (a ValueError),
    both banyan.Error, naming it and its value. Use it as a context
    manager, or call close(), to free the engine's memory at once.
    """

    def __init__(self, game, params=None, *, max_states=10000, **options):
        self._e = None
        self._lock = threading.RLock()  # One library call at a time.
        self._stop_lock = threading.Lock()  # Keeps stop() off a freed engine.
        self._stop_requested = False
        # Every argument is checked before any reaches the library.
        game = _args.game(game)
        is_domain = not isinstance(game, str)
        params = _args.params(params, is_domain)
        max_states = _args.integer("max_states", max_states, 1, 2**63 - 1,
                                   "a positive integer")
        unknown = [key for key in options if key not in _LIMIT_FIELDS + _CONFIG_FIELDS]
        if unknown:
            raise BadTypeError(f"Engine() got an unknown option {unknown[0]!r}", _lib.EINVAL)
        self._limits = _args.limits("Engine", {k: v for k, v in options.items()
                                               if k in _LIMIT_FIELDS})
        cfg = _config("Engine", options, _LIMIT_FIELDS)

        if not is_domain:
            g = _find_game(game)
            self._game = _Builtin(g)
            self._domain = None
            gp = g
        else:
            self._domain = Domain(game, max_states)
            self._game = None
            gp = self._domain.game_ptr()
        self._gp = gp
        self._params = self._check_params(params)
        why = _lib.config_check(gp, cfg)
        if why:
            raise BadValueError(_lib.text(why), _lib.EINVAL)
        self._cfg = cfg
        e = _lib.engine_p()
        rc = self._call_raw(lambda: _lib.engine_new(
            gp, params.encode() if params else None, cfg, ctypes.byref(e)))
        if rc != _lib.OK:
            raise _lib.library_error(
                f"cannot make the engine: {_lib.text(_lib.strerror(rc))}", rc)
        self._e = e
        if self._domain:
            self._domain.engine = e
            self._collect()
        self._position = None  # The position loaded (text, or a domain object), or None.
        self._history = []  # Move codes played since then.
        self._notation = []  # The same moves, in notation (or the domain's values).

    def _check_params(self, params):
        """params (text or None) when the game takes them, else BadValueError
        with the library's reason ('book must be one of on|off, ...')."""
        if params is not None:
            why = ctypes.create_string_buffer(256)
            if _lib.params_check(self._gp, params.encode(), why, 256) != _lib.OK:
                raise BadValueError(_lib.text(why.value), _lib.EINVAL)
        return params

    # ---- Calls into the library ----

    def _engine(self):
        if self._e is None:
            raise Error("the engine is closed")
        return self._e

    def _call_raw(self, call):
        """Runs call (a library call); for a Python domain, raises the first
        exception a callback raised during it."""
        d = self._domain
        if d is None:
            return call()
        d.error = None
        try:
            rc = call()
        finally:
            exc, d.error = d.error, None
            if exc is not None and self._e is not None:
                # The tree may hold what the failed callbacks answered, and a
                # move may have been half made: back to the root, tree cleared.
                root = ctypes.create_string_buffer(STATE_SIZE)
                ctypes.memmove(root, _lib.engine_state(self._e), STATE_SIZE)
                _lib.engine_set_state(self._e, root)
                d.error = None
                _lib.engine_clear_stop(self._e)
                self._collect()
        if exc is not None:
            raise exc
        return rc

    def _call(self, f, *args):
        """f(engine, *args) under the engine's lock: its status code, with
        a failure raised as Error with the library's message."""
        with self._lock:
            e = self._engine()
            rc = self._call_raw(lambda: f(e, *args))
            if self._domain:
                self._collect()
            if rc != _lib.OK:
                raise _lib.library_error(
                    _lib.text(_lib.errmsg(e)) or _lib.text(_lib.strerror(rc)), rc)
            return rc

    def _collect(self):
        self._domain.collect(_lib.engine_state(self._e))

    def _root(self):
        return _lib.engine_state(self._engine())

    # ---- Positions and moves ----

    def _obj(self):
        """A Python domain's root position object."""
        return self._domain.position(self._root())[0]

    def _code(self, move):
        """The code of a move legal at the root: notation or a code for a
        built-in game, the domain's own value or its notation for a Python
        domain."""
        if self._domain is None:
            what = f"a move in {self.game}'s notation (str) or a move code (int)"
            if _args.is_int(move):
                return _args.move_code(move, self.game)
            m = _lib.u32()
            notation = _args.text("move", move, what)
            self._call(_lib.engine_parse_move, notation.encode(), ctypes.byref(m))
            return m.value
        obj, ply = self._domain.position(self._root())
        legal = self._domain.legal(obj)
        for m in legal:
            if m == move:
                return self._domain.code(m)
        if isinstance(move, str):
            for m in legal:
                if self._domain.format(obj, m) == move:
                    return self._domain.code(m)
        raise BadValueError(f"move {_args.shown(move)} is not legal here", _lib.EILLEGAL)

    def _name(self, code, s=None):
        if self._domain is not None:
            return self._domain.move(code)
        return self._game.format(self._root() if s is None else s, code)

    def play(self, move):
        """Plays move at the root: in the game's notation ("d", "h8") or as
        a move code, or, for a Python domain, one of the values moves()
        gives (or its notation). Raises BadValueError for an illegal move."""
        with self._lock:
            code = self._code(move)
            name = self._name(code)
            self._call(_lib.engine_play, code)
            self._history.append(code)
            self._notation.append(name)

    def undo(self):
        """Takes back the last move played since the start or the last
        load(). The library has no undo: the position is set up again and
        the other moves replayed, and the tree is cleared."""
        with self._lock:
            if not self._history:
                raise Error("nothing to undo")
            codes = self._history[:-1]
            names = self._notation[:-1]
            self._reset()
            for code in codes:
                self._call(_lib.engine_play, code)
            self._history = codes
            self._notation = names

    def _reset(self):
        """Back to the position loaded last, or to the start."""
        if self._position is None:
            self._call(_lib.engine_setup, self._params.encode() if self._params else None)
        elif self._domain is not None:
            self._set_domain_position(self._position)
        else:
            self._call(_lib.engine_load, self._position.encode())
        self._history = []
        self._notation = []

    def _set_domain_position(self, obj):
        st = self._domain.register(obj, 0)
        self._call(_lib.engine_set_state, ctypes.byref(st))

    def load(self, position=None):
        """Sets the root to position, in the game's position notation
        (Connect Four "4453", a move list for most games), or, for a Python
        domain, a copy of the position object given; None: the start. The
        tree is cleared and the history starts again from there."""
        position = self._position_arg(position)
        with self._lock:
            if position is None:
                self._position = None
                self._reset()
            elif self._domain is not None:
                self._position = position.copy()
                self._reset()
            else:
                self._call(_lib.engine_load, position.encode())
                self._position = position
                self._history = []
                self._notation = []

    def _position_arg(self, position):
        """load()'s position, checked: None, a built-in game's position in
        its notation (str), or an object of a Python domain."""
        if position is None:
            return None
        if self._domain is not None:
            return _args.domain("position", position, "a position of the Python domain (an "
                                "object with moves(), play(), result() and copy()) or None")
        return _args.text("position", position, f"a {self.game} position (str) or None")

    def setup(self, params=None):
        """Starts a new game of a built-in game with new parameters (None:
        the defaults); the tree is cleared."""
        text = self._check_params(_args.params(params, self._domain is not None))
        with self._lock:
            self._call(_lib.engine_setup, text.encode() if text else None)
            self._params = text
            self._position = None
            self._history = []
            self._notation = []

    def legal_moves(self):
        """The legal moves at the root: notation for a built-in game, the
        domain's own values for a Python domain; [] when the game is over."""
        with self._lock:
            s = self._root()
            if self._domain is not None:
                return list(self._domain.legal(self._obj()))
            return [self._game.format(s, m) for m in self._game.legal(s)]

    def board(self):
        """The position as the game draws it (a diagram for board games);
        for a Python domain, str() of the position object."""
        with self._lock:
            if self._domain is not None:
                return str(self._obj())
            last = self._history[-1] if self._history else _lib.MOVE_NONE
            return self._game.board(self._root(), last)

    @property
    def to_move(self):
        """The player to move at the root, 0 .. n_players-1."""
        with self._lock:
            if self._domain is not None:
                obj, ply = self._domain.position(self._root())
                return self._domain.to_move(obj, ply)
            return self._game.to_move(self._root())

    @property
    def result(self):
        """None while the game goes on, else each player's return."""
        with self._lock:
            if self._domain is not None:
                return self._domain.result(self._obj())
            return self._game.result(self._root())

    @property
    def is_over(self):
        """Whether the game at the root is over."""
        return self.result is not None

    @property
    def history(self):
        """The moves played since the start or the last load()."""
        return list(self._notation)

    @property
    def position(self):
        """The position loaded last (text, or a Python domain's object), or
        None for the start."""
        return self._position

    @property
    def state(self):
        """A Python domain's root position (a copy, yours to change)."""
        if self._domain is None:
            raise Error("state is for Python domains: use board() or history")
        with self._lock:
            return self._obj().copy()

    @property
    def game(self):
        """The game's name ("connect4"; "python:ClassName" for a domain)."""
        return self._game.name if self._domain is None else self._domain.name.decode()

    @property
    def n_players(self):
        return self._game.n_players if self._domain is None else self._domain.n_players

    # ---- Searching ----

    def analyze(self, position=None, playouts=None, time=None, **limits):
        """Searches the root (first set to position when given, as load()
        does) and returns an Analysis. playouts and time, and the other
        limits as keywords (nodes, time_max, stop_early, analyse), replace
        the engine's own for this search. Every move is valued (analyse,
        True here): a root the game proves at once, as Connect Four's
        opening book does, is searched on for the other moves. Successive
        searches of the same root grow the same tree."""
        limits.setdefault("analyse", True)
        # Checked before the position is set: a failed call changes nothing.
        given = _args.limits("analyze", dict(limits, playouts=playouts, time=time))
        position = self._position_arg(position)
        with self._lock:
            if position is not None:
                self.load(position)
            return self._search(dict(self._limits, **given))

    def search(self, playouts=None, time=None, **limits):
        """analyze() of the root as it stands, for play: a root proven at
        once is not searched on (analyse False unless given)."""
        limits.setdefault("analyse", False)
        return self.analyze(None, playouts, time, **limits)

    def best_move(self, playouts=None, time=None, **limits):
        """The move a search of the root chooses (None when the game is over)."""
        return self.search(playouts, time, **limits).best

    def report(self):
        """The statistics of the tree as it stands, without searching (after
        a search was stopped, say)."""
        with self._lock:
            rep = _lib.sized(_lib.Report)
            self._call(_lib.engine_report, rep)
            return self._analysis(rep)

    def share(self):
        """The top of the tree, as bytes for other engines' absorb(): the
        statistics of this engine's own simulations at its share_nodes most
        visited nodes (an engine made with share_nodes > 0; see
        docs/DISTRIBUTED.md)."""
        with self._lock:
            n = self._cfg.share_nodes
            buf = ctypes.create_string_buffer(max(1, _lib.share_size(n)))
            length = ctypes.c_size_t(0)
            self._call(_lib.engine_share, buf, len(buf), ctypes.byref(length))
            return buf.raw[:length.value]

    def absorb(self, exports):
        """Takes in the latest export (share()) of each other engine searching
        this position: each node gains what their sum holds beyond what it
        took before, so no simulation counts twice. Returns how many exports
        were of this position (reached by the same moves)."""
        exports = [bytes(x) for x in exports]
        bufs = (ctypes.c_void_p * max(1, len(exports)))()
        lens = (ctypes.c_size_t * max(1, len(exports)))()
        keep = [ctypes.create_string_buffer(x, len(x)) for x in exports]
        for i, b in enumerate(keep):
            bufs[i] = ctypes.cast(b, ctypes.c_void_p)
            lens[i] = len(exports[i])
        with self._lock:
            e = self._engine()
            rc = _lib.engine_absorb(e, bufs, lens, len(exports))
            if rc < 0:
                raise _lib.library_error(_lib.text(_lib.errmsg(e)), rc)
            return rc

    def stop(self):
        """Asks the running search to stop as soon as it can. Any thread may
        call it at any time; a stop that arrives while no search runs stops
        the next search at once (as the library does)."""
        with self._stop_lock:
            self._stop_requested = True
            if self._e is not None:
                _lib.engine_stop(self._e)

    def _search(self, lim):
        playouts = lim.get("playouts", 0)  # Checked by _args.limits.
        seconds = lim.get("time", 0.0)
        nodes = lim.get("nodes", 0)
        if not playouts and not seconds and not nodes:
            playouts = _DEFAULT_PLAYOUTS
        start = _time.monotonic()
        c = _lib.sized(_lib.Limits)
        c.nodes = nodes
        c.time_max = lim.get("time_max", 0.0)
        c.stop_early = lim.get("stop_early", False)
        c.analyse = lim.get("analyse", False)
        # Ctrl-C in the main thread stops the search, and KeyboardInterrupt
        # is raised once it has returned. Python runs a signal handler when
        # the main thread runs Python code: the domain's callbacks, or for a
        # built-in game a progress callback that does nothing else.
        interrupted = []
        restore = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            def on_sigint(signum, frame):
                interrupted.append(signum)
                self.stop()

            restore = signal.signal(signal.SIGINT, on_sigint)
            if self._domain is None:
                c.progress = _lib.PROGRESS_FN(lambda ud, rep: None)
                c.progress_interval = 0.1
        try:
            rep, total, first = self._search_loop(c, playouts, seconds, start)
        finally:
            if restore is not None:
                signal.signal(signal.SIGINT, restore)
        if interrupted:
            raise KeyboardInterrupt
        return self._analysis(rep, total, first)

    def _search_loop(self, c, playouts, seconds, start):
        """Searches until the limits (c, playouts, seconds) are reached: one
        library search, or several where a Python domain's search pauses to
        release its states. Returns the last report, the totals and the
        nodes the tree held at the start."""
        total = dict(playouts=0, seconds=0.0, recycles=0, transposed=0, max_depth=0)
        first = None
        self._stop_requested = False
        d = self._domain
        rep = _lib.sized(_lib.Report)
        while True:
            c.playouts = max(playouts - total["playouts"], 0) if playouts else 0
            if first is None or not seconds:
                c.time = seconds  # The library checks it.
            else:
                c.time = max(seconds - (_time.monotonic() - start), 1e-6)
            if d is not None:
                pauses = d.pauses
                d.searching = True
            try:
                self._call(_lib.engine_search, c, rep)
            finally:
                if d is not None:
                    d.searching = False
            for key in ("playouts", "seconds", "recycles", "transposed"):
                total[key] += getattr(rep, key)
            total["max_depth"] = max(total["max_depth"], rep.max_depth)
            if first is None:
                first = rep.start_nodes
            # A Python domain's search paused to release states goes on
            # unless it is done: limits reached, root proven, game over,
            # or a stop asked for.
            paused = d is not None and d.pauses != pauses
            if not paused or self._stop_requested or rep.best == _lib.MOVE_NONE or rep.proof:
                break
            if playouts and total["playouts"] >= playouts:
                break
            if seconds and _time.monotonic() - start >= seconds:
                break
            if c.nodes and rep.nodes >= c.nodes:
                break
        self._stop_requested = False
        return rep, total, first

    def _analysis(self, rep, total=None, start_nodes=None):
        s = self._root()
        d = self._domain
        moves = []
        for i in range(rep.n_moves):
            m = rep.moves[i]
            pv = [m.pv[k] for k in range(m.pv_len)]
            pv = [d.move(k) for k in pv] if d else self._game.line(s, pv)
            moves.append(MoveStats(
                move=self._name(m.move, s), code=m.move, visits=m.visits, value=m.value,
                prior=m.prior, proof=_lib.PROOFS[m.proof & 3], proof_plies=m.proof_plies,
                pv=pv, exact=bool(m.exact), score=m.score if m.exact else None))
        best = None if rep.best == _lib.MOVE_NONE else rep.best
        a = Analysis(
            best=None if best is None else self._name(best, s), best_code=best, value=rep.value,
            proof=_lib.PROOFS[rep.proof & 3], playouts=rep.playouts, seconds=rep.seconds,
            nodes=rep.nodes, node_capacity=rep.node_capacity, tree_full=bool(rep.tree_full),
            max_depth=rep.max_depth, moves=moves, start_nodes=rep.start_nodes,
            recycles=rep.recycles, transposed=rep.transposed)
        if total is not None:
            a.playouts = total["playouts"]
            a.seconds = total["seconds"]
            a.recycles = total["recycles"]
            a.transposed = total["transposed"]
            a.max_depth = total["max_depth"]
            a.start_nodes = start_nodes
        if rep.ownership:
            a.owner_width, a.owner_height = rep.owner_width, rep.owner_height
            a.ownership = [rep.ownership[i] for i in range(rep.owner_width * rep.owner_height)]
        if rep.line_len > 0 and rep.line:
            codes = [rep.line[i] for i in range(rep.line_len)]
            a.line = [d.move(k) for k in codes] if d else self._game.line(s, codes)
            a.line_return = rep.line_return
        return a

    # ---- Tree dumps ----

    def dump(self, format="json", max_depth=0, min_visits=0):
        """The search tree as text: format "json" (nested objects with move,
        visits, value, prior, proof and children) or "dot" (Graphviz).
        Nodes deeper than max_depth plies (0: no limit) or with fewer than
        min_visits visits are left out."""
        kinds = {"json": _lib.DUMP_JSON, "dot": _lib.DUMP_DOT}
        if _args.text("format", format, "json or dot") not in kinds:
            raise _args.bad_value("format", "json or dot", format)
        max_depth = _args.integer("max_depth", max_depth, 0, _args.INT,
                                  "an integer 0 or more (0: no limit)")
        min_visits = _args.integer("min_visits", min_visits, 0, _args.U32,
                                   "an integer from 0 to 2**32-1")
        chunks = []

        def write(ud, data, n):
            chunks.append(ctypes.string_at(data, n))
            return 0

        writer = _lib.WRITE_FN(write)
        with self._lock:
            e = self._engine()
            rc = self._call_raw(lambda: _lib.engine_dump(e, kinds[format], max_depth, min_visits,
                                                         writer, None))
            if self._domain:
                self._collect()
        if rc != _lib.OK:
            raise Error(f"tree dump: {_lib.text(_lib.strerror(rc))}", rc)
        return b"".join(chunks).decode("utf-8", "replace")

    # ---- Lifetime ----

    def close(self):
        """Frees the engine (waiting for a search another thread runs to
        end). Closing twice is harmless; a closed engine raises Error."""
        self.stop()
        with self._lock:
            with self._stop_lock:
                e, self._e = self._e, None
            if e is not None:
                _lib.engine_free(e)
            if self._domain is not None:
                self._domain.objects = {}
                self._domain.engine = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if getattr(self, "_e", None) is not None and _lib is not None:
                _lib.engine_free(self._e)
                self._e = None
        except Exception:
            pass

    def __repr__(self):
        state = "closed" if self._e is None else f"{len(self._notation)} moves played"
        return f"<banyan.Engine {self.game}: {state}>"
