"""Reading the user's files safely: regular files only, bounded size, one-line errors.

A path that is a directory, a device (`/dev/zero`), a symlink loop or a number (read as a file
descriptor by some APIs), a file larger than the limit, text that is not UTF-8, or TOML that
is invalid or nested deeper than errors.MAX_NESTING, raises OddsError naming the field. An output
path must be new or a regular file: a FIFO (which would block the writer) or a device is
refused; it is written whole or not at all (`replaced`).
"""
from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
import secrets
import stat
import tomllib
from contextlib import contextmanager
from pathlib import Path

from .errors import DIGITS, MAX_NESTING, OddsError, check_nesting, shown, signed_zero, too_deep
from .i18n import _, integer

MAX_FILE_BYTES = 1 << 20  # 1 MiB: far above any real scenario or sweep spec
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet runs a cell starting so (OWASP)


def check_input(path, field: str):
    """`path` if it names an existing regular file (not a directory, FIFO or device)."""
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bool):
        raise OddsError(_("{field}: {path} is not a file path").format(
            field=field, path=shown(path)))
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise OddsError(_("{field}: {path}: no such file").format(field=field, path=path)) from None
    except OSError as e:
        raise OddsError(_("{field}: {path}: cannot be read ({reason})").format(
            field=field, path=path, reason=e.strerror or e)) from None
    if not stat.S_ISREG(info.st_mode):
        kind = _("a directory") if stat.S_ISDIR(info.st_mode) else _("not a regular file")
        raise OddsError(_("{field}: {path}: {kind} (allowed: a regular file)").format(
            field=field, path=path, kind=kind))
    return path


def check_ending(path: str, field: str, kinds: tuple) -> None:
    """Refuses a `path` that ends in none of `kinds` (the file types a command reads or writes)."""
    if not path.endswith(kinds):
        raise OddsError(_("{field}: {path} must end in {kinds}").format(
            field=field, path=shown(path), kinds=_(" or ").join(kinds)))


def check_output(path: str, field: str, kinds: tuple) -> str:
    """`path` if a file may be written there: an allowed extension, in an existing writable
    directory, and new or a regular file (a FIFO or a device would block or swallow it)."""
    check_ending(path, field, kinds)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as e:
        raise OddsError(_("{field}: {path}: cannot be written ({reason})").format(
            field=field, path=path, reason=e.strerror or e)) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = _("a directory") if stat.S_ISDIR(info.st_mode) else _("not a regular file")
        raise OddsError(_("{field}: {path}: {kind} (allowed: a new or regular file)").format(
            field=field, path=path, kind=kind))
    folder = Path(path).parent
    if not folder.is_dir():
        raise OddsError(_("{field}: {folder}: no such directory").format(
            field=field, folder=folder))
    if not os.access(folder, os.W_OK):
        raise OddsError(_("{field}: {folder}: not writable").format(field=field, folder=folder))
    return path


@contextmanager
def replaced(path: str, field: str):
    """A temporary file beside `path` for the block to write; renamed onto `path` when the
    block ends, removed when it fails (a full disk, Ctrl-C): `path` is never left half
    written. A write that fails with OSError, or with an error raised while the writer handled
    one, is a one-line OddsError naming `field`."""
    target = Path(path)
    temporary = target.with_name(f".{target.stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp{target.suffix}")
    try:
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # the umask's mode
        yield str(temporary)
        os.replace(temporary, target)
    except Exception as e:
        failed = _os_error(e)
        if failed is None:
            raise
        raise OddsError(_("{field}: {path}: cannot be written ({reason})").format(
            field=field, path=path, reason=failed.strerror or failed)) from None
    finally:
        temporary.unlink(missing_ok=True)


