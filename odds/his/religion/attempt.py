"""Reformation and Counter-Reformation attempts (Here I Stand §18.3-18.4): exact engine and API.

One action makes `attempts` attempts against spaces with the same dice (each space is a
target once an impulse, so these are different spaces alike in their dice; `rank_targets`
takes spaces that differ). Outcome joint: ``joint[spaces flipped, automatic successes,
attacker's highest modified die in the first attempt, defender's highest in it (0: did not
roll)]``; the kernel (kernel.py) fills the same joint by drawing each side's highest die.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...core.result import Result
from ...errors import OddsError, check_bool, check_choice, check_int
from ...i18n import N_, _, ngettext
from ...registry import Example, Param, Spec, register
from .rules import NEVER, base_dice, dice, settle

KERNEL = "odds.his.religion.kernel"
SIDES = ("reformation", "counter-reformation")
NAMES = {"reformation": "his.reformation", "counter-reformation": "his.counter_reformation"}
POPES = ("leo-x", "clement-vii", "paul-iii", "julius-iii")
STRONG_POPES = ("paul-iii", "julius-iii")  # the Papacy's automatic success and ties (§18.4)
MAX_DICE = 20  # a side's dice: the neighbourhood gives at most about a dozen
MAX_ATTEMPTS = 10  # one action: 2-3 (treatise, burning books) to 6 (translations, events)
DEBATER_DICE = {"reformation": 1, "counter-reformation": 2}  # a debater's bonus dice at most
# (§18.3 step 3: +1; §18.4 step 3: 1 or 2)
DEBATER_RULE = "0 to 1 for a reformation, 0 to 2 for a counter-reformation: §18.3-18.4 step 3"
OMIT = {"reformation": ("augsburg", "pope"),  # each side's procedure: the other side's cards
        "counter-reformation": ("printing_press", "theses", "bible")}
HIGH = 8  # the attacker's highest modified die: 0 (a 1 under Augsburg) to 7 (a 6 with +1)
LOW = 7  # the defender's highest: 1-6, and 0 when the attempt succeeded automatically
PROTESTANT = ("adjacent_protestant", "adjacent_reformers", "adjacent_protestant_stacks",
              "reformer_in_space", "protestant_stack_in_space")
CATHOLIC = ("adjacent_catholic", "adjacent_universities", "adjacent_catholic_stacks",
            "university_in_space", "catholic_stack_in_space")

WORDS = Words("Succeeds", why={
    "automatic": "the attacker's highest modified die was 6 or more in the target zone: the "
                 "defender did not roll"})  # an attempt's and the ranking's (ranking.py)


@dataclass(frozen=True)
class Terms:
    """What the side, the zone and the cards make of an attempt: the modifier to each of the
    attacker's dice (the defender's are never modified), the highest die that succeeds
    automatically (NEVER: none) and whether the attacker wins ties (1) or loses them (0)."""

    attacker_modifier: int
    automatic_on: int
    attacker_wins_ties: int

    @classmethod
    def of(cls, side, in_zone, bible=False, augsburg=False, pope="leo-x"):
        if side == "reformation":  # §18.3 steps 4, 5 and 8: all within the target zone
            return cls(int(bible and in_zone), 6 if in_zone else NEVER, int(in_zone))
        strong = in_zone and pope in STRONG_POPES  # §18.4 steps 4, 5 and 8
        return cls(-int(augsburg), 6 if strong else NEVER, int(strong))


THESES_ATTEMPTS = 5  # Luther's 95 Theses: 5 Reformation attempts (§18.3)
ATTEMPTS_HELP = (f"(default: {THESES_ATTEMPTS} with the 95 Theses, the event's attempts, §18.3; "
                 "else 1)")


@dataclass(frozen=True)
class Action:
    """The side making the attempts and what holds for all of them: its bonus dice and cards."""

    side: str
    bonus: int
    bible: bool
    augsburg: bool
    pope: str
    theses: bool = False

    def attempts(self, attempts) -> int | None:
        """The attempts given, else the event's: 5 for Luther's 95 Theses (§18.3), else 1."""
        if attempts is not None:
            return attempts
        return THESES_ATTEMPTS if self.theses else 1

    @property
    def reform(self) -> bool:
        return self.side == "reformation"

    @classmethod
    def make(cls, side, printing_press, theses, debater_dice, bible, augsburg, pope):
        """Validated: each card only where it applies (one line naming it otherwise)."""
        side = check_choice("side", side, SIDES)
        reform = side == "reformation"
        flags = {k: check_bool(k, v) for k, v in (("printing_press", printing_press),
                 ("theses", theses), ("bible", bible), ("augsburg", augsburg))}
        for name in (("augsburg",) if reform else ("printing_press", "theses", "bible")):
            if flags[name]:
                raise OddsError((_("{name}: applies to a Counter-Reformation attempt only (allowed: "
                                   "False for a {side})") if reform else
                                 _("{name}: applies to a Reformation attempt only (allowed: False "
                                   "for a {side})")).format(name=name, side=side))
        debater = check_int("debater_dice", debater_dice, 0, max(DEBATER_DICE.values()))
        if debater > DEBATER_DICE[side]:
            raise OddsError(_("debater_dice: {n} is out of range (allowed: 0 to {most} for a {side}, "
                              "§18.{section} step 3)").format(n=debater, most=DEBATER_DICE[side], side=side,
                                                              section=3 if reform else 4))
        return cls(side, flags["printing_press"] + flags["theses"] + debater, flags["bible"],
                   flags["augsburg"], check_choice("pope", pope, POPES), flags["theses"])

    def dice(self, attacker_base, defender_base) -> tuple:
        """(attacker's dice, defender's dice) from their base dice: at least 1, and the
        attacker's bonus dice."""
        return int(dice(attacker_base, self.bonus)), int(dice(defender_base, 0))

    def terms(self, in_zone) -> Terms:
        return Terms.of(self.side, in_zone, self.bible, self.augsburg, self.pope)


