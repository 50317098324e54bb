"""Here I Stand siege as a sequence of assaults, one per impulse (RULES.md §1.2).

The besieger assaults until the space falls, the siege breaks (after a failed assault the
attacking survivors no longer outnumber the defending ones, cavalry counted; this includes an
attacking force wiped out), or K assaults were made. Survivors assault again: each side's
casualties come off in the `casualties` order, which changes the next roll's dice.

Cards come in two lists per side: `*_cards` for the first assault, `*_fresh_cards` a fresh
copy in every assault (a designer's what-if: each card exists once in the deck). Siege
Artillery among `attacker_cards` is one copy held through the siege and played under a
timing (`first`/`always`, `if-needed`, `if-it-helps`, `optimal`: siege_timing.py); the
result then reports `card_kept` and compares the timings. Gout keeps the best leader out of
the first assault only. Cards whose effect depends on the mercenaries present (Mercenaries
Grow Restless, Mercenaries Bribed, Landsknechts played by the Ottomans) are first-assault
only: the chain tracks infantry and cavalry, not which infantry are mercenaries.
Foul Weather is not modelled in a siege (a cancelled impulse would also raise the question
of what happens to the first-assault cards); use `assault(cancel_probability=...)`.

Exact engine: a Markov chain over (attacking infantry, attacking cavalry, defending infantry,
defending cavalry, Siege Artillery in hand) with the attacker's losses so far; each step is
the assault procedure of assault.py. Outcome joint: ``joint[end, k, attacker_losses]`` with
end 0 captured, 1 siege broken, 2 still besieged after assault k (0-based); with a held copy,
siege_timing.py's joint, which adds the defender's losses and the card kept.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..core.engine import McOptions, Procedure, solve
from ..core.lru import LRU
from ..core.result import Result
from ..errors import OddsError, check_int
from ..config import MAX_ASSAULTS, MAX_SIEGE_STATES, SIEGE_TRANSITIONS_KEPT
from ..registry import Example, Param, Spec, register
from .assault import (BREAKS, check_seed_cards, check_settings, forces, restless_breaks,
                      rows_after, setting_params)
from .assault_rules import infantry_left, resolve, succeeds
from .cards import Side, help_for, names_for, parse, play
from .field import setup
from .forces import assumptions, land_params, leader_notes, settings as force_settings
from .leaders import leader

FIRST_ONLY = ("mercenaries-grow-restless", "mercenaries-bribed")
TRANSITIONS = LRU(SIEGE_TRANSITIONS_KEPT)  # later assaults' transitions, by templates and state


@dataclass(frozen=True)
class Plan:
    """Both sides' card setup for the first assault and for each later one."""

    sides: tuple  # ((attacker, defender) at the first assault, (attacker, defender) templates later)
    add: tuple  # units the every-assault cards add to (attacker, defender) before each later assault
    artillery: object  # the Siege Artillery AfterRoll entry, or None
    artillery_every: bool
    breaks: bool = False  # Mercenaries Grow Restless broke the siege before the first assault

    def start(self):
        """The state before the first assault: (infantry, cavalry each side, artillery in hand)."""
        a0, d0 = self.sides[0]
        return (a0.units - a0.cavalry, a0.cavalry, d0.units - d0.cavalry, d0.cavalry,
                int(self.artillery is not None))


