"""odds: exact and Monte Carlo odds for board-game combat.

`odds.his`, `odds.oath`, `odds.crusades`: the games' procedures; `odds.sweep(...)`: grids of
them (`odds.sweep.load(path)` runs a TOML spec); `odds.plot`: pictures; `odds.registry`: every
procedure's description. Importing this package and answering an exact question does not
import numba.
"""
from . import his, oath, crusades  # noqa: I001  (registration order: the games as listed)
from . import plot, registry, sweep
from .core.result import Result
from .errors import OddsError

__all__ = ["OddsError", "Result", "crusades", "his", "oath", "plot", "registry", "sweep"]
__version__ = "0.1.0"
