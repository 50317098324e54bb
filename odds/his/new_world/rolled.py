"""The New World's rolls as a game's record gives them (core.rolled), the rolling side's dice
read by their numbers (`attacker_dice`):
- exploration: the two dice of the voyage, and on 10+ the two of the circumnavigation (a
  second list: `attacker_dice = [[5, 6], [4, 3]]`), read on tables.py's table;
- conquest: the two dice of the voyage;
- raiders: one die per Hapsburg card, in turn, until the raider is eliminated
  (`attacker_dice = [6, 3, 1]`), each read by tables.py's `raider_roll`;
as in both engines."""
from __future__ import annotations

from ...core.rolled import Outcome, numbered_die
from . import tables
from .voyages import MERCATOR, SMALLPOX, UNCHARTED

DIE = numbered_die()


def _two(record, round: int = 0) -> int:
    return sum(record.dice("attacker_dice", "attacker", 2, DIE, round))


def exploration(keywords: dict, record) -> Outcome:
    """attacker_dice: the voyage's two dice, and on 10+ the circumnavigation's (a second list)."""
    kw = keywords
    modifier = kw["explorer"] + MERCATOR * kw["mercator"] + UNCHARTED * kw["uncharted"]
    first = _two(record)
    second_from = tables.NO_SECOND_ROLL if kw["skip_circumnavigation"] else tables.CIRCUMNAVIGATES
    second = _two(record, 1) + modifier - UNCHARTED * kw["uncharted"] \
        if first + modifier >= second_from else None  # the circumnavigation: never the -1
    result = tables.exploration_result(first + modifier)
    circles = second is not None and second >= tables.CIRCUMNAVIGATES
    events = {name: bool(result == r) for r, name in enumerate(("lost", "nothing", "discovery", "deep"))}
    events.update(circumnavigates=circles, explorer_removed=bool(
        result == tables.LOST or (second is not None and not circles)),
        circumnavigation_card=second is not None and second >= tables.CIRCUMNAVIGATION_CARD)
    return Outcome(events["discovery"], {"modified_roll": first + modifier}, events=events)


def conquest(keywords: dict, record) -> Outcome:
    """attacker_dice: the voyage's two dice."""
    modifier = keywords["conquistador"] + SMALLPOX * keywords["smallpox"]
    result = tables.conquest_result(_two(record) + modifier)
    events = {name: bool(result == r) for r, name in enumerate(("killed", "nothing", "conquest"))}
    return Outcome(events["conquest"], events=events)


def raiders(keywords: dict, record) -> Outcome:
    """attacker_dice: one die per Hapsburg card, in turn, until the raider is eliminated."""
    stolen = 0
    for k in range(keywords["cards"]):
        took, gone = tables.raider_roll(record.die("attacker_dice", "attacker", DIE, k),
                                        int(keywords["galleons"]))
        stolen += int(took)
        if gone:
            break
    return Outcome(stolen > 0, {"stolen": stolen}, events={"raider_survives": not gone})
