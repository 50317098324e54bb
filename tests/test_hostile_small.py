"""Hostile inputs, the smaller ones (issue 27 item 7): long values, None for a list keyword,
stdout full or closed, FIFOs as output, NaN in a results file, a negative battle number; and
the cell check a sweep runs before its first cell (Spec.check)."""
import inspect
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import odds
from odds import OddsError, registry
from odds.errors import check_choice, check_int
from test_hostile import run
from test_registry import BAD, EXAMPLES, IDS

SPECS = registry.specs()
EXAMPLE = os.path.join(os.path.dirname(odds.__file__), "crusades", "examples", "field.toml")
LONG = "x" * 100_000  # near the longest single argument Linux passes (MAX_ARG_STRLEN)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("small")
    (d / "spec.toml").write_text('procedure = "his.field"\n[grid]\nattacker = [1, 2]\n'
                                 '[fixed]\ndefender = 1\n')
    (d / "wide.toml").write_text('procedure = "his.field"\n[grid]\nattacker = {start = 1, stop = 60}\n'
                                 'defender = {start = 1, stop = 60}\n')
    rows = pd.DataFrame({"attacker": [1, 1, 2, 2], "defender": [1, 2, 1, 2],
                         "attacker_win": [0.5, 0.2, 0.7, 0.5], "attacker_win_se": 0.0})
    rows.assign(attacker=[1, np.nan, 2, 2]).to_csv(d / "nan_axis.csv", index=False)
    rows.assign(attacker_win=np.nan).to_csv(d / "nan_value.csv", index=False)
    rows.assign(attacker_win=[0.5, np.nan, 0.7, 0.5]).to_csv(d / "one_nan.csv", index=False)
    rows.assign(attacker_win=[0.5, np.inf, 0.7, 0.5]).to_csv(d / "inf_value.csv", index=False)
    for name in ("fifo.csv", "fifo.png", "input.csv"):
        os.mkfifo(d / name)
    os.symlink("/dev/null", d / "null.csv")
    return d


# --- long values are cut in every error line --------------------------------------------------

LONG_CASES = [
    ["his", "field", "--attacker", LONG, "--defender", "3"],
    ["his", "field", "--attacker", "3", "--defender", "3", "--attacker-power", LONG],
    ["his", "field", "--attacker", "3", "--defender", "3", "--attacker-card", LONG],
    ["his", "field", "--attacker", "3", "--defender", "3", "--attacker-leader", LONG],
    ["his", "siege", "--attacker", "3", "--defender", "2", "--assaults", "2",
     "--attacker-card", f"siege-artillery:{LONG}"],
    ["vq", "naval", "--attacker-galleys", "2", "--defender-galleys", "2", "--location", LONG],
    ["oath", "campaign", "--warbands", "3", "--defense-dice", "3", "--plan", LONG],
    ["his", "field", "--attacker", "3", "--defender", "3", "--method", LONG],
    ["sweep", LONG],
    ["sweep", "spec.toml", "--out", LONG],
    ["plot", f"{LONG}.csv", "--x", "attacker"],
    [LONG],
]


@pytest.mark.parametrize("argv", LONG_CASES, ids=[" ".join(a)[:40] for a in LONG_CASES])
def test_an_error_line_cuts_a_long_value(files, argv):
    out = run(argv, files)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr[:300]
    assert len(out.stderr) < 500 and "Traceback" not in out.stderr, out.stderr[:300]


def test_validators_show_the_start_and_the_length_of_a_long_value():
    from odds.errors import SHOWN, shown

    with pytest.raises(OddsError) as e:
        check_choice("power", LONG, ("england", "france"))
    assert str(e.value) == (f"power: '{'x' * (SHOWN - 1)}... (100,000 characters) is not allowed "
                            "(allowed: england, france)")
    with pytest.raises(OddsError, match=r"\(100,000 characters\) is not a whole number$"):
        check_int("units", LONG)
    assert shown("short") == "'short'"
    assert len(str(OddsError(f"field: {LONG!r} is wrong (allowed: less)"))) < 2 * SHOWN + 60


# --- None for a list or table keyword means none ------------------------------------------

def _lists(spec):
    defaults = spec.defaults()
    return [p.name for p in spec.params if p.kind in ("cards", "ints", "pairs")
            or isinstance(defaults[p.name], (tuple, list, dict))]


NONE = [(spec, name) for spec in SPECS.values() for name in _lists(spec)]
@pytest.mark.parametrize("spec, name", NONE, ids=[f"{s.name}:{n}" for s, n in NONE])
def test_none_for_a_list_keyword_is_the_default(spec, name):
    kwargs = dict(spec.examples[0].kwargs)
    kwargs.pop(name, None)
    engine = {} if spec.exact else {"method": "mc", "trials": 200, "seed": 3, "progress": False}

    def answer(**kw):
        try:
            return json.dumps(spec.call(**kw, **engine).to_json())
        except OddsError as e:
            return str(e)
    assert answer(**kwargs, **{name: None}) == answer(**kwargs)


def test_every_list_keyword_of_every_procedure_is_covered():
    names = {n for _, n in NONE}
    assert {"attacker_cards", "plans", "sites", "overrides", "dice_per"} <= names


def test_a_list_keyword_that_is_not_a_list_is_one_line():
    with pytest.raises(OddsError, match=r"^attacker_cards: 5 is not a list"):
        odds.his.field_battle(attacker=3, defender=3, attacker_cards=5)


# --- a sweep's cells are checked first: Spec.check validates, no engine runs ---------------

