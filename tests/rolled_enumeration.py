"""Every outcome of a procedure's reading of a roll (core.rolled), enumerated: the reader is run
on every possible roll, group of dice by group of dice as it asks for them (each hit count of
a hitting group with its binomial chance, from math.comb, or each face tuple of a group read
by its faces; each value of a choice drawn at random with its chance), and the chance of each
outcome summed in exact fractions. The test compares the sums with the procedure's exact
Result: the reader then reads every roll as the engines count it."""
from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from math import comb

from odds.core.rolled import Record
from odds.errors import OddsError


class _Branch(Exception):
    def __init__(self, options):
        super().__init__()
        self.options = options


class Scripted(Record):
    """A Record answering from a script of choices made so far; the next ask branches."""

    def __init__(self, script, faces: bool, chosen: dict):
        self.script, self.i, self.faces, self.chosen = script, 0, faces, chosen
        self.asked = []

    def _next(self, options):
        if self.i < len(self.script):
            self.i += 1
            return self.script[self.i - 1]
        raise _Branch(options)

    def dice(self, name, role, count, die, round=0):
        self.asked.append((name, round, count))
        chances = dict(zip(die.faces, die.exact_chances()))
        options = []
        for faces in itertools.product(die.faces, repeat=count):
            p = Fraction(1)
            for f in faces:
                p *= chances[f]
            options.append((faces, p))
        return self._next(options)

    def die(self, name, role, die, index):
        self.asked.append((name, index, 1))
        return self._next(list(zip(die.faces, die.exact_chances())))

    def hits(self, name, role, count, die, round=0):
        if self.faces:
            return sum(f in die.hits for f in self.dice(name, role, count, die, round))
        self.asked.append((name, round, count))
        p = sum(c for f, c in zip(die.faces, die.exact_chances()) if f in die.hits)
        return self._next([(h, comb(count, h) * p**h * (1 - p)**(count - h)) for h in range(count + 1)])

    def choice(self, name, allowed, why):
        if name in self.chosen:
            return self.chosen[name]
        if any(w is None for w in allowed.values()):
            raise OddsError(f"choices: {name}: not drawn at random ({why})")
        return self._next([(v, Fraction(w)) for v, w in allowed.items()])


def outcomes(read, keywords: dict, faces: bool = False, chosen=None) -> dict:
    """(won, ((pmf name, count), ...), ((event, happened), ...)) -> its exact chance, over
    every roll (`faces`: every face of every die, else every hit count; `chosen`: choices
    fixed by name)."""
    out, stack = defaultdict(Fraction), [((), Fraction(1))]
    while stack:
        script, p = stack.pop()
        try:
            outcome = read(keywords, Scripted(script, faces, chosen or {}))
        except _Branch as b:
            stack += [(script + (v,), p * q) for v, q in b.options if q]
            continue
        out[outcome.won, tuple(sorted(outcome.counts.items())),
            tuple(sorted(outcome.events.items()))] += p
    return dict(out)


def marginals(table: dict) -> tuple:
    """(P(won), {pmf name: {count: P}}, {event: P}) of an outcomes() table."""
    won, pmfs, events = Fraction(0), defaultdict(lambda: defaultdict(Fraction)), defaultdict(Fraction)
    for (w, counts, happened), p in table.items():
        won += p * bool(w)
        for name, count in counts:
            pmfs[name][count] += p
        for name, yes in happened:
            events[name] += p * bool(yes)
    return won, pmfs, events


def check(result, table: dict) -> None:
    """The enumeration's chances equal the exact Result's: its main event where the roll
    decides it, every pmf the reader counts and every other event it reads."""
    assert sum(table.values()) == 1
    won, pmfs, events = marginals(table)
    if any(w is not None for w, _, _ in table):  # a roll that decides the main event
        assert all(w is not None for w, _, _ in table)
        assert abs(float(won) - result.p) < 1e-12, (float(won), result.p)
    for name, counts in pmfs.items():
        pmf = result.pmfs[name]
        for k in range(max(len(pmf), max(counts) + 1)):
            expected = pmf[k] if k < len(pmf) else 0.0
            assert abs(float(counts.get(k, 0)) - expected) < 1e-12, (name, k, float(counts.get(k, 0)), expected)
    for name, p in events.items():
        assert abs(float(p) - result.probabilities[name]) < 1e-12, (name, float(p))
