"""Worker processes for the event loop: `await Workers(n).run(fn, *args)` is fn(*args) computed in
another process, so pure-Python work never holds the server's GIL, and a call can be bounded.

Each worker has its own pipe; the event loop writes the pickled call and reads the answer itself
when the pipe is readable (no helper threads: concurrent.futures' process pool spends about a
millisecond of the server's time per call on its queue threads). Workers start on demand and end
with `close()` or with the server's process.

Bounds (a watchdog on the event loop looks every `TICK` seconds while calls run):
- deadline: a call running longer (the pool's, or the call's own: `run(..., deadline=s)`) is
  answered `OverDeadline`; its worker is killed (an exact solve cannot be interrupted
  otherwise) and another starts at the next call;
- memory: each call may grow its worker's address space by at most `memory` bytes (RLIMIT_AS,
  set around the call); over it, numpy and Python raise MemoryError there: `OverMemory`;
- long calls: at most `long_calls` calls may run longer than `long_after` at once (one more
  turning long is stopped: `TooManyLong`), and there are `long_calls` processes more than the
  `size` the small questions need, so those keep being answered while long ones run; a long
  call's process runs at a lower CPU priority (nice LONG_NICE) and is replaced after it.
A worker that stops is replaced at once (a fraction of a second). A worker imports the modules
`warm` names before it says it has started, so no call's time (and no long call) is import.
"""
from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import signal
from collections import deque
from contextlib import contextmanager
from multiprocessing.connection import Connection

from ...processes import sigint_ignored

TICK = 0.05  # s between the watchdog's looks at running calls
LONG_NICE = 10  # a long call's process yields the cores to the others' (its CPU weight about 1/10)
TRIES = 10  # times a call given back before it started is placed again (then WorkerStopped)


class WorkerStopped(RuntimeError):
    """A worker process ended during a call (killed, or out of memory in C code)."""


class OverDeadline(WorkerStopped):
    """The call ran past the deadline: its worker was killed."""


class TooManyLong(WorkerStopped):
    """The call ran long while the most long calls allowed were running: it was stopped."""


class OverMemory(Exception):
    """The call needed more memory than its cap."""


class _GivenBack(Exception):
    """A call waiting in a worker's pipe was given back before it started: place it again."""


