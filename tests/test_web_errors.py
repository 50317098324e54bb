"""Every route answers every exception the same way (app.refusal): a user's mistake is a 400,
a spent budget or a full server a 503 with Retry-After, an over-large answer a 413, and a fault
of odds itself a JSON 500 naming it, never Starlette's plain "Internal Server Error"."""
import json
import urllib.error
import urllib.request

import pytest

from odds import Interrupted, OddsError
from odds.frontends.web import api
from odds.frontends.web.limits import Busy
from odds.frontends.web.workers import OverDeadline, OverMemory, TooManyLong, WorkerStopped
from web_server import running

ROUTES = {  # a route's path and query (Monte Carlo: it runs in this process's threads)
    "answer": ("/api/his.field", "attacker=3&defender=2&method=mc&trials=100"),
    "compare": ("/api/his.field/compare", "attacker=3&defender=2&method=mc&trials=100"
                                          "&plan=attacker%3D4"),
    "need": ("/api/his.field/need", "attacker=3&defender=2&method=mc&trials=100"
                                    "&need=0.5&vary=attacker"),
}
RAISED = {  # exception -> (status, words the message must hold)
    OddsError("attacker: 'x' is not a whole number"): (400, "attacker"),
    OverMemory(): (413, "more memory"),
    Interrupted("budget"): (503, "time budget"),
    OverDeadline("deadline"): (503, "allows one answer"),
    TooManyLong("long"): (503, "long exact answers"),
    Busy(): (503, "busy"),
    WorkerStopped("died"): (503, "busy"),
    ZeroDivisionError("a bug"): (500, "ZeroDivisionError"),
}


@pytest.fixture(scope="module")
def base():
    with running() as srv:
        yield f"http://127.0.0.1:{srv.port}"


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("error", RAISED, ids=lambda e: type(e).__name__)
def test_every_route_maps_every_exception_alike(base, route, error, monkeypatch):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(api, "call", fail)
    monkeypatch.setattr(api, "ask", fail)
    path, query = ROUTES[route]
    status, headers, body = fetch(f"{base}{path}?{query}&seed={id(error) % 1000}")
    want, words = RAISED[error]
    assert status == want, body
    assert b"Internal Server Error" not in body
    assert words in json.loads(body)["error"]
    assert (headers.get("Retry-After") is not None) == (want == 503)


def test_a_monte_carlo_answer_gets_the_servers_memory_cap_and_is_not_called_exact(base, monkeypatch):
    """A Monte Carlo run in the server's own process is held to the cap an exact worker has,
    checked before it starts (its outcome tables); over it, a 413 that does not say 'exact'."""
    monkeypatch.setattr(api, "WEB_EXACT_MEMORY", 10_000)
    status, _, body = fetch(f"{base}/api/his.field?attacker=30&defender=30&method=mc&trials=1000")
    message = json.loads(body)["error"]
    assert status == 413 and "more memory than the server allows one answer" in message
    assert "exact" not in message
    monkeypatch.undo()
    status, _, _ = fetch(f"{base}/api/his.field?attacker=30&defender=30&method=mc&trials=1000")
    assert status == 200


def test_a_monte_carlo_answer_with_no_trial_is_a_503_not_a_200(base, monkeypatch):
    """Under contention a run can be stopped before its first whole trial: that is no answer."""
    monkeypatch.setattr(api, "within", lambda budget, run: run().with_changes(trials=0, partial=True))
    status, headers, body = fetch(f"{base}/api/his.field?attacker=5&defender=4&method=mc&trials=1000")
    assert status == 503 and headers.get("Retry-After")
    assert "could not run a single trial" in json.loads(body)["error"]
