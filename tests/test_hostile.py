"""Hostile inputs, as a user (or a shared server) would send them: every one is refused with
one line and exit code 2, quickly and within a bounded amount of memory; fuzzed sweep specs
never end in a traceback."""
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import odds
from odds.crusades import EXAMPLES
from odds.files import parse_toml
from odds.registry import get
from limited import odds_cli

MEMORY = 3 << 30  # address space of each run: far below what the unbounded inputs asked for
SECONDS = 60


def run(argv, cwd, env=None):
    return odds_cli(argv, MEMORY, SECONDS, cwd, env)


SPEC = 'procedure = "his.field"\n[grid]\nattacker = [1, 2]\n[fixed]\ndefender = 1\n'


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    (d / "deep.toml").write_text("[" + ".".join(["a"] * 5000) + "]\n")
    (d / "brackets.toml").write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    (d / "latin.toml").write_bytes("procedure = 'caf\xe9'\n".encode("latin-1"))
    (d / "big.toml").write_text('procedure = "his.field"\n[grid]\nattacker = {start = 1, '
                                'stop = 200}\ndefender = {start = 1, stop = 200}\n'
                                'attacker_leader = [0, 1, 2, 3, 4, 5, 6]\n')
    (d / "trials.toml").write_text(SPEC.replace("[grid]", 'method = "mc"\ntrials = 1000000000000\n[grid]'))
    (d / "seed.toml").write_text(SPEC.replace("[grid]", "seed = -1\n[grid]"))
    (d / "spec.toml").write_text(SPEC)
    (d / "deepset.toml").write_text(
        f'procedure = "crusades.battle"\n[grid]\nturn_limit = [10, 12]\n[fixed]\n'
        f'scenario = "{EXAMPLES / "field.toml"}"\n'
        f'overrides = ["rules.turn_limit={"[" * 5000 + "]" * 5000}"]\n')
    (d / "big.json").write_text("x" * ((1 << 20) + 10))
    os.symlink(d / "loop.toml", d / "loop.toml")
    (d / "corrupt.parquet").write_bytes(b"PAR1 this is not parquet")
    (d / "empty.csv").write_text("")
    (d / "ok.csv").write_text("attacker,defender,attacker_win,attacker_win_se,method\n1,1,0.5,0,exact\n")
    return d


CASES = [
    (["sweep", "/dev/zero"], "not a regular file"),
    (["sweep", "."], "a directory"),
    (["sweep", "deep.toml"], "nested"),
    (["sweep", "brackets.toml"], "nested"),
    (["sweep", "latin.toml"], "not UTF-8"),
    (["sweep", "big.json"], "larger than"),
    (["sweep", "loop.toml"], "cannot be read"),
    (["sweep", "big.toml"], "cells (allowed: at most 100,000"),
    (["sweep", "trials.toml"], "trials"),
    (["sweep", "seed.toml"], "seed: -1 is out of range"),
    (["sweep", "spec.toml", "--out", "nowhere/r.csv"], "no such directory"),
    (["sweep", "spec.toml", "--out", "r.xlsx"], "must end in .parquet or .csv"),
    (["plot", "corrupt.parquet", "--x", "attacker"], "not a readable results file"),
    (["plot", "empty.csv", "--x", "attacker"], "not a readable results file"),
    (["plot", "ok.csv", "--x", "attacker", "--value", "method"], "not a numeric column"),
    (["plot", "ok.csv", "--x", "attacker", "--where", "attacker=9"], "allowed: 1"),
    (["plot", "ok.csv", "--x", "attacker", "--out", "nowhere/p.png"], "no such directory"),
    (["vq", "naval", "--attacker-galleys", "50", "--attacker-galleons", "50", "--defender-galleys",
      "5", "--location", "atlantic", "--dice-per", "galley=20", "--dice-per", "galleon=20"],
     "dice with cards (allowed: at most 300"),
    (["his", "siege", "--attacker", "200", "--defender", "200", "--assaults", "100",
      "--method", "exact"], "states of"),
    (["his", "field", "--attacker", "1e300", "--defender", "3"], "out of range"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--attacker-leader", "napoleon"],
     "unknown leader"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--trials", "nan", "--method", "mc"],
     "not a whole number"),
    (["oath", "campaign", "--warbands", "6", "--defense-dice", "3", "--sacrifice", "to-beat:50"],
     "new-foundations"),
    (["his", "siege"], "attacker: missing (required by his.siege)"),
    (["his", "attack", "--attacker", "5"], "defender: missing (required by his.attack)"),
    (["oath", "campaign"], "warbands: missing (required by oath.campaign)"),
    (["crusades", "run", str(EXAMPLES / "field.toml"), "--battles", "10", "--set",
      "rules.turn_limit=" + "[" * 5000 + "]" * 5000], "nested 5000 levels deep (allowed: at most 16)"),
    (["sweep", "deepset.toml"], "--set rules.turn_limit: nested 5000 levels deep (allowed: at most 16)"),
]


