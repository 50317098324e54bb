"""The battle state as struct-of-arrays, and the pure-Python pieces both Python and the kernel use.

Units live in one int64 block ``U[field, unit]`` (one contiguous row per field: x, y, health,
state, ...), unit types in ``T[field, type]``, the board as ``terrain[y, x]`` (row 0 is the
attacker's edge) and the occupancy ``grid[y * width + x]`` (unit index or -1). Nothing here
imports numba: the kernel compiles `cap_counts` itself, so the cap is written once.
"""
from __future__ import annotations

import numpy as np

MAX_UNITS = 20  # RULES §3: at most 20 units take part in a battle

# terrain codes
OPEN, WALL, CITY = 0, 1, 2
TERRAIN_CHARS = {".": OPEN, "#": WALL, "c": CITY}

# unit states: every unit is in exactly one
ACTIVE, FLEEING, DEAD, CAPTURED, ESCAPED = 0, 1, 2, 3, 4
STATE_NAMES = ("active", "fleeing", "dead", "captured", "escaped")

# unit fields (rows of U)
UX, UY, UHP, UST, USIDE, UTYPE, UFIRST, UDMG, UREAR, UFACE, UMOVED = range(11)
NFU = 11

# type fields (rows of T)
THEALTH, TATTACK, TSPEED, TMORALE, TRANGE, TUPKEEP, TMOUNTED, TCLIMB, TBONUS, TRANGED = range(10)
NFT = 10
TYPE_FIELDS = ("health", "attack", "speed", "morale", "range", "upkeep", "mounted",
               "climbs_walls", "first_attack_bonus", "ranged")

# configuration vector (settings as codes); the kernel reads cfg[C_...]
(C_THRESHOLD, C_READING, C_TURNS, C_FIRST, C_LOF, C_RETALIATION, C_FACING, C_ATTACKS,
 C_RETURN, C_TIE, C_METRIC, C_POLICY_A, C_POLICY_D, C_SIEGE_TURN, C_BESIEGED, C_CHECK) = range(16)
NCFG = 16

# per-type outcome categories reported after a battle
CATEGORIES = ("survived", "killed", "fled", "captured", "returned")
N_CAT = len(CATEGORIES)

# battle outcome codes: (winner, how)
OUTCOMES = ("attacker_wins_by_rout", "attacker_takes_headquarters", "defender_wins_by_rout",
            "defender_takes_headquarters",
            "turn_limit", "mutual_rout")
OUT_OF_DICE = len(OUTCOMES)  # scripted dice ran out (never counted)


def cap_counts(counts, out, max_units):
    """Cut both armies to `max_units` in total, proportionally, by largest remainder.

    `counts[side, type]` -> `out[side, type]` (engaged units). First the two sides share
    `max_units`, then each side's share is split over its types the same way: each gets
    floor(w * seats / total), the seats left go one each to the largest remainders (ties to
    the attacker / the lower type index). One loop serves the three apportionments so that
    numba can compile this very function (RULES §3: 11:9, 13:7).
    """
    K = counts.shape[1]
    share = np.zeros(2, np.int64)
    for stage in range(3):
        m = 2 if stage == 0 else K
        w = np.zeros(m, np.int64)
        for k in range(m):
            w[k] = counts[k, :].sum() if stage == 0 else counts[stage - 1, k]
        total = w.sum()
        seats = max_units if stage == 0 else share[stage - 1]
        r = np.zeros(m, np.int64)
        if total <= seats:
            r[:] = w
        else:
            used = np.zeros(m, np.bool_)
            given = 0
            for k in range(m):
                r[k] = (w[k] * seats) // total
                given += r[k]
            while given < seats:
                best, best_rem = -1, -1
                for k in range(m):
                    rem = (w[k] * seats) % total
                    if not used[k] and rem > best_rem:
                        best, best_rem = k, rem
                used[best] = True
                r[best] += 1
                given += 1
        if stage == 0:
            share[:] = r
        else:
            out[stage - 1, :] = r
