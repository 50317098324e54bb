"""Assault rules (docs/rules.md, Assault), numpy only: the exact engines (assault, siege) call them on
arrays and the kernels compile them with numba. Counts are units, dice and hits."""
import numpy as np


def roll_dice(infantry, bonus, halved):
    """Assault dice: one per non-cavalry unit, halved rounded up when `halved` (an attacker
    facing any defending unit), plus `bonus` (leader, defender's +1, cards)."""
    return infantry - halved * (infantry // 2) + bonus


def infantry_left(infantry, cavalry, losses, cavalry_first):
    """Non-cavalry units left after `losses` casualties taken in the casualty order."""
    lost = np.minimum(np.maximum(losses - cavalry * cavalry_first, 0), infantry)
    return infantry - lost


def dice(infantry, cavalry, bonus, halved, lost, cavalry_first, surprised):
    """(dice of the main roll, hitting on the side's number (the rule: 5-6), rolls?) of a side
    after losing `lost` units before its roll (Surprise Attack); cavalry rolls nothing, and a surprised side wiped out rolls nothing."""
    rolls = lost < infantry + cavalry or not surprised
    left = infantry_left(infantry, cavalry, lost, cavalry_first)
    return max(0, roll_dice(left, bonus, halved)) * rolls, rolls


def succeeds(ah, dh, ua, ud):
    """At least one attacker hit, no defending unit left, at least one attacking survivor."""
    return (ah >= 1) & (ah >= ud) & (dh < ua)


def fails(ah, dh, ua, ud):
    """The assault fails as the dice stand: Siege Artillery `if-needed` is played."""
    return np.logical_not(succeeds(ah, dh, ua, ud))


def resolve(ah, dh, ua, ud):
    """(hit flag, attacker losses, defender losses): one unit lost per enemy hit."""
    return (ah >= 1) * 1, np.minimum(dh, ua), np.minimum(ah, ud)
