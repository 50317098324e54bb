"""Numba Monte Carlo kernels of Reformation and Counter-Reformation attempts, each side's highest
die drawn at once from its distribution (core.dice.highest_rows): alike attempts (fills the
joint of attempt.py) and attempts on ranked targets following the optimal choice (fills the
joint of ranking.py)."""
from numba import njit

from ...core.dice import highest_rows
from ...core.jit import rule
from ...core.rng import draw, seed_stream
from .rules import settle

_settle = rule(settle)


def highest_args(top, *args):
    """A lane's arguments: the highest of n dice (rows, bases, width; n = 0 .. top), then
    `args`."""
    return (*highest_rows(top), *args)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def attempt_lane(rows, bases, width, a, d, modifier, automatic_on, ties, attempts, seed,
                 first_chunk, chunk_trials, out, lane):
    """One lane: one count per action in out[lane, flipped, automatic, first attempt's
    attacker highest, its defender highest (0: no roll)]."""
    hist = out[lane]  # zeroed by the runner
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            flipped = automatic = first_high = first_low = 0
            for k in range(attempts):
                high, st = draw(st, rows[a], bases[a], width)
                high += modifier
                low = 0
                if high < automatic_on:
                    low, st = draw(st, rows[d], bases[d], width)
                ok, auto = _settle(high, low, automatic_on, ties)
                flipped += ok
                automatic += auto
                if k == 0:
                    first_high, first_low = high, low
            hist[flipped, automatic, first_high, first_low] += 1


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def ranking_lane(rows, bases, width, policy, masks, att, dfn, rule, n, attempts, seed,
                 first_chunk, chunk_trials, out, lane):
    """One lane: one count per action in out[lane, spaces flipped, first target flipped], the
    targets chosen by `policy` (index tried << n | flipped); `att`, `dfn`: each target's dice
    with k neighbours flipped; `rule`: its attacker modifier, automatic die and ties."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            tried = flipped = count = first = 0
            for k in range(attempts):
                t = policy[(tried << n) | flipped]
                near = flipped & masks[t]
                flipped_near = 0
                while near:
                    flipped_near += near & 1
                    near >>= 1
                k_a, k_d = att[t, flipped_near], dfn[t, flipped_near]
                high, st = draw(st, rows[k_a], bases[k_a], width)
                high += rule[t, 0]
                low = 0
                if high < rule[t, 1]:
                    low, st = draw(st, rows[k_d], bases[k_d], width)
                ok, _ = _settle(high, low, rule[t, 1], rule[t, 2])
                tried |= 1 << t
                flipped |= ok << t
                count += ok
                if k == 0:
                    first = ok
            hist[count, first] += 1
