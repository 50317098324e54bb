"""The New World (Here I Stand §20): voyages of exploration and conquest, Huguenot raiders.

Modules: `tables` (the rule, numpy and numba alike), `kernel` (the Monte Carlo lanes),
`voyages` (exploration and conquest), `raiders` (the raider's roll on each Hapsburg card).
"""
