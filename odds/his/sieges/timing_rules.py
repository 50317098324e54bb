"""When one held copy of Siege Artillery is played in a siege, numpy only (the exact engine
calls it on arrays, the kernel compiles it). The decision is made after seeing the roll."""
FIRST, IF_NEEDED, IF_IT_HELPS, OPTIMAL = 1, 2, 3, 4
TIMINGS = {"first": FIRST, "if-needed": IF_NEEDED, "if-it-helps": IF_IT_HELPS, "optimal": OPTIMAL}


def plays_held(timing, assault, fails, helps, best):
    """Whether the held copy is played in assault `assault` (0-based): `first` in the first
    assault, `if-needed` when the assault `fails` as the dice stand, `if-it-helps` when it
    fails and the card's dice can still make it succeed (`helps`), `optimal` where the
    dynamic programme says so (`best`)."""
    return (((timing == FIRST) & (assault == 0)) | ((timing == IF_NEEDED) & fails)
            | ((timing == IF_IT_HELPS) & fails & helps) | ((timing == OPTIMAL) & best))
