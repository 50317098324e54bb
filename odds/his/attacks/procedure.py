"""The whole attack on a fortified space (Here I Stand §13.3, §14, §15): one chain.

avoid battle (if the defender tries: 2d6 + its leader >= 9) -> field battle (every card and
policy) -> the attacker lost: it retreats, the chain ends; the attacker won: the defending
survivors withdraw inside (at most `withdraw_inside`, at most 4, non-cavalry first), the
others retreat; a siege begins when the attacker's survivors outnumber those inside -> up to
K assaults (first-assault `siege_cards`, one held Siege Artillery under its timing). A battle
avoided leaves the space empty: the whole stack besieges it. `foreign_war`: the field battle
only, the defender without its +1 die and nobody retreating; the space counts as captured
when the battle is won. Readings in docs/rules.md.

Each stage comes from its folder's declared interface, `stage.py` (interceptions: the avoid
roll; field: the battle; sieges: the siege and its kept joints; assaults: the casualty
order): this module imports no other module of those folders and runs no kernel itself
(pyproject.toml, contract "attacks-use-stages"; tests/test_layers.py).

Outcome joint: ``joint[path, assaults made, attacker losses, defender losses, card kept]``,
path 0 avoided and captured, 1 avoided and not captured, 2 battle lost, 3 battle won and no
siege, 4 won and captured, 5 won and not captured (siege broken or still besieged); losses
are units over the whole chain (the defender's: in the battle, then inside). Exact: the
field battle's joint, each winning cell composed with the exact siege from its survivors.
Monte Carlo: the same composition of samples, in rounds of whole trials: the avoid-battle
stage's count, the field stage's counts, and for each siege start the siege stage run that
many times (a round cut short by Ctrl-C or a time budget is dropped).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from ...core import montecarlo
from ...core.engine import Cost, McOptions, Procedure, solve
from ...core.outcomes import Words
from ...errors import OddsError, check_bool, check_int, check_list
from ...i18n import N_, _
from ...registry import Example, Param, Spec, register
from ..assaults import stage as casualty
from ..cards import help_for, names_for, only_with
from ..field import stage as field
from ..forces import POWERS, Force, assumptions, land_params, leader_notes, settings as force_settings
from ..interceptions import stage as avoiding
from ..sieges import stage as sieges

AVOID_ON = 9  # an avoid-battle roll succeeds on 9 or more (HIS §13.3)
# a composed run goes in rounds of whole trials: 4,096, then 16x more a round up to 2^20 (a
# Ctrl-C or a stop drops the round under way; each round pays its stages' set-up)
ROUND_FIRST, ROUND_GROWTH, ROUND_MOST = 1 << 12, 16, 1 << 20
PATHS = ("avoided_captured", "avoided_not_captured", "battle_lost", "won_no_siege",
         "won_captured", "won_not_captured")

WORDS = Words("Captured", (("captured", "siege_broken", "still_besieged"), ("battle_avoided", "battle_lost", "battle_won")),
              within={"siege_begins": ("attacker_win",)},
              why={"siege_begins": "the battle was avoided (the whole stack besieges the space) or "
                                   "won with more units left than withdrew inside"})


@dataclass(frozen=True)
class Setup:
    """What the chain needs beyond the field battle's Sides."""

    attacker: Force  # as given (a battle avoided: the whole stack besieges)
    defender: Force
    siege: sieges.Terms  # what every siege of the chain depends on besides its start
    inside_cap: int
    foreign_war: bool
    siege_units: int = 0  # units the siege's first-assault cards add (Landsknechts: 2 or 4)


