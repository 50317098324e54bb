"""Crusades command line: --brief, `settings`, the --set error, degenerate-scenario warnings,
and `trace` on a scripted battle written out by hand."""
import json

import pytest

from odds import OddsError, crusades
from odds.frontends.cli.main import main
from odds.crusades.scenario import SETTINGS


def units_toml(**units):
    """[units.NAME] tables, every unit with upkeep 1 and range 1 unless given."""
    text = ""
    for name, stats in units.items():
        text += f"[units.{name}]\n" + "".join(f"{k} = {v}\n" for k, v in
                                             {"range": 1, "upkeep": 1, **stats}.items())
    return text


@pytest.fixture
def sure(tmp_path):
    """An archer two rows from a foot unit that never moves: the attacker wins every battle."""
    path = tmp_path / "sure.toml"
    path.write_text(units_toml(archer=dict(health=5, attack=4, speed=1, morale=4, range=3),
                               foot=dict(health=10, attack=0, speed=0, morale=3)) + """
[attacker]
army = { archer = 1 }
[defender]
army = { foot = 1 }
policy = "hold-line"
[board]
width = 1
height = 4
attacker_rows = [1]
defender_rows = [3]
""")
    return str(path)


def test_brief_and_degenerate_warning(sure, capsys):
    assert main(["crusades", "run", sure, "--battles", "50", "--brief"]) == 0
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert lines[0].startswith("attacker win 100.0%, defender win 0.0%, undecided 0.0% (")
    assert "50 battles, seed 0" in lines[0]
    assert lines[1] == "mean units lost: attacker 0.0, defender 1.0"
    assert len(lines) == 2
    assert "degenerate scenario: all 50 battles ended 'attacker win'" in err
    r = crusades.run(sure, battles=50)
    assert any(n.startswith("warning: degenerate") for n in r.notes)
    how = r.probabilities
    why = ("the defender was routed in every battle (engaged: 1 v 1)" if how["ended_by_rout"] == 1
           else "every battle ended with a headquarters taken")
    assert why in err  # the warning names the cause


def test_a_degenerate_warning_names_the_turn_limit(capsys):
    field = str(crusades.EXAMPLES / "field.toml")
    assert main(["crusades", "run", field, "--battles", "40", "--brief", "--set", "turn_limit=1"]) == 0
    err = capsys.readouterr().err
    assert ("all 40 battles ended 'undecided' (100%, no uncertainty): every battle reached the "
            "turn limit (turn_limit=1) with both sides standing") in err


def test_sensitivity_warns_when_no_setting_matters(sure, capsys):
    assert main(["crusades", "sensitivity", sure, "--battles", "20", "--json"]) == 0
    out, err = capsys.readouterr()
    assert set(json.loads(out)["notes"]) >= {"warning: no rule setting changes P(attacker wins) "
                                             "(100.0%) in this scenario"}
    assert "no rule setting changes" in err


def test_no_warning_for_an_open_battle(capsys):
    path = str(crusades.EXAMPLES / "field.toml")
    assert main(["crusades", "run", path, "--battles", "500", "--brief"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_settings_lists_every_rule_with_default_and_meaning(capsys):
    assert main(["crusades", "settings"]) == 0
    out = capsys.readouterr().out
    for key, (default, _, meaning) in SETTINGS.items():
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        assert f"  {key} = {shown}  (allowed: " in out
        assert meaning in out
    assert "  gates = closed  (allowed: closed, open)" in out
    assert "  wall_climb_cost = 1  (allowed: 1 to 10)" in out


def test_set_error_lists_rule_keys(sure, capsys):
    assert main(["crusades", "run", sure, "--set", "turnlimit=3"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "turnlimit" in err and "rule settings: morale_damage_threshold, " in err
    assert "shoot_out_of_city" in err and "scenario keys: title" in err
    with pytest.raises(OddsError, match="rule settings: "):
        crusades.run(sure, overrides=["nonsense=1"])


def test_trace_of_a_scripted_battle(tmp_path, capsys):
    """Rows 1 v 2 on a board one cell wide: the hitter strikes for 5, the defender tests at
    morale 3 - 1 (melee), flees on the 6, and walks one row (speed 0 + 1); the guard on row 4
    keeps the battle going to the turn limit."""
    path = tmp_path / "melee.toml"
    path.write_text('title = "melee"\n' + units_toml(
        hitter=dict(health=10, attack=5, speed=1, morale=6),
        foot=dict(health=10, attack=0, speed=0, morale=3),
        guard=dict(health=10, attack=0, speed=0, morale=6)) + """
[attacker]
army = { hitter = 1 }
policy = "hold-line"
[defender]
army = { foot = 1, guard = 1 }
policy = "hold-line"
[board]
width = 1
height = 5
attacker_rows = [1]
defender_rows = [2, 4]
[rules]
turn_limit = 1
""")
    assert main(["crusades", "trace", str(path), "--dice", "6"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "melee: scripted dice [6], 3 units on the board, attacker moves first",
        "round 1, attacker:",
        "  attacker hitter#0 attacks defender foot#1",
        "    defender foot#1 takes 5 damage: health 5",
        "  morale of the defender after this turn:",
        "    defender foot#1 tests morale (took 5 damage): rolls 6, morale 3, modifier -1: flees",
        "round 1, defender:",
        "  defender foot#1 moves to (0, 3)",
        "result: turn limit in round 1",
    ]
    assert main(["crusades", "trace", str(path), "--dice", "2"]) == 0  # holds, then nothing
    assert "rolls 2, morale 3, modifier -1: holds" in capsys.readouterr().out


def test_trace_seeded_matches_play():
    """The trace of battle 3 of seed 5 ends as `play` of that battle does."""
    from odds.crusades.battles.narration import trace

    path = crusades.EXAMPLES / "field.toml"
    b = crusades.play(path, seed=5, index=3)
    text = trace(path, seed=5, index=3)
    assert text.splitlines()[-1] == f"result: {b.outcome.replace('_', ' ')} in round {b.round}"
    assert text.count("round 1, ") == 2


def test_the_scenario_format_is_documented_with_its_default_headquarters():
    """Every key a scenario takes is in docs/rules_crusades.md, and the default headquarters it
    states are the ones a scenario without them gets."""
    from pathlib import Path

    from odds.crusades import scenario as S
    doc = (Path(__file__).parents[1] / "docs" / "rules_crusades.md").read_text()
    for key in (*S.SCENARIO_KEYS, *S.UNIT_LIMITS, *S.UNIT_FLAGS, *S.POLICIES, "attacker_rows",
                "defender_rows", "attacker_hq", "defender_hq", "capitulate_after", "besieged"):
        assert f"`{key}`" in doc or f"`[{key}]`" in doc or f"[{key}." in doc, key
    assert ("headquarters at [width // 2, 0] for the attacker and [width - 1 - width // 2, "
            "height - 1]" in doc and "on a 12-wide board [6, 0] and [5, 9]" in doc)
    raw = S.load(str(crusades.EXAMPLES / "field.toml")).raw
    bare = S.load({k: v for k, v in raw.items() if k != "board"})  # the default 12 x 10 board
    assert bare.hq == ((6, 0), (5, 9))
