"""Designers' sweeps: a grid of parameters -> a tidy DataFrame, one row per cell, grid order.

Every cell is one call of the procedure's public function; every cell is checked (as the
function would check it, without running an engine) before the first one runs. A Monte Carlo cell's seed is
derived from the sweep seed and the cell's full parameters, so a cell's numbers do not depend
on the grid it is in, the order, or where it ran. With a dask.distributed `client` the cells
are submitted to the cluster in batches (lost workers' batches are retried by dask);
without one they run in this process. Ctrl-C stops the sweep at once and returns the finished
cells (`df.attrs["partial"]`, `df.attrs["missing"]`).

The module is callable: `odds.sweep(...)` is `odds.sweep.sweep(...)`; `odds.sweep.load(path)`
runs a TOML spec.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
import sys
import types
from importlib import import_module

import numpy as np

from . import registry
from .core.readings import alone
from .errors import OddsError, check_choice, check_int, check_nesting, shown
from .questions.budget import bar as _bar, within
from .texts import counted
from .config import MAX_CELL_TRIALS, MAX_CELLS, SWEEP_BATCH as BATCH

QUANTILES = (0.5, 0.9)
VARIANT = "variant"
DEFAULT = object()  # a variant's cell leaves this parameter at the procedure's default


SEEDS = ("cell", "common")  # a sweep's Monte Carlo seeds: one per cell, or the same for all


def cell_seed(seed: int, params: dict) -> int:
    """A 63-bit seed from the sweep seed and the cell's parameters (order-free)."""
    text = json.dumps({"seed": seed, **params}, sort_keys=True, default=str)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def cells(procedure: str, grid: dict, fixed: dict) -> list[dict]:
    """Validated parameter dicts of every cell, in grid order (first key slowest).

    `grid["variant"]` may name rule variants, {name: {parameter: value, ...}}: each cell then
    has a `variant` column and the variant's parameters, so rule sets compare side by side; a
    variant that leaves a parameter at its default records the value the procedure used.
    """
    known = registry.get(procedure).defaults()
    grid = dict(grid)
    variants = grid.pop(VARIANT, None)
    if not grid and not variants:
        raise OddsError("grid: empty (allowed: at least one parameter with a list of values)")
    sections = [("grid", grid), ("fixed", fixed)]
    if variants is not None:
        if not isinstance(variants, dict) or not variants or not all(isinstance(v, dict) for v in variants.values()):
            raise OddsError(f"grid.{VARIANT}: {shown(variants)} is not a table of named variants "
                            "(allowed: {name: {parameter: value, ...}, ...})")
        sections += [(f"grid.{VARIANT}.{name}", params) for name, params in variants.items()]
    for section, params in sections:
        for key, v in params.items():
            check_nesting(f"{section}.{key}", v)
            if key not in known:
                raise OddsError(f"{section}.{key}: unknown parameter of {procedure} "
                                f"(allowed: {', '.join(known)})")
            if section.startswith(f"grid.{VARIANT}") and key in grid:
                raise OddsError(f"{section}.{key}: also a grid parameter (allowed: one of the two)")
            if section != "grid":
                _check_type(f"{section}.{key}", v, known[key])
    grid = {key: _values(key, values) for key, values in grid.items()}
    for key, values in grid.items():
        for v in values:
            _check_type(f"grid.{key}", v, known[key])
    n = math.prod(len(v) for v in grid.values()) * max(1, len(variants or {}))
    if n > MAX_CELLS:
        raise OddsError(f"grid: {n:,} cells (allowed: at most {MAX_CELLS:,}; sweep in parts)")
    given = set(grid) | set(fixed) | {k for params in (variants or {}).values() for k in params}
    for key, default in known.items():
        if default is registry.REQUIRED and key not in given:
            raise OddsError(f"{key}: missing (required by {procedure}: give it in grid or fixed)")
    keys = list(grid)
    combos = [dict(zip(keys, combo)) for combo in itertools.product(*grid.values())]
    if variants is None:
        return [{**fixed, **combo} for combo in combos]
    changed = dict.fromkeys((k for params in variants.values() for k in params), DEFAULT)
    return [{VARIANT: name, **fixed, **changed, **params, **combo}
            for name, params in variants.items() for combo in combos]


def _values(key, values) -> list:
    """A grid entry as a list: a list of values, or a range {start, stop, step} (stop included)."""
    if isinstance(values, dict):
        extra = set(values) - {"start", "stop", "step"}
        if extra or not {"start", "stop"} <= set(values):
            raise OddsError(f"grid.{key}: {shown(values)} is not a range (allowed: "
                            "{start = A, stop = B} or {start = A, stop = B, step = S}, stop included)")
        start, stop = (check_int(f"grid.{key}.{k}", values[k], -10**9, 10**9) for k in ("start", "stop"))
        step = check_int(f"grid.{key}.step", values.get("step", 1), 1, 10**9)
        values = range(start, stop + 1, step)
        if len(values) > MAX_CELLS:
            raise OddsError(f"grid.{key}: {len(values):,} values (allowed: at most {MAX_CELLS:,})")
    if not isinstance(values, (list, tuple, range, np.ndarray)) or len(values) == 0:
        raise OddsError(f"grid.{key}: {shown(values)} is not a non-empty list of values")
    return list(values)


