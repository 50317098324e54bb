"""Theological debates (Here I Stand §18.5), registered as his.debate: rules.py holds the rule
(numpy only), debate.py the exact engine, the public `debate` and its spec, kernel.py the numba
kernel."""
from .debate import debate

__all__ = ["debate"]
