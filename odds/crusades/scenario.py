"""Crusades scenarios: a TOML file (read with tomllib), validated into a `Scenario`.

Every problem raises OddsError naming the file, the key and what is wrong. Every open rule
of docs/rules_crusades.md is a setting under ``[rules]`` with the default in `SETTINGS`; ``--set
KEY=VALUE`` overrides any key before validation (``rules.`` may be left out for a setting).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import OddsError, check_list, check_nesting, nearest, shown
from ..files import parse_toml, read_text, toml_value
from ..i18n import _
from .simulator import state as S

# name: (default, allowed: tuple of choices | (low, high) for ints | bool, what it means)
SETTINGS = {
    "morale_damage_threshold": (3, (0, 100),
                                "a unit tests morale after taking MORE than this damage in one enemy turn (another text of the rules says 2)"),
    "morale_reading": ("flee-above", ("flee-above", "hold-at-least"),
                       "flee-above: flees on a d6 greater than morale; hold-at-least: morale is the lowest roll that holds"),
    "turn_limit": (20, (1, 200), "rounds (both sides move) before the battle ends undecided"),
    "first_player": ("attacker", ("attacker", "defender", "random"), "who moves first"),
    "line_of_fire": ("bresenham", ("bresenham", "none"),
                     "bresenham: friendly units on the Bresenham line of a shot take its damage (not when shooting cavalry); none: no friendly fire"),
    "retaliation": (False, bool, "a unit attacked in melee that survives strikes back at once"),
    "facing": ("enemy-edge", ("enemy-edge", "none"),
               "enemy-edge: units face the enemy edge (fleeing units their own), an attack from the cell behind is a rear attack; none: no rear attacks"),
    "attacks_per_turn": (0, (0, 10), "shots plus melee attacks a unit may make in its turn, each costing one action point; 0: no limit (one text of the rules: once per action point)"),
    "fled_return": ("half-down", ("half-down", "half-up"), "half of the fled units of each type return, rounded down or up"),
    "tie_break": ("random", ("random", "first"), "AI ties: a seeded random pick or the first candidate"),
    "range_metric": ("manhattan", ("manhattan", "chebyshev"), "distance for shooting range"),
    "wall_climb_cost": (1, (1, 10), "action points a climbing unit spends to step onto a wall cell from off the wall"),
    "gates": ("closed", ("closed", "open"), "gate cells ('g' on the board): closed = wall; open = open ground anyone may cross, no wall bonus"),
    "flee_breaks_melee": (True, bool, "a unit that flees leaves a melee (false: it cannot move while an active enemy is adjacent)"),
    "shoot_into_melee": (True, bool, "a unit may shoot an enemy that is in melee with its own side (false: not while an own unit is adjacent to the target)"),
    "sortie_morale_penalty": (True, bool, "the garrison's -1 morale from the siege's second turn applies in its sorties too"),
    "shoot_out_of_city": (True, bool, "units in the city interior may shoot at units on open ground, which cannot shoot back at them (false: the wall blocks both ways)"),
}
# what `sensitivity` flips an integer setting to (choices and booleans flip to every other value)
INT_ALTERNATIVES = {"morale_damage_threshold": (2,), "turn_limit": (15,), "attacks_per_turn": (1,),
                    "wall_climb_cost": (2,)}

SCENARIO_KEYS = ("title", "illustrative", "battles", "seed", "units", "attacker", "defender", "board",
                 "siege", "rules")
POLICIES = ("advance", "hold-walls", "hold-line")  # add a name here and its branch in kernel.choose (ai.py)
SIDES = ("attacker", "defender")
SIEGE_ACTIONS = ("wait", "sortie", "assault")
UNIT_LIMITS = {"health": (1, 100), "attack": (0, 50), "speed": (0, 10), "morale": (0, 7),
               "range": (1, 20), "upkeep": (0, 100)}
UNIT_FLAGS = ("mounted", "climbs_walls", "first_attack_bonus", "ranged", "spares_friends")
MAX_UPKEEP_LOST = 5000
MAX_UNIT_TYPES = 32
MAX_SCENARIO_BYTES = 1 << 18


@dataclass(frozen=True)
class Scenario:
    """A validated scenario; arrays are what the kernel reads."""

    path: str
    title: str
    type_names: tuple
    types: np.ndarray  # T[field, type]
    counts: np.ndarray  # counts[side, type] as written
    policies: tuple  # (attacker, defender)
    terrain: np.ndarray  # terrain[y, x]
    rows: tuple  # deployment rows per side
    hq: tuple  # ((x, y), (x, y))
    siege: dict
    settings: dict
    battles: int
    seed: int
    illustrative: bool
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def width(self):
        return self.terrain.shape[1]

    @property
    def height(self):
        return self.terrain.shape[0]

    def engaged(self) -> np.ndarray:
        """Units per side and type that take part (the 20-unit cap, largest remainder)."""
        out = np.zeros_like(self.counts)
        S.cap_counts(self.counts, out, S.MAX_UNITS)
        return out


def load(source, overrides=(), name=None) -> Scenario:
    """Read a scenario from a TOML path (or a dict), apply ``KEY=VALUE`` overrides, validate.
    `name` is what error messages call it (default: the path, or '<scenario>')."""
    if isinstance(source, dict):
        name = name or "<scenario>"
        raw = _copy(check_nesting(name, source))
    elif isinstance(source, (str, os.PathLike)):
        name = str(source)
        raw = parse_toml(read_text(source, "scenario", MAX_SCENARIO_BYTES), name)
    else:
        raise OddsError(f"scenario: {source!r} is not a TOML file path or a table")
    for item in _override_items(overrides, name):
        _apply(raw, *item)
    return _validate(raw, name)


def settings_text() -> str:
    """Every rule setting: its default, the values allowed, what it means (docs/rules_crusades.md)."""
    lines = [_("rule settings (scenario [rules] table, or --set KEY=VALUE):")]
    for key, (default, allowed, meaning) in SETTINGS.items():
        values = ("true, false" if allowed is bool else _("{low} to {high}").format(
            low=allowed[0], high=allowed[1]) if isinstance(allowed[0], int) else ", ".join(allowed))
        text = str(default).lower() if isinstance(default, bool) else default
        lines.append(f"  {key} = {text}  " + _("(allowed: {values})").format(values=values)
                     + f"\n      {_(meaning)}")  # the meanings: scripts/catalog.py
    return "\n".join(lines)


def _copy(d):
    return {k: _copy(v) if isinstance(v, dict) else v for k, v in d.items()}


def _override_items(overrides, name):
    items = overrides.items() if isinstance(overrides, dict) else check_list(name, overrides)
    for item in items:
        if isinstance(item, str):
            if "=" not in item:
                raise OddsError(f"{name}: --set {item!r}: expected KEY=VALUE")
            key, text = item.split("=", 1)
            key = key.strip()
            yield key, toml_value(text.strip(), f"{name}: --set {key}")
        elif isinstance(item, tuple) and len(item) == 2:  # (key, value) from Python
            yield item[0], check_nesting(f"{name}: --set {item[0]}", item[1])
        else:
            raise OddsError(f"{name}: --set {shown(item)}: expected KEY=VALUE")


def _apply(raw, key, value):
    if key in SETTINGS:
        key = "rules." + key
    parts = key.split(".")
    if parts[0] not in SCENARIO_KEYS:
        raise OddsError(f"--set {key}: unknown key (rule settings: {', '.join(SETTINGS)}; "
                        f"scenario keys: {', '.join(SCENARIO_KEYS)})")
    node = raw
    for p in parts[:-1]:
        node = node.setdefault(p, {})
        if not isinstance(node, dict):
            raise OddsError(f"--set {key}: {p!r} is not a table")
    node[parts[-1]] = value


class _Checker:
    """Raises OddsError as '<file>: <key>: <problem>'."""

    def __init__(self, name):
        self.name = name

    def fail(self, key, problem):
        raise OddsError(f"{self.name}: {key}: {problem}")

    def int(self, key, value, low, high):
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"{shown(value)} is not a whole number")
        if not low <= value <= high:
            self.fail(key, f"{value} is out of range (allowed: {low} to {high})")
        return value

    def bool(self, key, value):
        if not isinstance(value, bool):
            self.fail(key, f"{shown(value)} is not true or false")
        return value

    def choice(self, key, value, allowed):
        if value not in allowed:
            self.fail(key, f"{shown(value)} is not allowed (allowed: {', '.join(allowed)})")
        return value

    def table(self, key, value):
        if not isinstance(value, dict):
            self.fail(key, "expected a table")
        return value

    def unknown(self, prefix, table, known):
        for k in table:
            if k not in known:
                self.fail(f"{prefix}{k}", f"unknown key (allowed: {', '.join(known)})")


def _validate(raw, name) -> Scenario:
    c = _Checker(name)
    c.unknown("", raw, SCENARIO_KEYS)
    type_names, types = _units(c, c.table("units", raw.get("units", {})))
    counts = np.zeros((2, len(type_names)), np.int64)
    policies = []
    for s, side in enumerate(SIDES):
        table = c.table(side, raw.get(side, {}))
        c.unknown(f"{side}.", table, ("army", "policy"))
        army = c.table(f"{side}.army", table.get("army", {}))
        for t, n in army.items():
            if t not in type_names:
                c.fail(f"{side}.army.{t}", f"unknown unit type (known: {', '.join(type_names)})"
                       f"{nearest(t, type_names)}")
            counts[s, type_names.index(t)] = c.int(f"{side}.army.{t}", n, 0, 100)
        if counts[s].sum() == 0:
            c.fail(f"{side}.army", "the army has no units")
        policies.append(c.choice(f"{side}.policy", table.get("policy", "advance"), POLICIES))
    settings = _settings(c, c.table("rules", raw.get("rules", {})))
    terrain, rows, hq = _board(c, c.table("board", raw.get("board", {})), settings["gates"])
    siege = _siege(c, c.table("siege", raw.get("siege", {})))
    sc = Scenario(name, str(raw.get("title", Path(name).stem)), tuple(type_names), types, counts,
                  tuple(policies), terrain, rows, hq, siege, settings,
                  c.int("battles", raw.get("battles", 20000), 1, 10**9),
                  c.int("seed", raw.get("seed", 0), 0, 2**63 - 1),
                  c.bool("illustrative", raw.get("illustrative", False)), raw)
    _check_fits(c, sc)
    upkeep = int((sc.counts * types[S.TUPKEEP][None, :]).sum(axis=1).max())
    if upkeep > MAX_UPKEEP_LOST:
        c.fail("units", f"an army's total upkeep {upkeep} is above {MAX_UPKEEP_LOST}")
    return sc


def _units(c, units):
    if not units:
        c.fail("units", "no unit types defined")
    if len(units) > MAX_UNIT_TYPES:
        c.fail("units", f"{len(units)} unit types (allowed: at most {MAX_UNIT_TYPES})")
    names, columns = [], []
    for tname, spec in units.items():
        spec = c.table(f"units.{tname}", spec)
        c.unknown(f"units.{tname}.", spec, tuple(UNIT_LIMITS) + UNIT_FLAGS)
        col = np.zeros(S.NFT, np.int64)
        for key, (low, high) in UNIT_LIMITS.items():
            if key not in spec:
                c.fail(f"units.{tname}.{key}", "missing")
            col[S.TYPE_FIELDS.index(key)] = c.int(f"units.{tname}.{key}", spec[key], low, high)
        mounted = c.bool(f"units.{tname}.mounted", spec.get("mounted", False))
        col[S.TMOUNTED] = mounted
        col[S.TCLIMB] = c.bool(f"units.{tname}.climbs_walls", spec.get("climbs_walls", not mounted))
        if mounted and col[S.TCLIMB]:
            c.fail(f"units.{tname}.climbs_walls", "mounted units cannot climb walls (the rules)")
        col[S.TBONUS] = c.bool(f"units.{tname}.first_attack_bonus", spec.get("first_attack_bonus", False))
        col[S.TRANGED] = c.bool(f"units.{tname}.ranged", spec.get("ranged", spec["range"] > 1))
        col[S.TSPARES] = c.bool(f"units.{tname}.spares_friends", spec.get("spares_friends", False))
        if col[S.TRANGED] and col[S.TRANGE] < 2:
            c.fail(f"units.{tname}.range", "a ranged unit needs range 2 or more")
        names.append(tname)
        columns.append(col)
    return names, np.stack(columns, axis=1)


def _board(c, board, gates):
    c.unknown("board.", board, ("width", "height", "terrain", "attacker_rows", "defender_rows",
                                "attacker_hq", "defender_hq"))
    w = c.int("board.width", board.get("width", 12), 1, 32)
    h = c.int("board.height", board.get("height", 10), 4, 32)
    lines = board.get("terrain", ["." * w] * h)
    if not isinstance(lines, list) or len(lines) != h:
        c.fail("board.terrain", f"expected a list of {h} rows (one per board row, row 0 first)")
    terrain = np.zeros((h, w), np.int64)
    for y, line in enumerate(lines):
        if not isinstance(line, str) or len(line) != w:
            c.fail(f"board.terrain[{y}]", f"{line!r} is not a row of {w} characters")
        for x, ch in enumerate(line):
            if ch not in S.TERRAIN_CHARS:
                c.fail(f"board.terrain[{y}]", f"{ch!r} at column {x} is not a terrain "
                       "('.' open, '#' wall, 'c' city interior, 'g' gate)")
            code = S.TERRAIN_CHARS[ch]
            terrain[y, x] = code if code is not None else S.WALL if gates == "closed" else S.OPEN
    rows = []
    for side, default in (("attacker", [0, 1]), ("defender", [h - 2, h - 1])):
        key = f"{side}_rows"
        r = board.get(key, default)
        if not isinstance(r, list) or not r:
            c.fail(f"board.{key}", "expected a list of row numbers")
        rows.append(tuple(c.int(f"board.{key}", y, 0, h - 1) for y in r))
    hq = []
    for side, default in (("attacker", [w // 2, 0]), ("defender", [w - 1 - w // 2, h - 1])):
        key = f"board.{side}_hq"
        xy = board.get(f"{side}_hq", default)
        if not isinstance(xy, list) or len(xy) != 2:
            c.fail(key, f"{xy!r} is not [x, y]")
        x, y = c.int(key, xy[0], 0, w - 1), c.int(key, xy[1], 0, h - 1)
        if terrain[y, x] == S.WALL:
            c.fail(key, f"[{x}, {y}] is a wall cell")
        hq.append((x, y))
    if hq[0] == hq[1]:
        c.fail("board.defender_hq", "both headquarters are on the same cell")
    return terrain, tuple(rows), tuple(hq)


def _settings(c, rules):
    c.unknown("rules.", rules, tuple(SETTINGS))
    out = {}
    for key, (default, allowed, _meaning) in SETTINGS.items():
        value = rules.get(key, default)
        if allowed is bool:
            out[key] = c.bool(f"rules.{key}", value)
        elif isinstance(allowed[0], int):
            out[key] = c.int(f"rules.{key}", value, *allowed)
        else:
            out[key] = c.choice(f"rules.{key}", value, allowed)
    return out


def _siege(c, siege):
    c.unknown("siege.", siege, ("on", "turn", "port", "besieged", "plan", "capitulate_after"))
    plan = siege.get("plan", ["assault"])
    if not isinstance(plan, list) or not plan or len(plan) > 20:
        c.fail("siege.plan", "expected a list of 1 to 20 actions (wait, sortie, assault)")
    for i, a in enumerate(plan):
        c.choice(f"siege.plan[{i}]", a, SIEGE_ACTIONS)
    return {"on": c.bool("siege.on", siege.get("on", False)),
            "turn": c.int("siege.turn", siege.get("turn", 1), 1, 100),
            "port": c.bool("siege.port", siege.get("port", False)),
            "besieged": c.choice("siege.besieged", siege.get("besieged", "defender"), SIDES),
            "plan": tuple(plan),
            "capitulate_after": c.int("siege.capitulate_after", siege.get("capitulate_after", 2), 1, 100)}


def deployment_cells(sc: Scenario) -> np.ndarray:
    """cells[side, 0 foot / 1 mounted, k]: deployment cells (y*w+x) in order of use, -1 padded.

    Front row first, then outward from the centre; the defender's order is the attacker's
    rotated half a turn (mirror scenarios deploy as mirrors). Mounted units never stand on a
    wall. Under `hold-walls` foot units take wall cells first and mounted units the back rows.
    """
    h, w = sc.terrain.shape
    cells = -np.ones((2, 2, h * w), np.int64)
    for s in range(2):
        front = (lambda y: -y) if s == 0 else (lambda y: y)
        flip = (lambda x: x) if s == 0 else (lambda x: -x)
        walls = sc.policies[s] == "hold-walls"
        pool = [(x, y) for y in sorted(set(sc.rows[s])) for x in range(w)]
        for m in range(2):
            ok = [(x, y) for x, y in pool if not (m and sc.terrain[y, x] == S.WALL)]

            def key(xy):
                x, y = xy
                first = (sc.terrain[y, x] != S.WALL) if walls and not m else 0
                f = -front(y) if walls and m else front(y)
                return (first, f, abs(2 * x - (w - 1)), flip(x))
            order = sorted(ok, key=key)
            cells[s, m, :len(order)] = [y * w + x for x, y in order]
    return cells


def type_order(sc: Scenario) -> np.ndarray:
    """order[side, :]: the order types deploy in (and so unit indices and move order).

    Melee foot, then mounted, then ranged (behind); under `hold-walls` ranged first (to the
    walls), then foot, then mounted (reserve).
    """
    T = sc.types
    out = np.zeros((2, T.shape[1]), np.int64)
    for s in range(2):
        if sc.policies[s] == "hold-walls":
            rank = lambda k: (0 if T[S.TRANGED, k] else 2 if T[S.TMOUNTED, k] else 1, k)
        else:
            rank = lambda k: (2 if T[S.TRANGED, k] else 1 if T[S.TMOUNTED, k] else 0, k)
        out[s] = sorted(range(T.shape[1]), key=rank)
    return out


def _check_fits(c, sc: Scenario):
    engaged = sc.engaged()
    cells = deployment_cells(sc)
    for s, side in enumerate(SIDES):
        room = int((cells[s, 0] >= 0).sum())
        room_m = int((cells[s, 1] >= 0).sum())
        n = int(engaged[s].sum())
        mounted = int(engaged[s][sc.types[S.TMOUNTED] == 1].sum())
        if n > room:
            c.fail(f"{side}.army", f"{n} units take part but board.{side}_rows {list(sc.rows[s])} "
                   f"hold only {room} cells")
        if mounted > room_m:
            c.fail(f"{side}.army", f"{mounted} mounted units take part but board.{side}_rows "
                   f"have only {room_m} cells that are not walls")
