"""`odds demo`: a worked analysis of every procedure, from the registry's demo examples.

On a fresh install the demo's time is the compiling of its Monte Carlo kernels, one process
can only compile one at a time, and the machine has more cores: the procedures with no exact
engine (their kernels take longest) run in a second process while this one works through the
others; their summaries are printed after, in the registry's order.
"""
from __future__ import annotations

import os
import subprocess
import sys

from ... import registry
from ...errors import OddsError
from ...i18n import _, language


def demo_specs(names=()) -> list:
    """The specs with demo examples, in registry order; `names` chooses some of them."""
    specs = [s for s in registry.specs().values() if any(e.demo for e in s.examples)]
    known = [s.name for s in specs]
    for name in names:
        if name not in known:
            raise OddsError(_("procedure: {name} has no demo (allowed: {allowed})").format(
                name=repr(name), allowed=", ".join(known)))
    return [s for s in specs if not names or s.name in names]


def examples(specs, say=None):
    """(title, Result) pairs: each spec's examples marked for the demo, in order; `say(text)`
    hears what is being computed (the first Monte Carlo run compiles a kernel)."""
    for spec in specs:
        for example in spec.examples:
            if example.demo:
                if say and (example.mc.get("method") == "mc" or not spec.exact):
                    say(_("{name}: Monte Carlo (compiles its kernel on the first run)").format(name=spec.name))
                yield _(example.title), spec.call(**example.kwargs, **example.mc)


def _second_process(specs):
    """`odds demo` of `specs` in a child process (its notes go straight to stderr), or None."""
    if not specs:
        return None
    return subprocess.Popen([sys.executable, "-m", "odds.frontends.cli.main", "demo", "--alone",
                             *(s.name for s in specs)], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "ODDS_LANG": language()})  # this one's language


def run(args) -> int:
    specs = demo_specs(args.procedures)
    later = [] if args.alone else [s for s in specs if not s.exact]
    if not args.alone:
        print(_("(a fresh install compiles each Monte Carlo kernel on its first use; `odds warmup` "
                "compiles them all up front)"), file=sys.stderr, flush=True)
    child = _second_process(later)
    try:
        say = lambda text: print(f"... {text}", file=sys.stderr, flush=True)  # noqa: E731
        for title, result in examples([s for s in specs if s not in later], say):
            print(f"== {title}")
            print(result.summary())
            print(flush=True)
            if result.partial:  # Ctrl-C inside its Monte Carlo run: the demo stops there
                print(_("odds: interrupted: partial result"), file=sys.stderr)
                return 130
        if not args.procedures and not args.alone:
            _sample_game()
        if child:
            print(child.communicate()[0], end="", flush=True)
            return child.returncode
        return 0
    finally:
        if child and child.poll() is None:
            child.kill()


def _sample_game():
    """The summary of the sample record (`odds luck` on odds/tools/luck/samples): rolls invented
    for illustration, and said to be."""
    from ...tools.luck.report import SAMPLE, luck
    from ...tools.luck.text import summary

    print("== " + _("How lucky was each side? `odds luck {name}` (the sample record shipped "
                     "with odds: rolls invented for illustration, not a real game's)").format(name=SAMPLE.name))
    print(summary(luck(SAMPLE), rolls=False))
    print(flush=True)


def register(games):
    demo = games.add_parser(
        "demo", help=_("a real analysis of each procedure on built-in examples"),
        description=_("A worked analysis of each procedure (or of the PROCEDUREs named) on built-in "
                      "examples. A fresh install compiles the Monte Carlo kernels on the first run; "
                      "`odds warmup` does it up front."))
    demo.add_argument("procedures", nargs="*", metavar="PROCEDURE",
                      help=_("only these procedures (e.g. his.field oath.campaign)"))
    demo.add_argument("--alone", action="store_true",
                      help=_("one process only (the demo otherwise runs the procedures with no "
                             "exact engine in a second process, to compile two kernels at once)"))
    demo.set_defaults(handler=run)
