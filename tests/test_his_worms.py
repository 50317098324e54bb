"""Diet of Worms (§18.1): hand-computed cases, the card game against an independent linear
program, exact against Monte Carlo."""
import re
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy.optimize import linprog

from agreement import engines_agree
from odds import OddsError
from odds.his import diet_of_worms
from odds.his.worms.choice import solve_game

HANDS = {"protestant_hand": [2, 3, 5], "papal_hand": [1, 3, 4], "hapsburg_hand": [2, 5]}


def hits(n):
    """P(k hits) among n dice hitting on 5-6, as fractions."""
    return [comb(n, k) * Fraction(1, 3) ** k * Fraction(2, 3) ** (n - k) for k in range(n + 1)]


def test_one_card_each_by_hand():
    # CP 1 each: the Protestant rolls 5 dice, the Catholics 2
    p, c = hits(5), hits(2)
    win = sum(p[i] * c[j] for i in range(6) for j in range(3) if i > j)
    draw = sum(p[i] * c[i] for i in range(3))
    r = diet_of_worms(protestant_card=1, papal_card=1, hapsburg_card=1)
    assert r.p == pytest.approx(float(win), abs=1e-15)
    assert r["draw"] == pytest.approx(float(draw), abs=1e-15)
    two = sum(p[i] * c[i - 2] for i in range(2, 5))  # the Protestant flips exactly 2
    assert r["protestant_flips"][2] == pytest.approx(float(two), abs=1e-15)
    assert r["catholic_flips"][2] == pytest.approx(float(p[0] * c[2]), abs=1e-15)


@pytest.mark.parametrize("cp, win, draw", [(3, 0.45989, 0.22763), (5, 0.34291, 0.18999)])
def test_three_and_five_all_round(cp, win, draw):
    """The sanity values: 3 v 3 + 3 and 5 v 5 + 5 (computed apart, to 5 places)."""
    r = diet_of_worms(protestant_card=cp, papal_card=cp, hapsburg_card=cp)
    assert r.p == pytest.approx(win, abs=1e-5) and r["draw"] == pytest.approx(draw, abs=1e-5)


def linprog_value(a):
    """The game's value by scipy's linear program (an independent solver)."""
    m, n = a.shape
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-a.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)])
    return -res.fun


@pytest.mark.parametrize("seed", range(8))
def test_the_game_solver_agrees_with_a_linear_program(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, size=(rng.integers(1, 6), rng.integers(1, 9))).astype(float)
    value, rows, columns = solve_game(a)
    assert value == pytest.approx(linprog_value(a), abs=1e-9)
    # each strategy guarantees the value against every reply
    assert (rows @ a >= value - 1e-9).all() and (a @ columns <= value + 1e-9).all()
    assert rows.sum() == pytest.approx(1) and columns.sum() == pytest.approx(1)


def test_matching_pennies_is_mixed():
    value, rows, columns = solve_game([[1, -1], [-1, 1]])
    assert value == pytest.approx(0, abs=1e-12)
    assert rows == pytest.approx([0.5, 0.5]) and columns == pytest.approx([0.5, 0.5])


def test_a_cp_worth_less_than_a_third_of_a_space_is_committed_whole():
    """With the expected net spaces as payoff each CP adds a third of a space (a die's mean
    hits): below that value both sides commit their highest cards, above it their lowest, and
    the advice says so with the threshold, whatever the cp-value read."""
    high = diet_of_worms(**HANDS, cp_value=0.2)
    low = diet_of_worms(**HANDS, cp_value=0.5)
    assert high.advice[:2] == low.advice[:2] == (  # the switch is at 1/3: each side of it
        "Protestant: a 5-CP card while a CP is worth less than 0.3333 spaces elsewhere; above "
        "0.3334, a 2-CP card.",
        "Papacy and Hapsburgs: 9 CP together (4 + 5) while a CP is worth less than 0.3333 spaces "
        "elsewhere; above 0.3334, 3 CP together (1 + 2).")
    assert high.advice[2].endswith("Protestant always a 5-CP card; Papacy and Hapsburgs always "
                                   "9 CP together (4 + 5).")
    assert low.advice[2].endswith("Protestant always a 2-CP card; Papacy and Hapsburgs always "
                                  "3 CP together (1 + 2).")
    assert low.settings["game_value"] == pytest.approx((2 + 4 - 3) / 3 + 0.5 * 1, abs=1e-4)
    assert low.p == pytest.approx(diet_of_worms(protestant_card=2, papal_card=1,
                                                hapsburg_card=2).p, abs=1e-15)


ISSUE = {"protestant_hand": [1, 2, 4, 5], "papal_hand": [2, 3, 4], "hapsburg_hand": [1, 3, 5]}


