"""Plots return Axes with the expected artists and reject results of the wrong kind."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import odds  # noqa: E402
from odds import plot  # noqa: E402
from odds.core.result import Result  # noqa: E402
from odds.tools.sweep import sweep  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_losses_mirror_both_sides():
    r = odds.his.field_battle(5, 4, attacker_leader=1)
    ax = plot.losses(r)
    widths = [p.get_width() for p in ax.patches]
    assert len(widths) == len(r["attacker_losses"]) + len(r["defender_losses"])
    assert sum(w < 0 for w in widths) == len(r["attacker_losses"])  # attacker to the left
    assert -sum(w for w in widths if w < 0) == pytest.approx(1)
    assert "attacker win" in ax.get_title()


def test_views_and_monte_carlo_intervals():
    r = odds.his.field_battle(5, 4, method="mc", trials=20_000, seed=1)
    ax = plot.losses(r, view="at_least")
    assert max(abs(p.get_width()) for p in ax.patches) == pytest.approx(1)
    assert any(isinstance(c, matplotlib.container.ErrorbarContainer) for c in ax.containers)
    with pytest.raises(odds.OddsError, match="view"):
        plot.losses(r, view="sideways")


def test_outcomes_and_result_plot():
    r = odds.his.field_battle(3, 3)
    ax = plot.outcomes(r)
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx([r.p, 1 - r.p])
    assert isinstance(r.plot(), matplotlib.axes.Axes)


def test_wrong_kind_of_result_is_rejected():
    lonely = Result("x", "exact", {"win": 0.4}, {"turns": np.array([0.5, 0.5])}, "win")
    with pytest.raises(odds.OddsError, match="no attacker and defender loss"):
        plot.losses(lonely)
    assert plot.plot_result(lonely) is not None  # falls back to outcome bars
    with pytest.raises(odds.OddsError, match="no outcome"):
        plot.outcomes(Result("x", "exact", {}, {}, "win"))


def test_heatmap_has_a_mesh_and_the_fifty_percent_contour():
    df = sweep("his.field", {"attacker": list(range(1, 9)), "defender": list(range(1, 9))})
    ax = plot.heatmap(df, "attacker", "defender")
    assert ax.collections and len(ax.collections) >= 2
    with pytest.raises(odds.OddsError, match="column"):
        plot.heatmap(df, "attacker", "colour")


def test_card_value_draws_a_line_with_and_one_without_the_card():
    df = sweep("his.field", {"attacker": [1, 2, 3, 4], "attacker_cards": [[], ["arquebusiers"]]},
               {"defender": 3})
    ax = plot.card_value(df, "attacker", "attacker_cards")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["without", "with arquebusiers"]
    assert ax.get_title() == "value of arquebusiers (his.field)"
    without, with_card = (line.get_ydata() for line in ax.lines[:2])
    assert list(without) == list(df[df.attacker_cards.map(len) == 0].attacker_win)
    assert (with_card > without).all()
    from_csv = df.assign(attacker_cards=df.attacker_cards.map(str))  # as read back from a CSV
    assert [t.get_text() for t in plot.card_value(from_csv, "attacker", "attacker_cards")
            .get_legend().get_texts()] == ["without", "with ['arquebusiers']"]


@pytest.fixture(scope="module")
def variants():
    return sweep("vq.naval", {"attacker_galleys": [1, 2, 3, 4], "defender_galleys": [2, 3],
                              "variant": {"vq": {}, "one": {"dice_per": {"galley": 1}}}},
                 {"location": "mediterranean"})


def test_lines_one_per_variant_with_the_fixed_parameters_in_the_title(variants):
    df = variants[variants.defender_galleys == 3]
    ax = plot.lines(df, "attacker_galleys", "variant", where="defender_galleys=3")
    assert len(ax.get_lines()) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["variant = vq", "variant = one"]
    title = ax.get_title()
    # in words (not 'where defender_galleys=3'), the filter named once
    assert "location mediterranean" in title and "defender galleys 3" in title
    assert title.count("defender galleys") == 1 and "=" not in title and "_" not in title
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert ax.get_ylim() == (0, 1)


def test_difference_map_is_centred_on_zero(variants):
    ax = plot.difference(variants, "attacker_galleys", "defender_galleys", "variant", "vq", "one")
    mesh = ax.collections[0]
    low, high = mesh.get_clim()
    assert low == pytest.approx(-high) and high > 0
    vq = variants[variants.variant == "vq"].set_index(["defender_galleys", "attacker_galleys"])
    one = variants[variants.variant == "one"].set_index(["defender_galleys", "attacker_galleys"])
    want = (vq.attacker_win - one.attacker_win).unstack().to_numpy()
    np.testing.assert_allclose(mesh.get_array().reshape(want.shape), want)
    assert not [c for c in ax.collections[1:] if c.__class__.__name__.endswith("ContourSet")]
    with pytest.raises(odds.OddsError, match="no rows with 'two'.*allowed: one, vq"):
        plot.difference(variants, "attacker_galleys", "defender_galleys", "variant", "vq", "two")


def test_no_fifty_percent_contour_for_a_count():
    df = sweep("his.field", {"attacker": list(range(1, 9)), "defender": list(range(1, 9))})
    ax = plot.heatmap(df, "attacker", "defender", "expected_defender_losses")
    assert len(ax.collections) == 1  # the mesh only
    with pytest.raises(odds.OddsError, match="not a numeric column"):
        plot.heatmap(df.assign(method="exact"), "attacker", "defender", "method")


def test_alternative_text_names_the_title_and_axes():
    ax = plot.losses(odds.his.field_battle(5, 4))
    text = plot.describe(ax.figure)
    assert text.startswith("Chart. ") and ax.get_title() in text and ax.get_xlabel() in text


def test_where_selects_the_rows_it_names():
    # two leader ratings in one frame: without a selection a heatmap has two rows per cell
    df = sweep("his.field", {"attacker": [2, 3, 4], "defender": [2, 3], "attacker_leader": [0, 2]})
    with pytest.raises(odds.OddsError, match="one row per cell"):
        plot.heatmap(df, "attacker", "defender")
    ax = plot.heatmap(df, "attacker", "defender", where="attacker_leader=2")
    drawn = np.asarray(ax.collections[0].get_array()).reshape(2, 3)
    want = df[df.attacker_leader == 2].pivot(index="defender", columns="attacker",
                                             values="attacker_win").to_numpy()
    assert np.allclose(drawn, want) and "attacker leader 2" in ax.get_title()
    ax = plot.lines(df[df.defender == 2], "attacker", value="attacker_win", where="attacker_leader=0")
    assert np.allclose(ax.lines[0].get_ydata(),
                       df[(df.defender == 2) & (df.attacker_leader == 0)].attacker_win)
    with pytest.raises(odds.OddsError, match="no rows with attacker_leader=5"):
        plot.heatmap(df, "attacker", "defender", where="attacker_leader=5")
    plt.close("all")


def test_the_attacker_has_one_colour_on_the_page_in_the_pictures_and_the_notebooks():
    import re
    from pathlib import Path

    import odds.tools.plot
    root = Path(odds.__file__).parent
    css = (root / "frontends" / "web" / "static" / "style.css").read_text()
    page = dict(re.findall(r"--(attacker|defender):\s*(#[0-9a-fA-F]{6})", css))
    assert (page["attacker"], page["defender"]) == (odds.tools.plot.ATTACKER, odds.tools.plot.DEFENDER)
    for notebook in (root.parent / "notebooks").glob("*.ipynb"):
        assert not re.search(r"tab:(blue|red)|#1f77b4|#d62728", notebook.read_text()), notebook