class AttackChain:
    """The field battle's sides, the sieges that may follow, and the composition."""

    def __init__(self, s: Setup, a, d, avoid: bool):
        self.s, self.a, self.d, self.avoid = s, a, d, avoid
        self.held = int(s.siege.timing is not None)
        self.shape = (len(PATHS), s.siege.assaults + 1,
                      max(a.units, s.attacker.units) + s.siege_units + 1,
                      d.units + 1, 2)

    def avoid_modifier(self) -> int:
        """The defender's avoid-battle modifier: its leader, +1 for an Ottoman stack with
        cavalry, -1 for a non-Ottoman stack facing Ottoman cavalry (HIS §13.3)."""
        att, dfn = self.s.attacker, self.s.defender
        return (dfn.leader + (dfn.power == "ottoman" and dfn.cavalry > 0)
                - (dfn.power != "ottoman" and att.power == "ottoman" and att.cavalry > 0))

    def after_avoid(self):
        """The siege of the empty space by the whole stack."""
        f = self.s.attacker
        return (f.units - f.cavalry, f.cavalry, 0, 0, 0)

    def after_battle(self, al, dl):
        """The siege after a won battle with these losses, or None (no siege begins)."""
        (ai, ac), (di, dc, leader) = self._besiegers(al), self._inside(dl)
        return (ai, ac, di, dc, leader) if ai + ac > di + dc else None

    def _besiegers(self, al):
        """(infantry, cavalry) of the attacker after losing `al` in the battle."""
        a = self.a
        ai = int(casualty.infantry_left(a.units - a.cavalry, a.cavalry, al,
                                        self.s.siege.cavalry_first))
        return ai, a.units - al - ai

    def _inside(self, dl):
        """(infantry, cavalry, leader) withdrawn inside after the defender lost `dl`."""
        d = self.d
        di = int(casualty.infantry_left(d.units - d.cavalry, d.cavalry, dl,
                                        self.s.siege.cavalry_first))
        inside = min(d.units - dl, self.s.inside_cap)
        i_in = min(di, inside)
        return i_in, inside - i_in, self.s.defender.leader if inside else 0

    def starts(self) -> set:
        """Every siege start a battle can leave (a superset of the won battles' ones)."""
        out = {self.after_avoid()} if self.avoid else set()
        if self.s.foreign_war:
            return out
        most = [min(side.units, field.max_hits(enemy))
                for side, enemy in ((self.a, self.d), (self.d, self.a))]
        besiegers = {self._besiegers(al) for al in range(min(most[0], self.a.units - 1) + 1)}
        inside = {self._inside(dl) for dl in range(most[1] + 1)}
        return out | {(ai, ac, di, dc, leader) for ai, ac in besiegers
                      for di, dc, leader in inside if ai + ac > di + dc}

    def cost(self) -> Cost:
        """The exact chain's cost: the sieges from every start and their kept joints
        (sieges.stage.cost); the field battle beside them is small."""
        return sieges.cost(self.s.siege, self.starts())

    def fill(self, avoided, battles, siege_of) -> np.ndarray:
        """The attack joint from the weight of a battle avoided (probability or count), the
        field battles' joint[code, al, dl] (ditto) and siege_of(start, weight) -> that
        siege's joint (sieges.stage) times the weight, or its counts."""
        joint = np.zeros(self.shape)
        if avoided:
            self._siege(joint, 0, 0, 0, siege_of(self.after_avoid(), avoided))
        for code, al, dl in zip(*np.nonzero(battles)):
            w = battles[code, al, dl]
            start = None if self.s.foreign_war or not code & 1 else self.after_battle(al, dl)
            if start is None:
                path = 4 if self.s.foreign_war and code & 1 else 2 if not code & 1 else 3
                joint[path, 0, al, dl, self.held] += w
            else:
                self._siege(joint, 4, al, dl, siege_of(start, w))
        return joint

    @staticmethod
    def _siege(joint, path, al, dl, sj):
        """Add a siege's joint[end, k, al, dl, kept] after losses (al, dl) so far."""
        _, k, wa, wd, _ = sj.shape
        cell = (slice(1, k + 1), slice(al, al + wa), slice(dl, dl + wd))
        joint[(path, *cell)] += sj[0]
        joint[(path + 1, *cell)] += sj[1] + sj[2]

    def exact(self) -> np.ndarray:
        """The attack joint (probabilities): the exact stages composed by `fill`."""
        p_avoid = avoiding.success(self.avoid_modifier(), AVOID_ON) if self.avoid else 0.0
        return self.fill(p_avoid, field.joint(self.a, self.d) * (1 - p_avoid),
                         lambda start, w: self.siege(start) * w)

    def siege(self, start) -> np.ndarray:
        """The exact siege joint from `start`, kept by the sieges folder (sieges.stage.JOINTS)."""
        return sieges.joint(self.s.siege, start)

    def sample(self, mc: McOptions) -> montecarlo.Run:
        """Monte Carlo through the chain in rounds of whole trials (montecarlo.rounds): in each,
        every stage's counts (its folder's stage, on its own kernel) run for as many trials as
        reach it, with a seed per stage and round (so the answer does not depend on the
        threads). A round that a Ctrl-C or the caller's stop test cuts short is dropped whole:
        a partial answer counts only chains that ran to their end."""
        started = {}  # start -> its sieges.Siege (the kernel's arguments made once)
        stages = [0]  # stage runs so far: each has a seed of its own

        def run(counts, shape, n, first):
            """counts(n, seed, threads, progress) of a stage, its next seed; zeros if n is 0."""
            if not n:
                return np.zeros(shape, np.int64)
            if montecarlo.stopping():
                raise _Stopped
            seed = (mc.seed + 0x9E3779B97F4A7C15 * stages[0]) % 2**63
            stages[0] += 1
            r = counts(int(n), seed, mc.threads, mc.progress if first == 0 else False)
            if r.partial:
                raise _Stopped
            return r.hist

        def siege_of(start, n, first):
            if start not in started:
                started[start] = sieges.Siege(self.s.siege, start)
            siege = started[start]
            return run(siege.counts, siege.shape, n, first)

        def step(first, n):
            try:
                avoided = 0
                if self.avoid:
                    avoided = int(run(partial(avoiding.successes, self.avoid_modifier(), AVOID_ON),
                                      (2,), n, first)[1])
                battles = run(partial(field.counts, self.a, self.d), field.shape(self.a, self.d),
                              n - avoided, first)
                hist = self.fill(avoided, battles, lambda start, k: siege_of(start, k, first))
            except _Stopped:
                return montecarlo.Run(np.zeros(self.shape, np.int64), 0, True, None)
            return montecarlo.Run(hist.astype(np.int64), n, False, None)

        return montecarlo.rounds(step, self.shape, mc.trials, _round_size, progress=mc.progress)


