"""Named Here I Stand leaders and their ratings, so players can say `suleiman` instead of 2.

Army leaders carry a battle rating, naval leaders a naval battle rating, as printed on their
counters (the project's own table: a number given instead of a name always overrides it).
A named leader is present even when rated 0 (Henry II, Dudley, John Frederick, Philip of
Hesse): he can still be captured or displaced.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import OddsError, check_int, nearest
from ..i18n import N_, _, card_name, native
from ..texts import whole_or_why

MAX_LEADER = 6  # best battle or naval rating

# name: (power, battle rating)
ARMY = {
    "suleiman": ("ottoman", 2), "ibrahim-pasha": ("ottoman", 1),
    "charles-v": ("hapsburg", 2), "duke-of-alva": ("hapsburg", 2), "ferdinand": ("hapsburg", 1),
    "henry-viii": ("england", 1), "charles-brandon": ("england", 1), "dudley": ("england", 0),
    "francis-i": ("france", 1), "montmorency": ("france", 1), "henry-ii": ("france", 0),
    "maurice-of-saxony": ("protestant", 1), "john-frederick": ("protestant", 0),
    "philip-of-hesse": ("protestant", 0),
}
NAVAL = {"barbarossa": ("ottoman", 2), "dragut": ("ottoman", 1), "andrea-doria": ("hapsburg", 2)}
ASSUMPTION = N_("leader ratings from the project's table of leader counters (give a number to override)")


@dataclass(frozen=True)
class Leader:
    """A side's best leader: rating, name (None when given as a number), present or not."""

    rating: int
    name: str | None = None

    @property
    def present(self) -> bool:
        return self.name is not None or self.rating > 0

    def __str__(self) -> str:
        return f"{self.name} ({self.rating})" if self.name else str(self.rating)


def leader(field: str, value, table=ARMY) -> Leader:
    """A rating (0-6; 0 = no leader) or a leader's name from `table` (any case; 'suleiman (2)'
    as the pickers show it is accepted too)."""
    if isinstance(value, Leader):
        return value
    if isinstance(value, str):
        number, why = whole_or_why(value.strip())
        if number is None and value.strip().lstrip("+-").replace("_", "").isdecimal():
            raise OddsError(f"{field}: {why}")  # a number, refused (-0, too many digits)
        if number is None:  # a name
            key = value.split("(")[0].strip().lower().replace(" ", "-").replace("_", "-")
            key = native(value.split("(")[0], table) or key  # as the Russian rules write it
            if key not in table:
                raise OddsError(_("{field}: unknown leader {value}{nearest} (allowed: a rating 0 to "
                                  "{most} or {names})").format(
                    field=field, value=repr(value), nearest=nearest(key if value.isascii() else value,
                                                                    tuple(table)),
                    most=MAX_LEADER, names=", ".join(table))) from None
            return Leader(table[key][1], key)
        value = number
    return Leader(check_int(field, value, 0, MAX_LEADER))


def power_note(name: str | None, power: str, table=ARMY) -> tuple:
    """A note when a named leader never commanded `power`'s forces ('other': any power), else
    (): the rating is still used as given, since a what-if may lend a leader."""
    if name is None or name not in table or power in ("other", table[name][0]):
        return ()
    side, rating = table[name]
    return (_("{name} never commanded {power} forces (a leader of the {side} side): his rating "
              "{rating} is used as given").format(name=card_name(name), power=card_name(power),
                                                   side=card_name(side), rating=rating),)


def choices(table=ARMY) -> tuple:
    """Names with ratings for help texts and pickers: ('suleiman (2)', ...)."""
    return tuple(f"{name} ({rating})" for name, (_, rating) in table.items())
