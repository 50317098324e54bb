"""Numba simulator of the crusades tactical battle (docs/rules_crusades.md).

One battle: deploy (20-unit cap by largest remainder), then rounds in which each side moves
all its units (the side's turn), then the other side tests morale. Battle b of a run uses the
RNG stream of (seed, b), so every battle is reproducible on its own and the numbers do not
depend on the thread count. The only dice are morale d6s; they come from the stream or, in
scripted mode, from a list (a 'random' first player then takes one die: 1-3 attacker).

`kernel` fills the histogram rows: outcome code, round of decision, first player, invariant
violations, units lost and upkeep lost per side, and per side, type and category (survived,
killed, fled, captured, returned) the count of units.

Everything runs through one entry point, `kernel` (one lane of the runner), compiled once per
mode (runs of battles, sieges, one battle: see its docstring), then loaded from the disk cache.
A battle is a few named steps, each an @njit function: `battle` (rounds and side turns)
calls `deploy`, `flee` (movement of a fleeing unit), `unit_turn` (an active unit's action
points: `choose`, the targeting of the AI policies, then a move or `strike`, the combat) and
`morale`; `tally` and `count` make the histogram rows; `next_action` and `siege_end` run a
siege's plan. The steps share two records: `Field` (where the battle is fought) and `Work`
(the workspace). Numba passes a record to a compiled call field by field (every array's
pointer, shape and strides: about 140 values for Field, Work and T), which per unit and per
action point cost more than half the battles/s; so the steps run per unit or side turn
(`flee`, `unit_turn`, `list_sources`, `choose`, `strike`, `morale`) are inlined into `battle` by numba
(``inline="always"``): their code is compiled as part of `battle`, one function, as the
battle was before it was split. `battle` itself is not inlined into `kernel` (measured: a
third of the speed; the kernel is compiled with reference counting, since it allocates the
workspace, and every function below it without). Numba
compiles each other function in its own library, and LLVM optimises it again with its
callers (docs/performance.md); every call passes every argument (no defaults, no
array-to-array slice copies), constants as numpy scalars, so each function has one
specialisation per mode and no error-formatting code.
Nothing is allocated per battle: the workspace is made once per kernel call, and everything
below the kernel compiles without reference counting or wrappers (ai.INNER). Only `kernel` is
cached (its code contains everything it calls); kernel_cache recompiles it when any module it
imports changes.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from ...core.montecarlo import CHUNK
from ...core.rng import next_u64, seed_stream
from .ai import (ADVANCE, ATTACK, DX, DY, EMPTY_WALLS, ENEMIES, HEADQUARTERS, HOLD_WALLS, INF, INNER,
                 MOVE, SHOOT, STOP, _i, best_adjacent, best_shot, friends_in_line,
                 next_to_enemy, step_down)
from .state import (ACTIVE, C_ATTACKS, C_BESIEGED, C_CLIMB, C_FACING, C_FIRST,
                    C_FLEE_MELEE, C_POLICY_A, C_POLICY_D, C_READING, C_RETALIATION, C_RETURN,
                    C_SIEGE_TURN, C_THRESHOLD, C_TIE, C_TURNS, CAPTURED, CITY, DEAD, ESCAPED,
                    FLEEING, MAX_UNITS, N_CAT, NFU, OUT_OF_DICE, TATTACK, TBONUS, TCLIMB, THEALTH,
                    TMORALE, TMOUNTED, TRANGED, TSPEED, TUPKEEP, UDMG, UFACE, UFIRST, UHP, UMOVED,
                    UREAR, USIDE, UST, UTYPE, UX, UY, WALL, EV_ESCAPE, EV_HIT, EV_MELEE,
                    EV_MORALE, EV_MOVE, EV_SHOT, EV_TURN, cap_counts)

_cap = njit(**INNER)(cap_counts)

# Constants of compiled calls are numpy scalars: numba types a global np.int64 as int64, a
# Python int as a literal (one specialisation of the callee per value), and an np.int64(0) in
# the code is a call to type and lower at each use.
Z, NO, YES, NOT = np.int64(0), np.int64(-1), np.bool_(True), np.bool_(False)
I_2, I_3, I_NFU, I_MAX_UNITS, I_N_CAT = (np.int64(v) for v in (2, 3, NFU, MAX_UNITS, N_CAT))
(I_ENEMIES, I_EMPTY_WALLS, I_HEADQUARTERS, I_WALL, I_EV_TURN, I_EV_MOVE, I_EV_SHOT, I_EV_MELEE,
 I_EV_HIT, I_EV_MORALE, I_EV_ESCAPE) = (np.int64(v) for v in (
    ENEMIES, EMPTY_WALLS, HEADQUARTERS, WALL, EV_TURN, EV_MOVE, EV_SHOT, EV_MELEE, EV_HIT,
    EV_MORALE, EV_ESCAPE))

ROWS_HEAD = 8  # outcome, round, first player, violations, lost a/d, upkeep lost a/d


@njit(**INNER)
def roll_d6(dice, pos, st):
    """(die 1-6, next script position, st); -1 when a script has run out."""
    if dice.shape[0] > 0:
        if pos >= dice.shape[0]:
            return -1, pos, st
        return dice[pos], pos + 1, st
    u, st = next_u64(st)
    return 1 + np.int64(((u >> np.uint64(32)) * np.uint64(6)) >> np.uint64(32)), pos, st


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def wall_distances(TER):
    """DN[a, c]: steps from cell a to cell c without entering a wall (INF: no way), for units
    that cannot climb walls (a breadth-first search from each cell, which may be a wall); empty
    (0 x 0) on a board without walls, where every distance is the Manhattan distance
    (ai.step_down)."""
    H, W = TER.shape
    walls = False
    for c in range(W * H):
        walls = walls or TER[c // W, c % W] == WALL
    if not walls:
        return np.empty((Z, Z), np.int64)
    DN = np.empty((W * H, W * H), np.int64)
    queue = np.empty(W * H, np.int64)
    for source in range(W * H):
        for c in range(W * H):
            DN[source, c] = INF
        DN[source, source] = 0
        queue[0] = source
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            x, y = c % W, c // W
            for d in range(4):
                nx, ny = x + DX[d], y + DY[d]
                if 0 <= nx < W and 0 <= ny < H:
                    nc = ny * W + nx
                    if DN[source, nc] == INF and TER[ny, nx] != WALL:
                        DN[source, nc] = DN[source, c] + 1
                        queue[tail] = nc
                        tail += 1
    return DN


@njit(**INNER)
def note(LOG, kind, a, b, c, d, e):
    """Append event (kind, a..e) to the trace LOG (LOG[0, 0]: events so far); a LOG of one
    row (`play`) records nothing, and runs of many battles or sieges pass None: numba then
    compiles this to nothing."""
    if LOG is None:
        return
    m = LOG[0, 0] + 1
    if m < LOG.shape[0]:
        LOG[m, 0], LOG[m, 1], LOG[m, 2], LOG[m, 3], LOG[m, 4], LOG[m, 5] = kind, a, b, c, d, e
        LOG[0, 0] = m


@njit(**INNER)
def deal(j, dmg, by_enemy, U, G, W, LOG):
    """Damage unit j; a fleeing unit hit by the enemy surrenders. True if j left the board."""
    if dmg <= 0:
        return False
    gone = True
    if by_enemy and U[UST, j] == FLEEING:
        G[U[UY, j] * W + U[UX, j]] = -1
        U[UST, j] = CAPTURED
    else:
        U[UHP, j] = max(U[UHP, j] - dmg, 0)
        if by_enemy:
            U[UDMG, j] += dmg
        gone = U[UHP, j] == 0
        if gone:
            G[U[UY, j] * W + U[UX, j]] = -1
            U[UST, j] = DEAD
    note(LOG, I_EV_HIT, j, dmg, U[UHP, j], U[UST, j], _i(1 if by_enemy else 0))
    return gone


@njit(**INNER)
def _move(i, c, U, G, W, LOG):
    G[U[UY, i] * W + U[UX, i]] = -1
    G[c] = i
    U[UX, i], U[UY, i] = c % W, c // W
    note(LOG, I_EV_MOVE, i, U[UX, i], U[UY, i], Z, Z)
    U[UMOVED, i] += 1


@njit(**INNER)
def check_invariants(n, U, G, T, W):
    """One unit per cell, no negative health, one valid state each, no move beyond speed."""
    on_board = 0
    for j in range(n):
        st = U[UST, j]
        if st < ACTIVE or st > ESCAPED or U[UHP, j] < 0:
            return False
        if U[UMOVED, j] > T[TSPEED, U[UTYPE, j]] + (1 if st >= FLEEING else 0):
            return False
        if st <= FLEEING:
            on_board += 1
            if G[U[UY, j] * W + U[UX, j]] != j:
                return False
    used = 0
    for c in range(G.shape[0]):
        if G[c] >= 0:
            used += 1
    return used == on_board


BLOCK = 256  # battles per block: lanes take blocks b = lane, lane + lanes, ...

HOLDS, FALLS, CAPITULATES, LIFTED, DESTROYED = range(5)

# Where one battle is fought: an inputs.Board and its wall distances (`wall_distances`); a
# siege's assault and sortie fields hold copies of their cfg, in which each battle's siege
# turn is set.
Field = namedtuple("Field", ["terrain", "cells", "order", "hq", "hqf", "dn", "cfg"])
# The workspace, made once per kernel call: units U[field, unit], occupancy G[cell], the
# distance fields' sources SRC (ai.step_down), the units a shot hits, the engaged units
# eng[side, type] and a battle's tally res[side, type, category].
Work = namedtuple("Work", ["U", "G", "SRC", "hit", "eng", "res"])


@njit(**INNER)
def deploy(army, T, fld, wk):
    """Deployment: the engaged units (the cap of 20, in wk.eng) side by side, type by type, on
    the next free deployment cell of their class (foot, mounted); a unit without room stays
    out of the battle. Returns the number of units on the board."""
    U, G, eng, cells, order = wk.U, wk.G, wk.eng, fld.cells, fld.order
    W = fld.terrain.shape[1]
    _cap(army, eng, MAX_UNITS)
    G[:] = -1
    U[:, :] = 0
    n = Z  # (a literal 0 would make numba type a call with it: one more specialisation)
    room = cells.shape[2]
    for s in range(2):
        next_cell = (0, 0)  # the next deployment cell to try, foot and mounted
        for tk in range(order.shape[1]):
            k = order[s, tk]
            m = T[TMOUNTED, k]
            p = next_cell[m]
            for _ in range(eng[s, k]):
                while p < room and cells[s, m, p] >= 0 and G[cells[s, m, p]] >= 0:
                    p += 1
                if p >= room or cells[s, m, p] < 0:
                    eng[s, k] -= 1  # no room: stays out of the battle
                    continue
                c = cells[s, m, p]
                G[c] = n
                U[UX, n], U[UY, n] = c % W, c // W
                U[UHP, n] = T[THEALTH, k]
                U[UST, n] = ACTIVE
                U[USIDE, n] = s
                U[UTYPE, n] = k
                U[UFIRST, n] = 1
                U[UFACE, n] = 1 if s == 0 else -1
                n += 1
            next_cell = (p, next_cell[1]) if m == 0 else (next_cell[0], p)
    return n


@njit(inline="always", **INNER)
def flee(i, T, fld, wk, LOG, st):
    """Movement of fleeing unit i: it walks to its own edge with speed +1 (sideways once if
    blocked) and leaves the board there; held where it is if the setting flee_breaks_melee is
    off and an active enemy is adjacent. Returns st."""
    U, G, board, cfg = wk.U, wk.G, fld.terrain, fld.cfg
    H, W = board.shape
    k, s = U[UTYPE, i], U[USIDE, i]
    if cfg[C_FLEE_MELEE] == 0 and next_to_enemy(i, U[UX, i], U[UY, i], U, G, W, H):
        return st  # setting flee_breaks_melee off: held in the melee
    ap = T[TSPEED, k] + 1
    dy = -1 if s == 0 else 1
    edge = 0 if s == 0 else H - 1
    side_steps = 0
    while ap > 0:
        x, y = U[UX, i], U[UY, i]
        if y == edge:
            G[y * W + x] = -1
            U[UST, i] = ESCAPED
            if LOG is not None:
                note(LOG, I_EV_ESCAPE, i, Z, Z, Z, Z)
            break
        c = (y + dy) * W + x
        if G[c] < 0 and (board[y + dy, x] != WALL or T[TCLIMB, k] == 1):
            _move(i, c, U, G, W, LOG)
        elif side_steps == 0:
            side_steps = 1
            best = NO
            for ddx in (-1, 1):
                nx = x + ddx
                if 0 <= nx < W:
                    nc = y * W + nx
                    if G[nc] < 0 and (board[y, nx] != WALL or T[TCLIMB, k] == 1):
                        if best < 0:
                            best = nc
                        elif cfg[C_TIE] == 0:  # random tie-break
                            u, st = next_u64(st)
                            if u >> np.uint64(63):
                                best = nc
            if best < 0:
                break
            _move(i, best, U, G, W, LOG)
        else:
            break
        ap -= 1
    return st


@njit(inline="always", **INNER)
def list_sources(o, n, hold, fld, wk):
    """The distance fields' sources (ai.step_down): ENEMIES, side o's active units, and with a
    hold-walls policy EMPTY_WALLS, the empty wall cells."""
    U, G, SRC, board = wk.U, wk.G, wk.SRC, fld.terrain
    H, W = board.shape
    m = 0
    for j in range(n):
        if U[USIDE, j] == o and U[UST, j] == ACTIVE:
            m += 1
            SRC[ENEMIES, 0, m] = U[UY, j] * W + U[UX, j]
            SRC[ENEMIES, 1, m] = U[UX, j]
            SRC[ENEMIES, 2, m] = U[UY, j]
    SRC[ENEMIES, 0, 0] = m
    if hold:
        m = 0
        for wy in range(H):
            for wx in range(W):
                if board[wy, wx] == WALL and G[wy * W + wx] < 0:
                    m += 1
                    SRC[EMPTY_WALLS, 0, m] = wy * W + wx
                    SRC[EMPTY_WALLS, 1, m] = wx
                    SRC[EMPTY_WALLS, 2, m] = wy
        SRC[EMPTY_WALLS, 0, 0] = m


@njit(inline="always", **INNER)
def choose(i, n, ap, attacks, locked, near, T, fld, wk, st):
    """Targeting: the policy of unit i's side (ai.py) chooses its action, (act, arg, st).

    Every policy first fights when locked, shoots when it can, captures or strikes an adjacent
    enemy; archers that have shot stay where they are. Then advance: close in on the nearest
    enemy, take an empty enemy headquarters within reach (`ap` action points). hold-line:
    keep position. hold-walls: foot moves onto free wall cells, then along the wall towards the
    enemy; cavalry is a reserve that advances once an enemy is inside the city."""
    U, G, SRC, hit = wk.U, wk.G, wk.SRC, wk.hit
    board, cfg, DN, HQF = fld.terrain, fld.cfg, fld.dn, fld.hqf
    H, W = board.shape
    s, k, x, y = U[USIDE, i], U[UTYPE, i], U[UX, i], U[UY, i]
    o = 1 - s
    ranged = T[TRANGED, k] == 1
    policy = cfg[C_POLICY_A] if s == 0 else cfg[C_POLICY_D]
    act, arg = STOP, -1
    done = True
    if locked:
        if attacks > 0:
            arg, st = best_adjacent(i, U, G, W, H, cfg, st)
            act = ATTACK
    elif attacks > 0:
        done = False
        if ranged:
            arg, st = best_shot(i, n, U, G, T, board, W, H, cfg, hit, st)
            if arg >= 0:
                act, done = SHOOT, True
        if not done and near:
            arg, st = best_adjacent(i, U, G, W, H, cfg, st)
            if arg >= 0:
                act, done = ATTACK, True
    elif not ranged:
        done = False
    if not done:
        go = policy == ADVANCE
        if policy == HOLD_WALLS:
            if T[TMOUNTED, k] == 1:
                for e in range(n):
                    if U[USIDE, e] == o and U[UST, e] == ACTIVE and board[U[UY, e], U[UX, e]] == CITY:
                        go = True
                        break
            elif board[y, x] == WALL:
                arg, st = step_down(i, I_ENEMIES, Z, U, G, T, board, W, H, cfg, SRC, DN, HQF, st, I_WALL, NOT)
            else:
                arg, st = step_down(i, I_EMPTY_WALLS, Z, U, G, T, board, W, H, cfg, SRC, DN, HQF, st, NO, NOT)
        if go:
            cls = 1 - T[TCLIMB, k]
            arg = -1
            if G[fld.hq[o]] < 0 and HQF[s, cls, y * W + x] <= ap:
                arg, st = step_down(i, I_HEADQUARTERS, cls, U, G, T, board, W, H, cfg, SRC, DN, HQF, st, NO, YES)
            if arg < 0:
                arg, st = step_down(i, I_ENEMIES, cls, U, G, T, board, W, H, cfg, SRC, DN, HQF, st, NO, NOT)
        act = MOVE if arg >= 0 else STOP
    return act, arg, st


@njit(inline="always", **INNER)
def strike(i, j, act, T, fld, wk, LOG):
    """Combat: unit i attacks unit j, in melee (act ATTACK: a rear attack from the cell behind
    j, and the optional retaliation) or with a shot (own units on the Bresenham line take the
    damage too, except from cavalry that spares friends). True if a unit left the board."""
    U, G, hit, cfg = wk.U, wk.G, wk.hit, fld.cfg
    W = fld.terrain.shape[1]
    k = U[UTYPE, i]
    dmg = T[TATTACK, k]  # +1 on a first-attack-bonus unit's first attack
    if U[UFIRST, i] == 1:
        U[UFIRST, i] = 0
        dmg += T[TBONUS, k]
    if act == ATTACK:
        if cfg[C_FACING] == 0 and U[UST, j] == ACTIVE:
            if U[UX, i] == U[UX, j] and U[UY, i] == U[UY, j] - U[UFACE, j]:
                U[UREAR, j] = 1
        if LOG is not None:
            note(LOG, I_EV_MELEE, i, j, U[UREAR, j], Z, Z)
        gone = deal(j, dmg, YES, U, G, W, LOG)
        if cfg[C_RETALIATION] == 1 and not gone and U[UST, j] == ACTIVE:
            if LOG is not None:
                note(LOG, I_EV_MELEE, j, i, Z, Z, Z)
            gone = deal(i, T[TATTACK, U[UTYPE, j]], YES, U, G, W, LOG) or gone
        return gone
    if LOG is not None:
        note(LOG, I_EV_SHOT, i, j, Z, Z, Z)
    gone = False
    for q in range(friends_in_line(i, j, U, G, T, W, cfg, hit)):
        gone = deal(hit[q], dmg, NOT, U, G, W, LOG) or gone
    return deal(j, dmg, YES, U, G, W, LOG) or gone


@njit(inline="always", **INNER)
def unit_turn(i, n, enemies, dirty, hold, T, fld, wk, LOG, st):
    """Active unit i spends its action points: each one a move (climbing a wall costs the
    setting wall_climb_cost) or, up to attacks_per_turn, an attack (`choose`, then `strike`).
    `enemies`: the other side's active units; `dirty`: the distance fields' sources must be
    listed again (after a unit left the board or stepped onto a wall; locked units never move).
    Returns (took the enemy headquarters, routed the enemy, dirty, enemies, st)."""
    U, G, board, cfg = wk.U, wk.G, fld.terrain, fld.cfg
    H, W = board.shape
    s = U[USIDE, i]
    o = 1 - s
    ap = T[TSPEED, U[UTYPE, i]]
    attacks = cfg[C_ATTACKS] if cfg[C_ATTACKS] > 0 else ap  # 0: once per action point
    took, routed = False, False
    while ap > 0:
        x, y = U[UX, i], U[UY, i]
        # in melee (an active enemy adjacent): it cannot move; `near`: any enemy adjacent (a
        # fleeing one to capture)
        locked, near = False, False
        for dd in range(4):
            nx, ny = x + DX[dd], y + DY[dd]
            if 0 <= nx < W and 0 <= ny < H:
                e = G[ny * W + nx]
                if e >= 0 and U[USIDE, e] == o:
                    near = True
                    locked = locked or U[UST, e] == ACTIVE
        if dirty and not locked:
            list_sources(o, n, hold, fld, wk)
            dirty = False
        act, arg, st = choose(i, n, ap, attacks, locked, near, T, fld, wk, st)
        if act == STOP or arg < 0:
            break
        ap -= 1
        if act == MOVE:  # never chosen by a locked unit
            if board[arg // W, arg % W] == WALL and board[y, x] != WALL:
                if ap + 1 < cfg[C_CLIMB]:
                    break  # not enough action points left to climb this turn
                ap -= cfg[C_CLIMB] - 1
            _move(i, arg, U, G, W, LOG)
            if arg == fld.hq[o]:
                took = True
                break
            dirty = dirty or (hold and board[arg // W, arg % W] == WALL)
            continue
        attacks -= 1
        if strike(i, arg, act, T, fld, wk, LOG):
            dirty = True
            enemies = 0
            for e in range(n):
                if U[USIDE, e] == o and U[UST, e] == ACTIVE:
                    enemies += 1
            if enemies == 0:
                routed = True  # nothing is left to take a headquarters from
                break
        if U[UST, i] != ACTIVE:
            break
    return took, routed, dirty, enemies, st


@njit(inline="always", **INNER)
def morale(o, n, T, fld, wk, dice, pos, LOG, st):
    """Morale: units of side o that took more than the threshold or were hit from the rear
    test a d6 with modifiers in their favour (-1 in melee, +1 for the defender on a wall, -1
    for the besieged after the siege's first turn): 'flee-above' flees on a roll above morale
    + mod, 'hold-at-least' below morale - mod. Returns (OUT_OF_DICE when a script ran out,
    else -1; the script position; st)."""
    U, G, board, cfg = wk.U, wk.G, fld.terrain, fld.cfg
    H, W = board.shape
    for j in range(n):
        if U[USIDE, j] == o and U[UST, j] == ACTIVE and (U[UDMG, j] > cfg[C_THRESHOLD] or U[UREAR, j] == 1):
            mod = 0
            if next_to_enemy(j, U[UX, j], U[UY, j], U, G, W, H):
                mod -= 1
            if o == 1 and board[U[UY, j], U[UX, j]] == WALL:
                mod += 1
            if cfg[C_BESIEGED] == o and cfg[C_SIEGE_TURN] > 1:
                mod -= 1
            r, pos, st = roll_d6(dice, pos, st)
            if r < 0:
                return OUT_OF_DICE, pos, st
            mor = T[TMORALE, U[UTYPE, j]]
            flees = (r > mor + mod) if cfg[C_READING] == 0 else (r < mor - mod)
            if LOG is not None:
                note(LOG, I_EV_MORALE, j, r, mod, U[UDMG, j], _i(1 if flees else 0))
            if flees:
                U[UST, j] = FLEEING
                U[UFACE, j] = -U[UFACE, j]
    return -1, pos, st


@njit(**INNER)
def restore(start, fld, wk):
    """A position (positions/): its units start[:NFU, :n] into wk.U and the occupancy, the units
    on the board per side and type into wk.eng. Returns n (start[NFU, 0])."""
    U, G, eng = wk.U, wk.G, wk.eng
    W = fld.terrain.shape[1]
    n = start[NFU, 0]
    G[:] = -1
    U[:, :] = 0
    eng[:, :] = 0
    for j in range(n):
        for f in range(NFU):
            U[f, j] = start[f, j]
        if U[UST, j] <= FLEEING:
            G[U[UY, j] * W + U[UX, j]] = j
        eng[U[USIDE, j], U[UTYPE, j]] += 1
    return n


@njit(**INNER)
def settled(n, fld, wk):
    """A position decided already: 1 (3) when an active attacker (defender) unit stands on
    the enemy headquarters, else `cleared`'s code without clearing the marks."""
    U = wk.U
    W = fld.terrain.shape[1]
    for j in range(n):
        s = U[USIDE, j]
        if U[UST, j] == ACTIVE and U[UY, j] * W + U[UX, j] == fld.hq[1 - s]:
            return 1 if s == 0 else 3
    return cleared(n, wk, NOT)


@njit(**INNER)
def cleared(n, wk, clear):
    """After a morale test: damage and rear marks cleared (if `clear`); the outcome code when
    a side has no active unit left (5 both, 0 the defender routed, 2 the attacker), else -1."""
    U = wk.U
    a, d = 0, 0
    for j in range(n):
        if clear:
            U[UDMG, j] = 0
            U[UREAR, j] = 0
        if U[UST, j] == ACTIVE:
            if U[USIDE, j] == 0:
                a += 1
            else:
                d += 1
    if a == 0 or d == 0:
        return 5 if a == 0 and d == 0 else (0 if d == 0 else 2)
    return -1


@njit(**INNER)
def battle(army, T, fld, wk, dice, checked, LOG, st, start):
    """One battle of `army[side, type]` on `fld`: deployment, the first player (a 'random' one
    takes a die: 1-3 the attacker), then rounds in which each side moves all its units and the
    other side tests morale, until a side is routed or loses its headquarters, or the turn
    limit. Damage and rear marks are cleared after each morale test. From a position (`start`
    not None: units start[:NFU], start[NFU] = n, round, side to move, first player) the side
    to move first takes its pending morale tests, then plays on. Returns (outcome code,
    round, first player, invariants held, units deployed, st)."""
    U, G, board, cfg = wk.U, wk.G, fld.terrain, fld.cfg
    W = board.shape[1]
    hold = cfg[C_POLICY_A] == HOLD_WALLS or cfg[C_POLICY_D] == HOLD_WALLS
    pos = Z
    code, rnd, ok = -1, 0, True  # code -1: not decided yet
    h0 = 0  # the first round's first half (a position may start at the second)
    if start is None:
        n = deploy(army, T, fld, wk)
        first = cfg[C_FIRST]
        if first == 2:
            r, pos, st = roll_d6(dice, pos, st)
            if r < 0:
                code, first = OUT_OF_DICE, 0
            else:
                first = 0 if r <= 3 else 1
    else:
        n = restore(start, fld, wk)
        rnd, first = start[NFU, 1] - 1, start[NFU, 3]
        h0 = 0 if start[NFU, 2] == first else 1
        code = settled(n, fld, wk)
        if code < 0:
            code, pos, st = morale(start[NFU, 2], n, T, fld, wk, dice, pos, LOG, st)
        if code < 0:
            code = cleared(n, wk, YES)
    while code < 0 and rnd < cfg[C_TURNS]:
        rnd += 1
        for half in range(h0, 2):
            s = first if half == 0 else 1 - first
            o = 1 - s
            if LOG is not None:
                note(LOG, I_EV_TURN, rnd, s, Z, Z, Z)
            enemies = 0  # side o's active units (they only change when a unit is gone)
            for j in range(n):
                if U[USIDE, j] == o and U[UST, j] == ACTIVE:
                    enemies += 1
            dirty, took = True, False
            for i in range(n):
                if U[USIDE, i] != s:
                    continue
                U[UMOVED, i] = 0
                if U[UST, i] == FLEEING:
                    st = flee(i, T, fld, wk, LOG, st)
                    continue
                if U[UST, i] != ACTIVE or enemies == 0:
                    continue
                took, routed, dirty, enemies, st = unit_turn(i, n, enemies, dirty, hold, T, fld, wk, LOG, st)
                if took or routed:
                    break
            if checked is not None:
                ok = ok and check_invariants(n, U, G, T, W)
            if took:
                code = 1 if s == 0 else 3
                break
            code, pos, st = morale(o, n, T, fld, wk, dice, pos, LOG, st)
            if code >= 0:
                break
            code = cleared(n, wk, YES)
            if code >= 0:
                break
        h0 = 0
    if code < 0:
        code = 4  # the turn limit: undecided
    return code, rnd, first, ok, n, st


@njit(**INNER)
def tally(army, n, half_up, wk):
    """wk.res[side, type, category] after a battle: survived (with the units the cap left
    out), killed, fled (fleeing or escaped), captured, returned (survived + half the fled,
    rounded up if `half_up`)."""
    U, eng, res = wk.U, wk.eng, wk.res
    K = army.shape[1]
    res[:, :, :] = 0
    for s in range(2):
        for k in range(K):
            res[s, k, 0] = army[s, k] - eng[s, k]
    for j in range(n):
        s, k, state = U[USIDE, j], U[UTYPE, j], U[UST, j]
        if state == ACTIVE:
            res[s, k, 0] += 1
        elif state == DEAD:
            res[s, k, 1] += 1
        elif state == CAPTURED:
            res[s, k, 3] += 1
        else:
            res[s, k, 2] += 1
    for s in range(2):
        for k in range(K):
            f = res[s, k, 2]
            res[s, k, 4] = res[s, k, 0] + (f // 2 if half_up == 0 else (f + 1) // 2)


@njit(**INNER)
def count(hist, counts, T, code, rnd, first, ok, res):
    """One battle into the histogram rows (module docstring): outcome, round, first player,
    invariants, units and upkeep lost per side, and each side, type and category's count."""
    K = counts.shape[1]
    hist[0, code] += 1
    hist[1, rnd] += 1
    hist[2, first] += 1
    hist[3, 0 if ok else 1] += 1
    for s in range(2):
        lost, upkeep = 0, 0
        for k in range(K):
            gone = counts[s, k] - res[s, k, 4]
            lost += gone
            upkeep += gone * T[TUPKEEP, k]
            for cat in range(N_CAT):
                hist[ROWS_HEAD + (s * K + k) * N_CAT + cat, res[s, k, cat]] += 1
        hist[4 + s, lost] += 1
        hist[6 + s, upkeep] += 1


@njit(**INNER)
def keep(final, code, rnd, first, ok, n, U, st):
    """One battle's final units into final[:NFU] and (code, round, first, ok, n, the random
    stream's four words as int64) into final[NFU]."""
    for f in range(NFU):
        for j in range(n):
            final[f, j] = U[f, j]
    final[NFU, 0] = code
    final[NFU, 1] = rnd
    final[NFU, 2] = first
    final[NFU, 3] = 1 if ok else 0
    final[NFU, 4] = n
    for w in range(4):
        final[NFU, 5 + w] = np.int64(st[w])


@njit(**INNER)
def next_action(siege, sp):
    """The siege's next battle from turn plan[sp] on: (its turn, 1 sortie / 2 assault, HOLDS);
    waits pass, and a city without a port capitulates at the end of turn capitulate_after
    (CAPITULATES); (len(plan), 0, HOLDS) when the plan is over."""
    while sp < len(siege.plan):
        act = siege.plan[sp]
        if act > 0:
            return sp, act, HOLDS
        if siege.port == 0 and siege.start + sp >= siege.capitulate_after:
            return sp, act, CAPITULATES
        sp += 1
    return sp, Z, HOLDS


@njit(**INNER)
def siege_end(act, code, sp, siege, cur, res):
    """After a siege's battle both sides keep the units that returned (cur[side, type]); how the
    siege ended (HOLDS: it goes on): falls to an assault won by the besieger, lifted by a sortie
    won by the garrison, falls or destroyed when a side has no unit left, capitulates."""
    garrison, besieger = 0, 0
    for k in range(cur.shape[1]):
        cur[0, k], cur[1, k] = res[0, k, 4], res[1, k, 4]
        besieger += cur[0, k]
        garrison += cur[1, k]
    if act == 2 and code <= 1:
        return FALLS
    if act == 1 and (code == 2 or code == 3):
        return LIFTED
    if garrison == 0:
        return FALLS
    if besieger == 0:
        return DESTROYED
    if siege.port == 0 and siege.start + sp >= siege.capitulate_after:
        return CAPITULATES
    return HOLDS


@njit(**INNER)
def next_block(b, chunk_trials):
    """Block b of a run: (chunk, first trial, end trial); chunk -1 past the run's end."""
    left = b
    for cc in range(len(chunk_trials)):
        blocks = (chunk_trials[cc] + BLOCK - 1) // BLOCK
        if left < blocks:
            return cc, left * BLOCK, min(left * BLOCK + BLOCK, chunk_trials[cc])
        left -= blocks
    return -1, 0, 0


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def kernel(counts, T, ground, siege, dice, checked, final, LOG, base, start, seed, first_chunk,
           chunk_trials, out, lane):
    """The compiled entry point, one lane of the runner (arguments: inputs.KernelArgs, then
    the runner's), in three modes chosen by which of `siege`, `final` and `LOG` are None:
    - battles (all three None): one count per battle in each row of out[lane, row, value],
      fought on `ground` (an inputs.Board record); the battles are numbered
      base[0] + (first_chunk + c) * CHUNK + t (runner.simulate slices a run by moving
      base[0]: the numbers never depend on the slicing);
    - sieges (`siege` an inputs.Siege record, see siege_turns.py): assaults on `ground`, sorties on
      siege.sortie; one count per siege in out[lane, how it ended, turns];
    - one battle (final and LOG given): battle number `first_chunk`, with `dice` if given,
      its final units in final[:NFU] and (code, round, first, ok, n, stream) in final[NFU],
      and its events in LOG if LOG has more than one row (see `note`).
    `start` (not None: battles and one battle) plays each battle on from a position
    (`battle`); with start[NFU, 4] == 1 one battle takes the stream start[NFU, 5:9] instead
    of its number's.
    `checked` True (not None) checks the invariants after every side's turn (`check_invariants`,
    row 3 of the histogram). numba compiles one specialisation per mode and, before typing
    it, drops the branches of the other modes (`siege is None`... on an argument typed None is
    a constant, in the kernel and in each step it is passed to): the first run of battles
    compiles far less code than a kernel holding every mode (docs/performance.md).
    Lane `lane` takes blocks b = lane, lane + lanes, ... of BLOCK battles; each battle's stream
    depends on its index only, so the split never changes the numbers."""
    hist = out[lane]
    hist[:, :] = 0
    K = counts.shape[1]
    # The workspace. Every array is written before it is read (U, G and res are cleared for
    # each battle, eng is the cap's output, SRC is listed before a scan reads it, hit is
    # filled by friends_in_line), so np.empty, with int64 shapes: numba compiles np.empty
    # once per number of dimensions (np.zeros and zeros_like, and literal sizes, would each
    # be compiles of their own).
    TER = ground.terrain
    wk = Work(np.empty((I_NFU, I_MAX_UNITS), np.int64), np.empty(TER.shape[0] * TER.shape[1], np.int64),
              np.empty((I_2, I_3, TER.shape[0] * TER.shape[1] + 1), np.int64),
              np.empty(I_MAX_UNITS, np.int64), np.empty((I_2, K), np.int64),
              np.empty((I_2, K, I_N_CAT), np.int64))
    fld = Field(TER, ground.cells, ground.order, ground.hq, ground.hqf, wall_distances(TER), ground.cfg)
    if siege is not None:  # a siege: the armies between its battles, the assault and sortie fields
        so = siege.sortie
        cur = np.empty((I_2, K), np.int64)
        fld = Field(TER, ground.cells, ground.order, ground.hq, ground.hqf, fld.dn, ground.cfg.copy())
        sortie = Field(so.terrain, so.cells, so.order, so.hq, so.hqf, wall_distances(so.terrain), so.cfg.copy())
    b = 0 if final is not None else lane
    while True:
        if final is not None:  # one battle: number `first_chunk`
            chunk, t0, t1 = (0, first_chunk, first_chunk + 1) if b == 0 else (-1, 0, 0)
        else:
            chunk, t0, t1 = next_block(b, chunk_trials)
        if chunk < 0:
            break
        for trial in range(t0, t1):
            st = seed_stream(seed, trial if final is not None else
                             base[0] + (first_chunk + chunk) * CHUNK + trial)
            if siege is None:
                if start is not None and final is not None and start[NFU, 4] == 1:
                    st = (np.uint64(start[NFU, 5]), np.uint64(start[NFU, 6]),
                          np.uint64(start[NFU, 7]), np.uint64(start[NFU, 8]))
                code, rnd, first, ok, n, st = battle(counts, T, fld, wk, dice, checked, LOG, st, start)
                tally(counts, n, fld.cfg[C_RETURN], wk)
                if code != OUT_OF_DICE:
                    count(hist, counts, T, code, rnd, first, ok, wk.res)
                if final is not None:
                    keep(final, code, rnd, first, ok, n, wk.U, st)
                continue
            for s in range(2):  # the garrison carries its losses from battle to battle
                for k in range(K):
                    cur[s, k] = counts[s, k]
            sp, end, when = Z, HOLDS, len(siege.plan)
            while True:  # the siege's next assault or sortie
                sp, act, end = next_action(siege, sp)
                if end != HOLDS or sp == len(siege.plan):
                    break
                bfld = sortie if act == 1 else fld
                bfld.cfg[C_SIEGE_TURN] = siege.start + sp
                code, rnd, first, ok, n, st = battle(cur, T, bfld, wk, dice, checked, LOG, st, None)
                tally(cur, n, fld.cfg[C_RETURN], wk)
                end = siege_end(act, code, sp, siege, cur, wk.res)
                if end != HOLDS:
                    break
                sp += 1
            if end != HOLDS:
                when = sp + 1
            hist[end, when] += 1
        b += 1 if final is not None else out.shape[0]
