"""odds/config.py holds only what is shared: a constant read by one game only lives in that game
(docs/architecture.md: a procedure's bounds live in its module).

Read from the source (ast): a module reads a constant of config by `from ...config import NAME`
or, after `from .. import config`, by `config.NAME`.
"""
import ast
from pathlib import Path

import odds
from test_layers import modules

ROOT = Path(odds.__file__).parent
GAMES = ("odds.his", "odds.oath", "odds.crusades")


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


def area(module: str) -> str:
    """The game a module belongs to (its package, or a front end of that game alone such as
    odds.frontends.cli.crusades), or 'shared'."""
    return next((g for g in GAMES if module.startswith(g)
                 or module == "odds.frontends.cli." + g.split(".")[1]), "shared")


def readers(mods: dict) -> dict:
    """Constant -> the areas (games, 'shared') of the modules that read it."""
    out = {}
    for name, path in mods.items():
        if name != "odds.config":
            for constant in reads(path):
                out.setdefault(constant, set()).add(area(name))
    return out


def one_game(by: dict, names: set) -> dict:
    return {c: sorted(by.get(c, ())) for c in sorted(names)
            if len(by.get(c, ())) == 1 and by[c] != {"shared"}}


def test_config_holds_no_constant_of_one_game():
    by = readers(modules())
    assert by["MAX_TRIALS"] >= {"shared", "odds.crusades"}  # the reader sees both ways of reading
    found = one_game(by, constants())
    assert not found, "constants of one game in config.py (move them to that game): " + str(found)


def test_every_constant_of_config_is_read():
    unread = sorted(constants() - set(readers(modules())))
    assert not unread, "constants nobody reads: " + str(unread)


def test_the_check_finds_a_constant_of_one_game(tmp_path):
    game = tmp_path / "kernel.py"
    game.write_text("from ...config import MAX_X, SHARED\nfrom .. import config\nn = config.MAX_Y\n")
    front = tmp_path / "web.py"
    front.write_text("from .config import SHARED\n")
    by = readers({"odds.oath.campaigns.kernel": game, "odds.frontends.web": front, "odds.frontends.cli.crusades": front})
    assert by == {"MAX_X": {"odds.oath"}, "MAX_Y": {"odds.oath"},
                  "SHARED": {"odds.oath", "shared", "odds.crusades"}}
    assert one_game(by, {"MAX_X", "MAX_Y", "SHARED"}) == {"MAX_X": ["odds.oath"],
                                                          "MAX_Y": ["odds.oath"]}
