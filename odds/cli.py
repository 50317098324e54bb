"""`odds ...`: each command is a thin layer over a public Python function.

Game packages add their commands through `COMMANDS`: a list of (path, register) where
register(subparsers) adds the parsers and sets `run=callable(args) -> Result` on them.
"""
from __future__ import annotations

import sys

from .cli_common import Parser, emit, fail
from .errors import OddsError


def _modules():
    from . import serve, sweep_cli
    from .crusades import cli as crusades_cli
    from .his import cli as his_cli
    from .his import naval_cli
    from .oath import cli as oath_cli

    return [his_cli, naval_cli, oath_cli, crusades_cli, sweep_cli, serve]


def build_parser() -> Parser:
    parser = Parser(prog="odds", description="Exact and Monte Carlo odds for board-game combat.")
    games = parser.add_subparsers(dest="game", required=True, parser_class=Parser)
    demo = games.add_parser("demo", help="a real analysis of each procedure on built-in examples")
    demo.set_defaults(run=None, demo=True)
    for module in _modules():
        module.register(games)
    return parser


def demo() -> int:
    """Print a worked example of every procedure."""
    from . import demo as demos

    print("(the first run compiles the Monte Carlo kernels, about a minute; later runs take "
          "seconds)", file=sys.stderr, flush=True)
    for title, result in demos.examples():
        print(f"== {title}")
        print(result.summary())
        print(flush=True)
    return 0


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "demo", False):
            return demo()
        if getattr(args, "handler", None):
            return args.handler(args)
        result = args.run(args)
        emit(result, getattr(args, "json", False))
        if result.partial:
            print("odds: interrupted: partial result", file=sys.stderr)
        return 0
    except OddsError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        print("odds: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. `odds ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
