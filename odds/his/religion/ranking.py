"""Rank my targets: the candidate spaces of an action's attempts by P(flip), and the choices that
maximise the expected spaces flipped when a flip adds dice to its neighbours (§18.3-18.4).

A target is `NAME=ATTACKER:DEFENDER[:out]`: each side's base dice (the neighbourhood's count,
before the minimum of 1 and the bonus dice) and `out` for a space outside the action's target
language zone. `links` (`A=B`) are the adjacencies among the targets that count (not across a
pass, neither in unrest): when A flips, B's attacker gains a die (an adjacent space of its
religion) and its defender loses one (an adjacent space no longer of theirs).

The best choices are a policy: the next target depends on which attempts flipped so far. The
exact engine is a dynamic program over (targets tried, targets flipped), at most 3**n states
for n targets (MAX_TARGETS bounds n); its outcome joint is ``joint[spaces flipped, the first
target flipped]`` under that policy, which the kernel (kernel.py) fills by drawing each roll
while following the policy's table.
"""
from __future__ import annotations

import re
from math import comb
from dataclasses import dataclass, replace
from functools import cache, lru_cache

import numpy as np

from ...core.engine import Cost, McOptions, Procedure, solve
from ...core.result import Result
from ...errors import OddsError, check_int, check_list, shown
from ...i18n import _, decimal, ngettext, percent
from ...registry import Example, Param, Spec, register
from ...texts import signed
from .attempt import (ATTEMPTS_HELP, DEBATER_DICE, KERNEL, MAX_DICE, SIDES, WORDS, Action,
                      card_params, flip_probability)

MAX_TARGETS = 10  # 3**10 = 59,049 states: about a second in the dynamic program
DICE = re.compile(r"\d+")  # a target's dice count (whole words only: one pass, no backtracking)
TIE = 1e-12  # expected flips closer than this are equal: the earlier target in the list is chosen


def parse_targets(targets) -> tuple:
    """(names, attacker base dice, defender base dice, in zone) of each target."""
    items = check_list("targets", targets)
    if not 1 <= len(items) <= MAX_TARGETS:
        raise OddsError(_("targets: {n} given (allowed: 1 to {most}; the best order is a search over "
                          "every subset of them)").format(n=len(items), most=MAX_TARGETS))
    rows = []
    for item in items:
        name, a, d, out = _target(item)
        for side, n in (("attacker", a), ("defender", d)):
            if n > MAX_DICE:
                raise OddsError(f"targets: {name!r} has {n} {side} dice (allowed: at most "
                                f"{MAX_DICE})")
        if name in (r[0] for r in rows):
            raise OddsError(f"targets: {name!r} is given twice (allowed: each space once; a "
                            "space is a target once an impulse)")
        rows.append((name, a, d, out is None))
    return tuple(zip(*rows))


def _target(item) -> tuple:
    """(name, attacker dice, defender dice, out) of `NAME=ATTACKER:DEFENDER[:out]`, read by
    splitting (linear in the text: no pattern backtracks over a name)."""
    name, _, dice = item.partition("=") if isinstance(item, str) else ("", "", "")
    name, parts = name.strip(), [part.strip() for part in dice.split(":")]
    if (not name or any(c in name for c in ":,") or len(parts) not in (2, 3)
            or not all(DICE.fullmatch(part) for part in parts[:2]) or parts[2:] not in ([], ["out"])):
        raise OddsError(f"targets: {shown(item)} is not NAME=ATTACKER:DEFENDER[:out] (e.g. "
                        "Stettin=2:1, Breslau=5:1:out)")
    return name, int(parts[0]), int(parts[1]), parts[2] if parts[2:] else None


def check_attempts(attempts, targets: int) -> int:
    """The attempts of the action: at least 1, and at most one per target given."""
    attempts = check_int("attempts", attempts, 1, MAX_TARGETS)
    if attempts > targets:
        raise OddsError(_("attempts: {n} is more than the targets given (allowed: at most one attempt "
                          "per target: {targets} given)").format(
            n=attempts, targets=ngettext("{n} target", "{n} targets", targets).format(n=targets)))
    return attempts


