"""Here I Stand siege as a sequence of assaults, one per impulse (docs/rules.md, Assault).

The besieger assaults until the space falls, the siege breaks (after a failed assault the
attacking survivors no longer outnumber the defending ones, cavalry counted; this includes an
attacking force wiped out), or K assaults were made. Survivors assault again: each side's
casualties come off in the `casualties` order, which changes the next roll's dice.

Cards come in two lists per side: `*_cards` for the first assault, `*_fresh_cards` a fresh
copy in every assault (a designer's what-if: each card exists once in the deck). Siege
Artillery among `attacker_cards` is one copy held through the siege and played under a
timing (`first`/`always`, `if-needed`, `if-it-helps`, `optimal`: sieges/timing.py); the
result then reports `card_kept` and compares the timings. Gout keeps the best leader out of
the first assault only. Cards whose effect depends on the mercenaries present (Mercenaries
Grow Restless, Mercenaries Bribed, Landsknechts played by the Ottomans) are first-assault
only: the chain tracks infantry and cavalry, not which infantry are mercenaries.
Foul Weather is not modelled in a siege (a cancelled impulse would also raise the question
of what happens to the first-assault cards); use `assault(cancel_probability=...)`.

Exact engine: a Markov chain over (attacking infantry, attacking cavalry, defending infantry,
defending cavalry, Siege Artillery in hand) with the attacker's losses so far; each step is
the assault procedure of assaults/procedure.py. Outcome joint: ``joint[end, k, attacker_losses]`` with
end 0 captured, 1 siege broken, 2 still besieged after assault k (0-based); with a held copy,
sieges/timing.py's joint, which adds the defender's losses and the card kept.
"""
from __future__ import annotations

import numpy as np

from ...core.engine import Cost, McOptions, Procedure, checkpoint, solve
from ...core.lru import LRU
from ...errors import check_int, check_list
from ...i18n import _
from ...registry import Example, Param, Spec, register
from ..assaults.procedure import BREAKS, check_settings, forces, rows_after, setting_params
from ..field.procedure import HIT_ON, hit_settings
from ..assaults.rules import infantry_left, resolve, succeeds
from . import advice
from ..cards import help_for, names_for, only_with
from ..forces import POWERS, assumptions, land_params, leader_notes, settings as force_settings
from ..leaders import leader
from .model import FIRST_ONLY, WORDS, Plan, SiegeResult, at, max_losses, plan, reach, summarise
from .timing import HELD, HELD_POLICIES, held, held_siege

MAX_ASSAULTS = 100  # assaults in one siege
SIEGE_TRANSITIONS_KEPT = 10_000  # later assaults (one state each) sieges share (~1 KB each)
TRANSITIONS = LRU(SIEGE_TRANSITIONS_KEPT)  # later assaults' transitions, by templates (hit
# numbers included) and state


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
    a = at(ta, ai, ac, [p.artillery] if art else [])
    d = at(td, di, dc)
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


def exact_joint(p: Plan, assaults, cavalry_first):
    """Markov chain over the states before each assault (after the first, which has its own
    cards): breadth-first search of the states reachable in K assaults, a dense transition
    matrix, K vector-matrix products. Losses so far follow from the state and the step."""
    # the later assaults' Side templates hold all a transition reads: dice, cards, hit numbers
    key = repr((p.sides[1], p.add, p.artillery, p.artillery_every, cavalry_first))
    first = transition(p, 0, p.start(), cavalry_first)
    rows, depth, frontier = {}, 1, set(first[1].tolist())
    seen = set(frontier)
    while frontier and depth < assaults:  # states before assault `depth` + 1 (0-based `depth`)
        nxt = set()
        for c in frontier:
            checkpoint()
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
        checkpoint()
        live = dist > 0
        lost = a0 + k * p.add[0] - units[live]
        cells = (lost[:, None] + np.arange(span)).ravel()
        for end in (0, 1):
            np.add.at(joint[end, k], cells, (dist[live, None] * A[live, end]).ravel())
        dist = dist @ T
    live = dist > 0
    np.add.at(joint[2, assaults - 1], a0 + assaults * p.add[0] - units[live], dist[live])
    return joint[:, :, :width]


def _kernel_args(p, assaults, cavalry_first):
    from .kernel import kernel_args

    return kernel_args(p, assaults, cavalry_first)


