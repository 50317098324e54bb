"""Argument helpers shared by every command: engine flags, force flags, one-line errors."""
from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap

from ...errors import OddsError, nearest
from ...i18n import N_, _
from ...registry import ENGINE_OPTIONS, REQUIRED, Param, Spec
from ...texts import number_or_why, printable, whole_or_why


def whole(text: str) -> int:
    """argparse type: a whole number, also written 1_000_000 or 1e6 (argparse adds the field;
    texts.whole_or_why: not -0, nor more than texts.DIGITS digits)."""
    value, why = whole_or_why(text, floats=True)
    if why:
        raise argparse.ArgumentTypeError(why)
    return value


def number(text: str) -> float:
    """argparse type: a finite number, not -0 (texts.number_or_why)."""
    value, why = number_or_why(text)
    if why:
        raise argparse.ArgumentTypeError(why)
    return value


class Once(argparse.Action):
    """A flag that takes one value (or none: a switch), refused in one line when given twice:
    the command line keeps no silent last value (the web refuses the same)."""

    def __init__(self, option_strings, dest, switch=False, **kwargs):
        if switch:
            kwargs.update(nargs=0, default=False)
        super().__init__(option_strings, dest, **kwargs)
        self.switch = switch

    def __call__(self, parser, namespace, values, option_string=None):
        seen = getattr(namespace, GIVEN, None)
        if seen is None:
            seen = set()
            setattr(namespace, GIVEN, seen)
        if self.dest in seen:
            raise OddsError(_("{flag}: given twice (allowed: once)").format(flag=self.option_strings[0]))
        seen.add(self.dest)
        setattr(namespace, self.dest, True if self.switch else values)


GIVEN = "_given_once"  # the namespace's set of the Once flags given


def add_engine_flags(p: argparse.ArgumentParser, exact: bool = True):
    """--method, --trials, --seed, --precision, --max-trials, --threads (registry.ENGINE_OPTIONS;
    a progress bar shows on a terminal), --json; each once."""
    types = {"int": whole, "float": number}
    for option in ENGINE_OPTIONS:
        if option.kind != "bool":
            p.add_argument("--" + option.name.replace("_", "-"), type=types.get(option.kind),
                           help=_(option.help).replace("%", "%%"), action=Once, **option.cli)
    p.add_argument("--json", action=Once, switch=True, help=_("print one JSON object"))


class Lines(str):
    """Lines of a help's epilog kept as written: commands, a record's fields (no catalog's)."""


def epilog(*parts) -> str:
    """A tool's epilog in the language in force, its parts one after the other: each message
    (marked N_) translated, a paragraph wrapped, one written in lines kept in them; each Lines
    kept as written."""
    return "\n".join(p if isinstance(p, Lines) else _(p) if "\n" in p else textwrap.fill(_(p), 90)
                     for p in parts)


def engine_kwargs(args) -> dict:
    return {o.name: getattr(args, o.name) for o in ENGINE_OPTIONS if o.kind != "bool"}


def emit(result, as_json: bool):
    """Print a Result as JSON or as its text summary."""
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print(result.summary())


ENGINE = ("method", "trials", "seed", "precision", "max_trials", "threads")


def flag(param) -> str:
    """A Param's command-line flag: `--name` with dashes, or its own `flag`."""
    return "--" + param.option


_TYPES = {"int": whole, "ints": whole, "float": number}


def add_param(p: argparse.ArgumentParser, param: Param, default):
    """One flag for `param` (`default` from the function's signature); returns its Action. A
    list is a repeated flag; any other flag is given once (Once)."""
    kw = dict(dest=param.name, help=_help(param, default), metavar=param.metavar, action=Once)
    if param.kind == "bool":
        return p.add_argument(flag(param), action=Once, switch=True, help=kw["help"], dest=param.name)
    if param.kind in ("cards", "ints", "pairs"):
        kw.update(action="append", default=[])
    if param.kind in _TYPES:
        kw["type"] = _TYPES[param.kind]
    return p.add_argument(flag(param), **kw, **param.cli)


def _help(param, default) -> str:
    """The flag's help; a required one says so (Spec.call refuses it missing, in the same
    line for the command line, Python, sweeps and the web)."""
    text = _(param.help) + (_(" (required)") if default is REQUIRED else "")
    if param.needs:
        text += _(" (only with {flags})").format(
            flags=_(" or ").join('--' + n.replace('_', '-') for n in param.needs))
    if param.kind == "choice":
        text += _(" ({choices}; default {default})").format(
            choices=", ".join(param.choices), default=default)
    return (text + param.allowed()).replace("%", "%%")


JOINS = ("and", "or")  # words that join fields in an error's head


