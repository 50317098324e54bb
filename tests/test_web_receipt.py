"""Receiving a request has a deadline, headers included (receipt.head_deadline: uvicorn's own
keep-alive timer restarts on every byte, so headers trickled a byte at a time were never cut),
and a body declared larger than its route allows is refused at once: 413, never `100
Continue`, never a wait for bytes that would be refused. The tests wait for the server's own
events (its answer, its close), never for seconds."""
import socket

import pytest

from hang import GUARD, poll
from odds.frontends.web.limits import WEB_LUCK_MAX_BODY, WEB_MAX_BODY
from web_server import running

HEAD = 0.3  # s: the head deadline the test's server keeps (the bound the cut is within)
ROUTES = {"/api/crusades.battle": WEB_MAX_BODY, "/api/luck": WEB_LUCK_MAX_BODY}


@pytest.fixture(scope="module")
def server():
    with running(head_seconds=HEAD) as srv:
        yield srv


def connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=GUARD)


def everything(conn: socket.socket) -> bytes:
    """What the server sends until it closes the connection. A close with bytes of ours still
    unread (a head cut mid-trickle) reaches us as a reset after its answer: an end as well."""
    got = b""
    try:
        while chunk := conn.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def test_headers_trickled_a_byte_at_a_time_are_cut_with_a_408(server):
    """One byte of the head every poll (far more often than uvicorn's keep-alive of 5 s, which
    each byte restarts): the server answers 408 and closes once its head deadline is past."""
    conn = connect(server)
    head = iter(b"GET /api/procedures HTTP/1.1\r\nHost: odds\r\n" + b"X-Slow: " + b"a" * 10**9)
    conn.setblocking(False)

    def cut():
        try:
            conn.send(bytes([next(head)]))
        except OSError:  # the server closed: a reset or a broken pipe
            return True
        try:
            return conn.recv(65536, socket.MSG_PEEK) != b""  # its answer
        except BlockingIOError:
            return False

    poll(cut, "the slow head cut")
    conn.setblocking(True)
    answer = everything(conn)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"connection: close" in answer
    assert b"request head: not whole in time" in answer


def test_a_connection_that_sends_nothing_is_closed(server):
    with connect(server) as conn:
        assert everything(conn).startswith(b"HTTP/1.1 408 ")


def test_a_kept_connection_gets_a_new_deadline_for_its_next_request(server):
    """A whole request is answered; the next one's half head on the same connection is cut."""
    with connect(server) as conn:
        conn.sendall(b"GET /api/procedures HTTP/1.1\r\nHost: odds\r\n\r\nGET /api/procedures HTT")
        answer = everything(conn)
    assert answer.startswith(b"HTTP/1.1 200 ") and answer.count(b"HTTP/1.1 ") == 2
    assert b"HTTP/1.1 408 " in answer


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize("expect", [False, True])
def test_a_body_declared_over_the_limit_is_refused_at_once(server, path, expect):
    """Content-Length over the route's limit: 413 before any byte of the body, with no
    `100 Continue` (the client is never invited to send it), and the connection closed."""
    most = ROUTES[path]
    with connect(server) as conn:
        conn.sendall(f"POST {path} HTTP/1.1\r\nHost: odds\r\nContent-Length: {most + 1}\r\n"
                     f"{'Expect: 100-continue' if expect else 'X-None: 0'}\r\n\r\n".encode())
        answer = everything(conn)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert b"100 Continue" not in answer and b"declared as" in answer


def test_a_huge_declared_length_is_refused_in_one_line(server):
    with connect(server) as conn:
        conn.sendall(b"POST /api/luck HTTP/1.1\r\nHost: odds\r\nContent-Length: " + b"9" * 5000
                     + b"\r\n\r\n")
        answer = everything(conn)
    assert answer.split(b"\r\n")[0] in (b"HTTP/1.1 413 Request Entity Too Large",
                                        b"HTTP/1.1 413 Content Too Large", b"HTTP/1.1 400 Bad Request")
