"""95% intervals for Monte Carlo estimates that stay honest at a handful of trials.

A probability estimated from n trials gets Wilson's score interval: unlike p ± 1.96 se, which
is 0% ± 0% after one trial that missed, it is [0%, 79%] there, never leaves [0, 1], and is
close to p ± 1.96 se once n is large. A difference of two probabilities (a plan against the
base) gets Newcombe's interval, built from the two Wilson intervals (Newcombe 1998, method 10).
"""
from __future__ import annotations

import math

from ..i18n import integer, ngettext

Z = 1.96  # a 95% interval


def wilson(p: float, n: int | None, z: float = Z) -> tuple[float, float]:
    """(low, high) of Wilson's score interval for a proportion `p` of `n` trials; (nan, nan)
    without trials."""
    if not n or p != p:
        return math.nan, math.nan
    z2 = z * z / n
    centre = (p + z2 / 2) / (1 + z2)
    half = z / (1 + z2) * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n))
    return max(centre - half, 0.0), min(centre + half, 1.0)


def newcombe(p: float, n: int | None, q: float, m: int | None, z: float = Z) -> tuple:
    """(low, high) of the difference p - q of two proportions of `n` and `m` trials, from their
    Wilson intervals; an exact side (n or m None) counts with no width."""
    lp, hp = wilson(p, n, z) if n else (p, p)
    lq, hq = wilson(q, m, z) if m else (q, q)
    d = p - q
    return d - math.hypot(p - lp, hq - q), d + math.hypot(hp - p, q - lq)


def trials_text(n: int) -> str:
    """'1 trial', '1,000 trials'."""
    return ngettext("{n} trial", "{n} trials", n).format(n=integer(n))
