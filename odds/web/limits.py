"""What one request may cost: trial caps, the Monte Carlo time budget, bounded concurrency.

Exact and Monte Carlo requests pass separate gates (a few workers each and a bounded queue), so
a flood of Monte Carlo requests waits in its own queue while exact answers keep flowing. A full
queue raises `Busy` (the API answers 503 with Retry-After) instead of queueing without bound.
Exact answers are computed in worker processes (`workers.Workers`): pure Python holds the GIL,
and threads doing so make the event loop wait for it. Monte Carlo runs in threads: its kernels
release the GIL.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from ..config import WEB_MAX_TRIALS, WEB_MAX_TRIALS_OF
from ..core.montecarlo import stop_when
from .workers import Workers

STOPPING = threading.Event()  # set on SIGTERM / SIGINT: running Monte Carlo stops at its next chunk


class Busy(Exception):
    """A gate's queue is full: try again later."""


class Gate:
    """Run at most `running` calls at once in threads (or in `workers`' processes), with at
    most `waiting` more queued.

    A call still running after `patience` seconds gives its place to the next one (at most
    `overtime` such calls at a time), so a rare huge exact computation, which cannot be
    interrupted, does not hold up the small ones behind it.
    """

    def __init__(self, running: int, waiting: int, patience: float | None = None,
                 overtime: int = 0, workers: Workers | None = None):
        self.pool = workers or ThreadPoolExecutor(running + overtime, thread_name_prefix="odds-gate")
        self.running, self.places = running, asyncio.Semaphore(running)
        self.capacity = running + waiting
        self.patience, self.overtime = patience, overtime
        self.inside = self.late = 0  # only touched on the event loop, so no lock

    async def run(self, fn, *args):
        if self.inside >= self.capacity:
            raise Busy
        self.inside += 1
        try:
            async with self.places:
                call = (asyncio.ensure_future(self.pool.run(fn, *args))
                        if isinstance(self.pool, Workers) else
                        asyncio.get_running_loop().run_in_executor(self.pool, fn, *args))
                await asyncio.wait([call], timeout=self.patience)
                if call.done() or self.late >= self.overtime:
                    return await call
                self.late += 1
            try:  # in overtime: its place is free again
                return await call
            finally:
                self.late -= 1
        finally:
            self.inside -= 1

    def start(self):
        """Start the worker processes now rather than at the first calls (on the event loop)."""
        if isinstance(self.pool, Workers):
            self.pool.start(self.running)

    def close(self):
        """Cancel the queued calls; end the worker processes, even in a call (on the event loop)."""
        if isinstance(self.pool, Workers):
            self.pool.close()
        else:
            self.pool.shutdown(wait=False, cancel_futures=True)


def max_trials(procedure: str) -> int:
    """The most Monte Carlo trials one request may ask of `procedure`."""
    return WEB_MAX_TRIALS_OF.get(procedure, WEB_MAX_TRIALS)


def within(seconds: float, fn):
    """fn(), its Monte Carlo stopped (partial) after `seconds` of sampling or when the server
    stops."""
    with stop_when(lambda sampling: STOPPING.is_set() or sampling > seconds):
        return fn()