def plan(att, dfn, every_a, every_d, leader, allowed) -> Plan:
    """Apply first-assault + every-assault cards to the forces, every-assault cards to templates."""
    for side, power, specs in (("attacker", att.power, every_a), ("defender", dfn.power, every_d)):
        check_seed_cards(f"{side}_fresh_cards", specs, allowed)
        for spec in specs:
            name = parse(spec, f"{side}_fresh_cards")[0].name
            if name in FIRST_ONLY or (name == "landsknechts" and power == "ottoman"):
                raise OddsError(f"{side}_fresh_cards: {name!r} depends on the mercenaries present "
                                f"and can be given for the first assault only")
    a0, d0 = setup(replace(att, cards=att.cards + tuple(every_a)),
                   replace(dfn, cards=dfn.cards + tuple(every_d)), "assault", allowed)
    ta = Side("attacker", att.power, 0, 0, 0, dice=leader)
    td = Side("defender", dfn.power, 0, 0, 0, dice=dfn.leader + 1)
    play("assault", ta, td, every_a, every_d, allowed)
    breaks = restless_breaks(a0, d0, dfn.cards)
    artillery = a0.after[0] if a0.after else None
    return Plan(((a0, d0), (ta, td)), (ta.units, td.units), artillery, bool(ta.after), breaks)


def _at(template, infantry, cavalry, after=()):
    return replace(template, units=infantry + cavalry, cavalry=cavalry, mercenaries=0,
                   after=list(after))


RADIX = 1 << 15  # above any count of units a siege reaches (MAX_UNITS + assaults x fresh units)


def encode(ai, ac, di, dc, art):
    """States (attacking infantry, cavalry, defending infantry, cavalry, artillery) as integers,
    in the order of the tuples; the same for every siege, so transitions can be shared."""
    return (((ai * RADIX + ac) * RADIX + di) * RADIX + dc) * 2 + art


def decode(code):
    """(ai, ac, di, dc, art) of codes (ints or arrays)."""
    code, art = np.divmod(code, 2)
    code, dc = np.divmod(code, RADIX)
    code, di = np.divmod(code, RADIX)
    ai, ac = np.divmod(code, RADIX)
    return ai, ac, di, dc, art


def transition(p: Plan, phase, state, cavalry_first):
    """One assault from `state`: (absorbed[end, attacker losses], next-state codes, their p)."""
    ai, ac, di, dc, art = (int(x) for x in state)
    ta, td = p.sides[phase]
    a = _at(ta, ai, ac, [p.artillery] if art else [])
    d = _at(td, di, dc)
    ua, ud = a.units, d.units
    (ah, dh, _, _, pr), played = rows_after(a, d, cavalry_first)
    won = succeeds(ah, dh, ua, ud)
    _, al, dl = resolve(ah, dh, ua, ud)
    sa, sd = ua - al, ud - dl
    goes_on = ~won & (sa > sd)
    absorbed = np.zeros((2, ua + 1))
    np.add.at(absorbed, ((~won * 1)[~goes_on], al[~goes_on]), pr[~goes_on])
    nai = infantry_left(ai, ac, al, cavalry_first)
    ndi = infantry_left(di, dc, dl, cavalry_first)
    keep_art = art & p.artillery_every  # a fresh copy every assault
    code = encode(nai + p.add[0], sa - nai, ndi + p.add[1], sd - ndi, keep_art * 1)[goes_on]
    codes, inverse = np.unique(code, return_inverse=True)
    return absorbed, codes, np.bincount(inverse.ravel(), weights=pr[goes_on], minlength=len(codes))


def later(p: Plan, state: int, cavalry_first, key):
    """transition() of a later assault (its forces from the plan's templates), kept in
    TRANSITIONS: sieges with the same templates (`key`) share most of their states."""
    kept = TRANSITIONS.get((key, state))
    if kept is None:
        kept = transition(p, 1, decode(state), cavalry_first)
        for array in kept:
            array.setflags(write=False)
        TRANSITIONS.put((key, state), kept)
    return kept


def max_losses(p: Plan, assaults):
    a0 = p.sides[0][0]
    return a0.units + (assaults - 1) * p.add[0]


