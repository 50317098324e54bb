"""Naval rule sets as data (docs/rules.md, Naval combat): Virgin Queen fleets (`vq`) and the Here I Stand
variant (`his`).

A `Ruleset` holds the dice per ship type, corsair, port and card, the number each of them
hits on, the hits that sink a ship or a corsair, and the cards it admits. Every number is a
setting a user can override (`dice_per={"galley": 1}`, `hit_on={"race_built": 4}` for both
sides or `{"attacker_galley": 4}` for one, `hits_per_ship=3`, or a whole `Ruleset`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ...errors import OddsError, check_choice, check_int, shown
from ...texts import whole_or_why
from ..forces import POWERS

VQ_POWERS = ("ottoman", "spain", "england", "france", "papacy", "protestants", "other")
CORSAIR = "corsair"
PORT = "port"
LEADER = "leader"  # the leader's dice (his rating): a hit number of their own
HIT = 5  # every die hits on 5 or 6 unless a card or a setting says otherwise
SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Ruleset:
    """The numbers of one naval rule set; every one a setting.

    `dice_per` maps each ship type, `corsair`, `port` (the defender's bonus in a port) and
    each card to its dice; `card_hit_on` each card's hit threshold (5 = hits on 5-6); `hit_on`
    the thresholds set for either side (a ship type, corsair, port, leader or card) or one
    (`attacker_galley`): anything it does not name hits on 5-6, a card on its card_hit_on.
    """

    name: str
    ships: tuple
    dice_per: MappingProxyType
    card_hit_on: MappingProxyType
    hits_per_ship: int = 2
    hits_per_corsair: int = 1
    cards: tuple = ()
    race_built: str | None = None  # the ship type that ignores 5s in the Atlantic
    powers: tuple = POWERS  # the game's names of the major powers
    assumptions: tuple = ()  # numbers of this ruleset that are readings, not rule text
    hit_on: MappingProxyType = field(default_factory=dict)  # thresholds set (hit_keys), by key

    def __post_init__(self):
        object.__setattr__(self, "dice_per", MappingProxyType(dict(self.dice_per)))
        object.__setattr__(self, "card_hit_on", MappingProxyType(dict(self.card_hit_on)))
        object.__setattr__(self, "hit_on", MappingProxyType(dict(self.hit_on)))

    def hit(self, side: str, key: str) -> int:
        """The number `side`'s dice of `key` (a ship type, corsair, port, leader or card) hit on."""
        return self.hit_on.get(f"{side}_{key}", self.hit_on.get(key, self.card_hit_on.get(key, HIT)))

    def hit_keys(self) -> tuple:
        """What a hit number is set for: each kind of die, for both sides or one."""
        kinds = (*self.ships, CORSAIR, PORT, LEADER, *self.cards)
        return kinds + tuple(f"{side}_{k}" for side in SIDES for k in kinds)

    def numbers(self) -> dict:  # keys: RULESET_KEYS
        """The numbers used, for Result.settings: `hit_on` every kind of die's, and each one
        side's that differs from it."""
        kinds = (*self.ships, CORSAIR, PORT, LEADER, *self.cards)
        hit_on = {k: self.hit("", k) for k in kinds}
        hit_on.update({f"{side}_{k}": self.hit(side, k) for side in SIDES for k in kinds
                       if self.hit(side, k) != hit_on[k]})
        return {"dice_per": dict(self.dice_per), "card_hit_on": dict(self.card_hit_on),
                "hit_on": hit_on, "hits_per_ship": self.hits_per_ship,
                "hits_per_corsair": self.hits_per_corsair, "cards": list(self.cards)}

    def override(self, dice_per=None, hits_per_ship=None, hits_per_corsair=None,
                 hit_on=None) -> "Ruleset":
        """A copy with some numbers replaced; `dice_per` and `hit_on` as dicts or 'KEY=N'
        strings (a hit number N: the die hits on N-6, 2 to 6)."""
        dice = dict(self.dice_per)
        for key, value in _dice_items(dice_per):
            key = check_choice("dice_per", key, tuple(dice))
            dice[key] = check_int(f"dice_per {key}", value, 0, 20)
        hits = dict(self.hit_on)
        for key, value in _dice_items(hit_on, "hit_on"):
            key = check_choice("hit_on", key, self.hit_keys())
            hits[key] = check_int(f"hit_on {key}", value, 2, 6)
        out = replace(self, dice_per=dice, hit_on=hits)
        if hits_per_ship is not None:
            out = replace(out, hits_per_ship=check_int("hits_per_ship", hits_per_ship, 1, 20))
        if hits_per_corsair is not None:
            out = replace(out, hits_per_corsair=check_int("hits_per_corsair", hits_per_corsair, 1, 20))
        return out


def _dice_items(given, name="dice_per"):
    """(key, number) pairs of a `dice_per` or `hit_on` table: a dict, or 'KEY=N' strings."""
    what, example = {"dice_per": ("dice per ship type", "galley=2"),
                     "hit_on": ("hit numbers", "race_built=4")}[name]
    if given is None:
        return []
    if isinstance(given, dict):
        return list(given.items())
    if isinstance(given, str):
        given = [given]
    if not isinstance(given, (list, tuple)):
        raise OddsError(f"{name}: {shown(given)} is not a table of {what} "
                        f"(e.g. {example}, or {{{example.replace('=', ' = ')}}} in TOML)")
    items = []
    for spec in given:
        key, eq, value = str(spec).partition("=")
        number, why = whole_or_why(value.strip()) if eq else (None, None)
        if why and ":" not in value and any(c.isdecimal() for c in value):  # a number, refused
            raise OddsError(f"{name}: {key.strip()}: {why}")
        if number is None:
            hint = (f"; a hit number is hit_on {key.strip()}={value.partition(':')[2].strip()}"
                    if name == "dice_per" and ":" in value else "")
            raise OddsError(f"{name}: {shown(spec)} is not TYPE=N (e.g. {example}){hint}")
        items.append((key.strip(), number))
    return items


def at_sea(given, location: str, seas: tuple, name: str = "dice_per") -> dict:
    """A `dice_per` or `hit_on` table (key -> number) for a battle in `location`: an
    entry `KEY@SEA=N` (galley@atlantic=1: a galley rolls 1 die in the Atlantic) holds in that
    sea only (one of `seas`) and over the entry for every sea, whatever their order."""
    every, here = [], []
    for key, value in _dice_items(given, name):
        kind, at, sea = key.partition("@")
        if at:
            sea = check_choice(f"{name} {key}", sea.strip(), seas)
            if sea == location:
                here.append((kind.strip(), value))
        else:
            every.append((key, value))
    return dict(every + here)


RULESET_KEYS = ("dice_per", "card_hit_on", "hit_on", "hits_per_ship", "hits_per_corsair", "cards")
RULESETS = {
    "vq": Ruleset(
        "vq", ("galley", "galleon", "race_built"),
        {"galley": 2, "galleon": 2, "race_built": 2, CORSAIR: 1, PORT: 1,
         "galleasses": 3, "arquebusiers": 2},
        {"galleasses": 5}, cards=("galleasses", "arquebusiers"), race_built="race_built",
        powers=VQ_POWERS),  # its dice per ship are readings: naval.procedure.VQ_READINGS
    "his": Ruleset(
        "his", ("squadron",),
        {"squadron": 2, CORSAIR: 1, PORT: 1, "janissaries": 4, "professional-rowers": 3,
         "arquebusiers": 2},
        {"janissaries": 5, "professional-rowers": 5},
        cards=("janissaries", "professional-rowers", "arquebusiers")),
}


def get_ruleset(ruleset) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        for name, t in ruleset.card_hit_on.items():
            check_int(f"card_hit_on {name}", t, 2, 6)
        return ruleset
    return RULESETS[check_choice("ruleset", ruleset, tuple(RULESETS))]
