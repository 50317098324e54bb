"""odds.luck and `odds luck`: percentiles against every dice outcome of small battles (exact
fractions), against an independent numpy simulation of large ones, the whole game against
replays of a whole record; bad records refused by line, the rest reported."""
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import odds
from odds import OddsError
from odds.frontends.cli.main import main
from odds.tools.luck.percentiles import percentile
from odds.tools.luck.report import SAMPLE, luck, whole_game


def _field(ah, dh, adice, ddice, ua, ud):
    """The field battle by the rulebook, written apart from odds: one loss per enemy hit; if
    both sides are wiped out the side that rolled more dice keeps a unit (ties: the defender)."""
    al, dl = min(dh, ua), min(ah, ud)
    if al == ua and dl == ud:
        if adice > ddice:
            al -= 1
        else:
            dl -= 1
    return ah > dh, al, dl


def _mid(counts: dict, x, higher=True) -> Fraction:
    """Mid-p percentile of x among outcomes weighted by counts (exact)."""
    total = sum(counts.values())
    worse = sum(n for v, n in counts.items() if (v < x if higher else v > x))
    return (Fraction(worse) + Fraction(counts.get(x, 0), 2)) / total


def _roll(procedure, side="A", against="B", **fields):
    keywords = fields.pop("keywords")
    return dict(procedure=procedure, keywords=keywords, side=side, against=against, **fields)


@pytest.mark.parametrize("ua, ud, bonus", [(2, 1, 0), (1, 2, 1), (3, 2, 0)])
def test_field_percentiles_are_those_of_every_dice_outcome(ua, ud, bonus):
    """Every (attacker hits, defender hits) of a small battle as a roll: both sides' percentile
    of the losses they dealt, and of the win, equal the enumeration of all 6^n dice."""
    adice, ddice = ua + bonus, ud + 1
    dealt_a, dealt_d, wins = {}, {}, {}
    outcome_of = {}
    for faces in itertools.product(range(1, 7), repeat=adice + ddice):
        ah = sum(f >= 5 for f in faces[:adice])
        dh = sum(f >= 5 for f in faces[adice:])
        won, al, dl = _field(ah, dh, adice, ddice, ua, ud)
        outcome_of[ah, dh] = (won, al, dl)
        dealt_a[dl] = dealt_a.get(dl, 0) + 1
        dealt_d[al] = dealt_d.get(al, 0) + 1
        wins[won] = wins.get(won, 0) + 1
    keywords = dict(attacker=ua, defender=ud, attacker_leader=bonus)
    pairs = sorted(outcome_of)
    frame = luck([_roll("his.field", keywords=keywords, attacker_hits=ah, defender_hits=dh)
                  for ah, dh in pairs])
    assert not frame.attrs["refused"] and frame.attrs["situations"] == 1
    for i, (ah, dh) in enumerate(pairs):
        won, al, dl = outcome_of[ah, dh]
        a, d = frame.iloc[2 * i], frame.iloc[2 * i + 1]
        assert (a.hits, a.losses, d.hits, d.losses, a.won) == (dl, al, al, dl, won)
        assert a.percentile == pytest.approx(100 * float(_mid(dealt_a, dl)), abs=1e-9)
        assert d.percentile == pytest.approx(100 * float(_mid(dealt_d, al)), abs=1e-9)
    p_win = Fraction(wins.get(True, 0), sum(wins.values()))
    win = luck([_roll("his.field", keywords=keywords, winner="attacker")]).iloc[0]
    assert win.percentile == pytest.approx(100 * float(1 - p_win / 2), abs=1e-9)


