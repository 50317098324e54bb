"""Theological debates (Here I Stand §18.5): exact engine and API.

A first round between the given debaters; on equal hits, a second round between debaters
drawn at random from the given pools; on equal hits again the debate is inconclusive. Outcome
joint: ``joint[round decided (0: first, 1: second), outcome (rules.TIE, ATTACKER, DEFENDER),
margin in hits, VP the winner earns from the loser's debater]``; the kernel
(kernel.debate_lane) fills the same joint by drawing each side's hits and the debaters.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...core.dice import binomial_pmf
from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...core.readings import Reading
from ...errors import OddsError, check_bool, check_choice, check_int, check_list, shown
from ...i18n import N_, _, percent
from ...registry import Example, Param, Spec, register
from ..cards import dice as dice_words
from .rules import ATTACKER, DEFENDER, TIE, attacker_dice, burnt_vp, defender_dice, settle

KERNEL = "odds.his.debates.kernel"
INITIATORS = ("papacy", "protestant")
MIN_VALUE, MAX_VALUE = 1, 4  # a debater's printed debate value
MAX_POOL = 12  # debaters of one side in a pool
MAX_EXTRA = 3  # Thomas More's or the Papal Inquisition's extra attack dice
# so a side rolls at most 4 x 2 (Mary I) + 3 + 1 (Eck) + MAX_EXTRA = 15 dice
PAPAL_ONLY = ("augsburg", "mary_i", "debater_bonus", "extra_dice")  # a Papal attacker's dice
PAPAL_ATTACKER = {True: ({"initiator": ("papacy",)},)}  # Param.only_with of the Papal switches
VP = MAX_VALUE + 1  # VP from a burnt or disgraced debater: 0 or his value
WORDS = Words(partitions=(("attacker_win", "defender_win", "inconclusive"),),
              within={"attacker_debater_lost": ("defender_win",),
                      "defender_debater_lost": ("attacker_win",)},
              why={"second_round": "equal hits in the first round: new debaters drawn from the "
                                   "pools",
                   "attacker_debater_lost": "won by more hits than the attacking debater's "
                                            "value: he is burnt (Protestant) or disgraced (Papal)",
                   "defender_debater_lost": "won by more hits than the defending debater's "
                                            "value: he is burnt (Protestant) or disgraced (Papal)"})


@dataclass(frozen=True)
class Debate:
    """A validated debate: the first round's debaters, the second round's pools and the cards
    that change the attacker's dice (`doubled` Mary I, `minus` Augsburg, `bonus` Eck or
    Gardiner in the first round, `extra` Thomas More or the Papal Inquisition every round)."""

    initiator: str
    attacker: int
    defender: int
    committed: int
    attackers: tuple
    defenders: tuple
    second_committed: int
    doubled: int
    minus: int
    bonus: int
    extra: int

    @property
    def second_round(self) -> bool:
        """A first-round tie is fought again (both second-round pools are given)."""
        return bool(self.attackers and self.defenders)

    def dice(self, attacker, defender, committed, first) -> tuple:
        """(attacker's dice, defender's dice) of a round between these debaters."""
        bonus = self.extra + (self.bonus if first else 0)
        return (int(attacker_dice(attacker, self.doubled, self.minus, bonus)),
                int(defender_dice(defender, committed)))

    def seconds(self) -> list:
        """(probability, attacker's value, defender's value) of each second-round pairing."""
        a, d = Counter(self.attackers), Counter(self.defenders)
        return [(na * nd / (len(self.attackers) * len(self.defenders)), va, vd)
                for va, na in sorted(a.items()) for vd, nd in sorted(d.items())]

    @property
    def shape(self) -> tuple:
        rolls = [self.dice(self.attacker, self.defender, self.committed, True)]
        rolls += [self.dice(va, vd, self.second_committed, False) for _, va, vd in self.seconds()]
        return 2, 3, max(max(r) for r in rolls) + 1, VP


def check_pool(name, value) -> tuple:
    """A pool of debate values: a list of at most MAX_POOL values, each 1 to 4."""
    if isinstance(value, (int, str)):
        raise OddsError(f"{name}: {shown(value)} is not a list of debate values (allowed: a list "
                        f"of values {MIN_VALUE} to {MAX_VALUE}, e.g. [2, 1], or [] for none)")
    pool = check_list(name, value)
    if len(pool) > MAX_POOL:
        raise OddsError(f"{name}: {len(pool)} debaters (allowed: at most {MAX_POOL})")
    return tuple(check_int(f"{name}[{i}]", v, MIN_VALUE, MAX_VALUE) for i, v in enumerate(pool))


def exact_joint(debate: Debate) -> np.ndarray:
    """The joint outcome distribution (module docstring): the first round, then each
    second-round pairing weighted by its chance, on the first round's equal hits."""
    joint = np.zeros(debate.shape)
    add_round(joint, 0, 1.0, debate, debate.attacker, debate.defender, debate.committed, True)
    if debate.second_round:
        tie, joint[0, TIE, 0, 0] = joint[0, TIE, 0, 0], 0.0
        for p, va, vd in debate.seconds():
            add_round(joint, 1, tie * p, debate, va, vd, debate.second_committed, False)
    return joint


