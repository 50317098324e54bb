"""The chunked Monte Carlo runner.

Trials are cut into chunks of CHUNK trials; chunk c always uses the RNG stream of (seed, c),
and its counts land in the histogram of whichever lane ran it. Integer counts add up the same
in any order, so a seed gives identical numbers with any thread count. Chunks run in batches:
between batches the runner checks the precision target, updates the progress bar, and turns
Ctrl-C, or a caller's stop test (`stop_when`, e.g. a web server's time budget), into a
partial result. `rounds` runs a procedure that composes several kernels (or slices one kernel's
run) in rounds of whole trials under the same precision target, bar, Ctrl-C and stop test.

A kernel is one lane: ``kernel(*args, seed, first_chunk, chunk_trials, out, lane)``, compiled
with ``nogil=True``, runs chunks lane, lane + lanes, ... of the batch and adds its counts to
``out[lane]``, which the runner zeroes before each batch (a kernel counting into a local array
and copying it at the end costs seconds more to compile: numba's shape check of an
array-to-array copy formats its error message in compiled code). The runner runs the lanes on
a pool of threads, one per core, kept for the process's later runs.
"""
from __future__ import annotations

import math
import os
import sys
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from ..errors import OddsError, check_int
from ..config import DEFAULT_TRIALS, MAX_TRIALS, PROGRESS_AFTER_SECONDS

CHUNK = 1 << 16  # trials per chunk (one RNG stream each)
BATCH_CHUNKS = 64  # chunks between progress / precision / Ctrl-C checks
Z95 = 1.959963984540054
PAIR_LANE = ("odds.core.pair_kernel", "pair_lane")  # two fixed rolls and an outcome table
_STOP: ContextVar = ContextVar("odds_stop", default=None)


class _Budget:
    """A caller's stop test and the seconds it is asked about: wall time since the block's
    first run started sampling, less the time kernels took to compile or load."""

    def __init__(self, test):
        self.test, self.started, self.excused = test, None, 0.0

    def loaded(self, seconds: float):
        """A kernel took `seconds` to compile or load: they do not count."""
        if self.started is None:
            self.started = time.perf_counter()
        else:
            self.excused += seconds

    def over(self) -> bool:
        spent = 0.0 if self.started is None else time.perf_counter() - self.started - self.excused
        return bool(self.test(spent))


@contextmanager
def stop_when(test):
    """Runs inside this block stop (partial) once `test(seconds sampling so far)` is true:
    the seconds count from the first run's first batch, across every run of the block (a
    composed procedure's stages, a sliced run's slices), compiling or loading kernels left
    out. A run tests it every chunk per lane, `rounds` between rounds, a step `stopping()`.

    The precision target is still tested every BATCH_CHUNKS chunks, so results do not change.
    """
    token = _STOP.set(_Budget(test))
    try:
        yield
    finally:
        _STOP.reset(token)


def stop_test():
    """The caller's test of the innermost `stop_when` block, or None: the exact engines ask it
    with the seconds of their own work (engine.checkpoint)."""
    budget = _STOP.get()
    return None if budget is None else budget.test


def stopping() -> bool:
    """True when the caller's stop test (`stop_when`) says the runs of its block should stop."""
    budget = _STOP.get()
    return budget is not None and budget.over()


@dataclass
class Run:
    """Counts from a run: `hist` summed over lanes, `trials` actually run, `partial` if stopped."""

    hist: np.ndarray
    trials: int
    partial: bool
    met_precision: bool | None


def check_run_options(trials, seed, precision, max_trials):
    """Validate the user's Monte Carlo options; return (trials, seed, precision, max_trials)."""
    if trials is not None:
        trials = check_int("trials", trials, 1, MAX_TRIALS)
    seed = 0 if seed is None else check_int("seed", seed, 0, 2**63 - 1)
    if precision is not None:
        try:
            precision = float(precision)
        except (TypeError, ValueError):
            raise OddsError(f"precision: {precision!r} is not a number") from None
        if not 0 < precision < 1:
            raise OddsError(f"precision: {precision!r} is out of range (allowed: above 0, below 1)")
    max_trials = check_int("max_trials", max_trials, 1, MAX_TRIALS)
    if trials is None:
        trials = max_trials if precision is not None else DEFAULT_TRIALS
    return trials, seed, precision, max_trials


def half_width(hits: int, n: int) -> float:
    """95% half-width for a proportion, with a +1/+2 pseudo-count so 0 or n hits never stop early."""
    p = (hits + 1) / (n + 2)
    return Z95 * math.sqrt(p * (1 - p) / n)


