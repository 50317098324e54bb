"""The designer's loop (issue 50): rule variants that survive any engine (plain cells: the
README's variant example on two worker processes gives the in-process frame), a difference
with its standard error and 95% interval wherever odds prints or draws one, every rule number
a setting (hit numbers; a crusades scenario's unit statistics and army counts in --need), the
readings carried by a sweep's frame, plot, chart and parquet, and the designer's table."""
import json
import pickle
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import odds  # noqa: E402
from odds import crusades, plot  # noqa: E402
from odds.frontends.cli.main import main  # noqa: E402
from odds.registry import get  # noqa: E402
from odds.tools.sweep import sweep  # noqa: E402

README = Path(__file__).parents[1] / "README.md"
NAVAL = {"attacker_galleys": [2, 3, 4], "defender_galleys": [2, 3],
         "variant": {"vq": {}, "galleys-roll-1": {"dice_per": {"galley": 1}}}}
MEDITERRANEAN = {"location": "mediterranean"}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def readme_variant_spec(engine: str = "") -> str:
    """The README's variant example, as printed there, with `engine` lines after its first."""
    block = re.search(r'```toml\n(procedure = "vq\.naval"\n.*?)```', README.read_text(), re.S)
    assert block, "the README's variant example (a vq.naval spec with [grid.variant.*])"
    first, rest = block.group(1).split("\n", 1)
    assert "[grid.variant.vq]" in rest and "[grid.variant.galleys-roll-1]" in rest
    return f"{first}\n{engine}{rest}"


# ---- 1. variants that survive any engine ---------------------------------------------------

@pytest.mark.parametrize("engine", ["", 'method = "mc"\ntrials = 2000\nseed = 11\n'])
def test_the_readme_variant_example_gives_the_same_frame_in_process_and_on_two_workers(
        tmp_path, capsys, engine):
    spec = tmp_path / "spec.toml"
    spec.write_text(readme_variant_spec(engine))
    here, there = tmp_path / "here.parquet", tmp_path / "there.parquet"
    assert main(["sweep", str(spec), "--out", str(here)]) == 0
    assert main(["sweep", str(spec), "--workers", "2", "--out", str(there)]) == 0, capsys.readouterr().err
    a, b = pd.read_parquet(here), pd.read_parquet(there)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs and a.attrs["notes"]
    assert list(a.variant.unique()) == ["vq", "galleys-roll-1"] and len(a) == 8
    if engine:  # the variants of a grid cell share its seed: common random numbers
        assert (a[a.variant == "vq"].seed.to_numpy() == a[a.variant != "vq"].seed.to_numpy()).all()
        again = odds.tools.sweep.load(spec, progress=False)
        pd.testing.assert_frame_equal(a, again)


def test_cells_are_plain_data():
    cells = odds.tools.sweep.cells("vq.naval", {"attacker_galleys": [2, 3], **{"variant": NAVAL["variant"]}},
                             {"defender_galleys": 3, **MEDITERRANEAN})
    assert pickle.loads(pickle.dumps(cells)) == cells
    assert json.loads(json.dumps(cells)) == cells  # no identity markers: plain data only
    assert "dice_per" not in cells[0] and cells[2]["dice_per"] == {"galley": 1}


