"""Banyan from Python: the Monte Carlo Tree Search library libbanyan through
ctypes, with nothing to compile.

    import banyan
    with banyan.Engine("connect4", seed=7, memory="64M") as e:
        a = e.analyze("4453", playouts=100000)
        print(a.best, a.value, [(m.move, m.visits) for m in a.moves])
        e.play(a.best)

banyan.games() lists the built-in games. A domain written in Python (any
object with moves(), play(move), result() and copy()) is searched the same
way: Engine(MyGame()). banyan.solo("morpion", playouts=20000) plays whole
games of a single-player game and returns the best; banyan.nrpa() and
banyan.nmcs() run the nested algorithms on a built-in game or a domain of
one's own. Errors raise banyan.Error with the library's
message; a bad argument raises a TypeError or ValueError (BadTypeError,
BadValueError, both banyan.Error too) naming the argument and the value. docs/PYTHON.md describes the whole
interface.

__version__ is the package's version, BANYAN_VERSION of the include/banyan.h
it was built from; version() is the loaded library's.
"""
from . import _lib
from ._lib import BadTypeError, BadValueError, Error, library_path
from ._lib import check_layout as _check_layout
from .engine import Analysis, Engine, GameInfo, MoveStats, Param, games, version
from .solo import SoloEvent, SoloResult, nmcs, nrpa, solo

__version__ = _lib.VERSION or version()

__all__ = ["Analysis", "BadTypeError", "BadValueError", "Engine", "Error", "GameInfo",
           "MoveStats", "Param", "SoloEvent", "SoloResult", "games", "library_path", "nmcs", "nrpa",
           "solo",
           "version"]
