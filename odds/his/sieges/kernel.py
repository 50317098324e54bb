"""Numba Monte Carlo kernel of a siege: each trial plays the assaults one after another.

Fills the joint of sieges/procedure.py; each assault is assault_kernel.assault_roll (the rules of
assaults/rules.py, the sequence of sequence_kernel.py). Per-assault parameters come as pairs
indexed by phase (0: the first assault, 1: every later one).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.jit import rule
from ...core.rng import seed_stream, static
from ..assaults.kernel import Fighter, artillery_policy, assault_roll, dice_tables
from ..assaults.rules import infantry_left, resolve, succeeds
from ..rolls.sequence import surprise

_infantry_left = rule(infantry_left)
_resolve = rule(resolve)
_succeeds = rule(succeeds)

Siege = namedtuple("Siege", [
    "assaults", "ai", "ac", "di", "dc", "art",  # K; the state before the first assault
    "policy", "art_every",  # Siege Artillery's policy code; held for every assault?
    "add_a", "add_d",  # units the every-assault cards add before each later assault
    "bonus_a", "bonus_d",  # per phase: dice beyond one per unit
])


def kernel_args(p, assaults, cavalry_first):
    """(mode literals, Siege, AssaultDice) for siege_lane from a siege.Plan."""
    (a0, d0), _ = p.sides
    ua = a0.units + (assaults - 1) * p.add[0]
    ud = d0.units + (assaults - 1) * p.add[1]
    top = max(max(ua + a.dice - a.penalty, ud + d.dice - d.penalty, 0) for a, d in p.sides)
    width, tables = dice_tables(top, cavalry_first, (a0.hit_on, d0.hit_on))  # every assault's
    phases = lambda f: np.array([f(a, d) for a, d in p.sides], dtype=np.int64)
    siege = Siege(assaults, *p.start(), artillery_policy(a0), int(p.artillery_every), *p.add,
                  phases(lambda a, d: a.dice - a.penalty), phases(lambda a, d: d.dice - d.penalty))
    first = [static(surprise(a, d)) for a, d in p.sides]
    return (static(width), *first), siege, tables


@njit(cache=True, inline="always")
def at_assault(s, k, ai, ac, di, dc):
    """(phase, attacking infantry, defending infantry, attacker Fighter, defender Fighter) at
    assault k (0-based): later assaults add the every-assault cards' units first."""
    ph = min(k, 1)
    if k > 0:
        ai += s.add_a
        di += s.add_d
    return (ph, ai, di, Fighter(ai, ac, s.bonus_a[ph], (di + dc > 0) * 1, 0),
            Fighter(di, dc, s.bonus_d[ph], 0, 1))


@njit(cache=True, inline="always")
def settle(ah, dh, ai, ac, di, dc, cavalry_first):
    """(end: 0 captured, 1 broken, 2 goes on; attacker losses, defender losses; the forces
    left: ai, ac, di, dc) of one assault's hits."""
    ua, ud = ai + ac, di + dc
    _, al, dl = _resolve(ah, dh, ua, ud)
    if _succeeds(ah, dh, ua, ud):
        return 0, al, dl, ai, ac, di, dc
    sa, sd = ua - al, ud - dl
    if sa <= sd:
        return 1, al, dl, ai, ac, di, dc
    nai = _infantry_left(ai, ac, al, cavalry_first)
    ndi = _infantry_left(di, dc, dl, cavalry_first)
    return 2, al, dl, nai, sa - nai, ndi, sd - ndi


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def siege_lane(modes, s, t, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per siege in out[lane, end, assault index, attacker
    losses] (modes: table width, who surprises at the first and at later assaults, as
    core.rng.static tuples)."""
    width, first0, first1 = len(modes[0]), len(modes[1]), len(modes[2])
    hist = out[lane]  # zeroed by the runner (no array copy: core.montecarlo)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ai, ac, di, dc, art, lost = s.ai, s.ac, s.di, s.dc, s.art, 0
            end = 2
            k = 0
            while k < s.assaults:
                ph, ai, di, a, d = at_assault(s, k, ai, ac, di, dc)
                first = first0 if k == 0 else first1  # one call site: inlining costs compile time
                ah, dh, _, st = assault_roll(st, first, s.policy * art, a, d, t, width)
                art = art * s.art_every  # a fresh copy every assault
                end, al, _, ai, ac, di, dc = settle(ah, dh, ai, ac, di, dc, t.cavalry_first)
                lost += al
                if end < 2:
                    break
                k += 1
            hist[end, min(k, s.assaults - 1), lost] += 1
