"""Balance by upkeep (odds.crusades.balance): armies bought by hand, a matchup of twins is even,
a stronger type wins at equal cost, identical units at double the price are even at double the
upkeep, the 50/50 bisection against a brute-force scan, CLI errors, Ctrl-C, the plot."""
import importlib
import json

import numpy as np
import pytest
from agreement import Z

from odds import OddsError, crusades
from odds.frontends.cli.main import main
from odds.crusades.upkeep.table import bisect_even, buy, falls, match, search_points
from odds.crusades.upkeep.report import summary

B = importlib.import_module("odds.crusades.upkeep.table")  # the module (crusades.balance: the function)
FIELD = str(crusades.EXAMPLES / "field.toml")
FOOT = dict(health=6, attack=2, speed=2, morale=4, range=1)  # two hits (4 damage) test morale


def scenario(tmp_path, **units):
    """A 6 x 6 open board; each unit type FOOT unless given, with its upkeep."""
    text = ""
    for name, stats in units.items():
        text += f"[units.{name}]\n" + "".join(f"{k} = {v}\n" for k, v in stats.items())
    first = next(iter(units))
    text += f"""
[attacker]
army = {{ {first} = 1 }}
[defender]
army = {{ {first} = 1 }}
[board]
width = 6
height = 6
"""
    path = tmp_path / "twins.toml"
    path.write_text(text)
    return str(path)


@pytest.fixture
def twins(tmp_path):
    """Two identical foot types; `dear` costs twice as much."""
    return scenario(tmp_path, cheap={**FOOT, "upkeep": 1}, dear={**FOOT, "upkeep": 2})


def test_buy_by_hand():
    upkeep = [1, 2, 2, 3, 4]  # the field example: militia, spearmen, archers, light cavalry, knights
    knights = [0, 0, 0, 0, 1]
    assert buy(knights, upkeep, 10).tolist() == [0, 0, 0, 0, 2]  # 8 spent, 2 left over
    assert buy(knights, upkeep, 3).tolist() == [0, 0, 0, 0, 0]
    host = [0, 4, 3, 0, 3]  # the field attacker: 26 upkeep
    assert buy(host, upkeep, 26).tolist() == host
    assert buy(host, upkeep, 52).tolist() == [0, 8, 6, 0, 6]
    # 20 x (4, 3, 3) / 26 = 3.08, 2.31, 2.31 -> 3, 2, 2 (18 spent); 2 left buy the archer
    # (remainder 8, ties to the lower type; the spearmen's is 2)
    assert buy(host, upkeep, 20).tolist() == [0, 3, 3, 0, 2]
    # 13 x (4, 3, 3) / 26 = 2, 1.5, 1.5 -> 2, 1, 1 (10 spent); 3 left: an archer (2), not a knight
    assert buy(host, upkeep, 13).tolist() == [0, 2, 2, 0, 1]
    saracens = [0, 3, 4, 3, 0]  # the field defender: 23 upkeep
    # 20 x (3, 4, 3) / 23 = 2.61, 3.48, 2.61 -> 2, 3, 2 (16 spent); 4 left: a spearman (remainder
    # 14, first of the tie), the light cavalry (3) no longer fits, an archer (2) does
    assert buy(saracens, upkeep, 20).tolist() == [0, 3, 4, 2, 0]


def test_armies_in_the_table_are_bought_at_the_budget():
    frame = crusades.balance(FIELD, types=["militia", "knights"], armies={"host": "attacker"},
                             budgets=[8], battles=20, seed=0, max_ratio=1, threads=1, progress=False)
    rows = frame.set_index("matchup")
    assert list(rows.index) == ["militia v knights", "militia v host", "knights v host"]
    assert rows.loc["militia v knights", ["a_army", "b_army", "a_upkeep", "b_upkeep"]].tolist() == \
        ["8 militia", "2 knights", 8, 8]
    # 8 x (4, 3, 3) / 26 = 1.23, 0.92, 0.92 -> 1, 0, 0 (2 spent); 6 left: an archer (remainder
    # 24), a knight (24, 4 <= 4), no spearman (remainder 6; nothing left)
    assert rows.loc["militia v host", "b_army"] == "1 spearmen + 1 archers + 1 knights"
    assert (rows["battles"] == 20).all()
    assert frame.attrs["partial"] is False


