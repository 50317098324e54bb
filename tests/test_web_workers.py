"""The web server's worker processes: answers, errors, a caller that leaves, a worker that dies."""
import asyncio
import operator
import os
import threading
import time

import pytest

from odds import OddsError
from odds.errors import check_int
from odds.web.workers import Workers, WorkerStopped


def in_workers(size, body):
    """asyncio.run(body(workers)) with `size` workers, closed afterwards."""
    async def main():
        workers = Workers(size)
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
