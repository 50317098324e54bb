"""The calculator as a web page: odds serve, headless Chromium, a field battle set in the page."""
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest

import odds

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytest.importorskip("voila")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "odds.cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("odds serve did not start listening")
    yield f"http://127.0.0.1:{port}/"
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def page(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1100, "height": 1400})
        page.goto(server, timeout=90_000)
        page.wait_for_selector(".odds-result pre", timeout=90_000)
        yield page
        browser.close()


def shown_win(page):
    text = page.inner_text(".odds-result pre")
    return float(re.search(r"attacker win\s+([\d.]+)%", text).group(1)) / 100


def set_field(page, name, value):
    box = page.locator(f".odds-field-{name} input")
    box.fill(str(value))
    box.press("Enter")


def test_a_field_battle_set_in_the_page_shows_the_librarys_answer(page, tmp_path):
    set_field(page, "attacker", 7)
    set_field(page, "attacker_leader", 2)
    want = odds.his.field_battle(7, 4, attacker_leader=2).p
    page.wait_for_function(
        "w => { const e = document.querySelector('.odds-result pre');"
        " return e && e.innerText.includes(w); }", arg=f"{want:.2%}", timeout=30_000)
    assert shown_win(page) == pytest.approx(want, abs=5e-5)
    page.screenshot(path=str(tmp_path / "calculator.png"), full_page=True)
    assert (tmp_path / "calculator.png").stat().st_size > 10_000


def test_impossible_input_shows_a_message_not_a_traceback(page):
    set_field(page, "attacker_leader", 9)
    page.wait_for_selector(".odds-error p", timeout=30_000)
    message = page.inner_text(".odds-error")
    assert "attacker_leader: 9 is out of range" in message
    assert "Traceback" not in page.content()
    set_field(page, "attacker_leader", 1)
    page.wait_for_selector(".odds-result pre", timeout=30_000)