@pytest.mark.parametrize("argv, words", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_hostile_input_is_one_line_exit_2(files, argv, words):
    out = run(argv, files)
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.startswith("odds: error: ") and out.stderr.count("\n") == 1, out.stderr[-2000:]
    assert words in out.stderr and "Traceback" not in out.stderr


def test_a_run_beyond_the_memory_budget_is_refused(files):
    argv = ["his", "naval", "--attacker-squadrons", "50", "--attacker-corsairs", "50",
            "--attacker-power", "ottoman", "--defender-squadrons", "50", "--defender-corsairs",
            "50", "--defender-power", "ottoman", "--method", "mc"]
    out = run(argv, files, env={"ODDS_MEMORY_BUDGET": "1e8"})
    assert out.returncode == 2 and "memory: this run needs about" in out.stderr


def deep_list(levels: int) -> list:
    value = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_python_values_nested_too_deep_are_one_line_not_a_recursion_error():
    deep = deep_list(5000)
    field = str(EXAMPLES / "field.toml")
    with pytest.raises(odds.OddsError, match=r"^overrides: nested more than 16 levels deep "
                                             r"\(allowed: at most 16\)$"):
        get("crusades.battle").call(scenario=field, overrides=deep)
    with pytest.raises(odds.OddsError, match=r"^fixed.overrides: nested more than 16 levels"):
        odds.tools.sweep("crusades.battle", {"turn_limit": [10, 12]},
                   {"scenario": field, "overrides": deep}, progress=False)
    with pytest.raises(odds.OddsError, match=r"^grid.attacker_cards: nested more than 16"):
        odds.tools.sweep("his.field", {"attacker_cards": deep}, {"attacker": 3, "defender": 2})


# --- fuzzing: a sweep spec or its TOML text never ends in anything but OddsError -----------

LEAF = st.one_of(st.integers(-5, 300), st.floats(allow_nan=True), st.booleans(),
                 st.text(max_size=8), st.sampled_from(["his.field", "janissaries", "mc", "x"]))
VALUE = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=6), inner,
                                                                   max_size=3)), max_leaves=8)
NAMES = st.sampled_from(["attacker", "defender", "attacker_leader", "attacker_cards", "variant",
                         "fortified", "withdraw_inside", "x", "defender_power"])
FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(grid=st.dictionaries(NAMES, VALUE, max_size=3), fixed=st.dictionaries(NAMES, VALUE, max_size=3),
       procedure=st.sampled_from(["his.field", "vq.naval", "oath.campaign", "chess"]),
       method=st.sampled_from(["auto", "exact", 3, None]), seed=LEAF)
def test_fuzzed_sweeps_raise_only_odds_errors(grid, fixed, procedure, method, seed):
    try:
        odds.tools.sweep(procedure, grid, fixed, method=method, trials=100, seed=seed, progress=False)
    except odds.OddsError as e:
        assert "\n" not in str(e)


TOKENS = st.sampled_from(["[", "]", "{", "}", "=", ",", ".", '"', "'", "\n", "#", " ", "a",
                          "grid", "procedure", "1", "-", "true", "[[", "]]", "e5", '"""'])


@FUZZ
@given(st.lists(TOKENS, max_size=60).map("".join))
def test_fuzzed_toml_text_raises_only_odds_errors(text):
    try:
        parse_toml(text, "spec")
    except odds.OddsError as e:
        assert "\n" not in str(e)
