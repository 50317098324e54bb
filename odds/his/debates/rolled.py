"""A theological debate's rolls as a game's record gives them (core.rolled): the first round's
dice of each debater, hitting on 5-6 (`attacker_dice`, `defender_dice`, or their hits), and
on equal hits, where the pools are given, the second round's (a second list in each field:
`attacker_dice = [[...], [...]]`). The second round's debaters are drawn at random from the
pools, which the dice do not show: the record names their debate values in `choices`
(`second_attacker`, `second_defender`). debates/rules.py's `settle` and `burnt_vp` decide, as
in both engines; each side is scored by the spaces it flipped."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ...core.rolled import Outcome
from ..rolls.reading import BATTLE_DIE
from .debate import make_debate
from .rules import ATTACKER, DEFENDER, TIE, burnt_vp, settle

ARGUMENTS = ("initiator", "attacker_value", "defender_value", "defender_committed", "attacker_pool",
             "defender_pool", "defender_committed_pool", "augsburg", "mary_i", "debater_bonus",
             "extra_dice")  # make_debate's, in its order


def _drawn(pool) -> dict:
    """Debate value -> its chance of being drawn from `pool`."""
    return {v: Fraction(n, len(pool)) for v, n in sorted(Counter(pool).items())}


def read(keywords: dict, record) -> Outcome:
    """attacker_dice, defender_dice (hits on 5-6), a second list each for a second round, whose
    debaters choices names: second_attacker, second_defender."""
    plan = make_debate(*(keywords[k] for k in ARGUMENTS))
    attacker, defender, committed = plan.attacker, plan.defender, plan.committed
    outcome = margin = 0
    for k in range(2 if plan.second_round else 1):
        if k:
            attacker = record.choice("second_attacker", _drawn(plan.attackers),
                                     "the debate value of the attacker drawn for the second round")
            defender = record.choice("second_defender", _drawn(plan.defenders),
                                     "the debate value of the defender drawn for the second round")
            committed = plan.second_committed
        a, d = plan.dice(attacker, defender, committed, k == 0)
        outcome, margin = settle(record.hits("attacker_dice", "attacker", a, BATTLE_DIE, k),
                                 record.hits("defender_dice", "defender", d, BATTLE_DIE, k))
        if outcome != TIE:
            break
    loser = defender if outcome == ATTACKER else attacker
    vp = int(burnt_vp(margin, loser))
    counts = {f"{role}_{what}": value * (outcome == won)
              for role, won in (("attacker", ATTACKER), ("defender", DEFENDER))
              for what, value in (("flips", int(margin)), ("vp", vp))}
    return Outcome(outcome == ATTACKER, counts, dealt={"attacker": "attacker_flips",
                                                       "defender": "defender_flips"})
