"""The players' language: every sentence a user reads passes through a gettext catalog.

English is the source and the default; `odds/locale/<lang>/LC_MESSAGES/odds.po` translates it
(`odds/locale/odds.pot` is the template, extracted with Babel: README, "Translating"). A
catalog is compiled in memory the first time its language is used (Babel's `read_po` and
`write_mo` into a `gettext.GNUTranslations`), so a changed `.po` needs no build step and a
fuzzy entry is never used. The language in force is a context variable: `set_language` sets
the process's, `using(lang)` one block's (a web request, a summary's `lang=`). The pseudo
language `qps` wraps every message in ⟦ ⟧, to show that nothing reaches a user unwrapped.
Numbers follow the language's conventions (Babel: "83,7 %" in Russian). The bottom layer: it
imports nothing of odds.
"""
from __future__ import annotations

import gettext
import io
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "ru")  # English, the source; Russian
PSEUDO = "qps"  # every message wrapped in markers (tests: nothing escapes the catalog)
DOMAIN = "odds"
LOCALE = Path(__file__).parent / "locale"
ENVIRONMENT = ("ODDS_LANG", "LC_ALL", "LC_MESSAGES", "LANG")  # the first one set decides

_process = [LANGUAGES[0]]
_block: ContextVar[str | None] = ContextVar("odds_language", default=None)


def N_(message: str) -> str:
    """A message marked for the catalog where it is defined, translated where it is shown."""
    return message


def language() -> str:
    """The language in force: the block's (`using`), else the process's (`set_language`)."""
    return _block.get() or _process[0]


def known(lang: str) -> bool:
    return lang in LANGUAGES or lang == PSEUDO


def set_language(lang: str) -> None:
    """The process's language from now on (odds.set_language checks the name first)."""
    if not known(lang):
        raise ValueError(lang)
    _process[0] = lang


def use(lang: str) -> None:
    """`lang` for the rest of the block of `using` this runs in (a command's --lang)."""
    if not known(lang):
        raise ValueError(lang)
    _block.set(lang)


@contextmanager
def using(lang: str | None):
    """Messages in `lang` inside the block (None: the language in force)."""
    if lang is not None and not known(lang):
        raise ValueError(lang)
    token = _block.set(lang or language())
    try:
        yield
    finally:
        _block.reset(token)


def from_environment(environ=os.environ) -> str:
    """The language the environment asks for: ODDS_LANG, else the locale's LC_ALL, LC_MESSAGES,
    LANG (the first one set: "ru_RU.UTF-8" -> "ru"); English for any other."""
    for name in ENVIRONMENT:
        text = environ.get(name, "")
        if text:
            code = text.split(".")[0].split("_")[0].split("@")[0].lower()
            return code if known(code) else LANGUAGES[0]
    return LANGUAGES[0]


class _Pseudo(gettext.NullTranslations):
    """Every message wrapped in ⟦ ⟧ (a format's fields stay usable)."""

    def gettext(self, message):
        return f"⟦{message}⟧"

    def ngettext(self, singular, plural, n):
        return f"⟦{singular if n == 1 else plural}⟧"

    def pgettext(self, context, message):
        return self.gettext(message)

    def npgettext(self, context, singular, plural, n):
        return self.ngettext(singular, plural, n)


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (English: the source strings themselves)."""
    if lang == PSEUDO:
        return _Pseudo()
    if lang == LANGUAGES[0]:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def _(message: str) -> str:
    """`message` in the language in force."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for `n` by the language's plural rule (Russian: 1 удар,
    2 удара, 5 ударов, 21 удар); its `{n}` is left to format."""
    return translations(language()).ngettext(singular, plural, int(n))


def npgettext(game: str, singular: str, plural: str, n: int) -> str:
    """ngettext within a game's own words (`game`: the message context, "his", "vq", "oath":
    a die is «кость» in Here I Stand, «кубик» in Virgin Queen, «куб» in Oath)."""
    return translations(language()).npgettext(game, singular, plural, int(n))


def pgettext(game: str, message: str) -> str:
    """`message` within a game's own words (the message context `game`)."""
    return translations(language()).pgettext(game, message)


def _babel_locale():
    return "ru_RU" if language() == "ru" else None


def integer(n: int) -> str:
    """A whole number with the language's grouping: 12,000 (Russian 12 000)."""
    where = _babel_locale()
    if where is None:
        return f"{n:,}"
    from babel.numbers import format_decimal

    return format_decimal(n, format="#,##0", locale=where)


def decimal(x: float, digits: int) -> str:
    """`x` with `digits` decimals: 2.74 (Russian 2,74); no grouping."""
    where = _babel_locale()
    if where is None or x != x:
        return f"{x:.{digits}f}"
    from babel.numbers import format_decimal

    return format_decimal(x, format="0." + "0" * digits if digits else "0", locale=where)


def percent(p: float, digits: int) -> str:
    """A probability as a percentage with `digits` decimals: 83.7% (Russian "83,7 %")."""
    where = _babel_locale()
    if where is None or p != p:
        return f"{p:.{digits}%}"
    from babel.numbers import format_percent

    pattern = "0" + ("." + "0" * digits if digits else "") + "\u00a0%"
    return format_percent(p, format=pattern, locale=where)


def _plain(text: str) -> str:
    """A name as typed, for comparing: lower case, ё as е, dashes and runs of spaces as one
    space."""
    return " ".join(text.casefold().replace("ё", "е").replace("-", " ").replace("_", " ").split())


@lru_cache(maxsize=None)
def names() -> dict:
    """The Russian names of cards, leaders, powers, ships, places, policies and targets
    (odds/locale/ru/names.toml): {plain name: [its codes]} (Протестанты: protestant in Here
    I Stand, protestants in Virgin Queen), and the sources' cards odds takes as settings
    ({plain name: the setting}) under the key "settings"."""
    import tomllib

    with open(LOCALE / "ru" / "names.toml", "rb") as f:
        table = tomllib.load(f)
    out = {}
    for group, codes in table.items():
        for code, spelled in codes.items() if group != "settings" else ():
            for name in spelled:
                out.setdefault(_plain(name), []).append(code)
    out["settings"] = {_plain(name): setting for name, setting in table["settings"].items()}
    return out


def native(value: str, allowed) -> str | None:
    """The code of `allowed` that `value` names as the Russian rules write it (case-insensitive,
    ё = е), or None."""
    return next((code for code in names().get(_plain(value), ()) if code in allowed), None)


def native_names(allowed) -> list:
    """The Russian names of the codes in `allowed` (for "did you mean")."""
    table = LOCALE / "ru" / "names.toml"
    import tomllib

    with open(table, "rb") as f:
        spelled = {code: words for group, codes in tomllib.load(f).items() if group != "settings"
                   for code, words in codes.items()}
    return [name.lower() for code in allowed if isinstance(code, str) for name in spelled.get(code, ())]


def as_setting(value: str) -> str | None:
    """The setting odds takes for a source's card that is not a card here («Подагра»: --gout)."""
    return names()["settings"].get(_plain(value))


def card_name(code: str) -> str:
    """A card (or leader, power, ship) as the language in force names it: its Russian name in
    Russian (names.toml), its code otherwise."""
    if language() != "ru":
        return code
    import tomllib

    with open(LOCALE / "ru" / "names.toml", "rb") as f:
        table = tomllib.load(f)
    spelled = next((codes[code] for group, codes in table.items() if group != "settings"
                    and code in codes), None)
    return spelled[0] if spelled else code
