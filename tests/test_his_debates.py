"""Theological debates (§18.5): a 3 v 2 debate by hand, an independent reference in fractions
(binomial hits, the second round's pairings), the rulebook's example, exact against Monte
Carlo, and the refusals."""
import subprocess
import sys
from collections import Counter
from fractions import Fraction as F
from math import comb

import numpy as np
import pytest

from agreement import assert_pmfs_sum_to_one, assert_thread_count_free, engines_agree
from odds import OddsError, registry
from odds.his import debate

THIRD = F(1, 3)  # a 5 or a 6


def binom(n, k):
    return comb(n, k) * THIRD ** k * (1 - THIRD) ** (n - k)


def one_round(a, d, a_value, d_value):
    """{(winner, margin, VP): P} of a round of `a` attack dice against `d`: the loser's
    printed value in VP when the margin exceeds it."""
    out = Counter()
    for x in range(a + 1):
        for y in range(d + 1):
            if x > y:
                key = ("attacker", x - y, d_value if x - y > d_value else 0)
            elif y > x:
                key = ("defender", y - x, a_value if y - x > a_value else 0)
            else:
                key = ("tie", 0, 0)
            out[key] += binom(a, x) * binom(d, y)
    return out


def reference(first, seconds=()):
    """{(winner, margin, VP): P} of a debate: `first` (a dice, d dice, a value, d value); on a
    tie, each of `seconds` (chance, a dice, d dice, a value, d value)."""
    out = one_round(*first)
    if seconds:
        tie = out.pop(("tie", 0, 0))
        for chance, *pairing in seconds:
            for key, p in one_round(*pairing).items():
                out[key] += tie * chance * p
    return out


def check(result, ref):
    """Every number of `result` against the reference distribution."""
    def total(test):
        return float(sum(p for key, p in ref.items() if test(*key)))

    expected = {"attacker_win": total(lambda w, m, v: w == "attacker"),
                "defender_win": total(lambda w, m, v: w == "defender"),
                "inconclusive": total(lambda w, m, v: w == "tie"),
                "defender_debater_lost": total(lambda w, m, v: w == "attacker" and v),
                "attacker_debater_lost": total(lambda w, m, v: w == "defender" and v)}
    for name, p in expected.items():
        assert result[name] == pytest.approx(p, abs=1e-13), name
    for side in ("attacker", "defender"):
        for pmf, index in ((f"{side}_flips", 1), (f"{side}_vp", 2)):
            for k, p in enumerate(result[pmf]):
                want = total(lambda *key: key[0] == side and key[index] == k)
                if k == 0:
                    want = 1 - total(lambda *key: key[0] == side and key[index] > 0)
                assert p == pytest.approx(want, abs=1e-13), (pmf, k)


SMALLEST = {"attacker_value": 1, "augsburg": True, "defender_value": 1,
            "defender_committed": True}  # 3 dice against 2


def test_three_dice_against_two_by_hand():
    """Hits of 3 dice: 8, 12, 6, 1 in 27; of 2: 4, 4, 1 in 9 (each die hits 1 in 3)."""
    r = debate(**SMALLEST)
    assert r.settings["first_round_dice"] == [3, 2]
    win = F(12 * 4 + 6 * 8 + 1 * 9, 243)  # 1 v 0; 2 v 0-1; 3 v anything
    tie = F(8 * 4 + 12 * 4 + 6 * 1, 243)
    assert r["attacker_win"] == pytest.approx(float(win), abs=1e-15)
    assert r["inconclusive"] == pytest.approx(float(tie), abs=1e-15)
    assert r["defender_win"] == pytest.approx(float(1 - win - tie), abs=1e-15)
    assert r["defender_debater_lost"] == pytest.approx(float(F(24 + 4 + 4, 243)), abs=1e-15)
    assert r["attacker_debater_lost"] == pytest.approx(float(F(1 * 8, 243)), abs=1e-15)  # 0 v 2
    assert np.allclose(r["attacker_flips"], [float(1 - win), 73 / 243, 28 / 243, 4 / 243])
    assert np.allclose(r["attacker_vp"], [1 - 32 / 243, 32 / 243, 0, 0, 0])  # value 1 burnt
    assert any("attacker_pool: empty" in n for n in r.notes)


