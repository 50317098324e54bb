"""Issue 48: every answer checked on every surface, switch by switch, driven by the registry.

For every procedure, every parameter and every value class (its default, its low and high
ends, each choice, the switch on, and the malformed entries `3e`, `1..`, `-0`, empty and out of
range), the command line (text and --json, in-process through `cli.main`) and the HTTP API (the
Starlette app in-process, its exact answers in threads) are asked, starting from the spec's
first example (method exact where it has an exact engine, a few trials where it has not), and
every defect kind below fails the test. One test per (procedure, parameter); CASES counts the
(procedure, parameter, value class, surface) cases visited.
"""
from __future__ import annotations

import asyncio
import functools
import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from urllib.parse import urlencode

import pytest

from odds import cli, i18n, registry
from odds.frontends.cli.common import flag
from odds.frontends.web.app import create_app
from odds.texts import LISTS

SPECS = registry.specs()
MALFORMED = ("3e", "1..", "-0", "")  # besides low - 1 and high + 1
NOT_FINITE = ("nan", "inf", "1e999")  # numbers float() takes
# text a user must never be shown: (defect kind, pattern)
DEFECTS = [("traceback", re.compile(r"Traceback \(most recent call last\)")),
           ("[object Object]", re.compile(re.escape("[object Object]"))),
           ("undefined", re.compile(r"\bundefined\b")),
           ("NaN", re.compile(r"\bnan\b", re.I)),
           ("None", re.compile(r"\bNone\b")),
           ("a Python repr", re.compile(r"<[^<>]* at 0x[0-9a-f]+>|\{'|\[\(")),
           ("a Python error", re.compile(r"\b(Type|Value|Key|Index|Attribute|ZeroDivision|Overflow)"
                                         r"Error\b|object is not|unsupported operand|"
                                         r"invalid literal for")),
           ("a negative zero", re.compile(r"(?<![\w.'\"])-0(?:\.0+)?%?(?![\w.])")),
           ]


def named(value) -> str:
    """A leader choice 'suleiman (2)' -> 'suleiman'; others as they are."""
    return value.split(" (")[0] if isinstance(value, str) else value


def classes(p: registry.Param, default) -> list[tuple[str, object, bool]]:
    """(value class, value, valid) for `p`: a valid value is a Python value, a malformed one
    the text a user types."""
    out = [] if default is registry.REQUIRED else [("default", default, True)]
    listed = p.kind in ("ints", "cards")
    if p.kind == "bool":
        return out + [("on", True, True)] + [(f"malformed {t!r}", t, False) for t in ("3e", "-0", "2")]
    if p.kind in ("int", "float", "leader", "ints"):
        for end in ("low", "high"):
            bound = getattr(p, end)
            if bound is not None:
                number = int(bound) if p.kind != "float" else bound
                out.append((end, [number] if listed else number, True))
        out += [(f"out of range {b:g}", str(int(b) if p.kind != "float" else b), False)
                for b in ((p.low - 1) if p.low is not None else None,
                          (p.high + 1) if p.high is not None else None) if b is not None]
        out += [(f"malformed {t!r}", t, False) for t in MALFORMED + NOT_FINITE]
    if p.kind in ("choice", "leader", "cards"):
        out += [(f"choice {named(c)}", [named(c)] if listed else named(c), True) for c in p.choices]
        out += [(f"malformed {t!r}", t, False) for t in ("3e", "")]
    if p.kind == "text":
        out += [(f"malformed {t!r}", t, False) for t in ("3e", "1..")]
    return out


def base(spec: registry.Spec) -> dict:
    """The first example's keywords, asked exactly or, with no exact engine, with few trials."""
    kw = dict(spec.examples[0].kwargs) if spec.examples else {}
    engine = {"method": "exact"} if spec.exact else {"method": "mc", "trials": 20, "seed": 1}
    return {**kw, **engine}


