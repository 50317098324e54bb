"""The registry of public procedures by name, for sweeps, the calculator and the CLI.

Names are the ones designers use (`his.field`, `oath.campaign`, ...); each points at the
public function, imported only when asked for. Parameter names are the function's keywords.
"""
from __future__ import annotations

import inspect
from functools import partial
from importlib import import_module

from .errors import OddsError

PROCEDURES = {
    "his.field": "odds.his.field:field_battle",
    "his.assault": "odds.his.assault:assault",
    "his.siege": "odds.his.siege:siege",
    "his.naval": "odds.his.naval:naval_battle?ruleset=his",
    "vq.naval": "odds.his.naval:naval_battle?ruleset=vq",
    "oath.campaign": "odds.oath.campaign:campaign",
    "crusades": "odds.crusades.battle:battle",
}

# exact answers for many cells at once: fn(list of keyword dicts) -> (probabilities, pmfs) of
# arrays over the cells, or None when the cells need the one-by-one path
TABLES = {
    "his.field": "odds.his.field_table:field_battle_table",
}

ENGINE_PARAMETERS = ("method", "trials", "seed", "precision", "max_trials", "threads", "progress")


def function(name: str):
    """The public function of procedure `name` (with its preset keywords, e.g. the ruleset)."""
    if name not in PROCEDURES:
        raise OddsError(f"procedure: {name!r} is unknown (allowed: {', '.join(PROCEDURES)})")
    path, _, preset = PROCEDURES[name].partition("?")
    fn = _load(path)
    return partial(fn, **dict(kv.split("=") for kv in preset.split("&"))) if preset else fn


def table_function(name: str):
    """The vectorised exact function of procedure `name`, or None."""
    return _load(TABLES[name]) if name in TABLES else None


def _load(path: str):
    module, attr = path.split(":")
    return getattr(import_module(module), attr)


def parameters(name: str) -> dict:
    """Rule and force parameters of a procedure -> default (inspect.Parameter.empty if required)."""
    fn = function(name)
    preset = fn.keywords if isinstance(fn, partial) else {}
    return {k: p.default for k, p in inspect.signature(fn).parameters.items()
            if k not in ENGINE_PARAMETERS and k not in preset}
