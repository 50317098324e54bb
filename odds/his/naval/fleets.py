"""A naval battle's sides: each `Fleet` as given, validated against its ruleset, and `setup`,
which counts the dice, applies the cards in game order and fixes their numbers from the ruleset
into the `Battle` both engines read (with its casualty table, naval.rules.settle_grid).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from ...errors import OddsError, check_choice, check_int, check_list
from ...i18n import _
from .. import leaders
from ..cards import Side, canonical, parse, play
from .rules import settle_grid
from .ruleset import CORSAIR, LEADER, PORT, Ruleset

MAX_SHIPS = 50  # ships (or corsairs) of one kind on one side


@dataclass(frozen=True)
class Fleet:
    """One side's ships by type, corsairs, best naval leader rating, power and cards."""

    side: str
    ships: dict = field(default_factory=dict)
    corsairs: int = 0
    leader: int = 0
    power: str = "other"
    cards: tuple = ()
    leader_name: str | None = None

    @classmethod
    def make(cls, side, rules: Ruleset, ships, corsairs=0, leader=0, power="other", cards=()):
        power = check_choice(f"{side}_power", power, rules.powers)
        counts = {}
        for kind, n in ships.items():
            n = check_int(f"{side}_{_plural(kind)}", n, 0, MAX_SHIPS)
            if n and kind not in rules.ships:
                raise OddsError(f"{side}_{_plural(kind)}: {n} given but the {rules.name} ruleset "
                                f"has no {kind} (allowed: {', '.join(rules.ships)})")
            if kind in rules.ships:
                counts[kind] = n
        corsairs = check_int(f"{side}_corsairs", corsairs, 0, MAX_SHIPS)
        if sum(counts.values()) + corsairs == 0:
            fields = [f"{side}_{_plural(kind)}" for kind in rules.ships] + [f"{side}_corsairs"]
            raise OddsError(_("{fields}: a fleet with no ships (allowed: at least one ship or "
                              "corsair)").format(fields=" + ".join(fields)))
        if rules.race_built and counts.get(rules.race_built) and power != "england":
            raise OddsError(_("{side}_race_built: {n} for the {power} side (allowed: only the england "
                              "side has race-built galleons)").format(
                side=side, n=counts[rules.race_built], power=power))
        if corsairs and power != "ottoman":
            raise OddsError(_("{side}_corsairs: {n} for the {power} side (allowed: only the ottoman "
                              "side has corsairs)").format(side=side, n=corsairs, power=power))
        best = leaders.leader(f"{side}_leader", leader, leaders.NAVAL)
        cards = tuple(canonical(c, f"{side}_cards") for c in check_list(f"{side}_cards", cards))
        return cls(side, counts, corsairs, best.rating, power, cards, best.name)

    @property
    def n_ships(self) -> int:
        return sum(self.ships.values())


def _plural(kind):
    return {"galley": "galleys", "galleon": "galleons", "squadron": "squadrons"}.get(kind, kind)


@dataclass(frozen=True)
class Battle:
    """Everything both engines need, after the cards: dice pools and casualty parameters."""

    a_dice: int  # dice in the main roll of each side
    d_dice: int
    a_after: tuple  # AfterRoll entries in play order
    d_after: tuple
    a_ships: int
    d_ships: int
    a_corsairs: int
    d_corsairs: int
    a_race: int  # race-built galleons that cancel a 5 (0 unless Atlantic, not a port)
    d_race: int
    hits_per_ship: int
    hits_per_corsair: int
    a_groups: tuple = ()  # the main roll as (dice, hit number) groups, one per hit number
    d_groups: tuple = ()  # (empty: all of a_dice / d_dice hit on 5-6)

    def groups(self, side: int) -> tuple:
        """Side 0's (attacker's) or 1's main roll as (dice, hit number) groups."""
        given = (self.a_groups, self.d_groups)[side]
        return given or (((self.a_dice, self.d_dice)[side], 5),)

    @property
    def caps(self):
        """Hits that wipe out the attacker's and the defender's fleet."""
        k, kc = self.hits_per_ship, self.hits_per_corsair
        return k * self.a_ships + kc * self.a_corsairs, k * self.d_ships + kc * self.d_corsairs

    @property
    def shape(self):
        """[code, ships lost, ships lost, corsairs lost, corsairs lost]: code bits 0-1 as in
        `summarise`, bit 2 + i: the i-th after-roll card (attacker's first) was played."""
        return (4 << len(self.a_after) + len(self.d_after), self.a_ships + 1, self.d_ships + 1,
                self.a_corsairs + 1, self.d_corsairs + 1)

    @property
    def table(self) -> np.ndarray:
        """settle_table of this battle."""
        return settle_table(self)


