"""Argument helpers shared by every command: engine flags, force flags, one-line errors."""
from __future__ import annotations

import argparse
import json
import sys

from .errors import OddsError
from .registry import ENGINE_OPTIONS


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
    """--method, --trials, --seed, --precision, --max-trials, --threads (registry.ENGINE_OPTIONS;
    a progress bar shows on a terminal), --json."""
    types = {"int": whole, "float": number}
    for option in ENGINE_OPTIONS:
        if option.kind != "bool":
            p.add_argument("--" + option.name.replace("_", "-"), type=types.get(option.kind),
                           help=option.help.replace("%", "%%"), **option.cli)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def engine_kwargs(args) -> dict:
    return {o.name: getattr(args, o.name) for o in ENGINE_OPTIONS if o.kind != "bool"}


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
