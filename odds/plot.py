"""Matplotlib pictures of Results. Every function takes ax=None and returns the Axes."""
from __future__ import annotations

import numpy as np

from .errors import OddsError


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6, 3.5))
    return ax


def loss_bars(result, ax=None, names=None):
    """Pmfs of the result side by side as bars (95% intervals for Monte Carlo)."""
    names = list(names or result.pmfs)
    if not names:
        raise OddsError(f"result: {result.procedure} has no distributions to plot")
    ax = _axes(ax)
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        pmf = result.pmfs[name]
        x = np.arange(len(pmf)) + (i - (len(names) - 1) / 2) * width
        err = 1.96 * result.se(pmf) if result.method == "mc" else None
        ax.bar(x, pmf, width, yerr=err, label=name.replace("_", " "), capsize=2)
    ax.set_xlabel("count")
    ax.set_ylabel("probability")
    ax.set_title(f"{result.procedure}: {result.main.replace('_', ' ')} = {result.p:.1%}")
    ax.legend()
    return ax


def plot_result(result, ax=None):
    """The natural picture of a Result."""
    return loss_bars(result, ax=ax)


def heatmap(df, x: str, y: str, value: str = "attacker_win", ax=None):
    """`value` over a grid of two parameters (a sweep's frame), with the 50% contour."""
    for name in (x, y, value):
        if name not in df.columns:
            raise OddsError(f"column: {name!r} is not in the results (allowed: {', '.join(map(str, df.columns))})")
    table = df.pivot_table(index=y, columns=x, values=value, aggfunc="mean")
    ax = _axes(ax)
    xs, ys, z = table.columns.to_numpy(), table.index.to_numpy(), table.to_numpy()
    mesh = ax.pcolormesh(xs, ys, z, shading="nearest", cmap="RdBu", vmin=0, vmax=1)
    if z.shape[0] > 1 and z.shape[1] > 1 and np.nanmin(z) < 0.5 < np.nanmax(z):
        contour = ax.contour(xs, ys, z, levels=[0.5], colors="black", linewidths=1.5)
        ax.clabel(contour, fmt={0.5: "50%"})
    ax.figure.colorbar(mesh, ax=ax, label=value.replace("_", " "))
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel(y.replace("_", " "))
    ax.set_title(f"{value.replace('_', ' ')} by {x.replace('_', ' ')} and {y.replace('_', ' ')}")
    return ax
