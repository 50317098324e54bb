"""Interception and avoid-battle rolls (§12.2-12.3): `rules`, `kernel`, `procedure` (the
public `interception`, registered as his.intercept and his.avoid_battle), `stage` (what
his.attack may use: the avoid-battle roll as a stage)."""
# procedure -> the module that registers it
PROCEDURES = {"his.intercept": "procedure", "his.avoid_battle": "procedure"}
EXPORTS = {"interception": "procedure"}  # public name of odds.his -> its module
ORDER = 30  # place in listings
