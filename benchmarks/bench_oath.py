"""Oath campaign benchmark: Monte Carlo kernel vs plain numpy, and exact latency.

The campaign of the issue: 6 attack dice (6 warbands) against 4 defense dice + 2 warbands,
sacrifice as needed. Run from the project root: `python benchmarks/bench_oath.py [--trials N]`.
The icepool comparison of the exact engine is not here (icepool is not installed in this
environment; the lead runs it).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's odds

from odds.oath import campaign
from odds.oath.campaign import exact_joint, make_rules, resolve
from odds.oath.dice import ATTACK_DIE, DEFENSE_DIE

SCENARIO = dict(warbands=6, defense_dice=4, defenders=2)


def numpy_campaigns(trials, seed=0, chunk=1 << 20):
    """Plain vectorised numpy: roll every die with Generator.integers, look faces up, resolve."""
    rng = np.random.default_rng(seed)
    sw = np.array([f.swords for f in ATTACK_DIE])
    ho = np.array([f.hollow for f in ATTACK_DIE])
    sk = np.array([f.skulls for f in ATTACK_DIE])
    sh = np.array([f.shields for f in DEFENSE_DIE])
    mu = np.array([f.multipliers for f in DEFENSE_DIE])
    wins, done = 0, 0
    while done < trials:
        n = min(chunk, trials - done)
        a = rng.integers(0, 6, size=(n, 6), dtype=np.int8)
        d = rng.integers(0, 6, size=(n, 4), dtype=np.int8)
        attack = sw[a].sum(1) + ho[a].sum(1) // 2
        defense = sh[d].sum(1) << mu[d].sum(1)
        win, al, dl = resolve(attack, sk[a].sum(1), defense + 2, 6, 1, 6, 0, False)
        wins += int(win.sum())
        done += n
    return wins / trials


def rate(fn, trials):
    t = time.perf_counter()
    fn(trials)
    return trials / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=200_000_000)
    ap.add_argument("--numpy-trials", type=int, default=10_000_000)
    args = ap.parse_args()

    campaign(**SCENARIO, method="mc", trials=1000, progress=False)  # compile / load cache
    mc = rate(lambda n: campaign(**SCENARIO, method="mc", trials=n, seed=1, progress=False), args.trials)
    npy = rate(numpy_campaigns, args.numpy_trials)
    print(f"{'engine':<32}{'campaigns/s':>16}")
    print(f"{'numba kernel (all threads)':<32}{mc:16,.0f}")
    print(f"{'plain numpy':<32}{npy:16,.0f}")
    print(f"{'ratio':<32}{mc / npy:16.1f}")

    def engine():
        return exact_joint(make_rules(6, 6, 4, 2, False, "as-needed", [], "law"))

    for label, fn in (("exact engine (rules + joint)", engine),
                      ("campaign(...) exact, whole call", lambda: campaign(**SCENARIO))):
        fn()
        reps = 5000
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(reps):
            fn()
        wall, cpu = (time.perf_counter() - wall) / reps * 1e6, (time.process_time() - cpu) / reps * 1e6
        print(f"{label:<32}{wall:13.1f} us wall {cpu:8.1f} us cpu")

if __name__ == "__main__":
    main()
