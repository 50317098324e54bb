"""The chunked Monte Carlo runner.

Trials are cut into chunks of CHUNK trials; chunk c always uses the RNG stream of (seed, c),
and its counts land in the histogram of whichever lane ran it. Integer counts add up the same
in any order, so a seed gives identical numbers with any thread count. Chunks run in batches:
between batches the runner checks the precision target, updates the progress bar, and turns
Ctrl-C, or a caller's stop test (`stop_when`, e.g. a web server's time budget), into a
partial result.

A kernel is one lane: ``kernel(*args, seed, first_chunk, chunk_trials, out, lane)``, compiled
with ``nogil=True``, runs chunks lane, lane + lanes, ... of the batch and adds its counts to
``out[lane]``, which the runner zeroes before each batch (a kernel counting into a local array
and copying it at the end costs seconds more to compile: numba's shape check of an
array-to-array copy formats its error message in compiled code). The runner runs the lanes on
a pool of threads, one per core.
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from ..errors import OddsError, check_int
from ..config import BATCH_CHUNKS, CHUNK, DEFAULT_TRIALS, MAX_TRIALS, PROGRESS_AFTER_SECONDS

Z95 = 1.959963984540054
PAIR_LANE = ("odds.core.pair_kernel", "pair_lane")  # two fixed rolls and an outcome table
_STOP: ContextVar = ContextVar("odds_stop", default=None)


@contextmanager
def stop_when(test):
    """Runs inside this block stop (partial) once `test(seconds sampling so far)` is true,
    tested every chunk per lane (compiling or loading the kernel does not count).

    The precision target is still tested every BATCH_CHUNKS chunks, so results do not change.
    """
    token = _STOP.set(test)
    try:
        yield
    finally:
        _STOP.reset(token)


def stop_test():
    """The stop test of the innermost `stop_when` block, or None (the exact engines read it)."""
    return _STOP.get()


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
    None shows a bar only when the run will take over PROGRESS_AFTER_SECONDS, and says that
    the kernel compiles (first use) only when stderr is a terminal; False shows neither.
    """
    from concurrent.futures import ThreadPoolExecutor

    from numba import config

    from .kernel_cache import call, compile_note

    lanes = threads or config.NUMBA_NUM_THREADS
    hist = np.zeros(shape, dtype=np.int64)
    out = np.zeros((lanes,) + tuple(shape), dtype=np.int64)
    counts = out.reshape(lanes, -1) if getattr(kernel, "flat_out", False) else out  # a view
    seed = np.uint64(seed)
    with compile_note(kernel, progress):
        call(kernel, *args, seed, 0, np.zeros(0, dtype=np.int64), counts, 0)  # compile or load first
    done, chunk, bar, partial, met = 0, 0, None, False, None
    started = time.perf_counter()
    stop = _STOP.get()
    batch = BATCH_CHUNKS if stop is None else math.gcd(BATCH_CHUNKS, lanes)
    pool = ThreadPoolExecutor(lanes)
    try:
        while done < trials:
            n = min(batch * CHUNK, trials - done)
            sizes = np.full(-(-n // CHUNK), CHUNK, dtype=np.int64)
            sizes[-1] = n - CHUNK * (len(sizes) - 1)
            out[...] = 0
            lanes_run = [pool.submit(kernel, *args, seed, chunk, sizes, counts, lane)
                         for lane in range(lanes)]
            for lane in lanes_run:
                lane.result()
            hist += out.sum(axis=0)
            done += n
            chunk += len(sizes)
            if precision is not None and (chunk % BATCH_CHUNKS == 0 or done == trials):
                met = half_width(int(main(hist)), done) < precision
                if met:
                    break
            bar = _progress(bar, progress, done, trials, started)
            if stop is not None and done < trials and stop(time.perf_counter() - started):
                partial = True
                break
    except KeyboardInterrupt:
        partial = True
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    return Run(hist, done, partial, met)


def _progress(bar, wanted, done, trials, started):
    if bar is None and wanted is not False and done < trials:
        elapsed = time.perf_counter() - started
        if wanted or elapsed * (trials - done) / done > PROGRESS_AFTER_SECONDS:
            from tqdm import tqdm

            bar = tqdm(total=trials, unit="trial", unit_scale=True, leave=False)
            bar.update(done)
            return bar
    if bar is not None:
        bar.update(done - bar.n)
    return bar
