"""Exact answers on a real server with small bounds: heavy questions are stopped at the deadline
(503) or the memory cap (413) while small ones keep being answered."""
import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from web_server import running

# the largest exact questions the engines' bounds allow (2-3 s each alone on a 2-core machine;
# larger ones are refused before any work): the server's bounds are set below them
HEAVY = ["/api/his.siege?attacker=100&defender=100&assaults=20",
         "/api/oath.campaign?warbands=60&defense_dice=60&defenders=200&optimise=true",
         "/api/his.siege?attacker=120&defender=100&assaults=12"]


def get(server, path, timeout=30):
    """(status, headers, JSON, seconds) of a GET."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.config.port}{path}",
                                    timeout=timeout) as r:
            return r.status, r.headers, json.loads(r.read()), time.perf_counter() - started
    except urllib.error.HTTPError as e:
        return e.code, e.headers, json.loads(e.read()), time.perf_counter() - started


def worker_pids(server) -> set:
    return {w.process.pid for w in server.config.app.state.exact.pool.workers if w.process}


def test_small_questions_are_answered_while_heavy_ones_run_until_the_deadline():
    with running(deadline=2.0, long_after=0.3) as server, ThreadPoolExecutor(3) as pool:
        assert get(server, "/api/his.field?attacker=5&defender=4")[0] == 200  # workers started
        heavy = [pool.submit(get, server, path) for path in HEAVY]
        time.sleep(0.6)  # every heavy one is long by now, in a process of its own
        long_pids = worker_pids(server)
        small = [get(server, f"/api/his.field?attacker={a}&defender={d}&attacker_leader=1", 5)
                 for a in range(2, 6) for d in range(2, 4)]
        assert not any(h.done() for h in heavy)  # all asked while the heavy ones ran
        assert [s[0] for s in small] == [200] * len(small)
        assert max(s[3] for s in small) < 1.0  # a loaded machine: the heavy ones take 2 s
        for status, headers, body, seconds in (h.result() for h in heavy):
            assert (status, headers["Retry-After"]) == (503, "2") and 1.9 < seconds < 10
            assert body["error"].endswith("the exact answer takes longer than the server allows "
                                          "one answer (2 s; allowed: a smaller question, or method=mc)")
        status, _, body, _ = get(server, "/api/his.siege?attacker=12&defender=6&assaults=5")
        assert status == 200 and body["method"] == "exact"
        time.sleep(0.2)
        assert not [pid for pid in long_pids - worker_pids(server) if Path(f"/proc/{pid}").exists()]


def test_an_exact_answer_over_the_memory_cap_is_a_413_and_the_next_one_is_answered():
    with running(memory=100 * 2**20) as server:  # the Oath table needs about 190 MB
        status, headers, body, seconds = get(server, HEAVY[1])
        assert status == 413 and seconds < 20 and body == {"error": (
            "oath.campaign: the exact answer needs more memory than the server allows one "
            "answer (0.0977 GiB; allowed: a smaller question, or method=mc)")}
        assert get(server, "/api/oath.campaign?warbands=6&defense_dice=4")[0] == 200
