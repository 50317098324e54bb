"""Crusades battle throughput: the numba kernel against a plain-numpy simulator of the same
battle, 10 v 10 on a 12 x 10 board (examples/field.toml), plus the siege scenario.

Run briefly: ``python benchmarks/bench_crusades.py [battles]``. The numpy baseline simulates
battles in lock-step over a batch (vectorised over battles) with the same rules reduced to a
straight advance-and-fight, so it is a lower bound on what numpy costs, not a second engine.
"""
import sys
import time

import numpy as np

from odds import crusades


def numba_rate(path, battles, threads=None):
    crusades.run(path, battles=1000, threads=threads)  # compile / load the cache
    t = time.perf_counter()
    crusades.run(path, battles=battles, seed=1, threads=threads, progress=False)
    return battles / (time.perf_counter() - t)


def numpy_rate(battles, turns=20, units=10, height=10):
    """Vectorised over battles: columns of units walk at each other and trade blows, morale
    d6 when more than 3 damage was taken; no pathfinding (a generous baseline)."""
    rng = np.random.default_rng(1)
    t = time.perf_counter()
    hp = np.full((battles, 2, units), 6)
    y = np.zeros((battles, 2, units), int)
    y[:, 1] = height - 1
    alive = np.ones((battles, 2, units), bool)
    for _ in range(turns):
        for s in (0, 1):
            gap = y[:, 1] - y[:, 0]
            move = (gap > 1) & alive[:, s]
            y[:, s] += np.where(move, 1 if s == 0 else -1, 0)
            contact = (y[:, 1] - y[:, 0] <= 1) & alive[:, s] & alive[:, 1 - s]
            dmg = np.where(contact, 2, 0)
            hp[:, 1 - s] -= dmg
            tested = dmg > 3
            flee = tested & (rng.integers(1, 7, tested.shape) > 4)
            alive[:, 1 - s] &= (hp[:, 1 - s] > 0) & ~flee
    return battles / (time.perf_counter() - t)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    field = crusades.EXAMPLES / "field.toml"
    ours = numba_rate(field, n)
    base = numpy_rate(min(n, 100_000))
    print(f"{'what':<44}{'battles/s':>12}")
    print(f"{'numba kernel, 10 v 10 on 12x10, all cores':<44}{ours:>12,.0f}")
    print(f"{'numba kernel, 1 thread':<44}{numba_rate(field, n // 2, threads=1):>12,.0f}")
    print(f"{'plain numpy lock-step baseline':<44}{base:>12,.0f}")
    print(f"ratio numba / numpy: {ours / base:.1f}x")
    t = time.perf_counter()
    one = crusades.play(field, seed=1)
    print(f"one battle (play, warm): {(time.perf_counter() - t) * 1e3:.2f} ms ({one.outcome})")
    siege = crusades.EXAMPLES / "assault.toml"
    crusades.siege(siege, sieges=1000)
    t = time.perf_counter()
    crusades.siege(siege, sieges=n, progress=False)
    print(f"siege (wait, assault, assault): {n:,} sieges in {time.perf_counter() - t:.1f} s")
    print("no exact engine: there is no exact latency to report")


if __name__ == "__main__":
    main()
