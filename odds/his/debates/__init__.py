"""Theological debates (Here I Stand §18.5), registered as his.debate: rules.py holds the rule
(numpy only), debate.py the exact engine, the public `debate` and its spec, kernel.py the numba
kernel."""
PROCEDURES = {"his.debate": "debate"}  # procedure -> the module that registers it
EXPORTS = {"debate": "debate"}  # public name of odds.his -> its module
ORDER = 104  # place in listings
