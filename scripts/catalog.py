"""Extract and update odds' message catalog: `python scripts/catalog.py` (README, "Translating").

1. Babel extracts the messages of the code: `_()`, `N_()` and `ngettext()` in odds/ (what
   `pybabel extract -k N_ -k ngettext:1,2 odds` finds), and the web pages': `t()`, `tn()`
   and `N_()` in static/*.js (Babel's JavaScript extractor), every `data-t` element's text and
   `data-t-attr` attribute of static/*.html (web/static/i18n.js translates them in the page).
2. The registry adds the messages declared as data: every procedure's help and game title,
   every Param's help and allowed range as --help prints it, every example's title, the
   events' headline and meanings, every reading's words, the words of the choices the page
   says in words (popes "Leo X", orders' steps), and the name of every event and distribution
   its examples' answers hold and of every name the page shows of their JSON (a table's title
   and columns, a pair of pmfs' shared name; each example run once, small). A message the
   code has too gets the registry's place as well: the page inlines it (web/pages.py).
3. odds/locale/odds.pot is written, and each language's odds.po is updated from it (Babel's
   Catalog.update, `pybabel update`): a new message is added untranslated, a changed one is
   marked fuzzy, a message no longer used is dropped. Counts are printed.
The package compiles a .po when it is loaded (odds.i18n): there is no compile step.
"""
from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LOCALE = ROOT / "odds" / "locale"
OWN_WORDS = ("oath",)  # games whose answers' names take their own words (Oath's «напавший»)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}
PAGE = "odds/frontends/web/static"
PAGE_KEYWORDS = {"t": None, "tn": (1, 2), "N_": None}


def code_messages(catalog: Catalog) -> None:
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / "odds", [("**.py", "python")], keywords=KEYWORDS):
        catalog.add(message, locations=[(f"odds/{filename}", lineno)], context=context)
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / PAGE, [("**.js", "javascript")], keywords=PAGE_KEYWORDS):
        catalog.add(message, locations=[(f"{PAGE}/{filename}", lineno)])
    for html in sorted((ROOT / PAGE).glob("*.html")):
        for lineno, message in html_messages(html.read_text(encoding="utf-8")):
            catalog.add(message, locations=[(f"{PAGE}/{html.name}", lineno)])


class _Marked(HTMLParser):
    """The `data-t` texts and `data-t-attr` attributes of a page, with their lines."""

    def __init__(self):
        super().__init__()
        self.found, self.open = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        line = self.getpos()[0]
        for name in (attrs.get("data-t-attr") or "").split():
            self.found.append((line, attrs[name]))
        if "data-t" in attrs:
            self.open = (line, [])

    def handle_data(self, data):
        if self.open:
            self.open[1].append(data)

    def handle_endtag(self, tag):
        if self.open:
            self.found.append((self.open[0], " ".join("".join(self.open[1]).split())))
            self.open = None


def html_messages(text: str) -> list:
    """(line, message) of every marked text of a page (its whitespace as i18n.js reads it)."""
    parser = _Marked()
    parser.feed(text)
    return parser.found


