"""The import graph of odds/ has no circle.

The graph is read from the source (ast), not from a running interpreter: every `import` and
`from ... import` counts wherever it stands (inside functions too, since those run later in
the same process), relative imports are resolved against the module's package, and
`from . import x` (or `from .pkg import x`) counts as importing the submodule x when x is
one. Importing a module is not counted as importing the packages above it (Python runs their
__init__ first, but they cannot be avoided). Dynamic imports (importlib with a computed name)
are not seen.
"""
import ast
from pathlib import Path

import odds

ROOT = Path(odds.__file__).parent


def modules() -> dict:
    """Module name -> path of every module of the package."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports(name: str, path: Path, known) -> set:
    """The modules of the package that module `name` (at `path`) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.add(sub if sub in known else source)
    return {m for m in out if m in known and m != name}


def graph() -> dict:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict) -> list:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def path_around(edges: dict, component: list) -> list:
    """One circle through the component's first module, as a list of modules."""
    start, inside = component[0], set(component)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(edges[path[-1]] & inside):
            if w == start:
                return path + [start]
            if w not in seen:
                seen.add(w)
                paths.append(path + [w])
    return component


def test_the_graph_sees_relative_function_level_and_submodule_imports():
    edges = graph()
    assert "odds.errors" in edges["odds.registry"]  # from .errors import OddsError
    assert "odds.core.montecarlo" in edges["odds.core.engine"]  # from . import montecarlo
    assert "odds.core.kernel_cache" in edges["odds.core.engine"]  # inside a function
    assert "odds.his.cards" in edges["odds.his.field.procedure"]  # from .cards import ...


def test_the_circle_finder_finds_a_circle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c"]]
    assert path_around(edges, ["a", "b", "c"]) == ["a", "b", "c", "a"]


def test_no_import_circle():
    edges = graph()
    found = [" -> ".join(path_around(edges, c)) for c in circles(edges)]
    print("\n".join(found))
    assert not found, "import circles:\n" + "\n".join(found)


# the layers from the bottom: config and processes (signals around compiles and workers: the
# standard library only), then errors, then texts (values read and written as text), then
# core/; a module imports only its own layer or those below. Result.plot draws with odds.plot (above core) at call time: the one
# known exception until plotting moves under a hook core owns.
BELOW_CORE = {"odds", "odds.config", "odds.processes", "odds.errors", "odds.texts"}
KNOWN_UPWARD = {("odds.core.result", "odds.plot")}


def upward(edges: dict) -> list:
    """(importer, imported) pairs where config, errors or core/ import a module above them."""
    out = []
    for name, targets in edges.items():
        if name in ("odds.config", "odds.processes"):
            ok = {"odds"}.__contains__
        elif name == "odds.errors":
            ok = {"odds", "odds.config"}.__contains__
        elif name == "odds.texts":
            ok = {"odds", "odds.config", "odds.errors"}.__contains__
        elif name.startswith("odds.core"):
            ok = lambda t: t in BELOW_CORE or t.startswith("odds.core")
        else:
            continue
        out += [(name, t) for t in sorted(targets) if not ok(t)]
    return sorted(out)


def test_core_imports_nothing_above_it():
    found = [p for p in upward(graph()) if p not in KNOWN_UPWARD]
    assert not found, "imports from below the registry upwards: " + str(found)


def test_the_layer_check_finds_an_upward_import():
    assert upward({"odds.core.engine": {"odds.registry", "odds.core.dice", "odds.config"},
                   "odds.errors": {"odds.core.dice"}}) == [
        ("odds.core.engine", "odds.registry"), ("odds.errors", "odds.core.dice")]
