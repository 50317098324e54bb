"""Monte Carlo for crusades in short slices, so that Ctrl-C answers within about a second.

The core runner works in batches of up to 4.2 million trials, and a numba lane cannot be
stopped midway: a crusades batch could take minutes. `simulate` runs the battles as
`montecarlo.rounds` of about SLICE_SECONDS each instead, moving the kernel's first battle
number (``base``) from slice to slice, so battle b always uses the stream of (seed, b) and
the numbers are the same as in one piece. Ctrl-C (or a caller's stop test) keeps every
completed battle: the Result is marked partial.
"""
from __future__ import annotations

from dataclasses import replace

from ...core import montecarlo
from ...core.engine import McOptions, Procedure, solve
from ...core.result import Result

SLICE_SECONDS = 0.3
FIRST_SLICE = 2048


def simulate(proc: Procedure, method: str, mc: McOptions) -> Result:
    """The Result of `proc` by Monte Carlo (method 'auto' or 'mc'), run slice by slice."""
    res = solve(replace(proc, sample=lambda mc: _slices(proc, mc)), method, mc)
    if res.partial:
        res = res.with_changes(notes=tuple(res.notes) + (
            f"interrupted: {res.trials:,} of {mc.trials:,} completed",))
    return res


def _slices(proc: Procedure, mc: McOptions) -> montecarlo.Run:
    from ...core.kernel_cache import load

    kernel = load(*proc.kernel)
    args = proc.kernel_args()
    montecarlo.run(kernel, args, proc.shape, 0, mc.seed, threads=1, progress=mc.progress)  # load

    def step(first, n):
        args.base[0] = first
        return montecarlo.run(kernel, args, proc.shape, n, mc.seed, threads=mc.threads,
                              progress=False)

    return montecarlo.rounds(step, proc.shape, mc.trials, _slice_size,
                             main=lambda h: proc.summarise(h)[0][proc.main],
                             precision=mc.precision, progress=mc.progress)


def _slice_size(n, seconds):
    """About SLICE_SECONDS of battles at the last slice's rate (FIRST_SLICE to begin, at most
    64 chunks)."""
    if n is None:
        return FIRST_SLICE
    rate = n / max(seconds, 1e-6)
    return int(min(max(rate * SLICE_SECONDS, FIRST_SLICE), montecarlo.CHUNK * 64))
