"""Every parser of other people's text fed 1 MiB of each pathological shape (runs of spaces,
newlines, brackets, quotes, commas, `=`, keys, headers): seconds per MiB at its worst shape,
and the growth from 512 KiB to 1 MiB (x2 is linear). Baseline: the same parser as it stood
before issue 47 (commit 717eeb1) at its worst shape, fed doubling sizes from 256 characters until one
takes over half a second, extrapolated to 1 MiB by the growth of its last doubling (its time
grew with the square, or the cube, of a run). Target: linear, well under 1 s per MiB."""
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, Row, extract

BEFORE = "717eeb1"
SHAPES = {"spaces": " ", "newlines": "\n", "spaces, newlines": " \n", "brackets": "[",
          "quotes": '"', "commas": ",", "equals": "=", "keys": "a=", "dotted keys": "a.",
          "[[roll]] headers": "[[roll]]\n", "a space run then =": " " * 4096 + "=\n",
          "targets": "a=1:1 "}
TIMER = r'''
import json, sys, time
from urllib.parse import parse_qsl
from odds import registry
from odds.files import parse_toml, toml_value
from odds.his.religion.ranking import parse_targets
from odds.tools.questions.plans import plan
from odds.tools.luck.record import read
from odds.frontends.web.api import keywords
from odds.tools.where import conditions

SPEC = registry.get("his.field")
PARSERS = {
    "a record (TOML or CSV text)": lambda t: read(t, paths=False),
    "TOML (scenario, spec, record, request body)": lambda t: parse_toml(t, "spec"),
    "a --set value": lambda t: toml_value(t, "set"),
    "--where": lambda t: conditions([t]),
    "a plan (--compare)": lambda t: plan(SPEC, t),
    "targets": lambda t: parse_targets([t]),
    "a query string (web)": lambda t: keywords(SPEC, parse_qsl(t, max_num_fields=None)),
}
top, shapes = int(sys.argv[1]), json.loads(sys.argv[2])
out = {}
for name, parse in PARSERS.items():
    for shape, unit in shapes.items():
        size, runs = 256, []
        while size <= top and (not runs or runs[-1][1] < 0.5):
            text = (unit * (size // len(unit) + 1))[:size]
            start = time.perf_counter()
            try:
                parse(text)
            except Exception:  # OddsError; before issue 47 also csv.Error, RecursionError
                pass
            runs.append((size, time.perf_counter() - start))
            size *= 2
        out.setdefault(name, {})[shape] = runs[-2:]
print(json.dumps(out))
'''


def timings(path: Path, top: int = 1 << 20) -> dict:
    """{parser: {shape: the last two (characters, seconds)}} of doubling sizes up to `top` (or
    until one takes half a second), with odds from `path`."""
    run = subprocess.run([sys.executable, "-c", TIMER, str(top), json.dumps(SHAPES)],
                         capture_output=True, text=True, check=True, timeout=3600,
                         env={**os.environ, "PYTHONPATH": str(path)})
    return json.loads(run.stdout)


def per_mib(runs) -> tuple[float, float]:
    """(seconds for 1 MiB, growth of the last doubling) from the last two (size, seconds); one
    run alone (half a second at the first size) is taken as linear, a lower bound."""
    (_, first), (size, last) = runs[-2:] if len(runs) == 2 else (runs[0], runs[0])
    growth = max(last / max(first, 1e-6), 2.0)
    return last * growth ** math.log2((1 << 20) / size), growth


def measure(quick=False):
    ours = timings(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        old = None if quick else extract(BEFORE, Path(folder, "old"))
        before = {} if old is None else timings(old)
    rows = []
    for parser, shapes in ours.items():
        shape = max(shapes, key=lambda k: shapes[k][-1][1])
        seconds, growth = per_mib(shapes[shape])
        base, worst = (None, "") if parser not in before else max(
            (per_mib(runs)[0], k) for k, runs in before[parser].items())
        rows.append(Row(f"parse 1 MiB, {parser}: worst shape {shape} (x{growth:.1f} from 512 KiB)",
                        seconds, "s", base, f"{BEFORE}, {worst}, extrapolated",
                        "< 1 s per MiB, linear"))
    return rows


if __name__ == "__main__":
    from common import table

    print(table(measure("--quick" in sys.argv)))
