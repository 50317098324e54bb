"""Naval combat throughput: our numba kernel against a plain numpy implementation, and exact latency.

Run from the project root: `python benchmarks/bench_naval.py [--trials N]`. Prints battles per
second for 4 galleys against 4 (and the same with English race-built galleons in the
Atlantic, where 5s are drawn apart), the numpy baseline's rate in the same run, the ratio,
and the exact engine's latency.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's odds

from odds.his import naval_battle
from odds.his.naval import Fleet, get_ruleset, outcome_index, settle, settle_table, setup

SCENARIOS = {
    "4 v 4 galleys": dict(attacker_galleys=4, defender_galleys=4),
    "4 race-built v 4 galleons, Atlantic": dict(attacker_race_built=4, attacker_power="england",
                                                defender_galleons=4, location="atlantic"),
}


def numpy_battles(kwargs, trials, chunk=1 << 20, seed=0, table=False):
    """Plain numpy: binomial hits per side (5s split by a second binomial), then the casualty
    rule `settle` evaluated with ufuncs on the arrays; `table=True` looks outcomes up in the
    kernel's table instead (a tuned numpy variant, printed for reference)."""
    rules = get_ruleset("vq")
    fleets = []
    for side in ("attacker", "defender"):
        ships = {k: kwargs.get(f"{side}_{k}s" if k != "race_built" else f"{side}_race_built", 0)
                 for k in rules.ships}
        fleets.append(Fleet.make(side, rules, ships, power=kwargs.get(f"{side}_power", "other")))
    b = setup(*fleets, rules, kwargs.get("location", "mediterranean"), False)
    rng = np.random.default_rng(seed)
    lookup = settle_table(b)
    joint = np.zeros(int(np.prod(b.shape)))
    done = 0
    while done < trials:
        n = min(chunk, trials - done)
        ah = rng.binomial(b.a_dice, 1 / 3, n)
        dh = rng.binomial(b.d_dice, 1 / 3, n)
        af = rng.binomial(ah, 0.5) if b.d_race else 0
        df = rng.binomial(dh, 0.5) if b.a_race else 0
        if table:
            index = outcome_index(lookup, ah, dh, af, df, b.a_dice, b.d_dice, b.a_race, b.d_race,
                                  *b.caps)
        else:
            out = settle(ah > dh, dh - np.minimum(b.a_race, df), ah - np.minimum(b.d_race, af),
                         np.broadcast_to(b.a_dice > b.d_dice, ah.shape), b.a_ships, b.d_ships,
                         b.a_corsairs, b.d_corsairs, b.hits_per_ship, b.hits_per_corsair)
            index = np.ravel_multi_index(tuple(np.asarray(x, np.int64) for x in out), b.shape)
        joint += np.bincount(index, minlength=len(joint))
        done += n
    return joint.reshape(b.shape)


def rate(fn, trials):
    start = time.perf_counter()
    fn(trials)
    return trials / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=200_000_000)
    ap.add_argument("--numpy-trials", type=int, default=10_000_000)
    args = ap.parse_args()
    print(f"{'scenario':<40} {'kernel/s':>12} {'numpy/s':>12} {'ratio':>7} "
          f"{'numpy+table/s':>14} {'ratio':>7} {'exact':>10}")
    for name, kw in SCENARIOS.items():
        naval_battle(**kw, method="mc", trials=100_000, progress=False)  # compile / load cache
        ours = rate(lambda n: naval_battle(**kw, method="mc", trials=n, progress=False), args.trials)
        base = rate(lambda n: numpy_battles(kw, n), args.numpy_trials)
        tuned = rate(lambda n: numpy_battles(kw, n, table=True), args.numpy_trials)
        naval_battle(**kw)
        reps = 200
        start = time.perf_counter()
        for _ in range(reps):
            naval_battle(**kw)
        exact = (time.perf_counter() - start) / reps
        print(f"{name:<40} {ours / 1e6:>10.1f} M {base / 1e6:>10.1f} M {ours / base:>6.1f}x "
              f"{tuned / 1e6:>12.1f} M {ours / tuned:>6.1f}x {exact * 1e6:>8.0f} us")


if __name__ == "__main__":
    main()
