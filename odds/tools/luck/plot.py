"""The cumulative luck of each side over the game: actual minus expected hits dealt (wins
where fewer than half a side's rolls deal hits) after each of its rolls, with the band in which 90% of games
(5% to 95% of the running sum's exact distribution) would lie; and, where the record gives the
dice, the dice's own luck: the side's hits (or the total of its numbered dice) above expected,
dashed, with its own band outlined. One panel per side."""
from __future__ import annotations

import numpy as np

from ...errors import OddsError
from ...i18n import N_, _
from .text import _side

MAX_SIDES = 12  # panels in one figure
WORDS = {"hits": N_("hits dealt"), "wins": N_("wins")}
DICE = {"hits": N_("its dice's hits"), "total": N_("its dice's total")}


def cumulative(frame):
    """The plot of `odds.luck(record)`'s frame; returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    shown = (frame["plotted"] != "") | frame["dice_cumulative"].notna()
    sides = list(dict.fromkeys(frame.loc[shown, "side"]))
    if not sides:
        raise OddsError(_("record: no side records hits, a winner or dice: nothing to plot"))
    if len(sides) > MAX_SIDES:
        raise OddsError(_("record: {n} sides (allowed: at most {most} in one plot)").format(
            n=len(sides), most=MAX_SIDES))
    fig, axes = plt.subplots(len(sides), 1, figsize=(7, 1.2 + 1.7 * len(sides)), sharex=True,
                             layout="constrained", squeeze=False)
    order = {line: i + 1 for i, line in enumerate(dict.fromkeys(frame["line"]))}
    seen = set()  # each line explained once, in the first panel that draws it
    for ax, side in zip(axes[:, 0], sides):
        mine = frame[frame["side"] == side]
        words = []
        rows = mine[mine["plotted"] != ""]
        if len(rows):
            x = np.array([0, *(order[line] for line in rows["line"])])  # 0: the game's start
            start = lambda column: np.array([0, *rows[column]])  # noqa: E731
            ax.fill_between(x, start("band_low"), start("band_high"), color="0.85",
                            label=_("90% of games (5% to 95%)"))
            ax.plot(x, start("cumulative"), color="black", lw=1.6, marker="o", ms=3,
                    label=_("this game"))
            words.append(_(WORDS[rows["plotted"].iloc[0]]))
        dice = mine[mine["dice_cumulative"].notna()]
        if len(dice):
            x = np.array([0, *(order[line] for line in dice["line"])])
            start = lambda column: np.array([0, *dice[column]])  # noqa: E731
            measure = _(DICE[dice["dice_measure"].iloc[0]])
            ax.fill_between(x, start("dice_band_low"), start("dice_band_high"), facecolor="none",
                            edgecolor="0.55", hatch="///", lw=0.0,
                            label=_("90% of games, {measure}").format(measure=measure))
            ax.plot(x, start("dice_cumulative"), color="0.35", lw=1.2, ls="--", marker="s", ms=2.5,
                    label=measure)
            words.append(measure)
        ax.axhline(0, color="0.5", lw=0.8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(_("{measures}\nabove expected").format(measures=" / ".join(words)), fontsize=8)
        ax.set_title(_side(side), loc="left", fontsize=10, fontweight="bold")
        handles = [(h, label) for h, label in zip(*ax.get_legend_handles_labels()) if label not in seen]
        if handles:
            ax.legend(*zip(*handles), loc="upper left", fontsize=7, frameon=False)
            seen.update(label for _handle, label in handles)
    axes[-1, 0].set_xlabel(_("roll of the game (in the record's order)"))
    fig.suptitle(_("How lucky was each side: cumulative luck (actual minus expected)"), fontsize=11)
    return fig
