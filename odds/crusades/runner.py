"""Monte Carlo for crusades in short slices, so that Ctrl-C answers within about a second.

The core runner works in batches of up to 4.2 million trials, and a numba lane cannot be
stopped midway: a crusades batch could take minutes. `simulate` hands it slices of about
SLICE_SECONDS of battles instead, moving the kernel's first battle number (``base``) from
slice to slice, so battle b always uses the stream of (seed, b) and the numbers are the same
as in one piece. Ctrl-C keeps every completed slice: the Result is marked partial.
"""
from __future__ import annotations

import time

import numpy as np

from ..core import montecarlo
from ..core.engine import McOptions, Procedure, pick_method
from ..core.result import Result

SLICE_SECONDS = 0.3
FIRST_SLICE = 2048


def simulate(proc: Procedure, method: str, mc: McOptions) -> Result:
    """The Result of `proc` by Monte Carlo (method 'auto' or 'mc'), run slice by slice."""
    from ..core.kernel_cache import load

    pick_method(method, False)
    kernel = load(*proc.kernel)
    args = proc.kernel_args()
    base = args[-1]  # the kernel's first battle number, an array of one
    main = lambda h: proc.summarise(h)[0][proc.main]
    hist = np.zeros(proc.shape, np.int64)
    done, size, bar, partial, met = 0, FIRST_SLICE, None, False, None
    try:
        montecarlo.run(kernel, args, proc.shape, 0, mc.seed, threads=1, progress=mc.progress)  # load
        started = time.perf_counter()
        while done < mc.trials:
            n = min(size, mc.trials - done)
            base[0] = done
            t = time.perf_counter()
            run = montecarlo.run(kernel, args, proc.shape, n, mc.seed, threads=mc.threads,
                                 progress=False)
            hist += run.hist
            done += run.trials
            if run.partial:
                partial = True
                break
            if mc.precision is not None:
                met = montecarlo.half_width(int(main(hist)), done) < mc.precision
                if met:
                    break
            rate = n / max(time.perf_counter() - t, 1e-6)
            size = int(min(max(rate * SLICE_SECONDS, FIRST_SLICE), montecarlo.CHUNK * 64))
            bar = montecarlo._progress(bar, mc.progress, done, mc.trials, started)
    except KeyboardInterrupt:
        partial = True
    finally:
        if bar is not None:
            bar.close()
    counts, pmf_counts = proc.summarise(hist)
    notes = (f"precision {mc.precision} not reached within {done:,} trials",) if met is False else ()
    if partial:
        notes += (f"interrupted: {done:,} of {mc.trials:,} completed",)
    scale = (lambda v: v / done) if done else (lambda v: v * np.nan)
    return proc.result_type(proc.name, "mc", {k: scale(v) for k, v in counts.items()},
                            {k: scale(np.asarray(v)) for k, v in pmf_counts.items()}, proc.main,
                            trials=done, seed=mc.seed, partial=partial, settings=proc.settings,
                            notes=notes)
