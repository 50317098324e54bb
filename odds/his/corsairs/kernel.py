"""Numba Monte Carlo kernel of piracy (fills the joint of raid.py): every die rolled."""
from numba import njit

from ...core.dice import draw_row
from ...core.rng import draw_sum, seed_stream


def kernel_args(hit, anti_dice, corsairs, one_port, rating):
    """(hit table, base, width, anti-piracy dice, corsairs, one port, rating) for piracy_lane."""
    return (*draw_row(hit), anti_dice, corsairs, one_port, rating)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def piracy_lane(table, base, width, anti_dice, corsairs, one_port, rating, seed, first_chunk,
                chunk_trials, out, lane):
    """One lane: out[lane, corsairs killed, piracy hits] counts piracy actions."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            killed, st = draw_sum(st, anti_dice, table, base, width)
            killed = min(killed, corsairs)
            left = corsairs - killed
            hits = 0
            if left > 0:
                dice = rating + (1 if left == 1 or one_port else 2)
                hits, st = draw_sum(st, dice, table, base, width)
            hist[killed, hits] += 1
