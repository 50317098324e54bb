"""One budget of exact work over every call a question makes (compare's plans, need's steps, a
sweep's cells): the calls' estimates (core.engine.estimate, each the Cost its exact engine
states) summed before any of them runs, against the bound one exact answer has
(MAX_EXACT_WORK). Over it, method 'exact' is refused in one line naming the total and the
bound, and 'auto' answers every call by Monte Carlo, with a note saying why."""
from __future__ import annotations

from ..core import engine as E
from ..errors import OddsError


def within(spec, calls, engine: dict, what: str, times: int = 1, named=None) -> tuple[dict, tuple]:
    """(engine options, notes) for `calls` (keyword dicts of `spec`), each made up to `times`
    times (a need's steps): `engine` as given within the budget, else as above. `named(i,
    fn)` runs call i's estimate so that its error names the call (compare: the plan)."""
    method = engine.get("method", "auto")
    if method == "mc" or not spec.exact:
        return engine, ()
    named = named or (lambda i, fn: fn())
    total = times * sum(named(i, lambda kw=kw: E.estimate(lambda: spec.call(**kw, **engine)))
                        for i, kw in enumerate(calls))
    if total <= E.MAX_EXACT_WORK:
        return engine, ()
    why = (f"{what}: the exact answers would need about {total:,.0f} work units together "
           f"(allowed: at most {E.MAX_EXACT_WORK:,}, a few seconds)")
    if method == "exact":
        raise OddsError(f"method: 'exact': {why}; use method='mc', or ask less")
    return {**engine, "method": "mc"}, (f"Monte Carlo for every answer: {why}",)
