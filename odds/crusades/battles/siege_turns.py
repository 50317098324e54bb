"""Sieges over strategic turns (docs/rules_crusades.md): the besieged may wait or sortie, the besieger
may assault; the garrison carries its losses from battle to battle.

The scenario is the assault: its board has the walls, the attacker is the besieger and the
defender the garrison (``siege.besieged = "defender"``). ``siege.plan`` lists one action per
strategic turn from ``siege.turn`` on:
- ``assault``: a battle on the scenario's board; the besieger winning it takes the city;
- ``sortie``: a field battle on an open board of the same size (garrison `advance` and moving
  first, besieger `hold-line`); the garrison winning it lifts the siege;
- ``wait``: nothing is fought.
After each battle both sides keep the units that returned (survivors and half the fled).
From the siege's second turn the garrison tests morale at -1. A city without a port
capitulates (garrison captured) at the end of turn ``capitulate_after`` (default 2: "after
two turns of siege") if it still holds. A garrison with no units left falls; a besieger with
none left is destroyed (the siege ends).

Outcomes: holds (through the plan), falls_by_assault, capitulates, lifted_by_sortie,
besieger_destroyed; for each a pmf of the strategic turn it happened on (0: it did not).
"""
from __future__ import annotations

import numpy as np

from ...core.engine import McOptions, Procedure
from ...errors import OddsError
from ...i18n import N_, _
from .inputs import kernel_args, scenario_of
from .results import BattleResult, settings_of, with_warnings
from .runner import simulate
from ..scenario import SIEGE_ACTIONS, load
from ..simulator.state import C_BESIEGED

ENDS = ("holds", "falls_by_assault", "capitulates", "lifted_by_sortie", "besieger_destroyed")


def sortie_scenario(sc):
    """The open-field board a sortie is fought on (same size and armies, no walls); the
    garrison is besieged there (its morale penalty) if the setting sortie_morale_penalty says so."""
    raw = {k: v for k, v in sc.raw.items() if k not in ("board", "attacker", "defender", "rules")}
    raw["siege"] = {**sc.raw.get("siege", {}), "on": sc.settings["sortie_morale_penalty"]}
    raw["board"] = {"width": sc.width, "height": sc.height}
    raw["attacker"] = {**sc.raw.get("attacker", {}), "policy": "hold-line"}
    raw["defender"] = {**sc.raw.get("defender", {}), "policy": "advance"}
    raw["rules"] = {**sc.raw.get("rules", {}), "first_player": "defender"}
    return load(raw, name=sc.path + " (sortie board)")


def summarise(hist):
    probabilities = {name: hist[e].sum() for e, name in enumerate(ENDS)}
    pmfs = {}
    for e, name in enumerate(ENDS):
        pmf = hist[e].copy()
        pmf[0] = hist.sum() - hist[e].sum() + hist[e, 0]
        pmfs[f"{name}_turn"] = pmf
    return probabilities, pmfs


def siege(scenario, *, sieges=None, seed=None, overrides=(), threads=None, precision=None,
          progress=None):
    """Simulate `sieges` sieges of the scenario's city following ``siege.plan``; a Result with
    P(holds, falls_by_assault, capitulates, lifted_by_sortie, besieger_destroyed) and when."""
    sc = scenario_of(scenario, overrides)
    if sc.siege["besieged"] != "defender":
        raise OddsError(f"{sc.path}: siege.besieged: a siege needs the defender besieged (the garrison)")
    field = sortie_scenario(sc)
    plan = np.array([SIEGE_ACTIONS.index(a) for a in sc.siege["plan"]], np.int64)
    mc = McOptions.make(sc.battles if sieges is None else sieges, sc.seed if seed is None else seed,
                        precision, 10**9, threads, progress)

    siege_args = (field, plan, sc.siege["turn"], int(sc.siege["port"]), sc.siege["capitulate_after"])

    def args():
        a = kernel_args(sc, siege=siege_args)
        a.ground.cfg[C_BESIEGED] = 1  # the garrison (the sortie's cfg says it: sortie_scenario)
        return a

    settings = settings_of(sc)
    settings.update(plan=list(sc.siege["plan"]), port=sc.siege["port"],
                    capitulate_after=sc.siege["capitulate_after"],
                    sortie=N_("garrison advance, moves first; besieger hold-line; open board"))
    proc = Procedure("crusades.siege", (len(ENDS), len(plan) + 1), summarise, "falls_by_assault",
                     None, ("odds.crusades.simulator.kernel", "kernel"), args, settings, BattleResult)
    res = simulate(proc, "mc", mc)
    notes = (_("the unit numbers of this scenario are illustrative"),) if sc.illustrative else ()
    return with_warnings(res.with_changes(notes=tuple(res.notes) + notes))
