"""A crusades battle in play: the position file (TOML, docs/rules_crusades.md "The position
file") read into a `Position`, the kernel's start record.

The moment a position stands for: round `turn`, just before the side `to_move` takes its
morale tests (the damage its units took in the enemy's turn, `damage_this_turn`) and moves.
A position that cannot happen is refused in one line naming its line, the unit and the rule.
"""
from __future__ import annotations

import os
import re
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ...errors import OddsError, check_nesting, shown
from ...files import parse_toml, read_text, table_lines
from ...i18n import _
from ..simulator import state as S
from ..scenario import MAX_SCENARIO_BYTES, SIDES, Scenario, load
from .. import EXAMPLES

POSITION_KEYS = ("title", "scenario", "turn", "to_move", "first_player", "siege_turn", "stream",
                 "battles", "seed", "gone", "unit")
UNIT_KEYS = ("side", "type", "cell", "health", "state", "damage_this_turn", "rear_attacked",
             "first_attack_spent", "facing")
GONE = ("killed", "fled", "captured")  # units no longer on the board, per side and type
STATES = ("active", "fleeing")  # a unit on the board (dead, captured, escaped: under [gone])
FACINGS = ("enemy-edge", "own-edge")


@dataclass(frozen=True)
class Position:
    """A validated position: `scenario` with its armies set to the units on the board,
    `start` the kernel's record (start[:NFU, :n] the units in move order, start[NFU] = n,
    turn, side to move, first player, stream given, the stream's four words)."""

    path: str
    title: str
    scenario: Scenario
    start: np.ndarray
    turn: int
    to_move: int
    first: int
    siege_turn: int
    gone: dict  # side -> category -> {type: count}
    lines: tuple  # each unit's line in the file (0: given as a table)
    text: str  # the file's text ('' for a table): what an auto-battle's digest covers
    battles: int
    seed: int

    @property
    def n(self) -> int:
        return int(self.start[S.NFU, 0])

    @property
    def units(self) -> np.ndarray:
        return self.start[:S.NFU, :self.n]

    def name(self, j: int) -> str:
        """'attacker knights#3 at [4, 5]': unit j as results name it (in the language in force;
        its type is the scenario's own name)."""
        U = self.units
        return _("{side} {unit}#{j} at [{x}, {y}]").format(
            side=_(SIDES[U[S.USIDE, j]]), unit=self.scenario.type_names[U[S.UTYPE, j]], j=j,
            x=U[S.UX, j], y=U[S.UY, j])


def load_position(source, *, name: str | None = None, folder=None) -> Position:
    """A position from a TOML path, its text (a string of more than one line: `read_position`)
    or a table."""
    if isinstance(source, Position):
        return source
    if isinstance(source, dict):
        return _validate(dict(check_nesting("position", source)), name or "<position>", "", folder)
    if isinstance(source, str) and "\n" in source:
        return read_position(source, name or "<position>", folder)
    if isinstance(source, (str, os.PathLike)):
        text = read_text(source, "position", MAX_SCENARIO_BYTES)
        return _validate(parse_toml(text, str(source)), str(source), text, Path(source).parent)
    raise OddsError(f"position: {shown(source)} is not a position file's path, text or table")


def read_position(text: str, name: str, folder=None) -> Position:
    """A position from its TOML text, named `name` in errors; a scenario it names by file is
    looked for in `folder` (None: only the built-in examples, as on the web)."""
    if len(text.encode("utf-8")) > MAX_SCENARIO_BYTES:
        raise OddsError(f"{name}: larger than {MAX_SCENARIO_BYTES:,} bytes")
    text = text.removeprefix("\ufeff")
    return _validate(parse_toml(text, name), name, text, folder)


