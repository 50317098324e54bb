"""A roll's situation: its procedure's spec, its keywords as that procedure takes them, and the
exact Result of the situation, computed once per distinct situation of a record, after every
situation is checked and the record's whole work bounded."""
from __future__ import annotations

import inspect
import json

from ... import registry
from ...core.engine import BeyondExact, estimate
from ...core.readings import alone
from ...errors import OddsError, nearest, shown
from ...i18n import _
from ..questions.budget import beyond, under_way
from ..questions.plans import param_of, plan
from ...texts import counted, value

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
    """The exact Result of each distinct (procedure, keywords) of a record: every situation
    asked (checked, its work estimated: `ask`), then all of them solved at once within one
    budget (`solve`: questions.budget.under_way), then read (`result`)."""

    def __init__(self):
        self._asked = {}  # key -> (call, its estimated work) or the OddsError refusing it
        self._results = {}  # key -> Result or OddsError
        self._keywords = {}  # key -> (spec, the function's keywords, every default filled in)

    def spec(self, name) -> registry.Spec:
        """The spec of a procedure a record can score (one with an exact engine)."""
        try:
            spec = registry.get(name)
        except OddsError:
            spec = None
        if spec is None or not spec.exact:
            scorable = [n for n, s in registry.specs().items() if s.exact]
            why = "has no exact engine" if spec else "is unknown"
            raise OddsError(f"procedure: {shown(name)} {why}{nearest(name, scorable)} "
                            f"(allowed: {', '.join(scorable)})")
        return spec

    def ask(self, entry) -> tuple:
        """The key of `entry`'s situation, checked and estimated once (no engine work)."""
        spec = self.spec(entry.procedure)
        try:
            kwargs = keywords(spec, entry.keywords)
        except OddsError as e:
            raise OddsError(f"keywords: {e}") from None
        key = (spec.name, json.dumps(kwargs, sort_keys=True, default=str))
        if key not in self._asked:
            self._keywords[key] = (spec, {**defaults(spec.function), **spec.preset, **kwargs})
            call = lambda: spec.call(**kwargs, method="exact", progress=False)  # noqa: E731
            try:
                self._asked[key] = (call, estimate(call))
            except BeyondExact as e:
                self._asked[key] = OddsError(beyond(e, _("a luck score")))
            except OddsError as e:
                self._asked[key] = e
        return key

    def solve(self):
        """Every situation asked and not refused, their whole work bounded first."""
        todo = {k: v for k, v in self._asked.items() if not isinstance(v, OddsError)
                and k not in self._results}
        with under_way([work for _call, work in todo.values()],
                       f"record: {counted(len(todo), 'distinct situation')}", "situation") as done:
            for key, (call, _work) in todo.items():
                try:
                    with alone():  # a roll's readings are marked, not flipped
                        self._results[key] = call()
                except OddsError as e:
                    self._results[key] = e
                done()

    def result(self, key):
        """The situation's Result (after `solve`), or its refusal as an OddsError."""
        found = self._results.get(key, self._asked[key])
        if isinstance(found, OddsError):
            raise OddsError(f"keywords: {found}") from None
        return found

    def reading(self, key) -> tuple:
        """(spec, keywords) of a situation for its procedure's reader of dice (core.rolled):
        the function's keywords with every default filled in, its preset included."""
        return self._keywords[key]

    def __len__(self) -> int:
        return len(self._asked)


def defaults(function) -> dict:
    """The keywords of a procedure function that have defaults, engine options left out."""
    return {name: p.default for name, p in inspect.signature(function).parameters.items()
            if p.default is not inspect.Parameter.empty and name not in registry.ENGINE}