def highest_pmf(n: int, modifier: int, size: int) -> np.ndarray:
    """pmf of the highest of `n` dice plus `modifier`, indexed by the modified value."""
    faces = np.arange(1, 7)
    pmf = np.zeros(size)
    pmf[faces + modifier] = (faces / 6.0) ** n - ((faces - 1) / 6.0) ** n
    return pmf


def first_attempt(a: int, d: int, terms: Terms) -> tuple:
    """(P[attacker highest, defender highest], flipped, automatic) of one attempt with `a`
    and `d` dice; the defender's highest is 0 where the attempt succeeded automatically."""
    high = np.arange(HIGH)[:, None]
    low = np.arange(LOW)[None, :]
    flipped, automatic = settle(high, low, terms.automatic_on, terms.attacker_wins_ties)
    attacker = highest_pmf(a, terms.attacker_modifier, HIGH)
    defender = highest_pmf(d, 0, LOW)  # 1-6: index 0 is free for 'did not roll'
    cells = attacker[:, None] * defender[None, :]
    auto_rows = attacker * (np.arange(HIGH) >= terms.automatic_on)
    cells[auto_rows > 0] = 0.0
    cells[:, 0] += auto_rows  # no defender roll
    return cells, flipped * (low > 0) + automatic * (low == 0), automatic * (low == 0)


def flip_probability(a: int, d: int, terms: Terms) -> float:
    """P(one attempt with `a` attacker and `d` defender dice flips the space)."""
    cells, flipped, _ = first_attempt(a, d, terms)
    return float((cells * flipped).sum())


