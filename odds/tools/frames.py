"""Reading a sweep's frame: its parameter columns, a parameter's value in words, and what its
answers say beside their numbers.

A sweep's row keeps its answer's notes, assumptions and readings (the `notes` column, JSON
text), so that any selection of rows (a plot's, a table's, a row read back from CSV) says
exactly what its answers rest on; `said` gathers them: the notes of the sweep as a whole
first (df.attrs["budget"]: the exact engine's budget), the engines that made the numbers
(exact, Monte Carlo with its trials, and whether its cells are paired), then each text once,
with the cells it concerns where it is not all of them. A frame without the column (an older
file) says what its attrs say.
"""
from __future__ import annotations

import json

import numpy as np

from ..core.flips import text as flip_text
from ..core.outcomes import label
from ..core.readings import split
from .where import normal

VARIANT = "variant"
NOTES = "notes"  # the column of each row's notes, assumptions and readings (JSON text)
REPLICATES = "replicates"  # the column of a paired Monte Carlo cell's runs (JSON text)


def parameters(df) -> list:
    """The parameter columns of a sweep's frame: those before its first probability."""
    columns = list(df.columns)
    for i, c in enumerate(columns):
        if f"{c}_se" in columns:
            return columns[:i]
    return columns


def name(column: str) -> str:
    """A column's name in words: 'attacker galleys', 'hit on race built' (hit_on.race_built)."""
    return label(column.replace(".", " "))


def text(v) -> str:
    """A column's value in words: a list as 'a, b' (or 'none'), a number without '.0'."""
    if isinstance(v, (list, tuple, np.ndarray)):
        return ", ".join(map(str, v)) or "none"
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def words(column: str, v) -> str:
    """'defender galleys 3', 'attacker cards: field-artillery', 'dice per: galley 1, ...': a
    parameter and its value as a title says them."""
    called = name(column)
    if isinstance(v, str) and v.startswith("{"):
        try:
            table = json.loads(v)
        except ValueError:
            table = None
        if isinstance(table, dict):
            return f"{called}: " + ", ".join(f"{label(str(k))} {text(x)}" for k, x in table.items())
    if isinstance(v, (list, tuple, np.ndarray)) or (isinstance(v, str) and v.startswith("[")):
        items = normal(v) if isinstance(v, str) else v
        return f"{called}: {text(list(items))}"
    if isinstance(v, (bool, np.bool_)):
        return f"{called}: {'yes' if v else 'no'}"
    return f"{called} {text(v)}"


def readings_said(result, spec, kwargs: dict) -> list | None:
    """The readings `result` (an answer of `spec` to the keywords `kwargs`) rests on in words
    (its Spec's declarations that the call rests on: what each is, the value assumed, where it
    comes from), or None (said by name): a sweep's rows, a chart's footnote."""
    if not result.readings or not spec.readings:
        return None
    try:
        _, call, _, given = split(spec.raw(), (), {**spec.preset, **kwargs})
    except TypeError:  # not a call of the function: said by name
        return None
    return [f"{r.what}: {_assumed(r, call)} assumed ({r.source})"
            for r in spec.readings if r.rests(call, given)]


def _assumed(reading, call: dict) -> str:
    """The value a reading holds in the call, in words (as an answer's flips say it)."""
    if reading.shown is not None:
        return flip_text(reading.shown(call))
    keywords = reading.sets()
    if len(keywords) == 1 and call.get(keywords[0]) is not None:
        return flip_text(call[keywords[0]])
    return flip_text(reading.value)


def row_notes(result, readings=None) -> str:
    """What an answer says beside its numbers, as a row's `notes` cell: its notes, its
    assumptions and the readings it rests on (`readings`: in words, as the sweep says them;
    else 'name=value' of each setting it marks)."""
    if readings is None:
        readings = [f"{k}={text(result.settings[k])}" if k in result.settings else k
                    for k in result.readings]
    out = {"notes": list(result.notes), "assumptions": list(result.assumptions),
           "readings": list(readings)}
    return json.dumps({k: v for k, v in out.items() if v})


def said(df) -> dict:
    """notes, assumptions and readings of the frame's rows (see the module): as df.attrs holds
    them."""
    if NOTES not in df.columns:
        return {k: list(df.attrs.get(k, ())) for k in ("notes", "assumptions", "readings")}
    texts = {"notes": {}, "assumptions": {}, "readings": {}}
    for i, cell in enumerate(df[NOTES]):
        try:
            told = json.loads(cell) if isinstance(cell, str) else {}
        except ValueError:
            told = {}
        for kind, lines in (told.items() if isinstance(told, dict) else ()):
            for line in lines if kind in texts and isinstance(lines, list) else ():
                texts[kind].setdefault(str(line), []).append(i)
    assumptions = [t + _which(df, rows) for t, rows in texts["assumptions"].items()]
    readings = [t + _which(df, rows) for t, rows in texts["readings"].items()]
    notes = [*df.attrs.get("budget", ()), *engines(df),
             *(t + _which(df, rows) for t, rows in texts["notes"].items()),
             *(f"assumes: {t}" for t in assumptions), *(f"reading: {t}" for t in readings)]
    return {"notes": notes, "assumptions": assumptions, "readings": readings}


def _which(df, rows) -> str:
    """'' when `rows` are every row of `df`; else ' (variant X, Y)' when they are every row of
    those variants, or ' (N of M cells)'."""
    if len(rows) == len(df):
        return ""
    if VARIANT in df.columns:
        names = df[VARIANT].astype(str).to_numpy()
        named = list(dict.fromkeys(names[i] for i in rows))
        if sum((names == v).sum() for v in named) == len(rows):
            return f" ({VARIANT} {', '.join(named)})"
    return f" ({len(rows):,} of {len(df):,} cells)"


def engines(df) -> list:
    """Which engine made the frame's numbers, in words: exact, or Monte Carlo (trials, seeds,
    and whether differences between cells are paired)."""
    if not len(df) or "method" not in df.columns:
        return []
    mc = df[df["method"] == "mc"]
    exact = len(df) - len(mc)
    if not len(mc):
        return ["every number exact (the exact engine, no Monte Carlo error)"]
    trials = sorted({int(t) for t in mc["trials"] if t == t})
    how = (f"Monte Carlo: {'' if not exact else f'{len(mc):,} of {len(df):,} cells, '}"
           f"{' or '.join(f'{t:,}' for t in trials)} trials a cell"
           + (f"; the other {exact:,} exact" if exact else ""))
    runs = [json.loads(c) for c in mc[REPLICATES] if isinstance(c, str)] \
        if REPLICATES in mc.columns else []
    if runs:
        counts = sorted({len(r["n"]) for r in runs})
        how += ("; cells that share a seed (the variants of a grid cell, or every cell under "
                f"seeds = \"common\") ran as {' or '.join(map(str, counts))} paired runs each: "
                "common random numbers, a difference's standard error from the paired runs")
    else:
        how += "; every cell its own seed: a difference's error as between independent runs"
    return [how]
