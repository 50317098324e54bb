"""Luck as a percentile of an exact distribution, and sums of independent rolls by convolution.

A count `x` drawn from `pmf` (index = count) sits at the mid-p percentile
P(worse) + P(same) / 2: 50 is an average roll, 90 one that nine replays in ten do not beat,
and a discrete outcome is not biased (the percentile of a fair coin's heads is 75, its tails
25; their mean is 50, as for any distribution). `better` is +1 when more is luckier (hits
dealt, wins), -1 when fewer is (losses taken).
"""
from __future__ import annotations

import numpy as np

BAND = (0.05, 0.95)  # the shaded band of the cumulative plot: 5% and 95% of the sum
TAIL = 1e-20  # a running sum's tail terms below this are dropped (running)


def percentile(pmf, x: int, better: int) -> float:
    """Mid-p percentile (0 to 1) of count `x` in `pmf` (beyond its end: probability 0)."""
    below, same = float(np.sum(pmf[:x])), float(pmf[x]) if x < len(pmf) else 0.0
    worse = below if better > 0 else max(0.0, 1.0 - below - same)
    return min(1.0, worse + same / 2)


def at_least(pmf, x: int, better: int) -> float:
    """P(an outcome at least as good as `x`)."""
    return min(1.0, float(np.sum(pmf[x:] if better > 0 else pmf[:x + 1])))


def mean(pmf) -> float:
    return float(np.dot(np.arange(len(pmf)), pmf))


def running(pmfs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pmf of the sum of all `pmfs`, the 5% and the 95% quantile of each running sum): the sums
    of independent counts, by exact convolution one roll at a time. The running pmf's tails
    below TAIL are dropped as they form (a 10,000-roll sum keeps ~1,000 terms instead of
    ~30,000; the mass dropped is below rolls x terms x TAIL, 1e-12 for 10,000 rolls)."""
    total, offset = np.ones(1), 0  # total[i] = P(sum = offset + i)
    low, high = np.empty(len(pmfs), dtype=np.int64), np.empty(len(pmfs), dtype=np.int64)
    for i, pmf in enumerate(pmfs):
        total = np.convolve(total, pmf)
        kept = np.flatnonzero(total >= TAIL)
        offset, total = offset + kept[0], total[kept[0]:kept[-1] + 1]
        cdf = np.cumsum(total)
        low[i], high[i] = offset + np.searchsorted(cdf, BAND[0]), offset + np.searchsorted(cdf, BAND[1])
    return np.concatenate([np.zeros(offset), total]), low, high


def bernoulli(p: float) -> np.ndarray:
    """The pmf of a count that is 1 with probability `p` (a win)."""
    return np.array([1.0 - p, p])
