"""Balance by cost (docs/rules_crusades.md, "Balance by upkeep"): unit types and armies against
each other at equal upkeep budget, and the upkeep at which each matchup is even.

A unit costs its type's ``upkeep`` (the rules' only cost; change it with ``--set
units.TYPE.upkeep=N``). An entrant is a unit type or an army (a mix of types); at a budget of B
upkeep points it buys floor(n_k * B / U) units of each type k of its mix (U: the mix's upkeep),
then one more of a type, in order of largest remainder, while the budget allows (`buy`).

Each matchup is played half its battles with the first entrant as the scenario's attacker and
half as its defender (board, deployment rows, policy, first move, siege), seeds S and S+1, so
neither the first move nor the ground favours an entrant: a type against itself is even.
Even means P(first wins) = P(second wins), i.e. a score of 50% counting an undecided battle
as half a win. The 50/50 search keeps the first entrant's budget and bisects over the second
entrant's distinct armies from budget / max_ratio to budget x max_ratio that fit the battle
(20 units, the deployment rows), assuming its score rises with its budget; the even upkeep is
interpolated between the bracket's two armies. Every point uses the same seeds (common random
numbers), so the search sees the armies' differences, not the dice's.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from ...errors import OddsError, check_int, shown
from ..simulator import state as S
from ..battles.battle import run, scenario_of, settings_of
from ..scenario import SIDES, UNIT_LIMITS, deployment_cells, load

Z = 1.96  # the half-width of a 95% interval in standard errors
# `odds crusades balance`: its bounds and default
BALANCE_MAX_ENTRANTS = 8  # unit types and armies in one run (28 matchups)
BALANCE_MAX_BUDGETS = 8  # budgets in one run
BALANCE_RATIO = 3.0  # default --max-ratio: the 50/50 search spans budget / 3 to budget x 3
BALANCE_MAX_RATIO = 10.0  # bound of --max-ratio
BALANCE_MAX_BATTLES = 50_000_000  # battles of one run at most (points x battles, ~5 min), checked first
MAX_BUDGET = S.MAX_UNITS * UNIT_LIMITS["upkeep"][1]  # a battle's 20 units at the highest upkeep


def buy(mix, upkeep, budget: int) -> np.ndarray:
    """Units per type that `budget` upkeep points buy of the army `mix` (units per type):
    floor(n_k * budget / U), then one more of a type in order of largest remainder (ties: the
    lower type) while the budget allows. A type alone buys floor(budget / upkeep)."""
    mix, upkeep = np.asarray(mix, np.int64), np.asarray(upkeep, np.int64)
    total = int((mix * upkeep).sum())
    counts, rem = np.divmod(mix * budget, total)
    left = budget - int((counts * upkeep).sum())
    for k in sorted(range(len(mix)), key=lambda k: (-rem[k], k)):
        if rem[k] and upkeep[k] <= left:
            counts[k] += 1
            left -= int(upkeep[k])
    return counts


@dataclass(frozen=True)
class Entrant:
    """A unit type (`mix` one unit of it) or an army (`mix`: units per type)."""

    name: str
    mix: tuple


@dataclass(frozen=True)
class Point:
    """Entrant a against entrant b, half the battles each way round."""

    a_win: float
    b_win: float
    draw: float
    a_win_se: float
    b_win_se: float
    margin_se: float  # of a_win - b_win
    a_as_attacker: float
    a_as_defender: float
    battles: int

    @property
    def margin(self) -> float:
        return self.a_win - self.b_win


class _Arena:
    """The scenario the battles are fought in, and what fits in it."""

    def __init__(self, sc, battles, seed, threads):
        self.sc, self.battles, self.seed, self.threads = sc, battles, seed, threads
        self.upkeep = sc.types[S.TUPKEEP]
        self.mounted = sc.types[S.TMOUNTED] == 1
        cells = deployment_cells(sc)
        self.room = [(int((cells[s, 0] >= 0).sum()), int((cells[s, 1] >= 0).sum())) for s in range(2)]
        self.cache = {}

    def army(self, entrant: Entrant, budget: int) -> tuple:
        return tuple(int(n) for n in buy(entrant.mix, self.upkeep, budget))

    def cost(self, counts) -> int:
        return int((np.asarray(counts) * self.upkeep).sum())

    def fits(self, a, b) -> bool:
        """Both armies in one battle: at most 20 units (no cut), each in either side's rows."""
        if sum(a) + sum(b) > S.MAX_UNITS or not sum(a) or not sum(b):
            return False
        return all(sum(c) <= foot and int(np.asarray(c)[self.mounted].sum()) <= horse
                   for c in (a, b) for foot, horse in self.room)

    def describe(self, counts) -> str:
        return " + ".join(f"{n} {t}" for n, t in zip(counts, self.sc.type_names) if n)

    def point(self, a, b) -> Point:
        """a against b: battles // 2 (rounded up) with a attacking, seed S; the rest with b
        attacking, seed S + 1. Raises KeyboardInterrupt when a run was interrupted."""
        if (a, b) not in self.cache:
            a1, b1, und1, n1 = self._way(a, b, (self.battles + 1) // 2, self.seed)
            b2, a2, und2, n2 = self._way(b, a, self.battles // 2, self.seed + 1)
            var = lambda p, n: p * (1 - p) / n
            margin_var = (a1 + b1 - (a1 - b1) ** 2) / n1 + (a2 + b2 - (a2 - b2) ** 2) / n2
            self.cache[a, b] = Point((a1 + a2) / 2, (b1 + b2) / 2, (und1 + und2) / 2,
                                     math.sqrt(var(a1, n1) + var(a2, n2)) / 2,
                                     math.sqrt(var(b1, n1) + var(b2, n2)) / 2,
                                     math.sqrt(margin_var) / 2, a1, a2, n1 + n2)
        return self.cache[a, b]

    def _way(self, attacker, defender, battles, seed):
        raw = dict(self.sc.raw)
        for side, counts in zip(SIDES, (attacker, defender)):
            army = {t: n for t, n in zip(self.sc.type_names, counts) if n}
            raw[side] = {**self.sc.raw.get(side, {}), "army": army}
        r = run(load(raw, name=self.sc.path), battles=battles, seed=seed, threads=self.threads,
                progress=False)
        if r.partial:
            raise KeyboardInterrupt
        return float(r["attacker_win"]), float(r["defender_win"]), float(r["undecided"]), r.trials


def candidates(arena: _Arena, a_counts, b: Entrant, budget: int, max_ratio: float):
    """(armies, clipped): the second entrant's distinct armies from budget / max_ratio to
    budget x max_ratio upkeep that fit the battle beside `a_counts`, cheapest first; clipped
    when some army in that range did not fit."""
    seen, clipped = {}, False
    low = max(1, math.ceil(budget / max_ratio - 1e-9))
    room, total = S.MAX_UNITS - sum(a_counts), arena.cost(b.mix)
    for spend in range(low, math.floor(budget * max_ratio + 1e-9) + 1):
        if sum(n * spend // total for n in b.mix) > room:
            clipped = True
            break  # the floors alone no longer fit, nor at any larger budget
        counts = arena.army(b, spend)
        if counts in seen or not sum(counts):
            continue
        if arena.fits(a_counts, counts):
            seen[counts] = arena.cost(counts)
        else:
            clipped = True
    return sorted(seen, key=lambda c: (seen[c], c)), clipped


def bisect_even(margin, n: int):
    """(i, i + 1): adjacent indices of a sign change of margin(i) over 0..n-1, assumed
    decreasing: margin(i) > 0 >= margin(i + 1); None when margin(0) <= 0 or margin(n - 1) > 0
    (not bracketed). Calls margin at most search_points(n) times."""
    if n < 2 or margin(0) <= 0 or margin(n - 1) > 0:
        return None
    lo, hi = 0, n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if margin(mid) > 0:
            lo = mid
        else:
            hi = mid
    return lo, hi


def search_points(n: int) -> int:
    """The most points bisect_even evaluates over n candidates (both ends, then halving)."""
    return n if n < 3 else 2 + math.ceil(math.log2(n - 1))


def falls(points):
    """The first pair (i, j), i < j, of points (upkeep, margin, se) sorted by upkeep where the
    margin P(a) - P(b) rises with b's upkeep by more than Z standard errors (the search assumes
    it falls), else None."""
    for j, (_, mj, sj) in enumerate(points):
        for i, (_, mi, si) in enumerate(points[:j]):
            if mj > mi + Z * math.hypot(si, sj):
                return i, j
    return None


NO_EVEN = {k: math.nan for k in ("even_upkeep", "even_ratio", "even_se", "even_mc_se",
                                  "even_line_se", "even_low", "even_high")}  # no 50/50 found


def even(arena, a_counts, b: Entrant, xs, clipped, on_point) -> dict:
    """The 50/50 point of `a_counts` against the armies `xs` of entrant b (see `candidates`):
    b's upkeep there, interpolated linearly in the margin P(a wins) - P(b wins) between the
    bracket's two armies, its standard error (the Monte Carlo one by the delta method and the
    straight line's between whole units, combined), the bracket, a note."""
    cost = [arena.cost(c) for c in xs]

    def point(i):
        p = arena.point(a_counts, xs[i])
        on_point(xs[i], p)
        return p

    found = bisect_even(lambda i: point(i).margin, len(xs))
    out = dict(NO_EVEN)
    if not xs:
        out["even_note"] = f"not bracketed: no army of {b.name} fits the battle"
        return out
    played = [c for c in xs if (a_counts, c) in arena.cache]
    bad = falls([(arena.cost(c), arena.point(a_counts, c).margin, arena.point(a_counts, c).margin_se)
                 for c in played])
    unsure = "" if bad is None else (
        f"; not monotone: {b.name} does better at {arena.cost(played[bad[0]])} upkeep than at "
        f"{arena.cost(played[bad[1]])} beyond Monte Carlo error, so this is one reading of several")
    if found is None:
        span = (f"searched {cost[0]} to {cost[-1]} upkeep"
                + (", the most that fits the battle" if clipped else ""))
        first = point(0)
        if first.margin < 0:
            out["even_note"] = f"not bracketed: {b.name} ahead already at {cost[0]} upkeep ({span})"
        elif first.margin == 0:
            out["even_note"] = (f"not bracketed: level already at {cost[0]} upkeep, {first.draw:.0%} "
                                f"of the battles undecided ({span})")
        else:
            out["even_note"] = f"not bracketed: {b.name} still behind at {cost[-1]} upkeep ({span})"
        out["even_note"] += unsure
        return out
    i, j = found
    p, q = arena.point(a_counts, xs[i]), arena.point(a_counts, xs[j])
    x1, x2, d = cost[i], cost[j], p.margin - q.margin
    x = x1 + (x2 - x1) * p.margin / d
    se = (x2 - x1) / d ** 2 * math.hypot(q.margin * p.margin_se, p.margin * q.margin_se)
    note = f"between {arena.describe(xs[i])} ({x1}) and {arena.describe(xs[j])} ({x2})"
    if abs(p.margin) < Z * p.margin_se or abs(q.margin) < Z * q.margin_se:
        note += "; a bracket end is within Monte Carlo error (more battles narrow it)"
    note += unsure
    # armies come in whole units: the straight line between the bracket's two armies is a
    # reading, its error taken as a point anywhere between them (sd of a uniform: width/sqrt(12))
    line = (x2 - x1) / math.sqrt(12)
    out.update(even_upkeep=x, even_ratio=x / arena.cost(a_counts), even_se=math.hypot(se, line),
               even_mc_se=se, even_line_se=line, even_low=float(x1), even_high=float(x2),
               even_note=note)
    return out


def entrants(sc, types=None, armies=None) -> tuple:
    """The entrants (unit types, then armies) and notes on the types left out.

    `types`: names of unit types (default: every type with an upkeep, unless `armies` are
    given); `armies`: {name: {type: units}} or {name: 'attacker' | 'defender'} (the scenario's)."""
    names, upkeep, notes = sc.type_names, sc.types[S.TUPKEEP], []
    if types is None:
        types = [] if armies else [t for t, u in zip(names, upkeep) if u]
        free = [t for t, u in zip(names, upkeep) if not u]
        if free and not armies:
            notes.append(f"left out (upkeep 0, no budget buys a number of them): {', '.join(free)}")
    elif isinstance(types, str):
        types = [types]
    out = [_type(sc, t) for t in types]
    out += [Entrant(str(name), _mix(sc, name, mix)) for name, mix in (armies or {}).items()]
    seen = [e.name for e in out]
    for e in out:
        if seen.count(e.name) > 1:
            raise OddsError(f"--types/--army: {e.name!r} is given twice (each entrant once)")
    if len(out) < 2:
        raise OddsError(f"--types/--army: {len(out)} entrant{'s' * (len(out) != 1)} "
                        f"({', '.join(seen) or 'none'}); a matchup needs at least 2")
    if len(out) > BALANCE_MAX_ENTRANTS:
        raise OddsError(f"--types/--army: {len(out)} entrants (allowed: at most "
                        f"{BALANCE_MAX_ENTRANTS})")
    return out, notes


def _type(sc, t) -> Entrant:
    names = sc.type_names
    if t not in names:
        raise OddsError(f"--types: {t!r} is not a unit type of {sc.path} (allowed: {', '.join(names)})")
    if not sc.types[S.TUPKEEP, names.index(t)]:
        raise OddsError(f"--types: {t} has upkeep 0, so no budget buys a number of them "
                        f"(give it one with --set units.{t}.upkeep=N)")
    return Entrant(t, tuple(int(k == names.index(t)) for k in range(len(names))))


def _mix(sc, name, mix) -> tuple:
    names = sc.type_names
    if mix in SIDES:
        counts = tuple(int(n) for n in sc.counts[SIDES.index(mix)])
    elif isinstance(mix, dict):
        counts = [0] * len(names)
        for t, n in mix.items():
            if t not in names:
                raise OddsError(f"--army {name}: {t!r} is not a unit type (allowed: {', '.join(names)})")
            counts[names.index(t)] = check_int(f"--army {name}: {t}", n, 0, 100)
        counts = tuple(counts)
    else:
        raise OddsError(f"--army {name}: {mix!r} is not an army (allowed: TYPE:N,... or "
                        f"attacker, defender: the scenario's)")
    if not sum(n * int(u) for n, u in zip(counts, sc.types[S.TUPKEEP])):
        raise OddsError(f"--army {name}: the army costs no upkeep (give it units with an upkeep)")
    return counts


def _default_budget(arena, pairs) -> int:
    """The largest budget at which every matchup fits one battle with the second entrant at
    twice the budget (room for the 50/50 search), else with both at the budget."""
    top = S.MAX_UNITS * int(arena.upkeep.max())
    for factor in (2, 1):
        for b in range(top, 0, -1):  # most budgets fail at the first matchup tried
            if all(arena.fits(arena.army(x, b), arena.army(y, factor * b)) for x, y in pairs):
                return b
    never = [f"{x.name} v {y.name}" for x, y in pairs
             if not any(arena.fits(arena.army(x, b), arena.army(y, b)) for b in range(1, top + 1))]
    limits = f"at most {S.MAX_UNITS} units, each side in its deployment rows"
    if never:
        raise OddsError(f"--types: {', '.join(never[:3])}{' ...' * (len(never) > 3)} fit one battle "
                        f"at no budget ({limits}); give types of closer upkeep")
    raise OddsError(f"--budget: no one budget fits every matchup into one battle ({limits}); "
                    "give fewer --types")


def _check_budget(arena, pairs, budget) -> int:
    """`budget` if every matchup buys at least a unit a side and fits one battle at it."""
    budget = check_int("--budget", budget, 1, MAX_BUDGET)
    for x, y in pairs:
        a, b = arena.army(x, budget), arena.army(y, budget)
        for e, c in ((x, a), (y, b)):
            if not sum(c):
                least = next((n for n in range(budget, MAX_BUDGET + 1) if sum(arena.army(e, n))), None)
                allowed = f"allowed: at least {least}" if least else "no budget buys one in a battle"
                raise OddsError(f"--budget: {budget} upkeep buys no {e.name} ({allowed})")
        if not arena.fits(a, b):
            raise OddsError(f"--budget: at {budget}, {arena.describe(a)} v {arena.describe(b)} do not "
                            f"fit one battle (at most {S.MAX_UNITS} units; deployment rows of "
                            f"{' and '.join(str(f) for f, _ in arena.room)} cells); "
                            "give a smaller budget")
    return budget


def _ratio(value) -> float:
    try:
        r = float(value)
    except (TypeError, ValueError):
        raise OddsError(f"--max-ratio: {shown(value)} is not a number") from None
    if not 1 <= r <= BALANCE_MAX_RATIO:
        raise OddsError(f"--max-ratio: {shown(value)} is out of range "
                        f"(allowed: 1 to {BALANCE_MAX_RATIO:g})")
    return r


def balance(scenario, *, types=None, armies=None, budgets=None, battles=None, seed=None,
            max_ratio=BALANCE_RATIO, overrides=(), threads=None, progress=None):
    """Unit types and armies of a crusades scenario against each other at equal upkeep budget.

    `types`: unit type names (default: every type with an upkeep, unless `armies` are given);
    `armies`: {name: {type: units} | 'attacker' | 'defender'}; `budgets`: upkeep points each
    side spends (default: the largest at which every matchup fits one battle with the second
    entrant at twice the budget); `battles` per point (default: the scenario's), half each way
    round; `max_ratio`: the 50/50 search spans the second entrant's budget / max_ratio to
    budget x max_ratio. Returns a DataFrame, one row per matchup and budget: the armies bought,
    win rates (a_win, b_win, draw = undecided) with standard errors, win rate per upkeep
    point, and the 50/50 upkeep of the second entrant (even_*). ``attrs``: partial (Ctrl-C:
    the rows done so far), curve (every point played: the plot's data), seed, battles, notes,
    settings. Errors name the CLI flag (`--budget`...) and raise OddsError. balance_report
    shows it (summary, to_json, plot).
    """
    import itertools

    import pandas as pd

    sc = scenario_of(scenario, overrides)
    battles = check_int("--battles", sc.battles if battles is None else battles, 2, 10**9)
    seed = check_int("--seed", sc.seed if seed is None else seed, 0, 2**63 - 2)
    max_ratio = _ratio(max_ratio)
    arena = _Arena(sc, battles, seed, threads)
    field, notes = entrants(sc, types, armies)
    pairs = list(itertools.combinations(field, 2))
    if budgets is None:
        budgets = [_default_budget(arena, pairs)]
    budgets = [budgets] if isinstance(budgets, int) else list(budgets)
    if not budgets or len(budgets) > BALANCE_MAX_BUDGETS or len(set(budgets)) < len(budgets):
        raise OddsError(f"--budget: {budgets} (allowed: 1 to {BALANCE_MAX_BUDGETS} "
                        "different budgets)")
    plan = []
    for budget in (_check_budget(arena, pairs, b) for b in budgets):
        for x, y in pairs:
            a = arena.army(x, budget)
            plan.append((budget, x, y, a, arena.army(y, budget),
                         *candidates(arena, a, y, budget, max_ratio)))
    points = sum(1 + search_points(len(p[5])) for p in plan)
    if points * battles > BALANCE_MAX_BATTLES:
        raise OddsError(f"--battles: {battles:,} per point would need up to {points * battles:,} "
                        f"battles ({len(plan)} matchups and budgets, up to {points} points), above "
                        f"{BALANCE_MAX_BATTLES:,} (give fewer --battles, --types or --budget)")
    curve, rows, partial = _Curve(arena, _bar(progress, points)), [], False
    try:
        for budget, x, y, a, b, xs, clipped in plan:
            def on_point(counts, p, x=x, y=y, budget=budget, a=a):
                curve.add(x, y, budget, a, counts, p)

            row = _row(arena, x, y, budget, a, b, on_point)
            try:
                row.update(even(arena, a, y, xs, clipped, on_point))
            except KeyboardInterrupt:
                row.update(NO_EVEN, even_note="interrupted before the 50/50 search ended")
                raise
            finally:
                rows.append(row)
    except KeyboardInterrupt:
        partial = True
    finally:
        curve.close()
    frame = pd.DataFrame(rows, columns=COLUMNS)
    settings = {k: v for k, v in settings_of(sc).items() if k != "engaged"}  # the armies are ours
    curve = pd.DataFrame(curve.rows, columns=CURVE_COLUMNS)
    if partial:
        notes.append(f"interrupted: {len(rows)} of {len(plan)} matchups (the last one's search "
                     "may be unfinished)")
    if sc.illustrative:
        notes.append("the unit numbers of this scenario are illustrative")
    frame.attrs.update(procedure="crusades.balance", scenario=sc.title, partial=partial, seed=seed,
                       battles=battles, max_ratio=max_ratio, notes=notes, settings=settings,
                       curve=curve)
    return frame


def _row(arena, x, y, budget, a, b, on_point) -> dict:
    """The equal-budget point of entrants x (army a) and y (army b) as a row of the table."""
    p = arena.point(a, b)
    on_point(b, p)
    return dict(matchup=f"{x.name} v {y.name}", a=x.name, b=y.name, budget=budget,
                a_army=arena.describe(a), b_army=arena.describe(b), a_units=sum(a), b_units=sum(b),
                a_upkeep=arena.cost(a), b_upkeep=arena.cost(b), battles=p.battles, a_win=p.a_win,
                b_win=p.b_win, draw=p.draw, a_win_se=p.a_win_se, b_win_se=p.b_win_se,
                a_win_per_upkeep=p.a_win / arena.cost(a), b_win_per_upkeep=p.b_win / arena.cost(b),
                a_win_as_attacker=p.a_as_attacker, a_win_as_defender=p.a_as_defender)


class _Curve:
    """Every point played, once each: the plot's data; ticks the progress bar."""

    def __init__(self, arena, bar):
        self.arena, self.bar, self.rows, self.seen = arena, bar, [], set()

    def add(self, x, y, budget, a, counts, p):
        if (x, y, budget, counts) in self.seen:
            return
        self.seen.add((x, y, budget, counts))
        cost = self.arena.cost
        self.rows.append(dict(matchup=f"{x.name} v {y.name}", a=x.name, b=y.name, budget=budget,
                              a_upkeep=cost(a), b_upkeep=cost(counts), ratio=cost(counts) / cost(a),
                              b_army=self.arena.describe(counts), a_win=p.a_win, b_win=p.b_win,
                              draw=p.draw, b_score=(1 - p.margin) / 2, b_score_se=p.margin_se / 2))
        if self.bar is not None:
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def match(scenario, a, b, budget, b_budget=None, *, battles=None, seed=None, overrides=(),
          threads=None) -> dict:
    """One point: entrant `a` (a unit type name or an army {type: units}) at `budget` upkeep
    against `b` at `b_budget` (default: the same), half the battles each way round, as
    `balance` plays it: the armies bought, a_win, b_win, draw, their standard errors, margin."""
    sc = scenario_of(scenario, overrides)
    battles = check_int("--battles", sc.battles if battles is None else battles, 2, 10**9)
    seed = check_int("--seed", sc.seed if seed is None else seed, 0, 2**63 - 2)
    arena = _Arena(sc, battles, seed, threads)
    x, y = (_type(sc, e) if isinstance(e, str) else Entrant(name, _mix(sc, name, e))
            for name, e in (("a", a), ("b", b)))
    b_budget = budget if b_budget is None else b_budget
    ca = arena.army(x, check_int("budget", budget, 1, MAX_BUDGET))
    cb = arena.army(y, check_int("b_budget", b_budget, 1, MAX_BUDGET))
    for e, c, spend in ((x, ca, budget), (y, cb, b_budget)):
        if not sum(c):
            raise OddsError(f"budget: {spend} upkeep buys no {e.name}")
    if not arena.fits(ca, cb):
        raise OddsError(f"budget: {arena.describe(ca)} v {arena.describe(cb)} do not fit one battle "
                        f"(at most {S.MAX_UNITS} units, each in the deployment rows)")
    p = arena.point(ca, cb)
    return dict(a_army=arena.describe(ca), b_army=arena.describe(cb), a_upkeep=arena.cost(ca),
                b_upkeep=arena.cost(cb), margin=p.margin, **p.__dict__)


COLUMNS = ("matchup", "a", "b", "budget", "a_army", "b_army", "a_units", "b_units", "a_upkeep",
           "b_upkeep", "battles", "a_win", "b_win", "draw", "a_win_se", "b_win_se",
           "a_win_per_upkeep", "b_win_per_upkeep", "a_win_as_attacker", "a_win_as_defender",
           "even_upkeep", "even_ratio", "even_se", "even_mc_se", "even_line_se", "even_low",
           "even_high", "even_note")
CURVE_COLUMNS = ("matchup", "a", "b", "budget", "a_upkeep", "b_upkeep", "ratio", "b_army",
                 "a_win", "b_win", "draw", "b_score", "b_score_se")


def _bar(progress, total):
    if not (progress or (progress is None and sys.stderr.isatty())):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="point", leave=False)
