"""odds: exact and Monte Carlo odds for board-game combat.

`odds.his`, `odds.oath`, `odds.crusades`: the games' procedures; `odds.compare(...)`: plans
side by side, `odds.need(...)`: the value that reaches a target, `odds.sensitivity(...)`: the
answer under each reading's alternatives (odds.tools.questions); `odds.sweep.sweep(...)`: grids
of them (`odds.sweep.load(path)` runs a TOML spec); `odds.plot`: pictures; `odds.luck(record)`:
how lucky each side of a game's record was (odds.tools.luck); `odds.registry`: every
procedure's description. Importing this package and answering an exact question does not
import numba; the games and tools are imported when first used (`odds.his`...), so a command
for one game does not pay for the others.

This module is the package's face, above every layer (docs/architecture.md; the contracts in
pyproject.toml): it names the public functions and modules, gives `Result` its picture (a
tool's, which core cannot import), and keeps the modules' former names importable (MOVED).
"""
import sys
from importlib import import_module

from .core.result import Result
from . import i18n
from .errors import Interrupted, OddsError, check_choice
from .lazy import Renamed

__all__ = ["Interrupted", "OddsError", "Result", "compare", "crusades", "his", "language", "luck",
           "need", "oath", "plot", "registry", "sensitivity", "set_language", "sweep"]
__version__ = "0.1.0"
_SUBMODULES = {"crusades": "crusades", "his": "his", "oath": "oath", "plot": "tools.plot",
               "registry": "registry", "sweep": "tools.sweep"}  # public name -> its module
_FUNCTIONS = {"compare": "tools.questions.compare", "need": "tools.questions.need",
              "sensitivity": "tools.questions.sensitivity", "luck": "tools.luck.report"}
# public function -> the module that defines it
MOVED = {  # a module's name before the layout of layers (0.1.0) -> its place now
    "odds.cli": "odds.frontends.cli.main", "odds.cli_common": "odds.frontends.cli.common",
    "odds.crusades_cli": "odds.frontends.cli.crusades", "odds.sweep_cli": "odds.frontends.cli.sweep",
    "odds.demo": "odds.frontends.cli.demo", "odds.warmup": "odds.frontends.cli.warmup",
    "odds.serve": "odds.frontends.cli.serve", "odds.web": "odds.frontends.web",
    "odds.calculator": "odds.frontends.calculator", "odds.questions": "odds.tools.questions",
    "odds.records": "odds.tools.luck", "odds.sweep": "odds.tools.sweep",
    "odds.differences": "odds.tools.differences", "odds.frames": "odds.tools.frames",
    "odds.where": "odds.tools.where", "odds.plot": "odds.tools.plot", "odds.chart": "odds.tools.chart",
    **{f"odds.oath.{m}": f"odds.oath.campaigns.{m}"
       for m in ("decision", "dice", "kernel", "plans", "procedure", "rolled", "rules")},
    **{f"odds.crusades.{m}": f"odds.crusades.{folder}.{m}"
       for folder, names in (("simulator", ("state", "ai", "kernel")),
                             ("battles", ("inputs", "runner", "results", "battle", "siege_turns",
                                          "narration"))) for m in names},
    "odds.crusades.balance_report": "odds.crusades.upkeep.report",
    "odds.questions.cli": "odds.frontends.cli.questions", "odds.records.cli": "odds.frontends.cli.luck",
}  # (odds.crusades.upkeep is the balance's folder now: its table, odds.crusades.upkeep.table)
sys.meta_path.insert(0, Renamed(MOVED))


def set_language(lang: str) -> None:
    """Every answer, summary, error and picture from now on in `lang`: "en" (the default) or
    "ru" (the players' Russian, each game in its own rules' words); a summary's or a plot's
    `lang=` asks for one answer in another."""
    i18n.set_language(check_choice("lang", lang, i18n.LANGUAGES))


def language() -> str:
    """The language in force ("en" or "ru")."""
    return i18n.language()


def _plot(self, ax=None, lang=None):
    """The natural picture of this result (odds.plot.plot_result), its words in `lang` (default:
    the language in force); returns the Axes."""
    from .tools.plot import plot_result

    with i18n.using(lang and check_choice("lang", lang, i18n.LANGUAGES)):
        return plot_result(self, ax=ax)


Result.plot = _plot


def __getattr__(name: str):
    if name in _SUBMODULES:
        return import_module(f"{__name__}.{_SUBMODULES[name]}")
    if name in _FUNCTIONS:
        return getattr(import_module(f"{__name__}.{_FUNCTIONS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_SUBMODULES, *_FUNCTIONS])
