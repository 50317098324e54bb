"""One budget of exact work over every call a question makes (odds/tools/questions/budget.py): a
compare's plans, a need's steps and a sweep's cells are estimated together before any runs;
over the bound, 'exact' is refused in one line and 'auto' answers by Monte Carlo with a note.
The bound is lowered here so the questions stay small and the tests quick."""
import pytest

import odds
from odds.core import engine as E
from odds.registry import get
from odds.tools.sweep import sweep

SIEGE = {"defender": 5, "assaults": 6}


@pytest.fixture
def small(monkeypatch):
    """A bound for two sieges' estimates: a plan and its base fit, four calls do not."""
    one = E.estimate(lambda: get("his.siege").call(attacker=12, **SIEGE))
    assert one > 0
    monkeypatch.setattr(E, "MAX_EXACT_WORK", int(2.5 * one))
    return one


def test_the_estimate_is_the_exact_engines_cost_and_runs_nothing(monkeypatch):
    spec = get("his.siege")
    with monkeypatch.context() as m:
        m.setattr(E, "exact_clock", lambda: pytest.fail("exact work started"))
        work = E.estimate(lambda: spec.call(attacker=30, defender=12, assaults=20))
    assert work > 1e4
    assert E.estimate(lambda: spec.call(attacker=30, defender=12, assaults=20, method="mc")) == 0


def test_compare_over_the_budget_is_refused_for_exact_and_monte_carlo_for_auto(small):
    plans = {f"+{i}": {"attacker": 12 + i} for i in range(1, 4)}
    with pytest.raises(odds.OddsError, match=r"^method: 'exact': 4 plans \(the base included\): "
                                             r"the exact answers would need about [\d,]+ work units"):
        odds.compare("his.siege", {"attacker": 12, **SIEGE}, plans, method="exact")
    c = odds.compare("his.siege", {"attacker": 12, **SIEGE}, plans, trials=2000)
    assert c.attrs["method"] == "mc" and c.attrs["notes"][0].startswith("Monte Carlo for every answer")
    one = odds.compare("his.siege", {"attacker": 12, **SIEGE}, {"same": {}}, method="exact")
    assert one.attrs["method"] == "exact"  # within the budget: as before


def test_need_over_the_budget_as_it_goes(small):
    """A need's exact work is checked before each value runs, the work spent included: 'exact'
    is refused at the value that would pass the bound, 'auto' answers it and the rest by
    Monte Carlo; the exact work done never passes the bound."""
    with pytest.raises(odds.OddsError, match=r"^method: 'exact': \d+ values of attacker so far "
                                             r"\(attacker=\d+ next\): the exact answers"):
        odds.need("his.siege", SIEGE, vary="attacker=6..30", target=0.8, method="exact")
    n = odds.need("his.siege", SIEGE, vary="attacker=6..30", target=0.8, trials=2000)
    assert n.method == "mc" and n.notes[0].startswith("Monte Carlo from attacker=")
    spec = get("his.siege")
    exact = [x for x in n.evaluated if n.evaluated[x][1] == 0]  # se 0: answered exactly
    assert exact and sum(E.estimate(lambda x=x: spec.call(attacker=x, **SIEGE)) for x in exact) \
        <= E.MAX_EXACT_WORK


def test_sweep_over_the_budget(small):
    grid = {"attacker": [12, 13, 14, 15]}
    with pytest.raises(odds.OddsError, match=r"4 cells: the exact answers would need"):
        sweep("his.siege", grid, SIEGE, method="exact")
    df = sweep("his.siege", grid, SIEGE, trials=2000)
    assert set(df.method) == {"mc"} and df.attrs["notes"][0].startswith("Monte Carlo for every")


def test_hostile_a_compare_of_heavy_plans_is_refused_or_degraded():
    """11 plans each within one answer's bound (a 100 v 100 siege over 20 assaults, about 2 s
    exact each) used to run them all, tens of seconds; together they are over the bound."""
    from limited import odds_cli
    argv = ["his", "siege", "--attacker", "100", "--defender", "100", "--assaults", "20",
            *[x for i in range(1, 11) for x in ("--compare", f"attacker={100 + i}")]]
    refused = odds_cli([*argv, "--method", "exact"], memory=3 << 30, timeout=300)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "11 plans (the base included)" in refused.stderr
    degraded = odds_cli([*argv, "--trials", "20000"], memory=3 << 30, timeout=600)
    assert degraded.returncode == 0, degraded.stderr
    assert "Monte Carlo for every answer: 11 plans" in degraded.stdout + degraded.stderr
