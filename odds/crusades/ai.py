"""AI policies: what one unit does with its next action point (numba).

A policy is a small function ``policy(i, ap, attacks, ctx..., st) -> (action, target, st)``
that looks at the state and returns one of STOP, MOVE (target = cell), ATTACK or SHOOT
(target = unit). The kernel checks legality and applies it. Policies are deterministic apart
from ties, which `pick` breaks with the battle's RNG (setting ``tie_break``). To add a policy:
write the function here, add its name to `scenario.POLICIES` and a branch to `decide`.

Distance fields are read cell by cell with `field_value`: field ENEMIES (steps to the nearest
active enemy), EMPTY_WALLS (steps to the nearest empty wall cell), both from the source cells
the kernel lists in ``SRC[f]`` when they may have changed, and HEADQUARTERS (``HQF[side, cls,
cell]``, steps to the enemy headquarters, static). Class ``cls`` 0 climbs walls, 1 does not.
"""
import numpy as np
from numba import njit

from ..core.rng import next_u64
from .state import (ACTIVE, C_LOF, C_METRIC, C_POLICY_A, C_POLICY_D, C_SHOOT_MELEE, C_SHOOT_OUT,
                    C_TIE, CITY, FLEEING, OPEN, TCLIMB, TMOUNTED, TRANGE, TRANGED, TSPARES, UHP,
                    USIDE, UST, UTYPE, UX, UY, WALL)

STOP, MOVE, ATTACK, SHOOT = 0, 1, 2, 3
ADVANCE, HOLD_WALLS, HOLD_LINE = 0, 1, 2  # codes in the order of scenario.POLICIES
INF = 1 << 40
ENEMIES, EMPTY_WALLS, HEADQUARTERS = 0, 1, 2  # distance fields
# Constants passed to a compiled function go through _i / _b: numba compiles one specialisation
# per distinct literal argument, and a plain int64 / bool argument needs only one.
_i, _b = np.int64, np.bool_
DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)


@njit(cache=True, inline="always", _nrt=False)
def pick(better, tie, count, cfg, st):
    """Tie-break while scanning candidates: (take this one?, new tie count, st)."""
    if better:
        return True, 1, st
    if not tie:
        return False, count, st
    count += 1
    if cfg[C_TIE] == 1:  # "first": keep the earlier candidate
        return False, count, st
    u, st = next_u64(st)
    return (u >> np.uint64(11)) % np.uint64(count) == 0, count, st


@njit(cache=True, inline="always", _nrt=False)
def distance(metric, x0, y0, x1, y1):
    dx, dy = abs(x0 - x1), abs(y0 - y1)
    return dx + dy if metric == 0 else max(dx, dy)


@njit(cache=True, inline="always", _nrt=False)
def enemy(U, i, j):
    return U[USIDE, j] != U[USIDE, i]


@njit(cache=True, _nrt=False)
def locked(i, U, G, W, H):
    """True if an active enemy stands on one of the 4 neighbours (melee lock)."""
    return next_to_enemy(i, U[UX, i], U[UY, i], U, G, W, H)


@njit(cache=True, _nrt=False)
def can_enter(i, x, y, U, G, T, TER, W):
    """Cell (x, y) is empty and the unit's type may stand on it (no walls for non-climbers)."""
    return G[y * W + x] < 0 and (TER[y, x] != WALL or T[TCLIMB, U[UTYPE, i]] == 1)


@njit(cache=True, _nrt=False)
def can_shoot(i, j, U, G, T, TER, W, H, cfg):
    """Unit i may shoot enemy j: in range (i not locked in melee: checked by the caller), not
    inside the walls from open ground; settings shoot_out_of_city and shoot_into_melee."""
    if not enemy(U, i, j) or U[UST, j] > FLEEING:
        return False
    k = U[UTYPE, i]
    if T[TRANGED, k] == 0:
        return False
    d = distance(cfg[C_METRIC], U[UX, i], U[UY, i], U[UX, j], U[UY, j])
    if d < 1 or d > T[TRANGE, k]:
        return False
    here, there = TER[U[UY, i], U[UX, i]], TER[U[UY, j], U[UX, j]]
    if there == CITY and here == OPEN:  # units inside the walls cannot be shot from outside
        return False
    if here == CITY and there == OPEN and cfg[C_SHOOT_OUT] == 0:
        return False
    return cfg[C_SHOOT_MELEE] == 1 or not next_to_enemy(j, U[UX, j], U[UY, j], U, G, W, H)