def test_default_budget_leaves_room_for_the_search():
    """spearmen (2) v knights (4): at B the spearmen buy B // 2, the knights at 2B buy 2B // 4;
    21 // 2 + 42 // 4 = 20 fits the battle, 22 // 2 + 44 // 4 = 22 does not."""
    frame = crusades.balance(FIELD, types=["spearmen", "knights"], battles=2, max_ratio=1,
                             threads=1, progress=False)
    assert frame.iloc[0][["budget", "a_army", "b_army"]].tolist() == [21, "10 spearmen", "5 knights"]


def test_types_that_never_fit_one_battle_are_refused():
    units = {"cheap": {**FOOT, "upkeep": 1}, "dear": {**FOOT, "upkeep": 100}}
    raw = {"units": units, "attacker": {"army": {"cheap": 1}}, "defender": {"army": {"cheap": 1}}}
    with pytest.raises(OddsError, match=r"^--types: cheap v dear fit one battle at no budget"):
        crusades.balance(raw, battles=2)


@pytest.mark.parametrize("turn_limit", [3, 20])
def test_twins_are_even(twins, turn_limit):
    """A type against its twin at equal budget: even, within the standard error (the two play
    half their battles each way round, so the first move favours neither); with 3 rounds a
    third of the battles end undecided."""
    r = match(twins, "cheap", {"cheap": 1}, 5, battles=4000, seed=3, threads=1,
              overrides={"turn_limit": turn_limit})
    assert r["a_army"] == r["b_army"] == "5 cheap"
    assert r["margin_se"] > 0.005  # the battles are not all alike: the test can fail
    assert r["draw"] > 0.2 if turn_limit == 3 else r["draw"] < 0.05
    assert abs(r["a_as_attacker"] - r["a_as_defender"]) > 0.3  # the side matters, the swap too
    assert abs(r["margin"]) <= Z * r["margin_se"]
    assert r["a_win"] == pytest.approx((r["a_as_attacker"] + r["a_as_defender"]) / 2)
    assert r["draw"] == pytest.approx(1 - r["a_win"] - r["b_win"])


def test_the_stronger_type_wins_at_equal_cost(tmp_path):
    path = scenario(tmp_path, recruits={**FOOT, "upkeep": 2},
                    veterans={**FOOT, "health": 8, "attack": 3, "upkeep": 2})
    frame = crusades.balance(path, budgets=[8], battles=1000, seed=1, threads=1, progress=False)
    r = frame.iloc[0]
    assert (r.a_army, r.b_army) == ("4 recruits", "4 veterans")
    assert r.b_win - r.a_win > Z * (r.a_win_se + r.b_win_se)
    assert r.b_win_per_upkeep == pytest.approx(r.b_win / 8)
    # the veterans are even with fewer of them: below the recruits' upkeep
    assert r.even_upkeep < 8 and r.even_high <= 8
    text = summary(frame)
    assert "recruits v veterans" in text and f"veterans even at {r.even_upkeep:.2f} ± " in text


@pytest.mark.parametrize("turn_limit", [3, 20])
def test_identical_units_at_twice_the_price_are_even_at_twice_the_upkeep(twins, turn_limit):
    frame = crusades.balance(twins, budgets=[4], battles=4000, seed=2, threads=1, progress=False,
                             overrides={"turn_limit": turn_limit})
    r = frame.iloc[0]
    assert (r.matchup, r.a_army, r.b_army) == ("cheap v dear", "4 cheap", "2 dear")
    assert r.a_win > 0.5 + Z * r.a_win_se  # at equal budget twice the units win
    # 4 dear (8 upkeep) against 4 cheap is the twins' matchup: even there, by symmetry
    assert r.even_low <= 8 <= r.even_high
    assert r.even_se > 0
    assert abs(r.even_upkeep - 8) <= Z * r.even_se
    assert r.even_ratio == pytest.approx(r.even_upkeep / 4)


