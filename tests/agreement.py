"""Checks that two Results agree: exact against Monte Carlo, or two Monte Carlo runs.

The tolerance comes from the standard error: |mc - exact| <= Z * sqrt(p(1-p)/n) for every
probability and pmf entry, with Z = 4.5 because a test compares dozens of numbers at once,
and a chi-square goodness-of-fit test of each MC pmf against the exact one (cells with
expected count under 5 merged), rejected below ALPHA. Seeds are fixed, so a passing test
passes every time; a wrong rule shifts the numbers by far more than these bands.
"""
import numpy as np
from scipy import stats

Z = 4.5
ALPHA = 1e-4


def assert_pmfs_sum_to_one(result, tol=1e-9):
    for name, pmf in result.pmfs.items():
        assert abs(pmf.sum() - 1) < tol, (name, pmf.sum())
        assert (pmf >= -1e-15).all(), name
    for name, p in result.probabilities.items():
        assert -1e-12 <= p <= 1 + 1e-12, (name, p)


def _close(name, exact, mc, n):
    exact, mc = np.asarray(exact, float), np.asarray(mc, float)
    band = Z * np.sqrt(np.maximum(exact * (1 - exact), 1 / n) / n)
    bad = np.abs(mc - exact) > band
    assert not bad.any(), f"{name}: exact {exact[bad]} vs mc {mc[bad]} (band {band[bad]}, n={n})"


def chi_square_pvalue(exact_pmf, mc_pmf, n):
    """p-value of the MC counts against the exact pmf (small cells merged)."""
    expected = np.asarray(exact_pmf) * n
    observed = np.asarray(mc_pmf) * n
    keep_e, keep_o, acc_e, acc_o = [], [], 0.0, 0.0
    for e, o in zip(expected, observed):
        acc_e, acc_o = acc_e + e, acc_o + o
        if acc_e >= 5:
            keep_e.append(acc_e)
            keep_o.append(acc_o)
            acc_e = acc_o = 0.0
    if keep_e:
        keep_e[-1] += acc_e
        keep_o[-1] += acc_o
    if len(keep_e) < 2:
        return 1.0
    e, o = np.array(keep_e), np.array(keep_o)
    return float(stats.chi2.sf(((o - e) ** 2 / e).sum(), len(e) - 1))


def assert_agree(exact, mc):
    """`mc` (a Monte Carlo Result) agrees with `exact` on every number both report."""
    assert exact.method == "exact" and mc.method == "mc"
    assert set(exact.probabilities) == set(mc.probabilities)
    assert set(exact.pmfs) == set(mc.pmfs)
    n = mc.trials
    for name, p in exact.probabilities.items():
        _close(name, [p], [mc.probabilities[name]], n)
    for name, pmf in exact.pmfs.items():
        other = mc.pmfs[name]
        assert len(other) == len(pmf), name
        _close(name, pmf, other, n)
        assert chi_square_pvalue(pmf, other, n) > ALPHA, name


def engines_agree(fn, kwargs, trials, seed):
    """fn's exact and Monte Carlo answers for `kwargs`: both proper, and in agreement."""
    exact = fn(**kwargs, method="exact")
    mc = fn(**kwargs, method="mc", trials=trials, seed=seed)
    assert_pmfs_sum_to_one(exact)
    assert_pmfs_sum_to_one(mc)
    assert_agree(exact, mc)
    return exact, mc


def assert_thread_count_free(fn, kwargs, trials, seed):
    """The same seed gives identical numbers with 1 and 2 threads, another seed different ones."""
    one = fn(**kwargs, method="mc", trials=trials, seed=seed, threads=1)
    two = fn(**kwargs, method="mc", trials=trials, seed=seed, threads=2)
    assert one.to_json() == two.to_json()
    assert fn(**kwargs, method="mc", trials=trials, seed=seed + 1, threads=1).to_json() != one.to_json()
