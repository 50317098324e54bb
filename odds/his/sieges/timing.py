"""One copy of Siege Artillery held through a siege: when to play it (docs/rules.md).

The attacker holds one copy and decides after seeing each assault's roll (the card adds 2
dice hitting on 3-6). Timings, given as `siege-artillery:TIMING` among a siege's attacker
cards (siege_timing_rules.py): `first` (also `always`), `if-needed`, `if-it-helps`,
`optimal`. `optimal` maximises P(captured within K assaults); among the rules within TIE
(1e-9) of that maximum it takes the fewest expected attacker losses, then the highest P(card
still in hand at the end): exact dynamic programming over the states (forces at the roll,
card in hand, assaults left), each decision lexicographic in that order (ties keep the card).

Exact engine: the distribution over the states before each assault, carried forward one
assault at a time (the decision may depend on the assault). Outcome joint:
``joint[end, k, attacker losses, defender losses, card kept]``, end 0 captured, 1 siege
broken, 2 still besieged after assault k (0-based), as sieges/procedure.py plus the defender's losses
and whether the card is still in hand at the end.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from ...core.dice import pool_pmf
from ...core.engine import (Cost, Procedure, checkpoint, exact_clock, exact_or_mc, memory_budget,
                           solve)
from ...errors import OddsError, check_list, nearest
from ...i18n import N_, _
from ..assaults.procedure import rows_after
from ..assaults.rules import fails, infantry_left, resolve, succeeds
from ..cards import AfterRoll
from ..rolls.sequence import after_roll, surprise, surprised_out
from .model import WORDS, Plan, SiegeResult, at, reach, summarise as siege_summary
from .timing_rules import OPTIMAL, TIMINGS, plays_held

CARD = AfterRoll("siege-artillery", 2, 3, "if-needed")  # played exactly where decided
EPS = 1e-12  # gains below this are rounding: the card is kept
TIE = 1e-9  # P(captured) closer than this is a tie: the fewer expected losses decide
HELD = "siege-artillery"
ALIASES = {"always": "first", "": "if-needed"}
HELD_POLICIES = {HELD: ("if-needed", "first", "always", "if-it-helps", "optimal")}  # its timings
LEFT_OUT = ("the timings side by side and the optimal rule need the exact engine: left out, "
            "the siege being beyond its bounds")
SITUATIONS = (N_("wins without it"), N_("it can win the assault"), N_("it cannot win the assault"))


class Chain:
    """A siege with one held copy: its plan, K, the casualty order, and one assault's rows."""

    def __init__(self, p: Plan, assaults: int, cavalry_first: bool, held: bool):
        self.p, self.assaults, self.cavalry_first, self.held = p, assaults, cavalry_first, held
        a0, d0 = p.sides[0]
        self.units0 = (a0.units, d0.units)
        self.shape = (3, assaults, a0.units + (assaults - 1) * p.add[0] + 1,
                      d0.units + (assaults - 1) * p.add[1] + 1, 2)
        self._rows = {}
        self._optimal = None

    def start(self):
        return tuple(self.p.start()[:4])

    def lost(self, k, state):
        """(attacker, defender) units lost before assault k, reaching `state` (at the roll)."""
        ai, ac, di, dc = state
        return tuple(u + k * add - now for u, add, now in
                     zip(self.units0, self.p.add, (ai + ac, di + dc)))

    def rows(self, k, state):
        """Main roll of assault k (card not counted): (ah, dh, p, able, fails, helps); `able`:
        the attacker may still play an after-roll card; `helps`: 2 more hits would win."""
        key = (min(k, 1), state)
        if key not in self._rows:
            ai, ac, di, dc = state
            ta, td = self.p.sides[key[0]]
            a, d = at(ta, ai, ac), at(td, di, dc)
            (ah, dh, _, _, pr), _ = rows_after(a, d, self.cavalry_first)
            able = ~surprised_out(surprise(a, d), ah, dh, a.units, d.units)[0]
            able &= not (key[0] == 0 and self.p.breaks)
            ua, ud = a.units, d.units
            self._rows[key] = (ah, dh, pr, able, fails(ah, dh, ua, ud),
                               succeeds(ah + CARD.count, dh, ua, ud))
        return self._rows[key]

    def settle(self, k, state, ah, dh):
        """(end, attacker losses, defender losses, next states) of rows of assault k: end 0
        captured, 1 broken, 2 goes on (or, at the last assault, still besieged)."""
        ai, ac, di, dc = state
        ua, ud = ai + ac, di + dc
        won = succeeds(ah, dh, ua, ud)
        _, al, dl = resolve(ah, dh, ua, ud)
        end = np.where(won, 0, np.where(ua - al > ud - dl, 2, 1))
        nai = infantry_left(ai, ac, al, self.cavalry_first)
        ndi = infantry_left(di, dc, dl, self.cavalry_first)
        nxt = list(zip((nai + self.p.add[0]).tolist(), (ua - al - nai).tolist(),
                       (ndi + self.p.add[1]).tolist(), (ud - dl - ndi).tolist()))
        return end, al, dl, nxt

    def play(self, k, state, decide):
        """Rows of assault k with the card in hand, played where `decide` (a bool per main-roll
        row) says: (ah, dh, p, played, index of the main-roll row)."""
        ah, dh, pr, able, _, _ = self.rows(k, state)
        table = pool_pmf([(CARD.count, CARD.threshold)])[:, None]
        zero = np.zeros_like(ah)
        cols, p, played, row = after_roll([ah, dh, zero, zero], pr, CARD, table, 0, decide, able)
        return cols[0], cols[1], p, played, row


