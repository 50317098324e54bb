"""Two steps of numba's compiler done faster, with the same results: installed the first time
this package compiles a kernel (`kernel_cache`), for every numba function of the process.

Both grow with the size of one function, and the crusades kernel is one large function (its
first compile took 9.3-9.5 s here, 6.5-6.7 s with both):
- *Liveness* (`numba.core.analysis.compute_live_map`): which variables are alive at the entry
  of each block, run after most of numba's passes. numba iterates Python sets of names to a
  fixed point; `live_map` iterates the same equations on bitsets (Python ints, one bit per
  name) and returns the same sets. About 2 s of that first compile.
- *Typing a call to a function numba implements* (`BaseFunction.get_call_type`): type
  inference asks again at every call site in every round (5,570 times, 437 distinct
  questions). `call_type` remembers each answer on the function type, keyed as numba keys
  its own cache of compiled overloads (typing context, argument types, compile flags) and
  by the target, with the implementation numba chose for it: numba's lowering takes the
  implementation of the last call typed with those argument types, and an overload compiles
  one per compile flags, so an answer given again sets it again. A question that fails is
  asked again. About 0.7 s.
Where numba's internals differ from the ones this was written for, nothing is changed.
"""
from __future__ import annotations

import inspect
from functools import lru_cache

ORIGINAL: dict = {}  # numba's own functions, kept for the tests that compare them with these


def _bits(names, index: dict, table: list) -> int:
    """The bitset of `names`, numbering names not seen before."""
    bits = 0
    for name in names:
        i = index.get(name)
        if i is None:
            i = index[name] = len(table)
            table.append(name)
        bits |= 1 << i
    return bits


def live_map(cfg, blocks, var_use_map, var_def_map):
    """numba's `compute_live_map` on bitsets: the variables alive at the entry of each block
    (reaching definitions forward in topological order, then uses backward, each to a fixed
    point), as {block offset: set of names}."""
    order = cfg.topo_order()
    index, table = {}, []
    successors = {b: [s for s, _ in cfg.successors(b)] for b in order}
    defined = {b: _bits(var_def_map[b], index, table) for b in blocks}
    used = {b: _bits(var_use_map[b], index, table) for b in blocks}
    reach: dict = {}
    while True:
        before = dict(reach)
        for b in order:
            here = reach[b] = reach.get(b, 0) | defined[b] | used[b]
            for s in successors[b]:
                reach[s] = reach.get(s, 0) | here
        if reach == before:
            break
    live = dict(used)
    while True:
        before = dict(live)
        for b in reversed(order):
            for p, _ in cfg.predecessors(b):
                live[p] |= live[b] & reach.get(p, 0) & ~defined[p]
        if live == before:
            break
    return {b: _names(bits, table) for b, bits in live.items()}


def _names(bits: int, table: list) -> set:
    names = set()
    while bits:
        low = bits & -bits
        names.add(table[low.bit_length() - 1])
        bits ^= low
    return names


def call_type(self, context, args, kws):
    """numba's `BaseFunction.get_call_type`, each signature it found remembered with the key
    of the implementation it chose (a template may compile another one for other flags or
    another context, and lowering takes the last one typed)."""
    from numba.core import targetconfig
    from numba.core.target_extension import get_local_target

    try:
        key = (context, get_local_target(context), args, tuple(kws.items()),
               targetconfig.ConfigStack.top_or_none())
        hash(key)
    except TypeError:  # a literal argument that cannot be a key
        return ORIGINAL["call_type"](self, context, args, kws)
    known = self.__dict__.setdefault("_known_call_types", {})
    if key in known:
        sig, impl = known[key]
        self._impl_keys[sig.args] = impl  # what lowering calls: as numba would set it again
        return sig
    sig = ORIGINAL["call_type"](self, context, args, kws)
    known[key] = sig, self._impl_keys[sig.args]
    return sig


def _same_parameters(fn, names: str) -> bool:
    return list(inspect.signature(fn).parameters) == names.split()


@lru_cache(maxsize=None)
def install() -> bool:
    """Put both in numba's place, once per process; False (nothing changed) where numba's
    functions are not the ones these replace."""
    from numba.core import analysis
    from numba.core.types import functions

    live, typing = analysis.compute_live_map, functions.BaseFunction.get_call_type
    if not (_same_parameters(live, "cfg blocks var_use_map var_def_map")
            and _same_parameters(typing, "self context args kws")):
        return False
    ORIGINAL.update(live_map=live, call_type=typing)
    analysis.compute_live_map = live_map
    functions.BaseFunction.get_call_type = call_type
    return True