class _Stopped(Exception):
    """A stage of a round was stopped (Ctrl-C or the caller's stop test): the round is dropped."""


def _round_size(n, seconds):
    """The composed run's rounds: ROUND_FIRST trials, then ROUND_GROWTH times more, at most
    ROUND_MOST (fixed sizes: the seeds of a round's stages follow from them)."""
    return ROUND_FIRST if n is None else min(n * ROUND_GROWTH, ROUND_MOST)


def summarise(joint):
    """Probabilities of each path and of capture, the pmfs of losses and of assaults made
    (linear in the joint)."""
    by_path = joint.sum(axis=(1, 2, 3, 4))
    probabilities = {
        "captured": by_path[0] + by_path[4],
        "battle_avoided": by_path[0] + by_path[1],
        "battle_lost": by_path[2],
        "battle_won": by_path[3:].sum(),
        "siege_begins": by_path[[0, 1, 4, 5]].sum() - joint[[0, 1, 4, 5], 0].sum(),
        "card_kept": joint[..., 1].sum(),
    }
    pmfs = {"attacker_losses": joint.sum(axis=(0, 1, 3, 4)),
            "defender_losses": joint.sum(axis=(0, 1, 2, 4)),
            "assaults": joint.sum(axis=(0, 2, 3, 4))}
    return probabilities, pmfs


