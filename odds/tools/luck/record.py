"""A game's record read into entries: one roll each, with the line it starts on.

TOML: an array of `[[roll]]` tables; CSV: a header and one row per roll. A roll names its
`procedure`, its `keywords` (TOML: a table; CSV: `KEY=VALUE` words, as `--compare` plans take
them; a key is the keyword or its flag, a text value is parsed by the keyword's kind as a
query string is), the `side` that attacks or rolls (a player's name) and the side it is
`against` (optional), and what happened: the `winner` (attacker, defender, or a side's name),
each side's losses, or the dice as rolled: `attacker_dice`, `defender_dice` and any other
group of dice a procedure rolls, named `{role}_{what}_dice` (`attacker_janissaries_dice`; the
procedure's declaration says which it reads: core.rolled), each a list of faces, a list of
such lists for a procedure that rolls it again (a siege's assaults), or its hits instead
(`attacker_hits`, a count or a list of counts); `choices`: what the dice cannot show (a table
of NAME = VALUE; CSV: `NAME=VALUE` words). A mistake in one roll refuses that roll (`Refused`,
its line) and the others are read; a file that cannot be read at all is one OddsError.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import OddsError, shown
from ...files import array_header, parse_toml, read_text, table_lines
from ...texts import whole

MAX_RECORD_BYTES = 16 << 20  # 16 MiB: a 10,000-roll record in TOML is ~2 MiB
MAX_ROLLS = 100_000
ROLES = ("attacker", "defender")
OUTCOMES = ("winner", "attacker_losses", "defender_losses", "attacker_hits", "defender_hits",
            "attacker_dice", "defender_dice")
FIELDS = ("procedure", "keywords", "side", "against", *OUTCOMES, "choices")
_DICE = re.compile(r"(attacker|defender)(_[a-z][a-z0-9_]*)?_(dice|hits)")  # any group of dice
ROUNDS = "|"  # CSV: the rolls of a field given once per roll, apart
TABLE = "roll"  # TOML: [[roll]]
MAX_HEADER = 64 * 1024  # characters of a CSV header line read to check its columns
_HEADER = array_header(TABLE)


@dataclass(frozen=True)
class Entry:
    """One roll of the record: `line` (1-based, where it starts), `lines` (field -> its line)."""

    line: int
    procedure: object
    keywords: object
    side: object
    against: object = None
    outcome: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    choices: dict = field(default_factory=dict)

    def where(self, name: str | None) -> int:
        """The line of field `name` (the roll's first line when the field has none)."""
        return self.lines.get(name, self.line)


@dataclass(frozen=True)
class Refused:
    """A roll that is not reported: its line and the one-line reason (naming the field)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def read(record, paths: bool = True) -> tuple[list, list]:
    """(entries, refused) from a path (.toml or .csv; not when `paths` is False: the web), a
    record's text, or a list of dicts (the Python API: each dict a roll, its line its position
    from 1)."""
    entries, refused, _ = titled(record, paths)
    return entries, refused


def titled(record, paths: bool = True) -> tuple[list, list, str]:
    """read's (entries, refused) and the record's own title (a TOML record's `title`, else
    ""), shown with its result: the sample's says it is invented."""
    if isinstance(record, (list, tuple)):
        return (*_entries([(i + 1, roll, {}) for i, roll in enumerate(record)]), "")
    if paths and (isinstance(record, Path) or (isinstance(record, str) and "\n" not in record
                                               and record.endswith((".toml", ".csv")))):
        text = read_text(record, "record", MAX_RECORD_BYTES)
        kind = Path(record).suffix if Path(record).suffix in (".toml", ".csv") else _sniff(text)
    elif isinstance(record, str):
        text = record.removeprefix("\ufeff")  # a BOM: Excel's "CSV UTF-8"
        kind = _sniff(text)
    else:
        raise OddsError(f"record: {shown(record)} is not a record (allowed: a .toml or .csv "
                        "path, a record's text, or a list of dicts)")
    rolls, title = _toml(text) if kind == ".toml" else (_csv(text), "")
    return (*_entries(rolls), title)


def rolls_in(text: str) -> int:
    """The rolls of a record's text counted without parsing it (at least as many as it holds):
    its `[[roll]]` headers (TOML), else its non-blank lines after the first (CSV), whose
    columns must be a roll's fields (else OddsError: the text is no record)."""
    rows = text.splitlines()
    tables = sum(1 for row in rows if _HEADER.match(row))
    if tables:
        return tables
    first = next((r for r in rows if r.strip()), "")  # a CSV's header: its columns are checked
    try:  # first, so that text that is no record is never counted as rolls (issue 59)
        _check_columns(next(csv.reader([first[:MAX_HEADER]]), []))
    except csv.Error as e:
        raise OddsError(f"record: its first line is not a CSV header ({e})") from None
    return max(0, sum(1 for r in rows if r.strip()) - 1)


def dice_field(name) -> bool:
    """Whether `name` is a field of dice or hits: attacker_dice, defender_hits,
    attacker_janissaries_dice, ..."""
    return isinstance(name, str) and _DICE.fullmatch(name) is not None


def rounds(name: str, value):
    """The rolls of a field given once per roll (dice: a list of lists of faces; hits: a list
    of counts), else None (the field is one roll's)."""
    if not isinstance(value, list) or not value:
        return None
    if name.endswith("_hits"):
        return value
    return value if isinstance(value[0], list) else None  # a roll that is not a list: refused
    # by the reader as not a list of dice


def _sniff(text: str) -> str:
    """'.toml' for a text with a [[roll]] table, else '.csv'."""
    return ".toml" if any(_HEADER.match(row) for row in text.splitlines()) else ".csv"


