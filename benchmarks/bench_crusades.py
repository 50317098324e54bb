"""Crusades battle throughput: the numba kernel against the same simulator run as plain
Python + numpy (numba disabled, in a subprocess), 10 v 10 on a 12 x 10 board
(examples/field.toml), plus the siege scenario (examples/assault.toml).

Run: ``python benchmarks/bench_crusades.py [--quick]``.
A battle is a sequence of dependent unit decisions on a grid, so there is no honest
vectorised-numpy version of it; the baseline is the identical code interpreted.
"""
import os
import subprocess
import sys
import time

from common import Row, table
from odds import crusades

FIELD = crusades.EXAMPLES / "field.toml"


def numba_rate(path, battles, threads=None):
    crusades.run(path, battles=1000, threads=threads)  # compile / load the cache
    t = time.perf_counter()
    crusades.run(path, battles=battles, seed=1, threads=threads, progress=False)
    return battles / (time.perf_counter() - t)


def interpreted_rate(battles=100):
    """Battles/s of the same code with NUMBA_DISABLE_JIT=1 (plain Python + numpy)."""
    code = ("import time; from odds import crusades as c; t = time.perf_counter(); "
            f"c.run({str(FIELD)!r}, battles={battles}, threads=1, progress=False); "
            "print(time.perf_counter() - t)")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return battles / float(out.stdout.strip().splitlines()[-1])


def siege_seconds(sieges):
    path = crusades.EXAMPLES / "assault.toml"
    crusades.siege(path, sieges=1000)
    t = time.perf_counter()
    crusades.siege(path, sieges=sieges, progress=False)
    return time.perf_counter() - t


def measure(quick=False):
    n = 20_000 if quick else 100_000
    return [
        Row("MC crusades battle, 10 v 10 on 12 x 10", numba_rate(FIELD, n), "/s",
            interpreted_rate(), "same code without numba", ">= 20,000 /s"),
        Row(f"crusades siege (wait, assault, assault), {n:,} sieges", siege_seconds(n), "s",
            target="100,000 in < 60 s"),
    ]


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
