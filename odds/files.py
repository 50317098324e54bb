"""Reading the user's files safely: regular files only, bounded size, one-line errors.

A path that is a directory, a device (`/dev/zero`), a symlink loop or a number (read as a file
descriptor by some APIs), a file larger than the limit, text that is not UTF-8, or TOML that
is invalid or nested deeper than config.MAX_NESTING, raises OddsError naming the field.
"""
from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path

from .config import MAX_NESTING
from .errors import OddsError, too_deep

MAX_FILE_BYTES = 1 << 20  # 1 MiB: far above any real scenario or sweep spec
_DOTTED = re.compile(r"^\s*\[{1,2}([^\]]*)\]{1,2}|^\s*([\w\-\"'. ]+)=", re.M)


def read_text(path, field: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file `path`, at most `limit` bytes."""
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bool):
        raise OddsError(f"{field}: {path!r} is not a file path")
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise OddsError(f"{field}: {path}: {kind} (allowed: a regular file)")
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise OddsError(f"{field}: {path}: no such file") from None
    except OSError as e:
        raise OddsError(f"{field}: {path}: cannot be read ({e.strerror or e})") from None
    if len(data) > limit:
        raise OddsError(f"{field}: {path}: larger than {limit:,} bytes (allowed: at most {limit:,})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise OddsError(f"{field}: {path}: not UTF-8 text (byte {e.start})") from None


def parse_toml(text: str, field: str) -> dict:
    """TOML text -> dict, refusing nesting deeper than MAX_NESTING (dotted keys, table headers
    and nested brackets) before parsing."""
    depth = max((len(re.findall(r"\.", m.group(1) or m.group(2) or "")) + 1
                 for m in _DOTTED.finditer(text)), default=0)
    depth = max(depth, _bracket_depth(text))
    if depth > MAX_NESTING:
        raise too_deep(field, depth)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise OddsError(f"{field}: not valid TOML ({e})") from None
    except RecursionError:
        raise too_deep(field, MAX_NESTING + 1) from None


def toml_value(text: str, field: str):
    """`text` as a TOML value (`4`, `true`, `[1, 2]`, `{a = 1}`), or the text itself when it is
    not one; nesting deeper than MAX_NESTING is refused before parsing."""
    depth = _bracket_depth(text)
    if depth > MAX_NESTING:
        raise too_deep(field, depth)
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def read_toml(path, field: str) -> dict:
    """The TOML file `path` as a dict (bounded as above)."""
    return parse_toml(read_text(path, field), f"{field}: {Path(path)}")


def _bracket_depth(text: str) -> int:
    """Deepest nesting of [ ] and { } outside strings and comments (a cheap upper bound)."""
    depth = deepest = 0
    quote = None
    for line in text.splitlines():
        for ch in line:
            if quote:
                quote = None if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                break
            elif ch in "[{":
                depth += 1
                deepest = max(deepest, depth)
            elif ch in "]}":
                depth -= 1
        quote = None
        depth = max(depth, 0)
    return deepest
