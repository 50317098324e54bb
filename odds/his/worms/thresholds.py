"""Where each side's best card changes with what a committed CP would win elsewhere.

The card game's payoff at cp-value c is ``roll - c * spent``: the roll's value to the
Protestant in the measure's unit, less c per CP it commits more than the Catholics. The
optimal choices are piecewise constant in c (a mixed choice keeps its cards while its weights
move), so the cp-values where a side's cards change are found by trying GRID values across
the range, halving every interval whose two ends choose differently down to STEP, then each
change down to EXACT. The words say each stretch's choice, a mixed one with each card's share
at the stretch's ends, and bound each stretch by its ends rounded inwards to PLACES decimals
(`inward`: more where a stretch is narrower), so every sentence is true at every cp-value it
covers. The player then decides with the thresholds, not with the tool's reading of c.
"""
from __future__ import annotations

import math

import numpy as np

from ...i18n import _, decimal, percent
from .choice import solve_game

GRID = 11  # cp-values tried first, evenly across the range
STEP = 1e-3  # a change of choice is first located to within this cp-value
EXACT = 1e-12  # then to within this
CHOSEN = 1e-9  # a card played with less than this weight is not played
TIE = 1e-7  # a stretch of cp-values narrower than this is a tie at a switch (or a weight
# crossing CHOSEN there), not a choice a player could make
PLACES = 4  # decimals a threshold is printed with (more where a stretch needs them)
MAX_PLACES = 8


def cards(weights) -> tuple:
    """The indices of the options a mixed strategy plays."""
    return tuple(int(i) for i in np.flatnonzero(np.asarray(weights) > CHOSEN))


class Regimes:
    """The card game solved across cp-values: `choice(c)` memoised, `sides()` each side's
    stretches of cp-values with the same options."""

    def __init__(self, roll, spent, low: float, high: float):
        self.roll, self.spent = np.asarray(roll, float), np.asarray(spent, float)
        self.low, self.high = low, high
        self.seen = {}
        todo = list(zip(np.linspace(low, high, GRID)[:-1], np.linspace(low, high, GRID)[1:]))
        while todo:  # bounded: each interval is halved until it is STEP wide, then EXACT
            a, b = todo.pop()
            if self.choice(a)[1:] != self.choice(b)[1:] and b - a > EXACT:
                todo += [(a, (a + b) / 2), ((a + b) / 2, b)]

    def choice(self, c: float) -> tuple:
        """(strategies (rows, columns), the Protestant's options, the Catholics' options) at c."""
        c = float(c)
        if c not in self.seen:
            _, rows, columns = solve_game(self.roll - c * self.spent)
            self.seen[c] = ((rows, columns), cards(rows), cards(columns))
        return self.seen[c]

    def sides(self) -> tuple:
        """For the Protestant (rows) and the Catholics (columns): [(from, to, options, weights
        at from, weights at to)], the stretches of cp-values over which that side plays the
        same options (a change placed midway between the two closest cp-values solved)."""
        points = sorted(self.seen)
        return tuple(self._stretches(points, side) for side in (0, 1))

    def _stretches(self, points, side) -> list:
        out = [[points[0], None, self.seen[points[0]][1 + side]]]
        for a, b in zip(points, points[1:]):
            if self.seen[b][1 + side] != self.seen[a][1 + side]:
                out[-1][1] = (a + b) / 2
                out.append([(a + b) / 2, None, self.seen[b][1 + side]])
        out[-1][1] = points[-1]
        # a choice seen over less than TIE is the solver's pick at a switch, where both
        # choices are optimal: the switch is the one between its neighbours
        kept = [s for s in out if s[1] - s[0] >= TIE] or out[:1]
        for before, after in zip(kept, kept[1:]):
            before[1] = after[0] = (before[1] + after[0]) / 2
        kept[0][0], kept[-1][1] = points[0], points[-1]
        merged = [kept[0]]
        for s in kept[1:]:
            if s[2] == merged[-1][2]:
                merged[-1][1] = s[1]
            else:
                merged.append(s)
        return [(a, b, options, *self._ends(a, b, side)) for a, b, options in merged]

    def _ends(self, a, b, side) -> tuple:
        """The side's weights just inside the stretch [a, b]."""
        inside = min(1e-9, (b - a) / 3)
        return tuple(self.choice(c)[0][side] for c in (a + inside * (a > self.low),
                                                      b - inside * (b < self.high)))

    def points(self) -> list:
        """The cp-values at which the answer takes every value it can: in each stretch where
        both sides' options hold, one value if both play one card (the answer is the same
        throughout: the range's end for the first and last stretch), else its two ends and its
        middle (mixed weights move across it); each as short a decimal as stays inside."""
        cuts = sorted({x for stretches in self.sides() for a, b, *_ in stretches for x in (a, b)})
        merged = [cuts[0]]
        for x in cuts[1:]:
            if x - merged[-1] >= TIE:
                merged.append(x)
        merged[-1] = cuts[-1]
        out = []
        for i, (a, b) in enumerate(zip(merged, merged[1:])):
            if all(len(self.choice(middle(a, b))[1 + side]) == 1 for side in (0, 1)):
                out.append(a if i == 0 else b if i == len(merged) - 2 else middle(a, b))
            else:
                out += [*inward(a, b), middle(a, b)]
        return sorted(set(out))


