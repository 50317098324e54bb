"""Slow exact reference for HIS assaults and sieges, in Fractions, written from docs/rules.md, Assault.

Independent of odds.his.assault: dice are counted with an explicit if, hits enumerated die
count by die count, casualties removed one by one. No Surprise Attack (the exact engine is
checked against Monte Carlo for it).
"""
from collections import defaultdict
from fractions import Fraction as F
from math import comb, ceil

THIRD = F(1, 3)


def binom(n, p):
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def assault_rows(ai, ac, di, dc, abonus, dbonus, artillery=None):
    """{(attacker hits, defender hits, artillery played): probability}."""
    ua, ud = ai + ac, di + dc
    if ud == 0:
        adice = ai + abonus
    else:
        adice = ceil(ai / 2) + abonus
    ddice = di + dbonus
    out = defaultdict(F)
    for ah, pa in binom(max(adice, 0), THIRD).items():
        for dh, pd in binom(max(ddice, 0), THIRD).items():
            would_win = ah >= 1 and min(ah, ud) == ud and dh < ua
            if artillery == "always" or (artillery == "if-needed" and not would_win):
                for x, px in binom(2, F(2, 3)).items():
                    out[(ah + x, dh, True)] += pa * pd * px
            else:
                out[(ah, dh, False)] += pa * pd
    return out


def outcome(ah, dh, ua, ud):
    """('success' | 'continues' | 'withdraw', attacker losses, defender losses)."""
    al, dl = min(dh, ua), min(ah, ud)
    if ah >= 1 and dl == ud and al < ua:
        return "success", al, dl
    return ("continues" if ua - al > ud - dl else "withdraw"), al, dl


def assault(ai, ac, di, dc, abonus, dbonus, artillery=None, cancel=F(0)):
    """{'success': p, ..., 'attacker_losses': {k: p}, 'defender_losses': {k: p}}."""
    res = defaultdict(F)
    al_pmf, dl_pmf = defaultdict(F), defaultdict(F)
    for (ah, dh, _), p in assault_rows(ai, ac, di, dc, abonus, dbonus, artillery).items():
        what, al, dl = outcome(ah, dh, ai + ac, di + dc)
        res[what] += p * (1 - cancel)
        al_pmf[al] += p * (1 - cancel)
        dl_pmf[dl] += p * (1 - cancel)
    res["cancelled"] = cancel
    al_pmf[0] += cancel
    dl_pmf[0] += cancel
    return res, al_pmf, dl_pmf


def take_losses(inf, cav, losses, cavalry_first):
    for _ in range(min(losses, inf + cav)):
        if (cavalry_first and cav) or not inf:
            cav -= 1
        else:
            inf -= 1
    return inf, cav


def siege(ai, ac, di, dc, bonus_first, bonus_later, assaults, artillery=None,
          artillery_every=False, cavalry_first=True):
    """{(end, k, attacker losses): p}, end in captured/broken/still, k 1-based."""
    out = defaultdict(F)

    def go(k, ai, ac, di, dc, art, lost, p):
        ab, db = bonus_first if k == 1 else bonus_later
        rows = assault_rows(ai, ac, di, dc, ab, db, artillery if art else None)
        for (ah, dh, played), q in rows.items():
            what, al, dl = outcome(ah, dh, ai + ac, di + dc)
            if what == "success":
                out[("captured", k, lost + al)] += p * q
            elif what == "withdraw":
                out[("broken", k, lost + al)] += p * q
            elif k == assaults:
                out[("still", k, lost + al)] += p * q
            else:
                nai, nac = take_losses(ai, ac, al, cavalry_first)
                ndi, ndc = take_losses(di, dc, dl, cavalry_first)
                go(k + 1, nai, nac, ndi, ndc, art and artillery_every,
                   lost + al, p * q)

    go(1, ai, ac, di, dc, artillery is not None, 0, F(1))
    return out
