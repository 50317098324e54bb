"""Shared by the benchmark scripts: timing, rows of the performance table, the table itself.

A bench_*.py module has `measure() -> list[Row]`; run.py collects every module's rows into the
README's table. Each row compares our number with a baseline measured in the same run.
"""
from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUND_START = "4cd04ea"  # the code before issue 29 (docs/performance.md)

# Whole-process timings run as on a user's machine, where Python keeps the package's compiled
# bytecode after the first run. This sandbox sets PYTHONDONTWRITEBYTECODE, so every process
# compiled odds' sources again (about 0.05 s of each CLI call, measured).
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def extract(rev, tmp):
    """The package as of commit `rev`, unpacked into the new folder tmp (None if git cannot)."""
    try:
        data = subprocess.run(["git", "archive", rev, "odds"], cwd=ROOT, capture_output=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    tmp.mkdir()
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=data, check=True)
    return tmp


def best_of(fn, repeat=5, number=1):
    """Best wall time of `number` calls of fn, over `repeat` rounds (seconds per call)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t) / number)
    return best


def rate(fn, trials, repeat=3):
    """Trials per second of fn(trials), best of `repeat` after one warm-up call."""
    fn(min(trials, 100_000))
    return trials / best_of(lambda: fn(trials), repeat)


@dataclass
class Row:
    measurement: str
    ours: float
    unit: str  # "/s" (higher is better) or "us", "ms", "s", "MiB" (lower is better)
    baseline: float | None = None
    baseline_name: str = ""
    target: str = ""

    @property
    def ratio(self):
        if not self.baseline:
            return None
        return self.ours / self.baseline if self.unit == "/s" else self.baseline / self.ours

    def cells(self):
        ratio = f"{self.ratio:.1f}x" if self.ratio else ""
        base = f"{_fmt(self.baseline, self.unit)} ({self.baseline_name})" if self.baseline else ""
        return [self.measurement, _fmt(self.ours, self.unit), base, ratio, self.target]


def _fmt(value, unit):
    if unit == "/s":
        return f"{value / 1e6:,.1f} M/s" if value >= 1e6 else f"{value:,.0f} /s"
    return f"{value:,.3g} {unit}"


HEADER = ["measurement", "odds", "baseline (same run)", "odds vs baseline", "target"]


def table(rows) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    return "\n".join(lines)
