"""The suite's monkeypatch: it patches only what this project owns (an `odds` module, class or
object, or a test module's), never a library's object (a Starlette State, numba, the standard
library). A library's internals change with any release: pytest 9.2 undid a patch of
Starlette's State by deleting the attribute, and every later request of that server failed.
Give our own functions and apps the settings a test needs instead (create_app's keywords)."""
import importlib
import inspect
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


def owner(target) -> str:
    """The name of the module that defines `target`: a module's own, a class's or function's
    module, an instance's class's module."""
    if inspect.ismodule(target):
        return target.__name__
    if inspect.isclass(target) or inspect.isroutine(target):
        return getattr(target, "__module__", None) or ""
    return type(target).__module__


def ours(target) -> bool:
    """Whether `target` belongs to this project: odds or a module of the tests' folder."""
    name = owner(target)
    if name == "odds" or name.startswith("odds."):
        return True
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    return path is not None and Path(path).resolve().parent == TESTS.resolve()


def resolved(dotted: str):
    """The object a dotted path names: its longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            target = getattr(target, name)
        return target
    raise ImportError(f"{dotted}: no module of it imports")


def refusal(target, name: str) -> str | None:
    """Why patching `name` of `target` is refused (None: it is ours)."""
    if ours(target):
        return None
    kind = "module" if inspect.ismodule(target) else f"{type(target).__name__} object"
    return (f"monkeypatch of {name} on {owner(target)}'s {kind}: not this project's object "
            "(patch a name of odds or of a test module; give the app or function the setting "
            "the test needs)")


class OwnPatch(pytest.MonkeyPatch):
    """pytest's MonkeyPatch, refusing a target that is not ours (setattr, delattr); a dotted
    string names its holder and attribute as pytest's does."""

    def setattr(self, target, name, *value, **options):
        self._check(*(target.rsplit(".", 1) if isinstance(target, str) and not value
                      else (target, name)))
        return super().setattr(target, name, *value, **options)

    def delattr(self, target, *name, **options):
        self._check(*(target.rsplit(".", 1) if isinstance(target, str) and not name
                      else (target, *name)))
        return super().delattr(target, *name, **options)

    @staticmethod
    def _check(target, name):
        why = refusal(resolved(target) if isinstance(target, str) else target, name)
        if why:
            pytest.fail(why, pytrace=False)
