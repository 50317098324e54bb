"""The whole attack (§12-15): interception, avoid battle, the field battle, the siege after it,
composed in `procedure` (the public `attack`) from each concept's `stage` module, none of
their internals (pyproject.toml, "attacks-use-stages"): the top of odds/his."""
PROCEDURES = {"his.attack": "procedure"}  # procedure -> the module that registers it
EXPORTS = {"attack": "procedure"}  # public name of odds.his -> its module
ORDER = 50  # place in listings
