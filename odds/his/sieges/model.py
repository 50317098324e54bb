"""The siege model both siege engines share (sieges/procedure.py: the chain; sieges/timing.py: one held
Siege Artillery): the plan of both sides' cards, a later assault's forces, the outcome
summary and result, and how large an exact chain can get (`reach`, for the cost estimates).

A siege's state before an assault is (attacking infantry, cavalry, defending infantry,
cavalry) at the roll, with the Siege Artillery copy in hand or not; see sieges/procedure.py.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...core.outcomes import Words
from ...core.result import Result
from ...errors import OddsError
from ..assaults.procedure import check_seed_cards, restless_breaks
from ...i18n import N_, _, decimal, percent
from ..cards import Side, parse, play
from ..field.procedure import HIT_ON, hit_numbers, setup

FIRST_ONLY = ("mercenaries-grow-restless", "mercenaries-bribed")

WORDS = Words("Captured", (("captured", "siege_broken", "still_besieged"),))  # both engines' (procedure.py, timing.py)


@dataclass(frozen=True)
class Plan:
    """Both sides' card setup for the first assault and for each later one."""

    sides: tuple  # ((attacker, defender) at the first assault, (attacker, defender) templates later)
    add: tuple  # units the every-assault cards add to (attacker, defender) before each later assault
    artillery: object  # the Siege Artillery AfterRoll entry, or None
    artillery_every: bool
    breaks: bool = False  # Mercenaries Grow Restless broke the siege before the first assault

    def start(self):
        """The state before the first assault: (infantry, cavalry each side, artillery in hand)."""
        a0, d0 = self.sides[0]
        return (a0.units - a0.cavalry, a0.cavalry, d0.units - d0.cavalry, d0.cavalry,
                int(self.artillery is not None))


def plan(att, dfn, every_a, every_d, leader, allowed, hit_on=(HIT_ON, HIT_ON)) -> Plan:
    """Apply first-assault + every-assault cards to the forces, every-assault cards to templates;
    `hit_on`: the (attacker's, defender's) hit number of every assault (the rule: 5, 5-6)."""
    for side, power, specs in (("attacker", att.power, every_a), ("defender", dfn.power, every_d)):
        check_seed_cards(f"{side}_fresh_cards", specs, allowed)
        for spec in specs:
            name = parse(spec, f"{side}_fresh_cards")[0].name
            if name in FIRST_ONLY or (name == "landsknechts" and power == "ottoman"):
                raise OddsError(_("{side}_fresh_cards: {name} depends on the mercenaries present and can "
                                  "be given for the first assault only").format(side=side, name=repr(name)))
    a0, d0 = setup(replace(att, cards=att.cards + tuple(every_a)),
                   replace(dfn, cards=dfn.cards + tuple(every_d)), "assault", allowed)
    ta = Side("attacker", att.power, 0, 0, 0, dice=leader)
    td = Side("defender", dfn.power, 0, 0, 0, dice=dfn.leader + 1)
    play("assault", ta, td, every_a, every_d, allowed)
    for sides in ((a0, d0), (ta, td)):
        hit_numbers(*sides, *hit_on)
    breaks = restless_breaks(a0, d0, dfn.cards)
    artillery = a0.after[0] if a0.after else None
    return Plan(((a0, d0), (ta, td)), (ta.units, td.units), artillery, bool(ta.after), breaks)


def at(template, infantry, cavalry, after=()):
    """A later assault's Side from its template: these units, no mercenaries, these after-roll
    cards."""
    return replace(template, units=infantry + cavalry, cavalry=cavalry, mercenaries=0,
                   after=list(after))


def max_losses(p: Plan, assaults):
    a0 = p.sides[0][0]
    return a0.units + (assaults - 1) * p.add[0]


def summarise(joint):
    """Probabilities, the pmf of the assault the space falls at (0: not within K), losses."""
    by_end = joint.sum(axis=(1, 2))
    at = joint[0].sum(axis=1)
    captured_at = np.concatenate([[by_end[1] + by_end[2]], at])
    probabilities = {"captured": by_end[0], "siege_broken": by_end[1], "still_besieged": by_end[2]}
    return probabilities, {"captured_at": captured_at, "attacker_losses": joint.sum(axis=(0, 1))}


