"""Pmf algebra for dice pools.

A pool is a list of (count, threshold) groups of d6: each die hits on `threshold` or more
(5 for the usual 5-6, 3 for Siege Artillery's 3-6). A pmf is a float64 array indexed by the
number of hits. Tables are cached, so a warm exact query only convolves a few short arrays.
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

SIDES = 6


def hit_probability(threshold: int) -> float:
    """P(one d6 rolls `threshold` or more)."""
    return (SIDES + 1 - threshold) / SIDES


@lru_cache(maxsize=None)
def binomial_table(max_n: int, threshold: int) -> np.ndarray:
    """Row n (0..max_n) is the hit pmf of n dice hitting on `threshold`+, zero-padded."""
    p = hit_probability(threshold)
    table = np.zeros((max_n + 1, max_n + 1))
    for n in range(max_n + 1):
        k = np.arange(n + 1)
        table[n, : n + 1] = [comb(n, int(i)) for i in k] * p**k * (1 - p) ** (n - k)
    table.setflags(write=False)
    return table


def _table_size(n: int) -> int:
    size = 32
    while size < n:
        size *= 2
    return size


@lru_cache(maxsize=4096)
def binomial_pmf(n: int, threshold: int = 5) -> np.ndarray:
    """Hit pmf of `n` dice hitting on `threshold`+ (length n + 1, read-only)."""
    return binomial_table(_table_size(n), threshold)[n, : n + 1]


def binomial_rows(counts, threshold: int = 5) -> np.ndarray:
    """Hit pmfs of many pools of `counts` dice as rows, zero-padded to a common length."""
    counts = np.asarray(counts)
    return binomial_table(_table_size(int(counts.max())), threshold)[counts]


def convolve(*pmfs: np.ndarray) -> np.ndarray:
    """Pmf of the sum of independent counts."""
    out = pmfs[0]
    for pmf in pmfs[1:]:
        out = np.convolve(out, pmf)
    return out


def pool_pmf(groups) -> np.ndarray:
    """Hit pmf of a pool given as (count, threshold) groups (cached; read-only)."""
    return _pool_pmf(tuple((int(n), int(t)) for n, t in groups if n > 0))


@lru_cache(maxsize=4096)
def _pool_pmf(groups) -> np.ndarray:
    out = convolve(np.ones(1), *(binomial_pmf(n, t) for n, t in groups))
    out.setflags(write=False)
    return out


def shift(pmf: np.ndarray, k: int) -> np.ndarray:
    """Pmf of X + k for a non-negative integer k."""
    return np.concatenate([np.zeros(k), pmf]) if k else pmf


def trinomial_pmf(n: int, threshold: int = 5) -> np.ndarray:
    """Joint pmf [fives, sixes] of n dice hitting on `threshold`+, sixes kept apart.

    Entry [i, j] is P(i hits that are not 6s, j sixes); used where a rule treats a 5 (or any
    non-6 hit) differently from a 6.
    """
    p_six = 1 / SIDES
    p_other = hit_probability(threshold) - p_six
    hits = binomial_pmf(n, threshold)
    out = np.zeros((n + 1, n + 1))
    for h in range(n + 1):
        # given h hits, each is a 6 with probability p_six / (p_six + p_other)
        q = p_six / (p_six + p_other)
        j = np.arange(h + 1)
        split = np.array([comb(h, int(x)) for x in j]) * q**j * (1 - q) ** (h - j)
        out[h - j, j] += hits[h] * split
    return out


_MAX_WORD = 2**64 - 1


def inverse_cdf_table(pmfs, width: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Integer thresholds for sampling each pmf from one 64-bit word (numpy side of `rng.draw`).

    Row r holds the words at which the count steps from k-1 to k, for the steps that can
    happen at 64-bit resolution; `base[r]` counts the steps that always happen. Rows are
    padded to `width`, doubled until every row fits, with the largest word, which a draw reaches
    with probability 2**-64.
    """
    rows, bases = [], []
    for pmf in pmfs:
        cdf = np.cumsum(pmf)[:-1]
        words = [min(int(c * 2.0**64), _MAX_WORD) for c in cdf]
        base = sum(1 for w in words if w == 0)
        rows.append([w for w in words if 0 < w < _MAX_WORD])
        bases.append(base)
    while width < max(len(r) for r in rows):
        width *= 2
    table = np.full((len(rows), width), _MAX_WORD, dtype=np.uint64)
    for i, r in enumerate(rows):
        table[i, : len(r)] = r
    return table, np.array(bases, dtype=np.int64)


def draw_row(pmf, width: int = 8) -> tuple:
    """(row, base, width) of one pmf for `rng.draw` (a mixed strategy's choice, say)."""
    table, base = inverse_cdf_table([pmf], width)
    return table[0], base[0], table.shape[1]


def hit_rows(top: int, width: int = 8, threshold: int = 5) -> tuple:
    """(rows, bases, width) for `rng.draw`: row n samples the hits of n dice hitting on
    `threshold` or more (5: 5-6; n = 0 .. top) from one word."""
    table, base = inverse_cdf_table([binomial_pmf(n, threshold) for n in range(top + 1)], width)
    return table, base, table.shape[1]


def highest_rows(top: int, width: int = 8) -> tuple:
    """(rows, bases, width) for `rng.draw`: row n samples the highest of n six-sided dice
    (0 for no dice; n = 0 .. top) from one word: P(highest <= k) = (k / 6) ** n."""
    pmfs = [np.array([1.0])] + [np.diff((np.arange(7) / 6) ** n, prepend=0.0)
                                for n in range(1, top + 1)]
    table, base = inverse_cdf_table(pmfs, width)
    return table, base, table.shape[1]
