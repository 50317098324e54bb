"""One call, two engines: pick exact or Monte Carlo and wrap the answer in a Result.

A procedure describes its outcome as a joint histogram of fixed shape. The exact engine
returns it as probabilities, the Monte Carlo kernel fills it with counts, and one
`summarise(joint) -> (probabilities, pmfs)` (linear in the joint) turns either into the
numbers users read, so the two engines can only differ in how they fill the joint.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Callable

import numpy as np

from ..errors import OddsError, check_choice
from ..config import MEMORY_BUDGET_FRACTION
from ..registry import METHODS
from . import montecarlo
from .result import Result



@dataclass(slots=True)
class McOptions:
    """The user's Monte Carlo options, validated."""

    trials: int
    seed: int
    precision: float | None
    max_trials: int
    threads: int | None
    progress: bool | None

    @classmethod
    def make(cls, trials=None, seed=None, precision=None, max_trials=10**9, threads=None,
             progress=None):
        trials, seed, precision, max_trials = montecarlo.check_run_options(
            trials, seed, precision, max_trials)
        if threads is not None:
            threads = _check_threads(threads, cores())
        return cls(trials, seed, precision, max_trials, threads, progress)


@cache
def cores() -> int:
    """The machine's cores (os.cpu_count reads /sys each call: tens of microseconds here)."""
    import os

    return os.cpu_count() or 1


@cache
def _memory_bytes() -> int:
    import os

    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _check_threads(threads, cores):
    from ..errors import check_int

    return check_int("threads", threads, 1, cores)


def pick_method(method: str, has_exact: bool) -> str:
    """'auto' means exact when the procedure has it."""
    method = check_choice("method", method, METHODS)
    if method == "exact" and not has_exact:
        raise OddsError("method: 'exact' is not available for this procedure (allowed: auto, mc)")
    if method == "auto":
        return "exact" if has_exact else "mc"
    return method


@dataclass(slots=True)
class Procedure:
    """What a procedure hands the engines: the joint's shape, both fillers, the summary."""

    name: str
    shape: tuple
    summarise: Callable
    main: str
    exact: Callable | None  # () -> joint probabilities
    kernel: tuple  # (module, function name)
    kernel_args: Callable  # () -> tuple of arrays and scalars
    settings: dict
    result_type: type = Result  # a Result subclass that adds JSON keys, if the procedure has one
    assumptions: tuple = ()  # readings the answer rests on (Result.assumptions)
    notes: tuple = ()  # what the user should know about this answer (Result.notes)
    explain: tuple = ()  # the dice each side rolls and why, in words (Result.explain)
    sample: Callable | None = None  # (McOptions) -> montecarlo.Run: composes other kernels


def memory_budget() -> int:
    """Bytes a run may use for its outcome histograms: ODDS_MEMORY_BUDGET, else a fraction
    of the machine's memory."""
    import os

    text = os.environ.get("ODDS_MEMORY_BUDGET")
    if text:
        try:
            return int(float(text))
        except ValueError:
            raise OddsError(f"ODDS_MEMORY_BUDGET: {text!r} is not a number of bytes") from None
    return int(_memory_bytes() * MEMORY_BUDGET_FRACTION)


def check_memory(shape, method: str, threads: int | None):
    """Refuse a run whose histograms would not fit the budget: the exact engine holds a few
    copies of the joint, Monte Carlo one per lane plus the sum (8 bytes a cell)."""
    copies = 4 if method == "exact" else (threads or cores()) + 2
    need = math.prod(map(int, shape)) * 8 * copies  # Python ints: no overflow
    budget = memory_budget()
    if need > budget:
        raise OddsError(f"memory: this run needs about {need / 1e9:.1f} GB for its outcome table "
                        f"of {'x'.join(map(str, shape))} cells (allowed: at most "
                        f"{budget / 1e9:.1f} GB; fewer units or ships, or set ODDS_MEMORY_BUDGET)")


def solve(proc: Procedure, method: str, mc: McOptions) -> Result:
    """Answer `proc` with the chosen engine."""
    method = pick_method(method, proc.exact is not None)
    check_memory(proc.shape, method, mc.threads)
    if method == "exact":
        probabilities, pmfs = proc.summarise(proc.exact())
        return proc.result_type(proc.name, "exact", probabilities, pmfs, proc.main,
                                settings=proc.settings, assumptions=proc.assumptions,
                                notes=proc.notes, explain=proc.explain)
    if proc.sample is not None:
        run = proc.sample(mc)
    else:
        from .kernel_cache import load

        run = montecarlo.run(load(*proc.kernel), proc.kernel_args(), proc.shape, mc.trials,
                             mc.seed, main=lambda h: proc.summarise(h)[0][proc.main],
                             precision=mc.precision, threads=mc.threads, progress=mc.progress)
    counts, pmf_counts = proc.summarise(run.hist)
    n = run.trials
    notes = ()
    if run.met_precision is False:
        notes = (f"precision {mc.precision} not reached within {n:,} trials",)
    return proc.result_type(proc.name, "mc", {k: v / n for k, v in counts.items()},
                  {k: np.asarray(v) / n for k, v in pmf_counts.items()}, proc.main,
                  trials=n, seed=mc.seed, partial=run.partial,
                  settings=proc.settings, notes=proc.notes + notes, assumptions=proc.assumptions,
                  explain=proc.explain)
