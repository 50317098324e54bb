"""Piracy (Here I Stand §16.4): exact engine and API.

The target rolls 2 dice per squadron of its own in the sea zone, 1 per squadron of its own or
of a power at war with the Ottoman in an adjacent port or sea zone, and 1 per adjacent fortress
(not a mere fortified space; not in unrest or under siege) of the target, an at-war power or
the Knights; each 5-6 kills a corsair. If corsairs remain, the Ottoman rolls 1 die (only 1
corsair left, or only 1 target port on the zone) else 2, plus the piracy rating of his naval
leader there (Barbarossa 1, Dragut 2); each 5-6 is a hit the target pays for (awards.py).
Andrea Doria (setting): read as `doria_dice` more anti-piracy dice. Outcome joint:
``joint[corsairs killed, piracy hits]``; the kernel (kernel.piracy_lane) fills the same joint.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np

from ...core.dice import binomial_pmf
from ...core.engine import McOptions, Procedure, solve
from ...core.readings import Reading
from ...errors import check_bool, check_choice, check_int
from ...registry import Example, Param, Spec, register
from .awards import AWARDS, award_table

PIRATES = {"none": 0, "barbarossa": 1, "dragut": 2}  # naval leader -> piracy rating
ORDERS = tuple(",".join(p) for p in permutations(AWARDS))
MAX_UNITS = 12  # corsairs, squadrons or fortresses of one kind accepted
MAX_PIRACY_VP = 10  # the Ottoman's piracy VP over a game
DORIA_DICE = 3  # the dice Andrea Doria adds: the reading chosen (READINGS)
READINGS = (Reading("doria_dice", "Andrea Doria's dice", DORIA_DICE,
                    "the card's text as paraphrased in the rules summary the tool was built from "
                    "(\"Andrea Doria: 3 dice cut piracy VP\"); the rulebook names the card, not its "
                    "dice", alternatives=(2, 4), when=lambda call: call["andrea_doria"]),)


def anti_piracy_dice(squadrons, adjacent_squadrons, allied_squadrons, fortresses, doria):
    """The target's anti-piracy dice: 2 per squadron in the zone, 1 per adjacent squadron of
    its own or of an ally at war with the Ottoman, 1 per adjacent fortress, and Andrea Doria's."""
    return 2 * squadrons + adjacent_squadrons + allied_squadrons + fortresses + doria


def ottoman_dice(left, one_port, rating):
    """The Ottoman's piracy dice with `left` corsairs remaining (0: no roll)."""
    return 0 if left == 0 else rating + (1 if left == 1 or one_port else 2)


def exact_joint(anti_dice, corsairs, one_port, rating) -> np.ndarray:
    """joint[killed, hits]: binomial anti-piracy hits (capped at the corsairs), then the
    Ottoman's binomial piracy hits."""
    joint = np.zeros((corsairs + 1, rating + 3))
    anti = binomial_pmf(anti_dice)
    for kills, p in enumerate(anti):
        killed = min(kills, corsairs)
        hits = binomial_pmf(ottoman_dice(corsairs - killed, one_port, rating))
        joint[killed, : len(hits)] += p * hits
    return joint


