"""The positions over the web (registry.services): the position file is the request's body,
never a path (a scenario it names must be a built-in example or inline); battles are capped
at WEB_BATTLES, one thread."""
from __future__ import annotations

from ...errors import OddsError, check_int
from .autobattle import autobattle as _autobattle
from .from_here import answer_json, position_odds
from .position import read_position

WEB_BATTLES = 5_000  # battles per web request (~2 s on one core, as crusades.battle's cap)
BODY = "position (the request body)"


def _query(query, allowed: tuple) -> dict:
    """The query's keys, each once and one of `allowed`."""
    out = {}
    for key, text in query:
        if key not in allowed:
            raise OddsError(f"{key}: not a parameter (allowed: {', '.join(allowed)})")
        if key in out:
            raise OddsError(f"{key}: given twice (allowed: once)")
        out[key] = text
    return out


def _int(out, key, low, high):
    if key not in out:
        return None
    try:
        return check_int(key, int(out[key]), low, high)
    except ValueError:
        raise OddsError(f"{key}: {out[key]!r} is not a whole number") from None


def position(text: str, query) -> dict:
    """`odds crusades position --json` of the body; query: battles, seed."""
    q = _query(query, ("battles", "seed"))
    pos = read_position(text, BODY)
    res = position_odds(pos, battles=_int(q, "battles", 1, WEB_BATTLES) or min(pos.battles, WEB_BATTLES),
                        seed=_int(q, "seed", 0, 2**63 - 1), threads=1, progress=False)
    return answer_json(pos, res)


def autobattle(text: str, query) -> dict:
    """`odds crusades autobattle --json` of the body; query: draw (required), battles."""
    q = _query(query, ("draw", "battles"))
    if "draw" not in q:
        raise OddsError("draw: missing (the public draw string, announced before the draw)")
    pos = read_position(text, BODY)
    return _autobattle(pos, draw=q["draw"], battles=_int(q, "battles", 1, WEB_BATTLES)
                       or min(pos.battles, WEB_BATTLES), threads=1, progress=False).to_json()