def exact_joint(p: Plan, assaults, cavalry_first):
    """Markov chain over the states before each assault (after the first, which has its own
    cards): breadth-first search of the states reachable in K assaults, a dense transition
    matrix, K vector-matrix products. Losses so far follow from the state and the step."""
    key = repr((p.sides[1], p.add, p.artillery, p.artillery_every, cavalry_first))
    first = transition(p, 0, p.start(), cavalry_first)
    rows, depth, frontier = {}, 1, set(first[1].tolist())
    seen = set(frontier)
    while frontier and depth < assaults:  # states before assault `depth` + 1 (0-based `depth`)
        nxt = set()
        for c in frontier:
            rows[c] = later(p, c, cavalry_first, key)
            nxt.update(rows[c][1].tolist())
        frontier = nxt - seen
        seen |= nxt
        depth += 1
    codes = np.array(sorted(seen), dtype=np.int64)
    n, width = len(codes), max_losses(p, assaults) + 1
    ai, ac, _, _, _ = decode(codes)
    units = ai + ac
    span = max([first[0].shape[1]] + [r[0].shape[1] for r in rows.values()])
    T = np.zeros((n, n))
    A = np.zeros((n, 2, span))
    for c, (absorbed, nxt, q) in rows.items():
        i = np.searchsorted(codes, c)
        T[i, np.searchsorted(codes, nxt)] = q
        A[i, :, : absorbed.shape[1]] = absorbed
    joint = np.zeros((3, assaults, width + span))
    joint[:2, 0, : first[0].shape[1]] = first[0]
    dist = np.zeros(n)
    dist[np.searchsorted(codes, first[1])] = first[2]
    a0 = p.sides[0][0].units
    for k in range(1, assaults):
        live = dist > 0
        lost = a0 + k * p.add[0] - units[live]
        at = (lost[:, None] + np.arange(span)).ravel()
        for end in (0, 1):
            np.add.at(joint[end, k], at, (dist[live, None] * A[live, end]).ravel())
        dist = dist @ T
    live = dist > 0
    np.add.at(joint[2, assaults - 1], a0 + assaults * p.add[0] - units[live], dist[live])
    return joint[:, :, :width]


def summarise(joint):
    """Probabilities, the pmf of the assault the space falls at (0: not within K), losses."""
    by_end = joint.sum(axis=(1, 2))
    at = joint[0].sum(axis=1)
    captured_at = np.concatenate([[by_end[1] + by_end[2]], at])
    probabilities = {"captured": by_end[0], "siege_broken": by_end[1], "still_besieged": by_end[2]}
    return probabilities, {"captured_at": captured_at, "attacker_losses": joint.sum(axis=(0, 1))}


@dataclass(frozen=True)
class SiegeResult(Result):
    """A Result that also reports `captured_by`: k -> P(captured at or before assault k), and,
    with a held Siege Artillery, the timings side by side and the optimal rule (exact)."""

    timings: tuple = ()  # rows: timing, captured, card_kept, expected_attacker_losses
    rule: tuple = ()  # rows: assault, then per situation play / keep / depends

    ZERO = {"captured_at": "not within K"}

    @property
    def captured_by(self) -> dict:
        return {k: float(v) for k, v in enumerate(np.cumsum(self.pmfs["captured_at"][1:]), 1)}

    def to_json(self) -> dict:
        out = super().to_json()
        out["captured_by"] = {str(k): v for k, v in self.captured_by.items()}
        if self.timings:
            out["timings"] = list(self.timings)
            out["optimal_rule"] = list(self.rule)
        return out

    def summary(self, width: int = 30) -> str:
        lines = [super().summary(width), "  captured by assault k:"]
        lines += [f"    {k:>3}  {v:8.2%}" for k, v in self.captured_by.items()]
        if self.timings:
            lines.append("  held Siege Artillery, each timing (exact):")
            lines.append(f"    {'timing':<12} {'P(captured)':>11} {'P(card kept)':>12} "
                         f"{'expected losses':>15}")
            lines += [f"    {r['timing']:<12} {r['captured']:11.2%} {r['card_kept']:12.2%} "
                      f"{r['expected_attacker_losses']:15.2f}" for r in self.timings]
            names = [n for n in self.rule[0] if n != "assault"]
            lines.append("  optimal rule: play the copy only where that raises P(captured within "
                         "K); keep it otherwise (ties keep it). By assault and roll (play / keep "
                         "/ depends on the forces left, told in the advice): assault | "
                         + " | ".join(names))
            lines += [f"    {r['assault']:>3} | " + " | ".join(r[n] for n in names)
                      for r in self.rule]
        return "\n".join(lines)


