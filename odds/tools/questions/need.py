"""What do I need: the value of one integer parameter at which an event reaches a target.

The search starts at the range's low end and doubles its step until the answer (P >= target)
changes, then bisects the last step: about 2 log2(range) evaluations. Reading the evaluated
values in order, P must move one way (exact: by more than 1e-9; Monte Carlo: by more than 1.96
standard errors of the difference); when it does not, every value of the range is evaluated
instead and the answer says the probability is not monotone. The answer is where the range,
read upwards, first changes side: the least value reaching the target when the low end misses
it, the most value still reaching it when the low end reaches it. Monte Carlo runs every
value with one seed (common random numbers); an answer whose 95% interval (Wilson's:
core.interval) holds the target is said to be within the Monte Carlo error. The event is
checked before any work; the exact work is checked as it goes (Search.within).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ...config import DEFAULT_MAX_TRIALS, DEFAULT_TRIALS
from ...core.engine import estimate, estimated
from ...core.readings import alone
from ...core.interval import trials_text, wilson
from ...core.outcomes import label as _label
from ...errors import OddsError, check_probability
from ...registry import get
from ...texts import counted
from .budget import check_event, over_budget
from .plans import Vary, split_engine, vary as parse_vary

NAMES = {"target": "target", "vary": "vary", "event": "event"}  # how errors name the inputs
NEED_MAX_VALUES = 201  # values in the range one need search may scan
NEED_MAX_TRIALS = 10**9  # Monte Carlo trials in one need search (evaluations x trials)
EXACT_TOLERANCE = 1e-9


def percent(p: float) -> str:
    """A probability as a percentage: one decimal, or two significant digits below 1%."""
    return f"{p:.1%}" if p >= 0.01 or p == 0 else f"{100 * p:.2g}%"


class _Stop(Exception):
    """A Monte Carlo run came back partial (interrupted): the search ends."""


@dataclass(frozen=True)
class Need:
    """The answer: `value` (None when no value in the range answers), P(event) there and at
    its `neighbour` (the value on the other side of the target), every value evaluated."""

    procedure: str
    vary: str
    event: str
    target: float
    low: int
    high: int
    method: str
    value: int | None
    neighbour: int | None
    reaches: str  # "least" (the least value reaching the target), "most", "all" or "none"
    monotone: bool  # False: P moved both ways, so every value from `low` up was evaluated
    evaluated: dict  # value -> (P(event), standard error)
    seed: int | None = None
    trials: int | None = None
    partial: bool = False
    notes: tuple = field(default_factory=tuple)
    held: tuple = ()  # what stayed fixed, in words ("defender=4", "no attacker leader")

    @property
    def p(self) -> float | None:
        return None if self.value is None else self.evaluated[self.value][0]

    def _p(self, value: int) -> str:
        p, _ = self.evaluated[value]
        if self.method == "exact":
            return percent(p)
        low, high = wilson(p, self.trials)
        return f"{percent(p)} [95%: {percent(low)} to {percent(high)}]"

    def sentence(self) -> str:
        """The answer in words ("attacker=8 gives P(attacker win) 81.3% (attacker=7 gives
        74.0%): the least attacker from 1 to 200 that reaches 80.0%")."""
        name, what, goal = self.vary, f"P({_label(self.event)})", percent(self.target)
        span = f"{name} from {self.low} to {self.high}"
        if self.partial:
            return f"interrupted after {len(self.evaluated)} value(s) of {name}: no answer"
        if self.reaches == "none":
            best = max(self.evaluated, key=lambda v: self.evaluated[v][0])
            return (f"no {span} gives {what} {goal}: the best evaluated, "
                    f"{name}={best}, gives {self._p(best)}" + self._with())
        if self.reaches == "all":
            return (f"every {span} gives {what} at least {goal}: {name}={self.low} "
                    f"gives {self._p(self.low)}" + self._with())
        which = "least" if self.reaches == "least" else "most"
        return (f"{name}={self.value} gives {what} {self._p(self.value)} ({name}={self.neighbour} "
                f"gives {self._p(self.neighbour)}): the {which} {span} that reaches {goal}"
                + self._with())

    def _with(self) -> str:
        return f", with {', '.join(self.held)}" if self.held else ""

    def summary(self) -> str:
        how = "exact" if self.method == "exact" else \
            f"Monte Carlo, {trials_text(self.trials or 0)} per value, seed {self.seed}"
        check = (f"monotone at the {counted(len(self.evaluated), 'value')} evaluated" if self.monotone else
                 f"NOT monotone in {self.vary}: every value from {self.low} up evaluated")
        lines = [self.sentence(), f"  [{self.procedure}, {how}; {check}]"]
        return "\n".join(lines + [f"  note: {n}" for n in self.notes])

    def to_json(self) -> dict:
        out = {k: getattr(self, k) for k in (
            "procedure", "vary", "event", "target", "low", "high", "method", "value", "neighbour",
            "reaches", "monotone", "seed", "trials", "partial")}
        out["p"] = self.p
        out["sentence"] = self.sentence()
        out["evaluated"] = {str(v): {"p": p, "se": se} for v, (p, se) in sorted(self.evaluated.items())}
        out["notes"] = list(self.notes)
        return out


