"""`odds chart`: the cells are the procedure's own exact answers (1 v 1 by hand), the paper
sizes and formats, the fixed settings in the title, and one-line refusals."""
import re
from fractions import Fraction

import pytest

from odds.tools.chart import cell_text, grid
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
    (["his.field", "--attacker", "5..1", "--defender", "1..2"], "--attacker: 5..1 is not a range (allowed: LOW..HIGH"),
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
