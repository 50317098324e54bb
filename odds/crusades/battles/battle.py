"""The public battle functions: `run` (Monte Carlo over battles), `play` (one battle, seeded or
with scripted dice), `sensitivity`, and the histogram summary both use.

The outcome histogram ``hist[row, value]`` (see kernel.py) holds one count per battle in every
row; `summarise` is linear in it, so it turns counts or probabilities into the Result.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...core.engine import McOptions, Procedure
from ...core.outcomes import Words
from ...i18n import N_, _, decimal
from ...core.flips import text
from ...core.readings import Reading, Sensitivity, settle, sensitivity as flipped
from ...core.result import Result
from ...errors import OddsError, check_bool, check_choice, check_int
from ...registry import Example, Param, Spec, register
from ...texts import signed
from ..simulator import state as S
from .inputs import kernel_args, scenario_of
from .results import BattleResult, settings_of, with_warnings
from .runner import simulate
from ..scenario import INT_ALTERNATIVES, SETTINGS, SIDES, Scenario, _override_items
from .siege_turns import siege
from .. import EXAMPLES

ROWS_HEAD = 8


def shape(sc: Scenario):
    K = sc.counts.shape[1]
    upkeep = (sc.counts * sc.types[S.TUPKEEP][None, :]).sum(axis=1).max()
    width = max(len(S.OUTCOMES), sc.settings["turn_limit"] + 1, int(sc.counts.sum(axis=1).max()) + 1,
                int(upkeep) + 1)
    return (ROWS_HEAD + 2 * K * S.N_CAT, width)


def summarise(hist, sc: Scenario, check=False):
    """(probabilities, pmfs) from the histogram (linear: counts or probabilities)."""
    o = hist[0]
    p = {"attacker_win": o[0] + o[1], "defender_win": o[2] + o[3], "undecided": o[4] + o[5],
         "ended_by_rout": o[0] + o[2] + o[5], "ended_by_headquarters": o[1] + o[3],
         "ended_by_turn_limit": o[4], "attacker_moved_first": hist[2, 0]}
    if check:
        p["invariant_violations"] = hist[3, 1]
    totals = sc.counts.sum(axis=1)
    upkeep = (sc.counts * sc.types[S.TUPKEEP][None, :]).sum(axis=1)
    pmfs = {"decision_round": hist[1, :sc.settings["turn_limit"] + 1]}
    for s, side in enumerate(SIDES):
        pmfs[f"{side}_units_lost"] = hist[4 + s, :totals[s] + 1]
        pmfs[f"{side}_upkeep_lost"] = hist[6 + s, :upkeep[s] + 1]
    K = len(sc.type_names)
    for s, side in enumerate(SIDES):
        for k, name in enumerate(sc.type_names):
            if sc.counts[s, k]:
                for c, cat in enumerate(S.CATEGORIES):
                    pmfs[f"{side}_{name}_{cat}"] = hist[ROWS_HEAD + (s * K + k) * S.N_CAT + c,
                                                        :sc.counts[s, k] + 1]
    return p, pmfs


def lanchester(sc: Scenario) -> str:
    """Lanchester square-law estimate from the engaged units: strength = (mean attack / enemy
    mean health) x N^2; the stronger side wins with N*sqrt(1 - weaker/stronger) left."""
    eng = sc.engaged().astype(float)
    T = sc.types
    n = eng.sum(axis=1)
    if not n.all():  # a position (positions/) with a side that has no unit left
        return "Lanchester square-law estimate: none (a side has no unit on the board)"
    att = (eng * T[S.TATTACK]).sum(axis=1) / n
    hp = (eng * T[S.THEALTH]).sum(axis=1) / n
    strength = np.array([att[0] / hp[1] * n[0] ** 2, att[1] / hp[0] * n[1] ** 2])
    if strength[0] == strength[1]:
        return _("Lanchester square-law estimate: an even fight")
    w = int(strength[1] > strength[0])
    left = n[w] * math.sqrt(1 - strength[1 - w] / strength[w])
    return (_("Lanchester square-law estimate: attacker wins with about {left} of {n} units left "
              "(ignores morale, terrain and movement)") if w == 0 else
            _("Lanchester square-law estimate: defender wins with about {left} of {n} units left "
              "(ignores morale, terrain and movement)")).format(left=decimal(left, 1), n=int(n[w]))


KERNEL = ("odds.crusades.simulator.kernel", "kernel")  # loaded by kernel_cache: its cache follows ai.py too

WORDS = Words(partitions=(("attacker_win", "defender_win", "undecided"),),
              within={"ended_by_turn_limit": ("undecided",)})


def procedure(sc: Scenario, check=False, name="crusades.battle", start=None, summary=None,
              settings=None) -> Procedure:
    """The Procedure of battles on `sc` (from a position's `start` record if given, positions/),
    summarised by `summary` (default `summarise`), with the scenario's settings or `settings`."""
    return Procedure(name, shape(sc), summary or (lambda h: summarise(h, sc, check)),
                     "attacker_win", None, KERNEL, lambda: kernel_args(sc, check, start=start),
                     settings or settings_of(sc), BattleResult, words=WORDS)


def run(scenario, *, battles=None, seed=None, overrides=(), dice=None, method="auto",
        threads=None, precision=None, progress=None, check=False) -> Result:
    """Odds of a crusades tactical battle (docs/rules_crusades.md) by simulating `battles` battles.

    `scenario` is a TOML path, a dict or a Scenario; `overrides` are ``KEY=VALUE`` strings (or
    a dict) applied before validation (`--set`). `battles`/`seed` default to the scenario's.
    `dice` plays ONE battle with these morale dice (scripted mode). Returns P(attacker_win,
    defender_win, undecided), how battles ended, the round of decision, and per side and unit
    type the pmfs of units survived/killed/fled/captured/returned, units and upkeep lost.
    There is no exact engine: method 'auto' means Monte Carlo.
    """
    sc = scenario_of(scenario, overrides)
    if dice is not None:
        return play(sc, dice=dice, seed=sc.seed if seed is None else seed).result
    mc = McOptions.make(sc.battles if battles is None else battles,
                        sc.seed if seed is None else seed, precision, 10**9, threads, progress)
    res = with_warnings(_wrap(simulate(procedure(sc, check), method, mc), sc))
    return settle(SPEC, battle, res, {"scenario": sc}, {"scenario": sc, "overrides": ()}, {}, set())


def battle(scenario, *, overrides=(), method="auto", trials=None, seed=None, precision=None,
           threads=None, progress=None, **settings) -> Result:
    """`run` with every rule setting of SETTINGS as a keyword (for sweeps and the calculator).

    `trials` is the number of battles; `overrides` (``KEY=VALUE`` strings or a dict) can still
    change anything else in the scenario, e.g. ``{"attacker.army.knights": 4}``.
    """
    for key, value in settings.items():
        if key not in SETTINGS:
            raise OddsError(f"{key}: not a rule setting (allowed: {', '.join(SETTINGS)})")
        _check_setting(key, value)  # named as the keyword given, not as the file's key
    merged = dict(_override_items(overrides, "overrides"))
    merged.update(settings)
    return run(scenario, battles=trials, seed=seed, overrides=merged, method=method,
               threads=threads, precision=precision, progress=progress)


def _check_setting(key: str, value):
    """A rule setting given as a keyword, within SETTINGS' values (one line naming it)."""
    allowed = SETTINGS[key][1]
    if allowed is bool:
        check_bool(key, value)
    elif isinstance(allowed[0], str):
        check_choice(key, value, allowed)
    else:
        check_int(key, value, *allowed)


battle.__signature__ = inspect.Signature(
    [p for p in inspect.signature(battle).parameters.values() if p.kind != p.VAR_KEYWORD]
    + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=v[0]) for k, v in SETTINGS.items()])