def argv(spec: registry.Spec, kw: dict, raw: dict) -> list[str]:
    """The command line for keywords `kw` and the typed texts `raw` (name -> text)."""
    params = {p.name: p for p in spec.params} | {o.name: o for o in registry.ENGINE_OPTIONS}
    out = list(spec.command)
    for name, value in kw.items():
        option = flag(params[name])
        if value is True:
            out.append(option)
        elif isinstance(value, (list, tuple)):
            out += [f"{option}={item}" for item in value]
        elif value is not False:
            out.append(f"{option}={value}")
    return out + [f"{flag(params[n])}={t}" for n, t in raw.items()]


def query(kw: dict, raw: dict) -> str:
    items = []
    for name, value in kw.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        items += [(name, Path(v).stem if name == "scenario" else
                   str(v).lower() if isinstance(v, bool) else str(v)) for v in values]
    return urlencode(items + list(raw.items()))


def run_cli(args: list[str]) -> tuple[int | str, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(args)
        except BaseException as e:  # noqa: BLE001 - a traceback is a defect to report
            code = f"raised {type(e).__name__}: {e}"
    return code, out.getvalue(), err.getvalue()


class Client:
    """GET on the app in-process (ASGI), its exact answers in threads: no worker processes,
    no lifespan, no socket."""

    def __init__(self):
        self.app = create_app(exact_processes=False)
        self.loop = asyncio.new_event_loop()

    def get(self, path: str, query: str) -> tuple[int, str]:
        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
                 "query_string": query.encode(), "headers": [], "scheme": "http",
                 "server": ("test", 80), "client": ("test", 1), "root_path": "",
                 "http_version": "1.1", "asgi": {"version": "3.0"}}
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        self.loop.run_until_complete(self.app(scope, receive, send))
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return sent[0]["status"], body.decode()


def answered_once(spec: registry.Spec):
    """`spec`'s function, each distinct question's Result computed once and shown by every
    surface (the engines are checked elsewhere: here what each surface makes of an answer)."""
    function, memo = spec.function, {}

    @functools.wraps(function)
    def once(**kwargs):
        key = json.dumps({k: v for k, v in kwargs.items() if k not in ("threads", "progress")
                          and v is not None and k != "max_trials"}, sort_keys=True, default=str)
        key += i18n.language()  # an answer's sentences are in the language it was asked in
        if key not in memo:
            memo[key] = function(**kwargs)
        return memo[key]
    return once


@pytest.fixture(scope="module")
def client():
    functions = {name: spec.function for name, spec in SPECS.items()}
    for spec in SPECS.values():
        object.__setattr__(spec, "function", answered_once(spec))  # a frozen dataclass
    c = Client()
    yield c
    c.loop.close()
    for name, spec in SPECS.items():
        object.__setattr__(spec, "function", functions[name])


def shown_defects(text: str, raw: dict) -> list[str]:
    """The defect kinds in `text`, but for the values the user typed (`raw`), quoted back."""
    for typed in filter(None, raw.values()):
        text = text.replace(typed, "")
    return [kind for kind, pattern in DEFECTS if pattern.search(text)]


def refused_in_one_line(text: str) -> bool:
    return text.count("\n") <= 1 and bool(text.strip())


def audit_cli(spec, kw, raw, valid, as_json, identifiers) -> list[str]:
    code, out, err = run_cli(argv(spec, kw, raw) + (["--json"] if as_json else []))
    found = [f"CLI {kind}" for kind in shown_defects(out + err, raw)]
    if isinstance(code, str):
        return found + [f"CLI {code}"]
    if code == 0 and not valid:
        found.append("CLI: a malformed value not refused")
    if code == 2 and not (refused_in_one_line(err) and err.startswith("odds: error:")):
        found.append(f"CLI: refusal not one line: {err!r}")
    if code not in (0, 2):
        found.append(f"CLI: exit {code}")
    if code == 2:
        found += [f"CLI: identifier {name} where the flag is meant" for name in identifiers
                  if re.search(rf"\b{name}\b", err)]
    if code == 0 and as_json:
        try:
            json.loads(out)
        except ValueError:
            found.append("CLI --json: not JSON")
    return found


