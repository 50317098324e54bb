"""An interception or avoid-battle roll as a game's record gives it (core.rolled): the rolling
side's two dice, read by their numbers (`attacker_dice = [3, 5]`: the roller is the record's
side). Professional Rowers, held by either side, is played after the roll under its policy as
the total stands (interceptions/rules.py's `settle`, as in both engines); it rolls no dice."""
from __future__ import annotations

from ...core.rolled import Outcome, numbered_die
from .procedure import modifiers
from .rules import settle

DIE = numbered_die()


def read(keywords: dict, record) -> Outcome:
    """attacker_dice: the roller's two dice (the roller is the side)."""
    modifier, target, mine, theirs = modifiers(keywords)
    total = sum(record.dice("attacker_dice", "attacker", 2, DIE))
    success, _, _ = settle(total, modifier, target, mine, theirs)
    return Outcome(bool(success), {"two_dice": int(total)})