ASSUMPTIONS = (N_("the unit statistics are the scenario's, and every rule setting is a reading where "
                  "the rules are silent or contradict themselves (docs/rules_crusades.md)"),)


def _wrap(res: Result, sc: Scenario, notes=()):
    """The Result with its notes (the Lanchester estimate) and the assumptions it rests on."""
    assumed = tuple(_(a) for a in ASSUMPTIONS)
    if sc.illustrative:
        assumed += (_("the unit numbers of this scenario are illustrative"),)
    return res.with_changes(notes=tuple(res.notes) + tuple(notes) + (lanchester(sc),),
                            assumptions=tuple(res.assumptions) + assumed)


def brief(res: Result) -> str:
    """The answer in a few lines: the outcomes' probabilities (sensitivity: each setting's change)."""
    what = "sieges" if res.procedure == "crusades.siege" else "battles"
    how = f"Monte Carlo, {res.trials:,} {what}, seed {res.seed}{', PARTIAL' if res.partial else ''}"
    if res.procedure == "crusades.sensitivity":
        lines = [f"P(attacker wins) {res.p:.1%} with the scenario's settings ({how}); each "
                 "setting flipped (95% intervals from the runs' paired differences):"]
        lines += [f"  {r['label']}: {signed(r['change'], '.1%')}" + (
            f" (95% interval {signed(r['change_low'], '.1%')} to {signed(r['change_high'], '.1%')})"
            if r.get("change_low") is not None else "") for r in res.rows if r.get("p") is not None]
        return "\n".join(lines)
    keys = [k for k in ("attacker_win", "defender_win", "undecided") if k in res.probabilities] \
        or list(res.probabilities)
    text = ", ".join(f"{k.replace('_', ' ')} {res[k]:.1%}" for k in keys)
    low, high = res.interval(res.p)  # Wilson's 95%, honest at a few battles
    lines = [f"{text} ({res.main.replace('_', ' ')}: 95% interval {low:.1%} to {high:.1%}; {how})"]
    if "attacker_units_lost" in res.pmfs:
        lines.append("mean units lost: " + ", ".join(
            f"{side} {res.expected(f'{side}_units_lost'):.1f}" for side in SIDES))
    return "\n".join(lines)


