"""The first answer on a fresh install: whole-process times with an empty kernel cache, this
code against the code of ROUND_START (common.py) in the same run.

Each command runs in a new process with NUMBA_CACHE_DIR pointing at an empty folder, so every
kernel it needs is compiled (a fresh install before `odds warmup`), then twice more on that
filled cache (the warm start, best of two); this code and ROUND_START's alternate, command by
command (the machine's speed drifts). Both run in an empty folder: `python -m` puts the
working folder before PYTHONPATH. The last rows are this code with ODDS_FAST_COMPILE=1."""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROUND_START, USER_ENV, Row, extract, table

EXAMPLES = Path(__file__).resolve().parent.parent / "odds" / "crusades" / "examples"
MC = ["--method", "mc", "--json"]
FIELD = ["his", "field", "--attacker", "5", "--defender", "4", *MC]
CRUSADES = ["crusades", "run", str(EXAMPLES / "field.toml"), "--battles", "2000", "--json"]
COMMANDS = [
    ("first Monte Carlo field battle", FIELD, "<= 2 s"),
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
    ("first crusades run (2,000 battles)", CRUSADES, "<= 8 s"),
    ("`odds demo`", ["demo"], "<= 15 s"),
]
FAST = [("first Monte Carlo field battle", FIELD), ("first crusades run (2,000 battles)", CRUSADES)]


def seconds(argv, cache: str, env: dict, where: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", *argv], check=True, capture_output=True,
                   env={**env, "NUMBA_CACHE_DIR": cache}, cwd=where)
    return time.perf_counter() - start


def cold_and_warm(argv, env: dict, where: str):
    with tempfile.TemporaryDirectory() as cache:
        cold = seconds(argv, cache, env, where)
        return cold, min(seconds(argv, cache, env, where) for _ in range(2))


def measure(quick=False):
    """Rows of cold and warm whole-process seconds (quick or not: one cold run and two warm
    ones per command and code)."""
    rows, then_name = [], f"code of {ROUND_START}"
    with tempfile.TemporaryDirectory() as tmp:
        then = extract(ROUND_START, Path(tmp) / "then")
        codes = {"now": USER_ENV}
        if then:
            codes["then"] = {**USER_ENV, "PYTHONPATH": str(then)}
        for name, argv, target in COMMANDS:
            got = {code: cold_and_warm(argv, env, tmp) for code, env in codes.items()}
            base = got.get("then", (None, None))
            rows.append(Row(f"{name}, whole process, empty kernel cache", got["now"][0], "s",
                            base[0], then_name, target))
            rows.append(Row(f"{name}, whole process, cache filled", got["now"][1], "s", base[1],
                            then_name, ""))
        for name, argv in FAST:
            fast = cold_and_warm(argv, {**USER_ENV, "ODDS_FAST_COMPILE": "1"}, tmp)[0]
            base = cold_and_warm(argv, codes["then"], tmp)[0] if then else None
            rows.append(Row(f"{name}, empty kernel cache, ODDS_FAST_COMPILE=1", fast, "s", base,
                            then_name, ""))
    return rows


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
