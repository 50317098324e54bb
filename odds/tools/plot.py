"""Matplotlib pictures of Results and sweeps. Every function takes ax=None and returns the Axes.

- `losses`: both sides' loss distributions mirrored on one axis (pmf, "at least" or "at most").
- `outcomes`: the procedure's outcome probabilities as bars.
- `heatmap`: a sweep's value over two parameters (the 50% contour for a probability).
- `lines`: a sweep's value against one parameter, one line per value of another.
- `difference`: the difference between two values of a column (two variants, two card
  settings) over two parameters, on a colour scale centred on 0, each cell labelled with its
  number where it fits; cells whose 95% interval covers 0 are hatched (odds.tools.differences:
  exact, paired Monte Carlo runs or independent ones, said in the title).
- `difference_lines`: the same difference against one parameter, a line per value of another,
  each point with its 95% interval.
- `card_value`: P(main event) with and without a card, per army size (from a sweep's frame).
- `show`: display a figure in Jupyter with alternative text for screen readers.
Monte Carlo results carry 95% intervals as error bars. A sweep's pictures say in words what
they hold fixed (`defender galleys 3; attacker cards: field-artillery`), label heatmap cells
with their numbers where they fit, and carry the frame's notes (df.attrs: the engines, the
readings and assumptions of its answers) as a footnote. Nothing calls plt.show().
"""
from __future__ import annotations

import re
import textwrap

import numpy as np

from ..config import MAX_CELLS
from ..core.interval import trials_text
from ..core.outcomes import label as _label
from ..i18n import N_, _, percent
from .frames import name as _name, parameters, said, words
from ..errors import OddsError, check_choice, shown
from ..texts import as_typed, signed

VIEWS = ("pmf", "at_least", "at_most")
ATTACKER, DEFENDER = "#c0392b", "#2c6fbb"  # the page's --attacker and --defender (static/style.css)
# refused before anything is drawn, as are more rows than one sweep makes (config.MAX_CELLS):
PLOT_MAX_CELLS = 250_000  # heatmap cells: distinct x values x distinct y values (500 x 500, < 1 s)
PLOT_MAX_LINES = 20  # lines of one plot (values of --by, card lists): more make no readable legend


LOSS_AXIS = {"pmf": N_("probability"), "at_least": N_("P(lose at least k)"),
             "at_most": N_("P(lose at most k)")}  # `losses`' axis for each view


def _axes(ax, size=(6, 3.5)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _view(pmf, view):
    if view == "at_least":
        return np.minimum(np.cumsum(pmf[::-1])[::-1], 1.0)
    if view == "at_most":
        return np.minimum(np.cumsum(pmf), 1.0)
    return pmf


def loss_pair(result):
    """The (attacker, defender) pmf names of a result, or OddsError if it has no such pair."""
    for a, d in (("attacker_losses", "defender_losses"),
                 ("attacker_ships_lost", "defender_ships_lost")):
        if a in result.pmfs and d in result.pmfs:
            return a, d
    attackers = [n for n in result.pmfs if n.startswith("attacker")]
    defenders = [n for n in result.pmfs if n.startswith("defender")]
    if attackers and defenders:
        return attackers[0], defenders[0]
    raise OddsError(f"result: {result.procedure} has no attacker and defender loss distributions "
                    f"to mirror (it has: {', '.join(result.pmfs) or 'none'})")


def losses(result, ax=None, view="pmf"):
    """Attacker's losses to the left, defender's to the right, one row per number lost."""
    view = check_choice("view", view, VIEWS)
    names = loss_pair(result)
    ax = _axes(ax)
    for name, sign, colour in zip(names, (-1, 1), (ATTACKER, DEFENDER)):
        p = _view(result.pmfs[name], view)
        k = np.arange(len(p))
        ax.barh(k, sign * p, xerr=_interval(result, p), color=colour, alpha=0.85, capsize=2,
                label=_label(name))
    ax.axvline(0, color="black", linewidth=0.8)
    from matplotlib.ticker import FuncFormatter

    top = 1.1 * max(_view(result.pmfs[n], view).max() for n in names)
    ax.set_xlim(-top, top)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda t, _: f"{abs(t):.0%}"))
    ax.set_ylabel(_("number lost"))
    ax.set_xlabel(_(LOSS_AXIS[view]))
    ax.invert_yaxis()
    ax.legend(loc="lower right", fontsize="small")
    ax.set_title(_title(result))
    ax.yaxis.get_major_locator().set_params(integer=True)
    return ax


