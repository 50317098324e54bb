"""Crusades tactical battle (docs/rules_crusades.md): a grid simulator with morale, walls and sieges.

Scenarios are TOML files (see examples/); `run` simulates many battles with the AI policies
and returns a Result; `play` replays one battle (seeded or with scripted dice); `trace` tells
one battle round by round; `siege` plays strategic siege turns; `sensitivity` flips each rule
setting. Importing this does not import numba.
"""
from pathlib import Path

from .battle import Battle, play, run, sensitivity
from .scenario import POLICIES, SETTINGS, Scenario, load
from .siege import siege
from .trace import trace

EXAMPLES = Path(__file__).parent / "examples"

__all__ = ["Battle", "EXAMPLES", "POLICIES", "SETTINGS", "Scenario", "load", "play", "run",
           "sensitivity", "siege", "trace"]
