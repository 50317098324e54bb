"""Here I Stand assault of a besieged fortified space (RULES.md §1.2): rules, exact engine, API.

Outcome joint: ``joint[hit, attacker_losses, defender_losses]`` where `hit` is 1 when the
attacker scored at least one hit (the success rule needs it when the space held no defending
unit). The Monte Carlo kernel (assault_kernel.py) fills the same joint. Foul Weather enters
only through `summarise`: the joint describes the assault given that it takes place.

Readings of RULES.md recorded in `Result.settings`:
- Siege Artillery `if-needed` is played whenever the assault would fail without it (even if
  2 more hits cannot save it: then the attacking force is gone anyway).
- Cavalry rolls nothing; a defender with no land unit still rolls its +1 die and leader.
- `casualties` only changes a single assault through Surprise Attack (the surprised side
  counts its dice after its losses); it matters for sieges (siege.py).
- A leader of rating 0 counts as no leader for `leaders_captured` / `leaders_displaced`.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.dice import pool_pmf
from ..core.engine import McOptions, Procedure, solve
from ..errors import OddsError, check_bool, check_choice, check_int, check_probability
from .cards import AfterRoll, Card, register
from ..registry import Example, Param, Spec, register as register_procedure
from .cards import help_for
from .field import forces as field_forces, play_after, setup
from .forces import land_params

CASUALTIES = ("cavalry-first", "infantry-first")
SEED_CARDS = ("mercenaries-bribed", "surprise-attack")  # the seed's extra assault cards


def _attacker_only(me, enemy):
    return None if me.role == "attacker" else "only the attacker may play it"


def _defender_only(me, enemy):
    return None if me.role == "defender" else "only the defender may play it"


def _siege_mining(me, enemy, procedure, policy):
    me.dice += 3


def _restless(me, enemy, procedure, policy):
    enemy.units -= enemy.mercenaries
    enemy.mercenaries = 0


def _siege_artillery(me, enemy, procedure, policy):
    me.after.append(AfterRoll("siege-artillery", 2, 3, policy))


for _card in (
    Card("siege-mining", "combat", ("assault",), _siege_mining, _attacker_only),
    Card("mercenaries-grow-restless", "combat", ("assault",), _restless, _defender_only),
    Card("siege-artillery", "after", ("assault",), _siege_artillery, _attacker_only),
):
    register(_card)


# ---- the rule, written once for numpy arrays and for the numba kernels -------------------

def attacker_dice(infantry, bonus, defended):
    """Assault dice: 1 per non-cavalry unit, halved rounded up if any defender is there, + bonus."""
    return infantry - defended * (infantry // 2) + bonus


def infantry_left(infantry, cavalry, losses, cavalry_first):
    """Non-cavalry units left after `losses` casualties taken in the casualty order."""
    lost = np.minimum(np.maximum(losses - cavalry * cavalry_first, 0), infantry)
    return infantry - lost


def succeeds(ah, dh, ua, ud):
    """At least one attacker hit, no defending unit left, at least one attacking survivor."""
    return (ah >= 1) & (ah >= ud) & (dh < ua)


def resolve(ah, dh, ua, ud):
    """(hit flag, attacker losses, defender losses): one unit lost per enemy hit."""
    return (ah >= 1) * 1, np.minimum(dh, ua), np.minimum(ah, ud)


def fails(is_attacker, ah, dh, ua, ud):
    """Siege Artillery's `if-needed`: the assault would fail as the dice stand."""
    return ~succeeds(ah, dh, ua, ud)


# ---- exact engine ------------------------------------------------------------------------

def _infantry(side):
    return side.units - side.cavalry


def side_dice(side, infantry, defended, is_attacker):
    """Dice (5-6) of `side` with `infantry` non-cavalry units: attackers halve when defended."""
    bonus = side.dice - side.penalty
    if is_attacker:
        return max(0, attacker_dice(infantry, bonus, defended))
    return max(0, infantry + bonus)


def _pmf(side, infantry, defended, is_attacker, rolls=True):
    if not rolls:
        return np.ones(1), 0
    if side.extra:  # no assault card adds dice groups before the roll
        raise OddsError(f"{side.role}_cards: a card adding special dice cannot be played in an assault")
    n = side_dice(side, infantry, defended, is_attacker)
    return pool_pmf([(n, 5)]), n


def first_roll(a, d, cavalry_first):
    """Outcome rows (ah, dh, adice, ddice, p) of the main roll, Surprise Attack included."""
    defended = d.units > 0
    if not (a.surprise or d.surprise):
        pa, na = _pmf(a, _infantry(a), defended, True)
        pd, nd = _pmf(d, _infantry(d), defended, False)
        ah, dh = np.divmod(np.arange(len(pa) * len(pd)), len(pd))
        return ah, dh, np.full(ah.shape, na), np.full(ah.shape, nd), np.outer(pa, pd).ravel()
    first, other = (a, d) if a.surprise else (d, a)
    p1, n1 = _pmf(first, _infantry(first), defended, first is a)
    blocks = []
    for h, ph in enumerate(p1):
        left = other.units - min(h, other.units)
        inf = int(infantry_left(_infantry(other), other.cavalry, h, cavalry_first))
        p2, n2 = _pmf(other, inf, defended, other is a, rolls=left > 0)
        blocks.append((np.full(len(p2), h), np.arange(len(p2)), np.full(len(p2), n2), ph * p2))
    h1, h2, n2, p = (np.concatenate(x) for x in zip(*blocks))
    n1 = np.full(h1.shape, n1)
    return (h1, h2, n1, n2, p) if first is a else (h2, h1, n2, n1, p)