def _interval(result, p):
    """Error bars of Monte Carlo probabilities `p`: their 95% intervals (Wilson's, honest at a
    few trials) as (below, above) distances; None when exact."""
    if result.method != "mc" or not result.trials:
        return None
    bounds = np.array([result.interval(float(x)) for x in p]).T
    return np.clip(np.abs(bounds - np.asarray(p, float)), 0.0, None)


def _title(result):
    how = _("exact") if result.method == "exact" else trials_text(result.trials)
    return f"{result.procedure}: {_label(result.main)} {percent(result.p, 1)} ({how})"


def outcome_names(result):
    """(label, probability) of the events that partition the outcome (its Words' partition),
    or every probability of the result when it has no such set."""
    return [(_label(n), v) for n, v in result.words.partition(result.probabilities)] or \
        [(_label(n), v) for n, v in result.probabilities.items()]


def outcomes(result, ax=None):
    """The outcome probabilities as bars (95% intervals for Monte Carlo)."""
    pairs = outcome_names(result)
    if not pairs:
        raise OddsError(f"result: {result.procedure} has no outcome probabilities to plot")
    ax = _axes(ax)
    labels, values = zip(*pairs)
    values = np.array(values, float)
    bars = ax.bar(labels, values, yerr=_interval(result, values), capsize=3,
                  color=[ATTACKER, DEFENDER] + ["#7f7f7f"] * 8)
    ax.bar_label(bars, [f"{v:.1%}" for v in values])
    ax.set_ylim(0, 1.1)
    ax.set_ylabel(_("probability"))
    ax.set_title(_title(result))
    ax.tick_params(axis="x", labelrotation=20 if len(labels) > 3 else 0)
    return ax


def plot_result(result, ax=None):
    """The natural picture of a Result: mirrored losses when it has them, else outcome bars."""
    try:
        loss_pair(result)
    except OddsError:
        return outcomes(result, ax=ax)
    return losses(result, ax=ax)


def is_probability(column: str) -> bool:
    """Whether a sweep column is a probability (not an expectation, quantile or error)."""
    return not (column.startswith("expected_") or re.search(r"_q\d+$|_se$", column))


def _check_columns(df, *names, axes=()):
    """`names` are columns of `df`, the last (the value shown) numeric with at least one
    number and no infinity (NaN cells are left blank); `axes` have a number in every row."""
    for name in names:
        if name not in df.columns:
            raise OddsError(f"column: {shown(name)} is not in the results "
                            f"(allowed: {', '.join(map(str, df.columns))})")
    if not names:
        return
    value = df[names[-1]]
    if not _numeric(value):
        raise OddsError(f"value: {shown(names[-1])} is not a numeric column (allowed: a probability, "
                        "an expected value or a quantile of the results)")
    if value.isna().all():
        raise OddsError(f"value: {shown(names[-1])} has no numbers (every row is NaN) "
                        "(allowed: a column with at least one number)")
    if np.isinf(value.to_numpy(float)).any():
        raise OddsError(f"value: {shown(names[-1])} has infinite entries (allowed: numbers or NaN)")
    for name in axes:
        column = df[name]
        bad = int(column.isna().sum()) + (int(np.isinf(column.to_numpy(float)).sum()) if _numeric(column) else 0)
        if bad:
            raise OddsError(f"{name}: {bad} of {len(df)} rows have no number (NaN or infinite) "
                            "(allowed: a number in every row of an axis; remove those rows)")


