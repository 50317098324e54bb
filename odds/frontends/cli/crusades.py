"""`odds crusades run|sensitivity|siege|trace|settings|balance|position|autobattle ...`.

Each command prints its Result (``--json``: one JSON object; ``--brief``: the answer in a few
lines), warns on standard error when the scenario is degenerate (see battle.degenerate), and
exits 130 with the partial result when interrupted.
"""
from __future__ import annotations

import sys

from .common import emit, number, whole
from ...config import MAX_TRIALS
from ...errors import check_int
from .questions import need_flags
from ...i18n import N_, _, integer
from ...texts import printable


def _common(p, battles_help=N_("battles to simulate (default: the scenario's)")):
    p.add_argument("scenario", metavar="SCENARIO.toml")
    p.add_argument("--battles", type=whole, help=_(battles_help))
    p.add_argument("--seed", type=whole, help=_("seed (default: the scenario's)"))
    _set(p)
    p.add_argument("--threads", type=whole, help=_("threads (default: all cores)"))
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help=_("print one JSON object"))
    out.add_argument("--brief", action="store_true", help=_("print only the answer, in a few lines"))


def _set(p):
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                   help=_("override a rule setting (see `odds crusades settings`) or a scenario "
                        "key, e.g. turn_limit=15 or attacker.army.knights=4"))


def _show(result, args) -> int:
    """Print the result and its warnings; 130 if it was interrupted, else 0."""
    from ...crusades.battles.battle import brief
    from ...crusades.battles.results import degenerate

    if args.brief:
        print(brief(result))
    else:
        emit(result, args.json)
    for warning in degenerate(result):
        print(_("odds: warning: {warning}").format(warning=printable(warning)), file=sys.stderr)
    if result.partial:
        print(_("odds: interrupted: partial result"), file=sys.stderr)
        import gc

        gc.freeze()  # exiting: skip collecting numba's object graph (seconds on a busy machine)
        return 130
    return 0


def _run(args):
    from ...crusades.battles.battle import run

    if args.need is not None or args.vary is not None or args.event is not None:
        return _need(args)
    if args.stop_at_turn is not None or args.save is not None:
        return _save(args)
    return _show(run(args.scenario, battles=args.battles, seed=args.seed,
                     overrides=args.overrides, dice=args.dice, threads=args.threads), args)


def _need(args) -> int:
    """`--need P --vary KEY=LOW..HIGH`: the value of a rule setting, unit statistic
    (units.knights.attack) or army count (attacker.army.knights) at which P(event) reaches P."""
    from ...errors import OddsError, check_chance
    from .questions import FLAGS
    from ...tools.questions.need import need

    if args.need is None:
        raise OddsError(_("{flag}: only with --need").format(
            flag="--vary" if args.vary is not None else "--event"))
    if args.vary is None:
        raise OddsError(_("--need: give --vary KEY=LOW..HIGH (a rule setting, a unit statistic "
                          "such as units.knights.attack, or an army count such as "
                          "attacker.army.knights)"))
    if args.dice is not None:
        raise OddsError(_("--need: not with --dice (a need search runs many battles per value)"))
    answer = need("crusades.battle", {"scenario": args.scenario, "overrides": args.overrides},
                  vary=args.vary, target=check_chance("--need", args.need), event=args.event,
                  names=FLAGS, trials=args.battles, seed=args.seed, threads=args.threads)
    if args.json:
        import json

        print(json.dumps(answer.to_json()))
    else:
        print(answer.summary())
    if answer.partial:
        print(_("odds: interrupted: partial result"), file=sys.stderr)
        return 130
    return 0


def _save(args) -> int:
    """`run --stop-at-turn N --save FILE`: one seeded battle's position after round N."""
    from ...crusades.positions.saved import stopped
    from ...errors import OddsError
    from ...files import check_output, replaced

    if args.stop_at_turn is None or args.save is None:
        raise OddsError(_("--stop-at-turn and --save: give both (the round to stop after, and "
                          "the position file to write)"))
    if args.dice is not None:
        raise OddsError(_("--stop-at-turn: not with --dice (the position carries the seed's stream)"))
    check_output(args.save, "--save", (".toml",))
    seed = 0 if args.seed is None else args.seed
    text = stopped(args.scenario, turn=args.stop_at_turn, seed=seed, index=args.battle,
                   overrides=args.overrides)
    with replaced(args.save, "--save") as temporary:
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{text.splitlines()[0].lstrip('# ')} -> {args.save}", file=sys.stderr)
    return 0


