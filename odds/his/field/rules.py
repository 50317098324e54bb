"""Field battle rules (docs/rules.md, Field battle), numpy only: the exact engine calls them on arrays and
the kernel compiles them with numba. Units and dice are counts of units and of dice."""
import numpy as np


def dice(units, bonus, lost, surprised):
    """(dice hitting on 5-6, rolls?) of a side of `units` units with `bonus` dice beyond one per
    unit (leader, defender's +1, cards, minus Tercios' penalty) after losing `lost` units before
    its roll (Surprise Attack). A surprised side with no unit left rolls nothing."""
    left = units - min(lost, units)
    rolls = left > 0 or not surprised
    return max(0, left + bonus) * rolls, rolls


def resolve(ah, dh, adice, ddice, ua, ud):
    """Winner and losses from the hits and dice rolled (scalars or arrays; the kernel's too).

    Returns (code, attacker losses, defender losses): more hits wins, ties to the defender;
    one unit lost per enemy hit; if both sides are wiped out, the side that rolled more dice
    keeps one unit (equal dice: the defender).
    """
    a_loss = np.minimum(dh, ua)
    d_loss = np.minimum(ah, ud)
    both = (a_loss == ua) & (d_loss == ud) & (ua > 0) & (ud > 0)
    keep_a = both & (adice > ddice)
    keep_d = both & (adice <= ddice)
    code = (ah > dh) + 2 * both
    return code, a_loss - keep_a, d_loss - keep_d


def needs_help(role_is_attacker, ah, dh):
    """True where the side would not win the battle as the dice stand (`if-needed` cards)."""
    return (ah <= dh) if role_is_attacker else (dh < ah)


def cell_index(ah, dh, adice, ddice, ua, ud):
    """Flat index into the joint [code, attacker losses, defender losses] of these hits and dice."""
    code, al, dl = resolve(ah, dh, adice, ddice, ua, ud)
    return (code * (ua + 1) + al) * (ud + 1) + dl
