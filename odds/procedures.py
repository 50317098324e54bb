"""The registry of public procedures by name, for sweeps, the calculator and the CLI.

Names are the ones designers use (`his.field`, `oath.campaign`, ...); each points at the
public function, imported only when asked for. Parameter names are the function's keywords.
"""
from __future__ import annotations

import inspect
from importlib import import_module

from .errors import OddsError

PROCEDURES = {
    "his.field": "odds.his.field:field_battle",
    "his.assault": "odds.his.assault:assault",
    "his.siege": "odds.his.siege:siege",
    "oath.campaign": "odds.oath.campaign:campaign",
}

# exact answers for many cells at once: fn(list of keyword dicts) -> (probabilities, pmfs) of
# arrays over the cells, or None when the cells need the one-by-one path
TABLES = {
    "his.field": "odds.his.field_table:field_battle_table",
}

ENGINE_PARAMETERS = ("method", "trials", "seed", "precision", "max_trials", "threads", "progress")


def function(name: str):
    """The public function of procedure `name`."""
    if name not in PROCEDURES:
        raise OddsError(f"procedure: {name!r} is unknown (allowed: {', '.join(PROCEDURES)})")
    return _load(PROCEDURES[name])


def table_function(name: str):
    """The vectorised exact function of procedure `name`, or None."""
    return _load(TABLES[name]) if name in TABLES else None


def _load(path: str):
    module, attr = path.split(":")
    return getattr(import_module(module), attr)


def parameters(name: str) -> dict:
    """Rule and force parameters of a procedure -> default (inspect.Parameter.empty if required)."""
    sig = inspect.signature(function(name))
    return {k: p.default for k, p in sig.parameters.items() if k not in ENGINE_PARAMETERS}