def _position(args) -> int:
    """`position FILE`: the odds from a battle in play and the moderator's three options."""
    from ...crusades.battles.battle import brief
    from ...crusades.positions.from_here import answer_json, options_text, position_odds
    from ...crusades.positions.position import load_position

    pos = load_position(args.position)
    res = position_odds(pos, battles=args.battles, seed=args.seed, threads=args.threads)
    if args.json:
        import json

        print(json.dumps(answer_json(pos, res)))
    else:
        print(brief(res) if args.brief else res.summary())
        print(options_text(pos, res))
    if res.partial:
        print(_("odds: interrupted: partial result"), file=sys.stderr)
        return 130
    return 0


def _autobattle(args) -> int:
    """`autobattle FILE --draw TEXT`: one fair battle played on from the position."""
    from ...crusades.positions.autobattle import autobattle

    out = autobattle(args.position, draw=args.draw, battles=args.battles)
    if args.json:
        import json

        print(json.dumps(out.to_json()))
    else:
        print(out.text())
    return 0


def _register_positions(cmds):
    p = cmds.add_parser("position", help=_("a battle in play: the odds from here and the "
                                         "moderator's options (award, auto-battle, separate)"))
    p.add_argument("position", metavar="POSITION.toml")
    p.add_argument("--battles", type=whole, help=_("battles to play on (default: the position's)"))
    p.add_argument("--seed", type=whole, help=_("seed (default: the position's)"))
    p.add_argument("--threads", type=whole, help=_("threads (default: all cores)"))
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help=_("print one JSON object"))
    out.add_argument("--brief", action="store_true", help=_("print only the answer, in a few lines"))
    p.set_defaults(handler=_position)
    a = cmds.add_parser("autobattle", help=_("one fair battle from a position, drawn with a public "
                                           "string: anyone re-running it gets the same battle"))
    a.add_argument("position", metavar="POSITION.toml")
    a.add_argument("--draw", required=True, metavar="TEXT",
                   help=_("the public draw string announced before the draw (a forum post's number, a date)"))
    a.add_argument("--battles", type=whole,
                   help=_("battles of the odds the draw is placed in (default: the position's)"))
    a.add_argument("--json", action="store_true", help=_("print one JSON object"))
    a.set_defaults(handler=_autobattle)


def _sensitivity(args):
    from ...crusades.battles.battle import sensitivity

    alternatives = {" ".join(words): list(words) for words in args.alternative}
    return _show(sensitivity(args.scenario, battles=args.battles, seed=args.seed,
                             overrides=args.overrides, threads=args.threads,
                             alternatives=alternatives), args)


def _siege(args):
    from ...crusades.battles.siege_turns import siege

    return _show(siege(args.scenario, sieges=args.battles, seed=args.seed,
                       overrides=args.overrides, threads=args.threads), args)


def _trace(args):
    from ...crusades.battles.narration import trace

    check_int("--battle", args.battle, 0, MAX_TRIALS - 1)
    print(trace(args.scenario, seed=args.seed, index=args.battle, overrides=args.overrides,
                dice=args.dice))
    return 0


def _settings(args):
    from ...crusades.scenario import settings_text

    print(settings_text())
    return 0


def _dice(text):
    import argparse

    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a comma-separated list of d6 rolls").format(
            text=repr(text))) from None


def _army(text):
    """--army NAME=TYPE:N,TYPE:N or attacker / defender (the scenario's) -> (name, army)."""
    import argparse

    if text in ("attacker", "defender"):
        return text, text
    name, _eq, spec = text.partition("=")
    try:
        army = {t.strip(): int(n) for t, n in (item.split(":") for item in spec.split(","))}
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not NAME=TYPE:N,TYPE:N,... (or attacker, "
                                           "defender: the scenario's)").format(text=repr(text))) from None
    if not name.strip():
        raise argparse.ArgumentTypeError(_("{text} has no NAME before '='").format(text=repr(text)))
    return name.strip(), army


def _balance(args):
    from ...crusades.upkeep.table import balance
    from ...crusades.upkeep.report import plot, summary, to_json

    if args.plot:
        from ...files import check_output

        check_output(args.plot, "--plot", (".png",))
    armies = dict(args.army) if args.army else None
    if args.army and len(armies) < len(args.army):
        from ...errors import OddsError

        raise OddsError(_("--army: a name is given twice (each army once)"))
    frame = balance(args.scenario, types=args.types, armies=armies, budgets=args.budget,
                    battles=args.battles, seed=args.seed, max_ratio=args.max_ratio,
                    overrides=args.overrides, threads=args.threads)
    if args.json:
        import json

        print(json.dumps(to_json(frame)))
    else:
        print(summary(frame))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        from ...files import replaced

        from ...texts import as_typed

        with replaced(args.plot, "--plot") as temporary, as_typed(plot(frame)) as fig:
            fig.savefig(temporary, dpi=120, bbox_inches="tight")
        print(_("plot -> {file}").format(file=args.plot), file=sys.stderr)
    if frame.attrs["partial"]:
        print(_("odds: interrupted: partial table"), file=sys.stderr)
        return 130
    return 0


