"""The odds of a battle in play (`position_odds`), one battle played on from it (`play_on`),
and the moderator's three options (docs/rules_crusades.md "The moderator's ruling"): award
(who is ahead, by how much), auto-battle (the distribution it draws from), separate (the
losses each side would take if the battle were fought out)."""
from __future__ import annotations

import numpy as np

from ...core.engine import McOptions
from ...core.result import Result
from ...i18n import _, decimal, percent
from ..battles.battle import WORDS, _wrap, one_battle, procedure, script, summarise
from ..battles.results import BattleResult, settings_of
from ..battles.runner import simulate
from ..simulator import state as S
from ..scenario import SIDES
from .position import Position, load_position


def decided(pos: Position) -> str | None:
    """How a position is decided already, else None: an active unit stands on the enemy
    headquarters, a side has no active unit left (both: undecided, a mutual rout), or the
    turn is past the turn limit (undecided)."""
    U, W = pos.units, pos.scenario.width
    for j in range(pos.n):
        s = U[S.USIDE, j]
        x, y = pos.scenario.hq[1 - s]
        if U[S.UST, j] == S.ACTIVE and (U[S.UX, j], U[S.UY, j]) == (x, y):
            return S.OUTCOMES[1 if s == 0 else 3]
    active = [int(((U[S.UST] == S.ACTIVE) & (U[S.USIDE] == s)).sum()) for s in range(2)]
    if min(active) == 0:
        return S.OUTCOMES[5 if max(active) == 0 else 0 if active[1] == 0 else 2]
    return S.OUTCOMES[4] if pos.turn > pos.scenario.settings["turn_limit"] else None


def play_on(position, *, seed: int = 0, index: int = 0, events: int = 0, stream: bool = True,
            progress=None):
    """Battle `index` of `seed` played on from the position (with the position's own random
    stream when it has one and `stream`): (histogram row, final units, trace events); a first
    compile says so (`progress`, kernel_cache.compile_note)."""
    pos = load_position(position)
    start = pos.start.copy()
    if not stream:
        start[S.NFU, 4] = 0
    return one_battle(pos.scenario, script(None), seed, index, start=start, events=events,
                      progress=progress)


def _summarise(hist, pos: Position):
    """battle.summarise, and which headquarters fell."""
    p, pmfs = summarise(hist, pos.scenario)
    p["defender_headquarters_falls"], p["attacker_headquarters_falls"] = hist[0, 1], hist[0, 3]
    return p, pmfs


def position_odds(position, *, battles=None, seed=None, threads=None, progress=None,
                  precision=None) -> Result:
    """P(attacker wins, defender wins, undecided) from the position, each side's losses from
    here (per type), P(each headquarters falls), by `battles` battles played on from it (a
    position decided already: one, which is 100% at once); notes: the pending morale tests."""
    pos = load_position(position)
    sc = pos.scenario
    done = decided(pos)
    if done is not None:
        hist, _, _ = play_on(pos, stream=False)
        p, pmfs = _summarise(hist, pos)
        res = BattleResult("crusades.position", "exact", p, {k: np.asarray(v, float) for k, v in pmfs.items()},
                           "attacker_win", trials=0, settings=_settings(pos), words=WORDS,
                           notes=(f"decided already: {done.replace('_', ' ')}",))
        return _wrap(res, sc)
    mc = McOptions.make(pos.battles if battles is None else battles,
                        pos.seed if seed is None else seed, precision, 10**9, threads, progress)
    start = pos.start.copy()
    start[S.NFU, 4] = 0  # many battles: each its own stream, (seed, battle)
    proc = procedure(sc, name="crusades.position", start=start,
                     summary=lambda h: _summarise(h, pos), settings=_settings(pos))
    return _wrap(simulate(proc, "mc", mc), sc, morale_now(pos))


def _settings(pos: Position) -> dict:
    """What produced the numbers: the scenario's settings, and where the battle stands."""
    return {**settings_of(pos.scenario), "position": pos.title, "turn": pos.turn,
            "to_move": SIDES[pos.to_move]}


def morale_now(pos: Position) -> tuple:
    """The morale tests the side to move takes now (a d6, kernel.morale): one note a unit."""
    U, sc = pos.units, pos.scenario
    out = []
    for j, mod, flee in pending(pos):
        out.append(f"morale test now: {pos.name(j)} (took {U[S.UDMG, j]} damage"
                   f"{', attacked from the rear' if U[S.UREAR, j] else ''}; morale "
                   f"{sc.types[S.TMORALE, U[S.UTYPE, j]]}, modifier {mod:+d}): flees "
                   f"{flee:.1%} ({round(flee * 6)} of 6)")
    return tuple(out)


def pending(pos: Position) -> list:
    """(unit, modifier, P(flees)) of each unit of the side to move that tests morale now:
    damage above the threshold in the enemy's turn or a rear attack; -1 in melee, +1 for the
    defender on a wall, -1 for the besieged after the siege's first turn (kernel.morale)."""
    U, sc = pos.units, pos.scenario
    cells = {(U[S.UX, i], U[S.UY, i]): i for i in range(pos.n) if U[S.UST, i] <= S.FLEEING}
    out = []
    for j in range(pos.n):
        s = U[S.USIDE, j]
        if s != pos.to_move or U[S.UST, j] != S.ACTIVE or not (
                U[S.UDMG, j] > sc.settings["morale_damage_threshold"] or U[S.UREAR, j]):
            continue
        x, y = U[S.UX, j], U[S.UY, j]
        near = [cells.get(c) for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))]
        mod = -int(any(i is not None and U[S.USIDE, i] != s and U[S.UST, i] == S.ACTIVE for i in near))
        mod += int(s == 1 and sc.terrain[y, x] == S.WALL)
        mod -= int(sc.siege["on"] and SIDES.index(sc.siege["besieged"]) == s and pos.siege_turn > 1)
        morale = int(sc.types[S.TMORALE, U[S.UTYPE, j]])
        flees = sum(1 for r in range(1, 7) if (r > morale + mod if sc.settings["morale_reading"]
                                               == "flee-above" else r < morale - mod))
        out.append((j, mod, flees / 6))
    return out