@contextmanager
def _capped(extra: int | None):
    """The process's address space limited to its current size + `extra` bytes (Linux)."""
    try:
        import resource

        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError):
        extra = None
    if extra is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + extra if hard == resource.RLIM_INFINITY else min(size + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _serve(conn: Connection, skip, memory: int | None, warm: tuple = ()):
    """A worker's loop: (fn, args) in, (True, answer) or (False, exception) out, until EOF. The
    n-th call is skipped (given back) when n <= skip.value. `warm`: modules imported first."""
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")  # pyarrow's own allocators
    # reserve address space in large steps, which a capped call's first pandas string column
    # could not get (a 413 for a small answer)
    from ... import registry

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's; it ends the workers
    registry.specs()
    for name in warm:
        importlib.import_module(name)
    conn.send(None)  # started: a call's time counts from here
    number = 0
    while True:
        try:
            fn, args = conn.recv()
        except EOFError:
            return
        number += 1
        try:
            if number <= skip.value:
                raise _GivenBack
            with _capped(memory):
                reply = (True, fn(*args))
        except MemoryError:
            reply = (False, OverMemory(f"more than {memory / 2**30:.3g} GiB"))
        except Exception as e:  # the caller's to judge: an OddsError is a 400
            reply = (False, e)
        try:
            conn.send(reply)
        except Exception as e:  # an answer or exception that does not pickle
            conn.send((False, RuntimeError(f"{type(e).__name__}: {e}")))


def _retrieved(future: asyncio.Future):
    """Mark an exception as seen: a caller that left never awaits its answer."""
    if not future.cancelled():
        future.exception()


class _Worker:
    def __init__(self, context, loop: asyncio.AbstractEventLoop, done, memory: int | None,
                 warm: tuple = ()):
        self.conn, theirs = context.Pipe()
        self.skip = context.RawValue("q", 0)
        self.process = context.Process(target=_serve, args=(theirs, self.skip, memory, warm),
                                       daemon=True, name="odds-worker")
        with sigint_ignored():  # a Ctrl-C to the group is the server's (odds.processes)
            self.process.start()
        theirs.close()
        self.loop, self.done = loop, done
        self.pending, self.since, self.sent, self.long = deque(), loop.time(), 0, False
        self.deadlines = deque()  # each pending call's own deadline (None: the pool's)
        self.started = False  # the process has said it is ready
        self.niced = False  # lowered for a long call: it cannot be raised again, so it is replaced
        loop.add_reader(self.conn.fileno(), self._readable)

    def ask(self, fn, args, deadline: float | None = None) -> asyncio.Future:
        answer = self.loop.create_future()
        answer.add_done_callback(_retrieved)
        if not self.pending and self.started:
            self.since = self.loop.time()
        self.pending.append(answer)
        self.deadlines.append(deadline)
        self.sent += 1
        self.conn.send((fn, args))
        return answer

    def takes(self, now: float, depth: int, young: float) -> bool:
        """Not running a long call, and idle or holding fewer than `depth` calls while the
        current one started under `young` s ago."""
        return self.process is not None and not self.long and (not self.pending or (
            len(self.pending) < depth and now - self.since < young))

    def yield_cores(self):
        """Lower the process's CPU priority for the rest of its life (best effort)."""
        try:
            os.setpriority(os.PRIO_PROCESS, self.process.pid, LONG_NICE)
            self.niced = True
        except (AttributeError, OSError):
            pass

    def give_back(self):
        """The calls waiting behind the current one are skipped here and placed again."""
        self.skip.value = self.sent
        for answer in list(self.pending)[1:]:
            if not answer.done():
                answer.set_exception(_GivenBack())

    def _readable(self):
        try:
            message = self.conn.recv()
        except (EOFError, OSError):
            self.stop(WorkerStopped("a worker process stopped"))
        else:
            if message is None:
                self.since, self.started = self.loop.time(), True
                return
            ok, value = message  # answers come back in the order the calls were sent
            answer = self.pending.popleft()
            self.deadlines.popleft()
            if not answer.done():
                (answer.set_result if ok else answer.set_exception)(value)
            self.since, self.long = self.loop.time(), False
        self.done(self)

    def stop(self, error: Exception | None = None):
        """Kill the process; its current call raises `error`, the ones behind it are placed again."""
        if self.process is not None:
            self.loop.remove_reader(self.conn.fileno())
            self.process.kill()
            self.process.join(5)
            self.conn.close()
            self.process = None
        for i, answer in enumerate(self.pending):
            if not answer.done():
                answer.set_exception(error if i == 0 and error else _GivenBack())
        self.pending.clear()
        self.deadlines.clear()


class Workers:
    """Up to `size` + `long_calls` worker processes (spawned, so they share nothing with the
    server's threads), at most `long_calls` of them running long calls: `size` at least are
    always there for the others. The bounds are the module docstring's (None: unbounded).

    A busy worker also takes a next call (up to `depth` calls) while its current one is
    `young`: the next call waits in its pipe, so the worker never idles between calls (measured:
    +16-32% answers per second under load, three workers of depth 2 against five of depth 1). A
    call is never queued behind one that has already run longer, or while a worker is idle, and
    one waiting behind a call that turns out slow (`requeue` s) goes to another worker.
    """

    def __init__(self, size: int, depth: int = 1, young: float = 0.0, *,
                 deadline: float | None = None, memory: int | None = None,
                 long_after: float | None = None, long_calls: int = 0, requeue: float = 0.1,
                 warm: tuple = ()):
        self.most, self.depth, self.young, self.workers = size + long_calls, depth, young, []
        self.warm = tuple(warm)
        self.deadline, self.memory, self.requeue = deadline, memory, requeue
        self.long_after, self.long_calls = long_after, long_calls
        self.waiters: deque[asyncio.Future] = deque()  # calls waiting for a worker to take them
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watchdog: asyncio.TimerHandle | None = None
        self.context = multiprocessing.get_context("spawn")

    def _spawn(self):
        self.workers.append(_Worker(self.context, self.loop, self._done, self.memory, self.warm))

    def _done(self, worker: _Worker):
        if worker.niced and not any(not a.done() for a in worker.pending):
            worker.stop()  # its long call ended: a worker of normal priority takes its place
        if worker.process is None:  # stopped (killed, or died): another starts in its place
            self.workers.remove(worker)
            if worker.started:  # (one that dies starting is not restarted in a loop)
                self._spawn()
        self._wake()

    def _wake(self):
        """The first call still waiting for a worker looks again."""
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _watch(self):
        """Stop calls over the deadline, place again calls behind slow ones, count long ones."""
        self.watchdog = None
        now = self.loop.time()
        for worker in list(self.workers):
            age = now - worker.since
            if not worker.pending or worker.process is None:
                continue
            own = worker.deadlines[0] if worker.started else None  # counted from its start
            deadline = self.deadline if own is None else own
            if deadline is not None and age > deadline:
                worker.stop(OverDeadline(f"over {deadline:g} s"))
                self._done(worker)
                continue
            if not worker.started:  # starting: only the deadline counts
                continue
            if len(worker.pending) > 1 and age > self.requeue:
                worker.give_back()
            if self.long_after is not None and age > self.long_after and not worker.long:
                if sum(w.long for w in self.workers) >= self.long_calls:
                    worker.stop(TooManyLong(f"{self.long_calls} long answers already running"))
                    self._done(worker)
                    continue
                worker.long = True
                worker.yield_cores()
        self._arm()

    def _arm(self):
        if self.watchdog is None and any(w.pending for w in self.workers):
            self.watchdog = self.loop.call_later(TICK, self._watch)

    def start(self, count: int):
        """Start `count` workers now (call on the event loop) rather than at the first calls."""
        self.loop = asyncio.get_running_loop()
        while len(self.workers) < min(count, self.most):
            self._spawn()

    async def _worker(self) -> _Worker:
        """A worker that takes a call now, or the first one that does."""
        while True:
            now = self.loop.time()
            ready = [w for w in self.workers if w.takes(now, self.depth, self.young)]
            if not ready and len(self.workers) < self.most:
                self._spawn()
                ready = self.workers[-1:]
            if ready:
                return min(ready, key=lambda w: len(w.pending))
            waiter = self.loop.create_future()
            self.waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:  # its caller left: a wake-up it got goes to the next
                if waiter.done() and not waiter.cancelled():
                    self._wake()
                raise

    async def run(self, fn, *args, deadline: float | None = None):
        """fn(*args) in a worker; `deadline`: this call's own (else the pool's)."""
        self.start(0)
        for _ in range(TRIES):
            worker = await self._worker()
            answer = worker.ask(fn, args, deadline)
            self._arm()
            try:  # shielded: a caller that goes away leaves the worker to finish its call
                return await asyncio.shield(answer)
            except _GivenBack:
                continue
        raise WorkerStopped(f"placed {TRIES} times behind slow calls")

    def close(self):
        """End every worker now, even in a call (on the event loop)."""
        if self.watchdog is not None:
            self.watchdog.cancel()
        for worker in self.workers:
            worker.stop(WorkerStopped("the server is stopping"))
        self.workers = []
