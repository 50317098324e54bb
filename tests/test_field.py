"""Here I Stand field battles: hand cases, the slow reference, exact vs Monte Carlo, cards."""
from fractions import Fraction

import pytest

import odds
from odds.his import field_battle
from reference_field import battle

F = Fraction


# --- hand-computed -------------------------------------------------------------------------

def test_one_unit_against_one():
    # attacker rolls 1 die, defender 1 unit + 1 = 2 dice; hits on 5-6 (p = 1/3)
    r = field_battle(1, 1)
    p_a1 = F(1, 3)
    p_d0 = F(2, 3) ** 2
    assert r["attacker_win"] == pytest.approx(float(p_a1 * p_d0))  # 4/27
    assert r["attacker_eliminated"] == pytest.approx(float(1 - p_d0))  # any defender hit
    # both wiped out when the attacker hits and the defender hits: defender rolled more dice
    assert r["both_eliminated_rule"] == pytest.approx(float(p_a1 * (1 - p_d0)))
    assert r["defender_eliminated"] == pytest.approx(float(p_a1 * p_d0))
    assert r["attacker_losses"][1] == pytest.approx(5 / 9)


def test_a_side_with_no_units_is_refused():
    """A field battle needs units on both sides (a leader alone does not fight one)."""
    with pytest.raises(odds.OddsError, match="defender: 0 units: a field battle needs units on both sides"):
        field_battle(2, 0, defender_leader=1)


def test_equal_dice_both_wiped_defender_keeps_one():
    # 1 unit + leader 1 (2 dice) vs 1 unit (2 dice): both hit -> equal dice -> defender keeps 1
    r = field_battle(1, 1, attacker_leader=1)
    p_hit_any = 1 - (2 / 3) ** 2
    assert r["both_eliminated_rule"] == pytest.approx(p_hit_any**2)
    assert r["attacker_eliminated"] == pytest.approx(p_hit_any)
    assert r["defender_eliminated"] == pytest.approx(p_hit_any * (4 / 9))


def test_more_dice_keeps_one():
    # 1 unit + leader 3 (4 dice) vs 1 unit (2 dice): when both wiped, the attacker keeps 1
    r = field_battle(1, 1, attacker_leader=3)
    p_a = 1 - (2 / 3) ** 4
    p_d = 1 - (2 / 3) ** 2
    assert r["defender_eliminated"] == pytest.approx(p_a)
    assert r["attacker_eliminated"] == pytest.approx(p_d * (1 - p_a))


# --- the slow reference ----------------------------------------------------------------------

REFERENCE_CASES = [
    # (kwargs, reference args)
    (dict(attacker=3, defender=2), dict(ua=3, ud=2, a_extra=0, d_extra=1)),
    (dict(attacker=2, defender=3, attacker_leader=2, defender_leader=1),
     dict(ua=2, ud=3, a_extra=2, d_extra=2)),
    (dict(attacker=3, defender=2, attacker_cards=["surprise-attack"]),
     dict(ua=3, ud=2, a_extra=0, d_extra=1, surprise="attacker")),
    (dict(attacker=2, defender=3, defender_cards=["surprise-attack"]),
     dict(ua=2, ud=3, a_extra=0, d_extra=1, surprise="defender")),
    (dict(attacker=3, defender=3, attacker_power="ottoman", attacker_cards=["janissaries:always"]),
     dict(ua=3, ud=3, a_extra=0, d_extra=1, jan=("attacker", 5, "always"))),
    (dict(attacker=3, defender=2, defender_power="ottoman", defender_cards=["janissaries:if-needed"]),
     dict(ua=3, ud=2, a_extra=0, d_extra=1, jan=("defender", 5, "if-needed"))),
    (dict(attacker=2, defender=3, attacker_power="ottoman",
          attacker_cards=["janissaries:if-needed"], defender_cards=["surprise-attack"]),
     dict(ua=2, ud=3, a_extra=0, d_extra=1, surprise="defender", jan=("attacker", 5, "if-needed"))),
    (dict(attacker=2, defender=2, attacker_power="hapsburg", attacker_cards=["tercios"]),
     dict(ua=2, ud=2, a_extra=0, d_extra=1, a46=3)),
    (dict(attacker=4, defender=3, defender_power="hapsburg", attacker_cards=["tercios"]),
     dict(ua=4, ud=3, a_extra=0, d_extra=1 - 3)),
    (dict(attacker=2, defender=2, attacker_power="france", attacker_cards=["field-artillery"],
          defender_cards=["arquebusiers"]),
     dict(ua=2, ud=2, a_extra=3, d_extra=3)),
]


