"""Interception and avoid-battle rolls (Here I Stand §13.2-13.3, §16.1): the rule, numpy only.

A roll of 2d6 plus a modifier succeeds at `target` or more. Professional Rowers (naval) adds
2 for the rolling side or subtracts 2 when the other side plays it, after the roll; the
rolling side decides first. Policy codes: 0 not held, 1 always, 2 if needed (the roller when
the roll would fail, the other side when it would succeed), read by `cards.plays` like every
after-roll card. Written with ufunc-style operations so the exact engine (arrays) and the
kernel (numba scalars) share it.
"""
from ..cards import plays

ROWERS = 2  # the change to the roll when Professional Rowers is played


def settle(total, modifier, target, roller_policy, other_policy):
    """(success, roller played, other side played) for a 2d6 `total` (0/1 each)."""
    roll = total + modifier
    roller = plays(roller_policy, roll < target)
    roll = roll + ROWERS * roller
    other = plays(other_policy, roll >= target)
    roll = roll - ROWERS * other
    return (roll >= target) * 1, roller * 1, other * 1
