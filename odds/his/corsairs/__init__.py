"""Piracy (Here I Stand §16.4): modules `awards` (who pays for each hit, numpy), `kernel`
(the Monte Carlo lane) and `raid` (the exact engine and the public `piracy`)."""
PROCEDURES = {"his.piracy": "raid"}  # procedure -> the module that registers it
EXPORTS = {"piracy": "raid"}  # public name of odds.his -> its module
ORDER = 70  # place in listings
