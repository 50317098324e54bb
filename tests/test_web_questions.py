"""The questions on the web: GET /api/{procedure}/compare and /need on a real server, and the
page's compare view in Debian's Chromium at phone and desktop sizes (plans side by side, kept
in the share link)."""
import json
import re
import urllib.error
import urllib.request
from urllib.parse import quote, urlencode

import pytest

import odds
from odds import OddsError
from chromium import SIZES

ASSAULT = {"attacker": 6, "attacker_leader": 1, "defender": 3}


@pytest.fixture(scope="module")
def base(page_base):
    return page_base


def fetch(base, path, query):
    try:
        with urllib.request.urlopen(f"{base}{path}?{urlencode(query, doseq=True)}") as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_api_compare_is_odds_compare(base):
    query = [*ASSAULT.items(), ("plan", "attacker_cards=siege-artillery"),
             ("plan", "attacker=8 attacker_cards=siege-artillery")]
    status, body = fetch(base, "api/his.assault/compare", query)
    want = odds.compare("his.assault", ASSAULT, {
        "attacker_cards=siege-artillery": {"attacker_cards": ["siege-artillery"]},
        "attacker=8 attacker_cards=siege-artillery": {"attacker": 8, "attacker_cards": ["siege-artillery"]}})
    assert status == 200, body
    assert body == json.loads(json.dumps(want.to_json()))


def test_api_need_is_odds_need_and_monte_carlo_keeps_one_seed(base):
    query = {"defender": 5, "defender_leader": 1, "need": 0.8, "vary": "attacker"}
    status, body = fetch(base, "api/his.field/need", query)
    want = odds.need("his.field", {"defender": 5, "defender_leader": 1}, vary="attacker", target=0.8)
    assert status == 200 and body["value"] == want.value and body["sentence"] == want.sentence()
    query = {**query, "vary": "attacker=1..30", "method": "mc", "trials": 50_000, "seed": 2}
    status, body = fetch(base, "api/his.field/need", query)
    want = odds.need("his.field", {"defender": 5, "defender_leader": 1}, vary="attacker=1..30",
                     target=0.8, method="mc", trials=50_000, seed=2)
    assert status == 200 and body["seed"] == 2 and body["value"] == want.value
    assert body["evaluated"] == json.loads(json.dumps(want.to_json()))["evaluated"]


def test_a_compare_after_need_questions_is_answered(base):
    """The exact workers' first pandas string column after a Monte Carlo need question: with
    pyarrow's own allocator it could not reserve memory under the call's cap (a 413)."""
    need = {"defender": 5, "defender_leader": 1, "need": 0.8}
    assert fetch(base, "api/his.field/need", {**need, "vary": "attacker"})[0] == 200
    assert fetch(base, "api/his.field/need", {**need, "vary": "attacker=1..30", "method": "mc",
                                              "trials": 50_000, "seed": 2})[0] == 200
    for _ in range(3):  # each exact worker
        status, body = fetch(base, "api/his.assault/compare", [
            *ASSAULT.items(), ("plan", "attacker_cards=siege-artillery")])
        assert status == 200, body


@pytest.mark.parametrize("path, query, status, words", [
    ("api/his.field/compare", {"attacker": 3, "defender": 3, "plan": "attacker=x"}, 400,
     "plan attacker=x: attacker: 'x' is not a whole number"),
    ("api/his.field/compare", {"attacker": 3, "defender": 3}, 400, "plan: none given"),
    ("api/his.field/compare", {"attacker": 3, "defender": 3, "plan": "nope=2"}, 400,
     "plan nope=2: nope: not a parameter of his.field"),
    ("api/his.field/need", {"defender": 3, "need": 0.8}, 400, "vary: missing"),
    ("api/his.field/need", {"defender": 3, "need": "x", "vary": "attacker"}, 400,
     "need: 'x' is not a number"),
    ("api/his.field/need", {"defender": 3, "need": 1.5, "vary": "attacker"}, 400,
     "need: 1.5 is out of range (allowed: 0 to 1)"),
    ("api/his.field/need", {"defender": 3, "need": 0.8, "vary": "attacker", "event": "x"}, 400,
     "event: 'x' is not an event of his.field"),
    ("api/his.field/need", {"defender": 3, "need": 0.8, "vary": "fortified"}, 400,
     "vary: fortified is not an integer parameter"),
    ("api/crusades.battle/compare", {"scenario": "field", "plan": "scenario=/etc/passwd"}, 400,
     "plan scenario=/etc/passwd: scenario: not changed by a plan"),
    ("api/his.field/why", {"defender": 3}, 404, "question: 'why' is unknown"),
    ("api/his.nothing/compare", {}, 404, "procedure: 'his.nothing' is unknown"),
])
def test_api_questions_refuse_in_one_line(base, path, query, status, words):
    got, body = fetch(base, path, query)
    assert got == status and body["error"].startswith(words) and "\n" not in body["error"]