def test_assault_percentile_from_dice_is_that_of_every_dice_outcome():
    """2 infantry assault 1 (halved: 1 attack die; defender 2 dice): each dice roll given as
    dice; its hits percentile against all 6^3 outcomes. Defender losses = attacker hits."""
    counts = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        dl = min(sum(f >= 5 for f in faces[:1]), 1)
        counts[dl] = counts.get(dl, 0) + 1
    rolls = [_roll("his.assault", keywords=dict(attacker=2, defender=1),
                   attacker_dice=[a], defender_dice=[b, c]) for a, b, c in [(6, 1, 1), (4, 5, 6)]]
    frame = luck(rolls)
    attackers = frame[frame.role == "attacker"]
    assert list(attackers.hits) == [1, 0]
    assert list(attackers.percentile) == pytest.approx([100 * float(_mid(counts, 1)), 100 * float(_mid(counts, 0))])
    assert attackers.iloc[0].won and not attackers.iloc[1].won


def test_mid_p_of_a_coin_and_its_mean_is_one_half():
    coin = np.array([0.5, 0.5])
    assert percentile(coin, 1, 1) == 0.75 and percentile(coin, 0, 1) == 0.25
    pmf = np.array([0.1, 0.2, 0.3, 0.4])
    assert sum(pmf[x] * percentile(pmf, x, 1) for x in range(4)) == pytest.approx(0.5)
    assert sum(pmf[x] * percentile(pmf, x, -1) for x in range(4)) == pytest.approx(0.5)


def _simulate_field(rng, n, ua, ud, adice, ddice):
    ah = rng.binomial(adice, 1 / 3, n)
    dh = rng.binomial(ddice, 1 / 3, n)
    al, dl = np.minimum(dh, ua), np.minimum(ah, ud)
    both = (al == ua) & (dl == ud)
    return ah > dh, al - (both & (adice > ddice)), dl - (both & (adice <= ddice))


@pytest.mark.parametrize("ua, ud, leader, dealt", [(12, 10, 2, 6), (9, 14, 1, 3), (15, 6, 0, 6)])
def test_large_field_percentile_agrees_with_a_simulation(ua, ud, leader, dealt):
    """Too many dice to enumerate: a numpy simulation of the dice (200,000 battles, fixed seed)
    gives the percentile within 4 standard errors."""
    n = 200_000
    _, al, dl = _simulate_field(np.random.default_rng(7), n, ua, ud, ua + leader, ud + 1)
    estimate = np.mean(dl < dealt) + 0.5 * np.mean(dl == dealt)
    se = 0.5 / np.sqrt(n)
    row = luck([_roll("his.field", keywords=dict(attacker=ua, defender=ud, attacker_leader=leader),
                      defender_losses=dealt)]).iloc[0]
    assert abs(row.percentile / 100 - estimate) < 4 * se
    assert row.expected_hits == pytest.approx(dl.mean(), abs=4 * dl.std() / np.sqrt(n))


def test_whole_game_percentile_agrees_with_replays_of_the_whole_record():
    """30 field battles between two sides; the record replayed 20,000 times with numpy dice:
    each side's total hits dealt, wins and losses taken (fewer is luckier) sit at the simulated
    mid-p percentile (4 se), the 5-95% range within one of the simulated quantiles."""
    rng = np.random.default_rng(44)
    battles = [(int(rng.integers(2, 9)), int(rng.integers(2, 9)), int(rng.integers(0, 3)),
                bool(rng.integers(0, 2))) for _ in range(30)]
    rolls, outcomes = [], []
    for ua, ud, leader, a_attacks in battles:
        won, al, dl = (v[0] for v in _simulate_field(rng, 1, ua, ud, ua + leader, ud + 1))
        side, against = ("A", "B") if a_attacks else ("B", "A")
        rolls.append(_roll("his.field", side=side, against=against,
                           keywords=dict(attacker=ua, defender=ud, attacker_leader=leader),
                           winner="attacker" if won else "defender",
                           attacker_losses=int(al), defender_losses=int(dl)))
    frame = luck(rolls)
    game = whole_game(frame).set_index(["side", "measure"])
    n = 20_000
    totals = {(s, m): np.zeros(n) for s in "AB" for m in ("hits", "wins", "losses")}
    for ua, ud, leader, a_attacks in battles:
        won, al, dl = _simulate_field(rng, n, ua, ud, ua + leader, ud + 1)
        attacker, defender = ("A", "B") if a_attacks else ("B", "A")
        totals[attacker, "hits"] += dl
        totals[defender, "hits"] += al
        totals[attacker, "wins"] += won
        totals[defender, "wins"] += ~won
        totals[attacker, "losses"] += al
        totals[defender, "losses"] += dl
    for (side, measure), sums in totals.items():
        actual = game.loc[(side, measure), "actual"]
        worse = sums > actual if measure == "losses" else sums < actual
        estimate = np.mean(worse) + 0.5 * np.mean(sums == actual)
        assert abs(game.loc[(side, measure), "percentile"] / 100 - estimate) < 4 * 0.5 / np.sqrt(n)
        assert game.loc[(side, measure), "expected"] == pytest.approx(sums.mean(), abs=4 * sums.std() / np.sqrt(n))
        low, high = np.quantile(sums, [0.05, 0.95], method="inverted_cdf")
        assert abs(game.loc[(side, measure), "low"] - low) <= 1
        assert abs(game.loc[(side, measure), "high"] - high) <= 1


