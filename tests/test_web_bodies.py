"""Request bodies on a real server: parsed off the event loop (a small question is answered while
a large body is held in its parse), cut with a 408 when they stop arriving, a client that
leaves mid-body one quiet log line; and the luck route's bounds (its size, its rolls, its
whole-request budget, its words, its method). Slow parses and scores are held ones
(held.Hold), so each test waits for events and asserts order and outcome, never seconds."""
import asyncio
import http.client
import json
import logging
import socket
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from hang import GUARD, poll
from held import Hold, alive, holding_bodies
from odds import Interrupted
from odds.frontends.web.limits import (WEB_LUCK_BUDGET, WEB_LUCK_MAX_BODY, WEB_LUCK_MAX_ROLLS,
                                       WEB_MAX_BODY)
from odds.frontends.web import luck
from web_server import running

SMALL = "/api/his.field?attacker=3&defender=2"
ROUTES = {"procedure": ("/api/crusades.battle", WEB_MAX_BODY),  # a route taking a body, its most
          "luck": ("/api/luck", WEB_LUCK_MAX_BODY)}


@pytest.fixture(scope="module")
def server():
    with running() as srv:
        yield srv


def request(server, path, body=None, method=None):
    """(status, headers, JSON) of a request (a body: POST)."""
    url = f"http://127.0.0.1:{server.port}{path}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method),
                                    timeout=GUARD) as r:
            return r.status, r.headers, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read()
        return e.code, e.headers, json.loads(text) if e.headers["content-type"] == "application/json" else text


def posting(server, path, length: int, sent: bytes) -> socket.socket:
    """A connection that has sent the headers of a POST of `length` bytes and `sent` of them."""
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=GUARD)
    conn.sendall(f"POST {path} HTTP/1.1\r\nHost: odds\r\nContent-Length: {length}\r\n"
                 "Content-Type: text/plain\r\n\r\n".encode() + sent)
    return conn


def received(conn: socket.socket):
    """(status, headers, JSON, closed): the answer on a raw connection, and whether the server
    closed the connection after it."""
    answer = http.client.HTTPResponse(conn)
    answer.begin()
    body = json.loads(answer.read())
    return answer.status, answer.headers, body, conn.recv(1) == b""


