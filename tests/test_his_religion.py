"""Reformation and Counter-Reformation attempts, and rank my targets (§18.3-18.4): hand-computed
cases, an independent enumeration of the dice, the rulebook's example, the best order against
every policy, exact against Monte Carlo, and the refusals."""
from fractions import Fraction as F
from itertools import product

import pytest

from agreement import engines_agree
from odds import OddsError, registry
from odds.his import rank_targets, reformation_attempt
from odds.his.religion.ranking import EXAMPLE, MAX_TARGETS

FACES = range(1, 7)


def enumerate_flip(a, d, modifier=0, ties=True, automatic=True):
    """P(flip) by rolling every die of both sides (small pools only); `automatic`: a modified 6
    succeeds whatever the defender rolls."""
    wins = 0
    for roll in product(FACES, repeat=a + d):
        high, low = max(roll[:a]) + modifier, max(roll[a:])
        wins += (automatic and high >= 6) or high > low or (ties and high == low)
    return F(wins, 6 ** (a + d))


def p_at_least(a, d, ties):
    """P(highest of a dice >= (ties) or > highest of d dice), from the cdfs in fractions."""
    total = F(0)
    for low in FACES:
        below = low - 1 if ties else low  # the attacker's highest must exceed this
        total += F(low ** d - (low - 1) ** d, 6 ** d) * (1 - F(below, 6) ** a)
    return total


@pytest.mark.parametrize("kwargs, expected", [
    ({}, F(7, 12)),                                                     # ties to the Protestant
    ({"outside_zone": True}, F(5, 12)),                                 # ties to the Papacy
    ({"bible": True}, F(26, 36)),                                       # loses only to d >= r+2
    ({"bible": True, "outside_zone": True}, F(5, 12)),                  # +1 only in the zone
    ({"side": "counter-reformation"}, F(5, 12)),                        # ties to the Protestant
    ({"side": "counter-reformation", "pope": "paul-iii"}, F(7, 12)),    # ties to the Papacy
    ({"side": "counter-reformation", "pope": "julius-iii", "outside_zone": True}, F(5, 12)),
    ({"side": "counter-reformation", "augsburg": True}, F(10, 36)),     # r - 1 > d
    ({"side": "counter-reformation", "augsburg": True, "pope": "paul-iii"}, F(15, 36)),
])
def test_one_die_each(kwargs, expected):
    r = reformation_attempt(protestant_dice=1, papal_dice=1, **kwargs)
    assert r.p == pytest.approx(float(expected), abs=1e-15)


@pytest.mark.parametrize("a, d, kwargs, modifier, ties", [
    (2, 2, {}, 0, True), (3, 1, {"outside_zone": True}, 0, False),
    (2, 3, {"bible": True}, 1, True), (1, 3, {"bible": True, "outside_zone": True}, 0, False)])
def test_reformation_matches_every_die_rolled(a, d, kwargs, modifier, ties):
    r = reformation_attempt(protestant_dice=a, papal_dice=d, **kwargs)
    assert r.p == pytest.approx(float(enumerate_flip(a, d, modifier, ties, ties)), abs=1e-14)


def test_automatic_success_changes_no_odds_but_is_reported():
    """A 6 wins every tie anyway where it is automatic: only the defender's roll is saved."""
    r = reformation_attempt(protestant_dice=2, papal_dice=2, bible=True)
    assert r["automatic"] == pytest.approx(1 - (4 / 6) ** 2, abs=1e-15)  # a 5 or 6, +1
    assert r["defender_highest"][0] == pytest.approx(r["automatic"], abs=1e-15)
    assert reformation_attempt(protestant_dice=2, papal_dice=2, outside_zone=True)["automatic"] == 0
    assert reformation_attempt(side="counter-reformation", papal_dice=2, protestant_dice=1,
                               pope="paul-iii", augsburg=True)["automatic"] == 0


def test_the_neighbourhood_gives_the_dice():
    """Breslau in the rulebook's example: 2 adjacent spaces, 2 stacks, a reformer, 95 Theses."""
    r = reformation_attempt(adjacent_protestant=2, adjacent_protestant_stacks=2,
                            adjacent_reformers=1, theses=True, adjacent_catholic=1,
                            outside_zone=True)
    assert (r.settings["attacker_dice"], r.settings["defender_dice"]) == (6, 1)
    r = reformation_attempt(reformer_in_space=True, protestant_stack_in_space=True,
                            printing_press=True, debater_dice=1, university_in_space=True)
    assert (r.settings["attacker_dice"], r.settings["defender_dice"]) == (6, 2)
    r = reformation_attempt(side="counter-reformation", catholic_stack_in_space=True,
                            adjacent_universities=1, debater_dice=2)
    assert (r.settings["attacker_dice"], r.settings["defender_dice"]) == (5, 1)  # at least 1


