"""Theological debates (Here I Stand §18.5): the rule, numpy only.

The debate's attacker rolls his debate value + 3 dice (the value doubled for a Papal debater
in the English zone under Mary I; -1 die for a Papal attacker under the Augsburg Confession;
bonus dice from Eck or Gardiner and from Thomas More or the Papal Inquisition); the defender
rolls his value + 1 if he was committed, + 2 if uncommitted. Each 5-6 is a hit; more hits win
by the difference, and the loser's debater is burnt or disgraced when the difference exceeds
his debate value. Written with ufunc-style operations so the exact engine (arrays) and the
kernel (numba scalars, through core.jit.rule) share it.
"""

TIE, ATTACKER, DEFENDER = 0, 1, 2  # the outcome of a round


def attacker_dice(value, doubled, minus, bonus):
    """Dice of the attacking debater of debate value `value`: `doubled` 1 doubles the value
    (Mary I), `minus` 1 takes a die away (Augsburg), `bonus` dice are added."""
    return value * (1 + doubled) + 3 - minus + bonus


def defender_dice(value, committed):
    """Dice of the defending debater: his value + 2, or + 1 when he was already committed."""
    return value + 2 - committed


def settle(attacker_hits, defender_hits):
    """(outcome, margin) of a round: ATTACKER or DEFENDER for more hits, TIE for equal hits;
    the margin is the difference in hits (the spaces the winner flips)."""
    ahead = attacker_hits - defender_hits
    outcome = (ahead > 0) * ATTACKER + (ahead < 0) * DEFENDER
    return outcome, ahead * (ahead > 0) - ahead * (ahead < 0)


def burnt_vp(margin, loser_value):
    """VP the winner earns: the losing debater's printed value when the margin exceeds it (he
    is burnt or disgraced), else 0."""
    return loser_value * (margin > loser_value)
