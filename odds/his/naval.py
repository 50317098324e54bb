"""Naval combat (RULES.md §1.3): Virgin Queen fleets (`vq`) and the Here I Stand variant (`his`).

Rules as data: a `Ruleset` holds the dice per ship type, corsair, port and card, the hits that
sink a ship or a corsair, and the cards it admits. Every number is a setting a user can
override (`dice_per={"galley": 1}`, `hits_per_ship=3`, or a whole `Ruleset`).

Casualties, my reading of the seed's step 8, for the hits H taken by a side with S ships
(galleys, galleons, race-built or squadrons) and C corsairs, with k hits per ship:
1. English race-built galleons in an Atlantic sea zone (not a port) first cancel one enemy
   hit rolled as a 5 each: H = hits - min(race-built, enemy fives). The winner is decided on
   the uncancelled hits.
2. Ships: min(S, H // k) ships sink.
3. If that sank every ship, each hit left sinks one corsair (hits_per_corsair each), the
   odd hit included, win or lose; further hits are lost.
4. Otherwise a left-over hit (H mod k > 0) sinks one more ship if the side lost the battle
   and is ignored if it won.
5. Both sides destroyed (no ship and no corsair left): the side that rolled more dice (card
   dice included) keeps one unit, a ship if it had any, else a corsair; equal dice: the
   defender.

Post-roll cards resolve in order, the attacker's before the defender's; `if-needed` plays a
card only when its side would not win as the dice stand at that moment.

Outcome joint: ``joint[code, attacker ships lost, defender ships lost, attacker corsairs
lost, defender corsairs lost]``, bit 0 of `code` "the attacker won", bit 1 "both sides were
destroyed and the rule gave one side a unit back". The kernel (naval_kernel.py) fills the
same joint.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import comb
from types import MappingProxyType

import numpy as np

from ..core.dice import binomial_pmf
from ..core.engine import McOptions, Procedure, solve
from ..core.result import Result
from ..config import MAX_LEADER, MAX_NAVAL_DICE, MAX_SHIPS
from ..errors import OddsError, check_bool, check_choice, check_int
from .cards import AfterRoll, Side, canonical, help_for, parse, play
from ..registry import Example, Param, Spec, register
from . import leaders
from .leaders import Leader
from .forces import POWERS
from .naval_cost import cost as naval_cost
from .naval_rules import five_share, needs_help, outcome_index, settle_grid
from .sequence import after_roll

LOCATIONS = ("mediterranean", "atlantic")
VQ_POWERS = ("ottoman", "spain", "england", "france", "papacy", "protestants", "other")
GALLEASSES = "Galleasses as +3 dice hitting on 5-6 is a reading; change with dice_per galleasses=N"
CORSAIR = "corsair"
PORT = "port"


# --- rulesets --------------------------------------------------------------------------------

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
        powers=VQ_POWERS,
        assumptions=("Virgin Queen dice per ship are a reading (the sources omit the table): 2 "
                     "per galley, galleon and race-built galleon, 1 per corsair, +1 in a port; "
                     "change them with dice_per",)),
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


# --- fleets ----------------------------------------------------------------------------------

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
            raise OddsError(f"{side}: a fleet with no ships (allowed: at least one ship or corsair)")
        if rules.race_built and counts.get(rules.race_built) and power != "england":
            raise OddsError(f"{side}_race_built: {counts[rules.race_built]} for the {power} side "
                            f"(allowed: only the england side has race-built galleons)")
        if corsairs and power != "ottoman":
            raise OddsError(f"{side}_corsairs: {corsairs} for the {power} side "
                            f"(allowed: only the ottoman side has corsairs)")
        best = leaders.leader(f"{side}_leader", leader, leaders.NAVAL)
        if isinstance(cards, str):
            cards = (cards,)
        cards = tuple(canonical(c, f"{side}_cards") for c in cards)
        return cls(side, counts, corsairs, best.rating, power, cards, best.name)

    @property
    def n_ships(self) -> int:
        return sum(self.ships.values())


def _plural(kind):
    return {"galley": "galleys", "galleon": "galleons", "squadron": "squadrons"}.get(kind, kind)


# --- setup -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Battle:
    """Everything both engines need, after the cards: dice pools and casualty parameters."""

    a_dice: int  # main pool (hits on 5-6) of each side
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
    """Count dice, apply the cards in game order and fix their numbers from the ruleset."""
    sides = []
    for fleet in (att, dfn):
        dice = sum(n * rules.dice_per[k] for k, n in fleet.ships.items())
        dice += fleet.corsairs * rules.dice_per[CORSAIR] + fleet.leader
        if fleet.side == "defender" and port:
            dice += rules.dice_per[PORT]
        for spec in fleet.cards:
            card, _ = parse(spec, f"{fleet.side}_cards")
            if card.name not in rules.cards:
                raise OddsError(f"{fleet.side}_cards: {card.name!r} is not a card of the {rules.name} "
                                f"ruleset (allowed: {', '.join(rules.cards)})")
            if card.name == "galleasses" and location != "mediterranean":
                raise OddsError(f"{fleet.side}_cards: 'galleasses' in the {location} "
                                f"(allowed: only in the mediterranean)")
        sides.append(Side(fleet.side, fleet.power, 0, 0, 0, dice=dice))
    a, d = sides
    play("naval", a, d, att.cards, dfn.cards)
    for s, fleet in zip(sides, (att, dfn)):
        # Arquebusiers added its fixed 2 dice in cards.py; use the ruleset's number instead.
        if any(parse(c, "")[0].name == "arquebusiers" for c in fleet.cards):
            s.dice += rules.dice_per["arquebusiers"] - 2
        s.after = [replace(x, count=rules.dice_per[x.card], threshold=rules.card_hit_on.get(x.card, 5))
                   for x in s.after]
    race = lambda f: f.ships.get(rules.race_built, 0) if (location == "atlantic" and not port) else 0
    return Battle(a.dice, d.dice, tuple(a.after), tuple(d.after), att.n_ships, dfn.n_ships,
                  att.corsairs, dfn.corsairs, race(att), race(dfn),
                  rules.hits_per_ship, rules.hits_per_corsair)


# --- the casualty rule: naval_rules.py; its table, cached ------------------------------------

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


# --- exact engine ----------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def hits_fives(n: int, threshold: int = 5, fives: bool = True) -> np.ndarray:
    """Joint pmf [hits, fives among them] of `n` dice (one fives column if `fives` is False).

    Given h hits, the 5s among them are Binomial(h, five_share); for 5-6 dice this is
    `trinomial_pmf` re-indexed (the tests check it).
    """
    hits = binomial_pmf(n, threshold)
    if not fives:
        return hits[:, None]
    q = five_share(threshold)
    out = np.zeros((n + 1, n + 1))
    for h in range(n + 1):
        f = np.arange(h + 1)
        out[h, : h + 1] = hits[h] * np.array([comb(h, int(i)) for i in f]) * q**f * (1 - q) ** (h - f)
    out.setflags(write=False)
    return out


def _merge(cols, p):
    """Add up rows with equal columns (keeps the row count small between card expansions)."""
    keys, inv = np.unique(np.stack(cols), axis=1, return_inverse=True)
    return list(keys), np.bincount(inv.ravel(), weights=p)


def _after(cols, p, card: AfterRoll, is_attacker: bool, fives: bool, bit: int):
    """Rows (ah, dh, adice, ddice, af, df, played bits) after one after-roll card under its
    policy, merged; `bit` marks the rows where it was played."""
    table = hits_fives(card.count, card.threshold, fives)
    needed = needs_help(is_attacker, cols[0], cols[1])
    cols, p, played, _ = after_roll(cols, p, card, table, 0 if is_attacker else 1, needed)
    cols[6] = cols[6] + bit * played
    return _merge(cols, p)


def exact_joint(b: Battle) -> np.ndarray:
    """The joint outcome distribution, enumerated."""
    a_fives, d_fives = b.d_race > 0, b.a_race > 0  # whose 5s matter: the enemy of race-built
    pa = hits_fives(b.a_dice, 5, a_fives)
    pd = hits_fives(b.d_dice, 5, d_fives)
    ia, ja = np.nonzero(pa)
    idd, jd = np.nonzero(pd)
    ah, dh = np.repeat(ia, len(idd)), np.tile(idd, len(ia))
    af, df = np.repeat(ja, len(idd)), np.tile(jd, len(ia))
    p = np.outer(pa[ia, ja], pd[idd, jd]).ravel()
    cols = [ah, dh, np.full(len(p), b.a_dice), np.full(len(p), b.d_dice), af, df,
            np.zeros(len(p), int)]
    for i, (card, is_attacker) in enumerate([(c, True) for c in b.a_after] +
                                            [(c, False) for c in b.d_after]):
        cols, p = _after(cols, p, card, is_attacker, a_fives if is_attacker else d_fives, 1 << i)
    ah, dh, adice, ddice, af, df, bits = cols
    rest = int(np.prod(b.shape[1:]))
    index = outcome_index(b.table, ah, dh, af, df, adice, ddice, b.a_race, b.d_race, *b.caps) \
        + 4 * bits * rest
    return np.bincount(index, weights=p, minlength=int(np.prod(b.shape))).reshape(b.shape)


# --- summary ---------------------------------------------------------------------------------

def summarise(joint, port: bool, cards=()):
    """Probabilities and loss pmfs from the joint (linear: works on counts too).

    A side is destroyed when it has no ship and no corsair left (its naval leaders go to the
    turn track). It retreats when it has survivors and either lost or attacked a port.
    `cards`: (role, name) of the after-roll cards in play order, for how often each is played.
    """
    sa, sd, ca, cd = (n - 1 for n in joint.shape[1:])
    a_dead = joint[:, sa, :, ca, :].sum()
    d_dead = joint[:, :, sd, :, cd].sum()
    by_code = joint.sum(axis=(1, 2, 3, 4))
    code = np.arange(len(by_code))
    a_win = (by_code * (code & 1)).sum()
    d_win = (by_code * (1 - (code & 1))).sum()
    a_dead_loses = joint[0::2, sa, :, ca, :].sum()
    d_dead_loses = joint[1::2, :, sd, :, cd].sum()
    probabilities = {
        "attacker_win": a_win,
        "attacker_destroyed": a_dead,
        "defender_destroyed": d_dead,
        "both_destroyed_rule": (by_code * (code >> 1 & 1)).sum(),
        "attacker_retreats": (a_win + d_win - a_dead) if port else d_win - a_dead_loses,
        "defender_retreats": 0 * a_win if port else a_win - d_dead_loses,
    }
    for i, (role, card) in enumerate(cards, 2):
        probabilities[f"{role}_plays_{card.replace('-', '_')}"] = (by_code * (code >> i & 1)).sum()
    pmfs = {"attacker_losses": joint.sum(axis=(0, 2, 3, 4)),
            "defender_losses": joint.sum(axis=(0, 1, 3, 4)),
            "attacker_corsair_losses": joint.sum(axis=(0, 1, 2, 4)),
            "defender_corsair_losses": joint.sum(axis=(0, 1, 2, 3))}
    return probabilities, pmfs


class NavalResult(Result):
    """A Result whose JSON also carries the ruleset name and its numbers at the top level."""

    def to_json(self) -> dict:
        out = super().to_json()
        head = {"procedure": out.pop("procedure"), "ruleset": self.settings["ruleset"]}
        numbers = {k: out["settings"][k] for k in RULESET_KEYS}
        return {**head, **out, **numbers}


# --- public function -------------------------------------------------------------------------

def _assumptions(rules: Ruleset, *fleets) -> tuple:
    """The readings a naval answer rests on: the ruleset's, Galleasses' dice, the leaders."""
    out = rules.assumptions
    if any(c.startswith("galleasses") for f in fleets for c in f.cards):
        out += (GALLEASSES,)
    if any(f.leader_name for f in fleets):
        out += (leaders.ASSUMPTION,)
    return out


def _kernel_args(b):
    from .naval_kernel import kernel_args

    return kernel_args(b)


def naval_battle(*, attacker_galleys=0, attacker_galleons=0, attacker_race_built=0,
                 attacker_squadrons=0, attacker_corsairs=0, attacker_leader=0,
                 attacker_power="other", attacker_cards=(),
                 defender_galleys=0, defender_galleons=0, defender_race_built=0,
                 defender_squadrons=0, defender_corsairs=0, defender_leader=0,
                 defender_power="other", defender_cards=(),
                 location="mediterranean", port=False, ruleset="vq", dice_per=None,
                 hits_per_ship=None, hits_per_corsair=None,
                 method="auto", trials=None, seed=None, precision=None, max_trials=10**9,
                 threads=None, progress=None):
    """Odds of a Virgin Queen (`ruleset="vq"`) or Here I Stand (`"his"`) naval combat.

    Counts of ships per type (vq: galleys, galleons, race-built galleons; his: squadrons) and
    corsairs (Ottomans only); leaders are the best naval rating; cards are names with
    ':always' or ':if-needed' for those played after the roll. `location` is the sea zone
    (or the zone of the port, with `port=True`). `dice_per` ({"galley": 1} or ["galley=1"])
    overrides dice per ship type, corsair, port bonus or card. Returns a Result:
    attacker_win, attacker/defender_destroyed (leaders to the turn track), both_destroyed_rule,
    attacker/defender_retreats, and pmfs of ships and of corsairs each side loses.
    """
    rules = get_ruleset(ruleset).override(dice_per, hits_per_ship, hits_per_corsair)
    location = check_choice("location", location, LOCATIONS)
    port = check_bool("port", port)
    att = Fleet.make("attacker", rules, {"galley": attacker_galleys, "galleon": attacker_galleons,
                                         "race_built": attacker_race_built,
                                         "squadron": attacker_squadrons},
                     attacker_corsairs, attacker_leader, attacker_power, attacker_cards)
    dfn = Fleet.make("defender", rules, {"galley": defender_galleys, "galleon": defender_galleons,
                                         "race_built": defender_race_built,
                                         "squadron": defender_squadrons},
                     defender_corsairs, defender_leader, defender_power, defender_cards)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    b = setup(att, dfn, rules, location, port)
    for side, dice, after in (("attacker", b.a_dice, b.a_after), ("defender", b.d_dice, b.d_after)):
        total = dice + sum(c.count for c in after)
        if total > MAX_NAVAL_DICE:
            raise OddsError(f"{side}: {total} dice with cards (allowed: at most {MAX_NAVAL_DICE} "
                            "per side; fewer ships or fewer dice_per)")
    settings = {"ruleset": rules.name, "location": location, "port": port,
                "attacker_power": att.power, "defender_power": dfn.power,
                "attacker_leader": str(Leader(att.leader, att.leader_name)),
                "defender_leader": str(Leader(dfn.leader, dfn.leader_name)),
                "attacker_cards": list(att.cards), "defender_cards": list(dfn.cards),
                "attacker_dice": b.a_dice, "defender_dice": b.d_dice, **rules.numbers()}
    cards = [("attacker", c.card) for c in b.a_after] + [("defender", c.card) for c in b.d_after]
    proc = Procedure(f"{rules.name}.naval", b.shape, lambda j: summarise(j, port, cards),
                     "attacker_win",
                     lambda: exact_joint(b), ("odds.his.naval_kernel", "naval_lane"),
                     lambda: _kernel_args(b), settings, NavalResult, _assumptions(rules, att, dfn),
                     explain=explain(b, rules, att, dfn, port), cost=lambda: naval_cost(b))
    return solve(proc, method, mc)


def explain(b: Battle, rules: Ruleset, att: Fleet, dfn: Fleet, port: bool) -> tuple:
    """The dice each side rolls and why, in words."""
    lines = []
    for fleet, dice, after in ((att, b.a_dice, b.a_after), (dfn, b.d_dice, b.d_after)):
        words = [f"{n} {kind.replace('_', '-')} x {rules.dice_per[kind]}"
                 for kind, n in fleet.ships.items() if n]
        words += [f"{fleet.corsairs} corsairs x {rules.dice_per[CORSAIR]}"] if fleet.corsairs else []
        words += [f"leader {fleet.leader_name or ''} {fleet.leader}".replace("  ", " ")] if fleet.leader else []
        words += [f"port {rules.dice_per[PORT]}"] if port and fleet.side == "defender" else []
        words += [f"{c} {rules.dice_per[c]}" for c in fleet.cards if parse(c, "")[0].timing != "after"]
        text = f"{fleet.side} rolls {dice} dice: " + " + ".join(words)
        for card in after:
            text += f"; then {card.card} ({card.count} dice) {card.policy.replace('-', ' ')}"
        lines.append(text)
    return tuple(lines)


SHIP_KEYWORDS = {"vq": ("galleys", "galleons", "race_built"), "his": ("squadrons",)}
SHIP_HELP = {"galleys": "galleys", "galleons": "galleons",
             "race_built": "race-built galleons (England only)", "squadrons": "naval squadrons"}


def naval_params(ruleset: str) -> tuple:
    """The keywords of a naval combat under `ruleset`: ships by type, corsairs, leader, power,
    cards per side, then the place and the ruleset's numbers."""
    rules = RULESETS[ruleset]
    out = []
    for side in ("attacker", "defender"):
        out += [Param(f"{side}_{kind}", "int", f"{side}'s {SHIP_HELP[kind]}", low=0,
                      high=MAX_SHIPS, metavar="N") for kind in SHIP_KEYWORDS[ruleset]]
        out += [Param(f"{side}_corsairs", "int", "corsairs (Ottoman only)", low=0, high=MAX_SHIPS,
                      metavar="N"),
                Param(f"{side}_leader", "leader", "the best naval leader: a rating (0: none) or "
                      "a name", low=0, high=MAX_LEADER, choices=leaders.choices(leaders.NAVAL),
                      metavar="R|NAME"),
                Param(f"{side}_power", "choice", "the major power", choices=rules.powers,
                      metavar="POWER"),
                Param(f"{side}_cards", "cards", f"a card the {side} plays, repeatable: "
                      f"{help_for('naval', rules.cards)}", choices=rules.cards, flag=f"{side}-card",
                      metavar="CARD[:POLICY]")]
    if ruleset == "vq":
        out.append(Param("location", "choice", "the sea zone (or the zone of the port); the "
                         "command line asks for it, since Galleasses and race-built galleons "
                         "depend on it", choices=LOCATIONS, cli={"required": True}))
    return tuple(out) + (
        Param("port", "bool", "the battle is in a port (the defender's bonus die; the attacker "
              "retreats)"),
        Param("dice_per", "pairs", "dice per ship type, corsair, port bonus or card, "
              "repeatable: " + ", ".join(f"{k}={v}" for k, v in rules.dice_per.items()),
              metavar="TYPE=N"),
        Param("hits_per_ship", "int", f"hits that sink a ship (default {rules.hits_per_ship})",
              low=1, high=20, metavar="K"),
        Param("hits_per_corsair", "int", f"hits that sink a corsair (default "
              f"{rules.hits_per_corsair})", low=1, high=20, metavar="K"))


