"""A variant's hit numbers (attacker_hit_on, defender_hit_on) in an assault, a siege and the
whole attack: hand-computed cases, exact against Monte Carlo, the kept caches, the rule's
numbers as the defaults."""
from fractions import Fraction as F

import numpy as np
import pytest

from agreement import engines_agree
from odds import OddsError
from odds.his import assault, attack, siege


def test_one_infantry_against_an_empty_space_hitting_on_4_by_hand():
    # The attacker's 1 die hits on 4-6: 1/2. The empty space still rolls the defender's +1
    # die, hitting on 5-6 (1/3), which kills the lone attacker: success needs a hit and no
    # hit back, 1/2 * 2/3 = 1/3; with the defender hitting on 6 only, 1/2 * 5/6 = 5/12.
    r = assault(1, 0, attacker_hit_on=4)
    assert r["success"] == pytest.approx(float(F(1, 2) * F(2, 3)), abs=1e-15)
    assert r["siege_continues"] == pytest.approx(float(F(1, 2) * F(2, 3)), abs=1e-15)
    assert r["withdraw"] == pytest.approx(1 / 3, abs=1e-15)
    assert assault(1, 0, attacker_hit_on=4, defender_hit_on=6)["success"] == pytest.approx(5 / 12)


def test_two_against_one_with_both_numbers_changed_by_hand():
    # 2 infantry against 1 unit: the attack is halved to 1 die, hitting on 4-6 (1/2); the
    # defender rolls 2 dice (its unit + 1), hitting on 3-6 (2/3 each): P(dh = 0, 1, 2) =
    # 1/9, 4/9, 4/9. Success: a hit and a survivor, 1/2 * (1/9 + 4/9) = 5/18. A miss and no
    # hit back leaves 2 against 1: the siege goes on, 1/2 * 1/9 = 1/18. The rest withdraws:
    # 1/2 * 8/9 + 1/2 * 4/9 = 2/3. Two defender hits eliminate the attacker: 4/9.
    r = assault(2, 1, attacker_hit_on=4, defender_hit_on=3)
    for name, want in (("success", F(5, 18)), ("siege_continues", F(1, 18)),
                       ("withdraw", F(2, 3)), ("attacker_eliminated", F(4, 9))):
        assert r[name] == pytest.approx(float(want), abs=1e-15), name
    np.testing.assert_allclose(r["attacker_losses"], [1 / 9, 4 / 9, 4 / 9], atol=1e-15)
    np.testing.assert_allclose(r["defender_losses"], [1 / 2, 1 / 2], atol=1e-15)
    assert r.settings["attacker_hit_on"] == 4 and r.settings["defender_hit_on"] == 3
    assert "hitting on 4-6" in r.explain[0] and "hitting on 3-6" in r.explain[1]


def test_siege_artillery_keeps_its_own_number():
    # 1 infantry vs 1: 1 die hitting on 6 (1/6) against 2 defender dice on 6 (1/6 each), then
    # Siege Artillery always: 2 dice on 3-6 (2/3 each), whatever the attacker's number.
    # Success: >= 1 hit of 3 dice and no defender hit: (1 - 5/6 * 1/9) * (5/6)^2.
    r = assault(1, 1, attacker_hit_on=6, defender_hit_on=6, attacker_cards=["siege-artillery:always"])
    assert r["success"] == pytest.approx((1 - 5 / 6 / 9) * (5 / 6) ** 2, abs=1e-15)


def test_the_rule_s_numbers_are_the_defaults():
    kw = dict(attacker=5, defender=2, attacker_leader=1, attacker_cards=["siege-artillery:if-needed"])
    assert assault(**kw, attacker_hit_on=5, defender_hit_on=5).to_json() == assault(**kw).to_json()
    assert "attacker_hit_on" not in assault(**kw).settings
    s = dict(attacker=4, defender=2, assaults=3)
    assert siege(**s, attacker_hit_on=5, defender_hit_on=5).to_json() == siege(**s).to_json()


@pytest.mark.parametrize("kw", [
    dict(attacker=6, defender=2, attacker_leader=1, attacker_hit_on=4, defender_hit_on=6),  # pair kernel
    dict(attacker=7, attacker_cavalry=2, defender=3, defender_leader=1, attacker_hit_on=3,
         defender_hit_on=4, attacker_cards=["siege-artillery:if-needed"]),
    dict(attacker=6, defender=4, defender_cavalry=1, defender_cards=["surprise-attack"],
         allow_bribed_surprise=True, attacker_hit_on=6, defender_hit_on=2),
])
def test_assault_exact_and_monte_carlo_agree(kw):
    engines_agree(assault, kw, trials=200_000, seed=11)