def attack(attacker, defender, *, assaults, attacker_mercenaries=0, attacker_cavalry=0,
           attacker_leader=0, attacker_power="other", attacker_cards=(), defender_mercenaries=0,
           defender_cavalry=0, defender_leader=0, defender_power="other", defender_cards=(),
           avoid_battle=False, withdraw_inside=None, siege_cards=(), foreign_war=False,
           besieged=False, casualties="cavalry-first", attacker_hit_on=field.HIT_ON,
           defender_hit_on=field.HIT_ON, method="auto", trials=None, seed=None, precision=None,
           max_trials=10**9, threads=None, progress=None):
    """Odds of the whole attack on a fortified space (see the module doc).

    Forces and `*_cards` as in `field_battle` (the battle's cards); `avoid_battle`: the
    defender tries to avoid battle (2d6 + its leader >= 9); `withdraw_inside`: defending
    survivors that withdraw inside after a lost battle (default: all, at most 4);
    `siege_cards`: the attacker's siege cards (siege-mining for the first assault,
    siege-artillery:TIMING held); `assaults`: at most K; `foreign_war`: battle only, no
    defender +1 die, no retreat; `casualties` as in a siege (also which units the battle
    kills); `besieged`: the defenders are already inside, no field battle: the siege (his.siege,
    `siege_cards` as its attacker cards) starts at once; `attacker_hit_on`/`defender_hit_on`:
    one pair of hit numbers for the field battle and every assault.
    Returns a Result: captured, battle_avoided, battle_lost, battle_won,
    siege_begins, card_kept (the held Siege Artillery still in hand at the end; 0 without
    one), pmfs attacker_losses, defender_losses (units, whole chain) and assaults (made);
    `advice`: for a card playable in the battle or the siege, where to play it (exact only).
    """
    attacker_cards, defender_cards, siege_cards = (
        check_list(name, value) for name, value in (("attacker_cards", attacker_cards),
                                                    ("defender_cards", defender_cards),
                                                    ("siege_cards", siege_cards)))
    given = dict(locals())
    if check_bool("besieged", besieged):
        return _besieged(given)
    assaults = check_int("assaults", assaults, 1, sieges.MAX_ASSAULTS)
    att, dfn = field.forces(attacker, defender, attacker_mercenaries, attacker_cavalry,
                            attacker_leader, attacker_power, attacker_cards, defender_mercenaries,
                            defender_cavalry, defender_leader, defender_power, defender_cards)
    avoid, foreign_war = check_bool("avoid_battle", avoid_battle), check_bool("foreign_war", foreign_war)
    if avoid and foreign_war:
        raise OddsError(_("avoid_battle: a foreign war's defender does not avoid battle "
                          "(allowed: False with foreign_war=True)"))
    cap = field.MAX_WITHDRAW if withdraw_inside is None else check_int(
        "withdraw_inside", withdraw_inside, 0, field.MAX_WITHDRAW)
    cavalry_first = casualty.cavalry_first(casualties)
    cards, timing, added = sieges.first_assault(siege_cards, att.power, dfn.power)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    a, d = field.sides(att, dfn, attacker_hit_on, defender_hit_on)
    if foreign_war:
        d = replace(d, dice=d.dice - 1)
    terms = sieges.Terms(att.leader, att.power, dfn.power, cards, timing, assaults, cavalry_first,
                         (a.hit_on, d.hit_on))
    chain = AttackChain(Setup(att, dfn, terms, cap, foreign_war, added), a, d, avoid)
    settings = {**force_settings(att, dfn), "assaults": assaults, "avoid_battle": avoid,
                "avoid_battle_on": AVOID_ON, "withdraw_inside": _("survivors, at most {n}").format(n=cap),
                "siege_cards": [c if not c.startswith("siege-artillery") else
                                f"siege-artillery:{timing}" for c in cards],
                "foreign_war": foreign_war, "casualties": casualties,
                "attacker_units_at_roll": a.units, "defender_units_at_roll": d.units,
                **field.hit_settings(a, d)}
    notes = tuple(a.notes + d.notes) + leader_notes(att, dfn)
    if precision is not None and method != "exact":
        notes += ("precision: the chain runs each stage for the trials that reach it; "
                  "the precision target is not applied",)
    if timing == "optimal":
        sieges.check_optimal("siege_cards", chain.cost())
    proc = Procedure("his.attack", chain.shape, summarise, "captured", chain.exact, (),
                     lambda: (), settings, assumptions=assumptions(att, dfn), notes=notes,
                     sample=chain.sample, cost=chain.cost, words=WORDS)
    return _advised(solve(proc, method, mc), given)


def _besieged(given):
    """attack(besieged=True): the siege of the defenders inside, as his.siege."""
    for name, why in (("attacker_cards", N_("no field battle: give the siege's cards as siege_cards")),
                      ("defender_cards", N_("no field battle")), ("avoid_battle", N_("no field battle")),
                      ("foreign_war", N_("no field battle")),
                      ("withdraw_inside", N_("every defender is already inside"))):
        if given[name] not in ((), [], False, None):
            allowed = "False" if name in ("avoid_battle", "foreign_war") else _("none")
            raise OddsError(_("{name}: {value} with besieged=True: {why} (allowed: {allowed})").format(
                name=name, value=repr(given[name]), why=_(why), allowed=allowed))
    keep = ("attacker", "defender", "assaults", "attacker_mercenaries", "attacker_cavalry",
            "attacker_leader", "attacker_power", "defender_mercenaries", "defender_cavalry",
            "defender_leader", "defender_power", "casualties", "attacker_hit_on",
            "defender_hit_on", "method", "trials", "seed",
            "precision", "max_trials", "threads", "progress")
    r = sieges.siege(**{k: given[k] for k in keep}, attacker_cards=given["siege_cards"])
    return r.with_changes(procedure="his.attack", settings={**r.settings, "besieged": True},
                          notes=("besieged: the defenders are inside, no field battle: the "
                                 "siege starts at once",) + r.notes)


