"""Here I Stand and The Virgin Queen: one subpackage per concept (field battles, assaults,
interceptions, sieges, attacks, naval combat, piracy, foreign wars, the New World, religion,
debates, the Diet of Worms).

Each concept's `__init__.py` declares, importing nothing, what it registers and exports:
`PROCEDURES` (procedure name -> the module of the subpackage that registers it), `EXPORTS`
(public name of `odds.his` -> its module) and `ORDER` (its place in listings). This package
finds them with pkgutil, so a new concept touches no file outside its own folder, and imports
a module only when it is first used: a command pays only for the procedure it runs.
"""
from ..lazy import declaring, exports

TITLES = {"his": "Here I Stand", "vq": "The Virgin Queen"}  # the games' names, by first word
ORDER = 10  # this game's place in listings
PAGE = "cards:page"  # module:function of what the web page needs besides the forms


def _where(attribute: str) -> dict:
    """Name -> module (relative to odds.his) over the concepts' declarations, in their ORDER."""
    return {name: f"{c.__name__.rpartition('.')[2]}.{module}"
            for c in declaring(__name__, "PROCEDURES")
            for name, module in getattr(c, attribute).items()}


PROCEDURES = _where("PROCEDURES")  # procedure -> module (relative to odds.his), listing order
EXPORTS = _where("EXPORTS")
__all__ = sorted(EXPORTS)
__getattr__, __dir__ = exports(__name__, EXPORTS)
