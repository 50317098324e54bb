"""Here I Stand siege (repeated assaults): Markov chain vs simulation, reference, hand cases."""
from fractions import Fraction as F

import numpy as np
import pytest

import his_assault_reference as ref
from odds import OddsError, cli
from odds.his import assault, siege

@pytest.mark.parametrize("ai,ac,di,dc,aleader,dleader,k,art,every,cav_first", [
    (4, 2, 2, 1, 1, 0, 4, None, False, True),
    (4, 2, 2, 1, 1, 0, 4, None, False, False),
    (3, 3, 1, 2, 0, 1, 5, "if-needed", True, True),
    (5, 1, 2, 0, 0, 0, 3, "always", True, False),
    (5, 1, 3, 1, 1, 1, 3, "if-needed", False, True),
])
def test_matches_slow_reference(ai, ac, di, dc, aleader, dleader, k, art, every, cav_first):
    cards = [f"siege-artillery:{art}"] if art else []
    r = siege(ai + ac, di + dc, attacker_cavalry=ac, defender_cavalry=dc, attacker_leader=aleader,
              defender_leader=dleader, assaults=k,
              attacker_cards=[] if every else cards, attacker_fresh_cards=cards if every else [],
              casualties="cavalry-first" if cav_first else "infantry-first")
    want = ref.siege(ai, ac, di, dc, (aleader, dleader + 1), (aleader, dleader + 1), k, art, every,
                     cav_first)
    ends = {"captured": F(0), "broken": F(0), "still": F(0)}
    losses = np.zeros(len(r["attacker_losses"]))
    at = np.zeros(k + 1)
    for (end, j, lost), p in want.items():
        ends[end] += p
        losses[lost] += float(p)
        if end == "captured":
            at[j] += float(p)
    at[0] = 1 - at.sum()
    assert r["captured"] == pytest.approx(float(ends["captured"]), abs=1e-12)
    assert r["siege_broken"] == pytest.approx(float(ends["broken"]), abs=1e-12)
    assert r["still_besieged"] == pytest.approx(float(ends["still"]), abs=1e-12)
    np.testing.assert_allclose(r["attacker_losses"], losses, atol=1e-12)
    np.testing.assert_allclose(r["captured_at"], at, atol=1e-12)


def test_hand_computed_empty_space_two_assaults():
    # 1 infantry vs an empty space: each assault 1 die against the defender's 1 die.
    # success 1/3 * 2/3; defender hit wipes the attacker out (1/3, siege broken); else go on.
    r = siege(1, 0, assaults=2)
    assert r.captured_by[1] == pytest.approx(2 / 9)
    assert r.captured_by[2] == pytest.approx(2 / 9 + 4 / 9 * 2 / 9)
    assert r["siege_broken"] == pytest.approx(1 / 3 + 4 / 9 * 1 / 3)
    assert r["still_besieged"] == pytest.approx((4 / 9) ** 2)


def test_one_assault_siege_is_an_assault():
    kw = dict(attacker_cavalry=2, defender_cavalry=1, attacker_leader=1, defender_leader=1,
              attacker_cards=["siege-artillery:if-needed", "siege-mining"])
    a = assault(7, 3, **kw)
    s = siege(7, 3, assaults=1, **kw)
    assert s["captured"] == pytest.approx(a["success"])
    assert s["siege_broken"] == pytest.approx(a["withdraw"])
    assert s["still_besieged"] == pytest.approx(a["siege_continues"])
    np.testing.assert_allclose(s["attacker_losses"], a["attacker_losses"])


def test_held_artillery_first_and_if_needed_capture_alike_a_fresh_copy_every_assault_more():
    # `first` plays it at once; `if-needed` whenever the first assault would fail, so it is
    # spent by the end of that assault unless the space fell: same P(captured). A fresh copy
    # in every assault (the what-if list) helps every assault.
    first = siege(5, 3, assaults=4, attacker_cards=["siege-artillery:always"])
    needed = siege(5, 3, assaults=4, attacker_cards=["siege-artillery:if-needed"])
    assert needed.p == pytest.approx(first.p)
    fresh = siege(5, 3, assaults=4, attacker_fresh_cards=["siege-artillery:if-needed"])
    assert fresh.p > first.p > siege(5, 3, assaults=4).p


def test_casualty_order_matters_for_later_assaults():
    kw = dict(attacker_cavalry=3, defender_cavalry=2, assaults=5)
    cav = siege(8, 4, **kw)
    inf = siege(8, 4, casualties="infantry-first", **kw)
    assert cav.p > inf.p  # losing cavalry first keeps the dice-rolling infantry
    one = dict(kw, assaults=1)
    assert siege(8, 4, **one).p == pytest.approx(siege(8, 4, casualties="infantry-first", **one).p)


@pytest.mark.parametrize("kw", [
    dict(assaults=0),
    dict(assaults=101),
    dict(assaults=2.5),
    dict(assaults=3, attacker_cavalry=9),
    dict(assaults=3, defender_fresh_cards=["mercenaries-grow-restless"]),
    dict(assaults=3, attacker_fresh_cards=["surprise-attack"]),
    dict(assaults=3, attacker_fresh_cards=["mercenaries-bribed"], allow_bribed_surprise=True),
    dict(assaults=3, attacker_power="ottoman", attacker_fresh_cards=["landsknechts"]),
    dict(assaults=3, attacker_cards=["siege-mining"], attacker_fresh_cards=["siege-mining"]),
    dict(assaults=3, attacker_fresh_cards=["janissaries:always"]),
])
def test_bad_input_raises_odds_error(kw):
    with pytest.raises(OddsError):
        siege(5, 2, **kw)


@pytest.mark.parametrize("argv", [
    ["--attacker", "5", "--defender", "2", "--assaults", "0"],
    ["--attacker", "5", "--defender", "2"],
    ["--attacker", "5", "--defender", "2", "--assaults", "3", "--defender-fresh-card",
     "mercenaries-grow-restless"],
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert cli.main(["his", "siege", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("odds: error:") and "Traceback" not in err


def test_kept_transitions_give_the_same_answer():
    from odds.his.sieges.procedure import TRANSITIONS

    TRANSITIONS.clear()
    kw = dict(attacker=9, defender=3, assaults=5, attacker_leader=1, attacker_fresh_cards=["landsknechts"])
    cold = siege(**kw).to_json()
    assert len(TRANSITIONS) > 1
    assert siege(**kw).to_json() == cold
    # transitions kept by other sieges (other forces, same templates) are shared, not mixed up
    TRANSITIONS.clear()
    for other in (dict(kw, attacker=7), dict(kw, defender=4), dict(kw, assaults=3)):
        siege(**other)
    assert siege(**kw).to_json() == cold
