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
              ("attacker_win", "defender_win", "undecided"),
              ("won", "wiped_out", "not_over"), ("lost", "nothing", "discovery", "deep"),
              ("killed", "nothing", "conquest"))

# the outcomes an event is a part of, by event: the summary indents it under the first of them
# that the result's partition has, else lists it apart (tests/test_summary.py checks every
# example's joint, cell by cell)
WITHIN = {"attacker_eliminated": ("withdraw",), "defender_retreats": ("attacker_win",),
          "siege_begins": ("attacker_win",),
          "leaders_captured": ("success",), "leaders_displaced": ("withdraw",),
          "ended_by_turn_limit": ("undecided",)}
WITHIN_PREFIX = {"win_within_losses_": ("attacker_win",)}

# what an event means, where its name does not say it (by (procedure, event) where it differs)
WHY = {"automatic": "the attacker's highest modified die was 6 or more in the target zone: the "
                     "defender did not roll",
       "both_eliminated_rule": "both sides wiped out: the side that rolled more dice kept one "
                               "unit, the defender on equal dice",
       "both_destroyed_rule": "both fleets destroyed: the side that rolled more dice kept one "
                              "ship, the defender on equal dice",
       "siege_begins": "the attacker won and has more units left than withdrew inside",
       ("his.attack", "siege_begins"): "the battle was avoided (the whole stack besieges the "
                                       "space) or won with more units left than withdrew inside"}


def within(event: str, outcomes) -> str | None:
    """The outcome among `outcomes` that `event` is a part of (WITHIN), or None."""
    parents = WITHIN.get(event) or next(
        (v for prefix, v in WITHIN_PREFIX.items() if event.startswith(prefix)), ())
    return next((o for o in parents if o in outcomes), None)


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
