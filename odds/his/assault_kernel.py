"""Numba Monte Carlo kernel of one assault (fills the joint of assault.py).

The rule functions of assault.py (dice, casualty order, success, resolve) are compiled here,
so both engines read one description. Table width, Surprise Attack and the Siege Artillery
policy are compile-time (core.rng.static); the siege kernel reuses `roll_pair` and `artillery`.
"""
import numpy as np
from numba import njit

from ..core.dice import binomial_pmf, inverse_cdf_table, pool_pmf
from ..core.rng import draw, seed_stream, static
from .assault import attacker_dice, infantry_left, resolve, side_dice, succeeds

_attacker_dice = njit(cache=True, inline="always")(attacker_dice)
_infantry_left = njit(cache=True, inline="always")(infantry_left)
_resolve = njit(cache=True, inline="always")(resolve)
succeeds_nb = njit(cache=True, inline="always")(succeeds)

POLICY_CODES = {"always": 1, "if-needed": 2}


def dice_tables(top, width=8):
    """Inverse-CDF tables of 0..top dice hitting on 5-6, and of Siege Artillery's 2 dice on 3-6."""
    t56, b56 = inverse_cdf_table([binomial_pmf(n) for n in range(top + 1)], width)
    tart, bart = inverse_cdf_table([pool_pmf([(2, 3)])], width)
    width = max(t56.shape[1], tart.shape[1])
    t56, b56 = inverse_cdf_table([binomial_pmf(n) for n in range(top + 1)], width)
    tart, bart = inverse_cdf_table([pool_pmf([(2, 3)])], width)
    return width, t56, b56, tart[0], bart[0]


def artillery_policy(side):
    """0 no Siege Artillery, 1 always, 2 if-needed."""
    return POLICY_CODES[side.after[0].policy] if side.after else 0


def kernel_args(a, d, cavalry_first):
    """(mode literals, scalars, tables) for assault_kernel."""
    defended = int(d.units > 0)
    top = max(side_dice(a, a.units - a.cavalry, defended, True),
              side_dice(d, d.units - d.cavalry, defended, False))
    width, t56, b56, tart, bart = dice_tables(top)
    surprise = 1 if a.surprise else 2 if d.surprise else 0
    return ((static(width), static(surprise), static(artillery_policy(a))), a.units, a.cavalry, d.units, d.cavalry,
            a.dice - a.penalty, d.dice - d.penalty, defended, int(cavalry_first),
            t56, b56, tart, bart)


@njit(cache=True, inline="always")
def roll_pair(st, surprise, ua, ca, ud, cd, abonus, dbonus, defended, cav_first, t56, b56, width):
    """(attacker hits, defender hits, state) of the main roll; the surprised side rolls after
    its losses, with the dice its surviving non-cavalry units give, or not at all."""
    ia = ua - ca
    idf = ud - cd
    if surprise == 1:
        ah, st = draw(st, t56[max(0, _attacker_dice(ia, abonus, defended))],
                      b56[max(0, _attacker_dice(ia, abonus, defended))], width)
        left = _infantry_left(idf, cd, ah, cav_first)
        n = max(0, left + dbonus) * (ah < ud)
        dh, st = draw(st, t56[n], b56[n], width)
    elif surprise == 2:
        n = max(0, idf + dbonus)
        dh, st = draw(st, t56[n], b56[n], width)
        left = _infantry_left(ia, ca, dh, cav_first)
        n = max(0, _attacker_dice(left, abonus, defended)) * (dh < ua)
        ah, st = draw(st, t56[n], b56[n], width)
    else:
        n = max(0, _attacker_dice(ia, abonus, defended))
        ah, st = draw(st, t56[n], b56[n], width)
        n = max(0, idf + dbonus)
        dh, st = draw(st, t56[n], b56[n], width)
    return ah, dh, st


@njit(cache=True, inline="always")
def artillery(st, policy, ah, dh, ua, ud, tart, bart, width):
    """(attacker hits after Siege Artillery, played?, state); policy 0 none, 1 always, 2 if-needed."""
    if policy == 0 or (policy == 2 and succeeds_nb(ah, dh, ua, ud)):
        return ah, False, st
    more, st = draw(st, tart, bart, width)
    return ah + more, True, st


@njit(cache=True, nogil=True)
def assault_lane(modes, ua, ca, ud, cd, abonus, dbonus, defended, cav_first,
                 t56, b56, tart, bart, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per assault in out[lane, hit, attacker losses,
    defender losses] (modes: table width, who surprises, Siege Artillery policy)."""
    width, surprise, policy = len(modes[0]), len(modes[1]), len(modes[2])
    hist = np.zeros(out.shape[1:], dtype=np.int64)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ah, dh, st = roll_pair(st, surprise, ua, ca, ud, cd, abonus, dbonus, defended,
                                   cav_first, t56, b56, width)
            ah, _, st = artillery(st, policy, ah, dh, ua, ud, tart, bart, width)
            hit, al, dl = _resolve(ah, dh, ua, ud)
            hist[hit, al, dl] += 1
    out[lane] = hist
