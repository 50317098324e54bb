"""The whole attack: hand case, reductions to the single procedures, Monte Carlo, bad input."""
import numpy as np
import pytest

from agreement import engines_agree
from odds import OddsError, cli
from odds.his import attack, field_battle, interception, siege
from odds.his.field.procedure import exact_joint as field_joint, forces, setup


def test_one_against_one_by_hand():
    # battle: the attacker rolls 1 die, the defender 2 (unit + 1); the attacker wins only
    # with a hit and no defender hit: 1/3 * 4/9 = 4/27, losing nothing and killing the
    # defender. The siege of the empty space: 1 die (not halved) against the defender's
    # lone +1 die: a hit and no hit back, 1/3 * 2/3 = 2/9.
    r = attack(1, 1, assaults=1)
    assert r["battle_won"] == pytest.approx(4 / 27)
    assert r["battle_lost"] == pytest.approx(23 / 27)
    assert r["captured"] == pytest.approx(4 / 27 * 2 / 9)
    assert r["assaults"] == pytest.approx([23 / 27, 4 / 27])
    assert r["battle_avoided"] == 0 and r["card_kept"] == 0


def test_foreign_war_is_a_field_battle_without_the_defenders_die():
    kw = dict(attacker=5, attacker_leader=1, defender=4, defender_cavalry=1)
    r = attack(**kw, defender_leader=2, foreign_war=True, assaults=2)
    f = field_battle(**kw, defender_leader=1)  # leader 1 + the +1 die = leader 2 without it
    assert r["captured"] == pytest.approx(f["attacker_win"]) == pytest.approx(r["battle_won"])
    np.testing.assert_allclose(r["attacker_losses"], f["attacker_losses"], atol=1e-12)
    np.testing.assert_allclose(r["defender_losses"], f["defender_losses"], atol=1e-12)
    assert r["siege_begins"] == 0


@pytest.mark.parametrize("a,leader,d,dleader,k", [(5, 1, 3, 1, 2), (6, 0, 4, 2, 3), (3, 2, 2, 0, 1)])
def test_avoid_then_empty_space_is_the_product_of_the_single_procedures(a, leader, d, dleader, k):
    # nobody withdraws inside: a won battle is followed by a siege of the empty space by the
    # survivors; an avoided battle by the siege of the empty space by the whole stack
    r = attack(a, d, attacker_leader=leader, defender_leader=dleader, avoid_battle=True,
               withdraw_inside=0, assaults=k)
    q = interception(kind="avoid-battle", leader=dleader)["success"]
    att, dfn = forces(a, d, 0, 0, leader, "other", (), 0, 0, dleader, "other", ())
    joint = field_joint(*setup(att, dfn))
    won = (joint[1] + joint[3]).sum(axis=1)  # P(attacker won, attacker losses)
    empty = lambda units: siege(units, 0, attacker_leader=leader, assaults=k)["captured"]
    want = q * empty(a) + (1 - q) * sum(p * empty(a - al) for al, p in enumerate(won)
                                         if p > 0 and al < a)
    assert r["battle_avoided"] == pytest.approx(q)
    assert r["battle_won"] == pytest.approx((1 - q) * won.sum())
    assert r["captured"] == pytest.approx(want, abs=1e-12)


def test_withdrawn_defenders_are_besieged_like_a_siege():
    # a 1-unit defender always dies or wins; with defender 2 units and withdraw_inside=1 the
    # siege after a won battle is siege(survivors, 1) whenever one defender survives
    r = attack(6, 2, defender_leader=1, withdraw_inside=1, assaults=2)
    att, dfn = forces(6, 2, 0, 0, 0, "other", (), 0, 0, 1, "other", ())
    joint = field_joint(*setup(att, dfn))
    won = joint[1] + joint[3]
    want = 0.0
    for al in range(7):
        for dl in range(3):
            if won[al, dl] == 0:
                continue
            inside = min(2 - dl, 1)
            if 6 - al > inside:
                want += won[al, dl] * siege(6 - al, inside, defender_leader=inside,
                                            assaults=2)["captured"]
    assert r["captured"] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("kw", [
    dict(attacker=7, attacker_cavalry=2, attacker_leader=1, defender=5, defender_cavalry=1,
         defender_leader=1, avoid_battle=True, withdraw_inside=3, assaults=3,
         siege_cards=["siege-mining", "siege-artillery:if-it-helps"], casualties="infantry-first"),
    dict(attacker=6, defender=4, attacker_power="ottoman", attacker_cards=["janissaries"],
         defender_cards=["surprise-attack"], assaults=2, siege_cards=["siege-artillery:optimal"]),
])
def test_exact_and_monte_carlo_agree(kw):
    engines_agree(attack, kw, trials=120_000, seed=7)


