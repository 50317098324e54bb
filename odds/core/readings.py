"""Readings: the choices odds makes where the rules are silent, declared once beside each
procedure's rules and carried by its Spec (registry), and what an answer does with them.

A `Reading` names the setting (a keyword of the procedure, or a name of its settings line),
the value chosen, the alternatives worth trying (or a range, with the call's own points in
it), when an answer rests on it and where it comes from (docs/rules.md). Nothing here knows a
game: the registry hands `answer` a procedure's function and spec.

An answer rests on a reading that applies to it and that the caller did not give: a value
the caller typed is theirs, not a reading, and is not marked. For those readings `answer`
marks the settings ("(reading)"), and flips each one to each of its alternatives, the others
held: an exact answer's exactly when every alternative together is within MAX_EXACT_WORK (not
at all beyond, saying so), a Monte Carlo answer's by Monte Carlo with the call's trials and the
answer's seed (its 95% interval per alternative), and not at all where a trial is slow (the
Spec's `web_max_trials`), saying why. `Result.flips` holds them; the headline gives its range
over them when it is wide (core.flips.WIDE). `sensitivity` flips every reading that applies,
given or not, plus a designer's own alternatives, into one table ordered by effect (odds
sensitivity, odds crusades sensitivity).
Tools that ask many answers (sweeps, compare, need, charts, luck) ask them `alone()`.
"""
from __future__ import annotations

import inspect
import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Callable

from ..config import MAX_EXACT_WORK
from ..errors import OddsError
from ..i18n import N_, _, decimal, percent
from ..texts import signed
from . import engine as E
from .flips import text
from . import paired as P
from .interval import newcombe, trials_text
from .outcomes import label as mean_label
from .result import Result

ENGINE = ("method", "trials", "seed", "precision", "max_trials", "threads", "progress")
_ALONE: ContextVar = ContextVar("odds_readings_alone", default=False)


@dataclass(frozen=True)
class Reading:
    """A choice the tool makes where the rules are silent.

    `name`: the keyword it is (`doria_dice`), or the settings-line name it marks when it is no
    keyword (`table`); `what`: it in words ("Andrea Doria's dice"); `value`: the value chosen,
    as the keyword takes it or in words; `source`: where it comes from (docs/rules.md).
    `alternatives`: the keyword's values worth trying; or `low`/`high`, a range, with
    `points(call)` giving the call's own values in it. `keywords`: the keywords it sets
    (default: `name`, when it has alternatives or points); `marks`: the settings it marks
    "(reading)" (default: `name`). `when(call)`: whether the call uses it at all (default:
    always); `given_by(call, given)`: whether the caller set it (default: one of its keywords
    is among `given`, the keywords typed); an answer rests on it when it is used and not set
    by the caller. `points(call)`: [(label, {keyword: value})], the
    alternatives of this call (default: one per value of `alternatives` other than the call's).
    `none`: why it has no alternative to try, when it has none; `shown(call)`: the value in
    effect in this call, where `value` says it in general (a war card's forces); `tried`:
    the alternatives `points` gives, in words.
    """

    name: str
    what: str
    value: object
    source: str
    alternatives: tuple = ()
    low: float | None = None
    high: float | None = None
    keywords: tuple = ()
    marks: tuple = ()
    when: Callable | None = None
    given_by: Callable | None = None
    points: Callable | None = None
    none: str = ""
    shown: Callable | None = None
    tried: str = ""  # the alternatives `points` gives, in words (for help and docs)

    def sets(self) -> tuple:
        """The keywords this reading sets."""
        if self.keywords:
            return self.keywords
        return (self.name,) if self.alternatives or self.points else ()

    def marked(self) -> tuple:
        return self.marks or (self.name,)

    def applies(self, call: dict) -> bool:
        """True when the call uses this reading (set by the caller or not)."""
        return self.when is None or bool(self.when(call))

    def rests(self, call: dict, given: set) -> bool:
        """True when an answer to `call` rests on this reading: used, and not set by the
        caller (`given`: the keywords typed)."""
        if not self.applies(call):
            return False
        if self.given_by is not None:
            return not self.given_by(call, given)
        return not any(k in given for k in self.sets())

    def variants(self, call: dict) -> list:
        """[(label, changes)] of this call: its alternatives other than the call's value."""
        if self.points is not None:
            return list(self.points(call))
        keyword = self.sets()[0] if self.sets() else None
        if keyword is None:
            return []
        return [(f"{keyword}={text(v)}", {keyword: v}) for v in self.alternatives
                if _plain(v) != _plain(call.get(keyword))]

    def choices(self) -> str:
        """The alternatives (or the range) in words, for help and docs."""
        if self.tried:
            return self.tried
        if self.low is not None:
            return f"{self.low:g} to {self.high:g}"
        return ", ".join(text(v) for v in self.alternatives) or "none"

    def describe(self) -> dict:
        """Plain data (GET /api/procedures, docs)."""
        out = {"name": self.name, "what": self.what, "value": text(self.value),
               "source": self.source, "keywords": list(self.sets())}
        if self.low is not None:
            out.update(low=self.low, high=self.high)
        else:
            out["alternatives"] = [text(v) for v in self.alternatives]
        if self.none:
            out["none"] = self.none
        return out


