"""The dice's own luck: were a side's dice hot or cold, whatever they decided?

Each die a record gives (observed.Thrown) is counted for the side that rolled it, by kind of
die (core.rolled.Die). Per side and kind over the game:
- a die with hits (5-6 in Here I Stand): the hits among its n dice, against the binomial
  distribution of n dice (its exact mid-p percentile and 5-95% range);
- a die read by its faces (Oath's, a 2d6 table's): the count of each face among the m dice
  whose faces were given, each against its binomial marginal of the multinomial (m dice, the
  face's chance): what is tested is each face's count alone, not the faces jointly (they sum
  to m, so one face's excess is the others' shortfall); for dice whose faces are numbers and
  where a higher face is better for its roller, also the total of the faces, against its exact
  distribution (the m-fold convolution of one die).
Per roll, a side's dice of that roll in one number: the hits of its hitting dice (every kind
together: the sum of binomials, convolved), else the total of its numbered dice; the
cumulative plot draws its running sum against expected.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

from . import percentiles as pc

DICE = ("side", "die", "measure", "dice", "actual", "expected", "percentile", "p_at_least", "low",
        "high")
ROLL = ("dice_measure", "dice", "dice_actual", "dice_expected", "dice_percentile")


def one_roll(thrown, role: str) -> tuple:
    """(the roll columns ROLL of `role`'s dice, (pmf, actual) or None) from a roll's dice."""
    mine = [t for t in thrown if t.role == role]
    hitting = [t for t in mine if t.die.hits]
    numbered = [t for t in mine if not t.die.hits and t.die.numbered and t.faces is not None]
    if hitting:
        pmf = _hits_pmf(tuple((t.count, t.die.p_hit) for t in hitting))
        measure, count, actual = "hits", sum(t.count for t in hitting), sum(t.hits for t in hitting)
    elif numbered:
        pmf = np.ones(1)
        for t in numbered:
            pmf = np.convolve(pmf, pc.power(_face_pmf(t.die), t.count))
        measure, count, actual = "total", sum(t.count for t in numbered), sum(sum(t.faces) for t in numbered)
    else:
        return dict.fromkeys(ROLL, np.nan) | {"dice_measure": "", "dice": sum(t.count for t in mine)}, None
    row = {"dice_measure": measure, "dice": count, "dice_actual": actual,
           "dice_expected": pc.mean(pmf), "dice_percentile": 100 * pc.percentile(pmf, actual, 1)}
    return row, (pmf, actual)


@lru_cache(maxsize=4096)
def _hits_pmf(groups) -> np.ndarray:
    """The pmf of the hits of groups of (dice, chance of a hit) together (cached)."""
    pmf = np.ones(1)
    for n, p in groups:
        pmf = np.convolve(pmf, pc.binomial(n, p))
    return pmf


def _face_pmf(die) -> np.ndarray:
    """The pmf of one numbered die's face (index = the face)."""
    pmf = np.zeros(max(die.faces) + 1)
    pmf[list(die.faces)] = die.chances()
    return pmf


def game(thrown_by_side: dict) -> list:
    """The dice rows (DICE) per side and kind of die over the game: `thrown_by_side` side ->
    every Thrown of that side, in the record's order."""
    rows = []
    for side, thrown in thrown_by_side.items():
        kinds = {}
        for t in thrown:
            kinds.setdefault(t.die, []).append(t)
        for die, groups in kinds.items():
            rows += _kind(side, die, groups)
    return rows


def _kind(side, die, groups) -> list:
    """The rows of one side's dice of one kind."""
    if die.hits:
        n, hits = sum(t.count for t in groups), sum(t.hits for t in groups)
        return [_row(side, die.name, "hits", n, pc.binomial(n, die.p_hit), hits, n * die.p_hit)]
    faced = [t for t in groups if t.faces is not None]
    m = sum(t.count for t in faced)
    if not m:
        return []
    counts = Counter(f for t in faced for f in t.faces)
    rows = []
    if die.numbered:
        total = sum(f * c for f, c in counts.items())
        rows.append(_row(side, die.name, "total", m, pc.power(_face_pmf(die), m), total,
                         m * float(np.dot(die.faces, die.chances()))))
    for face, chance in zip(die.faces, die.chances()):
        rows.append(_row(side, die.name, f"face {face}", m, pc.binomial(m, float(chance)),
                         counts.get(face, 0), m * float(chance)))
    return rows


def _row(side, die, measure, dice, pmf, actual, expected) -> dict:
    low, high = pc.quantiles(pmf)
    return dict(side=str(side), die=die, measure=measure, dice=int(dice), actual=int(actual),
                expected=expected, percentile=100 * pc.percentile(pmf, int(actual), 1),
                p_at_least=pc.at_least(pmf, int(actual), 1), low=low, high=high)


def cumulative(frame, pmfs) -> None:
    """Each row's cumulative dice luck (in place): its side's dice so far, actual minus
    expected, in the side's dice measure (hits where it rolled any hitting dice, else the
    total of numbered dice) with the 5-95% band of the running sum."""
    sides, measures = frame["side"].to_numpy(), frame["dice_measure"].to_numpy()
    columns = {k: np.full(len(frame), np.nan) for k in ("dice_cumulative", "dice_band_low", "dice_band_high")}
    for side in dict.fromkeys(sides):
        index = np.flatnonzero(sides == side)
        mine = set(measures[index])
        measure = "hits" if "hits" in mine else "total" if "total" in mine else None
        rows = [i for i in index if measures[i] == measure and pmfs[i] is not None]
        if not rows:
            continue
        dists = [pmfs[i][0] for i in rows]
        actual = np.cumsum([pmfs[i][1] for i in rows])
        expected = np.cumsum([pc.mean(d) for d in dists])
        _, low, high = pc.running(dists)
        columns["dice_cumulative"][rows] = actual - expected
        columns["dice_band_low"][rows] = low - expected
        columns["dice_band_high"][rows] = high - expected
    for name, values in columns.items():
        frame[name] = values