def _omitted(ruleset: str) -> tuple:
    others = {k for r, kinds in SHIP_KEYWORDS.items() if r != ruleset for k in kinds}
    return tuple(f"{side}_{k}" for side in ("attacker", "defender") for k in sorted(others)) + \
        (("location",) if ruleset == "his" else ())


VQ_SPEC = register(Spec(
    "vq.naval", naval_battle, naval_params("vq"), "naval combat (Virgin Queen fleets)",
    ("vq", "naval"), "attacker_win", kernels=("odds.his.naval_kernel",), preset={"ruleset": "vq"},
    omit=_omitted("vq"), start={"attacker_galleys": 3, "defender_galleys": 3},
    examples=(
        Example("race-built atlantic", dict(attacker_race_built=3, attacker_leader=1,
                                            attacker_power="england", defender_galleons=4,
                                            defender_power="spain", location="atlantic"),
                "Virgin Queen naval combat in the Atlantic: 3 English race-built galleons + "
                "leader 1 attack 4 Spanish galleons", demo=True),
        Example("4v4 galleys", dict(attacker_galleys=4, defender_galleys=4,
                                    location="mediterranean")),
        Example("race-built mixed", dict(attacker_race_built=3, attacker_galleons=1,
                                         attacker_leader=1, attacker_power="england",
                                         defender_galleons=3, defender_galleys=2,
                                         location="atlantic")),
        Example("race-built both sides, cards", dict(
            attacker_race_built=2, attacker_power="england", defender_race_built=1,
            defender_galleons=1, defender_power="england", location="atlantic",
            defender_cards=["arquebusiers"])),
        Example("galleasses port", dict(attacker_galleys=3, defender_galleys=2,
                                        defender_corsairs=2, defender_power="ottoman", port=True,
                                        defender_cards=["galleasses:always"],
                                        location="mediterranean")),
    )))