def add_round(joint, second, weight, debate, attacker, defender, committed, first):
    """Add `weight` x one round's (outcome, margin, VP) between these debaters to
    joint[second]: the sides' binomial hits (a 5 or 6 hits) settled cell by cell."""
    a, d = debate.dice(attacker, defender, committed, first)
    hits_a, hits_d = np.arange(a + 1)[:, None], np.arange(d + 1)[None, :]
    outcome, margin = settle(hits_a, hits_d)
    loser = defender * (outcome == ATTACKER) + attacker * (outcome != ATTACKER)
    cells = weight * np.outer(binomial_pmf(a), binomial_pmf(d))
    np.add.at(joint[second], (outcome, margin, burnt_vp(margin, loser)), cells)


def summarise(joint):
    """The three outcomes, the second round and the lost debaters; the pmfs of each side's
    spaces flipped (0 when it did not win) and VP from the loser's debater."""
    add = np.add.reduce
    by_outcome = add(joint, axis=0)  # [outcome, margin, VP]
    total = add(add(add(by_outcome, axis=2), axis=1), axis=0)
    probabilities = {"attacker_win": add(add(by_outcome[ATTACKER], axis=1), axis=0),
                     "defender_win": add(add(by_outcome[DEFENDER], axis=1), axis=0),
                     "inconclusive": add(add(by_outcome[TIE], axis=1), axis=0),
                     "second_round": add(add(add(joint[1], axis=2), axis=1), axis=0),
                     "attacker_debater_lost": add(add(by_outcome[DEFENDER, :, 1:], axis=1), axis=0),
                     "defender_debater_lost": add(add(by_outcome[ATTACKER, :, 1:], axis=1), axis=0)}
    pmfs = {}
    for side, won in (("attacker", ATTACKER), ("defender", DEFENDER)):
        for name, pmf in ((f"{side}_flips", add(by_outcome[won], axis=1)),
                          (f"{side}_vp", add(by_outcome[won], axis=0))):
            pmf = pmf.copy()
            pmf[0] += total - add(pmf, axis=0)  # did not win (or won nothing)
            pmfs[name] = pmf
    return probabilities, pmfs


