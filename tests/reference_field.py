"""A slow, independent field-battle reference: every die enumerated as hit/miss, Fractions.

Written from docs/rules.md, Field battle without the package's code: straightforward loops and ifs over
each die, so it shares no logic with the exact engine or the kernel it checks.
"""
from fractions import Fraction
from itertools import product


def die_outcomes(n, p_hit):
    """(hits, probability) over every hit/miss pattern of n dice."""
    out = {}
    for pattern in product((0, 1), repeat=n):
        p = Fraction(1)
        for hit in pattern:
            p *= p_hit if hit else 1 - p_hit
        out[sum(pattern)] = out.get(sum(pattern), 0) + p
    return out


FIVE_SIX = Fraction(1, 3)
FOUR_SIX = Fraction(1, 2)


def roll(units, extra56, dice46):
    """Distribution of (hits, dice) for a side rolling units + extra56 dice at 5-6 and dice46 at 4-6."""
    n56 = max(0, units + extra56)
    out = {}
    for h1, p1 in die_outcomes(n56, FIVE_SIX).items():
        for h2, p2 in die_outcomes(dice46, FOUR_SIX).items():
            key = (h1 + h2, n56 + dice46)
            out[key] = out.get(key, 0) + p1 * p2
    return out


def battle(ua, ud, a_extra, d_extra, a46=0, d46=0, surprise=None, jan=None):
    """Dict (attacker_won, a_loss, d_loss) -> Fraction.

    a_extra/d_extra: 5-6 dice beyond units (leader, +1 defender, cards, minus Tercios);
    surprise: 'attacker'/'defender'/None; jan: (side, dice, policy) or None.
    """
    out = {}

    def add(ah, adice, dh, ddice, p, out_side=None):
        """`out_side`: the side a Surprise Attack wiped out before it rolled (no card)."""
        if jan is not None and jan[0] != out_side:
            side, n, policy = jan
            winning = ah > dh if side == "attacker" else dh >= ah
            if policy == "always" or not winning:
                for h, q in die_outcomes(n, FIVE_SIX).items():
                    if side == "attacker":
                        finish(ah + h, adice + n, dh, ddice, p * q)
                    else:
                        finish(ah, adice, dh + h, ddice + n, p * q)
                return
        finish(ah, adice, dh, ddice, p)

    def finish(ah, adice, dh, ddice, p):
        a_loss, d_loss = min(dh, ua), min(ah, ud)
        if ua > 0 and ud > 0 and a_loss == ua and d_loss == ud:
            if adice > ddice:
                a_loss -= 1
            else:
                d_loss -= 1
        key = (ah > dh, a_loss, d_loss)
        out[key] = out.get(key, 0) + p

    if surprise is None:
        for (ah, adice), pa in roll(ua, a_extra, a46).items():
            for (dh, ddice), pd in roll(ud, d_extra, d46).items():
                add(ah, adice, dh, ddice, pa * pd)
    elif surprise == "attacker":
        for (ah, adice), pa in roll(ua, a_extra, a46).items():
            left = ud - min(ah, ud)
            second = roll(left, d_extra, d46) if left > 0 else {(0, 0): Fraction(1)}
            for (dh, ddice), pd in second.items():
                add(ah, adice, dh, ddice, pa * pd, None if left > 0 else "defender")
    else:
        for (dh, ddice), pd in roll(ud, d_extra, d46).items():
            left = ua - min(dh, ua)
            second = roll(left, a_extra, a46) if left > 0 else {(0, 0): Fraction(1)}
            for (ah, adice), pa in second.items():
                add(ah, adice, dh, ddice, pa * pd, None if left > 0 else "attacker")
    return out