def test_several_attempts_are_binomial():
    """Five attempts of the 95 Theses against spaces like Stettin (3 dice v 1, in the zone)."""
    p = F(1071, 1296)
    r = reformation_attempt(protestant_dice=2, papal_dice=1, theses=True, attempts=5)
    assert r.p == pytest.approx(float(p), abs=1e-15)
    for k in range(6):
        binomial = F(len([s for s in product((0, 1), repeat=5) if sum(s) == k]), 1) \
            * p ** k * (1 - p) ** (5 - k)
        assert r["spaces_flipped"][k] == pytest.approx(float(binomial), abs=1e-14)
    assert r.expected("spaces_flipped") == pytest.approx(5 * float(p), abs=1e-13)


@pytest.mark.parametrize("fn, kwargs", [
    (reformation_attempt, {"protestant_dice": 3, "papal_dice": 2, "bible": True, "attempts": 3}),
    (reformation_attempt, {"protestant_dice": 4, "papal_dice": 1, "outside_zone": True}),
    (reformation_attempt, {"side": "counter-reformation", "papal_dice": 2, "protestant_dice": 2,
                           "augsburg": True, "pope": "paul-iii", "attempts": 2}),
    (rank_targets, {"targets": ["A=4:1", "B=0:2", "C=1:1:out"], "links": ["A=B"],
                    "attempts": 3, "printing_press": True}),
])
def test_exact_and_monte_carlo_agree(fn, kwargs):
    engines_agree(fn, kwargs, 200_000, 5)


def test_the_rulebooks_example_in_order():
    """Magdeburg 6 v 3, Stettin 3 v 1, Breslau 6 v 1 (ties to the Papacy), Leipzig 4 v 4,
    Lubeck 3 v 3, Prague 4 v 5 (ties to the Papacy): Stettin comes before Breslau."""
    r = rank_targets(targets=list(EXAMPLE), theses=True)
    order = [row["target"] for row in r.ranking]
    assert order == ["Magdeburg", "Stettin", "Breslau", "Leipzig", "Lubeck", "Prague"]
    dice = {row["target"]: (row["attacker_dice"], row["defender_dice"], row["ties"])
            for row in r.ranking}
    assert dice == {"Magdeburg": (6, 3, True), "Stettin": (3, 1, True), "Breslau": (6, 1, False),
                    "Leipzig": (4, 4, True), "Lubeck": (3, 3, True), "Prague": (4, 5, False)}
    for row in r.ranking:
        a, d, ties = dice[row["target"]]
        assert row["p_flip"] == pytest.approx(float(p_at_least(a, d, ties)), abs=1e-14)
    assert r.p == pytest.approx(float(p_at_least(6, 3, True)), abs=1e-14)  # Magdeburg first


def policies_value(p, links, attempts=2):
    """The best expected flips of two attempts among three targets over every policy (the first
    target, then the second for each outcome of the first), enumerated; `p(t, k)`: P(t flips
    with k neighbours flipped)."""
    best = F(0)
    for first in range(3):
        others = [t for t in range(3) if t != first]
        for after_flip, after_fail in product(others, others):
            p1 = p(first, 0)
            value = p1 + p1 * p(after_flip, (first, after_flip) in links) \
                + (1 - p1) * p(after_fail, 0)
            best = max(best, value)
    return best


def test_the_best_order_is_the_best_policy():
    """A flip of Weak's neighbour Strong lends Weak a die and takes a Papal die away."""
    targets, links = ["Strong=4:1", "Weak=0:2", "Other=1:1:out"], {(0, 1), (1, 0)}
    base = {0: (4, 1, True), 1: (0, 2, True), 2: (1, 1, False)}  # before the minimum of 1

    def p(t, k):
        a, d, ties = base[t]
        return p_at_least(max(a + k, 1), max(d - k, 1), ties)

    r = rank_targets(targets=targets, links=["Strong=Weak"], attempts=2)
    assert r.expected("spaces_flipped") == pytest.approx(float(policies_value(p, links)), abs=1e-14)
    assert r.advice[-2] == "order if each attempt flips: Strong, Weak"