def check_cells(procedure: str, todo: list[dict]) -> None:
    """Check every cell as the procedure would before any cell runs (registry.Spec.check: its
    own validation, no engine work); a bad cell is named by its number and the parameters
    that vary between cells."""
    spec = registry.get(procedure)
    varying = [k for k in todo[0] if any(c.get(k) != todo[0][k] for c in todo)] if todo else []
    for i, params in enumerate(todo):
        try:
            spec.check(_kwargs(params))
        except OddsError as e:
            where = ", ".join(f"{k}={shown(params[k])}" for k in varying if params[k] is not DEFAULT)
            raise OddsError(f"cell {i + 1:,} of {len(todo):,}{f' ({where})' if where else ''}: {e}") from None


def _check_type(field: str, value, default):
    """Values must have the type of the parameter's default (ints for counts, text for names)."""
    if default is None or default is registry.REQUIRED:
        return
    kinds = {bool: (bool,), int: (int, np.integer), float: (int, float), str: (str,),
             tuple: (list, tuple), list: (list, tuple)}
    allowed = kinds.get(type(default))
    if allowed and (not isinstance(value, allowed) or (type(default) is int and isinstance(value, bool))):
        raise OddsError(f"{field}: {shown(value)} has the wrong type "
                        f"(allowed: {type(default).__name__} values like {shown(default)})")


def row(procedure: str, params: dict, engine: dict) -> dict:
    """One cell: the parameters, then probabilities, their se, expected values and quantiles."""
    spec = registry.get(procedure)
    kwargs = _kwargs(params) | {k: v for k, v in engine.items() if k != "seeds"}
    if engine.get("method") != "exact" and "seed" in engine:
        kwargs["seed"] = (engine["seed"] if engine.get("seeds") == "common"
                          else cell_seed(engine["seed"] or 0, params))
    with alone():  # a cell marks its readings; flipping them is a question of its own
        r = spec.call(**kwargs, progress=False)
    if r.partial:  # Ctrl-C inside the cell's Monte Carlo run: stop the whole sweep
        raise KeyboardInterrupt
    out = _params(_recorded(params, spec.defaults(), r.settings))
    out.update(_numbers({k: np.array([v]) for k, v in r.probabilities.items()},
                        {k: v[None, :] for k, v in r.pmfs.items()}, r.se))
    out = {k: (v[0].item() if isinstance(v, np.ndarray) else v) for k, v in out.items()}
    out["method"], out["trials"], out["partial"] = r.method, r.trials, r.partial
    return out


def _kwargs(params: dict) -> dict:
    """The cell's keywords for the procedure's function."""
    return {k: v for k, v in params.items() if k != VARIANT and v is not DEFAULT}


def _recorded(params: dict, defaults: dict, settings=None) -> dict:
    """The cell's parameters as recorded: one left at its default, or given as a partial
    table, shows the value the procedure used (its result's settings, else the default)."""
    settings = settings or {}
    return {k: settings.get(k, defaults.get(k) if v is DEFAULT else v)
            if v is DEFAULT or v is None or isinstance(v, dict) else v for k, v in params.items()}


def _params(params: dict) -> dict:
    """The cell's parameters as frame columns (tuples as lists, tables as JSON text)."""
    return {k: list(v) if isinstance(v, tuple) else json.dumps(v, sort_keys=True)
            if isinstance(v, dict) else v for k, v in params.items()}


def _numbers(probabilities: dict, pmfs: dict, se) -> dict:
    """Columns over cells: each probability and its se; each pmf's mean and quantiles."""
    out = {}
    for name, p in probabilities.items():
        out[name] = p
        out[name + "_se"] = se(p)
    for name, pmf in pmfs.items():
        out["expected_" + name] = pmf @ np.arange(pmf.shape[1])
        cdf = np.cumsum(pmf, axis=1)
        for q in QUANTILES:
            out[f"{name}_q{int(q * 100)}"] = (cdf >= q - 1e-12).argmax(axis=1)
    return out


def _table(procedure, todo, method):
    """The whole grid from the procedure's vectorised exact function, or None (also when a
    cell is bad: check_cells then names it). The function sets up, and so validates as the
    procedure would, every cell before it computes any."""
    table = registry.get(procedure).table
    if table is None or method not in ("auto", "exact"):
        return None
    module, name = table.split(":")
    fn = getattr(import_module(module), name)
    try:
        answer = fn([_kwargs(p) | {"method": method} for p in todo])
    except OddsError:
        return None
    if answer is None:
        return None
    import pandas as pd

    defaults = registry.get(procedure).defaults()
    columns = pd.DataFrame([_params(_recorded(p, defaults)) for p in todo])
    numbers = _numbers(*answer, se=np.zeros_like)
    numbers.update(method="exact", trials=None, partial=False)
    return pd.concat([columns, pd.DataFrame(numbers, index=columns.index)], axis=1)


def _rows(procedure, batch, engine):
    return [row(procedure, params, engine) for params in batch]


