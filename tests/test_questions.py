"""odds.compare and odds.need (odds.tools.questions): against each plan's own call, hand-computed
field battles, a brute-force loop over the range, a non-monotone event, Monte Carlo with a
fixed seed; the CLI's one-line errors."""
import json
import math

import pytest

import odds
from odds.core.interval import wilson
from odds import OddsError
from odds.frontends.cli.main import main
from odds.tools.questions.need import NEED_MAX_VALUES
from odds.registry import get

ASSAULT = dict(attacker=6, attacker_leader=1, defender=3)
PLANS = {"artillery": {"attacker_cards": ["siege-artillery"]}, "eight": {"attacker": 8},
         "both": {"attacker": 8, "attacker_cards": ["siege-artillery"]}}


def test_compare_rows_are_each_plans_own_call_and_changes_are_against_the_base():
    table = odds.compare("his.assault", base=ASSAULT, plans=PLANS)
    spec = get("his.assault")
    base = spec.call(**ASSAULT)
    assert list(table.index) == ["base", "artillery", "eight", "both"]
    for name, changes in {"base": {}, **PLANS}.items():
        own = spec.call(**{**ASSAULT, **changes})
        row = table.loc[name]
        assert row["success"] == own.p and row["success_se"] == 0
        for pmf in ("attacker_losses", "defender_losses"):
            assert row["expected_" + pmf] == pytest.approx(own.expected(pmf), abs=1e-12)
        if name != "base":
            assert row["success_change"] == pytest.approx(own.p - base.p, abs=1e-12)
            assert row["expected_defender_losses_change"] == pytest.approx(
                own.expected("defender_losses") - base.expected("defender_losses"), abs=1e-12)
    assert table.loc["artillery", "success"] > table.loc["base", "success"]


def test_compare_a_hand_computed_field_battle():
    """1 unit against 1 (the defender rolls 2 dice), hits on 5-6; attacker wins on more hits.
    1 die: wins iff it hits and both defender dice miss: 1/3 * 4/9 = 4/27. 2 dice: one hit
    against none (4/9 * 4/9) or two against at most one (1/9 * 8/9): 24/81 = 8/27.
    Attacker losses min(defender hits, units): 5/9, then 4/9 + 2 * 1/9 = 2/3. Defender losses
    (both wiped out: the defender, on equal or more dice, keeps its unit): 4/27, then any
    attacker hit while the defender hits at most once: 5/9 * 8/9 = 40/81."""
    table = odds.compare("his.field", {"attacker": 1, "defender": 1}, {"two": {"attacker": 2}})
    two = table.loc["two"]
    assert table.loc["base", "attacker_win"] == pytest.approx(4 / 27, abs=1e-12)
    assert two["attacker_win"] == pytest.approx(8 / 27, abs=1e-12)
    assert two["attacker_win_change"] == pytest.approx(4 / 27, abs=1e-12)
    assert two["expected_attacker_losses_change"] == pytest.approx(2 / 3 - 5 / 9, abs=1e-12)
    assert two["expected_defender_losses"] == pytest.approx(40 / 81, abs=1e-12)
    text = table.summary()
    assert "+14.81%" in text and "29.63%" in text and "exact" in text


def test_compare_monte_carlo_uses_one_seed_for_every_plan():
    mc = dict(method="mc", trials=100_000, seed=11)
    base = dict(attacker=4, defender=4)
    plans = {"same": {"attacker_cards": []}, "six": {"attacker": 6}}
    table = odds.compare("his.field", base, plans, **mc)
    spec = get("his.field")
    own = spec.call(**base, attacker_cards=[], **mc)
    assert table.loc["same", "attacker_win"] == own.p  # bit for bit: the same seed
    assert table.loc["same", "attacker_win_change"] == 0  # common random numbers
    six = spec.call(**{**base, "attacker": 6}, **mc)
    assert table.loc["six", "attacker_win"] == six.p and table.loc["six", "attacker_win_se"] == six.se(six.p)
    assert table.loc["six", "attacker_win_change_se"] == pytest.approx(math.hypot(six.se(six.p), own.se(own.p)))
    exact = odds.compare("his.field", base, plans)
    change, se = table.loc["six", "attacker_win_change"], table.loc["six", "attacker_win_change_se"]
    assert abs(change - exact.loc["six", "attacker_win_change"]) < 4.5 * se
    assert "seed 11" in table.summary() and "common random numbers" in table.summary()
    json.dumps(table.to_json())  # strict JSON (no NaN)


