"""`odds serve`: the web calculator (odds.web) on a local port, or shared with --host 0.0.0.0."""
from __future__ import annotations

from .cli_common import whole
from .errors import OddsError


def run(args):
    if not 1 <= args.port <= 65535:
        raise OddsError(f"--port: {args.port} is out of range (allowed: 1 to 65535)")
    from .web.app import server

    print(f"odds calculator on http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    server(args.host, args.port).run()
    return 0


def register(games):
    serve = games.add_parser("serve", help="the calculator as a web page and an HTTP API")
    serve.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (default) or 0.0.0.0 to share it")
    serve.add_argument("--port", type=whole, default=8866)
    serve.set_defaults(handler=run)
