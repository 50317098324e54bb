"""Crusades tactical battle (docs/rules_crusades.md): scenarios, hand-computed scripted battles, an
enumerated tiny battle against the simulation, invariants on every simulated battle, mirror
symmetry, reproducibility, bad input."""
import json
from fractions import Fraction

import numpy as np
import pytest

from agreement import assert_agree, assert_pmfs_sum_to_one
from odds import OddsError, Result, crusades
from odds.frontends.cli.main import main
from odds.crusades import battle as B
from odds.crusades.simulator.state import cap_counts

EXAMPLES = sorted(crusades.EXAMPLES.glob("*.toml"))


def tiny(attacker, defender, *, width=3, height=5, terrain=None, rules=None, siege=None,
         defender_rows=None):
    """A scenario dict: one unit a side (types given as dicts), tie-breaks off."""
    board = {"width": width, "height": height}
    if terrain:
        board["terrain"] = terrain
    if defender_rows:
        board["defender_rows"] = defender_rows
    return {"units": {"a": attacker, "d": defender},
            "attacker": {"army": {"a": 1}, "policy": "advance"},
            "defender": {"army": {"d": 1}, "policy": "hold-line"},
            "board": board, "rules": {"tie_break": "first", **(rules or {})},
            "siege": siege or {}}


ARCHER = dict(health=5, attack=4, speed=1, morale=4, range=3, upkeep=1)
TARGET = dict(health=10, attack=1, speed=0, morale=3, range=1, upkeep=2)
KNIGHT = dict(health=8, attack=3, speed=1, morale=5, range=1, upkeep=4, mounted=True,
              first_attack_bonus=True)
WALL_FOOT = dict(health=20, attack=0, speed=0, morale=3, range=1, upkeep=1)

# An archer two cells from a stationary target: 4 damage a round (> 3: a morale test each
# time it survives); flees on a d6 above 3; dead after the third shot.
SHOOTING = tiny(ARCHER, TARGET)


def test_cap_largest_remainder():
    for a, d, want in [(22, 18, (11, 9)), (26, 14, (13, 7)), (13, 7, (13, 7)), (30, 30, (10, 10))]:
        out = np.zeros((2, 1), np.int64)
        cap_counts(np.array([[a], [d]]), out, 20)
        assert tuple(out[:, 0]) == want
    out = np.zeros((2, 3), np.int64)
    cap_counts(np.array([[7, 7, 8], [10, 5, 3]]), out, 20)
    # 22:18 -> 11:9; 11 over 7,7,8 = 3.5, 3.5, 4 -> 3,3,4 + 1 to the first tie; 9 over 10,5,3
    assert out.tolist() == [[4, 3, 4], [5, 3, 1]]


@pytest.mark.parametrize("dice, outcome, rnd, health, fled", [
    ([4], "attacker_wins_by_rout", 1, 6, 1),      # flees after the first shot
    ([3, 6], "attacker_wins_by_rout", 2, 2, 1),   # holds, then flees
    ([3, 3], "attacker_wins_by_rout", 3, 0, 0),   # holds twice, the third shot kills
])
def test_scripted_shooting(dice, outcome, rnd, health, fled):
    b = crusades.play(SHOOTING, dice=dice)
    assert (b.outcome, b.round, b.invariants_ok) == (outcome, rnd, True)
    target = [u for u in b.units if u["side"] == "defender"][0]
    assert target["health"] == health
    t = b.tally[("defender", "d")]
    assert (t["fled"], t["killed"], t["returned"]) == (fled, 1 - fled, 0)  # half of 1, down
    assert b.result["defender_units_lost"][1] == 1