@pytest.mark.parametrize("plans, words", [
    ({"x": {"attackers": 3}}, "plan x: attackers: not a parameter"),
    ({"x": {"attacker": 0}}, "plan x: attacker"),
    ({"x": {"attacker_cards": ["nope"]}}, "plan x: attacker_cards: unknown card"),
    ({}, "none given"),
    ({"base": {"attacker": 3}}, "other than 'base'"),
])
def test_compare_refuses_bad_plans_naming_them(plans, words):
    with pytest.raises(OddsError, match=words):
        odds.compare("his.field", {"attacker": 3, "defender": 3}, plans)


def brute(procedure, base, name, values, target, event=None, **engine):
    """The answer by evaluating every value: (value, neighbour) at the first change of side."""
    spec = get(procedure)
    ps = []
    for v in values:
        r = spec.call(**{**base, name: v}, **engine)
        ps.append(r.probabilities[event or r.main])
    start = ps[0] >= target
    for i, p in enumerate(ps[1:], 1):
        if (p >= target) != start:
            return (values[i - 1], values[i]) if start else (values[i], values[i - 1])
    return None, None


@pytest.mark.parametrize("procedure, base, name, span, target, event", [
    ("his.field", {"defender": 5, "defender_leader": 1}, "attacker", (1, 40), 0.8, None),
    ("his.field", {"defender": 5, "defender_leader": 1}, "attacker", (1, 40), 0.3, None),
    ("his.field", {"attacker": 9}, "defender", (1, 40), 0.5, None),
    ("his.field", {"attacker": 3, "defender": 3}, "attacker_leader", (0, 6), 0.6, None),
    ("his.siege", {"attacker": 6, "defender": 2}, "assaults", (1, 12), 0.9, "captured"),
    ("oath.campaign", {"warbands": 6, "defenders": 3}, "defense_dice", (0, 30), 0.5, None),
])
def test_need_matches_a_brute_force_loop_over_the_range(procedure, base, name, span, target, event):
    low, high = span
    answer = odds.need(procedure, base, vary=f"{name}={low}..{high}", target=target, event=event)
    assert (answer.value, answer.neighbour) == brute(procedure, base, name, range(low, high + 1),
                                                     target, event)
    assert answer.monotone
    assert len(answer.evaluated) < high - low + 1
    assert answer.p >= target > answer.evaluated[answer.neighbour][0]


def test_need_on_the_whole_param_range_and_the_sentence():
    answer = odds.need("his.field", {"defender": 5, "defender_leader": 1}, vary="attacker", target=0.8)
    assert (answer.low, answer.high) == (1, 200) and answer.reaches == "least"
    assert len(answer.evaluated) <= 2 * math.ceil(math.log2(200)) + 3
    p, below = answer.p, answer.evaluated[answer.value - 1][0]
    assert answer.sentence().startswith(
        f"attacker={answer.value} gives P(attacker win) {p:.1%} (attacker={answer.value - 1} gives {below:.1%})")


def test_need_a_rule_variant_entry_of_dice_per():
    base = {"attacker_galleys": 3, "defender_galleons": 2}
    answer = odds.need("vq.naval", base, vary="dice_per.galley=0..6", target=0.5)
    spec = get("vq.naval")
    ps = [spec.call(**base, dice_per=[f"galley={n}"]).p for n in range(7)]
    first = next(n for n, p in enumerate(ps) if p >= 0.5)
    assert (answer.value, answer.neighbour) == (first, first - 1) and answer.vary == "dice_per.galley"


def test_need_not_monotone_scans_the_range_and_says_so():
    """P(both sides wiped out, one unit kept) rises then falls with the attacker's units: against
    4 defenders it is 0 up to 3 attackers, 0.06% at 4, 0.02% at 5, then 0 again. The doubling
    steps (1, 2, 3, 5, 9, ...) all miss 0.05%, but fall after rising: only the scan finds 4."""
    base, target = {"defender": 4}, 0.0005
    spec = get("his.field")
    ps = [spec.call(**base, attacker=a).probabilities["both_eliminated_rule"] for a in range(1, 31)]
    assert ps[0] < target and ps[-1] < target and max(ps) >= target  # the case is not monotone
    answer = odds.need("his.field", base, vary="attacker=1..30", target=target,
                       event="both_eliminated_rule")
    assert not answer.monotone and set(range(1, 5)) <= set(answer.evaluated)
    assert answer.value == 4 and answer.reaches == "least"
    assert (answer.value, answer.neighbour) == brute("his.field", base, "attacker", range(1, 31),
                                                     target, "both_eliminated_rule")
    assert "NOT monotone" in answer.summary()


