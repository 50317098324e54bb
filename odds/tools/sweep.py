"""Designers' sweeps: a grid of parameters -> a tidy DataFrame, one row per cell, grid order.

Every cell is one call of the procedure's public function; every cell is checked (as the
function would check it, without running an engine) before the first one runs. A cell is
plain data (a dict of the keywords it gives; a variant that leaves a parameter at its
default does not name it), so it reads the same in this process and on a dask worker. A Monte
Carlo cell's seed is derived from the sweep seed and the cell's grid and fixed parameters (a
scenario file by its text, not its path), so a cell's numbers do not depend on the grid it is
in, the order, the folder or machine where it ran, and the variants of one grid cell share it
(common random numbers: their difference is the rules', not the dice's). Where cells share a
seed (variants; `seeds="common"`), each Monte Carlo cell runs as SWEEP_REPLICATES runs of a
seed each, derived from its own: the paired runs give each difference its standard error
(odds.tools.differences). With a dask.distributed `client` the cells
are submitted to the cluster in batches (lost workers' batches are retried by dask); without
one they run in this process. Ctrl-C stops the sweep at once and returns the finished cells
(`df.attrs["partial"]`, `df.attrs["missing"]`). `df.attrs["notes"]` says which engine made
the numbers and every note, assumption and reading of the answers the frame holds (once each,
with the cells it concerns where it is not all of them).

The module is callable: `odds.tools.sweep(...)` is `odds.tools.sweep.sweep(...)`; `odds.tools.sweep.load(path)`
runs a TOML spec; `odds.tools.sweep.difference` and `odds.tools.sweep.table` read a frame's differences.
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

from .. import registry
from ..core.engine import planned
from ..core.readings import alone
from .frames import NOTES, REPLICATES as REPLICATES_COLUMN, VARIANT, readings_said, row_notes, said
from ..errors import OddsError, check_choice, check_int, check_nesting, shown
from ..files import read_text
from .questions.budget import bar as _bar, within
from .questions.plans import ENTRIES, Vary
from ..texts import counted
from ..config import MAX_CELLS, PROGRESS_AFTER_SECONDS
from ..core.paired import cell_seed, merged, replicate_seed, sizes

QUANTILES = (0.5, 0.9)
MAX_CELL_TRIALS = 10**12  # cells x Monte Carlo trials in one sweep
SWEEP_BATCH = 16  # cells per dask task
SWEEP_REPLICATES = 20  # runs of a Monte Carlo cell that shares its seed with others (a
# variant's): the paired differences' standard error is their spread (20 runs: 19 degrees of freedom)

# a sweep's Monte Carlo seeds: "cell", one per grid cell (its variants share it: common random
# numbers); "common", the sweep seed for every cell; "independent", one per cell, variants too
SEEDS = ("cell", "common", "independent")


def cells(procedure: str, grid: dict, fixed: dict) -> list[dict]:
    """Validated parameter dicts of every cell, in grid order (first key slowest).

    `grid["variant"]` may name rule variants, {name: {parameter: value, ...}}: each cell then
    has a `variant` column and the variant's parameters, so rule sets compare side by side; a
    variant that leaves a parameter at its default (or at `fixed`'s value) does not name it,
    and its row records the value the procedure used.
    """
    return _layout(procedure, grid, fixed)[0]


def _layout(procedure: str, grid: dict, fixed: dict) -> tuple[list, list, list]:
    """(cells, the frame's parameter columns in order, each cell's grid cell: its fixed and
    grid parameters without the variant's, from which its seed derives)."""
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
    spec = registry.get(procedure)
    for section, params in sections:
        for key, v in params.items():
            check_nesting(f"{section}.{key}", v)
            if key not in known and _entry(spec, key) is None:
                raise OddsError(f"{section}.{key}: unknown parameter of {procedure} "
                                f"(allowed: {', '.join(known)}, or an entry of a KEY=N list "
                                "such as dice_per.galley)")
            if section.startswith(f"grid.{VARIANT}") and key in grid:
                raise OddsError(f"{section}.{key}: also a grid parameter (allowed: one of the two)")
            if section != "grid" and key in known:
                _check_type(f"{section}.{key}", v, known[key])
    grid = {key: _values(key, values) for key, values in grid.items()}
    for key, values in grid.items():
        for v in values if key in known else ():
            _check_type(f"grid.{key}", v, known[key])
    n = math.prod(len(v) for v in grid.values()) * max(1, len(variants or {}))
    if n > MAX_CELLS:
        raise OddsError(f"grid: {n:,} cells (allowed: at most {MAX_CELLS:,}; sweep in parts)")
    given = set(grid) | set(fixed) | {k for params in (variants or {}).values() for k in params}
    for key, default in known.items():
        if default is registry.REQUIRED and key not in given:
            raise OddsError(f"{key}: missing (required by {procedure}: give it in grid or fixed)")
    keys = list(grid)
    combos = [{**fixed, **dict(zip(keys, combo))} for combo in itertools.product(*grid.values())]
    if variants is None:
        return combos, list(dict.fromkeys([*fixed, *keys])), combos
    changed = [k for params in variants.values() for k in params]
    columns = list(dict.fromkeys([VARIANT, *fixed, *changed, *keys]))
    todo = [({VARIANT: name, **combo, **params}, combo)
            for name, params in variants.items() for combo in combos]
    return [c for c, _ in todo], columns, [b for _, b in todo]


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
    keys = list(dict.fromkeys(k for c in todo for k in c))
    varying = [k for k in keys if any(c.get(k, _NONE) != todo[0].get(k, _NONE) for c in todo)]
    for i, params in enumerate(todo):
        try:
            spec.check(_kwargs(params, spec))
        except OddsError as e:
            where = ", ".join(f"{k}={shown(params[k])}" for k in varying if k in params)
            raise OddsError(f"cell {i + 1:,} of {len(todo):,}{f' ({where})' if where else ''}: {e}") from None


_NONE = ("odds.tools.sweep", "not given")  # a key a cell does not name, in comparisons (plain data)


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
    """One cell: the parameters (the frame's `columns` first, in order: those the cell does not
    name at the values the procedure used), then probabilities, their se, expected values (and
    their se) and quantiles, then the engine that made them, its trials and seed, and the
    answer's notes (JSON text). `engine` (plain data): method, trials and seed (the cell's
    own), `replicates` (the runs a Monte Carlo cell is made of; 1: one run) and `columns`."""
    spec = registry.get(procedure)
    columns = engine.get("columns", ())
    with alone():  # a cell marks its readings; flipping them is a question of its own
        r, reps = _answer(spec, _kwargs(params, spec), engine)
    if r.partial:  # Ctrl-C inside the cell's Monte Carlo run: stop the whole sweep
        raise KeyboardInterrupt
    out = _params(_recorded(params, spec.defaults(), r.settings, columns))
    out.update(_numbers({k: np.array([v]) for k, v in r.probabilities.items()},
                        {k: v[None, :] for k, v in r.pmfs.items()}, r.se,
                        None if r.method == "exact" else r.trials))
    out = {k: (v[0].item() if isinstance(v, np.ndarray) else v) for k, v in out.items()}
    out["method"], out["trials"], out["partial"] = r.method, r.trials, r.partial
    out["seed"] = r.seed if r.method == "mc" else None
    out[REPLICATES_COLUMN] = None if reps is None else json.dumps(reps, separators=(",", ":"))
    out[NOTES] = row_notes(r, readings_said(r, spec, _kwargs(params, spec)))
    return out


def _answer(spec, kwargs: dict, engine: dict):
    """(the cell's Result, its replicate runs' numbers or None): one call, or for a Monte
    Carlo cell of `replicates` > 1 that many calls of a seed each (replicate_seed), their
    trials adding up to the cell's, merged into one Result (the numbers of each kept for the
    paired differences)."""
    method, trials, seed = engine.get("method", "auto"), engine.get("trials"), engine.get("seed")
    run = {"method": method, "progress": False}
    if method == "exact":
        return spec.call(**kwargs, **run), None
    plan = None
    if method == "auto" and spec.exact:  # answered exactly: no Monte Carlo options to pass
        plan = planned(lambda: spec.call(**kwargs, **run, trials=trials, seed=seed))
        if plan is not None and plan.method == "exact":
            return spec.call(**kwargs, **run), None
    replicates, total = engine.get("replicates", 1), trials
    if replicates > 1 and total is None:  # the procedure's own number of trials (a scenario's)
        plan = plan or planned(lambda: spec.call(**kwargs, **run, trials=trials, seed=seed))
        total = plan.mc.trials if plan is not None and plan.mc is not None else None
    if replicates <= 1 or total is None or total < 2:
        return spec.call(**kwargs, **run, trials=trials, seed=seed), None
    runs = []
    for i, n in enumerate(sizes(total, replicates)):
        r = spec.call(**kwargs, **run, trials=n, seed=replicate_seed(seed, i))
        if r.partial:
            raise KeyboardInterrupt
        runs.append(r)
    return merged(runs, seed), _replicate_numbers(runs)


def _replicate_numbers(runs) -> dict:
    """Each replicate's trials and its probabilities and expected values, by column name."""
    out = {"n": [r.trials for r in runs]}
    for k in runs[0].probabilities:
        out[k] = [float(r.probabilities[k]) for r in runs]
    for k in runs[0].pmfs:
        out["expected_" + k] = [r.expected(k) for r in runs]
    return out


def _entry(spec, key: str) -> tuple | None:
    """(keyword, entry) of a column naming one entry of a KEY=N list (`hit_on.race_built`, a
    crusades scenario's `attacker.army.knights`: an entry of its overrides), else None."""
    name, dot, entry = key.partition(".")
    if not dot:
        return None
    kinds = {p.name: p.kind for p in spec.params}
    if kinds.get(name) == "pairs" and entry:
        return name, entry
    return (ENTRIES, key) if kinds.get(ENTRIES) == "pairs" else None


def _kwargs(params: dict, spec=None) -> dict:
    """The cell's keywords for the procedure's function (`spec`'s): an entry's column
    (`hit_on.race_built`, a scenario's `attacker.army.knights`) set in its keyword's table or
    list."""
    out = {k: v for k, v in params.items() if k != VARIANT and "." not in k}
    for key, v in params.items():
        place = _entry(spec, key) if spec is not None and "." in key else None
        if place is None:
            continue
        name, entry = place
        if name == ENTRIES:  # (key, value): any TOML value, the last given wins
            given = out.get(name) or []
            out[name] = [*([given] if isinstance(given, str) else given), (entry, v)]
        else:
            out = Vary(name, entry, v, v).assign(out, v)
    return out


def _recorded(params: dict, defaults: dict, settings=None, columns=()) -> dict:
    """The cell's parameters as recorded, `columns` first: one the cell does not name, or
    gives as None or as a partial table, shows the value the procedure used (its result's
    settings, else the default)."""
    settings = settings or {}
    out = {k: settings.get(k, defaults.get(k)) for k in columns if k not in params}
    out.update({k: settings.get(k, v) if v is None or isinstance(v, dict) else v
                for k, v in params.items()})
    return {k: out[k] for k in [*columns, *params] if k in out}


def _params(params: dict) -> dict:
    """The cell's parameters as frame columns (tuples as lists, tables as JSON text)."""
    return {k: list(v) if isinstance(v, tuple) else json.dumps(_plain(v), sort_keys=True)
            if isinstance(v, dict) or type(v).__name__ == "mappingproxy" else v
            for k, v in params.items()}


def _plain(v):
    return {k: _plain(x) for k, x in v.items()} if hasattr(v, "items") else v


def _numbers(probabilities: dict, pmfs: dict, se, trials=None) -> dict:
    """Columns over cells: each probability and its se; each pmf's mean, its se (0 when
    exact: `trials` None) and quantiles."""
    out = {}
    for name, p in probabilities.items():
        out[name] = p
        out[name + "_se"] = se(p)
    for name, pmf in pmfs.items():
        k = np.arange(pmf.shape[1])
        mean = pmf @ k
        out["expected_" + name] = mean
        if trials:
            out[f"expected_{name}_se"] = np.sqrt(np.maximum(pmf @ (k * k) - mean**2, 0.0) / trials)
        else:
            out[f"expected_{name}_se"] = np.zeros_like(mean)
        cdf = np.cumsum(pmf, axis=1)
        for q in QUANTILES:
            out[f"{name}_q{int(q * 100)}"] = (cdf >= q - 1e-12).argmax(axis=1)
    return out


def _table(procedure, todo, method, columns):
    """The whole grid from the procedure's vectorised exact function, or None (also when a
    cell is bad: check_cells then names it). The function sets up, and so validates as the
    procedure would, every cell before it computes any."""
    table = registry.get(procedure).table
    if table is None or method not in ("auto", "exact"):
        return None
    module, name = table.split(":")
    fn = getattr(import_module(module), name)
    try:
        answer = fn([_kwargs(p, registry.get(procedure)) | {"method": method} for p in todo])
    except OddsError:
        return None
    if answer is None:
        return None
    import pandas as pd

    defaults = registry.get(procedure).defaults()
    frame = pd.DataFrame([_params(_recorded(p, defaults, None, columns)) for p in todo])
    numbers = _numbers(*answer[:2], se=np.zeros_like)
    told = answer[2] if len(answer) > 2 else [{}] * len(todo)  # each cell's notes, if given
    numbers.update(method="exact", trials=None, partial=False,
                   seed=pd.array([None] * len(todo), dtype="Int64"),
                   **{REPLICATES_COLUMN: [None] * len(todo),
                      NOTES: [json.dumps({k: list(v) for k, v in t.items() if v}) for t in told]})
    return pd.concat([frame, pd.DataFrame(numbers, index=frame.index)], axis=1)


def _rows(procedure, batch):
    return [row(procedure, params, engine) for params, engine in batch]


def sweep(procedure: str, grid: dict, fixed: dict | None = None, *, method="auto", trials=None,
          seed=0, seeds="cell", client=None, progress=None):
    """Evaluate `procedure` on every cell of `grid` (with `fixed` inputs) -> pandas DataFrame.

    `grid` maps parameters to lists of values or ranges ({"start": 1, "stop": 20}, stop
    included), and `grid["variant"]` names rule variants ({name: {parameter: value}});
    `method`, `trials` and `seed` as in the procedure's function; `seeds`: "cell" (each
    Monte Carlo cell's seed derives from `seed` and its grid and fixed parameters: the
    variants of a cell share it, common random numbers), "common" (every cell runs with
    `seed`, so a difference between any cells is the settings' and not the seeds') or
    "independent" (variants too get seeds of their own); `client`: a dask.distributed Client.
    Where cells share a seed, each Monte Carlo cell runs as SWEEP_REPLICATES runs (seeds derived
    from its own) so that `difference` can give each difference its standard error.
    `df.attrs`: procedure, main (its main event), seed, seeds, method, partial, missing, budget (the exact budget's
    notes), notes (the engines that made the numbers, every note, assumption and reading of
    the answers: odds.tools.frames.said), assumptions, readings; each row's own are its `notes`
    (JSON text).
    """
    import pandas as pd

    todo, columns, bases = _layout(procedure, grid, dict(fixed or {}))
    engine = check_engine(method, trials, seed, len(todo))
    seeds = check_choice("seeds", seeds, SEEDS)
    fast = None if client is not None else _table(procedure, todo, method, columns)
    if fast is not None:
        fast.attrs.update(procedure=procedure, main=registry.get(procedure).main, seed=seed,
                          seeds=seeds, method=method, partial=False,
                          missing=0, budget=[], keys=_cell_columns(columns, bases))
        fast.attrs.update(said(fast))
        return fast
    check_cells(procedure, todo)
    spec = registry.get(procedure)
    chosen, budget = within(spec, [_kwargs(p, spec) for p in todo], engine,
                            counted(len(todo), "cell"))
    engine = {**engine, **chosen}
    paired = seeds == "common" and len(todo) > 1 or seeds == "cell" and len(todo) > len(
        {json.dumps(b, sort_keys=True, default=str) for b in bases})
    files = _file_digests(spec, todo)
    batch = [(params, {**engine, "seed": _seed_of(engine["seed"], seeds, params, base, files),
                       "replicates": SWEEP_REPLICATES if paired else 1, "columns": columns})
             for params, base in zip(todo, bases)]
    done, partial = [], False
    bar = _bar(len(todo), "cell", progress, len(todo) > 1, 0 if progress else PROGRESS_AFTER_SECONDS)
    try:
        if client is None:
            for params, cell in batch:
                done.append(row(procedure, params, cell))
                bar and bar.update()
        else:
            _on_cluster(client, procedure, batch, bar, done)
    except KeyboardInterrupt:
        partial = True
    finally:
        bar and bar.close()
    df = pd.DataFrame(done)
    if not len(df):
        df = pd.DataFrame(columns=columns)
    else:  # 63-bit seeds beside exact cells' None: whole numbers, not floats
        df["seed"] = pd.array([r["seed"] for r in done], dtype="Int64")
    df.attrs.update(procedure=procedure, main=spec.main, seed=seed, seeds=seeds, method=engine["method"],
                    partial=partial, missing=len(todo) - len(done), budget=list(budget),
                    keys=_cell_columns(columns, bases))
    df.attrs.update(said(df))
    return df


def _cell_columns(columns, bases) -> list:
    """The columns that tell one grid cell from another (its grid and fixed parameters), in
    the frame's order: what a variant's row is matched on (odds.tools.differences)."""
    named = {k for b in bases for k in b}
    return [c for c in columns if c in named]


def _seed_of(seed: int, seeds: str, params: dict, base: dict, files: dict) -> int:
    """A cell's Monte Carlo seed: the sweep's (common), its grid cell's (cell: the variants of
    one grid cell share it) or its own (independent). `files`: scenario path -> its text's digest."""
    if seeds == "common":
        return seed
    said = base if seeds == "cell" else params
    return cell_seed(seed, {k: files.get(v, v) if isinstance(v, str) else v for k, v in said.items()})


def _file_digests(spec, cells: list) -> dict:
    """Each scenario file a cell names -> a digest of its text: a cell's seed follows what the
    file says, not where it lies (the same sweep from another folder or machine draws the same)."""
    names = {p.name for p in spec.params if p.kind == "scenario"}
    paths = {c[k] for c in cells for k in names & c.keys() if isinstance(c[k], str)}
    return {path: "text:" + hashlib.blake2b(read_text(path, "scenario").encode(),
                                            digest_size=8).hexdigest() for path in paths}


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
    from ..files import read_toml

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


def check_value(spec: dict, value: str) -> str:
    """`value`, a column the designer's table is to show (odds sweep --table --value), refused
    before the sweep's work: the columns its first cell has, from a Monte Carlo run of a few
    trials (a cell's events and distributions are the same whatever the engine)."""
    import pandas as pd

    from .differences import main_value

    first = _layout(spec["procedure"], spec.get("grid", {}), dict(spec.get("fixed", {})))[0][:1]
    check_cells(spec["procedure"], first)
    probe = pd.DataFrame([row(spec["procedure"], first[0], {"method": "mc", "trials": PROBE_TRIALS,
                                                            "seed": 0})])
    return main_value(probe, value)


PROBE_TRIALS = 16  # Monte Carlo trials of check_value's run: enough to name the columns


def load(path, client=None, progress=None):
    """Run the sweep spec at `path` -> DataFrame (as `odds sweep SPEC.toml` does)."""
    return run_spec(read_spec(path), client=client, progress=progress)


def run_spec(spec: dict, client=None, progress=None):
    """Run a read sweep spec (read_spec) -> DataFrame."""
    return sweep(spec["procedure"], spec.get("grid", {}), spec.get("fixed", {}),
                 method=spec.get("method", "auto"), trials=spec.get("trials"),
                 seed=spec.get("seed", 0), seeds=spec.get("seeds", "cell"), client=client,
                 progress=progress)


def _on_cluster(client, procedure, todo, bar, done):
    """Submit batches of cells ((parameters, engine) pairs: plain data) to a dask cluster and
    append their rows to `done` in grid order (on Ctrl-C: the batches finished so far, still
    in grid order). A batch is at most SWEEP_BATCH cells, fewer when that makes fewer than 8
    batches a worker thread (a Ctrl-C keeps more)."""
    from dask.distributed import as_completed

    size = max(1, min(SWEEP_BATCH, len(todo) // (8 * max(1, sum(client.nthreads().values())))))
    batches = [todo[i:i + size] for i in range(0, len(todo), size)]
    futures = client.map(_rows, [procedure] * len(batches), batches, retries=3, pure=False)
    index = {f.key: i for i, f in enumerate(futures)}
    results = [None] * len(batches)
    try:
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            bar and bar.update(len(results[index[future.key]]))
    finally:
        client.cancel([f for f in futures if not f.done()])
        done.extend(r for batch in results if batch for r in batch)


def difference(df, column: str = VARIANT, a=None, b=None, value: str | None = None, keys=None):
    """Each cell's `value` where `column` is `a` minus where it is `b`, with its standard error
    and 95% interval (odds.tools.differences.difference)."""
    from .differences import difference as _difference

    return _difference(df, column, a, b, value, keys)


def table(df, value: str | None = None, column: str = VARIANT, base=None, fmt: str = "markdown"):
    """The designer's table: each cell's value under every value of `column` side by side,
    each against `base` with its difference and 95% interval, as Markdown or CSV text
    (odds.tools.differences.table)."""
    from .differences import table as _table_text

    return _table_text(df, value, column, base, fmt)


class _CallableModule(types.ModuleType):
    """Lets `odds.tools.sweep(...)` call `sweep` while `odds.tools.sweep.load` etc. stay reachable."""

    def __call__(self, *args, **kwargs):
        return sweep(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