def test_search_agrees_with_a_brute_force_scan(tmp_path):
    """The bisection's bracket is the one sign change of a scan over every budget of the second
    entrant (the same seeds: the same numbers)."""
    path = scenario(tmp_path, spears={**FOOT, "upkeep": 2},
                    horse={**FOOT, "health": 8, "attack": 3, "speed": 3, "mounted": "true",
                           "upkeep": 3})
    frame = crusades.balance(path, budgets=[6], battles=400, seed=5, threads=1, progress=False)
    r = frame.iloc[0]
    scan = {}
    for spend in range(3, 19):  # budget x 3; a horse costs 3
        m = match(path, "spears", "horse", 6, spend, battles=400, seed=5, threads=1)
        scan.setdefault(m["b_upkeep"], m["margin"])
    cost = sorted(scan)
    changes = [(x, y) for x, y in zip(cost, cost[1:]) if scan[x] > 0 >= scan[y]]
    assert len(changes) == 1 and scan[cost[0]] > 0 > scan[cost[-1]]  # one crossing to find
    assert (r.even_low, r.even_high) == changes[0]
    x, y = changes[0]
    assert r.even_upkeep == pytest.approx(x + (y - x) * scan[x] / (scan[x] - scan[y]))
    # its error: the Monte Carlo one and the straight line between whole units (a point
    # anywhere in the bracket: (y - x) / sqrt(12)), combined
    assert r.even_line_se == pytest.approx((y - x) / 12 ** 0.5)
    assert r.even_se == pytest.approx((r.even_mc_se ** 2 + r.even_line_se ** 2) ** 0.5)
    curve = frame.attrs["curve"]
    assert len(curve) < len(cost)  # the search played fewer points than the scan
    for b_upkeep, margin in zip(curve["b_upkeep"], 1 - 2 * curve["b_score"]):
        assert margin == pytest.approx(scan[b_upkeep])


@pytest.mark.parametrize("n", range(0, 12))
def test_bisect_even_against_a_scan(n):
    rng = np.random.default_rng(n)
    for _ in range(50):
        values = np.sort(rng.integers(-3, 4, n))[::-1]  # decreasing, with plateaus and zeros
        calls = []
        found = bisect_even(lambda i: calls.append(i) or values[i], n)
        assert len(calls) <= search_points(n)
        if n < 2 or values[0] <= 0 or values[-1] > 0:
            assert found is None
        else:
            i, j = found
            assert j == i + 1 and values[i] > 0 >= values[j]


def test_falls_flags_a_margin_that_rises_beyond_the_error():
    assert falls([(4, 0.9, 0.01), (6, 0.2, 0.01), (8, -0.5, 0.01)]) is None
    assert falls([(4, 0.9, 0.01), (6, 0.2, 0.01), (8, 0.22, 0.01)]) is None  # within 1.96 x 0.014
    assert falls([(4, 0.9, 0.01), (6, 0.2, 0.01), (8, 0.25, 0.01)]) == (1, 2)
    assert falls([(4, 0.0, 0.0), (6, 0.5, 0.0)]) == (0, 1)  # no error: any rise


def test_not_bracketed_says_so(twins):
    frame = crusades.balance(twins, budgets=[6], battles=200, seed=0, max_ratio=1.2, threads=1,
                             progress=False)
    r = frame.iloc[0]  # 6 cheap against 3 dear, the dear searched up to 7 upkeep (3 of them)
    assert np.isnan(r.even_upkeep)
    assert r.even_note.startswith("not bracketed: dear still behind at 6 upkeep")


