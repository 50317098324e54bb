"""compile_speed's faster numba steps give numba's own results, and the same numbers."""
import json
import os
import subprocess
import sys

import pytest
from numba.core import analysis, compiler

from odds.core import compile_speed, kernel_cache


@pytest.fixture(scope="module")
def numbas_live_map():
    if not compile_speed.install():
        pytest.skip("this numba's compiler is not the one compile_speed replaces steps of")
    return compile_speed.ORIGINAL["live_map"]


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


def functions():
    yield loops
    for module in ("odds.crusades.kernel", "odds.his.field_kernel"):
        kernel_cache.load(module, "__name__")
        for value in vars(sys.modules[module]).values():
            if hasattr(value, "py_func"):
                yield value.py_func


def test_live_map_is_numbas_on_every_kernel_function(numbas_live_map):
    checked = 0
    for fn in functions():
        blocks = compiler.run_frontend(fn).blocks
        cfg = analysis.compute_cfg_from_blocks(blocks)
        uses = analysis.compute_use_defs(blocks)
        want = numbas_live_map(cfg, blocks, uses.usemap, uses.defmap)
        assert compile_speed.live_map(cfg, blocks, uses.usemap, uses.defmap) == want, fn
        checked += len(blocks)
    assert checked > 500  # the crusades kernel alone has hundreds of blocks


# A kernel compiled on an empty cache, every liveness and call typing compared with numba's
# own, or (argument "off") compiled without compile_speed.
COMPILE = """
import json, sys
from odds.core import compile_speed as cs
counts = {"live": 0, "typing": 0}
if sys.argv[1] == "off":
    cs.install = lambda: False
else:
    assert cs.install()
    from numba.core import analysis
    from numba.core.types import functions

    def live(*args):
        counts["live"] += 1
        mine = cs.live_map(*args)
        assert mine == cs.ORIGINAL["live_map"](*args)
        return mine

    def typing(self, context, args, kws):
        counts["typing"] += 1
        mine = cs.call_type(self, context, args, kws)
        assert mine == cs.ORIGINAL["call_type"](self, context, args, kws)
        return mine

    analysis.compute_live_map, functions.BaseFunction.get_call_type = live, typing
import odds
r = odds.his.field_battle(4, 4, attacker_cards=["surprise-attack"], method="mc", trials=50000,
                          seed=9)
print(json.dumps([counts, r.to_json()]))
"""


def compile_in_a_process(tmp_path, mode):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / mode)}
    out = subprocess.run([sys.executable, "-c", COMPILE, mode], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def test_a_kernel_compiled_with_them_asks_numba_the_same_and_gives_the_same_numbers(
        tmp_path, numbas_live_map):
    counts, faster = compile_in_a_process(tmp_path, "on")
    _, plain = compile_in_a_process(tmp_path, "off")
    assert counts["live"] > 20 and counts["typing"] > 100
    assert faster == plain


# numba's own test that caught remembered call types lowering with another compile's
# implementation: typed dicts built from zips, whose overloads compile again under the
# flags of each nested compile.
NUMBAS_TEST = "numba.tests.test_dictobject.TestDictIterableCtorJit.test_iterable_type_constructor"


def test_numbas_own_test_of_nested_overloads_passes_with_them(numbas_live_map):
    pytest.importorskip("numba.tests.test_dictobject")
    code = ("import sys, unittest; from odds.core import compile_speed; "
            "assert compile_speed.install(); "
            f"suite = unittest.defaultTestLoader.loadTestsFromName({NUMBAS_TEST!r}); "
            "result = unittest.TextTestRunner().run(suite); "
            "sys.exit(not result.wasSuccessful() or result.testsRun != 1)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
