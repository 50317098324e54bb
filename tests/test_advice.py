"""The decision in words (odds/his/advice.py): its numbers are the engines', its rule the
optimal table's, and the whole attack on a besieged space is the siege."""
import re

import numpy as np
import pytest

from agreement import engines_agree
from odds import OddsError, cli
from odds.his import attack, siege
from odds.his.sieges import advice as A
from odds.his.sieges import timing as T
from odds.his.assaults.procedure import forces
from odds.his.assaults.rules import resolve
from odds.his.sieges.procedure import plan

HELD = dict(attacker=7, attacker_cavalry=2, attacker_leader=1, defender=3, defender_leader=1,
            assaults=6)
PCT = r"(\d+\.\d\d)%"


def percents(text):
    return [float(x) / 100 for x in re.findall(PCT, text)]


def chain(a, d, k, leader=0, defender_leader=0, cavalry=0):
    att, dfn = forces(a, d, 0, cavalry, leader, "other", ("siege-artillery:always",), 0, 0,
                      defender_leader, "other", ())
    return T.Chain(plan(att, dfn, (), (), leader, None), k, True, True)


def test_the_sentence_by_hand():
    # 2 infantry vs 1, one assault (tests/test_siege_timing.py): 8/27 without the card,
    # 200/243 with it played when the roll misses and the attacker survives
    r = siege(2, 1, assaults=1, attacker_cards=["siege-artillery:optimal"])
    assert r.advice[0] == ("Now: play Siege Artillery if this roll leaves you short and its 2 "
                           "dice can still win.")
    assert percents(r.advice[1]) == pytest.approx([round(8 / 27, 4), round(200 / 243, 4)], abs=1e-9)
    assert "keep it (there is no next assault)" in r.advice[2]


def test_the_numbers_are_the_engines():
    r = siege(**HELD, attacker_cards=["siege-artillery:optimal"])
    never, best = percents(r.advice[1])
    assert never == pytest.approx(round(siege(**HELD)["captured"], 4), abs=1e-9)  # no card
    assert best == pytest.approx(round(r["captured"], 4), abs=1e-9)
    tie = next(line for line in r.advice if " tie at " in line)
    rows = {}
    for timing in ("first", "if-needed", "optimal"):  # each timing computed on its own
        alone = siege(**HELD, attacker_cards=[f"siege-artillery:{timing}"])
        rows[timing] = alone
        assert f"{alone['card_kept']:.2%} ({timing})" in tie
        assert f"{alone.expected('attacker_losses'):.2f} ({timing})" in tie
        assert alone["captured"] == pytest.approx(r["captured"], abs=1e-12)
    assert "if-it-helps" not in tie  # it captures less: no tie
    assert r.to_json()["advice"] == list(r.advice)
    assert "advice: Now: " in r.summary()


def numbers(text):
    """{1, 2, 3, 5} of '1-3, 5'."""
    out = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        out |= set(range(int(low), int(high or low) + 1))
    return out


def leaves(text):
    """{(yours, defenders)} of 'A-B, C of yours against D defenders or E against F-G
    defenders ...'."""
    return {(y, d) for yours, ds in re.findall(r"([\d, -]+?)(?: of yours)? against ([\d, -]+?) "
                                               r"defenders?", text)
            for y in numbers(yours) for d in numbers(ds)}


def parse_cell(sentence, situation):
    """What the sentence says of one situation: ('play'|'keep', pairs or None for 'always');
    a roll that takes the space unaided is named only where the card is played there."""
    if A.when(situation) not in sentence:
        assert situation == A.SITUATIONS[0], (situation, sentence)
        return "keep", None
    text = sentence.split(A.when(situation) + ", ")[1]
    text = re.split(r"; if the roll", text)[0]
    m = re.match(r"(play|keep) it when the roll leaves (.*), else (play|keep) it", text)
    if m:
        return m[1], leaves(m[2])
    return re.match(r"(play|keep) it", text)[1], None


@pytest.mark.parametrize("a,d,k,leader,cavalry", [(7, 3, 6, 1, 2), (6, 3, 4, 0, 0),
                                                  (9, 3, 3, 2, 0), (4, 4, 2, 0, 0)])
def test_every_cell_is_told_and_the_words_are_the_rule(a, d, k, leader, cavalry):
    c = chain(a, d, k, leader, 1 if a == 7 else 0, cavalry)
    lines = A.siege(c, T.compare(c))
    assert not any("depends" in line for line in lines)
    by_assault = {}
    for line in lines[1:]:
        m = re.match(r"assaults? (\d+)(?:-(\d+))?: (.*)", line)
        if m:
            for j in range(int(m[1]), int(m[2] or m[1]) + 1):
                by_assault[j] = m[3]
    assert sorted(by_assault) == list(range(1, k + 1))
    checked = 0
    for (j, state), best in T.optimal_table(c)[0].items():  # every decision the rule makes
        ah, dh, pr, able, fail, helps = c.rows(j, state)
        ua, ud = state[0] + state[1], state[2] + state[3]
        _, al, dl = resolve(ah, dh, ua, ud)
        for i in np.flatnonzero(able & (pr > 0)):
            situation = T.SITUATIONS[0 if not fail[i] else 1 if helps[i] else 2]
            verb, pairs = parse_cell(by_assault[j + 1], situation)
            said = verb == "play" if pairs is None or (ua - al[i], ud - dl[i]) in pairs \
                else verb != "play"
            assert said == bool(best[i]), (j, state, situation, by_assault[j + 1])
            checked += 1
    assert checked > 10


