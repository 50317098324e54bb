"""Voyages of exploration and conquest (Here I Stand §20.2-20.3): exact engines and API.

Exploration: 2d6 + the explorer's value, +2 when Mercator's Map started the voyage, -1 while
the power's marker is Uncharted. 4 or less: lost at sea; 5-6: nothing; 7-9: a discovery;
10+: deep into South America, where the explorer may try to circumnavigate (a second 2d6 with
the same modifiers but never the -1): 10+ succeeds (12+ also draws a card), 9 or less: the
explorer is removed. Conquest: 2d6 + the conquistador's value, +2 with Smallpox; 6 or less:
killed; 7-8: nothing; 9+: a conquest. Outcome joint: ``joint[first 2d6, second 2d6 (0: none)]``;
the kernel (kernel.voyage_lane) fills the same joint.
"""
from __future__ import annotations

import numpy as np

from ...core.dice import convolve
from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...core.readings import Reading
from ...errors import check_bool, check_int
from ...registry import Example, Param, Spec, register
from . import tables

DIE = np.r_[0, np.full(6, 1 / 6)]  # index = face
TWO_DICE = convolve(DIE, DIE)  # index = total
MAX_VALUE = 6  # the largest explorer or conquistador value accepted
MERCATOR, SMALLPOX, UNCHARTED = 2, 2, -1
ROLLS = len(TWO_DICE) + MAX_VALUE + MERCATOR  # modified rolls 0 .. 20 (the least is 1)
KERNEL = ("odds.his.new_world.kernel", "voyage_lane")

WORDS = Words(partitions=(("lost", "nothing", "discovery", "deep"),
                           ("killed", "nothing", "conquest")))


def voyage_joint(first_modifier, second_from, second_modifier=0) -> np.ndarray:
    """joint[first, second]: the second 2d6 rolled when first + modifier >= second_from."""
    joint = np.zeros((len(TWO_DICE), len(TWO_DICE)))
    for first, p in enumerate(TWO_DICE):
        if first + first_modifier >= second_from:
            joint[first] += p * TWO_DICE
        else:
            joint[first, 0] += p
    return joint


def _by_result(joint, modifier, result, count):
    """P(each result of the first roll's table)."""
    totals = np.arange(len(TWO_DICE))
    first = np.add.reduce(joint, axis=1)
    return [np.add.reduce(first * (result(totals + modifier) == r)) for r in range(count)]


def _solve(name, modifier, second_from, summarise, settings, method, mc):
    def kernel_args():
        from .kernel import voyage_args

        return voyage_args(TWO_DICE, modifier, second_from)

    proc = Procedure(name, (len(TWO_DICE), len(TWO_DICE)), summarise, summarise.main,
                     lambda: voyage_joint(modifier, second_from), KERNEL, kernel_args, settings, words=WORDS)
    return solve(proc, method, mc)


def exploration(*, explorer=1, mercator=False, uncharted=False, skip_circumnavigation=False,
                method="auto", trials=None, seed=None, precision=None, max_trials=10**9,
                threads=None, progress=None):
    """Odds of a voyage of exploration (§20.2). `explorer`: the explorer's value; `mercator`:
    Mercator's Map started it (+2); `uncharted`: the power's first exploration (-1);
    `skip_circumnavigation`: on 10+ the explorer claims a discovery instead of trying to
    circumnavigate. Returns a Result: lost,
    nothing, discovery, deep (10+), circumnavigates, circumnavigation_card, explorer_removed;
    pmf modified_roll (index = the first roll with its modifiers)."""
    value = check_int("explorer", explorer, 0, MAX_VALUE)
    mercator, uncharted = check_bool("mercator", mercator), check_bool("uncharted", uncharted)
    skip = check_bool("skip_circumnavigation", skip_circumnavigation)
    modifier = value + MERCATOR * mercator + UNCHARTED * uncharted
    second = modifier - UNCHARTED * uncharted  # the circumnavigation never takes the -1
    second_from = tables.NO_SECOND_ROLL if skip else tables.CIRCUMNAVIGATES
    totals = np.arange(len(TWO_DICE))
    circ = (totals + second >= tables.CIRCUMNAVIGATES) * (totals > 0)
    card = (totals + second >= tables.CIRCUMNAVIGATION_CARD) * (totals > 0)

    def summarise(joint):
        lost, nothing, discovery, deep = _by_result(joint, modifier, tables.exploration_result, 4)
        rolled = np.add.reduce(joint[:, 1:].reshape(-1))
        success = np.add.reduce(joint @ circ)
        first = np.add.reduce(joint, axis=1)
        roll = np.bincount(totals[2:] + modifier, weights=first[2:], minlength=ROLLS)
        return ({"lost": lost, "nothing": nothing, "discovery": discovery, "deep": deep,
                 "circumnavigates": success,
                 "circumnavigation_card": np.add.reduce(joint @ card),
                 "explorer_removed": lost + rolled - success},
                {"modified_roll": roll})

    summarise.main = "discovery"
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {"explorer": value, "mercator": mercator, "uncharted": uncharted,
                "skip_circumnavigation": skip, "modifier": modifier,
                "table": tables.EXPLORATION_TABLE}
    return _solve("his.exploration", modifier, second_from, summarise, settings, method, mc)


