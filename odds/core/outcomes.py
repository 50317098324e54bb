"""What a result's events mean in words: the headline of the main probability, the sets of
events that partition an outcome (they sum to 1), and what an event means where its name does
not say it. Read by Result.summary and by the pictures (odds.plot), so neither imports the
other for them."""
from __future__ import annotations

HEADLINES = {"attacker_win": "Attacker wins", "success": "Succeeds", "captured": "Captured"}

# events that partition a procedure's outcome (the first set whose names a result has)
PARTITIONS = (("success", "siege_continues", "withdraw", "cancelled"),
              ("captured", "siege_broken", "still_besieged"),
              ("battle_avoided", "battle_lost", "battle_won"),
              ("attacker_win", "defender_win", "undecided"))

# what an event means, where its name does not say it
WHY = {"both_eliminated_rule": "both sides wiped out: the side that rolled more dice kept one "
                               "unit, the defender on equal dice",
       "both_destroyed_rule": "both fleets destroyed: the side that rolled more dice kept one "
                              "ship, the defender on equal dice",
       "siege_begins": "the attacker won and has more units left than withdrew inside"}


def partition(result) -> list:
    """(name, probability) of the events that partition the outcome (they sum to 1): a known
    set, else attacker wins / defender wins; [] when the result has neither."""
    p = result.probabilities
    for names in PARTITIONS:
        if all(n in p for n in names):
            return [(n, p[n]) for n in names]
    if "attacker_win" in p:
        return [("attacker_win", p["attacker_win"]), ("defender_win", 1 - p["attacker_win"])]
    return []


def headline(main: str) -> str:
    """The answer in words for the main probability ("Attacker wins")."""
    return HEADLINES.get(main, label(main).capitalize())


def label(name: str) -> str:
    """A probability's or pmf's name in words ("attacker_win" -> "attacker win")."""
    return name.replace("_", " ")
