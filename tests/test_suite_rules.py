"""Rules the suite keeps so that it tells the truth on any machine: no test reads a clock or
sleeps (a wait is hang.poll: a condition, bounded against a hang), and a page test without
Chromium says why and what to install, or fails under CI=true."""
import ast
from pathlib import Path

import pytest

import chromium

TESTS = Path(__file__).parent
CLOCKS = {"perf_counter", "perf_counter_ns", "time", "time_ns", "monotonic", "monotonic_ns",
          "process_time", "thread_time", "sleep"}
WAITS = {"wait_for_timeout"}  # Playwright's sleep
ALLOWED = {"hang.py"}  # the bounded wait itself


def speed_assumptions(source: str) -> list[str]:
    """The places in a test module's source that read a clock, sleep or read a process's CPU
    time: each a 'line N: what' string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        what = None
        if isinstance(node, ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if (owner == "time" and node.attr in CLOCKS) or (owner, node.attr) == ("asyncio", "sleep"):
                what = f"{owner}.{node.attr}"
            elif node.attr in WAITS:
                what = node.attr
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            what = "from time import " + ", ".join(a.name for a in node.names)
        elif isinstance(node, (ast.Constant, ast.JoinedStr)) and is_proc_stat(node):
            what = "a process's CPU time, read from /proc"
        if what:
            found.append(f"line {node.lineno}: {what}")
    return found


def is_proc_stat(node) -> bool:
    """A string (an f-string's text parts joined) naming a process's /proc stat file."""
    parts = node.values if isinstance(node, ast.JoinedStr) else [node]
    text = "".join(p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str))
    return "/proc/" in text and "stat" in text


@pytest.mark.parametrize("path", sorted(p.name for p in TESTS.glob("*.py")
                                        if p.name not in ALLOWED))
def test_no_test_reads_a_clock_or_sleeps(path):
    """Seconds differ between a fast, a slow and a loaded machine: wait for what the work says
    (hang.poll on a condition), assert order and outcome; speeds belong in benchmarks/."""
    assert speed_assumptions((TESTS / path).read_text()) == []


@pytest.mark.parametrize("source, found", [
    ("import time\nt = time.perf_counter()\n", ["line 2: time.perf_counter"]),
    ("import time\ntime.sleep(0.5)\n", ["line 2: time.sleep"]),
    ("from time import monotonic\n", ["line 1: from time import monotonic"]),
    ("import asyncio\nasync def f():\n    await asyncio.sleep(1)\n", ["line 3: asyncio.sleep"]),
    ("page.wait_for_timeout(300)\n", ["line 1: wait_for_timeout"]),
    ("open('{}')\n".format("/proc/1/" + "stat"), ["line 1: a process's CPU time, read from /proc"]),
    ("open(f'{}')\n".format("/proc/{pid}/" + "stat"), ["line 1: a process's CPU time, read from /proc"]),
    ("from hang import poll\npoll(lambda: True, 'x')\n", []),
])
def test_the_rule_catches_each_kind_of_speed_assumption(source, found):
    assert speed_assumptions(source) == found


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception),
                                         (None, pytest.skip.Exception)])
def test_a_page_test_without_chromium_says_what_to_install(monkeypatch, ci, outcome):
    monkeypatch.setattr(chromium, "MISSING", "Debian's chromium is not installed at /x")
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match=r"page tests: Debian's chromium is not installed at /x.*"
                                      r"apt-get install chromium"):
        chromium.require()
