"""Here I Stand assault of a besieged fortified space (docs/rules.md, Assault): cards, exact engine, API.

The rules are in assaults/rules.py, the chance sequence (Surprise Attack, Siege Artillery
under its policy) in sequence.py.

Outcome joint: ``joint[hit, attacker_losses, defender_losses]`` where `hit` is 1 when the
attacker scored at least one hit (the success rule needs it when the space held no defending
unit). The Monte Carlo kernel (assaults/kernel.py) fills the same joint. Foul Weather enters
only through `summarise`: the joint describes the assault given that it takes place.

Readings of the rule recorded in `Result.settings`:
- Siege Artillery `if-needed` is played whenever the assault would fail without it (even if
  2 more hits cannot save it: then the attacking force is gone anyway).
- Cavalry rolls nothing; a defender with no land unit still rolls its +1 die and leader.
- `casualties` only changes a single assault through Surprise Attack (the surprised side
  counts its dice after its losses); it matters for sieges (sieges/procedure.py).
- A leader of rating 0 counts as no leader for `leaders_captured` / `leaders_displaced`.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...core.dice import pool_pmf
from ...core.engine import McOptions, Procedure, solve
from ...core.montecarlo import PAIR_LANE
from ...core.outcomes import Words
from ...errors import OddsError, check_bool, check_choice, check_int, check_probability
from ...registry import Example, Param, Spec, register
from .rules import dice, fails, resolve
from ..cards import dice as dice_words, help_for
from ...i18n import _
from ..field.procedure import (HIT_ON, forces as field_forces, hit_numbers, hit_params,
                               hit_settings, setup)
from ..forces import assumptions, land_params, leader_notes, settings as force_settings
from ..leaders import leader
from ..rolls.sequence import fixed_dice, main_roll, play_after, rows_cost, surprise

CASUALTIES = ("cavalry-first", "infantry-first")
SEED_CARDS = ("mercenaries-bribed", "surprise-attack")  # the seed's extra assault cards

WORDS = Words("Succeeds", (("success", "siege_continues", "withdraw", "cancelled"),),
              within={"attacker_eliminated": ("withdraw",), "leaders_captured": ("success",),
                      "leaders_displaced": ("withdraw",)})


RESTLESS = "mercenaries-grow-restless"
BREAKS = ("Mercenaries Grow Restless left the besiegers no more numerous than the defenders: "
          "the siege breaks and no assault is rolled")


def restless_breaks(a, d, defender_cards) -> bool:
    """Mercenaries Grow Restless leaving the besiegers no more numerous than the besieged
    (cavalry counted) breaks the siege: no assault is rolled and nobody is eliminated. Both
    sides' dice are cancelled and the attacker's after-roll cards go unplayed; True if so."""
    if RESTLESS not in defender_cards or a.units > d.units:
        return False
    a.penalty, d.penalty = a.units + a.dice, d.units + d.dice
    a.after = []
    return True


# ---- exact engine ------------------------------------------------------------------------

def roll_pmf(side, halved, cavalry_first, lost=0, surprised=False):
    """(hit pmf, dice rolled) of `side` after losing `lost` units before its roll; `halved`:
    an attacker facing a defending unit."""
    if side.extra:  # no assault card adds dice groups before the roll
        raise OddsError(f"{side.role}_cards: a card adding special dice cannot be played in an assault")
    n, rolls = dice(side.units - side.cavalry, side.cavalry, side.dice - side.penalty, halved, lost,
                    cavalry_first, surprised)
    return (pool_pmf([(n, side.hit_on)]), n) if rolls else (np.ones(1), 0)


def rows_after(a, d, cavalry_first):
    """(outcome rows (ah, dh, adice, ddice, p), Siege Artillery played) of one assault: the
    main roll (Surprise Attack included), then the attacker's after-roll cards."""
    halved = int(d.units > 0)
    rows = main_roll(surprise(a, d), lambda *loss: roll_pmf(a, halved, cavalry_first, *loss),
                     lambda *loss: roll_pmf(d, 0, cavalry_first, *loss))
    rows, (played, _) = play_after(rows, a, d,
                                   lambda attacker, ah, dh: fails(ah, dh, a.units, d.units),
                                   surprise(a, d))
    return rows, played


