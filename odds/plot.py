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