def sweep(procedure: str, grid: dict, fixed: dict | None = None, *, method="auto", trials=None,
          seed=0, seeds="cell", client=None, progress=None):
    """Evaluate `procedure` on every cell of `grid` (with `fixed` inputs) -> pandas DataFrame.

    `grid` maps parameters to lists of values or ranges ({"start": 1, "stop": 20}, stop
    included); `method`, `trials` and `seed` as in the procedure's function; `seeds`: "cell"
    (each Monte Carlo cell's seed derives from `seed` and the cell: independent cells) or
    "common" (every cell runs with `seed`: common random numbers, so a difference between
    cells is the settings' and not the seeds'); `client`: a dask.distributed Client.
    """
    import pandas as pd

    todo = cells(procedure, grid, dict(fixed or {}))
    engine = check_engine(method, trials, seed, len(todo)) | {
        "seeds": check_choice("seeds", seeds, SEEDS)}
    fast = None if client is not None else _table(procedure, todo, method)
    if fast is not None:
        fast.attrs.update(procedure=procedure, seed=seed, method=method, partial=False)
        return fast
    check_cells(procedure, todo)
    asked = {k: v for k, v in engine.items() if k != "seeds"}
    chosen, notes = within(registry.get(procedure), [_kwargs(p) for p in todo], asked,
                           counted(len(todo), "cell"))
    engine = {**engine, **chosen}
    done, partial = [], False
    bar = _bar(len(todo), "cell", progress, len(todo) >= 50)  # 50 cells or more
    try:
        if client is None:
            for params in todo:
                done.append(row(procedure, params, engine))
                bar and bar.update()
        else:
            _on_cluster(client, procedure, todo, engine, bar, done)
    except KeyboardInterrupt:
        partial = True
    finally:
        bar and bar.close()
    df = pd.DataFrame(done)
    df.attrs.update(procedure=procedure, seed=seed, method=engine["method"], partial=partial,
                    missing=len(todo) - len(done), notes=notes)
    return df


def check_engine(method, trials, seed, n_cells) -> dict:
    """The sweep's engine options (those of registry.ENGINE_OPTIONS a sweep takes), validated
    like the command line's."""
    method = check_choice("method", method, registry.METHODS)
    seed = check_int("seed", seed, 0, 2**63 - 1)
    if trials is not None:
        trials = check_int("trials", trials, 1, MAX_CELL_TRIALS)
        if method != "exact" and trials * n_cells > MAX_CELL_TRIALS:
            raise OddsError(f"trials: {trials:,} x {n_cells:,} cells is more than "
                            f"{MAX_CELL_TRIALS:,} trials (allowed: fewer cells or trials)")
    return {"method": method, "trials": trials, "seed": seed}


SPEC_KEYS = ("procedure", "grid", "fixed", "method", "trials", "seed", "seeds")


def read_spec(path) -> dict:
    """A sweep spec (TOML): procedure, [grid], optional [fixed], method, trials, seed."""
    from .files import read_toml

    spec = read_toml(path, "spec")
    for key in spec:
        if key not in SPEC_KEYS:
            raise OddsError(f"{path}: {key}: unknown key (allowed: {', '.join(SPEC_KEYS)})")
    if "procedure" not in spec:
        raise OddsError(f"{path}: procedure: missing (e.g. procedure = \"his.field\")")
    for key in ("grid", "fixed"):
        if not isinstance(spec.get(key, {}), dict):
            raise OddsError(f"{path}: {key}: must be a table ([{key}])")
    return spec


def load(path, client=None, progress=None):
    """Run the sweep spec at `path` -> DataFrame (as `odds sweep SPEC.toml` does)."""
    spec = read_spec(path)
    return sweep(spec["procedure"], spec.get("grid", {}), spec.get("fixed", {}),
                 method=spec.get("method", "auto"), trials=spec.get("trials"),
                 seed=spec.get("seed", 0), client=client, progress=progress)


def _on_cluster(client, procedure, todo, engine, bar, done):
    """Submit batches of cells to a dask cluster and append their rows to `done` in grid order
    (on Ctrl-C: the batches finished so far, still in grid order). A batch is at most BATCH
    cells, fewer when that makes fewer than 8 batches a worker thread (a Ctrl-C keeps more)."""
    from dask.distributed import as_completed

    size = max(1, min(BATCH, len(todo) // (8 * max(1, sum(client.nthreads().values())))))
    batches = [todo[i:i + size] for i in range(0, len(todo), size)]
    futures = client.map(_rows, [procedure] * len(batches), batches, [engine] * len(batches),
                         retries=3, pure=False)
    index = {f.key: i for i, f in enumerate(futures)}
    results = [None] * len(batches)
    try:
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            bar and bar.update(len(results[index[future.key]]))
    finally:
        client.cancel([f for f in futures if not f.done()])
        done.extend(r for batch in results if batch for r in batch)


class _CallableModule(types.ModuleType):
    """Lets `odds.sweep(...)` call `sweep` while `odds.sweep.load` etc. stay reachable."""

    def __call__(self, *args, **kwargs):
        return sweep(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
