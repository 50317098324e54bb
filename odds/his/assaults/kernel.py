"""Numba Monte Carlo kernel of one assault (fills the joint of assaults/procedure.py).

The rules of assaults/rules.py (dice, casualty order, success, resolve) are compiled here and
the chance sequence comes from sequence_kernel.py, so every engine reads one description.
The table width and who surprises are compile-time (core.rng.static); the Siege Artillery
policy is read at run time. The siege kernel plays each of its assaults with `assault_roll`.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.dice import hit_rows, inverse_cdf_table, pool_pmf
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
# halved (1: an attacker facing a defending unit), role (0 attacker, 1 defender: its rows)
Fighter = namedtuple("Fighter", ["infantry", "cavalry", "bonus", "halved", "role"])
# inverse-CDF rows [role, 0.. dice] of each side's main roll (on its hit number), their bases,
# and Siege Artillery's dice (3-6); the casualty order
AssaultDice = namedtuple("AssaultDice", ["rows", "bases", "art", "art_base", "cavalry_first"])


def dice_tables(top, cavalry_first, hit_on=(5, 5)):
    """(table width, AssaultDice) for up to `top` dice of each side hitting on its number
    (`hit_on`: attacker's, defender's; N: N-6) and Siege Artillery (2 dice on 3-6 always)."""
    art = [pool_pmf([(2, 3)])]
    width = max(inverse_cdf_table(art)[0].shape[1], *(hit_rows(top, 8, h)[2] for h in hit_on))
    sides = [hit_rows(top, width, h)[:2] for h in hit_on]
    tart, bart = inverse_cdf_table(art, width)
    return width, AssaultDice(np.stack([t for t, _ in sides]), np.stack([b for _, b in sides]),
                              tart[0], bart[0], int(cavalry_first))


def artillery_policy(side):
    """The policy code of `side`'s Siege Artillery (NO_CARD without it)."""
    return POLICY_CODES[side.after[0].policy] if side.after else NO_CARD


def fighters(a, d):
    """Both sides of an assault as Fighter records."""
    halved = int(d.units > 0)
    return (Fighter(a.units - a.cavalry, a.cavalry, a.dice - a.penalty, halved, 0),
            Fighter(d.units - d.cavalry, d.cavalry, d.dice - d.penalty, 0, 1))


def kernel_args(a, d, cavalry_first, pair=None):
    """Arguments of assault.kernel(a, d): core.pair_kernel's for an assault with fixed dice,
    else (mode literals, Siege Artillery policy code, attacker Fighter, defender Fighter,
    AssaultDice) for assault_lane (`pair` False: assault_lane's in any case)."""
    fa, fd = fighters(a, d)
    n = [dice(f.infantry, f.cavalry, f.bonus, f.halved, 0, cavalry_first, False)[0]
         for f in (fa, fd)]
    width, tables = dice_tables(max(n), cavalry_first, (a.hit_on, d.hit_on))
    if fixed_dice(a, d) if pair is None else pair:
        ah, dh = np.meshgrid(np.arange(n[0] + 1), np.arange(n[1] + 1), indexing="ij")
        hit, al, dl = resolve(ah, dh, a.units, d.units)
        cells = np.ravel_multi_index((hit, al, dl), (2, a.units + 1, d.units + 1))
        return pair_args(tables.rows[[0, 1], n], tables.bases[[0, 1], n], cells)
    return (static(width), static(surprise(a, d))), artillery_policy(a), fa, fd, tables


@njit(cache=True, inline="always")
def _roll(st, s, lost, surprised, t, width):
    """(hits, dice rolled, state) of Fighter `s` after losing `lost` units before its roll."""
    n, _ = _dice(s.infantry, s.cavalry, s.bonus, s.halved, lost, t.cavalry_first, surprised)
    hits, st = draw(st, t.rows[s.role, n], t.bases[s.role, n], width)
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
