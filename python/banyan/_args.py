"""Checks of the arguments the package's public functions take, made before
anything reaches ctypes, which converts a Python int to a C integer by
wrapping it silently (-1 becomes 4294967295 as a uint32, 2**32 + 1 becomes
1 as an int) and passes text holding a NUL cut short.

A wrong type raises BadTypeError, a TypeError; a value out of its range
BadValueError, a ValueError; each names the argument and the value as given:
    banyan.BadTypeError: game must be a game name (str) or a domain (...),
    not int 42
    banyan.BadValueError: move -1 is not a move of connect4
Both are banyan.Error too, as the package's errors have always been, and a
wrong type is a ValueError as well (int("x") raised one), so that
`except ValueError` catches every bad argument.
"""
import ctypes
import math
import numbers
import reprlib

from . import _lib
from ._lib import BadTypeError, BadValueError

U32 = 2**32 - 1
U64 = 2**64 - 1
INT = 2**31 - 1
SIZE = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
MIN_MEMORY = 32 << 10  # The smallest arena (include/banyan.h, banyan_config.memory).
MAX_DEPTH = 1024  # The longest cutoff rollout (banyan_config.cutoff).
MAX_BATCH = 256  # BANYAN_MAX_BATCH.

_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 80
_repr.maxlong = 60


def shown(value):
    """The value as given, for a message: repr, cut short where long."""
    return _repr.repr(value)


def typed(value):
    """The value as given, with its type: "int 42", "str 'x'"."""
    return f"{type(value).__name__} {shown(value)}"


def bad_type(name, what, value):
    return BadTypeError(f"{name} must be {what}, not {typed(value)}", _lib.EINVAL)


def bad_value(name, what, value):
    return BadValueError(f"{name} must be {what}, not {shown(value)}", _lib.EINVAL)


def is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def integer(name, value, low, high, what):
    """value, an integer from low to high, as an int."""
    if not is_int(value):
        raise bad_type(name, what, value)
    if not low <= int(value) <= high:
        raise bad_value(name, what, value)
    return int(value)


