"""The game-neutral core: dice algebra, inverse-CDF tables, the Monte Carlo runner, Result."""
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from odds.core import montecarlo
from odds.core.dice import binomial_pmf, inverse_cdf_table, pool_pmf, trinomial_pmf
from odds.core.result import Result
from odds.errors import OddsError


def test_binomial_pmf_matches_the_formula():
    for n in range(0, 12):
        for threshold in (3, 4, 5, 6):
            p = Fraction(7 - threshold, 6)
            want = [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
            assert binomial_pmf(n, threshold) == pytest.approx([float(w) for w in want], abs=1e-15)


def test_pool_mixes_thresholds():
    # one die at 5-6 and one at 3-6: P(0) = 2/3 * 1/3, P(2) = 1/3 * 2/3
    pmf = pool_pmf([(1, 5), (1, 3)])
    assert pmf == pytest.approx([2 / 9, 5 / 9, 2 / 9])
    assert pool_pmf([]) == pytest.approx([1.0])


def test_trinomial_keeps_fives_and_sixes_apart():
    t = trinomial_pmf(2)
    assert t.sum() == pytest.approx(1)
    assert t[0, 0] == pytest.approx((4 / 6) ** 2)
    assert t[1, 1] == pytest.approx(2 * (1 / 6) * (1 / 6))
    assert t[0, 2] == pytest.approx(1 / 36)
    assert t.sum(axis=0) == pytest.approx(binomial_pmf(2, 6))


def test_inverse_cdf_table_reproduces_the_pmf():
    pmf = binomial_pmf(7)
    table, base = inverse_cdf_table([pmf])
    assert table.shape[1] == 8
    # the fraction of 64-bit words landing on each count is the pmf (to 2**-64)
    edges = [0] + [int(t) for t in table[0] if t < 2**64 - 1] + [2**64]
    widths = np.diff(np.array(edges, dtype=object)).astype(float) / 2.0**64
    assert base[0] == 0
    assert widths == pytest.approx(pmf, abs=1e-15)


def test_inverse_cdf_table_skips_certain_steps_for_big_pools():
    table, base = inverse_cdf_table([binomial_pmf(200)])
    assert base[0] > 0 and table.shape[1] >= 64


def _counting_kernel(interrupt_at=None):
    """A stand-in lane: counts its chunks' trials; lane 0 logs each batch's first chunk."""
    calls = []

    def kernel(seed, first_chunk, chunk_trials, out, lane):
        if lane == 0 and len(chunk_trials):
            calls.append(first_chunk)
            if interrupt_at is not None and len(calls) == interrupt_at:
                raise KeyboardInterrupt
        out[lane, 0] += chunk_trials[lane::out.shape[0]].sum()

    return kernel, calls


def test_runner_runs_exactly_the_trials_in_chunks():
    kernel, calls = _counting_kernel()
    trials = 2 * montecarlo.BATCH_CHUNKS * montecarlo.CHUNK + 5
    run = montecarlo.run(kernel, (), (2,), trials, 0, progress=False)
    assert run.hist[0] == trials and run.trials == trials and not run.partial
    assert calls == [0, montecarlo.BATCH_CHUNKS, 2 * montecarlo.BATCH_CHUNKS]


def test_ctrl_c_returns_the_partial_result():
    kernel, _ = _counting_kernel(interrupt_at=2)
    batch = montecarlo.BATCH_CHUNKS * montecarlo.CHUNK
    run = montecarlo.run(kernel, (), (2,), 5 * batch, 0, progress=False)
    assert run.partial and run.trials == batch and run.hist[0] == batch


def test_progress_bar_shows_for_long_runs(capsys):
    kernel, _ = _counting_kernel()
    montecarlo.run(kernel, (), (2,), 3 * montecarlo.BATCH_CHUNKS * montecarlo.CHUNK, 0, progress=True)
    assert "trial" in capsys.readouterr().err


def test_run_options_are_checked():
    with pytest.raises(OddsError, match="trials"):
        montecarlo.check_run_options(-5, None, None, 10)
    with pytest.raises(OddsError, match="seed"):
        montecarlo.check_run_options(10, -1, None, 10)
    with pytest.raises(OddsError, match="precision"):
        montecarlo.check_run_options(None, 1, 0, 10)
    assert montecarlo.check_run_options(None, None, 0.01, 50) == (50, 0, 0.01, 50)


def test_result_standard_errors():
    r = Result("x", "mc", {"win": 0.25}, {"loss": np.array([0.5, 0.5])}, "win", trials=10_000)
    assert r.se(0.25) == pytest.approx((0.25 * 0.75 / 10_000) ** 0.5)
    assert r.to_json()["win_se"] == pytest.approx(r.se(0.25))
    exact = Result("x", "exact", {"win": 0.25}, {"loss": np.array([0.5, 0.5])}, "win")
    assert exact.se(0.25) == 0 and (exact.to_frame().se == 0).all()


def test_lru_keeps_the_latest_values():
    from odds.core.lru import LRU

    kept = LRU(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # now the most recent
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (1, None, 3, 2)
    assert kept.get(None) is None


def test_result_answers_in_and_iterates_its_names():
    r = Result("x", "exact", {"win": 0.25}, {"losses": np.array([0.5, 0.5])}, "win")
    assert "win" in r and "losses" in r and "x" not in r
    assert list(r) == ["win", "losses"] and all(name in r for name in r)
    assert dict((name, r[name]) for name in r)["win"] == 0.25
