"""The shared library libbanyan and its C structures, through ctypes.

Finding the library, in this order:
1. the environment variable BANYAN_LIBRARY: a path to the library, or to a
   folder holding libbanyan.so.0 (nothing else is tried then);
2. the library inside the package, banyan/libbanyan.so.0, where a wheel
   (`pip install`, python/banyan_build.py) put it;
3. for a package installed by `make install`, PREFIX/lib/libbanyan.so.0 as
   it recorded it in _installed.py: the library installed with the package,
   found without ldconfig or LD_LIBRARY_PATH for any prefix; else the
   build tree beside the package, when the package is used from its source
   folder: ../build/release/libbanyan.so.0 from python/;
4. the soname libbanyan.so.0, through the dynamic loader's own search (the
   loader's cache after `make install` and ldconfig, LD_LIBRARY_PATH).

VERSION is the package's version, BANYAN_VERSION of the include/banyan.h it
came with: recorded in _installed.py by `make install` and by the wheel's
build, read from the header itself in the source tree. The library's major
version must be the same (check_layout()).

The structures mirror include/banyan.h and include/banyan_game.h field for
field. Their layout is checked two ways: tests/test_layout.py compiles a C
program that prints every field's offset and every structure's size and
compares them with ctypes; and check_layout() runs a small search at the
first engine's creation and checks that what the library wrote reads back
consistently. The library promises that the structures only ever grow at
their end and that a zero field means its default. The configuration, the
limits, the report, the game table and each of its parts carry their
size, which the library checks: a newer library reads only that many bytes
of them (the rest as zeros: defaults) and writes only that many, so they
are made by sized().
"""
import ctypes
import os
import re

SONAME = "libbanyan.so.0"

# Status codes (banyan_game.h).
OK = 0
EINVAL = -1
ENOMEM = -2
EILLEGAL = -3
ERANGE = -4

MOVE_NONE = 0xFFFFFFFF
MOVE_LIMIT = 65535
MAX_MOVES = 512
MAX_PLAYERS = 4
MAX_PV = 32
MAX_THREADS = 64

DUMP_JSON = 0
DUMP_DOT = 1

PROOFS = (None, "win", "loss", "draw")  # banyan_proof, as words.

PARAM_INT = 1
PARAM_CHOICE = 2
PARAM_NUMBER = 3


class Error(Exception):
    """An error from libbanyan or from the use of an engine.

    str(error) is the library's message (banyan_errmsg, or banyan_strerror
    where no engine has one); code is the status code (BANYAN_EINVAL = -1,
    ENOMEM = -2, EILLEGAL = -3, ERANGE = -4), or None for an error found by
    the Python package itself.
    """

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class BadValueError(Error, ValueError):
    """A bad value of an argument, found by the package (_args.py) or
    refused by the library (an illegal move, a bad position or parameter):
    a ValueError, and a banyan.Error."""


class BadTypeError(Error, TypeError, ValueError):
    """An argument of the wrong type: a TypeError, and a banyan.Error. It is
    a ValueError too, as int("x") was, so that `except ValueError` catches
    every bad argument."""


for _cls in (Error, BadValueError, BadTypeError):
    _cls.__module__ = "banyan"  # Tracebacks name them as the package exports them.


def library_error(message, code):
    """The Error for a library's status code: the codes that refuse an
    argument (EINVAL, EILLEGAL, ERANGE) are BadValueError."""
    return (BadValueError if code in (EINVAL, EILLEGAL, ERANGE) else Error)(message, code)


# ---- Structures (include/banyan_game.h) ----

u32 = ctypes.c_uint32
move_p = ctypes.POINTER(u32)

SETUP_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)
MOVES_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, move_p)
PLAY_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, u32)
OUTCOME_FN = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.POINTER(ctypes.c_double))
TO_MOVE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
FORMAT_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, u32, ctypes.c_void_p, ctypes.c_size_t)
WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
PROGRESS_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
MOVE_CODE_FN = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_void_p, u32)
fn = ctypes.c_void_p  # A function pointer the package never calls.


class Param(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("type", ctypes.c_int),
        ("min", ctypes.c_long),
        ("max", ctypes.c_long),
        ("choices", ctypes.c_char_p),
        ("default", ctypes.c_char_p),  # def
        ("role", ctypes.c_uint),
        ("help", ctypes.c_char_p),
        ("plain", ctypes.c_char_p),
    ]


