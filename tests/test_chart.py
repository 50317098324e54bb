"""`odds chart`: the cells are the procedure's own exact answers (1 v 1 by hand), the paper
sizes and formats, the fixed settings in the title, and one-line refusals."""
import re
from fractions import Fraction

import pytest

from odds.errors import OddsError
from odds.tools.chart import cell_text, draw, grid
from odds.frontends.cli.main import main
from odds.registry import get


def test_cells_are_each_battle_s_exact_probability_and_1_v_1_by_hand():
    spec = get("his.field")
    values, name, _ = grid(spec, ("attacker", (1, 2, 3)), ("defender", (1, 4)), {"attacker_leader": 1}, None)
    assert name == "attacker_win"
    for i, a in enumerate((1, 2, 3)):
        for j, d in enumerate((1, 4)):
            assert values[i][j] == spec.call(attacker=a, defender=d, attacker_leader=1).p
    plain, _, _ = grid(spec, ("attacker", (1,)), ("defender", (1,)), {}, None)
    # 1 die against 2: the attacker wins iff its die hits and both defender dice miss
    assert plain[0][0] == pytest.approx(float(Fraction(1, 3) * Fraction(2, 3) ** 2))
    assert cell_text(plain[0][0]) == "15"


def test_draw_in_python_prints_each_cell_as_the_grid_computes_it():
    """odds.tools.chart.draw (the chart for a notebook): its cells' texts are cell_text of the
    grid's exact answers, row by row; a paper it does not know is refused in one line."""
    import matplotlib

    matplotlib.use("Agg")
    spec = get("his.field")
    rows, cols = ("attacker", (1, 2)), ("defender", (1, 2, 3))
    values, _, _ = grid(spec, rows, cols, {}, None)
    fig = draw(spec, rows, cols, {}, paper="letter")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts == [cell_text(p) for row in values for p in row]
    assert tuple(fig.get_size_inches()) == (8.5, 11.0)
    with pytest.raises(OddsError, match=r"^paper: 'a3'.*a4, letter"):
        draw(spec, rows, cols, {}, paper="a3")


@pytest.mark.parametrize("p, text", [(0.0, "0"), (1e-15, "0"), (0.004, "<1"), (0.5, "50"),
                                     (0.996, ">99"), (1 - 1e-16, "100")])
def test_cell_text_says_less_than_one_rather_than_zero(p, text):
    assert cell_text(p) == text


