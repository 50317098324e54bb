"""From a request to a procedure call and back: query text -> keywords -> Result.to_json().

Parameter names are the Python keywords. List kinds (cards, ints, pairs) take repeated or
comma-separated values (`attacker_cards=janissaries:if-needed,tercios`); a bool is
true/false (1/0, yes/no, on/off). A scenario parameter (registry kind "scenario") takes a
built-in example's name, or the request's body as TOML (not both): never a path the client
chooses. Engine options are registry.ENGINE_OPTIONS but threads and progress, which the
server sets. Every mistake is an OddsError whose one line the API returns with status 400.
"""
from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

from ...config import DEFAULT_TRIALS
from ...core.engine import memory_cap
from ...core.interval import trials_text
from ...errors import OddsError, check_choice, check_int
from ...files import parse_toml
from ...i18n import LANGUAGES, PSEUDO, N_, _, card_name, pgettext, using
from ... import i18n
from ...texts import value
from ... import registry
from ...registry import ENGINE_OPTIONS, METHODS, Spec
from .limits import STOPPING, WEB_EXACT_MEMORY, max_trials, within

SERVER_SET = ("threads", "progress")
ENGINE_LABELS = {"method": N_("method"), "trials": N_("trials"), "seed": N_("seed")}  # the form's  # engine options the server sets (see `call`)


class NoTrials(Exception):
    """A Monte Carlo answer that stopped before its first whole trial (the server is busy)."""
ENGINE = {o.name: o.kind for o in ENGINE_OPTIONS if o.name not in SERVER_SET}


def _scenarios(spec: Spec) -> list:
    return [p for p in spec.params if p.kind == "scenario"]