def test_a_tie_goes_to_a_second_round_by_hand():
    """The same 3 v 2 again in the second round: the committed defender is drawn from the
    committed pool when no uncommitted debater is left."""
    r = debate(**SMALLEST, attacker_pool=[1], defender_committed_pool=[1])
    win, tie = F(105, 243), F(86, 243)
    assert r["attacker_win"] == pytest.approx(float(win + tie * win), abs=1e-15)
    assert r["second_round"] == pytest.approx(float(tie), abs=1e-15)
    assert r["inconclusive"] == pytest.approx(float(tie * tie), abs=1e-15)


RULEBOOK = {"attacker_value": 3, "debater_bonus": True, "defender_value": 4,
            "attacker_pool": [2], "defender_pool": [3]}


def test_the_rulebooks_example():
    """Eck (3, his bonus) rolls 7 dice against Luther (4, uncommitted) 6; on a tie, Aleander (2)
    5 dice against Melanchthon (3, uncommitted) 5: no bonus die in the second round."""
    r = debate(**RULEBOOK)
    assert r.settings["first_round_dice"] == [7, 6]
    assert "5 v 5 dice" in r.explain[1]
    check(r, reference((7, 6, 3, 4), [(1, 5, 5, 2, 3)]))
    tie = sum(binom(7, k) * binom(6, k) for k in range(7))
    assert r["inconclusive"] == pytest.approx(float(tie * sum(binom(5, k) ** 2 for k in range(6))))


@pytest.mark.parametrize("kwargs, first, seconds", [
    ({"mary_i": True, "attacker_value": 1, "defender_value": 4}, (5, 6, 1, 4), ()),
    ({"augsburg": True, "extra_dice": 2, "attacker_value": 2, "defender_value": 2,
      "attacker_pool": [1, 2, 2], "defender_pool": [3, 1]}, (6, 4, 2, 2),
     [(F(1, 6), 5, 5, 1, 3), (F(1, 6), 5, 3, 1, 1), (F(1, 3), 6, 5, 2, 3),
      (F(1, 3), 6, 3, 2, 1)]),
    ({"initiator": "protestant", "attacker_value": 4, "defender_value": 1,
      "defender_committed": True, "attacker_pool": [3], "defender_committed_pool": [2, 1]},
     (7, 2, 4, 1), [(F(1, 2), 6, 3, 3, 2), (F(1, 2), 6, 2, 3, 1)]),
    ({"debater_bonus": True, "mary_i": True, "attacker_value": 2, "defender_value": 3,
      "attacker_pool": [4], "defender_pool": [2], "defender_committed_pool": [4]},
     (8, 5, 2, 3), [(1, 11, 4, 4, 2)]),
])
def test_matches_the_reference(kwargs, first, seconds):
    """Mary I doubles the dice value but a debater burns on his printed value; the bonus die
    is the first round's; the committed pool is read only when no uncommitted one is left."""
    r = debate(**kwargs)
    check(r, reference(first, seconds))
    assert_pmfs_sum_to_one(r)
    assert r["attacker_win"] + r["defender_win"] + r["inconclusive"] == pytest.approx(1, abs=1e-14)


@pytest.mark.parametrize("kwargs", [
    RULEBOOK,
    {"augsburg": True, "mary_i": True, "extra_dice": 1, "attacker_value": 2, "defender_value": 2,
     "attacker_pool": [1, 2, 4], "defender_pool": [1, 3]},
    {"initiator": "protestant", "attacker_value": 1, "defender_value": 1,
     "defender_committed": True, "attacker_pool": [2, 1], "defender_committed_pool": [1, 2]},
    {"attacker_value": 4, "defender_value": 1},
], ids=["rulebook", "papal cards", "protestant", "no second round"])
def test_exact_and_monte_carlo_agree(kwargs):
    exact, mc = engines_agree(debate, kwargs, trials=200_000, seed=11)
    assert mc["attacker_win"] + mc["defender_win"] + mc["inconclusive"] == pytest.approx(1)


