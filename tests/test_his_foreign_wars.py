"""Foreign wars (§21.7): a hand-computed 1 v 1 chain, the bound's tail, exact against MC."""
import subprocess
import sys

import pytest

from agreement import engines_agree
from odds import OddsError
from odds.his.foreign_wars.campaign import foreign_war

# 1 v 1, no leader, each attempt: 1-0 hits won (2/9); 0-1 lost, 1-1 both wiped out and equal
# dice leave the foreign unit (3/9); 0-0 fight on (4/9)
WIN, LOSE, AGAIN = 2 / 9, 3 / 9, 4 / 9


@pytest.mark.parametrize("attempts", [1, 3, 10])
def test_one_against_one_by_hand(attempts):
    r = foreign_war(units=1, foreign=1, attempts=attempts)
    won = [WIN * AGAIN ** (k - 1) for k in range(1, attempts + 1)]
    assert r["cp_to_win"][1:] == pytest.approx(won, abs=1e-15)
    assert r["not_over"] == pytest.approx(AGAIN ** attempts, abs=1e-15)
    assert r["wiped_out"] == pytest.approx(LOSE * sum(AGAIN ** k for k in range(attempts)),
                                           abs=1e-15)
    assert r["cp_to_win"][0] == pytest.approx(1 - sum(won), abs=1e-15)
    assert r.won_within[attempts] == pytest.approx(sum(won), abs=1e-15)


def test_the_tail_beyond_the_bound_vanishes_and_the_war_is_won_two_times_in_five():
    assert foreign_war(units=1, foreign=1, attempts=60)["won"] == pytest.approx(0.4, abs=1e-12)


def test_a_leader_adds_dice():
    assert foreign_war(war="egypt", leader=2).p > foreign_war(war="egypt").p


@pytest.mark.parametrize("name, title, units, foreign", [
    ("egypt", "Revolt in Egypt", 3, 3), ("ireland", "Revolt in Ireland", 4, 3),
    ("persia", "War in Persia", 5, 4)])
def test_a_war_by_name_is_its_card_s_forces_stated_in_the_answer(name, title, units, foreign):
    """The cards' forces (docs/rules.md): the same odds as the forces given, the forces in the
    answer's words, and marked as a reading in the settings line."""
    r = foreign_war(war=name)
    assert r.to_json()["won"] == foreign_war(units=units, foreign=foreign).to_json()["won"]
    assert r.explain[0].startswith(f"{title}: the card's forces: {units} ")
    assert r.readings == ("units", "foreign")  # declared readings (his.foreign_war's spec)
    assert f" against {foreign} foreign units;" in r.explain[0]
    assert f"units: {units} (reading); foreign: {foreign} (reading)" in r.summary()
    out = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "his", "foreign-war", "--war", name],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and f"{title}: the card's forces" in out.stdout


def test_a_war_s_forces_given_replace_the_card_s():
    """Revolt in Ireland with a fourth foreign unit (France or the Hapsburgs add one)."""
    r = foreign_war(war="ireland", foreign=4)
    assert r.p == foreign_war(units=4, foreign=4).p
    assert r.readings == ("units",) and "foreign units given" in r.explain[0]


@pytest.mark.parametrize("kwargs", [{"war": "ireland"},
                                    {"units": 2, "foreign": 3, "leader": 1, "attempts": 6}])
def test_exact_and_monte_carlo_agree(kwargs):
    engines_agree(foreign_war, kwargs, trials=100_000, seed=37)


@pytest.mark.parametrize("kwargs, words", [
    ({"units": 13}, "units"),
    ({"foreign": 0}, "foreign"), ({"attempts": 0}, "attempts"),
    ({"war": "iran"}, "war: 'iran' is not allowed; did you mean 'ireland'"),
])
def test_bad_values_are_refused(kwargs, words):
    with pytest.raises(OddsError, match=words):
        foreign_war(**kwargs)
