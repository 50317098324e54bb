"""Reformation and Counter-Reformation attempts (Here I Stand §18.3-18.4): the rule, numpy only.

Each side rolls its dice and keeps its highest single die, modified (+1 a die for Calvin's
Institutes or a Full Bible in the target zone; -1 a Papal die under the Augsburg Confession).
The attempt flips the space when the attacker's highest beats the defender's, or equals it
where the attacker wins ties; a highest of `automatic_on` or more succeeds without the
defender rolling. Written with ufunc-style operations so the exact engine (arrays) and the
kernels (numba scalars, through core.jit.rule) share it.
"""

NEVER = 99  # `automatic_on` when no roll succeeds automatically


def base_dice(adjacent_spaces, adjacent_sources, adjacent_stacks, source_in_space,
              stack_in_space):
    """A side's dice from the neighbourhood before the minimum of 1: one a die for each
    adjacent space of its religion, adjacent reformer (Jesuit university) and adjacent stack of
    its land units; two for a reformer (university) in the space and two for its stack there."""
    return (adjacent_spaces + adjacent_sources + adjacent_stacks + 2 * source_in_space
            + 2 * stack_in_space)


def dice(base, bonus):
    """Dice rolled: the base, at least 1, plus the bonus dice (Printing Press, 95 Theses, a
    debater)."""
    return (base + (base < 1) * (1 - base)) + bonus


def settle(attacker_high, defender_high, automatic_on, attacker_wins_ties):
    """(flipped, automatic) for the sides' highest modified dice (0/1 each); a defender's
    highest is not read when the attempt succeeds automatically."""
    automatic = (attacker_high >= automatic_on) * 1
    wins = (attacker_high > defender_high) * 1 + (attacker_high == defender_high) * attacker_wins_ties
    return automatic + wins - automatic * wins, automatic
