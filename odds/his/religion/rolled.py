"""A Reformation or Counter-Reformation action's rolls as a game's record gives them
(core.rolled): per attempt, the attacker's dice and the defender's, read by their numbers
(`attacker_dice`, `defender_dice`; the attacker is the side attempting: the Protestant in a
Reformation, the Papacy in a Counter-Reformation); with several attempts, one list per attempt
(`attacker_dice = [[6, 2], [3, 3]]`). Each side's highest die counts, the attacker's modified
(a Full Bible, Augsburg); a highest that succeeds automatically leaves the defender no roll
(give it none, or []); religion/rules.py's `settle` decides, as in both engines. One attempt
is won or lost; an action of several is scored by the spaces it flipped."""
from __future__ import annotations

from ...core.rolled import Outcome, numbered_die
from .attempt import Action, CATHOLIC, PROTESTANT, side_dice
from .rules import settle

DIE = numbered_die()


def situation(keywords: dict) -> tuple:
    """(attacker's dice, defender's dice, Terms, attempts) of an action's keywords, as
    `reformation_attempt` sets them up."""
    kw = keywords
    act = Action.make(kw["side"], kw["printing_press"], kw["theses"], kw["debater_dice"],
                      kw["bible"], kw["augsburg"], kw["pope"])
    protestant = side_dice("protestant_dice", kw["protestant_dice"], {k: kw[k] for k in PROTESTANT})
    catholic = side_dice("papal_dice", kw["papal_dice"], {k: kw[k] for k in CATHOLIC})
    a, d = act.dice(*((protestant, catholic) if act.reform else (catholic, protestant)))
    return a, d, act.terms(not kw["outside_zone"]), act.attempts(kw["attempts"])


def read(keywords: dict, record) -> Outcome:
    """attacker_dice, defender_dice (the highest counts; none for the defender after an
    automatic 6), a list per attempt."""
    a, d, terms, attempts = situation(keywords)
    flipped, first = 0, None
    for k in range(attempts):
        high = max(record.dice("attacker_dice", "attacker", a, DIE, k)) + terms.attacker_modifier
        automatic = high >= terms.automatic_on
        low = 0 if automatic else max(record.dice("defender_dice", "defender", d, DIE, k))
        flips, _ = settle(high, low, terms.automatic_on, terms.attacker_wins_ties)
        flipped += int(flips)
        first = first or (int(high), int(low))
    counts = {"spaces_flipped": flipped, "attacker_highest": first[0], "defender_highest": first[1]}
    if attempts == 1:
        return Outcome(bool(flipped), counts)
    return Outcome(None, counts, dealt={"attacker": "spaces_flipped"})
