"""Reformation and Counter-Reformation attempts (Here I Stand §18.3-18.4): the odds of one
action's attempts (`reformation_attempt`, registered as his.reformation and
his.counter_reformation) and "rank my targets" (`rank_targets`, his.targets).

rules.py holds the rule (numpy only), attempt.py the exact engine and its specs, ranking.py the
ranking and the best order, kernel.py the numba kernels of both.
"""
# procedure -> the module that registers it
PROCEDURES = {"his.reformation": "attempt",
              "his.counter_reformation": "attempt",
              "his.targets": "ranking"}
# public name of odds.his -> its module
EXPORTS = {"reformation_attempt": "attempt", "rank_targets": "ranking"}
ORDER = 100  # place in listings
