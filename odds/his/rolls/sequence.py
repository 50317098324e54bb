"""The chance sequence of a Here I Stand battle, written once: the exact half (numpy).

1. Main roll. Without Surprise Attack both sides roll. With it, the side that played it rolls
   first and the other side takes those losses before counting its dice (a side wiped out rolls
   nothing). A procedure describes each side by `roll(lost, surprised) -> (hit pmf, dice
   rolled)`, its own dice rule; `main_roll` plays the sequence.
2. After-roll cards, in play order (the attacker's first), each under its policy (cards.py):
   `after_roll` expands the outcome rows of those where the card is played by its dice; the
   procedure's rule says where its side needs the card (`if-needed`). A side surprised and
   wiped out before its roll rolled nothing: it plays no after-roll card (`surprised_out`),
   so it cannot win.

sequence_kernel.py is the same sequence for the numba kernels. Outcome rows are columns
(attacker hits, defender hits, attacker dice, defender dice[, attacker fives, defender fives])
and their probabilities.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...i18n import _
from ...core.dice import pool_pmf
from ...core.engine import Cost
from ..cards import POLICY_CODES, plays

ROW_WORK = 0.05  # work units (about a microsecond) per outcome row, as measured on the
ROW_BYTES = 120  # development machine (200 v 200 with Surprise Attack and Janissaries: 0.1 s)


def surprise(a, d) -> int:
    """Who rolls first: 0 nobody (both at once), 1 the attacker, 2 the defender."""
    return 1 if a.surprise else 2 if d.surprise else 0


def fixed_dice(a, d) -> bool:
    """Whether both sides' dice are known before the roll (nobody surprises, no after-roll
    card): core.pair_kernel then plays the battle."""
    return not (surprise(a, d) or a.after or d.after)


@lru_cache(maxsize=1024)
def grid(n_a: int, n_d: int):
    """Every (attacker hits, defender hits) pair, attacker-major."""
    return np.divmod(np.arange(n_a * n_d), n_d)


def rows_cost(a_outcomes: int, d_outcomes: int, a, d) -> Cost:
    """The Cost of a land battle's exact rows: every pair of main-roll outcomes (hits 0 to
    the most each side can roll), each after-roll card of Sides `a`, `d` repeating them once
    per outcome of its dice (a bound: every row fires)."""
    rows = a_outcomes * d_outcomes
    for card in a.after + d.after:
        rows *= card.count + 1
    return Cost(ROW_WORK * rows, ROW_BYTES * rows, _("{rows:,} outcome rows").format(rows=rows),
                _("fewer units"))


def main_roll(first: int, roll_a, roll_d):
    """Outcome rows (ah, dh, adice, ddice, p) of the main roll; `first` as `surprise`."""
    if not first:
        pa, na = roll_a(0, False)
        pd, nd = roll_d(0, False)
        ah, dh = grid(len(pa), len(pd))
        return ah, dh, np.full(ah.shape, na), np.full(ah.shape, nd), np.outer(pa, pd).ravel()
    roll1, roll2 = (roll_a, roll_d) if first == 1 else (roll_d, roll_a)
    p1, n1 = roll1(0, False)
    blocks = []
    for h, ph in enumerate(p1):
        p2, n2 = roll2(h, True)
        blocks.append((np.full(len(p2), h), np.arange(len(p2)), np.full(len(p2), n2), ph * p2))
    h1, h2, n2, p = (np.concatenate(x) for x in zip(*blocks))
    n1 = np.full(h1.shape, n1)
    return (h1, h2, n1, n2, p) if first == 1 else (h2, h1, n2, n1, p)


def surprised_out(first, ah, dh, ua, ud):
    """(attacker out, defender out): where a side was surprised (`first` as `surprise`) and
    wiped out by the first roll's hits, so it rolled nothing (scalars or arrays)."""
    return (first == 2) & (dh >= ua), (first == 1) & (ah >= ud)


def after_roll(cols, p, card, table, side: int, needed, able=True):
    """Rows after one after-roll card of `side` (0 attacker, 1 defender):
    (cols, p, played, kept), `kept` the old row of each new row.

    Rows where the card is played (its policy, `needed`: a bool per row, and `able`: the side
    can still play) repeat once per outcome of its dice, `table[hits, fives]`, adding the hits,
    the fives (if the rows carry fives columns) and `card.count` dice; the others stay.
    """
    hh, ff = np.nonzero(table)
    w = table[hh, ff]
    fire = np.broadcast_to(plays(POLICY_CODES[card.policy], needed) & able, p.shape)
    n_fire = int(fire.sum())
    rows = np.concatenate([np.repeat(np.flatnonzero(fire), len(w)), np.flatnonzero(~fire)])
    idle = np.zeros(len(p) - n_fire, int)
    added = {side: np.concatenate([np.tile(hh, n_fire), idle]),
             2 + side: np.concatenate([np.full(n_fire * len(w), card.count), idle]),
             4 + side: np.concatenate([np.tile(ff, n_fire), idle])}
    new = [c[rows] + added[i] if i in added else c[rows] for i, c in enumerate(cols)]
    weight = np.concatenate([np.tile(w, n_fire), np.ones(len(idle))])
    played = np.arange(len(rows)) < n_fire * len(w)
    return new, p[rows] * weight, played, rows


def play_after(rows, a, d, needs, first):
    """(rows, (attacker played, defender played)) after both sides' after-roll cards of a land
    battle, the attacker's first: rows (ah, dh, adice, ddice, p) of `main_roll`;
    `needs(is_attacker, ah, dh)` says where a side needs its card; a side `surprised_out`
    plays none; `played` marks the rows where each side's last card was played."""
    cols, p = list(rows[:4]), rows[4]
    out = surprised_out(first, cols[0], cols[1], a.units, d.units)
    played = [np.zeros(len(p), bool), np.zeros(len(p), bool)]
    for who, side in enumerate((a, d)):
        for card in side.after:
            table = pool_pmf([(card.count, card.threshold)])[:, None]
            cols, p, fired, kept = after_roll(cols, p, card, table, who,
                                              needs(who == 0, cols[0], cols[1]), ~out[who])
            out = (out[0][kept], out[1][kept])
            played = [fired if side == who else was[kept] for side, was in enumerate(played)]
    return (*cols, p), tuple(played)
