"""The page's readings (issue 49) in Chromium at phone and desktop sizes: an answer that rests on
a reading headlines its range when it is wide, and the "Readings" section gives the answer
under each alternative, the biggest change first, with the main means; a value typed is no
reading; nothing shows code's words or runs wider than the screen."""
import pytest

from odds.registry import get
from chromium import SIZES, needed, opened
from test_page_audit import shown_faults

pytestmark = needed
ISSUE = ("?procedure=his.diet_of_worms&protestant_hand=1,2,4,5&papal_hand=2,3,4"
         "&hapsburg_hand=1,3,5&measure=win")
KWARGS = {"protestant_hand": [1, 2, 4, 5], "papal_hand": [2, 3, 4], "hapsburg_hand": [1, 3, 5],
          "measure": "win"}


@pytest.fixture(scope="module")
def browser(page_browser):
    return page_browser


@pytest.mark.parametrize("size", SIZES)
def test_the_diet_headlines_its_range_and_lists_each_reading(browser, size):
    want = get("his.diet_of_worms").call(**KWARGS)
    page = opened(browser, size, ISSUE)
    range_ = want.to_json()["range"]
    words = " ".join(page.inner_text("#headline").split())
    assert words.startswith("Protestant wins " + range_["headline"]), words
    assert page.inner_text("#main-pct") == f"{want.p:.1%}"
    assert page.is_visible("#readings")
    rows = page.locator("#readings-table tbody tr")
    assert rows.count() == len(want.flips[0]["alternatives"])
    changes = [abs(float(t.replace("−", "-"))) for t in
               page.locator("#readings-table tbody td:nth-child(3)").all_inner_texts()]
    assert changes == sorted(changes, reverse=True)  # the biggest change first
    assert "mean protestant flips" in page.inner_text("#readings-table thead")
    assert "0.5 (reading)" in page.inner_text("#settings")
    assert not shown_faults(page), shown_faults(page)
    if size == "phone":
        assert "depending on the cp-value" in page.inner_text("#peek")
    page.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_reading_without_alternatives_says_why_and_a_typed_value_is_none(browser, size):
    page = opened(browser, size, "?procedure=his.conquest&conquistador=2")
    assert page.is_visible("#readings") and "not tried: no other table" in page.inner_text("#readings")
    assert page.is_hidden("#readings-table")
    assert not shown_faults(page), shown_faults(page)
    page.close()
    page = opened(browser, size, "?procedure=his.piracy&corsairs=2&andrea_doria=true&doria_dice=4")
    assert page.is_hidden("#readings") and "(reading)" not in page.inner_text("#settings")
    page.close()
