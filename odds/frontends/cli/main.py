"""`odds ...`: every procedure command is generated from the registry (odds.registry).

`odds GAME PROCEDURE --flags` calls the procedure's public function with the same keywords:
a Param's flag is `--name` with dashes (or its own `flag`), lists are repeated flags, and
engine flags (--method, --trials, ...) are added to each. Tools that are not procedures
(demo, sweep, plot, serve, the crusades scenario commands) register their own parsers.
Only the game or tool, or the procedure, a command names is imported and built (start-up
time); help and unknown words build them all.
"""
from __future__ import annotations

import os
import sys
from contextlib import redirect_stdout
from importlib import import_module

from ... import registry
from .common import Parser, add_engine_flags, add_param, emit, engine_kwargs, fail, given, in_flags
from ...errors import Interrupted, OddsError, check_choice
from ... import i18n
from ...i18n import _
from ...processes import COMMAND_LINE
from ...texts import printable
from . import questions as questions

TOOLS = {"demo": "demo", "warmup": "warmup", "crusades": "crusades", "sweep": "sweep",
         "plot": "sweep", "table": "sweep", "serve": "serve", "luck": "luck", "chart": "chart",
         "sensitivity": "sensitivity"}  # command -> the module of this package that registers it


def run_procedure(spec: registry.Spec, args) -> "odds.Result":  # noqa: F821
    """Call the procedure with the flags that were given; its errors name the flags."""
    try:
        return spec.call(**given(spec, args), **engine_kwargs(args))
    except OddsError as e:  # name the flags the user typed, not the Python keywords
        raise OddsError(in_flags(str(e), spec.params)) from None


def _specs(word: str | None, procedure: str | None):
    """The procedures a command builds: the one `odds word procedure` names (only its module
    is imported), else all of game `word`'s, none for a tool, every game's otherwise."""
    if word in TOOLS:
        return ()
    if word in registry.games() and procedure:
        try:
            spec = registry.get(f"{word}.{procedure.replace('-', '_')}")
        except OddsError:
            spec = None
        if spec is not None and spec.command == (word, procedure):
            return (spec,)
    return registry.specs(word if word in registry.games() else None).values()


def build_parser(word: str | None = None, procedure: str | None = None) -> Parser:
    """The command line; `word` and `procedure` (a command's first two words) build only that
    game or tool, or only that procedure, when they name one."""
    parser = Parser(prog="odds", description=_("Exact and Monte Carlo odds for board-game combat."))
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help=_(
        "the language of answers, help and errors (default: ODDS_LANG, else the locale's "
        "LC_ALL, LC_MESSAGES or LANG)"))
    games = parser.add_subparsers(dest="game", required=True, parser_class=Parser)
    groups = {}
    for spec in _specs(word, procedure):
        if not spec.command:
            continue
        game, name = spec.command
        if game not in groups:
            group = games.add_parser(game, help=_(registry.titles()[game]))
            groups[game] = group.add_subparsers(dest="procedure", required=True, parser_class=Parser)
        p = groups[game].add_parser(name, help=_(spec.help), description=_(spec.help))
        defaults = spec.defaults()
        flags = {param.name: add_param(p, param, defaults[param.name]) for param in spec.params}
        add_engine_flags(p, spec.exact)
        p.set_defaults(run=lambda args, spec=spec: run_procedure(spec, args))
        questions.add_flags(p, spec, flags)  # --compare, --need: wraps `run`
    tools = [TOOLS[word]] if word in TOOLS else () if word in registry.games() else TOOLS.values()
    for module in dict.fromkeys(tools):
        import_module(f"{__package__}.{module}").register(games)
    return parser


def main(argv=None) -> int:
    """Run one command; its exit code: 0, 2 for a mistake, 130 interrupted, 1 when its output
    could not be written (stdout full or closed; a reader that stopped, as `| head`, is fine)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    with i18n.using(i18n.from_environment()):  # the command's language: --lang sets it below
        return _main(argv)


def _main(argv: list) -> int:
    if sys.stdout is None:  # started with stdout closed (`odds ... >&-`)
        print(_("odds: error: stdout: closed (allowed: a terminal, a file or a pipe)"), file=sys.stderr)
        return 1
    COMMAND_LINE.set()  # a second Ctrl-C while a kernel compiles ends the process
    # numba, when colorama is installed, colours its error texts through colorama, whose exit
    # handler then writes a terminal reset to the stdout of that moment: ours, which shows it
    # escaped ("\x1b[0m" after a Monte Carlo answer). Its errors never reach the user as such.
    os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
    try:
        argv = _language(argv)
        with redirect_stdout(_Output(sys.stdout)):
            code = _run(argv)
            sys.stdout.flush()
        return code
    except OddsError as e:
        return fail(str(e))
    except (Interrupted, KeyboardInterrupt) as e:  # an exact answer says it was not finished
        print(_("odds: interrupted") + (f": {e}" if str(e) else ""), file=sys.stderr)
        return 130
    except BrokenPipeError:  # `odds ... | head`: the reader has what it wanted
        _discard_stdout()
        return 0
    except _OutputError as e:
        _discard_stdout()
        print(_("odds: error: stdout: cannot be written ({why})").format(why=e.strerror or e),
              file=sys.stderr)
        return 1
    finally:
        COMMAND_LINE.clear()


def _language(argv: list) -> list:
    """`--lang ru|en` (or `--lang=ru`) anywhere before a `--`, in force for the rest of the
    command and taken out of `argv`: it must be known before the parser's words are written (it
    overrides the environment)."""
    end = argv.index("--") if "--" in argv else len(argv)
    for i, word in enumerate(argv[:end]):
        if word == "--lang" or word.startswith("--lang="):
            value = word[7:] if "=" in word else argv[i + 1] if i + 1 < end else ""
            i18n.use(check_choice("--lang", value, i18n.LANGUAGES))
            return argv[:i] + argv[i + (1 if "=" in word else 2):]
    return argv


def _run(argv) -> int:
    args = build_parser(*argv[:2]).parse_args(argv)
    if getattr(args, "handler", None):
        return args.handler(args)
    result = args.run(args)
    emit(result, getattr(args, "json", False))
    if result.partial:
        print(_("odds: interrupted: partial result"), file=sys.stderr)
        return 130
    return 0


class _OutputError(OSError):
    """Writing stdout failed (a full disk, a closed descriptor), as opposed to another OSError."""


class _Output:
    """stdout for one command: control characters written as escapes (texts.printable: a name
    from another player's file cannot drive the terminal); a failed write raises _OutputError
    (a reader that stopped, BrokenPipeError, stays itself); everything else is the stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._guard(self._stream.write, printable(text, lines=True))

    def flush(self):
        return self._guard(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)

    @staticmethod
    def _guard(action, *args):
        try:
            return action(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(e.errno, e.strerror) from None


def _discard_stdout():
    """Point stdout at /dev/null, so the interpreter's last flush at exit cannot fail again
    (the recipe of Python's documentation, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
