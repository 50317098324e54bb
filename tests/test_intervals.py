"""A Monte Carlo number is printed with an interval that is honest at a handful of trials
(Wilson's for a probability, Newcombe's for a plan's change), with its count of trials,
never 0.00% ± 0.00% after one trial."""
import json
import subprocess
import sys

import pytest

import odds
from odds.core.interval import newcombe, wilson


@pytest.mark.parametrize("p, n, low, high", [
    (0.0, 1, 0.0, 1.96 ** 2 / (1 + 1.96 ** 2)),  # no hit in one trial: z^2 / (n + z^2)
    (1.0, 1, 1 / (1 + 1.96 ** 2), 1.0),
    (0.5, 10, 0.2366, 0.7634),  # Newcombe (1998), single proportion, 5/10
    (81 / 263, 263, 0.2553, 0.3662),  # Newcombe (1998), 81/263
])
def test_wilson_against_published_values(p, n, low, high):
    assert wilson(p, n) == pytest.approx((low, high), abs=1e-4)


@pytest.mark.parametrize("a, n, b, m, low, high", [
    (56, 70, 48, 80, 0.0524, 0.3339),  # Newcombe (1998), difference, method 10, example (a)
    (9, 10, 3, 10, 0.1705, 0.8090),  # example (b)
])
def test_newcombe_against_published_values(a, n, b, m, low, high):
    assert newcombe(a / n, n, b / m, m) == pytest.approx((low, high), abs=1e-4)


def test_one_trial_is_not_certainty():
    """The issue's run: one trial of an exploration."""
    out = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "his", "exploration", "--explorer",
                          "2", "--method", "mc", "--trials", "1"], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "±" not in out.stdout and "0.00% ± 0.00%" not in out.stdout
    head, outcomes = out.stdout.splitlines()[:2]
    assert head.startswith("Discovery 0.0%, 95% interval 0.0% to 79.3% (Monte Carlo, 1 trial,")
    assert outcomes == "  outcomes (95% intervals from 1 trial):"
    assert "[  0.00%,  79.35%]" in out.stdout and "[ 20.65%, 100.00%]" in out.stdout


def test_every_probability_s_interval_is_in_the_json():
    r = odds.his.exploration(explorer=2, method="mc", trials=1000, seed=3)
    j = json.loads(json.dumps(r.to_json()))
    assert set(j["intervals"]) == set(r.probabilities)
    for name, p in r.probabilities.items():
        assert j["intervals"][name] == pytest.approx(list(wilson(p, 1000)))
    assert "intervals" not in odds.his.exploration(explorer=2).to_json()


def test_a_compare_table_prints_intervals_and_its_trials():
    table = odds.compare("his.exploration", {"explorer": 2}, {"three": {"explorer": 3}},
                         method="mc", trials=1000, seed=2)
    base, three = table.loc["base"], table.loc["three"]
    assert (base["discovery_low"], base["discovery_high"]) == wilson(base["discovery"], 1000)
    assert (three["discovery_change_low"], three["discovery_change_high"]) == pytest.approx(
        newcombe(three["discovery"], 1000, base["discovery"], 1000))
    text = table.summary()
    assert "1,000 trials a plan" in text and "±" not in text.splitlines()[2]
    low, high = three["discovery_change_low"], three["discovery_change_high"]
    assert f"[{low:+.1%}, {high:+.1%}]" in text


def test_a_picture_s_error_bars_are_the_intervals():
    """20 trials of an exploration: each outcome bar's error bar spans its Wilson interval."""
    import matplotlib
    matplotlib.use("Agg")
    r = odds.his.exploration(explorer=2, method="mc", trials=20, seed=1)
    ax = r.plot()
    from matplotlib.container import ErrorbarContainer
    bars = next(c for c in ax.containers if isinstance(c, ErrorbarContainer))
    segments = bars.lines[2][0].get_segments()
    for (name, p), segment in zip(r.words.partition(r.probabilities), segments):
        assert sorted(segment[:, 1]) == pytest.approx(wilson(p, 20))
    matplotlib.pyplot.close(ax.figure)