def registry_messages() -> set:
    """The messages the registry declares as data, and the words of every answer's names
    ((game, message) for a game of OWN_WORDS)."""
    from odds import registry
    from odds.core import readings
    from odds.frontends.web.api import label

    from odds.frontends.cli.luck import rolled_words

    out = set(registry.titles().values())
    for spec in registry.specs().values():
        out |= {spec.help, spec.title, rolled_words(spec)}  # `odds luck --help`'s list
        for param in spec.params:
            if param.help:
                out.add(param.help)
            out.add((spec.name.split(".")[0], label(param.name)))  # the page's field label
            out |= {w for c in param.choices for w in choice_words(str(c))}
        out |= {e.title for e in spec.examples if e.title}
        words = spec.words
        out |= {w for w in (words.headline, *words.why.values()) if w}
        for r in spec.readings:
            out |= {w for w in (r.what, r.none) if w}
        with readings.alone():
            for example in spec.examples:
                engine = {"method": "mc", "trials": 200, "seed": 1} if (
                    example.mc.get("method") == "mc" or not spec.exact) else {}
                result = spec.call(**example.kwargs, **{**example.mc, **engine})
                names = {re.sub(r"(\D) \d+$", r"\1 {k}", name.replace("_", " "))
                         for name in (*result, *page_names(result.to_json()))}
                names |= {result.words.title(result.main)}
                names |= {k.replace("_", " ") for k in result.settings}  # the page names them
                names |= {k.replace("_", " ") for v in result.settings.values() if isinstance(v, dict)
                          for k in v if "_" in str(k)}  # and a table's keys (race_built: 2)
                names |= {n.replace("_", " ") for n, _p in result.words.partition(result.probabilities)}
                game = spec.name.split(".")[0]
                out |= {(game, n) for n in names} if game in OWN_WORDS else names
                out |= {f["assumed"] for f in result.flips if " " in str(f["assumed"])}
                out |= {v for v in result.settings.values()  # a setting in words, not "8 v 11"
                        if isinstance(v, str) and " " in v and not re.fullmatch(r"\d+ v \d+", v)}
    from odds.crusades.battles.siege_turns import ENDS
    from odds.crusades.scenario import SETTINGS

    out |= {meaning for _default, _allowed, meaning in SETTINGS.values()}  # crusades settings
    out |= {f"{end.replace('_', ' ')}{turn}" for end in ENDS for turn in ("", " turn")}  # a
    # siege's outcomes and their turns (crusades siege has no example to run)
    from odds.his.cards import CARDS, ROLES

    out |= {f"{role} plays {name.replace('-', ' ')}" for name, card in CARDS.items()
            if card.timing == "after" for role in ROLES}  # an event of any after-roll card
    return {m for m in out if m}


def choice_words(choice: str) -> list:
    """The words app.js's choiceWords says a choice in: a pope or a king by his name and number
    ("leo-x" -> "Leo X"), an order's steps ("squadron,vp,card" -> "squadron", "VP", "card")."""
    if re.fullmatch(r"[a-z]+(,[a-z]+)+", choice):
        return [w.upper() if len(w) <= 2 else w for w in choice.split(",")]
    m = re.fullmatch(r"([a-z-]+)-([ivx]+)", choice)
    return [" ".join(w.capitalize() for w in m[1].split("-")) + " " + m[2].upper()] if m else []


META = ("procedure", "method", "trials", "seed", "partial", "settings", "notes", "assumptions",
        "explain", "advice", "zero", "intervals", "caveat", "readings", "flips", "range")  # app.js's


def page_names(answer: dict) -> set:
    """The names the page shows of an answer's JSON (app.js's nameOf): its keys (a family of
    events too), a pair of pmfs' shared name ("attacker_units_lost" -> "units_lost": the chart
    picker), a table's title and its columns (a list of records, or one inside an extra)."""
    out = set()
    for key, value in answer.items():
        if key in META or key.endswith("_se") or key.startswith("expected_"):
            continue
        out |= {key, re.sub(r"^(attacker|defender)_", "", key) if "expected_" + key in answer else key}
        tables = [(key, value)] if isinstance(value, list) else (
            [(f"{key} {k}", v) for k, v in value.items() if isinstance(v, list)] if isinstance(value, dict) else [])
        for title, records in tables:
            if records and all(isinstance(r, dict) for r in records):
                out |= {title, *records[0]}
    return out


def main() -> int:
    template = Catalog(project="odds", domain="odds", charset="utf-8")
    code_messages(template)
    for message in sorted(registry_messages(), key=str):
        context, message = message if isinstance(message, tuple) else (None, message)
        known = template.get(message, context)
        if known is None:
            template.add(message, locations=[("odds/registry.py", 0)], context=context)
        elif ("odds/registry.py", 0) not in known.locations:  # the page needs it too (pages.py)
            known.locations.append(("odds/registry.py", 0))
    with open(LOCALE / "odds.pot", "wb") as f:
        write_po(f, template, width=100, omit_header=False)
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/odds.po")):
        lang = po.parent.parent.name
        with open(po, "rb") as f:
            catalog = read_po(f, locale=lang, domain="odds")
        catalog.update(template, no_fuzzy_matching=True)
        with open(po, "wb") as f:
            write_po(f, catalog, width=100, ignore_obsolete=True)
        done = sum(1 for m in catalog if m.id and m.string and not m.fuzzy
                   and (all(m.string) if isinstance(m.string, tuple) else True))
        print(f"{po.relative_to(ROOT)}: {len(catalog)} messages, {done} translated")
    print(f"{(LOCALE / 'odds.pot').relative_to(ROOT)}: {len(template)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