def _plain(value):
    return tuple(value) if isinstance(value, list) else value


def typed(value, default=None) -> bool:
    """A keyword counts as given by the caller when it holds a value (not None, not empty); a
    switch when it is not at its default (a command line's switch cannot be typed off, nor a
    page's box sent at its default: either way the same answer)."""
    if isinstance(value, bool):
        return value != default
    return value is not None and not (isinstance(value, (list, tuple, dict)) and not value)


@contextmanager
def alone():
    """Answers asked inside this block flip no reading (a tool asking many: a sweep's cells,
    compare's plans, need's steps, a chart's cells, a record's rolls); they still mark them."""
    token = _ALONE.set(True)
    try:
        yield
    finally:
        _ALONE.reset(token)


def split(raw, args, kwargs) -> tuple[dict, dict, dict, set]:
    """(keywords passed, the whole call with defaults, engine options, keywords given)."""
    signature = inspect.signature(raw)
    bound = signature.bind(*args, **kwargs)
    passed = dict(bound.arguments)
    bound.apply_defaults()
    call = {k: v for k, v in bound.arguments.items() if k not in ENGINE}
    engine = {k: v for k, v in passed.items() if k in ENGINE}
    passed = {k: v for k, v in passed.items() if k not in ENGINE}
    return passed, call, engine, {k for k, v in passed.items()
                                  if typed(v, signature.parameters[k].default)}


def answer(spec, raw, args, kwargs):
    """`raw(*args, **kwargs)` with the readings it rests on marked and flipped (`Result.flips`)."""
    result = raw(*args, **kwargs)
    if not isinstance(result, Result) or spec is None or not spec.readings:
        return result
    passed, call, engine, given = split(raw, args, kwargs)
    return settle(spec, raw, result, passed, call, engine, given)


def settle(spec, raw, result, passed, call, engine, given):
    """The result with the readings that apply to it and were not given: marked, and flipped
    unless asked alone or the answer is partial."""
    applied = [r for r in spec.readings if r.rests(call, given)]
    marks = tuple(dict.fromkeys(m for r in applied for m in r.marked()))
    if not applied:
        return result.with_changes(readings=())
    if _ALONE.get():
        return result.with_changes(readings=marks)
    if result.partial:
        why = _("the answer itself was stopped early")
        return result.with_changes(readings=marks, flips=tuple(
            _flip(spec, r, call, result, (), why) for r in applied))
    return result.with_changes(readings=marks, flips=_flips(spec, raw, applied, passed, call,
                                                           engine, result))


def _flips(spec, raw, applied, passed, call, engine, result) -> tuple:
    """One flip per reading: each alternative answered with the engine the alternatives share
    (`engines`), until one is stopped (Ctrl-C, the caller's time budget): that one is marked
    partial, the rest not computed; the answer itself stays whole."""
    variants = {r.name: r.variants(call) for r in applied}
    options, why = engines(spec, raw, [{**passed, **c} for r in applied for _, c in variants[r.name]],
                           engine, result)
    out, partial = [], False
    for r in applied:
        rows, stop = [], why or ("" if variants[r.name] else _(r.none or "no alternative declared"))
        for label, changes in variants[r.name] if not stop else ():
            if partial:
                stop = _("stopped (interrupted, or the time budget spent)")
                break
            row = _alternative(spec, raw, {**passed, **changes}, options, label, result)
            partial = bool(row.get("partial"))
            rows.append(row)
        out.append(_flip(spec, r, call, result, rows, stop))
    return tuple(out)


