"""The folders of odds/ point one way (docs/architecture.md, "The map").

Read from the source like test_imports.py's module graph, then folded to folders:
- the concept folders of odds/his (and its shared modules cards.py, forces.py, leaders.py)
  import each other one way only: no folder imports a folder that imports it back, directly
  or around a longer circle (rolls/ is the shared sequence below them, attacks/ the top);
- a game (odds.his, odds.oath, odds.crusades) imports nothing from a front end (the command
  line, the sweep, the web page, the questions, the notebook calculator, demo and warmup).
- in odds/his an import inside a function is of a kernel only (kernel_cache or a kernel
  module: numba is imported on the Monte Carlo path alone), never of another folder.
"""
import ast
from pathlib import Path

import odds
from test_imports import circles, graph, path_around

GAMES = ("odds.his", "odds.oath", "odds.crusades")
FRONT_ENDS = ("odds.cli", "odds.cli_common", "odds.crusades_cli", "odds.sweep", "odds.sweep_cli",
              "odds.serve", "odds.web", "odds.questions", "odds.calculator", "odds.demo",
              "odds.warmup")


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def his_folder(name: str):
    """The folder (or shared module) of odds/his that module `name` belongs to, else None."""
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) >= 3 and parts[:2] == ["odds", "his"] else None


def folder_graph(edges: dict) -> dict:
    """Folder -> the other folders of odds/his its modules import."""
    out = {}
    for name, targets in edges.items():
        here = his_folder(name)
        if here:
            out.setdefault(here, set()).update(
                f for f in map(his_folder, targets) if f and f != here)
    return out


def both_ways(folders: dict) -> list:
    """Every circle of folders, as 'a -> b -> a' (empty when the graph points one way)."""
    return [" -> ".join(path_around(folders, c)) for c in circles(folders)]


def front_end_imports(edges: dict) -> list:
    """(game module, front-end module) pairs."""
    return sorted((name, t) for name, targets in edges.items()
                  if any(within(name, g) for g in GAMES)
                  for t in targets if any(within(t, f) for f in FRONT_ENDS))


def test_the_folders_of_his_point_one_way():
    folders = folder_graph(graph())
    found = both_ways(folders)
    assert not found, "folders of odds/his that import each other back: " + "; ".join(found)
    assert "odds.his.cards" in folders["odds.his.field"]  # the fold sees the folders' imports


def test_the_folder_check_finds_a_folder_imported_back():
    edges = {"odds.his.field.kernel": {"odds.his.attacks.sequence"},
             "odds.his.attacks.procedure": {"odds.his.field.procedure", "odds.his.cards"},
             "odds.his.field.procedure": set(), "odds.his.attacks.sequence": set(),
             "odds.his.cards": set()}
    assert both_ways(folder_graph(edges)) == [
        "odds.his.attacks -> odds.his.field -> odds.his.attacks"]


def test_the_shared_sequence_imports_no_concept():
    folders = folder_graph(graph())
    assert folders["odds.his.rolls"] <= {"odds.his.cards"}


def call_time_imports(source: str) -> list:
    """The modules imported inside functions of the source, as written (dots kept)."""
    return ["." * n.level + (n.module or "") for f in ast.walk(ast.parse(source))
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(f) if isinstance(n, ast.ImportFrom)]


def test_his_imports_only_kernels_at_call_time():
    his = Path(odds.__file__).parent / "his"
    found = {f"{p.relative_to(his)}: {m}" for p in his.rglob("*.py")
             for m in call_time_imports(p.read_text())
             if not (m.endswith("kernel_cache") or m.endswith("kernel") or m.endswith("_kernel"))}
    assert not found, "call-time imports in odds/his that are not kernels: " + str(sorted(found))


def test_the_call_time_check_reads_imports_inside_functions():
    source = "from .a import b\ndef f():\n    from ..sieges.advice import x\n    from .kernel import y\n"
    assert call_time_imports(source) == ["..sieges.advice", ".kernel"]


def test_no_game_imports_a_front_end():
    found = front_end_imports(graph())
    assert not found, "games importing a front end: " + str(found)


def test_the_front_end_check_finds_one():
    edges = {"odds.crusades.cli": {"odds.sweep_cli", "odds.errors"},
             "odds.oath.procedure": {"odds.registry"}, "odds.cli": {"odds.oath"}}
    assert front_end_imports(edges) == [("odds.crusades.cli", "odds.sweep_cli")]