def _os_error(error: BaseException) -> OSError | None:
    """The OSError that `error` is or arose from: a writer (matplotlib's PDF backend) can hide a
    full disk behind an error of its own while cleaning up."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, OSError):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


def write_csv(frame, path: str, field: str) -> None:
    """`frame` as CSV at `path`, whole or not at all (`replaced`); a text cell that a spreadsheet
    would run as a formula (starting with =, +, -, @, tab or CR: OWASP's CSV injection) is
    written after a quote, `'=cmd`, so that a name from another player's file stays text."""
    with replaced(path, field) as temporary:
        safe_for_csv(frame).to_csv(temporary, index=False, quoting=csv.QUOTE_NONNUMERIC)  # a CR stays in its cell


def csv_text(frame) -> str:
    """`frame` as CSV text, as write_csv writes it (for stdout)."""
    return safe_for_csv(frame).to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")


def safe_for_csv(frame):
    """A copy of `frame` whose text cells and column names a spreadsheet would run as a
    formula start with a quote (write_csv, csv_text: every CSV odds writes, to a file or a
    terminal; a variant's name is a column of `odds table --format csv`)."""
    out = frame.copy()
    for column in out.columns[[dtype.kind not in "biufcmM" for dtype in out.dtypes]]:  # text
        out[column] = out[column].map(_cell)
    out.columns = [_cell(c) for c in out.columns]
    return out


def _cell(v):
    return f"'{v}" if isinstance(v, str) and v.startswith(FORMULA) else v


def read_text(path, field: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file `path`, at most `limit` bytes, less a leading BOM."""
    check_input(path, field)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise OddsError(_("{field}: {path}: no such file").format(field=field, path=path)) from None
    except OSError as e:
        raise OddsError(_("{field}: {path}: cannot be read ({reason})").format(
            field=field, path=path, reason=e.strerror or e)) from None
    if len(data) > limit:
        raise OddsError(_("{field}: {path}: larger than {limit} bytes (allowed: at most {limit})")
                        .format(field=field, path=path, limit=integer(limit)))
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a BOM (Excel's "CSV UTF-8")
    except UnicodeDecodeError as e:
        raise OddsError(_("{field}: {path}: not UTF-8 text (byte {byte})").format(
            field=field, path=path, byte=e.start)) from None


def parse_toml(text: str, field: str) -> dict:
    """TOML text -> dict, refusing nesting deeper than MAX_NESTING (dotted keys, table headers
    and nested brackets) before parsing and on the parsed values."""
    text = text.removeprefix("\ufeff")  # a BOM: a request's body is not read by read_text
    depth = _nesting(text)
    if depth > MAX_NESTING:
        raise too_deep(field, depth)
    try:
        return _loads(text, field)
    except tomllib.TOMLDecodeError as e:
        raise OddsError(f"{field}: not valid TOML ({e})") from None


def toml_value(text: str, field: str):
    """`text` as a TOML value (`4`, `true`, `[1, 2]`, `{a = 1}`), or the text itself when it is
    not one; nesting deeper than MAX_NESTING is refused before parsing and on the parsed value."""
    depth = _nesting(text)
    if depth > MAX_NESTING:
        raise too_deep(field, depth)
    if re.fullmatch(r"\s*-0+(\.0*)?\s*", text):
        raise OddsError(f"{field}: {signed_zero(text.strip(), 0)}")
    try:
        return _loads(f"v = {text}", field)["v"]
    except tomllib.TOMLDecodeError:
        return text


def _loads(text: str, field: str) -> dict:
    """tomllib.loads, refusing values nested deeper than MAX_NESTING on the parsed values
    (the scan before parsing is a cheap bound that text such as a multi-line string can
    mislead: the parsed value cannot)."""
    try:
        document = tomllib.loads(text)
    except RecursionError:
        raise too_deep(field, f"more than {MAX_NESTING}") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:  # int() of over 4,300 digits: Python's own limit, before any bound
        raise OddsError(f"{field}: a whole number too long to read (allowed: at most {DIGITS} "
                        "digits)") from None
    for value in document.values():
        check_nesting(field, value)
    return document


def read_toml(path, field: str) -> dict:
    """The TOML file `path` as a dict (bounded as above)."""
    return parse_toml(read_text(path, field), f"{field}: {Path(path)}")


def _nesting(text: str) -> int:
    """An upper bound on a TOML text's nesting, in one pass over its characters outside strings
    and comments: the deepest [ ] and { }, and the most parts of a dotted key (`a.b.c`: 3; a
    float's dot counts 2). tomllib's time grows with the square of a dotted key's parts, so
    this bound comes before it."""
    depth = deepest = 0
    for line in text.splitlines():
        quote, escaped, dots = None, False, 0
        for ch in line:
            if escaped:
                escaped = False
            elif quote:
                escaped = ch == "\\" and quote == '"'
                quote = None if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                break
            elif ch == ".":
                dots += 1
                deepest = max(deepest, dots + 1)
            elif ch in "[{]}":
                depth += 1 if ch in "[{" else -1
                deepest, dots = max(deepest, depth), 0
            elif not (ch.isalnum() or ch in "_- \t"):
                dots = 0
        depth = max(depth, 0)
    return deepest


_ARRAY_HEADER = re.compile(r"[ \t]*\[\[[ \t]*([A-Za-z0-9_\-]+)[ \t]*\]\]")  # [[name]]


@dataclass(frozen=True)
class ArrayHeader:
    """The `[[table]]` header of a TOML array of tables, matched on one line from its start."""
    table: str

    def match(self, line: str):
        found = _ARRAY_HEADER.match(line)
        return found if found and found[1] == self.table else None


def array_header(table: str) -> ArrayHeader:
    """The header of the array of tables `table` (ArrayHeader)."""
    return ArrayHeader(table)


def table_lines(text: str, table: str) -> list:
    """(line, {key: line}) of each `[[table]]` of a TOML text, in order: the 1-based line of
    its header and of each key written in it (its first), so that a mistake in one entry is
    refused naming its line."""
    rows = text.splitlines()
    header = array_header(table)
    starts = [i + 1 for i, row in enumerate(rows) if header.match(row)]
    ends = starts[1:] + [len(rows) + 1]
    out = []
    for start, end in zip(starts, ends):
        keys = {}
        for number in range(start + 1, end):
            m = re.match(r"\s*([A-Za-z_][\w-]*)\s*=", rows[number - 1])
            if m and m[1] not in keys:
                keys[m[1]] = number
        out.append((start, keys))
    return out
