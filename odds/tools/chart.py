"""A one-page odds chart to print for the table (the command `odds chart`; `draw` in Python): a
procedure's probability (its headline event, or `--event`) for every pair of two integer
keywords, exact, as whole percentages in grey-scale cells (darker is likelier; 50% or more in
bold), the fixed settings in the title and the rules' assumptions in a footnote. A4 or US
Letter, PDF or PNG (by the file's extension).
"""
from __future__ import annotations

import textwrap

from .. import registry
from ..core.readings import alone
from .frames import readings_said
from ..errors import OddsError, check_choice
from ..core.engine import BeyondExact, estimated
from .questions.budget import beyond, check_event, estimates, under_way
from ..i18n import _, integer, ngettext, percent

PAPER = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}  # inches, portrait
EXACT = 1e-12  # a probability this close to 0 or 1 is printed as 0 or 100
MAX_VALUES = 30  # values of one keyword on the chart (a cell stays readable on paper)


def cell_text(p: float) -> str:
    """A probability as the chart prints it: whole percent, '<1' and '>99' near the ends, '0'
    and '100' only when exact (within EXACT: the rounding of a sum of exact terms)."""
    if p < EXACT or p > 1 - EXACT:
        return "0" if p < EXACT else "100"
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return f"{100 * p:.0f}"


def grid(spec, rows: tuple, cols: tuple, fixed: dict, event: str | None):
    """(values [row][col], the event's name, one Result per cell in row order), each exact.
    Every cell is checked and its work estimated, and the event named, before the first is
    computed; the whole work is bounded (questions.budget.under_way: one line saying the
    largest chart from the ranges' low ends that fits, a bar over the cells on a terminal)."""
    (rname, _values), (cname, cvalues) = rows, cols
    keywords = cells(rows, cols, fixed)
    calls = [lambda kw=kw: spec.call(**kw, method="exact", progress=False) for kw in keywords]

    def named(i, fn):  # a cell refused (a value, or its answer alone over the bounds) is named
        cell = _("the cell {row}, {col}").format(row=f"{rname}={keywords[i][rname]}",
                                                 col=f"{cname}={keywords[i][cname]}")
        try:
            return fn()
        except BeyondExact as e:  # a chart is exact only: no Monte Carlo to offer
            raise OddsError(f"chart: {cell}: {beyond(e, _('a chart'))}") from None
        except OddsError as e:
            raise OddsError(f"{e} ({cell})") from None

    work, proc = named(0, lambda: estimated(calls[0]))
    name = check_event(proc, event, "--event", spec.name) if proc else event or spec.main
    works = [work, *estimates(calls[1:], lambda i, fn: named(i + 1, fn))]
    flat = []
    cells_counted = ngettext("{n} cell", "{n} cells", len(keywords)).format(n=integer(len(keywords)))
    with under_way(works, f"chart: {cells_counted}", _("cell"),
                   lambda each, bound: fits(each, bound, rows, cols)) as done:
        for call in calls:
            with alone():  # a cell's readings are marked, not flipped
                flat.append(call())
            done()
    results = [flat[i:i + len(cvalues)] for i in range(0, len(flat), len(cvalues))]
    return [[res.probabilities[name] for res in row] for row in results], name, results


def fits(works, bound: float, rows: tuple, cols: tuple) -> str:
    """The largest chart from both ranges' low ends whose cells (estimated `works`, in row
    order) fit `bound` together, as a refusal says it (a cell's work grows with the counts:
    the low ends are the cheap corner)."""
    import numpy as np

    (rname, rvalues), (cname, cvalues) = rows, cols
    spent = np.cumsum(np.cumsum(np.reshape(works, (len(rvalues), len(cvalues))), 0), 1)
    # spent[i, j]: the cells of the first i + 1 rows and j + 1 columns; each row nondecreasing
    n, m = max(((i + 1, int(np.searchsorted(spent[i], bound, side="right")))
                for i in range(len(rvalues))), key=lambda nm: (nm[0] * nm[1], min(nm)))
    if n * m == 0:
        return _("; not even its first cell fits")
    return _("; {fit} of the {all} cells fit: {rows} with {cols}").format(
        fit=integer(n * m), all=integer(len(works)), rows=f"{rname}={rvalues[0]}..{rvalues[n - 1]}",
        cols=f"{cname}={cvalues[0]}..{cvalues[m - 1]}")


