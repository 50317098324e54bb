"""The English words left in a Russian answer (issue 61): what a Russian player would read that
did not pass the catalog. Allowed: the codes a user types (every Param's name and flag, its
choices, the cards, the policies and timings, the engine options, the procedures' names, the
keys of a setting's table: they are the program's words, like git's flags), the proper names
of the games and the tools, and file names and commands in backticks. Everything else made of
Latin letters is an English word."""
from __future__ import annotations

import re
from functools import cache

from odds import registry

PROPER = {"here", "i", "stand", "virgin", "queen", "oath", "chronicles", "of", "empire", "and",
          "exile", "new", "foundations", "odds", "docs", "rules", "md", "rules_crusades", "toml",
          "json", "d6", "2d6", "p", "e", "k", "n", "x", "mc", "exact", "bresenham", "manhattan",
          "chebyshev", "lanchester", "wilson", "newcombe", "mary", "law"}
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
    out |= {o.name for o in registry.ENGINE_OPTIONS}
    from odds.his import cards

    out |= set(cards.CARDS) | set(cards.POLICIES) | {"first", "if-it-helps", "optimal", "always"}
    return frozenset(w.lower() for w in out)


def _allowed(token: str, extra) -> bool:
    word = token.lower().strip(".:'-")
    if not word or token.startswith("-") or word in PROPER or word in extra:
        return True
    if word in codes():
        return True
    parts = [p for p in re.split(r"[:=,]", word) if p]
    return bool(parts) and all(p in codes() or p in extra or p.isdigit() for p in parts)


def english_words(text: str, extra=frozenset()) -> list[str]:
    """The English words of `text` (a Russian answer), with their line: [] when none. `extra`:
    more allowed codes (a scenario's own unit names, a record's powers)."""
    found = []
    for line in text.splitlines():
        plain = re.sub(r"`[^`]*`", "", line)  # commands and file names
        plain = re.sub(r"\b[\w.\-]+=", " ", plain)  # setting and reading keys (their values stay)
        plain = re.sub(r"\[[a-z_]+\.[a-z_]+\]", " ", plain)  # [his.field]
        plain = re.sub(r"\b[\w\-]+: (?=\d)", " ", plain)  # a table's keys: (galley: 2, ...)
        plain = re.sub(r"\b\w+\.(toml|md|py|csv|png|json)\b", " ", plain)
        bad = [t for t in _WORD.findall(plain) if not _allowed(t, extra)]
        if bad:
            found.append(f"{' '.join(bad)}  <-  {line.strip()}")
    return found