def exact_joint(a: int, d: int, terms: Terms, attempts: int) -> np.ndarray:
    """The joint outcome distribution (module docstring) of `attempts` alike attempts."""
    cells, flipped, automatic = first_attempt(a, d, terms)
    p_auto = float((cells * automatic).sum())
    p_flip = float((cells * flipped).sum()) - p_auto
    step = np.zeros((2, 2))
    step[0, 0], step[1, 0], step[1, 1] = 1 - p_auto - p_flip, p_flip, p_auto
    rest = np.zeros((attempts + 1, attempts + 1))
    rest[0, 0] = 1.0
    for _ in range(attempts - 1):  # the other attempts: (flips, automatic) convolved
        grown = np.zeros_like(rest)
        for (f, u), w in np.ndenumerate(step):
            grown[f:, u:] += w * rest[: attempts + 1 - f, : attempts + 1 - u]
        rest = grown
    joint = np.zeros((attempts + 1, attempts + 1, HIGH, LOW))
    for f in range(2):
        for u in range(f + 1):
            first = cells * ((flipped == f) & (automatic == u))
            joint[f:, u:] += rest[: attempts + 1 - f, : attempts + 1 - u, None, None] * first
    return joint


def summarise(joint):
    """P(an attempt flips the space), P(it succeeds automatically); the pmfs of the spaces
    flipped by the action and of each side's highest modified die in one attempt."""
    add = np.add.reduce
    n = joint.shape[0] - 1
    flipped = add(add(add(joint, axis=3), axis=2), axis=1)
    automatic = add(add(add(joint, axis=3), axis=2), axis=0)
    return ({"success": np.dot(np.arange(n + 1), flipped) / n,
             "automatic": np.dot(np.arange(n + 1), automatic) / n},
            {"spaces_flipped": flipped,
             "attacker_highest": add(add(add(joint, axis=3), axis=1), axis=0),
             "defender_highest": add(add(add(joint, axis=2), axis=1), axis=0)})


class AttemptResult(Result):
    """A Result whose defender's highest die 0 means the defender did not roll."""

    ZERO = {"defender_highest": N_("no roll")}


def side_dice(name, given, items) -> int:
    """A side's base dice: `given` directly, or counted from its neighbourhood `items`
    (name -> value; never both)."""
    given = check_int(name, given, 0, MAX_DICE)
    counts = {k: (check_bool(k, v) if k.endswith("_in_space") else check_int(k, v, 0, MAX_DICE))
              for k, v in items.items()}
    if given and any(counts.values()):
        named = ", ".join(k for k, v in counts.items() if v)
        raise OddsError(_("{name}: {given} given with {named} (allowed: the dice or the "
                          "neighbourhood, not both)").format(name=name, given=given, named=named))
    total = given or base_dice(*(int(v) for v in counts.values()))
    if total > MAX_DICE:
        raise OddsError(f"{name}: the neighbourhood gives {total} dice (allowed: at most "
                        f"{MAX_DICE})")
    return total


