"""Foreign wars (§21.7): a hand-computed 1 v 1 chain, the bound's tail, exact against MC."""
import pytest

from agreement import engines_agree
from odds import OddsError
from odds.his.foreign_wars.campaign import WARS, foreign_war

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
    egypt = WARS["revolt in egypt"]
    assert foreign_war(**egypt, leader=2).p > foreign_war(**egypt).p


@pytest.mark.parametrize("kwargs", [WARS["revolt in ireland"],
                                    {"units": 2, "foreign": 3, "leader": 1, "attempts": 6}])
def test_exact_and_monte_carlo_agree(kwargs):
    engines_agree(foreign_war, kwargs, trials=100_000, seed=37)


@pytest.mark.parametrize("kwargs, words", [
    ({"units": 13}, "units"),
    ({"foreign": 0}, "foreign"), ({"attempts": 0}, "attempts"),
])
def test_bad_values_are_refused(kwargs, words):
    with pytest.raises(OddsError, match=words):
        foreign_war(**kwargs)
