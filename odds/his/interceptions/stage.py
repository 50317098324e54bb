"""An avoid-battle (or interception) roll as a stage of a composed procedure (his.attack): the
one module of interceptions/ that a composition imports (pyproject.toml, contract
"attacks-use-stages"). A land roll without cards: 2d6 + `modifier` succeeds on `target` or more.
"""
from __future__ import annotations

from dataclasses import replace

from ...core import montecarlo
from .procedure import TWO_DICE, exact_joint

__all__ = ("KERNELS", "success", "successes")

KERNEL = "odds.his.interceptions.kernel"
KERNELS = (KERNEL,)  # the kernel modules `successes` runs


def success(modifier: int, target: int) -> float:
    """P(2d6 + modifier >= target), exact."""
    return float(exact_joint(modifier, target, 0, 0)[1].sum())


def successes(modifier: int, target: int, n: int, seed: int, threads, progress) -> montecarlo.Run:
    """`n` rolls of 2d6 + modifier against `target` on this folder's kernel, from `seed`: a
    montecarlo.Run whose hist is [failures, successes] (int64; partial when a Ctrl-C or the
    caller's stop test cut it)."""
    from ...core.kernel_cache import load

    args = load(KERNEL, "kernel_args")(TWO_DICE, modifier, target, 0, 0)
    r = montecarlo.run(load(KERNEL, "intercept_lane"), args, (2, 2, 2, len(TWO_DICE)), n, seed,
                       threads=threads, progress=progress)
    return replace(r, hist=r.hist.reshape(2, -1).sum(axis=1))
