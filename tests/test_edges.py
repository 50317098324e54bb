"""Inputs at the edges of what the rules allow: empty sides, the largest forces, extreme leaders."""
import pytest

import odds
from odds.his import assault, field_battle, naval_battle
from odds.his.forces import MAX_LEADER, MAX_UNITS
from odds.oath import campaign
from odds.oath.campaigns.procedure import MAX_WARBANDS
from agreement import assert_pmfs_sum_to_one


def test_largest_field_battle_exact_and_monte_carlo():
    exact = field_battle(MAX_UNITS, MAX_UNITS, attacker_leader=MAX_LEADER, defender_leader=MAX_LEADER)
    assert_pmfs_sum_to_one(exact, 1e-12)
    mc = field_battle(MAX_UNITS, MAX_UNITS, attacker_leader=MAX_LEADER, defender_leader=MAX_LEADER,
                      method="mc", trials=200_000, seed=1)
    assert abs(mc.p - exact.p) < 5 * (exact.p * (1 - exact.p) / mc.trials) ** 0.5
    assert abs(mc.expected("defender_losses") - exact.expected("defender_losses")) < 0.1


@pytest.mark.parametrize("leader", [0, MAX_LEADER])
def test_one_unit_against_one(leader):
    r = field_battle(1, 1, attacker_leader=leader)
    assert 0 < r["defender_eliminated"] < 1 and 0 < r.p < 1


def test_largest_assault_and_empty_space():
    big = assault(MAX_UNITS, MAX_UNITS, attacker_leader=MAX_LEADER, defender_leader=MAX_LEADER)
    assert_pmfs_sum_to_one(big, 1e-12)
    empty = assault(1, 0)
    # 1 die against the defender's 1 die: success needs the attacker's hit and no defender hit
    assert empty["success"] == pytest.approx(1 / 3 * 2 / 3)


def test_largest_fleets_and_campaigns():
    assert_pmfs_sum_to_one(naval_battle(attacker_galleys=50, defender_galleys=50,
                                        attacker_leader=6, defender_leader=6), 1e-12)
    assert_pmfs_sum_to_one(campaign(MAX_WARBANDS, defense_dice=20, defenders=30), 1e-12)
    assert campaign(0, defense_dice=1).p == 0


@pytest.mark.parametrize("call", [
    lambda: field_battle(MAX_UNITS + 1, 1),
    lambda: field_battle(5, 5, attacker_leader=MAX_LEADER + 1),
    lambda: assault(5, MAX_UNITS + 1),
    lambda: naval_battle(attacker_galleys=51, defender_galleys=1),
    lambda: campaign(MAX_WARBANDS + 1, defense_dice=1),
    lambda: field_battle(5, 5, method="mc", trials=10**11),
])
def test_beyond_the_limits_is_a_clear_error(call):
    with pytest.raises(odds.OddsError):
        call()


def test_an_assault_or_siege_needs_an_attacking_unit():
    from odds.his import siege

    with pytest.raises(odds.OddsError, match="attacker: 0 units: an assault needs units on the attacking side"):
        assault(0, 3)
    with pytest.raises(odds.OddsError, match="attacker: 0 units: an assault needs units"):
        siege(0, 3, assaults=2)
