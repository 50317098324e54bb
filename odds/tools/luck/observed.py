"""What happened in a roll, checked against its situation's exact Result: whether the
procedure's headline event happened (`winner`), each side's losses, and, where the record
gives the dice as rolled, everything the dice decide, read by the procedure's own declaration
(its Spec's `rolled`: core.rolled). This module knows no game: it gives the reader the record's
dice and choices (`Given`, refusing what is missing or malformed by its field), keeps every die
for the dice's own luck (`Thrown`) and checks the reader's outcome against the Result. An
outcome the situation cannot have is refused, naming the field.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.rolled import Outcome, Record
from ...errors import OddsError, shown
from .record import ROLES, Entry, dice_field, rounds

IMPOSSIBLE = 1e-12  # a probability below this is 0 (an exact sum of terms can leave 1e-16)


@dataclass(frozen=True)
class Thrown:
    """A group of dice as the record gave them: whose, what kind, how many, the faces (None
    when only their hits were given) and the hits (None for a die without hits)."""

    role: str
    die: object
    count: int
    faces: tuple | None
    hits: int | None


@dataclass(frozen=True)
class Observed:
    """`won`: the headline event (the attacker's success) happened, or None if not recorded;
    `counts`: pmf name -> its count, where recorded or read from the dice; `dealt` / `taken`:
    role -> the pmf of what that side did to the other / lost; `thrown`: the dice read."""

    won: bool | None
    counts: dict
    dealt: dict = field(default_factory=dict)
    taken: dict = field(default_factory=dict)
    thrown: tuple = ()

    def dealt_pmf(self, role: str) -> str:
        """The name of the pmf of what `role` did to the other side."""
        return self.dealt.get(role, f"{ROLES[role == 'attacker']}_losses")

    def taken_pmf(self, role: str) -> str:
        """The name of the pmf of what `role` lost."""
        return self.taken.get(role, f"{role}_losses")

    def dealt_by(self, role: str):
        """(pmf name, count) of what `role` did to the other side, or None if not recorded."""
        name = self.dealt_pmf(role)
        return (name, self.counts[name]) if name in self.counts else None

    def taken_by(self, role: str):
        """(pmf name, count) of what `role` lost, or None if not recorded."""
        name = self.taken_pmf(role)
        return (name, self.counts[name]) if name in self.counts else None


def observe(entry: Entry, result, spec, keywords: dict) -> Observed:
    """The roll's outcome in the Result's terms, or an OddsError naming the impossible field;
    `keywords` are the procedure function's, every default filled in (the reader's)."""
    given = entry.outcome
    won = _winner(entry, result) if "winner" in given else None
    counts = {f"{role}_losses": _count(f"{role}_losses", given[f"{role}_losses"])
              for role in ROLES if f"{role}_losses" in given}
    read = Outcome(None)
    thrown = ()
    if any(dice_field(name) for name in given) or entry.choices:
        read, thrown = _read(entry, spec, keywords)
        for name, count in read.counts.items():
            if name in counts and counts[name] != count:
                raise OddsError(f"{name}: {counts[name]} but the dice say {count}")
            counts[name] = count
        if won is not None and read.won is not None and won != read.won:
            raise OddsError(f"winner: {given['winner']!r} but the dice say "
                            f"{'the attacker' if read.won else 'the defender'}")
        won = read.won if read.won is not None else won
    for name, count in counts.items():
        _possible(name, count, result.pmfs.get(name), result.procedure)
    for name, happened in read.events.items():
        p = result.probabilities.get(name)
        if p is None or (p if happened else 1 - p) < IMPOSSIBLE:
            raise OddsError(f"{next((f for f in given if dice_field(f)), 'choices')}: the dice "
                            f"say {name} is {bool(happened)}, which is impossible here")
    if won is not None and (result.p if won else 1 - result.p) < IMPOSSIBLE:
        raise OddsError(f"winner: {given.get('winner', 'the dice')!r} is impossible here "
                        f"(the probability that {result.main} is {'true' if won else 'false'} is 0)")
    return Observed(won, counts, dict(read.dealt), dict(read.taken), thrown)


def _read(entry: Entry, spec, keywords: dict) -> tuple:
    """(Outcome, dice thrown) of the procedure's reader on the record's dice and choices."""
    reader = spec.reader()
    if reader is None:
        name = next((f for f in entry.outcome if dice_field(f)), "choices")
        why = spec.not_rolled or "its dice are not read"
        raise OddsError(f"{name}: not read for {spec.name}: {why} (give the losses and the winner)")
    record = Given(entry)
    outcome = reader(keywords, record)
    record.finish()
    return outcome, tuple(record.thrown)


class Given(Record):
    """The record's dice and choices of one roll, as a procedure's reader asks for them (see
    core.rolled.Record); `finish` refuses what was given and never asked for."""

    def __init__(self, entry: Entry):
        self.outcome, self.choices = entry.outcome, dict(entry.choices or {})
        self.asked: dict = {}  # field -> rounds asked
        self.chosen: set = set()
        self.thrown: list = []
        self.singles: dict = {}  # field read one die at a time -> the dice read

    def _value(self, name: str, round: int):
        """The field's value for that round, or None (a value given once is round 0's)."""
        if name not in self.outcome:
            return None
        items = rounds(name, self.outcome[name])
        if items is None:
            return self.outcome[name] if round == 0 else None
        return items[round] if round < len(items) else None

    def dice(self, name, role, count, die, round=0) -> tuple:
        self.asked.setdefault(name, set()).add(round)
        faces = self._value(name, round)
        where = _where(round)
        if faces is None:
            if count == 0:
                return ()
            twin = f" (its hits in {_twin(name)} do not say which faces)" if _twin(name) in self.outcome else ""
            raise OddsError(f"{name}: missing{twin} (the {role} rolls {count} {_dice(count)} here"
                            f"{where}: give them, {die.spelled()})")
        if not isinstance(faces, list):
            raise OddsError(f"{name}: {shown(faces)} is not a list of dice{where} "
                            f"(allowed: {die.spelled()})")
        read = tuple(die.face(f) for f in faces)
        wrong = next((f for f, r in zip(faces, read) if r is None), None)
        if wrong is not None or any(r is None for r in read):
            raise OddsError(f"{name}: {shown(wrong)} is not a face of the {die.name}{where} "
                            f"(allowed: {die.spelled()})")
        if len(read) != count:
            raise OddsError(f"{name}: {len(read)} {_dice(len(read))}, but the {role} rolls "
                            f"{count} here{where}")
        hits = sum(f in die.hits for f in read) if die.hits else None
        self.thrown.append(Thrown(role, die, count, read, hits))
        return read

    def die(self, name, role, die, index):
        self.asked.setdefault(name, set()).add(0)
        self.singles[name] = max(self.singles.get(name, 0), index + 1)
        faces = self.outcome.get(name)
        if faces is None or not isinstance(faces, list) or rounds(name, faces) is not None:
            if faces is not None:
                raise OddsError(f"{name}: {shown(faces)} is not a list of dice (allowed: "
                                f"{die.spelled()})")
            raise OddsError(f"{name}: missing (the {role} rolls here: give its dice, {die.spelled()})")
        if index >= len(faces):
            raise OddsError(f"{name}: {len(faces)} {_dice(len(faces))}, but the {role} rolls at "
                            f"least {index + 1} here")
        face = die.face(faces[index])
        if face is None:
            raise OddsError(f"{name}: {shown(faces[index])} is not a face of the {die.name} "
                            f"(allowed: {die.spelled()})")
        self.thrown.append(Thrown(role, die, 1, (face,), int(face in die.hits) if die.hits else None))
        return face

    def hits(self, name, role, count, die, round=0) -> int:
        twin = _twin(name)
        if name in self.outcome and twin in self.outcome:
            raise OddsError(f"{twin}: given with {name} (allowed: one of them)")
        if name not in self.outcome and twin not in self.outcome and count:
            self.asked.setdefault(name, set()).add(round)
            raise OddsError(f"{name}: missing (the {role} rolls {count} {_dice(count)} here"
                            f"{_where(round)}: give them, {die.spelled()}, or their hits as {twin})")
        if name in self.outcome or twin not in self.outcome:
            return sum(f in die.hits for f in self.dice(name, role, count, die, round))
        self.asked.setdefault(name, set()).add(round)
        hits = self._value(twin, round)
        where = _where(round)
        if hits is None:
            raise OddsError(f"{twin}: missing (the {role} rolls {count} {_dice(count)} here{where})")
        hits = _count(twin, hits)
        if not 0 <= hits <= count:
            raise OddsError(f"{twin}: {hits} is impossible from {count} {_dice(count)}{where} "
                            f"(allowed: 0 to {count})")
        self.thrown.append(Thrown(role, die, count, None, hits))
        return hits

    def choice(self, name, allowed: dict, why: str):
        self.chosen.add(name)
        options = ", ".join(str(v) for v in allowed)
        if name not in self.choices:
            raise OddsError(f"choices: {name} missing ({why}; allowed: {options})")
        value = self.choices[name]
        for option in allowed:
            if not isinstance(value, bool) and (option == value or str(option).lower() == str(value).strip().lower()):
                return option
        raise OddsError(f"choices: {name} = {shown(value)} is not allowed here ({why}; allowed: {options})")

    def finish(self) -> None:
        """Refuse a field of dice or hits, or a roll of one, or a choice, that the rules did
        not roll or ask for here (a roll given as [] where it was not rolled is none)."""
        for name, value in self.outcome.items():
            if not dice_field(name):
                continue
            asked = self.asked.get(name, set()) | self.asked.get(_twin(name), set())
            if not asked:
                read = sorted(self.asked)
                raise OddsError(f"{name}: not rolled here (the dice read: {', '.join(read) or 'none'})")
            if name in self.singles:
                if len(value) > self.singles[name]:
                    raise OddsError(f"{name}: {len(value)} dice given, but the {name.split('_')[0]} "
                                    f"rolls {self.singles[name]} here")
                continue
            items = rounds(name, value) or [value]
            extra = [i for i, v in enumerate(items) if i not in asked and v != [] and v != 0]
            if extra:
                rolled = ", ".join(str(i + 1) for i in sorted(asked))
                raise OddsError(f"{name}: {len(items)} rolls given, but only roll{'s' * (len(asked) > 1)} "
                                f"{rolled} {'is' if len(asked) == 1 else 'are'} rolled here")
        extra = sorted(set(self.choices) - self.chosen)
        if extra:
            allowed = ", ".join(sorted(self.chosen)) or "none"
            raise OddsError(f"choices: {extra[0]} is not a choice of this roll (allowed: {allowed})")


def _twin(name: str) -> str:
    """attacker_dice <-> attacker_hits."""
    if name.endswith("_dice"):
        return name[:-5] + "_hits"
    return name[:-5] + "_dice" if name.endswith("_hits") else name


def _where(round: int) -> str:
    return f" (roll {round + 1})" if round else ""


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


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
    if not 0 <= count < len(pmf) or pmf[count] < IMPOSSIBLE:
        support = np.flatnonzero(pmf >= IMPOSSIBLE)
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
