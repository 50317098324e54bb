"""A side's land force as the user gives it, validated."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import OddsError, check_choice, check_int, check_list
from ..i18n import _
from .cards import names_for, only_with
from ..registry import Param
from . import leaders
from .cards import canonical
from .leaders import MAX_LEADER

MAX_UNITS = 200  # land units on one side

POWERS = ("ottoman", "hapsburg", "england", "france", "papacy", "protestant", "other")


@dataclass(slots=True)
class Force:
    """Land units (mercenaries and cavalry among them), best leader rating, power, cards."""

    side: str  # "attacker" or "defender": names the fields in error messages
    units: int
    mercenaries: int = 0
    cavalry: int = 0
    leader: int = 0
    power: str = "other"
    cards: tuple = ()
    leader_name: str | None = None  # a named leader is present even when rated 0

    @classmethod
    def make(cls, side, units, mercenaries=0, cavalry=0, leader=0, power="other", cards=(),
             min_units=0, procedure="field"):
        if units == 0 and min_units and type(units) is int:
            raise OddsError((_("{side}: 0 units: a field battle needs units on both sides (allowed: "
                               "{low} to {high})") if procedure == "field" else
                             _("{side}: 0 units: an assault needs units on the attacking side "
                               "(allowed: {low} to {high})")).format(side=side, low=min_units, high=MAX_UNITS))
        units = check_int(side, units, min_units, MAX_UNITS)
        mercenaries = check_int(f"{side}_mercenaries", mercenaries, 0, MAX_UNITS)
        cavalry = check_int(f"{side}_cavalry", cavalry, 0, MAX_UNITS)
        if mercenaries + cavalry > units:
            raise OddsError(_("{side}_mercenaries + {side}_cavalry: {m} + {c} is more than the {units} "
                              "units (allowed: at most {units})").format(side=side, m=mercenaries,
                                                                        c=cavalry, units=units))
        best = leaders.leader(f"{side}_leader", leader)
        power = check_choice(f"{side}_power", power, POWERS)
        cards = tuple(canonical(c, f"{side}_cards") for c in check_list(f"{side}_cards", cards))
        return cls(side, units, mercenaries, cavalry, best.rating, power, cards, best.name)

    @property
    def has_leader(self) -> bool:
        return self.leader_name is not None or self.leader > 0

    @property
    def leader_text(self) -> str:
        """'suleiman (2)' for a named leader, else the rating."""
        return str(leaders.Leader(self.leader, self.leader_name))

    @property
    def regulars(self) -> int:
        return self.units - self.mercenaries - self.cavalry


def settings(*forces) -> dict:
    """What a result records of each side: power, best leader (named with its rating), cards."""
    out = {}
    for f in forces:
        out.update({f"{f.side}_power": f.power, f"{f.side}_leader": f.leader_text,
                    f"{f.side}_cards": list(f.cards)})
    return out


def leader_notes(*forces, table=leaders.ARMY) -> tuple:
    """Notes for named leaders given to a power they never commanded (leaders.power_note)."""
    return sum((leaders.power_note(f.leader_name, f.power, table) for f in forces), ())


def assumptions(*forces) -> tuple:
    """The readings a result on these forces rests on: the leader table, if a name was used."""
    return (_(leaders.ASSUMPTION),) if any(f.leader_name for f in forces) else ()


def land_params(procedure: str, cards_help: str, attacker_policies=None) -> tuple:
    """The keywords of two land forces: units, mercenaries, cavalry, leader, power, cards
    (`attacker_policies`: the attacker's card policies where they differ, Param.policies)."""
    out = []
    for side in ("attacker", "defender"):
        low = 1 if side == "attacker" or procedure == "field" else 0
        out += [
            Param(side, "int", f"{side}'s land units, mercenaries and cavalry included",
                  low=low, high=MAX_UNITS, metavar="N"),
            Param(f"{side}_mercenaries", "int", "how many of those units are mercenaries",
                  low=0, high=MAX_UNITS, metavar="M"),
            Param(f"{side}_cavalry", "int", "how many of those units are cavalry",
                  low=0, high=MAX_UNITS, metavar="C"),
            Param(f"{side}_leader", "leader", "the best leader: a battle rating (0: none) or "
                  "a name", low=0, high=MAX_LEADER, choices=leaders.choices(), metavar="R|NAME"),
            Param(f"{side}_power", "choice", "the major power", choices=POWERS, metavar="POWER"),
            Param(f"{side}_cards", "cards", f"a card the {side} plays, repeatable: {cards_help}",
                  choices=names_for(procedure, side), flag=f"{side}-card", metavar="CARD[:POLICY]",
                  policies=(attacker_policies or {}) if side == "attacker" else {},
                  only_with=only_with(procedure, names_for(procedure, side), side, POWERS)),
        ]
    return tuple(out)
