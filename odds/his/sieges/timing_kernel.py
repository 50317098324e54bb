"""Numba Monte Carlo kernel of a siege with one held copy of Siege Artillery.

Fills the joint of sieges/timing.py. Each assault is the main roll of sequence_kernel.py with
the assault dice of assaults/kernel.py, then the held copy under its timing
(siege_timing_rules.plays_held); `optimal` reads the dynamic programme's decisions as a table
best[k, ai, ac, di, dc, ah, dh] (1: play).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.jit import rule
from ...core.rng import seed_stream
from ..assaults.kernel import _roll
from ..assaults.rules import fails, succeeds
from ..cards import IF_NEEDED
from ..rolls.sequence_kernel import after_roll, sequence, surprised_out_nb
from .kernel import at_assault, kernel_args as siege_args, settle
from .timing_rules import OPTIMAL, TIMINGS, plays_held

_main_roll = sequence(_roll)
_fails = rule(fails)
_plays_held = rule(plays_held)
_succeeds = rule(succeeds)

Held = namedtuple("Held", ["timing", "card", "breaks", "best"])  # code, in hand, Restless broke


def best_array(chain, table):
    """The optimal decisions as a dense uint8 array indexed [k, ai, ac, di, dc, ah, dh]."""
    if not table:
        return np.zeros((1,) * 7, np.uint8)
    keys = [(k, *state) for k, state in table]
    rows = [chain.rows(k, state) for k, state in table]
    top = np.max(keys, axis=0) + 1
    best = np.zeros((*top, max(r[0].max() for r in rows) + 1, max(r[1].max() for r in rows) + 1),
                    np.uint8)
    for key, r, b in zip(keys, rows, table.values()):
        best[(*key, r[0], r[1])] = b
    return best


def kernel_args(chain, timing, table):
    """(mode literals, sieges.kernel.Siege, AssaultDice, Held) for held_lane."""
    modes, siege, dice = siege_args(chain.p, chain.assaults, chain.cavalry_first)
    code = TIMINGS[timing]
    best = best_array(chain, table if code == OPTIMAL else {})
    return modes, siege, dice, Held(code, int(chain.held), int(chain.p.breaks), best)


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def held_lane(modes, s, t, h, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per siege in out[lane, end, assault index, attacker
    losses, defender losses, card kept] (modes: as siege_kernel.siege_lane's)."""
    width, first0, first1 = len(modes[0]), len(modes[1]), len(modes[2])
    hist = out[lane]  # zeroed by the runner (no array copy: core.montecarlo)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ai, ac, di, dc, card, la, ld = s.ai, s.ac, s.di, s.dc, h.card, 0, 0
            end = 2
            k = 0
            while k < s.assaults:
                ph, ai, di, a, d = at_assault(s, k, ai, ac, di, dc)
                ua, ud = ai + ac, di + dc
                first = first0 if k == 0 else first1
                ah, _, dh, _, st = _main_roll(st, first, a, d, t, width)
                a_out, _ = surprised_out_nb(first, ah, dh, ua, ud)
                able = card == 1 and not a_out and not (k == 0 and h.breaks == 1)
                best = False
                if able and h.timing == OPTIMAL:
                    best = h.best[k, ai, ac, di, dc, ah, dh] == 1
                play = _plays_held(h.timing, k, _fails(ah, dh, ua, ud),
                                   _succeeds(ah + 2, dh, ua, ud), best)
                more, played, st = after_roll(st, IF_NEEDED, play, able, t.art, t.art_base, width)
                if played:
                    card = 0
                ah += more
                end, al, dl, ai, ac, di, dc = settle(ah, dh, ai, ac, di, dc, t.cavalry_first)
                la += al
                ld += dl
                if end < 2:
                    break
                k += 1
            hist[end, min(k, s.assaults - 1), la, ld, card] += 1
