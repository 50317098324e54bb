"""Numba simulator of the crusades tactical battle (docs/rules_crusades.md).

One battle: deploy (20-unit cap by largest remainder), then rounds in which each side moves
all its units (`side_turn`), then the other side tests morale. Battle b of a run uses the RNG
stream of (seed, b), so every battle is reproducible on its own and the numbers do not depend
on the thread count. The only dice are morale d6s; they come from the stream or, in scripted
mode, from a list (a 'random' first player then takes one die: 1-3 attacker).

`run_kernel` fills the histogram rows described by `layout`: outcome code, round of decision,
first player, invariant violations, units lost and upkeep lost per side, and per side, type
and category (survived, killed, fled, captured, returned) the count of units.

Everything runs through one entry point, `kernel` (one lane of the runner), so numba compiles
once, then loads it from the disk cache. Every call passes every argument (no defaults, no
array-to-array slice copies), so each function has one specialisation and no error-formatting
code. Nothing is allocated per battle: the workspace is made once per kernel call.
Developers: numba's cache does not notice edits to ai.py or state.py; delete
odds/crusades/__pycache__/*.nb* after changing them.
"""
import numpy as np
from numba import njit

from ..core.montecarlo import CHUNK
from ..core.rng import next_u64, seed_stream
from .ai import (ATTACK, DX, DY, EMPTY_WALLS, ENEMIES, HOLD_WALLS, INF, MOVE, STOP, _b, _i, decide,
                 friends_in_line, locked)
from .state import (ACTIVE, C_ATTACKS, C_BESIEGED, C_CHECK, C_CLIMB, C_FACING, C_FIRST,
                    C_FLEE_MELEE, C_POLICY_A, C_POLICY_D, C_READING, C_RETALIATION, C_RETURN,
                    C_SIEGE_TURN, C_THRESHOLD, C_TIE, C_TURNS, CAPTURED, DEAD, ESCAPED, FLEEING,
                    MAX_UNITS, N_CAT, NFU, OUT_OF_DICE, TATTACK, TBONUS, TCLIMB, THEALTH, TMORALE,
                    TMOUNTED, TSPEED, TUPKEEP, UDMG, UFACE, UFIRST, UHP, UMOVED, UREAR, USIDE, UST,
                    UTYPE, UX, UY, WALL, EV_ESCAPE, EV_HIT, EV_MELEE, EV_MORALE, EV_MOVE,
                    EV_SHOT, EV_TURN, cap_counts)

_cap = njit(cache=True, _nrt=False)(cap_counts)

ROWS_HEAD = 8  # outcome, round, first player, violations, lost a/d, upkeep lost a/d


@njit(cache=True, _nrt=False)
def roll_d6(dice, pos, st):
    """(die 1-6, next script position, st); -1 when a script has run out."""
    if dice.shape[0] > 0:
        if pos >= dice.shape[0]:
            return -1, pos, st
        return dice[pos], pos + 1, st
    u, st = next_u64(st)
    return 1 + np.int64(((u >> np.uint64(32)) * np.uint64(6)) >> np.uint64(32)), pos, st


@njit(cache=True, _nrt=False)
def bfs(field, source, TER, W, H, queue):
    """field[c]: steps from cell `source` (which may be a wall) to c without entering a wall
    (INF: no way)."""
    for c in range(W * H):
        field[c] = INF
    field[source] = 0
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
                if field[nc] == INF and TER[ny, nx] != WALL:
                    field[nc] = field[c] + 1
                    queue[tail] = nc
                    tail += 1


