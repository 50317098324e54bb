"""The page in a real browser (Playwright driving Debian's Chromium) at phone and desktop sizes."""

import pytest

from odds import OddsError
from odds.registry import get
from chromium import SIZES, needed, opened

pytestmark = needed


@pytest.fixture(scope="module")
def base(page_base):
    return page_base


@pytest.fixture(scope="module")
def browser(page_browser):
    return page_browser


def shown(page, want):
    """Wait until the page shows probability `want`; return the headline."""
    page.wait_for_function("w => { const e = document.getElementById('main-pct');"
                           " return e && Math.abs(Number(e.dataset.p) - w) < 1e-12; }",
                           arg=want, timeout=20_000)
    return page.inner_text("#headline")


def box(page, selector):
    return page.locator(selector).bounding_box()


@pytest.mark.parametrize("size", SIZES)
def test_a_field_battle_set_with_the_controls_shows_the_librarys_odds_and_survives_a_reload(
        base, browser, tmp_path, size):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(base + "?procedure=his.field")
    spec = get("his.field")
    shown(page, spec.call(**spec.start).p)

    page.click("[aria-label='more attacker units']")
    page.click("[aria-label='more attacker units']")
    page.select_option("#f-attacker_power", "ottoman")
    page.select_option("#f-attacker_leader", "suleiman")
    page.select_option("#f-attacker_cards", "janissaries")
    page.select_option("[aria-label='janissaries policy']", "if-needed")
    kwargs = {**spec.start, "attacker": spec.start["attacker"] + 2, "attacker_power": "ottoman",
              "attacker_leader": "suleiman", "attacker_cards": ["janissaries:if-needed"]}
    want = spec.call(**kwargs).p
    assert shown(page, want) == f"Attacker wins {want:.1%}"
    assert "attacker_leader=suleiman" in page.url and "attacker_cards=janissaries%3Aif-needed" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    form, answer = box(page, "#form"), box(page, "#answer")
    if size == "phone":  # the form first, within the first screen; the answer below it,
        # its headline kept in view in a bar at the foot of the screen
        assert form["y"] + form["height"] <= answer["y"]
        page.evaluate("window.scrollTo(0, 0)")
        assert page.locator("#f-attacker").bounding_box()["y"] < height / 2
        page.wait_for_selector("#peek", state="visible")
        assert page.inner_text("#peek") == f"Attacker wins {want:.1%}"
        assert box(page, "#peek")["y"] + box(page, "#peek")["height"] == pytest.approx(height, abs=1)
        page.screenshot(path=str(tmp_path / f"{size}-top.png"))
        page.click("#peek")
        page.wait_for_selector("#peek", state="hidden")
    else:
        assert form["x"] + form["width"] <= answer["x"] and abs(form["y"] - answer["y"]) < 2
    page.screenshot(path=str(tmp_path / f"{size}.png"), full_page=True)

    page.reload()
    assert shown(page, want) == f"Attacker wins {want:.1%}"
    assert page.input_value("#f-attacker") == str(kwargs["attacker"])
    assert page.input_value("#f-attacker_leader") == "suleiman"
    assert page.input_value("[aria-label='janissaries policy']") == "if-needed"
    assert page.locator("#chart svg rect").count() > 4
    assert page.inner_text("#explain").startswith("attacker rolls")

    page.fill("#f-attacker", "0")
    page.wait_for_selector("#error:not([hidden])")
    with pytest.raises(OddsError) as error:
        spec.call(**{**kwargs, "attacker": 0})
    in_words = str(error.value).replace("attacker:", "attacker units:", 1)  # as the page labels it
    assert page.inner_text('.field[data-name="attacker"] .field-error') == in_words
    assert page.inner_text("#error") == f"No answer: {in_words} (marked below)"
    assert errors == []
    page.close()


