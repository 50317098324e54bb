"""Crusades rule settings, each on a scripted battle worked out by hand (docs/rules_crusades.md):
friendly fire and `spares_friends`, attacks per turn, climb cost, gates, fleeing out of a
melee, shooting into a melee, shooting out of the city, the sortie's morale penalty, and the
note that says a result rests on assumed numbers."""
import pytest

from odds import OddsError, crusades
from odds.crusades.battles.siege_turns import sortie_scenario

FOOT = dict(health=10, attack=0, speed=0, morale=6, range=1, upkeep=1)  # never flees (d6 > 6)
ARCHER = dict(health=5, attack=2, speed=1, morale=6, range=4, upkeep=1)


def column(units, attacker, defender, terrain, attacker_rows, defender_rows, rules=None,
           policies=("hold-line", "hold-line")):
    """A scenario on a board one cell wide (row 0 is the attacker's edge); tie-breaks off."""
    return {"units": units,
            "attacker": {"army": attacker, "policy": policies[0]},
            "defender": {"army": defender, "policy": policies[1]},
            "board": {"width": 1, "height": len(terrain), "terrain": terrain,
                      "attacker_rows": attacker_rows, "defender_rows": defender_rows},
            "rules": {"tie_break": "first", "turn_limit": 1, **(rules or {})}}


def unit(battle, side, type_name):
    return next(u for u in battle.units if u["side"] == side and u["type"] == type_name)


@pytest.mark.parametrize("spares, foot_health", [(False, 8), (True, 10)])
def test_friendly_fire_spared_only_by_spares_friends(spares, foot_health):
    """Archer (row 0) shoots over its own foot (row 1) at a mounted unit 4 rows away: the foot
    takes the 2 damage too unless the target's type spares friends (light cavalry)."""
    target = dict(FOOT, mounted=True, spares_friends=spares)
    sc = column({"foot": FOOT, "archer": ARCHER, "rider": target},
                {"foot": 1, "archer": 1}, {"rider": 1}, ["."] * 6, [0, 1], [4])
    b = crusades.play(sc)
    assert (unit(b, "attacker", "archer")["y"], unit(b, "attacker", "foot")["y"]) == (0, 1)
    assert unit(b, "attacker", "foot")["health"] == foot_health
    assert unit(b, "defender", "rider")["health"] == 10 - 2


@pytest.mark.parametrize("attacks, dice, rnd", [
    (0, [1], 2),     # 2 shots a round: 8 damage (test, holds on 1), then dead in round 2
    (1, [1, 1], 3),  # 1 shot a round: 4, 4 (two tests), dead in round 3
])
def test_attacks_per_turn(attacks, dice, rnd):
    archer = dict(ARCHER, attack=4, speed=2, range=3)
    sc = column({"archer": archer, "foot": FOOT}, {"archer": 1}, {"foot": 1}, ["."] * 4, [0], [2],
                {"attacks_per_turn": attacks, "turn_limit": 5})
    b = crusades.play(sc, dice=dice)
    assert (b.outcome, b.round) == ("attacker_wins_by_rout", rnd)
    assert unit(b, "defender", "foot")["state"] == "dead"
    if len(dice) > 1:  # exactly that many morale tests
        with pytest.raises(OddsError, match="ran out"):
            crusades.play(sc, dice=dice[:-1])


WALLED = [".", ".", ".", "#", "c", "c"]


@pytest.mark.parametrize("cost, rounds, y", [
    (1, 1, 3),  # 2 action points: rows 2, 3 (the wall)
    (2, 1, 2),  # row 2, then 1 point left: not enough to climb
    (2, 2, 3),  # round 2: the climb takes both points
])
def test_wall_climb_cost(cost, rounds, y):
    climber = dict(FOOT, speed=2)
    sc = column({"climber": climber, "foot": FOOT}, {"climber": 1}, {"foot": 1}, WALLED, [1], [5],
                {"wall_climb_cost": cost, "turn_limit": rounds}, ("advance", "hold-line"))
    assert unit(crusades.play(sc), "attacker", "climber")["y"] == y


@pytest.mark.parametrize("gates, y", [("closed", 1), ("open", 3)])
def test_gates(gates, y):
    """A rider (cannot climb) 4 rows from the garrison: a closed gate is a wall, an open one is
    crossed like open ground (speed 2: rows 2, 3)."""
    rider = dict(FOOT, speed=2, mounted=True)
    sc = column({"rider": rider, "foot": FOOT}, {"rider": 1}, {"foot": 1},
                [".", ".", ".", "g", "c", "c"], [1], [5], {"gates": gates},
                ("advance", "hold-line"))
    assert unit(crusades.play(sc), "attacker", "rider")["y"] == y