def test_need_out_of_reach_and_already_reached():
    none = odds.need("his.field", {"defender": 5}, vary="attacker=1..3", target=0.9)
    assert none.value is None and none.reaches == "none" and "no attacker from 1 to 3 gives" in none.sentence()
    every = odds.need("his.field", {"defender": 1}, vary="attacker=30..35", target=0.5)
    assert every.reaches == "all" and every.sentence().startswith("every attacker from 30 to 35")
    mc = odds.need("his.field", {"defender": 5}, vary="attacker=1..3", target=0.9, method="mc",
                   trials=20_000)
    assert mc.reaches == "none" and mc.method == "mc" and "[95%: " in mc.sentence()


def test_need_stops_its_range_where_the_procedure_stops_taking_values():
    """More mercenaries than units end the range with a note (issue 48: the question was
    answered with the error of the first value past the units)."""
    answer = odds.need("his.field", {"attacker": 3, "defender": 3}, vary="attacker_mercenaries=0..9",
                       target=0.99)
    assert (answer.low, answer.high, answer.reaches) == (0, 3, "none")
    assert answer.sentence().startswith("no attacker_mercenaries from 0 to 3 gives P(attacker win) 99.0%")
    assert answer.notes == ("attacker_mercenaries stops at 3: at 4, attacker_mercenaries + "
                            "attacker_cavalry: 4 + 0 is more than the 3 units (allowed: at most 3)",)
    assert max(answer.evaluated) == 3


def test_need_names_the_value_an_error_comes_from():
    with pytest.raises(OddsError, match=r"^vary attacker_mercenaries=4: attacker_mercenaries"):
        odds.need("his.field", {"attacker": 3, "defender": 3}, vary="attacker_mercenaries=4..9",
                  target=0.5)


def test_need_monte_carlo_with_a_fixed_seed():
    mc = dict(method="mc", trials=50_000, seed=5)
    base = {"defender": 5, "defender_leader": 1}
    answer = odds.need("his.field", base, vary="attacker=1..30", target=0.8, **mc)
    assert answer.method == "mc" and answer.seed == 5 and answer.trials == 50_000
    assert (answer.value, answer.neighbour) == brute("his.field", base, "attacker", range(1, 31), 0.8, **mc)
    exact = odds.need("his.field", base, vary="attacker=1..30", target=0.8)
    assert abs(answer.value - exact.value) <= 1
    p, _ = answer.evaluated[answer.value]
    low, high = wilson(p, answer.trials)
    near = low <= 0.8 <= high
    assert near == any("within the Monte Carlo error" in n and f"attacker={answer.value} " in n
                       for n in answer.notes)
    assert f"{p:.1%} [95%: {low:.1%} to {high:.1%}]" in answer.sentence()


@pytest.mark.parametrize("kw, words", [
    (dict(vary="attacker_power"), r"vary: attacker_power is not an integer parameter \(its kind: choice\)"),
    (dict(vary="fortified"), "vary: fortified is not an integer parameter"),
    (dict(vary="attacker_cards"), "vary: attacker_cards is not an integer parameter"),
    (dict(vary="attacker=0..5"), "out of range"),
    (dict(vary="attacker=5..2"), "not a range"),
    (dict(vary="attacker.x"), "has no entries"),
    (dict(vary="attacker", event="captured"), "event: 'captured' is not an event of his.field"),
    (dict(vary="attacker", target=1.5), "target: 1.5 is out of range"),
])
def test_need_refuses_in_one_line(kw, words):
    kw = {"target": 0.5, **kw}
    with pytest.raises(OddsError, match=words):
        odds.need("his.field", {"defender": 3}, **kw)


def test_need_bounds_the_search():
    with pytest.raises(OddsError, match="dice_per is a KEY=N list: vary one entry"):
        odds.need("vq.naval", {"attacker_galleys": 2, "defender_galleys": 2},
                  vary="dice_per", target=0.5)
    with pytest.raises(OddsError, match="give a range"):
        odds.need("vq.naval", {"attacker_galleys": 2, "defender_galleys": 2},
                  vary="dice_per.galley", target=0.5)
    with pytest.raises(OddsError, match=f"up to {NEED_MAX_VALUES}"):
        odds.need("vq.naval", {"attacker_galleys": 2, "defender_galleys": 2},
                  vary="dice_per.galley=0..1000", target=0.5)
    with pytest.raises(OddsError, match="over .* trials"):
        odds.need("his.field", {"defender": 3}, vary="attacker", target=0.5, method="mc",
                  trials=10**8)