def audit_api(client, spec, kw, raw, valid) -> tuple[list[str], str]:
    """(the defects of the API's answer, its error line or '')."""
    status, text = client.get(f"/api/{spec.name}", query(kw, raw))
    found = [f"API {kind}" for kind in shown_defects(text, raw)]
    if status == 200 and not valid:
        found.append("API: a malformed value not refused")
    if status not in (200, 400) and "time budget" not in text:  # too long for it: a 503
        # saying so is an honest answer
        found.append(f"API: status {status}: {text[:200]}")
    error = json.loads(text)["error"] if status == 400 else ""
    if status == 400 and not refused_in_one_line(error):
        found.append("API: refusal not one line")
    return found, error


def end_refused(p: registry.Param, label: str, error: str, field: str) -> list[str]:
    """A Param's own low or high end refused as out of range: the registry says a range the
    procedure does not take (the --help, the page's stepper and the docs would be wrong)."""
    if label in ("low", "high") and error.startswith(field) and "out of range" in error \
            and re.search(r"\(allowed: [-\d.]+ to [-\d.]+\)$", error):  # with no reason given
        return [f"the Param's {label} end ({getattr(p, label):g}) refused: {error}"]
    return []


def cases() -> list[tuple[str, str]]:
    return [(name, p.name) for name, spec in SPECS.items() for p in spec.params]


def cli_surfaces(spec: registry.Spec, valid: bool) -> tuple:
    """The command line's outputs asked (--json or not): none for a procedure with no command
    (crusades.battle: `odds crusades` takes a scenario file), the text only for a malformed
    value (refused before any output is chosen), else both."""
    return () if not spec.command else (False, True) if valid else (False,)


def case_count() -> int:
    """(procedure, parameter, value class, surface) cases: CLI text, CLI --json, API."""
    return sum(1 + len(cli_surfaces(spec, valid)) for spec in SPECS.values() for p in spec.params
               for _, _, valid in classes(p, spec.defaults()[p.name]))


def audit(client, spec: registry.Spec, name: str) -> list[str]:
    """Every defect found for one parameter of `spec`, each 'value class: what'."""
    p = spec.param(name)
    identifiers = [q.name for q in spec.params if "_" in q.name] + ["max_trials"]
    found = []
    for label, value, valid in classes(p, spec.defaults()[name]):
        kw = {k: v for k, v in base(spec).items() if k != name}
        raw = {}
        if not valid:
            raw[name] = value
        elif label != "default":
            kw[name] = value
        # an API list given empty is no item (the default): `attacker_cards=`
        empty_list = p.kind in LISTS and value == ""
        # the command line first: a slow answer is computed once, in full (answered_once)
        surfaces = [audit_cli(spec, kw, raw, valid, j, identifiers)
                    for j in cli_surfaces(spec, valid)]
        api, error = audit_api(client, spec, kw, raw, valid or empty_list)
        surfaces += [api, end_refused(p, label, error, f"{name}:")]
        found += [f"{label}: {defect}" for defects in surfaces for defect in defects]
    return found


@pytest.mark.parametrize("procedure, name", cases())
def test_every_value_on_every_surface(client, procedure, name):
    assert audit(client, SPECS[procedure], name) == []


def test_the_case_count_is_honest():
    """Every class of every parameter, on every surface a procedure has (issue 48's report:
    239 parameters of 20 procedures)."""
    assert len(cases()) == sum(len(s.params) for s in SPECS.values()) > 200
    assert case_count() > 4000


@pytest.mark.parametrize("procedure", [name for name, spec in SPECS.items() if spec.command])
def test_every_value_in_russian_has_no_english_word(procedure):
    """Issue 61: the same value classes on the command line in Russian (`--lang ru`): every
    answer and every refusal passes the catalog, no English word but the codes a user types
    and proper names (tests/russian.py)."""
    from russian import english_words

    spec, found = SPECS[procedure], []
    for p in spec.params:
        for label, value, valid in classes(p, spec.defaults()[p.name]):
            kw = {k: v for k, v in base(spec).items() if k != p.name}
            raw = {} if valid else {p.name: value}
            if valid and label != "default":
                kw[p.name] = value
            code, out, err = run_cli(["--lang", "ru", *argv(spec, kw, raw)])
            found += [f"{p.name} {label}: {line}" for line in english_words(out + err)]
            if not isinstance(code, int):
                found.append(f"{p.name} {label}: {code}")
    assert not found, "\n".join(found[:10])