@pytest.fixture(scope="module")
def browser(page_browser):
    return page_browser


def cell(page, key, plan_name) -> float:
    return float(page.get_attribute(f"#compare-table [data-key='{key}'][data-plan='{plan_name}']", "data-v"))


def columns(page) -> list[str]:
    """The plans as the table names them, one a row (the base first)."""
    return [" ".join(t.split()) for t in page.locator("#compare-table tbody th").all_inner_texts()]


PLANS_SHOWN = "() => document.querySelectorAll('#compare-table tbody tr').length === "


@pytest.mark.parametrize("size", SIZES)
def test_the_page_compares_plans_side_by_side_and_keeps_them_in_the_link(base, browser, tmp_path, size):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(base + "?procedure=his.assault&attacker=6&attacker_leader=1&defender=3"
              "&plan=" + quote("attacker_cards=siege-artillery"))
    page.wait_for_selector("#compare-table:not([hidden])", timeout=20_000)
    plans = {"attacker_cards=siege-artillery": {"attacker_cards": ["siege-artillery"]},
             "attacker=8 attacker_cards=siege-artillery": {"attacker": 8, "attacker_cards": ["siege-artillery"]}}
    want = odds.compare("his.assault", ASSAULT, plans)
    name = "attacker_cards=siege-artillery"
    assert cell(page, "success", name) == want.loc[name, "success"]
    assert cell(page, "success_change", name) == pytest.approx(want.loc[name, "success_change"], abs=1e-12)
    assert cell(page, "expected_defender_losses", "base") == pytest.approx(
        want.loc["base", "expected_defender_losses"], abs=1e-12)

    page.click("#add-plan")  # a plan is built with the form's own pickers
    plan2 = page.locator("fieldset.plan").nth(1)
    assert plan2.locator("select").first.input_value() == "attacker"
    plan2.locator(".stepper input").fill("8")
    plan2.get_by_text("+ another change").click()
    plan2.locator("select[aria-label='plan 2: setting']").nth(1).select_option("attacker_cards")
    plan2.locator("select[aria-label='add a card to attacker cards']").select_option("siege-artillery")
    both = "attacker=8 attacker_cards=siege-artillery:if-needed"
    page.wait_for_function(PLANS_SHOWN + "3", timeout=20_000)
    page.wait_for_function(f"() => document.querySelector(\"#compare-table td[data-plan='{both}']\")",
                           timeout=20_000)
    assert cell(page, "success", both) == want.loc["attacker=8 attacker_cards=siege-artillery", "success"]
    assert columns(page) == ["base", "attacker cards siege-artillery",
                             "attacker units 8 attacker cards siege-artillery (if needed)"]
    assert "plan=attacker%3D8+attacker_cards%3Dsiege-artillery%3Aif-needed" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for row in page.locator("#compare-table tbody tr").all():  # every plan on screen, a phone's too
        cells = row.bounding_box()
        assert cells["x"] >= 0 and cells["x"] + cells["width"] <= width
    page.locator("#compare").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"compare-{size}.png"), full_page=True)

    page.reload()  # the share link holds the plans
    page.wait_for_function(PLANS_SHOWN + "3", timeout=20_000)
    plan2 = page.locator("fieldset.plan").nth(1)
    assert plan2.locator(".stepper input").input_value() == "8"
    assert plan2.locator(".chip").get_attribute("data-card") == "siege-artillery"

    plan2.locator(".stepper input").fill("0")  # refused: said in the page's words, beside it
    page.wait_for_selector("fieldset.plan .field-error")
    with pytest.raises(OddsError) as error:
        odds.compare("his.assault", ASSAULT, {"attacker=0": {"attacker": 0}})
    in_words = str(error.value).split(": ", 1)[1].replace("attacker:", "attacker units:")
    assert plan2.locator(".field-error").inner_text() == in_words
    assert "_" not in in_words and page.is_hidden("#compare-error")
    page.click("[aria-label='remove plan 2']")
    page.wait_for_function(PLANS_SHOWN + "2")
    assert "attacker%3D0" not in page.url and "plan=attacker_cards" in page.url
    page.click("[aria-label='remove plan 1']")
    page.wait_for_selector("#compare-table", state="hidden")
    assert "plan=" not in page.url
    assert errors == []
    page.close()