def engines(spec, raw, todo: list, engine: dict, base) -> tuple[dict, str]:
    """(engine options, why not computed: '' when they are) for the alternatives `todo` of
    the answer `base`: an exact answer's exactly, when every one is within the exact bounds
    and all together within MAX_EXACT_WORK (beyond: none, saying so: an exact answer is not
    made to wait on Monte Carlo runs); a Monte Carlo answer's by Monte Carlo with the call's
    options and the answer's seed (common random numbers), unless a trial is slow."""
    if not todo:
        return {}, ""
    if base.method == "exact":
        exact = {"method": "exact", "progress": False}
        try:
            works = [E.estimate(lambda kw=kw: raw(**kw, **exact)) for kw in todo]
        except OddsError as e:
            return {}, _("an alternative is beyond the exact bounds ({why}); odds sensitivity "
                         "{name} --method mc answers them").format(why=e, name=spec.name)
        if math.fsum(works) <= MAX_EXACT_WORK:
            return exact, ""
        return {}, _("the alternatives' exact answers would need about {work:,.0f} work units "
                     "together (allowed: at most {most:,}); odds sensitivity {name} answers them"
                     ).format(work=math.fsum(works), most=MAX_EXACT_WORK, name=spec.name)
    if spec.web_max_trials is not None:
        return {}, _("each alternative is a Monte Carlo run of its own, and a trial is slow here; "
                     "odds sensitivity {name} runs them").format(name=spec.name)
    return {**engine, "method": "mc", "seed": base.seed, "progress": engine.get("progress")}, ""


def _alternative(spec, raw, kwargs, options, label, base) -> dict:
    """One alternative's answer: its headline, its 95% interval (Monte Carlo) and its means."""
    try:
        r = raw(**kwargs, **options)
    except OddsError as e:
        return {"value": label, "not_computed": str(e)}
    row = {"value": label, "p": _number(r.p), "method": r.method, "means": means(spec, base, r)}
    if r.method == "mc":
        row.update(trials=r.trials, interval=[_number(x) for x in r.interval(r.p)])
    if r.partial:
        row["partial"] = True
    if row["p"] is None:
        row["not_computed"] = _("stopped before its first trial")
    return row


def means(spec, base, r) -> dict:
    """The main means (spec.means, else the losses, else the first two pmfs that have one)."""
    return {n: _number(r.expected(n)) for n in mean_names(spec, base) if n in r.pmfs}


def mean_names(spec, base) -> tuple:
    if spec.means:
        return tuple(n for n in spec.means if n in base.pmfs)
    counted = [n for n, pmf in base.pmfs.items() if n not in base.ZERO and len(pmf) > 1]
    lost = [n for n in counted if n.endswith("losses") or n.endswith("_lost")]
    return tuple(lost or counted[:2])


def _flip(spec, reading, call, base, rows, why) -> dict:
    out = {"reading": reading.name, "what": reading.what, "assumed": _assumed(reading, call),
           "source": reading.source, "p": _number(base.p), "means": means(spec, base, base),
           "alternatives": list(rows)}
    if why:
        out["not_computed"] = why
    return out


def _assumed(reading: Reading, call: dict) -> str:
    if reading.shown is not None:
        return text(reading.shown(call))
    keywords = reading.sets()
    if len(keywords) == 1 and keywords[0] in call and call[keywords[0]] is not None:
        return text(call[keywords[0]])
    return text(reading.value)


def _number(x):
    x = float(x)
    return x if math.isfinite(x) else None


# ---- sensitivity: every reading flipped, side by side ----