def check_size(df, x=None, y=None, by=None):
    """Refuse, before drawing, a frame of more than MAX_CELLS rows, a heatmap of x by y
    over more than PLOT_MAX_CELLS cells, or more than PLOT_MAX_LINES lines (values of `by`)."""
    if len(df) > MAX_CELLS:
        raise OddsError(f"results: {len(df):,} rows (allowed: at most {MAX_CELLS:,}; "
                        "pick some with --where)")
    if y is not None:
        nx, ny = df[x].astype(str).nunique(), df[y].astype(str).nunique()
        if nx * ny > PLOT_MAX_CELLS:
            raise OddsError(f"{x} x {y}: {nx:,} x {ny:,} = {nx * ny:,} heatmap cells (allowed: at "
                            f"most {PLOT_MAX_CELLS:,}; pick some with --where)")
    if by is not None and (n := df[by].astype(str).nunique()) > PLOT_MAX_LINES:
        raise OddsError(f"{by}: {n:,} values, one line each (allowed: at most {PLOT_MAX_LINES} "
                        "lines; pick some with --where)")


def _numeric(column) -> bool:
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return is_numeric_dtype(column) and not is_bool_dtype(column)


def _integer(column) -> bool:
    from pandas.api.types import is_integer_dtype

    return is_integer_dtype(column)


def _fixed_title(df, on_axes) -> str:
    """The parameters that hold one value in `df` (not shown on an axis), in words:
    'defender galleys 3; attacker cards: none'."""
    return "; ".join(words(c, df[c].iloc[0]) for c in parameters(df)
                     if c not in on_axes and df[c].astype(str).nunique() == 1)


def _whole_ticks(ax, df, x=None, y=None):
    from matplotlib.ticker import MaxNLocator

    for name, axis in ((x, ax.xaxis), (y, ax.yaxis)):
        if name is not None and _integer(df[name]):
            axis.set_major_locator(MaxNLocator(integer=True))


def _one_per_cell(df, keys, value):
    if df.duplicated(list(keys)).any():
        varying = [c for c in parameters(df) if c not in keys and df[c].astype(str).nunique() > 1]
        raise OddsError(f"{' x '.join(keys)}: several rows per cell (they differ in "
                        f"{', '.join(varying)}); pick one value of each first, e.g. odds plot ... "
                        "--where COLUMN=VALUE (allowed: one row per cell)")


def heatmap(df, x: str, y: str, value: str = "attacker_win", ax=None, where: str = "",
            centre=None, context=None, labels: bool = True, marked: str | None = None):
    """`value` over a grid of two parameters (a sweep's frame); the 50% contour when `value`
    is a probability; `centre` (e.g. 0 for a difference) centres a diverging colour scale;
    `context` is the frame whose fixed parameters the title names (default `df`); `where`
    ('a=1, cards=[]', as `odds plot --where`) selects the rows first, and the title says so
    (with `context` given, `df` is taken as already selected: difference()); `labels`: each
    cell's number in it where it fits; `marked`: a boolean column whose true cells are hatched;
    the frame's notes (df.attrs, or `context`'s) go below as a footnote."""
    if context is None:
        df = _where(df, where)
    _check_columns(df, x, y, value, axes=(x, y))
    check_size(df, x, y)
    _one_per_cell(df, (x, y), value)
    table = df.pivot(index=y, columns=x, values=value)
    ax = _axes(ax, (6, 4.5))
    xs, ys, z = table.columns.to_numpy(), table.index.to_numpy(), table.to_numpy(float)
    if centre is None:
        low, high = (0, 1) if is_probability(value) else (np.nanmin(z), np.nanmax(z))
    else:
        reach = np.nanmax(np.abs(z - centre))
        reach = reach if reach > 1e-9 else (0.01 if is_probability(value) else 1.0)  # all 0
        low, high = centre - reach, centre + reach
    cmap = "RdBu" if centre is not None or is_probability(value) else "viridis"
    mesh = ax.pcolormesh(xs, ys, z, shading="nearest", cmap=cmap, vmin=low, vmax=high)
    if (centre is None and is_probability(value) and z.shape[0] > 1 and z.shape[1] > 1
            and np.nanmin(z) < 0.5 < np.nanmax(z)):
        contour = ax.contour(xs, ys, z, levels=[0.5], colors="black", linewidths=1.5)
        ax.clabel(contour, fmt={0.5: "50%"})
    bar = ax.figure.colorbar(mesh, ax=ax, label=_label(value))
    if is_probability(value):  # the cells' numbers are percent (a change: percentage points)
        from matplotlib.ticker import FuncFormatter

        bar.ax.yaxis.set_major_formatter(FuncFormatter(
            (lambda t, _: signed(100 * t, ".0f")) if centre is not None else (lambda t, _: f"{100 * t:.0f}%")))
        bar.set_label(_label(value) + (" (percentage points)" if centre is not None else ""))
    if marked is not None:
        _hatch(ax, xs, ys, df.pivot(index=y, columns=x, values=marked).to_numpy(bool))
    if labels:
        _numbers_in_cells(ax, mesh, xs, ys, z, lambda v: _cell_text(value, v, centre is not None))
    ax.set_xlabel(_name(x))
    ax.set_ylabel(_name(y))
    _whole_ticks(ax, df, x, y)
    ax.set_title(_sweep_title(_("{value} by {x} and {y}").format(
                                  value=_label(value), x=_name(x), y=_name(y)),
                              df if context is None else context, (x, y, value), where),
                 fontsize="medium")
    footnote(ax, said(df if context is None else context)["notes"])
    return ax


