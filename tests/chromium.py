"""Debian's Chromium driven by Playwright against a real `odds serve`, for the page tests
(conftest's page_browser: one a module, with the worker's one server); SETTLED
waits until the page shows an answer or an error for the question it last asked. Without
Chromium or Playwright the page tests are skipped, with the command that installs them, and
fail under CI=true."""
import os
import shutil
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
INSTALL = "apt-get install chromium (Debian's package), then pip install -e '.[test]'"
try:
    from playwright import sync_api
except ImportError:
    sync_api = None
MISSING = ("Playwright is not installed" if sync_api is None else
           f"Debian's chromium is not installed at {CHROMIUM}" if shutil.which(CHROMIUM) is None
           else None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
SETTLED = ("() => { const a = document.getElementById('answer');"
           " return a && !a.classList.contains('busy') && (document.getElementById('main-pct')"
           " || !document.getElementById('error').hidden); }")


def require():
    """Skip this page test when Chromium or Playwright is missing; under CI=true, fail it."""
    if MISSING is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"page tests: {MISSING}; CI=true runs them ({INSTALL})", pytrace=False)
    pytest.skip(f"page tests: {MISSING} (to run them: {INSTALL})")


needed = pytest.mark.usefixtures("chromium_required")  # a page test's mark (conftest.py)


@contextmanager
def launched():
    """Debian's Chromium, headless, driven by Playwright."""
    require()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def opened(browser, size, query):
    """A new page at `size` (SIZES) showing `query`, once it has settled."""
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(browser.base + query)
    page.wait_for_function(SETTLED, timeout=60_000)
    return page
