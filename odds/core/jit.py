"""How the kernels compile the rules: numba versions of numpy-only rules functions.

A rules module (field/rules.py, assaults/rules.py, ...) imports only numpy, so both engines can
read it. `rule(f)` compiles `f` for the kernels, inlined where it is called; the functions of
this package that `f` calls are compiled the same way, so a rule may be written in terms of
another (`cards.plays`, the after-roll policy, for one).
"""
from __future__ import annotations

import types

from numba import njit

_PACKAGE = __name__.split(".")[0] + "."


def rule(fn):
    """`fn` (a function of a rules module) compiled by numba, always inlined."""
    scope = dict(fn.__globals__)
    for name in fn.__code__.co_names:
        called = scope.get(name)
        if isinstance(called, types.FunctionType) and called.__module__.startswith(_PACKAGE):
            scope[name] = rule(called)
    clone = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__module__, clone.__qualname__ = fn.__module__, fn.__qualname__
    return njit(inline="always")(clone)
