"""The whole work of a run bounded before it starts (odds/tools/questions/budget.py): a luck record's
distinct situations and a chart's cells are checked and estimated together before the first
is computed, refused in one line over MAX_TOTAL_WORK saying how many fit; every name (an event,
a keyword, a procedure) is checked first; the "solving exactly" line is said once per run with
the whole work, with a bar over the calls on a terminal; Ctrl-C stops a long run (exit 130).
Bounds are lowered here so the runs stay small."""
import re
from contextlib import contextmanager

import pytest

import odds
from odds.tools.chart import grid
from odds.frontends.cli.main import main
from odds.core import engine as E
from odds.core import montecarlo
from odds.tools.questions import budget
from odds.tools.luck.report import SAMPLE, luck
from odds.tools.luck.situations import Situations
from odds.registry import get
from terminal import Run


@pytest.fixture
def no_work(monkeypatch):
    """The test fails if any exact engine starts."""
    monkeypatch.setattr(E, "exact_clock", lambda: pytest.fail("exact work started"))


@pytest.fixture
def said(monkeypatch):
    """stderr taken for a terminal and every exact work long enough to be said."""
    monkeypatch.setattr(montecarlo, "terminal", lambda: True)
    monkeypatch.setattr(E, "PROGRESS_AFTER_SECONDS", 0)
    monkeypatch.setattr(budget, "PROGRESS_AFTER_SECONDS", 0)


def roll(attacker, defender, procedure="his.field", **keywords):
    return {"procedure": procedure, "keywords": {"attacker": attacker, "defender": defender,
                                                 **keywords},
            "side": "A", "against": "B", "winner": "A"}