def number(name, value, low, high, what):
    """value, a finite real number from low to high, as a float."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise bad_type(name, what, value)
    v = float(value)
    if not (math.isfinite(v) and low <= v <= high):
        raise bad_value(name, what, value)
    return v


def flag(name, value):
    """value, True or False (or 1 or 0), as a bool."""
    what = "True or False"
    if isinstance(value, bool):
        return value
    if not is_int(value):
        raise bad_type(name, what, value)
    if int(value) not in (0, 1):
        raise bad_value(name, what, value)
    return bool(value)


def text(name, value, what):
    """value, a str without NUL characters (C would cut it short there)."""
    if not isinstance(value, str):
        raise bad_type(name, what, value)
    if "\0" in value:
        raise bad_value(name, what + " without NUL characters", value)
    return value


def choice(name, value, codes):
    """A mode of the config by its name (any case) or its code: the code."""
    what = "one of " + "|".join(codes)
    if is_int(value):
        if int(value) not in codes.values():
            raise bad_value(name, what, value)
        return int(value)
    if not isinstance(value, str):
        raise bad_type(name, what, value)
    if value.lower() not in codes:
        raise bad_value(name, what, value)
    return codes[value.lower()]


def memory(value):
    """Bytes from an int, or a text with an optional K, M or G ("64M")."""
    name = "memory"
    what = '0 (the default) or 32K bytes or more, as an int or as text such as "64M"'
    if isinstance(value, str):
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        v = value.strip().upper()
        scale = units.get(v[-1:], 1)
        try:
            amount = float(v[:-1] if v[-1:] in units else v)
        except ValueError:
            raise bad_value(name, what, value) from None
        if not math.isfinite(amount) or amount < 0:
            raise bad_value(name, what, value)
        n = int(amount * scale)
    elif is_int(value):
        n = int(value)
    else:
        raise bad_type(name, what, value)
    if n != 0 and not MIN_MEMORY <= n <= SIZE:
        raise bad_value(name, what, value)
    return n


# ---- The engine's options ----

ENUMS = {
    "select": {"default": 0, "uct": 1, "puct": 2},
    "fpu": {"default": 0, "infinite": 1, "parent": 2, "absolute": 3},
    "final": {"default": 0, "visits": 1, "value": 2, "lcb": 3},
    "parallel": {"default": 0, "tree": 1, "root": 2},
    "leaf": {"default": 0, "rollout": 1, "eval": 2, "cutoff": 3},
}


def _int(low, high, what):
    return lambda name, v: integer(name, v, low, high, what)


def _number(low, high, what):
    return lambda name, v: number(name, v, low, high, what)


_INF = math.inf
_BUDGET = "an integer from 0 to 2**64-1 (0: the default)"
_WIDTH = "a number from -1000 to 1000 (0: the default; below 0: none)"

# Each field of banyan_config the package sets, with its check: the
# ranges include/banyan.h gives. Those that depend on other fields (the
# memory per thread under root parallelism, what a leaf mode needs of the
# game) are the library's to check (banyan_config_check).
CONFIG = {
    "memory": lambda name, v: memory(v),
    "threads": _int(0, _lib.MAX_THREADS, f"an integer from 1 to {_lib.MAX_THREADS} (0: the default)"),
    "seed": _int(0, U64, "an integer from 0 to 2**64-1 (0: the default)"),
    "c": _number(0, _INF, "a positive number (0: the default)"),
    "fpu_value": _number(-_INF, _INF, "a finite number"),
    "expand_visits": _int(0, U32, "an integer from 0 to 2**32-1 (0: the default)"),
    "widening": _number(-1000, 1000, _WIDTH),
    "cutoff": _int(0, MAX_DEPTH, f"an integer from 1 to {MAX_DEPTH} plies (0: the default)"),
    "solve_budget": _int(0, U64, _BUDGET),
    "noise_alpha": _number(0, _INF, "a number 0 or more (0: no noise)"),
    "noise_share": _number(0, 1, "a number from 0 to 1 (0: the default)"),
    "batch": _int(0, MAX_BATCH, f"an integer from 1 to {MAX_BATCH} (0: the default)"),
    "rave": _number(-_INF, _INF, "a finite number (0: the default; below 0: none)"),
    "max_mix": _number(0, 1, "a number from 0 to 1"),
    "adaptive": _int(-1, 1, "-1, 0 or 1"),
    "widening_opponent": _number(-1000, 1000, _WIDTH),
    "share_nodes": _int(0, 1 << 20, "an integer from 0 to 1048576 (0: no sharing)"),
    "share_searches": _int(0, 1 << 20, "an integer from 0 to 1048576 (0 or 1: no phantom walks)"),
    "share_index": _int(0, (1 << 20) - 1, "an integer from 0 to share_searches - 1"),
}
for _name in ENUMS:
    CONFIG[_name] = lambda name, v: choice(name, v, ENUMS[name])
for _name in ("fresh_tree", "no_recycle", "transpositions", "ownership", "graph"):
    CONFIG[_name] = flag

_COUNT = "an integer from 0 to 2**64-1 (0: no limit)"
_SECONDS = "a number of seconds, 0 or more (0: no limit)"

# The search limits (banyan_limits).
LIMITS = {
    "playouts": _int(0, U64, _COUNT),
    "time": _number(0, _INF, _SECONDS),
    "nodes": _int(0, U64, _COUNT),
    "time_max": _number(0, _INF, _SECONDS),
    "stop_early": flag,
    "analyse": flag,
}


def limits(caller, given):
    """The limits given as keywords ({name: value}, None for "not given"),
    checked: {name: value} without the Nones."""
    out = {}
    for key, value in given.items():
        if key not in LIMITS:
            raise BadTypeError(f"{caller}() got an unknown limit {key!r} (the limits are "
                          f"{', '.join(LIMITS)})", _lib.EINVAL)
        if value is not None:
            out[key] = LIMITS[key](key, value)
    return out


# ---- Games, positions, moves ----

DOMAIN_METHODS = ("moves", "play", "result", "copy")
_DOMAIN = "a domain (an object with moves(), play(), result() and copy())"


def domain(name, obj, what):
    """obj, an object with the domain's four methods."""
    if isinstance(obj, type):
        raise BadTypeError(f"{name} must be {what}, not the class {obj.__name__} (an object of "
                           "it is)", _lib.EINVAL)
    missing = [m + "()" for m in DOMAIN_METHODS if not callable(getattr(obj, m, None))]
    if len(missing) == len(DOMAIN_METHODS):
        raise bad_type(name, what, obj)
    if missing:
        raise BadTypeError(f"{name} must be {what}, not {typed(obj)}, which has no "
                      f"{', '.join(missing)}", _lib.EINVAL)
    return obj


def game(value):
    """Engine's game: a game name (str) or a Python domain."""
    what = "a game name (str) or " + _DOMAIN
    if isinstance(value, str):
        return text("game", value, what)
    return domain("game", value, what)


def params(value, is_domain_game):
    """A game's parameters as the library's "key=value ..." text, or None:
    from None, from text, or from a dict {key: value}."""
    name = "params"
    if value is None:
        return None
    if is_domain_game:
        raise bad_value(name, "None for a Python domain (it takes its parameters in Python)",
                        value)
    what = 'the game\'s parameters, as "key=value ..." text or a dict'
    if isinstance(value, str):
        return text(name, value, what)
    if not hasattr(value, "items"):
        raise bad_type(name, what, value)
    words = []
    for k, v in value.items():
        key = text(f"a key of {name}", k, "a parameter's name (str)")
        if not key or any(c.isspace() or c == "=" for c in key):
            raise bad_value(f"a key of {name}", "a parameter's name", k)
        item = f"{name}[{k!r}]"
        vwhat = "text or a number"
        if isinstance(v, str):
            word = text(item, v, vwhat)
        elif is_int(v):
            word = str(int(v))
        elif isinstance(v, numbers.Real) and not isinstance(v, bool):
            word = repr(number(item, v, -_INF, _INF, "a finite number"))
        else:
            raise bad_type(item, vwhat, v)
        if not word or any(c.isspace() for c in word):
            raise bad_value(item, "a value without spaces", v)
        words.append(f"{key}={word}")
    return " ".join(words)


def move_code(value, game_name):
    """A built-in game's move given as a code: an int below the move limit."""
    if not 0 <= value < _lib.MOVE_LIMIT:
        raise BadValueError(f"move {shown(value)} is not a move of {game_name}", _lib.ERANGE)
    return int(value)
