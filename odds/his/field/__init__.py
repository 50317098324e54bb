"""Field battles (§13): `rules` (dice and losses, numpy and numba alike), `kernel` (the
Monte Carlo lane), `table` (many battles at once, for sweeps), `procedure` (the exact engine,
the public `field_battle` and its spec), `stage` (what his.attack may use: the battle as a
stage)."""
PROCEDURES = {"his.field": "procedure"}  # procedure -> the module that registers it
EXPORTS = {"field_battle": "procedure"}  # public name of odds.his -> its module
ORDER = 10  # place in listings