def _cell_text(value: str, v: float, change: bool) -> str:
    """A heatmap cell's number: a probability in whole percent (a change in signed points),
    anything else to two significant digits."""
    if v != v:
        return ""
    if is_probability(value):
        if change:
            return signed(100 * v, ".1f" if abs(v) < 0.01 else ".0f")
        return f"{100 * v:.0f}"
    return signed(v, ".2g") if change else f"{v:.2g}"


def _edges(values) -> np.ndarray:
    """Cell edges around sorted centres, as pcolormesh's 'nearest' shading draws them."""
    v = np.asarray(values, float)
    if len(v) == 1:
        return np.array([v[0] - 0.5, v[0] + 0.5])
    mid = (v[1:] + v[:-1]) / 2
    return np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])


def _hatch(ax, xs, ys, marks):
    """Hatch the cells where `marks` is true (a difference whose interval covers 0)."""
    from matplotlib.patches import Rectangle

    ex, ey = _edges(xs), _edges(ys)
    for i, j in zip(*np.nonzero(marks)):
        ax.add_patch(Rectangle((ex[j], ey[i]), ex[j + 1] - ex[j], ey[i + 1] - ey[i], fill=False,
                               hatch="///", edgecolor="0.35", linewidth=0))


def _numbers_in_cells(ax, mesh, xs, ys, z, text):
    """Each cell's number in it, dark on light cells and light on dark ones, in a font that
    fits the cell (none when the cells are too small to read)."""
    fig = ax.figure
    width, height = fig.get_size_inches() * 72 * np.array([0.7, 0.7])
    shown = [[text(v) for v in row] for row in z]
    chars = max((len(t) for row in shown for t in row), default=1) or 1
    size = min(9.0, width / len(xs) / (0.62 * chars), height / len(ys) * 0.55)
    if size < 5:
        return
    for i, yv in enumerate(ys):
        for j, xv in enumerate(xs):
            if not shown[i][j]:
                continue
            r, g, b, _ = mesh.cmap(mesh.norm(z[i, j]))
            dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
            ax.text(xv, yv, shown[i][j], ha="center", va="center", fontsize=size,
                    color="white" if dark else "black")


NOTES_GID = "odds-notes"  # the figure's one footnote (every Axes adds its notes to it)


def footnote(ax, notes, width: int = 110):
    """The notes under the figure, each once (one footnote per figure, whatever its Axes add),
    wrapped; at most 8 lines, then how many more."""
    import textwrap

    fig = ax.figure
    text = next((t for t in fig.texts if t.get_gid() == NOTES_GID), None)
    seen = dict.fromkeys([*getattr(fig, "_odds_notes", ()), *map(str, notes)])
    fig._odds_notes = list(seen)
    lines = [line for note in seen for line in textwrap.wrap(note, width)]
    if len(lines) > 8:
        lines = lines[:8] + [f"(and {len(lines) - 8} more lines of notes: df.attrs['notes'])"]
    if text is None and lines:
        text = fig.text(0.01, -0.01, "", ha="left", va="top", fontsize=6.5, color="0.25",
                        transform=fig.transFigure, gid=NOTES_GID)
    if text is not None:
        text.set_text("\n".join(lines))


def _where(df, where: str):
    """The rows of a sweep's frame that `where` selects (odds.tools.where)."""
    if not where:
        return df
    from .where import conditions, select

    return select(df, conditions([where]))


