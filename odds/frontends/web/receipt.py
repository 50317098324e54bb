"""A deadline on every request's head (its request line and headers), like Go's
ReadHeaderTimeout or nginx's client_header_timeout: uvicorn has none (its keep-alive timer
restarts on every byte, so headers sent a byte a second hold a connection for ever).

`head_deadline(seconds)` is uvicorn's h11 protocol with a timer: armed when a connection
opens and when the first byte of a next request arrives (or is found kept after an answer), cancelled when the head is whole.
When it fires first, the client gets a 408 and the connection is closed. A request's body
has its own deadline in the app (limits.body: WEB_BODY_SECONDS); WEB_HEAD_SECONDS is the
server's head deadline.

A connection closed while its client is still sending a body (a 413 answered on the declared
length) is closed as nginx's lingering close does: our side is shut, what still arrives is
read and dropped for at most LINGER seconds, then it is closed. Closed at once, the unread
bytes would make the kernel reset it, and the client would see a reset, not the 413.
"""
from __future__ import annotations

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

LINGER = 2.0  # s a closed connection's late body bytes are read and dropped
CUT = b"request head: not whole in time (allowed: the request line and headers within the server's deadline)"


def head_deadline(seconds: float) -> type:
    """uvicorn's H11Protocol whose connections are cut (408, closed) when a request's head is
    not whole `seconds` after the connection opened or the request's first byte arrived."""

    class HeadDeadline(H11Protocol):
        timer = None

        def connection_made(self, transport):
            super().connection_made(Lingering(transport, self))
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self.transport.lingering:
                return  # a body after its answer: dropped
            if self.timer is None and self.conn.their_state is h11.IDLE:
                self._arm()  # a next request on a kept connection: its first byte
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.timer is None and self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
                self._arm()  # a next request's first bytes came with the last one's

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

        def _arm(self):
            self.timer = self.loop.call_later(seconds, self._cut)

        def _disarm(self):
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

        def _cut(self):
            self.timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if self.conn.our_state is h11.IDLE:  # nothing sent on this request yet
                self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; "
                                     b"charset=utf-8\r\nconnection: close\r\ncontent-length: "
                                     + str(len(CUT)).encode() + b"\r\n\r\n" + CUT)
            self.transport.close()

    return HeadDeadline


class Lingering:
    """A transport whose close() lingers (LINGER) while its client is still sending a body."""

    def __init__(self, transport, protocol):
        self._transport, self._protocol, self.lingering = transport, protocol, False

    def __getattr__(self, name):
        return getattr(self._transport, name)

    def close(self):
        if self.lingering or self._protocol.conn.their_state is not h11.SEND_BODY \
                or not self._transport.can_write_eof():
            return self._transport.close()
        self.lingering = True
        self._transport.write_eof()
        self._protocol.loop.call_later(LINGER, self._transport.close)
