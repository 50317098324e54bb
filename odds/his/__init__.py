"""Here I Stand and The Virgin Queen: field battles, assaults, sieges, naval combat,
interception and avoid-battle rolls, the whole attack; Reformation and Counter-Reformation
attempts and the ranking of their targets.

A procedure's module is imported when it is first used, so a command pays only for the
procedure it runs: `PROCEDURES` names the module that registers each procedure (in listing
order), `__getattr__` imports the module of a public name on first use.
"""
import sys as _sys
from importlib import import_module as _import_module
from types import ModuleType as _ModuleType

PROCEDURES = {"his.field": "field", "his.assault": "assault", "his.intercept": "intercept",
              "his.avoid_battle": "intercept", "his.siege": "siege", "his.attack": "attack",
              "vq.naval": "naval", "his.naval": "naval", "his.piracy": "corsairs.raid",
              "his.foreign_war": "foreign_wars.campaign",
              "his.exploration": "new_world.voyages", "his.conquest": "new_world.voyages",
              "his.raiders": "new_world.raiders", "his.reformation": "religion.attempt",
              "his.counter_reformation": "religion.attempt", "his.targets": "religion.ranking"}
_MODULE_OF = {"assault": "assault", "attack": "attack", "field_battle": "field",
              "interception": "intercept", "naval_battle": "naval", "siege": "siege",
              "Ruleset": "naval_ruleset", "RULESETS": "naval_ruleset", "piracy": "corsairs.raid",
              "foreign_war": "foreign_wars.campaign", "exploration": "new_world.voyages",
              "conquest": "new_world.voyages", "raiders": "new_world.raiders",
              "reformation_attempt": "religion", "rank_targets": "religion"}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *_MODULE_OF})


class _Package(_ModuleType):
    """`odds.his.assault` is the function: importing the module assault.py, which Python
    records as an attribute of its package, must not replace it."""

    def __setattr__(self, name, value):
        if not (name in _MODULE_OF and isinstance(value, _ModuleType)):
            super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
