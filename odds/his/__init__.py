"""Here I Stand and The Virgin Queen: field battles, assaults, sieges, naval combat."""
from .assault import assault
from .field import field_battle
from .naval import RULESETS, Ruleset, naval_battle
from .siege import siege

__all__ = ["assault", "field_battle", "naval_battle", "siege", "Ruleset", "RULESETS"]
