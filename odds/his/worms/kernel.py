"""Numba Monte Carlo kernel of the Diet of Worms (fills the joint of diet.py): each side's card
drawn from its strategy, then each side's hits drawn at once from their binomial."""
import numpy as np
from numba import njit

from ...core.dice import draw_row, hit_rows
from ...core.rng import draw, seed_stream


def kernel_args(p_dice, p_weight, c_dice, c_weight):
    """(hits of n dice: rows, bases, width; Protestant dice by option, its option row, base,
    width; Catholic dice by option, its option row, base, width) for diet_lane."""
    return (*hit_rows(max(max(p_dice), max(c_dice))), np.asarray(p_dice, dtype=np.int64),
            *draw_row(np.asarray(p_weight, float)), np.asarray(c_dice, dtype=np.int64),
            *draw_row(np.asarray(c_weight, float)))


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def diet_lane(hit, hit_base, hit_width, p_dice, p_row, p_base, p_width, c_dice, c_row, c_base,
              c_width, seed, first_chunk, chunk_trials, out, lane):
    """One lane: out[lane, Protestant hits, Catholic hits] counts Diets."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            i, st = draw(st, p_row, p_base, p_width)
            j, st = draw(st, c_row, c_base, c_width)
            ph, st = draw(st, hit[p_dice[i]], hit_base[p_dice[i]], hit_width)
            ch, st = draw(st, hit[c_dice[j]], hit_base[c_dice[j]], hit_width)
            hist[ph, ch] += 1
