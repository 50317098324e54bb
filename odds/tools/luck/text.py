"""The summary `odds luck` prints: the whole game per side, then each roll."""
from __future__ import annotations

import math

from ...i18n import N_, _, card_name, decimal, integer, language, ngettext
from ...texts import printable
from .report import dice, whole_game

WORDS = {"hits": N_("hits dealt"), "wins": N_("won"), "losses": N_("losses taken")}
OVERALL = {**WORDS, "wins": N_("wins")}


def _rolls_counted(n: int) -> str:
    return ngettext("{n} roll", "{n} rolls", n).format(n=integer(n))


def _side(side: str) -> str:
    """A side of the record in the language in force: a power's own name («Османы»), else as
    the record writes it."""
    named = card_name(side.lower())
    return printable(side if named == side.lower() else named)


def ordinal(value: float) -> str:
    """52.4 -> '52nd'; 1st to 99th (a possible outcome's mid-p percentile is never 0 or 100)."""
    n = min(99, max(1, math.floor(value + 0.5)))
    if language() == "ru":
        return f"{n}-й"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def summary(frame, rolls: bool = True) -> str:
    """The whole game per side (actual, expected, percentile, 5-95% range), its dice's own
    luck, each roll, and the refused rolls."""
    game, own = whole_game(frame), dice(frame)
    n = frame.attrs["situations"]
    title = frame.attrs.get("title")
    lines = [printable(title)] if title else []  # the record's own: the sample's says invented
    lines += [_("How lucky was each side ({rolls}, {situations}, exact; percentile 50 = average luck, "
                "90 = luckier than 9 games in 10)").format(
        rolls=_rolls_counted(frame["line"].nunique()),
        situations=ngettext("{n} distinct situation", "{n} distinct situations", n).format(n=integer(n)))]
    width = max([13] + [len(_(w)) + 1 for w in WORDS.values()])
    for side in dict.fromkeys(frame["side"]):
        rows, its = game[game.side == side], own[own.side == side]
        lines.append(f"  {_side(side)}: " + "; ".join(_headline(rows, its)))
        for r in rows.itertuples():
            lines.append(f"    {_(WORDS[r.measure]):<{width}}" + _(
                "{actual:>5} against {expected:>7} expected  {nth:>5} percentile   (90% of games: "
                "{low} to {high}, {rolls})").format(
                actual=r.actual, expected=decimal(r.expected, 2), nth=ordinal(r.percentile),
                low=r.low, high=r.high, rolls=_rolls_counted(r.rolls)))
        lines += _dice_lines(its)
    if rolls:
        lines += _rolls(frame)
    if frame.attrs["refused"]:
        lines.append("  " + _("refused ({n}, not counted above):").format(n=len(frame.attrs["refused"])))
        lines += [f"    {line}" for line in frame.attrs["refused"]]
    return "\n".join(lines)


def _headline(rows, its) -> list:
    """The side's one number on its outcomes, and on its dice (their most rolled kind's hits,
    else total), where the record has them."""
    out = []
    if rows.overall.any():
        overall = rows[rows.overall].iloc[0]
        out.append(_("{nth} percentile overall (on {measure})").format(
            nth=ordinal(overall.percentile), measure=_(OVERALL[overall.measure])))
    main = its[its.measure.isin(("hits", "total"))].sort_values("dice", ascending=False, kind="stable")
    if len(main):
        r = main.iloc[0]
        out.append(_("its dice: {nth} percentile ({measure} of its {dice}, {die})").format(
            nth=ordinal(r.percentile), measure={"hits": _("hits"), "total": _("total")}[r.measure],
            dice=_dice(r.dice), die=_die(r.die)))
    return out or [_("dice only, of faces")]


def _dice_lines(its) -> list:
    """The side's dice per kind: hits (or the total of the faces) and each face's count."""
    lines = []
    for die, rows in its.groupby("die", sort=False):
        lines.append("    " + _("its dice, {die} ({dice}):").format(die=_die(die), dice=_dice(rows.dice.iloc[0])))
        for r in rows.itertuples():
            word = {"hits": _("hits"), "total": _("total of faces")}.get(
                r.measure, _("face {k}").format(k=r.measure.split()[-1]) if r.measure.startswith("face")
                else r.measure)
            lines.append(f"      {word:<16}" + _(
                "{actual:>5} against {expected:>8} expected  {nth:>5} percentile   (90% of games: "
                "{low} to {high})").format(actual=r.actual, expected=decimal(r.expected, 2),
                                           nth=ordinal(r.percentile), low=r.low, high=r.high))
    return lines


def _dice(n) -> str:
    return ngettext("{n} die", "{n} dice", int(n)).format(n=integer(int(n)))


def _die(die: str) -> str:
    """A kind of die in words: 'd6 hitting on 5-6', 'd6 read by its number'."""
    if " hitting on " in die:
        kind, _on, faces = die.partition(" hitting on ")
        return _("{die} hitting on {faces}").format(die=kind, faces=faces)
    if die.endswith(" read by its number"):
        return _("{die} read by its number").format(die=die[:-len(" read by its number")])
    return die


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