def need(procedure: str, base: dict | None = None, *, vary, target: float, event: str | None = None,
         names: dict | None = None, **engine) -> Need:
    """The value of integer parameter `vary` (a name, `NAME=LOW..HIGH`, `dice_per.galley=0..6`;
    the Param's range when none is given) at which P(`event`) (default: the main probability)
    reaches `target`, the other keywords as in `base`. `engine` keywords (method, trials, seed)
    apply to every value; `names` renames the inputs in errors (the CLI passes its flags)."""
    names = {**NAMES, **(names or {})}
    spec = get(procedure)
    base, engine = split_engine(base, engine)
    target = check_probability(names["target"], target)
    v = vary if isinstance(vary, Vary) else parse_vary(spec, vary, names["vary"])
    spec.check_given(v.assign(base, v.low))
    if len(v.values()) > NEED_MAX_VALUES:
        raise OddsError(f"{names['vary']}: {v.label}={v.low}..{v.high} has {len(v.values())} "
                        f"values (allowed: up to {NEED_MAX_VALUES})")
    v, stops = taken(spec, base, v, names["vary"])
    search = Search(spec, base, v, target, engine, event, names)
    search.budget_notes += stops
    try:
        return search.run()
    except (_Stop, KeyboardInterrupt):
        return search.answer(None, None, "none", partial=True)


def taken(spec, base: dict, v: Vary, field: str) -> tuple[Vary, tuple]:
    """The run of `v`'s values that the procedure takes with `base` held (Spec.check: no engine
    work), from the first it takes, and a note for each end where the range stops before its
    own (more cavalry than units is the range's end, not an error); none taken: the low end's
    refusal."""
    def refusal(value):
        try:
            spec.check(v.assign(base, value))
        except OddsError as e:
            return e
        return None

    refused = {x: refusal(x) for x in v.values()}
    good = [x for x, e in refused.items() if e is None]
    if not good:
        raise OddsError(f"{field} {v.label}={v.low}: {refused[v.low]}")
    low = high = good[0]
    while high < v.high and refused[high + 1] is None:
        high += 1
    stops = [f"{v.label} stops at {end}: at {past}, {refused[past]}"
             for end, past in ((low, low - 1), (high, high + 1)) if v.low <= past <= v.high]
    return replace(v, low=low, high=high), tuple(stops)


def held(spec, base: dict, varied: str) -> tuple:
    """What a need answer held fixed, in words, in the procedure's order: each keyword given a
    value other than its default (but the varied one), and the leaders and cards left out
    ("no attacker leader", "no defender cards")."""
    out, defaults = [], spec.defaults()
    for p in spec.params:
        value = base.get(p.name, defaults[p.name])
        if p.name == varied:
            continue
        if p.kind in ("leader", "cards") and not value:
            out.append(f"no {p.name.replace('_', ' ')}")
        elif p.name in base and _shown(value) != _shown(defaults[p.name]) and not (
                _none(value) and _none(defaults[p.name])):
            out.append(f"{p.name}={_shown(value)}")
    return tuple(out)


