"""compile_speed (opt-in, ODDS_FAST_COMPILE=1): numba's own results and the same numbers, only
for this package's compiles, only on tested numba versions, numba's own steps back on failure."""
import json
import os
import subprocess
import sys

import numba
import pytest
from numba.core import analysis, compiler
from numba.core.types import functions

from odds.core import compile_speed as cs
from odds.core import kernel_cache

FAST = {"ODDS_FAST_COMPILE": "1"}


@pytest.fixture
def installed(monkeypatch):
    """compile_speed installed in this process for one test, numba's own steps after it."""
    monkeypatch.setenv("ODDS_FAST_COMPILE", "1")
    if not cs.tested(numba.__version__):
        pytest.skip(f"numba {numba.__version__} is not a version compile_speed was tested on")
    assert cs.install()
    yield
    cs.uninstall()
    assert analysis.compute_live_map is cs.ORIGINAL["live_map"]


def loops(n, xs):  # break, continue, while-else, nested loops, a variable defined in one arm
    total = 0
    for i in range(n):
        if xs[i] < 0:
            continue
        j = 0
        while j < i:
            if xs[j] == xs[i]:
                found = j
                break
            j += 1
        else:
            found = -1
        total += found
        if total > 100:
            break
    return total


def functions_to_check():
    yield loops
    for module in ("odds.crusades.simulator.kernel", "odds.his.field.kernel"):
        kernel_cache.load(module, "__name__")
        for value in vars(sys.modules[module]).values():
            if hasattr(value, "py_func"):
                yield value.py_func


def test_live_map_is_numbas_on_every_kernel_function():
    checked = 0
    for fn in functions_to_check():
        blocks = compiler.run_frontend(fn).blocks
        cfg = analysis.compute_cfg_from_blocks(blocks)
        uses = analysis.compute_use_defs(blocks)
        want = analysis.compute_live_map(cfg, blocks, uses.usemap, uses.defmap)
        assert cs._live_map(cfg, blocks, uses.usemap, uses.defmap) == want, fn
        checked += len(blocks)
    assert checked > 500  # the crusades kernel alone has hundreds of blocks


def run(code, env=None, *args):
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return out


# A kernel compiled on an empty cache, every liveness and call typing of this package's
# compile compared with numba's own as it compiles; then a function of the user's compiled
# in the same process, which must not go through compile_speed.
COMPILE = """
import json, sys
import numpy as np
from numba import njit
from odds.core import compile_speed as cs
counts = {"live": 0, "typing": 0}
fast_live, fast_typing = cs._live_map, cs.call_type

def live(*args):
    counts["live"] += 1
    mine = fast_live(*args)
    assert mine == cs.ORIGINAL["live_map"](*args)
    return mine

def typing(self, context, args, kws):
    if cs._state["ours"]:
        counts["typing"] += 1
        mine = fast_typing(self, context, args, kws)
        assert mine == cs.ORIGINAL["call_type"](self, context, args, kws)
        return mine
    return cs.ORIGINAL["call_type"](self, context, args, kws)

if cs.install():
    from numba.core import analysis
    from numba.core.types import functions
    cs._live_map, functions.BaseFunction.get_call_type = live, typing
import odds
r = odds.his.field_battle(4, 4, attacker_cards=["surprise-attack"], method="mc", trials=50000,
                          seed=9)
ours = dict(counts)

@njit
def users(xs):
    return np.sum(xs) + len(xs) + min(xs[0], xs[-1])

assert users(np.arange(5.0)) == 5 + 10 + 0
print(json.dumps([ours, counts, r.to_json()]))
"""


def compile_in_a_process(tmp_path, env):
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / json.dumps(env))}
    return json.loads(run(COMPILE, {**cache, **env}).stdout)


def test_only_this_packages_compiles_go_through_them_with_numbas_answers_and_numbers(tmp_path):
    ours, after_users, faster = compile_in_a_process(tmp_path, FAST)
    assert ours["live"] > 20 and ours["typing"] > 100
    assert after_users == ours  # the user's function: numba's own steps
    off, _, plain = compile_in_a_process(tmp_path, {"ODDS_FAST_COMPILE": ""})
    assert off == {"live": 0, "typing": 0}
    assert faster == plain