def in_flags(message: str, params) -> str:
    """An error message from a procedure in the command line's words: the keywords it names
    (the field before the first ': ' when it is made of them, `name=value` and snake_case
    names after it) written as the flags of `params` and the engine flags; other words kept."""
    flags = {p.name: flag(p) for p in params} | {n: "--" + n.replace("_", "-") for n in ENGINE}
    head, sep, body = message.partition(": ")
    if not sep:
        head, body = "", message
    if all(word in flags or word in JOINS for word in re.findall(r"[a-z][a-z_]*", head)):  # a
        # field or fields ('cavalry and against_cavalry'), not prose
        head = re.sub(r"[a-z][a-z_]*", lambda m: flags.get(m[0], m[0]), head)

    def assignment(m):
        name, value = m[1], m[3]
        if name not in flags:
            return m[0]
        return flags[name] if value == "True" else f"no {flags[name]}" if value == "False" \
            else f"{flags[name]} {value}"

    body = re.sub(r"\b([a-z][a-z_]*)=('?)([^',;)\s]*)\2", assignment, body)
    body = re.sub(r"\b[a-z]+(?:_[a-z]+)+\b", lambda m: flags.get(m[0], m[0]), body)
    body = re.sub(r"\b(without|give|leave|без|задать и|не задавать) ([a-z_]+(?: (?:or|или) [a-z_]+)*)",
                  lambda m: m[1] + " " + re.sub(
        r"[a-z_]+", lambda w: flags.get(w[0], w[0]), m[2]), body)  # Spec.check_given's needs (in
    # English or Russian)
    return head + sep + body


def fail(message: str) -> int:
    """The error line on stderr, its control characters escaped (one line, whatever it quotes)."""
    print(_("odds: error: {message}").format(message=printable(message)), file=sys.stderr)
    return 2


# argparse's own words that reach a user (Python's argparse msgids, translated in our catalog:
# argparse asks the process's global gettext domain, which odds leaves alone)
ARGPARSE = (N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
            N_("argument %(argument_name)s: %(message)s"),
            N_("invalid choice: %(value)r (choose from %(choices)s)"),
            N_("invalid %(type)s value: %(value)r"), N_("expected one argument"),
            N_("expected at least one argument"), N_("expected at most one argument"),
            N_("ambiguous option: %(option)s could match %(matches)s"),
            N_("one of the arguments %s is required"), N_("not allowed with argument %s"),
            N_("ignored explicit argument %r"))
_FIELD = re.compile(r"%(?:\((\w+)\))?[sr]")


def _fields(message: str, template: str) -> list | None:
    """The values of `template`'s fields in `message` (each at least one character, each up to
    the first place the next text follows), or None where `message` is not of it."""
    split = _FIELD.split(template)
    texts = split[::2]
    if len(texts) == 1:
        return [] if message == template else None
    if not message.startswith(texts[0]) or not message.endswith(texts[-1]):
        return None
    end, at, values = len(message) - len(texts[-1]), len(texts[0]), []
    for text in texts[1:-1]:
        found = message.find(text, at + 1)
        if found < 0:
            return None
        values.append(message[at:found])
        at = found + len(text)
    if end <= at:
        return None
    return values + [message[at:end]]


def argparse_words(message: str) -> str:
    """An argparse message in the language in force (its fields kept; an argument's message,
    itself argparse's, translated too)."""
    for template in ARGPARSE:
        values = _fields(message, template)
        if values is not None:
            names = _FIELD.split(template)[1::2]
            if names and names[-1] == "message":
                values[-1] = argparse_words(values[-1])
            if all(names):
                fields = dict(zip(names, values))
                return _FIELD.sub(lambda f: fields[f[1]], _(template))
            return _FIELD.sub(lambda f, v=iter(values): next(v), _(template))
    return message


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake as one line and exit code 2, in the language in
    force (its titles, its usage line, its errors: argparse_words)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")

    def error(self, message):  # the sub-command's words, when there are any after `odds`
        meant = _meant(message)  # read from argparse's own words
        message = argparse_words(message)
        raise OddsError((f"{self.prog}: {message}" if " " in self.prog else message) + meant)

    def format_usage(self):
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups,
                            _("usage: "))
        return formatter.format_help()

    def format_help(self):
        """argparse's help, its usage line's prefix in the language in force."""
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups,
                            _("usage: "))
        formatter.add_text(self.description)
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()

    def print_help(self, file=None):
        """Help on stdout; unlike argparse's, a failed write (a full disk) is not ignored."""
        (file or sys.stdout).write(self.format_help())


def _meant(message: str) -> str:
    """"; did you mean 'field'?" after argparse's "invalid choice: 'feild' (choose from ...)"."""
    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    return nearest(m[1], re.findall(r"'([^']*)'", m[2])) if m else ""


def given(spec: Spec, args) -> dict:
    """The procedure's keywords whose flags were given (absent ones keep their defaults: a
    switch not typed is not given, so a setting true by default stays true)."""
    typed = getattr(args, GIVEN, None) or set()
    kwargs = {p.name: getattr(args, p.name) for p in spec.params
              if p.kind != "bool" or p.name in typed}
    return {k: v for k, v in kwargs.items() if v is not None}