def explain(a, d, cavalry_first) -> tuple:
    """The dice each side rolls and why, in words (the first assault, before any loss)."""
    halved = int(d.units > 0)
    lines = []
    for side, halves in ((a, halved), (d, 0)):
        infantry = side.units - side.cavalry
        units = _("{n} infantry").format(n=infantry) + (_(", halved rounded up") if halves else "")
        if side.cavalry:
            units += _(" ({n} cavalry roll none)").format(n=side.cavalry)
        n = roll_pmf(side, halves, cavalry_first)[1]
        lines.append(side.story(f"{dice_words(n)}: {units}"))
    return tuple(lines)


def joint_shape(a, d) -> tuple:
    """[code, attacker losses, defender losses]: code bit 0 the attacker hit at least once,
    bit 1 it played Siege Artillery."""
    return (4 if a.after else 2, a.units + 1, d.units + 1)


def exact_joint(a, d, cavalry_first) -> np.ndarray:
    (ah, dh, _, _, p), played = rows_after(a, d, cavalry_first)
    hit, al, dl = resolve(ah, dh, a.units, d.units)
    shape = joint_shape(a, d)
    index = np.ravel_multi_index((hit + 2 * played, al, dl), shape)
    return np.bincount(index, weights=p, minlength=np.prod(shape)).reshape(shape)


def summarise(joint, cancel=0.0, attacker_has_leader=True, defender_has_leader=True):
    """Outcome probabilities and loss pmfs (linear in the joint: works on counts too).

    A cancelled assault (probability `cancel`) loses nothing: its mass goes to 0 losses.
    """
    ua, ud = joint.shape[1] - 1, joint.shape[2] - 1
    total = joint.sum()
    a_left = ua - np.arange(ua + 1)[:, None]
    d_left = ud - np.arange(ud + 1)[None, :]
    won = joint[1::2].sum(axis=0) * ((d_left == 0) & (a_left > 0))
    failed = joint.sum(axis=0) - won
    keep = 1.0 - cancel
    success = won.sum() * keep
    eliminated = joint[:, ua, :].sum() * keep * (ua > 0)  # no attacker left to eliminate
    probabilities = {
        "success": success,
        "siege_continues": (failed * (a_left > d_left)).sum() * keep,
        "withdraw": (failed * (a_left <= d_left)).sum() * keep,
        "cancelled": total * cancel,
        "attacker_eliminated": eliminated,
        "leaders_captured": success if defender_has_leader else 0.0 * total,
        "leaders_displaced": eliminated if attacker_has_leader else 0.0 * total,
    }
    if len(joint) == 4:
        probabilities["attacker_plays_siege_artillery"] = joint[2:].sum() * keep
    pmfs = {}
    for name, pmf in (("attacker_losses", joint.sum(axis=(0, 2))),
                      ("defender_losses", joint.sum(axis=(0, 1)))):
        pmf = pmf * keep
        pmf[0] += total * cancel
        pmfs[name] = pmf
    return probabilities, pmfs


# ---- public function ---------------------------------------------------------------------

def check_seed_cards(field_name, specs, allow):
    """Mercenaries Bribed and Surprise Attack need the `allow_bribed_surprise` setting."""
    for spec in specs:
        if str(spec).partition(":")[0] in SEED_CARDS and not allow:
            raise OddsError(f"{field_name}: {spec!r} is a field-battle card; in an assault it "
                            f"needs allow_bribed_surprise=True (--allow-bribed-surprise)")


