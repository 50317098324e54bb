"""The first answer on a fresh install: whole-process times with an empty kernel cache.

Each row runs the command in a new process with NUMBA_CACHE_DIR pointing at an empty folder,
so every kernel it needs is compiled (the state of a fresh install before `odds warmup`), and
compares it with the same command once that cache is filled (the warm start)."""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import USER_ENV, Row

EXAMPLES = Path(__file__).resolve().parent.parent / "odds" / "crusades" / "examples"
MC = ["--method", "mc", "--json"]
COMMANDS = [
    ("first Monte Carlo field battle", ["his", "field", "--attacker", "5", "--defender", "4", *MC],
     "<= 2 s"),
    ("first Oath Monte Carlo", ["oath", "campaign", "--warbands", "6", "--defense-dice", "4", *MC],
     "<= 2 s"),
    ("first MC field battle, Janissaries", ["his", "field", "--attacker", "6", "--defender", "5",
                                            "--attacker-power", "ottoman", "--attacker-card",
                                            "janissaries", *MC], ""),
    ("first MC assault, Siege Artillery", ["his", "assault", "--attacker", "6", "--defender", "2",
                                           "--attacker-card", "siege-artillery", *MC], ""),
    ("first MC siege, 3 assaults", ["his", "siege", "--attacker", "6", "--defender", "2",
                                    "--assaults", "3", *MC], ""),
    ("first MC naval battle (HIS)", ["his", "naval", "--attacker-squadrons", "3",
                                     "--defender-squadrons", "2", *MC], ""),
    ("first MC interception roll", ["his", "intercept", "--leader", "2", *MC], ""),
    ("first MC attack (avoid, battle, siege)", ["his", "attack", "--attacker", "8", "--defender",
                                                "4", "--assaults", "3", *MC], ""),
    ("first crusades run (2,000 battles)", ["crusades", "run", str(EXAMPLES / "field.toml"),
                                            "--battles", "2000", "--json"], "<= 8 s"),
    ("`odds demo`", ["demo"], "<= 15 s"),
]


def seconds(argv, cache: str) -> float:
    env = {**USER_ENV, "NUMBA_CACHE_DIR": cache}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "odds.cli", *argv], check=True, capture_output=True,
                   env=env)
    return time.perf_counter() - start


def measure(quick=False):
    rows = []
    for name, argv, target in COMMANDS:  # quick or not: each row is one cold and two warm runs
        with tempfile.TemporaryDirectory() as cache:
            cold = seconds(argv, cache)
            warm = min(seconds(argv, cache) for _ in range(2))
        rows.append(Row(f"{name}, whole process, empty kernel cache", cold, "s", warm,
                        "same, cache filled", target))
    return rows