@pytest.mark.parametrize("extra, dice, flees", [
    ({}, [3], True),     # morale 3, -1 in melee: a 3 flees
    ({}, [2], False),
    ({"rules": {"morale_reading": "hold-at-least"}}, [3], True),   # lowest roll that holds: 3+1=4
    ({"rules": {"morale_reading": "hold-at-least"}}, [4], False),
    ({"siege": {"on": True, "turn": 2}}, [2], True),   # besieged after one turn: -1 more
    ({"siege": {"on": True, "turn": 1}}, [2], False),
    ({"terrain": [".", ".", "#", "."], "defender_rows": [2]}, [3], False),  # on a wall: +1
])
def test_scripted_knight_charge(extra, dice, flees):
    """A knight adjacent to a stationary unit: 3 +1 first-attack = 4 damage (> 3, one test);
    later blows of 3 never test again; 20 health falls on the 7th blow (4 + 6 x 3 = 22)."""
    sc = tiny(KNIGHT, WALL_FOOT, width=1, height=4, **extra)
    b = crusades.play(sc, dice=dice)
    if flees:
        assert (b.outcome, b.round) == ("attacker_wins_by_rout", 1)
        assert b.tally[("defender", "d")]["fled"] == 1
    else:
        assert (b.outcome, b.round) == ("attacker_wins_by_rout", 7)
        assert b.tally[("defender", "d")]["killed"] == 1


def enumerate_battle(sc, max_dice=12):
    """Exact outcome histogram: play every sequence of morale dice (prefix tree), weight 6^-k."""
    sc = crusades.load(sc)
    total = np.zeros(B.shape(sc))
    stack = [()]
    while stack:
        prefix = stack.pop()
        try:
            b = crusades.play(sc, dice=list(prefix) or [1], check=False) if prefix else None
        except OddsError:
            b = None
        if b is None:
            assert len(prefix) < max_dice
            stack += [prefix + (d,) for d in range(1, 7)]
        else:
            total += b.hist * Fraction(1, 6 ** len(prefix)).__float__()
    return total


def test_enumerated_tiny_battle_matches_simulation():
    joint = enumerate_battle(SHOOTING)
    sc = crusades.load(SHOOTING)
    p, pmfs = B.summarise(joint, sc)
    # by hand: flee with 1/2 after shot 1, 1/4 after shot 2, killed by shot 3 with 1/4
    assert np.allclose(pmfs["decision_round"][:4], [0, 1 / 2, 1 / 4, 1 / 4])
    assert np.allclose(pmfs["defender_d_killed"], [3 / 4, 1 / 4])
    exact = Result("crusades.battle", "exact", p, pmfs, "attacker_win")
    mc = crusades.run(SHOOTING, battles=20000, seed=5)
    assert_agree(exact, mc)


def test_enumerated_first_player_random():
    """A random first player takes one die; with a 1-unit knight charge the side moving
    first matters only for who strikes; every branch is enumerated and matches MC."""
    sc = tiny(KNIGHT, dict(WALL_FOOT, attack=5, health=9), width=1, height=4,
              rules={"first_player": "random"})
    joint = enumerate_battle(sc)
    p, pmfs = B.summarise(joint, crusades.load(sc))
    assert abs(p["attacker_moved_first"] - 0.5) < 1e-12
    exact = Result("crusades.battle", "exact", p, pmfs, "attacker_win")
    assert_agree(exact, crusades.run(sc, battles=20000, seed=9))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_invariants_every_battle(path):
    r = crusades.run(path, battles=3000, seed=11, check=True)
    assert r["invariant_violations"] == 0
    assert_pmfs_sum_to_one(r)
    assert abs(r["attacker_win"] + r["defender_win"] + r["undecided"] - 1) < 1e-12
    assert abs(r["ended_by_rout"] + r["ended_by_headquarters"] + r["ended_by_turn_limit"] - 1) < 1e-12
    assert "illustrative" in " ".join(r.assumptions)
    for key in crusades.SETTINGS:
        assert key in r.settings


def test_same_seed_any_thread_count():
    path = crusades.EXAMPLES / "field.toml"
    one = crusades.run(path, battles=3000, seed=4, threads=1)
    two = crusades.run(path, battles=3000, seed=4, threads=2)
    assert one.probabilities == two.probabilities
    for k in one.pmfs:
        assert np.array_equal(one.pmfs[k], two.pmfs[k])
    b1 = crusades.play(path, seed=4, index=17)
    assert b1.outcome == crusades.play(path, seed=4, index=17).outcome


