"""Luck as a percentile of an exact distribution, and sums of independent rolls by convolution.

A count `x` drawn from `pmf` (index = count) sits at the mid-p percentile
P(worse) + P(same) / 2: 50 is an average roll, 90 one that nine replays in ten do not beat,
and a discrete outcome is not biased (the percentile of a fair coin's heads is 75, its tails
25; their mean is 50, as for any distribution). `better` is +1 when more is luckier (hits
dealt, wins), -1 when fewer is (losses taken).
"""
from __future__ import annotations

import math
from functools import lru_cache

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
    return float(np.dot(_counts(len(pmf)), pmf))


def _counts(n: int) -> np.ndarray:
    """0, 1, ..., n - 1 (one array, grown as asked)."""
    global _COUNTS
    if len(_COUNTS) < n:
        _COUNTS = np.arange(max(n, 2 * len(_COUNTS)), dtype=float)
    return _COUNTS[:n]


_COUNTS = np.arange(64, dtype=float)


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


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> np.ndarray:
    """The pmf of the hits among `n` dice that each hit with probability `p` (exact terms from
    log-gamma, so a game's 100,000 dice are as quick as 10; cached, read-only)."""
    out = _binomial(n, p)
    out.setflags(write=False)
    return out


def _binomial(n: int, p: float) -> np.ndarray:
    if p <= 0.0 or p >= 1.0 or n == 0:
        out = np.zeros(n + 1)
        out[n if p >= 1.0 else 0] = 1.0
        return out
    k = np.arange(n + 1)
    logs = _log_factorials(n)
    log = logs[n] - logs[k] - logs[n - k] + k * math.log(p) + (n - k) * math.log1p(-p)
    return np.exp(log)


def _log_factorials(n: int) -> np.ndarray:
    """log(k!) for k = 0 .. n (math.lgamma: exact to the last bits)."""
    global _LOGS
    if len(_LOGS) <= n:
        _LOGS = np.array([math.lgamma(k + 1) for k in range(max(n + 1, 2 * len(_LOGS)))])
    return _LOGS


_LOGS = np.zeros(0)  # log(k!) for k below its length, grown as asked


def power(pmf, m: int) -> np.ndarray:
    """The pmf of the sum of `m` independent counts each drawn from `pmf` (index = count), by
    repeated squaring; long arrays convolve by FFT and the tails below TAIL are dropped
    (the mass dropped is below 1e-15 for any sum a record reaches)."""
    out, offset = np.ones(1), 0
    base, base_offset = np.asarray(pmf, float), 0
    while m:
        if m & 1:
            out, offset = _trim(_convolve(out, base), offset + base_offset)
        m >>= 1
        if m:
            base, base_offset = _trim(_convolve(base, base), 2 * base_offset)
    return np.concatenate([np.zeros(offset), out])


def _convolve(a, b) -> np.ndarray:
    if min(len(a), len(b)) < 64:
        return np.convolve(a, b)
    size = len(a) + len(b) - 1
    n = 1 << (size - 1).bit_length()
    return np.maximum(np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n)[:size], 0.0)


def _trim(pmf, offset) -> tuple:
    kept = np.flatnonzero(pmf >= TAIL)
    return pmf[kept[0]:kept[-1] + 1], offset + int(kept[0])


def quantiles(pmf) -> tuple:
    """(the 5% point, the 95% point) of a pmf indexed by count."""
    cdf = np.cumsum(pmf)
    return int(np.searchsorted(cdf, BAND[0])), int(np.searchsorted(cdf, BAND[1]))
