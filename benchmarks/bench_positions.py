"""A crusades position's odds (issue 62) beside a battle from deployment, warm.

Rows: the seconds of `odds.crusades` position odds, 20,000 battles played on from field.toml
stopped after round N (a position `run --stop-at-turn N --save` writes; the first battle of
seed 0 not decided by the last N), against 20,000
battles of field.toml from deployment, both with a warm kernel cache (one call before the
timed ones), 2 threads, in one fresh process with its own NUMBA_CACHE_DIR, best of 3.

Run: ``python benchmarks/bench_positions.py [--quick]``
"""
import json
import os
import subprocess
import sys
import tempfile

from common import ROOT, Row, table

BATTLES = 20_000
TURNS = (2, 5)

TIMES = """
import json, sys, time
from odds import crusades as c
from odds.crusades.positions.from_here import decided, position_odds
from odds.crusades.positions.position import load_position
from odds.crusades.positions.saved import stopped
n, field, out = int(sys.argv[1]), c.EXAMPLES / "field.toml", {}

def best(fn):
    fn()  # compile or load the cache
    times = []
    for _ in range(3):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)

out["deployment"] = best(lambda: c.run(field, battles=n, seed=1, threads=2, progress=False))
turns = list(map(int, sys.argv[2:]))
index = next(i for i in range(1000)  # the first battle of seed 0 still going after every turn
             if decided(load_position(stopped(field, turn=max(turns), seed=0, index=i), name="b")) is None)
for turn in turns:
    pos = load_position(stopped(field, turn=turn, seed=0, index=index), name="bench")
    out[turn] = best(lambda: position_odds(pos, battles=n, seed=1, threads=2, progress=False))
print(json.dumps(out))
"""


def measure(quick=False):
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": tmp}
        out = subprocess.run([sys.executable, "-c", TIMES, str(BATTLES), *map(str, TURNS)],
                             env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return [Row(f"crusades position's odds, {BATTLES:,} battles from field.toml after round {t}, warm",
                got[str(t)], "s", got["deployment"], f"{BATTLES:,} battles from deployment", "")
            for t in TURNS]


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
