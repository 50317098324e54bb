"""The summary `odds luck` prints: the whole game per side, then each roll."""
from __future__ import annotations

import math

from ...texts import counted, printable
from .report import dice, whole_game

WORDS = {"hits": "hits dealt", "wins": "won", "losses": "losses taken"}
OVERALL = {**WORDS, "wins": "wins"}


def ordinal(value: float) -> str:
    """52.4 -> '52nd'; 1st to 99th (a possible outcome's mid-p percentile is never 0 or 100)."""
    n = min(99, max(1, math.floor(value + 0.5)))
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def summary(frame, rolls: bool = True) -> str:
    """The whole game per side (actual, expected, percentile, 5-95% range), its dice's own
    luck, each roll, and the refused rolls."""
    game, own = whole_game(frame), dice(frame)
    title = frame.attrs.get("title")
    lines = [printable(title)] if title else []  # the record's own: the sample's says invented
    lines += [f"How lucky was each side ({counted(frame['line'].nunique(), 'roll')}, "
             f"{counted(frame.attrs['situations'], 'distinct situation')}, exact; percentile 50 = "
             "average luck, 90 = luckier than 9 games in 10)"]
    for side in dict.fromkeys(frame["side"]):
        rows, its = game[game.side == side], own[own.side == side]
        lines.append(f"  {printable(side)}: " + "; ".join(_headline(rows, its)))
        for r in rows.itertuples():
            lines.append(f"    {WORDS[r.measure]:<13}{r.actual:>5} against {r.expected:7.2f} expected  "
                         f"{ordinal(r.percentile):>5} percentile   (90% of games: {r.low} to {r.high}, "
                         f"{counted(r.rolls, 'roll')})")
        lines += _dice_lines(its)
    if rolls:
        lines += _rolls(frame)
    if frame.attrs["refused"]:
        lines.append(f"  refused ({len(frame.attrs['refused'])}, not counted above):")
        lines += [f"    {line}" for line in frame.attrs["refused"]]
    return "\n".join(lines)


def _headline(rows, its) -> list:
    """The side's one number on its outcomes, and on its dice (their most rolled kind's hits,
    else total), where the record has them."""
    out = []
    if rows.overall.any():
        overall = rows[rows.overall].iloc[0]
        out.append(f"{ordinal(overall.percentile)} percentile overall (on {OVERALL[overall.measure]})")
    main = its[its.measure.isin(("hits", "total"))].sort_values("dice", ascending=False, kind="stable")
    if len(main):
        r = main.iloc[0]
        out.append(f"its dice: {ordinal(r.percentile)} percentile ({r.measure} of its "
                   f"{_dice(r.dice)}, {r.die})")
    return out or ["dice only, of faces"]


def _dice_lines(its) -> list:
    """The side's dice per kind: hits (or the total of the faces) and each face's count."""
    lines = []
    for die, rows in its.groupby("die", sort=False):
        lines.append(f"    its dice, {die} ({_dice(rows.dice.iloc[0])}):")
        for r in rows.itertuples():
            word = {"hits": "hits", "total": "total of faces"}.get(r.measure, r.measure)
            lines.append(f"      {word:<16}{r.actual:>5} against {r.expected:8.2f} expected  "
                         f"{ordinal(r.percentile):>5} percentile   (90% of games: {r.low} to {r.high})")
    return lines


def _dice(n) -> str:
    return f"{int(n):,} {'die' if n == 1 else 'dice'}"


def _rolls(frame) -> list:
    lines = ["  roll by roll (percentile of hits dealt, else of the win, else of losses taken; "
             "dice: the percentile of the side's own dice, hits or total of faces):",
             f"    {'line':>5}  {'procedure':<24}{'side':<14}{'role':<9}{'measure':<8}"
             f"{'actual':>7}{'expected':>9}{'percentile':>11}{'dice':>7}"]
    for r in frame.itertuples():
        actual, expected = {"hits": (r.hits, r.expected_hits), "losses": (r.losses, r.expected_losses),
                            "wins": (int(bool(r.won)), r.p_win),
                            "dice": (r.dice_actual, r.dice_expected)}[r.measure]
        own = ordinal(r.dice_percentile) if r.dice_percentile == r.dice_percentile else ""
        lines.append(f"    {r.line:>5}  {r.procedure:<24}{printable(r.side)[:13]:<14}{r.role:<9}{r.measure:<8}"
                     f"{actual:>7.0f}{expected:>9.2f}{ordinal(r.percentile):>11}{own:>7}")
    return lines