def test_a_side_s_cumulative_luck_ends_at_its_whole_game_total():
    frame = luck(SAMPLE)
    assert not frame.attrs["refused"] and frame.line.nunique() == 27
    game = whole_game(frame).set_index(["side", "measure"])
    for side, rows in frame[frame.plotted != ""].groupby("side"):
        measure = rows.plotted.iloc[0]
        total = game.loc[(side, measure)]
        assert rows.cumulative.iloc[-1] == pytest.approx(total.actual - total.expected)
        assert rows.band_low.iloc[-1] == pytest.approx(total.low - total.expected)
    assert set(frame.procedure) >= {"his.field", "his.assault", "his.siege", "his.naval", "his.reformation"}


BAD = """title = "bad rolls"
[[roll]]
procedure = "his.field"
keywords = { attacker = 5, defender = 4 }
side = "Ottoman"
against = "Hapsburg"
attacker_hits = 6
defender_hits = 1

[[roll]]
procedure = "his.feild"
side = "Ottoman"
winner = "attacker"

[[roll]]
procedure = "his.field"
keywords = { attacker = 5, defender = 4, attacker_leeder = 1 }
side = "Ottoman"
winner = "attacker"

[[roll]]
procedure = "his.intercept"
keywords = { succeeds_on = 2 }
side = "Ottoman"
winner = "defender"

[[roll]]
procedure = "his.field"
keywords = { attacker = 5, defender = 4 }
against = "Hapsburg"
winner = "attacker"

[[roll]]
procedure = "his.field"
keywords = "attacker=5 defender=4"
side = "Hapsburg"
defender_losses = 2
"""


def test_bad_rolls_are_refused_by_line_and_field_and_the_rest_reported(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BAD)
    frame = luck(str(path))
    assert list(frame.line) == [33]
    refused = frame.attrs["refused"]
    assert len(refused) == 5
    assert refused[0] == "line 7: attacker_hits: 6 is impossible from 5 dice (allowed: 0 to 5)"
    assert refused[1].startswith("line 11: procedure: 'his.feild' is unknown; did you mean "
                                 "'his.field'? (allowed: his.field,")
    assert refused[2].startswith("line 17: keywords: attacker_leeder: not a parameter of his.field")
    assert refused[3].startswith("line 25: winner: 'defender' is impossible here (the probability that success is false is 0)")
    assert refused[4] == "line 27: side: missing (every roll names its procedure and its side)"


