"""Here I Stand and The Virgin Queen: field battles, assaults, sieges, naval combat."""
from .field import field_battle

__all__ = ["field_battle"]
