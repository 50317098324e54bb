"""Differences between the cells of a sweep's frame (a variant against the rules, a card
against none), each with its standard error and 95% interval, and the designer's table of
them as Markdown or CSV.

How each difference's uncertainty is found, by the engines that made its two numbers:
- both exact: the difference is exact (standard error 0, the interval the point itself);
- both Monte Carlo with the same seed and the same replicate runs (odds.tools.sweep: a cell's
  variants by default, every cell under seeds = "common"): paired. Each replicate run gives a
  difference; the standard error is their standard deviation over sqrt(runs), the interval the
  difference ± Student's t quantile (runs - 1 degrees of freedom) times it: the batch means
  method, honest whatever correlation the common random numbers make;
- otherwise (independent seeds, or one side exact): se = sqrt(se_a^2 + se_b^2), the interval
  Newcombe's for a probability (core.interval), ± 1.96 se for an expected value.
Every row says which (`engine`); a frame's notes (df.attrs) go with the answer.
"""
from __future__ import annotations

import json
import math

import numpy as np

from ..core.interval import newcombe
from ..core.paired import t975
from ..core.outcomes import label
from ..errors import OddsError, check_choice, shown
from .frames import name as _name, parameters, said, text as _text, words
from ..texts import signed
from .where import normal

FORMATS = ("markdown", "csv")
def main_value(df, value: str | None) -> str:
    """The column a difference is of: `value`, else the procedure's main event (df.attrs'
    `main`, as a sweep records it), else attacker_win, else the first probability; refused
    unless it is a probability or an expected value with its standard error beside it."""
    if value is None:
        main = df.attrs.get("main")
        value = next((c for c in (main, "attacker_win") if c and c in df.columns), None)
        if value is None:
            value = next((c for c in df.columns if f"{c}_se" in df.columns), None)
        if value is None:
            raise OddsError("value: the results have no probability (allowed: a sweep's frame)")
    if value not in df.columns:
        raise OddsError(f"value: {shown(value)} is not in the results (allowed: "
                        f"{', '.join(c for c in df.columns if f'{c}_se' in df.columns)})")
    if f"{value}_se" not in df.columns:
        raise OddsError(f"value: {shown(value)} has no standard error beside it, so no interval "
                        "(allowed: a probability or an expected value, e.g. attacker_win or "
                        "expected_attacker_losses)")
    return value


def _distinct(df, column: str) -> list:
    """The values of `column` in order of first appearance (as the frame holds them)."""
    seen = {}
    for v in df[column]:
        seen.setdefault(normal(v), v)
    return list(seen.values())


def _pick(df, column: str, given, default):
    """The frame's value of `column` that `given` names (any --where spelling), else `default`."""
    if given is None:
        return default
    for v in _distinct(df, column):
        if normal(v) == normal(given):
            return v
    raise OddsError(f"{column}: no rows with {shown(given)} (allowed: "
                    f"{', '.join(sorted(_text(v) for v in _distinct(df, column)))})")


def cell_keys(df, column: str) -> list:
    """The parameters that tell one cell from another when `column`'s values are compared: a
    sweep's grid and fixed parameters for its variants (df.attrs["keys"]); otherwise every
    parameter but `column`, less each that the others already tell apart within each value
    of `column` (a variant's own parameters, the numbers a row records it used)."""
    given = df.attrs.get("keys")
    if column == "variant" and given and all(k in df.columns for k in given):
        return list(given)
    keys = [c for c in parameters(df) if c != column]
    texts = {c: df[c].map(normal) for c in keys}
    group = df[column].map(normal)
    for c in list(keys):
        rest = [k for k in keys if k != c]
        frame = [group] + [texts[k] for k in rest]
        if not any(_duplicated(frame)):
            keys = rest
    return keys


def _duplicated(columns):
    """Whether each row repeats an earlier one over `columns` (comparable values)."""
    seen = set()
    out = []
    for row in zip(*columns):
        out.append(row in seen)
        seen.add(row)
    return out


