"""Crusades under hostile input and Ctrl-C: bounded reads, bounds checked before any work,
one-line errors within a time bound, and a real SIGINT that keeps the completed battles."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from odds import OddsError, crusades
from odds.crusades.scenario import MAX_SCENARIO_BYTES, MAX_UNIT_TYPES
from terminal import Run

ROOT = Path(__file__).parents[1]
FIELD = crusades.EXAMPLES / "field.toml"


def cli(*args, timeout=600):
    """Run `python -m odds.frontends.cli.main ...` in a subprocess: (exit code, stdout, stderr); `timeout`
    guards against a hang only."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", *map(str, args)], env=env,
                       capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def units(n):
    return "".join(f"[units.u{k}]\nhealth = 1\nattack = 1\nspeed = 1\nmorale = 1\nrange = 1\n"
                   "upkeep = 1\n" for k in range(n))


HOSTILE = [  # (name, file content or None for a special path, what the error says)
    ("dev_zero", "/dev/zero", "not a regular file"),
    ("directory", "DIR", "a directory"),
    ("too_big", "x" * (MAX_SCENARIO_BYTES + 1), f"larger than {MAX_SCENARIO_BYTES:,} bytes"),
    ("not_utf8", b"title = \"\xff\xfe\"\n", "not UTF-8 text"),
    ("deep_dotted", "[" + ".".join(["a"] * 20000) + "]\n", "nested 20000 levels deep"),
    ("deep_arrays", "a = " + "[\n" * 5000 + "]\n" * 5000, "nested 5000 levels deep"),
    ("unit_types", units(MAX_UNIT_TYPES + 1), f"{MAX_UNIT_TYPES + 1} unit types (allowed: at most "
                                              f"{MAX_UNIT_TYPES})"),
    ("board", units(1) + "[attacker]\narmy = {u0 = 1}\n[defender]\narmy = {u0 = 1}\n"
              "[board]\nwidth = 100000\n", "board.width: 100000 is out of range (allowed: 1 to 32)"),
    ("army", units(1) + "[attacker]\narmy = {u0 = 1000000}\n", "attacker.army.u0: 1000000 is out "
                                                               "of range (allowed: 0 to 100)"),
]


def hostile_path(tmp_path, name, content):
    if content == "/dev/zero":
        return content
    if content == "DIR":
        return str(tmp_path)
    path = tmp_path / f"{name}.toml"
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    return str(path)


@pytest.mark.parametrize("name, content, needle", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_scenarios_fail_fast_in_one_line(tmp_path, name, content, needle):
    path = hostile_path(tmp_path, name, content)  # /dev/zero read whole would never end
    with pytest.raises(OddsError, match="^" + "[^\n]*" + needle.replace("(", r"\(").replace(")", r"\)")):
        crusades.load(path)


@pytest.mark.parametrize("name, content, needle", HOSTILE[:3], ids=[h[0] for h in HOSTILE[:3]])
def test_hostile_scenarios_cli_exit_2(tmp_path, name, content, needle):
    code, out, err = cli("crusades", "run", hostile_path(tmp_path, name, content))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


@pytest.mark.parametrize("source", [0, 3, 2.5, None, b"field.toml"])
def test_scenario_given_as_a_number_is_not_a_file_descriptor(source):
    with pytest.raises(OddsError, match=r"^scenario: .* is not a TOML file path or a table$"):
        crusades.load(source)


def test_one_line_terrain_rows_are_not_nesting(tmp_path):
    """Dots inside strings do not count towards the nesting bound."""
    text = FIELD.read_text().replace("[board]\nwidth = 12\nheight = 10\n",
                                     "[board]\nwidth = 32\nheight = 10\nterrain = [" +
                                     ", ".join(['"' + "." * 32 + '"'] * 10) + "]\n")
    path = tmp_path / "wide.toml"
    path.write_text(text)
    assert crusades.load(path).width == 32


def test_partial_json_is_strict():
    """No battle completed: every probability is undefined, so null (never NaN)."""
    from odds.crusades.battles.battle import BattleResult

    r = BattleResult("crusades.battle", "mc", {"attacker_win": float("nan")},
                     {"attacker_units_lost": [float("nan")] * 2}, "attacker_win", trials=0,
                     partial=True)
    text = json.dumps(r.to_json(), allow_nan=False)
    assert json.loads(text)["attacker_win"] is None


ASSAULT = crusades.EXAMPLES / "assault.toml"


@pytest.mark.parametrize("command, scenario, outcomes", [
    ("run", FIELD, ("attacker_win", "defender_win", "undecided")),
    ("siege", ASSAULT, ("holds", "falls_by_assault", "capitulates", "lifted_by_sortie",
                        "besieger_destroyed")),
    ("sensitivity", FIELD, ())])
def test_one_sigint_keeps_the_completed_battles(command, scenario, outcomes):
    """A real Ctrl-C on a billion battles (per setting): ONE SIGINT once the progress bar says
    battles are under way, exit 130 with strict JSON marked partial (sensitivity: the settings
    done, one run interrupted). How soon it stops: benchmarks/bench_interrupt.py."""
    code, _, err = cli("crusades", command, scenario, "--battles", "100")
    assert code == 0, err[-500:]  # kernel mode compiled
    run = Run("crusades", command, scenario, "--battles", str(10**9), "--json")
    run.wait_for("%")  # the progress bar (stderr is a terminal): battles are under way
    code, out = run.interrupt()
    assert code == 130, run.err[-500:]
    r = json.loads(out, parse_constant=lambda c: pytest.fail(f"non-strict JSON: {c}"))
    assert r["partial"] is True and 0 < r["battles"] < 10**9
    if outcomes:
        assert abs(sum(r[k] for k in outcomes) - 1) < 1e-12
    else:
        assert 0 < r["base"] < 1 and "interrupted: 0 of" in " ".join(r["notes"])
    assert "interrupted" in run.err