def parse_links(links, names) -> np.ndarray:
    """Each target's neighbours among the targets, as a bit mask."""
    masks = np.zeros(len(names), dtype=np.int64)
    for item in check_list("links", links):
        parts = item.split("=") if isinstance(item, str) else ()
        ends = [p.strip() for p in parts]
        if len(ends) != 2 or ends[0] == ends[1] or not all(e in names for e in ends):
            raise OddsError(f"links: {shown(item)} is not TARGET=TARGET of two different "
                            f"targets (allowed targets: {', '.join(names)})")
        i, j = names.index(ends[0]), names.index(ends[1])
        masks[i] |= 1 << j
        masks[j] |= 1 << i
    return masks


def dice_table(act, attackers, defenders, masks) -> tuple:
    """(attacker dice, defender dice) of each target with k of its neighbours flipped."""
    n = len(attackers)
    att, dfn = np.zeros((n, n + 1), dtype=np.int64), np.zeros((n, n + 1), dtype=np.int64)
    for t in range(n):
        for k in range(n + 1):
            att[t, k], dfn[t, k] = act.dice(attackers[t] + k, max(defenders[t] - k, 0))
    return att, dfn


class Plan:
    """The dynamic program: `value(tried, flipped)` the expected flips still to come with the
    best choices, `choice` the target that achieves it."""

    def __init__(self, p, masks, attempts):
        self.p, self.masks, self.attempts, self.n = p, masks, attempts, len(masks)
        self.value = lru_cache(maxsize=None)(self._value)
        self.table = cache(self._table)

    def flip(self, t, flipped) -> float:
        return self.p[t, bin(flipped & int(self.masks[t])).count("1")]

    def options(self, tried, flipped) -> list:
        """(expected flips from here, target) of each target not tried yet."""
        out = []
        for t in range(self.n):
            if not tried >> t & 1:
                p, after = self.flip(t, flipped), tried | 1 << t
                out.append((p * (1 + self.value(after, flipped | 1 << t))
                            + (1 - p) * self.value(after, flipped), t))
        return out

    def _value(self, tried, flipped) -> float:
        if bin(tried).count("1") >= self.attempts:
            return 0.0
        return max((v for v, _ in self.options(tried, flipped)), default=0.0)

    def choice(self, tried, flipped) -> int:
        options = self.options(tried, flipped)
        best = max(v for v, _ in options)
        return next(t for v, t in options if v >= best - TIE)

    def _table(self) -> tuple:
        """(policy: the choice at index tried << n | flipped, -1 where never reached; the
        outcome joint [flips, first target flipped]; each attempt's expected flips)."""
        n, policy = self.n, np.full(4 ** self.n, -1, dtype=np.int64)

        def choose(tried, flipped):
            t = policy[tried << n | flipped] = self.choice(tried, flipped)
            return t

        layer, gains = self.forward(choose)
        joint = np.zeros((self.attempts + 1, 2))
        first = self.choice(0, 0)
        for (_, flipped), w in layer.items():
            joint[bin(flipped).count("1"), flipped >> first & 1] += w
        return policy, joint, gains

    def forward(self, choose) -> tuple:
        """(the states after every attempt with their chances, each attempt's expected flips)
        when `choose(tried, flipped)` picks each target."""
        layer, gains = {(0, 0): 1.0}, []
        for _ in range(self.attempts):
            grown, gain = {}, 0.0
            for (tried, flipped), w in layer.items():
                t = choose(tried, flipped)
                p = self.flip(t, flipped)
                gain += w * p
                for state, q in (((tried | 1 << t, flipped | 1 << t), p),
                                 ((tried | 1 << t, flipped), 1 - p)):
                    grown[state] = grown.get(state, 0.0) + w * q
            layer = grown
            gains.append(gain)
        return layer, gains

    def listed(self) -> float:
        """The expected flips when the targets are tried in the order given, whatever flips."""
        return sum(self.forward(lambda tried, _: bin(tried).count("1"))[1])


def cost(n, attempts) -> Cost:
    """The dynamic program's cost: each state (targets tried, those flipped) weighs its untried
    targets (about a microsecond each); the policy table holds 4**n entries."""
    states = sum(comb(n, k) * 2 ** k for k in range(attempts + 1))
    return Cost(states * n, 8 * 4 ** n + 200 * states,
                _("{states:,} states (targets tried, flipped) of {n} targets").format(states=states, n=n),
                _("fewer targets"))


def summarise(joint):
    """P(the first target flips); the pmf of the spaces flipped with the best choices."""
    return {"success": np.add.reduce(joint[:, 1])}, {"spaces_flipped": np.add.reduce(joint, axis=1)}


