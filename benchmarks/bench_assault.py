"""Assault and siege speed: our kernels vs the field-battle kernel and plain numpy; exact latency.

Targets (issue 3): assault Monte Carlo within a factor 1.5 of the field-battle kernel;
a 10-assault siege exact answer under 50 ms.  Run: python benchmarks/bench_assault.py [--quick]
"""
import sys

import numpy as np

from common import Row, best_of, rate, table

from odds.his import assault, field_battle, siege
from odds.his.sieges.procedure import TRANSITIONS

FORCES = dict(attacker_cavalry=2, attacker_leader=1, defender_leader=1)
ASSAULT = dict(attacker=8, defender=3, attacker_cards=["siege-artillery:if-needed"], **FORCES)
FIELD = dict(attacker=8, defender=3, attacker_leader=1, defender_leader=1)
SIEGE = dict(attacker=10, defender=4, assaults=10, attacker_cavalry=2, attacker_leader=1,
             defender_leader=1, attacker_fresh_cards=["siege-artillery:if-needed"])


def numpy_assault(n, rng):
    """Plain numpy: 8 units (2 cavalry) + leader 1 vs 3 + leader 1, artillery if needed."""
    ua, ud = 8, 3
    ah = (rng.integers(1, 7, (n, 3 + 1)) >= 5).sum(1)  # ceil(6/2) + leader 1
    dh = (rng.integers(1, 7, (n, 3 + 2)) >= 5).sum(1)
    fail = ~((ah >= 1) & (ah >= ud) & (dh < ua))
    ah = ah + fail * (rng.integers(1, 7, (n, 2)) >= 3).sum(1)
    hist = np.zeros((2, ua + 1, ud + 1), np.int64)
    np.add.at(hist, ((ah >= 1) * 1, np.minimum(dh, ua), np.minimum(ah, ud)), 1)
    return hist


def measure(quick=False):
    n = 4_000_000 if quick else 100_000_000
    field = rate(lambda k: field_battle(**FIELD, method="mc", trials=k, progress=False), n)
    ours = rate(lambda k: assault(**ASSAULT, method="mc", trials=k, progress=False), n)
    rng = np.random.default_rng(0)
    plain = rate(lambda k: numpy_assault(k, rng), n // 20)
    sieges = rate(lambda k: siege(**SIEGE, method="mc", trials=k, progress=False), n // 10)
    assault(**ASSAULT)
    siege(**SIEGE)
    return [
        Row("MC assault (Siege Artillery if needed)", ours, "/s", plain, "plain numpy"),
        Row("MC assault vs the field-battle kernel", ours, "/s", field, "field kernel",
            "within 1.5x of the field kernel"),
        Row("MC 10-assault siege", sieges, "/s"),
        Row("exact assault", best_of(lambda: assault(**ASSAULT), 20) * 1e3, "ms"),
        Row("exact 10-assault siege (10 v 4 units), transitions not kept yet",
            best_of(lambda: (TRANSITIONS.clear(), siege(**SIEGE)), 10) * 1e3, "ms", target="< 50 ms"),
        Row("exact 10-assault siege (10 v 4 units), asked again",
            best_of(lambda: siege(**SIEGE), 10) * 1e3, "ms", target="< 50 ms"),
    ]


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