def cost(chain: Chain, passes: int, optimal: bool, start=None) -> Cost:
    """What solving `chain` (from `start`, else its own) costs: `passes` forward passes
    (exact_joint) over its (assault, state) pairs (sieges.model.reach) and, if `optimal`, the
    dynamic programme, each a Python step per pair and per dice outcome; memory: the rows
    kept per state, the programme's values per pair. Calibrated on the development machine:
    60 v 20 units, 5 assaults, 5 passes and the programme, 5.5 s; 20 v 10, 10 assaults, 1.1 s."""
    r = reach(chain.p, chain.assaults, chain.cavalry_first, chain.held, start)
    pairs, rows = r.pairs, r.mean_rows
    work = pairs * (passes * (30 + 0.08 * rows) + optimal * (120 + 0.5 * rows))
    return Cost(work, 300 * pairs + 64 * r.distinct * rows,
                _("about {pairs:,.0f} (assault, forces) pairs of {rows:,.0f} dice outcomes each").format(
                    pairs=pairs, rows=rows), _("fewer units or assaults"))


def decider(chain: Chain, timing: str):
    """decide(k, state) -> bool per main-roll row, for a timing name."""
    code = TIMINGS[timing]
    best = optimal_table(chain)[0] if code == OPTIMAL else {}

    def decide(k, state):
        _, _, _, _, fail, helps = chain.rows(k, state)
        return plays_held(code, k, fail, helps, best.get((k, state), False))
    return decide


def exact_joint(chain: Chain, decide) -> np.ndarray:
    """The outcome joint under the rule `decide` (see the module doc)."""
    joint = np.zeros(chain.shape)
    dist = {(chain.start(), int(chain.held)): 1.0}
    for k in range(chain.assaults):
        nxt = defaultdict(float)
        for (state, card), q in dist.items():
            checkpoint()
            if card:
                ah, dh, pr, played, _ = chain.play(k, state, decide(k, state))
            else:
                ah, dh, pr = chain.rows(k, state)[:3]
                played = np.zeros(len(pr), bool)
            end, al, dl, states = chain.settle(k, state, ah, dh)
            kept = card & ~played
            la, ld = chain.lost(k, state)
            stop = (end < 2) | (k == chain.assaults - 1)
            np.add.at(joint, (end[stop], k, la + al[stop], ld + dl[stop], kept[stop] * 1),
                      q * pr[stop])
            for i in np.flatnonzero(~stop):
                nxt[(states[i], int(kept[i]))] += q * pr[i]
        dist = nxt
    return joint


def optimal_table(chain: Chain):
    """({(k, state): bool per main-roll row: play}, (P(captured), expected attacker losses,
    P(card kept)) from the start): backward induction, lexicographic (capture first, within
    TIE; then the fewer losses; then the card kept); solved once per chain."""
    if chain._optimal is None:
        chain._optimal = _optimal_table(chain)
    return chain._optimal


def _optimal_table(chain: Chain):
    table, memo = {}, {}

    def value(k, state, card):
        if k == chain.assaults:
            return 0.0, 0.0, float(card)
        if (k, state, card) in memo:
            return memo[(k, state, card)]
        checkpoint()
        ah, dh, pr, able = chain.rows(k, state)[:4]
        keep = outcome_values(k, state, ah, dh, card)
        if card:
            pah, pdh, pp, _, row = chain.play(k, state, np.ones(len(pr), bool))
            played = outcome_values(k, state, pah, pdh, 0)
            cap, lost = (np.bincount(row, pp * v, minlength=len(pr)) / np.where(pr > 0, pr, 1)
                         for v in played[:2])
            best = able & ((cap > keep[0] + TIE) | ((cap > keep[0] - TIE) & (lost < keep[1] - EPS)))
            table[(k, state)] = best
            keep = (np.where(best, cap, keep[0]), np.where(best, lost, keep[1]),
                    np.where(best, 0.0, keep[2]))
        memo[(k, state, card)] = tuple(float(pr @ v) for v in keep)
        return memo[(k, state, card)]

    def outcome_values(k, state, ah, dh, card):
        """Per row: (P(captured), expected attacker losses from this assault on, P(card kept))."""
        end, al, _, states = chain.settle(k, state, ah, dh)
        later = [value(k + 1, s, card) if e == 2 else (float(e == 0), 0.0, float(card))
                 for e, s in zip(end.tolist(), states)]
        return (np.array([v[0] for v in later]), al + np.array([v[1] for v in later]),
                np.array([v[2] for v in later]))

    chain.optimal = table, value(0, chain.start(), int(chain.held))
    return chain.optimal


