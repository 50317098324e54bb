"""The players' comparative and inverse questions, for every registered procedure.

compare.py: several plans (keyword changes) against a base, one table (`odds.compare`);
need.py: the value of one integer parameter that reaches a target probability (`odds.need`);
plans.py: the words both take (`KEY=VALUE` plans, `NAME[=LOW..HIGH]` to vary), parsed as the
HTTP API parses a query; cli.py: the `--compare`, `--need`, `--vary`, `--event` flags.
compare and need are imported when first used (pandas is slow to import).
"""
from importlib import import_module

__all__ = ["compare", "need"]


def __getattr__(name: str):
    if name in __all__:
        return getattr(import_module(f"{__name__}.{name}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