class Tactics(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("candidates", fn),
        ("prove_win", fn),
        ("prove_win_deep", fn),
        ("candidates_deep", fn),
        ("solve", fn),
        ("expand", fn),
        ("mem_size", ctypes.c_size_t),
        ("deep_visits", u32),
        ("deep_share", u32),
        ("deep_effort", u32),
        ("root_effort", u32),
        ("root_per_second", ctypes.c_double),
        ("root_min", u32),
        ("root_max", u32),
        ("root_time_share", ctypes.c_double),
        ("defend_time_share", ctypes.c_double),
        ("solve_node", ctypes.c_uint64),
        ("solve_root", ctypes.c_uint64),
        ("solve_root_min", ctypes.c_uint64),
        ("solve_root_max", ctypes.c_uint64),
        ("solve_per_second", ctypes.c_double),
        ("solve_slice", ctypes.c_uint64),
        ("solve_time_share", ctypes.c_double),
        ("verify_tries", ctypes.c_int),
        ("verify_share", ctypes.c_double),
        ("verify_per_second", ctypes.c_double),
    ]


class Notation(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("format_move", FORMAT_FN),
        ("parse_move", fn),
        ("load", fn),
        ("print", fn),
        ("write", fn),
    ]


class Board(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("coords", ctypes.c_uint),
        ("sgf_game", ctypes.c_int),
        ("board_size", fn),
        ("place", fn),
        ("place_move", fn),
        ("piece", fn),
        ("win_line", fn),
        ("owner", fn),
    ]


class Learning(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("planes", fn),
    ]


class Game(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("name", ctypes.c_char_p),
        ("title", ctypes.c_char_p),
        ("state_size", ctypes.c_size_t),
        ("n_players", ctypes.c_int),
        ("reward_min", ctypes.c_double),
        ("reward_max", ctypes.c_double),
        ("params", ctypes.POINTER(Param)),
        ("rules", ctypes.c_uint),
        ("setup", SETUP_FN),
        ("moves", MOVES_FN),
        ("play", PLAY_FN),
        ("outcome", OUTCOME_FN),
        ("to_move", TO_MOVE_FN),
        ("rollout", fn),
        ("playout", fn),
        ("priors", fn),
        ("hash", fn),
        ("is_valid", fn),
        ("evaluate", fn),
        ("score", fn),
        ("explain", fn),
        ("player_names", ctypes.c_void_p),
        ("score_unit", ctypes.c_char_p),
        ("tactics", ctypes.POINTER(Tactics)),
        ("notation", ctypes.POINTER(Notation)),
        ("board", ctypes.POINTER(Board)),
        ("learning", ctypes.POINTER(Learning)),
        ("move_code", MOVE_CODE_FN),
    ]


# ---- Structures (include/banyan.h) ----

class Config(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("memory", ctypes.c_size_t),
        ("threads", ctypes.c_int),
        ("seed", ctypes.c_uint64),
        ("c", ctypes.c_double),
        ("select", ctypes.c_int),
        ("fpu", ctypes.c_int),
        ("fpu_value", ctypes.c_double),
        ("final", ctypes.c_int),
        ("expand_visits", ctypes.c_uint32),
        ("alloc", fn),
        ("alloc_ud", ctypes.c_void_p),
        ("widening", ctypes.c_double),
        ("fresh_tree", ctypes.c_bool),
        ("no_recycle", ctypes.c_bool),
        ("parallel", ctypes.c_int),
        ("leaf", ctypes.c_int),
        ("cutoff", ctypes.c_int),
        ("solve_budget", ctypes.c_uint64),
        ("transpositions", ctypes.c_bool),
        ("evaluator", ctypes.c_void_p),
        ("noise_alpha", ctypes.c_double),
        ("noise_share", ctypes.c_double),
        ("batch", ctypes.c_int),
        ("rave", ctypes.c_double),
        ("ownership", ctypes.c_bool),
        ("max_mix", ctypes.c_double),
        ("adaptive", ctypes.c_int),
        ("graph", ctypes.c_bool),
        ("widening_opponent", ctypes.c_double),
        ("share_nodes", ctypes.c_int),
        ("share_searches", ctypes.c_int),
        ("share_index", ctypes.c_int),
    ]


