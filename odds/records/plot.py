"""The cumulative luck of each side over the game: actual minus expected hits dealt (wins
where fewer than half a side's rolls deal hits) after each of its rolls, with the band in which 90% of games
(5% to 95% of the running sum's exact distribution) would lie. One panel per side."""
from __future__ import annotations

import numpy as np

from ..errors import OddsError

MAX_SIDES = 12  # panels in one figure
WORDS = {"hits": "hits dealt", "wins": "wins"}


def cumulative(frame):
    """The plot of `odds.luck(record)`'s frame; returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    sides = list(dict.fromkeys(frame.loc[frame["plotted"] != "", "side"]))
    if not sides:
        raise OddsError("record: no side records hits or a winner: nothing to plot")
    if len(sides) > MAX_SIDES:
        raise OddsError(f"record: {len(sides)} sides (allowed: at most {MAX_SIDES} in one plot)")
    fig, axes = plt.subplots(len(sides), 1, figsize=(7, 1.2 + 1.7 * len(sides)), sharex=True,
                             layout="constrained", squeeze=False)
    order = {line: i + 1 for i, line in enumerate(dict.fromkeys(frame["line"]))}
    for ax, side in zip(axes[:, 0], sides):
        rows = frame[(frame["side"] == side) & (frame["plotted"] != "")]
        x = np.array([0, *(order[line] for line in rows["line"])])  # 0: the game's start
        start = lambda column: np.array([0, *rows[column]])  # noqa: E731
        ax.fill_between(x, start("band_low"), start("band_high"), color="0.85",
                        label="90% of games (5% to 95%)")
        ax.axhline(0, color="0.5", lw=0.8)
        ax.plot(x, start("cumulative"), color="black", lw=1.6, marker="o", ms=3, label="this game")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        measure = rows["plotted"].iloc[0]
        ax.set_ylabel(f"{WORDS[measure]}\nabove expected", fontsize=8)
        ax.set_title(f"{side}", loc="left", fontsize=10, fontweight="bold")
    axes[0, 0].legend(loc="upper left", fontsize=8, frameon=False)
    axes[-1, 0].set_xlabel("roll of the game (in the record's order)")
    fig.suptitle("How lucky was each side: cumulative luck (actual minus expected)", fontsize=11)
    return fig
