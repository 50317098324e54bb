"""Field battle: Monte Carlo kernel vs plain numpy, exact latency, CLI latency.

Run: python benchmarks/bench_field.py   (prints a markdown table)
"""
import subprocess
import sys
import time

import numpy as np

from common import HEADER, best_of, row
from odds.his import field_battle

# 7 dice against 6: 5 units + leader 2 against 5 units (+1 defender die)
BATTLE = dict(attacker=5, defender=5, attacker_leader=2)


def numpy_field(trials, seed=0, chunk=1 << 20):
    """Plain numpy: binomial hits per side, losses and the joint histogram, chunked."""
    rng = np.random.default_rng(seed)
    hist = np.zeros((2, 6, 6), np.int64)
    done = 0
    while done < trials:
        n = min(chunk, trials - done)
        ah = rng.binomial(7, 1 / 3, n)
        dh = rng.binomial(6, 1 / 3, n)
        al, dl = np.minimum(dh, 5), np.minimum(ah, 5)
        both = (al == 5) & (dl == 5)
        al = al - (both & (7 > 6))
        dl = dl - (both & (7 <= 6))
        idx = ((ah > dh) * 6 + al) * 6 + dl
        hist += np.bincount(idx, minlength=72).reshape(2, 6, 6)
        done += n
    return hist


def mc_rate(trials):
    field_battle(**BATTLE, method="mc", trials=trials, seed=1, progress=False)  # compile / load cache
    t = best_of(lambda: field_battle(**BATTLE, method="mc", trials=trials, seed=1, progress=False), repeat=3)
    return trials / t


def main():
    trials = 200_000_000
    ours = mc_rate(trials)
    numpy_trials = 20_000_000
    base = numpy_trials / best_of(lambda: numpy_field(numpy_trials), repeat=2)
    lines = [HEADER, row("MC field battle 7 v 6 dice (battles/s)", ours, base, "/s")]

    field_battle(**BATTLE)
    exact = best_of(lambda: field_battle(**BATTLE), repeat=5, number=2000)
    t = time.perf_counter()
    for a in range(1, 31):
        for d in range(1, 31):
            field_battle(a, d, attacker_leader=1)
    grid = time.perf_counter() - t
    lines.append(f"| exact field battle, one scenario | {exact * 1e6:.1f} us | | |")
    lines.append(f"| exact field battle, 30 x 30 grid | {grid * 1e3:.1f} ms | | |")

    for label, extra in (("exact", []), ("mc 10^6", ["--method", "mc", "--trials", "1000000"])):
        cmd = [sys.executable, "-m", "odds.cli", "his", "field", "--attacker", "5", "--defender", "5",
               "--attacker-leader", "2", "--json", *extra]
        subprocess.run(cmd, check=True, capture_output=True)
        wall = best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), repeat=3)
        lines.append(f"| CLI `odds his field ... --json`, {label}, whole process | {wall:.2f} s | | |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
