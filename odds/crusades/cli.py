"""`odds crusades run|sensitivity|siege|trace|settings ...`.

Each command prints its Result (``--json``: one JSON object; ``--brief``: the answer in a few
lines), warns on standard error when the scenario is degenerate (see battle.degenerate), and
exits 130 with the partial result when interrupted.
"""
from __future__ import annotations

import sys

from ..cli_common import emit, whole


def _common(p, battles_help="battles to simulate (default: the scenario's)"):
    p.add_argument("scenario", metavar="SCENARIO.toml")
    p.add_argument("--battles", type=whole, help=battles_help)
    p.add_argument("--seed", type=whole, help="seed (default: the scenario's)")
    _set(p)
    p.add_argument("--threads", type=whole, help="threads (default: all cores)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--brief", action="store_true", help="print only the answer, in a few lines")


def _set(p):
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                   help="override a rule setting (see `odds crusades settings`) or a scenario "
                        "key, e.g. turn_limit=15 or attacker.army.knights=4")


def _show(result, args) -> int:
    """Print the result and its warnings; 130 if it was interrupted, else 0."""
    from .battle import brief
    from .results import degenerate

    if args.brief:
        print(brief(result))
    else:
        emit(result, args.json)
    for warning in degenerate(result):
        print(f"odds: warning: {warning}", file=sys.stderr)
    if result.partial:
        print("odds: interrupted: partial result", file=sys.stderr)
        import gc

        gc.freeze()  # exiting: skip collecting numba's object graph (seconds on a busy machine)
        return 130
    return 0


def _run(args):
    from .battle import run

    return _show(run(args.scenario, battles=args.battles, seed=args.seed,
                     overrides=args.overrides, dice=args.dice, threads=args.threads), args)


def _sensitivity(args):
    from .battle import sensitivity

    return _show(sensitivity(args.scenario, battles=args.battles, seed=args.seed,
                             overrides=args.overrides, threads=args.threads), args)


def _siege(args):
    from .siege import siege

    return _show(siege(args.scenario, sieges=args.battles, seed=args.seed,
                       overrides=args.overrides, threads=args.threads), args)


def _trace(args):
    from .trace import trace

    print(trace(args.scenario, seed=args.seed, index=args.battle, overrides=args.overrides,
                dice=args.dice))
    return 0


def _settings(args):
    from .scenario import settings_text

    print(settings_text())
    return 0


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
    run.set_defaults(handler=_run)
    sens = cmds.add_parser("sensitivity", help="flip each rule setting: how P(attacker wins) moves")
    _common(sens, "battles per setting (default: the scenario's)")
    sens.set_defaults(handler=_sensitivity)
    siege = cmds.add_parser("siege", help="strategic siege turns: wait, sortie, assault")
    _common(siege, "sieges to simulate (default: the scenario's battles)")
    siege.set_defaults(handler=_siege)
    trace = cmds.add_parser("trace", help="one battle told round by round: moves, shots, "
                                          "damage, morale tests")
    trace.add_argument("scenario", metavar="SCENARIO.toml")
    trace.add_argument("--seed", type=whole, default=0, help="seed (default 0)")
    trace.add_argument("--battle", type=whole, default=0,
                       help="which battle of the seed's run (default 0, the first)")
    trace.add_argument("--dice", type=_dice, metavar="D,D,...",
                       help="scripted morale dice instead of the seed's")
    _set(trace)
    trace.set_defaults(handler=_trace)
    settings = cmds.add_parser("settings", help="every rule setting: default, values, meaning")
    settings.set_defaults(handler=_settings)
