"""An assault's roll as a game's record gives it (core.rolled; rolls/reading.py): the
attacker's dice (one per non-cavalry unit, halved rounded up against any defending unit, plus
its leader and cards) and the defender's, both hitting on 5-6 or on a variant's hit numbers
(`attacker_hit_on`, `defender_hit_on`: field.procedure.hit_numbers) (`attacker_dice`,
`defender_dice`, or their hits); Siege Artillery, played under its policy, rolls 2 dice
hitting on 3-6 (`attacker_siege_artillery_dice`). Success and the losses follow from
assaults/rules.py, as in both engines. An assault that Mercenaries Grow Restless breaks rolls
no dice."""
from __future__ import annotations

from ...core.rolled import Outcome
from ...errors import OddsError
from ..rolls.reading import battle
from ..field.procedure import HIT_ON, hit_numbers, setup
from .procedure import check_settings, forces, restless_breaks
from .rules import dice, fails, resolve, succeeds

FORCES = ("attacker", "defender", "attacker_mercenaries", "attacker_cavalry", "attacker_leader",
          "attacker_power", "attacker_cards", "defender_mercenaries", "defender_cavalry",
          "defender_leader", "defender_power", "defender_cards")  # field.procedure.forces' order


def sides(keywords: dict):
    """(attacker Side, defender Side, cavalry first?, the siege broke) of an assault's keywords,
    as `assault` sets them up."""
    att, dfn = forces(*(keywords[k] for k in FORCES), gout=keywords.get("gout"),
                      allow_bribed_surprise=keywords["allow_bribed_surprise"])
    cavalry_first, allowed = check_settings(keywords["casualties"], keywords["allow_bribed_surprise"])
    a, d = setup(att, dfn, "assault", allowed)
    hit_numbers(a, d, keywords.get("attacker_hit_on", HIT_ON),
                keywords.get("defender_hit_on", HIT_ON))
    return a, d, cavalry_first, restless_breaks(a, d, dfn.cards)


def counter(halved: int, cavalry_first: bool):
    """count(side, lost, surprised) of an assault: the attacker's dice halved when `halved`."""
    def count(side, lost, surprised):
        return dice(side.units - side.cavalry, side.cavalry, side.dice - side.penalty,
                    halved * (side.role == "attacker"), lost, cavalry_first, surprised)
    return count


def assault(a, d, cavalry_first, record, round: int = 0) -> tuple:
    """(attacker hits, defender hits) of one assault between Sides `a` and `d` as the record
    gives it; Siege Artillery where the assault would fail without it."""
    rolled = battle(a, d, record, counter(int(d.units > 0), cavalry_first),
                    lambda attacker, ah, dh: fails(ah, dh, a.units, d.units), round)
    return rolled.hits["attacker"], rolled.hits["defender"]


def read(keywords: dict, record) -> Outcome:
    """attacker_dice, defender_dice (hits on 5-6 or the variant's numbers, or their hits);
    Siege Artillery played: attacker_siege_artillery_dice (3-6)."""
    if keywords["cancel_probability"]:
        raise OddsError(f"attacker_dice: rolled, so Foul Weather did not cancel this assault "
                        f"(allowed: cancel_probability = 0 with the dice, the odds of an assault "
                        f"that took place; not {keywords['cancel_probability']!r})")
    a, d, cavalry_first, breaks = sides(keywords)
    ah, dh = (0, 0) if breaks else assault(a, d, cavalry_first, record)
    _, a_loss, d_loss = resolve(ah, dh, a.units, d.units)
    won = bool(succeeds(ah, dh, a.units, d.units)) and not breaks
    return Outcome(won, {"attacker_losses": int(a_loss), "defender_losses": int(d_loss)})
