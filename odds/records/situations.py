"""A roll's situation: its procedure's spec, its keywords as that procedure takes them, and the
exact Result of the situation, computed once per distinct situation of a record."""
from __future__ import annotations

import json

from .. import registry
from ..errors import OddsError, shown
from ..questions.plans import param_of, plan
from ..texts import value

TEXT_KINDS = ("text", "choice", "leader", "scenario")  # kinds whose text is the value itself


def keywords(spec: registry.Spec, given) -> dict:
    """The procedure's keywords from a roll's `keywords`: a table (keys as keywords or flags;
    a text parsed by the keyword's kind, as a query string is) or `KEY=VALUE` words."""
    if isinstance(given, str):
        return plan(spec, given) if given.strip() else {}
    if not isinstance(given, dict):
        raise OddsError(f"{shown(given)} is not a table of keywords (e.g. {{ attacker = 5 }})")
    out = {}
    for key, text in given.items():
        p = param_of(spec, key)
        if isinstance(text, str) and p.kind not in TEXT_KINDS:
            text = value(p.name, p.kind, [text])
        out[p.name] = text
    return out


class Situations:
    """The exact Result of each distinct (procedure, keywords) asked, kept for the record."""

    def __init__(self):
        self._results = {}

    def spec(self, name) -> registry.Spec:
        spec = registry.get(name)
        if not spec.exact:
            exact = [n for n, s in registry.specs().items() if s.exact]
            raise OddsError(f"procedure: {name} has no exact engine (allowed: {', '.join(exact)})")
        return spec

    def result(self, spec: registry.Spec, kwargs: dict):
        key = (spec.name, json.dumps(kwargs, sort_keys=True, default=str))
        if key not in self._results:
            try:
                self._results[key] = spec.call(**kwargs, method="exact")
            except OddsError as e:
                self._results[key] = e
        found = self._results[key]
        if isinstance(found, OddsError):
            raise found
        return found

    def __len__(self) -> int:
        return len(self._results)
