"""Numba Monte Carlo kernel of the interception roll (fills the joint of interceptions/procedure.py)."""
from numba import njit

from ...core.dice import inverse_cdf_table
from ...core.jit import rule
from ...core.rng import draw, seed_stream
from .rules import settle

_settle = rule(settle)


def kernel_args(two_dice, modifier, target, roller_policy, other_policy):
    """(2d6 table, base, width, modifier, target, policies) for intercept_lane."""
    table, base = inverse_cdf_table([two_dice], 16)
    return table[0], base[0], table.shape[1], modifier, target, roller_policy, other_policy


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def intercept_lane(table, base, width, modifier, target, roller_policy, other_policy,
                   seed, first_chunk, chunk_trials, out, lane):
    """One lane: one count per roll in out[lane, success, roller played, other played, 2d6]."""
    hist = out[lane]  # zeroed by the runner (no array copy: core.montecarlo)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            total, st = draw(st, table, base, width)
            ok, mine, theirs = _settle(total, modifier, target, roller_policy, other_policy)
            hist[ok, mine, theirs, total] += 1