class _Refuse:
    """Raises OddsError as '<file>: line L: <what>: <problem>' (no line for a table): a unit's
    field's line, else its [[unit]] header's, else the line of a key before the first table."""

    def __init__(self, name, lines, top):
        self.name, self.lines, self.top = name, lines, top

    def __call__(self, key, problem, unit=None, field=None):
        line = self.top.get(key, 0)
        if unit is not None and unit < len(self.lines):
            start, keys = self.lines[unit]
            line = keys.get(field, start)
        where = f"line {line}: " if line else ""
        raise OddsError(f"{self.name}: {where}{key}: {problem}")


def _int(refuse, key, value, low, high, unit=None, field=None):
    if isinstance(value, bool) or not isinstance(value, int):
        refuse(key, f"{shown(value)} is not a whole number", unit, field)
    if not low <= value <= high:
        refuse(key, f"{value} is out of range (allowed: {low} to {high})", unit, field)
    return value


def _choice(refuse, key, value, allowed, unit=None, field=None):
    if value not in allowed:
        refuse(key, f"{shown(value)} is not allowed (allowed: {', '.join(allowed)})", unit, field)
    return value


def _bool(refuse, key, value, unit=None, field=None):
    if not isinstance(value, bool):
        refuse(key, f"{shown(value)} is not true or false", unit, field)
    return value


def _scenario(refuse, raw, name, folder) -> Scenario:
    """The scenario the position belongs to: a table (inline), a file beside the position, or
    a built-in example by name."""
    given = raw.get("scenario")
    if isinstance(given, dict):
        return load(given, name=f"{name}: scenario")
    examples = sorted(p.stem for p in EXAMPLES.glob("*.toml"))
    if not isinstance(given, str) or not given:
        refuse("scenario", f"{shown(given)}: give the scenario's file, a built-in example "
               f"({', '.join(examples)}) or a [scenario] table")
    if folder is not None and (Path(folder) / given).is_file():
        return load(str(Path(folder) / given))
    if given in examples:
        return load(str(EXAMPLES / f"{given}.toml"))
    refuse("scenario", f"{given!r} is neither a file beside the position nor a built-in "
           f"example (allowed: {', '.join(examples)}, or a [scenario] table)")


def _validate(raw, name, text, folder) -> Position:
    lines = tuple(table_lines(text, "unit")) if text else ()
    refuse = _Refuse(name, lines, _top_lines(text))
    for key in raw:
        if key not in POSITION_KEYS:
            refuse(key, f"unknown key (allowed: {', '.join(POSITION_KEYS)})")
    sc = _scenario(refuse, raw, name, folder)
    turn = _int(refuse, "turn", raw.get("turn", 1), 1, sc.settings["turn_limit"] + 1)  # past
    # the limit: the battle is over, undecided
    to_move = SIDES.index(_choice(refuse, "to_move", raw.get("to_move", "attacker"), SIDES))
    first = _first(refuse, raw, sc)
    siege_turn = _int(refuse, "siege_turn", raw.get("siege_turn", sc.siege["turn"]), 1, 100)
    units = raw.get("unit", [])
    if not isinstance(units, list) or not all(isinstance(u, dict) for u in units):
        refuse("unit", "expected [[unit]] tables")
    if len(units) > S.MAX_UNITS:
        refuse("unit", f"{len(units)} units on the board (allowed: at most {S.MAX_UNITS} take part)")
    start = np.zeros((S.NFU + 1, S.MAX_UNITS), np.int64)
    for j, unit in enumerate(units):
        _unit(refuse, sc, j, unit, start)
    start[S.NFU, :4] = len(units), turn, to_move, first
    _stream(refuse, raw.get("stream"), start)
    _possible(refuse, sc, start)
    counts = np.zeros_like(sc.counts)
    for j in range(len(units)):
        counts[start[S.USIDE, j], start[S.UTYPE, j]] += 1
    here = replace(sc, counts=counts, siege={**sc.siege, "turn": siege_turn})
    return Position(name, str(raw.get("title", sc.title)), here, start, turn, to_move, first,
                    siege_turn, _gone(refuse, raw.get("gone", {}), sc), tuple(u[0] for u in lines),
                    text, _int(refuse, "battles", raw.get("battles", sc.battles), 1, 10**9),
                    _int(refuse, "seed", raw.get("seed", sc.seed), 0, 2**63 - 1))