@njit(cache=True, _nrt=False)
def friends_in_line(i, j, U, G, T, W, cfg, hit):
    """How many of i's own units stand between i and j on the Bresenham line of fire (none
    when line_of_fire is 'none' or j's type spares friends); with hit[:] they are listed too."""
    if cfg[C_LOF] != 0 or T[TSPARES, U[UTYPE, j]] == 1:
        return 0
    x0, y0, x1, y1 = U[UX, i], U[UY, i], U[UX, j], U[UY, j]
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    x, y = x0, y0
    m = 0
    for _ in range(1, max(dx, -dy)):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x += sx
        if e2 <= dx:
            err += dx
            y += sy
        f = G[y * W + x]
        if f >= 0 and U[USIDE, f] == U[USIDE, i]:
            if hit.shape[0] > m:
                hit[m] = f
            m += 1
    return m


@njit(cache=True, _nrt=False)
def best_shot(i, n, U, G, T, TER, W, H, cfg, st):
    """The shootable enemy with the fewest own units in the line of fire, then the nearest,
    then the weakest (ties broken): unit index or -1."""
    best, bf, bd, bh, ties = -1, INF, INF, INF, 0
    for j in range(n):
        if can_shoot(i, j, U, G, T, TER, W, H, cfg):
            f = friends_in_line(i, j, U, G, T, W, cfg, U[0, :0])
            d = distance(cfg[C_METRIC], U[UX, i], U[UY, i], U[UX, j], U[UY, j])
            h = U[UHP, j] if U[UST, j] == ACTIVE else 0
            better = f < bf or (f == bf and (d < bd or (d == bd and h < bh)))
            take, ties, st = pick(better, f == bf and d == bd and h == bh, ties, cfg, st)
            if take:
                best, bf, bd, bh = j, f, d, h
    return best, st


@njit(cache=True, _nrt=False)
def best_adjacent(i, U, G, W, H, cfg, st):
    """The adjacent enemy to strike: a fleeing one (sure capture) first, then the weakest."""
    x, y = U[UX, i], U[UY, i]
    best, bh, ties = -1, INF, 0
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H:
            j = G[ny * W + nx]
            if j >= 0 and enemy(U, i, j):
                h = U[UHP, j] if U[UST, j] == ACTIVE else 0
                take, ties, st = pick(h < bh, h == bh, ties, cfg, st)
                if take:
                    best, bh = j, h
    return best, st


@njit(cache=True, _nrt=False)
def field_value(f, cls, s, x, y, W, SRC, DN, HQF):
    """Steps from cell (x, y) to field f's nearest source for side s's class cls: a
    breadth-first search over the terrain only (units do not block), so it is the Manhattan
    distance for climbers or on a board without walls, else the precomputed DN[source, cell].
    ``SRC[f, 0, 1:m+1]`` are the m = SRC[f, 0, 0] source cells, SRC[f, 1] and SRC[f, 2]
    their x and y."""
    c = y * W + x
    if f == HEADQUARTERS:
        return HQF[s, cls, c]
    best = INF
    if cls == 1 and DN.shape[0] > 0:
        for k in range(1, SRC[f, 0, 0] + 1):
            best = min(best, DN[SRC[f, 0, k], c])
    else:
        for k in range(1, SRC[f, 0, 0] + 1):
            best = min(best, abs(x - SRC[f, 1, k]) + abs(y - SRC[f, 2, k]))
    return best


@njit(cache=True, _nrt=False)
def step_down(i, f, cls, U, G, T, TER, W, H, cfg, SRC, DN, HQF, st, only, avoid):
    """A neighbouring cell the unit can enter that is strictly closer on field f for class
    cls (and of terrain `only` if >= 0), or -1. With `avoid`, cells next to an active enemy
    (where the unit would be locked in melee) come after the others of the same distance."""
    x, y = U[UX, i], U[UY, i]
    s = U[USIDE, i]
    cur = field_value(f, cls, s, x, y, W, SRC, DN, HQF)
    best, bv, ties = -1, INF, 0
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H:
            c = ny * W + nx
            if not can_enter(i, nx, ny, U, G, T, TER, W) or (only >= 0 and TER[ny, nx] != only):
                continue
            fc = field_value(f, cls, s, nx, ny, W, SRC, DN, HQF)
            if fc < cur:
                v = 2 * fc
                if avoid and next_to_enemy(i, nx, ny, U, G, W, H):
                    v += 1
                take, ties, st = pick(v < bv, v == bv, ties, cfg, st)
                if take:
                    best, bv = c, v
    return best, st


