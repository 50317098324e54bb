"""Suite-wide: a page test's requirement (chromium.require), one line per group of skipped
tests at the end of the run, saying why and what to install, hypothesis derandomized (every
property test draws the same cases each run, on any machine: a failure is found by every run,
not by one in many), and a monkeypatch that patches only this project's objects (patching)."""
from collections import Counter

import pytest
from hypothesis import settings

from patching import OwnPatch

settings.register_profile("odds", derandomize=True, database=None, deadline=None)
settings.load_profile("odds")


@pytest.fixture
def monkeypatch():
    """pytest's monkeypatch, refusing a library's object (patching.OwnPatch)."""
    with OwnPatch.context() as patch:
        yield patch


@pytest.fixture(scope="session")
def page_base():
    """One `odds serve` (web_server.running) for every page test of this worker process: its
    address. The page tests only ask it questions; a test that holds, limits or stops a server
    starts its own."""
    from web_server import running

    with running() as srv:
        yield f"http://127.0.0.1:{srv.port}/"


@pytest.fixture(scope="module")
def page_browser(page_base):
    """Debian's Chromium (chromium.launched) for a module's page tests, with `.base`,
    page_base's address. Not shared further: Playwright's sync API holds an event loop running
    in this thread while it is open, and a later test's asyncio.run would be refused."""
    from chromium import launched

    with launched() as browser:
        browser.base = page_base
        yield browser


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
