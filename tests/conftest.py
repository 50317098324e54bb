"""Suite-wide: a page test's requirement (chromium.require), one line per group of skipped
tests at the end of the run, saying why and what to install, and hypothesis derandomized (every
property test draws the same cases each run, on any machine: a failure is found by every run,
not by one in many)."""
from collections import Counter

import pytest
from hypothesis import settings

settings.register_profile("odds", derandomize=True, database=None, deadline=None)
settings.load_profile("odds")


@pytest.fixture
def chromium_required():
    from chromium import require

    require()


def pytest_terminal_summary(terminalreporter):
    reasons = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(f"skipped {n} test{'s' * (n != 1)}: {reason}")