def _register_balance(cmds):
    from ...crusades.upkeep.table import BALANCE_MAX_RATIO, BALANCE_RATIO

    p = cmds.add_parser("balance", help=_("unit types and armies against each other at equal upkeep: "
                                        "win rates and the upkeep at which each matchup is 50/50"))
    p.add_argument("scenario", metavar="SCENARIO.toml")
    p.add_argument("--types", nargs="+", metavar="TYPE",
                   help=_("unit types that enter (default: every type with an upkeep, unless --army)"))
    p.add_argument("--army", action="append", type=_army, metavar="NAME=TYPE:N,...",
                   help=_("an army that enters, scaled to each budget; 'attacker' or 'defender': "
                        "the scenario's (repeatable)"))
    p.add_argument("--budget", nargs="+", type=whole, metavar="N",
                   help=_("upkeep each side spends (default: the largest at which every matchup "
                        "fits one battle with the second side at twice it)"))
    p.add_argument("--battles", type=whole,
                   help=_("battles per point, half each way round (default: the scenario's)"))
    p.add_argument("--seed", type=whole, help=_("seed (default: the scenario's)"))
    p.add_argument("--max-ratio", type=number, default=BALANCE_RATIO,
                   help=_("the 50/50 search spans the second side's budget / R to budget x R "
                          "(default {ratio}, at most {most})").format(ratio=f"{BALANCE_RATIO:g}",
                                                                      most=f"{BALANCE_MAX_RATIO:g}"))
    _set(p)
    p.add_argument("--threads", type=whole, help=_("threads (default: all cores)"))
    p.add_argument("--plot", metavar="OUT.png", help=_("save the win rate against budget ratio"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(handler=_balance)


def register(games):
    game = games.add_parser("crusades", help=_("crusades tactical battle on a grid (scenario files)"))
    cmds = game.add_subparsers(dest="command", required=True, parser_class=type(game))
    run = cmds.add_parser("run", help=_("simulate battles of a scenario"))
    _common(run)
    run.add_argument("--dice", type=_dice, metavar="D,D,...",
                     help=_("play ONE battle with these morale dice (scripted mode)"))
    run.add_argument("--stop-at-turn", type=whole, metavar="N",
                     help=_("stop ONE battle (--seed, --battle) after round N and --save its position"))
    run.add_argument("--save", metavar="POSITION.toml", help=_("the position file --stop-at-turn writes"))
    run.add_argument("--battle", type=whole, default=0,
                     help=_("with --stop-at-turn: which battle of the seed's run (default 0)"))
    need_flags(run, "KEY=LOW..HIGH", _("a rule setting (turn_limit), a unit statistic "
                                       "(units.knights.attack=1..8) or an army count "
                                       "(attacker.army.knights=0..10)"),
               "attacker_win")
    run.set_defaults(handler=_run)
    sens = cmds.add_parser("sensitivity", help=_("flip each rule setting: how P(attacker wins) and "
                                               "the units lost move, the biggest change first"))
    _common(sens, N_("battles per setting (default: the scenario's)"))
    sens.add_argument("--alternative", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                      help=_("a designer's variant as one more row, repeatable: settings or "
                           "scenario keys as --set takes them (e.g. turn_limit=12)"))
    sens.set_defaults(handler=_sensitivity)
    siege = cmds.add_parser("siege", help=_("strategic siege turns: wait, sortie, assault"))
    _common(siege, N_("sieges to simulate (default: the scenario's battles)"))
    siege.set_defaults(handler=_siege)
    trace = cmds.add_parser("trace", help=_("one battle told round by round: moves, shots, "
                                          "damage, morale tests"))
    trace.add_argument("scenario", metavar="SCENARIO.toml")
    trace.add_argument("--seed", type=whole, default=0, help=_("seed (default 0)"))
    trace.add_argument("--battle", type=whole, default=0,
                       help=_("which battle of the seed's run (0 to {last}; default 0, the first)").format(
                           last=integer(MAX_TRIALS - 1)))
    trace.add_argument("--dice", type=_dice, metavar="D,D,...",
                       help=_("scripted morale dice instead of the seed's"))
    _set(trace)
    trace.set_defaults(handler=_trace)
    settings = cmds.add_parser("settings", help=_("every rule setting: default, values, meaning"))
    settings.set_defaults(handler=_settings)
    _register_balance(cmds)
    _register_positions(cmds)
