"""A piracy action's rolls as a game's record gives them (core.rolled): the target's
anti-piracy dice first (`defender_dice`: the target is the record's `against`, the Ottoman its
side), each 5-6 killing a corsair; then, if corsairs remain, the Ottoman's piracy dice
(`attacker_dice`), each 5-6 a hit the target pays for by its preference order (awards.py).
raid.py's `ottoman_dice` counts the second roll's dice, as in both engines."""
from __future__ import annotations

from ...core.rolled import Outcome
from ..rolls.reading import BATTLE_DIE
from .awards import AWARDS, award_table
from .raid import PIRATES, anti_piracy_dice, ottoman_dice


def read(keywords: dict, record) -> Outcome:
    """defender_dice (the target's anti-piracy dice), then attacker_dice (the Ottoman's piracy
    dice), hits on 5-6."""
    kw = keywords
    corsairs, rating = kw["corsairs"], PIRATES[kw["pirate"]]
    anti = anti_piracy_dice(kw["squadrons"], kw["adjacent_squadrons"], kw["allied_squadrons"],
                            kw["fortresses"], kw["doria_dice"] * bool(kw["andrea_doria"]))
    killed = min(record.hits("defender_dice", "defender", anti, BATTLE_DIE), corsairs)
    dice = ottoman_dice(corsairs - killed, kw["one_port"], rating)
    hits = record.hits("attacker_dice", "attacker", dice, BATTLE_DIE)
    room = (kw["squadrons"] + kw["adjacent_squadrons"], kw["hand"], kw["vp_room"])
    paid = award_table(rating + 2, room, [AWARDS.index(a) for a in kw["order"].split(",")])[hits]
    counts = {"hits": hits, "corsairs_killed": killed, "squadrons_lost": int(paid[0]),
              "cards_lost": int(paid[1]), "vp": int(paid[2])}
    return Outcome(hits > 0, counts, dealt={"attacker": "hits", "defender": "corsairs_killed"},
                   taken={"attacker": "corsairs_killed", "defender": "hits"})
