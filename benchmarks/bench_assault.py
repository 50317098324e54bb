"""Assault and siege speed: our kernels vs the field-battle kernel and plain numpy; exact latency.

Targets (issue 3): assault Monte Carlo within a factor 1.5 of the field-battle kernel;
a 10-assault siege exact answer under 50 ms.  Run: python benchmarks/bench_assault.py [trials]
"""
import sys
import time

import numpy as np

from odds.his import assault, field_battle, siege

TRIALS = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
FORCES = dict(attacker_cavalry=2, attacker_leader=1, defender_leader=1)
ASSAULT = dict(attacker=8, defender=3, attacker_cards=["siege-artillery:if-needed"], **FORCES)
FIELD = dict(attacker=8, defender=3, attacker_leader=1, defender_leader=1)
SIEGE = dict(attacker=10, defender=4, assaults=10, attacker_cavalry=2, attacker_leader=1,
             defender_leader=1, attacker_cards_every=["siege-artillery:if-needed"])


def best(f, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


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


def rate(f):
    f(10_000)  # compile / warm up
    return TRIALS / best(lambda: f(TRIALS), repeat=2)


def main():
    field = rate(lambda n: field_battle(**FIELD, method="mc", trials=n, progress=False))
    ours = rate(lambda n: assault(**ASSAULT, method="mc", trials=n, progress=False))
    rng = np.random.default_rng(0)
    plain = rate(lambda n: numpy_assault(n, rng))
    sieges = rate(lambda n: siege(**SIEGE, method="mc", trials=n, progress=False))
    assault(**ASSAULT)
    siege(**SIEGE)
    exact_a = best(lambda: assault(**ASSAULT), 20)
    exact_s = best(lambda: siege(**SIEGE), 10)
    print(f"{'what':<40}{'value':>16}")
    print(f"{'assault MC (trials/s)':<40}{ours:>16,.0f}")
    print(f"{'field-battle MC (trials/s)':<40}{field:>16,.0f}")
    print(f"{'field / assault (target <= 1.5)':<40}{field / ours:>16.2f}")
    print(f"{'plain numpy assault (trials/s)':<40}{plain:>16,.0f}")
    print(f"{'assault MC / numpy':<40}{ours / plain:>16.1f}")
    print(f"{'10-assault siege MC (sieges/s)':<40}{sieges:>16,.0f}")
    print(f"{'assault exact latency (ms)':<40}{exact_a * 1e3:>16.2f}")
    print(f"{'10-assault siege exact (ms, target 50)':<40}{exact_s * 1e3:>16.2f}")


if __name__ == "__main__":
    main()
