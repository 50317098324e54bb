"""Tests patch only this project's objects. At run time the suite's monkeypatch refuses a
library's object (patching.OwnPatch); here every test module's source is read too, so a patch
in a test that is skipped on this machine, a patcher that bypasses the fixture, or an app's
state assigned by hand is found before a new release of a library breaks it."""
import ast
import importlib
import sys
from pathlib import Path

import numba
import pytest
import tempfile

import patching
from odds.core import engine
from odds.frontends.web.app import create_app

TESTS = Path(__file__).parent
PATCHERS = {"monkeypatch", "patch", "mp"}  # the names a test gives pytest's MonkeyPatch
BYPASSES = {"MonkeyPatch", "mock"}  # patchers the suite's fixture does not guard
REACHING = {"state", "config"}  # a library's container reached through an app or a server


def imports(tree) -> dict:
    """Each name a module binds by an import, anywhere in it: the dotted path it names."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def chain(node) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None for any other expression."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return [node.id, *parts] if isinstance(node, ast.Name) else None


def patched(target, imported: dict):
    """The object a patch's target names, or None where the source alone cannot tell (a fixture,
    a local name): the run-time guard checks those."""
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return patching.resolved(target.value.rsplit(".", 1)[0])
    parts = chain(target)
    if not parts or parts[0] not in imported:
        return None
    obj = patching.resolved(imported[parts[0]])
    for name in parts[1:]:
        obj = getattr(obj, name)
    return obj


def bypass(node) -> str | None:
    """The name of a patcher the suite's fixture does not guard, used or imported at `node`."""
    if isinstance(node, ast.Attribute) and node.attr in BYPASSES:
        return node.attr
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        names = [getattr(node, "module", None) or "", *(a.name for a in node.names)]
        return next((n for n in names if BYPASSES & set(n.split("."))), None)
    return None


def found(source: str) -> list[str]:
    """The places in a test module's source that patch what is not ours: each 'line N: why'."""
    tree = ast.parse(source)
    imported, out = imports(tree), []
    for node in ast.walk(tree):
        why = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("setattr", "delattr") and node.args and \
                isinstance(node.func.value, ast.Name) and node.func.value.id in PATCHERS:
            parts = chain(node.args[0]) or []
            if REACHING & set(parts[1:]):
                why = f"{'.'.join(parts)}: a library's container reached through an app or server"
            else:
                target = patched(node.args[0], imported)
                name = text.rsplit(".", 1)[-1] if isinstance(text := getattr(
                    node.args[0], "value", None), str) else getattr(node.args[1], "value", "?")
                why = None if target is None else patching.refusal(target, name)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            reached = [".".join(p) for p in map(chain, targets)
                       if p and len(p) > 2 and "state" in p[1:-1]]
            why = reached and f"{reached[0]}: an app's state assigned by hand (use create_app's settings)"
        elif bypass(node):
            why = f"{bypass(node)}: a patcher the suite's monkeypatch does not guard"
        if why:
            out.append(f"line {node.lineno}: {why}")
    return sorted(set(out), key=lambda line: int(line.split(":")[0][5:]))


@pytest.mark.parametrize("path", sorted(p.name for p in TESTS.glob("*.py")
                                        if p.name != "patching.py"))
def test_no_test_patches_what_is_not_ours(path):
    assert found((TESTS / path).read_text()) == []


TODAY = '''
def test_a_body(server, monkeypatch, route):
    monkeypatch.setattr(server.config.app.state, "body_seconds", 0.5)

def test_a_parse(server):
    server.config.app.state.parse_seconds = 0.5
'''


@pytest.mark.parametrize("source, why", [
    (TODAY, ["line 3: server.config.app.state: a library's container reached through an app or server",
             "line 6: server.config.app.state.parse_seconds: an app's state assigned by hand "
             "(use create_app's settings)"]),
    ("import numba\ndef t(monkeypatch):\n    monkeypatch.setattr(numba, '__version__', '9')\n",
     ["line 3: monkeypatch of __version__ on numba's module: not this project's object (patch a "
      "name of odds or of a test module; give the app or function the setting the test needs)"]),
    ("from odds.core import kernel_cache\ndef t(monkeypatch):\n"
     "    monkeypatch.setattr(kernel_cache.tempfile, 'mkdtemp', None)\n",
     ["line 3: monkeypatch of mkdtemp on tempfile's module: not this project's object (patch a "
      "name of odds or of a test module; give the app or function the setting the test needs)"]),
    ("def t(monkeypatch):\n    monkeypatch.setattr('numba.core.event.register', None)\n",
     ["line 2: monkeypatch of register on numba.core.event's module: not this project's object "
      "(patch a name of odds or of a test module; give the app or function the setting the "
      "test needs)"]),
    ("import pytest\ndef t():\n    with pytest.MonkeyPatch.context() as m:\n        pass\n",
     ["line 3: MonkeyPatch: a patcher the suite's monkeypatch does not guard"]),
    ("from unittest import mock\n", ["line 1: mock: a patcher the suite's monkeypatch does not guard"]),
    ("from odds.core import engine\ndef t(monkeypatch):\n"
     "    monkeypatch.setattr(engine, 'MAX_EXACT_WORK', 10)\n", []),
    ("def t(monkeypatch, hold):\n    monkeypatch.setattr(hold, 'x', 1)\n", []),  # run time's
])
def test_the_reading_finds_each_kind_of_patch_that_is_not_ours(source, why):
    assert found(source) == why


@pytest.mark.parametrize("target", [create_app().state, numba, tempfile,
                                    importlib.import_module("starlette.applications").Starlette])
def test_the_suites_monkeypatch_refuses_a_librarys_object_at_run_time(monkeypatch, target):
    """Where the source alone cannot tell (a fixture's server): the patch itself is refused."""
    with pytest.raises(pytest.fail.Exception, match="not this project's object"):
        monkeypatch.setattr(target, "body_seconds", 0.5, raising=False)
    with pytest.raises(pytest.fail.Exception, match="not this project's object"):
        monkeypatch.delattr(target, "body_seconds", raising=False)


def test_the_suites_monkeypatch_takes_our_modules_and_objects(monkeypatch):
    monkeypatch.setattr(engine, "MAX_EXACT_WORK", 10)
    monkeypatch.setattr("odds.core.engine.MAX_EXACT_WORK", 11)
    monkeypatch.setattr(patching, "TESTS", TESTS)
    monkeypatch.setattr(sys.modules[__name__], "PATCHERS", set())
    assert engine.MAX_EXACT_WORK == 11 and PATCHERS == set()