def _top_lines(text: str) -> dict:
    """{key: its line} of the keys written before the first table header."""
    out = {}
    for number, row in enumerate(text.splitlines(), 1):
        if row.lstrip().startswith("["):
            break
        m = re.match(r"\s*([A-Za-z_][\w-]*)\s*=", row)
        if m and m[1] not in out:
            out[m[1]] = number
    return out


def _first(refuse, raw, sc) -> int:
    """Who moves first in each round: the position's `first_player`, else the rules'."""
    if "first_player" in raw:
        return SIDES.index(_choice(refuse, "first_player", raw["first_player"], SIDES))
    if sc.settings["first_player"] == "random":
        refuse("first_player", "missing: the rules draw who moves first (first_player = "
               "random); say who did (attacker or defender)")
    return SIDES.index(sc.settings["first_player"])


def _unit(refuse, sc, j, unit, start):
    """Unit j of the file into start[:, j], its fields checked one by one."""
    for key in unit:
        if key not in UNIT_KEYS:
            refuse(f"unit {j + 1}", f"{key}: unknown key (allowed: {', '.join(UNIT_KEYS)})", j, key)
    for key in ("side", "type", "cell", "health"):
        if key not in unit:
            refuse(f"unit {j + 1}", f"{key}: missing (every unit has a side, type, cell and health)", j)
    what = f"unit {j + 1} ({shown(unit['side'])} {shown(unit['type'])})"
    s = SIDES.index(_choice(refuse, f"{what}: side", unit["side"], SIDES, j, "side"))
    k = sc.type_names.index(_choice(refuse, f"{what}: type", unit["type"], sc.type_names, j, "type"))
    what = f"unit {j + 1} ({SIDES[s]} {sc.type_names[k]})"
    cell = unit["cell"]
    h, w = sc.terrain.shape
    if not isinstance(cell, list) or len(cell) != 2:
        refuse(f"{what}: cell", f"{shown(cell)} is not [x, y]", j, "cell")
    x = _int(refuse, f"{what}: cell x", cell[0], 0, w - 1, j, "cell")
    y = _int(refuse, f"{what}: cell y", cell[1], 0, h - 1, j, "cell")
    top = int(sc.types[S.THEALTH, k])
    health = unit["health"]
    if isinstance(health, int) and not isinstance(health, bool) and health > top:
        refuse(f"{what}: health", f"{health} is above the {sc.type_names[k]}' health {top} "
               "(a unit never has more health than its type)", j, "health")
    _int(refuse, f"{what}: health", health, 1, top, j, "health")
    state = _choice(refuse, f"{what}: state", unit.get("state", "active"), STATES, j, "state")
    fleeing = state == "fleeing"
    facing = _choice(refuse, f"{what}: facing", unit.get(
        "facing", FACINGS[1] if fleeing else FACINGS[0]), FACINGS, j, "facing")
    U = start
    U[S.UX, j], U[S.UY, j], U[S.UHP, j], U[S.USIDE, j], U[S.UTYPE, j] = x, y, health, s, k
    U[S.UST, j] = S.FLEEING if fleeing else S.ACTIVE
    U[S.UDMG, j] = _int(refuse, f"{what}: damage_this_turn", unit.get("damage_this_turn", 0),
                        0, 100, j, "damage_this_turn")
    U[S.UREAR, j] = _bool(refuse, f"{what}: rear_attacked", unit.get("rear_attacked", False),
                          j, "rear_attacked")
    U[S.UFIRST, j] = 0 if _bool(refuse, f"{what}: first_attack_spent",
                                unit.get("first_attack_spent", False), j, "first_attack_spent") else 1
    U[S.UFACE, j] = (1 if s == 0 else -1) * (1 if facing == "enemy-edge" else -1)


