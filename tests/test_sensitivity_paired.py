"""Issue 60, defect 8: sensitivity's intervals are those of its method. Every flip runs with
the call's seed (common random numbers), so a change's interval is the paired one (the sweep's:
replicate runs, the spread of their differences), not that of independent runs; the means'
changes have intervals too; a setting that cannot matter in the scenario (a wall's, on a field
without walls) is not flipped but listed as having no effect here; a setting nobody gave is
not marked as flipping a value given."""
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

import odds
from odds import cli
from odds.crusades import EXAMPLES

FIELD = str(EXAMPLES / "field.toml")
WALLS = ("gates", "wall_climb_cost", "sortie_morale_penalty", "shoot_out_of_city")


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def field():
    """The field battle's sensitivity, 400 battles an alternative, with a designer's
    alternative that changes nothing (the same battles as the call's, battle for battle)."""
    return odds.sensitivity("crusades.battle", {"scenario": FIELD},
                            {"the same": {"turn_limit": 20}, "unchanged": {"first_player": "attacker"}},
                            trials=400, seed=1)


def test_a_flip_that_changes_no_battle_has_a_zero_interval(field):
    """Six identical crusades battles showed "0.00% [-0.7%, +0.7%]": with one seed for both
    runs, no battle's outcome differs, so the paired interval is [0, 0]."""
    same = [r for r in field.rows if r.get("p") is not None and r["p"] == field.p
            and all(abs(c) < 1e-12 for c in r["mean_changes"].values())]
    assert same, [r["label"] for r in field.rows]
    for r in same:
        assert (r["change_low"], r["change_high"]) == (0.0, 0.0), r


def test_a_flip_that_changes_battles_has_a_paired_interval_around_its_change(field):
    moved = [r for r in field.rows if r.get("p") is not None and abs(r["change"]) > 0.05]
    assert moved
    for r in moved:
        assert r["change_low"] < r["change"] < r["change_high"], r


def test_the_means_changes_have_intervals(field):
    rows = [r for r in field.rows if r.get("p") is not None]
    for r in rows:
        intervals = r.get("mean_change_intervals") or {}
        assert set(intervals) == set(r["mean_changes"]), r["label"]
        for m, (low, high) in intervals.items():
            assert low <= r["mean_changes"][m] <= high, (r["label"], m)
    assert "E attacker units lost (change)" in field.summary() and "±" in field.summary()


def test_a_wall_setting_is_not_flipped_on_a_field_without_walls(field):
    by = {r["label"].split("=")[0]: r for r in field.rows}
    for key in WALLS:
        assert key in by, f"{key} not listed"
        assert by[key].get("p") is None and "no effect here" in by[key]["not_computed"], by[key]


def test_only_the_settings_the_scenario_or_the_player_gives_are_marked_given():
    code, out, err = run("sensitivity", "crusades.battle", "--scenario", FIELD, "--trials", "200")
    assert code == 0, err
    marked = sorted(line.split()[0].split("=")[0] for line in out.splitlines()
                    if "(flips the value given)" in line)
    assert marked == ["first_player", "first_player"] or set(marked) == {"first_player", "turn_limit"}, marked
