"""Assaults on a fortified space (§15.2): `rules`, `kernel`, `procedure` (the exact engine,
the public `assault` and its spec), `stage` (what his.attack may use: the casualty order)."""
PROCEDURES = {"his.assault": "procedure"}  # procedure -> the module that registers it
EXPORTS = {"assault": "procedure"}  # public name of odds.his -> its module
ORDER = 20  # place in listings
