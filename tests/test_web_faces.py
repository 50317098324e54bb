"""What the page shows around the numbers, in Chromium (Playwright) at phone and desktop sizes:
a refused value marks its field with the message beside it and greys the stale answer; Oath's
plans with an argument can be picked and survive a link."""
import pytest

from odds.registry import get
from chromium import SETTLED, SIZES, needed, opened

pytestmark = needed


@pytest.fixture(scope="module")
def browser(page_browser):
    return page_browser


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_value_is_marked_beside_its_field_and_the_old_answer_is_greyed(
        browser, size, tmp_path):
    page = opened(browser, size, "?procedure=his.field&attacker=5&defender=4")
    assert page.inner_text("#headline").startswith("Attacker wins")
    page.fill("#f-attacker_cavalry", "9")  # more cavalry than the attacker's 5 units
    page.wait_for_function(SETTLED, timeout=60_000)
    field = page.locator('.field[data-name="attacker_cavalry"]')
    assert page.get_attribute("#f-attacker_cavalry", "aria-invalid") == "true"
    beside = field.locator(".field-error").inner_text()
    assert beside.startswith("attacker mercenaries + attacker cavalry: ") and "9" in beside
    assert "attacker_cavalry" not in beside
    assert "stale" in page.get_attribute("#answer", "class")
    assert page.evaluate("getComputedStyle(document.getElementById('headline')).opacity") == "0.3"
    assert page.evaluate("document.getElementById('peek').textContent").startswith("No answer")
    # the message is on screen beside the field: within one screen of the field's top
    box, message = page.locator("#f-attacker_cavalry").bounding_box(), field.locator(".field-error").bounding_box()
    assert 0 <= message["y"] - box["y"] < 200
    page.screenshot(path=str(tmp_path / f"refused-{size}.png"), full_page=True)

    page.fill("#f-attacker_cavalry", "1")  # fixed: the mark and the greying go
    page.wait_for_function(SETTLED, timeout=60_000)
    assert page.locator(".field-error").count() == 0
    assert page.get_attribute("#f-attacker_cavalry", "aria-invalid") is None
    assert "stale" not in page.get_attribute("#answer", "class")
    page.close()


def test_a_link_that_is_refused_at_once_says_no_answer_not_loading(browser):
    page = opened(browser, "desktop", "?procedure=oath.campaign&sites=1&defense_dice=4")
    assert page.inner_text("#headline") == "No answer"
    assert page.get_attribute("#f-defense_dice", "aria-invalid") == "true"
    page.close()


def test_oath_plans_with_an_argument_are_picked_and_kept_by_a_link(browser):
    spec = get("oath.campaign")
    page = opened(browser, "desktop", "?procedure=oath.campaign&plans=attack:%2B2&plans=war-tortoise:defender")
    want = spec.call(**{**spec.start, "plans": ["attack:+2", "war-tortoise:defender"]}).p
    assert abs(float(page.get_attribute("#main-pct", "data-p")) - want) < 1e-12
    page.select_option("#f-plans", "defense")
    page.select_option("[aria-label='defense policy']", "-1")
    page.wait_for_function(SETTLED, timeout=60_000)
    want = spec.call(**{**spec.start, "plans": ["attack:+2", "war-tortoise:defender", "defense:-1"]}).p
    assert abs(float(page.get_attribute("#main-pct", "data-p")) - want) < 1e-12
    assert "defense%3A-1" in page.url
    page.close()


INTERNAL = (r"\[:|--[a-z]|(?<!/)\b[a-z]+_[a-z_]+\b|^(true|false)$|[{}]|\brepeatable\b"
            r"|\b[a-z]+:[a-z]|\b[a-z]+-(i|ii|iii|v|vi|vii|x)\b")  # a card's policy, a pope's id
# the procedures beyond the battlefield, read at a phone's width too (issue 42)
PHONE = ["his.piracy", "his.foreign_war", "his.exploration", "his.conquest", "his.raiders",
         "his.reformation", "his.counter_reformation", "his.targets", "his.debate",
         "his.diet_of_worms"]
WORDS = [(n, "desktop") for n in __import__("odds.registry", fromlist=["specs"]).specs()] + \
    [(n, "phone") for n in PHONE]


