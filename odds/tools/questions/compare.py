"""Plans side by side: the main probability and the expected losses of each plan, and their
change from the base.

Each plan is the base with some keywords replaced, computed by its own call of the procedure.
Monte Carlo runs every plan with the base's seed (common random numbers: the plans share their
dice where they roll the same dice, so differences are less noisy than two independent runs).
A change's standard error is sqrt(se_plan^2 + se_base^2), the error of independent runs; common
random numbers usually make the true one smaller.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...core.interval import newcombe, trials_text
from ...core.readings import alone
from ...errors import OddsError
from ...registry import get
from ...texts import counted, signed
from .budget import within
from .plans import QUESTION_MAX_PLANS, applied, split_engine

BASE = "base"


def losses(result) -> list[str]:
    """The result's pmfs of losses (units or ships lost), in its order."""
    return [n for n in result.pmfs if n.endswith("losses") or n.endswith("units_lost")]


def mean_se(result, name: str) -> float:
    """Standard error of the mean of pmf `name`: sqrt(variance / trials); 0 when exact."""
    if result.method == "exact":
        return 0.0
    pmf = result.pmfs[name]
    k = np.arange(len(pmf))
    var = max(float(np.dot(k * k, pmf)) - result.expected(name) ** 2, 0.0)
    return math.sqrt(var / result.trials) if result.trials else math.nan


class Comparison(pd.DataFrame):
    """The compare table (one row per plan, the base first) with `summary()` and `to_json()`;
    `attrs` hold procedure, main, losses, method, seed, partial and notes."""

    @property
    def _constructor(self):  # derived frames are plain DataFrames
        return pd.DataFrame

    @property
    def partial(self) -> bool:
        """True when interrupted: not every plan was computed."""
        return self.attrs["partial"]

    def summary(self) -> str:
        """The table in words: each measure and its change from the base (Monte Carlo: a
        probability's 95% interval, a mean's ± 1.96 se)."""
        a = self.attrs
        mc = a["method"] != "exact"
        trials = sorted({int(t) for t in self["trials"] if t == t and t})
        how = "exact" if not mc else (
            f"Monte Carlo, {' or '.join(trials_text(t) for t in trials)} a plan, seed "
            f"{a['seed']} for every plan: common random numbers; [95% intervals]")
        headline = get(a["procedure"]).words.title(a["main"])
        measures = [(a["main"], headline, "%")] + [
            ("expected_" + n, "E " + n.replace("_", " "), "") for n in a["losses"]]
        wide, narrow = (26, 26) if mc else (14, 10)
        names = [str(n) for n in self.index]
        width = max(len(n) for n in names + ["plan"])
        done, planned = len(self) - 1, a.get("plans", len(self) - 1)
        plans = counted(done, "plan") if done == planned else f"{done} of {counted(planned, 'plan')}"
        lines = [f"{headline}: {plans} against the base "
                 f"({how}{', PARTIAL: interrupted' if a['partial'] else ''})  [{a['procedure']}]",
                 f"  {'plan':<{width}}" + "".join(f"  {title:>{wide}}{'change':>{narrow}}"
                                                  for _, title, _ in measures)]
        for name, (_, row) in zip(names, self.iterrows()):
            cells = [f"  {_cell(row, m, unit, mc, ''):>{wide}}"
                     + (" " * narrow if name == BASE else
                        f"{_cell(row, m + '_change', unit, mc, '+'):>{narrow}}")
                     for m, _, unit in measures]
            lines.append(f"  {name:<{width}}" + "".join(cells))
        lines += [f"  note: {n}" for n in a["notes"]]
        return "\n".join(lines)

    def to_json(self) -> dict:
        """The attrs and one dict per plan (`plan` its name); undefined numbers are null."""
        rows = self.reset_index().to_dict("records")
        rows = [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                 for k, v in r.items()} for r in rows]
        return {**{k: (list(v) if isinstance(v, tuple) else v) for k, v in self.attrs.items()},
                "plans": rows}


def _cell(row, key: str, unit: str, mc: bool, sign: str) -> str:
    """A probability as a percentage with its 95% interval for Monte Carlo (Wilson's, or
    Newcombe's for a change: core.interval); a mean to 3 places, `± 1.96 se`."""
    value, se = row[key], row[key + "_se"]
    if value != value:
        return "-"
    shown = signed if sign else format
    if not unit:
        return shown(value, ".3f") + (f" ± {1.96 * se:.3f}" if mc and se == se else "")
    low, high = row[key + "_low"], row[key + "_high"]
    return shown(value, ".2%") + (f" [{shown(low, '.1%')}, {shown(high, '.1%')}]"
                                  if mc and low == low and high > low else "")


