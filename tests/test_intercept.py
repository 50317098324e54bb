"""Interception and avoid-battle rolls: hand-computed 2d6 cases and the card's legality.

(Exact against Monte Carlo, threads, CLI and bad values are covered by test_registry.py.)
"""
from fractions import Fraction as F

import pytest

from odds import OddsError
from odds.his import interception

# ways to roll each 2d6 total, out of 36
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}


def at_least(total: int) -> F:
    return F(sum(w for t, w in WAYS.items() if t >= total), 36)


@pytest.mark.parametrize("kwargs, need", [
    ({}, 9),                                              # 10/36
    ({"leader": 2}, 7),                                   # 21/36
    ({"leader": 1, "cavalry": True}, 7),                  # Ottoman cavalry +1
    ({"leader": 1, "against_cavalry": True}, 9),          # -1 cancels the leader
    ({"leader": 6}, 3),                                   # only snake eyes fails
    ({"leader": 1, "naval": True, "cards": ["professional-rowers:always"]}, 6),  # +2
    ({"leader": 0, "succeeds_on": 12}, 12),
])
def test_success_is_the_2d6_tail(kwargs, need):
    assert interception(**kwargs).p == pytest.approx(float(at_least(need)), abs=1e-15)


def test_rowers_if_needed_is_played_only_on_a_failing_roll():
    r = interception(leader=1, naval=True, cards=["professional-rowers:if-needed"])
    # played when 2d6 + 1 < 9 (2d6 <= 7: 21/36); succeeds when 2d6 + 1 + 2 >= 9 (2d6 >= 6)
    assert r["roller_plays_rowers"] == pytest.approx(21 / 36, abs=1e-15)
    assert r.p == pytest.approx(float(at_least(6)), abs=1e-15)


def test_rowers_against_if_needed_is_played_only_on_a_succeeding_roll():
    r = interception(leader=1, naval=True, other_cards=["professional-rowers:if-needed"],
                     kind="avoid-battle")
    assert r.procedure == "his.avoid_battle"
    assert r["other_plays_rowers"] == pytest.approx(float(at_least(8)), abs=1e-15)
    assert r.p == pytest.approx(float(at_least(10)), abs=1e-15)


@pytest.mark.parametrize("kwargs, words", [
    ({"cards": ["professional-rowers"]}, "naval card"),
    ({"naval": True, "cards": ["janissaries"]}, "cannot be played on an interception"),
    ({"naval": True, "cavalry": True}, "land rolls only"),
    ({"cavalry": True, "against_cavalry": True}, "at most one"),
    ({"naval": True, "cards": ["professional-rowers"], "other_cards": ["professional-rowers"]},
     "exists once"),
    ({"kind": "ambush"}, "kind"),
])
def test_illegal_situations_are_refused(kwargs, words):
    with pytest.raises(OddsError, match=words):
        interception(**kwargs)
