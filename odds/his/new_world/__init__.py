"""The New World (Here I Stand §20): voyages of exploration and conquest, Huguenot raiders.

Modules: `tables` (the rule, numpy and numba alike), `kernel` (the Monte Carlo lanes),
`voyages` (exploration and conquest), `raiders` (the raider's roll on each Hapsburg card).
"""
# procedure -> the module that registers it
PROCEDURES = {"his.exploration": "voyages",
              "his.conquest": "voyages",
              "his.raiders": "raiders"}
# public name of odds.his -> its module
EXPORTS = {"exploration": "voyages", "conquest": "voyages", "raiders": "raiders"}
ORDER = 90  # place in listings