def test_a_variant_sweep_on_a_given_cluster_is_the_in_process_one():
    distributed = pytest.importorskip("dask.distributed")
    grid = {**NAVAL, "variant": {**NAVAL["variant"], "six": {"hit_on": {"galley": 6}}}}
    here = sweep("vq.naval", grid, MEDITERRANEAN, method="mc", trials=1000, seed=5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as c, distributed.Client(c) as client:
        there = sweep("vq.naval", grid, MEDITERRANEAN, method="mc", trials=1000, seed=5, client=client)
    pd.testing.assert_frame_equal(here, there)
    assert here.attrs == there.attrs


# ---- 2. differences with their intervals ---------------------------------------------------

def test_monte_carlo_variants_are_paired_and_their_intervals_cover_the_exact_difference():
    mc = sweep("vq.naval", NAVAL, MEDITERRANEAN, method="mc", trials=20_000, seed=3)
    exact = sweep("vq.naval", NAVAL, MEDITERRANEAN)
    d, truth = odds.tools.sweep.difference(mc), odds.tools.sweep.difference(exact)
    assert (d.attrs["a"], d.attrs["b"]) == ("galleys-roll-1", "vq")
    assert set(d.engine) == {"Monte Carlo, paired (20 runs of common random numbers)"}
    assert set(truth.engine) == {"exact"} and (truth.se == 0).all()
    assert (truth.low == truth.difference).all() and (truth.high == truth.difference).all()
    covered = (d.low <= truth.difference) & (truth.difference <= d.high)
    assert covered.sum() >= len(d) - 1
    from odds.tools.differences import t975
    assert (d.high - d.difference).to_numpy() == pytest.approx(t975(19) * d.se.to_numpy())
    # common random numbers: the paired error is below that of two independent runs
    rows = mc.set_index(["variant", "attacker_galleys", "defender_galleys"])
    independent = np.hypot(rows.loc["vq"].attacker_win_se.to_numpy(),
                           rows.loc["galleys-roll-1"].attacker_win_se.to_numpy())
    assert (d.se.to_numpy() < independent).all()
    apart = sweep("vq.naval", NAVAL, MEDITERRANEAN, method="mc", trials=20_000, seed=3,
                  seeds="independent")
    assert set(odds.tools.sweep.difference(apart).engine) == {"Monte Carlo, independent runs"}
    assert apart.seed.nunique() == len(apart) and apart.replicates.isna().all()


def test_a_variant_that_changes_nothing_differs_by_exactly_nothing():
    grid = {"attacker_galleys": [2, 3], "variant": {"vq": {}, "same": {"dice_per": {"galley": 2}}}}
    d = odds.tools.sweep.difference(sweep("vq.naval", grid, {"defender_galleys": 2, **MEDITERRANEAN},
                                    method="mc", trials=4000, seed=1))
    assert (d.difference == 0).all() and (d.se == 0).all() and d.covers_zero.all()


def test_every_difference_odds_prints_or_draws_carries_its_interval(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(readme_variant_spec('method = "mc"\ntrials = 3000\nseed = 2\n'))
    assert main(["sweep", str(spec)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if re.match(r"\| \d", line)]
    assert len(rows) == 4
    for line in rows:  # attacker galleys | vq | galleys-roll-1 | difference | 95% interval
        assert re.search(r"\| [+-]?\d+\.\d \| [+-]?\d+\.\d to [+-]?\d+\.\d \|$", line), line
    results = tmp_path / "r.parquet"
    assert main(["sweep", str(spec), "--out", str(results), "--table", "csv"]) == 0
    csv = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out.split("\n", 1)[1]))
    assert {"difference", "se", "low", "high", "covers_zero", "engine"} <= set(csv.columns)
    assert main(["table", str(results), "--format", "markdown"]) == 0
    assert "95% interval" in capsys.readouterr().out
    df = pd.read_parquet(results)
    df2 = sweep("vq.naval", {"attacker_galleys": [1, 2, 3, 4], "defender_galleys": [1, 2, 3],
                             "variant": {"vq": {}, "a": {"dice_per": {"corsair": 2}}}},
                MEDITERRANEAN, method="mc", trials=2000, seed=1)
    ax = plot.difference(df2, "attacker_galleys", "defender_galleys", "variant", "a", "vq")
    d = odds.tools.sweep.difference(df2, a="a", b="vq")
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert d.covers_zero.all() and len(hatched) == len(d)  # no corsairs: nothing changes
    assert "95% interval covers 0" in ax.get_title() and "paired" in ax.get_title()
    png = tmp_path / "diff.png"
    assert main(["plot", str(results), "--x", "attacker_galleys", "--y", "defender_galleys",
                 "--diff", "variant=galleys-roll-1,vq", "--out", str(png)]) == 0 and png.stat().st_size
    lines = plot.difference_lines(df, "attacker_galleys")
    assert [c for c in lines.containers if c.has_yerr]  # each point with its interval


# ---- 3. every rule number a setting --------------------------------------------------------

RACE = {"attacker_race_built": 3, "attacker_power": "england", "defender_galleons": 4,
        "defender_power": "spain", "location": "atlantic"}


def test_race_built_hit_on_4_6_is_one_spec_line_and_its_50_50_number_one_need(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "vq.naval"\n[grid]\nattacker_race_built = [2, 3]\n'
                    '[grid.variant.rules]\n[grid.variant.race-built-4]\n'
                    'hit_on = { race_built = 4 }\n'  # the one line
                    '[fixed]\nattacker_power = "england"\ndefender_galleons = 4\nlocation = "atlantic"\n')
    df = odds.tools.sweep.load(spec, progress=False)
    for r in df.itertuples():
        hit_on = {"race_built": 4} if r.variant == "race-built-4" else None
        direct = odds.his.naval_battle(attacker_race_built=r.attacker_race_built,
                                      attacker_power="england", defender_galleons=4,
                                      location="atlantic", hit_on=hit_on)
        assert r.attacker_win == pytest.approx(direct.p, abs=1e-12)
    assert (df[df.variant == "race-built-4"].attacker_win.to_numpy()
            > df[df.variant == "rules"].attacker_win.to_numpy()).all()
    assert json.loads(df.hit_on[2])["race_built"] == 4 and json.loads(df.hit_on[0])["race_built"] == 5
    assert main(["vq", "naval", "--attacker-race-built", "3", "--attacker-power", "england",
                 "--defender-galleons", "4", "--location", "atlantic", "--need", "0.5",
                 "--vary", "hit_on.race_built=2..6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hit_on.race_built=3 gives P(attacker win) 69.0% (hit_on.race_built=4 "
                          "gives 47.0%): the most") and "reaches 50.0%" in out.splitlines()[0]


@pytest.mark.parametrize("kw", [
    {**RACE, "hit_on": {"race_built": 4}},
    {**RACE, "defender_race_built": 1, "defender_power": "england", "attacker_galleons": 1,
     "hit_on": ["race_built=4", "defender_galleon=6", "leader=3"], "attacker_leader": 1,
     "defender_cards": ["arquebusiers"]},
    {"attacker_galleys": 3, "defender_galleys": 2, "defender_corsairs": 2,
     "defender_power": "ottoman", "port": True, "defender_cards": ["galleasses:always"],
     "location": "mediterranean", "hit_on": {"corsair": 4, "galleasses": 3, "attacker_galley": 6}},
])
def test_naval_hit_numbers_exact_against_monte_carlo(kw):
    exact = odds.his.naval_battle(**kw)
    mc = odds.his.naval_battle(**kw, method="mc", trials=400_000, seed=7)
    for name, p in exact.probabilities.items():
        assert abs(mc[name] - p) <= 4.5 * mc.se(p) + 1e-9, name
    for name, pmf in exact.pmfs.items():
        assert np.abs(mc[name] - pmf).max() <= 4.5 * np.sqrt(pmf * (1 - pmf) / mc.trials).max() + 1e-9


def test_here_i_stand_hit_numbers_are_settings():
    plain = odds.his.field_battle(5, 5)
    better = odds.his.field_battle(5, 5, attacker_hit_on=4)
    assert better.p > plain.p and better.settings["attacker_hit_on"] == 4
    assert "attacker_hit_on" not in plain.settings and "hitting on 4-6" in better.explain[0]
    for kw in ({"attacker_hit_on": 4}, {"defender_hit_on": 6, "attacker_cards": ["surprise-attack"]},
               {"attacker_hit_on": 3, "attacker_power": "hapsburg", "attacker_cards": ["tercios"]}):
        exact = odds.his.field_battle(5, 4, **kw)
        mc = odds.his.field_battle(5, 4, **kw, method="mc", trials=400_000, seed=2)
        assert abs(mc.p - exact.p) <= 4.5 * mc.se(exact.p)
    df = sweep("his.field", {"attacker": [3, 6], "defender_hit_on": [4, 5, 6]}, {"defender": 4})
    assert set(df.method) == {"exact"}
    for r in df.itertuples():
        assert r.attacker_win == pytest.approx(
            odds.his.field_battle(r.attacker, 4, defender_hit_on=r.defender_hit_on).p, abs=1e-12)
    n = odds.need("his.field", {"attacker": 5, "defender": 5}, vary="attacker_hit_on=2..6", target=0.5)
    assert n.value == 4 and n.reaches == "most"
    with pytest.raises(odds.OddsError, match="attacker_hit_on: 7 is out of range"):
        odds.his.field_battle(5, 5, attacker_hit_on=7)
    # the defender's die for defending is a number of the rules' table too
    assert odds.his.field_battle(5, 5, defender_bonus_dice=0).p > plain.p
    df = sweep("his.field", {"defender_bonus_dice": [0, 1, 2]}, {"attacker": 5, "defender": 5})
    assert df.attacker_win[1] == pytest.approx(plain.p, abs=1e-12) and df.attacker_win.is_monotonic_decreasing


def test_a_dice_and_hit_number_together_say_where_the_hit_number_goes(capsys):
    assert main(["vq", "naval", "--attacker-race-built", "3", "--attacker-power", "england",
                 "--defender-galleons", "4", "--location", "atlantic",
                 "--dice-per", "race_built=2:4"]) == 2
    assert "a hit number is --hit-on race_built=4" in capsys.readouterr().err
    with pytest.raises(odds.OddsError, match="hit_on: 'fives'"):
        odds.his.naval_battle(**RACE, hit_on={"fives": 4})


def test_need_and_compare_take_engine_options_among_the_keywords():
    mc = {"method": "mc", "trials": 20_000}
    inside = odds.need("his.field", {"defender": 5, "seed": 1, **mc}, vary="attacker", target=0.8)
    outside = odds.need("his.field", {"defender": 5}, vary="attacker", target=0.8, seed=1, **mc)
    assert (inside.value, inside.evaluated) == (outside.value, outside.evaluated)
    with pytest.raises(odds.OddsError, match="seed: given twice"):
        odds.need("his.field", {"defender": 5, "seed": 1}, vary="attacker", target=0.8, seed=2)
    t = odds.compare("his.field", {"attacker": 5, "defender": 4, "seed": 3, **mc}, {"more": {"attacker": 6}})
    assert t.attrs["seed"] == 3


FIELD = str(crusades.EXAMPLES / "field.toml")


def test_crusades_unit_statistics_and_army_counts_are_settings_of_a_need_and_a_sweep():
    army = odds.need("crusades.battle", {"scenario": FIELD}, vary="attacker.army.knights=0..8",
                     target=0.9, trials=300, seed=1)
    attack = odds.need("crusades.battle", {"scenario": FIELD}, vary="units.knights.attack=1..8",
                       target=0.9, trials=300, seed=1)
    for n in (army, attack):
        assert n.value is not None and n.sentence().startswith(n.vary + "=")
    assert army.vary == "attacker.army.knights" and attack.vary == "units.knights.attack"
    df = sweep("crusades.battle", {"attacker.army.knights": [1, 5]}, {"scenario": FIELD},
               trials=300, seed=1)
    assert list(df["attacker.army.knights"]) == [1, 5] and df.attacker_win[1] > df.attacker_win[0]


# ---- 4. readings carried -------------------------------------------------------------------

def test_a_sweeps_frame_parquet_plot_and_chart_keep_the_readings_of_their_answers(tmp_path):
    df = sweep("vq.naval", NAVAL, MEDITERRANEAN)
    reading = "the Virgin Queen dice per ship: galley 2 assumed"
    assert any(n.startswith(f"reading: {reading}") and n.endswith("(variant vq)") for n in df.attrs["notes"])
    assert any(n.startswith("every number exact") for n in df.attrs["notes"])
    assert any(r.startswith(reading) for r in df.attrs["readings"])
    path = tmp_path / "r.parquet"
    df.to_parquet(path)
    assert pd.read_parquet(path).attrs["notes"] == df.attrs["notes"]
    csv = tmp_path / "r.csv"
    df.to_csv(csv, index=False)
    from odds.tools.frames import said
    assert said(pd.read_csv(csv))["notes"] == df.attrs["notes"]  # each row keeps its own
    for variant, shown in (("vq", True), ("galleys-roll-1", False)):  # the rows drawn, not the others
        ax = plot.heatmap(df, "attacker_galleys", "defender_galleys", where=f"variant={variant}")
        assert (reading in "\n".join(t.get_text() for t in ax.figure.texts)) is shown
    oath = sweep("oath.campaign", {"warbands": [4, 6], "edition": ["law", "new-foundations"]},
                 {"defense_dice": 3})
    assert any("the New Foundations commitment" in n and "(2 of 4 cells)" in n
               for n in oath.attrs["notes"])
    from odds.tools.chart import footnote
    keywords = dict(corsairs=2, adjacent_squadrons=1, andrea_doria=True)
    said = footnote([[odds.his.piracy(**keywords)]], get("his.piracy"), [keywords])
    assert "a reading: Andrea Doria's dice: 3 assumed (" in said and "doria_dice" not in said


# ---- 5. the designer's table ---------------------------------------------------------------

def test_the_table_needs_no_optional_dependency(monkeypatch):
    monkeypatch.setitem(sys.modules, "tabulate", None)  # `import tabulate` fails
    df = sweep("vq.naval", NAVAL, MEDITERRANEAN)
    text = odds.tools.sweep.table(df)
    head = "| attacker galleys | defender galleys | vq | galleys-roll-1 | galleys-roll-1 − vq | 95% interval |"
    assert head in text and text.count("| exact |") == 6
    csv = pd.read_csv(__import__("io").StringIO(odds.tools.sweep.table(df, fmt="csv")))
    assert len(csv) == 6 and (csv.difference == csv["galleys-roll-1"] - csv.vq).all()
    with pytest.raises(odds.OddsError, match="format"):
        odds.tools.sweep.table(df, fmt="html")


def test_heatmap_cells_carry_their_numbers_and_titles_are_words():
    df = sweep("his.field", {"attacker": [2, 4, 6], "defender": [2, 4],
                             "attacker_cards": [[], ["field-artillery"]]})
    ax = plot.heatmap(df, "attacker", "defender", where="attacker_cards=['field-artillery']")
    numbers = [t.get_text() for t in ax.texts if not t.get_text().endswith("%")]  # not the contour's
    want = df[df.attacker_cards.map(len) == 1].sort_values(["defender", "attacker"]).attacker_win
    assert numbers == [f"{100 * p:.0f}" for p in want]
    assert "attacker cards: field-artillery" in ax.get_title()
    assert "where" not in ax.get_title() and "[" not in ax.get_title()


# ---- the crusades' differences -------------------------------------------------------------

def test_crusades_sensitivity_notes_and_balance_crosses_carry_intervals(capsys):
    r = crusades.sensitivity(FIELD, battles=300, seed=1)
    done = [row for row in r.rows if row.get("p") is not None]
    assert done and all(row["change_low"] <= row["change"] <= row["change_high"] for row in done)
    assert main(["crusades", "sensitivity", FIELD, "--battles", "200", "--seed", "1", "--brief"]) == 0
    changes = capsys.readouterr().out.splitlines()[1:]
    assert changes and all(re.search(r": [+-]?\d+\.\d% \(95% interval [+-]?\d+\.\d% to [+-]?\d+\.\d%\)$", c)
                           for c in changes)
    frame = crusades.balance(FIELD, types=["militia", "knights"], budgets=[6], battles=40, seed=0,
                             threads=1, progress=False)
    ax = crusades.plot_balance(frame).axes[0]
    crosses = [c for c in ax.containers if c.get_label().startswith("50/50 upkeep")]
    assert crosses and crosses[0].has_xerr
