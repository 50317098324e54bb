"""Issue 61: the players' language. Every word a user reads passes through the gettext catalog
(odds/locale); Russian is complete, each game in its own rules' words; the language follows the
environment, --lang, ODDS_LANG, odds.set_language and lang=; keys, codes and numbers never
change with it; Russian names are accepted as input."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import odds
from odds import i18n, registry
from odds.core import readings
from odds.errors import OddsError, check_choice
from odds.frontends.cli import main as cli
from odds.his import cards
from russian import english_words

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "odds" / "locale" / "ru" / "LC_MESSAGES" / "odds.po"
NAMES = ROOT / "odds" / "locale" / "ru" / "names.toml"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}
FIELDS = re.compile(r"\{[^{}]*\}|%\(\w+\)[sr]|%[sr]")


def catalog():
    with open(PO, "rb") as f:
        return read_po(f, locale="ru")


def _run(*args, env=None) -> subprocess.CompletedProcess:
    """`odds ARGS` in a child process of this worktree's code, with `env` added."""
    environ = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT + ("LANGUAGE",)}
    environ.update(PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", *args], env=environ,
                          capture_output=True, text=True, timeout=900)


# ---- the catalog ----

def test_every_message_has_a_russian_entry_and_none_is_fuzzy():
    missing = [m.id for m in catalog() if m.id and (
        m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string))]
    assert not missing, f"{len(missing)} messages without a Russian entry: {missing[:5]}"


def test_every_message_of_the_code_is_in_the_catalog():
    """What `_()`, `N_()`, ngettext and pgettext mark in odds/ (Babel's extraction), and what
    the registry declares as data (helps, titles, examples, meanings, readings): all there."""
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog() if m.id}
    code = {(ctx, msg if isinstance(msg, str) else msg[0]) for _f, _l, msg, _c, ctx in
            extract_from_dir(ROOT / "odds", [("**.py", "python")], keywords=KEYWORDS)}
    data = set(registry.titles().values())
    for spec in registry.specs().values():
        data |= {spec.help, *(p.help for p in spec.params), *(e.title for e in spec.examples)}
        data |= {spec.words.headline, *spec.words.why.values()}
        data |= {w for r in spec.readings for w in (r.what, r.none)}
    wanted = code | {(None, m) for m in data if m}
    assert not sorted(wanted - have, key=str), sorted(wanted - have, key=str)[:5]


def test_a_translation_keeps_the_fields_of_its_message():
    """A format's fields ({n}, %(value)r) are the same in Russian: a field lost or misspelt
    would raise (or show a brace) only where that message is said."""
    bad = []
    for m in catalog():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        fields = sorted(FIELDS.findall(ids[-1]))
        bad += [(m.id, s) for s in strings if sorted(FIELDS.findall(s)) != fields]
    assert not bad, bad[:3]


