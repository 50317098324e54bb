"""Naval combat throughput: our numba kernel against a plain numpy implementation, and exact latency.

Run: `python benchmarks/bench_naval.py [--quick]`. Battles per second for 4 galleys against 4
(and 4 English race-built galleons against 4 galleons in the Atlantic, where 5s are drawn
apart), against the numpy baseline in the same run, and the exact engine's latency.
"""
import sys

import numpy as np

from common import Row, best_of, rate, table
from odds.his import naval_battle
from odds.his.naval.fleets import Fleet, settle_table, setup
from odds.his.naval.ruleset import get_ruleset
from odds.his.naval.rules import outcome_index, settle

SCENARIOS = {
    "4 v 4 galleys": dict(attacker_galleys=4, defender_galleys=4),
    "4 race-built v 4 galleons, Atlantic": dict(attacker_race_built=4, attacker_power="england",
                                                defender_galleons=4, location="atlantic"),
}


def numpy_battles(kwargs, trials, chunk=1 << 20, seed=0, table=False):
    """Plain numpy: binomial hits per side (5s split by a second binomial), then the casualty
    rule `settle` evaluated with ufuncs on the arrays; `table=True` looks outcomes up in the
    kernel's table instead (a tuned numpy variant)."""
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


def measure(quick=False):
    n = 20_000_000 if quick else 200_000_000
    rows = []
    for name, kw in SCENARIOS.items():
        ours = rate(lambda k: naval_battle(**kw, method="mc", trials=k, progress=False), n)
        base = rate(lambda k: numpy_battles(kw, k), n // 20)
        rows.append(Row(f"MC naval, {name}", ours, "/s", base, "plain numpy",
                        ">= 150 M/s and >= 10x numpy"))
        naval_battle(**kw)
        rows.append(Row(f"exact naval, {name}", best_of(lambda: naval_battle(**kw), 5, 50) * 1e6, "us"))
    return rows


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
