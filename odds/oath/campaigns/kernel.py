"""Numba Monte Carlo kernel of the Oath campaign (fills the joint of campaign.py).

Dice are rolled in groups of up to GROUP dice: a group's outcome is a base-6 number read off a
64-bit word by multiply-high (idx = floor(u * 6**g / 2**64), then u *= 6**g), PER_WORD groups
(12 dice) per word, so the largest deviation from exact face probabilities is
6**12 / 2**64 ~ 1e-10. A lookup table gives each group outcome's symbol totals packed in
one int64 (attack swords, hollow swords, skulls; defense shields, ×2 faces: FIELD bits each),
so a trial is one accumulator, a few multiplies and no per-die branch. The outcome of
(attack, skulls, defense) is looked up in campaign.outcome_table, built by the same
`rules.resolve` as the exact engine.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.jit import rule
from ...core.rng import next_u64, seed_stream, static
from .rules import MULTIPLIER_CAP, attack_total

GROUP = 4
PER_WORD = 3
FIELD = 10
_SHIFT_ATTACK = (0, FIELD, 2 * FIELD)  # swords, hollow, skulls
_SHIFT_DEFENSE = (3 * FIELD, 4 * FIELD)  # shields, multipliers
_M32 = np.uint64(0xFFFFFFFF)

_attack_total = rule(attack_total)

# RNG words per campaign, packed group tables, the group schedule (table row, radix per
# group), campaign.outcome_table, defending warbands, the defense cap
CampaignDice = namedtuple("CampaignDice", ["words", "table", "rows", "radix", "outcomes",
                                           "defenders", "cap"])


def _group_table(die, shifts) -> np.ndarray:
    """Row g (0..GROUP): packed symbol totals of every outcome of g dice, padded to 6**GROUP."""
    table = np.zeros((GROUP + 1, 6**GROUP), dtype=np.int64)
    faces = np.array([sum(s << sh for s, sh in zip(f.symbols, shifts)) for f in die], dtype=np.int64)
    for g in range(1, GROUP + 1):
        digits = np.indices((6,) * g).reshape(g, -1)[::-1]  # digit 0 is the least significant
        table[g, : 6**g] = faces[digits].sum(axis=0)
    return table


def _groups(n):
    return [GROUP] * (n // GROUP) + ([n % GROUP] if n % GROUP else [])


def kernel_args(r):
    """(words mode, CampaignDice) for campaign_lane from campaign.Rules."""
    s = r.setup
    for n, die in ((s.attack_dice, s.attack_die), (s.defense_dice, s.defense_die)):
        assert n * max(max(f.symbols) for f in die) < 2**FIELD, "symbol totals overflow the packed field"
    table = np.concatenate([_group_table(s.attack_die, _SHIFT_ATTACK),
                            _group_table(s.defense_die, _SHIFT_DEFENSE)])
    rows = _groups(s.attack_dice) + [GROUP + 1 + g for g in _groups(s.defense_dice)]
    rows += [0] * (-len(rows) % PER_WORD)  # size-0 groups: radix 1, value 0
    rows = np.array(rows or [0] * PER_WORD, dtype=np.int64)
    radix = np.array([6 ** (g % (GROUP + 1)) for g in rows], dtype=np.uint64)
    outcomes = r.outcomes.astype(np.int32)
    words = len(rows) // PER_WORD
    return (static(words if words <= 2 else 0),
            CampaignDice(words, table, rows, radix, outcomes, r.defenders, r.cap))


@njit(cache=True, inline="always")
def _mulhi(u, r):
    """floor(u * r / 2**64) for r < 2**32, exactly."""
    return ((u >> np.uint64(32)) * r + (((u & _M32) * r) >> np.uint64(32))) >> np.uint64(32)


@njit(cache=True, inline="always")
def _trial(st, words, table, rows, radix, outcomes, defenders, cap):
    """(flat joint index of one campaign, next RNG state)."""
    mask = (1 << FIELD) - 1
    acc = 0
    for w in range(words):
        u, st = next_u64(st)
        for j in range(PER_WORD):
            g = PER_WORD * w + j
            acc += table[rows[g], _mulhi(u, radix[g])]
            u = u * radix[g]
    attack = _attack_total(acc & mask, (acc >> FIELD) & mask)
    skulls = (acc >> (2 * FIELD)) & mask
    mult = min((acc >> (4 * FIELD)) & mask, MULTIPLIER_CAP)
    # rules.defense_total as a shift, plus the defending warbands, capped
    defense = min((((acc >> (3 * FIELD)) & mask) << mult) + defenders, cap)
    return outcomes[attack, skulls, defense], st


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def campaign_lane(mode, dice, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per campaign in out[lane], the histogram [win,
    attacker losses, defender losses] flattened. `mode` (core.rng.static): 1 or 2 RNG words
    per campaign, 0 any number (compiled once per mode, so a kernel holds one of the loops
    below)."""
    unrolled = len(mode)
    words, table, rows, radix = dice.words, dice.table, dice.rows, dice.radix
    outcomes, defenders, cap = dice.outcomes, dice.defenders, dice.cap
    hist = out[lane]  # zeroed by the runner, flattened (flat_out)
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        # a constant word count lets the dice loop unroll (3-4 times faster than a loop bound
        # read at run time): up to 2 words (24 dice) take these branches
        # (the schedule is copied into tuples so that it stays in registers; PER_WORD is 3)
        if unrolled == 1:
            rw = (rows[0], rows[1], rows[2])
            rx = (radix[0], radix[1], radix[2])
            for _ in range(chunk_trials[c]):
                k, st = _trial(st, 1, table, rw, rx, outcomes, defenders, cap)
                hist[k] += 1
        elif unrolled == 2:
            rw = (rows[0], rows[1], rows[2], rows[3], rows[4], rows[5])
            rx = (radix[0], radix[1], radix[2], radix[3], radix[4], radix[5])
            for _ in range(chunk_trials[c]):
                k, st = _trial(st, 2, table, rw, rx, outcomes, defenders, cap)
                hist[k] += 1
        else:
            for _ in range(chunk_trials[c]):
                k, st = _trial(st, words, table, rows, radix, outcomes, defenders, cap)
                hist[k] += 1


campaign_lane.flat_out = True  # core.montecarlo hands out as (lanes, cells) (see core.pair_kernel)
