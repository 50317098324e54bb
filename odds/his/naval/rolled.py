"""A naval combat's roll as a game's record gives it (core.rolled), Virgin Queen fleets or Here
I Stand squadrons: each side's dice hitting on 5-6 (`attacker_dice`, `defender_dice`), then
each after-roll card played under its policy as the dice stand (`attacker_galleasses_dice`,
`defender_janissaries_dice`, ...), the attacker's first. Where race-built galleons cancel the
enemy's 5s (the Atlantic, not a port) that enemy's faces are needed, not only its hits. The
winner, the ships and the corsairs lost follow from naval/rules.py's `settle`, as in both
engines (hits beyond what sinks a fleet change nothing)."""
from __future__ import annotations

from ...core.rolled import Outcome, hit_die
from ...errors import OddsError, check_bool, check_choice
from ..cards import POLICY_CODES, plays
from ..rolls.reading import BATTLE_DIE, HIT_ON, card_field
from .fleets import Fleet, setup
from .procedure import LOCATIONS
from .rules import needs_help, settle
from .ruleset import get_ruleset

SHIPS = {"galley": "galleys", "galleon": "galleons", "race_built": "race_built",
         "squadron": "squadrons"}  # ship type -> its keyword after the side's name


def battle(keywords: dict):
    """The Battle of a naval combat's keywords, as `naval_battle` sets it up."""
    kw = keywords
    rules = get_ruleset(kw["ruleset"]).override(kw["dice_per"], kw["hits_per_ship"], kw["hits_per_corsair"],
                                                kw.get("hit_on"))
    location = check_choice("location", kw["location"], LOCATIONS)
    port = check_bool("port", kw["port"])
    fleets = [Fleet.make(side, rules, {kind: kw[f"{side}_{word}"] for kind, word in SHIPS.items()},
                         kw[f"{side}_corsairs"], kw[f"{side}_leader"], kw[f"{side}_power"],
                         kw[f"{side}_cards"]) for side in ("attacker", "defender")]
    return setup(*fleets, rules, location, port)


def _roll(record, name, role, count, die, fives_matter) -> tuple:
    """(hits, fives among them) of a group of dice: the faces when the 5s matter."""
    if not fives_matter:
        return record.hits(name, role, count, die), 0
    faces = record.dice(name, role, count, die)
    return sum(f in die.hits for f in faces), sum(f == 5 and f in die.hits for f in faces)


def _main_die(b, side: int):
    """The die of a side's main roll: 5-6, or the one hit number a variant gives all of it; a
    roll of several hit numbers (hit_on for some kinds of die) is not one list of dice."""
    groups = b.groups(side)
    if len(groups) > 1:
        role = ("attacker", "defender")[side]
        raise OddsError(f"hit_on: the {role}'s dice hit on {' and '.join(f'{t}-6' for _, t in groups)}: "
                        "a record gives one list of a side's dice (allowed: one hit number for "
                        "all of a side's main roll)")
    return BATTLE_DIE if groups[0][1] == HIT_ON else hit_die(groups[0][1])


def read(keywords: dict, record) -> Outcome:
    """attacker_dice, defender_dice (hits on 5-6; the faces where race-built galleons cancel
    5s); a card played after the roll: {role}_{card}_dice."""
    b = battle(keywords)
    fives = {"attacker": b.d_race > 0, "defender": b.a_race > 0}  # whose 5s the enemy cancels
    hits, five, dice = {}, {}, {"attacker": b.a_dice, "defender": b.d_dice}
    for side, role in enumerate(("attacker", "defender")):
        hits[role], five[role] = _roll(record, f"{role}_dice", role, dice[role], _main_die(b, side),
                                       fives[role])
    for role, after in (("attacker", b.a_after), ("defender", b.d_after)):
        for card in after:
            if not plays(POLICY_CODES[card.policy], needs_help(role == "attacker", hits["attacker"],
                                                                hits["defender"])):
                continue
            h, f = _roll(record, card_field(role, card.card), role, card.count,
                         hit_die(card.threshold), fives[role])
            hits[role], five[role], dice[role] = hits[role] + h, five[role] + f, dice[role] + card.count
    ah, dh = hits["attacker"], hits["defender"]
    cap_a, cap_d = b.caps
    ha = min(dh - min(b.a_race, five["defender"]), cap_a)
    hd = min(ah - min(b.d_race, five["attacker"]), cap_d)
    code, a_sunk, d_sunk, a_cors, d_cors = settle(
        int(ah > dh), ha, hd, int(dice["attacker"] > dice["defender"]), b.a_ships, b.d_ships,
        b.a_corsairs, b.d_corsairs, b.hits_per_ship, b.hits_per_corsair)
    return Outcome(bool(code & 1), {"attacker_losses": int(a_sunk), "defender_losses": int(d_sunk),
                                    "attacker_corsair_losses": int(a_cors),
                                    "defender_corsair_losses": int(d_cors)})