@pytest.mark.parametrize("name, size", WORDS, ids=[f"{n}-{s}" for n, s in WORDS])
def test_the_page_speaks_in_its_own_words_not_the_librarys(browser, name, size):
    """No card-policy brackets or card:policy words, command-line flags or words
    ("repeatable"), parameter identifiers, true/false, dict dumps or a pope's id ("leo-x") in
    the form, the answer, its tables or the notes (each line of text on the page)."""
    page = opened(browser, size, f"?procedure={name}")
    lines = page.evaluate("() => [...document.querySelectorAll('#form small, #form label,"
                          " #form legend, #form option, #answer li, #answer dd, #answer dt,"
                          " #answer .headline, #tables th, #tables td, #tables caption')]"
                          ".map((e) => e.innerText.trim())")
    import re
    leaks = [line for line in lines if re.search(INTERNAL, line, re.M)]
    assert leaks == []
    page.close()


def test_card_pickers_offer_only_the_cards_that_side_may_play_there():
    """The page's pickers list a Param's choices: each offered card is accepted on its side
    (with the power it needs), and the assault's and the siege's side lists differ."""
    from odds.his.cards import CARDS
    for name, side in (("his.assault", "attacker"), ("his.assault", "defender"),
                       ("his.siege", "defender"), ("his.attack", "siege")):
        spec = get(name)
        param = spec.param(f"{side}_cards")
        assert param.choices, (name, side)
        for card in param.choices:
            power = CARDS[card].needs or (CARDS[card].powers or ("other",))[0]
            power_side = "attacker" if side == "siege" else side
            spec.check({**spec.start, param.name: [card], f"{power_side}_power": power})
    assert get("his.assault").param("defender_cards").choices == ("mercenaries-grow-restless",)
    assert "tercios" not in get("his.attack").param("siege_cards").choices


def test_arrow_keys_browse_the_card_list_and_enter_adds(browser):
    page = opened(browser, "desktop", "?procedure=his.field&attacker=5&defender=4")
    page.focus("#f-attacker_cards")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.locator('.field[data-name="attacker_cards"] .chip').count() == 0
    page.keyboard.press("Enter")
    chips = page.locator('.field[data-name="attacker_cards"] .chip')
    assert chips.count() == 1 and chips.get_attribute("data-card") == get("his.field").param(
        "attacker_cards").choices[1]
    page.close()


def test_the_chart_has_a_text_alternative(browser):
    spec = get("his.field")
    r = spec.call(attacker=5, defender=4)
    page = opened(browser, "desktop", "?procedure=his.field&attacker=5&defender=4")
    svg = page.locator("#chart svg")
    assert svg.get_attribute("role") == "img"
    words = svg.get_attribute("aria-label")
    pmf = r.pmfs["attacker_losses"]
    assert words.startswith("attacker losses: 0 ")
    assert f"; mean {pmf @ range(len(pmf)):.2f}" in words and "defender losses: " in words
    page.close()


def test_the_readmes_oath_example_works_on_the_page_as_typed(browser):
    """odds oath campaign --warbands 8 --site --site --defenders 2 --sacrifice at-most:1
    --optimise --goal win-within:2, entered field by field: a target puts the page's starting
    defense dice back to none, so the question is the README's."""
    readme = (__import__("pathlib").Path(__file__).parents[1] / "README.md").read_text()
    assert "--warbands 8 --site --site --defenders 2 --sacrifice at-most:1 --optimise" in readme
    page = opened(browser, "desktop", "?procedure=oath.campaign")
    page.fill("#f-warbands", "8")
    page.fill("#f-sites", "1,1")
    page.fill("#f-defenders", "2")
    page.fill("#f-sacrifice", "at-most:1")
    page.check("#f-optimise")
    page.fill("#f-goal", "win-within:2")
    page.wait_for_function(SETTLED, timeout=60_000)
    want = get("oath.campaign").call(warbands=8, sites=[1, 1], defenders=2, sacrifice="at-most:1",
                                     optimise=True, goal="win-within:2").p
    assert page.is_hidden("#error"), page.inner_text("#error")
    assert float(page.get_attribute("#main-pct", "data-p")) == pytest.approx(want, abs=1e-12)
    assert page.input_value("#f-defense_dice") == ""
    page.close()
