"""A foreign war's rolls as a game's record gives them (core.rolled): each attempt (1 CP) is a
field battle, the power's dice (`attacker_dice`: its units + its leader) against the foreign
units' (`defender_dice`), hitting on 5-6, one list per attempt (`attacker_dice = [[...],
[...]]`), until the foreign units are gone, the power's are, or the attempts followed end;
field/rules.py's `dice` and `resolve` decide each, as in both engines."""
from __future__ import annotations

from ...core.rolled import Outcome
from ..field.rules import dice, resolve
from ..rolls.reading import BATTLE_DIE
from .campaign import setup


def read(keywords: dict, record) -> Outcome:
    """attacker_dice (the power's), defender_dice (the foreign units'), hits on 5-6, a list per
    attempt."""
    kw = keywords
    _, _, a, d, best, attempts = setup(kw["war"], kw["units"], kw["foreign"], kw["leader"], kw["attempts"])
    for k in range(attempts):
        adice, ddice = dice(a, best.rating, 0, False)[0], dice(d, 0, 0, False)[0]
        ah = record.hits("attacker_dice", "attacker", adice, BATTLE_DIE, k)
        dh = record.hits("defender_dice", "defender", ddice, BATTLE_DIE, k)
        _, al, dl = resolve(ah, dh, adice, ddice, a, d)
        a, d = a - int(al), d - int(dl)
        if d == 0 or a == 0:
            break
    end = "won" if d == 0 else "wiped_out" if a == 0 else "not_over"
    return Outcome(end == "won", {"cp_to_win": (k + 1) * (end == "won"), "units_left": a},
                   events={e: e == end for e in ("won", "wiped_out", "not_over")})