def _none(value) -> bool:
    """None or an empty list: a list keyword left at nothing (the command line's [])."""
    return value is None or (isinstance(value, (list, tuple)) and not value)


def _shown(value) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def _unless_refused(fn) -> float:
    """A value's estimate, 0 where the value is refused: its call says so itself."""
    try:
        return fn()
    except OddsError:
        return 0.0


def searched(n: int) -> int:
    """The values a search over n values evaluates at most when P rises with the value
    (doubling steps, then bisection, then the monotonicity check)."""
    return 2 * math.ceil(math.log2(n + 1)) + 3


class Search:
    """One need search: the evaluations so far and the rules that read them."""

    def __init__(self, spec, base, v: Vary, target, engine, event, names):
        self.spec, self.base, self.v, self.target, self.names = spec, base, v, target, names
        self.results, self.engine, self.budget_notes, self.spent = {}, dict(engine), (), 0.0
        self.event = self.named(event)
        self.each = self.trials()
        self.bound(searched(len(v.values())))

    def named(self, event: str | None) -> str | None:
        """The event asked, checked against the low end's Procedure before any work."""
        low = self.v.assign(self.base, self.v.low)
        try:
            _, proc = estimated(lambda: self.spec.call(**low, **{**self.engine, "method": "mc"}))
        except OddsError as e:
            raise OddsError(f"{self.names['vary']} {self.v.label}={self.v.low}: {e}") from None
        return check_event(proc, event, self.names["event"], self.spec.name) if proc else event

    def trials(self) -> int:
        """Monte Carlo trials per value (0 when the values are answered exactly)."""
        method = self.engine.get("method", "auto")
        if not (method == "mc" or (method == "auto" and not self.spec.exact)):
            return 0
        return (self.engine.get("max_trials") or DEFAULT_MAX_TRIALS if self.engine.get("precision")
                else self.engine.get("trials") or DEFAULT_TRIALS)

    def within(self, value: int):
        """Exact work bounded as it goes: the search's path depends on the answers, and a
        worst case counts the range's dearest values, which it seldom visits; so each value's
        estimate is added to the work spent before it runs, against one answer's bound
        (questions.budget.over_budget): 'exact' is refused there, 'auto' answers this value
        and the rest by Monte Carlo."""
        if self.engine.get("method", "auto") == "mc" or not self.spec.exact:
            return
        kwargs = {**self.v.assign(self.base, value), **self.engine}
        work = _unless_refused(lambda: estimate(lambda: self.spec.call(**kwargs)))
        label = self.v.label
        self.engine, notes = over_budget(
            [self.spent, work], self.engine, f"{len(self.results) + 1} values of {label} so far "
            f"({label}={value} next)", f"Monte Carlo from {label}={value} on")
        self.spent += work
        if notes:
            self.budget_notes += notes
            self.each = self.trials()
            self.bound(searched(len(self.v.values())))

    def bound(self, evaluations: int):
        """Refuse a Monte Carlo search over NEED_MAX_TRIALS trials in all."""
        if self.each * evaluations > NEED_MAX_TRIALS:
            raise OddsError(f"{self.names['vary']}: {evaluations} values x {self.each:,} trials "
                            f"is over {NEED_MAX_TRIALS:,} trials (allowed: a narrower range or "
                            "fewer trials)")

    def p(self, value: int) -> float:
        """P(event) at `value`, computed once."""
        if value not in self.results:
            self.within(value)
            try:
                with alone():  # each value's readings are marked, not flipped
                    r = self.spec.call(**self.v.assign(self.base, value), **self.engine)
            except OddsError as e:
                raise OddsError(f"{self.names['vary']} {self.v.label}={value}: {e}") from None
            if r.method == "mc":
                self.engine["seed"] = r.seed  # one seed for every value: common random numbers
            if self.event is None:
                self.event = r.main
            if self.event not in r.probabilities:
                raise OddsError(f"{self.names['event']}: {self.event!r} is not an event of "
                                f"{self.spec.name} (allowed: {', '.join(r.probabilities)})")
            self.results[value] = r
            if r.partial:
                raise _Stop
        r = self.results[value]
        return r.probabilities[self.event]

    def good(self, value: int) -> bool:
        return self.p(value) >= self.target

    def run(self) -> Need:
        low, high = self.v.low, self.v.high
        start = self.good(low)
        before, after, step = low, None, 1
        while before < high:  # double the step until the side changes
            x = min(low + step, high)
            if self.good(x) != start:
                after = x
                break
            before, step = x, step * 2
        if after is not None:
            while after - before > 1:  # bisect the last step
                mid = (before + after) // 2
                before, after = (mid, after) if self.good(mid) == start else (before, mid)
            for x in (before - 1, after + 1):  # a value beyond each side of the answer
                if low <= x <= high:
                    self.p(x)
        rising = not start if after is not None else self.p(high) >= self.p(low)
        if self.monotone(rising):
            return self.read(start, before, after, monotone=True)
        return self.scan(start)

    def monotone(self, rising: bool) -> bool:
        """True when P moves one way (within the error) across the values evaluated."""
        xs = sorted(self.results)
        for a, b in zip(xs, xs[1:]):
            drop = (self.p(a) - self.p(b)) if rising else (self.p(b) - self.p(a))
            if drop > self.tolerance(a, b):
                self.against = (a, b)
                return False
        return True

    def tolerance(self, a: int, b: int) -> float:
        ra, rb = self.results[a], self.results[b]
        if ra.method == rb.method == "exact":
            return EXACT_TOLERANCE
        return 1.96 * math.hypot(ra.se(self.p(a)), rb.se(self.p(b)))

    def scan(self, start: bool) -> Need:
        """Every value of the range, read upwards: the first change of side."""
        a, b = self.against
        note = (f"P({_label(self.event)}) goes from {percent(self.p(a))} at {self.v.label}={a} to "
                f"{percent(self.p(b))} at {self.v.label}={b}, against the rest")
        self.bound(len(self.v.values()))
        for x in self.v.values():
            if self.good(x) != start:
                return self.read(start, x - 1, x, monotone=False, note=note)
        return self.read(start, self.v.high, None, monotone=False, note=note)

    def read(self, start: bool, before: int, after: int | None, monotone, note=None) -> Need:
        """The answer from the last value on the low end's side and the first past it."""
        if after is None:
            return self.answer(None, None, "all" if start else "none", monotone, note)
        if start:
            return self.answer(before, after, "most", monotone, note)
        return self.answer(after, before, "least", monotone, note)

    def answer(self, value, neighbour, reaches, monotone=True, note=None, partial=False) -> Need:
        notes = [*self.budget_notes, *([note] if note else [])]
        runs = [r for r in self.results.values() if r.method == "mc"]  # auto may fall back to it
        first = runs[0] if runs else None
        for x in (value, neighbour) if runs and value is not None and not partial else ():
            p, r = self.p(x), self.results[x]
            low, high = r.interval(p)
            if low <= self.target <= high:
                notes.append(f"{self.v.label}={x} is within the Monte Carlo error of the target "
                             f"({p:.2%}, 95% interval {low:.2%} to {high:.2%} from "
                             f"{trials_text(r.trials)}): more trials would settle it")
        if runs and not partial:
            notes.append("every value ran with the same seed (common random numbers)")
        return Need(
            procedure=self.spec.name, vary=self.v.label, event=self.event or self.spec.main,
            target=self.target, low=self.v.low, high=self.v.high,
            method="mc" if runs else "exact", value=value, neighbour=neighbour,
            reaches=reaches, monotone=monotone, partial=partial,
            evaluated={x: (self.p(x), r.se(self.p(x))) for x, r in sorted(self.results.items())},
            seed=first.seed if first else None, trials=first.trials if first else None,
            notes=tuple(notes), held=held(self.spec, self.base, self.v.name))