def test_no_gain_says_keep():
    # 6 infantry roll 3 dice, the card 2 more: 5 hits never take a space held by 6
    r = siege(6, 6, assaults=1, attacker_cards=["siege-artillery:optimal"])
    assert r["captured"] == 0
    assert r.advice[0].startswith("Keep Siege Artillery: playing it does not raise P(captured)")


def test_command_line_prints_the_decision(capsys):
    argv = ["his", "siege", "--attacker", "7", "--attacker-cavalry", "2", "--attacker-leader",
            "1", "--defender", "3", "--defender-leader", "1", "--assaults", "6",
            "--attacker-card", "siege-artillery:optimal"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "\n  advice: Now: " in out and "assault 6:" in out


BESIEGED = dict(attacker=7, attacker_leader=1, defender=3, defender_leader=1, assaults=4)


def test_a_besieged_space_is_the_siege():
    r = attack(**BESIEGED, besieged=True, siege_cards=["siege-artillery:optimal"])
    s = siege(**BESIEGED, attacker_cards=["siege-artillery:optimal"])
    assert r.procedure == "his.attack" and r.settings["besieged"] is True
    assert r["captured"] == s["captured"] and r.advice == s.advice
    assert np.array_equal(r.pmfs["attacker_losses"], s.pmfs["attacker_losses"])
    assert any("no field battle" in n for n in r.notes)
    assert r["captured"] > attack(**BESIEGED)["captured"]  # no battle to lose first
    engines_agree(attack, dict(BESIEGED, besieged=True), 200_000, 5)


@pytest.mark.parametrize("given", [dict(attacker_cards=["landsknechts"]),
                                   dict(defender_cards=["janissaries"]), dict(avoid_battle=True),
                                   dict(foreign_war=True), dict(withdraw_inside=2)])
def test_a_besieged_space_refuses_what_needs_a_field_battle(given):
    with pytest.raises(OddsError, match=f"^{next(iter(given))}: .* besieged=True"):
        attack(**BESIEGED, besieged=True, **given)


def test_a_card_of_both_battle_and_siege_is_placed():
    kw = dict(attacker=6, attacker_power="hapsburg", defender=4, assaults=3)
    in_field = attack(**kw, attacker_cards=["landsknechts"])
    in_siege = attack(**kw, siege_cards=["landsknechts"])  # computed apart
    line = in_field.advice[0]
    want = "Play Landsknechts in the field battle" if in_field.p > in_siege.p else \
        "Keep Landsknechts for the siege"
    assert line.startswith(want)
    assert percents(line) == pytest.approx([round(in_field.p, 4), round(in_siege.p, 4)], abs=1e-9)
    assert in_siege.advice == in_field.advice  # given for the siege: the same comparison
    assert attack(**kw).advice == ()
    assert attack(**kw, attacker_cards=["landsknechts"], method="mc", trials=1000).advice == ()
    two = attack(**kw, attacker_cards=["landsknechts", "swiss-mercenaries"]).advice
    assert [line.split(":")[0].split(" in ")[0] for line in two] == [
        "Play Landsknechts", "Play Swiss Mercenaries"]


def test_a_placement_that_changes_nothing_says_so():
    # the Ottomans' Landsknechts remove 2 enemy mercenaries, and this defender has none
    r = attack(attacker=6, attacker_power="ottoman", defender=4, assaults=3,
               attacker_cards=["landsknechts"])
    assert r.advice[0].startswith("Landsknechts: the same either way")


def test_siege_cards_that_add_units_fit_the_joint():
    # Landsknechts in the siege's first assault adds units that can be lost: the joint used
    # to be too narrow for them (a numpy broadcast error)
    kw = dict(attacker=6, attacker_power="hapsburg", defender=4, assaults=3,
              siege_cards=["landsknechts"])
    r = attack(**kw)
    assert r.pmfs["attacker_losses"].sum() == pytest.approx(1.0)
    assert len(r.pmfs["attacker_losses"]) > 7  # 6 units + the card's
    engines_agree(attack, kw, 200_000, 3)


@pytest.mark.parametrize("a,d,k,leader,cavalry", [(a, d, k, leader, cavalry)
                                                  for a in (3, 5, 7, 10) for d in (1, 2, 4)
                                                  for k in (1, 3, 6) for leader in (0, 2)
                                                  for cavalry in (0, 2) if a > d and cavalry < a])
def test_the_first_sentence_is_short_and_says_now(a, d, k, leader, cavalry):
    c = chain(a, d, k, leader, 0, cavalry)
    head = A.siege(c, T.compare(c))[0]
    assert len(head.split()) < A.SHORT and head.split(".")[0].count(";") == 0
    assert head.startswith(("Now: play Siege Artillery", "Now: keep Siege Artillery",
                            "Keep Siege Artillery: playing it does not raise"))
