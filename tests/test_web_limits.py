"""Exact answers on a real server with small bounds: heavy questions are stopped at the deadline
(503) or the memory cap (413) while small ones keep being answered. The heavy questions are held
(held.Hold: they keep a core busy until the test lets them go), so that no outcome depends on
how fast the machine computes them."""
import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hang import GUARD, poll
from held import holding
from odds.frontends.web.limits import WEB_EXACT_LONG_CALLS, WEB_EXACT_WORKERS
from web_server import running

HEAVY = ["/api/his.siege?attacker=12&defender=6&assaults=5",
         "/api/oath.campaign?warbands=6&defense_dice=4",
         "/api/his.siege?attacker=9&defender=4&assaults=3"]
WORKERS = WEB_EXACT_WORKERS + WEB_EXACT_LONG_CALLS  # exact workers, for small and long answers
SMALL = [f"/api/his.field?attacker={a}&defender={d}&attacker_leader=1"
         for a in range(2, 6) for d in range(2, 4)]


def get(server, path, timeout=GUARD):
    """(status, headers, JSON) of a GET (`timeout`: a hang guard)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}",
                                    timeout=timeout) as r:
            return r.status, r.headers, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.headers, json.loads(e.read())


def worker_pids(server) -> set:
    return {w.process.pid for w in server.app.state.exact.pool.workers if w.process}


@pytest.fixture
def hold(tmp_path, monkeypatch):
    """Exact answers of his.siege and oath.campaign, held (a core busy) until `hold.release()`."""
    return holding(monkeypatch, tmp_path / "held", ["his.siege", "oath.campaign"], spin=True)


def test_small_questions_are_answered_while_heavy_ones_run(hold):
    with running(deadline=None, long_after=0.3) as server, ThreadPoolExecutor(3) as pool:
        workers = server.app.state.exact.pool
        heavy = [pool.submit(get, server, path) for path in HEAVY]
        hold.wait_started(len(HEAVY))
        poll(lambda: sum(w.long for w in workers.workers) == len(HEAVY), "the heavy calls long")
        long_pids = {w.process.pid for w in workers.workers if w.long}
        workers.long_after = None  # now no small question turns long, however slow the machine
        small = [get(server, path) for path in SMALL]  # each would wait forever behind a held one
        during = [h.done() for h in heavy], long_pids <= worker_pids(server)
        hold.release()
        answers = [h.result() for h in heavy]
    assert [s[0] for s in small] == [200] * len(SMALL) and all(s[2]["method"] == "exact" for s in small)
    assert during == ([False] * len(HEAVY), True)  # all answered while the heavy ones were held
    assert [a[0] for a in answers] == [200] * len(HEAVY)  # then these finished too


def test_heavy_ones_are_stopped_at_the_deadline_and_their_workers_end(hold):
    with running(deadline=2.0, long_after=0.3) as server, ThreadPoolExecutor(3) as pool:
        workers = server.app.state.exact.pool
        heavy = [pool.submit(get, server, path) for path in HEAVY]
        hold.wait_started(len(HEAVY))
        answers = [h.result() for h in heavy]  # never let go: only the deadline ends them
        held = hold.pids()
        poll(lambda: not [pid for pid in held if Path(f"/proc/{pid}").exists()],
             "the stopped workers' end")
        replaced = not held & worker_pids(server) and len(workers.workers) == WORKERS
        workers.deadline = None  # the next question, however slow the machine
        hold.release()
        status, _, body = get(server, HEAVY[0])
    for status_, headers, body_ in answers:
        assert (status_, headers["Retry-After"]) == (503, "2")
        assert body_["error"].endswith("the exact answer takes longer than the server allows "
                                       "one answer (2 s; allowed: a smaller question, or method=mc)")
    assert len(held) == len(HEAVY) and replaced and status == 200 and body["method"] == "exact"


def test_an_exact_answer_over_the_memory_cap_is_a_413_and_the_next_one_is_answered():
    with running(memory=100 * 2**20) as server:  # the Oath table needs about 190 MB
        status, headers, body = get(server, "/api/oath.campaign?warbands=60&defense_dice=60"
                                            "&defenders=200&optimise=true")
        assert status == 413 and body == {"error": (
            "oath.campaign: the exact answer needs more memory than the server allows one "
            "answer (0.0977 GiB; allowed: a smaller question, or method=mc)")}
        assert get(server, "/api/oath.campaign?warbands=6&defense_dice=4")[0] == 200
