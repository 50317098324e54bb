"""Exact work bounded like Monte Carlo (issue 27): every exact engine estimates its work and
memory before it starts (core.engine.Cost); beyond a bound `--method exact` is refused in one
line and `auto` runs Monte Carlo with a note; a running exact answer stops on Ctrl-C or on
the caller's stop test. The hostile runs are subprocesses under an address-space limit."""
import json

import pytest

import odds
from agreement import assert_agree
from limited import odds_cli
from odds import OddsError, registry
from odds.config import MAX_EXACT_WORK
from odds.core import engine, montecarlo
from odds.his import siege
from terminal import Run

EXACT_MEMORY = 1 << 30  # an exact run fits (it does not import numba); the unbounded ones took 1.5-4.4 GB
MC_MEMORY = 8 << 30  # numba and LLVM reserve a large address space
HANG = 300  # s: a guard against a hang only (before the bounds the first case took 282 s)


def run(argv, memory=EXACT_MEMORY, env=None, timeout=HANG):
    return odds_cli(argv, memory, timeout, env=env)


BIG_SIEGE = ["his", "siege", "--attacker", "200", "--defender", "200"]
NAVAL_FIVES = ["vq", "naval", "--attacker-power", "england", "--attacker-race-built", "50",
               "--defender-galleons", "50", "--location", "atlantic", "--dice-per",
               "race_built=6", "--dice-per", "galleon=6"]  # 13.7 million rows: 1.3 GB
OATH_BIG = ["oath", "campaign", "--warbands", "60", "--defense-dice", "60", "--defenders", "200"]

REFUSED = [
    (BIG_SIEGE + ["--assaults", "100", "--attacker-card", "siege-artillery:optimal"], None,
     "--attacker-card: 'siege-artillery:optimal' is a rule solved exactly, for Monte Carlo too"),
    (BIG_SIEGE + ["--assaults", "100", "--attacker-card", "siege-artillery:optimal",
                  "--method", "mc"], None, "--attacker-card: 'siege-artillery:optimal'"),
    (BIG_SIEGE + ["--assaults", "6", "--method", "exact"], None,  # was 26 s and 4.4 GB
     "method: 'exact': the exact answer would need about"),
    (["his", "attack", "--attacker", "200", "--defender", "100", "--assaults", "100",
      "--method", "exact"], None, "sieges, the largest about"),
    (["his", "attack", "--attacker", "200", "--defender", "100", "--assaults", "100",
      "--siege-card", "siege-artillery:optimal"], None, "--siege-card: 'siege-artillery:optimal'"),
    (OATH_BIG + ["--optimise", "--edition", "new-foundations"], None,  # 366 rows
     "optimise: the decision table is exact only: the exact answer would need about"),
    (OATH_BIG + ["--optimise"], {"ODDS_MEMORY_BUDGET": "1e8"},  # took 1.47 GB whatever this said
     "optimise: the decision table is exact only: the exact answer would need about 195 MB"),
    (["oath", "campaign", "--warbands", "40", "--defense-dice", "60", "--defenders", "200",
      "--optimise"], {"ODDS_MEMORY_BUDGET": "5e7"}, "of memory (164 rows, the largest an outcome grid of 588,022 cells"),
    (OATH_BIG + ["--method", "exact"], {"ODDS_MEMORY_BUDGET": "5e7"},
     "of memory (an outcome grid of 1,952,732 cells; allowed: at most 50 MB, ODDS_MEMORY_BUDGET)"),
    (NAVAL_FIVES + ["--method", "exact"], {"ODDS_MEMORY_BUDGET": "5e8"},
     "about 1.37 GB of memory (13,680,751 outcome rows; allowed: at most 500 MB"),
    (["his", "field", "--attacker", "3", "--defender", "2"], {"ODDS_MEMORY_BUDGET": "-1"},
     "ODDS_MEMORY_BUDGET: '-1' is not allowed (allowed: a positive number of bytes"),
    (["his", "field", "--attacker", "3", "--defender", "2"], {"ODDS_MEMORY_BUDGET": "abc"},
     "ODDS_MEMORY_BUDGET: 'abc' is not allowed"),
]


