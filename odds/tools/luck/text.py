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
    heads = [_(h) for h in ROLL_COLUMNS]
    widths = [max(w, len(h) + 1) for w, h in zip((5, 24, 14, 9, 8, 7, 9, 11, 7), heads)]
    widths[0] -= 1  # the line's number: right-aligned, two spaces after it
    lines = ["  " + _("roll by roll (percentile of hits dealt, else of the win, else of losses taken; "
                      "dice: the percentile of the side's own dice, hits or total of faces):"),
             "    " + _row(heads, widths)]
    for r in frame.itertuples():
        actual, expected = {"hits": (r.hits, r.expected_hits), "losses": (r.losses, r.expected_losses),
                            "wins": (int(bool(r.won)), r.p_win),
                            "dice": (r.dice_actual, r.dice_expected)}[r.measure]
        own = ordinal(r.dice_percentile) if r.dice_percentile == r.dice_percentile else ""
        lines.append("    " + _row([r.line, r.procedure, _side(r.side)[:13], _(ROLES.get(r.role, r.role)),
                                   _(MEASURES.get(r.measure, r.measure)), f"{actual:.0f}",
                                   decimal(expected, 2), ordinal(r.percentile), own], widths))
    return lines


ROLL_COLUMNS = (N_("line"), N_("procedure"), N_("side"), N_("role"), N_("measure"), N_("actual"),
                N_("expected"), N_("percentile"), N_("dice"))
ROLES = {"attacker": N_("attacker"), "defender": N_("defender")}
MEASURES = {"hits": N_("hits"), "wins": N_("wins"), "losses": N_("losses"), "dice": N_("dice")}


def _row(cells, widths) -> str:
    """One row of the roll-by-roll table: the line's number right-aligned and two spaces, the
    words left-aligned, the numbers right-aligned, in `widths`."""
    line, procedure, side, role, measure, *numbers = cells
    return (f"{line:>{widths[0] + 1}}  {procedure:<{widths[1]}}{side:<{widths[2]}}{role:<{widths[3]}}"
            f"{measure:<{widths[4]}}" + "".join(f"{n:>{w}}" for n, w in zip(numbers, widths[5:])))
