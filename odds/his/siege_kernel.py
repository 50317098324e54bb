"""Numba Monte Carlo kernel of a siege: each trial plays the assaults one after another.

Fills the joint of siege.py with the same rule functions (assault.py, compiled in
assault_kernel.py). Per-assault parameters come as pairs indexed by phase (0: the first
assault, 1: every later one).
"""
import numpy as np
from numba import njit

from ..core.rng import seed_stream, static
from .assault_kernel import (_infantry_left, _resolve, artillery, artillery_policy, dice_tables,
                             roll_pair, succeeds_nb)
from .siege import initial_state


def kernel_args(p, assaults, cavalry_first):
    """(table width, scalars, per-phase arrays, tables) for siege_kernel."""
    (a0, d0), _ = p.sides
    ua = a0.units + (assaults - 1) * p.add[0]
    ud = d0.units + (assaults - 1) * p.add[1]
    top = max(max(ua + a.dice - a.penalty, ud + d.dice - d.penalty, 0) for a, d in p.sides)
    width, t56, b56, tart, bart = dice_tables(top)
    ai, ac, di, dc, art = initial_state(p)
    sides = p.sides
    bonus_a = np.array([a.dice - a.penalty for a, _ in sides], dtype=np.int64)
    bonus_d = np.array([d.dice - d.penalty for _, d in sides], dtype=np.int64)
    surprise = np.array([1 if a.surprise else 2 if d.surprise else 0 for a, d in sides], dtype=np.int64)
    policy = artillery_policy(a0)
    return (static(width), assaults, ai, ac, di, dc, art, policy, int(p.artillery_every), p.add[0],
            p.add[1], bonus_a, bonus_d, surprise, int(cavalry_first), t56, b56, tart, bart)


@njit(cache=True, nogil=True)
def siege_lane(width_t, assaults, ai0, ac0, di0, dc0, art0, policy, art_every, add_a, add_d,
          bonus_a, bonus_d, surprise, cav_first, t56, b56, tart, bart,
          seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per siege in out[lane, end, assault index, attacker
    losses] (width_t: the table width as a core.rng.static tuple)."""
    width = len(width_t)
    hist = np.zeros(out.shape[1:], dtype=np.int64)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ai, ac, di, dc, art, lost = ai0, ac0, di0, dc0, art0, 0
            end = 2
            k = 0
            while k < assaults:
                ph = min(k, 1)
                if k > 0:
                    ai += add_a
                    di += add_d
                ua = ai + ac
                ud = di + dc
                ah, dh, st = roll_pair(st, surprise[ph], ua, ac, ud, dc, bonus_a[ph],
                                       bonus_d[ph], (ud > 0) * 1, cav_first, t56, b56, width)
                ah, played, st = artillery(st, policy * art, ah, dh, ua, ud, tart, bart, width)
                art = art * (1 - played) * art_every
                _, al, dl = _resolve(ah, dh, ua, ud)
                lost += al
                if succeeds_nb(ah, dh, ua, ud):
                    end = 0
                    break
                sa = ua - al
                sd = ud - dl
                if sa <= sd:
                    end = 1
                    break
                ai = _infantry_left(ai, ac, al, cav_first)
                ac = sa - ai
                di = _infantry_left(di, dc, dl, cav_first)
                dc = sd - di
                k += 1
            hist[end, min(k, assaults - 1), lost] += 1
    out[lane] = hist
