"""Opt-in (`ODDS_FAST_COMPILE=1`): two steps of numba's compiler done faster, with the same
results, while numba compiles a function of this package, and numba's BLAS probe put off
until another function compiles; off by default.

Both grow with the size of one function, and the crusades kernel is one large function (its
first compile took 9.3-9.5 s here, 6.5-6.7 s with both, on numba 0.68):
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
- *numba's BLAS probe*: importing numba's array functions imports scipy.linalg (0.2-0.3 s of
  every process that compiles or loads a kernel, where scipy is installed) only to choose how
  np.convolve/np.correlate multiply, which no kernel uses; it is skipped, then run as numba
  runs it before any other function compiles.

All three reach into numba's internals, hence the guards: `install` does nothing unless
ODDS_FAST_COMPILE=1 and numba is one of the versions this was tested on (`TESTED`); the
replacements answer with numba's own functions unless a compile of this package's function is
under way (a listener on numba's compile events counts them: numba compiles one function at a
time, under its compiler lock), so a notebook user's functions never go through them; and any
exception in installing or in their own book-keeping puts numba's functions back for the rest
of the process (one line on stderr says so).
"""
from __future__ import annotations

import os
import sys
import threading

ENV = "ODDS_FAST_COMPILE"
TESTED = ("0.60", "0.68")  # numba major.minor versions CI compiles and tests with these
PACKAGE = __name__.split(".")[0]
ORIGINAL: dict = {}  # numba's own functions while these are installed
_lock = threading.Lock()
_state = {"installed": False, "gave_up": False, "ours": 0, "stack": []}


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


def _live_map(cfg, blocks, var_use_map, var_def_map):
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


def live_map(cfg, blocks, var_use_map, var_def_map):
    """What replaces numba's `compute_live_map`: `_live_map` within this package's compiles,
    numba's own otherwise or once this gave up."""
    original = ORIGINAL["live_map"]
    if _state["ours"]:
        try:
            return _live_map(cfg, blocks, var_use_map, var_def_map)
        except Exception as error:
            give_up(error)
    return original(cfg, blocks, var_use_map, var_def_map)


def _key(context, args, kws):
    """How numba keys a compiled overload (context, target, arguments, compile flags), or None
    where an argument cannot be a key (a literal)."""
    from numba.core import targetconfig
    from numba.core.target_extension import get_local_target

    key = (context, get_local_target(context), args, tuple(kws.items()),
           targetconfig.ConfigStack.top_or_none())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def call_type(self, context, args, kws):
    """What replaces numba's `BaseFunction.get_call_type`: within this package's compiles,
    each signature numba found remembered with the key of the implementation it chose (a
    template may compile another one for other flags or another context, and lowering takes
    the last one typed); numba's own otherwise or once this gave up."""
    original = ORIGINAL["call_type"]
    if not _state["ours"]:
        return original(self, context, args, kws)
    try:
        key = _key(context, args, kws)
        known = self.__dict__.setdefault("_known_call_types", {})
        if key in known:
            sig, impl = known[key]
            self._impl_keys[sig.args] = impl  # what lowering calls: as numba would set it again
            return sig
    except Exception as error:
        give_up(error)
        key = None
    sig = original(self, context, args, kws)  # raises as numba does: failures are not kept
    if key is not None and sig is not None and not _state["gave_up"]:
        try:
            known[key] = sig, self._impl_keys[sig.args]
        except Exception as error:
            give_up(error)
    return sig


def _same_parameters(fn, names: str) -> bool:
    import inspect

    return list(inspect.signature(fn).parameters) == names.split()


def wanted() -> bool:
    """ODDS_FAST_COMPILE is 1 (unset, empty or 0: no; anything else: no, said once)."""
    value = os.environ.get(ENV, "")
    if value not in ("", "0", "1") and not _state.get("told"):
        _state["told"] = True
        print(f"{PACKAGE}: {ENV}: {value!r} is not 1 or 0; ignored", file=sys.stderr)
    return value == "1"


def tested(version: str) -> bool:
    return ".".join(version.split(".")[:2]) in TESTED


