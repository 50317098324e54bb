"""The words of a question: a plan (`KEY=VALUE` words) and the parameter to vary.

A key is a keyword (`attacker_cards`) or its flag (`attacker-card`); a value is parsed by the
Param's kind exactly as the HTTP API parses a query (`odds.texts.value`: lists comma-separated,
an empty value an empty list). A plan's value replaces the base's. What to vary is an integer
keyword (`attacker`, `attacker_leader` as a rating, `attacker_hit_on`), or one entry of a
`KEY=N` list (`dice_per.galley`, `hit_on.race_built`), with an optional range `=LOW..HIGH`
inside the Param's. A procedure whose `overrides` list takes dotted keys of its own (a
crusades scenario's `units.knights.attack`, `attacker.army.knights`) takes them without the
`overrides.` in front.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import OddsError, shown
from ...registry import Param, Spec
from ...texts import value, whole

INTEGER = ("int", "leader")  # kinds whose value is a whole number (a leader as its rating)
ENTRIES = "overrides"  # a KEY=VALUE list whose keys are dotted paths (a crusades scenario's)
QUESTION_MAX_PLANS = 12  # plans compared in one table, alternatives of one sensitivity (each is one call)


def split_engine(base: dict | None, engine: dict) -> tuple[dict, dict]:
    """(the procedure's keywords, the engine options): an engine option given among the
    keywords (`odds.need(..., {"seed": 1})`) is taken as one; given both ways, refused."""
    from ...registry import ENGINE

    base, engine = dict(base or {}), dict(engine)
    for key in [k for k in base if k in ENGINE]:
        if key in engine:
            raise OddsError(f"{key}: given twice, among the keywords and as an engine option "
                            "(allowed: one of them)")
        engine[key] = base.pop(key)
    return base, engine


def param_of(spec: Spec, key: str) -> Param:
    """The Param a key names: the keyword, dashes for underscores, or its flag."""
    for p in spec.params:
        if key in (p.name, p.name.replace("_", "-"), p.flag):
            return p
    return spec.param(key)  # raises, listing the keywords


def plan(spec: Spec, words) -> dict:
    """Keywords from `KEY=VALUE` words (a string is split at spaces); `KEY.ENTRY=N` changes one
    entry of a KEY=N list (see `applied`)."""

    words = words.split() if isinstance(words, str) else list(words)
    if not words:
        raise OddsError("plan: empty (allowed: KEY=VALUE words, e.g. attacker=8)")
    out = {}
    for word in words:
        key, sep, text = word.partition("=")
        if not sep:
            raise OddsError(f"{word!r} is not KEY=VALUE (e.g. attacker=8)")
        if "." in key:  # one entry of a KEY=N list, as --vary names it: dice_per.galley=1
            n = whole(f"plan: {key.strip()}", text.strip())
            v = vary(spec, f"{key.strip()}={n}..{n}", "plan")
            name, given = v.key, v.low
        else:
            p = param_of(spec, key.strip())
            name, given = p.name, value(p.name, p.kind, [text.strip()])
        if name in out:
            raise OddsError(f"{name}: given twice in one plan")
        out[name] = given
    return out


def applied(base: dict, changes: dict) -> dict:
    """`base` with a plan's changes: a keyword replaces the base's, an entry (`dice_per.galley`)
    replaces only that entry of the base's list."""
    out = dict(base)
    for key, given in changes.items():
        name, dot, entry = key.partition(".")
        out = Vary(name, entry, given, given).assign(out, given) if dot else {**out, key: given}
    return out


@dataclass(frozen=True)
class Vary:
    """An integer to vary: keyword `name` (or entry `entry` of its KEY=N list) from low to high."""

    name: str
    entry: str | None
    low: int
    high: int

    @property
    def key(self) -> str:
        """The keyword, or KEYWORD.ENTRY (`dice_per.galley`): as plans and `applied` take it."""
        return f"{self.name}.{self.entry}" if self.entry else self.name

    @property
    def label(self) -> str:
        """As the answer says it: the key (a scenario's dotted key without `overrides.`)."""
        return self.entry if self.name == ENTRIES and self.entry else self.key

    def values(self) -> range:
        return range(self.low, self.high + 1)

    def assign(self, kwargs: dict, value: int) -> dict:
        """A copy of `kwargs` with this parameter set to `value`."""
        if self.entry is None:
            return {**kwargs, self.name: value}
        given = kwargs.get(self.name) or []
        if isinstance(given, dict):
            return {**kwargs, self.name: {**given, self.entry: value}}
        given = [given] if isinstance(given, str) else list(given)
        kept = [g for g in given if str(g).partition("=")[0].strip() != self.entry]
        return {**kwargs, self.name: [*kept, f"{self.entry}={value}"]}


def vary(spec: Spec, text: str, field: str = "vary") -> Vary:
    """`NAME`, `NAME=LOW..HIGH`, `KEYWORD.ENTRY=LOW..HIGH` -> Vary, refusing what is no integer;
    errors name `field` (the CLI passes --vary)."""
    what, sep, given = text.partition("=")
    key, dot, entry = what.strip().partition(".")
    try:
        p = param_of(spec, key)
    except OddsError as e:
        p = _entries(spec) if dot else None
        if p is None:
            raise OddsError(f"{field}: {e}") from None
        entry = what.strip()  # a scenario's dotted key: an entry of its overrides
    if dot and p.kind != "pairs":
        raise OddsError(f"{field}: {what!r}: {p.name} has no entries (only a KEY=N list has, "
                        f"e.g. dice_per.galley)")
    if not dot and p.kind == "pairs":
        raise OddsError(f"{field}: {p.name} is a KEY=N list: vary one entry (e.g. {p.name}.KEY=0..6)")
    if not dot and p.kind not in INTEGER:
        raise OddsError(f"{field}: {p.name} is not an integer parameter (its kind: {p.kind})")
    low, high = (p.low, p.high) if p.kind in INTEGER else (None, None)
    if sep:
        low, high = span(f"{field}: {what.strip()}", given, low, high)
    elif low is None or high is None:
        raise OddsError(f"{field}: {what}: give a range (e.g. {what}=0..6): an entry of "
                        f"{p.name} has no range of its own")
    return Vary(p.name, entry if dot else None, int(low), int(high))


def _entries(spec: Spec) -> Param | None:
    """The procedure's KEY=VALUE list of dotted keys (ENTRIES), or None."""
    return next((p for p in spec.params if p.name == ENTRIES and p.kind == "pairs"), None)


def is_range(text: str) -> bool:
    """Whether `text` is given as a range (it has `..`): `span` then reads it or refuses it."""
    return ".." in text


def span(field: str, text: str, low=None, high=None, most: int | None = None) -> tuple[int, int]:
    """LOW..HIGH as whole numbers (texts.whole: not -0, at most texts.DIGITS digits), LOW <=
    HIGH, within [low, high] (where given) and of at most `most` values; else one line naming
    `field` (--vary and odds chart share it)."""
    first, dots, last = text.strip().partition("..")
    if not dots or not first.strip() or not last.strip():
        raise OddsError(f"{field}: {shown(text)} is not a range (allowed: LOW..HIGH, whole "
                        "numbers, LOW <= HIGH)")
    start, stop = whole(f"{field}: {text.strip()}", first.strip()), whole(f"{field}: {text.strip()}", last.strip())
    if start > stop:
        raise OddsError(f"{field}: {shown(text)} is not a range (allowed: LOW..HIGH, whole "
                        "numbers, LOW <= HIGH)")
    if (low is not None and start < low) or (high is not None and stop > high):
        allowed = f"at least {low:g}" if high is None else f"{low:g} to {high:g}" if low is not None else f"at most {high:g}"
        raise OddsError(f"{field}: {text} is out of range (allowed: {allowed})")
    if most is not None and stop - start + 1 > most:
        raise OddsError(f"{field}: {text} has {stop - start + 1} values (allowed: at most {most})")
    return start, stop
