"""The web server's worker processes: answers, errors, a caller that leaves, a worker that dies."""
import asyncio
import operator
import os
import threading
import time

import pytest

from odds import OddsError
from odds.errors import check_int
from odds.web.workers import OverDeadline, OverMemory, TooManyLong, Workers, WorkerStopped


def in_workers(size, body, **options):
    """asyncio.run(body(workers)) with `size` workers, closed afterwards."""
    async def main():
        workers = Workers(size, **options)
        try:
            return await body(workers)
        finally:
            workers.close()
    return asyncio.run(main())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_calls_run_in_other_processes_and_errors_come_back_as_raised():
    async def body(workers):
        pids = set(await asyncio.gather(*(workers.run(os.getpid) for _ in range(6))))
        assert await workers.run(operator.add, 2, 3) == 5
        with pytest.raises(OddsError, match=r"^x: -1 is out of range \(allowed: at least 0\)$"):
            await workers.run(check_int, "x", -1)
        with pytest.raises(RuntimeError, match="TypeError: cannot pickle '_thread.lock'"):
            await workers.run(threading.Lock)  # an answer that cannot be sent back
        return pids, [w.process.pid for w in workers.workers]

    pids, processes = in_workers(2, body)
    assert os.getpid() not in pids and pids <= set(processes) and len(processes) == 2
    time.sleep(0.2)
    assert not any(alive(pid) for pid in processes)  # close() ended them


def test_a_caller_that_leaves_lets_the_worker_finish_and_serve_again():
    async def body(workers):
        slow = asyncio.ensure_future(workers.run(time.sleep, 0.5))
        await asyncio.sleep(0.2)
        slow.cancel()
        started = time.perf_counter()
        assert await workers.run(operator.mul, 6, 7) == 42  # the only worker, once it is idle
        return time.perf_counter() - started, len(workers.workers)

    waited, count = in_workers(1, body)
    assert 0.1 < waited < 5 and count == 1


def test_a_worker_that_dies_in_a_call_is_replaced():
    async def body(workers):
        first = await workers.run(os.getpid)
        with pytest.raises(WorkerStopped):
            await workers.run(os._exit, 1)
        second = await workers.run(os.getpid)
        return first, second

    first, second = in_workers(1, body)
    assert first != second and not alive(first)


def test_workers_start_on_demand_up_to_the_size():
    async def body(workers):
        workers.start(1)
        assert len(workers.workers) == 1
        await asyncio.gather(*(workers.run(time.sleep, 0.3) for _ in range(5)))
        return len(workers.workers)

    assert in_workers(3, body) == 3


def test_a_busy_worker_takes_a_next_call_only_while_its_current_one_is_young():
    async def body(workers):
        first = asyncio.ensure_future(workers.run(time.sleep, 0.4))
        await asyncio.sleep(0)  # sent: the worker's current call is young
        second = asyncio.ensure_future(workers.run(os.getpid))
        await asyncio.sleep(0)
        queued = len(workers.workers[0].pending)
        await asyncio.gather(first, second)
        old = asyncio.ensure_future(workers.run(time.sleep, 0.4))
        await asyncio.sleep(0.2)  # no longer young: the next call waits for the worker instead
        waiting = asyncio.ensure_future(workers.run(os.getpid))
        await asyncio.sleep(0)
        held = len(workers.workers[0].pending)
        await asyncio.gather(old, waiting)
        return queued, held

    assert in_workers(1, body, depth=2, young=0.1) == (2, 1)


def test_a_call_that_leaves_while_woken_passes_the_worker_on():
    async def body(workers):
        busy = asyncio.ensure_future(workers.run(time.sleep, 0.3))
        await asyncio.sleep(0)
        leaving = asyncio.ensure_future(workers.run(os.getpid))
        staying = asyncio.ensure_future(workers.run(operator.add, 1, 1))
        await asyncio.sleep(0)
        assert len(workers.waiters) == 2
        # the worker finishes and wakes the first waiting call, whose caller goes away before
        # it runs: the wake-up must reach the other one, or it would wait forever
        workers.workers[0].pending[0].add_done_callback(lambda _: leaving.cancel())
        await busy
        return await asyncio.wait_for(staying, 10)

    assert in_workers(1, body) == 2


def test_a_call_over_the_deadline_is_stopped_and_its_worker_replaced():
    async def body(workers):
        first = await workers.run(os.getpid)
        started = time.perf_counter()
        with pytest.raises(OverDeadline):
            await workers.run(time.sleep, 60)
        stopped = time.perf_counter() - started
        return first, stopped, await workers.run(os.getpid)

    first, stopped, second = in_workers(1, body, deadline=0.5)
    assert 0.5 <= stopped < 5 and first != second and not alive(first)


def test_a_call_over_its_memory_cap_is_refused_and_the_worker_serves_on():
    async def body(workers):
        pid = await workers.run(os.getpid)
        with pytest.raises(OverMemory):
            await workers.run(bytearray, 400 * 2**20)  # a MemoryError in the worker
        fits = len(await workers.run(bytearray, 20 * 2**20))
        return pid, fits, await workers.run(os.getpid)

    pid, fits, again = in_workers(1, body, memory=200 * 2**20)
    assert fits == 20 * 2**20 and again == pid  # the cap is per call: the next one has it again


def test_a_call_waiting_behind_a_slow_one_goes_to_another_worker():
    async def body(workers):
        workers.start(2)
        first, second = await asyncio.gather(workers.run(os.getpid), workers.run(os.getpid))
        slow = asyncio.ensure_future(workers.run(time.sleep, 3))  # in the first worker
        busy = asyncio.ensure_future(workers.run(time.sleep, 0.05))  # in the second, for now
        await asyncio.sleep(0)
        started = time.perf_counter()
        pid = await workers.run(os.getpid)  # behind the young sleep of 3 s, then given back
        waited = time.perf_counter() - started
        await asyncio.gather(slow, busy)
        return waited, pid, first, second

    waited, pid, first, second = in_workers(2, body, depth=2, young=1.0, requeue=0.1)
    assert first != second and pid == second and waited < 1.5


def test_long_calls_leave_the_workers_to_small_ones_and_one_too_many_is_stopped():
    async def body(workers):
        long = [asyncio.ensure_future(workers.run(time.sleep, 3)) for _ in range(2)]
        await asyncio.sleep(1.0)  # both long by now, each in a process of its own
        started = time.perf_counter()
        assert await workers.run(operator.add, 2, 3) == 5
        small = time.perf_counter() - started
        with pytest.raises(TooManyLong):
            await workers.run(time.sleep, 3)
        assert await workers.run(operator.mul, 6, 7) == 42
        await asyncio.gather(*long)
        return small, len(workers.workers)

    small, left = in_workers(1, body, long_after=0.2, long_calls=2)
    assert small < 2 and left == 3  # not behind the 3 s calls; the stopped one was replaced
