"""The AI's scans (numba): what one unit may shoot or strike, and where it steps.

The policies themselves (advance, hold-walls, hold-line) are `kernel.choose`: for unit i
with `ap` action points and `attacks` left it chooses one of STOP, MOVE (target = cell),
ATTACK or SHOOT (target = unit) from these scans; `kernel.unit_turn` applies it. Policies are
deterministic apart from ties, which `pick` breaks with the battle's RNG (setting
``tie_break``). To add a policy: add its name to `scenario.POLICIES` and a branch to
`kernel.choose`.

Distance fields are read cell by cell with `step_down`: field ENEMIES (steps to the nearest
active enemy), EMPTY_WALLS (steps to the nearest empty wall cell), both from the source cells
the kernel lists in ``SRC[f]`` when they may have changed, and HEADQUARTERS (``HQF[side, cls,
cell]``, steps to the enemy headquarters, static). Class ``cls`` 0 climbs walls, 1 does not.
"""
import numpy as np
from numba import njit

from ...core.rng import next_u64
from .state import (ACTIVE, C_LOF, C_METRIC, C_SHOOT_MELEE, C_SHOOT_OUT, C_TIE, CITY, FLEEING,
                    OPEN, TCLIMB, TRANGE, TSPARES, UHP, USIDE, UST, UTYPE, UX, UY, WALL)