def rows_after(a, d, cavalry_first):
    """Outcome rows after the main roll and the attacker's after-roll cards under their policy."""
    needs = lambda is_attacker, ah, dh: fails(is_attacker, ah, dh, a.units, d.units)
    return play_after(first_roll(a, d, cavalry_first), a, True, needs=needs)


def exact_joint(a, d, cavalry_first) -> np.ndarray:
    ah, dh, _, _, p = rows_after(a, d, cavalry_first)
    hit, al, dl = resolve(ah, dh, a.units, d.units)
    shape = (2, a.units + 1, d.units + 1)
    index = np.ravel_multi_index((hit, al, dl), shape)
    return np.bincount(index, weights=p, minlength=np.prod(shape)).reshape(shape)


def summarise(joint, cancel=0.0, attacker_has_leader=True, defender_has_leader=True):
    """Outcome probabilities and loss pmfs (linear in the joint: works on counts too).

    A cancelled assault (probability `cancel`) loses nothing: its mass goes to 0 losses.
    """
    ua, ud = joint.shape[1] - 1, joint.shape[2] - 1
    total = joint.sum()
    a_left = ua - np.arange(ua + 1)[:, None]
    d_left = ud - np.arange(ud + 1)[None, :]
    won = joint[1] * ((d_left == 0) & (a_left > 0))
    failed = joint.sum(axis=0) - won
    keep = 1.0 - cancel
    success = won.sum() * keep
    eliminated = joint[:, ua, :].sum() * keep
    probabilities = {
        "success": success,
        "siege_continues": (failed * (a_left > d_left)).sum() * keep,
        "withdraw": (failed * (a_left <= d_left)).sum() * keep,
        "cancelled": total * cancel,
        "attacker_eliminated": eliminated,
        "leaders_captured": success if defender_has_leader else 0.0 * total,
        "leaders_displaced": eliminated if attacker_has_leader else 0.0 * total,
    }
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
    att, dfn = field_forces(*sides)
    for side in (att, dfn):
        check_seed_cards(f"{side.side}_cards", side.cards, allow_bribed_surprise)
    if gout is not None:
        gout = check_int("gout", gout, 0, att.leader)
        att = replace(att, leader=gout)
    return att, dfn


def check_settings(casualties, allow_bribed_surprise):
    casualties = check_choice("casualties", casualties, CASUALTIES)
    check_bool("allow_bribed_surprise", allow_bribed_surprise)
    return casualties == "cavalry-first", SEED_CARDS if allow_bribed_surprise else None


def _kernel_args(a, d, cavalry_first):
    from .assault_kernel import kernel_args

    return kernel_args(a, d, cavalry_first)


def assault(attacker, defender, *, attacker_mercenaries=0, attacker_cavalry=0,
            attacker_leader=0, attacker_power="other", attacker_cards=(), gout=None,
            defender_mercenaries=0, defender_cavalry=0, defender_leader=0,
            defender_power="other", defender_cards=(), cancel_probability=0.0,
            casualties="cavalry-first", allow_bribed_surprise=False, method="auto",
            trials=None, seed=None, precision=None, max_trials=10**9, threads=None,
            progress=None):
    """Odds of one Here I Stand assault (RULES.md §1.2).

    `attacker`/`defender` are land units (mercenaries and cavalry among them); leaders are the
    best battle rating; `gout` is the attacker's next-best rating when Gout keeps the best
    leader out. Cards by name; 'siege-artillery:always' or ':if-needed'. `cancel_probability`
    is the chance Foul Weather cancels the assault. Settings: `casualties` ('cavalry-first' or
    'infantry-first'), `allow_bribed_surprise` (Mercenaries Bribed / Surprise Attack allowed).
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
    settings = {"attacker_power": att.power, "defender_power": dfn.power,
                "attacker_cards": list(att.cards), "defender_cards": list(dfn.cards),
                "attacker_leader_used": att.leader, "gout": gout is not None,
                "cancel_probability": cancel, "casualties": casualties,
                "allow_bribed_surprise": allow_bribed_surprise,
                "siege_artillery_if_needed": "played whenever the assault would otherwise fail",
                "attacker_units_at_roll": a.units, "defender_units_at_roll": d.units}
    summary = lambda j: summarise(j, cancel, attacker_leader > 0, dfn.leader > 0)
    proc = Procedure("his.assault", (2, a.units + 1, d.units + 1), summary, "success",
                     lambda: exact_joint(a, d, cavalry_first),
                     ("odds.his.assault_kernel", "assault_lane"),
                     lambda: _kernel_args(a, d, cavalry_first), settings)
    return solve(proc, method, mc)


def setting_params() -> tuple:
    """Keywords an assault and a siege share beyond the forces."""
    return (
        Param("gout", "int", "Gout keeps the best attacking leader out: the next-best rating "
              "(in a siege: first assault only)", low=0, high=6, metavar="R"),
        Param("casualties", "choice", "which units the attacker loses first", choices=CASUALTIES),
        Param("allow_bribed_surprise", "bool", "allow Mercenaries Bribed and Surprise Attack "
              "in an assault (as the seed does)"))


SPEC = register_procedure(Spec(
    "his.assault", assault,
    land_params("assault", help_for("assault")) + setting_params() + (
        Param("cancel_probability", "float", "chance that Foul Weather cancels the assault",
              low=0.0, high=1.0, metavar="Q"),),
    "one assault of a besieged fortified space", ("his", "assault"), "success",
    kernels=("odds.his.assault_kernel",), start={"attacker": 6, "defender": 2},
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
    )))