def test_bad_hit_numbers_are_one_line_errors():
    for fn, kw in ((assault, {}), (siege, {"assaults": 2}), (attack, {"assaults": 2})):
        with pytest.raises(OddsError, match=r"^attacker_hit_on: 7 is out of range"):
            fn(4, 2, attacker_hit_on=7, **kw)
        with pytest.raises(OddsError, match=r"^defender_hit_on: 1 is out of range"):
            fn(4, 2, defender_hit_on=1, **kw)


def test_siege_of_an_empty_space_by_hand():
    # 1 infantry vs an empty space, each assault 1 die on 4-6 (1/2) against the defender's
    # +1 die on 6 (1/6): captured 1/2 * 5/6 = 5/12; a hit back wipes the attacker out (1/6:
    # broken); both miss (5/12): the next assault.
    r = siege(1, 0, assaults=2, attacker_hit_on=4, defender_hit_on=6)
    assert r.captured_by[1] == pytest.approx(5 / 12, abs=1e-15)
    assert r.captured_by[2] == pytest.approx(5 / 12 + 5 / 12 * 5 / 12, abs=1e-15)
    assert r["siege_broken"] == pytest.approx(1 / 6 + 5 / 12 / 6, abs=1e-15)
    assert r["still_besieged"] == pytest.approx((5 / 12) ** 2, abs=1e-15)


@pytest.mark.parametrize("kw", [
    dict(attacker=7, attacker_cavalry=2, defender=4, defender_cavalry=1, assaults=4,
         attacker_hit_on=4, defender_hit_on=6, casualties="infantry-first",
         attacker_fresh_cards=["siege-artillery:if-needed"]),
    dict(attacker=6, defender=3, defender_leader=1, assaults=4, attacker_hit_on=6,
         defender_hit_on=3, attacker_cards=["siege-artillery:optimal"]),  # the held-copy engine
])
def test_siege_exact_and_monte_carlo_agree(kw):
    engines_agree(siege, kw, trials=200_000, seed=11)


def test_kept_transitions_are_kept_per_hit_numbers():
    from odds.his.sieges.procedure import TRANSITIONS

    kw = dict(attacker=9, defender=3, assaults=5, attacker_leader=1)
    TRANSITIONS.clear()
    cold = siege(**kw, attacker_hit_on=3).to_json()
    TRANSITIONS.clear()
    rule = siege(**kw).to_json()  # the same templates but for their hit numbers
    assert siege(**kw, attacker_hit_on=3).to_json() == cold != rule


def test_attack_one_against_one_by_hand():
    # The battle: 1 attacker die on 4-6 (1/2) against 2 defender dice on 6 (1/6 each): the
    # attacker wins with a hit and no hit back, 1/2 * (5/6)^2 = 25/72, and kills the defender.
    # The siege of the empty space, the same numbers: 1/2 * 5/6 = 5/12.
    r = attack(1, 1, assaults=1, attacker_hit_on=4, defender_hit_on=6)
    assert r["battle_won"] == pytest.approx(25 / 72, abs=1e-15)
    assert r["captured"] == pytest.approx(25 / 72 * 5 / 12, abs=1e-15)
    assert r.settings["attacker_hit_on"] == 4 and r.settings["defender_hit_on"] == 6
    b = attack(3, 1, besieged=True, assaults=2, attacker_hit_on=4, defender_hit_on=6)
    assert b["captured"] == siege(3, 1, assaults=2, attacker_hit_on=4, defender_hit_on=6)["captured"]


@pytest.mark.parametrize("kw", [
    dict(attacker=6, defender=3, assaults=2, attacker_hit_on=4, defender_hit_on=6,
         siege_cards=["siege-artillery:if-needed"]),
    dict(attacker=5, attacker_leader=1, defender=3, avoid_battle=True, assaults=2,
         attacker_hit_on=6, defender_hit_on=3, siege_cards=["siege-mining"]),
])
def test_attack_exact_and_monte_carlo_agree_after_the_rule_s_sieges_were_kept(kw):
    attack(**{**kw, "attacker_hit_on": 5, "defender_hit_on": 5})  # keeps the rule's sieges
    engines_agree(attack, kw, trials=120_000, seed=11)
