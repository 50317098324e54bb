"""Matplotlib pictures of Results and sweeps. Every function takes ax=None and returns the Axes.

- `losses`: both sides' loss distributions mirrored on one axis (pmf, "at least" or "at most").
- `outcomes`: the procedure's outcome probabilities as bars.
- `heatmap`: a sweep's probability over two parameters with the 50% contour.
- `card_value`: P(main event) with and without a card, per army size.
Monte Carlo results carry 95% intervals as error bars. Nothing calls plt.show().
"""
from __future__ import annotations

import numpy as np

from .errors import OddsError, check_choice

VIEWS = ("pmf", "at_least", "at_most")
ATTACKER, DEFENDER = "#1f77b4", "#d62728"


def _axes(ax, size=(6, 3.5)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _label(name: str) -> str:
    return name.replace("_", " ")


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
    check_choice("view", view, VIEWS)
    names = loss_pair(result)
    ax = _axes(ax)
    for name, sign, colour in zip(names, (-1, 1), (ATTACKER, DEFENDER)):
        p = _view(result.pmfs[name], view)
        k = np.arange(len(p))
        err = 1.96 * result.se(p) if result.method == "mc" else None
        ax.barh(k, sign * p, xerr=err, color=colour, alpha=0.85, capsize=2, label=_label(name))
    ax.axvline(0, color="black", linewidth=0.8)
    from matplotlib.ticker import FuncFormatter

    top = 1.1 * max(_view(result.pmfs[n], view).max() for n in names)
    ax.set_xlim(-top, top)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda t, _: f"{abs(t):.0%}"))
    ax.set_ylabel("number lost")
    ax.set_xlabel({"pmf": "probability", "at_least": "P(lose at least k)",
                   "at_most": "P(lose at most k)"}[view])
    ax.invert_yaxis()
    ax.legend(loc="lower right", fontsize="small")
    ax.set_title(_title(result))
    ax.yaxis.get_major_locator().set_params(integer=True)
    return ax


def _title(result):
    how = "exact" if result.method == "exact" else f"{result.trials:,} trials"
    return f"{result.procedure}: {_label(result.main)} {result.p:.1%} ({how})"


# events that partition a procedure's outcome (the first set whose names a result has)
PARTITIONS = (("success", "siege_continues", "withdraw", "cancelled"),
              ("captured", "siege_broken", "still_besieged"),
              ("attacker_win", "defender_win", "undecided"))


def outcome_names(result):
    """(label, probability) of the events that partition the outcome."""
    p = result.probabilities
    for names in PARTITIONS:
        if all(n in p for n in names):
            return [(_label(n), p[n]) for n in names]
    if "attacker_win" in p:
        return [("attacker wins", p["attacker_win"]), ("defender wins", 1 - p["attacker_win"])]
    return [(_label(n), v) for n, v in p.items()]


def outcomes(result, ax=None):
    """The outcome probabilities as bars (95% intervals for Monte Carlo)."""
    pairs = outcome_names(result)
    if not pairs:
        raise OddsError(f"result: {result.procedure} has no outcome probabilities to plot")
    ax = _axes(ax)
    labels, values = zip(*pairs)
    values = np.array(values, float)
    err = 1.96 * result.se(values) if result.method == "mc" else None
    bars = ax.bar(labels, values, yerr=err, capsize=3, color=[ATTACKER, DEFENDER] + ["#7f7f7f"] * 8)
    ax.bar_label(bars, [f"{v:.1%}" for v in values])
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("probability")
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


def heatmap(df, x: str, y: str, value: str = "attacker_win", ax=None):
    """`value` over a grid of two parameters (a sweep's frame), with the 50% contour."""
    for name in (x, y, value):
        if name not in df.columns:
            raise OddsError(f"column: {name!r} is not in the results "
                            f"(allowed: {', '.join(map(str, df.columns))})")
    if df.duplicated([x, y]).any():
        varying = [c for c in df.columns[: list(df.columns).index(value)]
                   if c not in (x, y) and df[c].astype(str).nunique() > 1]
        raise OddsError(f"{x} x {y}: several rows per cell (they differ in {', '.join(varying)}); "
                        "pick one value of each first, e.g. odds plot ... --where COLUMN=VALUE "
                        "(allowed: one row per cell)")
    table = df.pivot(index=y, columns=x, values=value)
    ax = _axes(ax, (6, 4.5))
    xs, ys, z = table.columns.to_numpy(), table.index.to_numpy(), table.to_numpy()
    mesh = ax.pcolormesh(xs, ys, z, shading="nearest", cmap="RdBu", vmin=0, vmax=1)
    if z.shape[0] > 1 and z.shape[1] > 1 and np.nanmin(z) < 0.5 < np.nanmax(z):
        contour = ax.contour(xs, ys, z, levels=[0.5], colors="black", linewidths=1.5)
        ax.clabel(contour, fmt={0.5: "50%"})
    ax.figure.colorbar(mesh, ax=ax, label=_label(value))
    ax.set_xlabel(_label(x))
    ax.set_ylabel(_label(y))
    ax.set_title(f"{_label(value)} by {_label(x)} and {_label(y)}")
    return ax


def card_value(procedure: str, card: str, size: str = "attacker", sizes=range(1, 11),
               fixed=None, card_field: str | None = None, value: str = "attacker_win", ax=None):
    """P(`value`) with and without `card` (played by the side named in `card_field`, by
    default the side of `size`), for each value of the parameter `size`."""
    from .sweep import sweep

    card_field = card_field or f"{size.split('_')[0]}_cards"
    fixed = dict(fixed or {})
    ax = _axes(ax)
    for cards, style in (([], "o--"), ([card], "s-")):
        df = sweep(procedure, {size: list(sizes)}, {**fixed, card_field: cards})
        if value not in df:
            raise OddsError(f"value: {value!r} is not a probability of {procedure}")
        label = f"with {card}" if cards else "without"
        err = 1.96 * df[value + "_se"] if (df[value + "_se"] > 0).any() else None
        ax.errorbar(df[size], df[value], yerr=err, fmt=style, capsize=2, label=label)
    main = value
    ax.set_ylim(0, 1)
    ax.set_xlabel(_label(size))
    ax.set_ylabel(f"P({_label(main)})")
    ax.set_title(f"value of {card} ({procedure})")
    ax.legend()
    ax.grid(alpha=0.3)
    return ax
