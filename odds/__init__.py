"""odds: exact and Monte Carlo odds for board-game combat.

Importing this package and answering an exact question does not import numba.
"""
from . import his, oath, crusades  # noqa: I001  (registration order: the games as listed)
from .core.result import Result
from .errors import OddsError

__all__ = ["OddsError", "Result", "crusades", "his", "oath"]
__version__ = "0.1.0"