HIS_SPEC = register(Spec(
    "his.naval", naval_battle, naval_params("his"), "naval combat (squadrons and corsairs)",
    ("his", "naval"), "attacker_win", kernels=("odds.his.naval_kernel",),
    preset={"ruleset": "his"}, omit=_omitted("his"),
    start={"attacker_squadrons": 3, "defender_squadrons": 3},
    examples=(
        Example("ottoman port", dict(attacker_squadrons=3, attacker_leader=1, defender_squadrons=2,
                                     defender_corsairs=2, defender_power="ottoman",
                                     defender_cards=["janissaries:if-needed"], port=True),
                "Here I Stand naval combat: 3 squadrons + leader 1 attack 2 Ottoman squadrons "
                "+ 2 corsairs in port (Janissaries if needed), Monte Carlo", demo=True,
                mc={"method": "mc", "seed": 1}),
        Example("ottomans lose all ships", dict(attacker_squadrons=5, attacker_leader=2,
                                                defender_squadrons=1, defender_corsairs=4,
                                                defender_power="ottoman",
                                                defender_cards=["janissaries:if-needed"],
                                                attacker_cards=["professional-rowers:if-needed"])),
        Example("corsairs only, both destroyed", dict(attacker_corsairs=2,
                                                      attacker_power="ottoman",
                                                      defender_squadrons=1)),
    )))
