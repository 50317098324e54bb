"""xoshiro256** inside numba kernels, one stream per chunk.

A chunk's stream is derived from (seed, chunk index) with splitmix64, never from the thread
that runs it, so results do not depend on the thread count. The state is a tuple of four
uint64 that the kernel threads through its loop (it stays in registers).

Counts are sampled by inverse CDF from one 64-bit word (`draw`): `base` + the number of
thresholds in `row` that the word reaches. `width` is a compile-time constant (see `static`)
so the comparisons unroll into branch-free vector code; tables are padded to a power of two
(at least 8) with the largest word. The functions a kernel calls per trial are inlined by numba
and written flat: each nested inlined call costs compile time at every call site.
"""
import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def static(n: int) -> tuple:
    """`n` as a compile-time constant for a kernel: a tuple of n zeros, which numba types by its
    length, so the kernel reads it back with len() as a constant. A kernel compiles (and caches)
    once per distinct value; unlike numba.literally, calling it costs no extra dispatch."""
    return (0,) * int(n)


@njit(cache=True, inline="always")
def _splitmix(x):
    x = x + _GOLDEN
    z = (x ^ (x >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31)), x


@njit(cache=True, inline="always")
def seed_stream(seed, chunk):
    """The xoshiro256** state of chunk `chunk` under `seed`."""
    x = np.uint64(seed) * _M2 + np.uint64(chunk) * _GOLDEN
    s0, x = _splitmix(x)
    s1, x = _splitmix(x)
    s2, x = _splitmix(x)
    s3, x = _splitmix(x)
    return (s0, s1, s2, s3)


@njit(cache=True, inline="always")
def next_u64(st):
    """(next 64-bit word, next state) of xoshiro256** (rotations written out: every inlined
    call costs numba compile time)."""
    s0, s1, s2, s3 = st
    x = s1 * np.uint64(5)
    x = (x << np.uint64(7)) | (x >> np.uint64(57))
    result = x * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return result, (s0, s1, s2, s3)


@njit(cache=True, inline="always")
def draw(st, row, base, width):
    """(count sampled with a fresh word, next state): `base` + #{k < width : u >= row[k]}, an
    inverse-CDF sample from the word `u`."""
    u, st = next_u64(st)
    k = base
    for j in range(width):
        k += u >= row[j]
    return k, st
