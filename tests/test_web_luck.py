"""The "How lucky was I?" page: POST /api/luck answers as `odds luck --json` does (never
reading a path), and the page in a real browser (Playwright, Debian's Chromium) at phone and
desktop sizes: the sample game's table, one plot per side, refused rolls listed."""
import json
import urllib.error
import urllib.request

import pytest

from odds.errors import shown

from odds.tools.luck.report import to_json as as_json
from odds.tools.luck.report import SAMPLE, dice, luck, whole_game
from odds.tools.luck.text import ordinal

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
BAD = SAMPLE.read_text() + '\n[[roll]]\nprocedure = "his.field"\nkeywords = { attacker = 2, defender = 2 }\nside = "Ottoman"\nattacker_hits = 5\ndefender_hits = 0\n'


@pytest.fixture(scope="module")
def base(page_base):
    return page_base


def post(base, body: bytes):
    try:
        with urllib.request.urlopen(urllib.request.Request(base + "api/luck", data=body), timeout=300) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_api_answers_as_the_command_line_and_refuses_in_one_line(base):
    status, answer = post(base, SAMPLE.read_bytes())
    assert status == 200 and answer == json.loads(json.dumps(as_json(luck(SAMPLE))))
    status, answer = post(base, BAD.encode())
    assert status == 200
    assert answer["refused"] == ["line 227: attacker_hits: 5 is impossible from 2 dice (allowed: 0 to 2)"]
    status, answer = post(base, str(SAMPLE).encode())  # a path is text, never a file to read
    assert status == 400 and answer["error"].startswith(f"record: column {shown(str(SAMPLE))} is not a field")
    assert post(base, b"\xff\xfe")[0] == 400
    assert post(base, b"x" * (1 << 21))[0] == 413
    with urllib.request.urlopen(base + "luck/sample.toml", timeout=30) as r:
        assert r.read() == SAMPLE.read_bytes()


@pytest.mark.parametrize("size", SIZES)
def test_the_page_scores_the_sample_game_and_lists_refused_rolls(base, page_browser, tmp_path, size):
    game = whole_game(luck(SAMPLE))
    width, height = SIZES[size]
    browser = page_browser
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(base)
    page.click("text=How lucky was I?")
    page.wait_for_url("**/luck")
    page.click("#sample")
    page.wait_for_selector("#result:not([hidden]) #game tbody tr", timeout=60_000)
    rows = page.locator("#game tbody tr")
    assert rows.count() == len(game)
    first = rows.nth(0).locator("td")
    assert rows.nth(0).locator("th").inner_text() == game.side[0]
    assert first.nth(1).inner_text() == ordinal(game.percentile[0])
    assert page.locator("#plots figure").count() == game.side.nunique()
    own = dice(luck(SAMPLE))  # the dice's own luck: a row per side, kind of die and measure
    assert page.locator("#dice tbody tr").count() == len(own) > 0
    assert page.locator("#dice tbody tr").nth(0).locator("td").nth(2).inner_text() == ordinal(own.percentile[0])
    assert page.locator("#plots .dice-line").count() == own.side.nunique()
    assert page.locator("#rolls tbody tr").count() == len(luck(SAMPLE))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(tmp_path / f"luck-{size}.png"), full_page=True)
    page.fill("#record", BAD)
    page.click("#score")
    page.wait_for_selector("#refused-box:not([hidden])", timeout=60_000)
    assert "line 227: attacker_hits: 5 is impossible" in page.inner_text("#refused")
    page.fill("#record", "[[roll]]\nprocedure = 1\n")
    page.click("#score")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").startswith("record: no roll could be read")
    assert not errors
    page.close()


def test_the_page_says_a_binary_file_is_not_text_and_plots_a_record_of_losses(base, page_browser, tmp_path):
    """A file that is not UTF-8 was decoded by the page into replacement characters and sent;
    a side recorded by its losses alone was plotted under the label `undefined`."""
    binary = tmp_path / "game.toml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe" + bytes(range(256)))
    losses = ('[[roll]]\nprocedure = "his.field"\nkeywords = { attacker = 4, defender = 3 }\n'
              'side = "Ottoman"\nattacker_losses = 2\n')
    browser = page_browser
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + "luck")
    page.set_input_files("#file", str(binary))
    page.wait_for_selector("#error:not([hidden])", timeout=60_000)
    assert page.inner_text("#error") == ("record: game.toml is not UTF-8 text (allowed: a TOML "
                                         "or CSV record saved as UTF-8)")
    assert page.input_value("#record") == ""
    page.fill("#record", losses)
    page.click("#score")
    page.wait_for_selector("#result:not([hidden]) #game tbody tr", timeout=60_000)
    text = page.evaluate("document.body.innerText")
    assert "undefined" not in text and "losses taken above expected" in text
    assert "1 roll scored from 1 distinct situation, exact" in text
    page.close()
