"""Playing by the rulebook at its edges: named leaders, each game's vocabulary, card policies
and the assumptions a result rests on."""
import json

import pytest

from odds import OddsError
from odds.frontends.cli.main import main
from odds.his import assault, field_battle, interception, naval_battle, siege
from odds.his.leaders import ARMY, ASSUMPTION, NAVAL


@pytest.mark.parametrize("name", sorted(ARMY))
def test_a_named_leader_rolls_his_rating(name):
    rating = ARMY[name][1]
    named = field_battle(4, 3, attacker_leader=name)
    assert named.p == field_battle(4, 3, attacker_leader=rating).p
    assert named.settings["attacker_leader"] == f"{name} ({rating})"
    assert named.assumptions == (ASSUMPTION,)
    assert field_battle(4, 3, attacker_leader=rating).assumptions == ()


def test_naval_leaders_by_name_and_any_spelling():
    r = naval_battle(attacker_galleys=2, attacker_leader="Andrea Doria", defender_galleys=2,
                     location="mediterranean")
    assert r.p == naval_battle(attacker_galleys=2, attacker_leader=NAVAL["andrea-doria"][1],
                               defender_galleys=2).p
    assert interception(leader="barbarossa", naval=True).p == interception(leader=2, naval=True).p
    with pytest.raises(OddsError, match="unknown leader 'suleiman'.*barbarossa"):
        naval_battle(attacker_galleys=2, attacker_leader="suleiman", defender_galleys=2)


def test_a_leader_rated_zero_is_still_a_leader():
    """Henry II (0) leading a doomed assault is displaced; 'no leader' (0) is not."""
    # 1 attacking unit against 3 defenders (3 + 1 dice): the attacker rolls 1 die (halved,
    # rounded up); it is wiped out when the defenders score a hit: 1 - (2/3)^4
    named = assault(1, 3, attacker_leader="henry-ii", attacker_power="france")
    nobody = assault(1, 3, attacker_leader=0)
    wiped = 1 - (2 / 3) ** 4
    assert named["attacker_eliminated"] == pytest.approx(wiped, abs=1e-15)
    assert named["leaders_displaced"] == pytest.approx(wiped, abs=1e-15)
    assert nobody["attacker_eliminated"] == named["attacker_eliminated"]
    assert nobody["leaders_displaced"] == 0


def test_unknown_leader_lists_the_known_ones(capsys):
    assert main(["his", "field", "--attacker", "3", "--defender", "3", "--attacker-leader",
                 "napoleon"]) == 2
    err = capsys.readouterr().err
    assert "unknown leader 'napoleon'" in err and "suleiman" in err and err.count("\n") == 1


def test_virgin_queen_speaks_of_spain_and_here_i_stand_of_the_hapsburgs():
    vq = naval_battle(attacker_galleys=3, defender_galleys=3, defender_power="Spain")
    assert vq.settings["defender_power"] == "spain"
    with pytest.raises(OddsError, match="'hapsburg' is not allowed.*spain"):
        naval_battle(attacker_galleys=3, defender_galleys=3, defender_power="hapsburg")
    with pytest.raises(OddsError, match="'spain' is not allowed"):
        field_battle(3, 3, defender_power="spain")
    his = naval_battle(ruleset="his", attacker_squadrons=2, defender_squadrons=2,
                       defender_power="hapsburg")
    assert his.assumptions == ()