@pytest.mark.parametrize("measure", ["spaces", "win"])
def test_the_value_is_in_the_measures_unit_and_the_cards_apart(measure):
    """The roll's value is what the shown odds give (net spaces flipped, or P(win) - P(loss):
    never above 1), and the CP the Catholics commit more is a line of its own, labelled; in
    `win` no line or setting adds the two into a number read as P(win) - P(loss) (issue 49:
    "+1.355 with the roll", game_value=1.355)."""
    r = diet_of_worms(**ISSUE, measure=measure, cp_value=0.5)
    roll = (r.expected("protestant_flips") - r.expected("catholic_flips") if measure == "spaces"
            else r["protestant_win"] - r["catholic_win"])
    unit = "spaces" if measure == "spaces" else "in P(Protestant wins) minus P(Catholics win)"
    assert f"The roll: {roll:+.3f} {unit} to the Protestant." in r.advice
    assert r.settings["roll_value"] == pytest.approx(roll, abs=1e-4)
    # 1 CP against 3: the Catholics commit 2 CP more, worth 0.5 each
    if measure == "spaces":
        assert r.settings["cards_value"] == pytest.approx(1.0)
        assert (f"The cards: the Protestant commits 1 CP, the Catholics 3 CP; at 0.5 a CP that is "
                f"+1.000 spaces to the Protestant elsewhere, {roll + 1:+.3f} spaces with the "
                "roll.") in r.advice
        assert r.settings["game_value"] == pytest.approx(roll + 1, abs=1e-4)
    else:
        assert "game_value" not in r.settings and "with the roll" not in r.summary()
        assert r.advice[-1] == ("The cards: the Protestant commits 1 CP, the Catholics 3 CP; 2 CP "
                                "more for the Catholics, each CP worth 0.5 (the cp-value) "
                                "elsewhere, apart from the roll's chances.")
        numbers = [float(x) for line in r.advice for x in re.findall(r"[+-]\d+\.\d+", line)
                   if "P(Protestant wins) minus" in line]
        assert numbers and all(abs(x) <= 1 for x in numbers)
    assert not any(line.startswith("Worth") for line in r.advice)
    assert "cp value: 0.5 (reading)" not in r.summary()  # typed: the caller's, not a reading
    assert "cp value: 0.5 (reading)" in diet_of_worms(**ISSUE, measure=measure).summary()


def test_the_threshold_is_where_the_choice_changes():
    """Just below the stated cp-value the Protestant's card at the reading is the first one
    named, just above it the next one."""
    r = diet_of_worms(**ISSUE, measure="win")
    first = r.advice[0]
    assert first.startswith("Protestant: a 5-CP card while a CP is worth less than ")
    threshold = float(first.split("less than ")[1].split()[0])
    last = float(first.split("above ")[1].split(",")[0])
    assert threshold <= last < 0.2 and first.endswith(", a 1-CP card.")
    below = diet_of_worms(**ISSUE, measure="win", cp_value=threshold - 0.01)
    assert "Protestant always a 5-CP card" in below.advice[2]
    above = diet_of_worms(**ISSUE, measure="win", cp_value=last + 0.01)
    assert "Protestant always a 1-CP card" in above.advice[2]


def test_the_hands_answer_is_the_matrix_and_both_choices():
    r = diet_of_worms(**HANDS, measure="win", cp_value=0.12).to_json()
    assert [row["protestant_cp"] for row in r["matrix"]] == [2, 3, 5]
    assert list(r["matrix"][0])[1:] == [f"payoff_vs_{t}_cp" for t in (3, 5, 6, 8, 9)]
    for side in ("Protestant", "Catholic"):
        assert sum(c["p_play"] for c in r["choices"] if c["side"] == side) == pytest.approx(1)


@pytest.mark.parametrize("kwargs", [{}, {"protestant_card": 5, "papal_card": 2, "hapsburg_card": 4},
                                    {**HANDS, "measure": "win", "cp_value": 0.12}])
def test_exact_and_monte_carlo_agree(kwargs):
    engines_agree(diet_of_worms, kwargs, trials=100_000, seed=41)


def test_mixed_choices_are_drawn_by_the_kernel():
    """A hand game whose strategies mix: the kernel draws the cards, the exact engine weighs
    them, and the two agree."""
    kwargs = {"protestant_hand": [1, 6], "papal_hand": [1, 4], "hapsburg_hand": [1],
              "measure": "win", "cp_value": 0.1}
    r = diet_of_worms(**kwargs)
    sides = [c["side"] for c in r.to_json()["choices"]]
    assert sides.count("Protestant") == 2 and sides.count("Catholic") == 2  # both mix
    roll = np.array([list(row.values())[1:] for row in r.to_json()["matrix"]])
    spent = np.subtract.outer([1, 6], [2, 5])  # the Protestant's CP less the Catholics' total
    x, y = ([c["p_play"] for c in r.to_json()["choices"] if c["side"] == side]
            for side in ("Protestant", "Catholic"))
    assert r.settings["roll_value"] == pytest.approx(float(np.array(x) @ roll @ np.array(y)), abs=1e-4)
    assert float(np.array(x) @ (roll - 0.1 * spent) @ np.array(y)) == pytest.approx(
        linprog_value(roll - 0.1 * spent), abs=1e-3)  # the choices are the game's optimum (the
    # matrix is shown to 4 places)
    engines_agree(diet_of_worms, kwargs, trials=100_000, seed=43)


@pytest.mark.parametrize("kwargs, words", [
    ({"protestant_card": 0}, "protestant_card: 0 is out of range (allowed: 1 to 6)"),
    ({"protestant_hand": [2]}, "papal_hand, hapsburg_hand: missing"),
    ({**HANDS, "papal_hand": [7]}, "papal_hand: 7 is out of range (allowed: 1 to 6)"),
    ({**HANDS, "hapsburg_hand": list(range(1, 7)) * 3}, "hapsburg_hand: 18 cards (allowed: at most 12)"),
    ({"cp_value": 3}, "cp_value: 3 is out of range (allowed: 0 to 1)"),
    ({"measure": "vp"}, "measure"),
    ({**HANDS, "papal_card": 3}, "papal_card: 3 given with the hands (allowed: the cards or the hands, not both)"),
])
def test_bad_values_are_refused(kwargs, words):
    with pytest.raises(OddsError, match=words.replace("(", r"\(").replace(")", r"\)")):
        diet_of_worms(**kwargs)
