"""Crusades tactical battle (docs/rules_crusades.md): a grid simulator with morale, walls and sieges.

Scenarios are TOML files (see examples/); `run` simulates many battles with the AI policies
and returns a Result; `play` replays one battle (seeded or with scripted dice); `trace` tells
one battle round by round; `siege` plays strategic siege turns; `sensitivity` flips each rule
setting; `balance` pits unit types and armies against each other at equal upkeep (a DataFrame;
`plot_balance` draws it). Importing this does not import numba.
"""
from pathlib import Path

from ..lazy import exports

TITLES = {"crusades": "Crusades (homebrew tactical battle)"}  # the game's name, by first word
ORDER = 30  # this game's place in listings
PROCEDURES = {"crusades.battle": "battles.battle"}  # procedure -> the module that registers it
# answers beyond the procedures (registry.services: the web's POST /api/NAME, a position file)
SERVICES = {"crusades.position": "positions.served:position",
            "crusades.autobattle": "positions.served:autobattle"}
EXAMPLES = Path(__file__).parent / "examples"
EXPORTS = {"balance": "upkeep.table", "plot_balance": "upkeep.report:plot",
           "Battle": "battles.battle", "play": "battles.battle", "run": "battles.battle",
           "sensitivity": "battles.battle", "POLICIES": "scenario", "SETTINGS": "scenario",
           "Scenario": "scenario", "load": "scenario", "siege": "battles.siege_turns",
           "trace": "battles.narration"}
__all__ = sorted([*EXPORTS, "EXAMPLES"])
__getattr__, __dir__ = exports(__name__, EXPORTS)