def draw(spec, rows, cols, fixed: dict, event: str | None = None, paper: str = "a4"):
    """The chart's matplotlib figure, one page of `paper` (`grid`, then `figure`)."""
    paper = check_choice("paper", paper, tuple(PAPER))
    return figure(spec, rows, cols, fixed, grid(spec, rows, cols, fixed, event), paper)


def figure(spec, rows, cols, fixed: dict, answers: tuple, paper: str = "a4"):
    """The figure of `grid`'s `answers` (matplotlib is imported here: a refused chart never
    loads it)."""
    import matplotlib.pyplot as plt
    import numpy as np

    values, name, results = answers
    p = np.array(values, dtype=float)
    (rname, rvalues), (cname, cvalues) = rows, cols
    fig = plt.figure(figsize=PAPER[paper])
    ax = fig.add_axes([0.11, 0.2, 0.84, 0.64])
    ax.imshow(1 - 0.62 * p, cmap="gray", vmin=0, vmax=1, aspect="auto")  # white: 0, dark grey: 1
    size = max(6.0, min(13.0, 150 / max(len(rvalues), len(cvalues))))
    for i in range(len(rvalues)):
        for j in range(len(cvalues)):
            ax.text(j, i, cell_text(p[i, j]), ha="center", va="center", fontsize=size,
                    fontweight="bold" if p[i, j] >= 0.5 else "normal", color="black")
    ax.set_xticks(range(len(cvalues)), [str(v) for v in cvalues])
    ax.set_yticks(range(len(rvalues)), [str(v) for v in rvalues])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(f"{spec.param(cname).option}: {_(spec.param(cname).help)}", fontsize=10)
    ax.set_ylabel(f"{spec.param(rname).option}: {_(spec.param(rname).help)}", fontsize=10)
    ax.set_xticks(np.arange(len(cvalues) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(rvalues) + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.2)
    ax.tick_params(which="minor", length=0)
    game = spec.name.split(".")[0]
    fixed_text = ", ".join(f"{spec.param(k).option} {_shown(v)}" for k, v in fixed.items()) \
        or _("every other setting at its default")
    fig.text(0.5, 0.972, _("{answer}, in percent ({game})").format(
        answer=results[0][0].words.title(name, game), game=_(registry.titles()[game])), ha="center",
             va="top", fontsize=14, fontweight="bold")
    fig.text(0.5, 0.945, textwrap.fill(f"{_(spec.help)}  [{spec.name}]", 100) + "\n"
             + textwrap.fill(fixed_text, 100), ha="center", va="top", fontsize=10, linespacing=1.4)
    fig.text(0.11, 0.185, _("Darker cells are likelier; {half} or more in bold. Exact probabilities "
                            "(odds, {procedure}).").format(half=percent(0.5, 0), procedure=spec.name),
             fontsize=8.5, va="top")
    fig.text(0.11, 0.165, footnote(results, spec, cells(rows, cols, fixed)), fontsize=7.5, va="top", family="serif")
    return fig


def cells(rows: tuple, cols: tuple, fixed: dict) -> list:
    """Each cell's keywords, in row order."""
    (rname, rvalues), (cname, cvalues) = rows, cols
    return [{**fixed, rname: r, cname: c} for r in rvalues for c in cvalues]


def footnote(results, spec, keywords: list) -> str:
    """The rules this chart rests on: one corner cell's dice in words, and every assumption,
    reading (a setting the rulebook does not fix: what it is, the value assumed, its source)
    and note of any cell, each once; `keywords`: each cell's, in row order."""
    corner = results[-1][-1]
    lines = [_("Rules as the odds package implements them (its docs/rules.md); every keyword not "
               "named above at its default."),
             _("e.g. the last cell: {dice}").format(dice="; ".join(corner.explain)) if corner.explain else ""]
    flat = [r for row in results for r in row]
    seen = dict.fromkeys(text for r, kw in zip(flat, keywords) for text in (
        *r.assumptions, *(_("a reading: {said}").format(said=said) for said in readings_said(r, spec, kw) or
                          (k.replace("_", " ") for k in r.readings)), *r.notes))
    lines += [f"* {text}" for text in seen]
    wrapped = [textwrap.fill(line, 125) for line in lines if line]
    return "\n".join(wrapped[:12]) + ("\n" + _("(more notes omitted)") if len(wrapped) > 12 else "")


def _shown(value) -> str:
    return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
