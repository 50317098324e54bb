"""A scenario as the crusades kernel's arguments: named records, no numba.

`kernel_args` returns a `KernelArgs` (kernel.kernel's arguments before the runner's seed,
first chunk, chunk sizes, histograms and lane): the armies ``counts[side, type]``, the unit
types ``T[field, type]`` (state.py), the `Board` the battles are fought on, a siege's
`Siege` (its plan and the sortie's open `Board`) or None, scripted morale dice, and for one
battle the arrays its final units and trace events go to. What a mode does not use is None,
so numba compiles each mode without the others' code (kernel.kernel).
"""
from __future__ import annotations

from collections import deque, namedtuple

import numpy as np

from ..simulator import state as S
from ..scenario import POLICIES, SETTINGS, SIDES, Scenario, deployment_cells, load, type_order

# where and how one battle is fought: terrain[y, x], deployment cells[side, mounted, k],
# type order[side, k], headquarters cell[side], hqf[side, climbs, cell] steps to the enemy
# headquarters, cfg: the rule settings as integer codes (state.C_*)
Board = namedtuple("Board", ["terrain", "cells", "order", "hq", "hqf", "cfg"])
# a siege (siege_turns.py): one action per strategic turn from turn `start`; a city with a `port`
# (1) never capitulates, else it does at the end of turn `capitulate_after`
Siege = namedtuple("Siege", ["sortie", "plan", "start", "port", "capitulate_after"])
KernelArgs = namedtuple("KernelArgs", ["counts", "types", "ground", "siege", "dice", "checked",
                                       "final", "log", "base", "start"])


def scenario_of(scenario, overrides=()) -> Scenario:
    """A Scenario from a path, a dict or a Scenario, with `overrides` applied."""
    if isinstance(scenario, Scenario):
        return load(scenario.raw, overrides, scenario.path) if overrides else scenario
    return load(scenario, overrides)


def config(sc: Scenario) -> np.ndarray:
    """The settings as the kernel's integer codes (state.C_*)."""
    st = sc.settings
    code = lambda key: SETTINGS[key][1].index(st[key])
    cfg = np.zeros(S.NCFG, np.int64)
    cfg[S.C_THRESHOLD] = st["morale_damage_threshold"]
    cfg[S.C_READING] = code("morale_reading")
    cfg[S.C_TURNS] = st["turn_limit"]
    cfg[S.C_FIRST] = code("first_player")
    cfg[S.C_LOF] = code("line_of_fire")
    cfg[S.C_RETALIATION] = int(st["retaliation"])
    cfg[S.C_FACING] = code("facing")
    cfg[S.C_ATTACKS] = st["attacks_per_turn"]
    cfg[S.C_RETURN] = code("fled_return")
    cfg[S.C_TIE] = code("tie_break")
    cfg[S.C_METRIC] = code("range_metric")
    cfg[S.C_POLICY_A] = POLICIES.index(sc.policies[0])
    cfg[S.C_POLICY_D] = POLICIES.index(sc.policies[1])
    cfg[S.C_SIEGE_TURN] = sc.siege["turn"] if sc.siege["on"] else 1
    cfg[S.C_BESIEGED] = SIDES.index(sc.siege["besieged"]) if sc.siege["on"] else -1
    cfg[S.C_CLIMB] = st["wall_climb_cost"]
    cfg[S.C_FLEE_MELEE] = int(st["flee_breaks_melee"])
    cfg[S.C_SHOOT_MELEE] = int(st["shoot_into_melee"])
    cfg[S.C_SHOOT_OUT] = int(st["shoot_out_of_city"])
    return cfg


def _bfs(terrain, start, climb):
    h, w = terrain.shape
    out = np.full(h * w, 1 << 40, np.int64)
    out[start] = 0
    queue = deque([start])
    while queue:
        c = queue.popleft()
        x, y = c % w, c // w
        for nx, ny in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
            if 0 <= nx < w and 0 <= ny < h and out[ny * w + nx] > out[c] + 1 \
                    and (climb or terrain[ny, nx] != S.WALL):
                out[ny * w + nx] = out[c] + 1
                queue.append(ny * w + nx)
    return out


def board(sc: Scenario) -> Board:
    """The scenario's board and settings as the kernel reads them."""
    h, w = sc.terrain.shape
    hq = np.array([y * w + x for x, y in sc.hq], np.int64)
    hqf = np.stack([np.stack([_bfs(sc.terrain, hq[1 - s], climb) for climb in (1, 0)])
                    for s in range(2)])
    return Board(sc.terrain, deployment_cells(sc), type_order(sc), hq, hqf, config(sc))


def kernel_args(sc: Scenario, check=False, dice=None, final=0, siege=None, events=0,
                start=None) -> KernelArgs:
    """kernel.kernel's arguments for battles on this scenario's board, or a siege (`siege` =
    (sortie Scenario, plan, start, port, capitulate_after)), with `check`ed invariants, the
    scripted `dice`, `final` columns for one battle's units (0: a run, not one battle), room
    for `events` trace events, the run's first battle number (runner.simulate), and the
    `start` of battles played on from a position (positions/: None, from deployment)."""
    dice = np.zeros(0, np.int64) if dice is None else np.asarray(dice, np.int64)
    one = final > 0
    return KernelArgs(np.ascontiguousarray(sc.counts, np.int64), sc.types, board(sc),
                      None if siege is None else Siege(board(siege[0]), *siege[1:]), dice,
                      True if check else None,
                      np.zeros((S.NFU + 1, final), np.int64) if one else None,
                      np.zeros((events + 1, S.NEV), np.int64) if one else None,
                      np.zeros(1, np.int64), start)