class Limits(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("playouts", ctypes.c_uint64),
        ("time", ctypes.c_double),
        ("nodes", ctypes.c_uint64),
        ("progress", PROGRESS_FN),
        ("progress_ud", ctypes.c_void_p),
        ("progress_interval", ctypes.c_double),
        ("time_max", ctypes.c_double),
        ("stop_early", ctypes.c_bool),
        ("analyse", ctypes.c_bool),
        ("finish", PROGRESS_FN),
        ("finish_ud", ctypes.c_void_p),
    ]


class MoveStats(ctypes.Structure):
    _fields_ = [
        ("move", u32),
        ("visits", u32),
        ("value", ctypes.c_double),
        ("prior", ctypes.c_double),
        ("proof", ctypes.c_int),
        ("pv_len", ctypes.c_int),
        ("pv", u32 * MAX_PV),
        ("proof_plies", ctypes.c_int),
        ("exact", ctypes.c_bool),
        ("score", ctypes.c_int),
    ]


class Report(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("best", u32),
        ("value", ctypes.c_double),
        ("proof", ctypes.c_int),
        ("playouts", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64),
        ("node_capacity", ctypes.c_uint64),
        ("tree_full", ctypes.c_bool),
        ("seconds", ctypes.c_double),
        ("max_depth", ctypes.c_int),
        ("n_moves", ctypes.c_int),
        ("moves", ctypes.POINTER(MoveStats)),
        ("start_nodes", ctypes.c_uint64),
        ("recycles", ctypes.c_uint32),
        ("transposed", ctypes.c_uint64),
        ("ownership", ctypes.POINTER(ctypes.c_float)),
        ("owner_width", ctypes.c_int),
        ("owner_height", ctypes.c_int),
        ("line_len", ctypes.c_int),
        ("line", move_p),
        ("line_return", ctypes.c_double),
    ]


class SoloEvent(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("run", ctypes.c_int),
        ("move", ctypes.c_int),
        ("score", ctypes.c_double),
        ("best", ctypes.c_double),
        ("improved", ctypes.c_bool),
        ("elapsed", ctypes.c_double),
        ("seconds", ctypes.c_double),
        ("playouts", ctypes.c_uint64),
        ("n_moves", ctypes.c_int),
        ("moves", move_p),
    ]


SOLO_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(SoloEvent))
KEEP_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                           ctypes.c_int)
SOLO_LINE = 1
SOLO_RUN = 2


class SoloOptions(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("playouts", ctypes.c_uint64),
        ("time", ctypes.c_double),
        ("runs", ctypes.c_int),
        ("follow_visits", ctypes.c_bool),
        ("share_front", ctypes.c_bool),
        ("beat", ctypes.c_bool),
        ("to_beat", ctypes.c_double),
        ("progress", SOLO_FN),
        ("progress_ud", ctypes.c_void_p),
        ("algorithm", ctypes.c_int),
        ("level", ctypes.c_int),
        ("iterations", ctypes.c_int),
        ("alpha", ctypes.c_double),
        ("temperature", ctypes.c_double),
        ("bias", ctypes.c_double),
        ("policy_memory", ctypes.c_size_t),
        ("start_moves", move_p),
        ("n_start_moves", ctypes.c_int),
        ("keep_states", KEEP_FN),
        ("share_best", fn),
    ]


SOLO_MCTS = 0
SOLO_NRPA = 1
SOLO_NMCS = 2
SOLO_MAX_LEVEL = 8


class SoloResult(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("moves", move_p),
        ("max_moves", ctypes.c_int),
        ("found", ctypes.c_bool),
        ("score", ctypes.c_double),
        ("n_moves", ctypes.c_int),
        ("runs", ctypes.c_int),
        ("playouts", ctypes.c_uint64),
        ("seconds", ctypes.c_double),
        ("policy_full", ctypes.c_uint64),
    ]


# Every mirrored structure, by its C name (for tests/test_layout.py).
STRUCTS = {
    "banyan_param": Param,
    "banyan_game": Game,
    "banyan_tactics": Tactics,
    "banyan_notation": Notation,
    "banyan_board": Board,
    "banyan_learning": Learning,
    "banyan_config": Config,
    "banyan_limits": Limits,
    "banyan_move_stats": MoveStats,
    "banyan_report": Report,
    "banyan_solo_event": SoloEvent,
    "banyan_solo_options": SoloOptions,
    "banyan_solo_result": SoloResult,
}


