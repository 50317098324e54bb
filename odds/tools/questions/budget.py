"""One budget of exact work over every call a tool makes, estimated before any of them runs
(core.engine.estimate: each call validates and sets up, then stops where its exact engine
would start, with the Cost that engine states).

The questions (compare's plans, need's steps, a sweep's cells) hold the calls together to the
bound one exact answer has (MAX_EXACT_WORK): over it, method 'exact' is refused in one line
naming the total and the bound, and 'auto' answers every call by Monte Carlo, with a note.
The exact-only tools (a luck record's situations, a chart's cells) hold them to
MAX_TOTAL_WORK, each call counted with CALL_WORK more (its setup, Result, scoring): over it
they are refused in one line saying what would fit (the first calls, or the tool's own room:
a chart's smaller ranges); within it, `under_way` says the whole work once on a terminal and
shows a bar over the calls."""
from __future__ import annotations

import math
from contextlib import contextmanager

from ...config import PROGRESS_AFTER_SECONDS
from ...core import engine as E
from ...core import montecarlo
from ...errors import OddsError
from ...i18n import _

MAX_TOTAL_WORK = 30_000_000  # work units of a luck record's or a chart's exact answers (~30 s)
CALL_WORK = 1000  # work units of one call beside its engine (measured: 100,000 distinct field
# battles in a luck record took 85 s, 0.85 ms each, of which their engines' estimates ~0.02 ms)


def estimates(calls, named=None) -> list[float]:
    """The exact work of each call (a () -> Result), none of them run; `named(i, fn)` runs
    call i's estimate so that its error names the call."""
    named = named or (lambda i, fn: fn())
    return [named(i, lambda c=c: E.estimate(c)) for i, c in enumerate(calls)]


def refusal(works, what: str, bound: float, room=None) -> str | None:
    """Why the calls of estimated `works` are over `bound` together, or None; `room(works,
    bound)`: what would fit, said after the bound (e.g. `first_fit`)."""
    total = math.fsum(works)
    if total <= bound:
        return None
    return (f"{what}: the exact answers would need about {total:,.0f} work units together "
            f"(allowed: at most {bound:,.0f}, {_seconds(bound)}{room(works, bound) if room else ''})")


def first_fit(works, bound: float) -> str:
    """How many of the first calls of estimated `works` fit `bound`, as a refusal says it."""
    first, spent = 0, 0.0
    for work in works:
        spent += work
        if spent > bound:
            break
        first += 1
    return f"; the first {first:,} of {len(works):,} fit"


def _seconds(bound: float) -> str:
    return "a few seconds" if bound <= 1e7 else f"about {bound / 1e6:,.0f} s"


def within(spec, calls, engine: dict, what: str, times: int = 1, named=None,
           say: bool = False) -> tuple[dict, tuple]:
    """(engine options, notes) for `calls` (keyword dicts of `spec`), each made up to `times`
    times: `engine` as given within MAX_EXACT_WORK, else as the module says. `named(i, fn)`
    runs call i's estimate so that its error names the call (compare: the plan); `say`: the
    whole exact work said once (engine.say_exact_work), the calls then saying none."""
    method = engine.get("method", "auto")
    if method == "mc" or not spec.exact:
        return engine, ()
    works = [times * w for w in estimates([lambda kw=kw: spec.call(**kw, **engine) for kw in calls],
                                          named)]
    engine, notes = over_budget(works, engine, what)
    if say and not notes:
        E.say_exact_work(math.fsum(works), engine.get("progress"))
        engine = {**engine, "progress": False}
    return engine, notes


def over_budget(works, engine: dict, what: str, mc: str = "Monte Carlo for every answer"
                ) -> tuple[dict, tuple]:
    """(engine options, notes) for calls of estimated `works` (within: the module's rule);
    `mc` begins the note of a fall back to Monte Carlo."""
    why = refusal(works, what, E.MAX_EXACT_WORK)
    if why is None:
        return engine, ()
    if engine.get("method", "auto") == "exact":
        raise OddsError(f"method: 'exact': {why}; use method='mc', or ask less")
    return {**engine, "method": "mc"}, (f"{mc}: {why}",)


def beyond(error: E.BeyondExact, tool: str) -> str:
    """An exact-only tool's words for one answer beyond the exact bounds (`error`): what it
    would need and what is smaller; never the engine's method='mc', which `tool` has not."""
    return _("{why}; {tool} is exact only: give {smaller}").format(
        why=error.why, tool=tool, smaller=error.smaller)


def check_event(proc, event: str | None, field: str, procedure: str) -> str:
    """The event asked (None: `proc`'s main), refused in one line unless its Result has it."""
    name = event or proc.main
    names = E.events(proc)
    if name not in names:
        raise OddsError(f"{field}: {name!r} is not an event of {procedure} "
                        f"(allowed: {', '.join(names)})")
    return name


@contextmanager
def under_way(works, what: str, unit: str, room=first_fit):
    """Exact-only calls of estimated `works`: refused in one line over MAX_TOTAL_WORK (with
    CALL_WORK each; `room` says what would fit, see `refusal`); else their whole work said
    once (a terminal's "solving exactly" line) and, with that line, a bar over the calls.
    Yields the bar's step (a call done)."""
    works = [w + CALL_WORK for w in works]
    why = refusal(works, what, MAX_TOTAL_WORK, room)
    if why is not None:
        raise OddsError(why)
    total = math.fsum(works)
    E.say_exact_work(total, None)
    shown = bar(len(works), unit, None, total > PROGRESS_AFTER_SECONDS * 1e6, math.inf)
    try:  # drawn from here on: a Ctrl-C the moment it shows still clears it
        if shown:
            shown.delay = 0
            shown.refresh()
        yield shown.update if shown else (lambda: None)
    finally:
        if shown:
            shown.close()


def bar(total: int, unit: str, progress=None, enough: bool = True, delay: float = 0.0):
    """A tqdm bar over `total` calls, or None: asked for (progress=True), or (None) `enough`
    work with stderr a terminal; it shows once `delay` seconds have passed (math.inf: when its
    caller sets its delay to 0 and refreshes it)."""
    if progress is False or (progress is None and not (enough and montecarlo.terminal())):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, leave=False, delay=delay)
