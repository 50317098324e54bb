"""The summary `odds luck` prints: the whole game per side, then each roll."""
from __future__ import annotations

import math

from ..texts import counted, printable
from .report import whole_game

WORDS = {"hits": "hits dealt", "wins": "won", "losses": "losses taken"}
OVERALL = {**WORDS, "wins": "wins"}


def ordinal(value: float) -> str:
    """52.4 -> '52nd'; 1st to 99th (a possible outcome's mid-p percentile is never 0 or 100)."""
    n = min(99, max(1, math.floor(value + 0.5)))
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def summary(frame, rolls: bool = True) -> str:
    """The whole game per side (actual, expected, percentile, 5-95% range), each roll, and
    the refused rolls."""
    game = whole_game(frame)
    lines = [f"How lucky was each side ({counted(frame['line'].nunique(), 'roll')}, "
             f"{counted(frame.attrs['situations'], 'distinct situation')}, exact; percentile 50 = "
             "average luck, 90 = luckier than 9 games in 10)"]
    for side, rows in game.groupby("side", sort=False):
        overall = rows[rows.overall].iloc[0]
        lines.append(f"  {printable(side)}: {ordinal(overall.percentile)} percentile overall "
                     f"(on {OVERALL[overall.measure]})")
        for r in rows.itertuples():
            lines.append(f"    {WORDS[r.measure]:<13}{r.actual:>5} against {r.expected:7.2f} expected  "
                         f"{ordinal(r.percentile):>5} percentile   (90% of games: {r.low} to {r.high}, "
                         f"{counted(r.rolls, 'roll')})")
    if rolls:
        lines.append("  roll by roll (percentile of hits dealt, else of the win, else of losses taken):")
        lines.append(f"    {'line':>5}  {'procedure':<24}{'side':<14}{'role':<9}{'measure':<8}"
                     f"{'actual':>7}{'expected':>9}{'percentile':>11}")
        for r in frame.itertuples():
            actual, expected = {"hits": (r.hits, r.expected_hits), "losses": (r.losses, r.expected_losses),
                                "wins": (int(bool(r.won)), r.p_win)}[r.measure]
            lines.append(f"    {r.line:>5}  {r.procedure:<24}{printable(r.side)[:13]:<14}{r.role:<9}{r.measure:<8}"
                         f"{actual:>7.0f}{expected:>9.2f}{ordinal(r.percentile):>11}")
    if frame.attrs["refused"]:
        lines.append(f"  refused ({len(frame.attrs['refused'])}, not counted above):")
        lines += [f"    {line}" for line in frame.attrs["refused"]]
    return "\n".join(lines)
