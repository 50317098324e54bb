"""`odds sweep SPEC.toml`, `odds plot RESULTS --x P --y Q` and `odds table RESULTS`: a sweep, its
pictures, and the designer's table of a variant against the rules (odds.tools.differences)."""
from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path
from urllib.parse import urlparse

from .common import whole
from ...config import MAX_CELLS
from ...errors import OddsError, shown
from ...files import check_ending, check_input, check_output, replaced, write_csv
from ...processes import sigint_ignored
from ...texts import as_typed, counted, printable
from ...tools.where import as_in, conditions, select, split
from ...tools.differences import FORMATS
from ...i18n import _

MAX_WORKERS = 64  # processes of a local dask cluster (--workers)
SCHEDULER_TIMEOUT = 10.0  # s a dask scheduler (--scheduler) has to answer; then one line, exit 2


def _client(args):
    if args.scheduler and args.workers is not None:
        raise OddsError("--scheduler and --workers: give one of them, not both")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise OddsError(f"--workers: {args.workers} is out of range (allowed: 1 to {MAX_WORKERS})")
    if not (args.scheduler or args.workers):
        return None, None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise OddsError("--scheduler/--workers: dask.distributed is not installed "
                        "(allowed: pip install 'odds[dask]')") from None
    if args.scheduler:
        return _connect(Client, args.scheduler), None
    with sigint_ignored():  # the workers keep it: a Ctrl-C stops this process, not them
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               # CRITICAL: a worker's lost heartbeat while the cluster closes
                               # (a Ctrl-C) is logged as an error; a cell's error reaches us
                               # through its future anyway
                               dashboard_address=":0", silence_logs=logging.CRITICAL)
    return Client(cluster), cluster


def _connect(Client, address: str, deadline: float = SCHEDULER_TIMEOUT):
    """A dask `Client` of the scheduler at `address`, or a one-line OddsError: a malformed
    address, nothing listening, or no dask answer within `deadline` seconds (a plain HTTP
    server, a port that accepts and never replies: dask's start-up waits for them forever, so
    it runs in a thread that is abandoned at the deadline)."""
    import threading

    host, port = _host_port(address)
    allowed = "(allowed: the address of a running dask scheduler)"
    try:
        socket.create_connection((host, port), timeout=min(5, deadline)).close()
    except OSError as e:
        raise OddsError(f"--scheduler: cannot reach {shown(address)} ({e.strerror or e}) {allowed}") from None
    box = {}

    def start():
        try:
            box["client"] = Client(address, timeout=f"{deadline}s")
        except Exception as e:  # dask raises many kinds for a peer that is not a scheduler
            box["error"] = e

    starter = threading.Thread(target=start, name="odds-dask-connect", daemon=True)
    starter.start()
    starter.join(deadline + 1)
    if "client" in box:
        return box["client"]
    why = (f"{type(box['error']).__name__}: {box['error']}" if "error" in box
           else f"no dask answer within {deadline:g} s")
    raise OddsError(f"--scheduler: {shown(address)}: not a dask scheduler ({why}) {allowed}")


def _host_port(address: str) -> tuple[str, int]:
    """(host, port) of a tcp:// or tls:// address (HOST:PORT alone means tcp://)."""
    url = None
    try:
        url = urlparse(address if "://" in address else f"tcp://{address}")
        host, port = url.hostname, url.port
    except ValueError:  # an unclosed [ or a port out of range
        host = port = None
    if url is None or url.scheme not in ("tcp", "tls") or not host or not port:
        raise OddsError(f"--scheduler: {shown(address)} is not an address "
                        "(allowed: tcp://HOST:PORT of a running dask scheduler, port 1 to 65535)")
    return host, port


def check_out(path, kinds=(".parquet", ".csv"), flag="--out") -> str:
    """`flag`: a new or regular file with an allowed extension in a writable directory."""
    return check_output(path, flag, kinds)


