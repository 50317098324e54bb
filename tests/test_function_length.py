"""No function in odds/ is longer than a reader can hold: at most MAX_LINES lines, from its
`def` to its last line (docstring and comments included; a nested function counts inside its
parent too). A longer one is split into named steps (crusades/kernel.py shows how for a
numba kernel: @njit steps sharing records)."""
import ast
from pathlib import Path

import odds

ROOT = Path(odds.__file__).parent
MAX_LINES = 150


def lengths(source: str, name: str) -> list:
    """(lines, function name, first line) of every function in the source."""
    return [(node.end_lineno - node.lineno + 1, node.name, node.lineno)
            for node in ast.walk(ast.parse(source, name))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_no_function_is_over_the_limit():
    long = sorted((n, f"{path.relative_to(ROOT.parent)}:{line} {fn}")
                  for path in ROOT.rglob("*.py")
                  for n, fn, line in lengths(path.read_text(), str(path)) if n > MAX_LINES)
    assert not long, f"functions over {MAX_LINES} lines: " + ", ".join(f"{w} ({n})" for n, w in long)


def test_the_count_counts_every_line_of_a_function():
    body = "\n".join(f"        x{i} = {i}" for i in range(MAX_LINES))
    source = f"def short():\n    pass\n\n\nclass A:\n    async def long(self):\n{body}\n"
    assert lengths(source, "t") == [(2, "short", 1), (MAX_LINES + 1, "long", 6)]