def siege(attacker, defender, *, assaults, attacker_mercenaries=0, attacker_cavalry=0,
          attacker_leader=0, attacker_power="other", attacker_cards=(), attacker_fresh_cards=(),
          gout=None, defender_mercenaries=0, defender_cavalry=0, defender_leader=0,
          defender_power="other", defender_cards=(), defender_fresh_cards=(),
          casualties="cavalry-first", allow_bribed_surprise=False, attacker_hit_on=HIT_ON,
          defender_hit_on=HIT_ON, method="auto", trials=None, seed=None, precision=None,
          max_trials=10**9, threads=None, progress=None):
    """Odds of a siege: up to `assaults` (K) assaults, one per impulse (see the module doc).

    Forces, cards and settings as in `assault`; `*_cards` count for the first assault only,
    except Siege Artillery, one copy held through the siege ('siege-artillery:TIMING', TIMING
    first/always, if-needed, if-it-helps, optimal); `*_fresh_cards`: a fresh copy in every
    assault (a what-if); `gout` (next-best rating) for the first assault only;
    `attacker_hit_on`/`defender_hit_on` for every assault.
    Returns a SiegeResult: captured, siege_broken, still_besieged (sum to 1), with a held
    card card_kept (P(still in hand at the end)), the pmfs captured_at (entry k = falls at
    assault k; entry 0 = not captured within K) and attacker_losses (units lost to defender
    hits over the whole siege), `captured_by`, and with a held card `timings` and `rule`.
    """
    assaults = check_int("assaults", assaults, 1, MAX_ASSAULTS)
    attacker_cards, timing = held(attacker_cards)
    attacker_fresh_cards = check_list("attacker_fresh_cards", attacker_fresh_cards)
    defender_fresh_cards = check_list("defender_fresh_cards", defender_fresh_cards)
    att, dfn = forces(attacker, defender, attacker_mercenaries, attacker_cavalry, attacker_leader,
                      attacker_power, attacker_cards, defender_mercenaries, defender_cavalry,
                      defender_leader, defender_power, defender_cards, gout=gout,
                      allow_bribed_surprise=allow_bribed_surprise)
    cavalry_first, allowed = check_settings(casualties, allow_bribed_surprise)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    p = plan(att, dfn, tuple(attacker_fresh_cards), tuple(defender_fresh_cards),
             leader("attacker_leader", attacker_leader).rating, allowed,
             (attacker_hit_on, defender_hit_on))
    settings = {"assaults": assaults, **force_settings(att, dfn),
                "attacker_fresh_cards": list(attacker_fresh_cards),
                "defender_fresh_cards": list(defender_fresh_cards),
                "gout_first_assault": gout is not None, "casualties": casualties,
                "allow_bribed_surprise": allow_bribed_surprise,
                "siege_artillery_if_needed": "played whenever the assault would otherwise fail",
                "attacker_units_at_first_roll": p.sides[0][0].units,
                "defender_units_at_first_roll": p.sides[0][1].units, **hit_settings(*p.sides[0])}
    notes = ((BREAKS,) if p.breaks else ()) + leader_notes(att, dfn)
    if timing is not None:
        settings["attacker_cards"] = [c.partition(":")[0] + f":{timing}" if c.startswith(HELD)
                                      else c for c in settings["attacker_cards"]]
        return held_siege(p, assaults, cavalry_first, timing, settings, method, mc,
                          assumptions(att, dfn), notes, advice.siege)
    proc = Procedure("his.siege", (3, assaults, max_losses(p, assaults) + 1), summarise,
                     "captured", lambda: exact_joint(p, assaults, cavalry_first),
                     ("odds.his.sieges.kernel", "siege_lane"),
                     lambda: _kernel_args(p, assaults, cavalry_first), settings, SiegeResult,
                     assumptions(att, dfn), notes,
                     cost=lambda: chain_cost(p, assaults, cavalry_first), words=WORDS)
    return solve(proc, method, mc)


def chain_cost(p: Plan, assaults, cavalry_first) -> Cost:
    """The plain chain's cost (sieges.model.reach: n states of `rows` dice outcomes): a
    transition per state, K products with the dense n x n transition matrix (8 bytes a cell;
    slower once probabilities fall below 1e-308) and the losses' cells; the transitions kept
    (TRANSITIONS) hold one next state per outcome at most. Calibrated on the development
    machine: 150 v 100 units, 6 assaults (10,000 states), 6 s; 100 v 50, 6 assaults, 1 s."""
    r = reach(p, assaults, cavalry_first, False)
    n, rows, span = r.distinct, r.mean_rows, max_losses(p, assaults) + 1
    work = n * (150 + 0.15 * rows) + assaults * n * (0.0015 * n + 0.005 * span)
    kept = min(n, SIEGE_TRANSITIONS_KEPT) * min(rows, n) * 16
    return Cost(work, 8 * n * n + kept + 200 * rows,
                _("about {n:,.0f} states of {rows:,.0f} dice outcomes each").format(n=n, rows=rows),
                _("fewer units or assaults"))


def fresh_cards(side: str) -> tuple:
    """The cards `side` may have afresh in every assault: not those that depend on the
    mercenaries present (first assault only)."""
    return tuple(n for n in names_for("assault", side) if n not in FIRST_ONLY)


def fresh_only_with(side: str) -> dict:
    """Param.only_with of the fresh cards: by power, and no Ottoman Landsknechts (they remove
    the enemy's mercenaries: first assault only)."""
    out = dict(only_with("assault", fresh_cards(side), side, POWERS))
    if "landsknechts" in fresh_cards(side):
        out["landsknechts"] = ({f"{side}_power": tuple(p for p in POWERS if p != "ottoman")},)
    return out


SPEC = register(Spec(
    "his.siege", siege,
    land_params("assault", help_for("assault") + " (first assault only; siege-artillery is one "
                "copy held through the siege, timing first|always|if-needed|if-it-helps|optimal)",
                HELD_POLICIES)
    + setting_params("; every assault of the siege") + (
        Param("assaults", "int", "at most K assaults, one per impulse", low=1, high=MAX_ASSAULTS,
              metavar="K"),
        *(Param(f"{side}_fresh_cards", "cards", "what-if: a fresh copy of the card in every "
                "assault (each card exists once in the deck), repeatable",
                choices=fresh_cards(side), flag=f"{side}-fresh-card", metavar="CARD[:POLICY]",
                only_with=fresh_only_with(side))
          for side in ("attacker", "defender"))),
    "a siege: one assault per impulse, at most K", ("his", "siege"), "captured",
    kernels=("odds.his.sieges.kernel",), start={"attacker": 6, "defender": 2, "assaults": 4},
    rolled="odds.his.sieges.rolled:read",
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
    ), words=WORDS))
