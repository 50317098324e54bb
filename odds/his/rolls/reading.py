"""A Here I Stand battle's roll as a game's record gives it (core.rolled): the same chance
sequence as sequence.py, one roll at a time, the dice asked of the record in the order the
rules roll them.

1. Main roll: each side's dice hitting on 5-6 (`{role}_dice`; on its hit number where a
   variant sets one: field.procedure.hit_numbers), and a group of dice of another
   kind (Tercios' dice hitting on 4-6, `{role}_tercios_dice`); with Surprise Attack the side
   that played it rolls first and the other counts its dice after those losses.
2. After-roll cards, the attacker's first, each under its policy as the engines play it
   (cards.plays: `always`, or `if-needed` where its side needs it as the dice stand): a card
   played rolls its own dice (`{role}_{card}_dice`, e.g. `attacker_janissaries_dice`).

A procedure gives its own dice rule (`count(side, lost, surprised) -> (dice, rolls?)`) and
when its side needs a card (`needs(is_attacker, ah, dh)`), as it does to sequence.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.rolled import hit_die
from ..cards import POLICY_CODES, plays
from .sequence import surprise, surprised_out

HIT_ON = 5  # a Here I Stand battle die hits on 5 or 6 (core.dice's default threshold)
BATTLE_DIE = hit_die(HIT_ON)


def card_field(role: str, card: str) -> str:
    """The record's field of an after-roll card's dice: attacker_janissaries_dice."""
    return f"{role}_{card.replace('-', '_')}_dice"


@dataclass
class Rolled:
    """Hits and dice so far of a battle's roll, by role."""

    hits: dict
    dice: dict

    def columns(self) -> tuple:
        """(attacker hits, defender hits, attacker dice, defender dice), as sequence.py's rows."""
        return self.hits["attacker"], self.hits["defender"], self.dice["attacker"], self.dice["defender"]


def main_roll(a, d, record, count, round: int = 0) -> Rolled:
    """The main roll as `record` gives it (`round`: the assault of a siege)."""
    first = surprise(a, d)
    order = (d, a) if first == 2 else (a, d)
    rolled = Rolled({}, {})
    for i, side in enumerate(order):
        surprised = bool(first) and i == 1
        lost = rolled.hits[order[0].role] if surprised else 0
        n, rolls = count(side, lost, surprised)
        die = BATTLE_DIE if side.hit_on == HIT_ON else hit_die(side.hit_on)  # a variant's hit number
        hits = record.hits(f"{side.role}_dice", side.role, int(n) if rolls else 0, die, round)
        total = int(n) if rolls else 0
        for extra, threshold in (side.extra if rolls else ()):
            hits += record.hits(f"{side.role}_tercios_dice", side.role, extra, hit_die(threshold), round)
            total += extra
        rolled.hits[side.role], rolled.dice[side.role] = hits, total
    return rolled


def after_roll(a, d, rolled: Rolled, record, needs, round: int = 0) -> Rolled:
    """`rolled` after both sides' after-roll cards, the attacker's first: a card is played
    where its policy plays it as the dice stand (a side surprised and wiped out plays none)."""
    ah, dh, _, _ = rolled.columns()
    out = surprised_out(surprise(a, d), ah, dh, a.units, d.units)
    for who, side in enumerate((a, d)):
        for card in side.after:
            ah, dh = rolled.hits["attacker"], rolled.hits["defender"]
            if out[who] or not plays(POLICY_CODES[card.policy], needs(who == 0, ah, dh)):
                continue
            rolled.hits[side.role] += record.hits(card_field(side.role, card.card), side.role,
                                                  card.count, hit_die(card.threshold), round)
            rolled.dice[side.role] += card.count
    return rolled


def battle(a, d, record, count, needs, round: int = 0) -> Rolled:
    """Both steps: the roll's hits and dice by role."""
    return after_roll(a, d, main_roll(a, d, record, count, round), record, needs, round)
