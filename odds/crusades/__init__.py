"""Crusades tactical battle (docs/rules_crusades.md): a grid simulator with morale, walls and sieges.

Scenarios are TOML files (see examples/); `run` simulates many battles with the AI policies
and returns a Result; `play` replays one battle (seeded or with scripted dice); `trace` tells
one battle round by round; `siege` plays strategic siege turns; `sensitivity` flips each rule
setting; `balance` pits unit types and armies against each other at equal upkeep (a DataFrame;
`plot_balance` draws it). Importing this does not import numba.
"""
from pathlib import Path

from .balance import balance
from .balance_report import plot as plot_balance
from .battle import Battle, play, run, sensitivity
from .scenario import POLICIES, SETTINGS, Scenario, load
from .siege import siege
from .trace import trace

EXAMPLES = Path(__file__).parent / "examples"

__all__ = ["Battle", "EXAMPLES", "POLICIES", "SETTINGS", "Scenario", "balance", "load", "play",
           "plot_balance", "run", "sensitivity", "siege", "trace"]
