"""Positions from odds: one seeded battle stopped after round N, written as a position file
whose scenario is inline and whose random stream is the battle's where it stopped, so that
playing it on gives the very battle that was never stopped."""
from __future__ import annotations

import json
import re

import numpy as np

from ...errors import check_int
from ..battles.battle import one_battle, script
from ..battles.inputs import scenario_of
from ..simulator import state as S
from ..scenario import SIDES, Scenario
from .position import GONE

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def stopped(scenario, *, turn: int, seed: int = 0, index: int = 0, overrides=()) -> str:
    """The position file's text of battle `index` of `seed` stopped after round `turn` (1 to
    the turn limit less one); a battle decided sooner is written as it ended."""
    sc = scenario_of(scenario, overrides)
    turn = check_int("--stop-at-turn", turn, 1, sc.settings["turn_limit"] - 1)
    seed = check_int("seed", seed, 0, 2**63 - 1)
    _, final, _ = one_battle(sc, script(None), seed, index, stop=turn)
    code, rnd, first, _, n = (int(v) for v in final[S.NFU, :5])
    decided = code != 4
    head = [f"# {sc.title}: battle {index} of seed {seed}, "
            + (f"decided in round {rnd} ({S.OUTCOMES[code].replace('_', ' ')})" if decided
               else f"stopped after round {turn}"),
            f"title = {_value(sc.title)}",
            f"turn = {rnd + 1}",
            f"to_move = {_value(SIDES[first])}",
            f"first_player = {_value(SIDES[first])}"]
    if sc.siege["on"]:
        head.append(f"siege_turn = {sc.siege['turn']}")
    words = final[S.NFU, 5:9].astype(np.int64).view(np.uint64)
    head.append("stream = [" + ", ".join(f'"0x{int(w):016x}"' for w in words) + "]")
    return "\n".join(head + _gone(sc, final[:S.NFU, :n]) + _units(sc, final[:S.NFU, :n])
                     + ["", "# the scenario, whole: the position stands alone"]
                     + _table("scenario", sc.raw)) + "\n"


def _gone(sc: Scenario, U) -> list:
    """[gone.SIDE] tables: the units killed, fled (escaped) or captured so far."""
    state = {S.DEAD: "killed", S.ESCAPED: "fled", S.CAPTURED: "captured"}
    out = []
    for s, side in enumerate(SIDES):
        counts = {cat: {} for cat in GONE}
        for j in range(U.shape[1]):
            if U[S.USIDE, j] == s and U[S.UST, j] in state:
                name = sc.type_names[U[S.UTYPE, j]]
                table = counts[state[U[S.UST, j]]]
                table[name] = table.get(name, 0) + 1
        rows = [f"{cat} = {_value(types)}" for cat, types in counts.items() if types]
        if rows:
            out += ["", f"[gone.{side}]", *rows]
    return out


def _units(sc: Scenario, U) -> list:
    """A [[unit]] table per unit on the board, in move order."""
    out = []
    for j in range(U.shape[1]):
        if U[S.UST, j] > S.FLEEING:
            continue
        s = U[S.USIDE, j]
        ahead = U[S.UFACE, j] == (1 if s == 0 else -1)
        out += ["", "[[unit]]", f"side = {_value(SIDES[s])}",
                f"type = {_value(sc.type_names[U[S.UTYPE, j]])}",
                f"cell = [{U[S.UX, j]}, {U[S.UY, j]}]", f"health = {U[S.UHP, j]}",
                f"state = {_value(S.STATE_NAMES[U[S.UST, j]])}",
                f"facing = {_value('enemy-edge' if ahead else 'own-edge')}"]
        if U[S.UFIRST, j] == 0:
            out.append("first_attack_spent = true")
        if U[S.UDMG, j]:
            out.append(f"damage_this_turn = {U[S.UDMG, j]}")
        if U[S.UREAR, j]:
            out.append("rear_attacked = true")
    return out


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else json.dumps(key)


def _value(value) -> str:
    """A TOML value: a JSON string is a TOML basic string; tables inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    return "[" + ", ".join(_value(v) for v in value) + "]"


def _table(name: str, table: dict) -> list:
    """`table` as TOML under [name]: its values, then each sub-table under [name.key]."""
    out = [f"[{name}]"]
    out += [f"{_key(k)} = {_value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    for k, v in table.items():
        if isinstance(v, dict):
            out += ["", *_table(f"{name}.{_key(k)}", v)]
    return out