def _advised(result, given):
    """The result with `advice` for each card of both a field battle and an assault given in
    one place (the battle's `attacker_cards` or `siege_cards`): the whole attack computed
    with it in the other place too (exact only)."""
    if result.method != "exact" or given["foreign_war"] or getattr(ADVISING, "on", False):
        return result
    given_as = {k: given[k] for k in ("attacker_cards", "siege_cards")}
    lines, ADVISING.on = [], True
    try:
        for here, there in (("attacker_cards", "siege_cards"), ("siege_cards", "attacker_cards")):
            for card in given_as[here]:
                name = card.partition(":")[0].strip().lower() if isinstance(card, str) else ""
                if name not in BOTH_WAYS:
                    continue
                moved = {here: tuple(c for c in given_as[here] if c != card),
                         there: given_as[there] + (card,)}
                try:
                    other = attack(**{**given, **moved})
                except OddsError:  # not playable there by this power
                    continue
                lines.append(sieges.field_or_siege(card, *((result, other) if here == "attacker_cards"
                                                    else (other, result))))
    finally:
        ADVISING.on = False
    return result.with_changes(advice=result.advice + tuple(lines))


BOTH_WAYS = ("landsknechts", "swiss-mercenaries")  # cards of both a field battle and an assault
ADVISING = threading.local()  # on while _advised computes the other placements (no advice there)


SPEC = register(Spec(
    "his.attack", attack,
    land_params("field", help_for("field") + " (the field battle's cards)") + (
        Param("assaults", "int", "at most K assaults, one per impulse", low=1, high=sieges.MAX_ASSAULTS,
              metavar="K"),
        Param("avoid_battle", "bool", "the defender tries to avoid battle (2d6 + its leader "
              f">= {AVOID_ON})", clears=("besieged", "foreign_war")),
        Param("withdraw_inside", "int", "defending survivors that withdraw inside after a lost "
              f"battle (default: all of them, at most {field.MAX_WITHDRAW})", low=0,
              high=field.MAX_WITHDRAW, metavar="K", clears=("besieged",)),
        Param("siege_cards", "cards", "an attacker card in the siege, repeatable: siege-mining "
              "(first assault), siege-artillery[:first|always|if-needed|if-it-helps|optimal] "
              "(one copy held)", flag="siege-card", metavar="CARD[:TIMING]",
              choices=names_for("assault", "attacker"), policies=sieges.HELD_POLICIES,
              only_with=only_with("assault", names_for("assault", "attacker"), "attacker", POWERS)),
        Param("foreign_war", "bool", "a foreign war: the field battle only, no defender +1 die, "
              "no retreat", clears=("besieged", "avoid_battle")),
        Param("besieged", "bool", "the defenders are already inside (a besieged space): no "
              "field battle, the siege starts at once",
              clears=("avoid_battle", "foreign_war", "withdraw_inside")),
        Param("casualties", "choice", "which units each side loses first", choices=casualty.CASUALTIES),
        *field.hit_params("; one pair for the whole chain: the field battle and every assault")),
    "the whole attack: avoid battle, field battle, withdrawal, siege", ("his", "attack"),
    "captured", kernels=field.KERNELS + avoiding.KERNELS + sieges.KERNELS,
    start={"attacker": 8, "defender": 4, "assaults": 3},
    not_rolled="an attack chains several rolls (avoid battle, the field battle, the siege's "
               "assaults): record each as its own roll (his.avoid_battle, his.field, his.siege)",
    examples=(
        Example("march on a fortress", dict(
            attacker=8, attacker_cavalry=2, attacker_leader=2, defender=4, defender_leader=1,
            avoid_battle=True, assaults=3, siege_cards=["siege-artillery:optimal"]),
            "Here I Stand: 8 units (2 cavalry) + leader 2 march on a fortress held by 4 units + "
            "leader 1 who try to avoid battle; up to 3 assaults, Siege Artillery held", demo=True),
        Example("plain", dict(attacker=6, defender=3, assaults=2)),
        Example("withdraw two, mining", dict(attacker=7, attacker_leader=1, defender=5,
                                             defender_cavalry=1, withdraw_inside=2, assaults=3,
                                             siege_cards=["siege-mining"])),
        Example("besieged, artillery held", dict(
            attacker=7, attacker_leader=1, defender=3, defender_leader=1, besieged=True,
            assaults=4, siege_cards=["siege-artillery:optimal"]),
            "defenders already inside: the siege starts at once, Siege Artillery held"),
        Example("landsknechts: battle or siege", dict(
            attacker=6, attacker_power="hapsburg", defender=4, assaults=3,
            attacker_cards=["landsknechts"])),
        Example("foreign war", dict(attacker=5, attacker_leader=1, defender=4, foreign_war=True,
                                    assaults=1)),
    ), words=WORDS))
