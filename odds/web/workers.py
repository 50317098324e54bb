"""Worker processes for the event loop: `await Workers(n).run(fn, *args)` is fn(*args) computed in
another process, so pure-Python work never holds the server's GIL.

Each worker has its own pipe; the event loop writes the pickled call and reads the answer itself
when the pipe is readable (no helper threads: concurrent.futures' process pool spends about a
millisecond of the server's time per call on its queue threads). Workers start on demand, up to
n, and end with `close()` or with the server's process.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections import deque
from multiprocessing.connection import Connection


def _serve(conn: Connection):
    """A worker's loop: (fn, args) in, (True, answer) or (False, exception) out, until EOF."""
    from .. import registry

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's; it ends the workers
    registry.specs()
    while True:
        try:
            fn, args = conn.recv()
        except EOFError:
            return
        try:
            reply = (True, fn(*args))
        except Exception as e:  # the caller's to judge: an OddsError is a 400
            reply = (False, e)
        try:
            conn.send(reply)
        except Exception as e:  # an answer or exception that does not pickle
            conn.send((False, RuntimeError(f"{type(e).__name__}: {e}")))


class WorkerStopped(RuntimeError):
    """A worker process ended during a call (killed, or out of memory)."""


class _Worker:
    def __init__(self, context, loop: asyncio.AbstractEventLoop, done):
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True,
                                       name="odds-worker")
        self.process.start()
        theirs.close()
        self.loop, self.done = loop, done
        self.pending, self.since = deque(), 0.0
        loop.add_reader(self.conn.fileno(), self._readable)

    def ask(self, fn, args) -> asyncio.Future:
        answer = self.loop.create_future()
        if not self.pending:
            self.since = self.loop.time()
        self.pending.append(answer)
        self.conn.send((fn, args))
        return answer

    def takes(self, now: float, depth: int, young: float) -> bool:
        """Idle, or fewer than `depth` calls and the current one started under `young` s ago."""
        return self.process is not None and (not self.pending or (
            len(self.pending) < depth and now - self.since < young))

    def _readable(self):
        try:
            results = [self.conn.recv()]
        except (EOFError, OSError):
            self.stop()
            results = [(False, WorkerStopped("a worker process stopped"))] * len(self.pending)
        for ok, value in results:  # answers come back in the order the calls were sent
            answer = self.pending.popleft()
            if not answer.done():
                (answer.set_result if ok else answer.set_exception)(value)
        self.since = self.loop.time()
        self.done(self)

    def stop(self):
        if self.process is not None:
            self.loop.remove_reader(self.conn.fileno())
            self.process.terminate()
            self.process.join(5)
            self.conn.close()
            self.process = None


class Workers:
    """Up to `size` worker processes (spawned, so they share nothing with the server's threads).

    A busy worker also takes a next call (up to `depth` calls) while its current one is
    `young`: the next call waits in its pipe, so the worker never idles between calls (measured:
    +16-32% answers per second under load, three workers of depth 2 against five of depth 1). A
    call is never queued behind one that has already run longer, or while a worker is idle.
    """

    def __init__(self, size: int, depth: int = 1, young: float = 0.0):
        self.size, self.depth, self.young, self.workers = size, depth, young, []
        self.waiters: deque[asyncio.Future] = deque()  # calls waiting for a worker to take them
        self.loop: asyncio.AbstractEventLoop | None = None
        self.context = multiprocessing.get_context("spawn")

    def _spawn(self):
        self.workers.append(_Worker(self.context, self.loop, self._done))

    def _done(self, worker: _Worker):
        if worker.process is None:  # stopped: another takes its place at the next call
            self.workers.remove(worker)
        self._wake()

    def _wake(self):
        """The first call still waiting for a worker looks again."""
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def start(self, count: int):
        """Start `count` workers now (call on the event loop) rather than at the first calls."""
        self.loop = asyncio.get_running_loop()
        while len(self.workers) < min(count, self.size):
            self._spawn()

    async def run(self, fn, *args):
        self.start(0)
        while True:
            now = self.loop.time()
            ready = [w for w in self.workers if w.takes(now, self.depth, self.young)]
            if not ready and len(self.workers) < self.size:
                self._spawn()
                ready = self.workers[-1:]
            if ready:
                worker = min(ready, key=lambda w: len(w.pending))
                break
            waiter = self.loop.create_future()
            self.waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:  # its caller left: a wake-up it got goes to the next
                if waiter.done() and not waiter.cancelled():
                    self._wake()
                raise
        # shielded: a caller that goes away leaves the worker to finish its call
        return await asyncio.shield(worker.ask(fn, args))

    def close(self):
        """End every worker now, even in a call (on the event loop)."""
        for worker in self.workers:
            worker.stop()
        self.workers = []
