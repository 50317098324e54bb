"""Huguenot raiders (Here I Stand §20.4): exact engine and API.

Each time the Hapsburgs receive a card from a colony or conquest, a Raider in play rolls a die:
1 eliminated; 2 eliminated if the Hapsburgs have Galleons, else nothing; 3-4 nothing; 5 steals
the card and retires; 6 steals the card and stays. Over `cards` such cards, one Raider:
``joint[cards stolen, raider still in play]``; the kernel (kernel.raider_lane) fills the same
joint.
"""
from __future__ import annotations

import numpy as np

from ...core.engine import McOptions, Procedure, solve
from ...errors import check_bool, check_int
from ...registry import Example, Param, Spec, register
from .tables import raider_roll
from .voyages import DIE

MAX_CARDS = 12  # Hapsburg New World cards in one Card Draw Phase accepted


def raiders_joint(cards, galleons) -> np.ndarray:
    """joint[stolen, alive] after the raider's rolls on `cards` Hapsburg cards."""
    faces = np.arange(1, 7)
    stolen, gone = raider_roll(faces, int(galleons))
    state = np.zeros((cards + 1, 2))
    state[0, 1] = 1.0
    for _ in range(cards):
        nxt = np.zeros_like(state)
        nxt[:, 0] += state[:, 0]  # an eliminated raider rolls no more
        for took, out in zip(stolen, gone):
            nxt[took:, 1 - out] += state[: cards + 1 - took, 1] / 6
        state = nxt
    return state


def raiders(*, cards=1, galleons=False, method="auto", trials=None, seed=None,
            precision=None, max_trials=10**9, threads=None, progress=None):
    """Odds of one Raider against `cards` Hapsburg New World cards (§20.4); `galleons`: the
    Hapsburgs have Galleons. Returns a Result: steals_any, raider_survives; pmf stolen."""
    cards = check_int("cards", cards, 1, MAX_CARDS)
    galleons = check_bool("galleons", galleons)

    def summarise(joint):
        stolen = np.add.reduce(joint, axis=1)
        return ({"steals_any": np.add.reduce(stolen[1:]), "raider_survives": np.add.reduce(joint[:, 1])},
                {"stolen": stolen})

    def kernel_args():
        from .kernel import raider_args

        return raider_args(DIE, cards, int(galleons))

    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    proc = Procedure("his.raiders", (cards + 1, 2), summarise, "steals_any",
                     lambda: raiders_joint(cards, galleons),
                     ("odds.his.new_world.kernel", "raider_lane"), kernel_args,
                     {"cards": cards, "galleons": galleons})
    return solve(proc, method, mc)


register(Spec(
    "his.raiders", raiders, (
        Param("cards", "int", "Hapsburg cards from colonies and conquests this Card Draw "
              "Phase", low=1, high=MAX_CARDS),
        Param("galleons", "bool", "the Hapsburgs have Galleons (a 2 eliminates the raider)")),
    "a Huguenot raider on the Hapsburg New World cards",
    ("his", "raiders"), "steals_any", kernels=("odds.his.new_world.kernel",),
    rolled="odds.his.new_world.rolled:raiders",
    examples=(Example("three cards, galleons", {"cards": 3, "galleons": True},
                      "one raider, three Hapsburg cards, Galleons in play", demo=True),),
    start={"cards": 2}))
