"""One call, two engines: pick exact or Monte Carlo and wrap the answer in a Result.

A procedure describes its outcome as a joint histogram of fixed shape. The exact engine
returns it as probabilities, the Monte Carlo kernel fills it with counts, and one
`summarise(joint) -> (probabilities, pmfs)` (linear in the joint) turns either into the
numbers users read, so the two engines can only differ in how they fill the joint.
"""
from __future__ import annotations

import math
import sys
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Callable

import numpy as np

from ..errors import Interrupted, OddsError, check_choice
from ..i18n import _
from ..config import MAX_EXACT_WORK, METHODS, PROGRESS_AFTER_SECONDS
from . import montecarlo
from .outcomes import PLAIN, Words
from .result import Result

# memory: a run whose outcome histograms would need more than this is refused before it starts
MEMORY_BUDGET_FRACTION = 0.25  # of the machine's memory; ODDS_MEMORY_BUDGET (bytes) overrides


@dataclass(slots=True)
class McOptions:
    """The user's Monte Carlo options, validated."""

    trials: int
    seed: int
    precision: float | None
    max_trials: int
    threads: int | None
    progress: bool | None
    given: tuple = ()  # the options the caller gave (an exact answer says it did not use them)

    @classmethod
    def make(cls, trials=None, seed=None, precision=None, max_trials=10**9, threads=None,
             progress=None):
        given = tuple(name for name, value, default in (
            ("trials", trials, None), ("seed", seed, None), ("precision", precision, None),
            ("max_trials", max_trials, 10**9)) if value != default)
        trials, seed, precision, max_trials = montecarlo.check_run_options(
            trials, seed, precision, max_trials)
        if threads is not None:
            threads = _check_threads(threads, cores())
        return cls(trials, seed, precision, max_trials, threads, progress, given)


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


@dataclass(frozen=True)
class Cost:
    """What an exact answer would cost, estimated before it starts (an upper bound on its
    sizes): `work` in work units (about a microsecond each on the development machine;
    MAX_EXACT_WORK bounds it), `bytes` at its peak beside the outcome table (the memory
    budget bounds it), `what` its sizes in words ("about 3,826 states of 754 dice outcomes
    each"), `smaller` what the user can make smaller."""

    work: float
    bytes: float
    what: str
    smaller: str = "fewer units"

    def refusal(self, budget: int) -> str | None:
        """Why the exact engine should not start (the bound it passes), or None."""
        if self.work > MAX_EXACT_WORK:
            return _("the exact answer would need about {work:,.0f} work units ({what}; allowed: at "
                     "most {most:,}, a few seconds)").format(work=self.work, what=self.what,
                                                             most=MAX_EXACT_WORK)
        if self.bytes > budget:
            return _("the exact answer would need about {size} of memory ({what}; allowed: at most "
                     "{most}, ODDS_MEMORY_BUDGET)").format(size=size_text(self.bytes), what=self.what,
                                                            most=size_text(budget))
        return None


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
    sample: Callable | None = None  # (McOptions) -> montecarlo.Run: composes kernels, or slices one
    cost: Callable | None = None  # () -> Cost of the exact engine (None: it is negligible
    # beside its outcome table, so the table's cells are its cost: `table_cost`)
    words: Words = PLAIN  # what its events mean (Result.words)


def exact_cost(proc: Procedure) -> Cost:
    """The exact engine's Cost: its own estimate, else its outcome table's (a work unit and
    8 bytes a cell), for an engine whose work is negligible beside the table it fills."""
    if proc.cost is not None:
        return proc.cost()
    cells = math.prod(map(int, proc.shape))
    return Cost(cells, 8 * cells, _("an outcome table of {cells:,} cells").format(cells=cells))


class OverBudget(OddsError):
    """A run whose outcome tables would not fit the memory budget (check_memory)."""


_MEMORY_CAP: ContextVar = ContextVar("odds_memory_cap", default=None)


@contextmanager
def memory_cap(limit: int):
    """Within the block, runs get at most `limit` bytes (a server's cap on one answer)."""
    token = _MEMORY_CAP.set(limit)
    try:
        yield
    finally:
        _MEMORY_CAP.reset(token)


