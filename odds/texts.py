"""A keyword's value from its texts, by its Param kind, as a query string or a plan gives it:
lists comma-separated (or the text repeated), whole numbers, numbers, true/false words; any
other kind is the text itself. Read by the HTTP API (odds.web.api) and plans (odds.questions)."""
from __future__ import annotations

from .errors import OddsError

TRUE, FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
LISTS = ("cards", "ints", "pairs")


def _int(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise OddsError(f"{name}: {text!r} is not a whole number") from None


def _float(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise OddsError(f"{name}: {text!r} is not a number") from None


def _bool(name: str, text: str) -> bool:
    if text.lower() in TRUE + FALSE:
        return text.lower() in TRUE
    raise OddsError(f"{name}: {text!r} is not true or false (allowed: {', '.join(TRUE + FALSE)})")


SCALARS = {"int": _int, "float": _float, "bool": _bool}


def value(name: str, kind: str, texts: list[str]):
    """The keyword's value from its query texts."""
    if kind in LISTS:
        items = [item.strip() for text in texts for item in text.split(",") if item.strip()]
        return [_int(name, item) for item in items] if kind == "ints" else items
    if len(texts) > 1:
        raise OddsError(f"{name}: given {len(texts)} times (allowed: once)")
    return SCALARS.get(kind, lambda _, text: text)(name, texts[0])
