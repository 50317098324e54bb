"""A shared link reopens exactly the question it was copied from, for every registered
procedure: values that differ from the default, values equal to the default (the page's
starting values may differ from it) and blank fields, in Chromium (Playwright)."""
import pytest

from odds import OddsError
from odds.registry import specs
from chromium import SETTLED, needed

pytestmark = needed
STATE = ("() => ({values: Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, c.get()])),"
         " p: document.getElementById('main-pct')?.dataset.p ?? null,"
         " headline: document.getElementById('headline').innerText,"
         " error: document.getElementById('error').hidden ? null : document.getElementById('error').innerText})")


@pytest.fixture(scope="module")
def page(page_browser):
    page = page_browser.new_page(viewport={"width": 1280, "height": 800})
    page.base = page_browser.base
    yield page
    page.close()


def changes(spec) -> dict:
    """Field -> text: a count the page starts with set back to its default (a link used to
    drop it, and the page then filled in its starting value), another count off its default,
    the seed blank, and a small Monte Carlo run where there is no exact engine."""
    defaults = spec.defaults()
    # a count's base: its default, else (a default of None: not given) the page's start
    base = {p.name: defaults[p.name] if isinstance(defaults[p.name], int) else spec.start.get(p.name)
            for p in spec.params if p.kind == "int"}
    counts = [n for n, v in base.items() if isinstance(v, int)]
    back = [n for n in counts if n in spec.start and spec.start[n] != defaults[n]
            and isinstance(defaults[n], int)]
    pairs = [(b, m) for b in [*back, None] for m in counts if m != b]  # None: no count goes back
    moved = {m: next(x for x in (base[m] + 1, base[m] + 2) if x != spec.start.get(m))
             for m in counts}  # off its default and off the page's start
    for b, m in pairs:
        kwargs = {**spec.start, m: moved[m], **({b: defaults[b]} if b else {})}
        if valid(spec, kwargs):
            out = {"seed": "", m: str(kwargs[m]), **({b: str(defaults[b])} if b else {})}
            return {**out, "trials": "3000"} if not spec.exact else out
    raise AssertionError(f"{spec.name}: no valid change found")


def valid(spec, kwargs) -> bool:
    try:
        spec.check(kwargs)
        return True
    except OddsError:
        return False


def state(page, url):
    page.goto(url)
    page.wait_for_function(SETTLED, timeout=60_000)
    return page.evaluate(STATE)


@pytest.mark.parametrize("name", list(specs()))
def test_a_link_reopens_the_same_question_and_answer(page, name):
    before = state(page, page.base + f"?procedure={name}")
    set_values = "(changes) => { for (const [k, v] of Object.entries(changes)) controls[k].set(v); changed(); }"
    page.evaluate(set_values, changes(specs()[name]))
    # changed() marks the answer busy at once: SETTLED waits for the answer to this question
    page.wait_for_function(SETTLED, timeout=60_000)
    asked = page.evaluate(STATE)
    assert asked["error"] is None, asked["error"]
    reopened = state(page, page.url)
    assert reopened == asked, (reopened, asked)
    assert before["values"] != asked["values"]


def test_a_blank_trials_field_stays_blank(page):
    """Crusades starts at 2,000 trials; a link with the field blank (the default) keeps it blank."""
    page.goto(page.base + "?procedure=crusades.battle")
    page.wait_for_function(SETTLED, timeout=60_000)
    page.evaluate("() => { controls.trials.set(''); changed(); }")
    page.goto(page.url)
    page.wait_for_function("() => typeof controls !== 'undefined' && controls.trials", timeout=60_000)
    assert page.evaluate("controls.trials.get()") is None