def test_a_held_siege_artillery_keeps_its_timing_and_shows_its_advice_and_tables(base, browser):
    width, height = SIZES["phone"]
    page = browser.new_page(viewport={"width": width, "height": height})
    kwargs = dict(attacker=7, defender=3, assaults=4, attacker_cards=["siege-artillery:optimal"])
    page.goto(base + "?procedure=his.siege&attacker=7&defender=3&assaults=4"
                     "&attacker_cards=siege-artillery:optimal")
    want = get("his.siege").call(**kwargs)
    shown(page, want.p)
    # the held copy's timing from the link is kept (a card's own policies lack `optimal`)
    assert page.input_value("[aria-label='siege-artillery policy']") == "optimal"
    assert "siege-artillery (optimal)" in page.inner_text("#settings")
    assert page.locator("#advice li").all_inner_texts() == list(want.advice)
    # the timings and the optimal rule: one table each, a row per record
    tables = page.inner_text("#tables")
    assert "[object Object]" not in tables + page.inner_text("#settings")
    assert page.locator("#tables table[aria-label='timings'] tbody tr").count() == len(want.timings)
    assert "optimal" in page.locator("#tables table[aria-label='timings'] tbody").inner_text()
    assert page.locator("#tables table[aria-label='optimal rule'] tbody tr").count() == 4
    page.close()


def test_the_targets_links_are_picked_from_the_targets_and_answer_as_the_library(base, browser):
    """Rank my targets' links were a coded box ("KEY=N, …", help saying `:out`): each link is
    now two spaces picked from the targets above. The linked example without its links, then
    its links set on the page, answers as the library each time (a link changes the best
    first target: 68.5% -> 83.1%), and a link reopens from the address."""
    spec = get("his.targets")
    example = dict(spec.example("linked, three attempts").kwargs)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    targets = ",".join(example["targets"])
    page.goto(base + f"?procedure=his.targets&targets={targets}&theses=true&attempts=3")
    shown(page, spec.call(**{**example, "links": []}).p)
    for link in example["links"]:
        page.click("text=+ link two spaces")
        picked = page.locator(".link-row").last.locator("select")
        assert picked.nth(0).evaluate("s => [...s.options].map((o) => o.value)") == \
            [t.split("=")[0] for t in example["targets"]]
        for select, space in zip(picked.all(), link.split("=")):
            select.select_option(space)
    shown(page, spec.call(**example).p)
    assert "KEY=N" not in page.content() and ":out" not in page.inner_text("body")
    page.reload()
    shown(page, spec.call(**example).p)
    assert [[s.input_value() for s in r.locator("select").all()] for r in page.locator(".link-row").all()] \
        == [link.split("=") for link in example["links"]]
    page.close()


def test_the_procedure_picker_shows_every_name_whole_on_a_desktop_and_is_the_headers_width_on_a_phone(browser):
    """On a desktop the picker is wide enough for every game's longest procedure name (as the
    browser measures it in the picker's font); on a phone, where none is, it takes the whole
    width of the header (it was a third of it narrower, cutting names it had room for)."""
    measured = {}
    for size in SIZES:
        page = opened(browser, size, "")
        widest = 0
        for game in page.eval_on_selector_all("#game option", "os => os.map(o => o.value)"):
            page.select_option("#game", game)
            widest = max(widest, page.evaluate(PICKER_TEXT))
        measured[size] = widest, page.evaluate(PICKER_ROOM)
        page.close()
    widest, (room, width, header) = measured["desktop"]
    assert 0 < widest <= room
    widest, (room, width, header) = measured["phone"]
    assert width == header


# the widest name the procedure picker holds, in pixels of its font
PICKER_TEXT = """() => {
    const select = document.getElementById('procedure'), style = getComputedStyle(select);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = `${style.fontSize} ${style.fontFamily}`;
    return Math.max(...[...select.options].map((o) => pen.measureText(o.textContent).width));
}"""
# the picker's room for its text (less its padding and arrow), its width and the header's inner
# width, in pixels
PICKER_ROOM = """() => {
    const select = document.getElementById('procedure'), header = select.closest('header');
    const pad = (e, a, b) => parseFloat(getComputedStyle(e)[a]) + parseFloat(getComputedStyle(e)[b]);
    return [select.clientWidth - pad(select, 'paddingLeft', 'paddingRight') - 20,
            Math.round(select.getBoundingClientRect().width),
            Math.round(header.clientWidth - pad(header, 'paddingLeft', 'paddingRight'))];
}"""