def examples(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.toml"))


def _scenario(name: str, text: str | None, body: bytes, folder: Path):
    """A built-in example's path by name, or the TOML body as a dict (None: neither given)."""
    if body and text is not None:
        raise OddsError(f"{name}: given both in the query and as the request body "
                        "(allowed: one of them)")
    if body:
        try:
            return parse_toml(body.decode("utf-8"), f"{name} (the request body)")
        except UnicodeDecodeError as e:
            raise OddsError(f"{name} (the request body): not UTF-8 text (byte {e.start})") from None
    if text is None:
        return None
    return str(folder / f"{check_choice(name, text, examples(folder))}.toml")


def keywords(spec: Spec, query: list[tuple[str, str]], body: bytes = b"") -> dict:
    """The keyword arguments of `spec`'s function for a request's query items and body."""
    kinds = {**{p.name: p.kind for p in spec.params},
             **{k: kind for k, kind in ENGINE.items() if spec.takes(k)}}
    texts: dict[str, list[str]] = {}
    for key, text in query:
        if key not in kinds:
            raise OddsError(f"{key}: not a parameter of {spec.name} (allowed: {', '.join(kinds)})")
        texts.setdefault(key, []).append(text)
    out = {key: value(key, kinds[key], got) for key, got in texts.items()}
    scenarios = _scenarios(spec)
    if body and not scenarios:
        raise OddsError(f"body: {spec.name} takes no request body (allowed: GET, or POST "
                        "without a body)")
    for p in scenarios:
        scenario = _scenario(p.name, out.pop(p.name, None), body, p.folder)
        if scenario is not None:
            out[p.name] = scenario
    return out


def parsed(procedure: str, query: list[tuple[str, str]], body: bytes) -> dict:
    """keywords() of a request with a body, by the procedure's name: it runs in a worker."""
    return keywords(registry.get(procedure), query, body)


def is_mc(spec: Spec, kw: dict) -> bool:
    """True when the call will run Monte Carlo (asked for, or the procedure has no exact engine)."""
    method = check_choice("method", kw.get("method", "auto"), METHODS)
    return method == "mc" or (method == "auto" and not spec.exact)


def limit(spec: Spec, kw: dict) -> dict:
    """Check the server's Monte Carlo caps. Left out, trials are the library's default (or the
    cap, if lower) and a precision target's max_trials is the cap."""
    cap = max_trials(spec)
    for key in ("trials", "max_trials"):
        if key in kw:
            check_int(key, kw[key], 1, cap)
    if "precision" in kw and spec.takes("max_trials"):
        return {"max_trials": cap, **kw}
    return {"trials": min(DEFAULT_TRIALS, cap), **kw}


def language(query: list[tuple[str, str]]) -> tuple[str, list]:
    """(the answer's language, the rest of the query): `lang=en|ru`, default English (a
    program reads the keys and codes, the same in every language; a person the sentences);
    the pseudo language qps too (the page's tests: every message wrapped), unlisted."""
    asked = [text for key, text in query if key == "lang"]
    if len(asked) > 1:
        raise OddsError(_("lang: given {n} times (allowed: once)").format(n=len(asked)))
    lang = LANGUAGES[0] if not asked else asked[0] if asked[0] == PSEUDO else check_choice(
        "lang", asked[0], LANGUAGES)
    return lang, [(key, text) for key, text in query if key != "lang"]


def call(procedure: str, kw: dict, budget: float, lang: str = LANGUAGES[0]) -> tuple[str, str]:
    """The procedure's method and Result as JSON text, Monte Carlo stopped after `budget`
    seconds (then marked partial), its sentences in `lang`. Takes a name, not a Spec: it runs
    in worker processes too.

    threads=1: a run takes one core, the other stays for exact answers; no progress bar."""
    with using(lang):
        return _call(procedure, kw, budget)


def _call(procedure: str, kw: dict, budget: float) -> tuple[str, str]:
    spec = registry.get(procedure)
    with memory_cap(WEB_EXACT_MEMORY):  # in the server's process: the cap an exact worker has
        result = within(budget, partial(spec.call, **kw, threads=1, progress=False))
    if result.method == "mc" and not result.trials:
        raise NoTrials(_("{procedure}: the server could not run a single trial within its time "
                         "budget ({budget:g} s): it is busy, try again in a few seconds").format(
            procedure=procedure, budget=budget))
    if result.partial:
        why = _("the server is stopping") if STOPPING.is_set() else _(
            "the server's time budget ({budget:g} s)").format(budget=budget)
        result = result.with_changes(notes=tuple(result.notes) + (
            _("stopped after {trials}: {why}").format(trials=trials_text(result.trials), why=why),))
    data = result.to_json()
    return data["method"], json.dumps(data)


def describe(spec: Spec) -> dict:
    """spec.describe() for a form, in the language in force (its title, helps and each field's
    label): scenario files as example names, engine keywords, start values."""
    out = spec.describe()
    out.update(title=_(out["title"]), help=_(out["help"]))
    game = spec.name.split(".")[0]
    for p in out["parameters"]:
        p.update(help=_(p["help"]) if p["help"] else p["help"], label=pgettext(game, label(p["name"])))
        if p["kind"] == "leader" and i18n.language() != LANGUAGES[0]:  # English: the page's words
            p["names"] = {c.split(" (")[0]: card_name(c.split(" (")[0]) for c in p["choices"]}
    out["start"] = dict(spec.start)
    out["examples"] = {name: dict(kw) for name, kw in out["examples"].items()}
    for scenario in _scenarios(spec):
        name = scenario.name
        for p in out["parameters"]:
            if p["name"] == name:
                p.update(kind="choice", choices=examples(scenario.folder),
                         help=p["help"] + _(" (a built-in example, or POST a TOML scenario)"))
        for values in [out["start"], *out["examples"].values()]:
            if name in values:
                values[name] = Path(str(values[name])).stem
    shown = {o.name: o for o in ENGINE_OPTIONS}
    out["engine"] = [
        {**shown["method"].describe("auto"),  # no exact engine: exact is not offered
         "choices": [m for m in shown["method"].choices if spec.exact or m != "exact"]},
        {**shown["trials"].describe(None), "high": max_trials(spec),
         "help": _("Monte Carlo trials (blank: the default)")},
        {**shown["seed"].describe(None), "help": _("Monte Carlo seed (blank: the default)")},
    ]
    out["engine"][0]["help"] = _(out["engine"][0]["help"])
    for p in out["engine"]:
        p["label"] = _(ENGINE_LABELS[p["name"]])
    return out


def label(name: str) -> str:
    """A field's label in words, its side left out: "attacker_cavalry" -> "cavalry" (a bare
    side's count: "units"); a message of its game's context (registry_messages adds them)."""
    return re.sub(r"^(attacker|defender)(_|$)", "", name).replace("_", " ") or "units"


# ---- questions (odds.tools.questions): /api/{procedure}/compare and /api/{procedure}/need ----

QUESTIONS = {"compare": ("plan",), "need": ("need", "vary", "event")}  # their own query keys


def question(spec: Spec, kind: str, query: list[tuple[str, str]]) -> tuple[dict, dict]:
    """(the procedure's keywords, the question's) from a compare or need request's query: a
    `plan` is `KEY=VALUE` words (repeated: one plan each); need takes `need` (the target),
    `vary` (NAME[=LOW..HIGH]) and `event`."""
    from ...tools.questions.plans import plan

    own = [(k, t) for k, t in query if k in QUESTIONS[kind]]
    kw = keywords(spec, [(k, t) for k, t in query if k not in QUESTIONS[kind]])
    if kind == "compare":
        files = [p.name for p in _scenarios(spec)]
        plans = {}
        for _, text in own:
            try:
                plans[text.strip()] = changes = plan(spec, text)
                named = [name for name in files if name in changes]  # a file only as the base's
                if named:
                    raise OddsError(f"{named[0]}: not changed by a plan (a scenario is the base's)")
            except OddsError as e:
                raise OddsError(f"plan {text.strip()}: {e}") from None
        return kw, {"plans": plans}
    texts: dict[str, list[str]] = {}
    for key, text in own:
        texts.setdefault(key, []).append(text)
    for key in ("need", "vary"):
        if key not in texts:
            raise OddsError(f"{key}: missing (a need question takes need=P and vary=NAME)")
    extra = {key: value(key, "float" if key == "need" else "text", got) for key, got in texts.items()}
    return kw, {"target": extra.pop("need"), **extra}


def ask(kind: str, procedure: str, kw: dict, extra: dict, budget: float,
        lang: str = LANGUAGES[0]) -> tuple[str, str]:
    """The question's method and answer as JSON text, its sentences in `lang`; all its Monte
    Carlo runs together stop after `budget` seconds (then the answer is marked partial). Runs
    in worker processes too."""
    with using(lang):
        return _ask(kind, procedure, kw, extra, budget)


def _ask(kind: str, procedure: str, kw: dict, extra: dict, budget: float) -> tuple[str, str]:
    import time

    from ...core.montecarlo import stop_when
    from ...tools.questions.compare import compare
    from ...tools.questions.need import need

    engine = {k: v for k, v in kw.items() if k in ENGINE}
    base = {k: v for k, v in kw.items() if k not in ENGINE}
    deadline = time.monotonic() + budget
    with memory_cap(WEB_EXACT_MEMORY), stop_when(
            lambda sampling: STOPPING.is_set() or time.monotonic() > deadline):
        if kind == "compare":
            out = compare(procedure, base, extra["plans"], **engine, threads=1, progress=False)
        else:
            out = need(procedure, base, **extra, names={"target": "need"}, **engine, threads=1,
                       progress=False)
    data = out.to_json()
    if data["partial"]:
        data["notes"] = [*data["notes"], f"stopped: the server's time budget ({budget:g} s)"]
    return data["method"], json.dumps(data)