def piracy(*, corsairs=2, squadrons=0, adjacent_squadrons=0, allied_squadrons=0,
           fortresses=0, one_port=False, pirate="none", andrea_doria=False, doria_dice=DORIA_DICE,
           hand=5, vp_room=MAX_PIRACY_VP, order="squadron,vp,card", method="auto",
           trials=None, seed=None, precision=None, max_trials=10**9, threads=None,
           progress=None):
    """Odds of one piracy action (§16.4). `squadrons`/`adjacent_squadrons`: the target's in the
    zone (2 dice each) and adjacent (1 die each), both exposed to hits; `allied_squadrons`:
    adjacent squadrons of other powers at war with the Ottoman (1 die each); `fortresses`:
    adjacent fortresses that roll (1 die each); `one_port`: the target has one port on the
    zone; `pirate`: the Ottoman naval leader present; `andrea_doria`: the card adds
    `doria_dice` anti-piracy dice (a reading: READINGS); `hand`: cards in the target's hand;
    `vp_room`: piracy VP the Ottoman can still earn; `order`: the target's preference for odd
    hits. Returns a Result: any_hit, all_corsairs_killed; pmfs hits, vp, squadrons_lost,
    cards_lost, corsairs_killed."""
    corsairs = check_int("corsairs", corsairs, 1, MAX_UNITS)
    counts = [check_int(name, value, 0, MAX_UNITS) for name, value in (
        ("squadrons", squadrons), ("adjacent_squadrons", adjacent_squadrons),
        ("allied_squadrons", allied_squadrons), ("fortresses", fortresses))]
    one_port, doria = check_bool("one_port", one_port), check_bool("andrea_doria", andrea_doria)
    rating = PIRATES[check_choice("pirate", pirate, tuple(PIRATES))]
    extra = check_int("doria_dice", doria_dice, 0, 6) * doria
    room = (counts[0] + counts[1], check_int("hand", hand, 0, 20),
            check_int("vp_room", vp_room, 0, MAX_PIRACY_VP))
    order = check_choice("order", order, ORDERS)
    anti_dice = anti_piracy_dice(*counts, extra)
    table = award_table(rating + 2, room, [AWARDS.index(a) for a in order.split(",")])

    def summarise(joint):
        hits = np.add.reduce(joint, axis=0)
        paid = {}
        for a, name in enumerate(("squadrons_lost", "cards_lost", "vp")):
            paid[name] = np.bincount(table[:, a].astype(int), weights=hits, minlength=rating + 3)
        return ({"any_hit": np.add.reduce(hits[1:]), "all_corsairs_killed": np.add.reduce(joint[-1])},
                {"hits": hits, **paid, "corsairs_killed": np.add.reduce(joint, axis=1)})

    def kernel_args():
        from .kernel import kernel_args

        return kernel_args(anti_dice, corsairs, int(one_port), rating)

    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {"anti_piracy_dice": anti_dice, "corsairs": corsairs, "one_port": one_port,
                "pirate": pirate, "andrea_doria": doria, "doria_dice": extra,
                "exposed_squadrons": room[0], "hand": room[1], "vp_room": room[2],
                "order": order}
    proc = Procedure("his.piracy", (corsairs + 1, rating + 3), summarise, "any_hit",
                     lambda: exact_joint(anti_dice, corsairs, one_port, rating),
                     ("odds.his.corsairs.kernel", "piracy_lane"), kernel_args, settings)
    return solve(proc, method, mc)


def _count(name, text):
    return Param(name, "int", text, low=0, high=MAX_UNITS)


register(Spec(
    "his.piracy", piracy, (
        Param("corsairs", "int", "Ottoman corsairs in the sea zone", low=1, high=MAX_UNITS),
        _count("squadrons", "the target's squadrons in the zone (2 dice each)"),
        _count("adjacent_squadrons", "the target's squadrons in adjacent ports or zones (1 die)"),
        _count("allied_squadrons", "adjacent squadrons of other powers at war with the Ottoman "
               "(1 die)"),
        _count("fortresses", "adjacent fortresses of the target, at-war powers or the Knights "
               "(1 die; not in unrest or under siege)"),
        Param("one_port", "bool", "the target has only one port on the zone (1 base die)"),
        Param("pirate", "choice", "the Ottoman naval leader present (piracy rating)",
              choices=tuple(PIRATES)),
        Param("andrea_doria", "bool", "Andrea Doria is played (more anti-piracy dice: doria_dice)"),
        Param("doria_dice", "int", "anti-piracy dice Andrea Doria adds", low=0,
              high=6, needs=("andrea_doria",)),
        Param("hand", "int", "cards in the target's hand (card awards)", low=0, high=20),
        Param("vp_room", "int", "piracy VP the Ottoman can still earn (10 a game)", low=0,
              high=MAX_PIRACY_VP),
        Param("order", "choice", "the target's preference for an odd hit", choices=ORDERS)),
    "piracy action (anti-piracy dice, then the Ottoman's piracy dice)", ("his", "piracy"),
    "any_hit", kernels=("odds.his.corsairs.kernel",), readings=READINGS,
    means=("vp", "squadrons_lost", "cards_lost"), rolled="odds.his.corsairs.rolled:read",
    examples=(Example("rulebook: ionian sea", {"corsairs": 2, "adjacent_squadrons": 1,
                                               "fortresses": 1, "pirate": "barbarossa"},
                      "the rulebook's Ionian Sea: Barbarossa, 2 corsairs; a fortress and a "
                      "squadron adjacent", demo=True),
              Example("with andrea doria", {"corsairs": 2, "adjacent_squadrons": 1,
                                            "fortresses": 1, "pirate": "barbarossa",
                                            "andrea_doria": True})),
    start={"corsairs": 2}))