@pytest.mark.parametrize("argv, env, words", REFUSED,
                         ids=[" ".join(a)[:70] + str(e or "") for a, e, _ in REFUSED])
def test_hostile_exact_work_is_refused_in_one_line(argv, env, words):
    out = run(argv, env=env)
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.startswith("odds: error: ") and out.stderr.count("\n") == 1, out.stderr[-2000:]
    assert words in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_what_fits_under_the_limit_is_answered_exactly():
    # the largest exact questions the bounds allow still fit the address space given
    # (the decision table of 60 warbands took 1.47 GB before: its rows kept their grids)
    for argv in (OATH_BIG, OATH_BIG + ["--optimise"],
                 ["his", "siege", "--attacker", "100", "--defender", "40", "--assaults", "3"]):
        out = run(argv + ["--json"])
        assert out.returncode == 0, out.stderr[-2000:]
        assert json.loads(out.stdout)["method"] == "exact"


def test_auto_beyond_the_bounds_is_monte_carlo_with_a_note_why():
    argv = BIG_SIEGE + ["--assaults", "6", "--trials", "20000", "--json"]
    auto = run(argv, memory=MC_MEMORY, timeout=300)
    assert auto.returncode == 0, auto.stderr[-2000:]
    got = json.loads(auto.stdout)
    assert got["method"] == "mc" and got["trials"] == 20000
    assert any(n.startswith("Monte Carlo: the exact answer would need about") and "states" in n
               for n in got["notes"])
    mc = json.loads(run(argv + ["--method", "mc"], memory=MC_MEMORY, timeout=300).stdout)
    assert got["captured"] == mc["captured"] and got["attacker_losses"] == mc["attacker_losses"]


def test_a_held_siege_beyond_the_bounds_is_monte_carlo_without_the_timings():
    # before the bounds its Monte Carlo also solved the optimal rule exactly (minutes)
    out = run(BIG_SIEGE + ["--assaults", "100", "--attacker-card", "siege-artillery:if-needed",
                           "--trials", "20000", "--json"], memory=MC_MEMORY, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout)
    assert got["method"] == "mc" and "timings" not in got
    assert got["notes"][-1].startswith("the timings side by side and the optimal rule need the "
                                       "exact engine: left out")
    assert got["siege_broken"] == 1  # 200 against 200 never outnumber: broken at once


def test_a_fallback_answer_agrees_with_the_exact_one(monkeypatch):
    kw = dict(attacker=12, attacker_cavalry=2, defender=6, defender_leader=1, assaults=4)
    exact = siege(**kw)
    assert exact.method == "exact"
    monkeypatch.setenv("ODDS_MEMORY_BUDGET", "20000")  # the chain's matrix needs more
    mc = siege(**kw, trials=200_000, seed=3)
    assert mc.method == "mc" and "of memory" in mc.notes[-1] and "20 KB" in mc.notes[-1]
    assert_agree(exact, mc)
    with pytest.raises(OddsError, match=r"^method: 'exact': .*allowed: at most 20 KB"):
        siege(**kw, method="exact")


# --- the estimates -----------------------------------------------------------------------

def costs_of(monkeypatch):
    seen = []
    refusal = engine.Cost.refusal
    monkeypatch.setattr(engine.Cost, "refusal", lambda c, b: seen.append(c) or refusal(c, b))
    return seen


@pytest.mark.parametrize("spec", [s for s in registry.specs().values() if s.exact],
                         ids=lambda s: s.name)
def test_no_registered_example_comes_near_the_bounds(spec, monkeypatch):
    seen = costs_of(monkeypatch)
    for example in spec.examples:
        r = spec.call(**example.kwargs, method="exact")
        assert r.method == "exact", (example.name, r.notes)
    assert seen, spec.name  # its own estimate, or its outcome table's (engine.exact_cost)
    for cost in seen:
        assert cost.work < MAX_EXACT_WORK / 2 and cost.bytes < 1e8, (spec.name, cost)


