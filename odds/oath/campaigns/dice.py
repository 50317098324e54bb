"""Oath dice as data, and exact face-count pmfs per pool size (docs/rules.md, Oath campaign).

A die is a tuple of six faces; a face is the symbols it shows. Attack faces show swords,
hollow swords and skulls; defense faces show shields and ×2 multipliers. Plans change a die
by rewriting its faces (Rusting Ray: hollow swords show nothing), so every engine reads the
faces, never a hard-coded probability.

The exact pmfs are cached per (faces, pool size): `symbol_pmf` is the joint pmf of the symbol
totals of n dice, built by convolving one die at a time; `attack_pmf` and `defense_values`
turn it into what the campaign needs.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from .rules import attack_total, defense_total

FACES_PER_DIE = 6


@dataclass(frozen=True)
class AttackFace:
    name: str
    swords: int = 0
    hollow: int = 0
    skulls: int = 0

    @property
    def symbols(self) -> tuple:
        return (self.swords, self.hollow, self.skulls)


@dataclass(frozen=True)
class DefenseFace:
    name: str
    shields: int = 0
    multipliers: int = 0

    @property
    def symbols(self) -> tuple:
        return (self.shields, self.multipliers)


HOLLOW = AttackFace("hollow sword", hollow=1)
SWORD = AttackFace("sword", swords=1)
TWO_SWORDS_SKULL = AttackFace("two swords and skull", swords=2, skulls=1)
ATTACK_DIE = (HOLLOW,) * 3 + (SWORD,) * 2 + (TWO_SWORDS_SKULL,)

BLANK = DefenseFace("blank")
SHIELD = DefenseFace("shield", shields=1)
TWO_SHIELDS = DefenseFace("two shields", shields=2)
TIMES_TWO = DefenseFace("x2", multipliers=1)
DEFENSE_DIE = (BLANK,) * 2 + (SHIELD,) * 2 + (TWO_SHIELDS, TIMES_TWO)


def rewrite(die: tuple, when, **symbols) -> tuple:
    """The die with every face for which `when(face)` is true showing `symbols` instead."""
    return tuple(replace(f, **symbols) if when(f) else f for f in die)


@lru_cache(maxsize=None)
def symbol_pmf(symbols: tuple, n: int) -> np.ndarray:
    """Joint pmf of the symbol totals of n dice whose faces show `symbols` (one tuple per face).

    Axis i is the total of symbol i, from 0 to n * (largest count of symbol i on a face).
    """
    dims = len(symbols[0])
    if n == 0:
        return np.ones((1,) * dims)
    prev = symbol_pmf(symbols, n - 1)
    top = [max(s[i] for s in symbols) for i in range(dims)]
    out = np.zeros(tuple(p + t for p, t in zip(prev.shape, top)))
    for face in symbols:
        out[tuple(slice(c, c + m) for c, m in zip(face, prev.shape))] += prev / len(symbols)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=None)
def attack_pmf(die: tuple, n: int) -> np.ndarray:
    """A[attack, skulls]: joint pmf of the attack total and the skulls of n attack dice."""
    pmf = symbol_pmf(tuple(f.symbols for f in die), n)
    sw, ho, sk = np.indices(pmf.shape)
    attack = attack_total(sw, ho)
    out = np.zeros((attack.max() + 1, pmf.shape[2]))
    np.add.at(out, (attack.ravel(), sk.ravel()), pmf.ravel())
    out.setflags(write=False)
    return out


@lru_cache(maxsize=None)
def defense_values(die: tuple, n: int) -> tuple:
    """(sorted distinct defense totals of n defense dice, their probabilities)."""
    pmf = symbol_pmf(tuple(f.symbols for f in die), n)
    sh, mu = np.indices(pmf.shape)
    value = defense_total(sh.astype(np.int64), mu).ravel()
    values, inverse = np.unique(value, return_inverse=True)
    probs = np.bincount(inverse, weights=pmf.ravel(), minlength=len(values))
    keep = probs > 0
    values, probs = values[keep], probs[keep]
    values.setflags(write=False)
    probs.setflags(write=False)
    return values, probs
