"""The New World's tables (Here I Stand §20.2-20.4), as functions of a modified roll.

Written with plain comparisons so the exact engines (numpy arrays) and the kernels (numba
scalars) share them.
"""
# Exploration (§20.2): 4 or less lost at sea, 5-6 nothing, 7-9 a discovery, 10+ deep south
LOST, NOTHING, DISCOVERY, DEEP = 0, 1, 2, 3
CIRCUMNAVIGATES = 10  # the circumnavigation roll succeeds on 10+, and draws a card on 12+
CIRCUMNAVIGATION_CARD = 12
# Conquest (§20.3): 6 or less killed by natives, 7-8 nothing, 9+ a conquest
KILLED, NO_CONQUEST, CONQUEST = 0, 1, 2
NO_SECOND_ROLL = 99  # a first roll never reaches this: no second roll
# the tables in words, for the settings line: their numbers are the summary of the rulebook the
# tool was built from, not checked against the printed New World display (a reading)
EXPLORATION_TABLE = ("lost <= 4, nothing 5-6, discovery 7-9, deep 10+; "
                     f"circumnavigates {CIRCUMNAVIGATES}+, a card {CIRCUMNAVIGATION_CARD}+")
CONQUEST_TABLE = "killed <= 6, nothing 7-8, conquest 9+"


def exploration_result(roll):
    """0 lost, 1 nothing, 2 discovery, 3 deep (10+) for a modified exploration roll."""
    return (roll >= 5) * 1 + (roll >= 7) * 1 + (roll >= 10) * 1


def conquest_result(roll):
    """0 killed, 1 nothing, 2 conquest for a modified conquest roll."""
    return (roll >= 7) * 1 + (roll >= 9) * 1


def raider_roll(die, galleons):
    """(card stolen, raider eliminated) for a raider's die (§20.4): 1 eliminated; 2
    eliminated if the Hapsburgs have Galleons; 3-4 nothing; 5 steals and retires; 6 steals
    and stays."""
    stolen = (die >= 5) * 1
    gone = (die == 1) * 1 + (die == 2) * galleons + (die == 5) * 1
    return stolen, gone