def _sweep_title(head, df, on_axes, where) -> str:
    """Title: what is shown, then the parameters held fixed and those the filter picked, in
    words (each once, wrapped)."""
    import textwrap

    from .where import conditions

    picked = conditions([where]) if where else []
    fixed = _fixed_title(df, on_axes + tuple(k for k, _ in picked))
    chosen = "; ".join(words(k, list(v) if isinstance(v, tuple) else v) for k, v in picked)
    parts = [p for p in (fixed, chosen) if p]
    return "\n".join([textwrap.fill(head, 70)] + ([textwrap.fill("; ".join(parts), 70)] if parts else []))


def lines(df, x: str, by: str | None = None, value: str = "attacker_win", ax=None,
          where: str = ""):
    """`value` against the parameter `x`, one line per value of `by` (e.g. the variant), with
    95% intervals for Monte Carlo cells; `where` selects the rows first (as in heatmap)."""
    df = _where(df, where)
    _check_columns(df, x, *((by,) if by else ()), value, axes=(x,))
    check_size(df, by=by)
    _one_per_cell(df, (x, by) if by else (x,), value)
    ax = _axes(ax, (6, 4))
    groups = df.groupby(df[by].astype(str), sort=False) if by else [(None, df)]
    for name, part in groups:
        se = part.get(value + "_se")
        err = 1.96 * se if se is not None and (se > 0).any() else None
        ax.errorbar(part[x], part[value], yerr=err, fmt="o-", capsize=2, markersize=4,
                    label=f"{by} = {name}" if by else None)
    if is_probability(value):
        ax.set_ylim(0, 1)
    ax.set_xlabel(_name(x))
    ax.set_ylabel(_label(value))
    _whole_ticks(ax, df, x)
    ax.grid(alpha=0.3)
    if by:
        ax.legend(loc="best", fontsize="small", framealpha=0.8)
    ax.set_title(_sweep_title(_("{value} by {x}").format(value=_label(value), x=_name(x)), df,
                              (x, by, value), where),
                 fontsize="medium")
    footnote(ax, said(df)["notes"])
    return ax


def difference(df, x: str, y: str, column: str, a, b, value: str = "attacker_win", ax=None,
               where: str = ""):
    """`value` where `column` == a minus where `column` == b, over x and y (centred on 0),
    each cell labelled with its number where it fits and hatched where its 95% interval
    covers 0 (odds.tools.differences: exact, paired Monte Carlo runs or independent ones; the title
    says which); `where` selects the rows first (as in heatmap)."""
    from .differences import difference as differences

    df = _where(df, where)
    _check_columns(df, x, y, column, value, axes=(x, y))
    check_size(df, x, y)
    diff = differences(df, column, a, b, value, keys=[x, y])
    shown = f"{_label(value)}: {column} {diff.attrs['a']} minus {diff.attrs['b']}"
    diff = diff.rename(columns={"difference": shown})
    engines = sorted(set(diff["engine"]))
    mc = any(e != "exact" for e in engines)
    ax = heatmap(diff, x, y, shown, ax=ax, where=where, centre=0.0,
                 context=df.drop(columns=column), marked="covers_zero" if mc else None)
    hatched = int(diff["covers_zero"].sum())
    how = "; ".join(engines) + (f"; hatched: the 95% interval covers 0 ({hatched} of {len(diff)} cells)"
                                if mc else "")
    ax.set_title(ax.get_title() + "\n" + textwrap.fill(how, 70), fontsize="medium")
    return ax


