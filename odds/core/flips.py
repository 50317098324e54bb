"""What an answer says of the readings it rests on (core.readings): the headline's range over
their alternatives, the summary's lines and the JSON's `flips` and `range`, read from
`Result.flips` (one dict per reading: what it is, the value assumed, the headline and main
means under each alternative, or why none was computed). Imported by core.result, so it
imports no Result."""
from __future__ import annotations

from ..i18n import _, ngettext, percent

WIDE = 0.05  # a headline whose range over the readings is wider than this says so
MOVES = 0.005  # a reading that moves the headline by more than this is named in its range
LISTED = 6  # a reading with more alternatives is summarised by its range in the summary


def text(value) -> str:
    """A value in words: lists as [a, b], booleans lower case, a float as short as it reads."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(text, value)) + "]" if value else _("none")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _computed(flip) -> list:
    return [a for a in flip["alternatives"] if a.get("p") is not None]


def spread(result) -> dict | None:
    """The headline's range over the alternatives computed: low, high, the value assumed, the
    readings that move it by more than MOVES (most first) and whether it is wide (over WIDE);
    None when no alternative was computed."""
    moved, ps = [], [result.p]
    for f in result.flips:
        got = [a["p"] for a in _computed(f)]
        if got:
            ps += got
            moved.append((max(abs(p - result.p) for p in got), f))
    if not moved or result.p != result.p:
        return None
    low, high = float(min(ps)), float(max(ps))
    depends = [f for effect, f in sorted(moved, key=lambda m: -m[0]) if effect > MOVES]
    return {"low": low, "high": high, "assumed": float(result.p), "wide": bool(high - low > WIDE),
            "depends_on": [f["reading"] for f in depends],
            "words": [f["what"] for f in depends], "values": [f["assumed"] for f in depends]}


def headline_range(result, within: str = "", number: str | None = None) -> str:
    """'40.1% to 54.5% depending on the cp-value (a reading: 0.5 assumed, 54.5%)' when the
    range is wide, else ''; `within` follows the answer's number (its interval), `number`
    stands for it (default: the answer's percentage)."""
    s = spread(result)
    if not s or not s["wide"] or not s["words"]:
        return ""
    named, values = [_(w) for w in s["words"]], [_words(v) for v in s["values"]]
    what = named[0] if len(named) == 1 else ", ".join(named[:-1]) + _(" and ") + named[-1]
    assumed = values[0] if len(values) == 1 else ", ".join(values[:-1]) + _(" and ") + values[-1]
    return _("{low} to {high} depending on {what} ({readings}: {assumed} assumed, {p})").format(
        low=percent(s["low"], 1), high=percent(s["high"], 1), what=what, assumed=assumed,
        readings=ngettext("a reading", "readings", len(named)),
        p=(percent(result.p, 1) if number is None else number) + within)


def lines(result) -> list:
    """The summary's lines on the readings: per reading, the value assumed and the headline
    under each alternative (many of them: their range); readings not flipped for one reason
    are said together."""
    if not result.flips:
        return []
    out = ["  " + _("readings (the rules leave these open; the tool's values, docs/rules.md):")]
    skipped = {}
    for f in result.flips:
        done = _computed(f)
        if not done:
            skipped.setdefault(f.get("not_computed", ""), []).append(f"{f['reading']}={_words(f['assumed'])}")
            continue
        out.append("    " + _("{what}, {reading}={value} assumed ({p}): ").format(
            what=_(f["what"]), reading=f["reading"], value=_words(f["assumed"]), p=_pct(f["p"]))
            + _alternatives_text(done))
        if f.get("not_computed"):
            out.append("      " + _("not computed for the others: {why}").format(why=f["not_computed"]))
    for why, names in skipped.items():
        out.append("    " + _("{names}: not flipped ({why})").format(names=", ".join(names), why=why))
    return out


def _words(value) -> str:
    """A reading's value: in words (a sentence through the catalog), or its code."""
    return _(value) if isinstance(value, str) and " " in value else str(value)


def _pct(p) -> str:
    return "-" if p is None else percent(p, 2)


def _alternatives_text(done: list) -> str:
    if len(done) > LISTED:
        low = min(done, key=lambda a: a["p"])
        high = max(done, key=lambda a: a["p"])
        return _("from {low} (at {low_value}) to {high} (at {high_value}) over {n} values tried "
                 "(odds sensitivity lists each)").format(
            low=percent(low["p"], 2), low_value=low["value"], high=percent(high["p"], 2),
            high_value=high["value"], n=len(done))
    return ", ".join(f"{a['value']}: {percent(a['p'], 2)}" + _interval_text(a)
                     + (_(" (stopped early)") if a.get("partial") else "") for a in done)


def _interval_text(a: dict) -> str:
    interval = a.get("interval")
    if interval and None not in interval:
        return f" [{percent(interval[0], 1)}, {percent(interval[1], 1)}]"
    return ""


def json_of(result) -> dict:
    """The JSON's `flips` and, when an alternative was computed, `range` (low, high, the value
    assumed, wide, the readings it depends on, the headline's words)."""
    if not result.flips:
        return {}
    out = {"flips": [dict(f) for f in result.flips]}
    s = spread(result)
    if s:
        out["range"] = {k: s[k] for k in ("low", "high", "assumed", "wide", "depends_on")}
        text = headline_range(result)
        out["range"]["headline"] = text  # and without its last "P%)" (the page's own number)
        out["range"]["words"] = headline_range(result, number="\0").split("\0")[0] if text else ""
    return out
