"""Result: what every procedure returns, whatever the engine.

Probabilities are events (e.g. ``attacker_win``); pmfs are distributions of counts indexed from
0 (e.g. ``attacker_losses``). Standard errors are 0 for the exact engine and the binomial
sqrt(p(1-p)/trials) for Monte Carlo, since every estimate is a mean over independent trials;
the 95% interval printed beside a Monte Carlo probability is Wilson's (core.interval), honest
at a few trials where p ± 1.96 se is not. Probabilities are clipped to [0, 1] (summing
floating-point terms can overshoot 1 by 1e-16) and the JSON is strict: a number that is
undefined (a run interrupted before its first trial) is null, never NaN.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from . import flips as F
from .interval import trials_text, wilson
from .outcomes import PLAIN, Words, label
from ..i18n import _, decimal, language, percent, using


@dataclass(frozen=True)
class Result:
    procedure: str
    method: str  # "exact" or "mc"
    probabilities: dict
    pmfs: dict
    main: str
    trials: int | None = None
    seed: int | None = None
    partial: bool = False
    settings: dict = field(default_factory=dict)
    notes: tuple = ()
    assumptions: tuple = ()  # numbers this answer rests on that are readings, not rule text
    readings: tuple = ()  # settings whose value the rulebook does not fix, left at the tool's
    # reading (declared on the procedure's Spec: core.readings; a value the caller gave is not one)
    flips: tuple = ()  # per reading: the headline and main means under each alternative (core.flips)
    explain: tuple = ()  # lines in words: the dice each side rolls and why
    advice: tuple = ()  # what to do, in words (e.g. his/sieges/advice.py); the first line the decision
    words: Words = PLAIN  # what its events mean (the procedure's; core.outcomes)
    caveat: str = ""  # what the headline's number leaves out, said beside it (a tie unresolved)

    ZERO = {}  # pmf name -> what its entry 0 means when it is not a count (no mean shown)

    def __post_init__(self):
        probabilities = {k: _clip(v) for k, v in dict(self.probabilities).items()}
        pmfs = {k: np.clip(v, 0.0, 1.0) for k, v in dict(self.pmfs).items()}
        object.__setattr__(self, "probabilities", MappingProxyType(probabilities))
        object.__setattr__(self, "pmfs", MappingProxyType(pmfs))
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))

    def with_changes(self, **changes):
        """A copy with some fields changed (e.g. more notes, or a subclass's extra field)."""
        return replace(self, **changes)

    def __getitem__(self, name: str):
        """A probability by name, or a pmf (numpy array) by name."""
        if name in self.probabilities:
            return self.probabilities[name]
        return self.pmfs[name]

    def __contains__(self, name) -> bool:
        """`name in result`: a probability or a pmf of that name."""
        return name in self.probabilities or name in self.pmfs

    def __iter__(self):
        """The names `result[name]` answers: the probabilities, then the pmfs."""
        return iter((*self.probabilities, *self.pmfs))

    @property
    def p(self) -> float:
        """The main probability (e.g. P(attacker wins))."""
        return self.probabilities[self.main]

    def se(self, p) -> float | np.ndarray:
        """Standard error of an estimate `p` (a probability or an array of them)."""
        if self.method == "exact":
            return np.zeros_like(p) if isinstance(p, np.ndarray) else 0.0
        var = np.asarray(p) * (1 - np.asarray(p)) / self.trials
        return np.sqrt(var) if isinstance(p, np.ndarray) else math.sqrt(float(var))

    def interval(self, p: float) -> tuple[float, float]:
        """The 95% interval of a probability `p` of this result: Wilson's for Monte Carlo
        (honest at a few trials: core.interval), the point itself when exact."""
        return (p, p) if self.method == "exact" else wilson(p, self.trials)

    def expected(self, pmf_name: str) -> float:
        """Mean of a pmf."""
        pmf = self.pmfs[pmf_name]
        return float(np.dot(np.arange(len(pmf)), pmf))

    def to_frame(self):
        """Tidy table: outcome, value, p, p_at_least, p_at_most, se (events have value 1)."""
        import pandas as pd

        rows = [(name, 1, p, p, 1.0, self.se(p)) for name, p in self.probabilities.items()]
        for name, pmf in self.pmfs.items():
            at_most = np.minimum(np.cumsum(pmf), 1.0)
            at_least = np.minimum(np.cumsum(pmf[::-1])[::-1], 1.0)
            se = self.se(pmf)
            rows += [(name, k, pmf[k], at_least[k], at_most[k], se[k]) for k in range(len(pmf))]
        return pd.DataFrame(rows, columns=["outcome", "value", "p", "p_at_least", "p_at_most", "se"])

    def to_json(self) -> dict:
        """A JSON-ready dict: metadata, each probability with its `_se`, pmfs keyed by strings,
        settings, the settings that are readings and the answer under their alternatives
        (`flips`, `range`: core.flips), assumptions, the explanation (the dice each side rolls)
        and notes."""
        out = {"procedure": self.procedure, "method": self.method,
               "trials": self.trials, "seed": self.seed, "partial": self.partial}
        for name, p in self.probabilities.items():
            out[name] = _number(p)
            out[name + "_se"] = _number(self.se(p))
        for name, pmf in self.pmfs.items():
            out[name] = {str(k): _number(v) for k, v in enumerate(pmf)}
            out["expected_" + name] = _number(self.expected(name))
        zero = {name: _(self.ZERO[name]) for name in self.pmfs if name in self.ZERO}
        if zero:  # these pmfs' entry 0 is not a count: their mean means nothing
            out["zero"] = zero
        if self.method == "mc" and self.trials:
            out["intervals"] = {name: [_number(x) for x in self.interval(p)]
                                for name, p in self.probabilities.items()}
        out["settings"] = _jsonable(self.settings)
        out["assumptions"] = list(self.assumptions)
        if self.caveat:
            out["caveat"] = self.caveat
        if self.readings:
            out["readings"] = list(self.readings)
        out.update(F.json_of(self))
        if self.explain:
            out["explain"] = list(self.explain)
        if self.advice:
            out["advice"] = list(self.advice)
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def summary(self, width: int = 30, lang: str | None = None) -> str:
        """The text the CLI prints: the answer in words, the dice, the advice, the outcomes that
        partition 100% with the events that are parts of one indented under it (`within`), the
        other events apart, the distributions as text bars, settings; in `lang` (default: the
        language in force, odds.set_language; the sentences made with the answer, its dice and
        advice and notes, are in the language it was computed in)."""
        with using(lang):
            return self._summary(width)

    def _summary(self, width: int) -> str:
        mc = self.method != "exact"
        how = (_("Monte Carlo, {trials}, seed {seed}").format(
            trials=trials_text(self.trials or 0), seed=self.seed) if mc else _("exact"))
        low, high = self.interval(self.p)
        within = _(", 95% interval {low} to {high}").format(
            low=percent(low, 1), high=percent(high, 1)) if mc and low == low else ""
        spread = F.headline_range(self, within)
        p = spread or f"{percent(self.p, 1)}{within}"
        game = self.procedure.split(".")[0]
        lines = [f"{self.words.title(self.main, game)} {p} ({how}"
                 f"{_(', PARTIAL: interrupted') if self.partial else ''})"
                 f"{'; ' + self.caveat if self.caveat else ''}  [{self.procedure}]"]
        lines += [f"  {line}" for line in self.explain]
        head = _("advice:")
        lines += [f"  {head if i == 0 else '':{max(8, len(head) + 1)}}{line}"
                  for i, line in enumerate(self.advice)]
        parts = self.words.partition(self.probabilities)
        names = {name for name, _ in parts}
        events = [(name, p) for name, p in self.probabilities.items() if name not in names
                  and not (p == 0 and self.method == "exact")]  # impossible: not shown
        under = {name: self.words.part_of(name, names) for name, _ in events}
        column = max([32] + [len(label(n, game)) + 7 for n, q in events]
                     + [len(label(n, game)) + 5 for n, q in parts])
        intervals = _(" (95% intervals from {trials})").format(
            trials=trials_text(self.trials or 0)) if mc else ""
        if parts:
            lines.append("  " + _("outcomes{intervals}:").format(intervals=intervals))
        for name, p in parts:
            lines.append(self._line(name, p, width, 4, column))
            for event, q in events:
                if under[event] == name:
                    lines += self._event(event, q, width, 6, column)
        apart = [(e, q) for e, q in events if under[e] is None]
        if apart:
            lines.append("  " + _("events{intervals}:").format(intervals=intervals if not parts else ""))
        for name, p in apart:
            lines += self._event(name, p, width, 4, column)
        for name, pmf in self.pmfs.items():
            if len(pmf) < 2:  # nothing that can be lost (no corsairs, say)
                continue
            zero = self.ZERO.get(name)
            mean = "" if zero else _(" (mean {mean})").format(mean=decimal(self.expected(name), 2))
            lines.append(f"  {label(name, game)}{mean}:")
            lines += [f"    {_(zero) if zero and k == 0 else k:>3}  {percent(v, 2):>8}  {_bar(v, width)}"
                      for k, v in enumerate(pmf) if v > 0]
        lines += F.lines(self)
        if self.settings:
            lines.append("  " + _("settings:") + " " + _settings(self.settings, self.readings))
        lines += ["  " + _("note:") + f" {n}" for n in self.notes]
        if self.assumptions:
            lines.append("  " + _("assumes:") + " " + "; ".join(self.assumptions))
        return "\n".join(lines)

    def _event(self, name, p, width, indent, column) -> list:
        """An event's line, and why it happens where its name does not say it."""
        why = self.words.why.get(name)
        line = self._line(name, p, width, indent, column)
        return [line, f"{'':{indent + 2}}({_(why)})"] if why and p > 0 else [line]

    def _line(self, name, p, width, indent, column=32) -> str:
        """An event's line: its name in a column `column` wide (the longest name's, at least
        32: aligned whatever the language), its probability, interval and bar."""
        low, high = self.interval(p)
        pm = "" if self.method == "exact" or low != low else \
            f"  [{percent(low, 2):>7}, {percent(high, 2):>7}]"
        text = f"{'':{indent}}{label(name, self.procedure.split('.')[0])}"
        return f"{text:<{column}} {percent(p, 2):>8}{pm}  {_bar(p, width)}"


def _clip(p):
    """A probability clipped to [0, 1]; NaN (no trials yet) stays NaN."""
    return p if math.isnan(p) else min(max(p, 0.0), 1.0)


def _number(x):
    """A float for JSON, or None where it is undefined (NaN or infinite)."""
    x = float(x)
    return x if math.isfinite(x) else None


def _bar(p: float, width: int) -> str:
    return "" if math.isnan(p) else "#" * int(round(p * width))


def _settings(settings: dict, readings) -> str:
    """The settings line: in English each under the form's words (`attacker power: other`);
    in another language as codes (`attacker_power=other`), which the flags and keys share."""
    said = {k: _text(v) + _(" (reading)") * (k in readings) for k, v in settings.items()}
    if language() == "en":
        return "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in said.items())
    return ", ".join(f"{k}={v}" for k, v in said.items())


def _text(value) -> str:
    """A setting's value in words: lists as [a, b] (or none), tables as (key: value, ...)."""
    if isinstance(value, (dict, MappingProxyType)):
        words = (lambda k: str(k).replace("_", " ")) if language() == "en" else str
        return "(" + ", ".join(f"{words(k)}: {_text(v)}" for k, v in value.items()) + ")"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_text, value)) + "]" if value else _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return _(value) if isinstance(value, str) and " " in value else str(value)  # a sentence: in words


def _jsonable(value):
    if isinstance(value, (dict, MappingProxyType)):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
