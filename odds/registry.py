"""The procedure registry: one spec per procedure, registered where the procedure is defined.

A `Spec` names a procedure (`his.field`), its public function, and its parameters as `Param`
records (kind, range, choices, help; defaults come from the function's signature, so they are
written once). The command line, the calculator, sweeps, `odds demo`, the HTTP API and the
generic tests are generated from `specs()`; none of them lists procedures by hand.
"""
from __future__ import annotations

import functools
import inspect
import sys
from importlib import import_module
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Callable

from .config import DEFAULT_MAX_TRIALS, METHODS
from .core import readings as R
from .core.outcomes import PLAIN, Words
from .errors import OddsError, check_nesting, nearest, shown
from .i18n import N_, _
from .lazy import declaring

REQUIRED = inspect.Parameter.empty
KINDS = ("int", "float", "bool", "choice", "text", "cards", "ints", "pairs", "leader", "scenario")


@cache
def _keywords(function) -> dict:
    """The function's parameters by name (inspect.signature, once per function)."""
    return dict(inspect.signature(function).parameters)


@dataclass(frozen=True)
class Param:
    """One keyword of a procedure.

    kind: int (a count in [low, high]), float (in [low, high]), bool, choice (one of
    `choices`), text, cards (card names, `name[:policy]`), ints (a list of whole numbers),
    pairs (`KEY=N` strings), leader (a rating in [low, high] or one of the named leaders in
    `choices`), scenario (a TOML file's path, or a table; the web takes the name of one of the
    built-in files in `folder`, or the request's body, never a path; `policies`, for cards,
    the policies a card takes here where they differ from its own: the held Siege Artillery's
    timings, read by the page). `flag` is the command-line spelling when it is not `--name`
    (e.g. `attacker-card`, repeated, for `attacker_cards`); `cli` adds argparse keywords.
    """

    name: str
    kind: str
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    flag: str | None = None
    metavar: str | None = None
    cli: dict = field(default_factory=dict)
    folder: object = None  # scenario: the folder of the built-in scenario files (a Path)
    policies: dict = field(default_factory=dict)  # cards: card -> the policies (timings) this
    # keyword takes for it where they differ from the card's own (a held Siege Artillery's)
    clears: tuple = ()  # keywords that cannot be given with this one: setting it puts them
    # back to their defaults on the page (Oath's defense dice and its targets)
    needs: tuple = ()  # keywords one of which must be given (true, non-empty) for this one to
    # mean anything: given other than its default without them, it is refused (Andrea Doria's
    # dice without the card)
    only_with: dict = field(default_factory=dict)  # a choice (a card, a leader) -> the ways it
    # may be chosen, each {keyword: [the values it allows]}: Janissaries only with the side's
    # power Ottoman, a naval leader only with naval; the page disables it otherwise, saying why

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Param {self.name}: kind {self.kind!r} (allowed: {', '.join(KINDS)})")

    @property
    def option(self) -> str:
        """The command line's word for this keyword: `flag`, else the name with dashes (the
        flag without its `--`; a chart's axis says it)."""
        return self.flag or self.name.replace("_", "-")

    def allowed(self) -> str:
        """The allowed values as the --help and the docstrings say them: ' (1 to 200)', ' (0 to
        6, or one of: ...)' or nothing (a choice's are said with its default by each)."""
        if self.kind == "leader":
            return _(" ({low} to {high}, or one of: {choices})").format(
                low=f"{self.low:g}", high=f"{self.high:g}", choices=", ".join(self.choices))
        if self.kind in ("int", "float") and self.low is not None and self.high is not None:
            return " (" + _("{low} to {high}").format(low=f"{self.low:g}", high=f"{self.high:g}") + ")"
        return ""

    def describe(self, default) -> dict:
        """Plain-data description (for GET /api/procedures and the docs)."""
        out = {"name": self.name, "kind": self.kind, "help": self.help,
               "required": default is REQUIRED}
        if default is not REQUIRED:
            out["default"] = list(default) if isinstance(default, tuple) else default
        for key in ("low", "high"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.choices or self.kind == "cards":  # a side with no card to pick here: none
            out["choices"] = list(self.choices)
        if self.policies:
            out["policies"] = {card: list(p) for card, p in self.policies.items()}
        if self.clears:
            out["clears"] = list(self.clears)
        if self.needs:
            out["needs"] = list(self.needs)
        if self.only_with:
            out["only_with"] = {choice: [{k: list(v) for k, v in way.items()} for way in ways]
                                for choice, ways in self.only_with.items()}
        if self.kind == "pairs" and self.metavar:
            out["format"] = self.metavar  # an item's form (the page's rows of targets)
        return out


@dataclass(frozen=True)
class Example:
    """A named scenario of a procedure: its keywords, and whether `odds demo` shows it."""

    name: str
    kwargs: dict
    title: str = ""
    demo: bool = False
    mc: dict = field(default_factory=dict)  # engine keywords for the demo (e.g. method="mc")


@dataclass(frozen=True)
class Spec:
    """A procedure: name, public function, parameters, kernels, results, examples.

    `command` is the CLI path (("his", "field") -> `odds his field`), `preset` keywords fixed
    by the name (the naval ruleset), `omit` keywords that do not apply to it (squadrons in
    Virgin Queen), `main` the main probability, `table` a vectorised exact
    function over many cells (or None), `start` the calculator's starting values.
    """

    name: str
    function: Callable
    params: tuple
    help: str
    command: tuple
    main: str
    kernels: tuple = ()
    exact: bool = True
    preset: dict = field(default_factory=dict)
    omit: tuple = ()  # keywords of the function this procedure leaves at their defaults
    examples: tuple = ()
    start: dict = field(default_factory=dict)
    table: str | None = None  # 'module:function' of a vectorised exact engine (sets up, so
    # validates, every cell before computing any; None when some cell is not for it)
    warm: Callable | None = None  # compiles the kernel modes the examples do not (odds warmup)
    words: Words = PLAIN  # what its events mean, as its Procedure has them (the page's headline)
    web_max_trials: int | None = None  # Monte Carlo trials one web request may run (None: the
    # server's WEB_MAX_TRIALS; less where a trial is slow, as a crusades battle)
    readings: tuple = ()  # core.readings.Reading: the choices it makes where the rules are
    # silent, declared beside its rules; every answer marks and flips those it rests on
    means: tuple = ()  # the pmfs whose means a reading's flips show (default: the losses, else
    # the first two pmfs with a mean)
    rolled: str | None = None  # 'module:function' reading a roll of it from a game's record:
    # read(keywords, record) -> core.rolled.Outcome, declared in the procedure's folder
    not_rolled: str = ""  # why a record's dice of this procedure are not read (when not `rolled`)

    def call(self, **kwargs):
        """The public function with this procedure's preset keywords. Every caller (command
        line, Python, sweeps, the web) comes through here, so a keyword that is unknown,
        missing or nested too deep is the same one-line OddsError for all of them."""
        for key, value in self.check_given(kwargs).items():
            check_nesting(key, value)
        return self.function(**self.preset, **kwargs)

    def defaults(self) -> dict:
        """Parameter name -> default (REQUIRED when the caller must give it)."""
        signature = _keywords(self.function)
        return {p.name: signature[p.name].default for p in self.params}

    def takes(self, keyword: str) -> bool:
        """True if the function has the keyword (an engine option, say)."""
        return keyword in _keywords(self.function)

    def check_given(self, kwargs: dict) -> dict:
        """`kwargs` if it names only this procedure's keywords, every required one, and no
        keyword other than its default without one of the keywords it `needs`."""
        names = {p.name for p in self.params}
        for key in kwargs:
            if key not in names and not (key in ENGINE and self.takes(key)):
                raise OddsError(_("{key}: not a parameter of {name}{nearest} (allowed: {allowed})").format(
                    key=key, name=self.name, nearest=nearest(key, names), allowed=", ".join(sorted(names))))
        for name, default in self.defaults().items():
            if default is REQUIRED and name not in kwargs:
                raise OddsError(_("{field}: missing (required by {name})").format(field=name, name=self.name))
        defaults = self.defaults()
        for p in self.params:
            if p.needs and _plain(kwargs.get(p.name, defaults[p.name])) != _plain(defaults[p.name]) \
                    and not any(_set(kwargs.get(n)) for n in p.needs):
                raise OddsError(_("{name}: {value} changes nothing without {needs} (allowed: give "
                                  "{needs} too, or leave {name} out)").format(
                    name=p.name, value=shown(kwargs[p.name]), needs=_(" or ").join(p.needs)))
        return kwargs

    def check(self, kwargs: dict) -> None:
        """Raise the OddsError that calling the procedure with `kwargs` would, without its
        engine work: a procedure validates its keywords and prepares its engines' input before
        core.engine checks `method`, so a method no engine knows (CHECK_ONLY) ends the call
        there (tests/test_hostile_small.py holds every procedure to this). `trials` is 1, so a
        procedure that picks Monte Carlo before that check runs one trial, not a million."""
        self.check_given(kwargs)
        try:
            self.call(**{**kwargs, "method": CHECK_ONLY, "trials": 1, "progress": False})
        except OddsError as e:
            if not str(e).startswith(f"method: {CHECK_ONLY!r}"):
                raise

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        names = [p.name for p in self.params]
        raise OddsError(f"{name}: not a parameter of {self.name}{nearest(name, names)} "
                        f"(allowed: {', '.join(names)})")

    def reader(self) -> Callable | None:
        """The function reading a roll of this procedure from a record (`rolled`), or None."""
        if self.rolled is None:
            return None
        module, _, function = self.rolled.partition(":")
        return getattr(import_module(module), function)

    def example(self, name: str) -> Example:
        return next(e for e in self.examples if e.name == name)

    @property
    def title(self) -> str:
        """The procedure's name in words: its help up to the first bracket or colon ("Diet of
        Worms"), short enough for a phone's picker and a table's cell."""
        return self.help.split(" (")[0].split(":")[0]

    def describe(self) -> dict:
        defaults = self.defaults()
        return {"name": self.name, "title": self.title, "help": self.help, "main": self.main, "exact": self.exact,
                "headline": self.words.title(self.main),
                "command": " ".join(self.command),
                "parameters": [p.describe(defaults[p.name]) for p in self.params],
                "readings": [r.describe() for r in self.readings],
                "examples": {e.name: e.kwargs for e in self.examples}}

    def raw(self) -> Callable:
        """The procedure's function without its readings' answer around it (core.readings)."""
        return _RAW.get(self.function, self.function)


def _plain(value):
    """A list as a tuple, so that the command line's [] is the signature's ()."""
    return tuple(value) if isinstance(value, list) else value


def _set(value) -> bool:
    """A keyword counts as given when it is true, a number or a non-empty list."""
    return value is not None and value is not False and value != () and value != []


# the engine options of every procedure function that has them, defined once for the command
# line (cli_common), the web API and sweeps; `cli` holds the command line's default
ENGINE_OPTIONS = (
    Param("method", "choice", N_("auto (exact when available), exact or mc"), choices=METHODS,
          cli={"default": "auto"}),
    Param("trials", "int", N_("Monte Carlo trials (default 1,000,000)"), low=1),
    Param("seed", "int", N_("Monte Carlo seed (default 0)"), low=0),
    Param("precision", "float", N_("Monte Carlo: run until the 95% half-width of the main "
          "probability is below this")),
    Param("max_trials", "int", N_("bound for --precision"), low=1, cli={"default": DEFAULT_MAX_TRIALS}),
    Param("threads", "int", N_("threads for Monte Carlo (default: all cores)"), low=1),
    Param("progress", "bool", N_("a progress bar on a terminal (default: when the run is long)")),
)
ENGINE = tuple(p.name for p in ENGINE_OPTIONS)
CHECK_ONLY = "check-only"  # a method no engine knows: Spec.check
_SPECS: dict[str, Spec] = {}


def register(spec: Spec) -> Spec:
    """Add `spec`; its parameters must be exactly the function's keywords that are not
    engine options, preset or omitted, and its readings' keywords among them. A procedure
    with readings is answered through core.readings.answer: its module's function is replaced
    by one that marks and flips them (the same signature and docstring), and each Param a
    reading sets says so in its help."""
    keywords = [k for k in inspect.signature(spec.function).parameters
                if k not in ENGINE and k not in spec.preset and k not in spec.omit]
    names = [p.name for p in spec.params]
    if sorted(keywords) != sorted(names):
        raise ValueError(f"{spec.name}: params {names} do not match the keywords {keywords}")
    for r in spec.readings:
        if any(k not in names for k in r.sets()):
            raise ValueError(f"{spec.name}: reading {r.name} sets {r.sets()}, not all keywords")
    spec = _answered(replace(spec, params=tuple(_noted(p, spec.readings) for p in spec.params)))
    _SPECS[spec.name] = spec
    _document(spec.function)
    return spec


_WRAPPERS: dict = {}  # a procedure's function -> the function that answers it with its readings
_RAW: dict = {}  # and back


def _answered(spec: Spec) -> Spec:
    """`spec` with its function answering through core.readings.answer when it (or another
    spec of the same function) has readings; the module's name for the function is rebound,
    so `odds.his.piracy(...)` answers alike."""
    raw = _RAW.get(spec.function, spec.function)
    if raw not in _WRAPPERS and spec.readings:
        @functools.wraps(raw)
        def procedure(*args, **kwargs):
            return R.answer(_spec_of(raw, args, kwargs), raw, args, kwargs)

        _WRAPPERS[raw], _RAW[procedure] = procedure, raw
        module = sys.modules[raw.__module__]
        if getattr(module, raw.__name__, None) is raw:
            setattr(module, raw.__name__, procedure)
        for name, other in list(_SPECS.items()):
            if other.function is raw:
                _SPECS[name] = replace(other, function=procedure)
    return replace(spec, function=_WRAPPERS.get(raw, raw))


def _spec_of(raw, args, kwargs) -> Spec | None:
    """The spec a call of `raw` answers: the one registered for it, or, where several share
    it (naval: vq and his), the one whose preset keywords the call has."""
    mine = [s for s in _SPECS.values() if _RAW.get(s.function, s.function) is raw]
    if len(mine) <= 1:
        return mine[0] if mine else None
    values = {k: p.default for k, p in _keywords(raw).items()}
    values.update(inspect.signature(raw).bind_partial(*args, **kwargs).arguments)
    return next((s for s in mine if all(values.get(k) == v for k, v in s.preset.items())), None)


def _noted(p: Param, readings: tuple) -> Param:
    """The Param, its help saying the reading it is (the value assumed, the alternatives)."""
    for r in readings:
        if p.name in r.sets():
            return replace(p, help=f"{p.help} (a reading: {R.text(r.value)} assumed; "
                                   f"{'range' if r.low is not None else 'also tried'}: "
                                   f"{r.choices()}; docs/rules.md)")
    return p


def readings_table() -> str:
    """docs/rules.md's table of every declared reading, from the registry."""
    rows = ["| setting | procedure | the tool's value | also tried | where it comes from |",
            "|---|---|---|---|---|"]
    for spec in specs().values():
        for r in spec.readings:
            tried = r.choices() if r.tried or r.alternatives or r.low is not None else ""
            rows.append(f"| {', '.join(f'`{m}`' for m in r.marked())} ({r.what}) | `{spec.name}` "
                        f"| {R.text(r.value)} | {tried or r.none or 'none'} | {r.source} |")
    return "\n".join(rows)


_DOCS: dict = {}  # function -> its docstring as written


def _document(function) -> None:
    """Add numpydoc `Parameters` and `Returns` sections to a procedure function's docstring,
    from every spec registered for it: each keyword's Param help and allowed values (the
    words of its --help), the keywords a spec presets, and the engine options."""
    written = _DOCS.setdefault(function, inspect.cleandoc(function.__doc__ or ""))
    if "\nParameters\n---" in written:
        return
    specs = [s for s in _SPECS.values() if s.function is function]
    said = {}  # keyword -> its words -> the procedures that say them (naval's differ by ruleset)
    for s in specs:
        for p in (*s.params, *ENGINE_OPTIONS):
            choices = f" ({', '.join(p.choices)})" if p.kind == "choice" else ""
            said.setdefault(p.name, {}).setdefault((p.kind, p.help + p.allowed() + choices), []).append(s.name)
    lines = ["", "Parameters", "----------"]
    for name, keyword in inspect.signature(function).parameters.items():
        default = "" if keyword.default is REQUIRED else f", default {keyword.default!r}"
        if name in said:
            words = said[name]
            lines.append(f"{name} : {next(iter(words))[0]}{default}")
            lines += [f"    {text}" if len(words) == 1 else f"    {', '.join(by)}: {text}"
                      for (_, text), by in words.items()]
        elif keyword.kind == keyword.KEYWORD_ONLY or keyword.kind == keyword.POSITIONAL_OR_KEYWORD:
            set_by = ", ".join(f"{s.name}: {s.preset[name]!r}" for s in specs if name in s.preset)
            lines += [f"{name}{default}", f"    set by the procedure ({set_by})" if set_by else
                      "    left at its default by the procedures"]
    events = " / ".join(dict.fromkeys(s.main for s in specs))
    lines += ["", "Returns", "-------", "Result",
              f"    probabilities and pmfs of the outcome (main event: {events}), exact or Monte Carlo"]
    function.__doc__ = written + "\n" + "\n".join(lines) + "\n"


@cache
def games() -> dict:
    """Game word -> its package (imported), in listing order: the packages of odds that declare
    `TITLES` (first word of its procedures' names -> the game's name) and `ORDER`. A package's
    `__init__` imports nothing heavy, so finding them costs a few milliseconds."""
    return {word: package for package in declaring(__package__, "TITLES")
            for word in package.TITLES}


def titles() -> dict:
    """Game word -> the game's name ("his" -> "Here I Stand"), in listing order."""
    return {word: package.TITLES[word] for word, package in games().items()}


def page() -> dict:
    """What the games add to the web page's catalogue: the merged dicts of each game package's
    `PAGE` function (`module:function`, relative to the package), where it has one."""
    out = {}
    for package in dict.fromkeys(games().values()):
        if hasattr(package, "PAGE"):
            module, _, function = package.PAGE.partition(":")
            out.update(getattr(import_module(f"{package.__name__}.{module}"), function)())
    return out


def services() -> dict:
    """What the games answer beyond their procedures (the web's ``POST /api/NAME``, a file as
    the body): name -> 'module:function' relative to the game package, from each game
    package's `SERVICES`."""
    return {name: (package, target) for package in dict.fromkeys(games().values())
            for name, target in getattr(package, "SERVICES", {}).items()}


def service(name: str) -> Callable:
    """Service `name`'s function: function(text, query items) -> a JSON-able dict."""
    found = services().get(name)
    if found is None:
        raise OddsError(f"{name}: not a service (allowed: {', '.join(services())})")
    package, target = found
    module, _, function = target.partition(":")
    return getattr(import_module(f"{package.__name__}.{module}"), function)


def _package(word: str):
    """The game package a procedure name's first word names, or None."""
    return games().get(word)


def _modules(package, names) -> None:
    """Import the modules that register `names` in a game package (its `PROCEDURES`: name ->
    module)."""
    for module in dict.fromkeys(package.PROCEDURES[n] for n in names if n in package.PROCEDURES):
        import_module(f"{package.__name__}.{module}")


def _order(spec: Spec) -> tuple:
    """Games in their ORDER, then each game's procedures in its `PROCEDURES` order."""
    package = games()[spec.name.split(".")[0]]
    listed = list(package.PROCEDURES)
    return package.ORDER, listed.index(spec.name) if spec.name in listed else len(listed)


def specs(game: str | None = None) -> dict[str, Spec]:
    """Every registered procedure by name, in listing order (`_order`); `game` (the first word
    of a name: his, vq, oath, crusades) imports only that game's procedures and lists only
    those named for it, so a command for one game does not pay for importing the others."""
    for word in games() if game is None else (game,):
        package = _package(word)
        if package is not None:
            _modules(package, package.PROCEDURES)
    chosen = [s for s in _SPECS.values() if game is None or s.name.split(".")[0] == game]
    return {s.name: s for s in sorted(chosen, key=_order)}


def get(name: str) -> Spec:
    """The spec of procedure `name` (importing only the module that registers it), or an
    OddsError listing the known names."""
    named = isinstance(name, str)  # a TOML file may hold anything
    if named and name not in _SPECS:
        package = _package(name.split(".")[0])
        if package is not None:
            _modules(package, [name])
    if not named or name not in _SPECS:
        raise OddsError(f"procedure: {shown(name)} is unknown{nearest(name, list(specs()))} "
                        f"(allowed: {', '.join(specs())})")
    return _SPECS[name]
