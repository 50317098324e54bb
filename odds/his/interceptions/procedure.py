"""Interception and avoid battle (Here I Stand §13.2-13.3, §16.1): exact engine and API.

Land: 2d6 + the best leader's battle rating, +1 for an Ottoman stack with cavalry, -1 for a
non-Ottoman stack facing Ottoman cavalry. Naval: 2d6 + the best naval leader's rating, and
Professional Rowers (+2 for the roller, -2 played by the other side) after the roll. The roll
succeeds on `succeeds_on` (9) or more. Outcome joint: ``joint[success, roller played Rowers,
other side played Rowers, 2d6 total]``; the kernel (interceptions/kernel.py) fills the same joint.
"""
from __future__ import annotations

import numpy as np

from ...core.dice import convolve
from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...errors import OddsError, check_bool, check_int, check_list
from ...i18n import _
from ...registry import Example, Param, Spec, register
from .. import leaders
from ..leaders import MAX_LEADER
from ..cards import POLICY_CODES, canonical, parse
from .rules import settle

TWO_DICE = convolve(np.r_[0, np.full(6, 1 / 6)], np.r_[0, np.full(6, 1 / 6)])  # index = total
ROWERS = "professional-rowers"
KINDS = {"intercept": "his.intercept", "avoid-battle": "his.avoid_battle"}

WORDS = Words("Succeeds")


def exact_joint(modifier, target, roller_policy, other_policy) -> np.ndarray:
    """The joint outcome distribution over the eleven 2d6 totals."""
    totals = np.arange(len(TWO_DICE))
    ok, mine, theirs = settle(totals, modifier, target, roller_policy, other_policy)
    joint = np.zeros((2, 2, 2, len(TWO_DICE)))
    np.add.at(joint, (ok, mine, theirs, totals), TWO_DICE)
    return joint


def summarise(joint):
    """P(success), how often each side plays Rowers, and the pmf of the 2d6 total."""
    add = np.add.reduce
    return ({"success": add(joint[1].reshape(-1)),
             "roller_plays_rowers": add(joint[:, 1].reshape(-1)),
             "other_plays_rowers": add(joint[:, :, 1].reshape(-1))},
            {"two_dice": add(add(add(joint, axis=0), axis=0), axis=0)})


def _rowers(cards, field, naval) -> int:
    """Policy code of Professional Rowers among `cards` (0: not held)."""
    code = 0
    for spec in cards:
        card, policy = parse(spec, field)
        if card.name != ROWERS:
            raise OddsError(f"{field}: {card.name!r} cannot be played on an interception or "
                            f"avoid-battle roll (allowed: {ROWERS})")
        if not naval:
            raise OddsError(_("{field}: {card} is a naval card (allowed: in a naval roll)").format(
                field=field, card=repr(ROWERS)))
        code = POLICY_CODES[policy]
    return code


def modifiers(keywords: dict) -> tuple:
    """(modifier, target, the roller's Rowers policy code, the other side's) of a roll's
    keywords, validated (one line naming a keyword that cannot be)."""
    naval = check_bool("naval", keywords["naval"])
    best = leaders.leader("leader", keywords["leader"], leaders.NAVAL if naval else leaders.ARMY)
    cavalry = check_bool("cavalry", keywords["cavalry"])
    against = check_bool("against_cavalry", keywords["against_cavalry"])
    if naval and (cavalry or against):
        raise OddsError(_("cavalry/against_cavalry: cavalry modifiers apply to land rolls only "
                          "(allowed: neither in a naval roll)"))
    if cavalry and against:
        raise OddsError(_("cavalry and against_cavalry: the +1 is for an Ottoman stack, the -1 "
                          "for a non-Ottoman one (allowed: at most one of them)"))
    target = check_int("succeeds_on", keywords["succeeds_on"], 2, 20)
    cards, other_cards = (list(check_list(name, keywords[name])) for name in ("cards", "other_cards"))
    mine, theirs = _rowers(cards, "cards", naval), _rowers(other_cards, "other_cards", naval)
    if mine and theirs:
        raise OddsError(f"other_cards: {ROWERS!r} is already held by the roller (each card "
                        "exists once in the deck)")
    return best.rating + cavalry - against, target, mine, theirs


