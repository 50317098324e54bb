"""Sweeps: the vectorised exact grid, and a Monte Carlo sweep on 1 and on 2 local dask workers
(each worker process with one numba thread), to show how throughput scales with workers."""
import os
import sys

from common import Row, best_of, table
from odds.tools.sweep import sweep

GRID = {"attacker": list(range(2, 14)), "defender": list(range(2, 8))}  # 72 cells


def cluster_seconds(workers, trials):
    from dask.distributed import Client, LocalCluster

    os.environ["NUMBA_NUM_THREADS"] = "1"  # inherited by the worker processes
    try:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            run = lambda: sweep("his.field", GRID, method="mc", trials=trials, seed=1, client=client,
                                  progress=False)
            run()  # workers load the cached kernel
            return best_of(run, repeat=2)
    finally:
        del os.environ["NUMBA_NUM_THREADS"]


def measure(quick=False):
    trials = 1_000_000 if quick else 5_000_000
    cells = len(GRID["attacker"]) * len(GRID["defender"])
    one, two = cluster_seconds(1, trials), cluster_seconds(2, trials)
    grid = {"attacker": list(range(1, 21)), "defender": list(range(1, 21))}
    sweep("his.field", grid)
    return [
        Row("exact sweep, 20 x 20 field battles", best_of(lambda: sweep("his.field", grid), 3) * 1e3, "ms"),
        Row(f"MC sweep on a local dask cluster, {cells} cells x {trials:,} trials, 2 workers",
            cells * trials / two, "/s", cells * trials / one, "1 worker", "scales with workers"),
    ]


if __name__ == "__main__":
    print(table(measure("--quick" in sys.argv)))