@pytest.mark.parametrize("kw", [
    dict(siege_cards=["surprise-attack"]),
    dict(siege_cards=["siege-artillery:sometimes"]),
    dict(avoid_battle=True, foreign_war=True),
    dict(withdraw_inside=5),
    dict(assaults=0),
])
def test_bad_input_is_one_line(kw, capsys):
    kw = {"assaults": 2, **kw}
    with pytest.raises(OddsError) as e:
        attack(6, 3, **kw)
    assert "\n" not in str(e.value)
    if "siege_cards" in kw:
        assert str(e.value).startswith("siege_cards")
        argv = ["his", "attack", "--attacker", "6", "--defender", "3", "--assaults", "2",
                "--siege-card", kw["siege_cards"][0]]
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_an_attack_too_large_to_solve_exactly_is_refused_in_one_line_not_a_hang():
    with pytest.raises(OddsError, match=r"^method: 'exact': .* sieges.*allowed: at most "
                       r"5,000,000.*; use method='mc' or fewer units or assaults$"):
        attack(200, 100, assaults=100, method="exact")
    with pytest.raises(OddsError, match=r"^siege_cards: 'siege-artillery:optimal' .*for Monte "
                       r"Carlo too"):
        attack(200, 100, assaults=100, siege_cards=["siege-artillery:optimal"], method="mc")


@pytest.mark.parametrize("kw, ways", [
    (dict(defender_power="ottoman", defender_cavalry=1, defender_leader=1), 21),  # 2d6 >= 7
    (dict(attacker_power="ottoman", attacker_cavalry=1, defender_leader=1), 10),  # 2d6 >= 9
    (dict(defender_leader=1), 15),                                                # 2d6 >= 8
])
def test_avoid_battle_reads_the_cavalry_modifiers(kw, ways):
    r = attack(attacker=5, defender=3, avoid_battle=True, assaults=1, **kw)
    assert r["battle_avoided"] == pytest.approx(ways / 36, abs=1e-15)


def test_kept_sieges_give_the_same_answer():
    from odds.his.sieges.stage import JOINTS

    JOINTS.clear()
    kw = dict(attacker=9, defender=4, assaults=3, siege_cards=["siege-artillery:optimal"])
    cold = attack(**kw).to_json()
    assert len(JOINTS) > 1
    assert attack(**kw).to_json() == cold


def test_the_exact_sieges_are_kept_by_the_sieges_folder_not_by_the_attack(monkeypatch):
    """The sieges an attack solves exactly are kept in the sieges folder's store
    (sieges.stage.JOINTS), which another query, or anyone asking sieges.stage.joint, reads
    solved; the attack module keeps no cache of its own. (his.siege solves its one siege per
    query, with its own plan and every timing compared: it has no use for the store.)"""
    from odds.core.lru import LRU
    from odds.his.attacks import procedure
    from odds.his.sieges import stage

    assert [name for name, value in vars(procedure).items()
            if isinstance(value, LRU) or hasattr(value, "cache_info")] == []
    stage.JOINTS.clear()
    kw = dict(attacker=8, attacker_leader=1, defender=4, assaults=3,
              siege_cards=["siege-artillery:if-needed"])
    cold = attack(**kw).to_json()
    kept = dict(stage.JOINTS.items)
    assert len(kept) > 1
    solved = []
    monkeypatch.setattr(stage.Siege, "joint", lambda siege: solved.append(siege.start))
    assert attack(**kw).to_json() == cold
    assert all(stage.joint(*key) is joint for key, joint in kept.items())
    assert solved == []