def conquest(*, conquistador=1, smallpox=False, method="auto", trials=None, seed=None,
             precision=None, max_trials=10**9, threads=None, progress=None):
    """Odds of a voyage of conquest (§20.3). `conquistador`: the conquistador's value (an
    English or French conquest marker: 0); `smallpox`: the card started it (+2). Returns a
    Result: killed, nothing, conquest."""
    value = check_int("conquistador", conquistador, 0, MAX_VALUE)
    smallpox = check_bool("smallpox", smallpox)
    modifier = value + SMALLPOX * smallpox

    def summarise(joint):
        killed, nothing, won = _by_result(joint, modifier, tables.conquest_result, 3)
        return {"killed": killed, "nothing": nothing, "conquest": won}, {}

    summarise.main = "conquest"
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {"conquistador": value, "smallpox": smallpox, "modifier": modifier,
                "table": tables.CONQUEST_TABLE}
    return _solve("his.conquest", modifier, tables.NO_SECOND_ROLL, summarise, settings, method,
                  mc)


UNCHECKED = ("the tables' numbers as in the rules summary the tool was built from (§20.2-20.3), "
             "which marks them not confirmed against the printed New World display")
NO_TABLE = "no other table to try: the printed display's numbers are not in the rulebook's text"
TABLE = {"his.exploration": tables.EXPLORATION_TABLE, "his.conquest": tables.CONQUEST_TABLE}


def _table(name: str) -> Reading:
    return Reading("table", f"the {name.split('.')[1]} table", TABLE[name], UNCHECKED, none=NO_TABLE)


register(Spec(
    "his.exploration", exploration, (
        Param("explorer", "int", "the explorer's value", low=0, high=MAX_VALUE),
        Param("mercator", "bool", "Mercator's Map started the voyage (+2)"),
        Param("uncharted", "bool", "the power's first exploration: marker Uncharted (-1)"),
        Param("skip_circumnavigation", "bool", "on 10+ claim a discovery instead of trying to "
              "circumnavigate")),
    "voyage of exploration (2d6 + explorer: 7-9 discovers)",
    ("his", "exploration"), "discovery", kernels=("odds.his.new_world.kernel",),
    rolled="odds.his.new_world.rolled:exploration",
    examples=(Example("orellana, uncharted", {"explorer": 3, "uncharted": True},
                      "the rulebook's Orellana: explorer 3, first voyage (Uncharted)", demo=True),
              Example("mercator's map", {"explorer": 1, "mercator": True})),
    start={"explorer": 1}, words=WORDS, readings=(
        Reading("skip_circumnavigation", "the choice on 10+", False,
                "the player's choice on 10 or more (§20.2): the tool tries the circumnavigation",
                alternatives=(True,)), _table("his.exploration"))))
register(Spec(
    "his.conquest", conquest, (
        Param("conquistador", "int", "the conquistador's value (0: an English or French "
              "conquest marker)", low=0, high=MAX_VALUE),
        Param("smallpox", "bool", "Smallpox started the voyage (+2)")),
    "voyage of conquest (2d6 + conquistador; 9+ conquers)", ("his", "conquest"), "conquest",
    kernels=("odds.his.new_world.kernel",), rolled="odds.his.new_world.rolled:conquest",
    examples=(Example("cortes with smallpox", {"conquistador": 2, "smallpox": True},
                      "conquistador 2 with Smallpox", demo=True),),
    start={"conquistador": 1}, words=WORDS, readings=(_table("his.conquest"),)))
