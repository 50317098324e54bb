"""The chance sequence of sequence.py for the numba kernels (inlined into each lane).

A procedure builds its main roll with `sequence(roll)` from its own roll, `roll(st, side, lost,
surprised, shared, width) -> (hits, dice rolled, state)`, which reads its dice rule
(field_rules.dice, assault_rules.dice); the sequence decides who rolls first and after which
losses, and `after_roll` whether an after-roll card is played.
"""
from numba import njit

from ..core.jit import rule
from ..core.rng import draw
from .cards import plays
from .sequence import surprised_out

_plays = rule(plays)
surprised_out_nb = rule(surprised_out)


def sequence(roll):
    """main_roll(st, first, a, d, shared, width) -> (attacker hits, attacker dice, defender
    hits, defender dice, state) of the main roll, with the procedure's `roll` inlined;
    `first`: 0 both at once, 1 the attacker surprises, 2 the defender surprises."""

    @njit(inline="always")
    def main_roll(st, first, a, d, shared, width):
        if first == 2:
            dh, dn, st = roll(st, d, 0, False, shared, width)
            ah, an, st = roll(st, a, dh, True, shared, width)
        else:
            ah, an, st = roll(st, a, 0, False, shared, width)
            dh, dn, st = roll(st, d, ah * (first == 1), first == 1, shared, width)
        return ah, an, dh, dn, st

    return main_roll


@njit(cache=True, inline="always")
def after_roll(st, policy, needed, able, row, base, width):
    """(hits, played, state) of an after-roll card: its dice are drawn when `policy` (a code of
    cards.py) plays it given `needed`, and the side is `able` (not sequence.surprised_out)."""
    if able and _plays(policy, needed):
        hits, st = draw(st, row, base, width)
        return hits, True, st
    return 0, False, st
