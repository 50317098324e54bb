"""What a composed procedure (his.attack) takes from assaults/: the casualty order, the one
module of assaults/ it imports (pyproject.toml, contract "attacks-use-stages"). Counts are units.
"""
from __future__ import annotations

from .procedure import CASUALTIES, check_settings
from .rules import infantry_left

__all__ = ("CASUALTIES", "cavalry_first", "infantry_left")


def cavalry_first(casualties: str) -> bool:
    """True when `casualties` (one of CASUALTIES, validated) takes cavalry first."""
    return check_settings(casualties, False)[0]
