"""Numba Monte Carlo kernel of the field battle (fills the joint of field/procedure.py).

A battle with fixed dice (nobody surprises, no after-roll card) is played by the small shared
core.pair_kernel (the numbers of the plain path this kernel had before); field_lane plays the
others. Its mode (table width,
whether card dice exist, who surprises) is compiled in (core.rng.static); after-roll cards are
read at run time (one compiled kernel serves every card and policy). Each side is one
`FieldSide` record.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.dice import hit_rows, inverse_cdf_table, pool_pmf
from ...core.jit import rule
from ...core.pair_kernel import pair_args
from ...core.rng import draw, seed_stream, static
from ..cards import NO_CARD, POLICY_CODES
from .rules import cell_index, dice, needs_help, resolve
from ..rolls.sequence import fixed_dice, surprise
from ..rolls.sequence_kernel import after_roll, sequence, surprised_out_nb

_dice = rule(dice)
_resolve = rule(resolve)
_needs = rule(needs_help)

FieldSide = namedtuple("FieldSide", [
    "units", "bonus",  # units at the roll; dice beyond one per unit (field.rules.dice)
    "t56", "b56",  # inverse-CDF rows of 0.. dice hitting on 5-6
    "tx", "bx", "n_extra",  # rows [nothing, the card dice groups]; dice in those groups
    "policy", "count", "tj", "bj",  # after-roll card: policy code, dice, inverse-CDF row
])


def kernel_args(a, d, pair=None):
    """Arguments of field.kernel(a, d): core.pair_kernel's for a battle with fixed dice, else
    (mode literals, attacker FieldSide, defender FieldSide) for field_lane (`pair` False:
    field_lane's in any case; for fixed dice without card dice both make the same draws)."""
    tables = [_tables(s) for s in (a, d)]
    width = max(t.shape[1] for side in tables for t in side[::2])
    sides = []
    for s, (t56, b56, tx, bx, tj, bj) in zip((a, d), (_tables(s, width) for s in (a, d))):
        card = s.after[0] if s.after else None  # a field battle has one after-roll card at most
        sides.append(FieldSide(s.units, s.dice - s.penalty, t56, b56, tx, bx,
                               sum(c for c, _ in s.extra), POLICY_CODES[card.policy] if card else NO_CARD,
                               card.count if card else 0, tj[0], bj[0]))
    extras = any(s.extra for s in (a, d))
    if fixed_dice(a, d) if pair is None else pair:
        return _pair_args(a, d, *sides, extras)
    return (static(width), static(extras), static(surprise(a, d))), *sides


def _pair_args(a, d, fa, fd, extras):
    """core.pair_kernel's arguments: each side's row for its dice (then the card dice groups'),
    and each (attacker hits, defender hits) cell's index in the joint."""
    na, nd = (dice(s.units, s.bonus, 0, False)[0] for s in (fa, fd))
    rows, bases = [fa.t56[na], fd.t56[nd]], [fa.b56[na], fd.b56[nd]]
    if extras:
        rows, bases = rows + [fa.tx[1], fd.tx[1]], bases + [fa.bx[1], fd.bx[1]]
    na, nd = na + fa.n_extra, nd + fd.n_extra
    cells = cell_index(*np.meshgrid(np.arange(na + 1), np.arange(nd + 1), indexing="ij"),
                       na, nd, a.units, d.units)
    return pair_args(rows, bases, cells)


def _tables(s, width=8):
    """Inverse-CDF tables of one side: 5-6 dice by count, card dice groups, after-roll card."""
    top = dice(s.units, s.dice - s.penalty, 0, False)[0]
    t56, b56, _ = hit_rows(top, width, s.hit_on)
    tx, bx = inverse_cdf_table([np.ones(1), pool_pmf(s.extra)], width)
    after = [pool_pmf([(c.count, c.threshold)]) for c in s.after] or [np.ones(1)]
    tj, bj = inverse_cdf_table(after, width)
    return t56, b56, tx, bx, tj, bj


@njit(cache=True, inline="always")
def _roll(st, s, lost, surprised, extras, width):
    """(hits, dice rolled, state) of side `s` after losing `lost` units before its roll."""
    n, rolls = _dice(s.units, s.bonus, lost, surprised)
    hits, st = draw(st, s.t56[n], s.b56[n], width)
    if extras:
        more, st = draw(st, s.tx[rolls * 1], s.bx[rolls * 1], width)
        hits += more
    return hits, n + s.n_extra * rolls, st


_main_roll = sequence(_roll)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def field_lane(modes, a, d, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: adds one count per battle to out[lane, code, attacker losses,
    defender losses] for chunks lane, lane + lanes, ... (modes: core.rng.static tuples; who
    surprises as sequence.surprise)."""
    width, extras, first = len(modes[0]), len(modes[1]), len(modes[2])
    hist = out[lane]  # zeroed by the runner (no array copy: core.montecarlo)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ah, adice, dh, ddice, st = _main_roll(st, first, a, d, extras, width)
            a_out, d_out = surprised_out_nb(first, ah, dh, a.units, d.units)
            h, a_played, st = after_roll(st, a.policy, _needs(True, ah, dh), not a_out, a.tj,
                                         a.bj, width)
            ah += h
            adice += a.count * a_played
            h, d_played, st = after_roll(st, d.policy, _needs(False, ah, dh), not d_out, d.tj,
                                         d.bj, width)
            dh += h
            ddice += d.count * d_played
            code, al, dl = _resolve(ah, dh, adice, ddice, a.units, d.units)
            hist[code + 4 * a_played + 8 * d_played, al, dl] += 1
