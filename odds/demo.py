"""`odds demo`: a worked analysis of every procedure, from the registry's demo examples."""
from __future__ import annotations

import sys

from . import registry


def examples(say=None):
    """(title, Result) pairs: each procedure's examples marked for the demo, in order;
    `say(text)` hears what is being computed (the first Monte Carlo run compiles a kernel)."""
    for spec in registry.specs().values():
        for example in spec.examples:
            if example.demo:
                if say and (example.mc.get("method") == "mc" or not spec.exact):
                    say(f"{spec.name}: Monte Carlo (compiles its kernel on the first run)")
                yield example.title, spec.call(**example.kwargs, **example.mc)


def run(args) -> int:
    print("(a fresh install compiles each Monte Carlo kernel on its first use; `odds warmup` "
          "compiles them all up front)", file=sys.stderr, flush=True)
    say = lambda text: print(f"... {text}", file=sys.stderr, flush=True)  # noqa: E731
    for title, result in examples(say):
        print(f"== {title}")
        print(result.summary())
        print(flush=True)
    return 0


def register(games):
    demo = games.add_parser("demo", help="a real analysis of each procedure on built-in examples")
    demo.set_defaults(handler=run)
