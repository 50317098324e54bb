"""Argument helpers shared by every command: engine flags, force flags, one-line errors."""
from __future__ import annotations

import argparse
import json
import sys

from .errors import OddsError


def whole(text: str) -> int:
    """argparse type: a whole number, also written 1_000_000 or 1e6 (argparse adds the field)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not value.is_integer():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(value)


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def add_engine_flags(p: argparse.ArgumentParser, exact: bool = True):
    """--method, --trials, --seed, --precision, --max-trials, --threads, --json."""
    p.add_argument("--method", default="auto", help="auto (exact when available), exact or mc")
    p.add_argument("--trials", type=whole, help="Monte Carlo trials (default 1,000,000)")
    p.add_argument("--seed", type=whole, help="Monte Carlo seed (default 0)")
    p.add_argument("--precision", type=number,
                   help="Monte Carlo: run until the 95%% half-width of the main probability is below this")
    p.add_argument("--max-trials", type=whole, default=10**9, help="bound for --precision")
    p.add_argument("--threads", type=whole, help="threads for Monte Carlo (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def engine_kwargs(args) -> dict:
    return {"method": args.method, "trials": args.trials, "seed": args.seed,
            "precision": args.precision, "max_trials": args.max_trials, "threads": args.threads}


def emit(result, as_json: bool):
    """Print a Result as JSON or as its text summary."""
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print(result.summary())


def fail(message: str) -> int:
    print(f"odds: error: {message}", file=sys.stderr)
    return 2


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake as one line and exit code 2."""

    def error(self, message):  # the sub-command's words, when there are any after `odds`
        raise OddsError(f"{self.prog}: {message}" if " " in self.prog else message)

    def print_help(self, file=None):
        """Help on stdout; unlike argparse's, a failed write (a full disk) is not ignored."""
        (file or sys.stdout).write(self.format_help())
