"""Siege Artillery held through a siege: timings, the optimal rule, exact vs Monte Carlo."""
import itertools

import numpy as np
import pytest

from agreement import engines_agree
from odds import OddsError, cli, registry
from odds.his import siege
from odds.his.sieges import timing as T
from odds.his.assaults.procedure import forces
from odds.his.sieges.procedure import plan

TIMINGS = ("first", "if-needed", "if-it-helps", "optimal")


def chain(a, d, k, leader=0, defender_leader=0):
    att, dfn = forces(a, d, 0, 0, leader, "other", ("siege-artillery:always",), 0, 0,
                      defender_leader, "other", ())
    return T.Chain(plan(att, dfn, (), (), leader, None), k, True, True)


def test_one_assault_by_hand():
    # 2 infantry vs 1: the attacker rolls 1 die (halved), P(hit) 1/3; the defender 2 dice
    # (unit + 1): 0, 1, 2 hits with 4/9, 4/9, 1/9; 2 hits wipe the attacker out. The card:
    # 2 dice on 3-6, at least one hit 8/9. Without it: 1/3 * 8/9 = 8/27.
    # With it, played when the roll misses and the attacker survives (the only time it can
    # help): 8/9 * (1/3 + 2/3 * 8/9) = 200/243, whatever the timing.
    # Card kept: if-needed keeps it only when the roll wins anyway (8/27); if-it-helps and
    # optimal also keep it when nothing can win (dh = 2): 1 - 2/3 * 8/9 = 11/27; first: 0.
    kept = {"first": 0, "if-needed": 8 / 27, "if-it-helps": 11 / 27, "optimal": 11 / 27}
    assert siege(2, 1, assaults=1)["captured"] == pytest.approx(8 / 27)
    for timing, want in kept.items():
        r = siege(2, 1, assaults=1, attacker_cards=[f"siege-artillery:{timing}"])
        assert r["captured"] == pytest.approx(200 / 243)
        assert r["card_kept"] == pytest.approx(want)
    assert [row["captured"] for row in r.timings] == pytest.approx([200 / 243] * 4)
    assert r.rule == ({"assault": 1, "wins without it": "keep", "it can win the assault": "play",
                       "it cannot win the assault": "keep"},)


def dominates(a, b) -> bool:
    """Rule `a` beats `b` (rows as T.compare gives): more P(captured) by more than 1e-9, or the
    same P(captured) within 1e-9 and fewer expected losses, or the same both and more P(kept)."""
    if abs(a["captured"] - b["captured"]) > 1e-9:
        return a["captured"] > b["captured"]
    if abs(a["expected_attacker_losses"] - b["expected_attacker_losses"]) > 1e-9:
        return a["expected_attacker_losses"] < b["expected_attacker_losses"]
    return a["card_kept"] > b["card_kept"] + 1e-9


@pytest.mark.parametrize("a,d,k,leader", [(a, d, k, leader) for a in (2, 4, 6) for d in (1, 3)
                                          for k in (1, 2, 3) for leader in (0, 1) if a > d])
def test_optimal_is_never_dominated_by_a_naive_timing(a, d, k, leader):
    rows = {r["timing"]: r for r in T.compare(chain(a, d, k, leader))}
    for timing in TIMINGS[:3]:
        assert not dominates(rows[timing], rows["optimal"]), timing
    assert T.optimal_table(chain(a, d, k, leader))[1] == pytest.approx(
        (rows["optimal"]["captured"], rows["optimal"]["expected_attacker_losses"],
         rows["optimal"]["card_kept"]))


def brute_force(c, only_failing):
    """Every deterministic rule's (P(captured), expected losses, P(kept)): each decision point
    (an assault, a state the card can be held at, a roll the attacker can play after) on or off."""
    table = T.optimal_table(c)[0]
    points = []
    for (k, state) in table:
        _, _, pr, able, fail, _ = c.rows(k, state)
        ok = able & (pr > 0) & (fail if only_failing else True)
        points += [(k, state, i) for i in np.flatnonzero(ok)]
    rules = []
    for bits in itertools.product((False, True), repeat=len(points)):
        rule = {key: np.zeros(len(c.rows(*key)[2]), bool) for key in table}
        for (k, state, i), b in zip(points, bits):
            rule[(k, state)][i] = b
        joint = T.exact_joint(c, lambda k, state: rule[(k, state)])
        losses = joint.sum(axis=(0, 1, 3, 4))
        rules.append({"captured": joint[0].sum(), "card_kept": joint[..., 1].sum(),
                      "expected_attacker_losses": np.arange(len(losses)) @ losses})
    return rules, len(points)


