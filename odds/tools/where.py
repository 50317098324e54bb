"""Selecting rows of a sweep's frame: `--where` texts ('a=1', 'a=1,b=2', 'cards=[]') as
(column, value) pairs, values in one comparable form, the matching rows. Read by `odds plot`
(sweep_cli) and the pictures (odds.tools.plot)."""
from __future__ import annotations

from ..errors import OddsError, shown


def conditions(texts) -> list:
    """`--where` texts -> (column, value) pairs: 'a=1', 'a=1,b=2', 'cards=[]',
    "cards=['landsknechts']" or 'cards=["landsknechts"]' (TOML or JSON lists)."""
    out = []
    for text in texts:
        for part in split(text):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise OddsError(f"--where: {shown(part)} must be COLUMN=VALUE")
            out.append((key.strip(), normal(value.strip())))
    return out


def split(text: str) -> list:
    """Split on commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [p for p in parts + [text[start:]] if p.strip()]


def normal(value):
    """A cell value or a typed one in one comparable form: lists as tuples of strings, numbers
    as floats, everything else as stripped text."""
    import numpy as np

    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            inner = split(text[1:-1])
            return tuple(str(normal(v)) for v in inner)
        if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
            return text[1:-1]
        try:
            return float(text)
        except ValueError:
            return text
    if isinstance(value, (list, tuple, np.ndarray)):
        return tuple(str(normal(v)) for v in value)
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return str(value)


def select(df, pairs):
    """The rows matching every (column, value); a miss names the values that exist."""
    for key, value in pairs:
        if key not in df.columns:
            raise OddsError(f"--where: {shown(key)} is not a column (allowed: {', '.join(map(str, df.columns))})")
        cells = df[key].map(normal)
        if not (cells == value).any():
            have = sorted({_show(v) for v in cells})
            raise OddsError(f"--where: no rows with {key}={_show(value)} (allowed: {', '.join(have)})")
        df = df[cells == value]
    return df


def as_in(df, column, text):
    """The value of `column` that `text` names, in any of --where's spellings (else the text)."""
    if column in df.columns:
        for v in df[column]:
            if normal(v) == normal(text):
                return v
    return text.strip()


def _show(value) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)