def _entries(rolls) -> tuple[list, list]:
    if not rolls:
        raise OddsError(f"record: no rolls (allowed: [[{TABLE}]] tables in TOML, or CSV rows "
                        f"under a header naming {', '.join(FIELDS[:3])}, ...)")
    if len(rolls) > MAX_ROLLS:
        raise _too_many()
    entries, refused = [], []
    for line, roll, lines in rolls:
        try:
            entries.append(_entry(line, roll, lines))
        except OddsError as e:
            refused.append(Refused(line, str(e)))
    return entries, refused


def _too_many() -> OddsError:
    return OddsError(f"record: more than {MAX_ROLLS:,} rolls (allowed: at most {MAX_ROLLS:,}; "
                     "split the record)")


def _entry(line: int, roll, lines: dict) -> Entry:
    if not isinstance(roll, dict):
        raise OddsError(f"roll: {shown(roll)} is not a table of fields")
    for name in roll:
        if name not in FIELDS and not dice_field(name):
            raise OddsError(f"{name}: not a field of a roll (allowed: {', '.join(FIELDS)}, or "
                            "ROLE_WHAT_dice for another group of dice)")
    for name in ("procedure", "side"):
        if name not in roll:
            raise OddsError(f"{name}: missing (every roll names its procedure and its side)")
    if not any(name in OUTCOMES or dice_field(name) for name in roll):
        raise OddsError(f"outcome: missing (give at least one of: {', '.join(OUTCOMES)})")
    for name in ("side", "against"):
        if name in roll and (not isinstance(roll[name], str) or not roll[name].strip()):
            raise OddsError(f"{name}: {shown(roll[name])} is not a side's name (a text, e.g. Ottoman)")
    if roll.get("against") is not None and roll["against"].strip() == roll["side"].strip():
        raise OddsError(f"against: {roll['against']!r} is the side itself (allowed: another side)")
    outcome = {name: roll[name] for name in roll if name in OUTCOMES or dice_field(name)}
    choices = roll.get("choices", {})
    if not isinstance(choices, dict) or any(isinstance(v, (dict, list)) for v in choices.values()):
        raise OddsError(f"choices: {shown(choices)} is not a table of choices (e.g. "
                        "{ attacker_debater = 2 }; CSV: NAME=VALUE words)")
    return Entry(line, roll["procedure"], roll.get("keywords", {}), roll["side"].strip(),
                 roll["against"].strip() if roll.get("against") else None, outcome, lines,
                 choices)


def _toml(text: str) -> tuple[list, str]:
    """((line, roll, field lines) of each [[roll]] table, the record's title); a line is found
    from its header. A text with more [[roll]] headers than MAX_ROLLS is refused before it is
    parsed."""
    found = table_lines(text, TABLE)
    if len(found) > MAX_ROLLS:
        raise _too_many()
    document = parse_toml(text, "record")
    extra = [k for k in document if k not in (TABLE, "title")]
    if extra:
        raise OddsError(f"record: {extra[0]}: not a table of the record (allowed: title, [[{TABLE}]])")
    rolls = document.get(TABLE, [])
    if not isinstance(rolls, list):
        raise OddsError(f"record: {TABLE}: not an array of tables (write [[{TABLE}]])")
    out = []
    for n, roll in enumerate(rolls):
        line, lines = found[n] if n < len(found) else (1, {})
        out.append((line, roll, lines))
    title = document.get("title", "")
    if not isinstance(title, str):
        raise OddsError(f"title: {shown(title)} is not a text (e.g. title = \"1532, our game\")")
    return out, title.strip()


def _csv(text: str) -> list:
    """(line, roll, {}) of each CSV row; empty cells are fields not given, `keywords` stays
    `KEY=VALUE` words and dice are numbers apart (spaces or commas)."""
    reader = csv.DictReader(io.StringIO(text))
    try:
        return _rows(reader)
    except csv.Error as e:  # a cell over the csv module's field limit, a NUL byte
        raise OddsError(f"record: line {reader.reader.line_num}: not a CSV row ({e})") from None


def _check_columns(header) -> None:
    for name in header:
        if name not in FIELDS and not dice_field(name):
            raise OddsError(f"record: column {shown(name)} is not a field of a roll "
                            f"(allowed: {', '.join(FIELDS)}, or ROLE_WHAT_dice for another "
                            "group of dice)")


def _rows(reader) -> list:
    _check_columns(reader.fieldnames or [])
    out = []
    for row in reader:
        if len(out) == MAX_ROLLS:
            raise _too_many()
        roll = {k: v.strip() for k, v in row.items() if k is not None and v and v.strip()}
        if None in row:
            roll["cells"] = row[None]  # more cells than the header: refused as a field
        if roll:
            out.append((reader.line_num, {k: _cell(k, v) for k, v in roll.items()}, {}))
    return out


def _cell(name: str, text):
    """A CSV cell as the TOML value it stands for: dice and counts as numbers, the rolls of a
    field given once per roll apart (`6 5 1 | 4 2`), choices as NAME=VALUE words."""
    if dice_field(name) and ROUNDS in text:
        return [_cell(name, part.strip()) for part in text.split(ROUNDS)]
    if dice_field(name) and name.endswith("_dice"):
        return [_number(name, w) for w in text.replace(",", " ").split()]
    if name == "choices":
        pairs = [w.partition("=") for w in text.split()]
        return {k: _number(f"{name}: {k}", v) for k, eq, v in pairs} if all(eq and k for k, eq, _ in pairs) else text
    if name.endswith(("_losses", "_hits")) and re.fullmatch(r"-?\d+", text):
        return whole(name, text)
    return text


def _number(field: str, word: str):
    return whole(field, word) if re.fullmatch(r"-?\d+", word) else word
