"""Public names imported on first use (PEP 562), so importing a package costs nothing until
one of its names is used: `odds.his.assault` imports only the assault's modules."""
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
