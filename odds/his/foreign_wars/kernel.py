"""Numba Monte Carlo kernel of a foreign war (fills the joint of campaign.py): each battle's
hits drawn at once from their binomials (core.dice.hit_rows), losses by the field rules."""
from numba import njit

from ...core.dice import hit_rows
from ...core.jit import rule
from ...core.rng import draw, seed_stream
from ..field.rules import dice, resolve

_dice = rule(dice)
_resolve = rule(resolve)


def kernel_args(units, foreign, leader, attempts):
    """(hits of n dice: rows, bases, width; units, foreign units, leader, attempts) for
    war_lane; a side rolls at most its starting units' dice."""
    top = max(dice(units, leader, 0, False)[0], dice(foreign, 0, 0, False)[0])
    return (*hit_rows(top), units, foreign, leader, attempts)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def war_lane(table, base, width, units, foreign, leader, attempts, seed, first_chunk,
             chunk_trials, out, lane):
    """One lane: out[lane, end (0 won, 1 wiped out, 2 not over), CP spent, units left]."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            a, d, cp, end = units, foreign, 0, 2
            while cp < attempts and end == 2:
                cp += 1
                adice, _r = _dice(a, leader, 0, False)
                ddice, _r = _dice(d, 0, 0, False)
                ah, st = draw(st, table[adice], base[adice], width)
                dh, st = draw(st, table[ddice], base[ddice], width)
                _code, a_loss, d_loss = _resolve(ah, dh, adice, ddice, a, d)
                a, d = a - a_loss, d - d_loss
                if d == 0:
                    end = 0
                elif a == 0:
                    end = 1
            hist[end, cp, a] += 1