def run_sweep(args):
    from ...tools import sweep

    spec = sweep.read_spec(args.spec)
    if args.out:
        check_out(args.out)
    variants = isinstance(spec.get("grid"), dict) and sweep.VARIANT in spec["grid"]
    if args.table and not variants:
        raise OddsError(f"--table: {args.spec} has no variants (allowed: a spec with "
                        "[grid.variant.NAME] tables; for another column: odds sweep ... --out "
                        "R.parquet, then odds table R.parquet --column COLUMN)")
    tabled = variants and (args.table or not args.out)
    if args.value is not None and not tabled:
        raise OddsError(f"--value: {shown(args.value)} names a column of the table, and none is "
                        "printed (allowed: with --table, or without --out, on a spec with variants)")
    if args.value is not None:
        sweep.check_value(spec, args.value)
    client, cluster = _client(args)
    if client is not None:
        print(f"dask dashboard: {client.dashboard_link}", file=sys.stderr, flush=True)
    try:
        df = sweep.run_spec(spec, client=client)
    finally:
        with sigint_ignored():  # a second Ctrl-C does not lose the finished cells
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()
    partial, total = df.attrs["partial"], len(df) + df.attrs.get("missing", 0)
    for note in said_on_stderr(df):
        print(f"odds: note: {printable(note)}", file=sys.stderr)
    if args.out and (len(df) or not partial):
        write_frame(df, args.out)
        print(f"{counted(len(df), 'cell')} -> {args.out}")
    elif not args.out and len(df) and not args.table:
        print(df.drop(columns=[sweep.REPLICATES_COLUMN, sweep.NOTES], errors="ignore").to_string(index=False))
    if tabled and len(df):
        _print_table(df, args.value, sweep.VARIANT, None, args.table or "markdown", blank=not args.table)
    if partial:
        nothing = ", nothing written" if args.out and not len(df) else ""
        print(f"odds: interrupted: partial result, {len(df)} of {total} cells "
              f"({df.attrs['missing']} cells missing{nothing})", file=sys.stderr)
        return 130
    return 0


def said_on_stderr(df) -> list:
    """The notes `odds sweep` says on stderr: why the engine is not the one asked (the exact
    budget's) and what the answers assume and read; the engines and each answer's own notes
    are in the frame (its attrs and `notes` column) and under the table and the pictures."""
    return [*df.attrs.get("budget", ()),
            *(n for n in df.attrs.get("notes", ()) if n.startswith(("assumes:", "reading:")))]


def _print_table(df, value, column, base, fmt, blank=False):
    """The designer's table (odds.tools.differences.table) on stdout; a table no cell pairs (an
    interrupted sweep) says so on stderr."""
    from ...tools.differences import table

    try:
        text = table(df, value, column, base, fmt)
    except OddsError as e:
        if df.attrs.get("partial"):
            print(f"odds: note: no table: {e}", file=sys.stderr)
            return
        raise
    if blank:
        print()
    print(text, end="")


def run_table(args):
    df = read_frame(args.results)
    df = select(df, conditions(args.where))
    _print_table(df, args.value, args.column, args.base, args.format)
    return 0


def write_frame(df, path: str):
    """Write the results whole or not at all (files.replaced): a full disk or a vanished
    directory is a one-line error."""
    check_out(path)
    if path.endswith(".csv"):
        return write_csv(df, path, "--out")
    with replaced(path, "--out") as temporary:
        df.to_parquet(temporary)


def read_frame(path: str):
    """A sweep's results from .parquet or .csv; unreadable or empty files are one-line errors."""
    import pandas as pd
    import pyarrow.parquet as pq

    check_ending(path, "results", (".parquet", ".csv"))
    check_input(path, "results")
    try:
        if path.endswith(".parquet"):  # the row count is in the file's footer
            rows = pq.ParquetFile(path).metadata.num_rows
            df = pd.read_parquet(path) if rows <= MAX_CELLS else None
        else:  # a row more than allowed says it is too long
            df = pd.read_csv(path, nrows=MAX_CELLS + 1)
            rows = len(df)
    except Exception as e:  # pyarrow and pandas raise many kinds for a corrupt file
        raise OddsError(f"results: {path}: not a readable results file ({type(e).__name__})") from None
    if rows > MAX_CELLS:
        count = f"more than {MAX_CELLS:,}" if df is not None else f"{rows:,}"
        raise OddsError(f"results: {path}: {count} rows (allowed: at most {MAX_CELLS:,}, "
                        "as many as one sweep makes)")
    if df.empty:
        raise OddsError(f"results: {path}: no rows")
    return df


