"""The performance report: every bench_*.py module's rows in one table, measured in one run.

python benchmarks/run.py [--quick] [--readme]   (--readme rewrites the README's table)
"""
import importlib
import os
import platform
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import table  # noqa: E402

MODULES = ["bench_field", "bench_assault", "bench_naval", "bench_oath", "bench_then", "bench_his_more",
           "bench_crusades", "bench_sweep", "bench_web", "bench_startup", "bench_interrupt", "bench_luck",
           "bench_parsers", "bench_positions"]


def machine() -> str:
    import numba
    import numpy

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
            f"numpy {numpy.__version__}, numba {numba.__version__}, "
            f"{numba.get_num_threads()} numba threads")


def main():
    quick = "--quick" in sys.argv
    rows = []
    for name in MODULES:
        if not (HERE / f"{name}.py").exists():
            continue
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        rows += importlib.import_module(name).measure(quick)
    text = f"Measured on {machine()}.\n\n{table(rows)}"
    print(text)
    if "--readme" in sys.argv:
        readme = HERE.parent / "README.md"
        old = readme.read_text()
        new = re.sub(r"(<!-- perf-table -->\n).*?(\n<!-- /perf-table -->)",
                     lambda m: m.group(1) + text + m.group(2), old, flags=re.S)
        readme.write_text(new)


if __name__ == "__main__":
    main()
