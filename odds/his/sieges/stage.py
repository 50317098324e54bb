"""A siege as a stage of a composed procedure (his.attack): the one module of sieges/ that a
composition imports (pyproject.toml, contract "attacks-use-stages").

A stage siege has at most one Siege Artillery, held under a timing (sieges/timing.py), the
attacker's first-assault cards and no defender card. It starts from forces at its first roll,
``start = (attacking infantry, cavalry, defending infantry, cavalry, defending leader)``, under
`Terms`. Its joint is sieges/timing.py's ``[end, k, attacker losses, defender losses, card
kept]`` (end 0 captured, 1 siege broken, 2 still besieged after assault k, 0-based; losses in
units over the siege); exact joints hold probabilities, Monte Carlo ones counts. Exact joints
are kept in JOINTS (bounded: queries and a card's placements share most of their sieges).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...config import MAX_EXACT_WORK
from ...i18n import _
from ...core import montecarlo
from ...core.engine import Cost, checkpoint, memory_budget
from ...core.lru import LRU
from ...errors import OddsError
from ..field.procedure import HIT_ON, setup
from ..forces import Force
from .advice import field_or_siege
from .model import plan
from .procedure import MAX_ASSAULTS, siege
from .timing import (HELD_POLICIES, Chain, check_optimal, cost as chain_cost, decider,
                     exact_joint, held, optimal_table)

__all__ = ("HELD_POLICIES", "JOINTS", "KERNELS", "MAX_ASSAULTS", "Siege", "Terms", "check_optimal",
           "cost", "field_or_siege", "first_assault", "joint", "siege")

SIEGE_JOINTS_KEPT = 1024  # exact stage sieges' joints kept for later queries (< 50 KB each)
JOINTS = LRU(SIEGE_JOINTS_KEPT)  # by (Terms, start): everything a joint depends on
KERNEL = "odds.his.sieges.timing_kernel"
KERNELS = (KERNEL,)  # the kernel modules `Siege.counts` runs


@dataclass(frozen=True)
class Terms:
    """Everything a stage siege depends on besides its start."""

    leader: int  # the attacker's leader rating
    attacker_power: str
    defender_power: str
    cards: tuple  # the attacker's first-assault cards (first_assault's), held copy included
    timing: str | None  # the held Siege Artillery's timing; None: no held copy
    assaults: int  # at most K assaults
    cavalry_first: bool  # the casualty order of both sides
    hit_on: tuple = (HIT_ON, HIT_ON)  # (attacker's, defender's) hit number of every assault


def first_assault(cards, attacker_power: str, defender_power: str, field="siege_cards"):
    """(cards for the siege's plan, the held copy's timing or None, units they add to the first
    assault, e.g. Landsknechts 2 or 4) of the attacker's siege cards; legality checked as the
    attacker's in an assault, refusals naming `field`."""
    cards, timing = held(cards, field)
    try:
        a, _ = setup(Force.make("attacker", 1, 0, 0, 0, attacker_power, cards, procedure="assault"),
                     Force.make("defender", 1, power=defender_power, procedure="assault"),
                     "assault")
    except OddsError as e:
        raise OddsError(str(e).replace("attacker_cards", field)) from None
    return cards, timing, a.units - 1


class Siege:
    """The stage siege from `start` under `terms`: its joint's `shape`, its cost, its Monte
    Carlo counts (the kernel's arguments made once, at the first run)."""

    def __init__(self, terms: Terms, start: tuple):
        ai, ac, di, dc, defender_leader = start
        att = Force.make("attacker", ai + ac, 0, ac, terms.leader, terms.attacker_power,
                         terms.cards, min_units=1, procedure="assault")
        dfn = Force.make("defender", di + dc, 0, dc, defender_leader, terms.defender_power, (),
                         procedure="assault")
        self.terms, self.start = terms, start
        self.chain = Chain(plan(att, dfn, (), (), att.leader, None, terms.hit_on),
                           terms.assaults, terms.cavalry_first, terms.timing is not None)
        self.shape = self.chain.shape
        self._args = None

    def cost(self, forces=None) -> Cost:
        """The exact joint's cost (timing.cost: one pass, and the dynamic programme under
        `optimal`) from this start, or from other `forces` (ai, ac, di, dc) with its cards."""
        return chain_cost(self.chain, 1, self.terms.timing == "optimal", forces)

    def joint(self) -> np.ndarray:
        """The exact joint (probabilities), solved now (`joint(terms, start)`: the kept one)."""
        checkpoint()
        return exact_joint(self.chain, decider(self.chain, self.terms.timing or "first"))

    def counts(self, n: int, seed: int, threads, progress) -> montecarlo.Run:
        """`n` sieges on this folder's held-siege kernel, from `seed`: a montecarlo.Run whose
        hist holds a count per siege in the cells of `shape` (int64; partial when a Ctrl-C or
        the caller's stop test cut it)."""
        from ...core.kernel_cache import load

        if self._args is None:
            timing = self.terms.timing or "first"
            table = optimal_table(self.chain)[0] if timing == "optimal" else {}
            self._args = load(KERNEL, "kernel_args")(self.chain, timing, table)
        return montecarlo.run(load(KERNEL, "held_lane"), self._args, self.shape, n, seed,
                              threads=threads, progress=progress)


def joint(terms: Terms, start: tuple) -> np.ndarray:
    """The exact joint of the stage siege from `start` under `terms` (probabilities; read-only),
    kept in JOINTS."""
    key = (terms, start)
    kept = JOINTS.get(key)
    if kept is None:
        kept = Siege(terms, start).joint()
        kept.setflags(write=False)
        JOINTS.put(key, kept)
    return kept


def cost(terms: Terms, starts: set) -> Cost:
    """The cost of solving the stage sieges from every one of `starts` exactly and keeping their
    joints (JOINTS): the largest siege's times their number, summed per start when that bound
    is too high."""
    if not starts:
        return Cost(0, 0, "no siege")
    largest = Siege(terms, max(starts, key=lambda s: (s[0] + s[1], s[2] + s[3], s[4])))
    kept = min(len(starts), SIEGE_JOINTS_KEPT) * np.prod(largest.shape) * 8
    one = largest.cost()
    work = one.work * len(starts)
    if work > MAX_EXACT_WORK or one.bytes + kept > memory_budget():
        work = sum(largest.cost(s[:4]).work for s in starts)
    return Cost(work, one.bytes + kept, _("{n:,} sieges, the largest {what}").format(
        n=len(starts), what=one.what), _("fewer units or assaults"))