def test_chart_over_the_total_bound_is_refused_before_any_cell(monkeypatch, no_work, capsys):
    monkeypatch.setattr(budget, "MAX_TOTAL_WORK", 4.5 * budget.CALL_WORK)
    assert main(["chart", "his.field", "--attacker", "1..4", "--defender", "1..3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.match(
        r"odds: error: chart: 12 cells: the exact answers would need about [\d,]+ work units "
        r"together \(allowed: at most 4,500, a few seconds; [1-4] of the 12 cells fit: "
        r"--attacker 1\.\.\d with --defender 1\.\.\d\)", err), err


def test_a_misspelt_event_is_refused_before_any_cell_or_value(no_work, capsys):
    assert main(["chart", "his.field", "--attacker", "1..3", "--defender", "1..3",
                 "--event", "nope"]) == 2
    assert "--event: 'nope' is not an event of his.field (allowed: attacker_win" in capsys.readouterr().err
    assert main(["his", "field", "--defender", "3", "--need", "0.5", "--vary", "attacker",
                 "--event", "nope"]) == 2
    assert "--event: 'nope' is not an event of his.field" in capsys.readouterr().err
    with pytest.raises(odds.OddsError, match="^event: 'nope' is not an event of his.siege"):
        odds.need("his.siege", {"defender": 3, "assaults": 2}, vary="attacker=1..8", target=0.5,
                  event="nope")


def test_a_misspelt_plan_keyword_is_refused_before_any_plan(no_work):
    plans = {"one": {"attacker": 4}, "two": {"atacker": 5}}
    with pytest.raises(odds.OddsError, match="^plan two: .*atacker"):
        odds.compare("his.field", {"attacker": 3, "defender": 3}, plans)


def test_an_exact_cell_over_one_answer_s_bound_is_refused_by_its_estimate(monkeypatch, no_work):
    monkeypatch.setattr(E, "MAX_EXACT_WORK", 10)
    spec = get("his.siege")
    with pytest.raises(odds.OddsError, match="^method: 'exact': the exact answer would need"):
        E.estimate(lambda: spec.call(attacker=9, defender=3, assaults=3, method="exact"))


def test_luck_over_the_total_bound_is_refused_before_any_situation(monkeypatch, no_work):
    monkeypatch.setattr(budget, "MAX_TOTAL_WORK", 2.5 * budget.CALL_WORK)
    record = [roll(3, 2), roll(4, 2), roll(3, 2), roll(5, 2), roll(6, 2)]  # 4 distinct
    with pytest.raises(odds.OddsError, match=r"^record: 4 distinct situations: the exact answers "
                                             r"would need about [\d,]+ work units together "
                                             r"\(allowed: at most 2,500, a few seconds; the "
                                             r"first [12] of 4 fit\)$"):
        luck(record)


def test_luck_checks_every_roll_before_the_first_situation_is_computed(monkeypatch):
    events, clock, spec = [], E.exact_clock, Situations.spec

    @contextmanager
    def solving():
        events.append("solved")
        with clock():
            yield

    def checked(self, name):
        events.append(f"checked {name}")
        return spec(self, name)

    monkeypatch.setattr(E, "exact_clock", solving)
    monkeypatch.setattr(Situations, "spec", checked)
    record = [roll(3, 2), roll(4, 2, atacker_leader=1), roll(3, 2, procedure="his.feld"),
              roll(5, 2)]
    frame = luck(record)
    assert events == ["checked his.field", "checked his.field", "checked his.feld",
                      "checked his.field", "solved", "solved"]
    refused = frame.attrs["refused"]
    assert len(refused) == 2 and "atacker_leader" in refused[0] and "his.feld" in refused[1]


def test_the_solving_line_is_said_once_with_the_whole_work_and_a_bar(said, capsys):
    frame = luck(SAMPLE)
    err = capsys.readouterr().err
    assert err.count("solving exactly") == 1 and "situation" in err, err
    assert frame.attrs["situations"] > 1
    grid(get("his.field"), ("attacker", (1, 2, 3)), ("defender", (1, 2)), {}, None)
    err = capsys.readouterr().err
    assert err.count("solving exactly") == 1 and "cell" in err, err


def test_a_compare_says_its_whole_exact_work_once(said, capsys):
    plans = {f"+{i}": {"attacker": 3 + i} for i in range(1, 4)}
    c = odds.compare("his.field", {"attacker": 3, "defender": 3}, plans)
    assert c.attrs["method"] == "exact" and len(c) == 4
    assert capsys.readouterr().err.count("solving exactly") == 1


def test_need_s_exact_work_never_passes_the_bound(monkeypatch):
    """Checked as it goes, each value's estimate before it runs: the exact work done is
    within one answer's bound whatever values the search visits."""
    siege = {"defender": 5, "assaults": 6}
    spec = get("his.siege")
    one = E.estimate(lambda: spec.call(attacker=12, **siege))
    monkeypatch.setattr(E, "MAX_EXACT_WORK", int(3.5 * one))
    done, say = [], E.say_exact_work
    monkeypatch.setattr(E, "say_exact_work", lambda work, progress: done.append(work) or say(work, progress))
    n = odds.need("his.siege", siege, vary="attacker=6..40", target=0.9, trials=2000)
    assert done and sum(done) <= E.MAX_EXACT_WORK
    assert n.method == "mc" and n.notes[0].startswith("Monte Carlo from attacker=")


CHART = ["chart", "his.siege", "--attacker", "60..64", "--defender", "60..63", "--assaults", "20"]


def test_ctrl_c_during_a_long_chart_after_its_one_line_and_bar(tmp_path):
    """A chart of 20 sieges (about 10 s exact in all, no cell over 2 s): its one line says the
    whole work, its bar shows, and a Ctrl-C under way ends it with 130 and no file."""
    spec = get("his.siege")
    works = [E.estimate(lambda a=a, d=d: spec.call(attacker=a, defender=d, assaults=20))
             for a in range(60, 65) for d in range(60, 64)]
    total = sum(works) + budget.CALL_WORK * len(works)
    out = tmp_path / "chart.pdf"
    run = Run(*CHART, "--out", out)
    run.wait_for(re.compile(r"/20 \["))
    code, _ = run.interrupt()
    assert code == 130 and not out.exists(), run.err[-500:]
    assert run.err.count("solving exactly") == 1
    assert f"odds: solving exactly (about {total / 1e6:.0f} s of work; Ctrl-C stops it)" in run.err
    assert run.err.rstrip().splitlines()[-1].startswith("odds: interrupted")


def test_ctrl_c_during_a_long_luck_record_after_its_bar(tmp_path):
    path = tmp_path / "sieges.toml"
    path.write_text("".join(f'[[roll]]\nprocedure = "his.siege"\nkeywords = {{ attacker = {a}, '
                            f'defender = 60, assaults = 20 }}\nside = "A"\nagainst = "B"\n'
                            f'winner = "A"\n\n' for a in range(60, 66)))
    run = Run("luck", path)
    run.wait_for(re.compile(r"/6 \["))
    code, out = run.interrupt()
    assert code == 130 and out == "", run.err[-500:]
    assert run.err.count("solving exactly") == 1
