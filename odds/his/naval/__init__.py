"""Naval combat, Here I Stand (§16) and The Virgin Queen's ships: `rules`, `ruleset` (the
two games' readings), `fleets`, `cost`, `exact`, `kernel`, `result`, `procedure` (the public
`naval_battle`, registered as vq.naval and his.naval)."""
# procedure -> the module that registers it
PROCEDURES = {"vq.naval": "procedure", "his.naval": "procedure"}
# public name of odds.his -> its module
EXPORTS = {"naval_battle": "procedure", "Ruleset": "ruleset", "RULESETS": "ruleset"}
ORDER = 60  # place in listings
