"""The exceptions users see, OddsError (bad input) and Interrupted (an exact answer stopped),
and the validators every public function uses.

An error line echoes at most SHOWN characters of a value (`shown`): a 100 KB argument is
named by its start and its length, never printed whole.
"""
import re

from .i18n import _, native, native_names

SHOWN = 60  # characters of a value an error line echoes
# input: tables and lists nested deeper than this (TOML files, --set values, Python keywords)
# are refused in one line, before anything recurses into them (files.py reads it too)
MAX_NESTING = 16
DIGITS = 30  # digits of a whole number read from text at most (texts.whole_or_why): more is
# beyond every count, bound and seed (and int() of over 4,300 digits raises a ValueError)
_LONG = re.compile(r"\S{%d,}" % (4 * SHOWN))  # a run of text longer than any path or name


class OddsError(ValueError):
    """Bad input: the message names the field, the value and what is allowed.

    A message that still holds a long unbroken run of text (a value echoed with !r where
    `shown` was not used, an argparse message) has it cut as `shown` cuts values."""

    def __init__(self, message="", *args):
        if isinstance(message, str):
            message = _LONG.sub(lambda m: _cut(m.group()), message)
        super().__init__(message, *args)


def shown(value) -> str:
    """`value` quoted for an error line (texts in quotes, true/false, dates and tables as a
    file writes them: never a Python repr): its first SHOWN characters and its length when longer
    (a whole number too long to show is named by its size: 'about 10^5000')."""
    if isinstance(value, int) and value.bit_length() > 3 * SHOWN:
        return _("about {number}").format(
            number=f"{'-' if value < 0 else ''}10^{int(value.bit_length() * 0.30103)}")
    text = _quoted(value)
    return text if len(text) <= SHOWN else _cut(text, len(value) if isinstance(value, str) else None)


def _quoted(value) -> str:
    """A value as a file or a query gives it, never a Python repr: a text in quotes, true and
    false, a date as written (1979-05-27), tables and lists as JSON."""
    import datetime
    import json

    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (dict, list, tuple)):
        try:
            return json.dumps(value, ensure_ascii=False, default=_quoted)
        except (ValueError, TypeError, RecursionError):  # a circular or deep value
            pass
    return repr(value)


def _cut(text: str, length: int | None = None) -> str:
    return _("{start}... ({length:,} characters)").format(start=text[:SHOWN], length=length or len(text))


def check_list(field: str, value) -> tuple:
    """A list keyword as a tuple: None means none (the default), one text is a list of one."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, dict):
        try:
            return tuple(value)
        except TypeError:
            pass
    raise OddsError(_("{field}: {value} is not a list (allowed: a list, e.g. [] for none)").format(
        field=field, value=shown(value)))


class Interrupted(RuntimeError):
    """An exact answer stopped before it was finished by the caller's stop test
    (odds.core.montecarlo.stop_when: a deadline); there is no partial exact answer."""


def check_int(field: str, value, low: int = 0, high: int | None = None, why: str = "") -> int:
    """Return `value` as an int in [low, high], or raise OddsError naming `field` (`why`: what
    sets a bound narrower than its Param's, said after the range)."""
    if type(value) is int and low <= value and (high is None or value <= high):
        return value
    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_integral(value):
        raise OddsError(_("{field}: {value} is not a whole number").format(field=field, value=shown(value)))
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = (_("{low} to {high}") if high is not None else _("at least {low}")).format(
            low=low, high=high) + why
        raise OddsError(_("{field}: {value} is out of range (allowed: {allowed})").format(
            field=field, value=shown(value), allowed=allowed))
    return value


def check_choice(field: str, value, allowed) -> str:
    """Return the one of `allowed` that `value` names (case-insensitive), else raise OddsError
    listing them (and the nearest, for a misspelling)."""
    if isinstance(value, str) and value not in allowed:
        value = next((a for a in allowed if isinstance(a, str) and a.lower() == value.lower()),
                     None) or native(value, allowed) or value
    if value not in allowed:
        raise OddsError(_("{field}: {value} is not allowed{nearest} (allowed: {allowed})").format(
            field=field, value=shown(value), nearest=nearest(value, allowed),
            allowed=", ".join(map(str, allowed))))
    return value


def nearest(value, allowed) -> str:
    """'; did you mean 'x'?' for the closest of `allowed` to a misspelt `value` (difflib), or ''."""
    import difflib

    names = [a for a in allowed if isinstance(a, str)]
    if not isinstance(value, str) or not names:
        return ""
    if any("а" <= c <= "я" or c == "ё" for c in value.lower()):  # a Russian name misspelt
        names = native_names(names) or names
    close = difflib.get_close_matches(value.strip().lower(), [n.lower() for n in names], 1, 0.6)
    if not close:
        return ""
    return _("; did you mean {name}?").format(name=repr(names[[n.lower() for n in names].index(close[0])]))


def signed_zero(text: str, number) -> str | None:
    """Why a number typed as `-0` (or `-0.0`) is refused: a sign on zero is a slip, not a
    value (issue 48: it was taken as 0); None for any other text."""
    if number == 0 and text.strip().startswith("-"):
        return _("{text} is zero with a minus sign (allowed: a number, no sign on zero)").format(
            text=repr(text))
    return None


def check_bool(field: str, value) -> bool:
    """Return `value` if it is a boolean (True/False), else raise OddsError: no truthy strings."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise OddsError(_("{field}: {value} is not allowed (allowed: True, False)").format(
        field=field, value=shown(value)))


def check_probability(field: str, value) -> float:
    """Return `value` as a float in [0, 1]."""
    try:
        p = float(value)
    except (TypeError, ValueError):
        raise OddsError(_("{field}: {value} is not a number").format(field=field, value=shown(value))) from None
    if not 0.0 <= p <= 1.0:
        raise OddsError(_("{field}: {value} is out of range (allowed: {allowed})").format(
            field=field, value=shown(value), allowed=_("{low} to {high}").format(low=0, high=1)))
    return p


def check_chance(field: str, value) -> float:
    """A target chance as a player types it, as a float in [0, 1]: a fraction (0.8), or a
    percent as the page takes it (80, 80%); a number above 1 is a percent."""
    text = str(value).strip()
    percent = text.endswith("%")
    try:
        p = float(text.removesuffix("%"))
    except ValueError:
        raise OddsError(f"{field}: {shown(value)} is not a number") from None
    if not 0.0 <= p <= 100.0 or not p == p:
        raise OddsError(f"{field}: {shown(value)} is out of range (allowed: 0 to 1, or a percent "
                        "from 0% to 100%)")
    return p / 100 if percent or p > 1 else p


def too_deep(field: str, depth: int) -> OddsError:
    """The one line for a value nested `depth` levels deep (over MAX_NESTING)."""
    return OddsError(_("{field}: nested {depth} levels deep (allowed: at most {most})").format(
        field=field, depth=depth, most=MAX_NESTING))


def check_nesting(field: str, value):
    """Return `value` if its lists, tuples and dicts nest at most MAX_NESTING levels
    deep (walked level by level, never recursing), else raise OddsError naming `field`."""
    containers = (list, tuple, dict)
    level, depth = [value], 0
    while level := [v for v in level if isinstance(v, containers)]:
        depth += 1
        if depth > MAX_NESTING:
            raise too_deep(field, _("more than {most}").format(most=MAX_NESTING))
        level = [item for v in level for item in (v.values() if isinstance(v, dict) else v)]
    return value


def _is_integral(value) -> bool:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        return False
    return isinstance(value, np.integer)