def test_off_by_default(monkeypatch):
    monkeypatch.delenv("ODDS_FAST_COMPILE", raising=False)
    assert cs.install() is False
    assert functions.BaseFunction.get_call_type is not cs.call_type
    assert analysis.compute_live_map is not cs.live_map


def test_a_value_other_than_1_or_0_is_ignored_in_one_line(monkeypatch, capsys):
    monkeypatch.setenv("ODDS_FAST_COMPILE", "yes")
    monkeypatch.delitem(cs._state, "told", raising=False)
    assert cs.install() is False and cs.install() is False
    assert capsys.readouterr().err == "odds: ODDS_FAST_COMPILE: 'yes' is not 1 or 0; ignored\n"
    assert analysis.compute_live_map is not cs.live_map


def test_only_on_the_tested_numba_versions(monkeypatch, capsys):
    assert cs.tested("0.68.1") and cs.tested("0.60.0")
    assert not cs.tested("0.69.0") and not cs.tested("0.59.1") and not cs.tested("1.0.0")
    monkeypatch.setenv("ODDS_FAST_COMPILE", "1")
    monkeypatch.setattr(cs, "numba_version", lambda: "0.69.0")
    try:
        assert cs.install() is False
        assert functions.BaseFunction.get_call_type is not cs.call_type
        assert "numba 0.69.0 is not one of the tested versions" in capsys.readouterr().err
    finally:
        cs.uninstall()


def test_a_failure_while_installing_puts_numbas_functions_back(monkeypatch, capsys):
    if not cs.tested(numba.__version__):
        pytest.skip("compile_speed does not install on this numba")
    live, typing = analysis.compute_live_map, functions.BaseFunction.get_call_type

    def broken(*args):
        raise RuntimeError("no such event kind")

    monkeypatch.setenv("ODDS_FAST_COMPILE", "1")
    monkeypatch.setattr(cs, "_counter", broken)  # the listener on numba's events, registered last
    try:
        assert cs.install() is False
        assert analysis.compute_live_map is live and functions.BaseFunction.get_call_type is typing
        assert "ignored" in capsys.readouterr().err
    finally:
        cs.uninstall()


def test_a_failure_in_a_replaced_step_answers_with_numbas_and_puts_them_back(
        installed, monkeypatch, capsys):
    blocks = compiler.run_frontend(loops).blocks
    cfg = analysis.compute_cfg_from_blocks(blocks)
    uses = analysis.compute_use_defs(blocks)
    want = cs.ORIGINAL["live_map"](cfg, blocks, uses.usemap, uses.defmap)

    def broken(*args):
        raise KeyError("a numba whose IR differs")

    monkeypatch.setattr(cs, "_live_map", broken)
    monkeypatch.setitem(cs._state, "ours", 1)  # as inside a compile of this package's kernel
    assert analysis.compute_live_map(cfg, blocks, uses.usemap, uses.defmap) == want
    assert analysis.compute_live_map is cs.ORIGINAL["live_map"]
    assert functions.BaseFunction.get_call_type is cs.ORIGINAL["call_type"]
    assert cs.install() is False  # given up for the rest of the process
    assert capsys.readouterr().err.count("compiling with numba's own steps") == 1


def test_a_call_numba_cannot_type_raises_as_numbas_and_keeps_them_installed(installed,
                                                                            monkeypatch):
    from numba.core import errors, types
    from numba.core.registry import cpu_target

    context = cpu_target.typing_context
    context.refresh()
    length = context.resolve_value_type(len)
    monkeypatch.setitem(cs._state, "ours", 1)  # as inside a compile of this package's kernel
    with pytest.raises(errors.TypingError):
        length.get_call_type(context, (types.int64,), {})
    pair = (types.UniTuple(types.int64, 2),)
    first = length.get_call_type(context, pair, {})
    assert length.get_call_type(context, pair, {}) is first and first.return_type == types.intp
    assert functions.BaseFunction.get_call_type is cs.call_type and not cs._state["gave_up"]


