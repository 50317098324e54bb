"""The pages in the visitor's language: `?lang=` if given, else the browser's Accept-Language
(negotiated with Babel), else English. A page's HTML is served with `<html lang>` set and the
translations of the page's messages inlined as JSON (`<script id="messages">`), built from the
same compiled catalog as every answer (odds.i18n.translations): static/i18n.js reads them.
The page's messages are those of odds.pot found in static/ (its JS and its `data-t` HTML) and
the registry's (the names of an answer's values, the fields' labels: JS shows them by key)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse

from ...i18n import DOMAIN, LANGUAGES, LOCALE, known, translations

SOURCES = ("odds/frontends/web/static/", "odds/registry.py")  # where the page's messages are
COUNTS = {"ru": (1, 2, 5)}  # a plural's forms: an n of each (else 1 and 2, as English)


def language(request: Request) -> str:
    """The page's language: `?lang=` when it names one (qps too), else Accept-Language's best
    match, else English."""
    asked = request.query_params.get("lang", "")
    if known(asked):
        return asked
    return negotiated(request.headers.get("accept-language", ""))


def negotiated(header: str) -> str:
    """The language of LANGUAGES an Accept-Language header prefers ("ru-RU,ru;q=0.9" -> ru)."""
    from babel.core import negotiate_locale

    weighted = []
    for i, part in enumerate(header.split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        if tag and tag != "*":
            weighted.append((-weight, i, tag.replace("-", "_")))
    preferred = [tag for *_, tag in sorted(weighted)]
    return negotiate_locale(preferred, LANGUAGES) or LANGUAGES[0]


@cache
def _messages_of_page() -> tuple:
    """(context, message id) of every message of the page in odds.pot (a plural: its pair)."""
    from babel.messages.pofile import read_po

    with open(LOCALE / f"{DOMAIN}.pot", "rb") as f:
        catalog = read_po(f)
    return tuple((m.context, m.id) for m in catalog if m.id and any(
        path.startswith(SOURCES) for path, _ in m.locations))


@cache
def messages(lang: str) -> str:
    """The page's messages in `lang` as JSON: {message: its text} ("context\\u0004message" for a
    game's own words; a plural's singular: its forms). English sends none: the source is its text."""
    if lang == LANGUAGES[0]:
        return "{}"
    tr, out = translations(lang), {}
    counts = COUNTS.get(lang, (1, 2))
    for context, message in _messages_of_page():
        if isinstance(message, tuple):
            out[message[0]] = [tr.npgettext(context, *message, n) if context else tr.ngettext(*message, n)
                               for n in counts]
        elif context:
            out[f"{context}\u0004{message}"] = tr.pgettext(context, message)
        else:
            out[message] = tr.gettext(message)
    return json.dumps(out, ensure_ascii=False).replace("</", "<\\/")


@cache
def _html(path: Path, lang: str) -> str:
    text = path.read_text(encoding="utf-8")
    inline = f'<script id="messages" type="application/json">{messages(lang)}</script>\n'
    return text.replace('<html lang="en">', f'<html lang="{lang}">', 1).replace(
        "</head>", inline + "</head>", 1)


def page(path: Path):
    """A route's endpoint serving the page at `path` in the visitor's language."""
    async def endpoint(request: Request) -> HTMLResponse:
        return HTMLResponse(_html(path, language(request)), headers={"Vary": "Accept-Language"})
    return endpoint