def sized(struct_type):
    """A zeroed instance of struct_type (Config, Limits, Report, Game or one
    of its parts) with its size field set, as the C macros BANYAN_CONFIG(),
    BANYAN_GAME_INIT and the others do."""
    return struct_type(size=ctypes.sizeof(struct_type))


# ---- Loading ----

HERE = os.path.dirname(os.path.abspath(__file__))


def _installed(name):
    """A value recorded at installation in _installed.py (LIBDIR, VERSION),
    or None: `make install` and the wheel's build write the file; the source
    tree has none."""
    try:
        from . import _installed as recorded
    except ImportError:
        return None
    return getattr(recorded, name, None)


def _source_version():
    """BANYAN_VERSION of the include/banyan.h the package came with: as
    recorded at installation, else read from the source tree's header."""
    recorded = _installed("VERSION")
    if recorded:
        return recorded
    try:
        with open(os.path.join(HERE, "..", "..", "include", "banyan.h")) as header:
            found = re.search(r'#define BANYAN_VERSION "([^"]*)"', header.read())
    except OSError:
        return None
    return found.group(1) if found else None


VERSION = _source_version()


def _candidates():
    env = os.environ.get("BANYAN_LIBRARY")
    if env:
        return [os.path.join(env, SONAME) if os.path.isdir(env) else env]
    libdir = _installed("LIBDIR")
    mine = [os.path.join(HERE, SONAME),
            os.path.join(libdir, SONAME) if libdir
            else os.path.join(HERE, "..", "..", "build", "release", SONAME)]
    return [path for path in mine if os.path.exists(path)][:1] + [SONAME]


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as exc:
            tried.append(f"{path}: {exc}")
    raise ImportError(
        "banyan: cannot load libbanyan (" + "; ".join(tried) + "). Build it with `make` in "
        "the source tree, install it with `make install` or `pip install`, or set "
        "BANYAN_LIBRARY to its path."
    )


lib, _loaded_as = _load()


def library_path():
    """The file the library was loaded from: the path given to the loader,
    or, for a soname the loader resolved, the file it mapped (from
    /proc/self/maps where there is one)."""
    if os.path.sep in _loaded_as:
        return os.path.realpath(_loaded_as)
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split(None, 5)[-1].strip()
                if "/libbanyan.so" in path:
                    return path
    except OSError:
        pass
    return _loaded_as


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


game_p = ctypes.POINTER(Game)
engine_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_void_p = ctypes.c_void_p
c_size_t = ctypes.c_size_t

version = _proto("banyan_version", c_char_p)
strerror = _proto("banyan_strerror", c_char_p, c_int)
errmsg = _proto("banyan_errmsg", c_char_p, engine_p)
node_size = _proto("banyan_node_size", c_size_t)
game_find = _proto("banyan_game_find", game_p, c_char_p)
game_list = _proto("banyan_game_list", ctypes.POINTER(game_p), ctypes.POINTER(c_int))
game_check = _proto("banyan_game_check", c_char_p, game_p)
params_check = _proto("banyan_params_check", c_int, game_p, c_char_p, c_void_p, c_size_t)
config_check = _proto("banyan_config_check", c_char_p, game_p, ctypes.POINTER(Config))
game_format = _proto("banyan_game_format", c_int, game_p, c_void_p, u32, ctypes.c_uint, c_void_p,
                     c_size_t)
game_print = _proto("banyan_game_print", c_int, game_p, c_void_p, u32, ctypes.c_uint, c_void_p,
                    c_size_t)
engine_new = _proto("banyan_engine_new", c_int, game_p, c_char_p, ctypes.POINTER(Config),
                    ctypes.POINTER(engine_p))
engine_free = _proto("banyan_engine_free", None, engine_p)
engine_setup = _proto("banyan_engine_setup", c_int, engine_p, c_char_p)
engine_load = _proto("banyan_engine_load", c_int, engine_p, c_char_p)
engine_set_state = _proto("banyan_engine_set_state", c_int, engine_p, c_void_p)
engine_state = _proto("banyan_engine_state", c_void_p, engine_p)
engine_parse_move = _proto("banyan_engine_parse_move", c_int, engine_p, c_char_p, move_p)
engine_play = _proto("banyan_engine_play", c_int, engine_p, u32)
engine_search = _proto("banyan_engine_search", c_int, engine_p, ctypes.POINTER(Limits),
                       ctypes.POINTER(Report))
