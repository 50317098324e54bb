"""Every interrupted Monte Carlo answer honest: one Ctrl-C (or a caller's stop test) stops a run
promptly, the command exits 130 with the partial result marked, and a partial answer is an
unbiased estimate from whole trials (a composed attack keeps whole chains only)."""
import gc
import inspect
import json
import math
import weakref
from types import SimpleNamespace

import numpy as np
import pytest

from agreement import Z, assert_pmfs_sum_to_one
from odds.frontends.cli.main import main
from odds.his.attacks.procedure import ROUND_FIRST, ROUND_GROWTH, ROUND_MOST
from odds.core import montecarlo
from odds.core.result import Result
from odds.his.attacks.procedure import AttackChain, attack
from terminal import Run

FORTRESS = dict(attacker=8, attacker_cavalry=2, attacker_leader=2, defender=4, defender_leader=1,
                avoid_battle=True, assaults=3, siege_cards=["siege-artillery:if-needed"])


def whole_rounds(trials):
    """The trial counts a composed run can stop at: sums of its first rounds (his.attacks.procedure.ROUND_*)."""
    ends, size, done = set(), ROUND_FIRST, 0
    while done < trials:
        done += min(size, trials - done)
        ends.add(done)
        size = min(size * ROUND_GROWTH, ROUND_MOST)
    return ends


def assert_unbiased(mc, exact):
    """P(captured) within Z standard errors of the exact engine's (tests/agreement.py)."""
    band = Z * math.sqrt(exact.p * (1 - exact.p) / mc.trials)
    assert abs(mc.p - exact.p) <= band, (mc.p, exact.p, band, mc.trials)


class StopAfter:
    """A stop test that says stop from its n-th question on: no clock, so the run stops at
    the same place every time (with one thread and a fixed seed)."""

    def __init__(self, n):
        self.n, self.asked = n, 0

    def __call__(self, seconds):
        self.asked += 1
        return self.asked >= self.n


@pytest.mark.parametrize("questions", [100, 275])
def test_a_stopped_attack_counts_whole_chains_and_is_unbiased(questions):
    """Stopped inside a round (a stage cut short), the attack drops that round: the trials are
    whole rounds, every chain counted ran to its end, and P(captured) matches the exact one."""
    exact = attack(**FORTRESS)
    stop = StopAfter(questions)
    with montecarlo.stop_when(stop):
        mc = attack(**FORTRESS, method="mc", trials=10**8, seed=5, threads=1, progress=False)
    assert stop.asked >= questions and mc.partial
    assert mc.trials in whole_rounds(10**8) and mc.trials >= ROUND_FIRST * (1 + ROUND_GROWTH)
    assert_pmfs_sum_to_one(mc)  # the joint holds exactly `trials` counts
    assert_unbiased(mc, exact)


def test_a_stop_covers_every_stage_of_an_attack():
    """200 v 200: each round's battle leaves hundreds of sieges, and each asks the stop test;
    told to stop inside one, the attack stops there (no question after it) and drops the
    round."""
    asked = []

    def stop(seconds):
        asked.append(any(f.function == "siege_of" for f in inspect.stack()))
        return asked.count(True) == 50  # the 50th question asked from inside the sieges

    with montecarlo.stop_when(stop):
        r = attack(attacker=200, defender=200, assaults=3, method="mc", trials=10**7, seed=1,
                   threads=1, progress=False)
    assert r.partial and r.trials in whole_rounds(10**7) | {0}
    assert asked[-1] is True and asked.count(True) == 50, asked.count(True)