@dataclass(frozen=True)
class SiegeResult(Result):
    """A Result that also reports `captured_by`: k -> P(captured at or before assault k), and,
    with a held Siege Artillery, the timings side by side and the optimal rule (exact)."""

    timings: tuple = ()  # rows: timing, captured, card_kept, expected_attacker_losses
    rule: tuple = ()  # rows: assault, then per situation play / keep / depends

    ZERO = {"captured_at": N_("not within K")}

    @property
    def captured_by(self) -> dict:
        return {k: float(v) for k, v in enumerate(np.cumsum(self.pmfs["captured_at"][1:]), 1)}

    def to_json(self) -> dict:
        out = super().to_json()
        out["captured_by"] = {str(k): v for k, v in self.captured_by.items()}
        if self.timings:
            out["timings"] = list(self.timings)
            out["optimal_rule"] = list(self.rule)
        return out

    def _summary(self, width: int) -> str:
        lines = [super()._summary(width), "  " + _("captured by assault k:")]
        lines += [f"    {k:>3}  {percent(v, 2):>8}" for k, v in self.captured_by.items()]
        if self.timings:
            lines.append("  " + _("held Siege Artillery, each timing (exact):"))
            head = [_("timing"), _("P(captured)"), _("P(card kept)"), _("expected losses")]
            w = [max(12, len(head[0])), *(max(n, len(h)) for n, h in zip((11, 12, 15), head[1:]))]
            lines.append(f"    {head[0]:<{w[0]}} {head[1]:>{w[1]}} {head[2]:>{w[2]}} {head[3]:>{w[3]}}")
            lines += [f"    {r['timing']:<{w[0]}} {percent(r['captured'], 2):>{w[1]}} "
                      f"{percent(r['card_kept'], 2):>{w[2]}} "
                      f"{decimal(r['expected_attacker_losses'], 2):>{w[3]}}" for r in self.timings]
            names = [n for n in self.rule[0] if n != "assault"]
            lines.append("  " + _("optimal rule: play the copy only where that raises P(captured within "
                                  "K); keep it otherwise (ties keep it). By assault and roll (play / keep "
                                  "/ depends on the forces left, told in the advice): assault | ")
                         + " | ".join(_(n) for n in names))
            lines += [f"    {r['assault']:>3} | " + " | ".join(_(r[n]) for n in names)
                      for r in self.rule]
        return "\n".join(lines)


@dataclass(frozen=True)
class Reach:
    """Upper bounds on what an exact siege chain visits, per assault k (0-based): `states[k]`
    the states before it (forces, and the held copy in hand or not), `rows[k]` the dice
    outcomes of one assault from a state of average size; `distinct` the states of all
    assaults together."""

    states: np.ndarray
    rows: np.ndarray
    distinct: float

    @property
    def pairs(self) -> float:
        """(assault, state) pairs."""
        return float(self.states.sum())

    @property
    def mean_rows(self) -> float:
        """Dice outcomes per state, averaged over the (assault, state) pairs."""
        return float(self.states @ self.rows) / max(self.pairs, 1.0)


def _above(x_lo, x_hi, y_lo, y_hi):
    """How many pairs x in [x_lo, x_hi], y in [y_lo, y_hi] have x > y (arrays)."""
    n_below = np.clip(np.minimum(y_hi, x_lo - 1) - y_lo + 1, 0, None)  # y < x_lo: every x
    top, bottom = np.minimum(y_hi, x_hi - 1), np.maximum(y_lo, x_lo)  # then x_hi - y of them
    m = np.clip(top - bottom + 1, 0, None)
    return n_below * np.clip(x_hi - x_lo + 1, 0, None) + m * x_hi - m * (top + bottom) / 2


def reach(p: Plan, assaults: int, cavalry_first: bool, held: bool, start=None) -> Reach:
    """The bounds of `Reach` for a siege of `p` (`start`: other forces (ai, ac, di, dc) at
    the first roll, with the plan's cards). Each assault a side loses at most the hits the
    other can roll (all its dice, the card's included); survivors go on only while the
    attackers outnumber the defenders; a side's infantry/cavalry split follows from its
    units unless infantry die first while every-assault cards add units."""
    ai, ac, di, dc = p.start()[:4] if start is None else start
    k = np.arange(assaults)
    card = 2 if p.artillery is not None else 0
    bonus = [[a.dice - a.penalty for a, _ in p.sides], [d.dice - d.penalty for _, d in p.sides]]
    units0, cavalry0 = (ai + ac, di + dc), (ac, dc)
    top = [u + (assaults - 1) * add for u, add in zip(units0, p.add)]
    hits = (-(-top[0] // 2) + max(bonus[0]) + card, top[1] + max(bonus[1]))  # by a, by d
    lo, hi = [], []
    for side in (0, 1):
        low = [units0[side]]
        for _ in range(assaults - 1):
            low.append(max(0, low[-1] - hits[1 - side]) + p.add[side])
        lo.append(np.array(low, float))
        hi.append(units0[side] + k * p.add[side] * 1.0)
    split = []  # (infantry, cavalry) splits per units count, per assault
    for side in (0, 1):
        span = hi[side] - lo[side] + 1
        c, add = cavalry0[side], p.add[side]
        # infantry dying first, cavalry falls only once no infantry is left: below its first
        # count, at most the infantry added since (k assaults x `add`) stand beside it
        split.append(1 + c * np.minimum(span, k * add + 1) / span if not cavalry_first and add
                     else np.ones(assaults))
    states = np.ones(assaults)
    survivors = [(np.maximum(lo[s][:-1] - hits[1 - s], 0), hi[s][:-1]) for s in (0, 1)]
    states[1:] = _above(*survivors[0], *survivors[1]) * (split[0] * split[1] * (1 + held))[1:]
    mean = [(lo[s] + hi[s]) / 2 for s in (0, 1)]
    phase = np.minimum(k, 1)
    rows = ((np.ceil(mean[0] / 2) + np.take(bonus[0], phase) + 1)
            * (mean[1] + np.take(bonus[1], phase) + 1) * (1 + card))
    ends = [(min(low, default=0), max(high, default=0)) for low, high in survivors]
    box = _above(*ends[0], *ends[1])  # the survivors of any assault, one range per side
    distinct = 1 + min(float(states[1:].sum()), box * split[0][-1] * split[1][-1] * (1 + held))
    return Reach(states, np.maximum(rows, 1), distinct)