@dataclass(frozen=True)
class Sensitivity(Result):
    """Each reading that applies flipped to each alternative (and a designer's own), the
    others held: the headline and the main means beside the answer as called, with their
    changes, ordered by effect. `probabilities` are keyed 'base' and 'KEY=VALUE'."""

    rows: tuple = ()
    measures: tuple = ()
    headline: str = ""
    base_means: dict = field(default_factory=dict)

    def summary(self, width: int = 30) -> str:
        """The table: a row per alternative, most effect first; Monte Carlo: the headline's 95%
        interval (Wilson's) and its change's (Newcombe's)."""
        mc = self.method != "exact"
        how = _("exact") if not mc else _(
            "Monte Carlo, {trials} each, seed {seed} for every one: common random numbers").format(
            trials=trials_text(self.trials or 0), seed=self.seed)
        title = self.headline or _("the main probability")
        game = self.procedure.split(".")[0]
        means = [mean_label(m, game) for m in self.measures]
        lines = [_("{title}: each reading flipped, the others held ({how}{partial})").format(
                     title=title, how=how, partial=_(", PARTIAL: interrupted") if self.partial else "")
                 + f"  [{self.procedure}]",
                 "  " + _("as called: {p}").format(p=percent(self.p, 2)) + "".join(
                     f", E {m} {decimal(self.base_means.get(name, math.nan), 3)}"
                     for m, name in zip(means, self.measures))]
        cells = [(r["label"], *_cells(r, self.measures)) for r in self.rows]
        head = (_("alternative"), title, _("change"), *(_("E {mean} (change)").format(mean=m) for m in means))
        widths = [max(len(str(c[i])) for c in [head, *cells]) for i in range(len(head))]
        if self.rows:  # no table without a row: the note says why
            lines.append("  " + "  ".join(f"{h:<{w}}" if i == 0 else f"{h:>{w}}"
                                          for i, (h, w) in enumerate(zip(head, widths))))
        for r, c in zip(self.rows, cells):
            if r.get("p") is None:
                lines.append(f"  {r['label']:<{widths[0]}}  " + _("not computed: {why}").format(
                    why=r.get("not_computed", "")))
                continue
            lines.append("  " + "  ".join(f"{x:<{w}}" if i == 0 else f"{x:>{w}}"
                                          for i, (x, w) in enumerate(zip(c, widths)))
                         + ("  " + _("(flips the value given)") if r.get("given") else ""))
        lines += ["  " + _("note:") + f" {n}" for n in self.notes]
        return "\n".join(lines)

    def to_json(self) -> dict:
        out = super().to_json()
        out.update(rows=[dict(r) for r in self.rows], measures=list(self.measures),
                   headline=self.headline, base_means=dict(self.base_means))
        return out


def planned(spec, kwargs: dict, extra: dict | None = None) -> list:
    """[(reading or None, label, changes)]: every reading of `spec` that the call `kwargs`
    uses (given or not) at each of its alternatives, then each of `extra` (label -> keyword
    changes: a designer's variant)."""
    raw = spec.raw()
    _, call, _, _ = split(raw, (), {**spec.preset, **kwargs})
    out = []
    for r in spec.readings:
        if r.applies(call):  # one with no alternative: a row saying why (changes None)
            out += r.variants(call) and [(r, label, c) for label, c in r.variants(call)] or [
                (r, f"{r.name}={_assumed(r, call)}", None)]
    return out + [(None, label, changes) for label, changes in (extra or {}).items()]


def sensitivity(spec, kwargs: dict, extra: dict | None = None, engine: dict | None = None,
                name: str | None = None, base_settings: dict | None = None,
                kind: type = None) -> Sensitivity:
    """Every reading of `spec` that applies to the call `kwargs` (given or not) flipped to each
    of its alternatives, and each of `extra` (label -> keyword changes: a designer's rule
    variant), with the call's engine options and its seed for all; rows ordered by effect
    (`kind`: the Sensitivity subclass to return; `base_settings`: its settings, else the
    base answer's). A run interrupted (Ctrl-C, a caller's stop test) ends the flips: the
    answer is partial, with the rows completed."""
    engine = dict(engine or {})
    kwargs = {**spec.preset, **kwargs}
    flips = planned(spec, kwargs, extra)
    _raw, call, _kw, given = split(spec.raw(), (), kwargs)
    with alone():  # marked, not flipped: the flips are this answer's rows
        base = spec.function(**kwargs, **engine)
    if base.method == "mc":
        engine["seed"] = base.seed
    paired = base.method == "mc" and engine.get("precision") is None and (base.trials or 0) >= 2
    base_runs, partial = None, base.partial
    if paired and not partial:  # the call as replicate runs, each alternative with the same
        engine["trials"] = base.trials  # seeds (P.interval)
        base, base_runs = _replicated(spec, kwargs, engine) or (base, None)
        partial = base_runs is None
    measures = mean_names(spec, base)
    rows, probabilities = [], {"base": base.p}
    try:
        for reading, label, changes in flips if not partial else ():
            row = {"label": label, "reading": reading.name if reading else "designer",
                   "given": bool(reading and not reading.rests(call, given))}
            if changes is None:
                rows.append({**row, "not_computed": _(reading.none or N_("no alternative declared"))})
                continue
            try:
                if paired:
                    r, runs = _replicated(spec, {**kwargs, **changes}, engine) or (base.with_changes(partial=True), None)
                else:
                    with alone():
                        r, runs = spec.function(**{**kwargs, **changes}, **engine), None
            except OddsError as e:
                rows.append({**row, "not_computed": str(e)})
                continue
            if r.partial:
                partial = True
                break
            rows.append(_row(row, r, base, measures, runs, base_runs))
            probabilities[label] = r.p
    except KeyboardInterrupt:  # an exact alternative stopped: the rows done so far
        partial = True
    done = [r for r in rows if r.get("p") is not None]
    tried = [f for f in flips if f[2] is not None]
    notes = [_("interrupted: {done} of {tried} alternatives completed").format(
        done=len(done), tried=len(tried))] if partial else []
    if not flips:
        notes.append(_("no reading applies to this call: every number it uses is given or rule "
                       "text"))
    if base_runs is not None:
        notes.append(_("every alternative ran as the call did, as {runs} runs of the same seeds "
                       "(from seed {seed}: common random numbers); a change's 95% interval is "
                       "from the spread of the runs' paired differences").format(
            runs=len(base_runs), seed=base.seed))
    elif base.method == "mc" and not paired:
        notes.append(_("every alternative ran with seed {seed} (common random numbers); a "
                       "change's interval is that of independent runs, the true one is usually "
                       "narrower").format(seed=base.seed))
    rows.sort(key=lambda r: -abs(r["change"]) if r.get("p") is not None else 1)
    settings = base_settings if base_settings is not None else base.settings
    return (kind or Sensitivity)(name or f"{spec.name}.sensitivity", base.method, probabilities,
                                 {}, "base", trials=base.trials, seed=base.seed, partial=partial,
                                 settings=settings, notes=tuple(notes), rows=tuple(rows),
                                 measures=measures, headline=spec.words.title(spec.main),
                                 words=base.words, readings=base.readings,
                                 base_means={m: base.expected(m) for m in measures})