@pytest.fixture
def no_engine(monkeypatch):
    """Any engine work (past core.engine's method check, or loading a kernel) fails."""
    from odds.core import engine, kernel_cache

    monkeypatch.setattr(engine, "check_memory", lambda *a: pytest.fail("the engine started"))
    monkeypatch.setattr(kernel_cache, "load", lambda *a: pytest.fail("a kernel was loaded"))


@pytest.mark.parametrize("spec, example", EXAMPLES, ids=IDS)
def test_check_passes_every_example_without_engine_work(no_engine, spec, example):
    spec.check(example.kwargs)


@pytest.mark.parametrize("spec, param, value", BAD, ids=[f"{s.name}:{p.name}={v!r}" for s, p, v in BAD])
def test_check_refuses_what_the_call_refuses(no_engine, spec, param, value):
    kwargs = {**spec.examples[0].kwargs, param.name: value}
    with pytest.raises(OddsError) as called:
        spec.call(**kwargs, **({} if spec.exact else {"method": "mc", "trials": 10}))
    with pytest.raises(OddsError) as checked:
        spec.check(kwargs)
    assert str(checked.value) == str(called.value)


def test_check_takes_the_keywords_of_every_procedure():
    for spec in SPECS.values():
        assert {"method", "trials", "progress"} <= set(inspect.signature(spec.function).parameters)


# --- stdout full, closed or a reader that stopped ------------------------------------------

@pytest.mark.parametrize("argv", [["his", "field", "--attacker", "3", "--defender", "3"],
                                  ["his", "field", "--attacker", "3", "--defender", "3", "--json"],
                                  ["his", "field", "--help"], ["sweep", "spec.toml"]])
def test_a_full_stdout_is_one_line_and_exit_1(files, argv):
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", *argv], stdout=full,
                             stderr=subprocess.PIPE, text=True, timeout=60, cwd=files)
    assert out.returncode == 1, out.stderr[-1000:]
    assert out.stderr == "odds: error: stdout: cannot be written (No space left on device)\n"


def test_a_closed_stdout_is_one_line_and_exit_1(files):
    out = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "his", "field", "--attacker", "3",
                          "--defender", "3"], stderr=subprocess.PIPE, text=True, timeout=60,
                         preexec_fn=lambda: os.close(1))
    assert out.returncode == 1 and out.stderr == "odds: error: stdout: closed (allowed: a " \
        "terminal, a file or a pipe)\n", out.stderr[-1000:]


def test_a_reader_that_stops_early_is_quiet(files):
    p = subprocess.Popen([sys.executable, "-m", "odds.frontends.cli.main", "sweep", "wide.toml"], cwd=files,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert "attacker" in p.stdout.readline()  # as `| head -1`: 3,600 rows are far more than a pipe holds
    p.stdout.close()
    assert p.wait(timeout=60) == 0 and p.stderr.read() == ""


# --- output paths that are not regular files; NaN in results; crusades trace --battle ------

OTHER_CASES = [
    (["sweep", "spec.toml", "--out", "fifo.csv"], "--out: fifo.csv: not a regular file"),
    (["sweep", "spec.toml", "--out", "null.csv"], "--out: null.csv: not a regular file"),
    (["plot", "one_nan.csv", "--x", "attacker", "--y", "defender", "--out", "fifo.png"],
     "--out: fifo.png: not a regular file"),
    (["plot", "input.csv", "--x", "attacker"], "results: input.csv: not a regular file"),
    (["plot", "nan_axis.csv", "--x", "attacker", "--y", "defender"],
     "attacker: 1 of 4 rows have no number (NaN or infinite)"),
    (["plot", "nan_axis.csv", "--x", "attacker", "--by", "defender"], "attacker: 1 of 4 rows"),
    (["plot", "nan_value.csv", "--x", "attacker", "--y", "defender"],
     "value: 'attacker_win' has no numbers (every row is NaN)"),
    (["plot", "inf_value.csv", "--x", "attacker", "--y", "defender"], "infinite entries"),
    (["crusades", "trace", EXAMPLE, "--battle", "-1"],
     "--battle: -1 is out of range (allowed: 0 to 9999999999)"),
    (["crusades", "trace", EXAMPLE, "--battle", "1e30"], "--battle: 1000000000000000019884624838656 is out of range"),
    (["crusades", "trace", EXAMPLE, "--seed", "-1"], "seed: -1 is out of range"),
]


@pytest.mark.parametrize("argv, words", OTHER_CASES, ids=[" ".join(a)[-50:] for a, _ in OTHER_CASES])
def test_other_small_mistakes_are_one_line(files, argv, words):
    out = run(argv, files)
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.startswith("odds: error: ") and out.stderr.count("\n") == 1, out.stderr[-2000:]
    assert words in out.stderr


def test_a_nan_cell_of_the_value_is_left_blank(files):
    out = run(["plot", "one_nan.csv", "--x", "attacker", "--y", "defender", "--out", "p.png"], files)
    assert out.returncode == 0 and out.stderr == "" and (files / "p.png").stat().st_size > 0


def test_trace_refuses_a_negative_battle_from_python():
    from odds.crusades.battles.narration import trace

    with pytest.raises(OddsError, match=r"^index: -1 is out of range \(allowed: 0 to"):
        trace(EXAMPLE, index=-1)


def test_a_whole_number_too_long_to_print_is_named_by_its_size():
    with pytest.raises(OddsError, match=r"^attacker: about 10\^5000 is out of range \(allowed: 1 to 200\)$"):
        odds.his.field_battle(attacker=10**5000, defender=3)  # str() of it raises in Python 3.11
    with pytest.raises(OddsError, match=r"^units: about -10\^400 is out of range"):
        check_int("units", -10**400, 0, 5)
