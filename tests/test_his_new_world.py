"""New World voyages and raiders (§20): hand-counted 2d6 cases, exact against Monte Carlo."""
from fractions import Fraction as F

import pytest

from agreement import engines_agree
from odds import OddsError
from odds.his.new_world.raiders import raiders
from odds.his.new_world.voyages import conquest, exploration

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}  # ways to roll each 2d6 total, of 36


def ways(low, high=12) -> F:
    return F(sum(w for t, w in WAYS.items() if low <= t <= high), 36)


def test_orellana_uncharted_by_hand():
    # +3 explorer, -1 uncharted: lost on 2d6 <= 2, nothing 3-4, discovery 5-7, deep 8+;
    # the circumnavigation drops the -1: 2d6 + 3 >= 10 on 7+, a card on 9+
    r = exploration(explorer=3, uncharted=True)
    assert r["lost"] == pytest.approx(float(ways(2, 2)), abs=1e-15)
    assert r["nothing"] == pytest.approx(float(ways(3, 4)), abs=1e-15)
    assert r["discovery"] == pytest.approx(float(ways(5, 7)), abs=1e-15)
    assert r["deep"] == pytest.approx(float(ways(8)), abs=1e-15)
    assert r["circumnavigates"] == pytest.approx(float(ways(8) * ways(7)), abs=1e-15)
    assert r["circumnavigation_card"] == pytest.approx(float(ways(8) * ways(9)), abs=1e-15)
    assert r["explorer_removed"] == pytest.approx(float(ways(2, 2) + ways(8) * ways(2, 6)),
                                                  abs=1e-15)


def test_mercator_adds_two_and_staying_home_skips_the_second_roll():
    r = exploration(explorer=0, mercator=True, skip_circumnavigation=True)
    assert r["discovery"] == pytest.approx(float(ways(5, 7)), abs=1e-15)
    assert r["circumnavigates"] == 0 and r["explorer_removed"] == pytest.approx(float(ways(2, 2)))


@pytest.mark.parametrize("value, smallpox, killed, won", [
    (0, False, ways(2, 6), ways(9)),   # an English or French conquest marker
    (2, True, ways(2, 2), ways(5)),    # +4 in all
])
def test_conquest_by_hand(value, smallpox, killed, won):
    r = conquest(conquistador=value, smallpox=smallpox)
    assert r["killed"] == pytest.approx(float(killed), abs=1e-15)
    assert r["conquest"] == pytest.approx(float(won), abs=1e-15)


@pytest.mark.parametrize("galleons, steals_none, survives", [
    # per card: 6 steals and stays, 5 steals and goes, 3-4 stay, 1 goes, 2 goes with galleons
    (True, F(2, 6) + F(2, 6) * F(4, 6), F(3, 6) ** 2),
    (False, F(1, 6) + F(3, 6) * F(4, 6), F(4, 6) ** 2),
])
def test_raider_on_two_cards_by_hand(galleons, steals_none, survives):
    r = raiders(cards=2, galleons=galleons)
    assert r["steals_any"] == pytest.approx(float(1 - steals_none), abs=1e-15)
    assert r["raider_survives"] == pytest.approx(float(survives), abs=1e-15)


@pytest.mark.parametrize("fn, kwargs", [
    (exploration, {"explorer": 3, "uncharted": True}),
    (exploration, {"explorer": 1, "mercator": True}),
    (conquest, {"conquistador": 1, "smallpox": True}),
    (raiders, {"cards": 4}),
])
def test_exact_and_monte_carlo_agree(fn, kwargs):
    engines_agree(fn, kwargs, trials=100_000, seed=37)


@pytest.mark.parametrize("fn, kwargs, words", [
    (exploration, {"explorer": 9}, "explorer"),
    (conquest, {"smallpox": "maybe"}, "smallpox"),
    (raiders, {"cards": 0}, "cards"),
])
def test_bad_values_are_refused(fn, kwargs, words):
    with pytest.raises(OddsError, match=words):
        fn(**kwargs)