def test_impossible_losses_a_wrong_winner_and_dice_that_do_not_fit_are_refused():
    field = dict(attacker=5, defender=4)
    rolls = [_roll("his.field", keywords=field, defender_losses=5),
             _roll("his.field", keywords=field, winner="C"),
             _roll("his.field", keywords=field, attacker_dice=[6, 6], defender_dice=[1] * 5),
             _roll("his.field", keywords=field, attacker_dice=[6] * 5, defender_dice=[1] * 5,
                   winner="defender"),
             _roll("his.field", keywords=field, attacker_hits=2),
             _roll("his.attack", keywords=dict(attacker=5, defender=2, assaults=1),
                   attacker_hits=1, defender_hits=1),
             _roll("his.field", keywords=field, colour="red", winner="A")]
    with pytest.raises(OddsError) as e:
        luck(rolls)
    assert "no roll could be read" in str(e.value)
    rolls.append(_roll("his.field", keywords=field, winner="A"))
    refused = luck(rolls).attrs["refused"]
    assert refused == [
        "line 1: defender_losses: 5 is impossible here (allowed: 0 to 4)",
        "line 2: winner: 'C' is not a side of this roll (allowed: attacker, defender, A, B)",
        "line 3: attacker_dice: 2 dice, but the attacker rolls 5 here",
        "line 4: winner: 'defender' but the dice say the attacker",
        "line 5: defender_dice: missing (the defender rolls 5 dice here: give them, 1 to 6 each, "
        "or their hits as defender_hits)",
        "line 6: attacker_hits: not read for his.attack: " + odds.registry.get("his.attack").not_rolled
        + " (give the losses and the winner)",
        "line 7: colour: not a field of a roll (allowed: procedure, keywords, side, against, winner, "
        "attacker_losses, defender_losses, attacker_hits, defender_hits, attacker_dice, defender_dice, "
        "choices, or ROLE_WHAT_dice for another group of dice)"]


def test_csv_record_with_keywords_as_words_and_dice_as_numbers(tmp_path):
    path = tmp_path / "game.csv"
    path.write_text("procedure,keywords,side,against,winner,attacker_dice,defender_dice,defender_losses\n"
                    "his.field,attacker=5 defender=4 attacker-leader=2,Ottoman,Hapsburg,,6 5 3 3 2 1 1,6 4 3 2 1,\n"
                    "his.field,attacker=5 defender=4,Hapsburg,Ottoman,attacker,,,9\n"
                    "his.reformation,adjacent_protestant=2,Protestant,Papacy,Papacy,,,\n")
    frame = luck(str(path))
    assert frame.attrs["refused"] == ["line 3: defender_losses: 9 is impossible here (allowed: 0 to 4)"]
    first = frame.iloc[0]
    assert (first.hits, first.losses, first.won) == (2, 1, True)
    assert list(frame.line) == [2, 2, 4, 4]