def setup(att: Fleet, dfn: Fleet, rules: Ruleset, location: str, port: bool) -> Battle:
    """Count dice, apply the cards in game order and fix their numbers from the ruleset: each
    side's main roll as dice per hit number (`Battle.groups`)."""
    sides, groups = [], []
    for fleet in (att, dfn):
        kinds = [(n * rules.dice_per[k], k) for k, n in fleet.ships.items()]
        kinds += [(fleet.corsairs * rules.dice_per[CORSAIR], CORSAIR), (fleet.leader, LEADER)]
        if fleet.side == "defender" and port:
            kinds.append((rules.dice_per[PORT], PORT))
        dice = sum(n for n, _ in kinds)
        for spec in fleet.cards:
            card, _policy = parse(spec, f"{fleet.side}_cards")
            if card.name not in rules.cards:
                raise OddsError(f"{fleet.side}_cards: {card.name!r} is not a card of the {rules.name} "
                                f"ruleset (allowed: {', '.join(rules.cards)})")
            if card.name == "galleasses" and location != "mediterranean":
                raise OddsError(_("{side}_cards: 'galleasses' in the {location} (allowed: only in "
                                  "the mediterranean)").format(side=fleet.side, location=location))
        sides.append(Side(fleet.side, fleet.power, 0, 0, 0, dice=dice))
        groups.append(kinds)
    a, d = sides
    play("naval", a, d, att.cards, dfn.cards)
    for s, fleet, kinds in zip(sides, (att, dfn), groups):
        # Arquebusiers added its fixed 2 dice in cards.py; use the ruleset's number instead.
        if any(parse(c, "")[0].name == "arquebusiers" for c in fleet.cards):
            s.dice += rules.dice_per["arquebusiers"] - 2
            kinds.append((rules.dice_per["arquebusiers"], "arquebusiers"))
        s.after = [replace(x, count=rules.dice_per[x.card], threshold=rules.hit(s.role, x.card))
                   for x in s.after]
    race = lambda f: f.ships.get(rules.race_built, 0) if (location == "atlantic" and not port) else 0
    a_groups, d_groups = (_by_hit_number(kinds, rules, s.role) for kinds, s in zip(groups, sides))
    return Battle(a.dice, d.dice, tuple(a.after), tuple(d.after), att.n_ships, dfn.n_ships,
                  att.corsairs, dfn.corsairs, race(att), race(dfn),
                  rules.hits_per_ship, rules.hits_per_corsair, a_groups, d_groups)


def _by_hit_number(kinds, rules: Ruleset, side: str) -> tuple:
    """(dice, hit number) groups of a main roll given as (dice, kind) pairs: dice of one hit
    number added up, in order of hit number; () when every die hits on 5-6 (the plain roll)."""
    by = {}
    for n, kind in kinds:
        if n:
            t = rules.hit(side, kind)
            by[t] = by.get(t, 0) + n
    return () if set(by) <= {5} else tuple(sorted(((n, t) for t, n in by.items()), key=lambda g: g[1]))


@lru_cache(maxsize=256)
def _settle_table(sa, sd, ca, cd, k, kc):
    table = settle_grid(sa, sd, ca, cd, k, kc)
    table.setflags(write=False)
    return table


def settle_table(b) -> np.ndarray:
    """Flat joint index of `settle` for every (attacker won, attacker rolled more dice, hits
    taken by the attacker, hits taken by the defender); both engines look outcomes up here.

    Hits are capped at `Battle.caps`, what wipes a fleet out: more change nothing.
    """
    return _settle_table(b.a_ships, b.d_ships, b.a_corsairs, b.d_corsairs,
                         b.hits_per_ship, b.hits_per_corsair)
