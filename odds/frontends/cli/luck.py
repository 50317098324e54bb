"""`odds luck RECORD`: how lucky each side of a game's record was (odds.tools.luck.report)."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from ...errors import OddsError
from ...files import check_output, replaced, write_csv
from ...texts import as_typed
from ...texts import printable
from ...i18n import N_, _, ngettext
from ...tools.luck.report import to_json
from .common import Lines, epilog

EXAMPLE = (N_("record (TOML; CSV has the same fields as columns, keywords as KEY=VALUE words):"), Lines("""  [[roll]]
  procedure = "his.field"
  keywords = { attacker = 6, defender = 4, attacker_leader = "suleiman" }"""), N_("""  side = "Ottoman"
  against = "Hapsburg"
  attacker_dice = [6, 6, 5, 4, 3, 3, 2, 1, 1]   # or attacker_hits = 3, or the losses
  defender_dice = [5, 4, 2, 1, 1]
  # winner = "attacker" (or a side's name); attacker_losses = 1; defender_losses = 3
  # a roll that rolls again (a siege's assaults): a list per roll, attacker_dice = [[...], [...]]
  # choices = { second_attacker = 2 }: what the dice do not show (a debater drawn, a card chosen)
"""), N_("the percentile of a roll: the chance that a replay of it would be worse for that side, "
         "counting an equal outcome half (50: average luck; 90: luckier than 9 replays in 10); "
         "the dice's own luck, per side and kind of die: their hits against the binomial chance "
         "(dice read by their faces: each face's count against its own chance, and the total of "
         "numbered faces). `odds luck --sample > game.toml` writes the sample record, rolls "
         "invented for illustration (`odds demo` shows its summary)."))
PROCEDURES = "{procedures}"  # in the epilog: what a record gives each procedure (the registry's)


def procedures() -> str:
    """Each procedure a record can score, what its roll's record gives (its reader's own words:
    core.rolled, Spec.rolled) or why its dice are not read, from the registry."""
    from ... import registry

    lines = [_("the dice as rolled, procedure by procedure (or give the losses and the winner):")]
    for name, spec in registry.specs().items():
        text = _(rolled_words(spec))
        lines += textwrap.wrap(f"{name}: {text}", 90, initial_indent="  ", subsequent_indent="      ")
    return "\n".join(lines)


def rolled_words(spec) -> str:
    """What a record gives `spec`'s roll (its reader's docstring), or why its dice are not read:
    the message the catalog translates (scripts/catalog.py adds each)."""
    reader = spec.reader()
    return " ".join((reader.__doc__ or "").split()) if reader else f"not read: {spec.not_rolled}"


class _Help(argparse.RawDescriptionHelpFormatter):
    """Writes the procedures' list into the epilog only when the help is shown (it imports
    every procedure; the command itself does not)."""

    def add_text(self, text):
        if text and PROCEDURES in text:
            text = text.replace(PROCEDURES, procedures())
        super().add_text(text)


def run(args) -> int:
    from ...tools.luck.report import SAMPLE, luck
    from ...tools.luck.text import summary

    if args.sample:
        print(SAMPLE.read_text(encoding="utf-8"), end="")
        return 0
    if args.record is None:
        raise OddsError(_("record: missing (give a TOML or CSV file; `odds luck --sample > "
                          "game.toml` writes an invented sample record to start from)"))

    if args.plot:
        check_output(args.plot, "--plot", (".png", ".pdf", ".svg"))
    if args.out:
        check_output(args.out, "--out", (".csv",))
    frame = luck(Path(args.record))
    if args.json:
        print(json.dumps(to_json(frame)))
    else:
        print(summary(frame, rolls=not args.brief))
    if args.out:
        write_csv(frame, args.out, "--out")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        from ...tools.luck.plot import cumulative

        with replaced(args.plot, "--plot") as temporary, as_typed(cumulative(frame)) as fig:
            fig.savefig(temporary, dpi=120, format=args.plot.rsplit(".", 1)[1])
    refused = frame.attrs["refused"]
    if refused:
        where = _("listed above") if not args.json else _("in refused")
        print(_("odds: error: {message}").format(message=ngettext(
            "{n} roll refused ({where}); the first: {first}",
            "{n} rolls refused ({where}); the first: {first}", len(refused)).format(
            n=len(refused), where=where, first=printable(refused[0]))), file=sys.stderr)
    return 2 if refused else 0


def register(games):
    p = games.add_parser("luck", help=_("how lucky each side of a game's record was"),
                         description=_("How lucky each side was, roll by roll and over the whole "
                                       "game, from a record of rolls (TOML or CSV) and each "
                                       "roll's exact distribution. A refused roll is listed by "
                                       "its line (exit code 2); the others are reported."),
                         epilog=f"{epilog(*EXAMPLE)}\n\n{PROCEDURES}", formatter_class=_Help)
    p.add_argument("record", nargs="?", metavar="RECORD", help=_(
        "the record: a TOML or CSV file (.toml, .csv; another name is read as TOML when it has a "
        "[[roll]] table)"))
    p.add_argument("--plot", metavar="FILE", help=_("cumulative luck per side (.png, .pdf or .svg)"))
    p.add_argument("--out", metavar="FILE", help=_("the table of rolls as CSV"))
    p.add_argument("--brief", action="store_true", help=_("the whole game only, not each roll"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument("--sample", action="store_true",
                   help=_("print the sample record (27 rolls of Here I Stand invented for "
                          "illustration, not a real game's) to start from"))
    p.set_defaults(handler=run)