def test_virgin_queen_numbers_and_galleasses_are_readings(capsys):
    """The VQ dice per ship and Galleasses' dice are declared readings of vq.naval: marked,
    and the answer under each alternative given (issue 49)."""
    r = naval_battle(attacker_galleys=3, defender_galleys=3, defender_power="ottoman",
                     defender_cards=["galleasses"])
    assert r.assumptions == () and r.readings == ("dice_per",)
    assert [f["what"] for f in r.flips] == ["the Virgin Queen dice per ship", "Galleasses' dice"]
    assert "the Virgin Queen dice per ship, dice_per=galley 2 assumed" in r.summary()
    assert main(["vq", "naval", "--attacker-galleys", "2", "--defender-galleys", "2",
                 "--location", "atlantic", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["readings"] == ["dice_per"] and out["flips"][0]["alternatives"][0]["value"] == \
        "dice_per galley=1"


def test_a_card_named_alone_is_played_if_needed_and_the_result_says_so():
    kw = dict(attacker=4, defender=4, defender_power="ottoman")
    plain = field_battle(**kw, defender_cards=["janissaries"])
    assert plain.settings["defender_cards"] == ["janissaries:if-needed"]
    needed = field_battle(**kw, defender_cards=["janissaries:if-needed"])
    assert plain.p == needed.p and plain.pmfs["attacker_losses"].tolist() == \
        needed.pmfs["attacker_losses"].tolist()
    assert field_battle(**kw, defender_cards=["JANISSARIES:Always"]).settings["defender_cards"] \
        == ["janissaries:always"]


# --- card legality: every card x procedure x role x power, against the rulebook ------------

from odds.his.cards import CARDS  # noqa: E402
from odds.his.forces import POWERS  # noqa: E402
from odds.his.naval.ruleset import VQ_POWERS  # noqa: E402

# the rulebook, written out independently of odds.his.cards: card -> where and by whom
WHERE = {  # procedure -> roles that may play it there
    "landsknechts": {"field": "both", "assault": "attacker"},
    "swiss-mercenaries": {"field": "both", "assault": "attacker"},
    "mercenaries-bribed": {"field": "both"},
    "surprise-attack": {"field": "both"},
    "arquebusiers": {"field": "both", "his-naval": "both", "vq-naval": "both"},
    "field-artillery": {"field": "both"},
    "tercios": {"field": "both"},
    "janissaries": {"field": "both", "his-naval": "both"},
    "siege-mining": {"assault": "attacker"},
    "mercenaries-grow-restless": {"assault": "defender"},
    "siege-artillery": {"assault": "attacker"},
    "galleasses": {"vq-naval": "both"},
    "professional-rowers": {"his-naval": "both"},
}


def rulebook_allows(card, procedure, role, power, enemy) -> bool:
    roles = WHERE[card].get(procedure)
    if roles is None or roles not in ("both", role):
        return False
    if card == "janissaries" and power != "ottoman":
        return False
    if card == "swiss-mercenaries" and power == "ottoman":
        return False
    if card == "mercenaries-bribed" and "ottoman" in (power, enemy):
        return False
    return not (card == "tercios" and "hapsburg" not in (power, enemy))


def play(card, procedure, role, power, enemy):
    other = "defender" if role == "attacker" else "attacker"
    kw = {f"{role}_power": power, f"{other}_power": enemy, f"{role}_cards": [card]}
    if procedure == "field":
        return field_battle(5, 4, **kw)
    if procedure == "assault":
        return assault(6, 3, **kw)
    if procedure == "his-naval":
        return naval_battle(ruleset="his", attacker_squadrons=3, defender_squadrons=3, **kw)
    return naval_battle(attacker_galleys=3, defender_galleys=3, location="mediterranean", **kw)


def test_card_legality_matches_the_rulebook_everywhere():
    checked = 0
    for card in CARDS:
        for procedure in ("field", "assault", "his-naval", "vq-naval"):
            powers = VQ_POWERS if procedure == "vq-naval" else POWERS
            for role in ("attacker", "defender"):
                for power in powers:
                    for enemy in powers:
                        allowed = rulebook_allows(card, procedure, role, power, enemy)
                        try:
                            play(card, procedure, role, power, enemy)
                            refused = None
                        except OddsError as e:
                            refused = str(e)
                        assert (refused is None) == allowed, (card, procedure, role, power, enemy, refused)
                        if refused:
                            assert refused.startswith(f"{role}_cards: ") and "\n" not in refused
                        checked += 1
    assert checked == len(CARDS) * 2 * (3 * len(POWERS) ** 2 + len(VQ_POWERS) ** 2)


@pytest.mark.parametrize("argv, words", [
    (["his", "assault", "--attacker", "5", "--defender", "2", "--defender-card", "landsknechts"],
     "only the attacker may play it in an assault"),
    (["his", "field", "--attacker", "5", "--defender", "2", "--attacker-card", "tercios"],
     "played by hapsburg or against hapsburg"),
])
def test_illegal_cards_exit_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_tercios_without_effect_says_so():
    r = field_battle(4, 2, defender_power="hapsburg", attacker_cards=["tercios"])
    assert r.p == field_battle(4, 2, defender_power="hapsburg").p
    assert any("tercios had no effect" in n for n in r.notes)
    cut = field_battle(4, 3, defender_power="hapsburg", attacker_cards=["tercios"])
    assert cut.p > field_battle(4, 3, defender_power="hapsburg").p and not cut.notes


# --- rule fixes at the edges, by hand -----------------------------------------------------

def test_a_side_wiped_out_by_surprise_plays_no_janissaries():
    """5 attackers surprise 1 Ottoman unit holding Janissaries (always). The defender rolls
    only if the attacker's 5 dice miss (2/3)^5, and then cannot win a tie-free... it wins
    every such battle (0 hits tie to the defender); otherwise it is gone and plays nothing."""
    kw = dict(attacker_cards=["surprise-attack"], defender_power="ottoman",
              defender_cards=["janissaries:always"])
    r = field_battle(5, 1, **kw)
    assert r.p == pytest.approx(1 - (2 / 3) ** 5, abs=1e-15)
    assert r["defender_eliminated"] == pytest.approx(1 - (2 / 3) ** 5, abs=1e-15)
    from agreement import assert_agree

    assert_agree(r, field_battle(5, 1, **kw, method="mc", trials=400_000, seed=5))


def test_an_attacker_wiped_out_by_surprise_plays_no_siege_artillery():
    """1 attacker with Siege Artillery (always) is surprised by 3 defenders (4 dice): wiped
    out when they hit, 1 - (2/3)^4; it then rolls nothing and fires no artillery. Otherwise it
    rolls 1 die plus artillery (2 dice on 3-6): the assault succeeds only with 3 hits or more
    on 3 defenders, i.e. its 5-6 die and both artillery dice: 1/3 * (2/3)^2."""
    kw = dict(defender_cards=["surprise-attack"], attacker_cards=["siege-artillery:always"],
              allow_bribed_surprise=True)
    r = assault(1, 3, **kw)
    assert r["attacker_eliminated"] == pytest.approx(1 - (2 / 3) ** 4, abs=1e-15)
    assert r["success"] == pytest.approx((2 / 3) ** 4 * (1 / 3) * (2 / 3) ** 2, abs=1e-15)
    from agreement import assert_agree

    assert_agree(r, assault(1, 3, **kw, method="mc", trials=400_000, seed=6))


def test_restless_mercenaries_can_break_the_siege_before_the_assault():
    kw = dict(attacker_mercenaries=2, defender_cards=["mercenaries-grow-restless"],
              attacker_cards=["siege-artillery:always"])
    for method in ("exact", "mc"):
        r = assault(4, 2, **kw, method=method, trials=10_000)
        assert r["withdraw"] == 1 and r["success"] == 0 and r["attacker_eliminated"] == 0
        assert r["attacker_losses"][0] == 1 and r["defender_losses"][0] == 1
        assert any("the siege breaks" in n for n in r.notes)
        s = siege(4, 2, assaults=3, **kw, method=method, trials=10_000)
        assert s["siege_broken"] == 1 and s["attacker_losses"][0] == 1
    # all the besiegers were mercenaries: they leave, nobody is eliminated
    gone = assault(3, 2, attacker_mercenaries=3, defender_cards=["mercenaries-grow-restless"])
    assert gone["withdraw"] == 1 and gone["attacker_eliminated"] == 0
    # still outnumbering after they leave: the assault is rolled as usual
    rolled = assault(5, 2, attacker_mercenaries=2, defender_cards=["mercenaries-grow-restless"])
    assert 0 < rolled["success"] < 1 and not rolled.notes


def test_at_most_four_units_withdraw_inside():
    """9 attack 6 in a fortified space; by default the survivors withdraw, at most 4."""
    r = field_battle(9, 6, fortified=True)
    assert r["siege_begins"] == field_battle(9, 6, withdraw_inside=4)["siege_begins"]
    fewer, more = (field_battle(5, 6, withdraw_inside=k)["siege_begins"] for k in (2, 4))
    assert fewer > more > 0  # fewer defenders inside: a siege begins more often
    with pytest.raises(OddsError, match="withdraw_inside: 5 is out of range \\(allowed: 0 to 4\\)"):
        field_battle(9, 6, withdraw_inside=5)


def test_probabilities_never_exceed_one():
    """Summing many floating-point terms overshoots 1 (a 50-galley fleet gave 1 + 6e-14)."""
    r = naval_battle(attacker_galleys=50, defender_galleys=1, location="mediterranean")
    assert all(0 <= p <= 1 for p in r.probabilities.values())
    assert all(((pmf >= 0) & (pmf <= 1)).all() for pmf in r.pmfs.values())
    assert r.p == 1.0


def _binomial(n):
    from math import comb

    return [comb(n, k) * (1 / 3) ** k * (2 / 3) ** (n - k) for k in range(n + 1)]


def test_how_often_an_after_roll_card_is_played_by_hand():
    """If-needed: played exactly when its side would not win as the dice stand."""
    two, three = _binomial(2), _binomial(3)
    # naval, 1 galley each (2 dice each): the defender (ties win) needs Galleasses when a > d
    needs = sum(two[a] * two[d] for a in range(3) for d in range(3) if a > d)
    r = naval_battle(attacker_galleys=1, defender_galleys=1, defender_power="ottoman",
                     defender_cards=["galleasses"], location="mediterranean")
    assert needs == pytest.approx(24 / 81) and r["defender_plays_galleasses"] == pytest.approx(needs)
    # field, 2 v 2: the Ottoman defender (3 dice) needs Janissaries when the attacker (2) is ahead
    needs = sum(two[a] * three[d] for a in range(3) for d in range(4) if a > d)
    f = field_battle(2, 2, defender_power="ottoman", defender_cards=["janissaries"])
    assert f["defender_plays_janissaries"] == pytest.approx(needs, abs=1e-15)
    # assault, 2 v 1: Siege Artillery when the assault would fail; the attacker rolls 1 die
    # (halved), the defender 2: success needs the hit and one of the 2 attackers left (at most
    # one defender hit): 1/3 * 8/9
    s = assault(2, 1, attacker_cards=["siege-artillery"])
    assert s["attacker_plays_siege_artillery"] == pytest.approx(1 - (1 / 3) * (8 / 9), abs=1e-15)