def difference(df, column: str = "variant", a=None, b=None, value: str | None = None, keys=None):
    """Each cell's `value` where `column` is `a` minus where it is `b` (default: the column's
    second value minus its first, a variant minus the rules), over the cells both have,
    matched on `keys` (default `cell_keys`). A DataFrame: the keys, `a` and `b` (the two
    values), difference, se, low and high (its 95% interval), covers_zero, engine; attrs:
    value, column, a, b, notes (the frame's)."""
    import pandas as pd

    value = main_value(df, value)
    if column not in df.columns:
        raise OddsError(f"column: {shown(column)} is not in the results "
                        f"(allowed: {', '.join(map(str, parameters(df)))})")
    values = _distinct(df, column)
    if len(values) < 2 and (a is None or b is None):
        raise OddsError(f"{column}: one value only ({_text(values[0]) if values else 'none'}): "
                        "nothing to compare (allowed: a column with two values or more)")
    b = _pick(df, column, b, values[0])
    a = _pick(df, column, a, next((v for v in values if normal(v) != normal(b)), values[0]))
    keys = list(cell_keys(df, column) if keys is None else keys)
    sides = [_by_cell(df[df[column].map(normal) == normal(v)], keys, column, v) for v in (a, b)]
    rows = []
    for key, ra in sides[0].items():
        rb = sides[1].get(key)
        if rb is None:
            continue
        d, se, low, high, engine = pair(ra, rb, value)
        rows.append({**{k: ra[k] for k in keys}, "a": ra[value], "b": rb[value], "difference": d,
                     "se": se, "low": low, "high": high,
                     "covers_zero": bool(low <= 0 <= high) if low == low else True,
                     "engine": engine})
    if not rows:
        raise OddsError(f"{column}: no cell has both {_text(a)} and {_text(b)} (allowed: values "
                        "of the same cells)")
    out = pd.DataFrame(rows)
    out.attrs.update(value=value, column=column, a=_text(a), b=_text(b),
                     procedure=df.attrs.get("procedure"), notes=said(df)["notes"])
    return out


def _by_cell(part, keys, column, v) -> dict:
    """Cell key (the keys' values, comparable) -> row, refusing two rows of one cell."""
    out = {}
    for _, r in part.iterrows():
        key = tuple(normal(r[k]) for k in keys)
        if key in out:
            varying = [c for c in parameters(part) if c not in keys and c != column
                       and part[c].map(normal).nunique() > 1]
            raise OddsError(f"{' x '.join(keys) or 'cell'}: several rows per cell where {column} "
                            f"is {_text(v)} (they differ in {', '.join(varying) or 'nothing'}); "
                            "pick one value of each first, e.g. --where COLUMN=VALUE "
                            "(allowed: one row per cell)")
        out[key] = r
    return out


def _number(x) -> float:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return math.nan
    return x


def _replicates(r) -> dict | None:
    text = r.get("replicates")
    if not isinstance(text, str) or not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _same_seed(a, b) -> bool:
    """Whether two rows ran with one seed (a missing seed, None or NA, is no seed)."""
    try:
        return a is not None and b is not None and a == a and bool(a == b)
    except TypeError:  # pandas' NA
        return False


def pair(ra, rb, value: str) -> tuple:
    """(difference, se, low, high, engine) of `value` between rows `ra` and `rb`."""
    va, vb = _number(ra[value]), _number(rb[value])
    d = va - vb
    mc = [str(r.get("method", "exact")) == "mc" for r in (ra, rb)]
    if not any(mc):
        return d, 0.0, d, d, "exact"
    reps = [_replicates(r) for r in (ra, rb)]
    seeds = [r.get("seed") for r in (ra, rb)]
    if all(mc) and all(reps) and _same_seed(*seeds) \
            and reps[0].get("n") == reps[1].get("n") and value in reps[0] and value in reps[1]:
        runs = np.subtract(reps[0][value], reps[1][value])
        se = float(np.std(runs, ddof=1) / math.sqrt(len(runs))) if len(runs) > 1 else math.nan
        half = t975(len(runs) - 1) * se
        return d, se, d - half, d + half, f"Monte Carlo, paired ({len(runs)} runs of common random numbers)"
    sa, sb = (_number(r.get(f"{value}_se", math.nan)) for r in (ra, rb))
    se = math.hypot(sa, sb)
    if value.startswith("expected_"):
        low, high = d - 1.96 * se, d + 1.96 * se
    else:
        na, nb = (int(r["trials"]) if m and _number(r.get("trials")) == _number(r.get("trials"))
                  else None for r, m in zip((ra, rb), mc))
        low, high = newcombe(va, na, vb, nb)
    how = "Monte Carlo, independent runs" if all(mc) else "Monte Carlo against exact"
    return d, se, low, high, how


def _shown_value(value: str, x: float, exact: bool) -> str:
    if x != x:
        return ""
    if value.startswith("expected_"):
        return f"{x:.2f}"
    return f"{100 * x:.1f}%"


def _shown_change(value: str, x: float) -> str:
    if x != x:
        return ""
    return signed(x, ".2f") if value.startswith("expected_") else signed(100 * x, ".1f")


def _interval_text(value: str, r) -> str:
    if r["engine"] == "exact":
        return "exact"
    if r["low"] != r["low"]:
        return "no interval (no standard error)"
    return f"{_shown_change(value, r['low'])} to {_shown_change(value, r['high'])}"