@pytest.mark.parametrize("kw", [ex.kwargs for ex in registry.get("his.attack").examples
                                if not ex.kwargs.get("besieged")] + [  # besieged: a his.siege
    dict(attacker=9, attacker_cavalry=3, defender=6, defender_cavalry=2, withdraw_inside=3,
         casualties="infantry-first", avoid_battle=True, assaults=2)])
def test_the_attack_estimate_covers_every_siege_it_solves(kw, monkeypatch):
    """Every siege a chain solves is among the starts its estimate counted (an answer with
    advice solves a second chain, the card placed the other way: each against its own)."""
    from odds.his.attacks.procedure import AttackChain
    from odds.his.sieges.stage import JOINTS

    JOINTS.clear()
    solved, bounds = [], {}
    siege_of, starts = AttackChain.siege, AttackChain.starts
    monkeypatch.setattr(AttackChain, "siege", lambda c, s: solved.append((c, s)) or siege_of(c, s))
    monkeypatch.setattr(AttackChain, "starts",
                        lambda c: bounds.setdefault(c, starts(c)))
    odds.his.attack(**kw, method="exact")
    assert solved or kw.get("foreign_war")
    for chain, start in solved:
        assert start in bounds[chain]


HOSTILE = [
    (siege, dict(attacker=200, defender=200, assaults=100,
                 attacker_cards=["siege-artillery:if-needed"])),
    (siege, dict(attacker=200, defender=200, assaults=6)),
    (siege, dict(attacker=60, defender=20, assaults=5, attacker_cards=["siege-artillery:first"])),
    (odds.his.attack, dict(attacker=200, defender=100, assaults=100)),
]


def no_exact_work():
    raise AssertionError("exact work started")


@pytest.mark.parametrize("f, kw", HOSTILE, ids=lambda x: getattr(x, "__name__", str(x)[:60]))
def test_hostile_exact_questions_are_refused_before_any_work(f, kw, monkeypatch):
    monkeypatch.setattr(engine, "exact_clock", no_exact_work)  # every exact answer runs in it
    with pytest.raises(OddsError, match=r"^method: 'exact': .*; use method='mc' or fewer"):
        f(**kw, method="exact")


@pytest.mark.parametrize("a, ac, d, dc, k, cavalry_first, fresh, loose", [
    (12, 2, 6, 1, 4, True, (), 3), (30, 0, 10, 0, 8, True, (), 3), (9, 3, 4, 2, 5, False, (), 3),
    (20, 0, 20, 0, 3, True, (), 3),
    (8, 3, 4, 2, 4, False, ("landsknechts",), 12)])  # infantry-first, fresh units: splits loose
def test_reach_bounds_what_the_chains_visit(a, ac, d, dc, k, cavalry_first, fresh, loose,
                                            monkeypatch):
    from odds.his.sieges import timing as siege_timing
    from odds.his.assaults.procedure import forces
    from odds.his.sieges.procedure import TRANSITIONS, exact_joint
    from odds.his.sieges.model import plan, reach

    att, dfn = forces(a, d, 0, ac, 1, "hapsburg", (), 0, dc, 1, "other", ())
    p = plan(att, dfn, fresh, (), 1, None)
    TRANSITIONS.clear()
    exact_joint(p, k, cavalry_first)
    bound = reach(p, k, cavalry_first, False)
    assert len(TRANSITIONS) <= bound.distinct <= loose * len(TRANSITIONS) + 3
    held = plan(*forces(a, d, 0, ac, 1, "hapsburg", ("siege-artillery:always",), 0, dc, 1,
                        "other", ()), fresh, (), 1, None)
    pairs = []
    monkeypatch.setattr(siege_timing, "checkpoint", lambda: pairs.append(1))
    chain = siege_timing.Chain(held, k, cavalry_first, True)
    siege_timing.exact_joint(chain, siege_timing.decider(chain, "if-needed"))
    bound = reach(held, k, cavalry_first, True)
    assert len(pairs) <= bound.pairs <= loose * len(pairs)


