"""Numba Monte Carlo kernel of naval combat (fills the joint of naval/procedure.py).

Pools: 0 the attacker's main roll, 1 the defender's, then the after-roll cards in play order
(the attacker's first). A pool's hits come from one word (inverse CDF over its dice, of
several hit numbers where its groups have them: naval.exact.roll_joint); where the enemy has
race-built galleons that cancel 5s, a second word splits the hits into 5s and others (the 5s
given the hits, one table row per hit count; Binomial(hits, P(a hit is a 5)) for one hit
number). The casualty rule is
not re-coded here: naval.rules.settle_grid evaluates naval.rules.settle for every (winner,
who rolled more dice, hits on each side) and the kernel looks the joint cell up with
naval.rules.outcome_index, compiled, as the exact engine does with numpy arrays; whether an
after-roll card is played comes from sequence_kernel.after_roll. Table width and which
sides' 5s matter are compile-time (core.rng.static); the after-roll pools are read at run time.
"""
from collections import namedtuple
import numpy as np
from numba import njit

from ...core.dice import inverse_cdf_table
from ...core.jit import rule
from ...core.rng import draw, seed_stream, static
from ..cards import NO_CARD, POLICY_CODES
from .exact import roll_joint
from .rules import needs_help, outcome_index
from ..rolls.sequence_kernel import after_roll

_needs = rule(needs_help)
_outcome = rule(outcome_index)

# pool p: its inverse-CDF row of hits, rows of fives given h hits, owner (0 attacker, 1
# defender), policy code, dice; pools 0 and 1 are the main rolls, then the after-roll cards
Pools = namedtuple("Pools", ["hit_t", "hit_b", "five_t", "five_b", "owner", "policy", "ndice"])
# race-built galleons cancelling enemy 5s, hits that wipe a fleet out, naval.fleets.settle_table
Settle = namedtuple("Settle", ["ra", "rd", "cap_a", "cap_d", "table", "rest"])


def _fives_given(joint, h):
    """The pmf of the 5s among `h` hits of a roll's joint [hits, fives] (no 5: [1])."""
    if h >= joint.shape[0] or joint[h].sum() <= 0:
        return np.ones(1)
    row = joint[h, : h + 1]
    return row / row.sum()


def kernel_args(b):
    """(mode literals, Pools, Settle) for naval_lane from a naval.fleets.Battle."""
    pools = [(0, NO_CARD, b.a_dice, b.groups(0)), (1, NO_CARD, b.d_dice, b.groups(1))]
    pools += [(0, POLICY_CODES[c.policy], c.count, ((c.count, c.threshold),)) for c in b.a_after]
    pools += [(1, POLICY_CODES[c.policy], c.count, ((c.count, c.threshold),)) for c in b.d_after]
    top = max(n for _, _, n, _ in pools)
    joints = [roll_joint(groups) for _, _, _, groups in pools]
    hit_pmfs = [j.sum(axis=1) for j in joints]
    five_pmfs = [_fives_given(j, h) for j in joints for h in range(top + 1)]
    width = 8
    for pmfs in (hit_pmfs, five_pmfs):
        width = max(width, inverse_cdf_table(pmfs, width)[0].shape[1])
    hit_t, hit_b = inverse_cdf_table(hit_pmfs, width)
    five_t, five_b = inverse_cdf_table(five_pmfs, width)
    five_t = five_t.reshape(len(pools), top + 1, width)
    five_b = five_b.reshape(len(pools), top + 1)
    owner, policy, ndice = (np.array(x, dtype=np.int64) for x in list(zip(*pools))[:3])
    fives = (1 if b.d_race else 0) + (2 if b.a_race else 0)  # bit 0: attacker's 5s matter
    cap_a, cap_d = b.caps
    return ((static(width), static(fives)),
            Pools(hit_t, hit_b, five_t, five_b, owner, policy, ndice),
            Settle(b.a_race, b.d_race, cap_a, cap_d, b.table, int(np.prod(b.shape[1:]))))


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def naval_lane(modes, pools, settle, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner: one count per battle in out[lane], the histogram [code, a ships,
    d ships, a corsairs, d corsairs] flattened (modes: table width, whose 5s matter)."""
    width, fives = len(modes[0]), len(modes[1])
    hit_t, hit_b, five_t, five_b, ndice = pools.hit_t, pools.hit_b, pools.five_t, pools.five_b, pools.ndice
    hist = out[lane]  # zeroed by the runner, flattened (flat_out)
    rest = settle.rest  # cells per code: code bit 2 + i, after-roll pool i played
    a_row, a_base, d_row, d_base = hit_t[0], hit_b[0], hit_t[1], hit_b[1]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ah, st = draw(st, a_row, a_base, width)
            dh, st = draw(st, d_row, d_base, width)
            af = 0
            df = 0
            if fives & 1:
                af, st = draw(st, five_t[0, ah], five_b[0, ah], width)
            if fives & 2:
                df, st = draw(st, five_t[1, dh], five_b[1, dh], width)
            adice = ndice[0]
            ddice = ndice[1]
            bits = 0
            for p in range(2, len(ndice)):  # after-roll pools, in play order
                att = pools.owner[p] == 0
                h, played, st = after_roll(st, pools.policy[p], _needs(att, ah, dh), True,
                                           hit_t[p], hit_b[p], width)
                if not played:
                    continue
                bits += 1 << (p - 2)
                if att:
                    ah += h
                    adice += ndice[p]
                    if fives & 1:
                        f, st = draw(st, five_t[p, h], five_b[p, h], width)
                        af += f
                else:
                    dh += h
                    ddice += ndice[p]
                    if fives & 2:
                        f, st = draw(st, five_t[p, h], five_b[p, h], width)
                        df += f
            hist[_outcome(settle.table, ah, dh, af, df, adice, ddice, settle.ra, settle.rd, settle.cap_a,
                          settle.cap_d) + 4 * bits * rest] += 1


naval_lane.flat_out = True  # core.montecarlo hands out as (lanes, cells) (see core.pair_kernel)