def _kernel_args(p, assaults, cavalry_first):
    from .siege_kernel import kernel_args

    return kernel_args(p, assaults, cavalry_first)


def siege(attacker, defender, *, assaults, attacker_mercenaries=0, attacker_cavalry=0,
          attacker_leader=0, attacker_power="other", attacker_cards=(), attacker_fresh_cards=(),
          gout=None, defender_mercenaries=0, defender_cavalry=0, defender_leader=0,
          defender_power="other", defender_cards=(), defender_fresh_cards=(),
          casualties="cavalry-first", allow_bribed_surprise=False, method="auto", trials=None,
          seed=None, precision=None, max_trials=10**9, threads=None, progress=None):
    """Odds of a siege: up to `assaults` (K) assaults, one per impulse (see the module doc).

    Forces, cards and settings as in `assault`; `*_cards` count for the first assault only,
    except Siege Artillery, one copy held through the siege ('siege-artillery:TIMING', TIMING
    first/always, if-needed, if-it-helps, optimal); `*_fresh_cards`: a fresh copy in every
    assault (a what-if); `gout` (next-best rating) for the first assault only.
    Returns a SiegeResult: captured, siege_broken, still_besieged (sum to 1), with a held
    card card_kept (P(still in hand at the end)), the pmfs captured_at (entry k = falls at
    assault k; entry 0 = not captured within K) and attacker_losses (units lost to defender
    hits over the whole siege), `captured_by`, and with a held card `timings` and `rule`.
    """
    from .siege_timing import HELD, held, held_siege

    assaults = check_int("assaults", assaults, 1, MAX_ASSAULTS)
    attacker_cards, timing = held(attacker_cards)
    if isinstance(attacker_fresh_cards, str):
        attacker_fresh_cards = (attacker_fresh_cards,)
    if isinstance(defender_fresh_cards, str):
        defender_fresh_cards = (defender_fresh_cards,)
    att, dfn = forces(attacker, defender, attacker_mercenaries, attacker_cavalry, attacker_leader,
                      attacker_power, attacker_cards, defender_mercenaries, defender_cavalry,
                      defender_leader, defender_power, defender_cards, gout=gout,
                      allow_bribed_surprise=allow_bribed_surprise)
    cavalry_first, allowed = check_settings(casualties, allow_bribed_surprise)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    p = plan(att, dfn, tuple(attacker_fresh_cards), tuple(defender_fresh_cards),
             leader("attacker_leader", attacker_leader).rating, allowed)
    settings = {"assaults": assaults, **force_settings(att, dfn),
                "attacker_fresh_cards": list(attacker_fresh_cards),
                "defender_fresh_cards": list(defender_fresh_cards),
                "gout_first_assault": gout is not None, "casualties": casualties,
                "allow_bribed_surprise": allow_bribed_surprise,
                "siege_artillery_if_needed": "played whenever the assault would otherwise fail",
                "attacker_units_at_first_roll": p.sides[0][0].units,
                "defender_units_at_first_roll": p.sides[0][1].units}
    method, notes = exact_or_mc(method, p, assaults)
    notes += leader_notes(att, dfn)
    if timing is not None:
        settings["attacker_cards"] = [c.partition(":")[0] + f":{timing}" if c.startswith(HELD)
                                      else c for c in settings["attacker_cards"]]
        return held_siege(p, assaults, cavalry_first, timing, settings, method, mc,
                          assumptions(att, dfn), ((BREAKS,) if p.breaks else ()) + notes)
    proc = Procedure("his.siege", (3, assaults, max_losses(p, assaults) + 1), summarise,
                     "captured", lambda: exact_joint(p, assaults, cavalry_first),
                     ("odds.his.siege_kernel", "siege_lane"),
                     lambda: _kernel_args(p, assaults, cavalry_first), settings, SiegeResult,
                     assumptions(att, dfn), ((BREAKS,) if p.breaks else ()) + notes)
    return solve(proc, method, mc)


