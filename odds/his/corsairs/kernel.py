"""Numba Monte Carlo kernel of piracy (fills the joint of raid.py): each roll's hits drawn at
once from its binomial (core.dice.hit_rows)."""
from numba import njit

from ...core.dice import hit_rows
from ...core.rng import draw, seed_stream


def kernel_args(anti_dice, corsairs, one_port, rating):
    """(hits of n dice: rows, bases, width; anti-piracy dice, corsairs, one port, rating) for
    piracy_lane."""
    return (*hit_rows(max(anti_dice, rating + 2)), anti_dice, corsairs, one_port, rating)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def piracy_lane(table, base, width, anti_dice, corsairs, one_port, rating, seed, first_chunk,
                chunk_trials, out, lane):
    """One lane: out[lane, corsairs killed, piracy hits] counts piracy actions."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            killed, st = draw(st, table[anti_dice], base[anti_dice], width)
            killed = min(killed, corsairs)
            left = corsairs - killed
            hits = 0
            if left > 0:
                dice = rating + (1 if left == 1 or one_port else 2)
                hits, st = draw(st, table[dice], base[dice], width)
            hist[killed, hits] += 1
