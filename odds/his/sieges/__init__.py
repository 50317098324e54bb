"""Sieges (§15): assaults repeated over impulses. `model` (the chain and its result),
`kernel`, `timing` with `timing_rules` and `timing_kernel` (a held Siege Artillery's best
moment), `advice` (the rule in words), `procedure` (the public `siege` and its spec), `stage` (what
his.attack may use: a siege as a stage, and the exact joints kept)."""
PROCEDURES = {"his.siege": "procedure"}  # procedure -> the module that registers it
EXPORTS = {"siege": "procedure"}  # public name of odds.his -> its module
ORDER = 40  # place in listings