def test_pdf_on_a4_and_letter_and_a_png(tmp_path, capsys):
    for paper, box in (("a4", "595.44 841.68"), ("letter", "612 792")):
        out = tmp_path / f"{paper}.pdf"
        assert main(["chart", "his.field", "--attacker", "1..4", "--defender=1..3",
                     "--attacker-leader", "suleiman", "--paper", paper, "--out", str(out)]) == 0
        assert re.search(rf"MediaBox \[ ?0 0 {box} ?\]".encode(), out.read_bytes())
    png = tmp_path / "chart.png"
    assert main(["chart", "oath.campaign", "--warbands", "1..3", "--defenders", "0..2",
                 "--defense-dice", "2", "--out", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    import matplotlib.image

    pixels = matplotlib.image.imread(str(png))[..., :3]  # grey-scale: every pixel R = G = B
    assert abs(pixels - pixels.mean(axis=-1, keepdims=True)).max() < 0.02
    assert "oath.campaign: 3 x 3 cells, a4 ->" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["his.field", "--attacker", "1..12"], "1 keyword given as LOW..HIGH (allowed: exactly 2"),
    (["his.field", "--attacker", "5..1", "--defender", "1..2"], "--attacker: '5..1' is not a range (allowed: LOW..HIGH"),
    (["his.field", "--attacker", "1..40", "--defender", "1..2"], "1..40 has 40 values (allowed: at most 30)"),
    (["his.field", "--attacker", "1..2", "--defender-power", "1..2"], "--defender-power: LOW..HIGH is for a whole-number keyword"),
    (["his.field", "--attacker", "1..2", "--defender", "1..2", "--event", "nope"], "--event: 'nope' is not an event of his.field"),
    (["his.feld", "--attacker", "1..2", "--defender", "1..2"], "procedure: 'his.feld' is unknown"),
    (["his.field", "--attacker", "1..2", "--defender", "1..2", "--out", "x.jpg"], "--out: 'x.jpg' must end in .pdf or .png"),
])
def test_mistakes_are_one_line_and_exit_2(argv, words, capsys, tmp_path):
    assert main(["chart", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_help_shows_three_examples(capsys):
    with pytest.raises(SystemExit):
        main(["chart", "--help"])
    out = capsys.readouterr().out
    assert all(f"odds chart {name}" in out for name in ("his.field", "his.assault", "oath.campaign"))


@pytest.fixture
def cells(monkeypatch):
    """Every procedure call in order: 'estimated' (stopped where its engine would start) or
    'computed' (it returned a Result)."""
    from odds.registry import Spec

    seen, call = [], Spec.call

    def counted(self, **kwargs):
        try:
            result = call(self, **kwargs)
        except BaseException:
            seen.append("estimated")
            raise
        seen.append("computed")
        return result

    monkeypatch.setattr(Spec, "call", counted)
    return seen


ISSUE = ["chart", "his.siege", "--attacker", "71..100", "--defender", "71..100", "--assaults", "20"]


def test_the_issue_s_chart_is_refused_before_any_cell_naming_a_chart_that_fits(cells, capsys):
    """900 sieges of 1.4 billion units against a bound of 30 million: every cell estimated,
    none computed, one line naming the cells, the bound and the largest chart from the low
    ends that fits (which does fit)."""
    from odds.tools.questions import budget

    assert main(ISSUE) == 2
    assert cells == ["estimated"] * 900
    err = capsys.readouterr().err
    m = re.fullmatch(r"odds: error: chart: 900 cells: the exact answers would need about [\d,]+ "
                     r"work units together \(allowed: at most 30,000,000, about 30 s; (\d+) of "
                     r"the 900 cells fit: --attacker 71\.\.(\d+) with --defender 71\.\.(\d+)\)\n", err)
    assert m, err
    rows, cols = range(71, int(m[2]) + 1), range(71, int(m[3]) + 1)
    assert int(m[1]) == len(rows) * len(cols) >= 30  # at least a whole row of 30
    spec = get("his.siege")
    work = sum(budget.estimates([lambda a=a, d=d: spec.call(attacker=a, defender=d, assaults=20,
                                                            method="exact") for a in rows for d in cols]))
    assert work + budget.CALL_WORK * len(rows) * len(cols) <= budget.MAX_TOTAL_WORK


def test_a_cell_over_one_answer_s_bound_is_named_before_any_cell(monkeypatch, cells, capsys):
    from odds.core import engine

    spec = get("his.siege")
    pairs = [(a, d) for a in (2, 3, 4) for d in (2, 3)]
    works = [engine.estimate(lambda a=a, d=d: spec.call(attacker=a, defender=d, assaults=2,
                                                        method="exact")) for a, d in pairs]
    monkeypatch.setattr(engine, "MAX_EXACT_WORK", max(works[:4]))  # the cells of 2 and 3 fit
    a, d = next(pair for pair, work in zip(pairs, works) if work > max(works[:4]))
    cells.clear()
    assert main(["chart", "his.siege", "--attacker", "2..4", "--defender", "2..3",
                 "--assaults", "2"]) == 2
    assert cells == ["estimated"] * (pairs.index((a, d)) + 1)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"odds: error: chart: the cell --attacker {a}, --defender {d}: the exact answer"), err
    assert err.endswith("a chart is exact only: give fewer units or assaults\n"), err
    assert "--method" not in err  # odds chart has no such flag


def test_a_chart_within_the_bound_estimates_every_cell_first_then_draws_its_png(cells, tmp_path,
                                                                                capsys):
    out = tmp_path / "chart.png"
    assert main(["chart", "his.field", "--attacker=1..3", "--defender", "2..3", "--out", str(out)]) == 0
    assert cells == ["estimated"] * 6 + ["computed"] * 6
    head = out.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    assert (width, height) == (int(8.27 * 150), int(11.69 * 150))  # A4 at 150 dpi
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("terminal", [True, False])
def test_a_bar_over_the_cells_on_a_terminal_and_nothing_on_a_pipe(terminal, monkeypatch, capsys,
                                                                  tmp_path):
    from odds.core import engine, montecarlo
    from odds.tools.questions import budget

    monkeypatch.setattr(montecarlo, "terminal", lambda: terminal)
    monkeypatch.setattr(engine, "PROGRESS_AFTER_SECONDS", 0)  # every chart long enough
    monkeypatch.setattr(budget, "PROGRESS_AFTER_SECONDS", 0)
    assert main(["chart", "his.field", "--attacker", "1..2", "--defender", "1..3",
                 "--out", str(tmp_path / "c.pdf")]) == 0
    err = capsys.readouterr().err
    if terminal:
        assert err.count("odds: solving exactly") == 1 and " 0/6 [" in err and "cell/s]" in err, err
    else:
        assert err == ""


def test_ctrl_c_among_the_cells_ends_in_one_line_with_130_and_no_file(monkeypatch, cells,
                                                                       tmp_path, capsys):
    from odds.registry import Spec

    counting = Spec.call

    def interrupted(self, **kwargs):
        if cells.count("computed") == 2:
            raise KeyboardInterrupt
        return counting(self, **kwargs)

    monkeypatch.setattr(Spec, "call", interrupted)
    out = tmp_path / "c.png"
    assert main(["chart", "his.field", "--attacker", "1..2", "--defender", "1..3",
                 "--out", str(out)]) == 130
    assert cells == ["estimated"] * 6 + ["computed"] * 2 and not out.exists()
    assert capsys.readouterr().err == "odds: interrupted\n"


HUGE = "1.." + "9" * 100_000


@pytest.mark.parametrize("text", ["1..", "..5", "5..1", "1..2..3", "1...5", "a..b", "1..1000000",
                                  pytest.param(HUGE, id="1..(100,000 nines)"),
                                  pytest.param("1" * 100_000 + "..", id="(100,000 ones)..")])
def test_a_malformed_range_is_refused_as_vary_refuses_it(text, capsys):
    """The chart reads its ranges as --vary does (questions.plans.span): the same line after
    the field, in both flag forms; a range of 100,000 digits too (read in linear time, never
    as a number: int() of over 4,300 digits raises)."""
    assert main(["his", "field", "--attacker", "3", "--defender", "2", "--need", "0.5",
                 "--vary", f"attacker={text}"]) == 2
    vary = capsys.readouterr().err
    assert vary.startswith("odds: error: --vary: attacker: ") and vary.count("\n") == 1, vary
    for form in (["--attacker", text], [f"--attacker={text}"]):
        assert main(["chart", "his.field", *form, "--defender", "1..3"]) == 2
        err = capsys.readouterr().err
        assert err == vary.replace("--vary: attacker: ", "--attacker: "), err


def test_a_path_with_dots_is_no_range(tmp_path, monkeypatch, capsys):
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert main(["chart", "his.field", "--attacker", "1..2", "--defender", "1..2",
                 "--out", "../up.pdf"]) == 0
    assert (tmp_path / "up.pdf").read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("bound, said", [
    (100, "; 6 of the 6 cells fit: a=1..2 with b=5..7"),
    (20, "; 3 of the 6 cells fit: a=1..1 with b=5..7"),  # a whole row beats 2 x 1
    (9, "; 2 of the 6 cells fit: a=1..2 with b=5..5"),  # 2 x 1 beats 1 x 1 when 1 x 2 is over
    (0.5, "; not even its first cell fits"),
])
def test_what_fits_is_the_largest_chart_from_the_low_ends(bound, said):
    from odds.tools.chart import fits

    works = [1, 10, 5,
             7, 20, 30]  # rows a=1, 2; columns b=5, 6, 7
    assert fits(works, bound, ("a", (1, 2)), ("b", (5, 6, 7))) == said
