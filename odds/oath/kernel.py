"""Numba Monte Carlo kernel of the Oath campaign (fills the joint of campaign.py).

Dice are rolled in groups of up to GROUP dice: a group's outcome is a base-6 number read off a
64-bit word by multiply-high (idx = floor(u * 6**g / 2**64), then u *= 6**g), PER_WORD groups
(12 dice) per word, so the largest deviation from exact face probabilities is
6**12 / 2**64 ~ 1e-10. A lookup table gives each group outcome's symbol totals packed in
one int64 (attack swords, hollow swords, skulls; defense shields, ×2 faces: FIELD bits each),
so a trial is one accumulator, a few multiplies and no per-die branch.
"""
import numpy as np
from numba import literally, njit, prange

from ..core.rng import next_u64, seed_stream
from .campaign import resolve
from .dice import MULTIPLIER_CAP, attack_total

GROUP = 4
PER_WORD = 3
FIELD = 10
_SHIFT_ATTACK = (0, FIELD, 2 * FIELD)  # swords, hollow, skulls
_SHIFT_DEFENSE = (3 * FIELD, 4 * FIELD)  # shields, multipliers
_M32 = np.uint64(0xFFFFFFFF)

_resolve = njit(cache=True, inline="always")(resolve)
_attack_total = njit(cache=True, inline="always")(attack_total)


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
    """(committed literal, tables and group schedule, scalars) for campaign_kernel."""
    s = r.setup
    for n, top in ((s.attack_dice, max(max(f.symbols) for f in s.attack_die)),
                   (s.defense_dice, max(max(f.symbols) for f in s.defense_die))):
        assert n * top < 2**FIELD, "symbol totals overflow the packed field"
    table = np.concatenate([_group_table(s.attack_die, _SHIFT_ATTACK),
                            _group_table(s.defense_die, _SHIFT_DEFENSE)])
    rows = [g for g in _groups(s.attack_dice)] + [GROUP + 1 + g for g in _groups(s.defense_dice)]
    rows += [0] * (-len(rows) % PER_WORD)  # size-0 groups: radix 1, value 0
    rows = np.array(rows or [0] * PER_WORD, dtype=np.int64)
    radix = np.array([6 ** (g % (GROUP + 1)) for g in rows], dtype=np.uint64)
    d_pmf = r.defense()
    max_defense = int(np.flatnonzero(d_pmf)[-1])
    return (bool(r.committed), table, rows, radix, r.warbands, r.defenders, r.cap,
            r.defender_loss, r.sac_cap, max_defense)


@njit(cache=True, inline="always")
def _mulhi(u, r):
    """floor(u * r / 2**64) for r < 2**32, exactly."""
    return ((u >> np.uint64(32)) * r + (((u & _M32) * r) >> np.uint64(32))) >> np.uint64(32)


@njit(cache=True)
def _lane(committed, table, rows, radix, warbands, defenders, cap, defender_loss, sac_cap,
          max_defense, seed, first_chunk, chunk_trials, out, lane):
    hist = np.zeros(out.shape[1:], dtype=np.int64)
    words = len(rows) // PER_WORD
    mask = (1 << FIELD) - 1
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            acc = 0
            for w in range(words):
                u, st = next_u64(st)
                for j in range(PER_WORD):
                    g = PER_WORD * w + j
                    acc += table[rows[g], _mulhi(u, radix[g])]
                    u = u * radix[g]
            swords = acc & mask
            hollow = (acc >> FIELD) & mask
            skulls = (acc >> (2 * FIELD)) & mask
            shields = (acc >> (3 * FIELD)) & mask
            mult = min((acc >> (4 * FIELD)) & mask, MULTIPLIER_CAP)
            attack = _attack_total(swords, hollow)
            defense = min((shields << mult) + defenders, cap)  # dice.defense_total, as a shift
            win, al, dl = _resolve(attack, skulls, defense, warbands, defender_loss, sac_cap,
                                   max_defense, committed)
            hist[win, al, dl] += 1
    out[lane] = hist


@njit(cache=True, parallel=True)
def campaign_kernel(committed, *args):
    """Adds one count per campaign to out[lane, win, attacker losses, defender losses]."""
    literally(committed)
    out = args[-1]
    for lane in prange(out.shape[0]):
        _lane(committed, *args, lane)
