"""The first answer on a fresh install: whole-process times with an empty kernel cache.

Each row runs the command in a new process with NUMBA_CACHE_DIR pointing at an empty folder,
so every kernel it needs is compiled (the state of a fresh install before `odds warmup`), and
compares it with the same command once that cache is filled (the warm start)."""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Row

EXAMPLES = Path(__file__).resolve().parent.parent / "odds" / "crusades" / "examples"
COMMANDS = [
    ("first Monte Carlo field battle", ["his", "field", "--attacker", "5", "--defender", "4",
                                         "--method", "mc", "--json"], "<= 2 s"),
    ("first Oath Monte Carlo", ["oath", "campaign", "--warbands", "6", "--defense-dice", "4",
                                "--method", "mc", "--json"], "<= 2 s"),
    ("first crusades run (2,000 battles)", ["crusades", "run", str(EXAMPLES / "field.toml"),
                                            "--battles", "2000", "--json"], "<= 8 s"),
    ("`odds demo`", ["demo"], "<= 15 s"),
]


def seconds(argv, cache: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "odds.cli", *argv], check=True, capture_output=True,
                   env=env)
    return time.perf_counter() - start


def measure(quick=False):
    rows = []
    for name, argv, target in COMMANDS[:2] if quick else COMMANDS:
        with tempfile.TemporaryDirectory() as cache:
            cold = seconds(argv, cache)
            warm = min(seconds(argv, cache) for _ in range(2))
        rows.append(Row(f"{name}, whole process, empty kernel cache", cold, "s", warm,
                        "same, cache filled", target))
    return rows
