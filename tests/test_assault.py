"""Here I Stand assault (docs/rules.md, Assault): exact vs Monte Carlo, hand cases, reference, bad input."""
from fractions import Fraction as F

import numpy as np
import pytest

import his_assault_reference as ref
from odds import OddsError, cli
from odds.his import assault

def _check_reference(result, want):
    probs, al, dl = want
    for key in ("success", "continues", "withdraw", "cancelled"):
        name = "siege_continues" if key == "continues" else key
        assert result[name] == pytest.approx(float(probs[key]), abs=1e-12), name
    for name, pmf in (("attacker_losses", al), ("defender_losses", dl)):
        expected = np.zeros(len(result[name]))
        for k, p in pmf.items():
            expected[k] += float(p)
        np.testing.assert_allclose(result[name], expected, atol=1e-12)


@pytest.mark.parametrize("ai,ac,di,dc,aleader,dleader,mining,art,cancel", [
    (3, 1, 0, 0, 0, 0, False, None, 0),
    (5, 0, 0, 1, 1, 0, False, None, 0),
    (4, 2, 2, 1, 1, 1, True, None, 0),
    (3, 0, 2, 0, 0, 0, False, "if-needed", F(1, 4)),
    (6, 3, 3, 2, 2, 0, False, "always", 0),
    (1, 0, 1, 0, 0, 0, False, "if-needed", 0),
])
def test_matches_slow_reference(ai, ac, di, dc, aleader, dleader, mining, art, cancel):
    cards = (["siege-mining"] if mining else []) + ([f"siege-artillery:{art}"] if art else [])
    result = assault(ai + ac, di + dc, attacker_cavalry=ac, defender_cavalry=dc,
                     attacker_leader=aleader, defender_leader=dleader, attacker_cards=cards,
                     cancel_probability=float(cancel))
    want = ref.assault(ai, ac, di, dc, aleader + 3 * mining, dleader + 1, art, F(cancel))
    _check_reference(result, want)


def test_empty_space_rolls_every_infantry_die():
    # 3 infantry + 1 cavalry against an empty space: 3 dice (not halved), the defender 1 die.
    r = assault(4, 0, attacker_cavalry=1)
    assert r["success"] == pytest.approx(1 - (2 / 3) ** 3)  # >= 1 hit needed even with no one inside
    assert r["siege_continues"] == pytest.approx((2 / 3) ** 3)  # no hit: 3+ survivors outnumber 0
    assert r["withdraw"] == 0


def test_cavalry_only_defenders_halve_the_attack():
    # 3 infantry + 2 cavalry vs 1 cavalry: ceil(3/2) = 2 dice; the defender rolls only its +1 die.
    r = assault(5, 1, attacker_cavalry=2, defender_cavalry=1)
    assert r["success"] == pytest.approx(1 - (2 / 3) ** 2)
    assert r["siege_continues"] == pytest.approx((2 / 3) ** 2)
    np.testing.assert_allclose(r["attacker_losses"], [2 / 3, 1 / 3, 0, 0, 0, 0])


def test_success_needs_a_survivor():
    # 1 vs 1: attacker 1 die, defender 2 dice. Success only if the attacker hits and is not hit.
    r = assault(1, 1)
    assert r["success"] == pytest.approx(1 / 3 * 4 / 9)
    assert r["attacker_eliminated"] == pytest.approx(5 / 9)
    assert r["withdraw"] == pytest.approx(1 - 4 / 27)  # 1 survivor does not outnumber 1 defender
    assert r["siege_continues"] == 0


def test_success_needs_every_defender_gone():
    # 4 vs 2 infantry: attacker 2 dice, defender 3 dice; success only with 2 hits and a survivor.
    r = assault(4, 2)
    assert r["success"] == pytest.approx(1 / 9)  # 2 hits; the 3 defender dice cannot kill all 4
    # continues when the survivors still outnumber the defenders left
    cont = sum(F(1, 3) ** ah * F(2, 3) ** (2 - ah) * [1, 2, 1][ah] *
               F(1, 3) ** dh * F(2, 3) ** (3 - dh) * [1, 3, 3, 1][dh]
               for ah in range(3) for dh in range(4) if ah < 2 and 4 - dh > 2 - ah)
    assert r["siege_continues"] == pytest.approx(float(cont))


def test_mercenaries_grow_restless_removes_them_all():
    r = assault(6, 2, attacker_mercenaries=4, defender_cards=["mercenaries-grow-restless"])
    assert r.settings["attacker_units_at_roll"] == 2
    assert len(r["attacker_losses"]) == 3


def test_leaders_captured_and_displaced():
    r = assault(2, 1, attacker_leader=1, defender_leader=1)
    assert r["leaders_captured"] == r["success"] > 0
    assert r["leaders_displaced"] == r["attacker_eliminated"] > 0
    r = assault(2, 1)
    assert r["leaders_captured"] == 0 and r["leaders_displaced"] == 0


def test_gout_uses_the_next_best_rating():
    assert assault(5, 2, attacker_leader=3, gout=1).p == pytest.approx(assault(5, 2, attacker_leader=1).p)


def test_artillery_if_needed_wins_as_often_as_always():
    # if-needed plays whenever success is not yet there: same success, fewer defender losses
    a = assault(4, 3, attacker_cards=["siege-artillery:always"])
    b = assault(4, 3, attacker_cards=["siege-artillery:if-needed"])
    assert a["success"] == pytest.approx(b["success"])
    assert a.expected("defender_losses") >= b.expected("defender_losses")


@pytest.mark.parametrize("kw", [
    dict(attacker=3, defender=2, attacker_cavalry=4),
    dict(attacker=3, defender=2, defender_cavalry=3, defender_mercenaries=1),
    dict(attacker=3, defender=2, cancel_probability=1.5),
    dict(attacker=3, defender=2, cancel_probability=-0.1),
    dict(attacker=3, defender=2, attacker_cards=["janissaries"]),
    dict(attacker=3, defender=2, attacker_cards=["field-artillery"]),
    dict(attacker=3, defender=2, attacker_cards=["surprise-attack"]),
    dict(attacker=3, defender=2, defender_cards=["siege-artillery"]),
    dict(attacker=3, defender=2, attacker_cards=["mercenaries-grow-restless"]),
    dict(attacker=3, defender=2, attacker_cards=["siege-mining:always"]),
    dict(attacker=3, defender=2, attacker_cards=["siege-artillery:sometimes"]),
    dict(attacker=3, defender=2, attacker_leader=1, gout=2),
    dict(attacker=3, defender=2, casualties="random"),
    dict(attacker=3, defender=2, allow_bribed_surprise="yes"),
    dict(attacker=-1, defender=2),
    dict(attacker=3, defender=2, method="guess"),
])
def test_bad_input_raises_odds_error(kw):
    with pytest.raises(OddsError):
        assault(**kw)


@pytest.mark.parametrize("argv", [
    ["--attacker", "3", "--defender", "2", "--attacker-cavalry", "4"],
    ["--attacker", "3", "--defender", "2", "--cancel-probability", "2"],
    ["--attacker", "3", "--defender", "2", "--attacker-card", "tercios"],
    ["--attacker", "3", "--defender", "2", "--casualties", "random"],
    ["--attacker", "3"],
    ["--attacker", "x", "--defender", "2"],
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert cli.main(["his", "assault", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("odds: error:") and "Traceback" not in err
