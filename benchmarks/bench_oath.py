"""Oath campaign benchmark: Monte Carlo kernel vs plain numpy, and exact latency.

The campaign of the issue: 6 attack dice (6 warbands) against 4 defense dice + 2 warbands,
sacrifice as needed. Run: `python benchmarks/bench_oath.py [--quick]`.
The exact engine is compared with icepool answering the same question (when installed).
"""
from __future__ import annotations

import sys

import numpy as np

from common import Row, best_of, rate, table
from odds.oath import campaign
from odds.oath.campaigns.rules import resolve
from odds.oath.campaigns.dice import ATTACK_DIE, DEFENSE_DIE

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


def icepool_campaign():
    """The same question in icepool: P(win), 6 attack dice v 4 defense dice + 2, sacrifice as needed."""
    import icepool
    from icepool import Die, Vector

    attack = Die([Vector((f.swords, f.hollow, f.skulls)) for f in ATTACK_DIE])
    defense = Die([Vector((f.shields, f.multipliers)) for f in DEFENSE_DIE])

    def wins(a, d):
        swords, hollow, skulls = a
        shields, times_two = d
        attack_total, defense_total = swords + hollow // 2, shields * 2**times_two + 2
        return attack_total > defense_total or defense_total - attack_total + 1 <= 6 - skulls

    return icepool.map(wins, 6 @ attack, 4 @ defense).probability(True)


def measure(quick=False):
    n = 20_000_000 if quick else 300_000_000
    mc = rate(lambda k: campaign(**SCENARIO, method="mc", trials=k, seed=1, progress=False), n)
    rows = [Row("MC Oath campaign, 6 attack v 4 defense dice + 2 warbands", mc, "/s",
                rate(numpy_campaigns, n // 20), "plain numpy", ">= 150 M/s and >= 10x numpy")]
    campaign(**SCENARIO)
    exact = best_of(lambda: campaign(**SCENARIO), repeat=5, number=1000) * 1e6
    try:
        assert abs(float(icepool_campaign()) - campaign(**SCENARIO).p) < 1e-12
        rows.append(Row("exact Oath campaign, whole call", exact, "us",
                        best_of(icepool_campaign, repeat=3, number=5) * 1e6, "icepool",
                        "<= 50 us and >= 10x icepool"))
    except ImportError:
        rows.append(Row("exact Oath campaign, whole call", exact, "us", target="<= 50 us"))
    return rows


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