def debate(*, initiator="papacy", attacker_value, defender_value, defender_committed=False,
           attacker_pool=(), defender_pool=(), defender_committed_pool=(), augsburg=False,
           mary_i=False, debater_bonus=False, extra_dice=0, method="auto", trials=None,
           seed=None, precision=None, max_trials=10**9, threads=None, progress=None):
    """Odds of a theological debate (§18.5) called by `initiator` ('papacy' or 'protestant').

    `attacker_value`, `defender_value` (required): the first round's debaters' debate values
    (1-4);
    `defender_committed`: the defender was committed before the debate (value + 1 dice, not
    + 2). On equal hits a second round is fought by debaters drawn at random from
    `attacker_pool` (the values of the attacker's debaters it draws from) and `defender_pool`
    (the defender's uncommitted debaters in the zone) or, when that is empty,
    `defender_committed_pool` (committed ones: value + 1 dice); with no second-round debaters
    a first-round tie is inconclusive. Papal attacker only: `augsburg` (-1 die), `mary_i`
    (debate value doubled: the English zone under Mary I), `debater_bonus` (Eck or Gardiner
    attacking in the first round: +1 die), `extra_dice` (Thomas More or the Papal
    Inquisition, every round). Returns a Result: attacker_win, defender_win, inconclusive,
    second_round, attacker_debater_lost, defender_debater_lost; pmfs attacker_flips,
    defender_flips (spaces flipped by each side), attacker_vp, defender_vp (VP from burning or
    disgracing the loser's debater).
    """
    plan = make_debate(initiator, attacker_value, defender_value, defender_committed,
                       attacker_pool, defender_pool, defender_committed_pool, augsburg, mary_i,
                       debater_bonus, extra_dice)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    first = plan.dice(plan.attacker, plan.defender, plan.committed, True)
    settings = {"initiator": plan.initiator, "attacker_value": plan.attacker,
                "defender_value": plan.defender, "defender_committed": bool(plan.committed),
                "first_round_dice": list(first), "attacker_pool": list(plan.attackers),
                "defender_pool": list(plan.defenders),
                "second_defender_committed": bool(plan.second_committed)}
    notes, assumptions, caveat = [], [], ""
    if not plan.second_round:
        empty = ("attacker_pool" if not plan.attackers
                 else "defender_pool" + _(" and ") + "defender_committed_pool")
        caveat = _("the {share} of debates tied in round 1 are left unresolved: no second-round "
                   "debaters given").format(share=percent(first_tie(*first), 1))
        notes.append(_("{field}: empty, so a first-round tie is inconclusive here (the rules draw "
                       "a second-round debater from those left in the zone: give them to follow "
                       "the rule)").format(field=empty))
    elif plan.extra:
        assumptions.append(_("extra_dice: the {n} card dice roll in the second round too").format(n=plan.extra))

    def kernel_args():
        from .kernel import kernel_args

        top = max(attacker_dice(MAX_VALUE, plan.doubled, 0, 1 + plan.extra),
                  defender_dice(MAX_VALUE, 0))  # the most dice any debater of the plan rolls
        return kernel_args(plan, top)

    proc = Procedure("his.debate", plan.shape, summarise, "attacker_win",
                     lambda: exact_joint(plan), (KERNEL, "debate_lane"), kernel_args, settings,
                     assumptions=tuple(assumptions), notes=tuple(notes), explain=explain(plan),
                     words=WORDS)
    return solve(proc, method, mc).with_changes(caveat=caveat)


def first_tie(a: int, d: int) -> float:
    """P(equal hits) when the attacker rolls `a` dice and the defender `d`."""
    n = min(a, d) + 1
    return float(np.dot(binomial_pmf(a)[:n], binomial_pmf(d)[:n]))


def make_debate(initiator, attacker_value, defender_value, defender_committed, attacker_pool,
                defender_pool, defender_committed_pool, augsburg, mary_i, debater_bonus,
                extra_dice) -> Debate:
    """The validated Debate; a Papal attacker's card given for a Protestant initiator is
    refused in one line naming it."""
    initiator = check_choice("initiator", initiator, INITIATORS)
    cards = {"augsburg": check_bool("augsburg", augsburg), "mary_i": check_bool("mary_i", mary_i),
             "debater_bonus": check_bool("debater_bonus", debater_bonus),
             "extra_dice": check_int("extra_dice", extra_dice, 0, MAX_EXTRA)}
    if initiator == "protestant":
        for name in PAPAL_ONLY:
            if cards[name]:
                raise OddsError(_("{name}: {value} applies to a Papal attacker only (allowed: {allowed} "
                                  "when the initiator is 'protestant')").format(
                    name=name, value=shown(cards[name]), allowed=0 if name == "extra_dice" else False))
    defenders = check_pool("defender_pool", defender_pool)
    committed_pool = check_pool("defender_committed_pool", defender_committed_pool)
    return Debate(initiator,
                  check_int("attacker_value", attacker_value, MIN_VALUE, MAX_VALUE),
                  check_int("defender_value", defender_value, MIN_VALUE, MAX_VALUE),
                  int(check_bool("defender_committed", defender_committed)),
                  check_pool("attacker_pool", attacker_pool), defenders or committed_pool,
                  int(not defenders), int(cards["mary_i"]), int(cards["augsburg"]),
                  int(cards["debater_bonus"]), cards["extra_dice"])


