"""`odds serve`: the web calculator (odds.frontends.web) on a local port, or shared with --host 0.0.0.0."""
from __future__ import annotations

import sys

from .common import whole
from ...errors import OddsError
from ...processes import quit_now
from ...i18n import _


def _check_free(host: str, port: int):
    """One line instead of uvicorn's log when the address cannot be listened on."""
    import socket

    try:
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(address)
    except OSError as e:
        raise OddsError(f"--host/--port: cannot listen on {host}:{port} ({e.strerror or e})") from None


def run(args):
    if not 1 <= args.port <= 65535:
        raise OddsError(f"--port: {args.port} is out of range (allowed: 1 to 65535)")
    _check_free(args.host, args.port)
    import threading

    import numba  # noqa: F401  (imported here, once: two threads importing it at once break it)

    from .warmup import warm
    from ..web.app import server

    print(f"odds calculator on http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    # the Monte Carlo kernels load (or compile, once) while the first visitors ask exact questions
    warming = threading.Thread(target=warm, args=(False, False), name="odds-warmup", daemon=True)
    warming.start()
    try:
        server(args.host, args.port).run()
    except KeyboardInterrupt:
        if warming.is_alive():  # numba compiling in it must not meet the interpreter's exit
            print("odds: interrupted", file=sys.stderr)
            quit_now(130)
        raise
    return 0


def register(games):
    serve = games.add_parser("serve", help=_("the calculator as a web page and an HTTP API"))
    serve.add_argument("--host", default="127.0.0.1", help=_("127.0.0.1 (default) or 0.0.0.0 to share it"))
    serve.add_argument("--port", type=whole, default=8866, help=_("the port (default 8866)"))
    serve.set_defaults(handler=run)