def run(kernel, args, shape, trials, seed, *, main=None, precision=None, threads=None,
        progress=None) -> Run:
    """Run `trials` trials of `kernel` (or fewer: precision met, or Ctrl-C) into a histogram.

    `main(hist)` returns the count of the main event, for the precision target. `progress`
    None shows a bar when the run will take over PROGRESS_AFTER_SECONDS and says that the
    kernel compiles (first use), both only when stderr is a terminal; True shows both
    wherever stderr goes; False shows neither. The trials counted are whole batches: a
    Ctrl-C or a stop keeps the batches that finished.
    """
    from concurrent.futures import wait

    from numba import config

    from .kernel_cache import call, compile_note

    lanes = threads or config.NUMBA_NUM_THREADS
    hist = np.zeros(shape, dtype=np.int64)
    out = np.zeros((lanes,) + tuple(shape), dtype=np.int64)
    counts = out.reshape(lanes, -1) if getattr(kernel, "flat_out", False) else out  # a view
    seed = np.uint64(seed)
    budget = _STOP.get()
    started = time.perf_counter()
    with compile_note(kernel, progress):
        call(kernel, *args, seed, 0, np.zeros(0, dtype=np.int64), counts, 0)  # compile or load first
    if budget is not None:
        budget.loaded(time.perf_counter() - started)
    done, chunk, bar, partial, met = 0, 0, None, False, None
    started = time.perf_counter()
    batch = BATCH_CHUNKS if budget is None else math.gcd(BATCH_CHUNKS, lanes)
    lanes_run = []
    try:
        while done < trials:
            n = min(batch * CHUNK, trials - done)
            sizes = np.full(-(-n // CHUNK), CHUNK, dtype=np.int64)
            sizes[-1] = n - CHUNK * (len(sizes) - 1)
            out[...] = 0
            pool = _pool(lanes)
            lanes_run = [pool.submit(kernel, *args, seed, chunk, sizes, counts, lane)
                         for lane in range(lanes)]
            for lane in lanes_run:
                lane.result()
            hist, done = hist + out.sum(axis=0), done + n  # one step: a Ctrl-C keeps both or neither
            chunk += len(sizes)
            if precision is not None and (chunk % BATCH_CHUNKS == 0 or done == trials):
                met = half_width(int(main(hist)), done) < precision
                if met:
                    break
            bar = _progress(bar, progress, done, trials, started)
            if budget is not None and done < trials and budget.over():
                partial = True
                break
    except KeyboardInterrupt:
        partial = True
    finally:
        for lane in lanes_run:
            lane.cancel()
        wait(lanes_run)  # lanes under way finish their chunks (into `out`, which is dropped)
        if bar is not None:
            bar.close()
    return Run(hist, done, partial, met)


_POOLS: dict = {}  # (process id, lanes) -> the threads that run lanes, kept for later runs
_POOLS_LOCK = threading.Lock()


def _pool(lanes: int):
    """The ThreadPoolExecutor of `lanes` threads, made once per process (a composed run makes
    thousands of short runs, and starting threads cost about a millisecond a run)."""
    from concurrent.futures import ThreadPoolExecutor

    key = (os.getpid(), lanes)  # a forked child has none of its parent's threads
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = ThreadPoolExecutor(lanes, thread_name_prefix="odds-lane")
        return _POOLS[key]


def rounds(step, shape, trials, size, *, main=None, precision=None, progress=None) -> Run:
    """Run `trials` trials in rounds: `step(first, n)` runs trials first .. first + n - 1 and
    returns their Run, which counts whole trials only (partial when a Ctrl-C or the caller's
    stop test cut it: a step that cannot keep part of a round returns no trials).
    `size(n, seconds)` is the next round's trials after a round of n trials that took
    `seconds` (None, None: the first round's); the numbers must not depend on it unless it
    ignores the seconds. Between rounds: the precision target of `main(hist)` (as in `run`),
    the progress bar over the trials (as in `run`), the stop test; a Ctrl-C anywhere drops
    the round it interrupts."""
    kept, bar, partial, met = (np.zeros(shape, np.int64), 0), None, False, None
    n, seconds = None, None
    started = time.perf_counter()
    try:
        while kept[1] < trials:
            n = min(size(n, seconds), trials - kept[1])
            t = time.perf_counter()
            r = step(kept[1], n)
            kept = (kept[0] + r.hist, kept[1] + r.trials)  # one step: a Ctrl-C keeps all or none
            seconds = time.perf_counter() - t
            if r.partial:
                partial = True
                break
            if precision is not None:
                met = half_width(int(main(kept[0])), kept[1]) < precision
                if met:
                    break
            bar = _progress(bar, progress, kept[1], trials, started)
            if kept[1] < trials and stopping():
                partial = True
                break
    except KeyboardInterrupt:
        partial = True
    finally:
        if bar is not None:
            bar.close()
    return Run(kept[0], kept[1], partial, met)


def _progress(bar, wanted, done, trials, started):
    """The bar, made once the run will take long (`wanted` None: on a terminal only)."""
    if bar is None and wanted is not False and done < trials:
        elapsed = time.perf_counter() - started
        if wanted or (terminal() and elapsed * (trials - done) / done > PROGRESS_AFTER_SECONDS):
            from tqdm import tqdm

            bar = tqdm(total=trials, unit="trial", unit_scale=True, leave=False)
            bar.update(done)
            return bar
    if bar is not None:
        bar.update(done - bar.n)
    return bar


def terminal() -> bool:
    """Whether stderr is a terminal (False when it is closed or missing)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