def options(pos: Position, res: Result) -> dict:
    """The moderator's three options from the odds: award (who is ahead: P(win) each, the
    difference, the units and health each side has on the board), auto-battle (the outcomes an
    auto-battle draws from), separate (each side's expected losses from here, per type)."""
    sc, U = pos.scenario, pos.units
    on_board = {side: {"active": int(((U[S.USIDE] == s) & (U[S.UST] == S.ACTIVE)).sum()),
                       "fleeing": int(((U[S.USIDE] == s) & (U[S.UST] == S.FLEEING)).sum()),
                       "health": int(U[S.UHP][(U[S.USIDE] == s) & (U[S.UST] == S.ACTIVE)].sum())}
                for s, side in enumerate(SIDES)}
    p = {side: float(res[f"{side}_win"]) for side in SIDES}
    ahead = max(SIDES, key=lambda side: p[side]) if p["attacker"] != p["defender"] else None
    losses = {}
    for s, side in enumerate(SIDES):
        per_type = {}
        for k, name in enumerate(sc.type_names):
            if sc.counts[s, k]:
                per_type[name] = float(sc.counts[s, k] - res.expected(f"{side}_{name}_returned"))
        losses[side] = {"units": float(res.expected(f"{side}_units_lost")),
                        "upkeep": float(res.expected(f"{side}_upkeep_lost")), "per_type": per_type}
    return {"award": {"ahead": ahead, "by": abs(p["attacker"] - p["defender"]), "p_win": p,
                      "on_board": on_board},
            "auto_battle": {"attacker_win": p["attacker"], "defender_win": p["defender"],
                            "undecided": float(res["undecided"])},
            "separate": losses}


def options_text(pos: Position, res: Result) -> str:
    """`options` in a moderator's words, one block per option."""
    o = options(pos, res)
    award, auto, sep = o["award"], o["auto_battle"], o["separate"]
    board = "; ".join(_("{side} {active} active ({health} health), {fleeing} fleeing").format(
        side=_(side), active=b["active"], health=b["health"], fleeing=b["fleeing"])
        for side, b in award["on_board"].items())
    ahead = _("the {side} is ahead by {by} in P(win)").format(
        side=_(award["ahead"]), by=percent(award["by"], 1)) if award["ahead"] else _(
        "neither side is ahead")
    lines = [_("The moderator's three options") + ":",
             "  " + _("award: {ahead} (on the board: {board})").format(ahead=ahead, board=board),
             "  " + _("auto-battle: draws attacker wins {attacker}, defender wins {defender}, "
                      "undecided {undecided}").format(
                 attacker=percent(auto["attacker_win"], 1), defender=percent(auto["defender_win"], 1),
                 undecided=percent(auto["undecided"], 1)),
             "  " + _("separate: if fought out, expected losses from here:")]
    for side, loss in sep.items():
        kinds = ", ".join(f"{name} {decimal(v, 2)}" for name, v in loss["per_type"].items())
        lines.append(f"    {_(side)}: " + _("{units} units, {upkeep} upkeep ({kinds})").format(
            units=decimal(loss["units"], 2), upkeep=decimal(loss["upkeep"], 2), kinds=kinds))
    return "\n".join(lines)



def answer_json(pos: Position, res: Result) -> dict:
    """The odds from a position as JSON (the command line's --json and the web's): the
    Result's object, the moderator's options, the morale tests taken now and the board."""
    return {**res.to_json(), "options": options(pos, res),
            "morale_tests_now": [{"unit": pos.name(j), "modifier": mod, "p_flees": p}
                                 for j, mod, p in pending(pos) if decided(pos) is None],
            "board": board(pos)}


def board(pos: Position) -> dict:
    """The board as a picture needs it: terrain rows ('.' open, '#' wall, 'c' city), both
    headquarters, each unit (side, type, cell, health of its type's, state, P(flees now))."""
    sc, U = pos.scenario, pos.units
    chars = {S.OPEN: ".", S.WALL: "#", S.CITY: "c"}
    tests = {j: p for j, _, p in pending(pos)} if decided(pos) is None else {}
    return {"width": sc.width, "height": sc.height, "turn": pos.turn, "to_move": SIDES[pos.to_move],
            "title": pos.title, "terrain": ["".join(chars[v] for v in row) for row in sc.terrain.tolist()],
            "headquarters": {side: list(sc.hq[s]) for s, side in enumerate(SIDES)},
            "units": [{"side": SIDES[U[S.USIDE, j]], "type": sc.type_names[U[S.UTYPE, j]],
                       "x": int(U[S.UX, j]), "y": int(U[S.UY, j]), "health": int(U[S.UHP, j]),
                       "of": int(sc.types[S.THEALTH, U[S.UTYPE, j]]),
                       "state": S.STATE_NAMES[U[S.UST, j]], "p_flees_now": tests.get(j)}
                      for j in range(pos.n)]}
