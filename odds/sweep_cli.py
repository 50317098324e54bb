"""`odds sweep SPEC.toml` and `odds plot RESULTS --x P --y Q`."""
from __future__ import annotations

import tomllib
from pathlib import Path

from .cli_common import whole
from .errors import OddsError

SPEC_KEYS = ("procedure", "grid", "fixed", "method", "trials", "seed")


def read_spec(path: str) -> dict:
    """The sweep spec: procedure, [grid], optional [fixed], method, trials, seed."""
    try:
        spec = tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise OddsError(f"spec: {path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise OddsError(f"spec: {path}: not valid TOML ({e})") from None
    for key in spec:
        if key not in SPEC_KEYS:
            raise OddsError(f"{path}: {key}: unknown key (allowed: {', '.join(SPEC_KEYS)})")
    if "procedure" not in spec:
        raise OddsError(f"{path}: procedure: missing (e.g. procedure = \"his.field\")")
    for key in ("grid", "fixed"):
        if not isinstance(spec.get(key, {}), dict):
            raise OddsError(f"{path}: {key}: must be a table ([{key}])")
    return spec


def _client(args):
    if args.scheduler and args.workers:
        raise OddsError("--scheduler and --workers: give one of them, not both")
    if not (args.scheduler or args.workers):
        return None, None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise OddsError("--scheduler/--workers: dask.distributed is not installed "
                        "(allowed: pip install 'odds[dask]')") from None
    if args.scheduler:
        try:
            return Client(args.scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as e:
            raise OddsError(f"--scheduler: cannot reach {args.scheduler!r} ({e}) "
                            "(allowed: the address of a running dask scheduler)") from None
    if args.workers < 1:
        raise OddsError(f"--workers: {args.workers} is out of range (allowed: at least 1)")
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    return Client(cluster), cluster


def run_sweep(args):
    from .sweep import sweep

    spec = read_spec(args.spec)
    client, cluster = _client(args)
    try:
        df = sweep(spec["procedure"], spec.get("grid", {}), spec.get("fixed", {}),
                   method=spec.get("method", "auto"), trials=spec.get("trials"),
                   seed=spec.get("seed", 0), client=client)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    if args.out:
        write_frame(df, args.out)
        print(f"{len(df)} cells -> {args.out}")
    else:
        print(df.to_string(index=False))
    return 0


def write_frame(df, path: str):
    if path.endswith(".parquet"):
        df.to_parquet(path)
    elif path.endswith(".csv"):
        df.to_csv(path, index=False)
    else:
        raise OddsError(f"--out: {path!r} must end in .parquet or .csv")


def read_frame(path: str):
    import pandas as pd

    if not Path(path).exists():
        raise OddsError(f"results: {path}: no such file")
    if path.endswith(".parquet"):
        return pd.read_parquet(path)
    if path.endswith(".csv"):
        return pd.read_csv(path)
    raise OddsError(f"results: {path!r} must end in .parquet or .csv")


def run_plot(args):
    import matplotlib

    matplotlib.use("Agg")
    from .plot import heatmap

    df = read_frame(args.results)
    for condition in args.where:
        key, _, text = condition.partition("=")
        if key not in df.columns or not text:
            raise OddsError(f"--where: {condition!r} must be COLUMN=VALUE with a column of the results")
        df = df[df[key].astype(str) == text]
    if df.empty:
        raise OddsError(f"--where: no rows match {' and '.join(args.where)}")
    ax = heatmap(df, args.x, args.y, args.value)
    out = args.out or str(Path(args.results).with_suffix(".png"))
    ax.figure.savefig(out, dpi=120, bbox_inches="tight")
    print(f"heatmap of {args.value} over {args.x} x {args.y} -> {out}")
    return 0


def register(games):
    sweep = games.add_parser("sweep", help="a grid of parameters -> one row per cell")
    sweep.add_argument("spec", help="TOML: procedure, [grid], [fixed], method, trials, seed")
    sweep.add_argument("--out", help="results file (.parquet or .csv)")
    sweep.add_argument("--scheduler", help="address of a dask scheduler, e.g. tcp://host:8786")
    sweep.add_argument("--workers", type=whole, help="start a local dask cluster of N workers")
    sweep.set_defaults(handler=run_sweep)
    plot = games.add_parser("plot", help="heatmap of a sweep's results")
    plot.add_argument("results", help="a .parquet or .csv written by odds sweep")
    plot.add_argument("--x", required=True)
    plot.add_argument("--y", required=True)
    plot.add_argument("--value", default="attacker_win")
    plot.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                      help="keep only rows with this value (repeatable), e.g. attacker_cards=[]")
    plot.add_argument("--out", help="PNG file (default: beside the results)")
    plot.set_defaults(handler=run_plot)
