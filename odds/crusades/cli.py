"""`odds crusades run|sensitivity|siege SCENARIO.toml ...`."""
from __future__ import annotations

from ..cli_common import whole


def _common(p, battles_help="battles to simulate (default: the scenario's)"):
    p.add_argument("scenario", metavar="SCENARIO.toml")
    p.add_argument("--battles", type=whole, help=battles_help)
    p.add_argument("--seed", type=whole, help="seed (default: the scenario's)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                   help="override a scenario key, e.g. turn_limit=15 or attacker.army.knights=4")
    p.add_argument("--threads", type=whole, help="threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _run(args):
    from .battle import run

    return run(args.scenario, battles=args.battles, seed=args.seed, overrides=args.overrides,
               dice=args.dice, threads=args.threads)


def _sensitivity(args):
    from .battle import sensitivity

    return sensitivity(args.scenario, battles=args.battles, seed=args.seed,
                       overrides=args.overrides, threads=args.threads)


def _siege(args):
    from .siege import siege

    return siege(args.scenario, sieges=args.battles, seed=args.seed, overrides=args.overrides,
                 threads=args.threads)


def _dice(text):
    import argparse

    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of d6 rolls") from None


def register(games):
    game = games.add_parser("crusades", help="crusades tactical battle on a grid (scenario files)")
    cmds = game.add_subparsers(dest="command", required=True, parser_class=type(game))
    run = cmds.add_parser("run", help="simulate battles of a scenario")
    _common(run)
    run.add_argument("--dice", type=_dice, metavar="D,D,...",
                     help="play ONE battle with these morale dice (scripted mode)")
    run.set_defaults(run=_run)
    sens = cmds.add_parser("sensitivity", help="flip each rule setting: how P(attacker wins) moves")
    _common(sens, "battles per setting (default: the scenario's)")
    sens.set_defaults(run=_sensitivity)
    siege = cmds.add_parser("siege", help="strategic siege turns: wait, sortie, assault")
    _common(siege, "sieges to simulate (default: the scenario's battles)")
    siege.set_defaults(run=_siege)