def reformation_attempt(*, side="reformation", protestant_dice=0, papal_dice=0,
                        adjacent_protestant=0, adjacent_reformers=0,
                        adjacent_protestant_stacks=0, reformer_in_space=False,
                        protestant_stack_in_space=False, adjacent_catholic=0,
                        adjacent_universities=0, adjacent_catholic_stacks=0,
                        university_in_space=False, catholic_stack_in_space=False,
                        printing_press=False, theses=False, debater_dice=0, bible=False,
                        augsburg=False, pope="leo-x", outside_zone=False, attempts=None,
                        method="auto", trials=None, seed=None, precision=None,
                        max_trials=10**9, threads=None, progress=None):
    """Odds of Reformation (`side` 'reformation') or Counter-Reformation attempts.

    Each side's base dice are given (`protestant_dice`, `papal_dice`) or counted from the
    neighbourhood (adjacent spaces, reformers or Jesuit universities, stacks; a reformer,
    university or stack in the space counts 2); at least 1. Bonus dice: `printing_press`,
    `theses` (an attempt of Luther's 95 Theses), `debater_dice` (the attacker's debater).
    `bible`: +1 to each Protestant die (Calvin's Institutes, a Full Bible); `augsburg`: -1 to
    each Papal die of a Counter-Reformation; `pope`: Paul III or Julius III gives the Papacy
    ties and the automatic 6 in the zone; `outside_zone`: the space is outside the action's
    target language zone (no ties, no +1, no automatic 6 for the attacker there).
    `attempts` alike attempts in one action (default: the event's, 5 for the 95 Theses, else
    1). Returns a Result: success (one attempt), automatic,
    pmfs spaces_flipped, attacker_highest, defender_highest.
    """
    act = Action.make(side, printing_press, theses, debater_dice, bible, augsburg, pope)
    outside = check_bool("outside_zone", outside_zone)
    attempts = check_int("attempts", act.attempts(attempts), 1, MAX_ATTEMPTS)
    protestant = side_dice("protestant_dice", protestant_dice, dict(zip(PROTESTANT, (
        adjacent_protestant, adjacent_reformers, adjacent_protestant_stacks, reformer_in_space,
        protestant_stack_in_space))))
    catholic = side_dice("papal_dice", papal_dice, dict(zip(CATHOLIC, (
        adjacent_catholic, adjacent_universities, adjacent_catholic_stacks, university_in_space,
        catholic_stack_in_space))))
    a, d = act.dice(*((protestant, catholic) if act.reform else (catholic, protestant)))
    terms = act.terms(not outside)
    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    settings = {"side": act.side, "attacker_dice": a, "defender_dice": d, "in_zone": not outside,
                "attacker_modifier": terms.attacker_modifier, "attempts": attempts}
    if not act.reform:
        settings["pope"] = act.pope

    def kernel_args():
        from .kernel import highest_args

        return highest_args(max(a, d), a, d, terms.attacker_modifier, terms.automatic_on,
                            terms.attacker_wins_ties, attempts)

    proc = Procedure(NAMES[act.side], (attempts + 1, attempts + 1, HIGH, LOW), summarise, "success",
                     lambda: exact_joint(a, d, terms, attempts),
                     (KERNEL, "attempt_lane"), kernel_args, settings,
                     result_type=AttemptResult, explain=explain(act.side, a, d, act.bonus, terms), words=WORDS)
    return solve(proc, method, mc)


def explain(side, a, d, bonus, terms) -> tuple:
    """The dice each side rolls, and who wins ties, in words."""
    mine, theirs = (N_("Protestant"), N_("Papal")) if side == "reformation" else (N_("Papal"), N_("Protestant"))
    mod = _(", {n:+d} a die").format(n=terms.attacker_modifier) if terms.attacker_modifier else ""
    extra = _(" ({n} bonus)").format(n=bonus) if bonus else ""
    ties = mine if terms.attacker_wins_ties else theirs
    auto = _("; a 6 succeeds before the defender rolls") if terms.automatic_on != NEVER else ""
    rolled = ngettext("{side} {n} die", "{side} {n} dice", a).format(side=_(mine), n=a)
    return (_("{rolled}{extra}{mod} against {theirs} {d}; highest die wins, ties to the {ties} side"
              ).format(rolled=rolled, extra=extra, mod=mod, theirs=_(theirs), d=d, ties=_(ties)) + auto,)


def _params(side: str) -> tuple:
    """The keywords of `side`'s procedure (the other side's cards left out)."""
    return tuple(p for p in _all_params(side) if p.name not in OMIT[side])


def _all_params(side: str) -> tuple:
    dice_help = ("dice from the neighbourhood counted by you, before the minimum of 1 and the "
                 "bonus dice (instead of the items below; 0: count them)")
    return (
        Param("protestant_dice", "int", f"Protestant {dice_help}", low=0, high=MAX_DICE,
              clears=PROTESTANT),
        Param("papal_dice", "int", f"Papal {dice_help}", low=0, high=MAX_DICE, clears=CATHOLIC),
        *_neighbourhood("protestant", "reformer", "reformers", "reformer"),
        *_neighbourhood("catholic", "university", "universities", "Jesuit university"),
        *card_params(DEBATER_DICE[side]),
        Param("outside_zone", "bool", "the space is outside the action's target language zone "
              "(the attacker loses ties there and gets no +1 nor automatic 6)"),
        Param("attempts", "int", "attempts in the action against spaces with these dice "
              + ATTEMPTS_HELP, low=1, high=MAX_ATTEMPTS))


