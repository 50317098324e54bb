"""`--compare`, `--need`, `--vary`, `--event` on every procedure command.

`--compare KEY=VALUE ...` (repeated: one plan each) prints the compare table; `--need P
--vary NAME[=LOW..HIGH] [--event NAME]` prints the value that reaches P. A keyword `--vary`
names need not be given as a flag, so the command's required flags are checked here.
"""
from __future__ import annotations

import argparse

from .common import engine_kwargs, given, in_flags
from ...errors import OddsError, check_chance
from ...i18n import _
from ...registry import Spec
from ...tools.questions.plans import Vary, plan, vary

FLAGS = {"target": "--need", "vary": "--vary", "event": "--event"}


def need_flags(group, vary_metavar: str, vary_help: str, event_default: str):
    """--need P, --vary and --event on `group`: "what do I need?" on the command line (a
    procedure's, and the crusades run's)."""
    group.add_argument("--need", metavar="P",
                       help=_("the target probability, a fraction (0.8) or a percent (80, 80%%): "
                              "prints the value of --vary that reaches it"))
    group.add_argument("--vary", metavar=vary_metavar, help=_("with --need: ") + vary_help)
    group.add_argument("--event", help=_("with --need: the event (default: {event})").format(
        event=event_default))


def example_plan(spec: Spec) -> str:
    """A plan of this procedure for its --help: its first count two above its first example's
    value (its default else), within its range."""
    p = next((p for p in spec.params if p.kind == "int"), None)
    if p is None:
        return "KEY=VALUE"
    now = {**spec.start, **(spec.examples[0].kwargs if spec.examples else {})}.get(p.name)
    now = now if isinstance(now, int) else spec.defaults()[p.name]
    now = now if isinstance(now, int) else int(p.low or 0)
    return f"{p.name}={int(min(now + 2, p.high if p.high is not None else now + 2))}"


def add_flags(p: argparse.ArgumentParser, spec: Spec, flags: dict):
    """Add the question flags to a procedure's parser `p` and wrap its `run`; `flags` are the
    Actions of its parameters (the required ones are checked by `run` instead)."""
    q = p.add_argument_group(_("questions"))
    q.add_argument("--compare", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                   help=_("a plan: keywords replacing the ones above (e.g. {plan}; a list "
                          "comma-separated); repeat for more plans: prints one table against the "
                          "base, the same seed for all").format(plan=example_plan(spec)))
    need_flags(q, "NAME[=LOW..HIGH]", _("the integer keyword to vary (attacker, attacker_leader, "
                                        "assaults, dice_per.galley=0..6, ...), within its range or LOW..HIGH"),
               _("the main probability"))
    required = [name for name, action in flags.items() if action.required]
    for name in required:
        flags[name].required = False
        flags[name].help += _(" (required, unless --vary names it)")
    run = p.get_default("run")
    p.set_defaults(run=lambda args: ask(spec, args, run, {n: flags[n] for n in required}, p.prog))


def ask(spec: Spec, args, run, required: dict, prog: str):
    """The answer the flags ask for: a compare table, a need answer, or the procedure's Result.
    The questions' own words are checked first, then the required flags; the procedure's
    errors name the flags."""

    asked = "compare" if args.compare else "need" if args.need is not None else None
    if asked == "compare" and args.need is not None:
        raise OddsError("--need: not with --compare (ask one question at a time)")
    if asked != "need":
        for flag in ("vary", "event"):
            if getattr(args, flag) is not None:
                raise OddsError(f"--{flag}: only with --need")
    plans = _plans(spec, args.compare)
    varied = _varied(spec, args.vary) if asked == "need" else None
    missing = [a.option_strings[0] for name, a in required.items()
               if getattr(args, name) is None and (varied is None or name != varied.name)]
    if missing:
        raise OddsError(f"{prog}: " + _("the following arguments are required: %s") % ", ".join(missing))
    if asked is None:
        return run(args)
    base, engine = given(spec, args), engine_kwargs(args)
    try:
        if asked == "compare":
            from ...tools.questions.compare import compare

            return compare(spec.name, base, plans, where="--compare", **engine)
        from ...tools.questions.need import need

        return need(spec.name, base, vary=varied, target=check_chance("--need", args.need),
                    event=args.event, names=FLAGS, **engine)
    except OddsError as e:  # the procedure's keywords as flags; a plan's stay as typed
        message = str(e)
        raise OddsError(message if message.startswith("--compare") else
                        in_flags(message, spec.params)) from None


def _plans(spec: Spec, given: list) -> dict:
    """Each --compare's words -> its keywords, named by the words."""
    out = {}
    for words in given:
        name = " ".join(words)
        try:
            out[name] = plan(spec, words)
        except OddsError as e:
            raise OddsError(f"--compare {name}: {e}") from None
    return out


def _varied(spec: Spec, text: str | None) -> Vary:
    if text is None:
        raise OddsError("--need: give --vary NAME (the integer keyword to vary)")
    return vary(spec, text, "--vary")
