"""A field battle's roll as a game's record gives it (core.rolled; rolls/reading.py): both
sides' dice hitting on 5-6 (`attacker_dice`, `defender_dice`, or their hits), Tercios' dice
(`{role}_tercios_dice`, hitting on 4-6), each after-roll card played under its policy with its
own dice (`attacker_janissaries_dice`); Surprise Attack's side rolls first. The winner and the
losses follow from field/rules.py's `resolve`, as in both engines."""
from __future__ import annotations

from ...core.rolled import Outcome
from ..rolls.reading import battle
from .procedure import DEFENDING, HIT_ON, forces, hit_numbers, setup
from .rules import dice, needs_help, resolve

FORCES = ("attacker", "attacker_mercenaries", "attacker_cavalry", "attacker_leader",
          "attacker_power", "attacker_cards", "defender", "defender_mercenaries",
          "defender_cavalry", "defender_leader", "defender_power", "defender_cards")


def count(side, lost, surprised):
    """A side's dice hitting on 5-6 and whether it rolls (field/rules.py's `dice`)."""
    return dice(side.units, side.dice - side.penalty, lost, surprised)


def read(keywords: dict, record) -> Outcome:
    """attacker_dice, defender_dice (hits on 5-6; or attacker_hits, defender_hits); Tercios:
    {role}_tercios_dice (4-6); an after-roll card played: {role}_janissaries_dice."""
    a, d = setup(*forces(**{k: v for k, v in keywords.items() if k in FORCES}),
                 defending=keywords.get("defender_bonus_dice", DEFENDING))
    hit_numbers(a, d, keywords.get("attacker_hit_on", HIT_ON), keywords.get("defender_hit_on", HIT_ON))
    rolled = battle(a, d, record, count, needs_help)
    code, a_loss, d_loss = resolve(*rolled.columns(), a.units, d.units)
    return Outcome(bool(code & 1), {"attacker_losses": int(a_loss), "defender_losses": int(d_loss)})