def regimes(roll, spent, low: float, high: float) -> tuple:
    """Each side's stretches over [low, high] (Regimes.sides)."""
    return Regimes(roll, spent, low, high).sides()


def inward(a: float, b: float) -> tuple[float, float]:
    """[a, b] with its ends rounded inwards to PLACES decimals, or as many more as keep the
    stretch non-empty (an end within 1e-9 of a printed value is that value)."""
    for places in range(PLACES, MAX_PLACES + 1):
        scale = 10 ** places
        up = math.ceil(a * scale - 1e-9 * scale) / scale
        down = math.floor(b * scale + 1e-9 * scale) / scale
        if up < down or places == MAX_PLACES:
            return up, down
    return a, b  # pragma: no cover


def middle(a: float, b: float) -> float:
    """The shortest decimal near the middle of (a, b): the cp-value a stretch is tried at."""
    for places in range(1, MAX_PLACES + 1):
        x = round((a + b) / 2, places)
        if a < x < b:
            return x
    return (a + b) / 2


def _number(x: float) -> str:
    text = f"{x:.{MAX_PLACES}f}".rstrip("0")
    return _comma(text + "0" * max(0, PLACES - len(text.split(".")[1])) if "." in text else text)


def _comma(text: str) -> str:
    """A number's text with the language's decimal sign (Russian: a comma)."""
    return text.replace(".", decimal(0.5, 1)[1])


def sentence(stretches, describe, unit: str) -> str:
    """A side's choice by cp-value in words: 'a 5-CP card while a CP is worth less than 0.1269
    of P(win) minus P(loss) elsewhere; from 0.1270 to 0.1308, at random: ...; above 0.1589, a
    1-CP card'. Each stretch is bounded by its ends rounded inwards (`inward`), so the words
    hold at every cp-value they cover; `describe(options, weights at from, weights at to)`
    says a stretch's choice."""
    if len(stretches) == 1:
        low, high, options, w0, w1 = stretches[0]
        return _("{choice}, whatever a CP is worth elsewhere ({low} to {high} {unit})").format(
            choice=describe(options, w0, w1), low=_comma(f"{low:g}"), high=_comma(f"{high:g}"), unit=unit)
    first, *middle, last = stretches
    parts = [_("{choice} while a CP is worth less than {x} {unit} elsewhere").format(
        choice=describe(*first[2:]), x=_number(inward(first[0], first[1])[1]), unit=unit)]
    for a, b, options, w0, w1 in middle:
        up, down = inward(a, b)
        parts.append(_("from {low} to {high}, {choice}").format(
            low=_number(up), high=_number(down), choice=describe(options, w0, w1)))
    parts.append(_("above {x}, {choice}").format(x=_number(inward(last[0], last[1])[0]),
                                                   choice=describe(*last[2:])))
    return "; ".join(parts)


def mixed(options, w0, w1, name) -> str:
    """A stretch's choice in words: one option (`name(i)`), or each option's share of the time
    at the stretch's two ends ('at random: 9 CP together (4 + 5) 100% falling to 92% of the
    time, else 3 CP together (2 + 1)')."""
    if len(options) == 1:
        return name(options[0])
    shares = sorted(options, key=lambda i: -(w0[i] + w1[i]))
    said = [f"{name(i)} {_share(w0[i], w1[i])}" for i in shares[:-1]]
    rest = (_("else {choice}") if len(shares) == 2 else _("{choice} the rest")).format(choice=name(shares[-1]))
    return _("at random: ") + ", ".join(said + [rest])


def _share(w0: float, w1: float) -> str:
    a, b = round(100 * w0), round(100 * w1)
    if a == b:
        return _("{a} of the time").format(a=percent(a / 100, 0))
    return (_("{a} falling to {b} of the time") if b < a else _("{a} rising to {b} of the time")).format(
        a=percent(a / 100, 0), b=percent(b / 100, 0))
