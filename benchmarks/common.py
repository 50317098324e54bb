"""Timing helpers shared by the benchmark scripts."""
import time


def best_of(fn, repeat=5, number=1):
    """Best wall time of `number` calls of fn, over `repeat` rounds (seconds per call)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t) / number)
    return best


def row(name, ours, baseline, unit, better="higher"):
    """One markdown table row: ours, the baseline, and how many times better ours is."""
    ratio = ours / baseline if better == "higher" else baseline / ours
    return f"| {name} | {ours:,.3g} {unit} | {baseline:,.3g} {unit} | {ratio:.1f}x |"


HEADER = "| measurement | odds | baseline | ratio |\n|---|---|---|---|"
