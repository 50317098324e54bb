"""`odds warmup`: compile every Monte Carlo kernel once, so the first real answer is fast.

Each registered procedure with a kernel runs its first example by Monte Carlo with a few
trials; numba caches the compiled kernels on disk (see core.kernel_cache), so later processes
load them instead of compiling. For users and CI images that want to pay the cost up front.
"""
from __future__ import annotations

import sys
import time

from . import registry

WARM_TRIALS = 1_000


def warm(progress=True) -> list:
    """Compile (or load) every kernel; returns (procedure, seconds) pairs."""
    from tqdm import tqdm

    specs = [s for s in registry.specs().values() if s.kernels]
    done = []
    bar = tqdm(specs, unit="kernel", disable=not progress, file=sys.stderr)
    for spec in bar:
        bar.set_description(f"compiling {spec.name}")
        start = time.perf_counter()
        spec.call(**spec.examples[0].kwargs, method="mc", trials=WARM_TRIALS, seed=0,
                  progress=False)
        done.append((spec.name, time.perf_counter() - start))
    return done


def run(args) -> int:
    for name, seconds in warm():
        print(f"{name:<18} {seconds:6.1f} s")
    return 0


def register(games):
    p = games.add_parser("warmup", help="compile every Monte Carlo kernel once (about a minute "
                                        "on a fresh install; later runs load them)")
    p.set_defaults(handler=run)
