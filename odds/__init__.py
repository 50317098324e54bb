"""odds: exact and Monte Carlo odds for board-game combat.

`odds.his`, `odds.oath`, `odds.crusades`: the games' procedures; `odds.compare(...)`: plans
side by side, `odds.need(...)`: the value that reaches a target, `odds.sensitivity(...)`: the
answer under each reading's alternatives (odds.questions); `odds.sweep(...)`: grids of
them (`odds.sweep.load(path)` runs a TOML spec); `odds.plot`: pictures; `odds.luck(record)`:
how lucky each side of a game's record was (odds.records); `odds.registry`: every
procedure's description. Importing this package and answering an exact question does not
import numba; the games and tools are imported when first used (`odds.his`...), so a command
for one game does not pay for the others.
"""
from importlib import import_module

from .core.result import Result
from .errors import Interrupted, OddsError

__all__ = ["Interrupted", "OddsError", "Result", "compare", "crusades", "his", "luck", "need",
           "oath", "plot", "registry", "sensitivity", "sweep"]
__version__ = "0.1.0"
_SUBMODULES = ("crusades", "his", "oath", "plot", "registry", "sweep")
_FUNCTIONS = {"compare": "questions.compare", "need": "questions.need",
              "sensitivity": "questions.sensitivity", "luck": "records.report"}  # function -> the module that defines it


def __getattr__(name: str):
    if name in _SUBMODULES:
        return import_module(f"{__name__}.{name}")
    if name in _FUNCTIONS:
        return getattr(import_module(f"{__name__}.{_FUNCTIONS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_SUBMODULES, *_FUNCTIONS])
