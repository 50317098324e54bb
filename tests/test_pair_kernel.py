"""The shared kernel of two fixed rolls makes the draws the procedures' own kernels make for a
battle without card dice: the same seed gives the same counts, cell for cell, through either
kernel. (With Tercios' dice the pair kernel draws both main rolls first, as the field kernel's
plain path did before it: same numbers as before, another order than field_lane's.)"""
from importlib import import_module

import numpy as np
import pytest

from odds.core import montecarlo
from odds.core.kernel_cache import load

field_mod, assault_mod = (import_module(f"odds.his.{m}.procedure") for m in ("field", "assaults"))

TRIALS, SEED = 150_000, 11


def _counts(kernel, args, shape):
    return montecarlo.run(load(*kernel), args, shape, TRIALS, SEED, progress=False).hist


@pytest.mark.parametrize("kw", [
    dict(attacker=5, defender=4),
    dict(attacker=9, defender=6, attacker_leader=2, defender_leader=1, attacker_cavalry=2),
    dict(attacker=3, defender=9, defender_leader=3),
])
def test_field_battles_count_alike_through_both_kernels(kw):
    a, d = field_mod.setup(*field_mod.forces(**kw))
    assert field_mod.kernel(a, d) == montecarlo.PAIR_LANE
    build = load("odds.his.field.kernel", "kernel_args")
    shape = field_mod.joint_shape(a, d)
    pair = _counts(montecarlo.PAIR_LANE, build(a, d), shape)
    own = _counts(("odds.his.field.kernel", "field_lane"), build(a, d, pair=False), shape)
    assert pair.sum() == TRIALS and np.array_equal(pair, own)


@pytest.mark.parametrize("kw", [
    dict(attacker=6, defender=3),
    dict(attacker=7, attacker_cavalry=2, attacker_leader=1, defender=2, defender_leader=1),
    dict(attacker=3, defender=0),  # an empty space: the attacker's dice are not halved
])
def test_assaults_count_alike_through_both_kernels(kw):
    a, d = field_mod.setup(*field_mod.forces(**kw, procedure="assault"), "assault")
    assert assault_mod.kernel(a, d) == montecarlo.PAIR_LANE
    build = load("odds.his.assaults.kernel", "kernel_args")
    shape = assault_mod.joint_shape(a, d)
    pair = _counts(montecarlo.PAIR_LANE, build(a, d, True), shape)
    own = _counts(("odds.his.assaults.kernel", "assault_lane"), build(a, d, True, pair=False), shape)
    assert pair.sum() == TRIALS and np.array_equal(pair, own)