FIELDS = {"attacker": "attacker units", "defender": "defender units",
          "attacker_leader": "attacker leader", "defender_leader": "defender leader"}


def spoken(sentence: str) -> str:
    """The library's need sentence as the page says it: each KEY=VALUE as the form names the
    field ("attacker units 14"), a field's name in words ("no attacker leader from 0 to 6"),
    the varied count too ("the least attacker units from 1 to 200")."""
    sentence = re.sub(r"\b(no|every|least|most) ([a-z_]+) from\b", lambda m: f"{m[1]} {FIELDS[m[2]]} from",
                      sentence, count=1)
    sentence = re.sub(r"\b([a-z_]+)=([^\s,:)]+)", lambda m: f"{FIELDS[m[1]]} {m[2]}", sentence)
    return re.sub(r"\b[a-z]+_[a-z_]+\b", lambda m: FIELDS[m[0]], sentence)


@pytest.mark.parametrize("size", SIZES)
def test_the_page_answers_what_do_i_need_and_keeps_it_in_the_link(base, browser, tmp_path, size):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    field = {"defender": 5, "defender_leader": 1}
    page.goto(base + "?procedure=his.field&attacker=4&defender=5&defender_leader=1&need=0.8&vary=attacker")
    want = odds.need("his.field", {**field, "attacker": 4}, vary="attacker", target=0.8)
    page.wait_for_function("w => document.getElementById('need-answer').textContent === w",
                           arg=spoken(want.sentence()), timeout=20_000)
    assert "monotone" in page.inner_text("#need-method")

    page.fill("#need-target", "50")
    page.select_option("#need-event", "defender_eliminated")
    want = odds.need("his.field", {**field, "attacker": 4}, vary="attacker", target=0.5,
                     event="defender_eliminated")
    page.wait_for_function("w => document.getElementById('need-answer').textContent === w",
                           arg=spoken(want.sentence()), timeout=20_000)
    assert "need=0.5" in page.url and "event=defender_eliminated" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#need").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"need-{size}.png"), full_page=True)

    page.reload()
    page.wait_for_function("w => document.getElementById('need-answer').textContent === w",
                           arg=spoken(want.sentence()), timeout=20_000)
    assert page.input_value("#need-target") == "50" and page.input_value("#need-vary") == "attacker"

    page.select_option("#need-vary", "attacker_leader")
    page.fill("#need-target", "100")  # P >= 1: never reached by the leader's 0..6
    want = odds.need("his.field", {**field, "attacker": 4}, vary="attacker_leader", target=1.0,
                     event="defender_eliminated")
    page.wait_for_function("w => document.getElementById('need-answer').textContent === w",
                           arg=spoken(want.sentence()), timeout=20_000)
    page.fill("#need-target", "150")  # in the page's words and percent, not `need: 1.5 ... 0 to 1`
    page.wait_for_selector("#need-error:not([hidden])")
    assert page.inner_text("#need-error") == "reaches: 150% is out of range (allowed: 0% to 100%)"
    assert errors == []
    page.close()