@njit(cache=True, _nrt=False)
def next_to_enemy(i, x, y, U, G, W, H):
    """True if cell (x, y) touches an active enemy of unit i."""
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H:
            j = G[ny * W + nx]
            if j >= 0 and enemy(U, i, j) and U[UST, j] == ACTIVE:
                return True
    return False


@njit(cache=True, _nrt=False)
def _strike(i, n, attacks, U, G, T, TER, W, H, cfg, st):
    """Shared first steps: fight when locked, shoot when possible, capture an adjacent fugitive.

    Returns (action, target, done, st); done=True means the policy need not look further.
    """
    if locked(i, U, G, W, H):
        if attacks == 0:
            return STOP, -1, True, st
        j, st = best_adjacent(i, U, G, W, H, cfg, st)
        return ATTACK, j, True, st
    if attacks > 0:
        if T[TRANGED, U[UTYPE, i]] == 1:
            j, st = best_shot(i, n, U, G, T, TER, W, H, cfg, st)
            if j >= 0:
                return SHOOT, j, True, st
        j, st = best_adjacent(i, U, G, W, H, cfg, st)
        if j >= 0:
            return ATTACK, j, True, st
    elif T[TRANGED, U[UTYPE, i]] == 1:
        return STOP, -1, True, st  # archers that have shot stay where they are
    return STOP, -1, False, st


@njit(cache=True, _nrt=False)
def advance(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st):
    """Close in on the nearest enemy, shoot when in range, take an empty enemy headquarters."""
    a, j, done, st = _strike(i, n, attacks, U, G, T, TER, W, H, cfg, st)
    if done:
        return a, j, st
    s, cls = U[USIDE, i], 1 - T[TCLIMB, U[UTYPE, i]]
    here = U[UY, i] * W + U[UX, i]
    if G[hq[1 - s]] < 0 and HQF[s, cls, here] <= ap:
        c, st = step_down(i, _i(HEADQUARTERS), cls, U, G, T, TER, W, H, cfg, SRC, DN, HQF, st, _i(-1), _b(True))
        if c >= 0:
            return MOVE, c, st
    c, st = step_down(i, _i(ENEMIES), cls, U, G, T, TER, W, H, cfg, SRC, DN, HQF, st, _i(-1), _b(False))
    return (MOVE if c >= 0 else STOP), c, st


@njit(cache=True, _nrt=False)
def hold_line(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st):
    """Keep position: shoot what is in range, fight what comes adjacent."""
    a, j, done, st = _strike(i, n, attacks, U, G, T, TER, W, H, cfg, st)
    return a, j, st


@njit(cache=True, _nrt=False)
def hold_walls(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st):
    """Man the walls: foot moves onto free wall cells, then along the wall towards the enemy;
    archers shoot; cavalry is a reserve that attacks only once an enemy is inside the city."""
    a, j, done, st = _strike(i, n, attacks, U, G, T, TER, W, H, cfg, st)
    if done:
        return a, j, st
    k = U[UTYPE, i]
    if T[TMOUNTED, k] == 1:
        for e in range(n):
            if enemy(U, i, e) and U[UST, e] == ACTIVE and TER[U[UY, e], U[UX, e]] == CITY:
                return advance(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st)
        return STOP, -1, st
    if TER[U[UY, i], U[UX, i]] == WALL:
        c, st = step_down(i, _i(ENEMIES), _i(0), U, G, T, TER, W, H, cfg, SRC, DN, HQF, st, _i(WALL), _b(False))
        return (MOVE if c >= 0 else STOP), c, st
    c, st = step_down(i, _i(EMPTY_WALLS), _i(0), U, G, T, TER, W, H, cfg, SRC, DN, HQF, st, _i(-1), _b(False))
    return (MOVE if c >= 0 else STOP), c, st


@njit(cache=True, _nrt=False)
def decide(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st):
    """Dispatch to the policy of unit i's side."""
    p = cfg[C_POLICY_A] if U[USIDE, i] == 0 else cfg[C_POLICY_D]
    if p == ADVANCE:
        return advance(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st)
    if p == HOLD_WALLS:
        return hold_walls(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st)
    return hold_line(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st)
