"""Here I Stand beyond the battlefield: each Monte Carlo kernel against a plain numpy
implementation of the same procedure in the same run (trials per second).

Run: `python benchmarks/bench_his_more.py [--quick]`. The numpy versions roll the same dice
with numpy's generator, vectorised over trials, and histogram the same outcomes.
"""
import sys

import numpy as np

from common import Row, rate, table
from odds.his import debate, diet_of_worms, piracy, reformation_attempt
from odds.his.religion.rules import settle

PIRACY = dict(corsairs=2, adjacent_squadrons=1, fortresses=1, pirate="barbarossa")
THESES = dict(adjacent_protestant=1, adjacent_protestant_stacks=1, adjacent_catholic=1,
              theses=True, attempts=5)  # 3 dice against 1 in the German zone, five attempts
DEBATE = dict(attacker_value=3, debater_bonus=True, defender_value=4, attacker_pool=[2],
              defender_pool=[3])  # the rulebook's: 7 v 6 dice, then 5 v 5
DIET = dict(protestant_card=3, papal_card=3, hapsburg_card=3)  # 7 v 6 dice
CHUNK = 1 << 20


def chunks(trials):
    for start in range(0, trials, CHUNK):
        yield min(CHUNK, trials - start)


def numpy_piracy(trials, seed=0):
    """Anti-piracy hits kill corsairs (2 left of 2: Barbarossa's 1 + 2 dice; 1 left: 1 + 1)."""
    rng, hist = np.random.default_rng(seed), np.zeros((3, 4), np.int64)
    for n in chunks(trials):
        killed = np.minimum(rng.binomial(2, 1 / 3, n), 2)
        left = 2 - killed
        dice = np.where(left == 0, 0, 1 + np.where(left == 1, 1, 2))
        hits = rng.binomial(dice, 1 / 3)
        hist += np.bincount(killed * 4 + hits, minlength=12).reshape(3, 4)
    return hist


def numpy_theses(trials, seed=0):
    """Five attempts, 3 dice against 1, highest die wins, ties and a 6 to the Protestant."""
    rng, hist = np.random.default_rng(seed), np.zeros(6, np.int64)
    for n in chunks(trials):
        flipped = np.zeros(n, np.int64)
        for _ in range(5):
            high = rng.integers(1, 7, (n, 3)).max(axis=1)
            low = rng.integers(1, 7, n)
            ok, _auto = settle(high, low, 6, 1)
            flipped += ok
        hist += np.bincount(flipped, minlength=6)
    return hist


def numpy_debate(trials, seed=0):
    """7 v 6 dice; a tie goes to 5 v 5; the margin and who won."""
    rng, hist = np.random.default_rng(seed), np.zeros((3, 16), np.int64)
    for n in chunks(trials):
        margin = rng.binomial(7, 1 / 3, n) - rng.binomial(6, 1 / 3, n)
        tie = margin == 0
        margin[tie] = rng.binomial(5, 1 / 3, tie.sum()) - rng.binomial(5, 1 / 3, tie.sum())
        side = np.where(margin > 0, 0, np.where(margin < 0, 1, 2))
        hist += np.bincount(side * 16 + np.abs(margin), minlength=48).reshape(3, 16)
    return hist


def numpy_diet(trials, seed=0):
    """7 Protestant dice against 6 Catholic: the joint of both sides' hits."""
    rng, hist = np.random.default_rng(seed), np.zeros((8, 7), np.int64)
    for n in chunks(trials):
        index = rng.binomial(7, 1 / 3, n) * 7 + rng.binomial(6, 1 / 3, n)
        hist += np.bincount(index, minlength=56).reshape(8, 7)
    return hist


CASES = (("piracy, the rulebook's Ionian Sea", piracy, PIRACY, numpy_piracy),
         ("Reformation, 95 Theses: 5 attempts of 3 v 1 dice", reformation_attempt, THESES,
          numpy_theses),
         ("theological debate, the rulebook's Eck v Luther", debate, DEBATE, numpy_debate),
         ("Diet of Worms, 3-CP cards all round", diet_of_worms, DIET, numpy_diet))


def measure(quick=False):
    n = 20_000_000 if quick else 100_000_000
    rows = []
    for name, fn, kw, baseline in CASES:
        ours = rate(lambda k: fn(**kw, method="mc", trials=k, progress=False), n)
        rows.append(Row(f"MC {name}", ours, "/s", rate(baseline, n // 20), "plain numpy",
                        ""))
    return rows


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