def _cells(r: dict, measures) -> tuple:
    """A row's cells: the headline (its interval), its change (its interval), each mean and
    its change."""
    if r.get("p") is None:
        return ("", "", *("" for _ in measures))
    p = percent(r["p"], 2) + (f" [{percent(r['interval'][0], 1)}, {percent(r['interval'][1], 1)}]"
                              if r.get("interval") else "")
    change = f"{signed(r['change'], '.2%')}" + (f" [{signed(r['change_low'], '.1%')}, {signed(r['change_high'], '.1%')}]"
                                      if r.get("change_low") is not None else "")
    within = r.get("mean_change_intervals") or {}
    half = {m: f" ± {decimal((high - low) / 2, 3)}" for m, (low, high) in within.items()}
    return (p, change, *(f"{decimal(r['means'].get(m, math.nan), 3)} ({signed(r['mean_changes'].get(m, math.nan), '.3f')}"
                         f"{half.get(m, '')})" for m in measures))


def _replicated(spec, kwargs: dict, engine: dict) -> tuple | None:
    """(the call's Result, its replicate runs): `engine`'s trials split into P.sizes runs of
    P.replicate_seed each, merged; None when a run stopped (Ctrl-C), which stops them all."""
    seed, runs = engine["seed"], []
    for i, n in enumerate(P.sizes(engine["trials"])):
        with alone():
            r = spec.function(**kwargs, **{**engine, "trials": n, "seed": P.replicate_seed(seed, i),
                                           "progress": False})
        if r.partial:
            return None
        runs.append(r)
    return P.merged(runs, seed), runs


def _row(row, r, base, measures, runs=None, base_runs=None) -> dict:
    out = {**row, "p": r.p, "change": r.p - base.p, "method": r.method,
           "means": {m: r.expected(m) for m in measures if m in r.pmfs},
           "mean_changes": {m: r.expected(m) - base.expected(m) for m in measures if m in r.pmfs}}
    if runs is not None:  # paired: each change's interval from the runs' differences
        out["interval"] = list(r.interval(r.p))
        out["change_low"], out["change_high"] = P.interval(
            out["change"], [x.p for x in runs], [x.p for x in base_runs])
        out["mean_change_intervals"] = {m: list(P.interval(c, [x.expected(m) for x in runs],
                                                           [x.expected(m) for x in base_runs]))
                                        for m, c in out["mean_changes"].items()}
    elif r.method == "mc" or base.method == "mc":
        n = lambda x: x.trials if x.method == "mc" else None  # noqa: E731
        out["interval"] = list(r.interval(r.p))
        out["change_low"], out["change_high"] = newcombe(r.p, n(r), base.p, n(base))
    return out
