"""A keyword's value from its texts, by its Param kind, as a query string or a plan gives it:
lists comma-separated (or the text repeated), whole numbers, numbers, true/false words; any
other kind is the text itself. Read by the HTTP API (odds.frontends.web.api) and plans (odds.tools.questions)."""
from __future__ import annotations

from .errors import OddsError, signed_zero
from .i18n import _, language, ngettext

TRUE, FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
# control characters (C0, DEL, C1) and the bidirectional overrides that reorder a line
CONTROLS = [*range(0x20), 0x7F, *range(0x80, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ESCAPED = {c: ascii(chr(c))[1:-1] for c in CONTROLS}  # 0x1b -> '\\x1b', 0x202e -> '\\u202e'
_LINES = {c: e for c, e in _ESCAPED.items() if chr(c) not in "\n\t"}
LISTS = ("cards", "ints", "pairs")


def _int(name: str, text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise OddsError(_("{field}: {value} is not a whole number").format(field=name, value=repr(text))) from None
    return _unsigned(name, text, number)


def _float(name: str, text: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise OddsError(_("{field}: {value} is not a number").format(field=name, value=repr(text))) from None
    return _unsigned(name, text, number)


def _unsigned(name: str, text: str, number):
    why = signed_zero(text, number)
    if why:
        raise OddsError(f"{name}: {why}")
    return number


def _bool(name: str, text: str) -> bool:
    if text.lower() in TRUE + FALSE:
        return text.lower() in TRUE
    raise OddsError(_("{field}: {value} is not true or false (allowed: {allowed})").format(
        field=name, value=repr(text), allowed=", ".join(TRUE + FALSE)))


SCALARS = {"int": _int, "float": _float, "bool": _bool}


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
        return [_int(name, item) for item in items] if kind == "ints" else items
    if len(texts) > 1:
        raise OddsError(ngettext("{field}: given {n} time (allowed: once)",
                                 "{field}: given {n} times (allowed: once)", len(texts)).format(
            field=name, n=len(texts)))
    return SCALARS.get(kind, lambda _, text: text)(name, texts[0])
