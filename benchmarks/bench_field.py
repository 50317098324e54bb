"""Field battle: the Monte Carlo kernel against plain numpy and a pure Python loop; the exact
engine against icepool and dyce (if installed) and its grid speed; CLI latency and memory."""
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from common import ROUND_START, USER_ENV, Row, best_of, extract, rate, table
from odds.his import field_battle
from odds.tools.sweep import sweep

# 7 dice against 6: 5 units + leader 2 against 5 units (+1 defender die)
BATTLE = dict(attacker=5, defender=5, attacker_leader=2)


def numpy_field(trials, seed=0, chunk=1 << 20):
    """Plain numpy: binomial hits per side, losses, both-eliminated rule, joint histogram."""
    rng = np.random.default_rng(seed)
    hist = np.zeros((4, 6, 6), np.int64)
    for start in range(0, trials, chunk):
        n = min(chunk, trials - start)
        ah, dh = rng.binomial(7, 1 / 3, n), rng.binomial(6, 1 / 3, n)
        al, dl = np.minimum(dh, 5), np.minimum(ah, 5)
        both = (al == 5) & (dl == 5)
        idx = (((ah > dh) + 2 * both) * 6 + al - both) * 6 + dl
        hist += np.bincount(idx, minlength=144).reshape(4, 6, 6)
    return hist


def python_field(trials, seed=0):
    """A pure Python loop, one die at a time."""
    rng = random.random
    wins = 0
    for _ in range(trials):
        ah = sum(rng() < 1 / 3 for _ in range(7))
        dh = sum(rng() < 1 / 3 for _ in range(6))
        wins += ah > dh
    return wins


def mc(trials):
    return field_battle(**BATTLE, method="mc", trials=trials, seed=1, progress=False)


def icepool_field():
    import icepool

    hits = icepool.d6.map(lambda x: x >= 5)
    return ((7 @ hits) > (6 @ hits)).probability(True)


def dyce_field():
    from dyce import H

    hit = H(6).ge(5)
    return ((7 @ hit).gt(6 @ hit))[1] / (7 @ hit).gt(6 @ hit).total


def cli_seconds(*extra, repeat=3):
    """Best whole-process time of `odds his field ...`, with this code and with the code of
    ROUND_START, timed alternately (the machine's speed drifts): (now, then or None). They run
    in an empty folder: `python -m` puts the working folder before PYTHONPATH."""
    cmd = [sys.executable, "-m", "odds.frontends.cli.main", "his", "field", "--attacker", "5", "--defender", "5",
           "--attacker-leader", "2", "--json", *extra]
    with tempfile.TemporaryDirectory() as tmp:
        then = extract(ROUND_START, Path(tmp) / "then")
        envs = [USER_ENV] + ([{**USER_ENV, "PYTHONPATH": str(then)}] if then else [])
        best = [float("inf")] * len(envs)
        for r in range(repeat + 1):  # the first round fills the caches
            for k, env in enumerate(envs):
                t = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=tmp)
                best[k] = min(best[k], time.perf_counter() - t) if r else best[k]
    return best[0], (best[1] if then else None)


def peak_memory_mib(trials):
    code = ("import resource, odds; odds.his.field_battle(5, 5, attacker_leader=2, method='mc', "
            f"trials={trials}, progress=False); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout)


def measure(quick=False):
    n = 20_000_000 if quick else 300_000_000
    rows = [
        Row("MC field battle, 7 v 6 dice, loss histograms", rate(mc, n), "/s",
            rate(numpy_field, n // 10), "plain numpy", ">= 300 M/s and >= 12x numpy"),
        Row("MC field battle vs a pure Python loop", rate(mc, n), "/s",
            rate(python_field, 100_000, repeat=1), "pure Python"),
    ]
    field_battle(**BATTLE)
    exact = best_of(lambda: field_battle(**BATTLE), repeat=5, number=2000) * 1e6
    for name, fn in (("icepool", icepool_field), ("dyce", dyce_field)):
        try:
            fn()
        except ImportError:
            continue
        rows.append(Row("exact field battle 7 v 6 dice, whole call", exact, "us",
                        best_of(fn, repeat=3, number=20) * 1e6, name, "<= 20 us"))
    grid = {"attacker": list(range(1, 31)), "defender": list(range(1, 31))}
    sweep("his.field", grid, {"attacker_leader": 1})
    rows.append(Row("exact field battles, 30 x 30 grid (sweep)",
                    best_of(lambda: sweep("his.field", grid, {"attacker_leader": 1}), 3) * 1e3, "ms",
                    best_of(lambda: [field_battle(a, d, attacker_leader=1) for a in range(1, 31)
                                     for d in range(1, 31)], 3) * 1e3, "900 single calls", "< 10 ms"))
    for name, extra, target in (("exact, whole process", (), "<= 0.15 s"),
                                ("MC 10^6 trials, cached kernel",
                                 ("--method", "mc", "--trials", "1000000"), "<= 0.4 s")):
        now, then = cli_seconds(*extra)
        rows.append(Row(f"CLI `odds his field --json`, {name}", now, "s", then,
                        f"code of {ROUND_START}", target))
    trials = 10**8 if quick else 10**9
    rows.append(Row(f"peak memory of a 10^{len(str(trials)) - 1} trial MC run", peak_memory_mib(trials),
                    "MiB", peak_memory_mib(10**5), "10^5 trials", "constant"))
    return rows


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