@dataclass(frozen=True)
class Battle:
    """One battle played out: how it ended, the units at the end, and its Result."""

    outcome: str
    round: int
    first: str
    invariants_ok: bool
    units: list  # dicts: side, type, x, y, health, state
    tally: dict  # (side, type) -> {category: count}
    hist: np.ndarray
    result: Result


def script(dice) -> np.ndarray:
    """The scripted morale dice as the kernel's array (empty: dice from the seed)."""
    if dice is None:
        return np.zeros(0, np.int64)
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= d <= 6:
            raise OddsError(f"dice: {d!r} is not a d6 roll (allowed: 1 to 6)")
    if not dice:
        raise OddsError("dice: empty script (give at least one roll, 1 to 6)")
    return np.array(dice, np.int64)


def one_battle(sc: Scenario, dice, seed, index, check=True, events=0, start=None, stop=None,
               progress=None):
    """Run battle `index` of `seed` (morale dice from the array `dice` if it is not empty),
    from deployment or a position's `start` (positions/), stopped after round `stop` if given:
    its histogram row, final units (kernel `final`) and trace events (kernel `note`); a first
    compile is announced (`progress`: as kernel_cache.compile_note takes it)."""
    from ...core.kernel_cache import call, compile_note, load

    kernel = load(*KERNEL)
    out = np.zeros((1,) + shape(sc), np.int64)
    args = kernel_args(sc, check, dice, S.MAX_UNITS, events=events, start=start)
    if stop is not None:
        args.ground.cfg[S.C_TURNS] = min(stop, sc.settings["turn_limit"])
    with compile_note(kernel, progress):
        call(kernel, *args, np.uint64(seed), int(index), np.ones(1, np.int64), out, 0)
    if args.final[S.NFU, 0] == S.OUT_OF_DICE:
        raise OddsError(f"dice: the script {dice.tolist()} ran out before the battle ended "
                        "(give more rolls)")
    return out[0], args.final, args.log


