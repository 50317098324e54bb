"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject.toml,
[tool.importlinter]) are kept by odds/, and broken by each kind of import they exist to stop.

The graph is grimp's, read from the source: imports inside functions count (they run later
in the same process), `import_module` with a computed name does not (test_string_links.py
resolves those strings; here every module named in a string is linted as an import too, so a
string cannot route around a contract). What no contract can say is checked here too: in odds/his an import
inside a function is of a kernel only (numba is imported on the Monte Carlo path alone), a
concept folder names no other concept's module in a string (a kernel it would load), and
"attacks-use-stages" forbids every module of the stage folders but their stage.py.
"""
import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

import odds
from hang import GUARD

PACKAGE = Path(odds.__file__).parent
PROJECT = PACKAGE.parent
CONFIG = PROJECT / "pyproject.toml"
THROWAWAY = "zz_throwaway_*"  # test_discovery.py's concept folder, in odds/his/ while it runs


def modules() -> dict:
    """Module name -> path of every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PROJECT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def lint(project: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the odds/ and pyproject.toml of `project`, uncached."""
    command = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
               " sys.exit(lint_imports_command())", "--config", str(project / "pyproject.toml"),
               "--no-cache", "--no-logo"]
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=GUARD)


def test_odds_keeps_every_contract(copy):
    done = lint(copy)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" in done.stdout and " 0 broken" in done.stdout


def test_no_contract_ignores_an_import():
    assert "ignore_imports" not in CONFIG.read_text()


BREAKS = {  # contract id -> (file under odds/, the line that breaks it)
    "tools-ask-the-registry": ("tools/sweep.py", "from ..his.field import procedure as _broken\n"),
    "layers": ("core/result.py", "from ..tools import plot as _broken\n"),
    "his-concepts": ("his/rolls/sequence.py", "from ..field import rules as _broken\n"),
    "no-circles": ("core/flips.py", "from . import result as _broken\n"),
    "attacks-use-stages": ("his/attacks/procedure.py", "from ..sieges import timing as _broken\n"),
}
NAMES = {c["id"]: c["name"] for c in tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]}


def copied(root: Path) -> Path:
    """`root` holding a copy of the project's odds/ and pyproject.toml, to lint and to break:
    never the live tree, where test_discovery.py writes a throwaway concept for a moment
    (THROWAWAY)."""
    shutil.copytree(PACKAGE, root / "odds", ignore=shutil.ignore_patterns("__pycache__", THROWAWAY))
    shutil.copy(CONFIG, root / "pyproject.toml")
    return root


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    return copied(tmp_path_factory.mktemp("layers"))


@pytest.mark.parametrize("contract", sorted(BREAKS))
def test_each_contract_is_broken_by_the_import_it_forbids(copy, contract):
    path, line = BREAKS[contract]
    target = copy / "odds" / path
    before = target.read_text()
    target.write_text(before + line)
    try:
        done = lint(copy)
    finally:
        target.write_text(before)
    assert done.returncode == 1, done.stdout
    broken = " ".join(done.stdout.split()).split(" BROKEN")  # a long name is wrapped
    assert any(part.endswith(NAMES[contract]) for part in broken), done.stdout


def linking(root: Path) -> Path:
    """`root`'s odds/, each file importing too every module it names in a string
    (test_string_links.source_links: a kernel to load, a worker's warm modules, a Spec's
    reader): what import-linter then sees is every link, loaded by name or not."""
    from test_string_links import source_links

    named = {}
    for where, module, _ in source_links(root / "odds"):
        named.setdefault(where.split(":")[0], set()).add(module)
    for path, links in named.items():
        target = root / path
        target.write_text(target.read_text() + "\n" + "".join(
            f"import {m} as _link_{i}\n" for i, m in enumerate(sorted(links))))
    return root


def kept(done: subprocess.CompletedProcess) -> dict:
    """Contract name -> kept (True) or broken, from lint-imports' report."""
    text = " ".join(done.stdout.split())  # a long name is wrapped
    return {name: f"{name} KEPT" in text for name in NAMES.values() if name in text}


def test_a_module_named_in_a_string_keeps_the_layers_too(tmp_path):
    """A string is an import the contracts cannot see: every contract but no-circles holds with
    the strings read as imports (a procedure names its rolls' reader, which imports the
    procedure: loaded by name, that is no circle at import time)."""
    done = lint(linking(copied(tmp_path)))
    assert kept(done) == {name: id != "no-circles" for id, name in NAMES.items()}, done.stdout


def test_a_string_naming_a_front_end_above_is_found(tmp_path):
    """The web's workers once warmed the command line's luck module, named in a string."""
    root = copied(tmp_path)
    app = root / "odds" / "frontends" / "web" / "app.py"
    app.write_text(app.read_text() + '\nPLANTED = ("odds.frontends.cli.luck",)\n')
    done = lint(linking(root))
    assert not kept(done)[NAMES["front-ends"]], done.stdout


def test_a_loose_module_at_the_top_must_be_placed(copy):
    loose = copy / "odds" / "helpers.py"
    loose.write_text("X = 1\n")
    try:
        done = lint(copy)
    finally:
        loose.unlink()
    assert done.returncode == 1 and "odds.helpers" in done.stdout, done.stdout


def call_time_imports(source: str) -> list:
    """The modules imported inside functions of the source, as written (dots kept)."""
    return ["." * n.level + (n.module or "") for f in ast.walk(ast.parse(source))
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(f) if isinstance(n, ast.ImportFrom)]


def test_his_imports_only_kernels_at_call_time():
    his = PACKAGE / "his"
    found = {f"{p.relative_to(his)}: {m}" for p in his.rglob("*.py")
             for m in call_time_imports(p.read_text())
             if not (m.endswith("kernel_cache") or m.endswith("kernel") or m.endswith("_kernel"))}
    assert not found, "call-time imports in odds/his that are not kernels: " + str(sorted(found))


def test_the_call_time_check_reads_imports_inside_functions():
    source = "from .a import b\ndef f():\n    from ..sieges.advice import x\n    from .kernel import y\n"
    assert call_time_imports(source) == ["..sieges.advice", ".kernel"]


STAGES = ("field", "interceptions", "assaults", "sieges")  # the folders his.attacks composes


def test_attacks_may_import_only_the_stage_module_of_each_stage_folder():
    """The forbidden list of "attacks-use-stages" is every module of the stage folders but
    stage.py and __init__.py: a module added to one is forbidden until it is listed."""
    contract = next(c for c in tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
                    if c["id"] == "attacks-use-stages")
    internals = {name for name in modules() if not name.endswith(".stage")
                 and name.rpartition(".")[0] in {f"odds.his.{f}" for f in STAGES}}
    assert contract["source_modules"] == ["odds.his.attacks"]
    assert set(contract["forbidden_modules"]) == internals
    assert {f"odds.his.{f}.stage" for f in STAGES} <= set(modules())


HIS_MODULE = re.compile(r"odds\.his\.(\w+)")


def foreign_names(source: str, concept: str) -> list:
    """String constants of `source` (a module of odds/his/`concept`/) naming a module of
    another concept folder ("odds.his.field.kernel" outside field/: a kernel to load)."""
    return [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and (m := HIS_MODULE.match(n.value))
            and m.group(1) != concept]


def test_no_concept_names_another_concepts_module_in_a_string():
    """A folder runs its own kernels: a composition asks the other folder's stage to run
    theirs (import-linter cannot see a module named in a string)."""
    his = PACKAGE / "his"
    found = {f"{p.relative_to(his)}: {name}" for folder in his.iterdir() if folder.is_dir()
             for p in folder.rglob("*.py") for name in foreign_names(p.read_text(), folder.name)}
    assert not found, sorted(found)


def test_the_string_check_finds_a_planted_kernel_name():
    source = ('def f():\n    return load("odds.his.sieges.timing_kernel", "held_lane")\n'
              'K = "odds.his.attacks.procedure"\n')
    assert foreign_names(source, "attacks") == ["odds.his.sieges.timing_kernel"]