engine_stop = _proto("banyan_engine_stop", None, engine_p)
engine_clear_stop = _proto("banyan_engine_clear_stop", None, engine_p)
engine_report = _proto("banyan_engine_report", c_int, engine_p, ctypes.POINTER(Report))
share_size = _proto("banyan_share_size", ctypes.c_size_t, c_int)
engine_share = _proto("banyan_engine_share", c_int, engine_p, c_void_p, ctypes.c_size_t,
                      ctypes.POINTER(ctypes.c_size_t))
engine_absorb = _proto("banyan_engine_absorb", c_int, engine_p, ctypes.POINTER(c_void_p),
                       ctypes.POINTER(ctypes.c_size_t), c_int)
engine_dump = _proto("banyan_engine_dump", c_int, engine_p, c_int, c_int, u32, WRITE_FN, c_void_p)
game_load = _proto("banyan_game_load", c_int, game_p, c_void_p, c_char_p)
game_parse = _proto("banyan_game_parse", c_int, game_p, c_void_p, ctypes.c_uint, c_char_p, move_p)
game_is_legal = _proto("banyan_game_is_legal", ctypes.c_bool, game_p, c_void_p, u32)
solo_run = _proto("banyan_solo_run", c_int, game_p, c_char_p, c_char_p, ctypes.POINTER(Config),
                  ctypes.POINTER(SoloOptions), ctypes.POINTER(SoloResult))


def text(raw):
    """A C string from the library as Python text ('' for NULL)."""
    return raw.decode("utf-8", "replace") if raw else ""


def snprintf_text(call, size=64):
    """Text from a snprintf-style function call(buf, len), which returns the
    length the full text needs or a negative code; None for a code."""
    while True:
        buf = ctypes.create_string_buffer(size)
        n = call(buf, size)
        if n < 0:
            return None
        if n < size:
            return text(buf.value)
        size = n + 1


def check_layout():
    """Runs a small search of the first built-in game (Tic-tac-toe) and
    checks that the report reads back consistently through the mirrored
    structures: the library's major version is the one mirrored, the root
    moves are the legal ones, their visits add up to the playouts, every
    value is a probability, the best move is among them and the arena's
    size agrees with the memory given. Raises Error when anything
    disagrees, which means that the library and this package were built
    from different headers."""
    lib_version = text(version())
    if VERSION and lib_version.split(".")[0] != VERSION.split(".")[0]:
        raise Error(f"libbanyan {lib_version} is not the version {VERSION} this "
                    "package was written for")
    n = ctypes.c_int()
    g = game_list(ctypes.byref(n))[0]
    cfg = sized(Config)
    cfg.memory = 1 << 20
    cfg.threads = 1
    cfg.seed = 1
    e = engine_p()
    rc = engine_new(g, None, cfg, ctypes.byref(e))
    if rc != OK:
        raise Error(f"the layout check cannot make an engine: {text(strerror(rc))}", rc)
    try:
        out = (u32 * MAX_MOVES)()
        legal = sorted(out[i] for i in range(g.contents.moves(engine_state(e), out)))
        lim = sized(Limits)
        lim.playouts = 500
        rep = sized(Report)
        rc = engine_search(e, lim, rep)
        if rc != OK:
            raise Error(f"the layout check's search failed: {text(errmsg(e))}", rc)
        k = rep.n_moves if 0 < rep.n_moves <= MAX_MOVES else 0
        moves = [rep.moves[i] for i in range(k)]
        fine = (
            sorted(m.move for m in moves) == legal
            and rep.playouts == 500
            and abs(sum(m.visits for m in moves) - 500) <= 1  # The root's own visit.
            and rep.best in legal
            and 0 <= rep.value <= 1
            and all(0 <= m.value <= 1 and 0 < m.pv_len <= MAX_PV and m.pv[0] == m.move
                    for m in moves)
            and 0 < rep.node_capacity * node_size() <= cfg.memory
            and rep.seconds >= 0
        )
        if not fine:
            raise Error("libbanyan's structures do not read back as this package mirrors them "
                        f"(library {lib_version}, {library_path()}): rebuild both from the same "
                        "source")
    finally:
        engine_free(e)