def play(scenario, *, dice=None, seed=0, index=0, overrides=(), check=True) -> Battle:
    """Play battle `index` of `seed`, or one battle whose morale dice are `dice` (scripted).

    Scripted dice are used in order for every morale test (and, with first_player='random',
    one die first: 1-3 the attacker moves first). Running out raises OddsError.
    """
    sc = scenario_of(scenario, overrides)
    dice = None if dice is None else list(dice)
    hist, final, _ = one_battle(sc, script(dice), seed, index, check)
    code, rnd, first, ok, n = final[S.NFU, :5]
    U = final[:S.NFU, :n]
    units = [{"side": SIDES[U[S.USIDE, j]], "type": sc.type_names[U[S.UTYPE, j]],
              "x": int(U[S.UX, j]), "y": int(U[S.UY, j]), "health": int(U[S.UHP, j]),
              "state": S.STATE_NAMES[U[S.UST, j]]} for j in range(n)]
    K = len(sc.type_names)
    tally = {(SIDES[s], name): {cat: int(np.argmax(hist[ROWS_HEAD + (s * K + k) * S.N_CAT + c]))
                                for c, cat in enumerate(S.CATEGORIES)}
             for s in range(2) for k, name in enumerate(sc.type_names) if sc.counts[s, k]}
    probabilities, pmfs = summarise(hist, sc, check)
    note = f"scripted dice {dice}" if dice is not None else f"battle {index} of seed {seed}"
    result = _wrap(BattleResult("crusades.battle", "mc", probabilities, {k: np.asarray(v, float) for k, v in pmfs.items()},
                          "attacker_win", trials=1, seed=seed, settings=settings_of(sc),
                          notes=(note,), words=WORDS), sc)
    return Battle(S.OUTCOMES[code], int(rnd), SIDES[first], bool(ok), units, tally, hist, result)


def sensitivity(scenario, *, battles=None, seed=None, overrides=(), threads=None,
                progress=None, alternatives=None) -> Result:
    """Flip each rule setting (docs/rules_crusades.md) one at a time: P(attacker wins) and each
    side's mean units lost under each, against the scenario's settings (core.readings).

    Probabilities are keyed 'base' and 'SETTING=VALUE', rows ordered by effect; every run uses
    the same seed (common random numbers). `alternatives`: more rows, label -> overrides (a
    designer's variant, e.g. {"turn_limit=12": {"turn_limit": 12}}). A run that is interrupted
    (Ctrl-C, a caller's stop test) ends the sweep of settings: the Result is partial and holds
    the settings completed (and the base, partial if it was the one interrupted).
    """
    sc = scenario_of(scenario, overrides)
    extra = {label: {"overrides": dict(_override_items(changes, "alternative"))}
             for label, changes in (alternatives or {}).items()}
    res = flipped(SPEC, {"scenario": sc}, extra,
                  dict(trials=battles, seed=seed, threads=threads, progress=progress),
                  name="crusades.sensitivity", kind=SensitivityResult, base_settings=settings_of(sc))
    return with_warnings(res)


@dataclass(frozen=True)
class SensitivityResult(Sensitivity, BattleResult):
    """A crusades sensitivity: its JSON strict and with the battles run per setting."""


def _rules_given(call: dict) -> set:
    """The settings the call's scenario file or overrides set (theirs, not a reading)."""
    try:
        sc = _scenario(call["scenario"], tuple(_override_items(call.get("overrides") or (), "overrides")))
    except OddsError:
        return set()
    return set((sc.raw.get("rules") or {}).keys())


@lru_cache(maxsize=16)
def _loaded(path: str, modified: int) -> Scenario:
    return scenario_of(path)


def _scenario(scenario, overrides: tuple) -> Scenario:
    """The call's scenario (a file read once while it is unchanged)."""
    if isinstance(scenario, (str, Path)) and not overrides and Path(scenario).is_file():
        return _loaded(str(scenario), Path(scenario).stat().st_mtime_ns)
    return scenario_of(scenario, list(overrides))


# the settings that matter only where the scenario has something: (what, whether it has it)
MATTERS = {
    "wall_climb_cost": ("wall cells", lambda sc: bool((sc.terrain == S.WALL).any())),
    "gates": ("gate cells", lambda sc: any("g" in row for row in (sc.raw.get("board") or {}).get("terrain", []))),
    "shoot_out_of_city": ("city cells", lambda sc: bool((sc.terrain == S.CITY).any())),
    "sortie_morale_penalty": ("siege", lambda sc: bool(sc.siege.get("on"))),
}