def difference_lines(df, x: str, column: str = "variant", a=None, b=None, by: str | None = None,
                     value: str = "attacker_win", ax=None, where: str = ""):
    """`value` where `column` == a minus where it is b (default: its second value minus its
    first, a variant minus the rules) against `x`, one line per value of `by`, each point with
    its 95% interval (odds.tools.differences: exact points have none to draw), the 0 line, the
    engines in the title and the frame's notes below; `where` selects the rows first."""
    from .differences import difference as differences

    df = _where(df, where)
    keys = [x, *([by] if by else [])]
    _check_columns(df, *keys, column, value, axes=(x,))
    check_size(df, by=by)
    diff = differences(df, column, a, b, value, keys=keys)
    ax = _axes(ax, (6, 4))
    scale = 1.0 if not is_probability(value) else 100.0
    groups = diff.groupby(diff[by].astype(str), sort=False) if by else [(None, diff)]
    for name, part in groups:
        part = part.sort_values(x)
        d = part["difference"].to_numpy(float) * scale
        err = np.vstack([d - part["low"].to_numpy(float) * scale,
                         part["high"].to_numpy(float) * scale - d])
        ax.errorbar(part[x], d, yerr=np.clip(err, 0, None), fmt="o-", capsize=3, markersize=4,
                    label=f"{_name(by)} {name}" if by else None)
    ax.axhline(0, color="black", linewidth=0.8)
    unit = " (percentage points)" if scale != 1 else ""
    ax.set_ylabel(f"{_label(value)}: {diff.attrs['a']} minus {diff.attrs['b']}{unit}")
    ax.set_xlabel(_name(x))
    _whole_ticks(ax, df, x)
    ax.grid(alpha=0.3)
    if by:
        ax.legend(loc="best", fontsize="small", framealpha=0.8)
    engines = "; ".join(sorted(set(diff["engine"])))
    head = f"{_label(value)}: {column} {diff.attrs['a']} minus {diff.attrs['b']}, 95% intervals"
    ax.set_title(_sweep_title(head, df.drop(columns=column), (x, by, value), where) + "\n"
                 + textwrap.fill(engines, 70), fontsize="medium")
    footnote(ax, said(df)["notes"])
    return ax


def card_value(df, size: str, cards: str, value: str = "attacker_win", ax=None):
    """P(`value`) with and without a card against the parameter `size`, one line per value of
    the card-list column `cards` ("without" for the empty list). `df` is a sweep over both, e.g.
    ``sweep("his.field", {"defender": range(1, 11), "defender_cards": [[], ["janissaries"]]},
    {"attacker": 6})``; its `procedure` (df.attrs) goes in the title."""
    _check_columns(df, size, cards, value, axes=(size,))
    check_size(df, by=cards)
    named = df.assign(**{cards: df[cards].map(_card_list)})
    _one_per_cell(named, (size, cards), value)
    ax = _axes(ax)
    played = []
    for name, part in named.groupby(cards, sort=False):
        se = part.get(value + "_se")
        err = 1.96 * se if se is not None and (se > 0).any() else None
        ax.errorbar(part[size], part[value], yerr=err, fmt="s-" if name else "o--", capsize=2,
                    label=f"with {name}" if name else "without")
        played += [name] if name else []
    procedure = df.attrs.get("procedure")
    ax.set_ylim(0, 1)
    ax.set_xlabel(_label(size))
    ax.set_ylabel(f"P({_label(value)})")
    ax.set_title(f"value of {' / '.join(played) or 'no card'}" + (f" ({procedure})" if procedure else ""))
    ax.legend()
    ax.grid(alpha=0.3)
    return ax


def _card_list(cards) -> str:
    """A cell's card list as text: 'janissaries, tercios'; '' for none (also '[]' read from a
    CSV file)."""
    if isinstance(cards, str):
        return "" if cards.strip() in ("", "[]", "()") else cards
    return ", ".join(map(str, cards))


def describe(fig) -> str:
    """Alternative text for a figure: each plot's title and what its axes show, in words."""
    parts = []
    for ax in fig.axes:
        title = ax.get_title().replace("\n", "; ")
        x, y = ax.get_xlabel(), ax.get_ylabel()
        if title or x or y:
            parts.append((title or "a chart") + (f": {y or 'value'} against {x}" if x else ""))
    return "Chart. " + ". ".join(parts) if parts else "Chart."


def show(obj=None, alt: str | None = None):
    """Display a figure (or an Axes' figure; default the current one) in Jupyter with `alt`
    text for screen readers (default: `describe`), then close it so it is shown once."""
    import matplotlib.pyplot as plt
    from IPython.display import display

    fig = plt.gcf() if obj is None else getattr(obj, "figure", obj)
    with as_typed(fig):
        display(fig, metadata={"image/png": {"alt": alt or describe(fig)}})
    plt.close(fig)