@pytest.mark.parametrize("breaks, y", [(True, 3), (False, 2)])
def test_flee_breaks_melee(breaks, y):
    """Rows 1 v 2, in melee from the start, a guard on row 4 keeps the battle going: 5 damage
    (> 3), the defender tests at morale 3 - 1 (melee) and flees on the 6; in its turn it walks
    one row (speed 0 + 1) towards its edge, or stays held by the melee."""
    hitter = dict(FOOT, attack=5, speed=1)
    foot = dict(FOOT, morale=3)
    sc = column({"hitter": hitter, "foot": foot, "guard": FOOT}, {"hitter": 1},
                {"foot": 1, "guard": 1}, ["."] * 5, [1], [2, 4], {"flee_breaks_melee": breaks})
    b = crusades.play(sc, dice=[6])
    assert (b.outcome, b.round) == ("turn_limit", 1)
    assert (unit(b, "defender", "foot")["state"], unit(b, "defender", "foot")["y"]) == ("fleeing", y)


@pytest.mark.parametrize("allowed, health", [(True, 8), (False, 10)])
def test_shoot_into_melee(allowed, health):
    """3 wide: own foot at (1, 1) in melee with the target at (1, 2); the archer at (0, 1)
    (range 2, nobody on its line) shoots the target only if shooting into a melee is allowed."""
    sc = {"units": {"foot": FOOT, "archer": ARCHER, "target": FOOT},
          "attacker": {"army": {"foot": 1, "archer": 1}, "policy": "hold-line"},
          "defender": {"army": {"target": 1}, "policy": "hold-line"},
          "board": {"width": 3, "height": 4, "attacker_rows": [1], "defender_rows": [2]},
          "rules": {"tie_break": "first", "turn_limit": 1, "shoot_into_melee": allowed}}
    b = crusades.play(sc)
    assert (unit(b, "attacker", "archer")["x"], unit(b, "defender", "target")["x"]) == (0, 1)
    assert unit(b, "defender", "target")["health"] == health


@pytest.mark.parametrize("allowed, health", [(True, 8), (False, 10)])
def test_shoot_out_of_city(allowed, health):
    """A garrison archer in the city (row 4) and an attacker on open ground (row 1), 3 apart:
    it shoots out unless the wall is set to block both ways."""
    sc = column({"archer": ARCHER, "foot": FOOT}, {"foot": 1}, {"archer": 1}, WALLED, [1], [4],
                {"shoot_out_of_city": allowed})
    assert unit(crusades.play(sc), "attacker", "foot")["health"] == health


@pytest.mark.parametrize("penalty, outcome", [(True, "attacker_wins_by_rout"), (False, "turn_limit")])
def test_sortie_morale_penalty(penalty, outcome):
    """The sortie board of a siege in its second turn, rows 1 v 2 in melee: the garrison (moves
    first, strikes for 0) takes 5 damage and tests at morale 3 - 1 (melee) - 1 (besieged, if
    the penalty applies in sorties): the 2 routs it only with the penalty."""
    hitter = dict(FOOT, attack=5, speed=1)
    sc = crusades.load({"units": {"hitter": hitter, "foot": dict(FOOT, morale=3)},
                        "attacker": {"army": {"hitter": 1}}, "defender": {"army": {"foot": 1}},
                        "board": {"width": 1, "height": 4, "terrain": [".", ".", "#", "c"]},
                        "siege": {"on": True, "turn": 2},
                        "rules": {"turn_limit": 1, "sortie_morale_penalty": penalty}})
    b = crusades.play(sortie_scenario(sc), dice=[2])
    assert (b.outcome, b.round) == (outcome, 1)


def test_results_say_they_rest_on_assumptions():
    r = crusades.run(crusades.EXAMPLES / "field.toml", battles=200, seed=1)
    assert any("every rule setting is a reading" in a for a in r.assumptions)
    assert "assumes: the unit statistics" in r.summary()
    assert r.to_json()["assumptions"] == list(r.assumptions)


def test_rules_document_lists_every_setting_with_its_default():
    from pathlib import Path

    from odds.crusades.scenario import SETTINGS

    text = (Path(__file__).parents[1] / "docs" / "rules_crusades.md").read_text()
    for key, (default, _, _) in SETTINGS.items():
        shown = "0 (no limit)" if key == "attacks_per_turn" else str(default).lower()
        assert f"| `{key}` | {shown} |" in text, key
