"""`odds warmup`: compile every Monte Carlo kernel once, so the first real answer is fast.

Each registered procedure with a kernel runs every example by Monte Carlo with a few trials
(the examples cover each kernel and compiled mode: a field battle with fixed dice uses the
shared core.pair_kernel, one with cards or a surprise its own), then the spec's `warm`, which
compiles the modes no example reaches (the crusades sieges and single battles); numba caches
the compiled kernels on disk (see core.kernel_cache), so later processes load them instead of
compiling. For users and CI images that want to pay the cost up front.
"""
from __future__ import annotations

import sys
import time

from ... import registry
from ...core.readings import alone
from ...i18n import _

WARM_TRIALS = 1_000


def warm(progress=None, modes=True) -> list:
    """Compile (or load) every kernel; returns (procedure, seconds) pairs. `progress`: a bar
    (None: when stderr is a terminal). `modes`: also the kernel modes no example reaches
    (`Spec.warm`; the web server, which runs no such mode, skips them)."""
    from tqdm import tqdm

    specs = [s for s in registry.specs().values() if s.kernels]
    done = []
    bar = tqdm(total=sum(len(s.examples) + bool(modes and s.warm) for s in specs), unit="example",
               disable=not (progress or progress is None and sys.stderr.isatty()), file=sys.stderr)
    for spec in specs:
        bar.set_description(f"compiling {spec.name}")
        start = time.perf_counter()
        for example in spec.examples:
            with alone():  # the example's kernel, not its readings' alternatives
                spec.call(**example.kwargs, method="mc", trials=WARM_TRIALS, seed=0, progress=False)
            bar.update()
        if modes and spec.warm:
            spec.warm()
            bar.update()
        done.append((spec.name, time.perf_counter() - start))
    bar.close()
    return done


def run(args) -> int:
    for name, seconds in warm():
        print(f"{name:<18} {seconds:6.1f} s")
    return 0


def register(games):
    p = games.add_parser(
        "warmup", help=_("compile every Monte Carlo kernel once (about 45 s on 2 cores on a fresh "
                       "install; later runs load them)"),
        description=_("Compile every Monte Carlo kernel once, with a progress bar (about 45 s on 2 "
                    "cores on a fresh install). Without it, each kernel compiles on its first use."))
    p.set_defaults(handler=run)