@pytest.mark.parametrize("kwargs, ref", REFERENCE_CASES)
def test_exact_matches_slow_reference(kwargs, ref):
    r = field_battle(**kwargs)
    expected = battle(**ref)
    ua, ud = len(r["attacker_losses"]) - 1, len(r["defender_losses"]) - 1
    win = sum(p for (w, _, _), p in expected.items() if w)
    assert r["attacker_win"] == pytest.approx(float(win), abs=1e-12)
    for k in range(ua + 1):
        want = sum(p for (_, a, _), p in expected.items() if a == k)
        assert r["attacker_losses"][k] == pytest.approx(float(want), abs=1e-12)
    for k in range(ud + 1):
        want = sum(p for (_, _, d), p in expected.items() if d == k)
        assert r["defender_losses"][k] == pytest.approx(float(want), abs=1e-12)


def test_precision_target_stops_early_and_is_met():
    r = field_battle(5, 5, method="mc", precision=0.005, seed=3)
    assert r.trials < 10**7
    assert 1.96 * r.se(r.p) < 0.005
    assert not r.notes


def test_precision_target_that_cannot_be_met_says_so():
    r = field_battle(5, 5, method="mc", precision=1e-5, max_trials=200_000, seed=3)
    assert r.trials == 200_000
    assert "not reached" in r.notes[0]


# --- properties ---------------------------------------------------------------------------

def test_more_attacking_units_never_lower_the_odds():
    for defender in range(1, 8):
        wins = [field_battle(a, defender).p for a in range(1, 12)]
        assert all(x <= y + 1e-12 for x, y in zip(wins, wins[1:])), defender


def test_more_defending_units_never_raise_the_attackers_odds():
    for attacker in range(1, 8):
        wins = [field_battle(attacker, d).p for d in range(1, 10)]
        assert all(x >= y - 1e-12 for x, y in zip(wins, wins[1:])), attacker


# --- card effects ---------------------------------------------------------------------------

@pytest.mark.parametrize("power, cards, units_at_roll", [
    ("hapsburg", ["landsknechts"], 7), ("france", ["landsknechts"], 5),
    ("france", ["swiss-mercenaries"], 7), ("papacy", ["swiss-mercenaries"], 5),
])
def test_mercenary_responses_add_units(power, cards, units_at_roll):
    r = field_battle(3, 3, attacker_power=power, attacker_cards=cards)
    assert r.settings["attacker_units_at_roll"] == units_at_roll
    assert len(r["attacker_losses"]) == units_at_roll + 1


def test_ottoman_landsknechts_removes_two_enemy_mercenaries():
    r = field_battle(3, 5, defender_mercenaries=3, attacker_power="ottoman",
                     attacker_cards=["landsknechts"])
    assert r.settings["defender_units_at_roll"] == 3


def test_mercenaries_bribed_moves_half_rounded_up():
    r = field_battle(4, 5, defender_mercenaries=3, attacker_cards=["mercenaries-bribed"])
    assert r.settings["attacker_units_at_roll"] == 6
    assert r.settings["defender_units_at_roll"] == 3


def test_tercios_needs_three_regulars_to_cut_dice():
    few = field_battle(4, 3, defender_mercenaries=1, defender_power="hapsburg", attacker_cards=["tercios"])
    plain = field_battle(4, 3, defender_mercenaries=1, defender_power="hapsburg")
    assert few.p == pytest.approx(plain.p)  # 2 regulars: no effect
    many = field_battle(4, 3, defender_power="hapsburg", attacker_cards=["tercios"])
    assert many.p > plain.p