def _neighbourhood(religion, source, sources, what) -> tuple:
    """The five neighbourhood items of a religion's dice (§18.3 step 2, §18.4 step 2)."""
    title = religion.capitalize()
    dice = ("protestant_dice" if religion == "protestant" else "papal_dice",)  # given, or these
    return (
        Param(f"adjacent_{religion}", "int", f"adjacent spaces under {title} influence (not "
              "across a pass, not in unrest)", low=0, high=MAX_DICE, clears=dice),
        Param(f"adjacent_{sources}", "int", f"adjacent {what.replace(source, sources)}", low=0,
              high=MAX_DICE, clears=dice),
        Param(f"adjacent_{religion}_stacks", "int", f"adjacent stacks of {title} land units",
              low=0, high=MAX_DICE, clears=dice),
        Param(f"{source}_in_space", "bool", f"a {what} in the space (2 dice)", clears=dice),
        Param(f"{religion}_stack_in_space", "bool", f"{title} land units in the space (2 dice)",
              clears=dice))


def card_params(debater_high: int) -> tuple:
    """The keywords of the cards and bonuses that hold for every attempt of an action."""
    return (
        Param("printing_press", "bool", "Printing Press played this turn (+1 Protestant die)"),
        Param("theses", "bool", "attempts of Luther's 95 Theses (+1 die)"),
        Param("debater_dice", "int", f"the attacker's debater bonus dice ({DEBATER_RULE})",
              low=0, high=debater_high),
        Param("bible", "bool", "attempts of Calvin's Institutes or a Full Bible translation "
              "(+1 to each Protestant die in the target zone)"),
        Param("augsburg", "bool", "Augsburg Confession played this turn (-1 to each Papal die of "
              "a Counter-Reformation)"),
        Param("pope", "choice", "the Papal ruler (Paul III or Julius III: the Papacy wins ties "
              "and a 6 succeeds in the target zone)", choices=POPES))


REFORMATION_EXAMPLES = (
    Example("1 v 1", {"protestant_dice": 1, "papal_dice": 1}),
    Example("95 theses: stettin", {"adjacent_protestant": 1, "adjacent_protestant_stacks": 1,
                                   "theses": True, "adjacent_catholic": 1, "attempts": 5},
            title="Stettin in the rulebook's example, five attempts alike", demo=True),
    Example("full bible outside the zone", {"protestant_dice": 3, "papal_dice": 2,
                                            "bible": True, "outside_zone": True}))
COUNTER_EXAMPLES = (
    Example("paul iii, burn books", {"papal_dice": 3, "protestant_dice": 2, "pope": "paul-iii",
                                     "attempts": 2},
            title="burning books under Paul III: two attempts, 3 dice against 2", demo=True),
    Example("augsburg", {"papal_dice": 3, "protestant_dice": 1, "augsburg": True,
                         "debater_dice": 2}))


register(Spec(NAMES["reformation"], reformation_attempt, _params("reformation"),
              "Reformation attempts (§18.3): highest die wins",
              ("his", "reformation"), "success", kernels=(KERNEL,),
              preset={"side": "reformation"}, omit=OMIT["reformation"],
              examples=REFORMATION_EXAMPLES, start={"protestant_dice": 2, "papal_dice": 1}, words=WORDS,
              rolled="odds.his.religion.rolled:read"))
register(Spec(NAMES["counter-reformation"], reformation_attempt, _params("counter-reformation"),
              "Counter-Reformation attempts (§18.4): highest die wins",
              ("his", "counter-reformation"), "success",
              kernels=(KERNEL,),
              preset={"side": "counter-reformation"},
              omit=OMIT["counter-reformation"], examples=COUNTER_EXAMPLES,
              start={"papal_dice": 2, "protestant_dice": 1}, words=WORDS,
              rolled="odds.his.religion.rolled:read"))
