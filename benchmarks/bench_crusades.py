"""Crusades battle throughput and cold start, against the same simulator before the speed-up.

Rows: battles/s (2 threads, in process) on the three example scenarios, with the pre-change
package (commit BEFORE, extracted with `git archive` into a temp dir) timed in the same run as
the baseline (the current code plays BEFORE's rules, OLD_RULES, so both play the very same
battles); the 10 v 10 field battle also against the same code interpreted (numba off);
the siege scenario; the first crusades run (2,000 battles) in a fresh process with an
empty NUMBA_CACHE_DIR, now and as of ROUND_START (the current round's start, common.py).
Every timing runs in its own subprocess, new and old alternating, best of the rounds.

Run: ``python benchmarks/bench_crusades.py [--quick] [--now REV]`` (REV: time that commit
instead of the working tree).
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, ROUND_START, Row, extract, table

BEFORE = "d7445ae"  # the commit before the crusades speed-up (docs/performance.md)
EXAMPLES = ("field", "sortie", "assault")
# BEFORE's rules, so that both versions play the very same battles: one attack per turn, and
# shots at any mounted unit spare friends (now the `spares_friends` flag, light cavalry only)
OLD_RULES = {"attacks_per_turn": 1, "units.knights.spares_friends": True}

RATES = """
import json, sys, time
from odds import crusades as c
n, over, out = int(sys.argv[1]), json.loads(sys.argv[2]), {}
for name in sys.argv[3:]:
    path = c.EXAMPLES / f"{name}.toml"
    c.run(path, battles=1000, overrides=over, progress=False)  # compile or load the cache
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        c.run(path, battles=n, seed=1, overrides=over, progress=False)
        best = min(best, time.perf_counter() - t)
    out[name] = n / best
c.siege(c.EXAMPLES / "assault.toml", sieges=1000, overrides=over, progress=False)
t = time.perf_counter()
c.siege(c.EXAMPLES / "assault.toml", sieges=n, overrides=over, progress=False)
out["siege_seconds"] = time.perf_counter() - t
print(json.dumps(out))
"""

COLD = """
import time
t = time.perf_counter()
from odds import crusades as c
c.run(c.EXAMPLES / "field.toml", battles=2000, seed=1, progress=False)
print(time.perf_counter() - t)
"""


def _python(code, root, cache, *args, jit=True):
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def measure(quick=False, now=None):
    n = 20_000 if quick else 100_000
    rounds = 1 if quick else 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old = extract(BEFORE, tmp / "old")
        trees = {"now": ROOT if now is None else extract(now, tmp / "now")}
        if old is not None:
            trees["before"] = old
        cold_trees = {"now": trees["now"], "start": extract(ROUND_START, tmp / "start")}
        rates = {k: {} for k in trees}
        cold = {k: float("inf") for k, root in cold_trees.items() if root is not None}
        for r in range(rounds):
            for k in cold:
                cold[k] = min(cold[k], float(_python(COLD, cold_trees[k], tmp / f"cold-{k}-{r}")))
            for k, root in trees.items():
                over = json.dumps(OLD_RULES if k == "now" and old is not None else {})
                got = json.loads(_python(RATES, root, tmp / f"warm-{k}", n, over, *EXAMPLES))
                for name, v in got.items():
                    better = min if name == "siege_seconds" else max
                    rates[k][name] = better(rates[k].get(name, v), v)
        interpreted = 100 / float(_python(
            "import time; from odds import crusades as c; t = time.perf_counter(); "
            "c.run(c.EXAMPLES / 'field.toml', battles=100, threads=1, progress=False); "
            "print(time.perf_counter() - t)", trees["now"], tmp / "nojit", jit=False))
    before = rates.get("before", {})
    rows = [Row("MC crusades battle, 10 v 10 on 12 x 10", rates["now"]["field"], "/s",
                interpreted, "same code without numba", ">= 60,000 /s")]
    for name in EXAMPLES:
        rows.append(Row(f"crusades {name}.toml battles", rates["now"][name], "/s",
                        before.get(name), f"same scenario, code of {BEFORE}", ""))
    rows.append(Row(f"crusades siege (wait, assault, assault), {n:,} sieges",
                    rates["now"]["siege_seconds"], "s", before.get("siege_seconds"),
                    f"code of {BEFORE}", "100,000 in < 60 s"))
    rows.append(Row("first crusades run (2,000 battles), cold cache, whole process", cold["now"],
                    "s", cold.get("start"), f"code of {ROUND_START}", "<= 8 s"))
    return rows


if __name__ == "__main__":
    rev = sys.argv[sys.argv.index("--now") + 1] if "--now" in sys.argv else None
    print(table(measure("--quick" in sys.argv, rev)))
