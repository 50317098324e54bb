"""Crusades battle throughput: the numba kernel against the same simulator run as plain
Python + numpy (numba disabled, in a subprocess), 10 v 10 on a 12 x 10 board
(examples/field.toml), plus the siege scenario (examples/assault.toml).

Run briefly from the checkout root: ``PYTHONPATH=. python benchmarks/bench_crusades.py [battles]``.
A battle is a sequence of dependent unit decisions on a grid, so there is no honest
vectorised-numpy version of it; the baseline is the identical code interpreted.
"""
import os
import subprocess
import sys
import time

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
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": os.getcwd()}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return battles / float(out.stdout.strip().splitlines()[-1])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    field = FIELD
    ours = numba_rate(field, n)
    base = interpreted_rate()
    print(f"{'what':<44}{'battles/s':>12}")
    print(f"{'numba kernel, 10 v 10 on 12x10, all cores':<44}{ours:>12,.0f}")
    print(f"{'numba kernel, 1 thread':<44}{numba_rate(field, n // 2, threads=1):>12,.0f}")
    print(f"{'same code, plain Python + numpy, 1 thread':<44}{base:>12,.0f}")
    print(f"ratio numba (all cores) / plain: {ours / base:,.0f}x")
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