@pytest.mark.parametrize("route", ROUTES)
def test_a_small_question_is_answered_while_a_large_body_is_parsed(tmp_path, monkeypatch, route):
    """The parse of a body (here held in it: 64 KiB of newlines took minutes on the event loop)
    runs in an exact worker, so the event loop answers others meanwhile."""
    hold = holding_bodies(monkeypatch, tmp_path / "held")
    path, most = ROUTES[route]
    with running() as server, ThreadPoolExecutor(1) as pool:
        large = pool.submit(request, server, path, b"[]\n" * (most // 3))  # quick to refuse
        hold.wait_started(1)
        small = request(server, SMALL)
        during = large.done()
        hold.release()
        status, _, answer = large.result()
    assert small[0] == 200 and small[2]["method"] == "exact"
    assert during is False and status == 400  # answered after the small one, refused: no
    # battle; no record (its first line is no CSV header: never counted as rolls, issue 59)


def test_a_body_whose_parse_runs_over_its_bound_is_a_413_and_frees_its_worker(
        tmp_path, monkeypatch):
    hold = holding_bodies(monkeypatch, tmp_path / "held")  # never let go
    with running(deadline=GUARD, parse_seconds=0.5) as server:
        status, _, answer = request(server, "/api/crusades.battle", b"[]\n" * 100)
        small = request(server, SMALL)
        [parser] = hold.pids()
        poll(lambda: not alive(parser), "the end of the worker stopped in its parse")
    assert (status, small[0]) == (413, 200)
    assert answer["error"] == ("body: its parse takes over 0.5 s (allowed: a scenario the "
                               "server parses within 0.5 s)")


@pytest.mark.parametrize("route", ROUTES)
def test_a_body_that_stops_arriving_is_cut_with_a_408_and_its_connection_closed(route):
    path, _ = ROUTES[route]
    with running(body_seconds=0.5) as server, \
            posting(server, path, 2000, b"[" * 1000) as conn:  # and the rest never
        status, headers, answer, closed = received(conn)
    assert (status, headers["Connection"], closed) == (408, "close", True)
    assert answer["error"] == ("body: not whole after 0.5 s (1,000 bytes arrived; allowed: "
                               "the whole body within 0.5 s)")


@pytest.mark.parametrize("route", ROUTES)
def test_a_client_that_leaves_mid_body_is_one_quiet_log_line(server, caplog, route):
    """Not a traceback at ERROR and a 500 (any client could fill the log)."""
    caplog.set_level(logging.INFO, logger="odds.frontends.web")
    path, _ = ROUTES[route]
    posting(server, path, 2000, b"x" * 10).close()
    said = poll(lambda: [r for r in caplog.records if r.name == "odds.frontends.web"],
                "the server's line on the client that left")
    assert [(r.levelno, r.exc_info, r.getMessage()) for r in said] == [(
        logging.INFO, None, f"{path[5:]}: the client left before its request's body arrived")]


def methods(route) -> set:
    """The methods a route answers: a function's as declared, an endpoint class's those it has."""
    return getattr(route, "methods", None) or {
        m.upper() for m in ("get", "post", "put") if hasattr(getattr(route, "endpoint", None), m)}


def taking_a_body(app) -> list:
    """The paths of the app's routes that take a body (POST), a procedure taking a scenario
    body in place of each parameter."""
    return [route.path_format.format(**dict.fromkeys(route.param_convertors, "crusades.battle"))
            for route in app.routes if "POST" in methods(route)]


MOST = {"/api/luck": WEB_LUCK_MAX_BODY}  # a route's bytes of body, where not WEB_MAX_BODY


def refused(server, path, data: bytes) -> tuple:
    """(status, Connection, closed, error) of a POST of `data` on a keep-alive connection: whole,
    so that a server closing after its answer loses no byte of it (a body cut short: a reset)."""
    with posting(server, path, len(data), data) as conn:
        status, headers, answer, closed = received(conn)
    return status, headers["Connection"], closed, answer["error"]


def test_every_route_taking_a_body_refuses_one_byte_over_its_limit_with_a_413(server):
    """At once, on its declared length (limits.body): one line naming the limit, the
    connection closed after the answer is read, not reset (receipt.Lingering)."""
    paths = taking_a_body(server.app)
    assert {"/api/luck", "/api/crusades.battle"} <= set(paths)
    for path in paths:
        most = MOST.get(path, WEB_MAX_BODY)
        assert refused(server, path, b"x" * (most + 1)) == (
            413, "close", True, f"body: declared as {most + 1:,} bytes (allowed: up to {most:,})"), path


def test_the_luck_route_refuses_more_rolls_than_its_limit_with_a_413_before_scoring_them(server):
    """A body over a limit of its own is a 413 as on every route (it was a 400)."""
    rows = "procedure,keywords,side,winner\n" + (  # each a roll odds luck scores
        "his.field,attacker=2 defender=2,Ottoman,attacker\n" * (WEB_LUCK_MAX_ROLLS + 1))
    assert refused(server, "/api/luck", rows.encode()) == (
        413, "close", True, f"record: {WEB_LUCK_MAX_ROLLS + 1:,} rolls (allowed: at most "
        f"{WEB_LUCK_MAX_ROLLS:,} on the web; odds luck FILE on your own machine takes more)")


def test_a_get_of_the_luck_route_is_a_405_as_on_every_route(server):
    status, headers, _ = request(server, "/api/luck")
    assert (status, headers["Allow"]) == (405, "POST")
    status, headers, _ = request(server, "/api/luck", method="DELETE")
    assert (status, headers["Allow"]) == (405, "POST")
    assert request(server, "/api/his.field", method="DELETE")[0] == 405  # Starlette's, elsewhere


def interrupted(*args):
    """A luck report stopped at an exact engine's checkpoint (runs in a worker)."""
    raise Interrupted("the time budget is spent")


def test_the_luck_routes_503_names_its_own_budget_and_what_is_allowed(server, monkeypatch):
    monkeypatch.setattr(luck, "report", interrupted)
    status, headers, answer = request(server, "/api/luck", b"x")
    assert (status, headers["Retry-After"]) == (503, "2")
    assert answer["error"] == (f"luck: the exact answer takes longer than the server's time budget "
                               f"({WEB_LUCK_BUDGET:g} s; allowed: fewer rolls, or odds luck FILE "
                               "on your own machine)")


def test_the_luck_budget_bounds_the_whole_request_not_only_its_exact_engines(tmp_path, monkeypatch):
    """A report held outside any exact engine (reading, summing) is stopped at the luck budget,
    not run on to the exact workers' deadline."""
    hold = Hold(tmp_path / "held")
    monkeypatch.setattr(luck, "report", hold)  # never let go
    with running(deadline=GUARD, luck_budget=1.0) as server:
        status, _, answer = request(server, "/api/luck", b"x")
    assert hold.started() == 1 and status == 503
    assert answer["error"] == ("luck: the exact answer takes longer than the server allows one "
                               "answer (1 s; allowed: fewer rolls, or odds luck FILE on your own machine)")


def loaded(names) -> list:
    """The modules of `names` already imported (runs in a worker)."""
    import sys

    return [name for name in names if name in sys.modules]


def test_workers_import_what_luck_and_the_questions_need_before_they_say_they_started():
    """Import time is not a call's work: a fresh worker is not counted long (or busy) for it."""
    names = ["odds.frontends.web.luck", "odds.tools.luck.report", "odds.tools.luck.record",
             "odds.tools.questions.compare", "odds.tools.questions.need"]
    with running() as server:  # its workers started, none has answered anything
        workers = server.app.state.exact.pool
        fresh = asyncio.run_coroutine_threadsafe(workers.run(loaded, names), workers.loop)
        assert fresh.result(GUARD) == names
