"""Naval rule sets as data (docs/rules.md, Naval combat): Virgin Queen fleets (`vq`) and the Here I Stand
variant (`his`).

A `Ruleset` holds the dice per ship type, corsair, port and card, the hits that sink a ship or
a corsair, and the cards it admits. Every number is a setting a user can override
(`dice_per={"galley": 1}`, `hits_per_ship=3`, or a whole `Ruleset`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType

from ...errors import OddsError, check_choice, check_int, shown
from ..forces import POWERS

VQ_POWERS = ("ottoman", "spain", "england", "france", "papacy", "protestants", "other")
CORSAIR = "corsair"
PORT = "port"


@dataclass(frozen=True)
class Ruleset:
    """The numbers of one naval rule set; every one a setting.

    `dice_per` maps each ship type, `corsair`, `port` (the defender's bonus in a port) and
    each card to its dice; `card_hit_on` each card's hit threshold (5 = hits on 5-6).
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

    def __post_init__(self):
        object.__setattr__(self, "dice_per", MappingProxyType(dict(self.dice_per)))
        object.__setattr__(self, "card_hit_on", MappingProxyType(dict(self.card_hit_on)))

    def numbers(self) -> dict:  # keys: RULESET_KEYS
        """The numbers used, for Result.settings."""
        return {"dice_per": dict(self.dice_per), "card_hit_on": dict(self.card_hit_on),
                "hits_per_ship": self.hits_per_ship, "hits_per_corsair": self.hits_per_corsair,
                "cards": list(self.cards)}

    def override(self, dice_per=None, hits_per_ship=None, hits_per_corsair=None) -> "Ruleset":
        """A copy with some numbers replaced; `dice_per` as a dict or 'TYPE=N' strings."""
        dice = dict(self.dice_per)
        for key, value in _dice_items(dice_per):
            key = check_choice("dice_per", key, tuple(dice))
            dice[key] = check_int(f"dice_per {key}", value, 0, 20)
        out = replace(self, dice_per=dice)
        if hits_per_ship is not None:
            out = replace(out, hits_per_ship=check_int("hits_per_ship", hits_per_ship, 1, 20))
        if hits_per_corsair is not None:
            out = replace(out, hits_per_corsair=check_int("hits_per_corsair", hits_per_corsair, 1, 20))
        return out


def _dice_items(dice_per):
    if dice_per is None:
        return []
    if isinstance(dice_per, dict):
        return list(dice_per.items())
    if isinstance(dice_per, str):
        dice_per = [dice_per]
    if not isinstance(dice_per, (list, tuple)):
        raise OddsError(f"dice_per: {shown(dice_per)} is not a table of dice per ship type "
                        "(e.g. galley=2, or {galley = 2} in TOML)")
    items = []
    for spec in dice_per:
        key, eq, value = str(spec).partition("=")
        try:
            if not eq:
                raise ValueError
            items.append((key.strip(), int(value)))
        except ValueError:
            raise OddsError(f"dice_per: {spec!r} is not TYPE=N (e.g. galley=2)") from None
    return items


RULESET_KEYS = ("dice_per", "card_hit_on", "hits_per_ship", "hits_per_corsair", "cards")
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
