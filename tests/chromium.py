"""Debian's Chromium driven by Playwright against a real `odds serve`, for the page tests:
`served()` yields the browser with `.base`, the server's address; SETTLED waits until the page
shows an answer or an error for the question it last asked."""
import shutil
from contextlib import contextmanager

import pytest

from web_server import running

CHROMIUM = "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api")
needed = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                            reason=f"Debian's chromium is not installed at {CHROMIUM}")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
SETTLED = ("() => { const a = document.getElementById('answer');"
           " return a && !a.classList.contains('busy') && (document.getElementById('main-pct')"
           " || !document.getElementById('error').hidden); }")


@contextmanager
def served():
    with running() as srv, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        browser.base = f"http://127.0.0.1:{srv.config.port}/"
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