@njit(cache=True)
def wall_distances(TER):
    """DN[a, c]: steps from cell a to cell c for units that cannot climb walls (`bfs`); empty (0 x 0)
    on a board without walls, where every distance is the Manhattan distance (ai.field_value)."""
    H, W = TER.shape
    walls = False
    for c in range(W * H):
        walls = walls or TER[c // W, c % W] == WALL
    if not walls:
        return np.zeros((0, 0), np.int64)
    DN = np.empty((W * H, W * H), np.int64)
    queue = np.empty(W * H, np.int64)
    for c in range(W * H):
        bfs(DN[c], c, TER, W, H, queue)
    return DN


@njit(cache=True, _nrt=False)
def list_sources(s, n, U, G, TER, W, H, hold, SRC):
    """SRC[ENEMIES]: side s's active enemies; SRC[EMPTY_WALLS] (if a side holds the walls):
    the empty wall cells (the layout is in ai.field_value)."""
    m = 0
    for j in range(n):
        if U[USIDE, j] != s and U[UST, j] == ACTIVE:
            m += 1
            _source(SRC, _i(ENEMIES), m, U[UX, j], U[UY, j], W)
    SRC[ENEMIES, 0, 0] = m
    if hold:
        m = 0
        for y in range(H):
            for x in range(W):
                if TER[y, x] == WALL and G[y * W + x] < 0:
                    m += 1
                    _source(SRC, _i(EMPTY_WALLS), m, x, y, W)
        SRC[EMPTY_WALLS, 0, 0] = m


@njit(cache=True, _nrt=False)
def _source(SRC, f, k, x, y, W):
    SRC[f, 0, k] = y * W + x
    SRC[f, 1, k] = x
    SRC[f, 2, k] = y


@njit(cache=True, _nrt=False)
def note(LOG, kind, a, b, c, d, e):
    """Append event (kind, a..e) to the trace LOG (LOG[0, 0]: events so far); a LOG of one
    row (every run but `trace`) records nothing."""
    m = LOG[0, 0] + 1
    if m < LOG.shape[0]:
        LOG[m, 0], LOG[m, 1], LOG[m, 2], LOG[m, 3], LOG[m, 4], LOG[m, 5] = kind, a, b, c, d, e
        LOG[0, 0] = m


@njit(cache=True, _nrt=False)
def remove(j, U, G, W, state):
    G[U[UY, j] * W + U[UX, j]] = -1
    U[UST, j] = state


@njit(cache=True, _nrt=False)
def deal(j, dmg, by_enemy, U, G, W, LOG):
    """Damage unit j; a fleeing unit hit by the enemy surrenders. True if j left the board."""
    if dmg <= 0:
        return False
    gone = True
    if by_enemy and U[UST, j] == FLEEING:
        remove(j, U, G, W, _i(CAPTURED))
    else:
        U[UHP, j] = max(U[UHP, j] - dmg, 0)
        if by_enemy:
            U[UDMG, j] += dmg
        gone = U[UHP, j] == 0
        if gone:
            remove(j, U, G, W, _i(DEAD))
    note(LOG, _i(EV_HIT), j, dmg, U[UHP, j], U[UST, j], _i(1 if by_enemy else 0))
    return gone


@njit(cache=True, _nrt=False)
def strike_damage(i, U, T):
    """Attack value, +1 on a first-attack-bonus unit's first attack (used up here)."""
    k = U[UTYPE, i]
    dmg = T[TATTACK, k]
    if U[UFIRST, i] == 1:
        U[UFIRST, i] = 0
        dmg += T[TBONUS, k]
    return dmg


@njit(cache=True, _nrt=False)
def melee(i, j, U, G, T, W, cfg, LOG):
    """i strikes adjacent j (rear attack if from the cell behind j); optional retaliation."""
    if cfg[C_FACING] == 0 and U[UST, j] == ACTIVE:
        if U[UX, i] == U[UX, j] and U[UY, i] == U[UY, j] - U[UFACE, j]:
            U[UREAR, j] = 1
    note(LOG, _i(EV_MELEE), i, j, U[UREAR, j], _i(0), _i(0))
    gone = deal(j, strike_damage(i, U, T), _b(True), U, G, W, LOG)
    if cfg[C_RETALIATION] == 1 and not gone and U[UST, j] == ACTIVE:
        note(LOG, _i(EV_MELEE), j, i, _i(0), _i(0), _i(0))
        gone = deal(i, T[TATTACK, U[UTYPE, j]], _b(True), U, G, W, LOG) or gone
    return gone


@njit(cache=True, _nrt=False)
def shoot(i, j, U, G, T, W, cfg, hit, LOG):
    """i shoots j; friendly units on the Bresenham line take the damage too (not at cavalry).
    `hit` is scratch space for their indices."""
    dmg = strike_damage(i, U, T)
    gone = False
    note(LOG, _i(EV_SHOT), i, j, _i(0), _i(0), _i(0))
    for k in range(friends_in_line(i, j, U, G, T, W, cfg, hit)):
        gone = deal(hit[k], dmg, _b(False), U, G, W, LOG) or gone
    return deal(j, dmg, _b(True), U, G, W, LOG) or gone


@njit(cache=True, _nrt=False)
def flee(i, U, G, T, TER, W, H, cfg, st, LOG):
    """A fleeing unit walks to its own edge with speed +1 (sideways once if blocked) and leaves
    (unless flee_breaks_melee is off and an active enemy is adjacent)."""
    k = U[UTYPE, i]
    if cfg[C_FLEE_MELEE] == 0 and locked(i, U, G, W, H):
        return st  # setting flee_breaks_melee off: held in the melee
    ap = T[TSPEED, k] + 1
    dy = -1 if U[USIDE, i] == 0 else 1
    edge = 0 if U[USIDE, i] == 0 else H - 1
    side_steps = 0
    while ap > 0:
        x, y = U[UX, i], U[UY, i]
        if y == edge:
            remove(i, U, G, W, _i(ESCAPED))
            note(LOG, _i(EV_ESCAPE), i, _i(0), _i(0), _i(0), _i(0))
            return st
        c = (y + dy) * W + x
        if G[c] < 0 and (TER[y + dy, x] != WALL or T[TCLIMB, k] == 1):
            _move(i, c, U, G, W, LOG)
        elif side_steps == 0:
            side_steps = 1
            best = -1
            for ddx in (-1, 1):
                nx = x + ddx
                if 0 <= nx < W:
                    nc = y * W + nx
                    if G[nc] < 0 and (TER[y, nx] != WALL or T[TCLIMB, k] == 1):
                        if best < 0:
                            best = nc
                        elif cfg[C_TIE] == 0:  # random tie-break
                            u, st = next_u64(st)
                            if u >> np.uint64(63):
                                best = nc
            if best < 0:
                return st
            _move(i, best, U, G, W, LOG)
        else:
            return st
        ap -= 1
    return st


@njit(cache=True, _nrt=False)
def _move(i, c, U, G, W, LOG):
    G[U[UY, i] * W + U[UX, i]] = -1
    G[c] = i
    U[UX, i], U[UY, i] = c % W, c // W
    note(LOG, _i(EV_MOVE), i, U[UX, i], U[UY, i], _i(0), _i(0))
    U[UMOVED, i] += 1


@njit(cache=True, _nrt=False)
def active_count(side, n, U):
    m = 0
    for j in range(n):
        if U[USIDE, j] == side and U[UST, j] == ACTIVE:
            m += 1
    return m


@njit(cache=True, _nrt=False)
def side_turn(s, n, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, hold, hit, st, LOG):
    """Side s moves every unit once. Returns (True if it took the enemy headquarters, st).

    The distance fields' sources are listed again lazily: after a unit left the board or
    stepped onto a wall, and only when a unit that is not locked in melee is about to decide
    (locked units never move)."""
    dirty = True
    for i in range(n):
        if U[USIDE, i] != s:
            continue
        U[UMOVED, i] = 0
        if U[UST, i] == FLEEING:
            st = flee(i, U, G, T, TER, W, H, cfg, st, LOG)
            continue
        if U[UST, i] != ACTIVE or active_count(1 - s, n, U) == 0:
            continue
        ap = T[TSPEED, U[UTYPE, i]]
        attacks = cfg[C_ATTACKS] if cfg[C_ATTACKS] > 0 else ap  # 0: once per action point
        while ap > 0:
            if dirty and not locked(i, U, G, W, H):
                list_sources(s, n, U, G, TER, W, H, hold, SRC)
                dirty = False
            act, arg, st = decide(i, n, ap, attacks, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, st)
            if act == STOP or arg < 0:
                break
            ap -= 1
            if act == MOVE:
                if locked(i, U, G, W, H):
                    break
                if TER[arg // W, arg % W] == WALL and TER[U[UY, i], U[UX, i]] != WALL:
                    if ap + 1 < cfg[C_CLIMB]:
                        break  # not enough action points left to climb this turn
                    ap -= cfg[C_CLIMB] - 1
                _move(i, arg, U, G, W, LOG)
                if arg == hq[1 - s]:
                    return True, st
                dirty = dirty or (hold and TER[arg // W, arg % W] == WALL)
            else:
                attacks -= 1
                if act == ATTACK:
                    gone = melee(i, arg, U, G, T, W, cfg, LOG)
                else:
                    gone = shoot(i, arg, U, G, T, W, cfg, hit, LOG)
                dirty = dirty or gone
                if gone and active_count(1 - s, n, U) == 0:
                    return False, st  # routed: nothing is left to take a headquarters from
                if U[UST, i] != ACTIVE:
                    break
    return False, st


@njit(cache=True, _nrt=False)
def morale_tests(o, n, U, G, T, TER, W, H, cfg, dice, pos, st, LOG):
    """After the enemy's turn: units of side o that took more than the threshold or were hit
    from the rear test a d6 with modifiers in their favour (-1 in melee, +1 for the defender
    on a wall, -1 for the besieged after the siege's first turn): 'flee-above' flees on a roll
    above morale + mod, 'hold-at-least' below morale - mod. Damage and rear marks of every
    unit are then cleared."""
    for j in range(n):
        if U[USIDE, j] == o and U[UST, j] == ACTIVE and (U[UDMG, j] > cfg[C_THRESHOLD] or U[UREAR, j] == 1):
            mod = 0  # in the unit's favour: +1 on a wall, -1 in melee, -1 besieged
            if locked(j, U, G, W, H):
                mod -= 1
            if o == 1 and TER[U[UY, j], U[UX, j]] == WALL:
                mod += 1
            if cfg[C_BESIEGED] == o and cfg[C_SIEGE_TURN] > 1:
                mod -= 1
            r, pos, st = roll_d6(dice, pos, st)
            if r < 0:
                return pos, st, False
            m = T[TMORALE, U[UTYPE, j]]
            flees = (r > m + mod) if cfg[C_READING] == 0 else (r < m - mod)
            note(LOG, _i(EV_MORALE), j, r, mod, U[UDMG, j], _i(1 if flees else 0))
            if flees:
                U[UST, j] = FLEEING
                U[UFACE, j] = -U[UFACE, j]
    for j in range(n):
        U[UDMG, j] = 0
        U[UREAR, j] = 0
    return pos, st, True


@njit(cache=True, _nrt=False)
def deploy(counts, T, W, cells, order, U, G, eng):
    """Place the engaged units (cap of 20) side by side, type by type, on the next free
    deployment cell of their class. Returns the number of units on the board."""
    _cap(counts, eng, MAX_UNITS)
    G[:] = -1
    U[:, :] = 0
    n = 0
    room = cells.shape[2]
    for s in range(2):
        next_cell = (0, 0)  # the next deployment cell to try, foot and mounted
        for t in range(order.shape[1]):
            k = order[s, t]
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def battle(counts, T, TER, cells, order, hq, HQF, DN, cfg, dice, U, G, SRC, hit, eng, st, LOG):
    """One battle on board TER (DN: its wall_distances). Returns (outcome code, round of
    decision, first side, invariants ok, units on the board, st)."""
    H, W = TER.shape
    n = deploy(counts, T, W, cells, order, U, G, eng)
    hold = cfg[C_POLICY_A] == HOLD_WALLS or cfg[C_POLICY_D] == HOLD_WALLS
    pos = _i(0)
    first = cfg[C_FIRST]
    if first == 2:
        r, pos, st = roll_d6(dice, pos, st)
        if r < 0:
            return OUT_OF_DICE, 0, 0, True, n, st
        first = 0 if r <= 3 else 1
    ok = True
    for rnd in range(1, cfg[C_TURNS] + 1):
        for half in range(2):
            s = first if half == 0 else 1 - first
            note(LOG, _i(EV_TURN), rnd, s, _i(0), _i(0), _i(0))
            took, st = side_turn(s, n, U, G, T, TER, W, H, cfg, SRC, DN, HQF, hq, hold, hit, st, LOG)
            if cfg[C_CHECK] == 1:
                ok = ok and check_invariants(n, U, G, T, W)
            if took:
                return 1 if s == 0 else 3, rnd, first, ok, n, st
            pos, st, enough = morale_tests(1 - s, n, U, G, T, TER, W, H, cfg, dice, pos, st, LOG)
            if not enough:
                return OUT_OF_DICE, rnd, first, ok, n, st
            a, d = active_count(_i(0), n, U), active_count(_i(1), n, U)
            if a == 0 and d == 0:
                return 5, rnd, first, ok, n, st
            if d == 0:
                return 0, rnd, first, ok, n, st
            if a == 0:
                return 2, rnd, first, ok, n, st
    return 4, cfg[C_TURNS], first, ok, n, st


@njit(cache=True, _nrt=False)
def tally(n, U, counts, eng, cfg, res):
    """res[side, type, category]: survived (incl. units left out by the cap), killed, fled
    (fleeing or escaped), captured, returned (survived + half the fled)."""
    res[:, :, :] = 0
    for s in range(2):
        for k in range(counts.shape[1]):
            res[s, k, 0] = counts[s, k] - eng[s, k]
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
        for k in range(counts.shape[1]):
            f = res[s, k, 2]
            res[s, k, 4] = res[s, k, 0] + (f // 2 if cfg[C_RETURN] == 0 else (f + 1) // 2)


@njit(cache=True, _nrt=False)
def _record(hist, code, rnd, first, ok, counts, T, res):
    hist[0, code] += 1
    hist[1, rnd] += 1
    hist[2, first] += 1
    hist[3, 0 if ok else 1] += 1
    K = counts.shape[1]
    for s in range(2):
        lost, upkeep = 0, 0
        for k in range(K):
            gone = counts[s, k] - res[s, k, 4]
            lost += gone
            upkeep += gone * T[TUPKEEP, k]
            for c in range(N_CAT):
                hist[ROWS_HEAD + (s * K + k) * N_CAT + c, res[s, k, c]] += 1
        hist[4 + s, lost] += 1
        hist[6 + s, upkeep] += 1


BLOCK = 256


@njit(cache=True, _nrt=False)
def block(b, chunk_trials):
    """Block b of a batch as (chunk, first trial, end trial); chunk -1 past the end. Lanes
    take blocks b = lane, lane + lanes, ...; each battle's stream depends on its index only,
    so the split never changes the numbers."""
    for c in range(len(chunk_trials)):
        blocks = (chunk_trials[c] + BLOCK - 1) // BLOCK
        if b < blocks:
            return c, b * BLOCK, min(b * BLOCK + BLOCK, chunk_trials[c])
        b -= blocks
    return -1, 0, 0


HOLDS, FALLS, CAPITULATES, LIFTED, DESTROYED = range(5)


@njit(cache=True, _nrt=False)
def _siege(cur, T, TER, cells, order, hq, HQF, DN, cfg, sTER, scells, sorder, shq, sHQF, sDN,
           scfg, plan, start, port, capitulate_after, dice, U, G, SRC, hit, eng, res, st, LOG):
    """One siege (see siege.py): (how it ended, strategic turns it lasted, st)."""
    for p in range(len(plan)):
        turn = start + p
        act = plan[p]
        end = HOLDS
        if act > 0:
            if act == 2:  # assault on the walled board
                cfg[C_SIEGE_TURN] = turn
                code, rnd, first, ok, n, st = battle(cur, T, TER, cells, order, hq, HQF, DN, cfg,
                                                     dice, U, G, SRC, hit, eng, st, LOG)
            else:  # sortie: the garrison attacks in the open
                scfg[C_SIEGE_TURN] = turn
                code, rnd, first, ok, n, st = battle(cur, T, sTER, scells, sorder, shq, sHQF, sDN,
                                                     scfg, dice, U, G, SRC, hit, eng, st, LOG)
            tally(n, U, cur, eng, cfg, res)
            garrison, besieger = 0, 0
            for k in range(cur.shape[1]):
                cur[0, k], cur[1, k] = res[0, k, 4], res[1, k, 4]
                besieger += cur[0, k]
                garrison += cur[1, k]
            if act == 2 and code <= 1:
                end = FALLS
            elif act == 1 and (code == 2 or code == 3):
                end = LIFTED
            elif garrison == 0:
                end = FALLS
            elif besieger == 0:
                end = DESTROYED
        if end == HOLDS and port == 0 and turn >= capitulate_after:
            end = CAPITULATES
        if end != HOLDS:
            return end, p + 1, st
    return HOLDS, len(plan), st


@njit(cache=True, nogil=True)
def kernel(counts, T, TER, cells, order, hq, HQF, cfg, sTER, scells, sorder, shq, sHQF, scfg,
           plan, start, port, capitulate_after, dice, final, LOG, base, seed, first_chunk,
           chunk_trials, out, lane):
    """The one compiled entry point (one compile for every use), one lane of the runner:
    - battles (plan empty): one count per battle in each row of out[lane, row, value]; the
      battles are numbered base[0] + (first_chunk + c) * CHUNK + t (runner.simulate slices a
      run by moving base[0]: the numbers never depend on the slicing);
    - sieges (plan given): one count per siege in out[lane, how it ended, turns];
    - one battle (final has columns): battle number `first_chunk`, with `dice` if given,
      its final units in final[:NFU] and (code, round, first, ok, n) in final[NFU], and its
      events in LOG if LOG has more than one row (see `note`)."""
    H, W = TER.shape
    hist = out[lane]
    hist[:, :] = 0
    U = np.zeros((NFU, MAX_UNITS), np.int64)
    G = np.empty(H * W, np.int64)
    SRC = np.zeros((2, 3, H * W + 1), np.int64)
    hit = np.zeros(MAX_UNITS, np.int64)
    eng = np.zeros_like(counts)
    res = np.zeros((2, counts.shape[1], N_CAT), np.int64)
    cur = np.zeros_like(counts)
    DN, sDN = wall_distances(TER), wall_distances(sTER)
    acfg, bcfg = cfg.copy(), scfg.copy()
    one = final.shape[1] > 0
    b = 0 if one else lane
    while True:
        if one:  # one battle: number `first_chunk`
            c, t0, t1 = (0, first_chunk, first_chunk + 1) if b == 0 else (-1, 0, 0)
        else:
            c, t0, t1 = block(b, chunk_trials)
        if c < 0:
            break
        for t in range(t0, t1):
            st = seed_stream(seed, t if one else base[0] + (first_chunk + c) * CHUNK + t)
            if len(plan) == 0:
                code, rnd, first, ok, n, st = battle(counts, T, TER, cells, order, hq, HQF, DN,
                                                     cfg, dice, U, G, SRC, hit, eng, st, LOG)
                tally(n, U, counts, eng, cfg, res)
                if code != OUT_OF_DICE:
                    _record(hist, code, rnd, first, ok, counts, T, res)
                if one:
                    for f in range(NFU):
                        for j in range(n):
                            final[f, j] = U[f, j]
                    final[NFU, 0] = code
                    final[NFU, 1] = rnd
                    final[NFU, 2] = first
                    final[NFU, 3] = 1 if ok else 0
                    final[NFU, 4] = n
            else:
                for s in range(2):
                    for k in range(counts.shape[1]):
                        cur[s, k] = counts[s, k]
                end, when, st = _siege(cur, T, TER, cells, order, hq, HQF, DN, acfg, sTER, scells,
                                       sorder, shq, sHQF, sDN, bcfg, plan, start, port,
                                       capitulate_after, dice, U, G, SRC, hit, eng, res, st, LOG)
                hist[end, when] += 1
        b += 1 if one else out.shape[0]
