"""Domains written in Python, as a banyan_game table of ctypes callbacks.

A domain is a Python object for a position, with:
    moves()     the legal moves: a list of hashable values (ints, strings,
                tuples...); asked only while result() is None, and then
                never empty
    play(move)  plays one of them on this object
    result()    None while the game goes on, else a list (or tuple) of one
                return per player
    copy()      an independent copy
and optionally:
    to_move()   the player to move, 0 .. n_players-1 (default: players take
                turns from player 0, one move each)
    n_players   an attribute, 1 to 4 (default 2)
    reward_min, reward_max   attributes: the bounds of a return (default
                0 and 1); the search maps them onto [0, 1]
    format_move(move)   the move as text, for dumps (default: str(move))
    code(move)  the move's code for the policies of banyan.nrpa(): an
                integer 0 <= code < 2**64 naming what the move means in this
                position (a route's arc: the city it stands at and the next
                one); moves with equal codes share a weight (default: the
                move's interned code below)

The state scheme. The engine copies fixed-size states of plain bytes with
memcpy and never undoes a move; a state cannot hold a Python object. Here a
state is 16 bytes: a handle (a 64-bit number) and the ply from the start.
Each engine keeps a table from handles to Python objects, and every object
in the table is a snapshot that is never changed again: play() does not
change the object its state names, it copies it (copy()), plays the move on
the copy, puts the copy in the table under a new handle and writes that
handle into the state. So any number of byte copies of a state may share a
handle safely: they all name the same unchanging position.

Nothing tells the Python side when the engine drops a state, so handles are
released at safe points, between calls into the library: by the library's
contract every search, dump and move starts from a copy of the root and
keeps no other state once the call returns, so the root's handle is then the
only one still reachable, and the table is cut back to it. A long search
would still fill the table in between, so when the table holds more than
`max_states` objects during a search, the play() callback asks the search
to stop (banyan_engine_stop), the engine releases the table at that safe
point and searches on from the same tree with what is left of the limits
(Engine.analyze does this; one thread with a seed stays reproducible). The
table therefore holds at most max_states objects plus the plies of one
simulation per search thread.

Moves are interned: each distinct move gets a code (0, 1, 2... in the order
they are first seen, below 65535), kept for the engine's life.

A callback never lets a Python exception into C. The first exception is
recorded, the search (if one runs) is asked to stop, and from then on the
callbacks answer as if every game were over, until the call into the library
returns; the engine then clears its tree and raises the exception in the
caller (Engine._call).
"""
import ctypes
import itertools
import math
import threading

from . import _args, _lib
from ._lib import Error


class _State(ctypes.Structure):
    _fields_ = [("handle", ctypes.c_uint64), ("ply", ctypes.c_uint32), ("spare", ctypes.c_uint32)]


STATE_SIZE = ctypes.sizeof(_State)


