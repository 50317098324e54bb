"""Public names imported on first use (PEP 562), so importing a package costs nothing until
one of its names is used: `odds.his.assault` imports only the assault's modules; and the
subpackages that declare what they add (the games, a game's concepts), found by pkgutil."""
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