def _on_start(event) -> None:
    fn = getattr(event.data.get("dispatcher"), "py_func", None)
    ours = bool(_state["ours"]) or getattr(fn, "__module__", "").startswith(PACKAGE + ".")
    if not ours:
        _probe_blas()
    _state["stack"].append(ours)
    _state["ours"] += ours


def _skip_blas_probe() -> None:
    """numba's array functions imported without their BLAS probe: it imports scipy.linalg
    (about 0.2-0.3 s of every process that compiles or loads a kernel, where scipy is
    installed) only to choose how numba's np.convolve/np.correlate multiply, which no kernel
    uses. `_probe_blas` answers it before any other function compiles."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg.cython_blas"] = None  # the probe's import fails at once
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.modules.pop("scipy.linalg.cython_blas", None)
    _state["blas_unprobed"] = True


def _probe_blas() -> None:
    """The BLAS probe `_skip_blas_probe` skipped, as numba runs it, once."""
    if _state.pop("blas_unprobed", False):
        from numba.np import arraymath

        arraymath._HAVE_BLAS = arraymath._check_blas()


def _on_end(event) -> None:
    if _state["stack"]:
        _state["ours"] -= _state["stack"].pop()


def _counter():
    """A listener on numba's compile events counting the compiles under way that are of this
    package's functions (or inside one)."""
    from numba.core import event

    if "counter" not in _state:
        _state["counter"] = type("Counter", (event.Listener,), {
            "on_start": lambda self, ev: _on_start(ev), "on_end": lambda self, ev: _on_end(ev)})()
    return _state["counter"]


def numba_version() -> str:
    """The version of the numba installed."""
    import numba

    return numba.__version__


def install() -> bool:
    """Put both in numba's place, once per process, if ODDS_FAST_COMPILE=1 and numba is a
    tested version; False (nothing changed) otherwise, or where numba's functions are not the
    ones these replace."""
    if not wanted() or _state["gave_up"]:
        return False
    with _lock:
        if _state["installed"]:
            return True
        version = numba_version()
        if not tested(version):
            print(f"{PACKAGE}: {ENV}=1 ignored: numba {version} is not one of the "
                  f"tested versions ({', '.join(TESTED)})", file=sys.stderr)
            _state["gave_up"] = True
            return False
        try:
            from numba.core import analysis, event
            from numba.core.types import functions

            live, typing = analysis.compute_live_map, functions.BaseFunction.get_call_type
            if not (_same_parameters(live, "cfg blocks var_use_map var_def_map")
                    and _same_parameters(typing, "self context args kws")):
                _state["gave_up"] = True
                return False
            ORIGINAL.update(live_map=live, call_type=typing)
            analysis.compute_live_map = live_map
            functions.BaseFunction.get_call_type = call_type
            event.register("numba:compile", _counter())
            _state.update(listening=True, installed=True)
            _skip_blas_probe()
        except Exception as error:
            _restore()
            _state["gave_up"] = True
            print(f"{PACKAGE}: {ENV}=1 ignored: {error!r}", file=sys.stderr)
            return False
    return True


def _restore() -> None:
    """numba's own functions back (where these are still in place), the listener off."""
    try:
        from numba.core import analysis, event
        from numba.core.types import functions

        if analysis.compute_live_map is live_map and "live_map" in ORIGINAL:
            analysis.compute_live_map = ORIGINAL["live_map"]
        if functions.BaseFunction.get_call_type is call_type and "call_type" in ORIGINAL:
            functions.BaseFunction.get_call_type = ORIGINAL["call_type"]
        if _state.pop("listening", False):
            event.unregister("numba:compile", _counter())
        _probe_blas()
    finally:
        _state["installed"] = False


def give_up(error: BaseException) -> None:
    """numba's own functions from now on in this process, said in one line."""
    if _state["gave_up"]:
        return
    _state["gave_up"] = True
    _restore()
    print(f"{PACKAGE}: {ENV}=1: this numba's compiler differs from the tested ones "
          f"({error!r}); compiling with numba's own steps", file=sys.stderr)


def uninstall() -> None:
    """numba's own functions back (tests); install() may put these in place again."""
    with _lock:
        _restore()
        _state.update(gave_up=False, ours=0, stack=[])