def _row(result, base, measures) -> dict:
    """A plan's measures, their standard errors, and for the main probability its 95%
    interval (`_low`, `_high`) and that of its change from the base."""
    out = {"method": result.method, "trials": result.trials}
    for m in measures:
        value, se = _measure(result, m)
        out[m], out[m + "_se"] = value, se
        if base is None:
            out[m + "_change"] = out[m + "_change_se"] = math.nan
        else:
            b, bse = _measure(base, m)
            out[m + "_change"], out[m + "_change_se"] = value - b, math.hypot(se, bse)
    main = measures[0]
    out[main + "_low"], out[main + "_high"] = result.interval(out[main])
    out[main + "_change_low"] = out[main + "_change_high"] = math.nan
    if base is not None:
        mc = lambda r: r.trials if r.method == "mc" else None  # noqa: E731
        out[main + "_change_low"], out[main + "_change_high"] = newcombe(
            out[main], mc(result), base.probabilities[main], mc(base))
    return out


def _measure(result, measure: str) -> tuple[float, float]:
    if measure.startswith("expected_"):
        name = measure[len("expected_"):]
        return result.expected(name), mean_se(result, name)
    p = result.probabilities[measure]
    return p, result.se(p)


def compare(procedure: str, base: dict | None = None, plans: dict | None = None, *,
            where: str = "plan", **engine) -> Comparison:
    """Each plan (name -> keywords replacing the base's) against `base` (the procedure's
    keywords): a Comparison with the main probability, the expected losses, their changes
    from the base and (Monte Carlo) their standard errors. `engine` keywords (method,
    trials, seed, ...) apply to every plan; the seed is the base's for all (common random
    numbers). `where` names a plan in errors (the CLI passes '--compare')."""
    spec = get(procedure)
    base, engine = split_engine(base, engine)
    base = spec.check_given(base)
    plans = dict(plans or {})
    if not plans:
        raise OddsError(f"{where}: none given (allowed: 1 to {QUESTION_MAX_PLANS} plans)")
    if len(plans) > QUESTION_MAX_PLANS:
        raise OddsError(f"{where}: {len(plans)} plans (allowed: 1 to {QUESTION_MAX_PLANS})")
    for name, changes in plans.items():
        if str(name) == BASE or not isinstance(changes, dict):
            raise OddsError(f"{where} {name!r}: a plan is a name other than {BASE!r} and a "
                            "dict of keywords")
        for key in changes:
            _named(where, name, spec.param, key.partition(".")[0])
    asked = {BASE: {}, **plans}
    names = list(asked)
    engine, budget_notes = within(spec, [applied(base, c) for c in asked.values()], engine,
                                  f"{len(asked)} plans (the base included)",
                                  named=lambda i, fn: _named(where, names[i], fn), say=True)
    results, partial = {}, False
    try:
        for name, changes in asked.items():
            with alone():  # each plan's readings are marked, not flipped
                r = results[name] = _named(where, name, spec.call, **applied(base, changes), **engine)
            if r.method == "mc":  # the first Monte Carlo run's seed for all: common random numbers
                engine = {**engine, "seed": r.seed}
            if r.partial:
                partial = True
                break
    except KeyboardInterrupt:
        if not results:  # nothing to show
            raise
        partial = True
    first = results[BASE]
    mc = [n for n, r in results.items() if r.method == "mc"]
    measures = [first.main] + ["expected_" + n for n in losses(first)]
    frame = Comparison([_row(r, None if n == BASE else first, measures) for n, r in results.items()],
                       index=pd.Index(list(results), name="plan"))
    notes = list(budget_notes)
    if mc:
        seed = results[mc[0]].seed
        notes.append(f"every plan ran with seed {seed} (common random numbers); a change's "
                     "interval is that of independent runs, the true one is usually narrower")
        if len(mc) < len(results):
            notes.append(f"Monte Carlo for {', '.join(map(str, mc))}; exact for the others")
    if partial:
        notes.append(f"interrupted: {len(results) - 1} of {counted(len(plans), 'plan')} computed")
    frame.attrs.update(plans=len(plans), procedure=spec.name, main=first.main, losses=tuple(losses(first)),
                       method="mc" if mc else "exact", seed=results[mc[0]].seed if mc else None,
                       partial=partial, notes=tuple(notes))
    return frame


def _named(where: str, name, fn, *args, **kwargs):
    """fn(...), its OddsError naming the plan."""
    try:
        return fn(*args, **kwargs)
    except OddsError as e:
        raise OddsError(f"{where} {name}: {e}") from None
