"""The exact naval engine: every roll of both sides (hits and, where race-built galleons
cancel them, the 5s among the hits; a roll of dice of several hit numbers is the convolution
of its groups'), expanded by each after-roll card under its policy, mapped to the outcome joint
through the battle's casualty table."""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from ...core.dice import binomial_pmf
from ..cards import AfterRoll
from .fleets import Battle
from .rules import five_share, needs_help, outcome_index
from ..rolls.sequence import after_roll


@lru_cache(maxsize=4096)
def hits_fives(n: int, threshold: int = 5, fives: bool = True) -> np.ndarray:
    """Joint pmf [hits, fives among them] of `n` dice (one fives column if `fives` is False).

    Given h hits, the 5s among them are Binomial(h, five_share); for 5-6 dice this is
    `trinomial_pmf` re-indexed (the tests check it).
    """
    hits = binomial_pmf(n, threshold)
    if not fives:
        return hits[:, None]
    q = five_share(threshold)
    out = np.zeros((n + 1, n + 1))
    for h in range(n + 1):
        f = np.arange(h + 1)
        out[h, : h + 1] = hits[h] * np.array([comb(h, int(i)) for i in f]) * q**f * (1 - q) ** (h - f)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1024)
def roll_joint(groups: tuple, fives: bool = True) -> np.ndarray:
    """Joint pmf [hits, fives among them] of a roll of (dice, hit number) `groups` (one fives
    column if `fives` is False): each group's `hits_fives`, convolved."""
    out = np.ones((1, 1))
    for n, threshold in groups:
        table = hits_fives(n, threshold, fives)
        if out.shape[1] == 1 and table.shape[1] == 1:
            out = np.convolve(out[:, 0], table[:, 0])[:, None]
            continue
        grown = np.zeros((out.shape[0] + table.shape[0] - 1, out.shape[1] + table.shape[1] - 1))
        for i, j in zip(*np.nonzero(out)):
            grown[i:i + table.shape[0], j:j + table.shape[1]] += out[i, j] * table
        out = grown
    out.setflags(write=False)
    return out


def _merge(cols, p):
    """Add up rows with equal columns (keeps the row count small between card expansions)."""
    keys, inv = np.unique(np.stack(cols), axis=1, return_inverse=True)
    return list(keys), np.bincount(inv.ravel(), weights=p)


def _after(cols, p, card: AfterRoll, is_attacker: bool, fives: bool, bit: int):
    """Rows (ah, dh, adice, ddice, af, df, played bits) after one after-roll card under its
    policy, merged; `bit` marks the rows where it was played."""
    table = hits_fives(card.count, card.threshold, fives)
    needed = needs_help(is_attacker, cols[0], cols[1])
    cols, p, played, _ = after_roll(cols, p, card, table, 0 if is_attacker else 1, needed)
    cols[6] = cols[6] + bit * played
    return _merge(cols, p)


def exact_joint(b: Battle) -> np.ndarray:
    """The joint outcome distribution, enumerated."""
    a_fives, d_fives = b.d_race > 0, b.a_race > 0  # whose 5s matter: the enemy of race-built
    pa = roll_joint(b.groups(0), a_fives)
    pd = roll_joint(b.groups(1), d_fives)
    ia, ja = np.nonzero(pa)
    idd, jd = np.nonzero(pd)
    ah, dh = np.repeat(ia, len(idd)), np.tile(idd, len(ia))
    af, df = np.repeat(ja, len(idd)), np.tile(jd, len(ia))
    p = np.outer(pa[ia, ja], pd[idd, jd]).ravel()
    cols = [ah, dh, np.full(len(p), b.a_dice), np.full(len(p), b.d_dice), af, df,
            np.zeros(len(p), int)]
    for i, (card, is_attacker) in enumerate([(c, True) for c in b.a_after] +
                                            [(c, False) for c in b.d_after]):
        cols, p = _after(cols, p, card, is_attacker, a_fives if is_attacker else d_fives, 1 << i)
    ah, dh, adice, ddice, af, df, bits = cols
    rest = int(np.prod(b.shape[1:]))
    index = outcome_index(b.table, ah, dh, af, df, adice, ddice, b.a_race, b.d_race, *b.caps) \
        + 4 * bits * rest
    return np.bincount(index, weights=p, minlength=int(np.prod(b.shape))).reshape(b.shape)