@pytest.mark.parametrize("text", ["-1", "0", "abc", "nan", "inf", "1e400", " "])
def test_a_bad_memory_budget_is_refused(text, monkeypatch):
    monkeypatch.setenv("ODDS_MEMORY_BUDGET", text)
    if not text.strip():
        assert engine.memory_budget() > 0  # empty: the default
        return
    with pytest.raises(OddsError, match=r"^ODDS_MEMORY_BUDGET: .* is not allowed \(allowed: a "
                       r"positive number of bytes"):
        engine.memory_budget()


def test_sizes_are_written_in_sensible_units():
    assert [engine.size_text(n) for n in (512, 5e4, 4.32e7, 1e8, 2.154e9, 3.2e12)] == [
        "512 bytes", "50 KB", "43.2 MB", "100 MB", "2.15 GB", "3,200 GB"]


def test_the_memory_message_says_megabytes_for_a_small_budget(monkeypatch):
    monkeypatch.setenv("ODDS_MEMORY_BUDGET", "1e6")
    with pytest.raises(OddsError, match=r"needs about 1.2\d? MB .*allowed: at most 1 MB"):
        engine.check_memory((2, 100, 100), "mc", 6)  # 8 copies of 20,000 cells


# --- interrupting a running exact answer -------------------------------------------------

def test_a_stop_test_interrupts_an_exact_siege():
    with montecarlo.stop_when(lambda seconds: True):
        with pytest.raises(odds.Interrupted, match="the exact answer was not finished"):
            siege(7, 3, assaults=6, attacker_cards=["siege-artillery:optimal"])
    seen = []  # the seconds of exact work at each question; stop at the third
    with montecarlo.stop_when(lambda seconds: seen.append(seconds) or len(seen) == 3):
        with pytest.raises(odds.Interrupted):
            siege(100, 50, assaults=6, method="exact")  # thousands of questions to its end
    assert len(seen) == 3 and seen == sorted(seen) and seen[0] >= 0  # stopped when told
    assert siege(2, 1, assaults=1)["captured"] == pytest.approx(8 / 27)  # nothing left behind


LONG_SIEGES = [(100, 100, 20), (100, 100, 38), (110, 100, 30)]  # growing, all within the bound


def test_ctrl_c_during_an_exact_answer_is_one_line_and_exit_130():
    """The SIGINT follows the command's own line that exact work has started (stderr a
    terminal); a machine fast enough to finish first gets the next, larger siege."""
    for attacker, defender, assaults in LONG_SIEGES:
        run = Run("his", "siege", "--attacker", attacker, "--defender", defender, "--assaults",
                  assaults)
        run.wait_for("odds: solving exactly (about")
        code, out = run.interrupt()
        if code == 130:
            break
        assert code == 0 and "Captured" in out, run.err[-500:]
    assert code == 130 and out == "", run.err[-500:]
    assert run.err.endswith("Ctrl-C stops it)\r\nodds: interrupted: the exact answer was not "
                            "finished\r\n"), run.err[-500:]


def test_the_engines_without_an_estimate_answer_at_their_bounds():
    """Their work is small at every input allowed (the seconds: benchmarks/bench_his_more.py)."""
    war = registry.get("his.foreign_war").call(units=12, foreign=12, leader=6, attempts=60,
                                               method="exact")
    piracy = registry.get("his.piracy").call(corsairs=12, squadrons=12, adjacent_squadrons=12,
                                             fortresses=12, method="exact")
    for r in (war, piracy):
        assert r.method == "exact" and 0 <= r.p <= 1
        assert all(abs(r[k].sum() - 1) < 1e-9 for k in r.pmfs)


@pytest.mark.parametrize("work, progress, said", [
    (3e6, True, True), (3e6, None, False), (3e6, False, False), (1e6, True, False)])
def test_long_exact_work_is_announced_where_asked(capsys, work, progress, said):
    """Over PROGRESS_AFTER_SECONDS of estimated work (units of about a microsecond), one line on
    stderr (None: on a terminal only; stderr is captured here)."""
    engine.say_exact_work(work, progress)
    err = capsys.readouterr().err
    assert err == ("odds: solving exactly (about 3 s of work; Ctrl-C stops it)\n" if said else "")