def interception(*, leader=0, cavalry=False, against_cavalry=False, naval=False, cards=(),
                 other_cards=(), succeeds_on=9, kind="intercept", method="auto", trials=None,
                 seed=None, precision=None, max_trials=10**9, threads=None, progress=None):
    """Odds of an interception or avoid-battle roll (`kind`: 'intercept' or 'avoid-battle').

    `leader`: the rolling stack's best battle (or naval) rating; `cavalry`: an Ottoman stack
    with cavalry (+1); `against_cavalry`: a non-Ottoman stack facing Ottoman cavalry (-1);
    `naval`: a naval roll (no cavalry modifiers; Professional Rowers allowed). `cards` are the
    roller's, `other_cards` the other side's ('professional-rowers[:always|if-needed]').
    Returns a Result: success, roller_plays_rowers, other_plays_rowers, pmf two_dice.
    """
    if kind not in KINDS:
        raise OddsError(f"kind: {kind!r} is not allowed (allowed: {', '.join(KINDS)})")
    modifier, target, mine, theirs = modifiers(dict(
        leader=leader, cavalry=cavalry, against_cavalry=against_cavalry, naval=naval, cards=cards,
        other_cards=other_cards, succeeds_on=succeeds_on))
    naval = check_bool("naval", naval)
    best = leaders.leader("leader", leader, leaders.NAVAL if naval else leaders.ARMY)
    cards, other_cards = (list(check_list(name, c)) for name, c in (("cards", cards), ("other_cards", other_cards)))
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {"leader": str(best), "modifier": modifier, "succeeds_on": target, "naval": naval,
                "cards": [canonical(c, "cards") for c in cards],
                "other_cards": [canonical(c, "other_cards") for c in other_cards]}

    def kernel_args():
        from .kernel import kernel_args

        return kernel_args(TWO_DICE, modifier, target, mine, theirs)

    proc = Procedure(KINDS[kind], (2, 2, 2, len(TWO_DICE)), summarise, "success",
                     lambda: exact_joint(modifier, target, mine, theirs),
                     ("odds.his.interceptions.kernel", "intercept_lane"), kernel_args, settings, words=WORDS)
    return solve(proc, method, mc)


def _params() -> tuple:
    card = f"{ROWERS}[:always|if-needed] (naval only)"
    return (
        Param("leader", "leader", "the rolling stack's best leader: a battle (or naval) rating "
              "or a name", low=0, high=MAX_LEADER,
              choices=leaders.choices() + leaders.choices(leaders.NAVAL), metavar="R|NAME",
              only_with={**{name: ({"naval": (False,)},) for name in leaders.ARMY},
                         **{name: ({"naval": (True,)},) for name in leaders.NAVAL}}),
        Param("cavalry", "bool", "an Ottoman stack with cavalry (+1)",
              clears=("against_cavalry", "naval")),
        Param("against_cavalry", "bool", "a non-Ottoman stack facing Ottoman cavalry (-1)",
              clears=("cavalry", "naval")),
        Param("naval", "bool", "a naval roll: no cavalry modifiers, Professional Rowers allowed",
              clears=("cavalry", "against_cavalry")),
        Param("cards", "cards", f"a card the roller plays: {card}", choices=(ROWERS,),
              flag="card", metavar="CARD[:POLICY]", only_with={ROWERS: ({"naval": (True,)},)}),
        Param("other_cards", "cards", f"a card the other side plays: {card}", choices=(ROWERS,),
              flag="other-card", metavar="CARD[:POLICY]", only_with={ROWERS: ({"naval": (True,)},)}),
        Param("succeeds_on", "int", "the total that succeeds (setting)", low=2, high=20))


for _kind, _help, _examples in (
        ("intercept", "interception roll (2d6 + leader, 9 or more)", (
            Example("leader 2", {"leader": 2}),
            Example("ottoman cavalry", {"leader": 1, "cavalry": True}),
            Example("naval, rowers if needed", {"leader": 1, "naval": True,
                                                "cards": ["professional-rowers:if-needed"]}))),
        ("avoid-battle", "avoid-battle roll (2d6 + leader, 9 or more)", (
            Example("against ottoman cavalry", {"leader": 2, "against_cavalry": True}),
            Example("naval, rowers against", {"leader": 1, "naval": True,
                                              "other_cards": ["professional-rowers:if-needed"]})))):
    register(Spec(KINDS[_kind], interception, _params(), _help, ("his", _kind), "success",
                  kernels=("odds.his.interceptions.kernel",), preset={"kind": _kind},
                  examples=_examples, start={"leader": 1}, words=WORDS,
                  rolled="odds.his.interceptions.rolled:read"))