def test_janissaries_if_needed_between_never_and_always():
    kw = dict(attacker=4, defender=4, defender_power="ottoman")
    never = field_battle(**kw).p
    needed = field_battle(**kw, defender_cards=["janissaries:if-needed"]).p
    always = field_battle(**kw, defender_cards=["janissaries:always"]).p
    # the defender wins as often with if-needed as with always: the card only matters when losing
    assert needed == pytest.approx(always)
    assert needed < never
    # but playing it always costs the attacker more units on average
    a = field_battle(**kw, defender_cards=["janissaries:always"])
    n = field_battle(**kw, defender_cards=["janissaries:if-needed"])
    assert a.expected("attacker_losses") > n.expected("attacker_losses")


def test_siege_begins_only_when_the_attacker_wins_and_outnumbers():
    r = field_battle(6, 3, fortified=True)
    assert 0 < r["siege_begins"] <= r["attacker_win"]
    big = field_battle(6, 3, fortified=True, withdraw_inside=0)
    assert big["siege_begins"] == pytest.approx(big["attacker_win"])


# --- results --------------------------------------------------------------------------------

def test_frame_and_json_are_consistent():
    r = field_battle(5, 4, attacker_leader=1)
    df = r.to_frame()
    assert list(df.columns) == ["outcome", "value", "p", "p_at_least", "p_at_most", "se"]
    losses = df[df.outcome == "attacker_losses"]
    assert losses.p.sum() == pytest.approx(1)
    assert losses.p_at_least.iloc[0] == pytest.approx(1)
    assert losses.p_at_most.iloc[-1] == pytest.approx(1)
    j = r.to_json()
    assert j["attacker_win"] == r.p and j["attacker_win_se"] == 0
    assert sum(j["defender_losses"].values()) == pytest.approx(1)
    assert "attacker win" in r.summary()


def test_exact_path_does_not_import_numba():
    import subprocess
    import sys

    code = ("import sys, odds; odds.his.field_battle(5, 4, attacker_leader=1); "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=600)
    assert out.stdout.strip() == "False"


# --- bad input ------------------------------------------------------------------------------

BAD = [
    (dict(attacker=-1, defender=3), "attacker"),
    (dict(attacker=0, defender=3), "attacker"),
    (dict(attacker=3, defender=3, attacker_mercenaries=2, attacker_cavalry=2), "attacker_mercenaries"),
    (dict(attacker=3, defender=3, defender_leader=7), "defender_leader"),
    (dict(attacker=3, defender=3, attacker_cards=["pikemen"]), "unknown card"),
    (dict(attacker=3, defender=3, attacker_cards=["janissaries"]), "only the ottoman"),
    (dict(attacker=3, defender=3, attacker_power="ottoman", attacker_cards=["mercenaries-bribed"]),
     "ottoman"),
    (dict(attacker=3, defender=3, attacker_cards=["tercios"]), "hapsburg"),
    (dict(attacker=3, defender=3, attacker_cards=["surprise-attack"], defender_cards=["surprise-attack"]),
     "named twice"),
    (dict(attacker=3, defender=3, attacker_cards=["arquebusiers:if-needed"]), "takes no policy"),
    (dict(attacker=3, defender=3, attacker_power="ottoman", attacker_cards=["janissaries:sometimes"]),
     "unknown policy"),
    (dict(attacker=3, defender=3, attacker_power="venice"), "attacker_power"),
    (dict(attacker=3, defender=3, method="mc", trials=0), "trials"),
    (dict(attacker=3, defender=3, method="guess"), "method"),
    (dict(attacker="three", defender=3), "not a whole number"),
    (dict(attacker=3.5, defender=3), "not a whole number"),
    (dict(attacker=3, defender=3, withdraw_inside=4), "withdraw_inside"),
    (dict(attacker=3, defender=3, method="mc", precision=2), "precision"),
]


@pytest.mark.parametrize("kwargs, words", BAD)
def test_bad_input_raises_odds_error(kwargs, words):
    with pytest.raises(odds.OddsError, match=words) as info:
        field_battle(**kwargs)
    assert "\n" not in str(info.value)