def russian_form(n: int) -> int:
    """The Russian plural rule, as grammars state it: 1 удар, 2-4 удара, 5-20 ударов; 21 удар."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


COUNTED = [m for m in catalog() if isinstance(m.id, tuple)]


@pytest.mark.parametrize("message", COUNTED, ids=[f"{m.context or ''}:{m.id[0]}" for m in COUNTED])
def test_every_counted_noun_takes_the_russian_plural_form(message):
    """At 1, 2, 5, 11, 21, 22, 25 each count takes its form by the Russian rule, from three
    forms (never one "удар(ов)" for all; two may agree: 2 раза, 5 раз, 1 раз)."""
    forms = message.string
    assert len(forms) == 3 and len(set(forms)) >= 2, forms
    assert not any(re.search(r"\w\((ов|а|и|ей)\)", f) for f in forms), forms
    ru = i18n.translations("ru")
    for n in (1, 2, 5, 11, 21, 22, 25):
        said = (ru.npgettext(message.context, *message.id, n) if message.context
                else ru.ngettext(*message.id, n))
        assert said == forms[russian_form(n)], (n, said)


def test_each_game_counts_its_dice_and_units_in_its_own_words():
    """Hand-written from the glossary: кости (Here I Stand), кубики (Virgin Queen), кубы (Oath)."""
    with i18n.using("ru"):
        said = {n: (cards.dice(n), i18n.npgettext("vq", "{n} die", "{n} dice", n).format(n=n),
                    i18n.npgettext("oath", "{n} warband", "{n} warbands", n).format(n=n),
                    cards.units(n)) for n in (1, 2, 5, 11, 21, 22, 25)}
    assert said[1] == ("1 кость", "1 кубик", "1 отряд", "1 отряд")
    assert said[2] == ("2 кости", "2 кубика", "2 отряда", "2 отряда")
    assert said[5] == ("5 костей", "5 кубиков", "5 отрядов", "5 отрядов")
    assert said[11] == ("11 костей", "11 кубиков", "11 отрядов", "11 отрядов")
    assert said[21] == ("21 кость", "21 кубик", "21 отряд", "21 отряд")
    assert said[22] == ("22 кости", "22 кубика", "22 отряда", "22 отряда")
    assert said[25] == ("25 костей", "25 кубиков", "25 отрядов", "25 отрядов")


def test_numbers_follow_the_language():
    with i18n.using("ru"):
        assert i18n.percent(0.837, 1) == "83,7\u00a0%"
        assert i18n.integer(1_000_000) == "1\u00a0000\u00a0000"
        assert i18n.decimal(2.745, 2) == "2,74" or i18n.decimal(2.745, 2) == "2,75"
    assert (i18n.percent(0.837, 1), i18n.integer(1_000_000)) == ("83.7%", "1,000,000")


# ---- choosing the language ----

def test_the_environment_decides_and_odds_lang_overrides_it():
    assert i18n.from_environment({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert i18n.from_environment({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}) == "ru"
    assert i18n.from_environment({"LC_MESSAGES": "en_GB.UTF-8", "LANG": "ru_RU.UTF-8"}) == "en"
    assert i18n.from_environment({"ODDS_LANG": "en", "LC_ALL": "ru_RU.UTF-8"}) == "en"
    assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment({"LANG": "de_DE.UTF-8"}) == "en"  # no German catalog: the source


def test_lang_overrides_the_locale_and_a_bad_one_is_refused(capsys):
    assert cli.main(["--lang", "ru", "his", "field", "--attacker", "3", "--defender", "2"]) == 0
    assert capsys.readouterr().out.startswith("Атакующий побеждает")
    assert cli.main(["his", "field", "--attacker", "3", "--defender", "2", "--lang=en"]) == 0
    assert capsys.readouterr().out.startswith("Attacker wins")
    assert cli.main(["--lang", "xx", "his", "field"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lang: 'xx' is not allowed" in err and "en, ru" in err
    assert odds.language() == "en"  # a command's language ends with the command


def test_python_set_language_and_lang_on_a_summary():
    result = odds.his.field_battle(attacker=3, defender=2)
    assert result.summary(lang="ru").startswith("Атакующий побеждает")
    assert result.summary().startswith("Attacker wins")
    odds.set_language("ru")
    try:
        assert odds.his.field_battle(attacker=3, defender=2).summary().startswith("Атакующий")
        with pytest.raises(OddsError, match="недопустимо"):
            check_choice("power", "sweden", ("ottoman",))
    finally:
        odds.set_language("en")
    with pytest.raises(OddsError, match=r"^lang: 'xx' is not allowed"):
        odds.set_language("xx")


def test_argparse_speaks_russian(capsys):
    assert cli.main(["--lang", "ru", "his"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("odds: ошибка: odds his: не заданы обязательные аргументы: procedure")
    assert cli.main(["--lang", "ru", "his", "field"]) == 2
    assert capsys.readouterr().err.startswith("odds: ошибка: --attacker: не задан (обязателен для his.field)")
    assert cli.main(["--lang", "ru", "his", "field", "--attacker", "3", "--defender", "2",
                     "--nonsense"]) == 2
    assert "нераспознанные аргументы: --nonsense" in capsys.readouterr().err


@pytest.mark.parametrize("command", [("his", "field"), ("vq", "naval")])
def test_help_is_russian_under_a_russian_locale(command):
    done = _run(*command, "--help", env={"LANG": "ru_RU.UTF-8"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("использование: odds ")
    assert "параметры:" in done.stdout and "показать эту справку и выйти" in done.stdout
    assert not english_words(done.stdout), english_words(done.stdout)


# ---- every answer in Russian ----

def test_the_demo_in_russian_has_no_english_word():
    """`LANG=ru_RU.UTF-8 odds demo`: every procedure's answer (and the sample record's luck),
    with no English word but the codes a user types and proper names (tests/russian.py)."""
    done = _run("demo", env={"LANG": "ru_RU.UTF-8"})
    assert done.returncode == 0, done.stderr[-2000:]
    titles = [line for line in done.stdout.splitlines() if line.startswith("== ")]
    demos = [e for s in registry.specs().values() for e in s.examples if e.demo]
    assert len(titles) == len(demos) + 1  # and the luck of the sample record
    found = english_words(done.stdout) + english_words(done.stderr)
    assert not found, "\n".join(found[:20])


def test_nothing_reaches_the_user_without_the_catalog():
    """The pseudo language wraps every message in ⟦ ⟧: outside the markers a demo's answer
    holds only numbers, codes, proper names and punctuation."""
    done = _run("demo", env={"ODDS_LANG": i18n.PSEUDO})
    assert done.returncode == 0, done.stderr[-2000:]
    outside, before = done.stdout, None
    while outside != before:  # a message holding others: the innermost first
        before, outside = outside, re.sub(r"⟦[^⟦⟧]*⟧", " ", outside)
    found = english_words(outside)
    assert not found, "\n".join(found[:20])
    named = [line for line in done.stdout.splitlines() if re.match(r" {4,}⟦", line)]
    assert len(named) > 100  # every event's name passed the catalog


def test_the_columns_stay_aligned_with_cyrillic_names():
    """Each block of events: its percentages end in one column, the longest Russian name
    included."""
    with i18n.using("ru"):
        text = odds.his.assault(attacker=7, attacker_cavalry=2, defender=3, attacker_leader=1,
                                defender_leader=1, attacker_cards=["осадная артиллерия"],
                                cancel_probability=0.1).summary()
    events = [line for line in text.splitlines() if re.match(r" {4,}[^\d\s].*\u00a0%", line)]
    assert len(events) >= 5 and len({line.index("%") for line in events}) == 1, text


# ---- keys, codes and numbers the same in both languages ----

def _examples():
    for spec in registry.specs().values():
        for example in spec.examples:
            yield pytest.param(spec, example, id=f"{spec.name}:{example.name}")


def _engine(spec, example) -> dict:
    if example.mc.get("method") == "mc" or not spec.exact:
        return {**example.mc, "method": "mc", "trials": 2000, "seed": 7}
    return dict(example.mc)


def same_but_sentences(en, ru, where="") -> list:
    """Where two JSON answers differ other than in a sentence (a text with a space): a key,
    a code or a number."""
    if isinstance(en, dict):
        if list(en) != list(ru):
            return [f"{where}: keys {list(en)} / {list(ru)}"]
        return [d for k in en for d in same_but_sentences(en[k], ru[k], f"{where}.{k}")]
    if isinstance(en, list):
        if len(en) != len(ru):
            return [f"{where}: {len(en)} items / {len(ru)}"]
        return [d for i, (a, b) in enumerate(zip(en, ru)) for d in same_but_sentences(a, b, f"{where}[{i}]")]
    if isinstance(en, str) and " " in en.strip():
        return [] if isinstance(ru, str) else [f"{where}: {en!r} / {ru!r}"]
    return [] if en == ru or (en != en and ru != ru) else [f"{where}: {en!r} / {ru!r}"]


@pytest.mark.parametrize("spec, example", list(_examples()))
def test_json_keeps_keys_codes_and_numbers_in_both_languages(spec, example):
    kwargs = {**example.kwargs, **_engine(spec, example)}
    answers = {}
    for lang in ("en", "ru"):
        with i18n.using(lang):
            answers[lang] = json.loads(json.dumps(spec.call(**kwargs).to_json()))
    assert not same_but_sentences(answers["en"], answers["ru"])
    for line in answers["ru"].get("explain", []) + answers["ru"].get("advice", []):
        assert re.search("[а-яё]", line), line  # the sentences for people follow the language


def test_the_api_answers_in_the_language_asked(app_client):
    en = app_client("/api/his.field", [("attacker", "5"), ("defender", "4")])
    ru = app_client("/api/his.field", [("attacker", "5"), ("defender", "4"), ("lang", "ru")])
    assert en[0] == ru[0] == 200
    assert not same_but_sentences(en[1], ru[1])
    assert ru[1]["explain"][0] == "атакующий бросает 5 костей: 5 отрядов"
    status, error = app_client("/api/his.field", [("attacker", "5"), ("lang", "fr")])
    assert status == 400 and error["error"].startswith("lang: 'fr' is not allowed")
    status, error = app_client("/api/his.field", [("attacker", "-1"), ("defender", "2"), ("lang", "ru")])
    assert status == 400 and "вне допустимого" in error["error"]


@pytest.fixture(scope="module")
def app_client():
    from web_server import running
    import urllib.error
    import urllib.parse
    import urllib.request

    with running() as srv:
        def get(path, query):
            url = f"http://127.0.0.1:{srv.port}{path}?{urllib.parse.urlencode(query)}"
            try:
                with urllib.request.urlopen(url, timeout=600) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())
        yield get


# ---- Russian names as input ----

def _names() -> dict:
    with open(NAMES, "rb") as f:
        return tomllib.load(f)


CARD_NAMES = [(code, name) for code, names in _names()["cards"].items() for name in names]


@pytest.mark.parametrize("code, name", CARD_NAMES, ids=[n for _c, n in CARD_NAMES])
def test_every_card_of_the_russian_rules_is_accepted(code, name):
    """Each card as the Russian rules write it, in any case, with ё or е, names the card."""
    for typed in (name, name.upper(), name.lower().replace("ё", "е"), name.replace(" ", "-")):
        assert cards.parse(typed, "attacker_cards")[0].name == code
    if cards.CARDS[code].timing == "after":
        assert cards.canonical(f"{name}:если нужно", "x") == f"{code}:if-needed"
        assert cards.canonical(f"{name}:ВСЕГДА", "x") == f"{code}:always"


def test_the_sources_cards_odds_takes_as_settings_say_which():
    for name, setting in _names()["settings"].items():
        with pytest.raises(OddsError) as e:
            cards.parse(name.lower(), "attacker_cards")
        assert setting in str(e.value) and "\n" not in str(e.value)


def test_russian_names_on_the_command_line(capsys):
    assert cli.main(["his", "assault", "--attacker", "5", "--defender", "2", "--attacker-card",
                     "осадная артиллерия:если нужно", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["attacker_cards"] == ["siege-artillery:if-needed"]
    assert cli.main(["his", "field", "--attacker", "5", "--defender", "4", "--defender-power",
                     "Османы", "--defender-card", "янычары", "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["defender_power"] == "ottoman"
    assert settings["defender_cards"] == ["janissaries:if-needed"]


def test_a_misspelt_russian_name_gets_did_you_mean_in_russian(capsys):
    assert cli.main(["--lang", "ru", "his", "field", "--attacker", "5", "--defender", "4",
                     "--defender-power", "ottoman", "--defender-card", "янычыры"]) == 2
    err = capsys.readouterr().err
    assert "может быть, 'янычары'?" in err and err.count("\n") == 1
    with pytest.raises(OddsError, match="может быть, 'габсбурги'"):
        with i18n.using("ru"):
            check_choice("power", "габсбурнги", ("hapsburg", "france"))


def test_every_russian_name_is_unique_and_names_a_known_code():
    """No two codes share a Russian name (which would make input ambiguous); every code of the
    cards table is a card."""
    seen = {}
    for group, table in _names().items():
        if group == "settings":
            continue
        for code, names in table.items():
            for name in names:
                key = i18n._plain(name)
                assert seen.get(key, code) == code or group == "powers", (name, seen.get(key), code)
                seen[key] = code
    assert set(_names()["cards"]) == set(cards.CARDS)
