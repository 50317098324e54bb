"""What happened in a roll, checked against its situation's exact Result: whether the
procedure's headline event happened (`winner`), and each side's losses, given as losses or
read from each side's hits or dice (a Here I Stand field battle or assault with no cards:
hits are dice showing 5 or 6, and the procedure's own rules turn both sides' hits into the
winner and the losses). An outcome the situation cannot have is refused, naming the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import OddsError, shown
from .record import ROLES, Entry

HIT_ON = 5  # Here I Stand: a die showing 5 or 6 is a hit
IMPOSSIBLE = 1e-12  # a probability below this is 0 (an exact sum of terms can leave 1e-16)
_ROLLS = re.compile(r"^(attacker|defender) rolls (\d+) dice")


@dataclass(frozen=True)
class Observed:
    """`won`: the headline event (the attacker's success) happened, or None if not recorded;
    `losses`: role -> the units it lost, where recorded."""

    won: bool | None
    losses: dict


def observe(entry: Entry, result) -> Observed:
    """The roll's outcome in the Result's terms, or an OddsError naming the impossible field."""
    given = entry.outcome
    won = _winner(entry, result) if "winner" in given else None
    losses = {}
    for role in ROLES:
        name = f"{role}_losses"
        if name in given:
            losses[role] = _count(name, given[name])
    if any(f"{role}_{kind}" in given for role in ROLES for kind in ("hits", "dice")):
        won_by_dice, by_dice = _from_hits(entry, result)
        for role, lost in by_dice.items():
            if role in losses and losses[role] != lost:
                raise OddsError(f"{role}_losses: {losses[role]} but the hits say {lost}")
            losses[role] = lost
        if won is not None and won != won_by_dice:
            raise OddsError(f"winner: {given['winner']!r} but the hits say "
                            f"{'the attacker' if won_by_dice else 'the defender'}")
        won = won_by_dice
    for role, lost in losses.items():
        _possible(f"{role}_losses", lost, result.pmfs.get(f"{role}_losses"), result.procedure)
    if won is not None and (result.p if won else 1 - result.p) < IMPOSSIBLE:
        raise OddsError(f"winner: {given.get('winner', 'the hits')!r} is impossible here "
                        f"(the probability that {result.main} is {'true' if won else 'false'} is 0)")
    return Observed(won, losses)


def _winner(entry: Entry, result) -> bool:
    """True when the winner is the attacker (its name, or the side's), False for the defender."""
    text = entry.outcome["winner"]
    names = {"attacker": True, "defender": False, entry.side.lower(): True}
    if entry.against:
        names[entry.against.lower()] = False
    if not isinstance(text, str) or text.strip().lower() not in names:
        allowed = ["attacker", "defender", entry.side, *([entry.against] if entry.against else [])]
        raise OddsError(f"winner: {shown(text)} is not a side of this roll (allowed: {', '.join(allowed)})")
    return names[text.strip().lower()]


def _count(name: str, given) -> int:
    if isinstance(given, bool) or not isinstance(given, int):
        raise OddsError(f"{name}: {shown(given)} is not a whole number")
    return given


def _possible(name: str, count: int, pmf, procedure: str) -> None:
    if pmf is None:
        raise OddsError(f"{name}: not an outcome of {procedure}")
    support = np.flatnonzero(pmf >= IMPOSSIBLE)
    if not 0 <= count < len(pmf) or pmf[count] < IMPOSSIBLE:
        raise OddsError(f"{name}: {count} is impossible here (allowed: {_ranges(support)})")


def _ranges(values) -> str:
    """0, 1, 2, 4 -> '0 to 2, 4'."""
    runs, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            runs.append(f"{start}" if start == v else f"{start} to {v}")
            start = None
    return ", ".join(runs)


def _from_hits(entry: Entry, result) -> tuple[bool, dict]:
    """(won, role -> losses) from both sides' hits or dice, by the procedure's rules."""
    rules = _RULES.get(result.procedure)
    if rules is None:
        field = next(f for f in entry.outcome if f.endswith(("_hits", "_dice")))
        raise OddsError(f"{field}: read for {', '.join(_RULES)} only (give the losses for "
                        f"{result.procedure})")
    settings = result.settings
    cards = [c for role in ROLES for c in settings.get(f"{role}_cards", [])]
    if cards:
        raise OddsError(f"hits: not read when cards are played ({', '.join(cards)}): give the losses")
    dice = {m[1]: int(m[2]) for m in (_ROLLS.match(line) for line in result.explain) if m}
    hits = {role: _hits(entry, role, dice[role]) for role in ROLES}
    units = {role: settings[f"{role}_units_at_roll"] for role in ROLES}
    return rules(hits, dice, units)


def _hits(entry: Entry, role: str, rolled: int) -> int:
    """A side's hits from `{role}_hits` or `{role}_dice`; both sides' are needed."""
    given = entry.outcome
    if f"{role}_dice" in given and f"{role}_hits" in given:
        raise OddsError(f"{role}_hits: given with {role}_dice (allowed: one of them)")
    if f"{role}_dice" in given:
        faces = given[f"{role}_dice"]
        if not isinstance(faces, list) or any(isinstance(f, bool) or f not in range(1, 7) for f in faces):
            raise OddsError(f"{role}_dice: {shown(faces)} is not a list of dice (allowed: 1 to 6 each)")
        if len(faces) != rolled:
            raise OddsError(f"{role}_dice: {len(faces)} dice, but the {role} rolls {rolled} here")
        return sum(f >= HIT_ON for f in faces)
    if f"{role}_hits" not in given:
        raise OddsError(f"{role}_hits: missing (give both sides' hits or dice, or the losses)")
    hits = _count(f"{role}_hits", given[f"{role}_hits"])
    if not 0 <= hits <= rolled:
        raise OddsError(f"{role}_hits: {hits} is impossible from {rolled} dice (allowed: 0 to {rolled})")
    return hits


def _field(hits, dice, units):
    from ..his.field.rules import resolve

    code, a_loss, d_loss = resolve(hits["attacker"], hits["defender"], dice["attacker"],
                                   dice["defender"], units["attacker"], units["defender"])
    return bool(code & 1), {"attacker": int(a_loss), "defender": int(d_loss)}


def _assault(hits, dice, units):
    from ..his.assaults.rules import resolve, succeeds

    args = (hits["attacker"], hits["defender"], units["attacker"], units["defender"])
    _, a_loss, d_loss = resolve(*args)
    return bool(succeeds(*args)), {"attacker": int(a_loss), "defender": int(d_loss)}


_RULES = {"his.field": _field, "his.assault": _assault}
