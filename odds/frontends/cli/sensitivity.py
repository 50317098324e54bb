"""`odds sensitivity PROCEDURE [flags]`: odds.sensitivity on the command line, the
procedure's own flags (as `odds GAME PROCEDURE` has them) and `--alternative KEY=VALUE`."""
from __future__ import annotations

import argparse
import sys

from ...errors import OddsError
from ...i18n import _
from ...registry import get
from ...tools.questions.sensitivity import sensitivity
from .common import Parser, add_engine_flags, add_param, emit, engine_kwargs, given, in_flags


def run(args) -> int:
    """`odds sensitivity PROCEDURE [flags]`: the procedure's own flags, --alternative, --json."""
    spec = get(args.procedure)
    parser = Parser(prog=f"odds sensitivity {spec.name}",
                    description=_("{help}: each reading it rests on flipped, the answer and its "
                                  "means side by side, ordered by effect").format(help=_(spec.help)))
    for p, default in zip(spec.params, spec.defaults().values()):
        add_param(parser, p, default)
    add_engine_flags(parser, spec.exact)
    parser.add_argument("--alternative", action="append", nargs="+", metavar="KEY=VALUE",
                        default=[], help=_("a designer's alternative, repeatable: keywords "
                                           "replacing the call's (e.g. doria_dice=5, or "
                                           "dice_per.galleon=3)"))
    chosen = parser.parse_args(_file_first(spec, args.rest))
    try:
        engine = {k: v for k, v in engine_kwargs(chosen).items() if spec.takes(k)}
        result = sensitivity(spec.name, given(spec, chosen), chosen.alternative, **engine)
    except OddsError as e:  # the flags the user typed, not the Python keywords
        message = str(e)
        raise OddsError(message if message.startswith("--alternative") else
                        in_flags(message, spec.params)) from None
    emit(result, chosen.json)
    if result.partial:
        print(_("odds: interrupted: partial result"), file=sys.stderr)
        return 130
    return 0


def _file_first(spec, rest: list) -> list:
    """The words after PROCEDURE, a scenario file first taken as its flag's value, as `odds
    crusades sensitivity FILE` takes it."""
    files = [p for p in spec.params if p.kind == "scenario"]
    if files and rest and not rest[0].startswith("-"):
        return [f"--{files[0].option}", *rest]
    return rest


def register(games):
    p = games.add_parser("sensitivity", help=_("how far an answer moves with the readings it "
                                               "rests on: each flipped, side by side"),
                         usage="odds sensitivity PROCEDURE [SCENARIO.toml] [FLAGS] [--alternative KEY=VALUE ...]",
                         description=_("Each reading (a choice odds makes where the rules are "
                                       "silent: docs/rules.md) a procedure's answer uses, flipped to "
                                       "each of its alternatives, the others held: the headline and "
                                       "the main means with their changes, ordered by effect. Flags "
                                       "after PROCEDURE: its own (odds GAME PROCEDURE --help), the "
                                       "engine's, --alternative KEY=VALUE (a designer's variant, "
                                       "repeatable), --json."),
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("procedure", metavar="PROCEDURE", help=_("a procedure's name, e.g. his.diet_of_worms, his.piracy, "
                                       "vq.naval, oath.campaign, crusades.battle"))
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(handler=run)
