"""Here I Stand and The Virgin Queen: field battles, assaults, sieges, naval combat."""
from .field import field_battle
from .naval import RULESETS, Ruleset, naval_battle

__all__ = ["field_battle", "naval_battle", "Ruleset", "RULESETS"]