def test_mirror_scenario_is_even():
    sc = crusades.load(crusades.EXAMPLES / "field.toml").raw
    sc = {**sc, "defender": sc["attacker"], "rules": {"first_player": "random"}}
    r = crusades.run(sc, battles=6000, seed=3)
    assert abs(r["attacker_moved_first"] - 0.5) < 4.5 * r.se(0.5)
    diff = r["attacker_win"] - r["defender_win"]
    se = np.sqrt((r["attacker_win"] + r["defender_win"]) / r.trials)
    assert abs(diff) < 4.5 * se


def test_settings_change_the_numbers():
    path = crusades.EXAMPLES / "field.toml"
    base = crusades.run(path, battles=2000, seed=1)
    low = crusades.run(path, battles=2000, seed=1, overrides=["morale_damage_threshold=0"])
    assert low.settings["morale_damage_threshold"] == 0
    assert not np.array_equal(low["defender_units_lost"], base["defender_units_lost"])


@pytest.mark.parametrize("key, value, needle", [
    ("attacker.army.pikemen", 3, "attacker.army.pikemen: unknown unit type"),
    ("units.knights.attack", 99, "units.knights.attack: 99 is out of range"),
    ("units.knights.health", "x", "units.knights.health: 'x' is not a whole number"),
    ("board.terrain", ["...."] * 10, "board.terrain[0]"),
    ("rules.morale_reading", "sideways", "rules.morale_reading: 'sideways' is not allowed"),
    ("rules.bogus", 1, "rules.bogus: unknown key"),
    ("attacker.policy", "charge", "attacker.policy: 'charge' is not allowed"),
    ("units.knights.climbs_walls", True, "units.knights.climbs_walls: mounted units cannot climb walls"),
])
def test_bad_scenarios(key, value, needle):
    path = crusades.EXAMPLES / "field.toml"
    with pytest.raises(OddsError, match="field.toml: " + needle.replace("[", r"\[").replace("]", r"\]")):
        crusades.load(path, {key: value})


def test_army_too_big_for_rows():
    path = crusades.EXAMPLES / "field.toml"
    with pytest.raises(OddsError, match=r"attacker.army: 10 units take part but board.attacker_rows \[0\] hold only 8"):
        crusades.load(path, {"board.attacker_rows": [0], "board.width": 8,
                             "board.terrain": ["." * 8] * 10})


def test_exact_method_and_dice_errors():
    with pytest.raises(OddsError, match="method: 'exact' is not available"):
        crusades.run(SHOOTING, method="exact", battles=10)
    with pytest.raises(OddsError, match="ran out"):
        crusades.play(SHOOTING, dice=[3])
    with pytest.raises(OddsError, match="dice: 7 is not a d6 roll"):
        crusades.play(SHOOTING, dice=[7])


