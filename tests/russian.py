"""The English words left in a Russian answer (issue 61): what a Russian player would read that
did not pass the catalog. Allowed: the codes a user types (every Param's name and flag, its
choices, the cards, the policies and timings, the engine options, the procedures' names, the
keys of a setting's table: they are the program's words, like git's flags), the proper names
of the games and the tools, and file names and commands in backticks. Everything else made of
Latin letters is an English word."""
from __future__ import annotations

import re
from pathlib import Path
from functools import cache

from odds import registry

PROPER = {"here", "i", "stand", "virgin", "queen", "oath", "chronicles", "of", "empire", "and",
          "exile", "new", "foundations", "odds", "docs", "rules", "md", "rules_crusades", "toml",
          "json", "d6", "2d6", "p", "e", "k", "n", "x", "mc", "exact", "bresenham", "manhattan",
          "chebyshev", "lanchester", "wilson", "newcombe", "mary", "law", "dask", "parquet",
          "inf", "nan"}  # and a number as the user typed it
_WORD = re.compile(r"--?[a-z][\w-]*|[A-Za-z][\w.:'\-]*")


@cache
def codes() -> frozenset:
    """Every word a user types to odds: the registry's names, flags, choices and cards."""
    out = set(registry.games())
    for spec in registry.specs().values():
        out |= {spec.name, *spec.name.split("."), *spec.command, spec.main}
        for p in spec.params:
            out |= {p.name, p.option, *(str(c).split(" (")[0] for c in p.choices)}
            for choice in p.choices:
                out |= set(re.split(r"[,:]", str(choice)))
            for card, policies in p.policies.items():
                out |= {card, *policies}
        out |= {e.name for e in spec.examples}
        for r in spec.readings:
            out |= {r.name, *r.marked()}
    out |= {o.name for o in registry.ENGINE_OPTIONS} | set(registry.METHODS)
    from odds.his import cards

    out |= set(cards.CARDS) | set(cards.POLICIES) | {"first", "if-it-helps", "optimal", "always"}
    out |= {code for group, table in _names().items() if group != "settings" for code in table}
    out |= {"true", "false", "never", "as-needed", "at-most", "to-beat", "max-win", "min-losses",
            "win-within", "advance", "hold-walls", "off"}  # values of the Params' own syntax
    out |= set(tool_words())  # the tools' commands and choices (odds chart, crusades run, a4)
    from odds.oath.campaigns.rolled import FACES
    from odds.tools.chart import PAPER
    from odds.tools.luck.record import FIELDS, TABLE

    out |= set(FIELDS) | set(FACES) | {TABLE} | set(PAPER)
    from odds.tools.sweep import SEEDS, SPEC_KEYS

    out |= set(SPEC_KEYS) | set(SEEDS) | {"variant"}  # a sweep's file keys and its column
    from odds.crusades.scenario import POLICIES, SIEGE_ACTIONS

    out |= set(POLICIES) | set(SIEGE_ACTIONS)  # the crusades' AI policies and a siege's plan  # a luck record's fields and Oath's faces as it writes them
    for spec in registry.specs().values():  # the examples' own names (targets, places)
        for example in spec.examples:
            out |= set(re.findall(r"[A-Za-z][\w-]*", str(example.kwargs)))
    return frozenset(w.lower() for w in out)


def tool_commands() -> list[tuple]:
    """Every tool command of the command line, as its words (("chart",), ("crusades", "run")),
    read from the parser: what odds.frontends.cli.main registers beside the procedures."""
    import argparse

    from odds.frontends.cli.main import TOOLS, build_parser

    def walk(parser, words):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            return [(words, parser)]
        return [found for name, sub in subs[0].choices.items() for found in walk(sub, (*words, name))]

    return [(words, p) for words, p in walk(build_parser(), ()) if words[0] in TOOLS]


def tool_words() -> set:
    """The words of the tools' commands and their flags' choices (a4, letter)."""
    out = set()
    for words, parser in tool_commands():
        out |= set(words)
        out |= {str(c) for a in parser._actions if a.choices for c in a.choices}
    return out


def _names() -> dict:
    import tomllib

    from odds.i18n import LOCALE

    with open(LOCALE / "ru" / "names.toml", "rb") as f:
        return tomllib.load(f)


def _allowed(token: str, extra) -> bool:
    word = token.lower().strip(".:'-")
    if not word or token.startswith("-") or _known(word, extra) or _metavar(token) or re.fullmatch(
            r"[IVX]+", token.strip(".:")):
        return True
    parts = [p for p in re.split(r"[:=,]", word) if p]
    return bool(parts) and all(_known(p, extra) or p.isdigit() for p in parts)


def _known(word: str, extra) -> bool:
    """A code, a proper name, or a single letter (a notation: P(...), E[...], K, 5 v 5)."""
    return len(word) == 1 or word in PROPER or word in extra or word in codes()


def _metavar(token: str) -> bool:
    """A placeholder of a flag's value in --help (N, POWER, CARD[:POLICY], LOW..HIGH)."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_.:\-]*", token.strip(".:'-[]")))


@cache
def _titles() -> frozenset:
    """The titles the shipped records and scenarios give themselves (their own text)."""
    import tomllib

    root = Path(__file__).parents[1] / "odds"
    files = [*root.glob("tools/luck/samples/*.toml"), *root.glob("crusades/examples/*.toml")]
    return frozenset(str(tomllib.loads(f.read_text()).get("title", "")).strip() for f in files)


def english_words(text: str, extra=frozenset()) -> list[str]:
    """The English words of `text` (a Russian answer), with their line: [] when none. `extra`:
    more allowed codes (a scenario's own unit names, a record's powers)."""
    found = []
    text = re.sub(r"-\n\s+", "-", text)  # a code argparse wrapped at its dash (henry-viii)
    for line in text.splitlines():
        if line.strip() in _titles():
            continue  # a shipped file's own title, shown as its author wrote it: data, not ours
        plain = re.sub(r"`[^`]*`", "", line)  # commands and file names
        plain = re.sub(r"'[^']*'", "", plain)  # a value as the user typed it, echoed
        plain = re.sub(r"\b[\w.\-]+=", " ", plain)  # setting and reading keys (their values stay)
        plain = re.sub(r"\[[a-z_]+(?:\.[a-z_]+)+\]", " ", plain)  # [his.field], [vq.naval.sensitivity]
        plain = re.sub(r"\b[\w\-]+: (?=\d)", " ", plain)  # a table's keys: (galley: 2, ...)
        plain = re.sub(r"\b\w+\.(toml|md|py|csv|png|pdf|svg|json)\b", " ", plain)
        plain = re.sub(r"\.(toml|csv|png|pdf|svg)\b", " ", plain)  # an extension: .pdf or .png
        plain = re.sub(r"\{[a-z_]+\}\w*|\b[a-z]+(?:_[a-z0-9]+)+\b", " ", plain)  # a code in
        # snake_case (a record's field, a choice's name) or its template ({role}_tercios_dice)
        plain = re.sub(r"\S*/\S*", " ", plain)  # a path (the file a tool wrote)
        bad = [t for t in _WORD.findall(plain) if not _allowed(t, extra)]
        if bad:
            found.append(f"{' '.join(bad)}  <-  {line.strip()}")
    return found
