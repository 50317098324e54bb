"""Numba Monte Carlo kernel of theological debates (fills the joint of debate.py): each side's
hits drawn at once from their binomial (core.dice.hit_rows), the second-round debaters drawn
from their pools."""
import numpy as np
from numba import njit

from ...core.jit import rule
from ...core.dice import hit_rows
from ...core.rng import draw, next_u64, seed_stream
from .rules import ATTACKER, TIE, attacker_dice, burnt_vp, defender_dice, settle

_attacker_dice = rule(attacker_dice)
_defender_dice = rule(defender_dice)
_settle = rule(settle)
_burnt_vp = rule(burnt_vp)
_HIGH = np.uint64(32)


def kernel_args(plan, top):
    """debate_lane's arguments before the engine's: the hits of n dice (rows, bases, width;
    n = 0 .. top), the first round's debaters, the pools, the attacker's dice changes."""
    return (*hit_rows(top), plan.attacker, plan.defender, plan.committed, plan.bonus,
            np.array(plan.attackers, dtype=np.int64), np.array(plan.defenders, dtype=np.int64),
            plan.second_committed, plan.doubled, plan.minus, plan.extra)


@njit(inline="always")
def pick(st, pool):
    """(an entry of `pool` drawn uniformly, next state)."""
    u, st = next_u64(st)
    return pool[((u >> _HIGH) * np.uint64(len(pool))) >> _HIGH], st


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def debate_lane(rows, bases, width, attacker, defender, committed, first_bonus, attackers, defenders,
                second_committed, doubled, minus, extra, seed, first_chunk, chunk_trials, out,
                lane):
    """One lane: one count per debate in out[lane, round decided - 1, outcome, margin, VP].
    `attacker`, `defender`, `committed`: the first round's debaters; `attackers`,
    `defenders`, `second_committed`: the second round's pools (no second round when either is
    empty); `doubled`, `minus`, `extra`: the attacker's Mary I, Augsburg and card dice."""
    hist = out[lane]  # zeroed by the runner
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            a_value, d_value, d_committed, bonus = attacker, defender, committed, first_bonus
            second = 0
            for rnd in range(2):
                n = _attacker_dice(a_value, doubled, minus, bonus + extra)
                a, st = draw(st, rows[n], bases[n], width)
                n = _defender_dice(d_value, d_committed)
                d, st = draw(st, rows[n], bases[n], width)
                outcome, margin = _settle(a, d)
                second = rnd
                if outcome != TIE or rnd == 1 or len(attackers) == 0 or len(defenders) == 0:
                    break
                a_value, st = pick(st, attackers)
                d_value, st = pick(st, defenders)
                d_committed, bonus = second_committed, 0
            loser = d_value if outcome == ATTACKER else a_value
            hist[second, outcome, margin, _burnt_vp(margin, loser)] += 1
