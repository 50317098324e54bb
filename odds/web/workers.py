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
        self.loop, self.done, self.answer = loop, done, None
        loop.add_reader(self.conn.fileno(), self._readable)

    def ask(self, fn, args) -> asyncio.Future:
        self.answer = self.loop.create_future()
        self.conn.send((fn, args))
        return self.answer

    def _readable(self):
        try:
            ok, value = self.conn.recv()
        except (EOFError, OSError):
            self.stop()
            ok, value = False, WorkerStopped("a worker process stopped during the call")
        if self.answer is not None and not self.answer.done():
            (self.answer.set_result if ok else self.answer.set_exception)(value)
        self.answer = None
        self.done(self)

    def stop(self):
        if self.process is not None:
            self.loop.remove_reader(self.conn.fileno())
            self.process.terminate()
            self.process.join(5)
            self.conn.close()
            self.process = None


class Workers:
    """Up to `size` worker processes (spawned, so they share nothing with the server's threads)."""

    def __init__(self, size: int):
        self.size, self.workers = size, []
        self.idle: asyncio.Queue | None = None  # made on the event loop, at the first call
        self.loop: asyncio.AbstractEventLoop | None = None
        self.context = multiprocessing.get_context("spawn")

    def _spawn(self):
        self.workers.append(_Worker(self.context, self.loop, self._done))
        self.idle.put_nowait(self.workers[-1])

    def _done(self, worker: _Worker):
        if worker.process is None:  # stopped: another takes its place at the next call
            self.workers.remove(worker)
        else:
            self.idle.put_nowait(worker)

    def start(self, count: int):
        """Start `count` workers now (call on the event loop) rather than at the first calls."""
        self.idle = self.idle or asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        while len(self.workers) < min(count, self.size):
            self._spawn()

    async def run(self, fn, *args):
        self.start(0)
        while True:
            if self.idle.empty() and len(self.workers) < self.size:
                self._spawn()
            worker = await self.idle.get()
            if worker.process is not None:  # not one that stopped while idle
                break
        # shielded: a caller that goes away leaves the worker to finish (it is idle again then)
        return await asyncio.shield(worker.ask(fn, args))

    def close(self):
        """End every worker now, even in a call (on the event loop)."""
        for worker in self.workers:
            worker.stop()
        self.workers = []
