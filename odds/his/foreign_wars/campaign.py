"""Foreign wars (Here I Stand §21.7): exact engine and API.

Each Fight Foreign War action costs 1 CP and is a field battle between the power's units on the
card (dice: units + the leader's battle rating) and the foreign units (dice: units; nobody is a
defender, so no extra die), hits on 5-6, losses and the both-wiped-out rule as on the map, and
no retreat. Survivors stay on the card for the next attempt; the war is over when the foreign
units are gone. Reading: no units are built onto the card between attempts. The chain is
followed for `attempts` actions; what is still undecided then is reported (`not_over`), never
dropped. The cards' forces (WARS) are presets, chosen by `war`. Outcome joint:
``joint[end (0 won, 1 wiped out, 2 not over), CP spent, units left]``; the kernel
(kernel.war_lane) fills the same joint.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.dice import binomial_pmf
from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...core.readings import Reading
from ...core.result import Result
from ...errors import check_choice, check_int
from ...registry import Example, Param, Spec, register
from .. import leaders
from ..leaders import MAX_LEADER
from ... import i18n
from ...i18n import N_, _
from ..cards import dice as dice_words, units as unit_words
from ..field.rules import dice, resolve

@dataclass(frozen=True)
class War:
    """A foreign war card's forces: the power's units against the foreign units (a reading of
    the event text, not of the rulebook)."""

    title: str
    power: str
    units: int
    foreign: int


WARS = {"egypt": War(N_("Revolt in Egypt"), N_("Ottoman"), 3, 3),
        "ireland": War(N_("Revolt in Ireland"), N_("English"), 4, 3),  # 4 foreign if France or the
        # Hapsburgs add one: give foreign=4
        "persia": War(N_("War in Persia"), N_("Ottoman"), 5, 4)}
DEFAULT_UNITS = 3  # each side's units when neither the war nor the units are given
MAX_UNITS = 12
MAX_ATTEMPTS = 60
WON, WIPED, NOT_OVER = 0, 1, 2

WORDS = Words(partitions=(("won", "wiped_out", "not_over"),))


def exact_joint(units, foreign, leader, attempts) -> np.ndarray:
    """joint[end, cp, units left]: the Markov chain over (units, foreign units) per attempt."""
    joint = np.zeros((3, attempts + 1, units + 1))
    alive = {(units, foreign): 1.0}
    for cp in range(1, attempts + 1):
        nxt = {}
        for (a, d), p in alive.items():
            adice, ddice = dice(a, leader, 0, False)[0], dice(d, 0, 0, False)[0]
            ah, dh = np.meshgrid(np.arange(adice + 1), np.arange(ddice + 1), indexing="ij")
            w = np.outer(binomial_pmf(adice), binomial_pmf(ddice)) * p
            _, al, dl = resolve(ah, dh, adice, ddice, a, d)
            for a2, d2, q in zip((a - al).ravel(), (d - dl).ravel(), w.ravel()):
                if d2 == 0:
                    joint[WON, cp, a2] += q
                elif a2 == 0:
                    joint[WIPED, cp, 0] += q
                else:
                    nxt[a2, d2] = nxt.get((a2, d2), 0.0) + q
        alive = nxt
    for (a, _d), p in alive.items():
        joint[NOT_OVER, attempts, a] += p
    return joint


def summarise(joint):
    """P(won, wiped out, not over within the bound); pmfs cp_to_win (k >= 1: won with exactly
    k CP; entry 0: not won: wiped out, or not over within the bound) and units_left at the end."""
    add = np.add.reduce
    won = add(joint[WON], axis=1)
    lost = add(joint[WIPED].reshape(-1)) + add(joint[NOT_OVER].reshape(-1))
    return ({"won": add(won), "wiped_out": add(joint[WIPED].reshape(-1)),
             "not_over": add(joint[NOT_OVER].reshape(-1))},
            {"cp_to_win": np.r_[lost, won[1:]],
             "units_left": add(add(joint, axis=0), axis=0)})


@dataclass(frozen=True)
class WarResult(Result):
    """A Result that also reports `won_within`: N -> P(the war is won within N CP)."""

    ZERO = {"cp_to_win": N_("not won (wiped out, or not over)")}

    @property
    def won_within(self) -> dict:
        return {k: float(v) for k, v in enumerate(np.cumsum(self.pmfs["cp_to_win"][1:]), 1)}


def setup(war, units, foreign, leader, attempts) -> tuple:
    """(the War card or None, the forces read from it, units, foreign units, the Leader,
    attempts) of a war's keywords, validated."""
    card = None if war is None else WARS[check_choice("war", war, tuple(WARS))]
    from_card = tuple(k for k, v in (("units", units), ("foreign", foreign)) if card and v is None)
    units = check_int("units", DEFAULT_UNITS if units is None and card is None
                      else card.units if units is None else units, 1, MAX_UNITS)
    foreign = check_int("foreign", DEFAULT_UNITS if foreign is None and card is None
                        else card.foreign if foreign is None else foreign, 1, MAX_UNITS)
    best = leaders.leader("leader", leader, leaders.ARMY)
    return card, from_card, units, foreign, best, check_int("attempts", attempts, 1, MAX_ATTEMPTS)