def test_the_most_dice_a_side_rolls():
    """Every count is bounded by the inputs: 4 doubled + 3 + 1 + 3 attack dice, 4 + 2 defence."""
    r = debate(attacker_value=4, mary_i=True, debater_bonus=True, extra_dice=3, defender_value=4)
    assert r.settings["first_round_dice"] == [15, 6]
    assert len(r["attacker_flips"]) == 16 and len(r["attacker_vp"]) == 5


def test_monte_carlo_is_free_of_the_thread_count():
    assert_thread_count_free(debate, RULEBOOK, trials=20_000, seed=3)


@pytest.mark.parametrize("kwargs, start", [
    ({"initiator": "ottoman"}, "initiator: 'ottoman' is not allowed"),
    ({"attacker_value": 0}, "attacker_value: 0 is out of range (allowed: 1 to 4)"),
    ({"defender_value": 5}, "defender_value: 5 is out of range (allowed: 1 to 4)"),
    ({"defender_value": "x"}, "defender_value: 'x' is not a whole number"),
    ({"defender_committed": "yes"}, "defender_committed: 'yes' is not allowed"),
    ({"attacker_pool": [2, 5]}, "attacker_pool[1]: 5 is out of range (allowed: 1 to 4)"),
    ({"attacker_pool": [1] * 13}, "attacker_pool: 13 debaters (allowed: at most 12)"),
    ({"defender_pool": 3}, "defender_pool: 3 is not a list of debate values"),
    ({"defender_committed_pool": [0]}, "defender_committed_pool[0]: 0 is out of range"),
    ({"extra_dice": 4}, "extra_dice: 4 is out of range (allowed: 0 to 3)"),
    ({"initiator": "protestant", "augsburg": True}, "augsburg: true applies to a Papal attacker"),
    ({"initiator": "protestant", "mary_i": True}, "mary_i: true applies to a Papal attacker"),
    ({"initiator": "protestant", "debater_bonus": True}, "debater_bonus: true applies to a Papal"),
    ({"initiator": "protestant", "extra_dice": 1}, "extra_dice: 1 applies to a Papal attacker"),
])
def test_bad_input_is_one_line_naming_the_field(kwargs, start):
    with pytest.raises(OddsError) as e:
        debate(**{"attacker_value": 2, "defender_value": 2, **kwargs})
    assert str(e.value).startswith(start) and "\n" not in str(e.value)


@pytest.mark.parametrize("missing", ["attacker_value", "defender_value"])
def test_the_debaters_values_are_required(missing):
    """No value is guessed for a debater: the call, the command line and the web refuse it."""
    kwargs = {"attacker_value": 4, "defender_value": 2}
    del kwargs[missing]
    with pytest.raises(OddsError, match=f"^{missing}: missing \\(required by his.debate\\)$"):
        registry.get("his.debate").call(**kwargs)
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in kwargs.items()]
    out = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "his", "debate", *flags],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 2
    flag = "--" + missing.replace("_", "-")
    assert out.stderr == f"odds: error: {flag}: missing (required by his.debate)\n"


def test_without_second_round_debaters_the_headline_says_ties_are_left_unresolved():
    """7 dice against 4 (values 4 and 2 uncommitted): equal hits 1 time in about 5, by hand
    from the binomial hits; the headline carries that share, and with second-round pools the
    rule's second round is fought and the headline has no such words."""
    a, d = [F(comb(7, k) * 2 ** (7 - k), 3 ** 7) for k in range(8)], \
        [F(comb(4, k) * 2 ** (4 - k), 3 ** 4) for k in range(5)]
    tie = sum(a[k] * d[k] for k in range(5))
    r = debate(attacker_value=4, defender_value=2)
    assert r["inconclusive"] == pytest.approx(float(tie), abs=1e-15)
    head = r.summary().splitlines()[0]
    assert head.startswith("Attacker wins ") and (  # its range over the second-round debaters
        f"depending on the second-round debaters (a reading: none assumed, {r.p:.1%}) (exact); "
        f"the {float(tie):.1%} of debates tied in round 1 are left unresolved: no second-round "
        "debaters given") in head
    assert r.to_json()["caveat"].startswith(f"the {float(tie):.1%} of debates tied in round 1")
    full = debate(attacker_value=4, defender_value=2, attacker_pool=[2], defender_pool=[4])
    assert full.p > r.p and "unresolved" not in full.summary().splitlines()[0]