@pytest.mark.parametrize("a,d,k,only_failing", [(2, 1, 2, False), (3, 1, 2, True)])
def test_no_rule_dominates_the_optimal_one_on_tiny_sieges(a, d, k, only_failing):
    # only_failing: rolls that win without the card are left 'keep' (playing there cannot
    # raise P(captured), costs no fewer units and loses the card), which keeps the search small
    c = chain(a, d, k)
    rules, n = brute_force(c, only_failing)
    assert 10 <= n <= 12
    cap, lost, kept = T.optimal_table(c)[1]
    optimal = {"captured": cap, "expected_attacker_losses": lost, "card_kept": kept}
    assert not [r for r in rules if dominates(r, optimal)]
    assert any(not dominates(optimal, r) for r in rules)  # it is one of the rules


def test_among_equal_captures_the_optimal_rule_takes_the_fewest_losses():
    """The issue's siege: 'optimal' used to keep the card at 2.06 expected losses where
    playing it whenever the roll falls short reaches the same P(captured) for 1.84."""
    rows = {r["timing"]: r for r in T.compare(chain(10, 4, 8, 1))}
    tied = [r for r in rows.values() if abs(r["captured"] - rows["optimal"]["captured"]) < 1e-9]
    assert rows["optimal"]["expected_attacker_losses"] <= min(
        r["expected_attacker_losses"] for r in tied) + 1e-9


@pytest.mark.parametrize("timing", TIMINGS)
def test_exact_and_monte_carlo_agree_for_every_timing(timing):
    kw = dict(attacker=6, attacker_cavalry=1, defender=3, attacker_leader=1, assaults=3,
              attacker_cards=[f"siege-artillery:{timing}"])
    exact, mc = engines_agree(siege, kw, trials=100_000, seed=11)
    assert "card_kept" in mc.probabilities


def test_held_card_with_first_assault_cards_and_surprise():
    kw = dict(attacker=7, attacker_cavalry=2, defender=3, defender_cavalry=1, assaults=3,
              attacker_cards=["siege-artillery:optimal"],
              defender_cards=["surprise-attack"], allow_bribed_surprise=True,
              attacker_fresh_cards=["siege-mining"])
    engines_agree(siege, kw, trials=100_000, seed=3)


def test_json_and_summary_compare_the_timings():
    r = siege(6, 3, assaults=4, attacker_cards=["siege-artillery:optimal"])
    out = r.to_json()
    assert out["card_kept"] == r["card_kept"]
    assert [row["timing"] for row in out["timings"]] == list(TIMINGS)
    assert len(out["optimal_rule"]) == 4
    assert "optimal rule" in r.summary() and out["settings"]["attacker_cards"] == [
        "siege-artillery:optimal"]


@pytest.mark.parametrize("cards", [["siege-artillery:sometimes"], ["siege-artillery:later"]])
def test_bad_timing_is_one_line(cards, capsys):
    with pytest.raises(OddsError, match="attacker_cards: .*allowed: always, first, if-needed"):
        siege(5, 2, assaults=2, attacker_cards=cards)
    argv = ["his", "siege", "--attacker", "5", "--defender", "2", "--assaults", "2",
            "--attacker-card", cards[0]]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_siege_too_large_to_solve_is_refused_in_one_line_not_a_hang():
    # the optimal rule is solved exactly for Monte Carlo too: refused whatever the method
    for method in ("auto", "mc"):
        with pytest.raises(OddsError, match=r"^attacker_cards: 'siege-artillery:optimal' .*"
                           r"work units .*allowed: at most 5,000,000") as e:
            siege(200, 100, assaults=100, attacker_cards=["siege-artillery:optimal"],
                  method=method)
        assert "\n" not in str(e.value)
    with pytest.raises(OddsError, match=r"^method: 'exact': .*allowed: at most 5,000,000"):
        siege(200, 100, assaults=100, attacker_cards=["siege-artillery:if-needed"],
              method="exact")


def test_restless_mercenaries_breaking_the_siege_leave_the_card_in_hand():
    # 6 units, 3 of them mercenaries, against 3: Mercenaries Grow Restless leaves 3 against 3,
    # the siege breaks before any roll, and the held copy is never played
    r = siege(6, 3, attacker_mercenaries=3, defender_cards=["mercenaries-grow-restless"],
              attacker_cards=["siege-artillery:optimal"], assaults=3)
    assert r["siege_broken"] == 1 and r["card_kept"] == 1


@pytest.mark.parametrize("spec, keyword", [("his.siege", "attacker_cards"),
                                           ("his.attack", "siege_cards")])
def test_the_held_timings_a_keyword_describes_are_the_ones_it_takes(spec, keyword):
    from odds.his.sieges.timing import held

    param = registry.get(spec).param(keyword)
    described = param.describe(())["policies"]["siege-artillery"]
    for timing in described:
        assert held([f"siege-artillery:{timing}"])[1] in TIMINGS
    with pytest.raises(OddsError, match="unknown timing"):
        held(["siege-artillery:sometimes"])
    assert set(described) == {"always", *TIMINGS}