def foreign_war(*, war=None, units=None, foreign=None, leader=0, attempts=20, method="auto",
                trials=None, seed=None, precision=None, max_trials=10**9, threads=None,
                progress=None):
    """Odds of fighting a foreign war to its end (§21.7), 1 CP per attempt: `units` of the
    power against `foreign` units, or the forces of the card `war` names (`WARS`: egypt,
    ireland, persia; `units`/`foreign` given with it replace the card's); neither: 3 against
    3. `leader`: the army leader on the card (a battle rating or a name); `attempts`: the CP
    followed (what is undecided then is `not_over`). Returns a Result: won, wiped_out,
    not_over; pmfs cp_to_win (k: won with exactly k CP; entry 0: not won within `attempts`)
    and units_left (at the end); `won_within[N]`: P(won within N CP)."""
    card, from_card, units, foreign, best, attempts = setup(war, units, foreign, leader, attempts)

    def kernel_args():
        from .kernel import kernel_args

        return kernel_args(units, foreign, best.rating, attempts)

    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {**({"war": card.title} if card else {}), "units": units, "foreign": foreign,
                "leader": str(best), "attempts": attempts}
    proc = Procedure("his.foreign_war", (3, attempts + 1, units + 1), summarise, "won",
                     lambda: exact_joint(units, foreign, best.rating, attempts),
                     ("odds.his.foreign_wars.kernel", "war_lane"), kernel_args, settings,
                     result_type=WarResult, words=WORDS,
                     explain=(forces(card, units, foreign, from_card, best),))
    return solve(proc, method, mc)


GIVEN_APART = {"units": N_("the card's units, the foreign units given"),
               "foreign": N_("the card's foreign units, the power's units given")}


def forces(card, units, foreign, from_card, leader) -> str:
    """The forces in words: the card's (READINGS) or those given."""
    whose = (_("{units} of the {power}").format(units=unit_words(units), power=_(card.power)) if card
             else _("{units} of the power").format(units=unit_words(units)))
    source = (f"{_(card.title)}: " if card else "") + (
        _("the card's forces") if len(from_card) == 2 else
        _(GIVEN_APART[from_card[0]]) if from_card else _("the forces given"))
    return _("{source}: {whose} against {foreign}; each attempt (1 CP) is a field battle, "
             "{dice} against {against}, no defender die, no retreat").format(
        source=source, whose=whose,
        foreign=i18n.npgettext("his", "{n} foreign unit", "{n} foreign units", foreign).format(n=foreign),
        dice=_("{dice} ({units} + the leader's {rating})").format(
            dice=dice_words(units + leader.rating), units=units, rating=leader.rating),
        against=foreign)


CARDS = ("the event cards' forces as paraphrased in the rules summary the tool was built from "
         "(its [C] items), not the rulebook's text")


def _card_force(keyword: str, what: str) -> Reading:
    """A force the war card gives: read from the card when `war` is named and it is not given;
    one unit fewer and one more are tried."""
    def shown(call):
        return getattr(WARS[call["war"]], keyword) if call["war"] in WARS else None

    def points(call):
        n = call[keyword] if isinstance(call[keyword], int) else shown(call)
        return [(f"{keyword}={m}", {keyword: m}) for m in (n - 1, n + 1) if n and 1 <= m <= MAX_UNITS]

    return Reading(keyword, what, "the card's: " + ", ".join(
        f"{k} {getattr(w, keyword)}" for k, w in WARS.items()), CARDS, shown=shown, points=points,
        tried="one unit fewer, one more",
        when=lambda call: call["war"] is not None)


READINGS = (_card_force("units", "the card's units"), _card_force("foreign", "the card's foreign units"))

register(Spec(
    "his.foreign_war", foreign_war, (
        Param("war", "choice", "the foreign war card, for its forces (as read from the cards: "
              + "; ".join(f"{k}: {w.title}, {w.units} {w.power} against {w.foreign}"
                          for k, w in WARS.items()) + ")", choices=tuple(WARS),
              clears=("units", "foreign")),
        Param("units", "int", f"the power's land units on the card (default: the war's, else "
              f"{DEFAULT_UNITS})", low=1, high=MAX_UNITS),
        Param("foreign", "int", f"the foreign (independent) units on the card (default: the "
              f"war's, else {DEFAULT_UNITS})", low=1, high=MAX_UNITS),
        Param("leader", "leader", "the army leader on the card: a battle rating or a name",
              low=0, high=MAX_LEADER, choices=leaders.choices(), metavar="R|NAME"),
        Param("attempts", "int", "Fight Foreign War actions (1 CP each) followed", low=1,
              high=MAX_ATTEMPTS)),
    "a foreign war fought to its end, 1 CP a battle",
    ("his", "foreign-war"), "won", kernels=("odds.his.foreign_wars.kernel",),
    rolled="odds.his.foreign_wars.rolled:read",
    examples=tuple(Example(w.title.lower(), {"war": name}, f"{w.title}: {w.units} {w.power} "
                                 f"units against {w.foreign}, no leader",
                           demo=name == "persia") for name, w in WARS.items()),
    start={"war": "persia"}, words=WORDS, readings=READINGS, means=("units_left",)))
