"""Every procedure's long Monte Carlo answer shows its progress and keeps its work: a bar on
stderr, and a real SIGINT, sent once the bar has counted whole trials, returns the partial
answer (its trials, a standard error) instead of losing it. The signal comes from the run's
own progress, never from a clock."""
import math
import os
import re
import signal

import pytest

from odds import registry
from odds.core import montecarlo
from terminal import Run

TRIALS = 10**10  # no machine finishes these: every run below is stopped by its SIGINT


@pytest.fixture
def sigint_once_counted(monkeypatch):
    """A SIGINT to this process the first time a progress bar has counted trials."""
    progress, sent = montecarlo._progress, []

    def progress_then_sigint(bar, *args):
        bar = progress(bar, *args)
        if bar is not None and bar.n > 0 and not sent:
            sent.append(bar.n)
            os.kill(os.getpid(), signal.SIGINT)
        return bar

    monkeypatch.setattr(montecarlo, "_progress", progress_then_sigint)
    return sent


@pytest.mark.parametrize("spec", [s for s in registry.specs().values() if s.kernels],
                         ids=lambda s: s.name)
def test_a_long_run_shows_progress_and_ctrl_c_keeps_its_trials(spec, sigint_once_counted,
                                                               capsys):
    kwargs = {**spec.examples[0].kwargs, "method": "mc", "seed": 1, "progress": True}
    r = spec.call(**kwargs, trials=TRIALS)
    err = capsys.readouterr().err
    assert sigint_once_counted, f"no progress bar counted trials: {err[-300:]!r}"
    assert "trial" in err  # the bar's unit
    assert r.partial and 0 < r.trials < TRIALS
    assert 0 <= r.p <= 1 and math.isfinite(r.se(r.p))


def test_the_cli_shows_a_long_reformation_run_and_ctrl_c_prints_its_partial_answer():
    """At a terminal: the bar, then one Ctrl-C: the summary marked PARTIAL with its trials and
    95% intervals (exit code 130)."""
    run = Run("his", "reformation", "--protestant-dice", 2, "--papal-dice", 2, "--method", "mc",
              "--precision", "1e-9", "--max-trials", TRIALS, "--threads", 1)
    run.wait_for(re.compile(r"\d+%\|"))  # the bar has counted trials
    code, out = run.interrupt()
    assert code == 130, run.err[-500:]
    assert re.search(r"^Succeeds \d+\.\d%, 95% interval \d+\.\d% to \d+\.\d% \(Monte Carlo, "
                     r"[\d,]+ trials?, seed 0, PARTIAL: interrupted\)", out), out[:300]
    assert re.search(r"success +\d+\.\d\d%  \[ *\d+\.\d\d%, +\d+\.\d\d%\]", out)
    assert "odds: interrupted: partial result" in run.err