@pytest.mark.parametrize("flags, words", [
    (["--budget", "0"], "--budget: 0 is out of range (allowed: 1 to 2000)"),
    (["--budget", "14", "--types", "militia", "spearmen"], "--budget: at 14, 14 militia v 7 spearmen"),
    (["--budget", "3", "--types", "knights", "militia"],
     "--budget: 3 upkeep buys no knights (allowed: at least 4)"),
    (["--types", "knight", "militia"], "--types: 'knight' is not a unit type"),
    (["--types", "militia"], "a matchup needs at least 2"),
    (["--types", "militia", "militia"], "'militia' is given twice"),
    (["--army", "x=foo:1"], "--army x: 'foo' is not a unit type"),
    (["--army", "x=knights"], "is not NAME=TYPE:N,TYPE:N"),
    (["--army", "x=knights:0", "--types", "militia"], "--army x: the army costs no upkeep"),
    (["--battles", "1"], "--battles: 1 is out of range"),
    (["--battles", "1e9"], "above 50,000,000"),
    (["--max-ratio", "20"], "--max-ratio: 20.0 is out of range (allowed: 1 to 10)"),
    (["--plot", "out.jpg"], "--plot: 'out.jpg' must end in .png"),
    (["--plot", "/no/such/dir/out.png"], "--plot: /no/such/dir: no such directory"),
    (["--set", "nonsense=1"], "--set nonsense: unknown key"),
])
def test_cli_errors_are_one_line(capsys, flags, words):
    assert main(["crusades", "balance", FIELD, *flags]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("odds: error: ") and words in err, err


def test_cli_json_and_plot(tmp_path, capsys):
    out = tmp_path / "balance.png"
    assert main(["crusades", "balance", FIELD, "--types", "spearmen", "knights", "--budget", "8",
                 "--battles", "100", "--seed", "1", "--threads", "1", "--json", "--plot", str(out),
                 "--max-ratio", "1"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out, parse_constant=lambda c: pytest.fail(f"{c} in strict JSON"))
    assert data["partial"] is False and data["battles_per_point"] == 100
    assert [r["matchup"] for r in data["rows"]] == ["spearmen v knights"]
    row = data["rows"][0]
    assert row["b_army"] == "2 knights" and len(data["curve"]) == 1  # no room to search
    assert row["even_upkeep"] is None and row["even_note"].startswith("not bracketed")
    assert out.stat().st_size > 10_000 and "plot -> " in captured.err


def test_cli_error_from_the_real_command():
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "crusades", "balance", FIELD, "--budget", "0"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "odds: error: --budget: 0 is out of range (allowed: 1 to 2000)\n"


@pytest.mark.parametrize("stop, rows", [(1, 0), (3, 1)])
def test_ctrl_c_returns_the_partial_table(monkeypatch, capsys, stop, rows):
    """Ctrl-C in the n-th battle run (two runs a point): at the first, an empty table; in the
    first matchup's search (its equal-budget point done), that row marked unfinished."""
    real, calls = B.run, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) >= stop:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(B, "run", interrupted)
    frame = crusades.balance(FIELD, types=["spearmen", "archers", "knights"], budgets=[8],
                             battles=20, seed=0, threads=1, progress=False)
    assert frame.attrs["partial"] is True and len(frame) == rows
    assert f"interrupted: {rows} of 3 matchups" in frame.attrs["notes"][0]
    if rows:
        assert frame.iloc[0].even_note == "interrupted before the 50/50 search ended"
        assert frame.iloc[0].a_army == "4 spearmen" and frame.iloc[0].battles == 20
    calls.clear()
    assert main(["crusades", "balance", FIELD, "--types", "spearmen", "archers", "knights",
                 "--budget", "8", "--battles", "20", "--threads", "1"]) == 130
    captured = capsys.readouterr()
    assert "PARTIAL" in captured.out and captured.err == "odds: interrupted: partial table\n"


def test_plot_draws_a_line_per_matchup_and_the_50_percent_line():
    import matplotlib

    matplotlib.use("Agg")
    frame = crusades.balance(FIELD, types=["militia", "spearmen", "knights"], budgets=[6],
                             battles=40, seed=0, threads=1, progress=False)
    fig = crusades.plot_balance(frame)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")}
    assert set(lines) == {"spearmen against militia (6 upkeep)", "knights against militia (6 upkeep)",
                          "knights against spearmen (6 upkeep)", "50%", "equal budget"}
    assert list(lines["50%"].get_ydata()) == [0.5, 0.5]
    assert list(lines["equal budget"].get_xdata()) == [1, 1]
    curve = frame.attrs["curve"]
    for row in frame.itertuples():
        points = curve[curve.matchup == row.matchup].sort_values("ratio")
        line = lines[f"{row.b} against {row.a} (6 upkeep)"]
        assert list(line.get_xdata()) == pytest.approx(list(points["ratio"]))
        assert list(line.get_ydata()) == pytest.approx(list(points["b_score"]))
        assert 1.0 in list(points["ratio"]) or row.b_upkeep != row.a_upkeep  # the equal point
    crosses = [c for c in ax.containers if c.get_label() == "50/50 upkeep (95% interval)"]
    assert crosses and crosses[0].has_xerr  # each 50/50 point with its interval


def test_a_verdict_per_entrant_from_the_50_50_points():
    """b even at 5 upkeep against 10 of a: b is worth 2x its upkeep, a 0.5x; c even at 10
    against 10 of a: both at 1x (a's verdict over two matchups: the geometric mean, 1/sqrt 2)."""
    import pandas as pd
    from odds.crusades.upkeep.report import verdicts
    frame = pd.DataFrame([
        {"a": "a", "b": "b", "a_upkeep": 10, "even_upkeep": 5.0, "even_se": 0.05},
        {"a": "a", "b": "c", "a_upkeep": 10, "even_upkeep": 10.0, "even_se": 0.1},
        {"a": "b", "b": "c", "a_upkeep": 10, "even_upkeep": float("nan"), "even_se": float("nan")}])
    got = {v["entrant"]: v for v in verdicts(frame)}
    assert got["b"]["worth"] == pytest.approx(2) and got["b"]["verdict"].startswith(
        "worth its upkeep at this budget, 2.00x")
    assert got["a"]["worth"] == pytest.approx(0.5 ** 0.5)
    assert got["a"]["verdict"].startswith("not worth its upkeep")
    assert got["c"]["verdict"].startswith("about worth its upkeep (1x within error), 1.00x")
