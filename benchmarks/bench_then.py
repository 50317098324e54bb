"""Every kernel now against the same kernel at ROUND_START (common.py), in the same run: the
public call of each procedure timed in a fresh process on this code and on the code of that
commit (extracted with `git archive`), alternately, since the machine's speed drifts; the best
of each. A row's ratio below 1 would be a kernel slower than it was.

Run: ``python benchmarks/bench_then.py [--quick] [--then REV]`` (REV: compare with that commit
instead of ROUND_START).
"""
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, ROUND_START, USER_ENV, Row, extract, table

CALLS = {  # row -> the public call, with N trials (the same call at both commits)
    "MC field battle, 7 v 6 dice": "odds.his.field_battle(5, 5, attacker_leader=2, {mc})",
    "MC assault, Siege Artillery if needed": "odds.his.assault(6, 2, attacker_cards="
                                             "['siege-artillery'], {mc})",
    "MC naval, 4 v 4 galleys": "odds.his.naval_battle(attacker_galleys=4, defender_galleys=4, {mc})",
    "MC Oath campaign, 6 v 4 dice + 2 warbands": "odds.oath.campaign(6, defense_dice=4, "
                                                 "defenders=2, {mc})",
    "MC crusades battle, field.toml (10 v 10 on 12 x 10)": "odds.crusades.run(odds.crusades.EXAMPLES"
                                                           " / 'field.toml', battles=n, "
                                                           "method='mc', progress=False)",
}
# trials per call (quick, full) where the default (20 and 200 million) would take minutes
TRIALS = {"MC crusades battle, field.toml (10 v 10 on 12 x 10)": (200_000, 1_000_000)}
TIMER = """
import sys, time, odds
call = lambda n: {call}
call({warm})  # loads (or compiles) the kernels
times = []
for _ in range(3):
    t = time.perf_counter(); call({n}); times.append(time.perf_counter() - t)
print({n} / min(times))
"""


def rate_in(tree, call, n) -> float:
    """Trials per second of `call` with `n` trials in a fresh process on the code in `tree`."""
    code = TIMER.format(call=call.format(mc="method='mc', trials=n, progress=False"), n=n,
                        warm=min(n // 10, 100_000))
    env = {**USER_ENV, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=env, cwd=tree.parent)
    return float(out.stdout.strip().splitlines()[-1])


def measure(quick=False, rev=ROUND_START):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        then = extract(rev, Path(tmp) / "then")
        if then is None:
            return rows
        for name, call in CALLS.items():
            n = TRIALS.get(name, (20_000_000, 200_000_000))[0 if quick else 1]
            best = {"now": 0.0, "then": 0.0}
            for _ in range(2 if quick else 3):  # alternately
                for which, tree in (("now", ROOT), ("then", then)):
                    best[which] = max(best[which], rate_in(tree, call, n))
            rows.append(Row(f"{name}, against its code at {rev}", best["now"], "/s",
                            best["then"], f"code of {rev}", "no slower (>= 1x)"))
    return rows


if __name__ == "__main__":
    rev = sys.argv[sys.argv.index("--then") + 1] if "--then" in sys.argv else ROUND_START
    print(table(measure("--quick" in sys.argv, rev)))
