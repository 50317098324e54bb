"""What one request may cost, and every limit of the web server (WEB_*): its query's and
body's bytes and seconds, trial caps, the time budgets, the exact workers' bounds, bounded
concurrency.

Exact and Monte Carlo requests pass separate gates (a few workers each and a bounded queue), so
a flood of Monte Carlo requests waits in its own queue while exact answers keep flowing; luck
posts have a lane of their own into the exact workers (at most WEB_LUCK_RUNNING at once), so a
burst of them never stands between a small exact question and a worker. A full
queue raises `Busy` (the API answers 503 with Retry-After) instead of queueing without bound.
Exact answers are computed in worker processes (`workers.Workers`: pure Python holds the GIL,
and threads doing so make the event loop wait for it), each call with a deadline and a memory
cap. Monte Carlo runs in threads (`Threads`): its kernels release the GIL, and its time budget
stops it. A request's body is read here (`body`: too large a 413, too slow a 408) and parsed in
an exact worker, never on the event loop.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from ...core.montecarlo import stop_when
from ...errors import shown

# a request
WEB_MAX_TRIALS = 10_000_000  # Monte Carlo trials per request (a Spec may set fewer)
WEB_TIME_BUDGET = 3.0  # seconds of Monte Carlo per request; then the partial result
WEB_MAX_QUERY = 4096  # bytes of query string; more: 413
WEB_MAX_BODY = 64 * 1024  # bytes of a request body (a TOML scenario); more: 413
WEB_HEAD_SECONDS = 10.0  # s a request's line and headers have to arrive whole; then 408 and close
WEB_BODY_SECONDS = 10.0  # s a request body has to arrive whole (from its headers); then 408
WEB_PARSE_SECONDS = 3.0  # s a body's parse may take (in an exact worker, then stopped); then 413
# the luck route (POST /api/luck, web/luck.py)
WEB_LUCK_MAX_BODY = 1 << 20  # bytes of a posted record; more: 413
WEB_LUCK_MAX_ROLLS = 5_000  # rolls of a posted record, counted before it is parsed; more: 413
WEB_LUCK_RUNNING = 2  # luck posts computed at once (in the exact workers); the others wait in
# their own lane, so a worker stays free for the small questions (fair turns: issue 59)
WEB_LUCK_WAITING = 256  # luck posts queued beyond those; more get 503
WEB_LUCK_BUDGET = 20.0  # s a posted record's whole answer may take (read, scored, summed); then 503
# the exact workers (workers.Workers)
WEB_EXACT_WORKERS = 3  # worker processes computing exact answers (besides long ones')
WEB_EXACT_DEPTH = 2  # calls a worker holds: the next one waits in its pipe, so it never idles
WEB_EXACT_YOUNG = 0.02  # s: a busy worker takes a next call only while its current one is younger
WEB_EXACT_REQUEUE = 0.1  # s: a call waiting behind one that has run this long goes elsewhere
WEB_EXACT_LONG_AFTER = 1.0  # s: an exact answer running longer is long: a process starts in its place
WEB_EXACT_LONG_CALLS = 3  # long exact answers at once; one more turning long is answered 503
WEB_EXACT_DEADLINE = 30.0  # s an exact answer may run; then its worker is killed, the call 503
WEB_EXACT_MEMORY = 1 << 30  # bytes of memory one exact answer may add to its worker; more: 413
WEB_EXACT_WAITING = 256  # exact requests queued beyond those; more get 503
# the Monte Carlo threads, the answers kept, the process
WEB_MC_RUNNING = 1  # Monte Carlo runs at once, one core each (the other core stays for exact)
WEB_MC_WAITING = 4
WEB_RETRY_AFTER = 2  # seconds, in a 503's Retry-After
WEB_CACHED_ANSWERS = 4096  # exact answers kept by request (a few MB)
WEB_SWITCH_INTERVAL = 0.001  # s the event loop may wait for the GIL beside Monte Carlo threads (default 0.005)

STOPPING = threading.Event()  # set on SIGTERM / SIGINT: running Monte Carlo stops at its next chunk


class Busy(Exception):
    """A gate's queue is full: try again later."""


class TooLarge(Exception):
    """The request's query or body is over the server's limit (413)."""


class TooSlow(Exception):
    """The request's body did not arrive whole within the server's bound (408)."""


async def body(request, most: int, seconds: float) -> bytes:
    """The request's body: at most `most` bytes (else TooLarge, at once when its declared
    Content-Length is over), whole within `seconds` of
    its headers (else TooSlow), its query at most WEB_MAX_QUERY bytes. Kept in a bytearray:
    linear in its size however finely the client cuts it. Nothing parses it here."""
    if len(request.url.query) > WEB_MAX_QUERY:
        raise TooLarge(f"query: {len(request.url.query)} bytes (allowed: up to {WEB_MAX_QUERY})")
    declared = request.headers.get("content-length", "")
    if len(declared) > 20 or declared.isdecimal() and int(declared) > most:  # before any byte is
        # asked for: no `100 Continue`, no wait for a body that would be refused
        said = f"{int(declared):,}" if declared.isdecimal() else shown(declared)
        raise TooLarge(f"body: declared as {said} bytes (allowed: up to {most:,})")
    got = bytearray()

    async def read():
        async for chunk in request.stream():
            got.extend(chunk)
            if len(got) > most:
                raise TooLarge(f"body: over {most:,} bytes (allowed: up to {most:,})")

    try:
        await asyncio.wait_for(read(), seconds)
    except asyncio.TimeoutError:
        raise TooSlow(f"body: not whole after {seconds:g} s ({len(got):,} bytes arrived; "
                      f"allowed: the whole body within {seconds:g} s)") from None
    return bytes(got)


class Threads:
    """A thread pool with the worker processes' interface (`await run(fn, *args)`, start, close)."""

    def __init__(self, size: int):
        self.pool = ThreadPoolExecutor(size, thread_name_prefix="odds-gate")

    async def run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    def start(self, count: int):
        """Threads start with their first calls."""

    def close(self):
        self.pool.shutdown(wait=False, cancel_futures=True)


class Gate:
    """Run at most `running` calls at once in `pool` (`Threads`, or `workers.Workers`'
    processes, which bound each call's time and memory), with at most `waiting` more queued."""

    def __init__(self, running: int, waiting: int, pool=None):
        self.pool = pool or Threads(running)
        self.running, self.places = running, asyncio.Semaphore(running)
        self.capacity = running + waiting
        self.inside = 0  # only touched on the event loop, so no lock

    async def run(self, fn, *args, **options):
        """fn(*args) in the pool (`options`: the pool's own, e.g. Workers' deadline)."""
        if self.inside >= self.capacity:
            raise Busy
        self.inside += 1
        try:
            async with self.places:
                return await self.pool.run(fn, *args, **options)
        finally:
            self.inside -= 1

    def start(self):
        """Start the pool's workers now rather than at the first calls (on the event loop)."""
        self.pool.start(self.running)

    def close(self):
        """Cancel the queued calls; end the worker processes, even in a call (on the event loop)."""
        self.pool.close()


def max_trials(spec) -> int:
    """The most Monte Carlo trials one request may ask of a procedure (its Spec's bound)."""
    return spec.web_max_trials or WEB_MAX_TRIALS


def within(seconds: float, fn):
    """fn(), its Monte Carlo stopped (partial) after `seconds` of sampling or when the server
    stops."""
    with stop_when(lambda sampling: STOPPING.is_set() or sampling > seconds):
        return fn()
