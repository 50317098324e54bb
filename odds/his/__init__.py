"""Here I Stand and The Virgin Queen: field battles, assaults, sieges, naval combat,
interception and avoid-battle rolls, the whole attack."""
from .assault import assault
from .attack import attack
from .field import field_battle
from .intercept import interception
from .naval import RULESETS, Ruleset, naval_battle
from .siege import siege

__all__ = ["assault", "attack", "field_battle", "interception", "naval_battle", "siege", "Ruleset", "RULESETS"]