def _stream(refuse, stream, start):
    """The random stream a stopped battle goes on with (four 64-bit words, '0x...'), if given."""
    if stream is None:
        return
    words = []
    if isinstance(stream, list) and len(stream) == 4:
        for word in stream:
            try:
                words.append(int(word, 16) if isinstance(word, str) and word.startswith("0x") else -1)
            except ValueError:
                words.append(-1)
    if len(words) != 4 or not all(0 <= v < 2**64 for v in words):
        refuse("stream", f"{shown(stream)} is not four 64-bit words written '0x...' (odds writes "
               "them when it saves a stopped battle)")
    start[S.NFU, 4] = 1
    start[S.NFU, 5:9] = np.array(words, np.uint64).view(np.int64)


def _gone(refuse, gone, sc) -> dict:
    """[gone.SIDE]: the units no longer on the board, killed, fled or captured, per type."""
    if not isinstance(gone, dict):
        refuse("gone", "expected [gone.attacker] and [gone.defender] tables")
    out = {}
    for side, table in gone.items():
        _choice(refuse, f"gone.{side}", side, SIDES)
        if not isinstance(table, dict):
            refuse(f"gone.{side}", f"expected a table of {', '.join(GONE)}")
        for cat, types in table.items():
            _choice(refuse, f"gone.{side}.{cat}", cat, GONE)
            if not isinstance(types, dict):
                refuse(f"gone.{side}.{cat}", "expected a table of TYPE = count")
            for t, count in types.items():
                _choice(refuse, f"gone.{side}.{cat}.{t}", t, sc.type_names)
                _int(refuse, f"gone.{side}.{cat}.{t}", count, 0, 100)
            out.setdefault(side, {})[cat] = dict(types)
    return out


def _possible(refuse, sc, start):
    """Refuse what cannot happen: two units on a cell, a unit on a wall it cannot climb, a
    mounted unit inside walls its deployment rows do not reach, a fleeing unit hit by the
    enemy this turn (it would have surrendered)."""
    n = int(start[S.NFU, 0])
    U, T, ter = start, sc.types, sc.terrain
    reach = [_reach(sc, s) for s in range(2)]
    held = {}
    for j in range(n):
        k, x, y = U[S.UTYPE, j], U[S.UX, j], U[S.UY, j]
        what = f"unit {j + 1} ({SIDES[U[S.USIDE, j]]} {sc.type_names[k]} at [{x}, {y}])"
        if (x, y) in held:
            refuse(what, f"the cell holds unit {held[(x, y)] + 1} too (one unit a cell)", j, "cell")
        held[(x, y)] = j
        if ter[y, x] == S.WALL and not T[S.TCLIMB, k]:
            refuse(what, f"stands on a wall{' or closed gate' if sc.settings['gates'] == 'closed' else ''}"
                   f" it cannot climb ({'mounted units' if T[S.TMOUNTED, k] else 'this type'} "
                   "cannot climb walls)", j, "cell")
        if T[S.TMOUNTED, k] and (x, y) not in reach[U[S.USIDE, j]]:
            refuse(what, "a mounted unit inside walls: no way from its side's deployment rows "
                   "leads here without climbing a wall (mounted units cannot climb walls)", j, "cell")
        if U[S.UST, j] == S.FLEEING and (U[S.UDMG, j] or U[S.UREAR, j]):
            refuse(what, "fleeing, yet hit by the enemy this turn: an enemy's hit makes a fleeing "
                   "unit surrender (captured: list it under [gone])", j, "damage_this_turn")


def _reach(sc, side) -> set:
    """The cells a unit that cannot climb walls reaches from its side's deployment rows."""
    h, w = sc.terrain.shape
    seen = {(x, y) for y in sc.rows[side] for x in range(w) if sc.terrain[y, x] != S.WALL}
    queue = deque(seen)
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and sc.terrain[ny, nx] != S.WALL:
                seen.add((nx, ny))
                queue.append((nx, ny))
    return seen

