"""The Monte Carlo kernel of two fixed rolls, shared by the procedures whose dice do not depend
on what happens in the battle (a field battle or an assault with no surprise and no after-roll
card: the first question most users ask).

Each trial draws the attacker's hits from row 0 and the defender's from row 1; with four rows it
then adds draws from rows 2 (attacker) and 3 (defender), a before-roll card's dice. The outcome
is `cells[attacker hits, defender hits]`, a flat index into out[lane]. Without card dice the
draws are the ones the procedure's own kernel makes, so a seed gives the same numbers through
either (tests/test_pair_kernel.py); with them, the order of the field kernel's former plain
path, so the numbers are those of before. Being small, this kernel compiles in about a second
where a procedure's kernel takes several.
"""
import numpy as np
from numba import njit

from .rng import draw, seed_stream, static


def pair_args(rows, bases, cells):
    """Arguments of pair_lane: rows of one inverse-CDF table width (2 or 4 of them, attacker
    first), their base counts, and the cell table."""
    rows = np.ascontiguousarray(rows, dtype=np.uint64)
    return (static(rows.shape[1]), rows, np.asarray(bases, dtype=np.int64),
            np.ascontiguousarray(cells, dtype=np.int64))


@njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
def pair_lane(width_mode, rows, bases, cells, seed, first_chunk, chunk_trials, out, lane):
    """One lane of the runner (core.montecarlo): one count per battle in out[lane], the
    histogram flattened (flat_out)."""
    width = len(width_mode)
    flat = out[lane]  # zeroed by the runner
    a_row, a_base, d_row, d_base = rows[0], bases[0], rows[1], bases[1]
    for c in range(lane, len(chunk_trials), out.shape[0]):
        st = seed_stream(seed, first_chunk + c)
        for _ in range(chunk_trials[c]):
            ah, st = draw(st, a_row, a_base, width)
            dh, st = draw(st, d_row, d_base, width)
            for k in range(2, rows.shape[0]):  # the card dice: attacker's, then defender's
                more, st = draw(st, rows[k], bases[k], width)
                if k == 2:
                    ah += more
                else:
                    dh += more
            flat[cells[ah, dh]] += 1


pair_lane.flat_out = True  # core.montecarlo hands out as (lanes, cells): a kernel's reshape
# links numba's array module, about 55 ms of import in every process that loads the kernel