def test_the_stop_test_counts_every_run_of_its_block(monkeypatch):
    """Two runs in one stop_when block share its budget: the second, started after the budget
    is spent, runs one batch (a clock that each chunk moves on by 0.02 s)."""
    clock = [0.0]

    def kernel(seed, first_chunk, chunk_trials, out, lane):
        clock[0] += 0.02 * len(chunk_trials)
        out[lane, 0] += chunk_trials[lane::out.shape[0]].sum()

    monkeypatch.setattr(montecarlo, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    trials = 100 * montecarlo.CHUNK
    with montecarlo.stop_when(lambda seconds: seconds > 0.25):
        first = montecarlo.run(kernel, (), (2,), trials, 0, threads=1, progress=False)
        second = montecarlo.run(kernel, (), (2,), trials, 0, threads=1, progress=False)
    assert first.partial and first.trials == 13 * montecarlo.CHUNK  # 0.26 s > 0.25 s
    assert second.partial and second.trials == montecarlo.CHUNK


def test_rounds_drop_the_round_a_ctrl_c_interrupts():
    asked = []

    def step(first, n):
        asked.append((first, n))
        if len(asked) == 3:
            raise KeyboardInterrupt
        return montecarlo.Run(np.array([n, 0]), n, False, None)

    run = montecarlo.rounds(step, (2,), 10**6, lambda n, s: 100 if n is None else 2 * n,
                            progress=False)
    assert run.partial and run.trials == 300 and run.hist.tolist() == [300, 0]
    assert asked == [(0, 100), (100, 200), (300, 400)]


def test_rounds_keep_what_a_stopped_step_counted_and_stop_there():
    def step(first, n):
        return montecarlo.Run(np.array([n // 2, 0]), n // 2, True, None)  # half, then stopped

    run = montecarlo.rounds(step, (2,), 10**6, lambda n, s: 100, progress=False)
    assert (run.partial, run.trials, run.hist.tolist()) == (True, 50, [50, 0])


def test_a_run_stopped_before_its_first_whole_trial_has_no_estimate(monkeypatch):
    """Undefined numbers are NaN (null in JSON), never a division error or a made-up 0."""
    monkeypatch.setattr(montecarlo, "rounds", lambda step, shape, *a, **k: montecarlo.Run(
        np.zeros(shape, np.int64), 0, True, None))
    r = attack(6, 3, assaults=2, method="mc", trials=10**6)
    assert r.partial and r.trials == 0 and math.isnan(r.p)
    assert json.loads(json.dumps(r.to_json()))["captured"] is None
    assert any("no estimate" in n for n in r.notes)


@pytest.mark.parametrize("method", ["exact", "mc"])
def test_attack_chains_are_freed_after_a_call(monkeypatch, method):
    """Nothing keeps a query's AttackChain (a cache on a method kept every one alive)."""
    made, init = [], AttackChain.__init__

    def remember(self, *args):
        init(self, *args)
        made.append(weakref.ref(self))

    monkeypatch.setattr(AttackChain, "__init__", remember)
    for defender in (3, 4):
        attack(6, defender, defender_leader=1, avoid_battle=True, assaults=2, method=method,
               trials=10_000, seed=1, progress=False)
    gc.collect()
    assert len(made) == 2 and all(ref() is None for ref in made)


def test_a_bar_shows_only_on_a_terminal_unless_asked(capsys, monkeypatch):
    def kernel(seed, first_chunk, chunk_trials, out, lane):
        out[lane, 0] += chunk_trials[lane::out.shape[0]].sum()

    trials = 3 * montecarlo.BATCH_CHUNKS * montecarlo.CHUNK
    monkeypatch.setattr(montecarlo, "PROGRESS_AFTER_SECONDS", -1.0)  # every run counts as long
    montecarlo.run(kernel, (), (2,), trials, 0, progress=None)
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    montecarlo.run(kernel, (), (2,), trials, 0, progress=True)
    assert "trial" in capsys.readouterr().err
    monkeypatch.setattr(montecarlo, "terminal", lambda: True)
    montecarlo.run(kernel, (), (2,), trials, 0, progress=None)
    assert "trial" in capsys.readouterr().err


def test_one_ctrl_c_stops_a_monte_carlo_attack_at_once_with_whole_chains():
    """The CLI: one SIGINT while the attack samples; exit 130, the partial JSON an unbiased
    estimate from whole rounds (how soon: benchmarks/bench_interrupt.py)."""
    kw = dict(attacker=8, defender=4, assaults=3)
    run = Run("his", "attack", "--attacker", 8, "--defender", 4, "--assaults", 3, "--method",
              "mc", "--trials", 10**9, "--seed", 3, "--json")
    run.wait_for("%")  # the progress bar: rounds are done
    code, out = run.interrupt()
    assert code == 130, run.err[-500:]
    j = json.loads(out)
    assert j["partial"] is True and j["trials"] in whole_rounds(10**9)
    mc = Result("his.attack", "mc", {"captured": j["captured"]}, {}, "captured", trials=j["trials"])
    assert_unbiased(mc, attack(**kw))
    assert "interrupted: partial result" in run.err


def test_a_demo_interrupted_in_a_monte_carlo_run_stops_there(monkeypatch, capsys):
    from odds import demo

    partial = Result("his.field", "mc", {"attacker_win": 0.5}, {}, "attacker_win", trials=10,
                     partial=True)
    shown = []

    def examples(specs, say=None):
        for title in ("first", "second"):
            shown.append(title)
            yield title, partial

    monkeypatch.setattr(demo, "examples", examples)
    assert main(["demo", "--alone", "his.field"]) == 130
    out, err = capsys.readouterr()
    assert shown == ["first"] and "PARTIAL" in out and "interrupted" in err