def run_plot(args):
    import matplotlib

    matplotlib.use("Agg")
    from ...tools import plot

    out = args.out or str(Path(args.results).with_suffix(".png"))
    check_out(out, (".png",))
    df = select(read_frame(args.results), conditions(args.where))
    where = ", ".join(args.where)
    if args.diff:
        column, _eq, pair = args.diff.partition("=")
        values = split(pair)
        if not column or len(values) != 2:
            raise OddsError(f"--diff: {shown(args.diff)} must be COLUMN=A,B (e.g. variant=vq,galleys-roll-1)")
        a, b = (as_in(df, column.strip(), v) for v in values)
        if not args.y:
            raise OddsError("--diff: needs --y (a difference map is over two parameters)")
        ax = plot.difference(df, args.x, args.y, column, a, b, args.value, where=where)
    elif args.y:
        ax = plot.heatmap(df, args.x, args.y, args.value, where=where)
    else:
        ax = plot.lines(df, args.x, args.by, args.value, where=where)
    with replaced(out, "--out") as temporary, as_typed(ax.figure):
        ax.figure.savefig(temporary, dpi=120, bbox_inches="tight")
    print(f"{ax.get_title().splitlines()[0]} -> {out}")
    return 0


def register(games):
    sweep = games.add_parser("sweep", help=_("a grid of parameters -> one row per cell"))
    sweep.add_argument("spec", metavar="SPEC.toml", help=_("TOML: procedure, [grid], [fixed], method, trials, seed, "
                       "seeds (cell: a seed per cell; common: the same for every cell)"))
    sweep.add_argument("--out", help=_("results file (.parquet or .csv)"))
    sweep.add_argument("--scheduler", help=_("address of a dask scheduler, e.g. tcp://host:8786"))
    sweep.add_argument("--workers", type=whole, help=_("start a local dask cluster of N workers"))
    sweep.add_argument("--table", nargs="?", const="markdown", choices=FORMATS, metavar="FORMAT",
                       help=_("print the variants side by side, each against the first with its "
                            "difference and 95%% interval: markdown (default) or csv"))
    sweep.add_argument("--value", default=None,
                       help=_("the column of --table (default: the procedure's main event)"))
    sweep.set_defaults(handler=run_sweep)
    table = games.add_parser("table", help=_("a sweep's results as a rules document's table: "
                                           "each value of a column against the first, with its "
                                           "difference and 95%% interval"))
    table.add_argument("results", metavar="RESULTS", help=_("a .parquet or .csv written by odds sweep"))
    table.add_argument("--column", default="variant", help=_("the column compared (default variant)"))
    table.add_argument("--base", help=_("the value the others are compared with (default: the first)"))
    table.add_argument("--value", default=None,
                       help=_("the column shown (default: the procedure's main event)"))
    table.add_argument("--format", default="markdown", choices=FORMATS,
                       help=_("markdown (default) or csv"))
    table.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                       help=_("keep only these rows (repeatable, as odds plot --where)"))
    table.set_defaults(handler=run_table)
    plot = games.add_parser("plot", help=_("a sweep's results: heatmap (--x --y), lines (--x [--by]) "
                                         "or a difference map (--x --y --diff COLUMN=A,B)"))
    plot.add_argument("results", metavar="RESULTS", help=_("a .parquet or .csv written by odds sweep"))
    plot.add_argument("--x", required=True, help=_("parameter on the horizontal axis"))
    plot.add_argument("--y", help=_("parameter on the vertical axis (a heatmap)"))
    plot.add_argument("--by", help=_("without --y: one line per value of this column, e.g. variant"))
    plot.add_argument("--diff", metavar="COLUMN=A,B",
                      help=_("with --y: the value where COLUMN is A minus where it is B"))
    plot.add_argument("--value", default="attacker_win",
                      help=_("the column to show (default attacker_win)"))
    plot.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                      help=_("keep only these rows (repeatable; a=1,b=2 also works; lists as "
                           "attacker_cards=[] or attacker_cards=['landsknechts'])"))
    plot.add_argument("--out", help=_("PNG file (default: beside the results)"))
    plot.set_defaults(handler=run_plot)
