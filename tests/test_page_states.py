"""The state-walking page audit (issues 48 and 60): in Chromium, one page load per procedure,
every option of every picker (each card alone), every switch and each whole-number field's low
and high ends from the starting state, each read at both widths; after each switch turned on,
every other switch and every option of each picker whose offer the switch changed (an option
barred or freed: the states where the form's constraints act). Every state either gives an
answer, or is refused with a field marked and the refusal in words (no True/False, path,
snake_case, repr, a title where a command belongs, a sentence said more than twice); a choice
the form does not take now is disabled with its reason; every on-off pair gives back the answer
before it; and every state read at both widths shows no code's words (Oath's optimise showed
`[object Object]` for its decision table), fits the screen and cuts no name (test_page_audit's
shown_faults). Monte Carlo answers are asked with few trials (the walk is of the form, not of
the odds)."""
import re

import pytest

from odds import registry
from chromium import needed
from test_page_audit import FEW_TRIALS, audited, faults_at_each_width, settle

pytestmark = needed
SPECS = registry.specs()
CODE = re.compile(r"\bTrue\b|\bFalse\b|(?:\w+/){2,}\w+|\.toml\b|(?<![\w/.])[a-z]+_[a-z_]+\b|=\S*'|'[a-z_]+'"
                  r"|\bcrusades tactical battle on a grid runs\b")
STATE = """() => {
  const main = document.getElementById('main-pct'), error = document.getElementById('error');
  const answer = document.getElementById('answer');
  return { answered: !!main && error.hidden && !answer.classList.contains('stale'),
           p: main ? main.dataset.p : null, error: error.hidden ? '' : error.innerText,
           marked: [...document.querySelectorAll('#form .field.invalid')].map((f) => f.dataset.name),
           words: [...document.querySelectorAll('#form .field-error')].map((e) => e.innerText).join(' ') };
}"""
FIELDS = """() => [...document.querySelectorAll('#form .field[data-name]')].flatMap((f) => {
  const name = f.dataset.name, sel = f.querySelector('select#f-' + name), box = f.querySelector('input[type=checkbox]#f-' + name);
  if (sel) return [{ name, kind: 'select', cards: !!f.querySelector('.cards'), now: sel.value,
                     options: [...sel.options].filter((o) => o.value).map((o) => ({ value: o.value, disabled: o.disabled, text: o.textContent })) }];
  return box ? [{ name, kind: 'switch', on: box.checked, disabled: box.disabled,
                  why: f.querySelector('label .why')?.innerText || '' }] : [];
})"""
PICK = """([name, value]) => { const s = document.getElementById('f-' + name); s.value = value;
  s.dispatchEvent(new Event('change', { bubbles: true })); }"""
UNCHIP = """([name, value]) => document.querySelector(`.field[data-name="${name}"] .chip[data-card="${value}"] button`).click()"""
TOGGLE = """(name) => { const b = document.getElementById('f-' + name); b.checked = !b.checked;
  b.dispatchEvent(new Event('change', { bubbles: true })); }"""


def read(page) -> dict:
    settle(page)
    return page.evaluate(STATE)


def faults_of(state: dict, where: str) -> list:
    """What is wrong with a settled state: a refusal with no field marked, or in code words."""
    if state["answered"]:
        return []
    said = f"{state['error']} {state['words']}"
    out = [] if state["marked"] else [f"{where}: refused with no field marked: {state['error']}"]
    out += [f"{where}: code words {w!r} in {said!r}" for w in set(CODE.findall(said))]
    sentences = [s.strip() for s in re.split(r"[.;:]\s", said) if len(s.strip()) > 20]
    out += [f"{where}: said {sentences.count(s)} times: {s!r}" for s in set(sentences) if sentences.count(s) > 2]
    return out


