"""Every help the command line can print is printed: `odds --help`, every command group's and
every procedure's, and the parsers `odds chart` and `odds sensitivity` build per procedure.
argparse formats each action's help with `%` (a bare "95% interval" broke `odds --help`:
issue 52's review), so each is formatted here, driven by the parser and the registry."""
import argparse

import pytest

from odds import registry
from odds.frontends.cli.main import build_parser, main


def parsers(parser, path=("odds",)):
    """(command words, parser) of `parser` and every subparser under it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, path + (name,))


def test_every_parser_formats_its_help():
    found = list(parsers(build_parser()))
    assert len(found) > len(registry.specs()) + 10  # every procedure and every tool
    for path, parser in found:
        assert parser.format_help(), path


@pytest.mark.parametrize("command", ["chart", "sensitivity"])
def test_the_per_procedure_parsers_print_their_help(command, capsys):
    for name, spec in registry.specs().items():
        if command == "sensitivity" and not spec.readings:
            continue
        with pytest.raises(SystemExit) as done:
            main([command, name, "--help"])
        assert done.value.code == 0, name
        assert f"odds {command} {name}" in capsys.readouterr().out


def test_the_check_catches_a_bare_percent():
    parser = argparse.ArgumentParser(prog="odds")
    parser.add_subparsers().add_parser("x", help="with its 95% interval")
    with pytest.raises((TypeError, ValueError)):
        for _, p in parsers(parser):
            p.format_help()