def forces(*sides, gout=None, allow_bribed_surprise=False):
    """Validated (attacker, defender) Forces from field.forces' arguments (the attacker needs
    a unit); the seed cards only with the setting; Gout replaces the attacker's leader rating."""
    att, dfn = field_forces(*sides, procedure="assault")
    for side in (att, dfn):
        check_seed_cards(f"{side.side}_cards", side.cards, allow_bribed_surprise)
    if gout is not None:
        gout = check_int("gout", gout, 0, att.leader, _(", at most the attacking leader's rating"))
        att = replace(att, leader=gout)
    return att, dfn


def check_settings(casualties, allow_bribed_surprise):
    casualties = check_choice("casualties", casualties, CASUALTIES)
    check_bool("allow_bribed_surprise", allow_bribed_surprise)
    return casualties == "cavalry-first", SEED_CARDS if allow_bribed_surprise else None


def kernel(a, d) -> tuple:
    """(module, name) of the Monte Carlo kernel of this assault; assaults.kernel.kernel_args are
    its arguments."""
    return PAIR_LANE if fixed_dice(a, d) else ("odds.his.assaults.kernel", "assault_lane")


def _kernel_args(a, d, cavalry_first):
    from ...core.kernel_cache import load  # the kernel module may not be kernel(a, d)'s

    return load("odds.his.assaults.kernel", "kernel_args")(a, d, cavalry_first)


def assault(attacker, defender, *, attacker_mercenaries=0, attacker_cavalry=0,
            attacker_leader=0, attacker_power="other", attacker_cards=(), gout=None,
            defender_mercenaries=0, defender_cavalry=0, defender_leader=0,
            defender_power="other", defender_cards=(), cancel_probability=0.0,
            casualties="cavalry-first", allow_bribed_surprise=False, attacker_hit_on=HIT_ON,
            defender_hit_on=HIT_ON, method="auto", trials=None, seed=None, precision=None,
            max_trials=10**9, threads=None, progress=None):
    """Odds of one Here I Stand assault (docs/rules.md, Assault).

    `attacker`/`defender` are land units (mercenaries and cavalry among them); leaders are the
    best battle rating; `gout` is the attacker's next-best rating when Gout keeps the best
    leader out. Cards by name; 'siege-artillery:always' or ':if-needed'. `cancel_probability`
    is the chance Foul Weather cancels the assault. Settings: `casualties` ('cavalry-first' or
    'infantry-first'), `allow_bribed_surprise` (Mercenaries Bribed / Surprise Attack allowed),
    `attacker_hit_on`/`defender_hit_on` (a side's main roll hits on N-6; the rule: 5; Siege
    Artillery keeps its 3-6).
    Returns a Result: success, siege_continues, withdraw, cancelled (these four sum to 1),
    attacker_eliminated, leaders_captured, leaders_displaced, and each side's loss pmf.
    """
    att, dfn = forces(attacker, defender, attacker_mercenaries, attacker_cavalry, attacker_leader,
                      attacker_power, attacker_cards, defender_mercenaries, defender_cavalry,
                      defender_leader, defender_power, defender_cards, gout=gout,
                      allow_bribed_surprise=allow_bribed_surprise)
    cancel = check_probability("cancel_probability", cancel_probability)
    cavalry_first, allowed = check_settings(casualties, allow_bribed_surprise)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    a, d = setup(att, dfn, "assault", allowed)
    hit_numbers(a, d, attacker_hit_on, defender_hit_on)
    notes = ((BREAKS,) if restless_breaks(a, d, dfn.cards) else ()) + leader_notes(att, dfn)
    settings = {**force_settings(att, dfn), "gout": gout is not None,
                "cancel_probability": cancel, "casualties": casualties,
                "allow_bribed_surprise": allow_bribed_surprise,
                "siege_artillery_if_needed": "played whenever the assault would otherwise fail",
                "attacker_units_at_roll": a.units, "defender_units_at_roll": d.units,
                **hit_settings(a, d)}
    present = leader("attacker_leader", attacker_leader).present  # Gout or not
    summary = lambda j: summarise(j, cancel, present, dfn.has_leader)
    proc = Procedure("his.assault", joint_shape(a, d), summary, "success",
                     lambda: exact_joint(a, d, cavalry_first),
                     kernel(a, d),
                     lambda: _kernel_args(a, d, cavalry_first), settings,
                     assumptions=assumptions(att, dfn), notes=notes,
                     explain=explain(a, d, cavalry_first),
                     cost=lambda: rows_cost(len(roll_pmf(a, int(d.units > 0), cavalry_first)[0]),
                                            len(roll_pmf(d, 0, cavalry_first)[0]), a, d), words=WORDS)
    return solve(proc, method, mc)