def rule_table(chain: Chain) -> tuple:
    """The optimal rule in words: per assault, what it does in each situation (`SITUATIONS`)
    over every state the card can be in hand at: 'play', 'keep', or 'depends'."""
    table = optimal_table(chain)[0]
    seen = defaultdict(set)
    for (k, state), best in table.items():
        _, _, pr, able, fail, helps = chain.rows(k, state)
        situation = np.where(~fail, 0, np.where(helps, 1, 2))
        for s, b in zip(situation[able & (pr > 0)].tolist(), best[able & (pr > 0)].tolist()):
            seen[(k, s)].add(b)
    rows = []
    for k in range(chain.assaults):
        row = {"assault": k + 1}
        for s, name in enumerate(SITUATIONS):
            got = seen.get((k, s), set())
            row[name] = "-" if not got else N_("depends") if len(got) == 2 else (
                N_("play") if True in got else N_("keep"))
        rows.append(row)
    return tuple(rows)


def compare(chain: Chain) -> tuple:
    """Every timing side by side: P(captured), P(card kept), expected attacker losses."""
    rows = []
    for timing in TIMINGS:
        joint = exact_joint(chain, decider(chain, timing))
        losses = joint.sum(axis=(0, 1, 3, 4))
        rows.append({"timing": timing, "captured": float(joint[0].sum()),
                     "card_kept": float(joint[..., 1].sum()),
                     "expected_attacker_losses": float(np.arange(len(losses)) @ losses)})
    return tuple(rows)


def held(specs, field="attacker_cards"):
    """(cards for the siege's plan, timing or None): Siege Artillery among `specs` is one copy
    held through the siege; its timing ('always' means 'first', none means 'if-needed')."""
    specs = check_list(field, specs)
    out, timing = [], None
    for spec in specs:
        name, _, policy = spec.strip().lower().partition(":") if isinstance(spec, str) else ("", "", "")
        if name != HELD:
            out.append(spec)
            continue
        policy = ALIASES.get(policy, policy)
        if policy not in TIMINGS:
            raise OddsError(f"{field}: {spec!r}: unknown timing {policy!r} for the held copy"
                            f"{nearest(policy, ('always', *TIMINGS))} "
                            f"(allowed: always, {', '.join(TIMINGS)})")
        out.append(f"{HELD}:always")  # the plan applies it; the timing decides when it fires
        timing = policy
    return tuple(out), timing


def summarise(joint):
    """siege.summarise of the joint, plus card_kept (linear in the joint)."""
    probabilities, pmfs = siege_summary(joint.sum(axis=(3, 4)))
    probabilities["card_kept"] = joint[..., 1].sum()
    return probabilities, pmfs


def check_optimal(field: str, estimate: Cost):
    """Refuse the `optimal` timing beyond the exact bounds: Monte Carlo reads its rule too."""
    why = estimate.refusal(memory_budget())
    if why:
        raise OddsError(_("{field}: 'siege-artillery:optimal' is a rule solved exactly, for Monte Carlo "
                          "too: {why}; use another timing or {smaller}").format(
            field=field, why=why, smaller=estimate.smaller))


def held_siege(p: Plan, assaults, cavalry_first, timing, settings, method, mc, assumptions,
               notes, advise):
    """siege() with a held copy: the SiegeResult under `timing`, with every timing compared
    and the optimal rule (both exact). Beyond the exact bounds (`cost`: the answer's pass,
    the four timings' passes and the dynamic programme) 'auto' and 'mc' run Monte Carlo
    without the comparison; `optimal` needs the programme for Monte Carlo too: refused.
    `advise(chain, timings)` words the decision (advice.siege)."""
    chain = Chain(p, assaults, cavalry_first, True)
    estimate = cost(chain, 5, True)
    why = estimate.refusal(memory_budget())
    if timing == "optimal":
        check_optimal("attacker_cards", estimate)
    if why:
        method, fallback = exact_or_mc(method, estimate)
        notes += fallback + (LEFT_OUT,)

    def kernel_args():
        from .timing_kernel import kernel_args

        return kernel_args(chain, timing, optimal_table(chain)[0] if timing == "optimal" else {})

    proc = Procedure("his.siege", chain.shape, summarise, "captured",
                     lambda: exact_joint(chain, decider(chain, timing)),
                     ("odds.his.sieges.timing_kernel", "held_lane"), kernel_args, settings,
                     SiegeResult, assumptions, notes, words=WORDS)
    result = solve(proc, method, mc)
    if why:
        return result
    with exact_clock():
        timings = compare(chain)
        return result.with_changes(timings=timings, rule=rule_table(chain),
                                   advice=advise(chain, timings))
