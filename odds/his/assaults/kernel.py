"""Numba Monte Carlo kernel of one assault (fills the joint of assaults/procedure.py).

The rules of assaults/rules.py (dice, casualty order, success, resolve) are compiled here and
the chance sequence comes from sequence_kernel.py, so every engine reads one description.
The table width and who surprises are compile-time (core.rng.static); the Siege Artillery
policy is read at run time. The siege kernel plays each of its assaults with `assault_roll`.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.dice import binomial_pmf, inverse_cdf_table, pool_pmf
from ...core.jit import rule
from ...core.pair_kernel import pair_args
from ...core.rng import draw, seed_stream, static
from .rules import dice, fails, resolve
from ..cards import NO_CARD, POLICY_CODES
from ..rolls.sequence import fixed_dice, surprise
from ..rolls.sequence_kernel import after_roll, sequence, surprised_out_nb

_dice = rule(dice)
_fails = rule(fails)
_resolve = rule(resolve)

# one side at an assault: non-cavalry units, cavalry, dice beyond one per non-cavalry unit,
# halved (1: an attacker facing a defending unit)
Fighter = namedtuple("Fighter", ["infantry", "cavalry", "bonus", "halved"])
# inverse-CDF rows of 0.. dice on 5-6 and of Siege Artillery's dice; the casualty order
AssaultDice = namedtuple("AssaultDice", ["t56", "b56", "art", "art_base", "cavalry_first"])


def dice_tables(top, cavalry_first):
    """(table width, AssaultDice) for up to `top` dice hitting on 5-6 and Siege Artillery."""
    t56, b56 = inverse_cdf_table([binomial_pmf(n) for n in range(top + 1)])
    tart, bart = inverse_cdf_table([pool_pmf([(2, 3)])])
    width = max(t56.shape[1], tart.shape[1])
    t56, b56 = inverse_cdf_table([binomial_pmf(n) for n in range(top + 1)], width)
    tart, bart = inverse_cdf_table([pool_pmf([(2, 3)])], width)
    return width, AssaultDice(t56, b56, tart[0], bart[0], int(cavalry_first))


def artillery_policy(side):
    """The policy code of `side`'s Siege Artillery (NO_CARD without it)."""
    return POLICY_CODES[side.after[0].policy] if side.after else NO_CARD


def fighters(a, d):
    """Both sides of an assault as Fighter records."""
    halved = int(d.units > 0)
    return (Fighter(a.units - a.cavalry, a.cavalry, a.dice - a.penalty, halved),
            Fighter(d.units - d.cavalry, d.cavalry, d.dice - d.penalty, 0))


def kernel_args(a, d, cavalry_first, pair=None):
    """Arguments of assault.kernel(a, d): core.pair_kernel's for an assault with fixed dice,
    else (mode literals, Siege Artillery policy code, attacker Fighter, defender Fighter,
    AssaultDice) for assault_lane (`pair` False: assault_lane's in any case)."""
    fa, fd = fighters(a, d)
    n = [dice(*f, 0, cavalry_first, False)[0] for f in (fa, fd)]
    width, tables = dice_tables(max(n), cavalry_first)
    if fixed_dice(a, d) if pair is None else pair:
        ah, dh = np.meshgrid(np.arange(n[0] + 1), np.arange(n[1] + 1), indexing="ij")
        hit, al, dl = resolve(ah, dh, a.units, d.units)
        cells = np.ravel_multi_index((hit, al, dl), (2, a.units + 1, d.units + 1))
        return pair_args(tables.t56[n], tables.b56[n], cells)
    return (static(width), static(surprise(a, d))), artillery_policy(a), fa, fd, tables


@njit(cache=True, inline="always")
def _roll(st, s, lost, surprised, t, width):
    """(hits, dice rolled, state) of Fighter `s` after losing `lost` units before its roll."""
    n, _ = _dice(s.infantry, s.cavalry, s.bonus, s.halved, lost, t.cavalry_first, surprised)
    hits, st = draw(st, t.t56[n], t.b56[n], width)
    return hits, n, st


_main_roll = sequence(_roll)


@njit(cache=True, inline="always")
def assault_roll(st, first, policy, a, d, t, width):
    """(attacker hits, defender hits, Siege Artillery played, state) of one assault: the main
    roll (`first`: who surprises), then Siege Artillery under its policy code."""
    ah, _, dh, _, st = _main_roll(st, first, a, d, t, width)
    ua, ud = a.infantry + a.cavalry, d.infantry + d.cavalry
    a_out, _ = surprised_out_nb(first, ah, dh, ua, ud)
    more, played, st = after_roll(st, policy, _fails(ah, dh, ua, ud), not a_out, t.art,
                                  t.art_base, width)
    return ah + more, dh, played, st


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def assault_lane(modes, policy, a, d, t, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per assault in out[lane, code, attacker losses,
    defender losses], code as assault.joint_shape (modes: table width, who surprises, as
    core.rng.static tuples)."""
    width, first = len(modes[0]), len(modes[1])
    ua, ud = a.infantry + a.cavalry, d.infantry + d.cavalry
    hist = out[lane]  # zeroed by the runner (no array copy: core.montecarlo)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ah, dh, played, st = assault_roll(st, first, policy, a, d, t, width)
            hit, al, dl = _resolve(ah, dh, ua, ud)
            hist[hit + 2 * played, al, dl] += 1
