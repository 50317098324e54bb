"""odds/config.py holds only what is shared: each of its constants is read by modules of two
packages or more (PACKAGES: a game, a tool, a front end, core, the registry, the support
modules); a constant of one package lives in that package (the web server's in
frontends/web/limits.py, a tool's in the tool, a game's in the game).

Read from the source (ast): a module reads a constant of config by `from ...config import NAME`
or, after `from .. import config`, by `config.NAME`.
"""
import ast
from pathlib import Path

import odds
from test_layers import modules

ROOT = Path(odds.__file__).parent
SUPPORT = ("odds", "odds.config", "odds.errors", "odds.texts", "odds.files", "odds.lazy",
           "odds.processes")
PACKAGES = {  # a module, or the folder of modules, -> the package it belongs to
    **{m: "support" for m in SUPPORT},
    "odds.core": "core", "odds.registry": "registry",
    "odds.his": "his", "odds.oath": "oath", "odds.crusades": "crusades",
    "odds.tools": "tools", "odds.tools.questions": "questions", "odds.tools.luck": "luck",
    **{f"odds.tools.{m}": "sweep" for m in ("sweep", "frames", "differences", "where")},
    "odds.tools.chart": "chart", "odds.tools.plot": "plot",
    "odds.frontends": "frontends", "odds.frontends.cli": "cli",
    "odds.frontends.cli.serve": "web",  # `odds serve` starts the web: the web's limits are its
    "odds.frontends.web": "web", "odds.frontends.calculator": "calculator",
}


def constants() -> set:
    """The names config.py assigns at module level."""
    out = set()
    for node in ast.parse((ROOT / "config.py").read_text()).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                out.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return out


def reads(path: Path) -> set:
    """The names of odds.config that the module at `path` reads."""
    tree = ast.parse(path.read_text(), str(path))
    out, alias = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[-1] == "config" \
                and (node.level or node.module == "odds.config"):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "config" for a in node.names) \
                and (node.level or node.module == "odds"):
            alias.update(a.asname or a.name for a in node.names if a.name == "config")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in alias:
            out.add(node.attr)
    return out


def package(module: str) -> str | None:
    """The package of `module`: that of its longest prefix in PACKAGES, or None."""
    parts = module.split(".")
    return next((PACKAGES[".".join(parts[:n])] for n in range(len(parts), 0, -1)
                 if ".".join(parts[:n]) in PACKAGES), None)


def readers(mods: dict) -> dict:
    """Constant -> the packages of the modules that read it."""
    out = {}
    for name, path in mods.items():
        if name != "odds.config":
            for constant in reads(path):
                out.setdefault(constant, set()).add(package(name))
    return out


def one_package(by: dict, names: set) -> dict:
    """The constants of `names` read by one package, -> that package."""
    return {c: sorted(by[c]) for c in sorted(names) if len(by.get(c, ())) == 1}


def test_every_module_belongs_to_a_package():
    loose = sorted(m for m in modules() if package(m) is None)
    assert not loose, "modules of no package (place them in PACKAGES): " + str(loose)


def test_config_holds_no_constant_of_one_package():
    by = readers(modules())
    assert by["MAX_TRIALS"] >= {"core", "crusades", "cli"}  # the reader sees both ways of reading
    found = one_package(by, constants())
    assert not found, "constants of one package in config.py (move them to it): " + str(found)


def test_every_constant_of_config_is_read():
    unread = sorted(constants() - set(readers(modules())))
    assert not unread, "constants nobody reads: " + str(unread)


def test_the_check_finds_a_constant_of_one_package(tmp_path):
    """A game's, a tool's (over its modules), the web's (serve counted with it), the support
    modules' and a shared one."""
    files = {"odds.oath.campaigns.kernel": "from ...config import GAME, SHARED\n",
             "odds.tools.frames": "from .. import config\nn = config.TOOL\n",
             "odds.tools.where": "from ..config import TOOL\n",
             "odds.frontends.web.app": "from ...config import WEB\n",
             "odds.frontends.cli.serve": "from ...config import WEB\n",
             "odds.errors": "from .config import SUPPORT\n",
             "odds.files": "from .config import SUPPORT\n",
             "odds.frontends.cli.main": "from ...config import SHARED\n"}
    paths = {}
    for i, (name, text) in enumerate(files.items()):
        paths[name] = tmp_path / f"m{i}.py"
        paths[name].write_text(text)
    by = readers(paths)
    assert by == {"GAME": {"oath"}, "TOOL": {"sweep"}, "WEB": {"web"}, "SUPPORT": {"support"},
                  "SHARED": {"oath", "cli"}}
    assert one_package(by, set(by)) == {"GAME": ["oath"], "SUPPORT": ["support"],
                                        "TOOL": ["sweep"], "WEB": ["web"]}