def setting_params(hits_scope: str = "") -> tuple:
    """Keywords an assault and a siege share beyond the forces (`hits_scope`: hit_params')."""
    return (
        Param("gout", "int", "Gout keeps the best attacking leader out: the next-best rating "
              "(in a siege: first assault only)", low=0, high=6, metavar="R"),
        Param("casualties", "choice", "which units the attacker loses first", choices=CASUALTIES),
        Param("allow_bribed_surprise", "bool", "allow Mercenaries Bribed and Surprise Attack "
              "in an assault (one text of the rules lists them there; the printed rules make them "
              "field-battle cards)")) + hit_params(hits_scope)


SPEC = register(Spec(
    "his.assault", assault,
    land_params("assault", help_for("assault")) + setting_params() + (
        Param("cancel_probability", "float", "chance that Foul Weather cancels the assault",
              low=0.0, high=1.0, metavar="Q"),),
    "one assault of a besieged fortified space", ("his", "assault"), "success",
    kernels=("odds.core.pair_kernel", "odds.his.assaults.kernel"), start={"attacker": 6, "defender": 2},
    rolled="odds.his.assaults.rolled:read",
    examples=(
        Example("artillery if needed, foul weather", dict(
            attacker=7, attacker_cavalry=2, attacker_leader=1, defender=3, defender_leader=1,
            attacker_cards=["siege-artillery:if-needed"], cancel_probability=0.1),
            "Here I Stand assault: 7 units (2 cavalry) + leader 1 assault 3 defenders + "
            "leader 1, Siege Artillery if needed, 10% Foul Weather", demo=True),
        Example("plain", dict(attacker=6, defender=2, attacker_leader=1)),
        Example("empty space", dict(attacker=4, attacker_cavalry=1, defender=0, attacker_leader=2)),
        Example("all-cavalry defenders", dict(attacker=5, attacker_cavalry=2, defender=2,
                                              defender_cavalry=2)),
        Example("leaders both, mining", dict(attacker=9, attacker_cavalry=3, defender=4,
                                             defender_cavalry=1, attacker_leader=2,
                                             defender_leader=1, attacker_cards=["siege-mining"])),
        Example("artillery always", dict(attacker=3, defender=3,
                                         attacker_cards=["siege-artillery:always"])),
        Example("mercenaries restless after landsknechts", dict(
            attacker=6, attacker_mercenaries=2, defender=3, attacker_power="hapsburg",
            attacker_cards=["landsknechts"], defender_cards=["mercenaries-grow-restless"])),
        Example("attacker surprise, infantry first", dict(
            attacker=8, attacker_cavalry=2, defender=4, defender_cavalry=2, attacker_leader=1,
            attacker_cards=["surprise-attack"], allow_bribed_surprise=True,
            casualties="infantry-first")),
        Example("defender surprise, bribed", dict(
            attacker=7, attacker_mercenaries=4, attacker_cavalry=1, defender=3, defender_leader=2,
            defender_cards=["surprise-attack", "mercenaries-bribed"], allow_bribed_surprise=True)),
        Example("gout, swiss", dict(attacker=5, defender=2, attacker_leader=3, gout=1,
                                    attacker_power="france", attacker_cards=["swiss-mercenaries"])),
    ), words=WORDS))
