"""The chance sequence of sequence.py for the numba kernels (inlined into each lane).

A procedure builds its main roll with `sequence(roll)` from its own roll, `roll(st, side, lost,
surprised, shared, width) -> (hits, dice rolled, state)`, which reads its dice rule
(field.rules.dice, assaults.rules.dice); the sequence decides who rolls first and after which
losses, and `after_roll` whether an after-roll card is played.
"""
from numba import njit

from ...core.jit import rule
from ...core.rng import draw
from ..cards import plays
from .sequence import surprised_out

_plays = rule(plays)
surprised_out_nb = rule(surprised_out)


def sequence(roll):
    """main_roll(st, first, a, d, shared, width) -> (attacker hits, attacker dice, defender
    hits, defender dice, state) of the main roll, with the procedure's `roll` inlined;
    `first`: 0 both at once, 1 the attacker surprises, 2 the defender surprises."""

    @njit(inline="always")
    def main_roll(st, first, a, d, shared, width):
        # one call site per roll (each inlined call costs compile time): the side that rolls
        # first, then the other, surprised and short of the first roll's hits if `first`
        one, two = (d, a) if first == 2 else (a, d)
        h1, n1, st = roll(st, one, 0, False, shared, width)
        h2, n2, st = roll(st, two, h1 * (first != 0), first != 0, shared, width)
        if first == 2:
            return h2, n2, h1, n1, st
        return h1, n1, h2, n2, st

    return main_roll


@njit(cache=True, inline="always")
def after_roll(st, policy, needed, able, row, base, width):
    """(hits, played, state) of an after-roll card: its dice are drawn when `policy` (a code of
    cards.py) plays it given `needed`, and the side is `able` (not sequence.surprised_out)."""
    if able and _plays(policy, needed):
        hits, st = draw(st, row, base, width)
        return hits, True, st
    return 0, False, st