@dataclass(frozen=True)
class RankResult(Result):
    """A Result that also reports the ranking: each target's dice, P(flip) now and the expected
    flips of the action when it is tried first (then the best choices)."""

    ranking: tuple = ()  # rows: dict target, attacker_dice, defender_dice, ties, p_flip,
    # expected_if_first, expected_change_if_first (against the best first target)
    steps: tuple = ()  # rows: dict attempt, expected_flips (that attempt's, in the best order)

    def to_json(self) -> dict:
        return {**super().to_json(), "ranking": [dict(r) for r in self.ranking],
                "steps": [dict(r) for r in self.steps]}


def rank_targets(*, targets=(), links=(), side="reformation", attempts=None, printing_press=False,
                 theses=False, debater_dice=0, bible=False, augsburg=False, pope="leo-x",
                 method="auto", trials=None, seed=None, precision=None, max_trials=10**9,
                 threads=None, progress=None):
    """Rank candidate targets of an action's attempts (`side`: 'reformation' or
    'counter-reformation').

    `targets`: 'NAME=ATTACKER:DEFENDER[:out]', each side's base dice (before the minimum of 1
    and the bonus dice), `out` outside the target language zone; `links`: 'A=B' adjacencies
    among them (a flip gives its neighbours +1 attacker die and -1 defender die); `attempts`
    in the action (at most one per target; default: the event's, 5 for the 95 Theses, else 1,
    and at most one per target); the cards as in `reformation_attempt`. Returns a
    RankResult: success (the first choice flips), pmf spaces_flipped with the best choices,
    `ranking` (P(flip) now; expected flips when tried first) and advice in words.
    """
    act = Action.make(side, printing_press, theses, debater_dice, bible, augsburg, pope)
    names, attackers, defenders, zones = parse_targets(targets)
    masks = parse_links(links, names)
    event = act.attempts(None)
    capped = attempts is None and event > len(names)
    attempts = check_attempts(min(event, len(names)) if attempts is None else attempts, len(names))
    att, dfn = dice_table(act, attackers, defenders, masks)
    terms = [act.terms(z) for z in zones]
    p = np.array([[flip_probability(att[t, k], dfn[t, k], terms[t]) for k in range(len(names) + 1)]
                  for t in range(len(names))])
    plan = Plan(p, masks, attempts)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {"side": act.side, "attempts": attempts, "bonus_dice": act.bonus,
                "targets": list(check_list("targets", targets)),
                "links": list(check_list("links", links))}

    def kernel_args():
        rule = np.array([(t.attacker_modifier, t.automatic_on, t.attacker_wins_ties) for t in terms],
                        dtype=np.int64)
        from .kernel import highest_args

        return highest_args(int(max(att.max(), dfn.max())), plan.table()[0], masks, att, dfn,
                            rule, len(names), attempts)

    proc = Procedure("his.targets", (attempts + 1, 2), summarise, "success",
                     lambda: plan.table()[1], (KERNEL, "ranking_lane"), kernel_args, settings,
                     result_type=RankResult, cost=lambda: cost(len(names), attempts), words=WORDS)
    result = solve(proc, method, mc)  # the dynamic program runs here, within its bounds
    firsts = dict((t, v) for v, t in plan.options(0, 0))
    best = plan.value(0, 0)
    ranking = tuple({"target": names[t], "attacker_dice": int(att[t, 0]),
                     "defender_dice": int(dfn[t, 0]), "ties": terms[t].attacker_wins_ties == 1,
                     "p_flip": float(p[t, 0]), "expected_if_first": float(firsts[t]),
                     "expected_change_if_first": float(firsts[t] - best)}
                    for t in sorted(range(len(names)), key=lambda t: -p[t, 0]))
    steps = tuple({"attempt": k, "expected_flips": float(g)}
                  for k, g in enumerate(plan.table()[2], 1))
    first = (_("first: {name}, the best of {n} targets for {attempts}").format(
        name=names[plan.choice(0, 0)], n=len(names), attempts=_attempts(attempts)),)
    notes = (_("attempts: the 95 Theses give {event}, one per target: {n} targets given, so "
               "{attempts}").format(event=event, n=len(names), attempts=attempts),) if capped else ()
    return result.with_changes(ranking=ranking, steps=steps, explain=first,
                               advice=advice(ranking, plan, names, attempts),
                               notes=tuple(result.notes) + notes)