STOP, MOVE, ATTACK, SHOOT = 0, 1, 2, 3
ADVANCE, HOLD_WALLS, HOLD_LINE = 0, 1, 2  # codes in the order of scenario.POLICIES
INF = 1 << 40
ENEMIES, EMPTY_WALLS, HEADQUARTERS = 0, 1, 2  # distance fields
# Constants passed to a compiled function are numpy scalars (_i / _b, or globals made with
# them): numba compiles one specialisation per distinct literal argument, and a plain int64 /
# bool argument needs only one.
_i, _b = np.int64, np.bool_
# Options of every compiled function but the entry point (kernel.kernel): no reference
# counting (nothing is allocated), and no wrappers to call it from Python or as a C function
# pointer (it is only called from compiled code; each wrapper was compiled and optimised),
# and no cache of its own: the kernel's cached code contains it, so a warm run never needs it,
# and caching it cost each first run an object file per function (3% of its compile).
INNER = dict(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(**INNER)
def next_to_enemy(i, x, y, U, G, W, H):
    """True if cell (x, y) touches an active enemy of unit i."""
    s = U[USIDE, i]
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H:
            j = G[ny * W + nx]
            if j >= 0 and U[USIDE, j] != s and U[UST, j] == ACTIVE:
                return True
    return False


@njit(**INNER)
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


@njit(**INNER)
def best_shot(i, n, U, G, T, TER, W, H, cfg, hit, st):
    """The enemy unit i (ranged, not locked in melee: checked by the caller) may shoot with the
    fewest own units in the line of fire, then the nearest, then the weakest (ties broken):
    unit index or -1. Shootable: in range, not inside the walls from open ground; settings
    shoot_out_of_city and shoot_into_melee."""
    best, bf, bd, bh, ties = -1, INF, INF, INF, 0
    s, x, y = U[USIDE, i], U[UX, i], U[UY, i]
    reach = T[TRANGE, U[UTYPE, i]]
    chebyshev = cfg[C_METRIC] != 0
    here = TER[y, x]
    for j in range(n):
        if U[USIDE, j] == s or U[UST, j] > FLEEING:
            continue
        dx, dy = abs(x - U[UX, j]), abs(y - U[UY, j])
        d = max(dx, dy) if chebyshev else dx + dy
        if d < 1 or d > reach:
            continue
        there = TER[U[UY, j], U[UX, j]]
        if there == CITY and here == OPEN:  # units inside the walls cannot be shot from outside
            continue
        if here == CITY and there == OPEN and cfg[C_SHOOT_OUT] == 0:
            continue
        if cfg[C_SHOOT_MELEE] == 0 and next_to_enemy(j, U[UX, j], U[UY, j], U, G, W, H):
            continue
        f = friends_in_line(i, j, U, G, T, W, cfg, hit[:0])
        h = U[UHP, j] if U[UST, j] == ACTIVE else 0
        better = f < bf or (f == bf and (d < bd or (d == bd and h < bh)))
        take, ties, st = pick(better, f == bf and d == bd and h == bh, ties, cfg, st)
        if take:
            best, bf, bd, bh = j, f, d, h
    return best, st


@njit(**INNER)
def best_adjacent(i, U, G, W, H, cfg, st):
    """The adjacent enemy to strike: a fleeing one (sure capture) first, then the weakest."""
    x, y, s = U[UX, i], U[UY, i], U[USIDE, i]
    best, bh, ties = -1, INF, 0
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H:
            j = G[ny * W + nx]
            if j >= 0 and U[USIDE, j] != s:
                h = U[UHP, j] if U[UST, j] == ACTIVE else 0
                take, ties, st = pick(h < bh, h == bh, ties, cfg, st)
                if take:
                    best, bh = j, h
    return best, st


@njit(cache=True, inline="always", _nrt=False)
def enterable(x, y, G, TER, W, H, climbs, only):
    """Whether a unit may step onto cell (x, y): on the board, empty, no wall unless it
    `climbs`, and of terrain `only` if that is >= 0."""
    if not (0 <= x < W and 0 <= y < H) or G[y * W + x] >= 0:
        return False
    return (TER[y, x] != WALL or climbs) and (only < 0 or TER[y, x] == only)


@njit(**INNER)
def step_down(i, f, cls, U, G, T, TER, W, H, cfg, SRC, DN, HQF, st, only, avoid):
    """A neighbouring cell the unit can enter (empty; no wall for a non-climber) that is
    strictly closer on distance field f for class cls (and of terrain `only` if >= 0), or -1.
    With `avoid`, cells next to an active enemy (where the unit would be locked in melee) come
    after the others of the same distance.

    Field values: HEADQUARTERS is the static table HQF[side, cls, cell]; ENEMIES and
    EMPTY_WALLS are the steps to the nearest of the m = SRC[f, 0, 0] source cells
    SRC[f, 0, 1:m+1] (x and y in SRC[f, 1] and SRC[f, 2]) by a breadth-first search over the
    terrain only (units do not block): the Manhattan distance for climbers or on a board
    without walls, else the precomputed DN[source, cell] (kernel.wall_distances)."""
    x, y = U[UX, i], U[UY, i]
    s = U[USIDE, i]
    climbs = T[TCLIMB, U[UTYPE, i]] == 1
    table = cls == 1 and DN.shape[0] > 0
    m = SRC[f, 0, 0] if f != HEADQUARTERS else 0
    best, bv, ties = -1, INF, 0
    if f != HEADQUARTERS and not table:
        # Manhattan distances: a neighbour is one step closer (cur - 1) exactly when it lies
        # towards one of the nearest sources, else it is not closer; one pass over the sources
        # finds cur and those directions (bit d: direction DX[d], DY[d]).
        cur, towards = INF, 0
        for k in range(1, m + 1):
            sx, sy = SRC[f, 1, k], SRC[f, 2, k]
            dk = abs(x - sx) + abs(y - sy)
            if dk < cur:
                cur, towards = dk, 0
            if dk == cur:
                towards |= (1 if sy > y else 0) | (2 if sx > x else 0) | (4 if sy < y else 0) | (8 if sx < x else 0)
        for d in range(4):
            if towards & (1 << d) == 0:
                continue
            nx, ny = x + DX[d], y + DY[d]
            if not enterable(nx, ny, G, TER, W, H, climbs, only):
                continue
            v = 2 * (cur - 1)
            if avoid and next_to_enemy(i, nx, ny, U, G, W, H):
                v += 1
            take, ties, st = pick(v < bv, v == bv, ties, cfg, st)
            if take:
                best, bv = ny * W + nx, v
        return best, st
    cur = INF
    for d in range(-1, 4):  # d = -1: the unit's own cell (cur)
        nx, ny = (x, y) if d < 0 else (x + DX[d], y + DY[d])
        if d >= 0 and not enterable(nx, ny, G, TER, W, H, climbs, only):
            continue
        c = ny * W + nx
        if f == HEADQUARTERS:
            fc = HQF[s, cls, c]
        else:
            fc = INF
            for k in range(1, m + 1):
                fc = min(fc, DN[SRC[f, 0, k], c])
        if d < 0:
            cur = fc
        elif fc < cur:
            v = 2 * fc
            if avoid and next_to_enemy(i, nx, ny, U, G, W, H):
                v += 1
            take, ties, st = pick(v < bv, v == bv, ties, cfg, st)
            if take:
                best, bv = c, v
    return best, st