def memory_budget() -> int:
    """Bytes a run may use (its outcome histograms; an exact engine's working arrays):
    ODDS_MEMORY_BUDGET (a positive number of bytes, e.g. 2e9), else a fraction of the
    machine's memory; at most the cap of an enclosing `memory_cap`."""
    cap = _MEMORY_CAP.get()
    own = _own_budget()
    return own if cap is None else min(own, cap)


def _own_budget() -> int:
    import os

    return _budget_of(os.environ.get("ODDS_MEMORY_BUDGET"))


@cache
def _budget_of(text: str | None) -> int:
    """The budget ODDS_MEMORY_BUDGET's `text` sets (read once per text: every call asks)."""
    if text is None or not text.strip():
        return int(_memory_bytes() * MEMORY_BUDGET_FRACTION)
    try:
        budget = float(text)
    except ValueError:
        budget = math.nan
    if not (math.isfinite(budget) and budget >= 1):
        raise OddsError(f"ODDS_MEMORY_BUDGET: {text[:40]!r} is not allowed (allowed: a positive "
                        "number of bytes, e.g. 2e9)")
    return int(budget)


def size_text(n: float) -> str:
    """Bytes in words with three significant digits: '512 KB', '43.2 MB', '2.15 GB'."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}" if n / scale < 1000 else f"{n / scale:,.0f} {unit}"
    return f"{n:.0f} bytes"


def check_memory(shape, method: str, threads: int | None):
    """Refuse a run whose histograms would not fit the budget: the exact engine holds a few
    copies of the joint, Monte Carlo one per lane plus the sum (8 bytes a cell)."""
    copies = 4 if method == "exact" else (threads or cores()) + 2
    need = math.prod(map(int, shape)) * 8 * copies  # Python ints: no overflow
    budget = memory_budget()
    if need > budget:
        raise OverBudget(f"memory: this run needs about {size_text(need)} for its outcome table "
                        f"of {'x'.join(map(str, shape))} cells (allowed: at most "
                        f"{size_text(budget)}; fewer units or ships, or set ODDS_MEMORY_BUDGET)")


class BeyondExact(OddsError):
    """method='exact' refused: the answer's exact work or memory is beyond the bounds. `why`
    says by how much, `smaller` what would fit (a tool with no Monte Carlo says only that)."""

    def __init__(self, why: str, smaller: str):
        super().__init__(f"method: 'exact': {why}; use method='mc' or {smaller}")
        self.why, self.smaller = why, smaller


def exact_or_mc(method: str, cost: Cost) -> tuple:
    """(method, notes): 'exact' and 'auto' within the bounds run exact; beyond them (work
    or memory, `Cost.refusal`) 'auto' runs Monte Carlo with a note saying why and 'exact' is
    refused in one line."""
    method = check_choice("method", method, METHODS)
    if method == "mc":
        return method, ()
    why = cost.refusal(memory_budget())
    if why is None:
        return "exact", ()
    if method == "exact":
        raise BeyondExact(why, cost.smaller)
    return "mc", (f"Monte Carlo: {why}",)


_EXACT_STARTED: ContextVar = ContextVar("odds_exact_started", default=None)


@contextmanager
def exact_clock():
    """Time exact work for the caller's stop test (montecarlo.stop_when; `checkpoint`), from
    the outermost such block; Ctrl-C inside it says the exact answer was not finished."""
    token = _EXACT_STARTED.set(_EXACT_STARTED.get() or time.perf_counter())
    try:
        yield
    except KeyboardInterrupt as e:
        if str(e):
            raise
        raise KeyboardInterrupt("the exact answer was not finished") from None
    finally:
        _EXACT_STARTED.reset(token)


def say_exact_work(work: float, progress: bool | None):
    """One line on stderr before exact work of over PROGRESS_AFTER_SECONDS (`work` in units of
    about a microsecond): with `progress` True, or None when stderr is a terminal."""
    if work > PROGRESS_AFTER_SECONDS * 1e6 and (progress or (progress is None
                                                             and montecarlo.terminal())):
        print(f"odds: solving exactly (about {work / 1e6:.0f} s of work; Ctrl-C stops it)",
              file=sys.stderr, flush=True)


def checkpoint():
    """Raise Interrupted if the caller's stop test says stop (tested with the seconds of exact
    work so far): the exact engines call this in their long loops."""
    test = montecarlo.stop_test()
    if test is not None:
        started = _EXACT_STARTED.get()
        if test(0.0 if started is None else time.perf_counter() - started):
            raise Interrupted("the exact answer was not finished (stopped by the caller)")


class Estimated(Exception):
    """Raised by solve() inside `estimating()`: the exact work the call would take (0 for a
    Monte Carlo call), its Procedure, the engine it would pick ('exact' or 'mc') and its
    Monte Carlo options (the trials it would run), before any engine work."""

    def __init__(self, work: float, proc: Procedure, method: str | None = None,
                 mc: McOptions | None = None):
        super().__init__(work)
        self.work, self.proc, self.method, self.mc = work, proc, method, mc


_ESTIMATING: ContextVar = ContextVar("odds_estimating", default=False)


def estimate(call: Callable) -> float:
    """Work units of the exact engine `call()` (a procedure call) would run: the call validates
    and sets up as usual, then stops where its engine would start (0: it would run Monte Carlo
    or names no cost)."""
    return estimated(call)[0]


def estimated(call: Callable) -> tuple[float, Procedure | None]:
    """(estimate(call), the Procedure the call hands its engine, or None when it hands none)."""
    token = _ESTIMATING.set(True)
    try:
        call()
    except Estimated as e:
        return e.work, e.proc
    finally:
        _ESTIMATING.reset(token)
    return 0.0, None


def planned(call: Callable) -> Estimated | None:
    """What `call()` (a procedure call) would do, none of it done: its Estimated (work,
    Procedure, the engine it picks, its Monte Carlo options), or None when it hands no
    Procedure to solve()."""
    token = _ESTIMATING.set(True)
    try:
        call()
    except Estimated as e:
        return e
    finally:
        _ESTIMATING.reset(token)
    return None


def events(proc: Procedure) -> tuple:
    """The names of the probabilities `proc`'s Result has, from its summary of an empty joint
    (summarise is linear: no engine work)."""
    return tuple(proc.summarise(np.zeros(proc.shape))[0])


def solve(proc: Procedure, method: str, mc: McOptions) -> Result:
    """Answer `proc` with the chosen engine: exact within its bounds (`proc.cost`), else, for
    'auto', Monte Carlo with a note."""
    asked, method = method, pick_method(method, proc.exact is not None)
    if _ESTIMATING.get():  # 'exact' beyond one answer's bounds is refused as the call would be
        cost = exact_cost(proc) if method == "exact" else None
        if asked == "exact":
            exact_or_mc(asked, cost)
            check_memory(proc.shape, method, mc.threads)
        picked = method if cost is None or cost.refusal(memory_budget()) is None else "mc"
        raise Estimated(cost.work if cost else 0.0, proc, picked, mc)
    notes, cost = proc.notes, None
    if method == "exact":
        cost = exact_cost(proc)
        method, why = exact_or_mc(asked, cost)
        notes += why
    check_memory(proc.shape, method, mc.threads)
    if method == "exact":
        if mc.given:
            notes += (f"{', '.join(mc.given)}: Monte Carlo options, not used by the exact answer "
                      "(method mc uses them)",)
        say_exact_work(cost.work, mc.progress)
        with exact_clock():
            probabilities, pmfs = proc.summarise(proc.exact())
        return proc.result_type(proc.name, "exact", probabilities, pmfs, proc.main,
                                settings=proc.settings, assumptions=proc.assumptions,
                                notes=notes, explain=proc.explain, words=proc.words)
    if proc.sample is not None:
        run = proc.sample(mc)
    else:
        from .kernel_cache import load

        run = montecarlo.run(load(*proc.kernel), proc.kernel_args(), proc.shape, mc.trials,
                             mc.seed, main=lambda h: proc.summarise(h)[0][proc.main],
                             precision=mc.precision, threads=mc.threads, progress=mc.progress)
    counts, pmf_counts = proc.summarise(run.hist)
    n = run.trials
    if run.met_precision is False:
        notes += (f"precision {mc.precision} not reached within {n:,} trials",)
    if not n:
        notes += ("stopped before the first whole trial: no estimate",)
    scale = (lambda v: v / n) if n else (lambda v: v * np.nan)
    return proc.result_type(proc.name, "mc", {k: scale(v) for k, v in counts.items()},
                  {k: scale(np.asarray(v)) for k, v in pmf_counts.items()}, proc.main,
                  trials=n, seed=mc.seed, partial=run.partial,
                  settings=proc.settings, notes=notes, assumptions=proc.assumptions,
                  explain=proc.explain, words=proc.words)