class Walk:
    """One page's walk: its states visited and the faults found."""

    def __init__(self, page):
        self.page, self.states, self.faults = page, 0, []

    def visit(self, where: str, laid_out: bool = False) -> dict:
        """Read a state (`laid_out`: and its page at both widths)."""
        state = read(self.page)
        self.states += 1
        self.faults += faults_of(state, where)
        if laid_out:
            self.faults += [f"{where}: {x}" for x in faults_at_each_width(self.page)]
        return state

    def undone(self, before: dict, where: str):
        """After an on-off pair: the answer before it, again (or the same refusal)."""
        after = self.visit(where + " undone")
        same = (after["answered"], after["p"] if before["answered"] else after["error"])
        if same != (before["answered"], before["p"] if before["answered"] else before["error"]):
            self.faults.append(f"{where}: undone, the answer is {after['p']} "
                               f"(was {before['p']}): {after['error']}")

    def options(self, context: str, before: dict, walked: list | None = None):
        """Every option of every picker, each picked then undone; with `walked` (the pickers
        as the starting state offered them, each option walked there), only the pickers whose
        offer a switch changed (an option barred or freed)."""
        for f in self.page.evaluate(FIELDS):
            if f["kind"] != "select" or (walked is not None and f in walked):
                continue
            for o in f["options"]:
                where = f"{context}{f['name']}={o['value']}"
                if o["disabled"]:
                    if not re.search(r"\(\w.*\)$", o["text"]):
                        self.faults.append(f"{where}: disabled without a reason ({o['text']!r})")
                    continue
                if o["value"] == f["now"]:
                    continue
                self.page.evaluate(PICK, [f["name"], o["value"]])
                self.visit(where, laid_out=walked is None)
                self.page.evaluate(UNCHIP if f["cards"] else PICK, [f["name"], o["value"] if f["cards"] else f["now"]])
                self.undone(before, where)

    def switches(self, context: str, before: dict, skip: str | None = None):
        for f in self.page.evaluate(FIELDS):
            if f["kind"] == "switch" and f["disabled"]:
                if not re.search(r"\(\w.*\)$", f["why"]):
                    self.faults.append(f"{context}{f['name']}: disabled without a reason")
                continue
            if f["kind"] == "switch" and f["name"] != skip:
                self.page.evaluate(TOGGLE, f["name"])
                self.visit(f"{context}{f['name']} switched", laid_out=not context)
                self.page.evaluate(TOGGLE, f["name"])
                self.undone(before, f"{context}{f['name']} switched")


    def ends(self, spec: registry.Spec, before: dict):
        """Each whole-number field shown at its low and high ends, then as it was."""
        for p in (p for p in spec.params if p.kind in ("int", "ints")):
            field = self.page.locator(f"#f-{p.name}")
            if not field.count() or not field.is_visible():
                continue  # hidden by another choice (Oath's targets instead of defense dice)
            now = field.input_value()
            for end in (e for e in (p.low, p.high) if e is not None and f"{e:g}" != now):
                field.fill(f"{end:g}")
                self.visit(f"{p.name}={end:g}", laid_out=True)
                field.fill(now)
                self.undone(before, f"{p.name}={end:g}")


def start_query(name: str) -> str:
    """The procedure's starting values, Monte Carlo (its method picked, or its only one) with
    few trials."""
    return f"?procedure={name}&trials={FEW_TRIALS}"


@pytest.mark.parametrize("name", SPECS)
def test_every_state_the_form_reaches_is_answered_or_refused_in_words(browser, name, record_property):
    page = audited(browser, "desktop", start_query(name))
    walk = Walk(page)
    try:
        start = walk.visit("start")
        assert start["answered"], f"the starting values are refused: {start['error']}"
        walk.faults += [f"start: {x}" for x in faults_at_each_width(page)]
        offered = page.evaluate(FIELDS)
        walk.options("", start)
        walk.ends(SPECS[name], start)
        walk.switches("", start)
        for f in [f for f in page.evaluate(FIELDS) if f["kind"] == "switch" and not f["disabled"]]:
            page.evaluate(TOGGLE, f["name"])
            on = walk.visit(f"{f['name']} on")
            walk.options(f"{f['name']} on, ", on, walked=offered)
            walk.switches(f"{f['name']} on, ", on, skip=f["name"])
            page.evaluate(TOGGLE, f["name"])
            walk.undone(start, f"{f['name']} on")
    finally:
        page.close()
    record_property("states", walk.states)
    print(f"{name}: {walk.states} states")
    assert not walk.faults, walk.faults[:40]
    assert walk.states > 1


@pytest.fixture(scope="module")
def browser(page_browser):
    return page_browser