def explain(plan: Debate) -> tuple:
    """The dice each side rolls and why, round by round, in words."""
    me, them = (_("Papal"), _("Protestant")) if plan.initiator == "papacy" else (_("Protestant"), _("Papal"))

    def attacker(value, first):
        parts = [f"{value}" + (_(" doubled by Mary I") if plan.doubled else ""), _("3 attacking")]
        parts += [_("1 Eck/Gardiner bonus")] * (first and plan.bonus)
        parts += [_("{n} Thomas More/Papal Inquisition").format(n=plan.extra)] * bool(plan.extra)
        minus = _(" - 1 Augsburg Confession") if plan.minus else ""
        return " + ".join(parts) + minus

    def defender(value, committed):
        return (_("{value} + 1 committed") if committed else _("{value} + 2 uncommitted")).format(value=value)

    a, d = plan.dice(plan.attacker, plan.defender, plan.committed, True)
    lines = [_("round 1: {me} attacker rolls {a} (value {av}); {them} defender {d} (value {dv}); "
               "each 5-6 hits").format(me=me, a=dice_words(a), av=attacker(plan.attacker, True),
                                       them=them, d=dice_words(d),
                                       dv=defender(plan.defender, plan.committed))]
    if plan.second_round:
        rolls = sorted({plan.dice(va, vd, plan.second_committed, False)
                        for _n, va, vd in plan.seconds()})
        told = (_("equal hits: round 2, the {me} attacker drawn at random from values {attackers} "
                  "({av}), the {them} defender from the uncommitted values {defenders} ({dv}): "
                  "{rolls} dice; equal hits again: inconclusive") if not plan.second_committed else
                _("equal hits: round 2, the {me} attacker drawn at random from values {attackers} "
                  "({av}), the {them} defender from the committed values {defenders} ({dv}): "
                  "{rolls} dice; equal hits again: inconclusive"))
        lines.append(told.format(me=me, attackers=list(plan.attackers), av=attacker(_("its value"), False),
                                 them=them, defenders=list(plan.defenders),
                                 dv=defender(_("its value"), plan.second_committed),
                                 rolls=", ".join(f"{x} v {y}" for x, y in rolls)))
    else:
        lines.append(_("equal hits: inconclusive (no second-round debaters given)"))
    lines.append(_("the winner flips one space per hit more; the loser's debater is burnt "
                   "(Protestant) or disgraced (Papal) when that exceeds his printed value, for that "
                   "many VP to the winner"))
    return tuple(lines)


def _pool(name, text, needs) -> Param:
    """A second-round pool; it changes nothing without the other side's (`needs`): with one
    side's pool empty a first-round tie is inconclusive whatever the other holds."""
    return Param(name, "ints", text, low=MIN_VALUE, high=MAX_VALUE, flag=name.replace("_", "-"),
                 metavar="VALUE", needs=needs)


def _unresolved(call: dict) -> bool:
    """True when a first-round tie is left unresolved: a side has no second-round debater."""
    return not (call["attacker_pool"] and (call["defender_pool"] or call["defender_committed_pool"]))


def _second_debaters(call: dict) -> list:
    """The second round with a debater drawn for each side that has none: the weakest against
    the strongest, the strongest against the weakest, and the first round's values again."""
    first = (call["attacker_value"], call["defender_value"])
    out = []
    for a, d in ((MIN_VALUE, MAX_VALUE), (MAX_VALUE, MIN_VALUE), first):
        changes = {}
        if not call["attacker_pool"]:
            changes["attacker_pool"] = [a]
        if not (call["defender_pool"] or call["defender_committed_pool"]):
            changes["defender_pool"] = [d]
        label = ", ".join(f"{k}={v}" for k, v in changes.items()).replace("[", "").replace("]", "")
        if label not in [x for x, _ in out]:
            out.append((label, changes))
    return out


