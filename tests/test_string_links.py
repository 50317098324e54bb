"""Every string that names code resolves: the links grep, an IDE and the import graph cannot
follow, checked in one place.

- In the source (ast): a string naming a module of odds ("odds.his.field.kernel", e.g. a Spec's
  `kernels`), a `(module, name)` pair of strings, or names bound to such strings (a kernel
  passed to `kernel_cache.load` or a Procedure: `("odds.his.field.kernel", "field_lane")`,
  `(KERNEL, "debate_lane")`), and a 'module:function' string (a Spec's `table` or
  `rolled`).
- The declared maps: each game's and each Here I Stand concept's `PROCEDURES` (importing the
  module registers that procedure), `EXPORTS` (the public name resolves), `PAGE`, `SERVICES`, the command
  line's `TOOLS` (the module has `register`), the names `odds` imports on first use.
- Every `import_module` call of odds/ is one of those the maps above feed (KNOWN_DYNAMIC): a new
  one fails here until its strings are checked too.
"""
import ast
import re
from importlib import import_module
from pathlib import Path

import pytest

import odds
from odds import registry
from odds.lazy import declaring

ROOT = Path(odds.__file__).parent
MODULE = re.compile(r"odds(\.\w+)+")
NAME = re.compile(r"[A-Za-z_]\w*")
# file -> what feeds its import_module calls (each checked below)
KNOWN_DYNAMIC = {"__init__.py": 2,  # odds.__all__
                 "frontends/cli/main.py": 1,  # TOOLS
                 "lazy.py": 5,  # EXPORTS, the declaring packages (PROCEDURES), MOVED
                 "registry.py": 4,  # PAGE, PROCEDURES, a Spec's rolled, SERVICES
                 "tools/sweep.py": 1,  # a Spec's table
                 "core/kernel_cache.py": 1,  # load(module, name): the source's pairs
                 "frontends/web/workers.py": 1}  # a worker's warm modules (web/app.py WARM: module strings)


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _strings(tree) -> dict:
    """Module-level names bound to a string constant."""
    return {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for t in node.targets if isinstance(t, ast.Name)}


def source_links(root: Path = ROOT) -> list:
    """(where, module, attribute or None) of every link in the source of odds/ (`root`: the
    package folder, or a copy of it); where: the file below root's parent, and the line."""
    trees = {p: ast.parse(p.read_text(), str(p)) for p in sorted(root.rglob("*.py"))}
    bound = {_module_name(p, root): _strings(t) for p, t in trees.items()}
    links = []
    for path, tree in trees.items():
        here = _module_name(path, root)
        package = here.rpartition(".")[0]
        if path.name == "__init__.py":
            package = here
        names = dict(bound[here])
        for node in ast.walk(tree):  # names imported from a module of odds that binds a string
            if isinstance(node, ast.ImportFrom) and node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([node.module] if node.module else []))
                names.update({a.asname or a.name: bound[base][a.name] for a in node.names
                              if a.name in bound.get(base, {})})
        value = lambda n: n.value if isinstance(n, ast.Constant) and isinstance(n.value, str) \
            else names.get(n.id) if isinstance(n, ast.Name) else None
        where = path.relative_to(root.parent)
        for node in ast.walk(tree):
            items = node.elts if isinstance(node, ast.Tuple) else \
                node.args if isinstance(node, ast.Call) else None
            if items and len(items) >= 2:
                first, second = value(items[0]), value(items[1])
                if first and MODULE.fullmatch(first) and second and NAME.fullmatch(second):
                    links.append((f"{where}:{node.lineno}", first, second))
            text = value(node) if isinstance(node, ast.Constant) else None
            if text and MODULE.fullmatch(text):
                links.append((f"{where}:{node.lineno}", text, None))
            elif text and re.fullmatch(r"odds(\.\w+)+:\w+", text):
                links.append((f"{where}:{node.lineno}", *text.split(":")))
    return links


def resolve(module: str, attribute) -> str | None:
    """None if `module` (and its `attribute`) can be imported, else why not. A dotted name
    without an attribute may also be a module's attribute ("odds.Result", an annotation)."""
    try:
        found = import_module(module)
    except ImportError as e:
        if attribute is None and "." in module:
            parent, _, name = module.rpartition(".")
            if resolve(parent, name) is None:
                return None
        return f"no module {module} ({e})"
    if attribute is not None and not hasattr(found, attribute):
        return f"{module} has no {attribute}"
    return None


def test_every_link_in_the_source_resolves():
    links = source_links()
    wheres = {(m, a) for _, m, a in links}
    # the reader sees each kind of link: a pair, a name bound to a module, a module:function
    assert ("odds.his.field.kernel", "field_lane") in wheres
    assert ("odds.his.debates.kernel", "debate_lane") in wheres
    assert ("odds.his.religion.kernel", "ranking_lane") in wheres  # KERNEL imported from .attempt
    assert ("odds.his.field.table", "field_battle_table") in wheres
    broken = [f"{where}: {why}" for where, m, a in links if (why := resolve(m, a))]
    assert not broken, "links that do not resolve:\n" + "\n".join(broken)


def test_the_link_check_finds_a_broken_link():
    assert resolve("odds.his.field.kernel", "field_lane") is None
    assert "no module" in resolve("odds.his.field.kernal", "field_lane")
    assert resolve("odds.Result", None) is None and "no module" in resolve("odds.Resolt", None)
    assert "has no" in resolve("odds.his.field.kernel", "feld_lane")


def _declaring_packages():
    games = list(dict.fromkeys(registry.games().values()))
    return games + [c for g in games for c in declaring(g.__name__, "PROCEDURES")]


@pytest.mark.parametrize("package", _declaring_packages(), ids=lambda p: p.__name__)
def test_every_declared_map_resolves(package):
    for name, module in getattr(package, "PROCEDURES", {}).items():
        import_module(f"{package.__name__}.{module}")
        assert name in registry._SPECS, f"{package.__name__}.{module} does not register {name}"
    for name, where in getattr(package, "EXPORTS", {}).items():
        module, _, attribute = where.partition(":")
        assert resolve(f"{package.__name__}.{module}", attribute or name) is None, (package, name)
    if hasattr(package, "PAGE"):
        module, _, function = package.PAGE.partition(":")
        assert callable(getattr(import_module(f"{package.__name__}.{module}"), function))
    for name in getattr(package, "SERVICES", {}):
        assert callable(registry.service(name)), (package, name)


def test_every_spec_names_real_kernels_and_tables():
    for spec in registry.specs().values():
        for module in spec.kernels:
            assert resolve(module, None) is None, (spec.name, module)
        if spec.table:
            assert resolve(*spec.table.split(":")) is None, (spec.name, spec.table)
        if spec.rolled:
            assert resolve(*spec.rolled.split(":")) is None, (spec.name, spec.rolled)


def test_the_command_line_tools_and_the_lazy_names_resolve():
    from odds.frontends.cli.main import TOOLS

    for word, module in TOOLS.items():
        assert resolve(f"odds.frontends.cli.{module}", "register") is None, word
    for name in odds.__all__:
        assert getattr(odds, name) is not None, name


def test_every_import_module_call_is_checked_here():
    found = {}
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) \
                    in ("import_module", "__import__"):
                key = str(path.relative_to(ROOT))
                found[key] = found.get(key, 0) + 1
    assert found == KNOWN_DYNAMIC, "import_module calls whose strings this test does not check"
