"""The one exception users see."""
from .config import MAX_NESTING


class OddsError(ValueError):
    """Bad input: the message names the field, the value and what is allowed."""


def check_int(field: str, value, low: int = 0, high: int | None = None) -> int:
    """Return `value` as an int in [low, high], or raise OddsError naming `field`."""
    if type(value) is int and low <= value and (high is None or value <= high):
        return value
    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_integral(value):
        raise OddsError(f"{field}: {value!r} is not a whole number")
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = f"{low} to {high}" if high is not None else f"at least {low}"
        raise OddsError(f"{field}: {value} is out of range (allowed: {allowed})")
    return value


def check_choice(field: str, value, allowed) -> str:
    """Return the one of `allowed` that `value` names (case-insensitive), else raise OddsError
    listing them."""
    if isinstance(value, str) and value not in allowed:
        value = next((a for a in allowed if isinstance(a, str) and a.lower() == value.lower()), value)
    if value not in allowed:
        raise OddsError(f"{field}: {value!r} is not allowed (allowed: {', '.join(map(str, allowed))})")
    return value


def check_bool(field: str, value) -> bool:
    """Return `value` if it is a boolean (True/False), else raise OddsError: no truthy strings."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise OddsError(f"{field}: {value!r} is not allowed (allowed: True, False)")


def check_probability(field: str, value) -> float:
    """Return `value` as a float in [0, 1]."""
    try:
        p = float(value)
    except (TypeError, ValueError):
        raise OddsError(f"{field}: {value!r} is not a number") from None
    if not 0.0 <= p <= 1.0:
        raise OddsError(f"{field}: {value!r} is out of range (allowed: 0 to 1)")
    return p


def too_deep(field: str, depth: int) -> OddsError:
    """The one line for a value nested `depth` levels deep (over config.MAX_NESTING)."""
    return OddsError(f"{field}: nested {depth} levels deep (allowed: at most {MAX_NESTING})")


def check_nesting(field: str, value):
    """Return `value` if its lists, tuples and dicts nest at most config.MAX_NESTING levels
    deep (walked level by level, never recursing), else raise OddsError naming `field`."""
    containers = (list, tuple, dict)
    level, depth = [value], 0
    while level := [v for v in level if isinstance(v, containers)]:
        depth += 1
        if depth > MAX_NESTING:
            raise too_deep(field, f"more than {MAX_NESTING}")
        level = [item for v in level for item in (v.values() if isinstance(v, dict) else v)]
    return value


def _is_integral(value) -> bool:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        return False
    return isinstance(value, np.integer)