def advice(ranking, plan, names, attempts) -> tuple:
    """The ranking in words (with several attempts, what trying each first changes against the
    best first choice), what the best order gains over the order given, each attempt's expected
    flips, and the line of play when every attempt flips and when none does."""
    lines = []
    for r in ranking:
        line = (_("{target}: {a} v {d}, ties yours: P(flip) {p}") if r["ties"] else
                _("{target}: {a} v {d}, ties theirs: P(flip) {p}")).format(
            target=r["target"], a=r["attacker_dice"], d=r["defender_dice"], p=percent(r["p_flip"], 1))
        if attempts > 1:
            change = r["expected_change_if_first"]
            line += _("; tried first, {spaces} spaces in {attempts} ").format(
                spaces=decimal(r["expected_if_first"], 3), attempts=_attempts(attempts)) + (
                _("(the best)") if change > -TIE else
                _("({change} against the best first)").format(change=signed(change, ".3f")))
        lines.append(line)
    best, listed = plan.value(0, 0), plan.listed()
    lines.append(_("the best order: {best} spaces expected in {attempts}; in the order given, "
                   "{listed} ({change} from the order)").format(
        best=decimal(best, 3), attempts=_attempts(attempts), listed=decimal(listed, 3),
        change=signed(best - listed, ".3f")))
    if attempts > 1:
        lines.append(_("each attempt's expected flips in the best order: ")
                     + ", ".join(decimal(g, 3) for g in plan.table()[2]))
    for flips in (True, False):
        tried = flipped = 0
        order = []
        for step in range(attempts):
            t = plan.choice(tried, flipped)
            order.append(names[t])
            tried, flipped = tried | 1 << t, flipped | (flips << t)
        if attempts > 1:
            lines.append((_("order if each attempt flips: {order}") if flips else
                          _("order if each attempt fails: {order}")).format(order=", ".join(order)))
    return tuple(lines)


def _attempts(n: int) -> str:
    return ngettext("{n} attempt", "{n} attempts", n).format(n=n)


EXAMPLE = ("Magdeburg=5:3", "Stettin=2:1", "Breslau=5:1:out", "Leipzig=3:4", "Lubeck=2:3",
           "Prague=3:5:out")  # the rulebook's Reformation attempt example (95 Theses)

def _sided(params: tuple) -> tuple:
    """The cards' params, each only with the side it applies to (Param.only_with: the page
    offers it for that side only; AttemptCards.make refuses it for the other)."""
    only = {"printing_press": "reformation", "theses": "reformation", "bible": "reformation",
            "augsburg": "counter-reformation"}
    return tuple(replace(p, only_with={True: ({"side": (only[p.name],)},)}) if p.name in only
                 else p for p in params)


register(Spec("his.targets", rank_targets, (
    Param("targets", "pairs", "a candidate space: its name, the attacker's and the defender's "
          "base dice (before the minimum of 1 and bonus dice), and whether it lies outside the "
          "target language zone", flag="target",
          metavar="NAME=A:D[:out]"),
    Param("links", "pairs", "two targets adjacent to each other (a flip adds a die to the "
          "other's attacker and takes one from its defender)", flag="link", metavar="A=B"),
    Param("side", "choice", "who makes the attempts", choices=SIDES),
    Param("attempts", "int", "attempts in the action, at most one per target " + ATTEMPTS_HELP, low=1,
          high=MAX_TARGETS),
    *_sided(card_params(max(DEBATER_DICE.values())))),
    "rank my targets (§18.3-18.4): by P(flip), and the best order",
    ("his", "targets"), "success", kernels=(KERNEL,),
    not_rolled="it ranks targets and the order to try them (a plan, not a roll): record each "
               "attempt as his.reformation or his.counter_reformation",
    examples=(Example("95 theses, the rulebook's example", {"targets": list(EXAMPLE),
                                                            "theses": True}),
              Example("linked, three attempts", {
                  "targets": ["Leipzig=3:4", "Magdeburg=5:3", "Lubeck=2:3", "Stettin=2:1"],
                  "theses": True, "links": ["Leipzig=Magdeburg", "Magdeburg=Lubeck"],
                  "attempts": 3},
                  title="three attempts of the 95 Theses where a flip helps the next space: the "
                        "next target depends on the last roll", demo=True)),
    start={"targets": ["Stettin=2:1", "Breslau=5:1:out"]}, words=WORDS))
