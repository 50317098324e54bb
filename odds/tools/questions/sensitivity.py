"""`odds.sensitivity(...)` (the command `odds sensitivity`): how far an answer moves
with the readings it rests on (core.readings: each reading the call uses flipped to each of its
alternatives, the others held, and a designer's own alternatives), one table ordered by
effect. The same table as `odds crusades sensitivity SCENARIO`."""
from __future__ import annotations

from ...core import readings as R
from ...errors import OddsError
from ...i18n import _, ngettext
from ...registry import get, specs
from .budget import within
from .plans import QUESTION_MAX_PLANS, applied, plan, split_engine


def with_readings() -> list:
    """The procedures that declare readings."""
    return [name for name, s in specs().items() if s.readings]


def sensitivity(procedure: str, base: dict | None = None, alternatives=None, **engine):
    """Each reading `procedure` rests on for the call `base` (its keywords; a reading the call
    gives is flipped from the value given) flipped to each of its alternatives, and each of
    `alternatives` (a designer's: name -> keyword changes, or `KEY=VALUE` words, as compare's
    plans), the others held: a core.readings.Sensitivity, the headline and the main means
    with their changes, ordered by effect. `engine` keywords (method, trials, seed, ...)
    apply to every answer; exact when the procedure has an exact engine and every answer
    together is within the exact bound, else Monte Carlo with one seed for all."""
    spec = get(procedure)
    if not spec.readings and not alternatives:
        raise OddsError(_("procedure: {procedure} has no reading (every number it uses is rule "
                          "text or given; allowed: {allowed}, or give alternatives)").format(
            procedure=spec.name, allowed=", ".join(with_readings())))
    base, engine = split_engine(base, engine)  # the engine's keywords among the call's too
    base = spec.check_given(base)
    extra = designer(spec, base, alternatives or {})
    calls = [base] + [{**base, **changes} for _label, _what, changes in R.planned(spec, base, extra)
                      if changes is not None]
    engine, notes = within(spec, calls, engine, ngettext("{n} answer (the call itself included)",
                                                      "{n} answers (the call itself included)",
                                                      len(calls)).format(n=len(calls)),
                           say=True)
    result = R.sensitivity(spec, base, extra, engine)
    return result.with_changes(notes=tuple(notes) + tuple(result.notes)) if notes else result


def designer(spec, base: dict, alternatives) -> dict:
    """A designer's alternatives as label -> the keywords they change (`KEY=VALUE` words, or a
    dict of keywords; `KEY.ENTRY=N` one entry of a KEY=N list, as compare's plans)."""
    if isinstance(alternatives, (list, tuple)):
        alternatives = {" ".join(a) if isinstance(a, (list, tuple)) else str(a): a for a in alternatives}
    if len(alternatives) > QUESTION_MAX_PLANS:
        raise OddsError(_("alternatives: {n} given (allowed: at most {most})").format(
            n=len(alternatives), most=QUESTION_MAX_PLANS))
    out = {}
    for label, changes in alternatives.items():
        try:
            words = changes if isinstance(changes, dict) else plan(spec, changes)
        except OddsError as e:
            raise OddsError(f"--alternative {label}: {e}") from None
        new = applied(base, words)
        out[str(label)] = {k: v for k, v in new.items() if k not in base or base[k] != v}
    return out