@pytest.mark.parametrize("fn, kwargs, words", [
    (reformation_attempt, {"protestant_dice": 2, "adjacent_protestant": 1}, "not both"),
    (reformation_attempt, {"augsburg": True}, "augsburg: applies to a Counter-Reformation"),
    (reformation_attempt, {"side": "counter-reformation", "theses": True}, "theses: applies"),
    (reformation_attempt, {"debater_dice": 2}, "debater_dice"),
    (reformation_attempt, {"adjacent_protestant": 20, "adjacent_reformers": 1}, "at most 20"),
    (rank_targets, {"targets": [f"S{i}=1:1" for i in range(MAX_TARGETS + 1)]}, "allowed: 1 to"),
    (rank_targets, {"targets": ["A=1"]}, "NAME=ATTACKER:DEFENDER"),
    (rank_targets, {"targets": ["A=1:1", "A=2:2"]}, "given twice"),
    (rank_targets, {"targets": ["A=1:1", "B=1:1"], "links": ["A=C"]}, "links: 'A=C'"),
    (rank_targets, {"targets": ["A=1:1"], "attempts": 2}, "attempts"),
])
def test_bad_situations_are_refused_in_one_line(fn, kwargs, words):
    with pytest.raises(OddsError, match=words) as e:
        fn(**kwargs)
    assert "\n" not in str(e.value)


def test_attempts_beyond_the_targets_say_one_per_target():
    with pytest.raises(OddsError) as e:
        rank_targets(targets=["Mainz=2:1"], attempts=5)
    assert str(e.value) == ("attempts: 5 is more than the targets given (allowed: at most one "
                            "attempt per target: 1 target given)")


@pytest.mark.parametrize("fn, kwargs", [
    (reformation_attempt, {}), (rank_targets, {"targets": ["Mainz=2:1"]})])
def test_the_debater_dice_follow_one_rule_for_each_side(fn, kwargs):
    """§18.3 step 3: a debater adds 1 die to a Reformation; §18.4 step 3: 1 or 2 to a
    Counter-Reformation, whether one space is attempted or targets are ranked."""
    with pytest.raises(OddsError) as e:
        fn(**kwargs, debater_dice=2)
    assert str(e.value) == ("debater_dice: 2 is out of range (allowed: 0 to 1 for a reformation, "
                            "§18.3 step 3)")
    assert fn(**kwargs, side="counter-reformation", debater_dice=2).p > 0
    helps = {registry.get(name).param("debater_dice").help
             for name in ("his.reformation", "his.counter_reformation", "his.targets")}
    assert helps == {"the attacker's debater bonus dice (0 to 1 for a reformation, 0 to 2 for a "
                     "counter-reformation: §18.3-18.4 step 3)"}


def p_above(a, d):
    """P(the highest of `a` dice beats the highest of `d`), the defender winning ties."""
    return sum((F(x, 6) ** a - F(x - 1, 6) ** a) * F(x - 1, 6) ** d for x in range(1, 7))


def test_the_ranking_says_what_the_order_changes():
    """Prague (4 v 5 out of the zone) listed before Stettin (3 v 1 in it), one attempt: the
    best order tries Stettin, worth 1 - 225/1296 spaces, against Prague's chance in the order
    given. No line reads a whole action's flips as one target's."""
    r = rank_targets(targets=["Prague=3:5:out", "Stettin=2:1"], theses=True, attempts=1)
    stettin, prague = 1 - F(225, 1296), p_above(4, 5)
    assert r.ranking[0]["p_flip"] == pytest.approx(float(stettin), abs=1e-14)
    assert r.ranking[1]["p_flip"] == pytest.approx(float(prague), abs=1e-14)
    best, given = float(stettin), float(prague)
    assert (f"the best order: {best:.3f} spaces expected in 1 attempt; in the order given, "
            f"{given:.3f} ({best - given:+.3f} from the order)") in r.advice
    assert not any("if tried first" in line for line in r.advice)


def test_each_attempt_s_expected_flips_add_up_to_the_best_order():
    """Two attempts among Strong, Weak, Other (as above): the steps' expected flips sum to the
    best policy's; the first is the first target's chance; a first choice's change against the
    best first is 0 for the best and negative for the others."""
    r = rank_targets(targets=["Strong=4:1", "Weak=0:2", "Other=1:1:out"], links=["Strong=Weak"],
                     attempts=2)
    steps = [s["expected_flips"] for s in r.steps]
    assert len(steps) == 2 and sum(steps) == pytest.approx(r.expected("spaces_flipped"), abs=1e-14)
    assert steps[0] == pytest.approx(r.p, abs=1e-14)
    changes = {row["target"]: row["expected_change_if_first"] for row in r.ranking}
    assert changes["Strong"] == pytest.approx(0, abs=1e-14) and changes["Other"] < 0
    assert r.to_json()["steps"] == [{"attempt": 1, "expected_flips": steps[0]},
                                    {"attempt": 2, "expected_flips": steps[1]}]
    assert any(line.startswith("each attempt's expected flips in the best order: "
                               f"{steps[0]:.3f}, {steps[1]:.3f}") for line in r.advice)