def test_cli_run_json(capsys):
    path = str(crusades.EXAMPLES / "sortie.toml")
    assert main(["crusades", "run", path, "--battles", "500", "--seed", "2", "--set",
                 "turn_limit=12", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("attacker_win", "defender_win", "undecided", "attacker_win_se", "defender_win_se",
                "undecided_se", "battles", "seed", "attacker_mean_units_lost",
                "defender_mean_units_lost"):
        assert key in out
    assert out["battles"] == 500 and out["seed"] == 2 and out["settings"]["turn_limit"] == 12


def test_cli_scripted_and_errors(capsys):
    path = str(crusades.EXAMPLES / "field.toml")
    assert main(["crusades", "run", path, "--set", "attacker.army.archers=nine"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "attacker.army.archers" in err[0]
    assert main(["crusades", "run", "missing.toml"]) == 2
    assert "scenario: missing.toml: no such file" in capsys.readouterr().err
    assert main(["crusades", "run", path, "--dice", "a,b"]) == 2
    assert main(["crusades", "run", path, "--set", "nokey"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_sensitivity_flips_every_setting_that_can_matter():
    """Every setting flipped, but those acting on walls, gates, a city or a siege, which the
    field scenario lacks: listed as having no effect here (issue 60)."""
    r = crusades.sensitivity(crusades.EXAMPLES / "field.toml", battles=300, seed=1)
    flipped = {k.split("=")[0] for k in r.probabilities if k != "base"}
    idle = {"wall_climb_cost", "gates", "shoot_out_of_city", "sortie_morale_penalty"}
    assert flipped == set(crusades.SETTINGS) - idle
    assert {row["label"].split("=")[0] for row in r.rows
            if "no effect here" in row.get("not_computed", "")} == idle


ASSAULT = crusades.EXAMPLES / "assault.toml"


@pytest.mark.parametrize("plan, port, start, end, turn", [
    (["wait", "wait", "wait"], False, 1, "capitulates", 2),   # no port: after two turns
    (["wait", "wait", "wait"], True, 1, "holds", 3),
    (["wait"], False, 2, "capitulates", 1),                   # already in its second turn
])
def test_siege_without_battles(plan, port, start, end, turn):
    r = crusades.siege(ASSAULT, sieges=100, overrides={"siege.plan": plan, "siege.port": port,
                                                       "siege.turn": start})
    assert r[end] == 1.0 and r[f"{end}_turn"][turn] == 1.0
    assert_pmfs_sum_to_one(r)


def test_siege_assault_is_the_battle():
    """Siege s and battle s use the same stream (seed, index): a one-turn assault siege falls
    exactly when the battle is won."""
    r = crusades.siege(ASSAULT, sieges=2000, seed=8, overrides={"siege.plan": ["assault"],
                                                                  "siege.port": True})
    b = crusades.run(ASSAULT, battles=2000, seed=8)
    count = lambda *p: round(sum(p) * 2000)  # whole battles, free of float rounding
    assert count(r["falls_by_assault"]) == count(b["attacker_win"])
    assert count(r["holds"], r["besieger_destroyed"]) == count(b["defender_win"], b["undecided"])
    assert_pmfs_sum_to_one(r)


def test_siege_needs_besieged_defender():
    with pytest.raises(OddsError, match="siege.besieged"):
        crusades.siege(ASSAULT, sieges=10, overrides={"siege.besieged": "attacker"})


@pytest.mark.parametrize("facing, dice, outcome_round, fled", [
    ("enemy-edge", [6], 1, 1),   # struck from behind: a test although 1 damage; 6 > 3-1 flees
    ("enemy-edge", [1, 1, 1], 3, 0),  # holds each time, the 3rd blow kills (3 health)
    ("none", None, 3, 0),        # no rear attacks: no test, no dice needed
])
def test_scripted_rear_attack(facing, dice, outcome_round, fled):
    """The attacker stands on the cell behind the defender (who faces the attacker's edge)."""
    sc = tiny(dict(health=9, attack=1, speed=1, morale=3, range=1, upkeep=1),
              dict(WALL_FOOT, health=3), width=1, height=4, rules={"facing": facing})
    sc["board"].update(attacker_rows=[2], defender_rows=[1])
    b = crusades.play(sc, dice=dice)
    assert (b.outcome, b.round) == ("attacker_wins_by_rout", outcome_round)
    assert b.tally[("defender", "d")]["fled"] == fled


def test_scripted_headquarters_taken():
    """A fast rider goes round a stationary defender into its empty headquarters: 5 steps."""
    rider = dict(health=6, attack=2, speed=6, morale=4, range=1, upkeep=3, mounted=True)
    sc = tiny(rider, TARGET, width=5, height=5)
    sc["board"]["defender_hq"] = [0, 4]
    b = crusades.play(sc, dice=[1])
    assert (b.outcome, b.round) == ("attacker_takes_headquarters", 1)
    rider_end = [u for u in b.units if u["side"] == "attacker"][0]
    assert (rider_end["x"], rider_end["y"]) == (0, 4)
    assert b.result["ended_by_headquarters"] == 1.0
