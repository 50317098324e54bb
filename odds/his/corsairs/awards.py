"""How the target pays for piracy hits (Here I Stand §16.4 step 5).

Each hit costs a squadron in or adjacent to the zone, a random card from the hand, or 1 VP to
the Ottoman (at most 10 piracy VP a game). The target must pick an award of use to the
Ottoman while one is left, and divide the hits as equally as possible between the valid
awards; which award takes an odd hit is the target's choice, given here as a preference order.
"""
import numpy as np

AWARDS = ("squadron", "card", "vp")


def split(hits, room, order):
    """(squadrons, cards, vp) paid for `hits`: `room[a]` of award a can be given; each hit
    goes to the valid award given least so far, ties by `order` (indexes into AWARDS)."""
    given = [0, 0, 0]
    for _ in range(hits):
        valid = [a for a in order if given[a] < room[a]]
        if not valid:
            break  # nothing left of use to the Ottoman
        given[min(valid, key=lambda a: given[a])] += 1
    return tuple(given)


def award_table(max_hits, room, order) -> np.ndarray:
    """table[hits, award]: what `hits` piracy hits cost the target."""
    return np.array([split(h, room, order) for h in range(max_hits + 1)], dtype=float)
