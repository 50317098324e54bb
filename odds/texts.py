"""The one reader of numbers from text (whole_or_why, number_or_why: every flag, plan, dotted
entry, TOML value, CSV cell, query and body reads its numbers so), and a keyword's value from
its texts, by its Param kind, as a query string or a plan gives it: lists comma-separated (or
the text repeated), whole numbers, numbers, true/false words; any other kind is the text
itself. Read by the HTTP API (odds.frontends.web.api) and plans (odds.tools.questions)."""
from __future__ import annotations

import math
from contextlib import contextmanager

from .errors import DIGITS, OddsError, shown, signed_zero
from .i18n import _, language, ngettext

TRUE, FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
# control characters (C0, DEL, C1) and the bidirectional overrides that reorder a line
CONTROLS = [*range(0x20), 0x7F, *range(0x80, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ESCAPED = {c: ascii(chr(c))[1:-1] for c in CONTROLS}  # 0x1b -> '\\x1b', 0x202e -> '\\u202e'
_LINES = {c: e for c, e in _ESCAPED.items() if chr(c) not in "\n\t"}
LISTS = ("cards", "ints", "pairs")


def whole_or_why(text: str, floats: bool = False) -> tuple[int | None, str | None]:
    """(the whole number `text` writes, None), or (None, why not): digits with an optional
    sign and underscores (`1_000`), `floats`: also an integral number (`1e6`, `2.0`); never
    `-0` (errors.signed_zero), nor more than DIGITS digits. The one reader of a whole number:
    flags, plans, dotted entries, TOML and CSV cells, queries and bodies."""
    text = str(text)
    if sum(c.isdecimal() for c in text) > DIGITS:
        return None, _("{text} has more than {most} digits (allowed: at most {most})").format(
            text=shown(text), most=DIGITS)
    try:
        number = int(text)
    except ValueError:
        number = _float(text) if floats else None
        if number is None or not number.is_integer():
            return None, _("{text} is not a whole number").format(text=shown(text))
        number = int(number)
    return (None, signed_zero(text, number)) if signed_zero(text, number) else (number, None)


def number_or_why(text: str) -> tuple[float | None, str | None]:
    """(the finite number `text` writes, None), or (None, why not): never `-0`, `nan`, `inf`,
    a number too large for a float (`1e999`), nor more than DIGITS digits."""
    text = str(text)
    if sum(c.isdecimal() for c in text) > DIGITS:
        return None, _("{text} has more than {most} digits (allowed: at most {most})").format(
            text=shown(text), most=DIGITS)
    number = _float(text)
    if number is None:
        return None, _("{text} is not a number").format(text=shown(text))
    if not math.isfinite(number):
        return None, _("{text} is not a finite number (allowed: a number, e.g. 0.5)").format(
            text=shown(text))
    return (None, signed_zero(text, number)) if signed_zero(text, number) else (number, None)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def whole(field: str, text: str, floats: bool = False) -> int:
    """`text` as a whole number (whole_or_why), else one OddsError line naming `field`."""
    number, why = whole_or_why(text, floats)
    if why:
        raise OddsError(f"{field}: {why}")
    return number


def number(field: str, text: str) -> float:
    """`text` as a finite number (number_or_why), else one OddsError line naming `field`."""
    value, why = number_or_why(text)
    if why:
        raise OddsError(f"{field}: {why}")
    return value


def _bool(name: str, text: str) -> bool:
    if text.lower() in TRUE + FALSE:
        return text.lower() in TRUE
    raise OddsError(_("{field}: {value} is not true or false (allowed: {allowed})").format(
        field=name, value=repr(text), allowed=", ".join(TRUE + FALSE)))


SCALARS = {"int": whole, "float": number, "bool": _bool}


def counted(n: int, noun: str) -> str:
    """3, 'roll' -> '3 rolls'; 1 -> '1 roll'; 12000 -> '12,000 rolls'."""
    return f"{n:,} {noun}{'s' * (n != 1)}"


def signed(x: float, spec: str) -> str:
    """`x` formatted by `spec` with its sign ('+0.125', '-3.4%'); a value that rounds to zero
    has none ('0.000', never '-0.000' for a change of -0.0001)."""
    text = f"{x:+{spec}}"
    text = text[1:] if float(text.rstrip("%")) == 0 else text
    return text if language() != "ru" else text.replace(".", ",").replace("%", "\u00a0%")


def printable(text: str, lines: bool = False) -> str:
    """`text` with every control character written as its escape (`\\x1b`, `\\n`, `\\u202e`),
    so that a name from another player's file cannot clear, retitle or fake lines of a
    terminal; `lines` keeps line breaks and tabs (a whole summary)."""
    return text.translate(_LINES if lines else _ESCAPED)


def value(name: str, kind: str, texts: list[str]):
    """The keyword's value from its query texts."""
    if kind in LISTS:
        items = [item.strip() for text in texts for item in text.split(",") if item.strip()]
        return [whole(name, item) for item in items] if kind == "ints" else items
    if len(texts) > 1:
        raise OddsError(ngettext("{field}: given {n} time (allowed: once)",
                                 "{field}: given {n} times (allowed: once)", len(texts)).format(
            field=name, n=len(texts)))
    return SCALARS.get(kind, lambda _, text: text)(name, texts[0])


@contextmanager
def as_typed(figure):
    """A block that draws or saves the matplotlib `figure` with every text of it shown as
    typed: no mathtext (a `$` in a name from another player's file is a dollar sign, not a
    formula that fails to parse) and control characters escaped (a CR is `\\r`, never a missing
    glyph's warning). Texts made while drawing (tick labels) are made without mathtext too."""
    import matplotlib
    from matplotlib.text import Text

    for text in figure.findobj(Text):
        text.set_parse_math(False)
        text.set_text(printable(text.get_text(), lines=True))
    with matplotlib.rc_context({"text.parse_math": False}):
        yield figure