def table(df, value: str | None = None, column: str = "variant", base=None,
          fmt: str = "markdown") -> str:
    """Each cell's `value` under every value of `column` side by side, and each value against
    `base` (default the first: the rules) with its difference and 95% interval: Markdown (a
    caption, the table, the notes) or CSV (numbers, a row per cell), for a rules document."""
    fmt = check_choice("format", fmt, FORMATS)
    value = main_value(df, value)
    if column not in df.columns:
        raise OddsError(f"column: {shown(column)} is not in the results "
                        f"(allowed: {', '.join(map(str, parameters(df)))})")
    values = _distinct(df, column)
    base = _pick(df, column, base, values[0] if values else None)
    others = [v for v in values if normal(v) != normal(base)]
    if not others:
        raise OddsError(f"{column}: one value only ({_text(base)}): nothing to compare "
                        "(allowed: a column with two values or more)")
    keys = cell_keys(df, column)
    diffs = [difference(df, column, v, base, value, keys) for v in others]
    held = [k for k in keys if diffs[0][k].map(normal).nunique() == 1]
    shown_keys = [k for k in keys if k not in held]
    if fmt == "csv":
        return _csv(diffs, keys, base, others)
    return _markdown(df, diffs, shown_keys, held, value, column, base, others)


def _merged(diffs, keys, base, others):
    """One record per cell (the first difference's order): its keys, the base's value, and
    each other value's number, difference and interval (by position)."""
    index = {}
    for i, d in enumerate(diffs):
        for _, r in d.iterrows():
            key = tuple(normal(r[k]) for k in keys)
            record = index.setdefault(key, {"keys": {k: r[k] for k in keys}, "base": r["b"],
                                            "others": [None] * len(diffs)})
            record["others"][i] = r
    return list(index.values())


def _csv(diffs, keys, base, others) -> str:
    import pandas as pd

    from ..files import csv_text

    two = len(others) == 1
    rows = []
    for record in _merged(diffs, keys, base, others):
        out = {k: _csv_cell(v) for k, v in record["keys"].items()}
        out[_text(base)] = record["base"]
        for name, r in zip(others, record["others"]):
            prefix = "" if two else f"{_text(name)} "
            out[_text(name)] = r["a"] if r is not None else math.nan
            for field in ("difference", "se", "low", "high", "covers_zero", "engine"):
                out[prefix + field] = r[field] if r is not None else None
        rows.append(out)
    return csv_text(pd.DataFrame(rows))


def _csv_cell(v):
    return ", ".join(map(str, v)) if isinstance(v, (list, tuple, np.ndarray)) else v


def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _markdown(df, diffs, keys, held, value, column, base, others) -> str:
    what = label(value.removeprefix("expected_"))
    unit = "" if value.startswith("expected_") else " in percent"
    change = "its change" if value.startswith("expected_") else "the difference in percentage points"
    procedure = df.attrs.get("procedure")
    lines = [f"**{'E ' if value.startswith('expected_') else 'P('}{what}{'' if value.startswith('expected_') else ')'}**"
             f"{unit}{f' ({procedure})' if procedure else ''}: each {label(column)} against "
             f"{_text(base)}, {change} and its 95% interval"]
    if held:
        first = diffs[0].iloc[0]
        lines.append("held: " + "; ".join(words(k, first[k]) for k in held))
    head = [_name(k) for k in keys] + [_text(base)]
    for name in others:
        head += [_text(name), f"{_text(name)} − {_text(base)}", "95% interval"]
    lines += ["", "| " + " | ".join(map(_escape, head)) + " |",
              "|" + "|".join(["---"] * len(keys) + ["---:"] * (len(head) - len(keys))) + "|"]
    for record in _merged(diffs, keys, base, others):
        cells = [_text(record["keys"][k]) for k in keys]
        exact_base = all(r is None or r["engine"] == "exact" for r in record["others"])
        cells.append(_shown_value(value, _number(record["base"]), exact_base))
        for r in record["others"]:
            if r is None:
                cells += ["", "", ""]
                continue
            cells += [_shown_value(value, _number(r["a"]), r["engine"] == "exact"),
                      _shown_change(value, r["difference"]), _interval_text(value, r)]
        lines.append("| " + " | ".join(map(_escape, cells)) + " |")
    engines = sorted({r["engine"] for d in diffs for r in d.to_dict("records")})
    lines += ["", "engines: " + "; ".join(engines)]
    lines += [f"note: {n}" for n in said(df)["notes"]]
    return "\n".join(lines) + "\n"