class Domain:
    """The game table and the handle table of one engine's Python domain."""

    def __init__(self, start, max_states):
        # The domain's attributes, checked (Engine checked its methods).
        n = _args.integer("game.n_players", getattr(start, "n_players", 2), 1, _lib.MAX_PLAYERS,
                          f"an integer from 1 to {_lib.MAX_PLAYERS}")
        bound = "a finite number"
        low = _args.number("game.reward_min", getattr(start, "reward_min", 0.0), -math.inf,
                           math.inf, bound)
        high = _args.number("game.reward_max", getattr(start, "reward_max", 1.0), -math.inf,
                            math.inf, bound)
        if not low < high:
            raise _args.bad_value("game.reward_max", f"above game.reward_min ({low})",
                                  getattr(start, "reward_max", 1.0))
        self.n_players, self.reward_min, self.reward_max = n, low, high
        self.has_to_move = callable(getattr(start, "to_move", None))
        self.max_states = max(max_states, 16)
        self.start = start.copy()  # The caller's object stays the caller's.
        self.objects = {}  # handle -> position (never changed once here)
        self.counter = itertools.count(1)
        self.codes = {}  # move -> code
        self.by_code = []  # code -> move
        self.intern_lock = threading.Lock()
        self.error = None  # The first exception raised by a callback in this call.
        self.engine = None  # The engine's pointer, for banyan_engine_stop.
        self.searching = False  # A search is running: pausing is allowed.
        self.paused = False  # play() asked the search to stop, to release states,
        self.pauses = 0  # which it did this many times.
        self.peak = 0  # The most objects the table held (for tests).

        self.name = ("python:" + type(start).__name__).encode()
        self.title = type(start).__name__.encode()
        self.callbacks = (
            _lib.SETUP_FN(self._guard(self._setup, lambda s, p: _lib.EINVAL)),
            _lib.MOVES_FN(self._guard(self._moves, lambda s, out: 0)),
            _lib.PLAY_FN(self._guard(self._play, lambda s, m: None)),
            _lib.OUTCOME_FN(self._guard(self._outcome, self._over)),
            _lib.TO_MOVE_FN(self._guard(self._to_move, lambda s: 0)),
            _lib.FORMAT_FN(self._guard(self._format, self._unknown)),
        )
        # The table and its notation part, each with its size (as the C
        # macros BANYAN_GAME_INIT and BANYAN_NOTATION_INIT set it).
        self.notation = _lib.sized(_lib.Notation)
        self.table = _lib.sized(_lib.Game)
        t = self.table
        t.name = self.name
        t.title = self.title
        t.state_size = STATE_SIZE
        t.n_players = self.n_players
        t.reward_min = self.reward_min
        t.reward_max = self.reward_max
        (t.setup, t.moves, t.play, t.outcome, t.to_move, self.notation.format_move) = self.callbacks
        if callable(getattr(start, "code", None)):
            self.code_callback = _lib.MOVE_CODE_FN(self._guard(self._move_code, lambda s, m: 0))
            t.move_code = self.code_callback
        t.notation = ctypes.pointer(self.notation)
        why = _lib.game_check(ctypes.byref(t))
        if why:
            raise Error(_lib.text(why))

    def game_ptr(self):
        return ctypes.cast(ctypes.byref(self.table), _lib.game_p)

    # ---- Handles and moves ----

    def register(self, obj, ply):
        """A new state (bytes) naming obj, which must never change again."""
        h = next(self.counter)
        self.objects[h] = obj
        return _State(h, ply, 0)

    def position(self, state_address):
        st = _State.from_address(state_address)
        return self.objects[st.handle], st.ply

    def collect(self, keep_address):
        """Releases every object but the one the state at keep_address names
        (the root): called only between calls into the library."""
        if keep_address:
            h = _State.from_address(keep_address).handle
            self.objects = {h: self.objects[h]} if h in self.objects else {}
        self.paused = False

    def keep(self, states, n):
        """Releases every object but those the n states at the addresses
        states[0 .. n-1] name, once the table holds more than max_states:
        the nested runs' keep_states(), called between playouts with every
        state they still hold."""
        if len(self.objects) > self.max_states:
            held = {_State.from_address(states[i]).handle for i in range(n)}
            self.objects = {h: self.objects[h] for h in held if h in self.objects}

    def code(self, move):
        c = self.codes.get(move)
        if c is None:
            with self.intern_lock:
                c = self.codes.get(move)
                if c is None:
                    c = len(self.by_code)
                    if c >= _lib.MOVE_LIMIT:
                        raise Error(f"more than {_lib.MOVE_LIMIT} distinct moves")
                    self.by_code.append(move)
                    self.codes[move] = c
        return c

    def move(self, code):
        return self.by_code[code]

    def format(self, obj, move):
        f = getattr(obj, "format_move", None)
        return str(f(move)) if callable(f) else str(move)

    def to_move(self, obj, ply):
        if not self.has_to_move:
            return ply % self.n_players
        p = obj.to_move()
        if not (isinstance(p, int) and 0 <= p < self.n_players):
            raise Error(f"to_move() gave {p!r}: a player is 0 to {self.n_players - 1}")
        return p

    def result(self, obj):
        r = obj.result()
        if r is None:
            return None
        r = [float(x) for x in r]
        if len(r) != self.n_players:
            raise Error(f"result() gave {len(r)} returns for {self.n_players} players")
        for x in r:
            if not self.reward_min <= x <= self.reward_max:
                raise Error(f"result() gave {x}, outside reward_min .. reward_max "
                            f"({self.reward_min} .. {self.reward_max})")
        return r

    def legal(self, obj):
        """The legal moves of obj, checked: [] exactly when the game is over."""
        if self.result(obj) is not None:
            return []
        ms = list(obj.moves())
        if not ms:
            raise Error("moves() is empty while result() is None")
        if len(ms) > _lib.MAX_MOVES:
            raise Error(f"moves() gave {len(ms)} moves: at most {_lib.MAX_MOVES}")
        return ms

    # ---- The callbacks ----

    def _guard(self, f, fallback):
        """f as a callback that never raises: the first exception is
        recorded and the search asked to stop; until the library returns,
        every callback gives fallback's answer."""

        def callback(*args):
            if self.error is None:
                try:
                    return f(*args)
                except BaseException as exc:  # KeyboardInterrupt too: raised after the call.
                    self.fail(exc)
            return fallback(*args)

        return callback

    def fail(self, exc):
        if self.error is None:
            self.error = exc
            if self.searching and self.engine:
                _lib.engine_stop(self.engine)

    def _setup(self, s, params):
        if params:
            return _lib.EINVAL  # A Python domain takes its parameters in Python.
        ctypes.memmove(s, ctypes.byref(self.register(self.start, 0)), STATE_SIZE)
        return _lib.OK

    def _moves(self, s, out):
        obj, _ = self.position(s)
        ms = self.legal(obj)
        code = self.code
        for i, m in enumerate(ms):
            out[i] = code(m)
        return len(ms)

    def _play(self, s, m):
        st = _State.from_address(s)
        obj = self.objects[st.handle]
        new = obj.copy()
        if new is obj:
            raise Error("copy() returned the object itself: it must return a new one")
        new.play(self.by_code[m])
        h = next(self.counter)
        self.objects[h] = new
        st.handle = h
        st.ply += 1
        n = len(self.objects)
        if n > self.peak:
            self.peak = n
        if n > self.max_states and self.searching:
            if not self.paused:
                self.paused = True
                self.pauses += 1
            # Every thread past the bound asks for the stop itself: the
            # first one's request releases the GIL before it lands, and a
            # thread descheduled there would let the others search on.
            _lib.engine_stop(self.engine)

    def _move_code(self, s, m):
        obj, _ = self.position(s)
        c = obj.code(self.by_code[m])
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 2**64:
            raise Error(f"code() gave {c!r}: it must be an integer 0 <= code < 2**64")
        return c

    def _outcome(self, s, returns):
        obj, _ = self.position(s)
        r = self.result(obj)
        if r is None:
            return False
        for i, x in enumerate(r):
            returns[i] = x
        return True

    def _over(self, s, returns):
        for i in range(self.n_players):
            returns[i] = self.reward_min
        return True

    def _to_move(self, s):
        obj, ply = self.position(s)
        return self.to_move(obj, ply)

    def _format(self, s, m, buf, size):
        obj, _ = self.position(s)
        return self._write(self.format(obj, self.by_code[m]), buf, size)

    def _unknown(self, s, m, buf, size):
        return self._write("?", buf, size)

    @staticmethod
    def _write(s, buf, size):
        data = s.encode("utf-8", "replace")
        if size > 0:
            k = min(len(data), size - 1)
            ctypes.memmove(buf, data, k)
            ctypes.memset(buf + k, 0, 1)
        return len(data)
