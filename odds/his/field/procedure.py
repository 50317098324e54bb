"""Here I Stand field battle (docs/rules.md, Field battle): setup, exact engine, public function.

The rules are in field/rules.py, the chance sequence (Surprise Attack, after-roll cards) in
sequence.py.

Outcome joint: ``joint[code, attacker_losses, defender_losses]`` where bit 0 of `code` is
"the attacker won" and bit 1 "both sides were wiped out and the both-eliminated rule gave
one side a unit back". The Monte Carlo kernel (field/kernel.py) fills the same joint.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...core.dice import binomial_pmf, pool_pmf
from ...core.engine import McOptions, Procedure, solve
from ...core.montecarlo import PAIR_LANE
from ...core.outcomes import Words
from ...errors import check_bool, check_int
from ...i18n import _
from ...registry import Example, Param, Spec, register
from ..cards import ROLES, Side, dice as dice_words, help_for, play, units as unit_words
from .rules import cell_index, dice, needs_help
from ..forces import Force, assumptions, land_params, leader_notes, settings as force_settings
from ..rolls.sequence import fixed_dice, grid, main_roll, play_after, rows_cost, surprise

MAX_WITHDRAW = 4  # land units that may withdraw into a fortified space (HIS §14.1)
WORDS = Words(within={"siege_begins": ("attacker_win",)}, why={
    "both_eliminated_rule": "both sides wiped out: the side that rolled more dice kept one unit, "
                            "the defender on equal dice",
    "siege_begins": "the attacker won and has more units left than withdrew inside"})


DEFENDING = 1  # HIS §14.3: the defender rolls one die more


def setup(attacker: Force, defender: Force, procedure: str = "field", allowed=None,
          defending: int = DEFENDING):
    """Both sides' Side records after every card: leader dice, the defender's +1 (`defending`
    dice: a field battle's setting), card effects."""
    a = Side("attacker", attacker.power, attacker.units, attacker.mercenaries, attacker.cavalry)
    d = Side("defender", defender.power, defender.units, defender.mercenaries, defender.cavalry)
    for side, force in ((a, attacker), (d, defender)):
        side.add_dice(f"leader {force.leader_name or ''}".rstrip(), force.leader)
    d.add_dice("defending", defending)
    play(procedure, a, d, attacker.cards, defender.cards, allowed)
    return a, d


def roll_pmf(side: Side, lost=0, surprised=False):
    """(hit pmf, dice rolled) of `side` after losing `lost` units before its roll."""
    n, rolls = dice(side.units, side.dice - side.penalty, lost, surprised)
    if not rolls:
        return np.ones(1), 0
    if not side.extra:
        return binomial_pmf(n, side.hit_on), n
    return pool_pmf([(n, side.hit_on)] + side.extra), n + sum(c for c, _ in side.extra)


HIT_ON = 5  # HIS §14.3: every die hits on 5 or 6


def hit_numbers(a: Side, d: Side, attacker_hit_on=HIT_ON, defender_hit_on=HIT_ON):
    """Set each side's hit number (its main roll hits on N-6; card dice keep their own): a
    field battle's, an assault's and a siege's setting."""
    a.hit_on = check_int("attacker_hit_on", attacker_hit_on, 2, 6)
    d.hit_on = check_int("defender_hit_on", defender_hit_on, 2, 6)


def hit_settings(a: Side, d: Side) -> dict:
    """What a result records of the hit numbers: each one a variant changed from the rule's."""
    return {f"{s.role}_hit_on": s.hit_on for s in (a, d) if s.hit_on != HIT_ON}


def hit_params(scope: str = "") -> tuple:
    """The Params `attacker_hit_on` and `defender_hit_on` (`scope`: what they apply to, in
    words, for a procedure of several rolls)."""
    return tuple(Param(f"{role}_hit_on", "int", f"the number the {role}'s dice hit on (N: N-6; "
                       f"the rule: {HIT_ON}; card dice keep their own{scope})", low=2, high=6,
                       metavar="N") for role in ROLES)


def max_hits(side: Side) -> int:
    """The most hits `side` can roll in a battle: its main roll and its after-roll cards."""
    return len(roll_pmf(side)[0]) - 1 + sum(card.count for card in side.after)


@lru_cache(maxsize=4096)
def _cells(n_a, n_d, adice, ddice, ua, ud):
    """Joint cell of each hits pair of a plain roll (no surprise, no after-roll card)."""
    ah, dh = grid(n_a, n_d)
    return cell_index(ah, dh, adice, ddice, ua, ud)


def exact_joint(a: Side, d: Side) -> np.ndarray:
    """The joint outcome distribution, enumerated."""
    shape = joint_shape(a, d)
    size = int(np.prod(shape))
    if not (a.surprise or d.surprise or a.after or d.after):
        pa, na = roll_pmf(a)
        pd, nd = roll_pmf(d)
        cells = _cells(len(pa), len(pd), na, nd, a.units, d.units)
        return np.bincount(cells, np.outer(pa, pd).ravel(), size).reshape(shape)
    rows = main_roll(surprise(a, d), lambda *loss: roll_pmf(a, *loss), lambda *loss: roll_pmf(d, *loss))
    (ah, dh, adice, ddice, p), (pa, pd) = play_after(rows, a, d, needs_help, surprise(a, d))
    cells = cell_index(ah, dh, adice, ddice, a.units, d.units) + \
        (4 * pa + 8 * pd) * (a.units + 1) * (d.units + 1)
    return np.bincount(cells, p, size).reshape(shape)


def joint_shape(a: Side, d: Side) -> tuple:
    """[code, attacker losses, defender losses]: code bit 0 the attacker won, bit 1 the
    both-eliminated rule, bits 2 and 3 the attacker's / defender's after-roll card played."""
    return (16 if a.after or d.after else 4, a.units + 1, d.units + 1)


def summarise(joint, withdraw_inside=None, fortified=False, cards=(None, None)):
    """Probabilities and loss pmfs from the joint (linear: works on counts too); `cards`: the
    after-roll card each side holds (None), for how often it is played."""
    add = np.add.reduce
    by_attacker = add(joint, axis=2)  # [code, attacker losses]
    a_losses, d_losses = add(by_attacker, axis=0), add(add(joint, axis=1), axis=0)
    by_code = add(by_attacker, axis=1)
    code = np.arange(len(by_code))
    probabilities = {
        "attacker_win": add(by_code * (code & 1)),
        "attacker_eliminated": a_losses[-1],
        "defender_eliminated": d_losses[-1],
        "both_eliminated_rule": add(by_code * (code >> 1 & 1)),
    }
    for bit, (role, card) in enumerate(zip(ROLES, cards), 2):
        if card:
            probabilities[f"{role}_plays_{card.replace('-', '_')}"] = add(by_code * (code >> bit & 1))
    if fortified:
        ua, ud = joint.shape[1] - 1, joint.shape[2] - 1
        a_left = ua - np.arange(ua + 1)[:, None]
        d_left = ud - np.arange(ud + 1)[None, :]
        inside = np.minimum(d_left, MAX_WITHDRAW if withdraw_inside is None else withdraw_inside)
        won = add(joint * (code & 1)[:, None, None], axis=0)
        probabilities["siege_begins"] = (won * (a_left > inside)).sum()
    return probabilities, {"attacker_losses": a_losses, "defender_losses": d_losses}


def kernel(a, d) -> tuple:
    """(module, name) of the Monte Carlo kernel of this battle; field.kernel.kernel_args(a, d)
    are its arguments."""
    return PAIR_LANE if fixed_dice(a, d) else ("odds.his.field.kernel", "field_lane")


def _kernel_args(a, d):
    from ...core.kernel_cache import load  # the kernel module may not be kernel(a, d)'s

    return load("odds.his.field.kernel", "kernel_args")(a, d)


def forces(attacker, defender, attacker_mercenaries=0, attacker_cavalry=0, attacker_leader=0,
           attacker_power="other", attacker_cards=(), defender_mercenaries=0, defender_cavalry=0,
           defender_leader=0, defender_power="other", defender_cards=(), procedure="field"):
    """Both validated Forces of a field battle (units on both sides) or of an assault (the
    attacker needs a unit; the besieged space may hold none)."""
    return (Force.make("attacker", attacker, attacker_mercenaries, attacker_cavalry,
                       attacker_leader, attacker_power, attacker_cards, min_units=1,
                       procedure=procedure),
            Force.make("defender", defender, defender_mercenaries, defender_cavalry,
                       defender_leader, defender_power, defender_cards,
                       min_units=int(procedure == "field"), procedure=procedure))


def field_battle(attacker, defender, *, attacker_mercenaries=0, attacker_cavalry=0,
                 attacker_leader=0, attacker_power="other", attacker_cards=(),
                 defender_mercenaries=0, defender_cavalry=0, defender_leader=0,
                 defender_power="other", defender_cards=(), fortified=False,
                 withdraw_inside=None, attacker_hit_on=HIT_ON, defender_hit_on=HIT_ON,
                 defender_bonus_dice=DEFENDING, method="auto", trials=None, seed=None, precision=None,
                 max_trials=10**9, threads=None, progress=None):
    """Odds of a Here I Stand field battle.

    `attacker`/`defender` are land unit counts (mercenaries and cavalry included); leaders
    are the best battle rating (0-6); cards are names, with ':always' or ':if-needed' for
    Janissaries. `fortified` with `withdraw_inside` (default: every defending survivor) adds
    P(siege begins). `attacker_hit_on`/`defender_hit_on`: the number a side's main roll hits
    on (the rule: 5, hits on 5-6; a designer's variant: 4 for 4-6); `defender_bonus_dice` the
    dice the defender adds for defending (the rule: 1). Returns a Result:
    attacker_win, attacker/defender_eliminated (= leaders captured), both_eliminated_rule,
    and the pmfs of units each side loses; settings include each side's dice in the main roll
    (after-roll cards such as Janissaries add theirs).
    """
    att, dfn = forces(attacker, defender, attacker_mercenaries, attacker_cavalry, attacker_leader,
                      attacker_power, attacker_cards, defender_mercenaries, defender_cavalry,
                      defender_leader, defender_power, defender_cards)
    fortified = check_bool("fortified", fortified)
    if withdraw_inside is not None:
        withdraw_inside = check_int("withdraw_inside", withdraw_inside, 0,
                                    min(MAX_WITHDRAW, dfn.units))
        fortified = True
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    a, d = setup(att, dfn, defending=check_int("defender_bonus_dice", defender_bonus_dice, 0, 6))
    hit_numbers(a, d, attacker_hit_on, defender_hit_on)
    settings = {**force_settings(att, dfn),
                "attacker_units_at_roll": a.units, "defender_units_at_roll": d.units}
    settings.update(hit_settings(a, d))
    if defender_bonus_dice != DEFENDING:
        settings["defender_bonus_dice"] = defender_bonus_dice
    if fortified:
        settings["withdraw_inside"] = (_("survivors, at most {n}").format(n=MAX_WITHDRAW) if withdraw_inside is None
                                       else withdraw_inside)
    cards = tuple(s.after[0].card if s.after else None for s in (a, d))  # one each at most
    proc = Procedure(
        "his.field", joint_shape(a, d),
        lambda j: summarise(j, withdraw_inside, bool(fortified), cards), "attacker_win",
        lambda: exact_joint(a, d), kernel(a, d),
        lambda: _kernel_args(a, d), settings, assumptions=assumptions(att, dfn),
        notes=tuple(a.notes + d.notes) + leader_notes(att, dfn),
        explain=tuple(s.story(f"{dice_words(roll_pmf(s)[1])}: {unit_words(s.units)}") for s in (a, d)),
        cost=lambda: rows_cost(len(roll_pmf(a)[0]), len(roll_pmf(d)[0]), a, d), words=WORDS)
    return solve(proc, method, mc)


SPEC = register(Spec(
    "his.field", field_battle,
    land_params("field", help_for("field")) + (
        Param("fortified", "bool", "the battle is in a fortified space: adds P(siege begins)"),
        Param("withdraw_inside", "int", "defending survivors that withdraw inside (default: all "
              f"of them, at most {MAX_WITHDRAW}); implies --fortified", low=0, high=MAX_WITHDRAW,
              metavar="K"),
        *hit_params(),
        Param("defender_bonus_dice", "int", f"dice the defender adds for defending (the rule: "
              f"{DEFENDING})", low=0, high=6, metavar="N")),
    "field battle", ("his", "field"), "attacker_win", kernels=("odds.core.pair_kernel", "odds.his.field.kernel"),
    table="odds.his.field.table:field_battle_table", rolled="odds.his.field.rolled:read",
    start={"attacker": 5, "defender": 4},
    examples=(
        Example("ottoman janissaries", dict(attacker=5, defender=5, attacker_leader=2,
                                            defender_power="ottoman",
                                            defender_cards=["janissaries:if-needed"]),
                "Here I Stand field battle: 5 units + leader 2 attack 5 Ottoman units "
                "(Janissaries if needed)", demo=True),
        Example("plain 5v5 leader", dict(attacker=5, defender=5, attacker_leader=2)),
        Example("a lone defender with a leader", dict(attacker=3, defender=1, defender_leader=2)),
        Example("surprise attacker", dict(attacker=4, defender=3, attacker_cards=["surprise-attack"])),
        Example("surprise defender", dict(attacker=4, defender=3, defender_cards=["surprise-attack"])),
        Example("janissaries always", dict(attacker=4, defender=4, attacker_power="ottoman",
                                           attacker_cards=["janissaries:always"])),
        Example("tercios hapsburg", dict(attacker=3, defender=4, attacker_power="hapsburg",
                                         attacker_cards=["tercios"])),
        Example("tercios against", dict(attacker=4, defender=5, defender_power="hapsburg",
                                        attacker_cards=["tercios"], attacker_power="france")),
        Example("mercenary cards", dict(attacker=4, attacker_mercenaries=3, defender=4,
                                        attacker_power="hapsburg", attacker_cards=["landsknechts"],
                                        defender_cards=["mercenaries-bribed"])),
        Example("swiss + artillery", dict(attacker=3, defender=3, attacker_power="france",
                                          attacker_cards=["swiss-mercenaries", "field-artillery"])),
        Example("siege check", dict(attacker=6, defender=3, fortified=True, withdraw_inside=2)),
        Example("everything", dict(attacker=5, defender=4, attacker_power="ottoman",
                                   attacker_leader=1,
                                   attacker_cards=["janissaries:if-needed", "arquebusiers"],
                                   defender_cards=["surprise-attack", "landsknechts"],
                                   defender_leader=2)),
    ), words=WORDS))