def test_cli_prints_the_game_exits_2_for_refused_rolls_and_writes_a_plot(tmp_path, capsys):
    plot = tmp_path / "luck.png"
    assert main(["luck", str(SAMPLE), "--plot", str(plot), "--brief"]) == 0
    out = capsys.readouterr().out
    assert "Ottoman" in out and "percentile" in out and plot.stat().st_size > 10_000
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD)
    assert main(["luck", str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert len(report["refused"]) == 5 and report["rolls"][0]["line"] == 33
    assert captured.err.count("\n") == 1 and "5 rolls refused" in captured.err
    assert main(["luck", str(tmp_path / "none.toml")]) == 2
    assert capsys.readouterr().err == f"odds: error: record: {tmp_path / 'none.toml'}: no such file\n"


def test_luck_is_exported():
    assert odds.luck is luck


@pytest.mark.parametrize("procedure, keywords, observed", [
    ("his.assault", dict(attacker=14, defender=6, attacker_leader=2), dict(defender_losses=4, attacker_losses=3)),
    ("his.naval", dict(attacker_squadrons=5, defender_squadrons=4, defender_corsairs=2, defender_power="ottoman"), dict(defender_losses=2, attacker_losses=1)),
])
def test_large_rolls_agree_with_the_procedure_s_monte_carlo_engine(procedure, keywords, observed):
    """The percentile from the exact pmf against the same mid-p read off the Monte Carlo
    engine's pmf (400,000 trials, fixed seed): within 4 standard errors (a mid-p's se is at
    most 1/2 / sqrt(n))."""
    from odds.registry import get

    n = 400_000
    mc = get(procedure).call(**keywords, method="mc", trials=n, seed=11)
    frame = luck([_roll(procedure, keywords=keywords, **observed)])
    for role, foe in (("attacker", "defender"), ("defender", "attacker")):
        row = frame[frame.role == role].iloc[0]
        estimate = percentile(mc.pmfs[f"{foe}_losses"], observed[f"{foe}_losses"], 1)
        assert abs(row.percentile / 100 - estimate) < 4 * 0.5 / np.sqrt(n)


def test_sample_flag_prints_a_record_that_reads_back(tmp_path, capsys):
    assert main(["luck", "--sample"]) == 0
    path = tmp_path / "game.toml"
    path.write_text(capsys.readouterr().out)
    assert path.read_text() == SAMPLE.read_text()
    assert main(["luck"]) == 2
    assert "record: missing (give a TOML or CSV file;" in capsys.readouterr().err


LEAF = st.one_of(st.integers(-3, 12), st.floats(allow_nan=True), st.booleans(), st.text(max_size=6),
                 st.sampled_from(["his.field", "his.assault", "attacker", "defender", "A", "B"]))
VALUE = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                     max_leaves=8)
KEYWORDS = st.dictionaries(st.sampled_from(["attacker", "defender", "attacker_leader", "attacker-cards",
                                            "defender_power", "x", "assaults", "cards"]), VALUE, max_size=3)
ROLL = st.fixed_dictionaries(
    {"procedure": st.sampled_from(["his.field", "his.assault", "his.reformation", "his.siege",
                                   "his.raiders", "nope"]),
     "side": st.sampled_from(["A", "B", ""])},
    optional={"keywords": st.one_of(KEYWORDS, st.text(max_size=12)), "against": st.sampled_from(["A", "B"]),
              "winner": VALUE, "attacker_losses": VALUE, "defender_hits": VALUE, "attacker_hits": VALUE,
              "attacker_dice": VALUE, "defender_dice": VALUE, "colour": VALUE, "choices": VALUE,
              "attacker_siege_artillery_dice": VALUE})


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(rolls=st.lists(ROLL, min_size=1, max_size=3))
def test_any_record_is_a_frame_or_one_line(rolls):
    """Fuzzed rolls: luck() answers a frame or an OddsError (never another exception), and
    every roll is either reported or refused."""
    try:
        frame = luck(rolls)
    except OddsError as e:
        assert "\n" not in str(e)
        return
    assert frame.line.nunique() + len(frame.attrs["refused"]) == len(rolls)
    assert frame.percentile.between(0, 100).all()


def test_each_side_has_one_overall_number_its_plotted_measure():
    frame = luck(SAMPLE)
    game = whole_game(frame)
    overall = game[game.overall].set_index("side")
    assert list(overall.index) == list(dict.fromkeys(game.side))
    assert overall.loc["Ottoman", "measure"] == "hits" and overall.loc["Protestant", "measure"] == "wins"
    for side, measure in overall.measure.items():
        assert set(frame[frame.side == side].plotted) <= {measure, ""}


def test_frames_of_two_records_concatenate():
    """The frame's attrs are plain data (pandas compares them when it concatenates frames)."""
    import pandas as pd

    one, two = luck(SAMPLE), luck([_roll("his.field", keywords=dict(attacker=3, defender=2), winner="A")])
    assert len(pd.concat([one, two])) == len(one) + 2 and len(pd.concat([one, luck(SAMPLE)])) == 2 * len(one)
    assert json.loads(json.dumps(one.attrs)) == one.attrs


def test_a_situation_beyond_the_exact_bounds_is_refused_in_the_luck_words(tmp_path, capsys):
    """odds luck is exact only: a roll whose exact answer is too large says what is smaller,
    never the engine's --method mc, a flag it has not (as odds chart: tests/test_chart.py)."""
    record = tmp_path / "big.toml"
    record.write_text('[[roll]]\nprocedure = "his.siege"\nside = "attacker"\n'
                      "keywords = { attacker = 150, defender = 150, assaults = 20 }\n"
                      'winner = "attacker"\n')
    assert main(["luck", str(record)]) == 2
    err = capsys.readouterr().err
    assert "a luck score is exact only: give fewer units or assaults" in err
    assert "method" not in err
