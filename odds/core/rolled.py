"""A roll as a game's record gives it: the dice each side rolled, read by the procedure's rules.

Each procedure that rolls dice declares in its own folder (`rolled.py`, named on its Spec as
`rolled="module:read"`) how one of its rolls is read: `read(keywords, record) -> Outcome`.
`keywords` are the procedure function's (its preset included); the reader sets the situation
up with the procedure's own setup, then asks `record` for each group of dice in the order the
rules roll them, saying whose dice they are, how many and what kind of die (`Die`: its faces,
what a face means), and for any choice the dice cannot show (a debater drawn for a second
round, the cards played for the Diet of Worms), by name with what is allowed. The faces and
the choices become the outcome through the same rule functions the engines use. The record
(odds.tools.luck implements `Record`) refuses what it cannot give in one line naming the field,
and tallies every die for the dice's own luck; it knows no game.

The outcome is in the Result's own terms: whether its main event happened, and the count of
each of its pmfs that the dice decide (`counts`); `dealt` and `taken` name, per role, the pmf
of what that side did to the other (luckier when more) and of what it lost (luckier when
fewer), where they are not the usual `{foe}_losses` and `{role}_losses`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

@dataclass(frozen=True)
class Die:
    """A kind of die: its faces as a record writes them and what a face counts for the dice's
    own luck. `hits`: the faces that hit (the luck is the hits, binomial); otherwise each
    face's count is measured (its binomial marginal of the multinomial) and, for `numbered`
    dice (faces are numbers, a higher one better for its roller), the total of the faces.
    `weights`: the chance of each face (equal when empty); `aliases`: other spellings of a
    face a record may use (any case)."""

    name: str  # as the luck report names it: "d6 hitting on 5-6"
    faces: tuple = (1, 2, 3, 4, 5, 6)
    hits: tuple = ()
    weights: tuple = ()
    numbered: bool = False
    aliases: dict = field(default_factory=dict, compare=False, hash=False)

    def chances(self) -> np.ndarray:
        """P(each face), in the order of `faces`."""
        return self._chances

    @cached_property
    def _chances(self) -> np.ndarray:
        out = np.array([float(w) for w in self.weights]) if self.weights else \
            np.full(len(self.faces), 1.0 / len(self.faces))
        out.setflags(write=False)
        return out

    def exact_chances(self) -> tuple:
        """P(each face) as Fractions (for tests and exact sums)."""
        if self.weights:
            return tuple(Fraction(w) for w in self.weights)
        return (Fraction(1, len(self.faces)),) * len(self.faces)

    @cached_property
    def p_hit(self) -> float:
        return float(sum(p for f, p in zip(self.faces, self.chances()) if f in self.hits))

    def face(self, value):
        """The face a record's `value` names, or None (a number for numbered faces; a name or
        an alias in any case)."""
        if type(value) is bool or isinstance(value, float):
            return None
        if isinstance(value, str):
            value = value.strip().lower()
        try:
            return self._names.get(value)
        except TypeError:  # a list or a table: no face
            return None

    @cached_property
    def _names(self) -> dict:
        """Each accepted spelling of a face (the face itself, its name and its aliases in lower
        case) -> the face."""
        out = {f: f for f in self.faces}
        out.update({str(f).lower(): f for f in self.faces})
        out.update({alias.lower(): out[target] for alias, target in self.aliases.items()
                    if target in out})
        return out

    def spelled(self) -> str:
        """The faces as a refusal lists them."""
        faces = [str(f) for f in self.faces]
        if all(isinstance(f, int) for f in self.faces) and faces == [str(i) for i in range(
                self.faces[0], self.faces[0] + len(faces))]:
            return f"{faces[0]} to {faces[-1]} each"
        return "each one of " + ", ".join(faces)


def hit_die(threshold: int, sides: int = 6) -> Die:
    """A d6 (or d`sides`) that hits on `threshold` or more."""
    return Die(f"d{sides} hitting on {threshold}-{sides}" if threshold < sides else
               f"d{sides} hitting on {sides}", tuple(range(1, sides + 1)),
               hits=tuple(range(threshold, sides + 1)))


def numbered_die(sides: int = 6) -> Die:
    """A d6 (or d`sides`) read by its number, a higher one better for its roller."""
    return Die(f"d{sides} read by its number", tuple(range(1, sides + 1)), numbered=True)


@dataclass(frozen=True)
class Outcome:
    """What the dice decided: `won` the procedure's main event (None where one roll does not
    decide it), `counts` pmf name -> its count; `dealt` / `taken` role -> the pmf of what the
    side did to the other and of what it lost (default `{foe}_losses` / `{role}_losses`);
    `events` other events of the Result -> whether they happened (checked, not scored)."""

    won: bool | None
    counts: dict = field(default_factory=dict)
    dealt: dict = field(default_factory=dict)
    taken: dict = field(default_factory=dict)
    events: dict = field(default_factory=dict)  # other events of the Result the dice decide


class Record:
    """What a roll's record gives, asked for by a procedure's reader (odds.tools.luck implements
    it). Every method refuses what the record cannot give with an OddsError whose message
    starts with the field's name, says what is wrong and what is allowed."""

    def dice(self, name: str, role: str, count: int, die: Die, round: int = 0) -> tuple:
        """The faces of the `count` dice of kind `die` that `role` rolled, from the record's
        field `name` (`round`: the round-th roll of that field, for a procedure that rolls it
        again: a siege's assaults, a debate's second round)."""
        raise NotImplementedError

    def die(self, name: str, role: str, die: Die, index: int):
        """The `index`-th die (from 0) of field `name`, a list of faces read one die at a time:
        for a roll whose length the dice decide (a raider rolls until it is eliminated)."""
        raise NotImplementedError

    def hits(self, name: str, role: str, count: int, die: Die, round: int = 0) -> int:
        """The hits among `count` dice of a hitting `die`: from the faces in field `name`, or
        the number given in its twin `..._hits` field."""
        raise NotImplementedError

    def choice(self, name: str, allowed: dict, why: str):
        """The value the record's `choices` give for `name`, one of `allowed` (value -> its
        chance where the rules draw it at random, else None); `why` says what the choice is."""
        raise NotImplementedError
