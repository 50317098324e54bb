"""The web server's worker processes: answers, errors, a caller that leaves, a worker that dies.
Slow calls are held ones (held.Hold): they run until the test lets them go, so each test waits
for events, not seconds, and asserts order and outcome on a machine of any speed."""
import asyncio
import operator
import os
import threading

import pytest

from hang import GUARD, poll
from held import Hold, alive
from odds import OddsError
from odds.errors import check_int
from odds.frontends.web.workers import OverDeadline, OverMemory, TooManyLong, Workers, WorkerStopped


def in_workers(size, body, **options):
    """asyncio.run(body(workers)) with `size` workers, closed afterwards."""
    async def main():
        workers = Workers(size, **options)
        try:
            return await body(workers)
        finally:
            workers.close()
    return asyncio.run(main())


async def until(condition, what: str):
    """Let the event loop run until `condition()` holds (hang.poll, in a thread)."""
    await asyncio.to_thread(poll, condition, what)


async def turn():
    """One turn of the event loop: the tasks made so far take their first step."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.call_soon(done.set_result, None)
    await done


@pytest.fixture
def hold(tmp_path):
    return Hold(tmp_path / "held")


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
    assert not any(alive(pid) for pid in processes)  # close() ended them (killed and reaped)


def test_a_caller_that_leaves_lets_the_worker_finish_and_serve_again(hold):
    async def body(workers):
        slow = asyncio.ensure_future(workers.run(hold))
        await until(lambda: hold.started() == 1, "the held call started")
        slow.cancel()
        after = asyncio.ensure_future(workers.run(os.getpid))
        await until(lambda: len(workers.waiters) == 1, "a waiting call")  # for the held worker
        assert not after.done() and workers.workers[0].pending
        held_in = workers.workers[0].process.pid
        hold.release()
        return held_in, await asyncio.wait_for(after, GUARD), len(workers.workers)

    held_in, answered_in, count = in_workers(1, body)
    assert answered_in == held_in and count == 1  # the same worker, which finished the call


def test_a_worker_that_dies_in_a_call_is_replaced():
    async def body(workers):
        first = await workers.run(os.getpid)
        with pytest.raises(WorkerStopped):
            await workers.run(os._exit, 1)
        second = await workers.run(os.getpid)
        return first, second

    first, second = in_workers(1, body)
    assert first != second and not alive(first)


def test_workers_start_on_demand_up_to_the_size(hold):
    async def body(workers):
        workers.start(1)
        assert len(workers.workers) == 1
        calls = asyncio.gather(*(workers.run(hold) for _ in range(5)))
        await until(lambda: hold.started() == 3, "three held calls")  # the others wait
        count = len(workers.workers)
        hold.release()
        return count, set(await calls), len(workers.workers)

    count, pids, after = in_workers(3, body)
    assert count == after == 3 and len(pids) == 3


def test_a_busy_worker_takes_a_next_call_while_its_current_one_is_young(hold):
    async def body(workers):
        first = asyncio.ensure_future(workers.run(hold))
        await turn()  # sent: the worker's current call is young (under hang.GUARD s)
        second = asyncio.ensure_future(workers.run(os.getpid))
        await turn()
        queued = len(workers.workers[0].pending)
        hold.release()
        await asyncio.gather(first, second)
        return queued

    assert in_workers(1, body, depth=2, young=GUARD, requeue=GUARD) == 2


def test_a_busy_worker_takes_no_next_call_once_its_current_one_is_old(hold):
    async def body(workers):
        old = asyncio.ensure_future(workers.run(hold))
        await until(lambda: hold.started() == 1, "the held call started")
        worker = workers.workers[0]  # its call is older than young=0 s
        waiting = asyncio.ensure_future(workers.run(os.getpid))
        await turn()
        held = len(worker.pending), len(workers.waiters)  # it waits for the worker instead
        hold.release()
        await asyncio.gather(old, waiting)
        return held

    assert in_workers(1, body, depth=2, young=0) == (1, 1)


def test_a_call_that_leaves_while_woken_passes_the_worker_on(hold):
    async def body(workers):
        busy = asyncio.ensure_future(workers.run(hold))
        await turn()
        leaving = asyncio.ensure_future(workers.run(os.getpid))
        staying = asyncio.ensure_future(workers.run(operator.add, 1, 1))
        await turn()
        assert len(workers.waiters) == 2
        # the worker finishes and wakes the first waiting call, whose caller goes away before
        # it runs: the wake-up must reach the other one, or it would wait forever
        workers.workers[0].pending[0].add_done_callback(lambda _: leaving.cancel())
        hold.release()
        await busy
        return await asyncio.wait_for(staying, GUARD)

    assert in_workers(1, body) == 2


def test_a_call_over_the_deadline_is_stopped_and_its_worker_replaced(hold):
    async def body(workers):
        workers.start(1)
        await until(lambda: workers.workers[0].started, "a started worker")  # its start counts too
        first = workers.workers[0].process.pid
        with pytest.raises(OverDeadline):
            await workers.run(hold)  # never let go: only the deadline ends it
        await until(lambda: workers.workers and workers.workers[0].started, "another worker")
        second = workers.workers[0].process.pid
        return first, second, alive(first), alive(second)

    first, second, *lives = in_workers(1, body, deadline=0.5)
    assert hold.started() == 1 and first != second and lives == [False, True]


def test_a_calls_own_deadline_stops_it_before_the_pools(hold):
    async def body(workers):
        workers.start(1)
        await until(lambda: workers.workers[0].started, "a started worker")  # its start counts too
        with pytest.raises(OverDeadline, match=r"^over 0.5 s$"):
            await workers.run(hold, deadline=0.5)  # never let go: the pool's deadline is GUARD
        return await workers.run(os.getpid)

    assert in_workers(1, body, deadline=GUARD) != os.getpid() and hold.started() == 1


def test_a_calls_own_deadline_counts_from_its_workers_start(hold):
    """A call placed on a worker still starting (spawning, importing) is not stopped for the
    worker's start: only the pool's deadline counts until then (a tiny own deadline, shorter
    than any start, stops the call only once it runs)."""
    async def body(workers):
        workers.start(1)
        worker = workers.workers[0]
        assert not worker.started
        with pytest.raises(OverDeadline, match=r"^over 0.01 s$"):
            await workers.run(hold, deadline=0.01)  # placed on that worker, never let go
        return worker.started  # when it was stopped

    assert in_workers(1, body, deadline=GUARD) is True


def imported(name: str) -> bool:
    """The module `name` is imported in this process (runs in a worker)."""
    import sys

    return name in sys.modules


def test_a_worker_imports_its_warm_modules_before_it_says_it_started():
    async def body(workers):
        workers.start(1)
        await until(lambda: workers.workers[0].started, "a started worker")
        return await workers.run(imported, "wave"), await workers.run(imported, "telnetlib")

    assert in_workers(1, body, warm=("wave",)) == (True, False)


def test_a_call_over_its_memory_cap_is_refused_and_the_worker_serves_on():
    async def body(workers):
        pid = await workers.run(os.getpid)
        with pytest.raises(OverMemory):
            await workers.run(bytearray, 400 * 2**20)  # a MemoryError in the worker
        fits = len(await workers.run(bytearray, 20 * 2**20))
        return pid, fits, await workers.run(os.getpid)

    pid, fits, again = in_workers(1, body, memory=200 * 2**20)
    assert fits == 20 * 2**20 and again == pid  # the cap is per call: the next one has it again


def test_a_call_waiting_behind_a_slow_one_goes_to_another_worker(tmp_path):
    slow_hold, busy_hold = Hold(tmp_path / "slow"), Hold(tmp_path / "busy")

    async def body(workers):
        workers.start(2)
        first, second = await asyncio.gather(workers.run(os.getpid), workers.run(os.getpid))
        slow = asyncio.ensure_future(workers.run(slow_hold))  # in the first worker, held
        busy = asyncio.ensure_future(workers.run(busy_hold))  # in the second, held for now
        await turn()
        waiting = asyncio.ensure_future(workers.run(os.getpid))  # behind the young slow call
        await turn()
        behind = len(workers.workers[0].pending)
        busy_hold.release()  # the second worker frees; the first stays held
        pid = await asyncio.wait_for(waiting, GUARD)  # given back, answered by the second
        still = not slow.done()
        slow_hold.release()
        await asyncio.gather(slow, busy)
        return behind, still, pid, first, second

    behind, still, pid, first, second = in_workers(2, body, depth=2, young=GUARD, requeue=0.1)
    assert first != second and behind == 2 and still and pid == second


def test_long_calls_leave_the_workers_to_small_ones_and_one_too_many_is_stopped(hold):
    async def body(workers):
        long = [asyncio.ensure_future(workers.run(hold)) for _ in range(2)]
        await until(lambda: sum(w.long for w in workers.workers) == 2, "two long calls")
        with pytest.raises(TooManyLong):
            await workers.run(hold)
        workers.long_after = None  # now no small call turns long, however slow the machine
        small = [await asyncio.wait_for(workers.run(operator.add, 2, 3), GUARD),
                 await asyncio.wait_for(workers.run(operator.mul, 6, 7), GUARD)]
        during = [c.done() for c in long]  # the small ones were answered while both were held
        hold.release()
        await asyncio.gather(*long)
        return small, during, len(workers.workers)

    small, during, left = in_workers(1, body, long_after=0.2, long_calls=2)
    assert small == [5, 42] and during == [False, False]
    assert left == 3  # the stopped one was replaced
