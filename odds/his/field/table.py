"""Exact answers for many plain field battles at once, in closed form over padded arrays.

"Plain" means both rolls are independent and fixed before anything is resolved: no Surprise
Attack, no card played after the roll, no fortified space (the cards played before the roll
only change units and dice, and are applied per cell by field.setup). Then, with attacker
hits A and defender hits D:
  P(attacker wins) = P(A > D);  attacker losses = min(D, ua), defender losses = min(A, ud);
  both wiped out = D >= ua and A >= ud (both sides had units), and the side that rolled more
  dice (the defender on equal dice) gets one unit back.
The sweep uses this to answer a grid of battles without a Python loop over the outcomes;
tests check it against field_battle cell by cell.
"""
from __future__ import annotations

import numpy as np

from ...core.dice import binomial_rows
from ..forces import assumptions, leader_notes
from ...errors import check_int
from .procedure import DEFENDING, forces, hit_numbers, roll_pmf, setup

FORCE_KEYS = ("attacker", "defender", "attacker_mercenaries", "attacker_cavalry", "attacker_leader",
              "attacker_power", "attacker_cards", "defender_mercenaries", "defender_cavalry",
              "defender_leader", "defender_power", "defender_cards")
HIT_KEYS = ("attacker_hit_on", "defender_hit_on")  # and the defender's dice for defending:
BONUS = "defender_bonus_dice"


def plain_sides(cells, told=None):
    """Set up every cell's sides, or None if any cell is not plain (then loop over cells);
    `told` (a list) gets each cell's notes and assumptions, as field_battle's answer has them."""
    sides = []
    for cell in cells:
        if set(cell) - set(FORCE_KEYS) - set(HIT_KEYS) - {BONUS, "method"} or \
                cell.get("method", "auto") not in ("auto", "exact"):
            return None
        att, dfn = forces(**{k: v for k, v in cell.items() if k in FORCE_KEYS})
        a, d = setup(att, dfn, defending=check_int(BONUS, cell.get(BONUS, DEFENDING), 0, 6))
        hit_numbers(a, d, **{k: v for k, v in cell.items() if k in HIT_KEYS})
        if a.surprise or d.surprise or a.after or d.after:
            return None
        sides.append((a, d))
        if told is not None:
            told.append({"notes": [*a.notes, *d.notes, *leader_notes(att, dfn)],
                         "assumptions": list(assumptions(att, dfn))})
    return sides


def table(sides):
    """(probabilities, padded loss pmfs) as arrays, one row per (attacker, defender) Side pair."""
    n = len(sides)
    pa, na = _hit_pmfs([a for a, _ in sides])
    pd, nd = _hit_pmfs([d for _, d in sides])
    width = max(pa.shape[1], pd.shape[1]) + 1
    pa = np.pad(pa, ((0, 0), (0, width - pa.shape[1])))
    pd = np.pad(pd, ((0, 0), (0, width - pd.shape[1])))
    more_a = na > nd
    ua = np.array([a.units for a, _ in sides])
    ud = np.array([d.units for _, d in sides])
    rows = np.arange(n)
    sf_a = np.cumsum(pa[:, ::-1], axis=1)[:, ::-1]  # P(A >= k)
    sf_d = np.cumsum(pd[:, ::-1], axis=1)[:, ::-1]
    cdf_d = np.cumsum(pd, axis=1)
    win = (pa[:, 1:] * cdf_d[:, :-1]).sum(axis=1)
    both = sf_d[rows, ua] * sf_a[rows, ud] * (ua > 0) * (ud > 0)
    a_loss = _capped(pd, sf_d, ua)
    d_loss = _capped(pa, sf_a, ud)
    _give_back(a_loss, ua, both * more_a)
    _give_back(d_loss, ud, both * ~more_a)
    probabilities = {"attacker_win": win, "attacker_eliminated": a_loss[rows, ua],
                     "defender_eliminated": d_loss[rows, ud], "both_eliminated_rule": both}
    return probabilities, {"attacker_losses": a_loss, "defender_losses": d_loss}


def field_battle_table(cells):
    """(probabilities, padded pmfs, each cell's notes and assumptions) as arrays over `cells`
    (dicts of field_battle keywords), or None when some cell is not plain."""
    told = []
    sides = plain_sides(cells, told)
    return None if sides is None else (*table(sides), told)


def _hit_pmfs(sides):
    """(hit pmfs as padded rows, dice rolled) of each side: binomial rows straight from the
    cached table where a side rolls only 5-6 dice, roll_pmf where cards add other dice."""
    dice = np.array([max(0, s.units + s.dice - s.penalty) for s in sides])
    rows = binomial_rows(dice)
    for i, s in enumerate(sides):
        if s.extra or s.hit_on != 5:
            pmf, dice[i] = roll_pmf(s)
            rows = np.pad(rows, ((0, 0), (0, max(0, len(pmf) - rows.shape[1]))))
            rows[i] = 0
            rows[i, : len(pmf)] = pmf
    return rows, dice


def _capped(pmf, sf, cap):
    """Pmf of min(X, cap) per row."""
    k = np.arange(pmf.shape[1])
    out = np.where(k < cap[:, None], pmf, 0.0)
    out[np.arange(len(cap)), cap] = sf[np.arange(len(cap)), cap]
    return out


def _give_back(loss, units, p):
    """Move probability p from `units` lost to `units - 1` lost (the both-eliminated rule)."""
    rows = np.nonzero(p > 0)[0]
    loss[rows, units[rows]] -= p[rows]
    loss[rows, units[rows] - 1] += p[rows]