def exact_or_mc(method, p: Plan, assaults) -> tuple:
    """(method, notes): the exact chain's size, (attackers + 1) x (defenders + 1) x assaults,
    is bounded (MAX_SIEGE_STATES): beyond it 'auto' runs Monte Carlo and says so, 'exact' is
    refused."""
    a0, d0 = p.sides[0]
    size = (max_losses(p, assaults) + 1) * (d0.units + (assaults - 1) * p.add[1] + 1) * assaults
    if size <= MAX_SIEGE_STATES or method == "mc":
        return method, ()
    why = (f"the exact siege chain would have {size:,} states x assaults (allowed: at most "
           f"{MAX_SIEGE_STATES:,})")
    if method == "exact":
        raise OddsError(f"method: 'exact': {why}; use method='mc' or fewer units or assaults")
    return "mc", (f"Monte Carlo: {why}",)


SPEC = register(Spec(
    "his.siege", siege,
    land_params("assault", help_for("assault") + " (first assault only; siege-artillery is one "
                "copy held through the siege, timing first|always|if-needed|if-it-helps|optimal)")
    + setting_params() + (
        Param("assaults", "int", "at most K assaults, one per impulse", low=1, high=MAX_ASSAULTS,
              metavar="K"),
        *(Param(f"{side}_fresh_cards", "cards", "what-if: a fresh copy of the card in every "
                "assault (each card exists once in the deck), repeatable",
                choices=names_for("assault"), flag=f"{side}-fresh-card", metavar="CARD[:POLICY]")
          for side in ("attacker", "defender"))),
    "a siege: one assault per impulse, at most K", ("his", "siege"), "captured",
    kernels=("odds.his.siege_kernel",), start={"attacker": 6, "defender": 2, "assaults": 4},
    examples=(
        Example("artillery held", dict(attacker=7, attacker_cavalry=2, attacker_leader=1,
                                       defender=3, defender_leader=1, assaults=6,
                                       attacker_cards=["siege-artillery:optimal"]),
                "Here I Stand siege: 7 units (2 cavalry) + leader 1 assault 3 defenders + "
                "leader 1 up to 6 times, one Siege Artillery held and played when it raises "
                "P(captured)", demo=True),
        Example("artillery if it helps", dict(attacker=6, defender=3, assaults=4,
                                              attacker_cards=["siege-artillery:if-it-helps"])),
        Example("plain", dict(attacker=6, defender=2, attacker_leader=1, assaults=5)),
        Example("cavalry both, artillery held", dict(
            attacker=8, attacker_cavalry=3, defender=4, defender_cavalry=1, defender_leader=1,
            attacker_cards=["siege-mining"], attacker_fresh_cards=["siege-artillery:if-needed"],
            assaults=6), "what-if: a fresh Siege Artillery in every assault"),
        Example("infantry first, landsknechts every assault", dict(
            attacker=8, attacker_cavalry=3, defender=4, defender_cavalry=2,
            attacker_power="hapsburg", casualties="infantry-first",
            attacker_fresh_cards=["landsknechts", "siege-mining"], assaults=4)),
        Example("surprise every assault, restless first", dict(
            attacker=9, attacker_mercenaries=3, attacker_cavalry=2, defender=4,
            defender_cavalry=2, attacker_fresh_cards=["surprise-attack"],
            allow_bribed_surprise=True, defender_cards=["mercenaries-grow-restless"],
            assaults=5)),
        Example("empty space, gout", dict(attacker=3, attacker_cavalry=1, defender=0,
                                          attacker_leader=2, gout=0, assaults=3)),
    )))