def test_a_stopped_monte_carlo_run_ends_the_question_marked_partial():
    """A run stopped (Ctrl-C, or the server's budget) comes back partial: the question stops."""
    from odds.core.montecarlo import stop_when

    mc = dict(method="mc", trials=10**7, seed=1)
    with stop_when(lambda sampling: True):
        table = odds.compare("his.field", {"attacker": 4, "defender": 4}, {"six": {"attacker": 6}}, **mc)
        answer = odds.need("his.field", {"defender": 4}, vary="attacker=1..20", target=0.8, **mc)
    assert table.partial and list(table.index) == ["base"] and "interrupted" in table.summary()
    assert answer.partial and answer.value is None and answer.sentence().startswith("interrupted")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_compare_and_need(capsys):
    code, out, err = run(capsys, "his", "assault", "--attacker", "6", "--attacker-leader", "1",
                         "--defender", "3", "--compare", "attacker_cards=siege-artillery",
                         "--compare", "attacker=8", "attacker-card=siege-artillery", "--json")
    assert code == 0, err
    rows = {r["plan"]: r for r in json.loads(out)["plans"]}
    want = get("his.assault").call(**{**ASSAULT, **PLANS["both"]})
    assert rows["attacker=8 attacker-card=siege-artillery"]["success"] == want.p
    code, out, err = run(capsys, "his", "field", "--defender", "5", "--defender-leader", "1",
                         "--need", "0.8", "--vary", "attacker")
    exact = odds.need("his.field", {"defender": 5, "defender_leader": 1}, vary="attacker", target=0.8)
    assert code == 0 and out.splitlines()[0] == exact.sentence()


@pytest.mark.parametrize("argv, line", [
    (["--attacker", "3", "--compare", "attacker=x"], "--compare attacker=x: attacker: 'x' is not a whole number"),
    (["--attacker", "3", "--compare", "nope=1"], "--compare nope=1: nope: not a parameter of his.field"),
    (["--attacker", "3", "--compare", "attacker"], "--compare attacker: 'attacker' is not KEY=VALUE"),
    (["--attacker", "3", "--compare", "attacker_cards=nope"], "--compare attacker_cards=nope: attacker_cards: unknown card"),
    (["--need", "0.8"], "--need: give --vary"),
    (["--need", "150", "--vary", "attacker"], "--need: '150' is out of range"),
    (["--need", "0.8", "--vary", "fortified"], "--vary: fortified is not an integer parameter"),
    (["--need", "0.8", "--vary", "attacker", "--event", "nope"], "--event: 'nope' is not an event"),
    (["--attacker", "3", "--vary", "attacker"], "--vary: only with --need"),
    (["--need", "0.8", "--vary", "defender"], "--attacker: missing (required by his.field)"),
    (["--compare", "attacker=3"], "--attacker: missing (required by his.field)"),
])
def test_cli_question_mistakes_are_one_line_and_exit_2(capsys, argv, line):
    code, out, err = run(capsys, "his", "field", "--defender", "3", *argv)
    assert code == 2 and out == ""
    assert err.startswith("odds: error: ") and line in err and err.count("\n") == 1


@pytest.mark.parametrize("name", [n for n, s in odds.registry.specs().items() if s.command])
def test_every_procedure_command_has_the_question_flags(capsys, name):
    command = get(name).command
    code, _, err = run(capsys, *command, "--need", "0.5")
    assert code == 2 and "--need: give --vary" in err
    code, _, err = run(capsys, *command, "--compare", "nope=1")
    assert code == 2 and f"--compare nope=1: nope: not a parameter of {name}" in err


def test_cli_need_json_is_the_answer(capsys):
    code, out, _ = run(capsys, "his", "siege", "--attacker", "6", "--defender", "2", "--assaults", "1",
                       "--need", "0.9", "--vary", "assaults=1..10", "--event", "captured", "--json")
    got = json.loads(out)
    want = odds.need("his.siege", {"attacker": 6, "defender": 2}, vary="assaults=1..10", target=0.9,
                     event="captured")
    assert code == 0 and got["value"] == want.value and got["event"] == "captured"
    assert got["p"] == pytest.approx(want.p, abs=1e-12) and got["monotone"] is True