READINGS = (
    Reading("second_round", "the second-round debaters", "none",
            "a first-round tie draws a second-round debater from those left in the zone, which "
            "only the player knows; with none given the tie is counted inconclusive (the "
            "headline's caveat says which share of debates that leaves out)",
            keywords=("attacker_pool", "defender_pool"), marks=("attacker_pool", "defender_pool"),
            when=_unresolved, given_by=lambda call, given: False, points=_second_debaters,
            tried="a second-round debater of value 1 against 4, 4 against 1, and the first "
                  "round's values again"),
    Reading("extra_dice_rounds", "the card dice in round 2", N_("every round"),
            "Thomas More's and the Papal Inquisition's counts are on the cards, not in the "
            "rulebook, which does not say whether they roll in a second round",
            when=lambda call: call["extra_dice"] and not _unresolved(call),
            none="no setting gives the other reading (the first round only)"),
)

RULEBOOK = {"attacker_value": 3, "debater_bonus": True, "defender_value": 4,
            "attacker_pool": [2], "defender_pool": [3]}

register(Spec(
    "his.debate", debate, (
        Param("initiator", "choice", "the power calling the debate (the attacker)",
              choices=INITIATORS),
        Param("attacker_value", "int", "the first attacking debater's debate value (on his "
              "card)", low=MIN_VALUE, high=MAX_VALUE),
        Param("defender_value", "int", "the first defending debater's debate value (on his "
              "card)", low=MIN_VALUE, high=MAX_VALUE),
        Param("defender_committed", "bool", "the first defender was committed (value + 1 dice, "
              "not + 2)"),
        _pool("attacker_pool", "a value the second attacker is drawn from, repeatable (the "
              "attacker's uncommitted debaters in the zone, else its committed ones; none: a "
              "first-round tie is inconclusive)", ("defender_pool", "defender_committed_pool")),
        _pool("defender_pool", "a value of the defender's uncommitted debaters in the zone, "
              "repeatable (the second defender, value + 2 dice)", ("attacker_pool",)),
        _pool("defender_committed_pool", "a value of the defender's committed debaters in the "
              "zone, repeatable (used when defender_pool is empty: value + 1 dice)",
              ("attacker_pool",)),
        Param("augsburg", "bool", "Augsburg Confession played this turn (-1 Papal attack die)",
              only_with=PAPAL_ATTACKER),
        Param("mary_i", "bool", "Mary I rules England and the debate is in the English zone "
              "(the Papal attacker's value doubled for his dice)", only_with=PAPAL_ATTACKER),
        Param("debater_bonus", "bool", "Eck or Gardiner is the first Papal attacker (+1 die in "
              "the first round)", only_with=PAPAL_ATTACKER),
        Param("extra_dice", "int", "Papal attack dice from Thomas More or the Papal Inquisition "
              "(in both rounds: a reading)", low=0, high=MAX_EXTRA)),
    "theological debate (§18.5): more hits win, a tie goes to a second round",
    ("his", "debate"), "attacker_win", kernels=(KERNEL,), words=WORDS, readings=READINGS,
    means=("attacker_flips", "defender_flips"),
    rolled="odds.his.debates.rolled:read",
    examples=(Example("rulebook: eck v luther", RULEBOOK,
                      "the rulebook's example: Eck (7 dice) against Luther (6); on a tie, "
                      "Aleander (2) against Melanchthon (3)", demo=True),
              Example("protestant v committed", {"initiator": "protestant", "attacker_value": 3,
                                                 "defender_value": 1, "defender_committed": True,
                                                 "attacker_pool": [2, 1],
                                                 "defender_committed_pool": [1, 2]}),
              Example("no second-round debaters", {"attacker_value": 4, "defender_value": 2},
                      "a first-round tie left unresolved: the second-round debaters are a "
                      "reading")),
    start={"attacker_value": 2, "defender_value": 2}))
