"""A siege's rolls as a game's record gives them (core.rolled): the assaults' dice in turn, one
list per assault in each field (`attacker_dice = [[...], [...]]`, `defender_dice` likewise;
hits as a list of counts), each assault read as assaults/rolled.py reads one, from the forces
the earlier assaults left (casualties in the `casualties` order, the first assault's cards,
the every-assault cards); the siege ends when the space falls, when the besiegers no longer
outnumber the defenders, or after K assaults, as in both engines. A held Siege Artillery is
played where its timing plays it after the roll (sieges/timing_rules.py; `optimal`: the
exact rule of sieges/timing.py), its dice in `attacker_siege_artillery_dice` in that
assault's place (a list per assault, [] where it was not played)."""
from __future__ import annotations

import json
from functools import lru_cache

from ...core.rolled import Outcome, hit_die
from ...errors import check_int, check_list
from ..assaults.procedure import check_settings, forces
from ..assaults.rolled import FORCES, assault, counter
from ..field.procedure import HIT_ON
from ..assaults.rules import fails, infantry_left, resolve, succeeds
from ..leaders import leader
from ..rolls.reading import card_field, main_roll
from ..rolls.sequence import surprise, surprised_out
from .model import at, plan
from .timing import CARD, Chain, held, optimal_table
from .timing_rules import OPTIMAL, TIMINGS, plays_held


@lru_cache(maxsize=256)
def _siege(text: str):
    """(plan, K, cavalry first, held timing or None, its Chain) of a siege's keywords (JSON)."""
    kw = json.loads(text)
    assaults = check_int("assaults", kw["assaults"], 1)
    cards, timing = held(kw["attacker_cards"])
    att, dfn = forces(*(cards if k == "attacker_cards" else kw[k] for k in FORCES),
                      gout=kw.get("gout"), allow_bribed_surprise=kw["allow_bribed_surprise"])
    cavalry_first, allowed = check_settings(kw["casualties"], kw["allow_bribed_surprise"])
    p = plan(att, dfn, tuple(check_list("attacker_fresh_cards", kw["attacker_fresh_cards"])),
             tuple(check_list("defender_fresh_cards", kw["defender_fresh_cards"])),
             leader("attacker_leader", kw["attacker_leader"]).rating, allowed,
             (kw.get("attacker_hit_on", HIT_ON), kw.get("defender_hit_on", HIT_ON)))
    chain = Chain(p, assaults, cavalry_first, True) if timing else None
    return p, assaults, cavalry_first, timing, chain


def read(keywords: dict, record) -> Outcome:
    """each assault's dice in turn, a list per assault: attacker_dice = [[...], [...]],
    defender_dice, attacker_siege_artillery_dice ([] where not played)."""
    p, assaults, cavalry_first, timing, chain = _siege(json.dumps(keywords, sort_keys=True, default=str))
    state, card, lost = p.start(), int(timing is not None), 0
    for k in range(assaults):
        ai, ac, di, dc, art = state
        ta, td = p.sides[min(k, 1)]
        if timing:
            a, d = at(ta, ai, ac), at(td, di, dc)
            ah, dh, played = _held(chain, timing, k, (ai, ac, di, dc), a, d, card, record)
            card = card and not played
        else:
            a, d = at(ta, ai, ac, [p.artillery] if art else []), at(td, di, dc)
            ah, dh = assault(a, d, cavalry_first, record, k)
        ua, ud = a.units, d.units
        _, al, dl = resolve(ah, dh, ua, ud)
        lost += int(al)
        if succeeds(ah, dh, ua, ud):
            return Outcome(True, {"attacker_losses": lost, "captured_at": k + 1})
        if ua - al <= ud - dl:
            break
        nai, ndi = infantry_left(ai, ac, al, cavalry_first), infantry_left(di, dc, dl, cavalry_first)
        state = (int(nai) + p.add[0], int(ua - al - nai), int(ndi) + p.add[1], int(ud - dl - ndi),
                 art & p.artillery_every)
    return Outcome(False, {"attacker_losses": lost, "captured_at": 0})


def _held(chain, timing, k, state, a, d, card, record) -> tuple:
    """(attacker hits, defender hits, the held copy played) of assault k: the main roll, then
    the copy where its timing plays it, as the roll stands."""
    rolled = main_roll(a, d, record, counter(int(d.units > 0), chain.cavalry_first), k)
    ah, dh = rolled.hits["attacker"], rolled.hits["defender"]
    able = not surprised_out(surprise(a, d), ah, dh, a.units, d.units)[0] and not (k == 0 and chain.p.breaks)
    if not (card and able):
        return ah, dh, False
    code = TIMINGS[timing]
    best = False
    if code == OPTIMAL:
        rows = chain.rows(k, state)
        row = int(((rows[0] == ah) & (rows[1] == dh)).argmax())
        best = bool(optimal_table(chain)[0].get((k, state), [False] * (row + 1))[row])
    if not plays_held(code, k, fails(ah, dh, a.units, d.units),
                      succeeds(ah + CARD.count, dh, a.units, d.units), best):
        return ah, dh, False
    extra = record.hits(card_field("attacker", CARD.card), "attacker", CARD.count,
                        hit_die(CARD.threshold), k)
    return ah + extra, dh, True
