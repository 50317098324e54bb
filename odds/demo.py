"""`odds demo`: a worked analysis of every procedure, from the registry's demo examples."""
from __future__ import annotations

import sys

from . import registry


def examples():
    """(title, Result) pairs: each procedure's examples marked for the demo, in order."""
    for spec in registry.specs().values():
        for example in spec.examples:
            if example.demo:
                yield example.title, spec.call(**example.kwargs, **example.mc)


def run(args) -> int:
    print("(the first run compiles the Monte Carlo kernels, about a minute; later runs take "
          "seconds)", file=sys.stderr, flush=True)
    for title, result in examples():
        print(f"== {title}")
        print(result.summary())
        print(flush=True)
    return 0


def register(games):
    demo = games.add_parser("demo", help="a real analysis of each procedure on built-in examples")
    demo.set_defaults(handler=run)
