"""Piracy (§16.4): hand-computed cases, the award split, exact against Monte Carlo."""
import pytest

from agreement import engines_agree
from odds import OddsError
from odds.his.corsairs.awards import split
from odds.his.corsairs.raid import piracy

# the rulebook's example: Barbarossa and 2 corsairs; 1 die for the Knights' fortress, 1 for
# the Hapsburg squadron in an adjacent port
EXAMPLE = {"corsairs": 2, "adjacent_squadrons": 1, "fortresses": 1, "pirate": "barbarossa"}


def test_rulebook_example_by_hand():
    # kills ~ Bin(2, 1/3): 0 (4/9) -> 3 Ottoman dice; 1 (4/9) -> 1 + 1 dice; 2 (1/9) -> none
    r = piracy(**EXAMPLE)
    none = 4 / 9 * (2 / 3) ** 3 + 4 / 9 * (2 / 3) ** 2 + 1 / 9
    assert r["hits"][0] == pytest.approx(none, abs=1e-15)
    assert r["all_corsairs_killed"] == pytest.approx(1 / 9, abs=1e-15)
    assert r["hits"][3] == pytest.approx(4 / 9 / 27, abs=1e-15)
    # one squadron exposed: it pays the first hit, VP the second, a card the third
    assert r.expected("vp") == pytest.approx(1 - none - 4 / 9 * 12 / 27 - 4 / 9 * 4 / 9,
                                             abs=1e-15)


def test_one_port_or_one_corsair_gives_one_base_die():
    assert piracy(corsairs=1)["hits"][0] == pytest.approx(2 / 3, abs=1e-15)
    assert piracy(corsairs=3, one_port=True)["hits"][0] == pytest.approx(2 / 3, abs=1e-15)
    assert piracy(corsairs=3, pirate="dragut")["hits"][0] == pytest.approx((2 / 3) ** 4)


def test_own_squadrons_roll_two_dice_and_andrea_doria_adds_hers():
    # 1 corsair: P(no kill) = (2/3)^dice, and then 1 die hits 1/3
    assert piracy(corsairs=1, squadrons=1).p == pytest.approx((2 / 3) ** 2 / 3, abs=1e-15)
    assert piracy(corsairs=1, andrea_doria=True).p == pytest.approx((2 / 3) ** 3 / 3, abs=1e-15)
    assert piracy(corsairs=1, andrea_doria=True, doria_dice=0).p == pytest.approx(1 / 3)


@pytest.mark.parametrize("hits, room, order, paid", [
    (2, (1, 5, 10), (0, 2, 1), (1, 0, 1)),   # the rulebook: a squadron and 1 VP
    (4, (1, 5, 10), (0, 2, 1), (1, 1, 2)),   # equal split, the squadron runs out
    (3, (0, 0, 1), (2, 1, 0), (0, 0, 1)),    # nothing left of use after 1 VP
    (3, (2, 2, 2), (1, 0, 2), (1, 1, 1)),
])
def test_hits_are_split_as_equally_as_possible(hits, room, order, paid):
    assert split(hits, room, order) == paid


@pytest.mark.parametrize("kwargs", [EXAMPLE, {**EXAMPLE, "andrea_doria": True},
                                    {"corsairs": 4, "squadrons": 1, "pirate": "dragut",
                                     "hand": 1, "order": "vp,card,squadron"}])
def test_exact_and_monte_carlo_agree(kwargs):
    engines_agree(piracy, kwargs, trials=100_000, seed=37)


@pytest.mark.parametrize("kwargs, words", [
    ({"corsairs": 0}, "corsairs"), ({"pirate": "kheir"}, "pirate"),
    ({"order": "vp,vp,card"}, "order"), ({"vp_room": 11}, "vp_room"),
])
def test_bad_values_are_refused(kwargs, words):
    with pytest.raises(OddsError, match=words):
        piracy(**kwargs)
