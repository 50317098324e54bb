"""Numba Monte Carlo kernel of the field battle (fills the joint of field.py).

The kernel's mode (table width, who surprises, whether card dice or after-roll cards exist)
is compiled in (core.rng.static), so the hot loop of a plain battle carries no branch for the
cards it does not have.
"""
import numpy as np
from numba import njit

from ..core.dice import binomial_pmf, inverse_cdf_table, pool_pmf
from ..core.rng import draw, seed_stream, static
from .field import cell_index, needs_help, resolve

_resolve = njit(cache=True, inline="always")(resolve)
_needs = njit(cache=True, inline="always")(needs_help)

POLICY_CODES = {"always": 1, "if-needed": 2}


def kernel_args(a, d):
    """(mode literals, per-side arrays and scalars) for field_kernel."""
    tables = [_tables(s) for s in (a, d)]
    width = max(t.shape[1] for side in tables for t in side[::2])
    tables = [_tables(s, width) for s in (a, d)]
    extras = any(s.extra for s in (a, d))
    afters = any(s.after for s in (a, d))
    surprise = 1 if a.surprise else 2 if d.surprise else 0
    sides = []
    for s, (t56, b56, tx, bx, tj, bj) in zip((a, d), tables):
        card = s.after[0] if s.after else None  # a field battle has one after-roll card at most
        sides += [s.units, s.dice - s.penalty, t56, b56, tx, bx, sum(c for c, _ in s.extra),
                  POLICY_CODES[card.policy] if card else 0, card.count if card else 0, tj[0], bj[0]]
    # plain battles (dice counts fixed) look each (attacker hits, defender hits) cell up
    na, nd = (max(0, s.units + s.dice - s.penalty) + sum(c for c, _ in s.extra) for s in (a, d))
    cells = cell_index(*np.meshgrid(np.arange(na + 1), np.arange(nd + 1), indexing="ij"),
                       na, nd, a.units, d.units)
    return ((static(width), static(surprise), static(extras), static(afters)), *sides, cells)


def _tables(s, width=8):
    """Inverse-CDF tables of one side: 5-6 dice by count, card dice groups, after-roll card."""
    top = max(0, s.units + s.dice - s.penalty)
    t56, b56 = inverse_cdf_table([binomial_pmf(n) for n in range(top + 1)], width)
    tx, bx = inverse_cdf_table([np.ones(1), pool_pmf(s.extra)], width)
    after = [pool_pmf([(c.count, c.threshold)]) for c in s.after] or [np.ones(1)]
    tj, bj = inverse_cdf_table(after, width)
    return t56, b56, tx, bx, tj, bj


@njit(cache=True, inline="always")
def _roll(st, units, extra_dice, rolls, t56, b56, tx, bx, n_extra, width, extras):
    """(hits, dice rolled, state) of one side with `units` units left; rolls=0: nothing."""
    n = max(0, units + extra_dice) * rolls
    hits, st = draw(st, t56[n], b56[n], width)
    if extras:
        more, st = draw(st, tx[rolls], bx[rolls], width)
        hits += more
    return hits, n + n_extra * rolls, st


@njit(cache=True, inline="always")
def _after(st, is_attacker, policy, count, tj, bj, ah, dh, width):
    """(extra hits, extra dice, state) of an after-roll card (policy 1 always, 2 if-needed)."""
    if policy == 0 or (policy == 2 and not _needs(is_attacker, ah, dh)):
        return 0, 0, st
    hits, st = draw(st, tj, bj, width)
    return hits, count, st


@njit(cache=True, nogil=True)
def field_lane(modes,
          ua, ea, a56, ab56, ax, abx, anx, apol, acnt, aj, abj,
          ud, ed, d56, db56, dx, dbx, dnx, dpol, dcnt, dj, dbj,
          cells, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: adds one count per battle to out[lane, code, attacker losses,
    defender losses] for chunks lane, lane + lanes, ... (modes: core.rng.static tuples)."""
    width, surprise, extras, afters = len(modes[0]), len(modes[1]), len(modes[2]), len(modes[3])
    hist = np.zeros(out.shape[1:], dtype=np.int64)
    flat = hist.reshape(-1)
    na, nd = max(0, ua + ea), max(0, ud + ed)
    arow, abase, drow, dbase = a56[na], ab56[na], d56[nd], db56[nd]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            if surprise == 0 and not afters:
                ah, st = draw(st, arow, abase, width)
                dh, st = draw(st, drow, dbase, width)
                if extras:
                    more, st = draw(st, ax[1], abx[1], width)
                    ah += more
                    more, st = draw(st, dx[1], dbx[1], width)
                    dh += more
                flat[cells[ah, dh]] += 1
                continue
            if surprise == 1:
                ah, adice, st = _roll(st, ua, ea, 1, a56, ab56, ax, abx, anx, width, extras)
                left = ud - min(ah, ud)
                dh, ddice, st = _roll(st, left, ed, (left > 0) * 1, d56, db56, dx, dbx, dnx, width, extras)
            elif surprise == 2:
                dh, ddice, st = _roll(st, ud, ed, 1, d56, db56, dx, dbx, dnx, width, extras)
                left = ua - min(dh, ua)
                ah, adice, st = _roll(st, left, ea, (left > 0) * 1, a56, ab56, ax, abx, anx, width, extras)
            else:
                ah, adice, st = _roll(st, ua, ea, 1, a56, ab56, ax, abx, anx, width, extras)
                dh, ddice, st = _roll(st, ud, ed, 1, d56, db56, dx, dbx, dnx, width, extras)
            if afters:
                h, n, st = _after(st, True, apol, acnt, aj, abj, ah, dh, width)
                ah += h
                adice += n
                h, n, st = _after(st, False, dpol, dcnt, dj, dbj, ah, dh, width)
                dh += h
                ddice += n
            code, al, dl = _resolve(ah, dh, adice, ddice, ua, ud)
            hist[code, al, dl] += 1
    out[lane] = hist
