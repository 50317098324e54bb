"""Where each side's best card changes with what a committed CP would win elsewhere.

The card game's payoff at cp-value c is ``roll - c * spent``: the roll's value to the
Protestant in the measure's unit, less c per CP it commits more than the Catholics. The
optimal choices are piecewise constant in c (a mixed choice keeps its cards while its weights
move), so the cp-values where a side's cards change are found by trying GRID values across
the range and halving every interval whose two ends choose differently, down to STEP. The
player then decides with the threshold, not with the tool's reading of c.
"""
from __future__ import annotations

import numpy as np

from .choice import solve_game

GRID = 11  # cp-values tried first, evenly across the range
STEP = 1e-3  # a change of choice is located to within this cp-value
CHOSEN = 1e-9  # a card played with less than this weight is not played
WORDED = 0.01  # a choice held over a narrower range of cp-values is worded with its neighbours


def cards(weights) -> tuple:
    """The indices of the options a mixed strategy plays."""
    return tuple(int(i) for i in np.flatnonzero(np.asarray(weights) > CHOSEN))


def regimes(roll, spent, low: float, high: float) -> tuple:
    """For the Protestant (rows) and the Catholics (columns): [(from, to, options played)], the
    cp-value intervals over [low, high] within which that side plays the same options."""
    roll, spent = np.asarray(roll, float), np.asarray(spent, float)
    seen = {}

    def choice(c):
        if c not in seen:
            _, rows, columns = solve_game(roll - c * spent)
            seen[c] = (cards(rows), cards(columns))
        return seen[c]

    todo = list(zip(np.linspace(low, high, GRID)[:-1], np.linspace(low, high, GRID)[1:]))
    while todo:  # bounded: each interval is halved until it is STEP wide
        a, b = todo.pop()
        if choice(a) != choice(b) and b - a > STEP:
            todo += [(a, (a + b) / 2), ((a + b) / 2, b)]
    points = sorted(seen)
    return tuple(_intervals(points, [seen[c][side] for c in points]) for side in (0, 1))


def _intervals(points, chosen) -> list:
    """Consecutive points with the same choice merged; a change falls midway between two."""
    out = [[points[0], None, chosen[0]]]
    for (a, b), before, after in zip(zip(points, points[1:]), chosen, chosen[1:]):
        if after != before:
            out[-1][1] = (a + b) / 2
            out.append([(a + b) / 2, None, after])
    out[-1][1] = points[-1]
    return [tuple(r) for r in out]


def sentence(intervals, describe, cp, unit: str) -> str:
    """A side's choice by cp-value in words: 'a 5-CP card while a CP is worth less than 0.33
    spaces elsewhere; above that, a 1-CP card'. Between the first and the last choice, one
    clause: the single choice, or (several, or held over less than WORDED) the CP of each
    option played alone, in turn (`cp`: an option's CP)."""
    if len(intervals) == 1:
        low, high, options = intervals[0]
        return f"{describe(options)}, whatever a CP is worth elsewhere ({low:g} to {high:g} {unit})"
    first, *middle, last = intervals
    parts = [f"{describe(first[2])} while a CP is worth less than {first[1]:.2f} {unit} elsewhere"]
    if len(middle) == 1 and middle[0][1] - middle[0][0] >= WORDED:
        parts.append(f"from {middle[0][0]:.2f} to {middle[0][1]:.2f}, {describe(middle[0][2])}")
    elif middle:
        ends = (first[2], last[2])
        alone = dict.fromkeys(str(cp(o[0])) for _, _, o in middle if len(o) == 1 and o not in ends)
        steps = (", then ".join(alone) + " CP" + " in turn" * (len(alone) > 1) + ", "
                 if alone else "")
        parts.append(f"from {middle[0][0]:.2f} to {middle[-1][1]:.2f}, {steps}at random where "
                     "one choice gives way to the next")
    parts.append(f"above {'that' if not middle else f'{last[0]:.2f}'}, {describe(last[2])}")
    return "; ".join(parts)
