"""The field battle as a stage of a composed procedure (his.attack): the one module of field/
that a composition imports (pyproject.toml, contract "attacks-use-stages").

Sides are `Side` records after every card (`sides`); a battle's joint is
``[code, attacker losses, defender losses]`` (code bit 0: the attacker won, bit 1: the
both-eliminated rule, bits 2 and 3: the attacker's / defender's after-roll card played),
losses in units; exact joints hold probabilities (summing to 1), Monte Carlo ones counts.
"""
from __future__ import annotations

import numpy as np

from ...core import montecarlo
from .procedure import (HIT_ON, MAX_WITHDRAW, exact_joint, forces, hit_numbers, hit_params,
                        hit_settings, joint_shape, kernel, max_hits, setup)

__all__ = ("HIT_ON", "KERNELS", "MAX_WITHDRAW", "counts", "forces", "hit_params", "hit_settings",
           "joint", "max_hits", "shape", "sides")

KERNEL = "odds.his.field.kernel"  # field_lane and every battle's kernel_args
KERNELS = (montecarlo.PAIR_LANE[0], KERNEL)  # the kernel modules `counts` may run


def sides(attacker, defender, attacker_hit_on=HIT_ON, defender_hit_on=HIT_ON):
    """(attacker Side, defender Side) of a field battle between two validated Forces
    (`forces`): leader dice, the defender's +1 die, every card played, each side's hit number
    (validated: hit_numbers)."""
    a, d = setup(attacker, defender)
    hit_numbers(a, d, attacker_hit_on, defender_hit_on)
    return a, d


def shape(a, d) -> tuple:
    """The battle joint's shape: (4, or 16 with an after-roll card; a.units + 1; d.units + 1)."""
    return joint_shape(a, d)


def joint(a, d) -> np.ndarray:
    """The exact joint of a battle between Sides `a` and `d` (probabilities, `shape(a, d)`)."""
    return exact_joint(a, d)


def counts(a, d, n: int, seed: int, threads, progress) -> montecarlo.Run:
    """`n` battles between Sides `a` and `d` on this folder's kernel, from `seed`: a
    montecarlo.Run whose hist holds a count per battle in the cells of `shape(a, d)` (int64;
    partial when a Ctrl-C or the caller's stop test cut it)."""
    from ...core.kernel_cache import load

    module, name = kernel(a, d)
    return montecarlo.run(load(module, name), load(KERNEL, "kernel_args")(a, d), shape(a, d), n,
                          seed, threads=threads, progress=progress)
