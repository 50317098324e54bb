"""Public names keep working: every import the README, the docs and the notebooks show, and
every module's name before the layout of layers (odds.MOVED, kept by odds.lazy.Renamed), which
imports the very module it names now."""
import ast
import importlib
import json
import re
from pathlib import Path

import pytest

import odds

PROJECT = Path(odds.__file__).parent.parent
IMPORT = re.compile(r"^\s*(from odds[\w.]* import [\w, ]+|import odds[\w.]*)", re.M)


def shown_imports() -> set:
    """The import lines of odds that README.md, docs/*.md and notebooks/*.ipynb show."""
    texts = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
    out = {m.group(1).strip().rstrip(",") for p in texts for m in IMPORT.finditer(p.read_text())}
    for nb in sorted((PROJECT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] == "code":
                out |= {m.group(1).strip() for m in IMPORT.finditer("".join(cell["source"]))}
    return out


def test_the_docs_show_imports():
    found = shown_imports()
    assert "from odds.sweep import sweep" in found and len(found) > 10, found


@pytest.mark.parametrize("line", sorted(shown_imports()))
def test_every_import_the_docs_show_works(line):
    ast.parse(line)
    exec(line, {})


@pytest.mark.parametrize("former", sorted(odds.MOVED))
def test_a_former_name_imports_the_module_it_names_now(former):
    now = importlib.import_module(odds.MOVED[former])
    assert importlib.import_module(former) is now
    assert now.__spec__.name == odds.MOVED[former] and now.__name__ == odds.MOVED[former]


def test_a_former_package_brings_its_submodules():
    from odds.records.report import whole_game
    from odds.tools.luck import report

    assert whole_game is report.whole_game
    assert importlib.import_module("odds.records.plot") is importlib.import_module("odds.tools.luck.plot")


def test_a_name_that_never_was_is_still_refused():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("odds.records.nothing_here")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("odds.no_such_module")


def test_the_face_gives_results_their_picture():
    import matplotlib

    matplotlib.use("Agg")
    result = odds.his.field_battle(attacker=2, defender=1)
    ax = result.plot()
    assert ax.get_title() or ax.get_legend_handles_labels()[1]
