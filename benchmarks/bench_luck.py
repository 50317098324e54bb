"""`odds luck` on a long record: 10,000 rolls (the sample game's 27 rolls repeated, the armies
of its field battles given as losses one to 30 units larger: 114 distinct situations), read
from TOML, each roll scored, the whole game convolved.
Baseline: the same rolls scored with no situation cache (every roll's exact Result computed
again), timed on 500 rolls and scaled to 10,000. Target: under 10 s (issue 44)."""
import re
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, Row, table
from odds.records import report, situations
from odds.records.report import luck

ROLLS = 10_000
SAMPLE = ROOT / "odds/records/samples/his_1532.toml"


def record(rolls: int) -> str:
    """The sample's rolls repeated, the attackers of its field battles recorded by losses 0 to
    29 units larger, so situations repeat as over many games (the same battle sizes come back)."""
    blocks = SAMPLE.read_text().split("[[roll]]")[1:]
    out = []
    for i in range(rolls):
        block = blocks[i % len(blocks)]
        extra = (i // len(blocks)) % 30
        out.append(re.sub(r"(keywords = \{ attacker = )(\d+)",
                          lambda m: f"{m[1]}{int(m[2]) + extra}", block)
                   if "his.field" in block and "dice" not in block else block)
    return "".join("[[roll]]" + b for b in out)


def seconds(path) -> tuple[float, int]:
    start = time.perf_counter()
    frame = luck(str(path))
    return time.perf_counter() - start, frame.attrs["situations"]


def uncached(path) -> float:
    """Seconds of luck() with a fresh Situations for every roll (no cache)."""
    class Fresh(situations.Situations):
        def ask(self, entry):  # every roll its own situation: checked and solved again
            key = super().ask(entry)
            fresh = (key, len(self._asked))
            self._asked[fresh] = self._asked.pop(key)
            return fresh

    original, report.Situations = report.Situations, Fresh
    try:
        return seconds(path)[0]
    finally:
        report.Situations = original


def measure(quick=False):
    with tempfile.TemporaryDirectory() as folder:
        long, short = Path(folder, "long.toml"), Path(folder, "short.toml")
        long.write_text(record(ROLLS))
        short.write_text(record(500))
        luck(str(short))  # imports and the procedures' first calls
        ours, distinct = seconds(long)
        base = uncached(short) * ROLLS / 500
    return [Row(f"odds.luck, a {ROLLS:,}-roll record ({distinct} distinct situations)", ours, "s",
                base, "no situation cache, 500 rolls scaled", "< 10 s")]


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
