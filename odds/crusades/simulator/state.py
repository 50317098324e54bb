"""The battle state as struct-of-arrays, and the pure-Python pieces both Python and the kernel use.

Units live in one int64 block ``U[field, unit]`` (one contiguous row per field: x, y, health,
state, ...), unit types in ``T[field, type]``, the board as ``terrain[y, x]`` (row 0 is the
attacker's edge) and the occupancy ``grid[y * width + x]`` (unit index or -1). Nothing here
imports numba: the kernel compiles `cap_counts` itself, so the cap is written once.
"""
from __future__ import annotations

MAX_UNITS = 20  # docs/rules_crusades.md: at most 20 units take part in a battle

# terrain codes
OPEN, WALL, CITY = 0, 1, 2
TERRAIN_CHARS = {".": OPEN, "#": WALL, "c": CITY, "g": None}  # a gate: setting `gates`

# unit states: every unit is in exactly one
ACTIVE, FLEEING, DEAD, CAPTURED, ESCAPED = 0, 1, 2, 3, 4
STATE_NAMES = ("active", "fleeing", "dead", "captured", "escaped")

# unit fields (rows of U)
UX, UY, UHP, UST, USIDE, UTYPE, UFIRST, UDMG, UREAR, UFACE, UMOVED = range(11)
NFU = 11

# type fields (rows of T)
(THEALTH, TATTACK, TSPEED, TMORALE, TRANGE, TUPKEEP, TMOUNTED, TCLIMB, TBONUS, TRANGED,
 TSPARES) = range(11)
NFT = 11
TYPE_FIELDS = ("health", "attack", "speed", "morale", "range", "upkeep", "mounted",
               "climbs_walls", "first_attack_bonus", "ranged", "spares_friends")

# configuration vector (settings as codes); the kernel reads cfg[C_...]
(C_THRESHOLD, C_READING, C_TURNS, C_FIRST, C_LOF, C_RETALIATION, C_FACING, C_ATTACKS,
 C_RETURN, C_TIE, C_METRIC, C_POLICY_A, C_POLICY_D, C_SIEGE_TURN, C_BESIEGED,
 C_CLIMB, C_FLEE_MELEE, C_SHOOT_MELEE, C_SHOOT_OUT) = range(19)
NCFG = 19

# trace events (kernel.note): kind, then up to five numbers
EV_TURN, EV_MOVE, EV_SHOT, EV_MELEE, EV_HIT, EV_MORALE, EV_ESCAPE = range(7)
NEV = 6  # columns of a trace row

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
    `max_units` (one seat left at most: to the larger remainder, ties to the attacker), then
    each side's share is split over its types the same way: floor(n * seats / total) each,
    the seats left one each to the largest remainders, ties to the lower type (docs/rules_crusades.md:
    11:9, 13:7). Plain loops, no allocation, no helper: numba compiles this very function.
    """
    a, d = 0, 0
    for k in range(counts.shape[1]):
        a += counts[0, k]
        d += counts[1, k]
    sa, sd = a, d
    if a + d > max_units:
        sa, sd = a * max_units // (a + d), d * max_units // (a + d)
        if sa + sd < max_units:
            if a * max_units % (a + d) >= d * max_units % (a + d):
                sa += 1
            else:
                sd += 1
    m = counts.shape[1]
    for s in range(2):  # each side's share over its types
        seats, total = (sa, a) if s == 0 else (sd, d)
        given = 0
        for k in range(m):
            out[s, k] = counts[s, k] if total <= seats else (counts[s, k] * seats) // total
            given += out[s, k]
        last_rem, last_k = -1, -1  # extra seats go in the order (remainder down, type up)
        while given < seats:
            best, best_rem = -1, -1
            for k in range(m):
                rem = (counts[s, k] * seats) % total
                after = last_k < 0 or rem < last_rem or (rem == last_rem and k > last_k)
                if after and rem > best_rem:
                    best, best_rem = k, rem
            out[s, best] += 1
            given += 1
            last_rem, last_k = best_rem, best