# A numba keeping get_call_type's parameters but keeping the implementation keys elsewhere
# (where lowering reads them): with compile_speed installed, every function must still
# compile and run, this package's kernels and the user's alike.
MOVED = """
import json, sys
import numpy as np
from numba import njit
from numba.core.types import functions
base = functions.BaseFunction
numbas = base.get_call_type

def get_call_type(self, context, args, kws):
    sig = numbas(self, context, args, kws)
    if sig is not None:
        self.__dict__.setdefault("_moved", {})[sig.args] = self._impl_keys.pop(sig.args)
    return sig

base.get_call_type = get_call_type
base.get_impl_key = lambda self, sig: self._moved[sig.args]
from odds.core import compile_speed as cs
assert cs.install()
import odds
r = odds.his.field_battle(4, 4, attacker_cards=["surprise-attack"], method="mc", trials=20000,
                          seed=9)

@njit
def users(xs):
    return np.sum(xs) + len(xs) + min(xs[0], xs[-1])

assert users(np.arange(5.0)) == 15
assert base.get_call_type is get_call_type and not cs.install()
print(json.dumps(r.p))
"""


def test_a_numba_whose_internals_differ_leaves_every_function_working(tmp_path):
    if not cs.tested(numba.__version__):
        pytest.skip("compile_speed does not install on this numba")
    out = run(MOVED, {**FAST, "NUMBA_CACHE_DIR": str(tmp_path)})
    exact = __import__("odds").his.field_battle(4, 4, attacker_cards=["surprise-attack"]).p
    assert abs(json.loads(out.stdout) - exact) < 0.02
    assert out.stderr.count("compiling with numba's own steps") == 1


# numba's own test that caught remembered call types lowering with another compile's
# implementation: typed dicts built from zips, whose overloads compile again under the
# flags of each nested compile. Its functions count as this package's here.
NUMBAS_TEST = "numba.tests.test_dictobject.TestDictIterableCtorJit.test_iterable_type_constructor"


def test_numbas_own_test_of_nested_overloads_passes_with_them():
    pytest.importorskip("numba.tests.test_dictobject")
    if not cs.tested(numba.__version__):
        pytest.skip("compile_speed does not install on this numba")
    code = ("import sys, unittest; from odds.core import compile_speed; "
            "compile_speed.PACKAGE = 'numba'; assert compile_speed.install(); "
            f"suite = unittest.defaultTestLoader.loadTestsFromName({NUMBAS_TEST!r}); "
            "result = unittest.TextTestRunner().run(suite); "
            "assert compile_speed._state['installed']; "
            "sys.exit(not result.wasSuccessful() or result.testsRun != 1)")
    run(code, FAST)


# With the opt-in, a kernel compiles without numba's BLAS probe (scipy.linalg not imported);
# the user's function compiled next still gets numba's BLAS answer (np.convolve of floats).
BLAS = """
import json, sys
import numpy as np
from numba import njit
import odds
odds.his.field_battle(5, 4, method="mc", trials=1000, seed=3)
skipped = "scipy.linalg" not in sys.modules

@njit
def users(a, b):
    return np.convolve(a, b)

users(np.ones(3), np.ones(2))
from numba.np import arraymath
print(json.dumps([skipped, arraymath._HAVE_BLAS]))
"""


def test_the_blas_probe_waits_for_a_function_that_is_not_ours(tmp_path):
    pytest.importorskip("scipy.linalg")
    if not cs.tested(numba.__version__):
        pytest.skip("compile_speed does not install on this numba")
    fast = json.loads(run(BLAS, {**FAST, "NUMBA_CACHE_DIR": str(tmp_path / "a")}).stdout)
    plain = json.loads(run(BLAS, {"ODDS_FAST_COMPILE": "", "NUMBA_CACHE_DIR": str(tmp_path / "b")}
                           ).stdout)
    assert fast == [True, True] and plain == [False, True]