def _reading(key: str) -> Reading:
    """A rule setting as a reading: flipped to `_alternatives` from the scenario's value; a
    setting of MATTERS not flipped where the scenario lacks what it acts on (no effect)."""
    def points(call):
        try:
            sc = _scenario(call["scenario"], tuple(_override_items(call.get("overrides") or (), "overrides")))
        except OddsError:
            return []
        if key in MATTERS and not MATTERS[key][1](sc):
            return []
        return [(f"{key}={text(v)}", {key: v}) for v in _alternatives(sc, key)]

    return Reading(key, key.replace("_", " "), SETTINGS[key][0],
                   f"docs/rules_crusades.md, Readings and assumptions: {SETTINGS[key][2]}",
                   alternatives=_listed(key), points=points,
                   none=f"no effect here: the scenario has no {MATTERS[key][0]}" if key in MATTERS else "",
                   tried=", ".join(text(v) for v in _listed(key)) + " (from the default)",
                   given_by=lambda call, given: key in given or key in _rules_given(call))


def _listed(key: str) -> tuple:
    """The values a setting is flipped to from its default (docs)."""
    default, allowed = SETTINGS[key][0], SETTINGS[key][1]
    if allowed is bool:
        return (not default,)
    if isinstance(allowed[0], int):
        return tuple(v for v in INT_ALTERNATIVES.get(key, ()) if v != default)
    return tuple(v for v in allowed if v != default)


def _alternatives(sc: Scenario, key: str) -> list:
    """The values a sensitivity run tries for setting `key` instead of the scenario's."""
    current, allowed = sc.settings[key], SETTINGS[key][1]
    if allowed is bool:
        return [not current]
    if isinstance(allowed[0], int):
        return [v for v in INT_ALTERNATIVES.get(key, ()) if v != current]
    return [v for v in allowed if v != current]


def _setting_param(key: str) -> Param:
    """A rule setting of SETTINGS as a procedure keyword."""
    default, allowed, text = SETTINGS[key]
    if allowed is bool:
        return Param(key, "bool", text)
    if isinstance(allowed[0], str):
        return Param(key, "choice", text, choices=allowed)
    return Param(key, "int", text, low=allowed[0], high=allowed[1])




def _warm():
    """Compile the kernel's siege and single-battle modes and those from a position (a run of
    battles compiles only its own): one short siege, one `play`, one battle stopped after its
    first round and played on from there once and a hundred times."""
    sc = scenario_of(EXAMPLES / "assault.toml")
    siege(sc, sieges=100, seed=0, progress=False)
    play(sc)
    _, final, _ = one_battle(sc, script(None), 0, 0, stop=1)
    start = final.copy()  # its units, and the header of a position's start record
    start[S.NFU, :5] = final[S.NFU, 4], 2, final[S.NFU, 2], final[S.NFU, 2], 0
    one_battle(sc, script(None), 0, 0, start=start)
    simulate(procedure(sc, start=start), "mc", McOptions.make(100, 0, None, 10**9, None, False))

SPEC = register(Spec(
    "crusades.battle", battle, (
        Param("scenario", "scenario", "a scenario TOML file (units, armies, board, siege, settings)",
              metavar="SCENARIO.toml", folder=EXAMPLES),
        Param("overrides", "pairs", "override a scenario key, e.g. attacker.army.knights=4",
              metavar="KEY=VALUE"),
        *(_setting_param(key) for key in SETTINGS)),
    "crusades tactical battle on a grid", (), "attacker_win", kernels=("odds.crusades.simulator.kernel",),
    words=WORDS, not_rolled="a simulated battle of many rolls a turn, with no exact engine to "
                            "score a roll against", web_max_trials=5_000,  # battles per web request (~2 s on one core)
    exact=False, start={"scenario": str(EXAMPLES / "field.toml"), "trials": 2000}, warm=_warm,
    readings=tuple(_reading(key) for key in SETTINGS), means=("attacker_units_lost", "defender_units_lost"),
    examples=(
        Example("assault", {"scenario": str(EXAMPLES / "assault.toml")},
                "Crusades: assault on a walled city (illustrative units)", demo=True,
                mc={"trials": 20000}),
        Example("field", {"scenario": str(EXAMPLES / "field.toml")}),
        Example("sortie", {"scenario": str(EXAMPLES / "sortie.toml")}),
    )))
