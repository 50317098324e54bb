"""`odds serve`: the calculator as a web page (Voila on the calculator's two lines)."""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from .cli_common import whole
from .errors import OddsError

CALCULATOR_CELLS = ["from odds.calculator import Calculator", "Calculator().widget"]


def calculator_notebook(folder: Path) -> Path:
    """Write the calculator notebook (the same two lines as notebooks/calculator.ipynb)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("\n".join(CALCULATOR_CELLS))]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "odds-calculator.ipynb"
    nbformat.write(nb, path)
    return path


def command(port: int) -> list[str]:
    return [sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--show_tracebacks=False"]


def run(args):
    from importlib.util import find_spec

    if find_spec("voila") is None:
        raise OddsError("serve: voila is not installed (allowed: pip install 'odds[notebooks]')")
    if not 1 <= args.port <= 65535:
        raise OddsError(f"--port: {args.port} is out of range (allowed: 1 to 65535)")
    with tempfile.TemporaryDirectory() as folder:
        notebook = calculator_notebook(Path(folder))
        print(f"odds calculator on http://127.0.0.1:{args.port}/ (Ctrl-C stops it)", flush=True)
        try:
            return subprocess.call(command(args.port) + [str(notebook)])
        except KeyboardInterrupt:
            return 0


def register(games):
    serve = games.add_parser("serve", help="the interactive calculator as a web page")
    serve.add_argument("--port", type=whole, default=8866)
    serve.set_defaults(handler=run)
