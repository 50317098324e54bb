"""Public names imported on first use (PEP 562), so importing a package costs nothing until
one of its names is used: `odds.his.assault` imports only the assault's modules; and the
subpackages that declare what they add (the games, a game's concepts), found by pkgutil; and
the modules' former names (Renamed)."""
import importlib.abc
import importlib.machinery
import pkgutil
from importlib import import_module


def exports(package: str, where: dict):
    """`__getattr__` and `__dir__` for `package` (its __name__), whose public names are
    attributes of its submodules: `where` maps a name to its module, relative to the package
    (`module:attribute` where the attribute has another name there)."""
    namespace = vars(import_module(package))

    def __getattr__(name: str):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where[name].partition(":")
        value = getattr(import_module(f"{package}.{module}"), attribute or name)
        namespace[name] = value
        return value

    def __dir__():
        return sorted({*namespace, *where})

    return __getattr__, __dir__


def declaring(package: str, attribute: str) -> list:
    """The subpackages of `package` (its __name__) whose `__init__` declares `attribute`, in
    their ORDER. Each is imported: such an `__init__` only declares, so this costs little."""
    found = [import_module(f"{package}.{m.name}")
             for m in pkgutil.iter_modules(import_module(package).__path__) if m.ispkg]
    return sorted((sub for sub in found if hasattr(sub, attribute)), key=lambda sub: sub.ORDER)


class Renamed(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """A module's former name (`odds.sweep`, `odds.records.report`) imported as the module it
    names now (`odds.tools.sweep`, `odds.tools.luck.report`): the same object, so code written
    against the former layout keeps working. `moved` maps a former module or package to its
    place now; a package's submodules follow it."""

    def __init__(self, moved: dict):
        self.moved = moved
        self.longest = sorted(moved, key=len, reverse=True)  # a moved module before its package
        self.root = tuple({old.partition(".")[0] + "." for old in moved})  # asked of every import
        self.specs = {}  # former name -> the module's own spec, put back once imported

    def now(self, name: str) -> str | None:
        """Where the module formerly called `name` is now, or None if it did not move."""
        if not name.startswith(self.root):
            return None
        for old in self.longest:
            if name == old or name.startswith(old + "."):
                return self.moved[old] + name[len(old):]
        return None

    def find_spec(self, name, path=None, target=None):
        return importlib.machinery.ModuleSpec(name, self) if self.now(name) else None

    def create_module(self, spec):
        module = import_module(self.now(spec.name))
        self.specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.specs.pop(module.__spec__.name)  # the import set the former's
