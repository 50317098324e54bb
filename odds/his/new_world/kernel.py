"""Numba Monte Carlo kernels of the New World: a voyage's two 2d6 rolls, a raider's dice."""
from numba import njit

from ...core.dice import inverse_cdf_table
from ...core.jit import rule
from ...core.rng import draw, seed_stream
from .tables import raider_roll

_raider_roll = rule(raider_roll)


def voyage_args(two_dice, first_modifier, second_from):
    """(2d6 table, base, width, first modifier, second-roll threshold) for voyage_lane."""
    table, base = inverse_cdf_table([two_dice], 16)
    return table[0], base[0], table.shape[1], first_modifier, second_from


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def voyage_lane(table, base, width, first_modifier, second_from, seed, first_chunk,
                chunk_trials, out, lane):
    """One lane: out[lane, first 2d6, second 2d6 (0: not rolled)] counts voyages; the second
    roll is made when the first total + modifier reaches `second_from`."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            first, st = draw(st, table, base, width)
            second = 0
            if first + first_modifier >= second_from:
                second, st = draw(st, table, base, width)
            hist[first, second] += 1


def raider_args(die, cards, galleons):
    """(1d6 table, base, width, cards, galleons) for raider_lane."""
    table, base = inverse_cdf_table([die], 8)
    return table[0], base[0], table.shape[1], cards, galleons


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def raider_lane(table, base, width, cards, galleons, seed, first_chunk, chunk_trials, out,
                lane):
    """One lane: out[lane, cards stolen, raider still in play] over `cards` Hapsburg cards."""
    hist = out[lane]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            stolen, alive = 0, 1
            for _card in range(cards):
                if alive:
                    die, st = draw(st, table, base, width)
                    took, gone = _raider_roll(die, galleons)
                    stolen += took
                    alive -= gone
            hist[stolen, alive] += 1
