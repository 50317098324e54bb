"""Paired Monte Carlo runs: one call split into replicate runs of a seed each, so that two calls
run with the same seeds (common random numbers) have each difference's standard error from the
spread of their replicates' differences (R runs: R - 1 degrees of freedom). A sweep's variants
and a sensitivity's flips are compared this way."""
from __future__ import annotations

import hashlib
import json
import math

REPLICATES = 20  # runs of a call whose seed another call shares (19 degrees of freedom)
# Student's t, 97.5% quantile, by degrees of freedom (a paired difference over R runs: R - 1)
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (1.96 beyond 30)."""
    return T975[df - 1] if 1 <= df <= len(T975) else 1.96


def cell_seed(seed: int, params: dict) -> int:
    """A 63-bit seed from a seed and a call's parameters (order-free)."""
    text = json.dumps({"seed": seed, **params}, sort_keys=True, default=str)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def replicate_seed(seed: int, replicate: int) -> int:
    """The seed of replicate run `replicate` of a call of seed `seed`."""
    return cell_seed(seed, {"replicate": replicate})


def sizes(total: int, replicates: int = REPLICATES) -> list:
    """The trials of each replicate run: `total` split as evenly as can be."""
    replicates = max(1, min(replicates, total))
    return [total // replicates + (i < total % replicates) for i in range(replicates)]


def merged(runs, seed):
    """One Result from replicate runs: their counts added up (probabilities and pmfs weighted
    by trials), and the notes every run gives (not a warning about one run's few trials)."""
    total = sum(r.trials for r in runs)
    weight = [r.trials / total for r in runs]
    first = runs[0]
    probabilities = {k: math.fsum(w * r.probabilities[k] for w, r in zip(weight, runs))
                     for k in first.probabilities}
    pmfs = {k: sum(w * r.pmfs[k] for w, r in zip(weight, runs)) for k in first.pmfs}
    notes = tuple(n for n in first.notes if all(n in r.notes for r in runs))  # not one run's
    return first.with_changes(probabilities=probabilities, pmfs=pmfs, trials=total, seed=seed,
                              notes=notes)


def interval(change: float, a: list, b: list) -> tuple:
    """The 95% interval of `change` (a's value less b's, over all their trials) from the
    replicates' paired differences a[i] - b[i]: change ± t(R - 1) times their standard error."""
    diffs = [x - y for x, y in zip(a, b)]
    if len(diffs) < 2:
        return (math.nan, math.nan)
    mean = math.fsum(diffs) / len(diffs)
    se = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
    half = t975(len(diffs) - 1) * se
    return (change - half, change + half)
